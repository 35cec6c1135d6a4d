//! A tool implemented by a JavaScript function: `fn(input, {signal})` returns the observation (a
//! string, `{observation, fuel, picture}`, or any value, shown as JSON), or a Promise of it. A
//! thrown error or a rejected Promise is the tool failing: the model reads it as an observation.
//! `signal` is the run's: aborted when the user stops the run, so a tool at work can stop too
//! (its late answer is not recorded either way).

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
    /// `{signal}`, the function's second argument: the run's abort signal (see `for_run`).
    pub(crate) options: JsValue,
}

impl JsTool {
    /// The tool for one run, whose `signal` it hands the function.
    pub(crate) fn for_run(&self, signal: &Option<web_sys::AbortSignal>) -> JsTool {
        let options = js_sys::Object::new();
        if let Some(signal) = signal {
            let _ = js_sys::Reflect::set(&options, &"signal".into(), signal);
        }
        JsTool {
            options: options.into(),
            ..self.clone()
        }
    }
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
            let name = &self.spec.name;
            let argument = match input {
                Value::String(text) => JsValue::from_str(text),
                input => to_js(input).map_err(|_| {
                    ToolError::Failed("could not pass the input to the tool".into())
                })?,
            };
            let returned = self
                .function
                .call2(&JsValue::NULL, &argument, &self.options)
                .map_err(|e| ToolError::Failed(format!("{name} threw: {}", describe(&e))))?;
            // A Promise is waited for; a value (the usual string) is the answer at once.
            let value = match returned.dyn_into::<Promise>() {
                Ok(promise) => JsFuture::from(promise)
                    .await
                    .map_err(|e| ToolError::Failed(format!("{name} failed: {}", describe(&e))))?,
                Err(value) => value,
            };
            if let Some(text) = value.as_string() {
                return Ok(ToolOutput::from(text));
            }
            if value.is_undefined() {
                return Ok(ToolOutput::from(String::new()));
            }
            // `{observation, fuel, picture}`, or any other value, shown as JSON.
            let Some(text) = get(&value, "observation").as_string() else {
                let json = JSON::stringify(&value).ok().and_then(|s| s.as_string());
                return Ok(ToolOutput::from(json.unwrap_or_default()));
            };
            let value = json_of(&value);
            Ok(ToolOutput {
                text,
                fuel: value["fuel"]
                    .as_f64()
                    .filter(|f| *f >= 0.0)
                    .map(|f| f as u64),
                // A picture (a chart's numbers) rides along as JSON; the page draws it.
                picture: Some(value["picture"].clone()).filter(Value::is_object),
            })
        })
    }
}
