//! The tools panel's logic (`<tao-tools>`, in `tools.js`, only draws it): the tools the page adds
//! in JS (the code sandbox, the example wasm tools, uploaded .wasm), where `search`/`lookup`
//! read (a scenario written for Wikipedia goes live when it answers), the files run_js reads
//! (the files panel, whose code is `data-files.js`), and what the model is told about the
//! tools, drawn from a throwaway agent's own prompt so it can never drift from it.

import { t, lang } from "./i18n.js";
import { state, controls, toolsPanel, messageOf, agentConfig, dataFor, usedTools } from "./app.js";
import { withAgent, free } from "./drive.js";

/** The files panel's code, loaded the first time a file comes or run_js is chosen. */
let filesModule = null;
const dataFiles = () => (filesModule ??= import("./data-files.js"));

/** Tools the page adds in JS: the code sandbox and the example wasm tools (built on first use). */
const PAGE_TOOLS = {
  run_js: async () => {
    const [{ codeTool }, { currentFiles }] = await Promise.all([import("./code-tool.js"), dataFiles()]);
    return codeTool({ files: currentFiles, lang: () => controls.settings().lang });
  },
  wordcount: () => wasmExample("wordcount"),
  units: () => wasmExample("units"),
};
/** Scenarios that read live Wikipedia when it can be reached (else the built-in pages). */
const LIVE_WIKI = new Set(["einstein"]);
/** Tools the user added (uploaded .wasm), by name: `{spec, fn, description}`. */
const added = new Map();
/** The page's JS tools once made (the sandbox is fetched the first time a wasm tool is). */
const made = new Map();
/** Whether the wiki source was chosen by the page (a scenario going live), not by the user. */
let wikiChosenByPage = true;

