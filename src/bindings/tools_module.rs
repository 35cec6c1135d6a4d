//! The tools' module (built with the `tools-module` feature into `pkg/tao_tools*`): the code of
//! the built-in tools the shipped core leaves out (`super::module_tool` drives it). A `Toolbox`
//! is one agent's tools of one kind, made from their settings (JSON text) and the run's signal:
//! `calculator`; `wiki` (`search` and `lookup` over a live MediaWiki, sharing their open page:
//! `{api, variant}`); `offline` (the same two over the pages of a knowledge file: `{pages,
//! lang}`, its text); `docs` (`search_docs` over `{docs: [...]}` or the file at `{url}`).
//! `call(name, input)` resolves to the observation, or rejects with an `Error` whose `kind` says
//! whose failure it is: `bad_input` (the model's: the message says what was expected) or
//! `failed` (the tool's). `memo` writes the memos tao writes itself for the offline model, and
//! `paper` computes the paper's scores (`super::eval`).

use super::fetch::WebTransport;
use super::js_error;
use crate::agent::memory::extract;
use crate::error::Error;
use crate::http::Transport;
use crate::json::{FromJson, Value};
use crate::tools::toolbox::toolbox;
use crate::tools::{Tool, ToolError};
use crate::trajectory::{MemoKind, MemoSource};
use js_sys::Promise;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::AbortSignal;

/// One agent's built-in tools of one kind.
#[wasm_bindgen]
pub struct Toolbox {
    tools: Vec<Rc<dyn Tool>>,
}

#[wasm_bindgen]
impl Toolbox {
    /// The tools of `kind` (`calculator`, `wiki`, `offline`, `docs`), made from `config` (see
    /// `crate::tools::toolbox`); `signal` cancels their requests.
    #[wasm_bindgen(constructor)]
    pub fn new(kind: &str, config: &str, signal: Option<AbortSignal>) -> Result<Toolbox, JsValue> {
        let config = crate::json::from_str(config).map_err(|e| Error::config(e.to_string()))?;
        let transport = || -> Rc<dyn Transport> {
            let signal = signal.clone();
            Rc::new(WebTransport { signal })
        };
        let tools = toolbox(kind, &config, transport)?;
        Ok(Toolbox { tools })
    }

    /// Runs the tool called `name` on `input` (JSON text: the value the model wrote, checked by
    /// the core).
    pub fn call(&self, name: &str, input: &str) -> Promise {
        let tool = self.tools.iter().find(|t| t.spec().name == name).cloned();
        let input = crate::json::from_str(input);
        let name = name.to_string();
        super::promise(async move {
            let tool = tool.ok_or_else(|| Error::config(format!("no tool called {name} here")))?;
            let input = input.map_err(|e| Error::config(format!("{name}: {e}")))?;
            match tool.call(&input).await {
                Ok(output) => Ok(output.text.into()),
                Err(ToolError::BadInput(message)) => Err(js_error(&message, "bad_input")),
                Err(ToolError::Failed(message)) => Err(js_error(&message, "failed")),
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
