//! The built-in tools whose code the core built without it (the shipped wasm) takes from the
//! tools' module (`tools_module`, `pkg/tao_tools*`): the core keeps what the model is told
//! (the spec, in both languages), so prompts are the same before anything is loaded; the first
//! call loads the module and every call runs there. The observation, and whether a failure is
//! the model's (a bad input) or the tool's, are the module's, unchanged.

use super::modules;
use crate::chat::ToolSpec;
use crate::host::LocalBoxFuture;
use crate::tools::{self, text_input, Tool, ToolError, ToolOutput};
use js_sys::{Promise, Reflect};
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// A built-in tool run in the tools' module: its spec, the name of its one string input, and
/// the module's function that runs it.
pub(crate) struct ModuleTool {
    spec: ToolSpec,
    field: &'static str,
    function: &'static str,
}

/// The tools this core takes from the tools' module.
pub(crate) fn builtins() -> Vec<Rc<dyn Tool>> {
    vec![Rc::new(ModuleTool {
        spec: tools::calculator_spec(),
        field: "expression",
        function: "calculator",
    })]
}

impl Tool for ModuleTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn call<'a>(&'a self, input: &'a Value) -> LocalBoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let text = text_input(input, self.field)?;
            let function = modules::export("tao_tools", "the tools' module", self.function)
                .await
                .map_err(|e| ToolError::Failed(e.message))?;
            let returned = function
                .call1(&JsValue::NULL, &text.into())
                .map(|value| JsFuture::from(Promise::resolve(&value)));
            let value = match returned {
                Ok(pending) => pending.await,
                Err(thrown) => Err(thrown),
            };
            match value {
                Ok(value) => Ok(ToolOutput::from(value.as_string().unwrap_or_default())),
                Err(thrown) => Err(failure(&thrown)),
            }
        })
    }
}

/// What the module threw: `kind: "bad_input"` is the model's mistake, anything else the tool's.
fn failure(thrown: &JsValue) -> ToolError {
    let message = super::describe(thrown);
    let kind = Reflect::get(thrown, &"kind".into())
        .ok()
        .and_then(|k| k.as_string());
    match kind.as_deref() {
        Some("bad_input") => ToolError::BadInput(message),
        _ => ToolError::Failed(message),
    }
}
