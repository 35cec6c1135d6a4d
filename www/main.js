//! The demo page: registers the elements, installs the page's parts, and starts (query string →
//! language → wasm → scenarios → maybe autorun). The elements never talk to each other: they
//! emit bubbling `tao:*` events, and each part listens for its own; what the parts share is in
//! `app.js`. A new panel is an element in `elements.js` plus its part in `PARTS`.

import "./elements.js";
import { t, LANGS, setLang, loadLang, lang, applyI18n } from "./i18n.js";
import { state, controls, toolsPanel, view, stats, loadTao, loadScenarioList, showError, showStatus, sayAgain, messageOf } from "./app.js";
import * as scenarios from "./scenarios.js";
import * as pageTools from "./page-tools.js";
import * as provider from "./provider.js";
import * as run from "./run.js";
import { readQuery } from "./query.js";
import * as follow from "./follow.js";
import * as offline from "./offline.js";
import * as present from "./present.js";
import * as announce from "./announce.js";
import * as compare from "./compare.js";
import * as benchmark from "./benchmark-open.js";

// The language switches first: listeners run in the order they were added, and the parts'
// own `tao:lang` handlers redraw their text in the new language.
document.addEventListener("tao:lang", (e) => {
  setLang(e.detail.lang);
  applyI18n();
  stats.refresh();
  sayAgain();
});

/**
 * The ways in to the parts that come with their first use (a visit that never uses them never
 * downloads them): Export and Import (files.js), Share (share.js), the Prompt inspector (inspect.js) at a step's Prompt button,
 * and edit and fork (fork.js) at Fork from here. Whether one may fork now is answered here, while
 * the edit can still stay open.
 */
const later = {
  install() {
    // Export and Import (files.js).
    for (const type of ["tao:export", "tao:import"]) {
      document.addEventListener(type, (e) => {
        import("./files.js").then((part) => part.handle(e), (error) => showError(messageOf(error)));
      });
    }
    document.addEventListener("tao:share", (e) => {
      import("./share.js").then((part) => part.share(e.detail), (error) => showError(messageOf(error)));
    });
    document.addEventListener("tao:prompt", (e) => {
      const { target } = e;
      import("./inspect.js").then(
        (part) => part.inspect(e.detail.index, target),
        (error) => showError(`${t("prompt.error")} ${messageOf(error)}`),
      );
    });
    document.addEventListener("tao:fork", (e) => {
      const source = e.target.closest?.("tao-trajectory");
      if (!state.tao || !source?.trajectory) return;
      // One run at a time: the edit stays open (the event is cancelled) until this one ends.
      if (state.running) {
        e.preventDefault();
        showStatus("fork.busy");
        return;
      }
      const { index, edit } = e.detail;
      import("./fork.js").then(
        (fork) => fork.start(source, index, edit),
        (error) => showError(`${t("error.fork")} ${messageOf(error)}`),
      );
    });
  },
};

/**
 * The rating bar's code (rate.js) comes with the first run that ends, or the first import: it
 * keeps that run, and every one after it, for Export JSONL.
 */
const rating = {
  install() {
    let loading = null;
    const load = () => (loading ??= import("./rate.js").then((part) => part.start(), (error) => showError(messageOf(error))));
    document.addEventListener("tao:rendered", () => state.lastTrajectory?.stop && load());
    document.addEventListener("tao:kept", load);
  },
};

/** The page's parts, each registering its own `tao:*` listeners. */
const PARTS = [scenarios, pageTools, provider, run, follow, offline, later, present, announce, compare, rating, benchmark];
for (const part of PARTS) part.install();

async function start() {
  const query = readQuery();
  const chosen = query.lang ?? (navigator.language?.startsWith("zh") ? "zh" : "en");
  // The wasm and the menu's list in the page's language start loading at once (a language the
  // page does not speak is English, as setLang has it); the Chinese words, when they are needed,
  // beside them.
  const loading = loadTao(LANGS.includes(chosen) ? chosen : "en");
  loading.catch(() => {}); // reported below
  await loadLang(chosen).catch(() => {}); // without them, the page speaks English
  setLang(chosen);
  controls.apply({ lang: lang() });
  applyI18n();
  stats.refresh();
  view.showEmpty(); // drawn when the element connected, before the language was known
  controls.setReady(false);
  showStatus("status.loading");

  try {
    await loading;
    // The menu's list: in already, unless the language was switched meanwhile and its list failed.
    await loadScenarioList(lang());
  } catch (e) {
    showStatus("");
    showError(`${t("error.load")} (${messageOf(e)})`);
    return;
  }

  document.querySelector("[data-version]").textContent = `v${state.tao.version()}`;
  scenarios.loadScenarios(query.scenario);
  pageTools.showTools();
  // An explicit wiki= wins before the scenario is applied, so the scenario does not probe one.
  if (query.wiki) pageTools.chooseWiki(query.wiki);
  scenarios.useScenario(controls.settings().scenario);
  if (query.tools) toolsPanel.enable(query.tools);
  // A link's MCP servers (URLs only): connected before a run the link starts.
  if (query.mcp) {
    const failed = [];
    for (const url of query.mcp) {
      const added = await toolsPanel.addServer(url);
      if (added !== true) failed.push(added);
    }
    // One the link names that could not be added (it wants a token, say): the panel is opened
    // on what went wrong with each.
    if (failed.length) {
      toolsPanel.querySelector("[data-tools-panel]").open = true;
      toolsPanel.querySelector("[data-mcp-status]").textContent = failed.join(" · ");
    }
  }
  // Explicit query values win over the scenario's defaults.
  controls.apply({ format: query.format, task: query.task, maxSteps: query.maxSteps, delayMs: query.delayMs, stepMode: query.stepMode });
  controls.apply({ tokenBudget: query.tokenBudget, timeBudget: query.timeBudget, memoryTokens: query.memoryTokens, reflectEvery: query.reflectEvery });
  if (query.provider === "chrome") await provider.chromeOffered;
  controls.apply({ provider: query.provider });
  // The link's server first: a remembered key is filled in only for its own (provider.js).
  const { baseUrl, model, maxTokens, firstByteTimeout, idleTimeout } = query;
  controls.apply({ baseUrl, model, maxTokens, firstByteTimeout, idleTimeout });
  await provider.useProvider(controls.settings().provider);
  if (query.compare) await compare.openCompare(query.compare);
  controls.setReady(true);
  showStatus("status.ready");
  document.body.dataset.ready = "true";
  pageTools.refreshModelView();
  offline.refresh();
  if (query.autorun && provider.callsServer(controls.settings().provider)) {
    // Set up, not started: Run sends it (see `callsServer`).
    const { provider: name, baseUrl: given, model: chosen } = controls.settings();
    const hints = state.providers.get(name);
    const address = given || hints?.baseUrl || "";
    const host = URL.canParse(address) ? new URL(address).host : address;
    showStatus("status.linkWaits", { model: chosen || hints?.model || name, host });
  } else if (query.autorun) {
    if (state.compare) state.compare.run(controls.settings());
    else if (controls.settings().stepMode) document.dispatchEvent(new CustomEvent("tao:step", { detail: controls.settings() }));
    else run.run(controls.settings());
  }
}

start();
