//! The demo page: loads tao's wasm, wires the controls to an `Agent`, and draws the run.
//!
//! Reading order: start-up (query string → language → wasm → scenarios → maybe autorun), then
//! one handler per control event (`tao:run`, `tao:stop`, …). The elements never talk to each
//! other directly: `<tao-controls>` emits events, this module runs the agent and hands its
//! events to `<tao-trajectory>` and `<tao-stats>`. When a run resolves, the returned trajectory
//! is drawn again from scratch: it is the single source of truth, the same object that Export
//! writes and Import reads.

import "./elements.js";
import { t, setLang, lang, applyI18n } from "./i18n.js";
import { codeTool } from "./code-tool.js";

const controls = document.querySelector("tao-controls");
const toolsPanel = document.querySelector("tao-tools");
const view = document.querySelector("tao-trajectory");
const stats = document.querySelector("tao-stats");
const errorBox = document.querySelector("[data-error]");
const statusBox = document.querySelector("[data-status]");

/** The wasm module's exports once loaded: { Agent, scenarios, parseTrajectory, version, … }. */
let tao = null;
/** The providers over HTTP by name, from the wasm: `{name, baseUrl, model, needsKey}`. */
let providers = new Map();
/** The tools built into the wasm core (`tools` in the Agent's settings), from the wasm. */
let builtinTools = [];
/** The scenarios of the current language, by name. */
let scenarioList = [];
/** The last trajectory drawn (from a finished run or an import): what Export writes. */
let lastTrajectory = null;
/** The AbortController of the run in flight, or null when idle. */
let running = null;
/** The agent's own default step budget (the paper's loop runs 8), for scenarios without one. */
const DEFAULT_MAX_STEPS = 8;

// ----- tools -----------------------------------------------------------------------------------

/** Tools the page adds in JS: the code sandbox and the example wasm tools (built on first use). */
const PAGE_TOOLS = {
  run_js: async () => codeTool(),
  wordcount: () => wasmExample("wordcount"),
  units: () => wasmExample("units"),
};
/** The documents `search_docs` searches on this page. */
const DOCS_URL = "www/docs.json";
/** Scenarios that read live Wikipedia when it can be reached (else the built-in pages). */
const LIVE_WIKI = new Set(["einstein"]);
/** Tools the user added (uploaded .wasm), by name: `{spec, fn, description}`. */
const added = new Map();
/** The page's JS tools once made (the sandbox is fetched the first time a wasm tool is). */
const made = new Map();
/** Whether the wiki source was chosen by the page (a scenario going live), not by the user. */
let wikiChosenByPage = true;

async function wasmExample(name) {
  const { wasmTool, EXAMPLE_TOOLS } = await import("./wasm-tool.js");
  return wasmTool(EXAMPLE_TOOLS.find((tool) => tool.name === name));
}

/** `{spec, fn}` of a page tool or an added one, made once. */
function pageTool(name) {
  if (added.has(name)) return Promise.resolve(added.get(name));
  if (!made.has(name)) {
    const making = PAGE_TOOLS[name]();
    made.set(name, making);
    making.catch(() => made.delete(name)); // try again next run
  }
  return made.get(name);
}

/** The tools the panel lists, with the description a reader sees. */
function offeredTools() {
  const known = [...builtinTools, ...Object.keys(PAGE_TOOLS)].map((name) => ({ name, description: t(`tool.${name}`) }));
  const mine = [...added.values()].map((tool) => ({ name: tool.spec.name, description: tool.spec.description, added: true }));
  return [...known, ...mine];
}

/** Registers the enabled JS-side tools on `agent` (the core ones are in its settings). */
async function registerPageTools(agent, panel) {
  for (const name of panel.enabled.filter((n) => !builtinTools.includes(n))) {
    const tool = await pageTool(name);
    const spec = { ...tool.spec };
    if (name === "run_js") spec.needsApproval = panel.approveCode;
    agent.registerTool(spec, tool.fn);
  }
}

