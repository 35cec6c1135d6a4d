//! The JavaScript API, and the only code that touches JS: the `Agent` class ([`agent`]), the
//! fetch transport ([`fetch`]), the JS model ([`js_model`]), JS tools ([`js_tool`]) and the
//! browser as the loop's host ([`host`]). The TypeScript declarations are in `types.d.ts`.
//!
//! ```js
//! import init, { Agent, loadOfflineData } from "./pkg/tao_agent.js";
//! await init();
//! const text = (name) => fetch(`./pkg/data/${name}.json`).then((r) => r.text());
//! loadOfflineData({ scenarios: await text("scenarios"), knowledge: await text("knowledge") });
//! // An agent (or a trajectory) in Chinese needs the Chinese prompts too: `zh: await text("zh")`.
//! const agent = new Agent({ scenario: "apple-ceo", delayMs: 30 });
//! agent.registerTool({ name: "docs", description: "Searches our docs" }, async (q) => "...");
//! const trajectory = await agent.run("What is ...?", { onEvent: (e) => console.log(e), signal });
//! ```
//!
//! Values cross the boundary one plain way: as JSON text (Rust writes it with
//! [`crate::to_json`], JS parses it; JS values come back through `JSON.stringify` and
//! [`crate::json`]), so a new field of a `Step` or an `Event` is one edit, in its `ToJson`.
//! Futures here are not `Send`: they hold JS values, and a browser tab has one thread. Errors
//! cross as JS `Error`s that keep their kind (`error.kind`: `"config"`, `"network"`, ...).
// The modules use only some of the helpers below.
#![cfg_attr(
    any(feature = "net-module", feature = "tools-module"),
    allow(dead_code)
)]

// The core's API (the modules' builds export only their own functions: `net_module`,
// `tools_module`).
#[cfg(not(any(feature = "net-module", feature = "tools-module")))]
mod agent;
#[cfg(not(any(feature = "net-module", feature = "tools-module")))]
mod api;
// The paper's scoring: the core's API, and the code that the tools' module exports.
#[cfg(not(feature = "net-module"))]
mod eval;
#[cfg(any(feature = "providers", feature = "builtin-tools"))]
mod fetch;
#[cfg(not(feature = "tools-module"))]
mod host;
#[cfg(not(any(feature = "net-module", feature = "tools-module")))]
mod js_model;
#[cfg(not(any(feature = "net-module", feature = "tools-module")))]
mod js_tool;
// What the core built without it loads on demand (`modules`): the providers (`net`) and the
// built-in tools' code (`module_tool`); and the modules that export them.
#[cfg(feature = "providers")]
mod connect;
#[cfg(feature = "providers")]
mod mcp;
#[cfg(not(any(feature = "builtin-tools", feature = "net-module")))]
mod module_tool;
#[cfg(not(any(
    all(feature = "providers", feature = "builtin-tools"),
    feature = "net-module",
    feature = "tools-module"
)))]
mod modules;
#[cfg(not(any(feature = "providers", feature = "tools-module")))]
mod net;
#[cfg(feature = "net-module")]
mod net_module;
#[cfg(feature = "tools-module")]
mod tools_module;

use crate::error::Error;
use crate::json::Value;
use crate::settings::Settings;
use crate::to_json::ToJson;
#[cfg(not(any(feature = "net-module", feature = "tools-module")))]
pub use agent::JsAgent;
#[cfg(not(any(feature = "net-module", feature = "tools-module")))]
pub use api::*;
#[cfg(not(any(feature = "net-module", feature = "tools-module")))]
pub use eval::{paper_sample_later, score_answer_later, vote_later};
use js_sys::{Reflect, JSON};
use wasm_bindgen::prelude::*;

#[cfg(not(any(feature = "net-module", feature = "tools-module")))]
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");

/// An error as JavaScript sees it: an `Error` with the message, and its `kind` (so `?` hands
/// tao's errors to JS).
impl From<Error> for JsValue {
    fn from(error: Error) -> JsValue {
        js_error(&error.message, error.kind.name())
    }
}

/// A JS `Error` with `message` and `kind`.
pub(crate) fn js_error(message: &str, kind: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    let _ = Reflect::set(&error, &"kind".into(), &kind.into());
    error.into()
}

/// A Rust value as a plain JS value: its JSON, parsed.
pub(crate) fn to_js(value: &dyn ToJson) -> Result<JsValue, JsValue> {
    JSON::parse(&crate::to_json::to_string(value))
        .map_err(|_| JsError::new("could not convert a value for JavaScript").into())
}

/// `then`, called when `signal` aborts (at once if it has), for as long as this lives. Why a
/// guard: the listener is a JS closure, which must live while JS may call it (as long as the
/// run, the call or the request it stops), and is removed from the signal when it goes.
pub(crate) struct OnAbort(web_sys::AbortSignal, Closure<dyn FnMut()>);

impl OnAbort {
    pub(crate) fn new(signal: &web_sys::AbortSignal, mut then: impl FnMut() + 'static) -> OnAbort {
        if signal.aborted() {
            then();
        }
        let listener = Closure::<dyn FnMut()>::new(then);
        let _ = signal.add_event_listener_with_callback("abort", listener.as_ref().unchecked_ref());
        OnAbort(signal.clone(), listener)
    }
}

impl Drop for OnAbort {
    fn drop(&mut self) {
        let OnAbort(signal, listener) = self;
        let _ =
            signal.remove_event_listener_with_callback("abort", listener.as_ref().unchecked_ref());
    }
}

/// `future` as a Promise, through one boxed type: the executor's glue (`future_to_promise`'s)
/// is compiled once for all the futures given here, not again for each one's type (size).
pub(crate) fn promise(
    future: impl std::future::Future<Output = Result<JsValue, JsValue>> + 'static,
) -> js_sys::Promise {
    let boxed: crate::host::LocalBoxFuture<'static, Result<JsValue, JsValue>> = Box::pin(future);
    wasm_bindgen_futures::future_to_promise(boxed)
}

fn get(object: &JsValue, key: &str) -> JsValue {
    if object.is_object() || object.is_function() {
        Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

/// The message of a thrown JS value.
pub(crate) fn describe(error: &JsValue) -> String {
    if let Some(e) = error.dyn_ref::<js_sys::Error>() {
        return String::from(e.message());
    }
    error.as_string().unwrap_or_else(|| type_of(error))
}

pub(crate) fn type_of(value: &JsValue) -> String {
    value
        .js_typeof()
        .as_string()
        .unwrap_or_else(|| "a value".into())
}

/// Reads `new Agent(config)`'s settings: the object as JSON (a `model` function aside).
pub(crate) fn read_settings(config: &JsValue) -> Result<Settings, Error> {
    if !(config.is_undefined() || config.is_null() || config.is_object()) {
        return Err(Error::config(
            "the settings must be an object, e.g. {scenario: \"apple-ceo\"}",
        ));
    }
    Settings::from_json(&json_of(config))
}

/// A JS value as JSON (functions and `undefined` fields left out, as `JSON.stringify` does).
pub(crate) fn json_of(value: &JsValue) -> Value {
    JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .and_then(|s| crate::json::from_str(&s).ok())
        .unwrap_or_default()
}
