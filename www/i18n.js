//! The page's words in English and Chinese (the Chinese ones in i18n-zh.js, loaded on demand by
//! `loadLang`).
//!
//! A small dictionary, no library: `t(key)` looks a key up in the current language and falls
//! back to English, then to the key itself, so a missing translation shows up as readable text
//! instead of `undefined`. Static markup names its words with `data-i18n="key"` (text) or
//! `data-i18n-placeholder` / `data-i18n-title` / `data-i18n-aria-label` (attributes), and
//! `applyI18n()` fills them in. The dictionary below has the English words of what the first load
//! draws: those the markup says are read from it (`readMarkup`), and a view loaded on demand
//! brings its own (`addWords`). The language chosen here is also the agent's prompt language.

/** The languages the page (and the agent's prompts) speak. */
export const LANGS = ["en", "zh"];

const en = {
  "model": "Model",
  "provider": "Provider",
  "baseUrl": "Base URL",
  "apiKey": "API key",
  "apiKey.placeholder": "kept in this tab's memory only",
  "remember": "Remember on this device",
  "test": "Test connection",
  "maxTokens": "Max tokens",
  "maxTokens.help": "The longest reply the model may write. Empty: the provider's default (Anthropic needs one: 1024).",
  "firstByteTimeout": "First byte timeout (s)",
  "idleTimeout": "Idle timeout (s)",
  "timeout.firstByte.help": "Give up when the provider has not started answering within this many seconds. 0: no limit.",
  "timeout.idle.help": "Give up when a reply that has started stays silent this many seconds. 0: no limit.",
  "tokenBudget": "Token budget",
  "tokenBudget.help": "Stop the run once it has used this many tokens, prompts and replies (estimated when the provider reports none). Empty or 0: no limit.",
  "timeBudget": "Time budget (s)",
  "timeBudget.help": "Stop the run once it has taken this many seconds (paused time aside). Empty or 0: no limit.",
  "memoryTokens": "Memory (tokens)",
  "memoryTokens.help": "When the next prompt would be longer than this many tokens, the oldest steps (all but the last two) are condensed into a summary that the prompt shows instead. Empty or 0: off.",
  "reflectEvery": "Reflect every (steps)",
  "reflectEvery.help": "Write a reflection every this many steps, and after two failed actions in a row; the next prompts carry it. Empty or 0: off.",
  "card.switch": "Switched format:",
  "timing.firstToken": "first token",
  "stat.tokens": "Tokens (in / out)",
  "scenario": "Scenario",
  "task": "Task",
  "task.placeholder": "Ask something the agent can look up or compute…",
  "format": "Format",
  "format.help": "mrkl: Thought / Action / Action Input / Final Answer. paper: Thought 1 / Action 1: Tool[input] / Finish[answer].",
  "maxSteps": "Max steps",
  "run": "Run",
  "stop": "Stop",
  "export": "Export JSON",
  "import": "Import",
  "share": "Share",
  "settings": "Settings",
  "empty.title": "Watch the loop think.",
  "empty.body": "Pick a scenario and press Run. Each step streams the model's words, then splits them into a Thought, an Action and the Observation the tool sends back, until an Answer.",
  "card.task": "Task",
  "card.thought": "Thought",
  "card.action": "Action",
  "card.observation": "Observation",
  "card.approval": "Approval",
  "card.fuel": "fuel",
  "approval.ask": "The agent wants to call {tool} with this input. Run it?",
  "approval.askServer": "The agent wants to call {tool} of the MCP server {server} with this input. Run it?",
  "approval.approve": "Approve",
  "approval.deny": "Deny",
  "approval.approved": "You approved this call to {tool}.",
  "approval.denied": "You denied this call to {tool}; the model is told so.",
  "tools": "Tools",
  "tools.upload.missing": "Choose a .wasm file and give it a name and a description.",
  "tools.upload.badSchema": "The schema is not valid JSON:",
  "tools.upload.checking": "Checking the module in the sandbox…",
  "tools.upload.added": "Added. Tick it to let the agent use it.",
  "tools.upload.refused": "Not added:",
  "tools.remove": "Remove",
  "tools.enabled": "(enabled: {list})",
  "tools.none": "none",
  "tool.search": "Opens an encyclopedia page (the paper's search[entity]).",
  "tool.lookup": "Finds the next sentence with a keyword in the open page (lookup[keyword]).",
  "tool.calculator": "Evaluates arithmetic.",
  "tool.search_docs": "Searches this site's documentation (BM25, in the page).",
  "tool.run_js": "Runs model-written JavaScript in a sandbox: no page, storage or network.",
  "files": "Files for run_js",
  "chart.unavailable": "The chart could not be loaded.",
  "tool.wordcount": "Counts words (a Rust program compiled to WebAssembly, run in the sandbox).",
  "tool.units": "Converts units (a Rust program compiled to WebAssembly, run in the sandbox).",
  "card.answer": "Answer",
  "card.repair": "Bad call → repair observation",
  "card.retry": "Bad call → retried",
  "legend.repair": "Bad call → repair",
  "card.note": "Note",
  "card.stop": "Stopped",
  "card.raw": "Raw model output",
  "card.reasoning": "Reasoning",
  "card.reasoning.redacted": "The provider hid this reasoning (redacted); it is sent back to it as it came.",
  "card.call": "call",
  "card.partial.refused": "The model's reply (refused)",
  "card.partial.truncated": "The reply so far (cut at the token limit)",
  "card.partial.error": "The reply so far (the run failed)",
  "card.partial.aborted": "The reply so far (stopped)",
  "card.summary": "Summary",
  "card.reflection": "Reflection",
  "memo.covers": "Steps 1–{n} condensed",
  "memo.covers.one": "Step 1 condensed",
  "memo.byTao": "written by tao from the steps (the offline model cannot write one)",
  "memo.byModel": "written by the model",
  "card.streaming": "model is writing…",
  "card.tool": "tool",
  "card.why": "why",
  "meta.model": "model",
  "meta.format": "format",
  "meta.lang": "language",
  "timing.model": "model",
  "timing.tool": "tool",
  "usage.tokens": "tokens",
  "usage.cached": "{n} from the cache",
  "usage.prompt": "prompt {n} tok/s",
  "usage.reply": "reply {n} tok/s",
  "stat.n_calls": "Model calls",
  "stat.n_badcalls": "Bad calls",
  "stat.steps": "Steps",
  "stat.elapsed": "Elapsed",
  // Not "Stop": the bar sits beside the Stop button, and this says how the run stands or ended.
  "stat.stop": "Outcome",
  "reason.answer": "answered",
  "reason.max_steps": "max steps reached",
  "reason.aborted": "aborted",
  "reason.error": "error",
  "reason.refused": "the model refused",
  "reason.truncated": "cut at the token limit",
  "reason.token_budget": "token budget spent",
  "reason.time_budget": "time budget spent",
  "reason.running": "running…",
  "reason.idle": "–",
  "status.loading": "Loading the agent…",
  "status.ready": "Ready.",
  "status.linkWaits": "This link sets up {model} at {host}. Nothing is sent until you press Run.",
  "status.imported": "Imported {name}",
  "status.exported": "Saved trajectory.json",
  "status.nothingToExport": "Nothing to export yet: run a task or import a trajectory first.",
  "error.import": "Could not import this file:",
  "error.load": "Could not load the agent from pkg/tao_agent.js. Build it first with `make build`.",
  "error.run": "The run failed:",
  // ----- the studio: step, pause, resume, playing the model, honest offline -----
  "step": "Step",
  "step.help": "Go to the next pause point: before the model call, or before the tool call.",
  "pause": "Pause",
  "pause.help": "Stop at the next pause point, losing nothing.",
  "resume": "Resume",
  "resume.help": "Go on from here to the end.",
  "reason.paused": "paused",
  "status.paused": "Paused. Step goes one point further; Resume runs to the end.",
  "paused.model": "Paused before the model call of step {n}",
  "paused.tool": "Paused before the tool call of step {n}: this will run",
  "paused.all": "The prompt about to be sent, whole:",
  "paused.new": "What this call adds to the prompt since the last call (the rest was sent before):",
  "paused.whole": "The whole prompt that will be sent ({n} messages)",
  "human.title": "You are the model",
  "human.hint": "Reply as the model would, in the format the prompt asks for.",
  "human.keys": " Ctrl+Enter sends.",
  "human.keys.mac": " ⌘+Enter sends.",
  "human.retried": "Your last reply could not be read: {why}",
  "human.example": "A well-formed reply looks like this (the second, once you know the answer):",
  "human.example.thought": "I should look this up.",
  "human.example.input": "Eiffel Tower",
  "human.example.done": "I now know the final answer.",
  "human.example.answer": "Paris",
  "human.prompt": "The whole prompt you received",
  "human.reply": "Your reply",
  "human.send": "Send",
  // ----- the prompt inspector: its button (the view brings its own words, prompt-view.js) -----
  "prompt.button": "Prompt",
  "prompt.button.title": "The exact request this step sent to the model, and its reply",
  "prompt.button.wait": "Available when the run ends or pauses",
  "prompt.error": "Could not show the prompt:",
  // ----- edit and fork -----
  "edit.edit": "Edit",
  "edit.fork": "Fork from here",
  "edit.cancel": "Cancel",
  "edit.label.thought": "The thought, as the fork will have it",
  "edit.label.observation": "The observation, as the fork will have it",
  "edit.label.tool": "Tool",
  "edit.label.input": "Input",
  "edit.badJson": "The input must be JSON, as the tool's was:",
  "fork.busy": "Wait for the run to end (or press Stop) before forking.",
  "error.fork": "The fork failed:",
  // ----- presentation and accessibility -----
  "present": "Present",
  "settings.hide": "Hide settings",
  "settings.show": "Show settings",
  "trajectory": "Trajectory",
  "announce.answer": "Answer:",
  "meta.scripted": "scripted (offline)",
  "meta.human": "you",
  "meta.inTab": "{model}, in this tab",
  "lang.en": "English",
  "lang.zh": "中文",
  "why.no_action": "no Action and no answer",
  "why.missing_action_input": "no Action Input",
  "why.missing_action": "no Action before the input",
  "why.action_none": "the Action was None",
  "why.action_and_final": "both an Action and a Final Answer",
  "why.truncated": "the reply was cut off",
  "why.empty": "an empty reply",
  "why.unknown_tool": "no tool by that name",
  "why.bad_json": "the JSON is not an action",
  "why.unclosed_bracket": "a bracket left open",
  "why.empty_answer": "an empty answer",
  "why.bad_input": "the input does not fit the tool",
  "why.repeated": "the same action as the step before",
  // The compare view (compare.js, compare-view.js) and the paper's prompt modes.
  "compare": "Compare modes",
  "compare.help": "Run the question as ReAct, Act, CoT and Standard side by side: the ReAct paper's comparison",
  "mode.react": "ReAct",
  "mode.act": "Act",
  "mode.cot": "CoT",
  "mode.standard": "Standard",
  "mode.react.hint": "Thinks, acts, observes, again",
  "mode.act.hint": "Acts and observes, never thinks aloud",
  "mode.cot.hint": "Thinks step by step, without tools",
  "mode.standard.hint": "Answers at once",
  "rate": "Rate this run:",
  "exportJsonl.help": "Every run of this visit, one JSON line each: prompts, replies, actions, observations and a reward (training data)",
  "footer.human": "You play the model: no key, no server.",
  "provider.chrome": "Chrome's built-in model",
  "footer.chrome": "Chrome's built-in model runs on this computer: no key, no server.",
  "footer.local": "Runs a small model in this tab, on this computer: no key, no server; downloaded once and kept in this browser.",
  "footer.remote": "Calls the model you chose from this browser: your key goes to it alone, through no server of ours.",
  // ----- benchmark mode: the way in (benchmark-open.js); the panel's words are in benchmark-words.js -----
  "bench.title": "Benchmark",
  "bench.help": "Run the ReAct paper's benchmark (HotpotQA, FEVER) with your model",
  "bench.resume": "Resume",
};

