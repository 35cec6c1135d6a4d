//! A tool implemented by a JavaScript function: `fn(input, {signal})` returns the observation (a
//! string, `{observation, fuel, picture}`, or any value, shown as JSON), or a Promise of it. A
//! thrown error or a rejected Promise is the tool failing: the model reads it as an observation
//! (an `Error` whose `kind` is `bad_input` is the model's mistake, repaired as a bad input).
//! `signal` is the call's: aborted when the user stops the run or the call runs out of time, so
//! a tool at work can stop too (its late answer is not recorded either way).

use super::{describe, get, json_of, to_js};
use crate::chat::ToolSpec;
use crate::host::LocalBoxFuture;
use crate::json::Value;
use crate::tools::{Tool, ToolError, ToolOutput};
use js_sys::{Function, Promise, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortSignal;

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
    /// The URL of the MCP server the tool is one of, which an approval names.
    pub(crate) server: Option<String>,
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

// A call's options, `{signal}`: the call's own abort signal, aborted when the run's is and when
// the call is given up before it ends (the agent drops a call that ran out of time, or that Stop
// left behind: `abandon`). Made in JS when the tool first reads it, so a tool that never looks
// (most answer at once) costs no controller: made for every call, it cost a tenth of a turn.
#[wasm_bindgen(inline_js = r#"
export function call_options(run) {
  let controller = null;
  const options = {
    get signal() {
      if (!controller) {
        controller = new AbortController();
        if (run?.aborted) controller.abort();
        else run?.addEventListener("abort", () => controller.abort(), { once: true });
      }
      return controller.signal;
    },
  };
  return [options, () => controller?.abort()];
}
"#)]
extern "C" {
    fn call_options(run: Option<AbortSignal>) -> js_sys::Array;
}

/// Calls `abandon` when dropped before `ended` is set: the call was given up.
struct Abandon {
    abandon: Function,
    ended: bool,
}

impl Drop for Abandon {
    fn drop(&mut self) {
        if !self.ended {
            let _ = self.abandon.call0(&JsValue::NULL);
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
            let made = call_options(self.signal.clone());
            let (options, abandon) = (made.get(0), made.get(1).unchecked_into());
            let mut call = Abandon {
                abandon,
                ended: false,
            };
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
            call.ended = true;
            if let Some(text) = value.as_string() {
                return Ok(ToolOutput::from(text));
            }
            if value.is_undefined() {
                return Ok(ToolOutput::from(String::new()));
            }
            // `{observation, fuel, picture}` (the observation as JS reads it: a class may keep
            // it where JSON does not look), or any other value, shown as JSON.
            let Some(text) = get(&value, "observation").as_string() else {
                let json = JSON::stringify(&value).ok().and_then(|s| s.as_string());
                return Ok(ToolOutput::from(json.unwrap_or_default()));
            };
            Ok(ToolOutput::from_object(text, &json_of(&value)))
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
