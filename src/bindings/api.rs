//! The core's functions besides the `Agent`: the version, the offline data and scenarios, the
//! providers and built-in tools the page lists, the connection test and the trajectory reader.

use super::{get, read_settings, to_js, type_of};
use crate::error::Error;
use crate::format::Lang;
use crate::scenarios;
use crate::settings::{BUILTIN_TOOLS, PROVIDERS};
use crate::tools::knowledge;
use crate::trajectory::Trajectory;
use js_sys::Promise;
use wasm_bindgen::prelude::*;

/// The version of tao.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").into()
}

/// Loads the data the shipped wasm leaves out: the texts of `data/scenarios.json`,
/// `data/knowledge.json` and `data/zh.json` (the Chinese prompts; any may be left out),
/// replacing what was loaded; throws on a bad file.
#[wasm_bindgen(js_name = loadOfflineData)]
pub fn load_offline_data(
    #[wasm_bindgen(unchecked_param_type = "OfflineData")] data: JsValue,
) -> Result<(), JsValue> {
    let text = |key: &str| match get(&data, key) {
        v if v.is_undefined() || v.is_null() => Ok(None),
        v => v.as_string().map(Some).ok_or_else(|| {
            Error::config(format!(
                "loadOfflineData: {key} must be the text of data/{key}.json, not {}",
                type_of(&v)
            ))
        }),
    };
    if let Some(bundle) = text("scenarios")? {
        scenarios::install(&bundle)?;
    }
    if let Some(pages) = text("knowledge")? {
        knowledge::install(&pages)?;
    }
    if let Some(texts) = text("zh")? {
        crate::zh::install(&texts)?;
    }
    Ok(())
}

/// The offline scenarios loaded (none before `loadOfflineData`), with texts in `lang` ("en" or
/// "zh").
#[wasm_bindgen(unchecked_return_type = "ScenarioInfo[]")]
pub fn scenarios(lang: Option<String>) -> Result<JsValue, JsValue> {
    let lang = lang.as_deref().and_then(Lang::from_name);
    to_js(&scenarios::menu(lang.unwrap_or(Lang::En)))
}

/// The providers over HTTP, with their default base URL, an example model, and whether they
/// need a key (the page builds its Model panel from this).
#[wasm_bindgen(unchecked_return_type = "ProviderInfo[]")]
pub fn providers() -> Result<JsValue, JsValue> {
    to_js(&PROVIDERS)
}

/// The names of the tools built into the core (the `tools` setting takes these, and the names
/// of tools registered with `registerTool`).
#[wasm_bindgen(js_name = builtinTools, unchecked_return_type = "string[]")]
pub fn builtin_tools() -> Result<JsValue, JsValue> {
    to_js(&BUILTIN_TOOLS)
}

/// Sends a tiny request to the configured provider and reports what came back (the reply,
/// latency, token counts); throws an Error naming the cause and the fix when it fails. (The
/// settings are checked here; the request is the providers' business, in their module when
/// this core was built without them.)
#[wasm_bindgen(js_name = testConnection, unchecked_return_type = "Promise<ConnectionReport>")]
pub fn test_connection(
    #[wasm_bindgen(unchecked_param_type = "AgentConfig")] config: JsValue,
) -> Promise {
    super::promise(async move {
        let endpoint = read_settings(&config)?.endpoint.ok_or_else(|| {
            Error::config("testConnection needs a provider: openai, ollama or anthropic")
        })?;
        #[cfg(feature = "providers")]
        return super::connect::report(endpoint).await;
        #[cfg(not(feature = "providers"))]
        return super::net::test_connection(&endpoint).await;
    })
}

/// Reads a trajectory file (JSON text); throws an Error saying what is wrong with it.
#[wasm_bindgen(js_name = parseTrajectory, unchecked_return_type = "Trajectory")]
pub fn parse_trajectory(text: &str) -> Result<JsValue, JsValue> {
    to_js(&Trajectory::from_json(text)?)
}