/** The attributes markup names its words in, besides its text (`data-i18n-<attribute>`). */
const ATTRIBUTES = ["placeholder", "title", "aria-label"];

/**
 * The English words the page's markup already says, read from it before any language is applied:
 * an element's text for `data-i18n`, and an attribute the markup writes out for
 * `data-i18n-<attribute>`. The dictionary above leaves those out, so the first load does not
 * carry them twice (index.html is their one source). A word a script looks up stays in the
 * dictionary: an element embedded in another page has no such markup.
 */
function readMarkup(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) en[el.dataset.i18n] ??= el.textContent.replace(/\s+/g, " ").trim();
  for (const attr of ATTRIBUTES) {
    for (const el of root.querySelectorAll(`[data-i18n-${attr}][${attr}]`)) en[el.getAttribute(`data-i18n-${attr}`)] ??= el.getAttribute(attr);
  }
}
if (typeof document !== "undefined") readMarkup(document);

/** The words by language; the Chinese ones come with `loadLang("zh")` (i18n-zh.js). */
const DICTIONARIES = { en, zh: {} };

let current = "en";
/** The Chinese words being loaded (or loaded), once. */
let chinese = null;

/** Adds words of a part loaded on demand (`{ en: {...}, zh: {...} }`), so the first load does not carry them. */
export function addWords(words) {
  for (const lang of LANGS) Object.assign(DICTIONARIES[lang], words[lang]);
}

