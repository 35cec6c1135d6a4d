//! A tool implemented by a JavaScript function: `fn(input, {signal})` returns the observation (a
//! string, `{observation, fuel, picture}`, or any value, shown as JSON), or a Promise of it. A
//! thrown error or a rejected Promise is the tool failing: the model reads it as an observation
//! (an `Error` whose `kind` is `bad_input` is the model's mistake, repaired as a bad input).
//! `signal` is the call's: aborted when the user stops the run or the call runs out of time, so
//! a tool at work can stop too (its late answer is not recorded either way).

use super::{describe, get, json_of, to_js, OnAbort};
use crate::chat::ToolSpec;
use crate::host::LocalBoxFuture;
use crate::json::Value;
use crate::tools::{Tool, ToolError, ToolOutput};
use js_sys::{Function, Promise, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, AbortSignal};

/// A tool the page registered with `registerTool(spec, fn)`.
#[derive(Clone)]
pub(crate) struct JsTool {
    pub(crate) spec: ToolSpec,
    pub(crate) function: Function,
    /// Declared without `parameters`: the embedder gave no schema to hold the input to, so
    /// the function gets what the model wrote (as before schemas were checked).
    pub(crate) unchecked: bool,
    /// The run's abort signal (see `for_run`), which each call's own signal follows.
    pub(crate) signal: Option<AbortSignal>,
}

impl JsTool {
    /// The tool for one run, which `signal` stops.
    pub(crate) fn for_run(&self, signal: &Option<AbortSignal>) -> JsTool {
        JsTool {
            signal: signal.clone(),
            ..self.clone()
        }
    }
}

/// A call's own abort signal: aborted when the run's is, and when the call is given up before
/// it ends (the agent drops a call that ran out of time, or that Stop left behind).
struct CallSignal {
    controller: AbortController,
    _run: Option<OnAbort>,
    ended: bool,
}

impl CallSignal {
    fn new(run: &Option<AbortSignal>) -> Option<CallSignal> {
        let controller = AbortController::new().ok()?;
        let follower = controller.clone();
        let _run = run
            .as_ref()
            .map(|run| OnAbort::new(run, move || follower.abort()));
        Some(CallSignal {
            controller,
            _run,
            ended: false,
        })
    }
}

impl Drop for CallSignal {
    fn drop(&mut self) {
        if !self.ended {
            self.controller.abort();
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
            let mut call = CallSignal::new(&self.signal);
            let options = js_sys::Object::new();
            if let Some(call) = &call {
                let _ = js_sys::Reflect::set(&options, &"signal".into(), &call.controller.signal());
            }
            let returned = self
                .function
                .call2(&JsValue::NULL, &argument, &options)
                .map_err(|e| failure(&e, format!("{name} threw")))?;
            // A Promise is waited for; a value (the usual string) is the answer at once.
            let value = match returned.dyn_into::<Promise>() {
                Ok(promise) => JsFuture::from(promise)
                    .await
                    .map_err(|e| failure(&e, format!("{name} failed")))?,
                Err(value) => value,
            };
            if let Some(call) = &mut call {
                call.ended = true;
            }
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

/// What a tool threw: an `Error` of kind `bad_input` is the model's mistake and `failed` the
/// tool's own words (the MCP servers' tools throw those); anything else is quoted after `what`.
fn failure(thrown: &JsValue, what: String) -> ToolError {
    match get(thrown, "kind").as_string().as_deref() {
        Some("bad_input") => ToolError::BadInput(describe(thrown)),
        Some("failed") => ToolError::Failed(describe(thrown)),
        _ => ToolError::Failed(format!("{what}: {}", describe(thrown))),
    }
}
