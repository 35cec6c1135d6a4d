//! The tools' module (built with the `tools-module` feature into `pkg/tao_tools*`): the code of
//! the built-in tools the shipped core leaves out (`super::module_tool` calls it). Each function
//! takes the tool's one string input and returns its observation, or throws an `Error` whose
//! `kind` says whose failure it is: `bad_input` (the model's: the message says what was
//! expected) or `failed` (the tool's).

use crate::tools::calculator::{evaluate, format_number};
use crate::tools::ToolError;
use js_sys::Reflect;
use wasm_bindgen::prelude::*;

/// The calculator: `expression`'s value, written as the tool writes it.
#[wasm_bindgen]
pub fn calculator(expression: &str) -> Result<String, JsValue> {
    evaluate(expression)
        .map(format_number)
        .map_err(|e| thrown(&e))
}

fn thrown(error: &ToolError) -> JsValue {
    let (kind, message) = match error {
        ToolError::BadInput(message) => ("bad_input", message),
        ToolError::Failed(message) => ("failed", message),
    };
    let js = js_sys::Error::new(message);
    let _ = Reflect::set(&js, &"kind".into(), &kind.into());
    js.into()
}
