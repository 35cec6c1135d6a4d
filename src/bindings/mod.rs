//! The JavaScript API, and the only code that touches JS: the `Agent` class ([`agent`]), the
//! fetch transport ([`fetch`]), the JS model ([`js_model`]), JS tools ([`js_tool`]) and the
//! browser as the loop's host ([`host`]). The TypeScript declarations are in `types.d.ts`.
//!
//! ```js
//! import init, { Agent, loadOfflineData } from "./pkg/tao_agent.js";
//! await init();
//! const text = (name) => fetch(`./pkg/data/${name}.json`).then((r) => r.text());
//! loadOfflineData({ scenarios: await text("scenarios"), knowledge: await text("knowledge") });
//! const agent = new Agent({ scenario: "apple-ceo", delayMs: 30 });
//! agent.registerTool({ name: "docs", description: "Searches our docs" }, async (q) => "...");
//! const trajectory = await agent.run("What is ...?", { onEvent: (e) => console.log(e), signal });
//! ```
//!
//! Values cross the boundary as what their JSON would parse to ([`crate::to_json`]'s writer
//! records them, and [`values`] builds them in JS without the text). Futures here are not
//! `Send`: they hold JS values, and a browser tab has one thread. Errors cross as JS `Error`s
//! that keep their kind (`error.kind`: `"config"`, `"network"`, `"auth"`, ...).

mod agent;
mod eval;
mod fetch;
mod host;
mod js_model;
mod js_tool;
mod values;

use crate::error::Error;
use crate::format::Lang;
use crate::host::Host;
use crate::llm::connection;
use crate::llm::http::HttpModel;
use crate::scenarios;
use crate::settings::{BUILTIN_TOOLS, PROVIDERS};
use crate::to_json::{JsonWriter, ToJson};
use crate::tools::knowledge;
use crate::trajectory::Trajectory;
pub use agent::JsAgent;
use fetch::WebTransport;
use host::WebHost;
use js_sys::{Promise, Reflect};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");

/// A panic is a bug of tao (nothing a user does should cause one): say where it happened on
/// the console before the module stops. Written here rather than with the usual crate, which
/// formats the whole panic report and captures a JS stack (1.1 KB gzip for the same line).
#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| {
        let mut report = String::from("tao panicked (a bug: please report it)");
        if let Some(place) = info.location() {
            report += " at ";
            report += place.file();
            report += ":";
            report += &place.line().to_string();
        }
        if let Some(message) = info.payload().downcast_ref::<&str>() {
            report += ": ";
            report += message;
        }
        console_error(&report);
    }));
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// The version of tao.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").into()
}

/// Loads the offline data the shipped wasm leaves out: the texts of `data/scenarios.json` and
/// `data/knowledge.json` (either may be left out), replacing what was loaded; throws on a bad file.
#[wasm_bindgen(js_name = loadOfflineData)]
pub fn load_offline_data(
    #[wasm_bindgen(unchecked_param_type = "OfflineData")] data: JsValue,
) -> Result<(), JsValue> {
    let text = |key: &str| -> Result<Option<String>, JsValue> {
        match get(&data, key) {
            v if v.is_undefined() || v.is_null() => Ok(None),
            v => v.as_string().map(Some).ok_or_else(|| {
                js_error(&Error::config(format!(
                    "loadOfflineData: {key} must be the text of data/{key}.json, not {}",
                    type_of(&v)
                )))
            }),
        }
    };
    if let Some(bundle) = text("scenarios")? {
        scenarios::install(&bundle).map_err(|e| js_error(&e))?;
    }
    if let Some(pages) = text("knowledge")? {
        knowledge::install(&pages).map_err(|e| js_error(&e))?;
    }
    Ok(())
}