/** Whether a MediaWiki API answers (a short probe, so an offline demo does not wait on it). */
async function wikiReachable(wiki) {
  const base = wiki === "en" || wiki === "zh" ? `https://${wiki}.wikipedia.org/w/api.php` : wiki;
  try {
    const r = await fetch(`${base}?action=query&meta=siteinfo&format=json&origin=*`, { signal: AbortSignal.timeout(4000) });
    return r.ok;
  } catch {
    return false;
  }
}

/** What the model is told about the tools: the prompt's text, or the native tool list. */
let viewQueued = false;
function refreshModelView() {
  if (!tao || viewQueued) return;
  viewQueued = true;
  setTimeout(async () => {
    viewQueued = false;
    const settings = controls.settings();
    const panel = toolsPanel.settings();
    toolsPanel.querySelector("[data-tools-summary]").textContent =
      `(${t("tools.enabled")}: ${panel.enabled.join(", ") || t("tools.none")})`;
    let agent;
    try {
      agent = new tao.Agent(agentConfig(settings, panel));
      await registerPageTools(agent, panel);
      const prompt = agent.prompt(settings.task || "…");
      const text = prompt.tools.length
        ? JSON.stringify(prompt.tools, null, 2)
        : prompt.messages.map((m) => `[${m.role}]\n${m.content}`).join("\n\n");
      toolsPanel.showModelView(text);
    } catch (e) {
      toolsPanel.showModelView(messageOf(e));
    } finally {
      agent?.free?.();
    }
  }, 50);
}

// ----- small helpers ---------------------------------------------------------------------------

function showError(text) {
  errorBox.textContent = text;
  errorBox.hidden = !text;
}

function showStatus(text) {
  statusBox.textContent = text ?? "";
}

/** The message of anything thrown by the wasm (an Error, or a bare string from older builds). */
function messageOf(e) {
  if (e instanceof Error) return e.message;
  if (typeof e === "string") return e;
  return e?.message ?? String(e);
}

/** The query string's settings: ?scenario=&format=&lang=&task=&maxSteps=&delay=&provider=&base=&model=&autorun=1 (never a key). */
function readQuery() {
  const q = new URLSearchParams(location.search);
  const num = (key) => (q.has(key) && q.get(key) !== "" && Number.isFinite(Number(q.get(key))) ? Number(q.get(key)) : undefined);
  return {
    scenario: q.get("scenario") ?? undefined,
    format: q.get("format") ?? undefined,
    lang: q.get("lang") ?? undefined,
    task: q.get("task") ?? undefined,
    maxSteps: num("maxSteps"),
    delayMs: num("delay"),
    provider: q.get("provider") ?? undefined,
    baseUrl: q.get("base") ?? undefined,
    model: q.get("model") ?? undefined,
    wiki: q.get("wiki") ?? undefined,
    tools: q.has("tools") ? q.get("tools").split(",").filter(Boolean) : undefined,
    autorun: q.get("autorun") === "1",
  };
}

// ----- the model's settings and the key --------------------------------------------------------

/**
 * The key lives in the form (memory) only. "Remember on this device" is an explicit opt-in that
 * copies it to localStorage, one entry per provider; unticking it deletes the entry.
 */
const keyStore = {
  name: (provider) => `tao.apiKey.${provider}`,
  load(provider) {
    try {
      return localStorage.getItem(this.name(provider));
    } catch {
      return null; // storage disabled: nothing remembered
    }
  },
  save(provider, key, remember) {
    try {
      if (remember && key) localStorage.setItem(this.name(provider), key);
      else localStorage.removeItem(this.name(provider));
    } catch {
      /* storage disabled: the key stays in memory only */
    }
  },
};

/** Fills the key from this device's store (if the user opted in) and the fields' hints. */
function useProvider(provider) {
  const hints = providers.get(provider);
  if (!hints) return;
  document.querySelector("#baseUrl").placeholder = hints.baseUrl;
  document.querySelector("#model").placeholder = hints.model;
  const saved = keyStore.load(provider);
  controls.apply({ apiKey: saved ?? "", remember: saved !== null });
}

