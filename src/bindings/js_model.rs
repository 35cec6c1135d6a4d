//! A model written in JavaScript: web-llm, the browser's Prompt API, transformers.js, or a
//! function of your own.
//!
//! ```js
//! model: async (messages, { stop, tools, signal, onDelta }) => {
//!   for await (const piece of myModel.stream(messages, { signal })) onDelta(piece);
//!   // or: return "the whole reply";  or: return { text, toolCalls: [{ name, arguments }], usage };
//! }
//! ```
//!
//! Deltas arrive through `onDelta` while the function's Promise is pending, so they cannot go
//! straight to the loop (which is borrowed by the awaiting future, not by a JS callback).
//! They are queued in an inbox instead, and the future drains it each time it is woken: the
//! callback wakes it. When the loop stops the stream (an invented `Observation`, or Stop),
//! `onDelta` returns `false` and `signal` is aborted, so a well-behaved model stops generating.

use super::{describe, to_js, type_of};
use crate::error::Error;
use crate::host::LocalBoxFuture;
use crate::llm::{Delta, Model, OnDelta, Reply, Request, ToolCall};
use crate::trajectory::Usage;
use js_sys::{Function, Object, Promise, Reflect, JSON};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::rc::Rc;
use std::task::{Poll, Waker};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, AbortSignal};

/// A model given as a JS function `(messages, {stop, tools, signal, onDelta}) => reply`.
pub struct JsModel {
    /// The function.
    pub function: Function,
    /// The user's signal (the page's Stop button).
    pub signal: Option<AbortSignal>,
}

/// Deltas from `onDelta`, waiting for the loop; and who to wake when one arrives.
#[derive(Default)]
struct Inbox {
    deltas: VecDeque<String>,
    waker: Option<Waker>,
    stopped: bool,
}

impl Model for JsModel {
    fn name(&self) -> String {
        match self.function.name().as_string().unwrap_or_default() {
            name if name.is_empty() => "js".into(),
            name => format!("js:{name}"),
        }
    }

    fn complete<'a>(
        &'a self,
        request: Request<'a>,
        on_delta: OnDelta<'a>,
    ) -> LocalBoxFuture<'a, Result<Reply, Error>> {
        Box::pin(async move {
            // This call's own signal: aborted by the user's Stop, or by tao when it has
            // read enough (the client-side stop).
            let controller =
                AbortController::new().map_err(|_| Error::model("no AbortController"))?;
            let forward = Closure::<dyn FnMut()>::new({
                let controller = controller.clone();
                move || controller.abort()
            });
            if let Some(user) = &self.signal {
                let _ = user
                    .add_event_listener_with_callback("abort", forward.as_ref().unchecked_ref());
                if user.aborted() {
                    controller.abort();
                }
            }
            let inbox = Rc::new(RefCell::new(Inbox::default()));
            let on_js_delta = Closure::<dyn FnMut(JsValue) -> bool>::new({
                let inbox = inbox.clone();
                move |text: JsValue| {
                    let mut inbox = inbox.borrow_mut();
                    if let Some(text) = text.as_string() {
                        inbox.deltas.push_back(text);
                    }
                    if let Some(waker) = inbox.waker.take() {
                        waker.wake();
                    }
                    !inbox.stopped
                }
            });
            let options = Object::new();
            let set = |key: &str, value: &JsValue| {
                let _ = Reflect::set(&options, &key.into(), value);
            };
            set("stop", &to_js(&request.stop).unwrap_or(JsValue::NULL));
            set("tools", &to_js(&request.tools).unwrap_or(JsValue::NULL));
            set("signal", &controller.signal());
            set("onDelta", on_js_delta.as_ref());
            let messages = to_js(&request.messages)
                .map_err(|_| Error::model("could not pass the prompt to the JS model"))?;
            let result = self
                .function
                .call2(&JsValue::NULL, &messages, &options)
                .map_err(|e| Error::model(format!("the JS model threw: {}", describe(&e))));
            let mut streamed = false;
            let outcome = match result {
                Err(e) => Err(e),
                Ok(returned) => {
                    // A model that never answers must not outlive an abort: race it with the
                    // signal (a plain value is a Promise that is already resolved).
                    let promise = Promise::resolve(&returned);
                    let mut settled =
                        JsFuture::from(race_with_abort(promise, &controller.signal()));
                    std::future::poll_fn(|cx| {
                        // Drain first: everything streamed before the Promise settled counts.
                        loop {
                            let next = inbox.borrow_mut().deltas.pop_front();
                            let Some(text) = next else { break };
                            streamed = true;
                            if !inbox.borrow().stopped && !on_delta(Delta::Text(&text)) {
                                inbox.borrow_mut().stopped = true;
                                controller.abort();
                            }
                        }
                        match std::pin::Pin::new(&mut settled).poll(cx) {
                            Poll::Ready(value) => Poll::Ready(value),
                            Poll::Pending => {
                                inbox.borrow_mut().waker = Some(cx.waker().clone());
                                Poll::Pending
                            }
                        }
                    })
                    .await
                    .map_err(|e| Error::model(format!("the JS model failed: {}", describe(&e))))
                }
            };
            if let Some(user) = &self.signal {
                let _ = user
                    .remove_event_listener_with_callback("abort", forward.as_ref().unchecked_ref());
                if user.aborted() {
                    return Err(Error::aborted());
                }
            }
            let value = outcome?;
            let stopped = inbox.borrow().stopped;
            reply(&value, streamed || stopped, on_delta)
        })
    }
}