/// The offline scenarios loaded (none before `loadOfflineData`), with texts in `lang` ("en" or
/// "zh").
#[wasm_bindgen(unchecked_return_type = "ScenarioInfo[]")]
pub fn scenarios(lang: Option<String>) -> Result<JsValue, JsError> {
    let lang = lang
        .as_deref()
        .and_then(Lang::from_name)
        .unwrap_or(Lang::En);
    struct Info(scenarios::Scenario, Lang);
    impl ToJson for Info {
        fn write_json(&self, out: &mut JsonWriter) {
            let Info(s, lang) = self;
            out.object(&[
                ("name", &s.name),
                ("title", &s.title.get(*lang)),
                ("description", &s.description.get(*lang)),
                ("task", &s.task(*lang)),
                ("format", &s.format),
                ("maxSteps", &s.max_steps),
                ("memoryTokens", &s.memory_tokens),
                ("reflectEvery", &s.reflect_every),
                ("tools", &s.tools),
                ("gold", &s.gold.as_ref().map(|g| g.get(*lang))),
                ("modes", &s.mode_names()),
            ]);
        }
    }
    let list: Vec<Info> = scenarios::all()
        .into_iter()
        .map(|s| Info(s, lang))
        .collect();
    to_js(&list)
}

/// The providers over HTTP, with their default base URL, an example model, and whether they
/// need a key (the page builds its Model panel from this).
#[wasm_bindgen(unchecked_return_type = "ProviderInfo[]")]
pub fn providers() -> Result<JsValue, JsValue> {
    struct Info(&'static crate::settings::Provider);
    impl ToJson for Info {
        fn write_json(&self, out: &mut JsonWriter) {
            let p = self.0;
            out.object(&[
                ("name", &p.name),
                ("baseUrl", &p.base_url),
                ("model", &p.model),
                ("needsKey", &p.needs_key),
            ]);
        }
    }
    to_js(&PROVIDERS.iter().map(Info).collect::<Vec<_>>()).map_err(JsValue::from)
}

/// The names of the tools built into the core (the `tools` setting takes these, and the names
/// of tools registered with `registerTool`).
#[wasm_bindgen(js_name = builtinTools, unchecked_return_type = "string[]")]
pub fn builtin_tools() -> Result<JsValue, JsValue> {
    to_js(&BUILTIN_TOOLS).map_err(JsValue::from)
}

/// Sends a tiny request to the configured provider and reports what came back (the reply,
/// latency, token counts); throws an Error naming the cause and the fix when it fails.
#[wasm_bindgen(js_name = testConnection, unchecked_return_type = "Promise<ConnectionReport>")]
pub fn test_connection(
    #[wasm_bindgen(unchecked_param_type = "AgentConfig")] config: JsValue,
) -> Promise {
    future_to_promise(async move {
        let endpoint = agent::read_settings(&config)
            .map_err(|e| js_error(&e))?
            .endpoint
            .ok_or_else(|| {
                js_error(&Error::config(
                    "testConnection needs a provider: openai, ollama or anthropic",
                ))
            })?;
        let host: Rc<dyn Host> = Rc::new(WebHost { approve: None });
        let transport = Rc::new(WebTransport { signal: None });
        let model = HttpModel::new(endpoint, transport, host.clone());
        let report = connection::test_connection(&model, host.as_ref())
            .await
            .map_err(|e| js_error(&e))?;
        to_js(&report).map_err(JsValue::from)
    })
}

/// Reads a trajectory file (JSON text); throws an Error saying what is wrong with it.
#[wasm_bindgen(js_name = parseTrajectory, unchecked_return_type = "Trajectory")]
pub fn parse_trajectory(text: &str) -> Result<JsValue, JsValue> {
    let trajectory = Trajectory::from_json(text).map_err(|e| js_error(&e))?;
    to_js(&trajectory).map_err(JsValue::from)
}

/// An error as JavaScript sees it: an `Error` with the message, and its `kind`.
pub(crate) fn js_error(error: &Error) -> JsValue {
    let js = js_sys::Error::new(&error.message);
    let _ = Reflect::set(&js, &"kind".into(), &error.kind.name().into());
    js.into()
}

/// A Rust value as a plain JS value: the one its JSON would parse to (see [`values`]).
pub(crate) fn to_js(value: &dyn ToJson) -> Result<JsValue, JsError> {
    Ok(values::to_js(value))
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