/** The `new Agent(…)` settings for the form's and the tools panel's settings. */
function agentConfig(settings, panel = toolsPanel.settings()) {
  const config = {
    format: settings.format,
    lang: settings.lang,
    maxSteps: settings.maxSteps,
    scenario: settings.scenario, // (offline) its scripted model
    delayMs: settings.delayMs,
    tools: panel.enabled,
  };
  if (panel.wiki && panel.wiki !== "offline") config.wiki = panel.wiki;
  if (panel.enabled.includes("search_docs")) config.docs = new URL(DOCS_URL, location.href).href;
  if (settings.provider !== "scripted") {
    Object.assign(config, {
      provider: settings.provider,
      baseUrl: settings.baseUrl || undefined,
      model: settings.model || undefined,
      apiKey: settings.apiKey || undefined,
    });
  }
  return config;
}

function modelLabel(settings) {
  if (settings.provider === "scripted") return `scripted:${settings.scenario}`;
  return `${settings.provider}:${settings.model || providers.get(settings.provider)?.model || ""}`;
}

/**
 * Follows a streaming run down the page once the reader has scrolled to the bottom, and stops
 * following when they scroll up. Measured on scroll only, never per token: reading the layout
 * after every streamed delta would force a reflow each time.
 */
let following = false;
let followQueued = false;
window.addEventListener(
  "scroll",
  () => {
    const doc = document.documentElement;
    following = doc.scrollHeight > window.innerHeight && window.innerHeight + window.scrollY >= doc.scrollHeight - 80;
  },
  { passive: true },
);
function follow() {
  if (!following || followQueued) return;
  followQueued = true;
  requestAnimationFrame(() => {
    followQueued = false;
    if (following) window.scrollTo({ top: document.documentElement.scrollHeight });
  });
}

// ----- start-up --------------------------------------------------------------------------------

async function start() {
  const query = readQuery();
  setLang(query.lang ?? (navigator.language?.startsWith("zh") ? "zh" : "en"));
  controls.apply({ lang: lang() });
  applyI18n();
  stats.refresh();
  controls.setReady(false);
  showStatus(t("status.loading"));

  try {
    const mod = await import("../pkg/tao_agent.js");
    await mod.default();
    // Read once: the provider defaults and the built-in tools are the core's, never copied here.
    providers = new Map(Array.from(mod.providers(), (p) => [p.name, p]));
    builtinTools = Array.from(mod.builtinTools());
    tao = mod;
  } catch (e) {
    showStatus("");
    showError(`${t("error.load")} (${messageOf(e)})`);
    return;
  }

  document.querySelector("[data-version]").textContent = `v${tao.version()}`;
  loadScenarios(query.scenario);
  toolsPanel.setTools(offeredTools());
  // An explicit wiki= wins before the scenario is applied, so the scenario does not probe one.
  if (query.wiki) {
    toolsPanel.setWiki(query.wiki);
    wikiChosenByPage = false;
  }
  useScenario(controls.settings().scenario);
  if (query.tools) toolsPanel.enable(query.tools);
  // Explicit query values win over the scenario's defaults.
  controls.apply({ format: query.format, task: query.task, maxSteps: query.maxSteps, delayMs: query.delayMs });
  controls.apply({ provider: query.provider });
  useProvider(controls.settings().provider);
  controls.apply({ baseUrl: query.baseUrl, model: query.model });
  controls.setReady(true);
  showStatus(t("status.ready"));
  document.body.dataset.ready = "true";
  refreshModelView();
  if (query.autorun) run(controls.settings());
}

/** Fills the scenario select in the current language. */
function loadScenarios(selected) {
  scenarioList = Array.from(tao.scenarios(lang()));
  controls.setScenarios(scenarioList, selected);
}