/// Reads what the function returned: a string, or `{text, toolCalls, usage}`. Text that was
/// already streamed through `onDelta` is not sent again.
fn reply(value: &JsValue, streamed: bool, on_delta: OnDelta<'_>) -> Result<Reply, Error> {
    let get = |key: &str| Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED);
    let (text, object) = match value.as_string() {
        Some(text) => (Some(text), false),
        None if value.is_undefined() || value.is_null() => (None, false),
        None if value.is_object() => (get("text").as_string(), true),
        None => {
            return Err(Error::model(format!(
                "the JS model must return a string or {{text, toolCalls, usage}} (or a Promise of one); it returned {}",
                type_of(value)
            )))
        }
    };
    if !streamed {
        match text {
            Some(text) => {
                on_delta(Delta::Text(&text));
            }
            None if !object => {
                return Err(Error::model(
                    "the JS model returned nothing and streamed nothing through onDelta",
                ))
            }
            None => {}
        }
    }
    let mut result = Reply::default();
    if object {
        let json = |v: JsValue| -> Value {
            JSON::stringify(&v)
                .ok()
                .and_then(|s| s.as_string())
                .and_then(|s| serde_json::from_str(&s).ok())
                .unwrap_or(Value::Null)
        };
        let calls = json(get("toolCalls"));
        for (i, call) in calls.as_array().into_iter().flatten().enumerate() {
            let arguments = match &call["arguments"] {
                Value::String(s) => serde_json::from_str(s).unwrap_or(Value::String(s.clone())),
                Value::Null => Value::Object(Default::default()),
                other => other.clone(),
            };
            result.tool_calls.push(ToolCall {
                id: call["id"]
                    .as_str()
                    .map_or_else(|| format!("call_{i}"), str::to_string),
                name: call["name"].as_str().unwrap_or_default().to_string(),
                arguments,
            });
        }
        let usage = json(get("usage"));
        if usage.is_object() {
            result.usage = Some(Usage {
                prompt_tokens: usage["promptTokens"].as_u64().unwrap_or_default(),
                completion_tokens: usage["completionTokens"].as_u64().unwrap_or_default(),
            });
        }
    }
    Ok(result)
}

/// `Promise.race([promise, <resolves on abort>])`.
pub fn race_with_abort(promise: Promise, signal: &AbortSignal) -> Promise {
    let aborted = Promise::new(&mut |resolve, _reject| {
        if signal.aborted() {
            let _ = resolve.call0(&JsValue::NULL);
        } else {
            let _ = signal.add_event_listener_with_callback("abort", &resolve);
        }
    });
    Promise::race(&js_sys::Array::of2(&promise, &aborted))
}
