//! The modules the core loads on demand: what the shipped core wasm leaves out (the providers:
//! `tao_net`; the built-in tools' code: `tao_tools`) is built from this crate into modules of
//! their own, beside the core's files, and imported the first time a run needs them, once. So is
//! the model in the tab (`tao_wllama`, JavaScript only: src/llm/wllama.js, which loads
//! the engine, pkg/wllama/).

use super::{describe, get};
use crate::error::{Error, ErrorKind};
use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

// Each module's files are named in string literals, a static `import("./tao_net.js")` and a
// `new URL("./tao_net_bg.wasm", import.meta.url)`: the forms a bundler (Vite, webpack 5, Rollup,
// esbuild for the import) follows, copying the file into its output and rewriting the URL to
// where it put it. A name computed at run time is one no bundler can see: after a build the
// modules were missing. The paths are relative to the core's glue (pkg/tao_agent.js), which this
// code is part of once scripts/build.sh has bundled wasm-bindgen's snippets into it.
// Node's `fetch` does not read `file:` URLs: there, and only there, the wasm is read from the
// disk with `process.getBuiltinModule` (Node 20.16 and later), which no bundler follows and a
// browser never reaches. A failed load is tried again at the next need.
#[wasm_bindgen(inline_js = r#"
const files = {
  tao_net: () => [import("./tao_net.js"), packaged(new URL("./tao_net_bg.wasm", import.meta.url))],
  tao_tools: () => [import("./tao_tools.js"), packaged(new URL("./tao_tools_bg.wasm", import.meta.url))],
  tao_wllama: () => [import("./tao_wllama.js")],
};
// The wasm in the package's folder when Vite's dev server moved this code without it (the rule
// of www/packaged.js, which the core's glue cannot import).
const MOVED = "/node_modules/.vite/deps/";
const packaged = (url) => {
  const at = url.pathname.indexOf(MOVED);
  return at < 0 ? url : new URL(`${url.pathname.slice(0, at)}/node_modules/tao-agent/${url.pathname.slice(at + MOVED.length)}`, url);
};
const loading = {};
export function load_module(name) {
  loading[name] ??= (async () => {
    const [glue, wasm] = files[name]();
    const module = await glue;
    if (!wasm) return module;
    const bytes = wasm.protocol === "file:" ? globalThis.process.getBuiltinModule("fs").promises.readFile(wasm) : wasm;
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