/** Choosing a scenario fills the task, the format and the step budget it was written for. */
function useScenario(name) {
  const s = scenarioList.find((x) => x.name === name);
  if (!s) return;
  controls.apply({ task: s.task, format: s.format, maxSteps: s.maxSteps ?? DEFAULT_MAX_STEPS });
  controls.describe(s.description);
  toolsPanel.enable(s.tools);
  if (wikiChosenByPage) {
    toolsPanel.setWiki("offline");
    // A scenario written for Wikipedia reads the live site when it answers.
    if (LIVE_WIKI.has(name) && navigator.onLine) {
      const wiki = lang();
      wikiReachable(wiki).then((ok) => {
        if (ok && wikiChosenByPage && controls.settings().scenario === name) {
          toolsPanel.setWiki(wiki);
          refreshModelView();
        }
      });
    }
  }
  refreshModelView();
}

// ----- the run ---------------------------------------------------------------------------------

async function run(settings) {
  if (running || !tao) return;
  showError("");
  showStatus("");
  let agent;
  const panel = toolsPanel.settings();
  try {
    agent = new tao.Agent(agentConfig(settings, panel));
    await registerPageTools(agent, panel);
  } catch (e) {
    showError(`${t("error.run")} ${messageOf(e)}`);
    agent?.free?.();
    return;
  }

  running = new AbortController();
  controls.setRunning(true);
  view.begin(settings.task, { model: modelLabel(settings), format: settings.format, lang: settings.lang });

  // Live counters; the finished trajectory's stats replace them.
  const live = { n_calls: 0, n_badcalls: 0, steps: 0, elapsed: 0 };
  const t0 = performance.now();
  stats.live(live);
  const timer = setInterval(() => stats.live({ elapsed: performance.now() - t0 }), 100);

  const onEvent = (ev) => {
    if (ev.type === "step") {
      live.steps = ev.index;
    } else if (ev.type === "call") {
      live.n_calls += 1;
      if (ev.retry) live.n_badcalls += 1; // asked again: the previous reply could not be read
    } else if (ev.type === "repair") {
      live.n_badcalls += 1;
    }
    view.handleEvent(ev);
    if (ev.type !== "token") stats.live({ ...live, elapsed: performance.now() - t0 });
    follow();
  };

  try {
    const signal = running.signal;
    const approve = (request) => view.askApproval(request, signal);
    const traj = await agent.run(settings.task, { onEvent, signal, approve });
    lastTrajectory = traj;
    view.render(traj);
    stats.show(traj.stats, traj.stop);
    if (traj.stop?.reason === "error" && traj.stop.message) showError(`${t("error.run")} ${traj.stop.message}`);
  } catch (e) {
    showError(`${t("error.run")} ${messageOf(e)}`);
    stats.show({ ...live, elapsed_ms: performance.now() - t0 }, { reason: "error" });
  } finally {
    clearInterval(timer);
    running = null;
    controls.setRunning(false);
    try {
      agent.free?.();
    } catch {
      /* already freed */
    }
  }
}

// ----- the controls' events --------------------------------------------------------------------

document.addEventListener("tao:run", (e) => run(e.detail));

document.addEventListener("tao:stop", () => running?.abort());

document.addEventListener("tao:scenario", (e) => useScenario(e.detail.name));

document.addEventListener("tao:tools", (e) => {
  if (e.detail.wikiChosen) wikiChosenByPage = false;
  refreshModelView();
});

document.addEventListener("tao:add-wasm", async (e) => {
  const { file, name, description, parameters } = e.detail;
  toolsPanel.setUploadStatus(t("tools.upload.checking"));
  try {
    const { wasmTool } = await import("./wasm-tool.js");
    const bytes = new Uint8Array(await file.arrayBuffer());
    added.set(name, await wasmTool({ name, description, parameters, bytes }));
    toolsPanel.setTools(offeredTools());
    toolsPanel.setUploadStatus(t("tools.upload.added"), true);
  } catch (err) {
    toolsPanel.setUploadStatus(`${t("tools.upload.refused")} ${messageOf(err)}`, false);
  }
});

document.addEventListener("tao:remove", (e) => {
  added.delete(e.detail.name);
  toolsPanel.setTools(offeredTools());
  refreshModelView();
});

for (const name of ["format", "lang", "task"]) {
  document.querySelector(`[name="${name}"]`).addEventListener("change", refreshModelView);
}

