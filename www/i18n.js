//! The page's words in English and Chinese (the Chinese ones in i18n-zh.js, loaded on demand by
//! `loadLang`).
//!
//! A small dictionary, no library: `t(key)` looks a key up in the current language and falls
//! back to English, then to the key itself, so a missing translation shows up as readable text
//! instead of `undefined`. Static markup names its words with `data-i18n="key"` (text) or
//! `data-i18n-placeholder` / `data-i18n-title` / `data-i18n-aria-label` (attributes), and
//! `applyI18n()` fills them in. The language chosen here is also the agent's prompt language.

/** The languages the page (and the agent's prompts) speak. */
export const LANGS = ["en", "zh"];

const en = {
  "format.tools": "tools (native tool calling)",
  "format.auto": "auto (native, else mrkl)",
  "model": "Model",
  "provider": "Provider",
  "provider.scripted": "scripted (offline, no key)",
  "provider.openai": "OpenAI-compatible",
  "provider.ollama": "Ollama (local)",
  "provider.anthropic": "Anthropic",
  "baseUrl": "Base URL",
  "modelName": "Model name",
  "apiKey": "API key",
  "apiKey.placeholder": "kept in this tab's memory only",
  "remember": "Remember on this device",
  "remember.warning": "Stored unencrypted in this browser (localStorage): anyone with this browser profile, or a script on this site, can read it.",
  "test": "Test connection",
  "test.running": "Testing…",
  "test.ok": "Connected:",
  "test.firstToken": "first token",
  "test.total": "total",
  "test.streamed": "streamed",
  "test.notStreamed": "not streamed",
  "cors.hint": "The page calls the provider directly from your browser. Local servers must allow it: Ollama needs OLLAMA_ORIGINS=\"*\" (or this page's origin).",
  "maxTokens": "Max tokens",
  "maxTokens.default": "default",
  "maxTokens.help": "The longest reply the model may write. Empty: the provider's default (Anthropic needs one: 1024).",
  "firstByteTimeout": "First byte timeout (s)",
  "idleTimeout": "Idle timeout (s)",
  "timeout.firstByte.help": "Give up when the provider has not started answering within this many seconds. 0: no limit.",
  "timeout.idle.help": "Give up when a reply that has started stays silent this many seconds. 0: no limit.",
  "budgets": "Budgets and memory",
  "budgets.hint": "A budget stops the run when it is spent. Memory condenses the oldest steps into a summary; a reflection notes what was learned. Empty or 0: off.",
  "budget.off": "off",
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
  "tagline": "a ReAct agent in your browser: Thought → Action → Observation",
  "scenario": "Scenario",
  "task": "Task",
  "task.placeholder": "Ask something the agent can look up or compute…",
  "format": "Format",
  "format.mrkl": "mrkl (LangChain)",
  "format.paper": "paper (ReAct paper)",
  "format.help": "mrkl: Thought / Action / Action Input / Final Answer. paper: Thought 1 / Action 1: Tool[input] / Finish[answer].",
  "language": "Language",
  "maxSteps": "Max steps",
  "speed": "Speed",
  "speed.0": "instant",
  "speed.10": "fast",
  "speed.30": "normal",
  "speed.80": "slow",
  "speed.200": "very slow",
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
  "approval.approve": "Approve",
  "approval.deny": "Deny",
  "approval.approved": "You approved this call to {tool}.",
  "approval.denied": "You denied this call to {tool}; the model is told so.",
  "tools": "Tools",
  "tools.wiki": "search / lookup read",
  "tools.wiki.offline": "the built-in pages (offline)",
  "tools.wiki.custom": "another MediaWiki API…",
  "tools.approveCode": "Ask me before running model-written code",
  "tools.upload": "Add a WebAssembly tool (a WASI command: input on stdin, observation on stdout)",
  "tools.upload.file": ".wasm file",
  "tools.upload.name": "Name",
  "tools.upload.description": "Description (the model reads it)",
  "tools.upload.schema": "Input JSON Schema (optional; without it the tool takes one string)",
  "tools.upload.add": "Add tool",
  "tools.upload.missing": "Choose a .wasm file and give it a name and a description.",
  "tools.upload.badSchema": "The schema is not valid JSON:",
  "tools.upload.checking": "Checking the module in the sandbox…",
  "tools.upload.added": "Added. Tick it to let the agent use it.",
  "tools.upload.refused": "Not added:",
  "tools.remove": "Remove",
  "tools.modelView": "What the model is told",
  "tools.enabled": "enabled",
  "tools.none": "none",
  "tool.search": "Opens an encyclopedia page (the paper's search[entity]).",
  "tool.lookup": "Finds the next sentence with a keyword in the open page (lookup[keyword]).",
  "tool.calculator": "Evaluates arithmetic.",
  "tool.search_docs": "Searches this site's documentation (BM25, in the page).",
  "tool.run_js": "Runs model-written JavaScript in a sandbox: no page, storage or network.",
  "files": "Files for run_js",
  "files.drop": "Drop a CSV file here, or choose one",
  "files.hint": "Model-written code reads it as files[\"name\"].",
  "files.rows": "{n} rows",
  "files.lines": "{n} lines",
  "files.sample": "sample (made-up prices)",
  "files.remove": "Remove",
  "files.added": "Added {name}: run_js reads it as files[\"{name}\"].",
  "files.removed": "Removed {name}.",
  "files.tooBig": "{name} is not added: it is over {mb} MB.",
  "files.notText": "{name} is not added: it is not a text file (CSV, TSV, JSON or plain text).",
  "files.sampleFailed": "The sample file could not be loaded from",
  "chart.line": "Line chart",
  "chart.scatter": "Scatter chart",
  "chart.colon": ": ",
  "chart.label": "{kind}{title}, {n} points; x from {x0} to {x1}, y from {low} to {high}",
  "chart.bad": "This chart cannot be drawn:",
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
  "stat.n_calls": "Model calls",
  "stat.n_badcalls": "Bad calls",
  "stat.steps": "Steps",
  "stat.elapsed": "Elapsed",
  "stat.stop": "Stop",
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
  "status.linkCopied": "Share link copied to the clipboard (it is also in the address bar).",
  "status.linkReady": "Share link is in the address bar.",
  "status.imported": "Imported",
  "status.exported": "Saved trajectory.json",
  "status.nothingToExport": "Nothing to export yet: run a task or import a trajectory first.",
  "error.import": "Could not import this file:",
  "error.load": "Could not load the agent from pkg/tao_agent.js. Build it first with `make build`.",
  "error.run": "The run failed:",
  "footer": "Runs offline with a scripted model: no key, no server. Model and tool text is always shown as text, never as HTML.",
  "footer.export": "Trajectories export as JSON and import back.",
  // ----- the studio: step, pause, resume, playing the model, honest offline -----
  "step": "Step",
  "step.help": "Go to the next pause point: before the model call, or before the tool call.",
  "pause": "Pause",
  "pause.help": "Stop at the next pause point, losing nothing.",
  "resume": "Resume",
  "resume.help": "Go on from here to the end.",
  "stepMode": "Step by step",
  "reason.paused": "paused",
  "status.paused": "Paused. Step goes one point further; Resume runs to the end.",
  "paused.model": "Paused before the model call of step {n}: this is what will be sent",
  "paused.tool": "Paused before the tool call of step {n}: this will run",
  "paused.whole": "The whole prompt",
  "paused.hint": "Step to go one point further, Resume to run to the end, Stop to end here.",
  "provider.human": "You (type the model's reply)",
  "human.title": "You are the model",
  "human.hint": "Reply as the model would, in the format the prompt asks for. Ctrl+Enter sends.",
  "human.prompt": "The whole prompt you received",
  "human.reply": "Your reply",
  "human.send": "Send",
  "offline.mismatch": "The offline model only plays its scenario's own question. To ask this one, answer as the model yourself, or choose a real model.",
  "offline.you": "You: answer as the model",
  "offline.model": "Choose a model",
  // ----- the prompt inspector -----
  "prompt.button": "Prompt",
  "prompt.button.title": "The exact request this step sent to the model, and its reply",
  "prompt.button.wait": "Available when the run ends or pauses",
  "prompt.title": "Prompt of step {n}",
  "prompt.close": "Close",
  "prompt.request": "What the model received",
  "prompt.reply": "What the model replied",
  "prompt.legend.added": "New in this prompt: not in the prompt of step {n}",
  "prompt.legend.kept": "Already in the prompt of step {n}",
  "prompt.first": "Step 1: the whole prompt is new (the instructions and the question), so all of it is marked new",
  "prompt.jump": "↓ Go to the new part",
  "prompt.rewritten": "The format changed in this step ({from} → {to}), so the prompt was rewritten: everything after the part both prompts share is marked new.",
  "prompt.rewritten.other": "The earlier prompt was rewritten, not only extended: everything after the part both prompts share is marked new.",
  "prompt.rewritten.summary": "A new summary stands in for steps 1–{n}, so the earlier prompt was rewritten, not only extended: everything after the part both prompts share is marked new.",
  "prompt.condensed": "Steps 1–{n} are condensed into the summary in this message",
  "prompt.condensed.one": "Step 1 is condensed into the summary in this message",
  "prompt.rewritten.summary.one": "A new summary stands in for step 1, so the earlier prompt was rewritten, not only extended: everything after the part both prompts share is marked new.",
  "prompt.added": "+ new",
  "prompt.role.system": "system",
  "prompt.role.user": "user",
  "prompt.role.assistant": "assistant",
  "prompt.role.tool": "tool",
  "prompt.answers": "answers {id} ({tool})",
  "prompt.calls": "tool call",
  "prompt.tools": "Tool schemas sent beside the messages (native tool calling)",
  "prompt.tokens": "≈ {n} tokens",
  "prompt.total": "≈ {n} tokens in all",
  "prompt.estimate": "Token counts are estimates: about 4 characters per token for Latin text, 1 token per CJK character; the model's own tokenizer counts differently.",
  "prompt.reported": "The model reported {n} prompt tokens.",
  "prompt.call": "Call {n}",
  "prompt.retried": "Asked again:",
  "prompt.cut": "✂ tao stopped reading here: the model began to invent an Observation",
  "prompt.cut.label": "What arrived after the cut (not used)",
  "prompt.saved": "{n} characters not used: received after the cut, or never generated because tao closed the stream.",
  "prompt.toolCall": "Tool call sent with this reply:",
  "prompt.noCalls": "No model call is recorded for this step.",
  "prompt.notSent": "Not sent yet: the run is paused before this model call. Step sends it.",
  "prompt.switch": "This step changed format ({from} → {to}): the prompt shown is the one its last call was sent.",
  "prompt.empty": "(empty)",
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
  "fork.note.thought": "The thought was edited by hand for this fork.",
  "fork.note.action": "The action was edited by hand for this fork; the tool ran again.",
  "fork.note.observation": "The observation was edited by hand for this fork; the tool did not say this.",
  "fork.busy": "Wait for the run to end (or press Stop) before forking.",
  "fork.started": "Forked from step {n}: the original is kept.",
  "error.fork": "The fork failed:",
  "branches.label": "Branches",
  "branches.original": "Original",
  "branches.fork": "Fork",
  "branches.colon": ": ",
  "branches.forkFrom": "Fork from step {n}",
  "branches.keepOriginal": "Keep original",
  "branches.keepFork": "Keep fork",
  "branches.noAnswer": "no answer",
  "branches.same": "the same answer",
  "branches.different": "different answers",
  "branches.selected": "Export and the stats show: {branch}",
  // ----- presentation and accessibility -----
  "present": "Present",
  "settings.hide": "Hide settings",
  "settings.show": "Show settings",
  "trajectory": "Trajectory",
  "announce.answer": "Answer:",
  "tools.wikiUrl": "MediaWiki API URL",
  "meta.scripted": "scripted (offline)",
  "meta.human": "you",
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
  "compare.title": "Compare prompt modes",
  "compare.modes": "Modes",
  "compare.close": "Back to one run",
  "compare.gold": "Gold answer: {gold}. Each answer is scored as the paper scores HotpotQA: exact match (EM) and word overlap (F1).",
  "compare.noGold": "This question has no gold answer, so the answers are not scored.",
  "compare.unscored": "The answers could not be scored (the scoring code did not load):",
  "compare.answer": "Answer",
  "compare.noAnswer": "no answer",
  "compare.score": "EM {em} · F1 {f1}",
  "compare.running": "Running the question in {n} modes side by side…",
  "compare.done": "Compared.",
  "compare.busy": "Wait for the comparison to end (or press Stop).",
  "compare.min": "Compare at least two modes.",
  "compare.human": "Compare runs every mode at once, so it needs the offline model or a real one, not You.",
  "compare.offline": "The offline model has no replies in {modes} for this scenario. Choose “Apple CEO's hometown” or “Einstein's birthplace”, or a real model.",
  "mode.react": "ReAct",
  "mode.act": "Act",
  "mode.cot": "CoT",
  "mode.standard": "Standard",
  "mode.react.hint": "Thinks, acts, observes, again",
  "mode.act.hint": "Acts and observes, never thinks aloud",
  "mode.cot.hint": "Thinks step by step, without tools",
  "mode.standard.hint": "Answers at once",
  "format.act": "act (actions only)",
  "format.cot": "cot (think, no tools)",
  "format.standard": "standard (answer directly)",
  "rate": "Rate this run:",
  "rate.up": "👍 Good",
  "rate.down": "👎 Bad",
  "rate.good": "Rated good: reward 1 in the JSONL export.",
  "rate.bad": "Rated bad: reward 0 in the JSONL export.",
  "rate.cleared": "Rating taken back.",
  "exportJsonl": "Export runs as JSONL",
  "exportJsonl.help": "Every run of this visit, one JSON line each: prompts, replies, actions, observations and a reward (training data)",
  "runs.count": "{n} runs this visit",
  "runs.exported": "Exported {n} runs as JSONL.",
  "error.export": "Could not export:",
  // ----- benchmark mode: the way in (benchmark-open.js); the panel's words are in benchmark-words.js -----
  "bench.title": "Benchmark",
  "bench.help": "Run the ReAct paper's benchmark (HotpotQA, FEVER) with your model",
  "bench.resume": "Resume",
  "bench.dismiss": "Dismiss",
  "bench.saved": "An unfinished benchmark is saved in this browser: {done} / {total} runs done.",
};

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
  for (const attr of ["placeholder", "title", "aria-label"]) {
    const data = "data-i18n-" + attr;
    for (const el of root.querySelectorAll(`[${data}]`)) el.setAttribute(attr, t(el.getAttribute(data)));
  }
  if (root === document) {
    document.documentElement.lang = current === "zh" ? "zh-CN" : "en";
  }
}
