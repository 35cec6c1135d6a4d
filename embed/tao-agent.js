//! `<tao-agent>`: a ReAct agent in one element, for a static site.
//!
//!   <script type="module" src="tao-agent/tao.js"></script>
//!   <tao-agent scenario="apple-ceo" autorun></tao-agent>
//!
//! In Shadow DOM: its styles (`tao-agent.css`, the demo page's cards and colours, shipped in
//! its JavaScript: `styles.js`) stay inside, and the host page's styles stay out, the inherited
//! ones too (font, colour), but for what the host sets on purpose: CSS custom properties on the
//! element (`--thought`, `--surface`, `--font`, …), `::part()`s and `theme`. It draws the
//! trajectory with `<tao-trajectory>` exactly as the demo page does, under a task box with Run
//! and Stop. Every run makes a fresh `Agent` from the attributes and properties below, so a
//! changed attribute takes effect at the next run.
//!
//! | attribute   | meaning                                                                   |
//! |-------------|---------------------------------------------------------------------------|
//! | `provider`  | `scripted` (offline), `human` (the reader plays the model), `wllama` (a small model in the tab, no key), `chrome` (Chrome's built-in model), `openai`, `ollama`, `anthropic` |
//! | `base-url`  | the provider's base URL                                                  |
//! | `model`     | the provider's model name (`wllama`: a catalogue name or a `.gguf` URL)   |
//! | `format`    | `mrkl`, `paper`, `tools`, `auto`                                          |
//! | `lang`      | `en`, `zh`: the prompts' and the element's language                       |
//! | `tools`     | built-in and registered tools, separated by spaces or commas             |
//! | `docs`      | URL of the JSON pages `search_docs` searches (relative to the page)      |
//! | `wiki`      | where `search`/`lookup` read: `en`, `zh` or a MediaWiki `api.php` URL    |
//! | `scenario`  | a built-in offline scenario (its tools, task and scripted model)        |
//! | `task`      | the task in the box                                                      |
//! | `max-steps` | steps before the run stops without an answer                             |
//! | `autorun`   | run `task` (or the scenario's) as soon as the element is ready           |
//! | `theme`     | `light`, `dark`, or `auto` (the default: as the reader's system prefers)  |
//! | `mcp`       | MCP servers whose tools the agent gets: their URLs, separated by spaces    |
//! | `webmcp`    | the agent gets the tools the page registered with WebMCP (where the browser has it) |
//!
//! Properties: `apiKey` (memory only, never reflected to an attribute), `model` (a provider's
//! model name, or a JS function that plays the model, as `Agent`'s `model` option), `replies`
//! (strings for the offline scripted model), `options` (any other `Agent` settings), `theme`
//! (the attribute), `mcp` (the servers as `Agent`'s `mcp` setting, `[{url, headers}]`: headers
//! such as a token only this way, never in an attribute), `registerTool(spec, fn)`, `run(task?)`,
//! `stop()`, `trajectory`, `ready`.
//! A property set before the element was defined (a script that ran before the package loaded,
//! as with a lazy import, a CDN or a framework) is kept: the class takes it over when it arrives.
//! Events: each agent event as a bubbling, composed `CustomEvent` named `tao-<type>` with the
//! event as `detail` (`tao-step`, `tao-thought`, `tao-action`, `tao-observation`, `tao-answer`,
//! `tao-stopped`, …), then `tao-done` with the trajectory; `tao-error` (`{message, kind}`) when
//! the element cannot load (the wasm or its data: kind "load"), when its `scenario` is unknown,
//! or when a run cannot start.
//!
//! The scenarios, the pages of the offline `search` and the Chinese prompts are not in the wasm:
//! the element fetches them (`data/` beside this module) only when it needs them, for a
//! `scenario`, for `search` / `lookup` without a `wiki`, or for `lang="zh"`;
//! `fetchOfflineData()` does the same for a page that uses `Agent`. It loads them, runs its agent
//! into its view and names the model exactly as the demo page does (`offline-data.js`,
//! `drive.js`: the same modules).
//!
//! With `provider="wllama"` the model runs in the tab (`tao_wllama.js` and `wllama/` beside this
//! module, loaded only then): before a model not yet kept in the browser is downloaded, the
//! element asks, with its size; the download is drawn in the trajectory with Cancel.