async function wasmExample(name) {
  return (await import("./wasm-tool.js")).exampleTool(name);
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

/** Lists the tools on offer in the panel, with the description a reader sees. */
export function showTools() {
  const known = [...state.builtinTools, ...Object.keys(PAGE_TOOLS)].map((name) => ({ name, description: t(`tool.${name}`) }));
  const mine = [...added.values()].map((tool) => ({ name: tool.spec.name, description: tool.spec.description, added: true }));
  toolsPanel.setTools([...known, ...mine]);
}

/**
 * The page's one way to make an agent: `config` (from `agentConfig`) once the offline data it
 * reads (and `trajectory`'s language) is in, with the JS tools that `panel` enables registered
 * and the MCP servers' tools listed (so its prompts show them before a run). Its user frees it
 * (`withAgent`).
 */
export async function pageAgent(config, panel = toolsPanel.settings(), trajectory) {
  await dataFor(config, trajectory);
  const agent = new state.tao.Agent(config);
  try {
    await registerPageTools(agent, panel);
    // The tools the page offers through WebMCP (webmcp.js, loaded then), and the MCP servers'.
    if (panel.webmcp) await (await import("./webmcp.js")).registerPageTools(agent);
    if (config.mcp) await agent.tools();
    return agent;
  } catch (e) {
    free(agent);
    throw e;
  }
}

/** Registers the enabled JS-side tools on `agent` (the core ones are in its settings). */
async function registerPageTools(agent, panel) {
  for (const name of panel.enabled.filter((n) => !state.builtinTools.includes(n))) {
    // The offline model's rules read its scenario's own file: put it back if it was removed.
    const settings = controls.settings();
    if (name === "run_js" && settings.provider === "scripted") await (await dataFiles()).addSample(settings.scenario);
    const tool = await pageTool(name);
    const spec = { ...tool.spec };
    // A Chinese prompt describes an example tool in Chinese (run_js says its own: `lang`).
    if (settings.lang === "zh" && tool.zh) spec.description = tool.zh;
    if (name === "run_js") spec.needsApproval = panel.approveCode;
    agent.registerTool(spec, tool.fn);
  }
}

/** Whether a share link can name this tool: an uploaded one cannot (the reader lacks the file). */
export const isShareable = (name) => !added.has(name);

/** Whether the user chose the wiki source (a query's `wiki=`, or the panel), not the page. */
export const wikiChosenByUser = () => !wikiChosenByPage;

/** Sets the wiki source on the user's behalf: a scenario no longer changes it. */
export function chooseWiki(wiki) {
  toolsPanel.setWiki(wiki);
  wikiChosenByPage = false;
}

/** A scenario's tools are ticked, and its wiki chosen unless the user chose one. */
export function useScenarioTools(name, tools) {
  toolsPanel.enable(tools);
  if (tools.includes("run_js") || filesModule) dataFiles().then((files) => files.useScenarioFiles(name));
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
export function refreshModelView() {
  if (!state.tao || viewQueued) return;
  viewQueued = true;
  setTimeout(async () => {
    viewQueued = false;
    const settings = controls.settings();
    const panel = toolsPanel.settings();
    const enabled = usedTools(panel);
    toolsPanel.querySelector("[data-tools-summary]").textContent =
      t("tools.enabled").replace("{list}", enabled.join(", ") || t("tools.none"));
    // Drawn when it can be seen (it is refreshed when opened): a closed view costs no agent,
    // and so no offline pages fetched at the page's start.
    if (!toolsPanel.querySelector(".model-view")?.open) return;
    try {
      const prompt = await withAgent(pageAgent(agentConfig(settings, panel), panel), (agent) => agent.prompt(settings.task || "…"));
      const text = prompt.tools.length
        ? JSON.stringify(prompt.tools, null, 2)
        : prompt.messages.map((m) => `[${m.role}]\n${m.content}`).join("\n\n");
      toolsPanel.showModelView(text);
    } catch (e) {
      toolsPanel.showModelView(messageOf(e));
    }
  }, 50);
}

/**
 * The files panel: a drop, a choice or a Remove is handed to `data-files.js` (loaded then). The
 * drop's files are taken at once: the browser empties them once the event is over.
 */
function installFiles() {
  const box = document.querySelector("[data-files]");
  if (!box) return;
  const zone = box.querySelector("[data-dropzone]");
  zone.addEventListener("dragover", (e) => {
    e.preventDefault(); // else the browser opens the file instead of dropping it here
    e.dataTransfer.dropEffect = "copy";
    zone.dataset.dragging = "";
  });
  zone.addEventListener("dragleave", () => delete zone.dataset.dragging);
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    delete zone.dataset.dragging;
    const list = [...(e.dataTransfer?.files ?? [])];
    dataFiles().then((files) => files.add(list));
  });
  box.addEventListener("change", (e) => {
    const input = e.target.closest("[data-file-input]");
    if (!input) return;
    const list = [...input.files];
    input.value = "";
    dataFiles().then((files) => files.add(list));
  });
  box.addEventListener("click", (e) => {
    const button = e.target.closest("[data-remove-file]");
    if (!button) return;
    zone.querySelector("input").focus(); // the button goes with its row
    dataFiles().then((files) => files.remove(button.dataset.removeFile));
  });
  // What the model is told about run_js names the files.
  document.addEventListener("tao:files", refreshModelView);
}

export function install() {
  toolsPanel.querySelector(".model-view")?.addEventListener("toggle", refreshModelView);
  installFiles();
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
      showTools();
      toolsPanel.setUploadStatus(t("tools.upload.added"), true);
    } catch (err) {
      toolsPanel.setUploadStatus(`${t("tools.upload.refused")} ${messageOf(err)}`, false);
    }
  });

  document.addEventListener("tao:remove", (e) => {
    added.delete(e.detail.name);
    showTools();
    refreshModelView();
  });

  // The prompt depends on the format, the language and the task, not only on the tools.
  for (const name of ["format", "lang", "task"]) {
    document.querySelector(`[name="${name}"]`).addEventListener("change", refreshModelView);
  }

  // The descriptions a reader sees are in the page's language.
  document.addEventListener("tao:lang", () => {
    if (!state.tao) return;
    showTools();
    refreshModelView();
  });
}
