//! The package's entry in Node (the `node` condition of package.json's `exports`; a browser
//! bundle never sees this file): everything `tao.js` exports, but `init()` and
//! `fetchOfflineData()` read the package's own files from the disk, because Node's `fetch` does
//! not read `file:` URLs. So a script does what a page does:
//!
//!   import { init, Agent, fetchOfflineData } from "tao-agent";
//!   await init();                              // tao_agent_bg.wasm, read beside this file
//!   await fetchOfflineData(["scenarios"]);     // data/scenarios.json, likewise

import { readFile } from "node:fs/promises";
import initCore, { loadOfflineData } from "./tao_agent.js";

export * from "./tao.js";

let loading = null;
/**
 * Loads the wasm core, once. With no argument it reads `tao_agent_bg.wasm` beside this file;
 * given the wasm's bytes or a compiled module (as the core's own `init` takes them), it uses them.
 */
export function init(input) {
  if (input !== undefined) return initCore(input);
  loading ??= readFile(new URL("./tao_agent_bg.wasm", import.meta.url)).then((bytes) => initCore({ module_or_path: bytes }));
  loading.catch(() => (loading = null));
  return loading;
}
export default init;

/** The offline data's files, beside this one (each named in full, as in tao-agent.js). */
const DATA = {
  scenarios: new URL("./data/scenarios.json", import.meta.url),
  knowledge: new URL("./data/knowledge.json", import.meta.url),
  zh: new URL("./data/zh.json", import.meta.url),
};
const installed = {};
/**
 * Loads the offline data the wasm does not carry (`data/<name>.json` beside this file: the
 * scenarios, the offline search's pages, the Chinese prompts), each file once, and the wasm
 * first if it is not loaded yet. A failed read is tried again at the next call.
 */
export function fetchOfflineData(names = ["scenarios", "knowledge", "zh"]) {
  const install = (name) => {
    installed[name] ??= Promise.all([init(), readFile(DATA[name], "utf8")])
      .then(([, text]) => loadOfflineData({ [name]: text }));
    installed[name].catch(() => delete installed[name]);
    return installed[name];
  };
  return Promise.all(names.map(install)).then(() => {});
}