import init, { Agent, scenarios, loadOfflineData } from "./tao_agent.js";
import { loadLang } from "./i18n.js";
import { offlineLoader, offlineNeeds } from "./offline-data.js";
import { drive, withAgent, free, humanModel, modelLabel, messageOf, failed } from "./drive.js";
import { shadowSheet, themeOf } from "./styles.js";
import { packaged } from "./packaged.js";
import { chromeConfig } from "./chrome.js";

/**
 * The tools the demo page adds in JS, which three scenarios use (`code` and `stock-chart`:
 * run_js; `units`), made from the package's own files when a run names one that the page did
 * not register, and loaded then. A tool's description is in the run's language.
 */
const OWN_TOOLS = {
  run_js: async ({ scenario, lang }) => {
    const { codeTool } = await import("./code-tool.js");
    // stock-chart reads its sample file, as on the demo page.
    const sample = scenario === "stock-chart" ? packaged(new URL("./samples/stock_prices.csv", import.meta.url)) : null;
    const files = sample ? { "stock_prices.csv": await fetch(sample).then((r) => r.text()) } : {};
    return codeTool({ files: () => files, lang: () => lang ?? "en" });
  },
  units: (config) => exampleTool("units", config),
  wordcount: (config) => exampleTool("wordcount", config),
};

async function exampleTool(name, { lang }) {
  const tool = await (await import("./wasm-tool.js")).exampleTool(name);
  return lang === "zh" ? { spec: { ...tool.spec, description: tool.zh }, fn: tool.fn } : tool;
}

/** The tools a run with `config` names: its `tools`, else its scenario's. */
function runTools(config) {
  if (config.tools) return config.tools;
  return scenarios(config.lang ?? "en").find((s) => s.name === config.scenario)?.tools ?? [];
}

/** The element's own words; the cards' words come from the demo page's `i18n.js`. */
const WORDS = {
  en: {
    task: "Task", trajectory: "Trajectory", run: "Run", stop: "Stop", loading: "Loading the agent…", ready: "Ready.",
    running: "Running…", answer: (n) => `Answered in ${n} step${n === 1 ? "" : "s"}.`,
    max_steps: "Stopped: the step budget ran out.",
    aborted: "Stopped.", load: "Could not load the agent:",
    placeholder: "Ask something…", empty: "Type a task first.",
    ask: (label, size) => `Download ${label} (${size}) to run it in this tab? It is kept in this browser for next time.`,
    yes: "Download and run", no: "Cancel", unknown: "size unknown",
  },
  zh: {
    task: "任务", trajectory: "轨迹", run: "运行", stop: "停止", loading: "正在加载智能体……", ready: "就绪。",
    running: "运行中……", answer: (n) => `用 ${n} 步作答。`, max_steps: "已停止：步数用完。",
    aborted: "已停止。", load: "无法加载智能体：",
    placeholder: "提一个问题……", empty: "请先输入任务。",
    ask: (label, size) => `下载 ${label}（${size}）并在此标签页中运行？它会保存在此浏览器中供下次使用。`,
    yes: "下载并运行", no: "取消", unknown: "大小未知",
  },
};

/**
 * The shadow tree; every piece of text is set with `textContent` later, never as markup. Its one
 * child, `.tao-root`, is where the host page's inherited styles stop (tao-agent.css).
 */
const TEMPLATE = `<div class="tao-root">
  <form part="form" class="tao-form" autocomplete="off">
    <label part="label" for="task"></label>
    <textarea part="task" id="task" name="task" rows="2" required></textarea>
    <p class="buttons" part="buttons">
      <button part="button run" type="submit" class="primary" data-run></button>
      <button part="button stop" type="button" data-action="stop" data-stop disabled></button>
    </p>
  </form>
  <p part="error" class="error" role="alert" hidden></p>
  <p part="status" class="status" role="status"></p>
  <h2 class="visually-hidden" id="trajectory-title" data-heading></h2>
  <tao-trajectory part="trajectory" class="trajectory" role="log" aria-labelledby="trajectory-title"></tao-trajectory>
</div>`;

/** The properties a page may have set on an element before its class was defined. */
const PROPERTIES = ["apiKey", "model", "replies", "options", "theme", "mcp"];

