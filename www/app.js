//! What the page's parts share: the elements, the page's state (the wasm, the last trajectory,
//! the run in flight, the scenarios), the status and error lines, and the settings an `Agent` is
//! made from. Nothing here listens: each part hears the elements' bubbling `tao:*` events itself.

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
  if (trajectory?.stop && !state.runs.some((r) => r.trajectory === trajectory)) {
    state.runs.push({ trajectory, extra });
    document.dispatchEvent(new Event("tao:kept"));
  }
}

/** The text of `pkg/data/<name>.json`, the offline data the wasm does not carry. */
async function dataText(name) {
  const response = await fetch(new URL(`../pkg/data/${name}.json`, import.meta.url));
  if (!response.ok) throw new Error(`could not load pkg/data/${name}.json: HTTP ${response.status}`);
  return response.text();
}

/**
 * Loads the wasm, and reads once what the page builds from it: providers and built-in tools.
 * The offline data is not in the wasm (a page that embeds tao with its own model never needs
 * it): the scenarios' list in `lang`, the language the page starts in (what the menu shows), is
 * fetched while the wasm loads; the other language's list waits until the page first needs it
 * (`loadScenarioList`), the scenarios themselves and the offline search's pages until the first
 * agent that needs them (`newAgent`).
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
  listing[lang] ??= dataText(`scenario-list.${lang}`)
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
 * Fetches `pkg/data/<name>.json` ("scenarios", "knowledge" or "zh") and installs it in the
 * core, once (a failed fetch is tried again at the next need).
 */
const installing = {};
export function offlineData(name) {
  installing[name] ??= dataText(name).then(
    (text) => state.tao.loadOfflineData({ [name]: text }),
    (e) => {
      delete installing[name];
      throw e;
    },
  );
  return installing[name];
}

/**
 * Resolves once the offline data that agent settings `config` read is in: the scenarios when
 * they name one, the offline search's pages for `search` or `lookup` without a wiki (or tools
 * left to the scenario), and the Chinese prompts for an agent, or a `trajectory` it is given,
 * in Chinese.
 */
export async function dataFor(config, trajectory) {
  const tools = config.tools ?? ["search"];
  const needs = [];
  if (config.scenario) needs.push(offlineData("scenarios"));
  if (!config.wiki && tools.some((name) => name === "search" || name === "lookup")) needs.push(offlineData("knowledge"));
  if (inChinese(config.lang) || inChinese(trajectory?.lang)) needs.push(offlineData("zh"));
  await Promise.all(needs);
}

/** Whether a `lang` setting is other than English (the core reads "zh", "cn", "chinese", ...). */
const inChinese = (lang) => typeof lang === "string" && lang !== "" && !/^en/i.test(lang);

/** `new Agent(config)`, once the offline data it reads (and `trajectory`'s language) is in. */
export async function newAgent(config, trajectory) {
  await dataFor(config, trajectory);
  return new state.tao.Agent(config);
}

export function showError(text) {
  errorBox.textContent = text;
  errorBox.hidden = !text;
}

export function showStatus(text) {
  statusBox.textContent = text ?? "";
}

/** The message of anything thrown by the wasm (an Error, or a bare string from older builds). */
export function messageOf(e) {
  if (e instanceof Error) return e.message;
  if (typeof e === "string") return e;
  return e?.message ?? String(e);
}

/** The `new Agent(…)` settings for the form's and the tools panel's settings. */
export function agentConfig(settings, panel = toolsPanel.settings()) {
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
  if (panel.enabled.includes("search_docs")) config.docs = new URL(DOCS_URL, location.href).href;
  if (settings.provider === "human") {
    // "You": the person at the page plays the model; the scenario still gives the tools.
    config.model = playTheModel;
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

/**
 * The "You" provider, as a model function: the page shows the prompt the model would receive and
 * a box for the reply, and what the person types is read exactly as a model's reply would be
 * (repairs, retries and all); the tools that follow are real.
 */
function playTheModel(messages, { signal }) {
  return view.askReply(messages, signal);
}
Object.defineProperty(playTheModel, "name", { value: "human" });