/**
 * Loads the words of `lang` if they are not here yet: the Chinese ones are a module of their own
 * (i18n-zh.js), fetched the first time they are needed. Await it before `setLang`: until it
 * resolves, `t` answers in English.
 */
export function loadLang(lang) {
  if (lang !== "zh") return Promise.resolve();
  // A part's words added before these came stay: they are the part's own.
  chinese ??= import("./i18n-zh.js").then(
    ({ zh }) => {
      DICTIONARIES.zh = { ...zh, ...DICTIONARIES.zh };
    },
    (error) => {
      chinese = null; // tried again at the next need
      throw error;
    },
  );
  return chinese;
}

/** Sets the page's language ("en" or "zh"); unknown values fall back to English. */
export function setLang(lang) {
  current = LANGS.includes(lang) ? lang : "en";
  return current;
}

/** The page's current language. */
export function lang() {
  return current;
}

/** The text for `key` in the current language (or English, or the key itself). */
export function t(key) {
  return DICTIONARIES[current][key] ?? en[key] ?? key;
}

/** "Step 3" in English, "第 3 步" in Chinese. */
export function stepLabel(n) {
  return current === "zh" ? `第 ${n} 步` : `Step ${n}`;
}

/** Fills every `data-i18n*` element under `root` with the current language's words. */
export function applyI18n(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const attr of ATTRIBUTES) {
    const data = "data-i18n-" + attr;
    for (const el of root.querySelectorAll(`[${data}]`)) el.setAttribute(attr, t(el.getAttribute(data)));
  }
  if (root === document) {
    document.documentElement.lang = current === "zh" ? "zh-CN" : "en";
  }
}