let loading = null;
/** Loads the wasm core once for every element of the page (`init()` of the package entry). */
function load() {
  const wasm = packaged(new URL("./tao_agent_bg.wasm", import.meta.url));
  loading ??= init({ module_or_path: wasm }).catch((e) => {
    throw Object.assign(new Error(`could not load the core (${wasm.href}): ${messageOf(e)}`), { kind: "load" });
  });
  return loading;
}

/** Loads the offline data (`data/` beside this module) into the core, each file once. Each
 * file's URL is written out, so that bundlers copy the files (src/bindings/modules.rs says why). */
const DATA = {
  scenarios: packaged(new URL("./data/scenarios.json", import.meta.url)),
  knowledge: packaged(new URL("./data/knowledge.json", import.meta.url)),
  zh: packaged(new URL("./data/zh.json", import.meta.url)),
};
const loadData = offlineLoader(DATA, () => load().then(() => ({ loadOfflineData })));

/**
 * Loads offline data once for the whole page: fetches `data/<name>.json` beside this module for
 * each of `names` while the wasm loads, then installs it in the core: the scenarios, the
 * offline search's pages, and the Chinese prompts (which an agent in Chinese needs). A failed
 * fetch is tried again at the next call.
 */
export function fetchOfflineData(names = ["scenarios", "knowledge", "zh"]) {
  return loadData(names);
}

/** HTMLElement, or a plain class where there is no DOM (Node): importing the package there works. */
const ElementBase = globalThis.HTMLElement ?? class {};

export class TaoAgent extends ElementBase {
  static observedAttributes = ["lang", "task", "scenario", "theme"];

  #root = null;
  #apiKey = "";
  #model = null;
  #replies = null;
  #options = {};
  #mcp = null;
  #tools = [];
  #running = null;
  #trajectory = null;
  #ready = null;
  #touched = false;

