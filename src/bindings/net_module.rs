//! The providers' module (built with the `net-module` feature into `pkg/tao_net*`): the
//! OpenAI-compatible and Anthropic providers as a model function, and the connection test.
//! The core built without the providers loads it the first time a run needs one (see
//! `super::net`); a page may also use it directly, as the model of any agent:
//!
//! ```js
//! import initNet, { httpModel } from "./pkg/tao_net.js";
//! await initNet();
//! const agent = new Agent({ model: httpModel({ provider: "openai", model: "gpt-4o-mini", apiKey }) });
//! ```
//!
//! The function speaks the JS model interface in full (`super::js_model` reads it; its JSON is
//! `crate::llm::function`'s): text, reasoning (`{reasoning}`), notes (`{note}`) and token counts
//! (`{usage}`) through `onDelta`; `{toolCalls, usage, thinking}` when the reply is complete; and
//! errors as `Error`s with tao's `kind`. One function is one run's model: it remembers the
//! parameters its endpoint rejected.

use super::connect;
use super::fetch::WebTransport;
use super::host::WebHost;
use super::{get, json_of, to_js, OnAbort};
use crate::error::Error;
use crate::host::{Abort, LocalBoxFuture};
use crate::http::{HttpRequest, HttpResponse, Transport};
use crate::llm::function::{Call, End, Streamed};
use crate::llm::http::{HttpModel, Settings as Endpoint};
use crate::llm::{Delta, Model, Request};
use crate::settings::read_provider;
use js_sys::{Function, Promise};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::AbortSignal;

/// The provider that `config` (the agent's settings: `provider`, `baseUrl`, `model`, `apiKey`,
/// `temperature`, `maxTokens`, the timeouts) names, as a model function
/// `(messages, {stop, tools, signal, onDelta}) => Promise<{toolCalls, usage, thinking}>`.
#[wasm_bindgen(js_name = httpModel, unchecked_return_type = "(messages: object[], options: object) => Promise<object>")]
pub fn http_model(
    #[wasm_bindgen(unchecked_param_type = "Record<string, unknown>")] config: JsValue,
) -> Result<JsValue, JsValue> {
    let endpoint = endpoint(&config)?;
    let signal = Rc::new(RefCell::new(None));
    let transport = Rc::new(CallTransport(signal.clone()));
    let host = Rc::new(WebHost::default());
    let model = Rc::new(HttpModel::new(endpoint, transport, host));
    let function = Closure::<dyn FnMut(JsValue, JsValue) -> Promise>::new(
        move |messages: JsValue, options: JsValue| {
            let (model, signal) = (model.clone(), signal.clone());
            super::promise(async move { complete(&model, &signal, &messages, &options).await })
        },
    );
    Ok(function.into_js_value())
}

/// Sends a tiny request to the provider `config` names and reports what came back; throws an
/// Error naming the cause and the fix when it fails.
#[wasm_bindgen(js_name = testConnection, unchecked_return_type = "Promise<ConnectionReport>")]
pub fn test_connection(
    #[wasm_bindgen(unchecked_param_type = "Record<string, unknown>")] config: JsValue,
) -> Promise {
    super::promise(async move { connect::report(endpoint(&config)?).await })
}

fn endpoint(config: &JsValue) -> Result<Endpoint, Error> {
    read_provider(&json_of(config))?
        .ok_or_else(|| Error::config("give a provider: openai, ollama or anthropic"))
}

/// `fetch` with the signal of the call in progress (each call of a run has its own).
struct CallTransport(Rc<RefCell<Option<AbortSignal>>>);

impl Transport for CallTransport {
    fn send(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, Error>> {
        let web = WebTransport {
            signal: self.0.borrow().clone(),
        };
        Box::pin(async move { web.send(request).await })
    }
}

/// One call: the request read from JS, the deltas forwarded to `onDelta` (which may stop the
/// stream by returning `false`), the end of the reply returned.
async fn complete(
    model: &HttpModel,
    call_signal: &RefCell<Option<AbortSignal>>,
    messages: &JsValue,
    options: &JsValue,
) -> Result<JsValue, JsValue> {
    let call = Call::read(&json_of(messages), &json_of(options))?;
    // The signal and `onDelta` as they are.
    let signal = get(options, "signal").dyn_into::<AbortSignal>().ok();
    let on_delta = get(options, "onDelta").dyn_into::<Function>().ok();

    // The call's signal stops the request (fetch) and the waits between retries (the flag).
    let abort = Abort::default();
    let flag = abort.clone();
    let _listener = signal
        .as_ref()
        .map(|s| OnAbort::new(s, move || flag.abort()));
    *call_signal.borrow_mut() = signal.clone();
    let mut forward = |delta: Delta| -> bool {
        let Some(on_delta) = &on_delta else {
            return true;
        };
        let value = match delta {
            Delta::Text(text) => Ok(JsValue::from_str(text)),
            // The providers over HTTP download nothing.
            Delta::Download { .. } => return true,
            delta => to_js(&Streamed(delta)),
        };
        (value.and_then(|value| on_delta.call1(&JsValue::NULL, &value)))
            .is_ok_and(|more| more.as_bool() != Some(false))
    };
    let request = Request {
        messages: &call.messages,
        stop: &call.stop,
        tools: &call.tools,
        abort: &abort,
        // The providers over HTTP hold to no grammar.
        constraint: None,
    };
    let reply = model.complete(request, &mut forward).await?;
    to_js(&End(&reply))
}
