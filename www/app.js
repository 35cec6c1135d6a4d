//! What the page's parts share: the elements, the page's state (the wasm, the last trajectory,
//! the run in flight, the scenarios), the status and error lines, and the settings an `Agent` is
//! made from. Nothing here listens: each part hears the elements' bubbling `tao:*` events itself.

import { offlineLoader, offlineNeeds, fetchText } from "./offline-data.js";
import { t } from "./i18n.js";
import { humanModel, modelLabel } from "./drive.js";
import { chromeConfig } from "./chrome.js";
export { messageOf } from "./drive.js";

export const controls = document.querySelector("tao-controls");
export const toolsPanel = document.querySelector("tao-tools");
export const view = document.querySelector("tao-trajectory");
export const stats = document.querySelector("tao-stats");
const errorBox = document.querySelector("[data-error]");
const statusBox = document.querySelector("[data-status]");

/** The documents `search_docs` searches on this page. */
const DOCS_URL = "www/docs.json";

export const state = {
  /** The wasm module's exports once loaded: { Agent, scenarios, parseTrajectory, version, … }. */
  tao: null,
  /** The providers over HTTP by name, from the wasm: `{name, baseUrl, model, needsKey}`. */
  providers: new Map(),
  /** The tools built into the wasm core (`tools` in the Agent's settings), from the wasm. */
  builtinTools: [],
  /** The scenarios' list by language, `{en, zh}`, each once it is loaded (`loadScenarioList`). */
  scenarioLists: {},
  /** The scenarios of the current language. */
  scenarios: [],
  /** The last trajectory drawn (from a finished run or an import): what Export writes. */
  lastTrajectory: null,
  /** The AbortController of the run in flight, or null when idle. */
  running: null,
  /** The `<tao-compare>` while the stage compares prompt modes (`compare.js`), else null. */
  compare: null,
  /** The runs that ended on this page this visit, imported ones too: `{ trajectory, extra }`, what
   * Export JSONL writes (`rate.js`); `extra` holds a run's scores (`gold`, `em`, `f1`, `reward`). */
  runs: [],
};

/** Keeps a run that ended for the training export (once; a run still going is not kept), and
 * says so with `tao:kept` (the export's bar counts the runs). */
export function keepRun(trajectory, extra = {}) {
  // A run that ended before its first step (a setting refused, a model that could not load)
  // is nothing to learn from.
  if (trajectory?.stop && trajectory.steps?.length && !state.runs.some((r) => r.trajectory === trajectory)) {
    state.runs.push({ trajectory, extra });
    document.dispatchEvent(new Event("tao:kept"));
  }
}

/** Where the offline data the wasm does not carry is: `pkg/data/`. */
const DATA = new URL("../pkg/data/", import.meta.url);

/**
 * Loads the wasm, and reads once what the page builds from it: providers and built-in tools.
 * The offline data is not in the wasm (a page that embeds tao with its own model never needs
 * it): the scenarios' list in `lang`, the language the page starts in (what the menu shows), is
 * fetched while the wasm loads; the other language's list waits until the page first needs it
 * (`loadScenarioList`), the scenarios themselves and the offline search's pages until the first
 * agent that needs them (`dataFor`).
 */
export async function loadTao(lang) {
  const list = loadScenarioList(lang);
  list.catch(() => {}); // reported below, once the wasm has loaded
  const mod = await import("../pkg/tao_agent.js");
  await mod.default();
  await list;
  state.providers = new Map(Array.from(mod.providers(), (p) => [p.name, p]));
  state.builtinTools = Array.from(mod.builtinTools());
  state.tao = mod;
}

/**
 * Fetches the scenarios' list in `lang`, "en" or "zh" (`pkg/data/scenario-list.<lang>.json`: what
 * the core's `scenarios(lang)` says of each, written by build.sh), into `state.scenarioLists`,
 * once (a failed fetch is tried again at the next need).
 */