  constructor() {
    super();
    // A property set before this class was defined is an own property of the element, which
    // hides the class's setter: take it off and set it again, through the setter. (This is the
    // constructor of the upgrade, when the element was in the page before its definition.)
    for (const name of PROPERTIES) {
      if (Object.hasOwn(this, name)) {
        const value = this[name];
        delete this[name];
        this[name] = value;
      }
    }
    this.#root = this.attachShadow({ mode: "open" });
    this.#root.adoptedStyleSheets = [shadowSheet(this.theme)];
    this.#root.append(document.createRange().createContextualFragment(TEMPLATE));
    this.#part("form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.run().catch(() => {}); // the error is shown and sent as `tao-error`
    });
    this.#part("task").addEventListener("input", () => (this.#touched = true));
    this.#part("task").addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        this.#part("form").requestSubmit();
      }
    });
    this.#part("stop").addEventListener("click", () => this.stop());
    // A card's own Stop (the download's Cancel) bubbles out of the trajectory.
    this.#root.addEventListener("tao:stop", () => this.stop());
  }

  connectedCallback() {
    this.#words();
    this.#loadWords();
    if (this.#ready) return;
    this.#sayStatus("loading");
    // A scenario's task fills the box at once, so the data a run reads comes with the wasm.
    this.#ready = Promise.all([load(), loadData(offlineNeeds(this.config()))]).then(
      () => {
        this.#sayStatus("ready");
        if (!this.#checkScenario()) return;
        this.#fillTask();
        if (this.hasAttribute("autorun")) this.run().catch(() => {});
      },
      (e) => {
        // The wasm or a data file did not load (a wrong path, a server without the files).
        this.#status("");
        this.#error(`${this.#say("load")} ${messageOf(e)}`);
        this.#emit("error", { message: messageOf(e), kind: "load" });
        throw e;
      },
    );
    this.#ready.catch(() => {});
  }

  attributeChangedCallback(name) {
    if (!this.#root) return; // a property taken over in the constructor, before the tree exists
    if (name === "theme") this.#root.adoptedStyleSheets = [shadowSheet(this.theme)];
    if (name === "lang") {
      this.#words();
      this.#loadWords();
    }
    if (name === "theme" || this.#touched || !this.#ready) return; // before that, connectedCallback does it
    if (name === "scenario" && this.getAttribute("scenario")) {
      const fill = () => this.#checkScenario() && (this.#error(""), this.#fillTask()); // a known one: the old error goes
      loadData(offlineNeeds(this.config())).then(fill, () => {});
    } else this.#fillTask();
  }

  /** `light`, `dark`, or `auto` (as the reader's system prefers): the `theme` attribute. */
  get theme() {
    return themeOf(this.getAttribute("theme"));
  }
  set theme(value) {
    this.setAttribute("theme", themeOf(value));
  }

  /** Resolves once the wasm core (and the offline data its settings read, such as a `scenario`'s) is loaded; rejects if it cannot be. */
  get ready() {
    return this.#ready ?? load();
  }

  /** The API key: kept in memory only, sent only in the provider's auth header. */
  get apiKey() {
    return this.#apiKey;
  }
  set apiKey(value) {
    this.#apiKey = value == null ? "" : String(value);
  }

  /** The `model` attribute (the provider's model name), or a JS function that plays the model. */
  get model() {
    return this.#model ?? this.getAttribute("model");
  }
  set model(value) {
    if (typeof value === "function") this.#model = value;
    else {
      this.#model = null;
      if (value == null) this.removeAttribute("model");
      else this.setAttribute("model", String(value));
    }
  }

  /** Replies for the offline scripted model to replay, in order. */
  get replies() {
    return this.#replies;
  }
  set replies(value) {
    this.#replies = value == null ? null : Array.from(value, String);
  }

  /** MCP servers as `Agent`'s `mcp` setting (`[{url, headers?}]`, kept in memory), or the
   * `mcp` attribute's URLs when none were set. */
  get mcp() {
    return this.#mcp ?? (this.getAttribute("mcp") ?? "").split(/\s+/).filter(Boolean).map((url) => ({ url }));
  }
  set mcp(value) {
    this.#mcp = value == null ? null : Array.from(value, (server) => (typeof server === "string" ? { url: server } : { ...server }));
  }

  /** Any other `Agent` settings (`temperature`, `maxTokens`, `retries`, `delayMs`, …). */
  get options() {
    return this.#options;
  }
  set options(value) {
    this.#options = { ...(value ?? {}) };
  }

  /** The last trajectory drawn (null before the first run ends). */
  get trajectory() {
    return this.#trajectory;
  }

  /** Adds a JS tool for the next runs, as `Agent.registerTool` does; name it in `tools`. */
  registerTool(spec, fn) {
    if (!spec || typeof spec.name !== "string") throw new TypeError("registerTool(spec, fn): spec needs a name");
    if (typeof fn !== "function") throw new TypeError(`registerTool: the tool "${spec.name}" needs a function`);
    this.#tools = this.#tools.filter((t) => t.spec.name !== spec.name);
    this.#tools.push({ spec, fn });
  }

  /** The settings of the next run's `Agent`, from the attributes and properties. */
  config() {
    const attr = (name) => this.getAttribute(name) ?? undefined;
    const config = { ...this.#options };
    const set = (key, value) => {
      if (value !== undefined && value !== "") config[key] = value;
    };
    set("format", attr("format"));
    set("lang", attr("lang"));
    set("scenario", attr("scenario"));
    set("wiki", attr("wiki"));
    set("baseUrl", attr("base-url"));
    const steps = attr("max-steps");
    if (steps !== undefined) config.maxSteps = Number(steps);
    const tools = attr("tools");
    if (tools !== undefined) config.tools = tools.split(/[\s,]+/).filter(Boolean);
    const docs = attr("docs");
    if (docs) config.docs = new URL(docs, document.baseURI).href;
    if (this.#replies) config.replies = this.#replies;
    if (this.mcp.length) config.mcp = this.mcp;
    const provider = attr("provider");
    if (provider === "human") {
      config.model = humanModel(this.#view()); // the reader plays the model, as on the demo page
    } else if (provider === "chrome") {
      Object.assign(config, chromeConfig(config)); // Chrome's built-in model, as on the demo page
    } else if (this.#model) {
      config.model = this.#model;
    } else if (provider && provider !== "scripted") {
      config.provider = provider;
      set("model", attr("model"));
      set("apiKey", this.#apiKey);
    }
    return config;
  }

  /**
   * Runs `task` (by default the task box's text) in a new agent; resolves with the trajectory,
   * also when it was stopped or the model failed (`stop.reason` says which). Rejects only when
   * the run cannot start (a bad setting: the message is shown and sent as `tao-error`).
   */
  async run(task) {
    try {
      await this.ready;
    } catch (e) {
      throw this.#fail(e, "load");
    }
    const config = this.config();
    try {
      await loadData(offlineNeeds(config));
    } catch (e) {
      throw this.#fail(e);
    }
    await loadLang(this.#lang()).catch(() => {}); // the cards' words; without them, English
    if (this.#running) return this.#trajectory;
    const box = this.#part("task");
    if (typeof task === "string") box.value = task;
    task = box.value.trim();
    const view = this.#view();
    this.#error("");
    let agent;
    try {
      agent = new Agent(config); // first: a wrong setting (an unknown scenario) says so before an empty task
      for (const { spec, fn } of this.#tools) agent.registerTool(spec, fn);
    } catch (e) {
      free(agent);
      throw this.#fail(e);
    }
    if (!task) {
      free(agent);
      const empty = Object.assign(new Error(this.#say("empty")), { kind: "config" });
      throw this.#fail(empty, "config", empty.message);
    }
    try {
      // The tools the demo page adds in JS that the run names and the page did not register.
      const registered = new Set(this.#tools.map(({ spec }) => spec.name));
      for (const name of runTools(config).filter((n) => OWN_TOOLS[n] && !registered.has(n))) {
        const { spec, fn } = await OWN_TOOLS[name](config);
        agent.registerTool(spec, fn);
      }
      // The page's own tools (WebMCP), where the page asks for them: webmcp.js, loaded then.
      if (this.hasAttribute("webmcp")) await (await import("./webmcp.js")).registerPageTools(agent);
    } catch (e) {
      free(agent);
      throw this.#fail(e);
    }
    if (config.provider === "wllama" && !(await this.#mayDownload(config.model))) {
      free(agent);
      return this.#trajectory;
    }
    const stop = new AbortController();
    this.#running = stop;
    this.#busy(true);
    this.#sayStatus("running");
    view.begin(task, { model: modelLabel(config), format: this.getAttribute("format") ?? undefined, lang: this.getAttribute("lang") ?? undefined });
    try {
      const onEvent = (ev) => this.#emit(ev.type, ev);
      const trajectory = await withAgent(agent, () => drive(agent, "run", task, { view, signal: stop.signal, onEvent }));
      this.#finish(trajectory);
      return trajectory;
    } catch (e) {
      // Rejected before the first step: a setting checked when the run starts (an unknown tool).
      this.#status("");
      throw this.#fail(e);
    } finally {
      this.#running = null;
      this.#busy(false);
    }
  }

  /**
   * The model in the tab: resolves to whether the run may go on; asks first, in the element,
   * with the size, when the model is not kept in the browser yet. What the browser lacks, or a
   * model that cannot be found, is said as the run's error would be.
   */
  async #mayDownload(model) {
    let facts;
    try {
      const engine = await import("./tao_wllama.js");
      const lacking = engine.support();
      if (lacking) throw Object.assign(new Error(lacking), { kind: "config" });
      facts = await engine.inspect(model);
    } catch (e) {
      this.#fail(e);
      return false;
    }
    if (facts.stored) return true;
    const size = facts.bytes ? `${Math.round(facts.bytes / 1e6)} MB` : this.#say("unknown");
    const box = document.createElement("p");
    box.className = "ask";
    box.setAttribute("part", "ask");
    box.setAttribute("role", "group");
    const text = document.createElement("span");
    text.textContent = this.#say("ask")(facts.label, size);
    const yes = document.createElement("button");
    yes.type = "button";
    yes.className = "primary";
    yes.textContent = this.#say("yes");
    const no = document.createElement("button");
    no.type = "button";
    no.textContent = this.#say("no");
    box.append(text, " ", yes, " ", no);
    box.setAttribute("aria-label", text.textContent);
    this.#part("status").before(box);
    yes.focus();
    return new Promise((resolve) => {
      const done = (answer) => {
        box.remove();
        resolve(answer);
      };
      yes.addEventListener("click", () => done(true));
      no.addEventListener("click", () => done(false));
    });
  }

  /** A run that ended (answered, stopped, or failed on the model's side): drawn from its trajectory. */
  #finish(trajectory) {
    this.#trajectory = trajectory;
    this.#view().render(trajectory, { live: true });
    const stop = trajectory.stop ?? {};
    if (stop.reason === "error" && stop.message) this.#error(failed(stop.message));
    if (stop.reason === "answer") this.#sayStatus("answer", trajectory.stats.steps);
    else if (typeof this.#say(stop.reason) === "string") this.#sayStatus(stop.reason);
    else this.#status(stop.message ?? "");
    this.#emit("done", trajectory);
  }

  /** A run that could not start: shown, and sent as `tao-error`; returns the error to throw. */
  #fail(e, kind = "config", shown = failed(e)) {
    this.#error(shown);
    this.#emit("error", { message: messageOf(e), kind: e?.kind ?? kind });
    return e;
  }

  /**
   * Whether the `scenario` attribute names a built-in scenario (or none); if not, says so at
   * once, as a run would (the core's message lists the scenarios), rather than wait for Run.
   */
  #checkScenario() {
    const name = this.getAttribute("scenario");
    let known = false;
    try {
      known = scenarios(this.#lang()).some((s) => s.name === name);
    } catch {
      /* not loaded: the Agent below says what is missing */
    }
    if (!name || known) return true;
    try {
      free(new Agent({ scenario: name }));
      return true;
    } catch (e) {
      this.#status("");
      this.#fail(e, "config", messageOf(e));
      return false;
    }
  }

  /** Stops the run in flight (it resolves with `stop.reason` "aborted"). */
  stop() {
    this.#running?.abort();
  }

  #view() {
    return this.#root.querySelector("tao-trajectory");
  }

  #part(name) {
    return this.#root.querySelector(`[part~="${name}"]`);
  }

  #lang() {
    return this.getAttribute("lang") === "zh" ? "zh" : "en";
  }

  #say(key) {
    return WORDS[this.#lang()][key];
  }

  /** Puts the element's words in its language (the cards' words follow at the next draw). */
  #words() {
    this.#view().lang = this.#lang(); // the cards' words: the view draws in its own language
    this.#part("label").textContent = this.#say("task");
    this.#root.querySelector("[data-heading]").textContent = this.#say("trajectory");
    this.#part("task").placeholder = this.#say("placeholder");
    this.#part("run").textContent = this.#say("run");
    this.#part("stop").textContent = this.#say("stop");
    if (this.#again) this.#part("status").textContent = this.#again();
  }

  /**
   * Fetches the words of the element's language when they are not here yet (the Chinese ones are
   * a module of their own: i18n.js `loadLang`), then shows them where the view already spoke
   * (its welcome text); the cards drawn later use them.
   */
  #loadWords() {
    const lang = this.#lang();
    if (lang === "en") return;
    loadLang(lang).then(() => {
      if (this.#lang() !== lang) return;
      this.#words();
      const view = this.#view();
      if (view?.querySelector(':scope > [data-kind="empty"]')) view.showEmpty();
    }, () => {});
  }

  /** The task box shows the `task` attribute, else the scenario's own task. */
  #fillTask() {
    let task = this.getAttribute("task");
    const name = this.getAttribute("scenario");
    if (task == null && name) {
      try {
        task = scenarios(this.#lang()).find((s) => s.name === name)?.task ?? null;
      } catch {
        task = null;
      }
    }
    if (task != null) this.#part("task").value = task;
  }

  #busy(on) {
    this.#part("run").disabled = on;
    this.#part("stop").disabled = !on;
    this.toggleAttribute("running", on);
  }

  /** Shows `text` in the status line (said again after a `lang` change only when `again` is given). */
  #status(text, again = null) {
    this.#again = again;
    this.#part("status").textContent = text ?? "";
  }

  /** Shows the element's word `key` (a function of `args` for some) in the status line, in its language. */
  #sayStatus(key, ...args) {
    const say = () => {
      const word = this.#say(key);
      return typeof word === "function" ? word(...args) : word;
    };
    this.#status(say(), say);
  }

  /** What says the status line again in the element's language, if it is one of its words. */
  #again = null;

  #error(text) {
    const box = this.#part("error");
    box.textContent = text;
    box.hidden = !text;
  }

  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent(`tao-${type}`, { bubbles: true, composed: true, detail }));
  }
}