document.addEventListener("tao:provider", (e) => {
  useProvider(e.detail.provider);
  controls.setConnection("");
});

document.addEventListener("tao:key", (e) => keyStore.save(e.detail.provider, e.detail.apiKey, e.detail.remember));

document.addEventListener("tao:test", async (e) => {
  if (!tao) return;
  controls.setConnection(t("test.running"));
  try {
    const r = await tao.testConnection(agentConfig(e.detail));
    const parts = [`${t("test.ok")} ${r.model}: “${r.reply.trim().slice(0, 60)}”`];
    if (r.first_token_ms !== null) parts.push(`${t("test.firstToken")} ${Math.round(r.first_token_ms)} ms`);
    parts.push(`${t("test.total")} ${Math.round(r.total_ms)} ms`);
    parts.push(r.deltas > 1 ? `${t("test.streamed")} (${r.deltas})` : t("test.notStreamed"));
    if (r.usage) parts.push(`${r.usage.prompt_tokens} + ${r.usage.completion_tokens} ${t("usage.tokens")}`);
    for (const note of r.notes) parts.push(note);
    controls.setConnection(parts.join(" · "), true);
  } catch (err) {
    controls.setConnection(messageOf(err), false);
  }
});

document.addEventListener("tao:lang", (e) => {
  const before = scenarioList.find((s) => s.name === controls.settings().scenario);
  const taskWasScenarios = before && before.task === controls.settings().task;
  setLang(e.detail.lang);
  applyI18n();
  stats.refresh();
  if (!tao) return;
  loadScenarios(controls.settings().scenario);
  toolsPanel.setTools(offeredTools());
  refreshModelView();
  const now = scenarioList.find((s) => s.name === controls.settings().scenario);
  if (now) {
    controls.describe(now.description);
    // The scenario's own task follows the language; a task the user wrote stays.
    if (taskWasScenarios) controls.apply({ task: now.task });
  }
  if (running) return; // the live view keeps its labels until the run ends
  if (lastTrajectory) view.render(lastTrajectory);
  else view.showEmpty();
});

document.addEventListener("tao:export", () => {
  if (!lastTrajectory) {
    showStatus(t("status.nothingToExport"));
    return;
  }
  const blob = new Blob([JSON.stringify(lastTrajectory, null, 2) + "\n"], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = "trajectory.json";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  showStatus(t("status.exported"));
});

document.addEventListener("tao:import", (e) => {
  if (!tao) return;
  let traj;
  try {
    traj = tao.parseTrajectory(e.detail.text);
  } catch (err) {
    // The previous view stays as it was: a bad file must not wipe a good trajectory.
    showError(`${t("error.import")} ${messageOf(err)}`);
    return;
  }
  showError("");
  lastTrajectory = traj;
  view.render(traj);
  stats.show(traj.stats, traj.stop);
  showStatus(`${t("status.imported")} ${e.detail.name}`);
});

document.addEventListener("tao:share", async (e) => {
  const s = e.detail;
  // Only settings go in the link: never a key, never a trajectory.
  const q = new URLSearchParams({
    scenario: s.scenario,
    format: s.format,
    lang: s.lang,
    task: s.task,
    maxSteps: String(s.maxSteps),
  });
  const panel = toolsPanel.settings();
  q.set("tools", panel.enabled.filter((name) => !added.has(name)).join(","));
  if (panel.wiki && panel.wiki !== "offline" && !wikiChosenByPage) q.set("wiki", panel.wiki);
  // "This question, against this model": the provider, base URL and model name, not the key.
  if (s.provider !== "scripted") {
    q.set("provider", s.provider);
    if (s.baseUrl) q.set("base", s.baseUrl);
    if (s.model) q.set("model", s.model);
  }
  q.set("autorun", "1");
  const url = `${location.origin}${location.pathname}?${q}`;
  history.replaceState(null, "", url);
  try {
    await navigator.clipboard.writeText(url);
    showStatus(t("status.linkCopied"));
  } catch {
    showStatus(t("status.linkReady"));
  }
});

start();