const listing = {};
export function loadScenarioList(lang) {
  listing[lang] ??= fetchText(new URL(`scenario-list.${lang}.json`, DATA))
    .then((text) => {
      state.scenarioLists[lang] = JSON.parse(text);
    })
    .catch((e) => {
      delete listing[lang];
      throw e;
    });
  return listing[lang];
}

/** The scenarios as the menu lists them in `lang` ("en" or "zh"), or undefined until that list is loaded. */
export function scenarioList(lang) {
  return state.scenarioLists[lang];
}

/**
 * Fetches `pkg/data/<name>.json` for each of `names` ("scenarios", "knowledge", "zh") and
 * installs it in the core, once (a failed fetch is tried again at the next need).
 */
export const offlineData = offlineLoader(DATA, () => state.tao);

/**
 * Resolves once the offline data that agent settings `config` read is in (and the Chinese
 * prompts, for rendering the prompts of a `trajectory` in Chinese).
 */
export const dataFor = (config, trajectory) => offlineData(offlineNeeds(config, trajectory));

export function showError(text) {
  errorBox.textContent = text;
  errorBox.hidden = !text;
}

/** What the status line says, `[key, values]`, so a new language can say it again. */
let said = null;

/**
 * Says `key`'s words on the status line, each `{name}` in them filled from `values` ("" or no
 * key: nothing). They are kept as a key, not as text, so the line follows a change of language
 * (`sayAgain`) instead of staying in the one it was said in.
 */
export function showStatus(key = "", values = {}) {
  said = key ? [key, values] : null;
  sayAgain();
}

/** Says the status line again, in the page's language now. */
export function sayAgain() {
  statusBox.textContent = said ? t(said[0]).replace(/\{(\w+)\}/g, (_, name) => String(said[1][name] ?? "")) : "";
}

/** The names of the tools a run with the tools panel's settings has: built-in, and MCP servers'. */
export const usedTools = (panel) => [...panel.enabled, ...(panel.mcp ?? []).flatMap((server) => server.tools ?? [])];

/**
 * The `new Agent(…)` settings for the form's and the tools panel's settings; with You as the
 * model, the reply is asked for in `target` (the page's view, or a fork's).
 */
export function agentConfig(settings, panel = toolsPanel.settings(), target = view) {
  const config = {
    format: settings.format,
    lang: settings.lang,
    maxSteps: settings.maxSteps,
    scenario: settings.scenario, // (offline) its scripted model
    delayMs: settings.delayMs,
    tokenBudget: settings.tokenBudget,
    timeBudgetMs: settings.timeBudgetMs,
    memoryTokens: settings.memoryTokens,
    reflectEvery: settings.reflectEvery,
    tools: panel.enabled,
  };
  if (panel.wiki && panel.wiki !== "offline") config.wiki = panel.wiki;
  if (panel.mcp?.length) config.mcp = panel.mcp;
  if (panel.enabled.includes("search_docs")) config.docs = new URL(DOCS_URL, location.href).href;
  if (settings.provider === "human") {
    // "You": the person at the page plays the model; the scenario still gives the tools.
    config.model = humanModel(target, { format: settings.format, tools: usedTools(panel) });
  } else if (settings.provider === "chrome") {
    // Chrome's built-in model: a model function (chrome-model.js, loaded at its first call),
    // one session for the run, held to the format.
    Object.assign(config, chromeConfig({}));
  } else if (settings.provider === "wllama") {
    // The model in the tab: no address, no key.
    Object.assign(config, { provider: "wllama", model: settings.model || undefined });
  } else if (settings.provider !== "scripted") {
    Object.assign(config, {
      provider: settings.provider,
      baseUrl: settings.baseUrl || undefined,
      model: settings.model || undefined,
      apiKey: settings.apiKey || undefined,
      maxTokens: settings.maxTokens,
      firstByteTimeoutMs: settings.firstByteTimeoutMs,
      idleTimeoutMs: settings.idleTimeoutMs,
    });
  }
  return config;
}

/** What the trajectory of a run with the form's `settings` will call its model (`modelLabel`). */
export const modelOf = (settings) => modelLabel({ ...settings, model: settings.model || state.providers.get(settings.provider)?.model });
