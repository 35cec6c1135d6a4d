//! A tool implemented by a JavaScript function: `fn(input)` returns the observation (a string,
//! `{observation, fuel, picture}`, or any value, shown as JSON), or a Promise of it. A thrown error or a
//! rejected Promise is the tool failing: the model reads it as an observation.

use super::{describe, get, json_of, to_js};
use crate::chat::ToolSpec;
use crate::host::LocalBoxFuture;
use crate::json::Value;
use crate::tools::{Tool, ToolError, ToolOutput};
use js_sys::{Function, Promise, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// A tool the page registered with `registerTool(spec, fn)`.
#[derive(Clone)]
pub(crate) struct JsTool {
    pub(crate) spec: ToolSpec,
    pub(crate) function: Function,
    /// Declared without `parameters`: the embedder gave no schema to hold the input to, so
    /// the function gets what the model wrote (as before schemas were checked).
    pub(crate) unchecked: bool,
}

impl Tool for JsTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn checks_input(&self) -> bool {
        !self.unchecked
    }

    fn call<'a>(&'a self, input: &'a Value) -> LocalBoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            // A text input (the text formats' usual one) is made by JS from the text alone.
            let argument = match input {
                Value::String(text) => super::values::string(text),
                _ => to_js(input).map_err(|_| {
                    ToolError::Failed("could not pass the input to the tool".into())
                })?,
            };
            let name = &self.spec.name;
            let returned = self
                .function
                .call1(&JsValue::NULL, &argument)
                .map_err(|e| ToolError::Failed(format!("{name} threw: {}", describe(&e))))?;
            // A string is the observation (the usual answer: asked first, in one call). It is
            // copied by `values.js`, which keeps it for the observation's event (`append_text`).
            let mut text = Vec::new();
            if super::values::append_text(&returned, &mut text, 256, true) {
                // (Always UTF-8: `TextEncoder` writes nothing else.)
                return Ok(ToolOutput::from(
                    String::from_utf8(text).unwrap_or_default(),
                ));
            }
            let value = match returned.dyn_into::<Promise>() {
                Ok(promise) => JsFuture::from(promise)
                    .await
                    .map_err(|e| ToolError::Failed(format!("{name} failed: {}", describe(&e))))?,
                Err(value) => value,
            };
            if let Some(text) = get(&value, "observation").as_string() {
                let fuel = get(&value, "fuel").as_f64().filter(|f| *f >= 0.0);
                // A picture (a chart's numbers) rides along as JSON; the page draws it.
                let picture = Some(json_of(&get(&value, "picture"))).filter(|v| v.is_object());
                return Ok(ToolOutput {
                    text,
                    fuel: fuel.map(|f| f as u64),
                    picture,
                });
            }
            Ok(ToolOutput::from(match value.as_string() {
                Some(text) => text,
                None if value.is_undefined() => String::new(),
                None => JSON::stringify(&value)
                    .ok()
                    .and_then(|s| s.as_string())
                    .unwrap_or_default(),
            }))
        })
    }
}
