//! The tools' module (built with the `tools-module` feature into `pkg/tao_tools*`): the code of
//! the built-in tools the shipped core leaves out (`super::module_tool` drives it). A `Toolbox`
//! is one agent's tools of one kind, made from their settings: `calculator`; `wiki` (`search`
//! and `lookup` over a live MediaWiki, sharing their open page: `{api, variant, signal}`);
//! `offline` (the same two over the pages of a knowledge file: `{pages, lang}`, its text);
//! `docs` (`search_docs` over `{docs: [...]}` or the file at `{url}`). `call(name, input)`
//! resolves to the observation, or rejects with an `Error` whose `kind` says whose failure it
//! is: `bad_input` (the model's: the message says what was expected) or `failed` (the tool's).
//! `memo` writes the memos tao writes itself for the offline model.

use super::fetch::WebTransport;
use super::{get, js_error, json_of};
use crate::agent::memory::extract;
use crate::error::Error;
use crate::json::{FromJson, Value};
use crate::tools::docs::{self, read_docs};
use crate::tools::knowledge;
use crate::tools::wikipedia::{self, Wiki};
use crate::tools::{calculator, Tool, ToolError};
use crate::trajectory::{MemoKind, MemoSource};
use js_sys::Promise;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;
use web_sys::AbortSignal;

/// One agent's built-in tools of one kind.
#[wasm_bindgen]
pub struct Toolbox {
    tools: Vec<Rc<dyn Tool>>,
}

#[wasm_bindgen]
impl Toolbox {
    /// The tools of `kind` (`calculator`, `wiki`, `offline`, `docs`), made from `config`.
    #[wasm_bindgen(constructor)]
    pub fn new(kind: &str, config: JsValue) -> Result<Toolbox, JsValue> {
        let signal = get(&config, "signal").dyn_into::<AbortSignal>().ok();
        let transport = || {
            Rc::new(WebTransport {
                signal: signal.clone(),
            })
        };
        let text = |key: &str| get(&config, key).as_string();
        let tools = match kind {
            "calculator" => vec![calculator::tool()],
            "wiki" => {
                let api = text("api").ok_or_else(|| Error::config("wiki needs {api}"))?;
                let variant = match text("variant").as_deref() {
                    Some("zh-cn") => Some("zh-cn"),
                    _ => None,
                };
                wikipedia::tools(Wiki { api, variant }, transport())
            }
            "offline" => {
                let pages = text("pages").ok_or_else(|| Error::config("offline needs {pages}"))?;
                let lang = text("lang").unwrap_or_default();
                knowledge::tools_from(&pages, &lang)?
            }
            "docs" => match text("url") {
                Some(url) => vec![docs::tool_from_url(&url, transport())],
                None => {
                    let list = read_docs(&json_of(&get(&config, "docs")))
                        .map_err(|e| Error::config(format!("docs: {e}")))?;
                    vec![docs::tool(list)]
                }
            },
            other => {
                return Err(
                    Error::config(format!("no built-in tools of the kind \"{other}\"")).into(),
                )
            }
        };
        Ok(Toolbox { tools })
    }

    /// Runs the tool called `name` on `input` (the value the model wrote, checked by the core).
    pub fn call(&self, name: &str, input: JsValue) -> Promise {
        let tool = self.tools.iter().find(|t| t.spec().name == name).cloned();
        let input = json_of(&input);
        let name = name.to_string();
        future_to_promise(async move {
            let tool = tool.ok_or_else(|| Error::config(format!("no tool called {name} here")))?;
            match tool.call(&input).await {
                Ok(output) => Ok(output.text.into()),
                Err(error) => Err(thrown(&error)),
            }
        })
    }
}

/// The memo tao writes itself for a model that cannot (the offline model): a `kind`
/// (`summary`, `reflection`) on `trajectory`, the trajectory file so far, a summary of steps 1
/// to `covers`.
#[wasm_bindgen]
pub fn memo(trajectory: &str, kind: &str, covers: u32) -> Result<String, JsValue> {
    let document =
        crate::json::from_str(trajectory).map_err(|e| Error::config(format!("memo: {e}")))?;
    let kind = MemoKind::from_value(&Value::String(kind.into())).map_err(Error::config)?;
    Ok(extract(&MemoSource::read(&document), kind, covers))
}

fn thrown(error: &ToolError) -> JsValue {
    let (kind, message) = match error {
        ToolError::BadInput(message) => ("bad_input", message),
        ToolError::Failed(message) => ("failed", message),
    };
    js_error(message, kind)
}
