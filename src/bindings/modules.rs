//! The modules the core loads on demand: what the shipped core wasm leaves out (the providers:
//! `tao_net`; the built-in tools' code: `tao_tools`) is built from this crate into modules of
//! their own, beside the core's files, and imported the first time a run needs them, once.

use super::{describe, get};
use crate::error::{Error, ErrorKind};
use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

// A module's glue and wasm are found beside the core's: wasm-bindgen writes this code to
// `snippets/<crate>/inline0.js` under them, and the shipped build (scripts/build.sh) bundles it
// into the core's glue itself. Node reads the wasm from the disk: its `fetch` does not read
// `file:` URLs. A failed load is tried again at the next need.
#[wasm_bindgen(inline_js = r#"
const loading = {};
const snippet = /\/snippets\/[^/]+\/inline\d+\.js$/.test(new URL(import.meta.url).pathname);
const beside = new URL(snippet ? "../../" : "./", import.meta.url);
export function load_module(name) {
  loading[name] ??= (async () => {
    const module = await import(new URL(`${name}.js`, beside).href);
    const wasm = new URL(`${name}_bg.wasm`, beside);
    const fs = "node:fs/promises";
    const bytes = wasm.protocol === "file:" ? (await import(fs)).readFile(wasm) : wasm;
    await module.default({ module_or_path: await bytes });
    return module;
  })().catch((error) => {
    delete loading[name];
    throw error;
  });
  return loading[name];
}
"#)]
extern "C" {
    fn load_module(name: &str) -> Promise;
}

/// The function `function` of module `module` (`what` names the module in errors), loading
/// the module if it is not loaded yet.
pub(crate) async fn export(module: &str, what: &str, function: &str) -> Result<Function, Error> {
    let loaded = JsFuture::from(load_module(module)).await.map_err(|e| {
        Error::new(
            ErrorKind::Network,
            format!(
                "could not load {what} ({module}.js and {module}_bg.wasm, beside tao_agent.js): {}",
                describe(&e)
            ),
        )
    })?;
    get(&loaded, function)
        .dyn_into::<Function>()
        .map_err(|_| Error::model(format!("{what} has no {function}")))
}
