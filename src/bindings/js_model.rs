//! A model written in JavaScript: an in-browser engine, the browser's Prompt API, or a function
//! of your own.
//!
//! ```js
//! model: async (messages, { stop, tools, signal, onDelta }) => {
//!   for await (const piece of myModel.stream(messages, { signal })) onDelta(piece);
//!   // or: return "the whole reply";  or: return { text, toolCalls: [{ name, arguments }], usage };
//! }
//! ```
//!
//! A model may stream more than text, and say more at the end: `onDelta({reasoning})` (shown,
//! never parsed), `onDelta({note})` (a retry, a dropped parameter), `onDelta({usage})` (the
//! counts so far, kept if the call then fails); `{thinking: {text, signature, redacted}}` in
//! what it returns (sent back with the assistant turn: Anthropic wants it before tool calls);
//! and a thrown `Error` whose `kind` is one of tao's (`auth`, `rate_limited`, `truncated`, ...)
//! keeps its kind and message. The providers' module is such a model: the core built without
//! the providers runs them through this file.
//!
//! What crosses is JSON, read and written by `crate::llm::function` (tested natively); this
//! file keeps what needs JS: the call, its Promise, `onDelta`, the signals.
//!
//! Why an inbox: deltas arrive through `onDelta` while the function's Promise is pending, and
//! the loop that reads them is borrowed by the awaiting future, not by a JS callback. So
//! `onDelta` queues them and wakes the future, which hands them to the loop. When the loop has
//! read enough (an invented `Observation`) or the user stops the run, `onDelta` returns `false`
//! and the call's `signal` is aborted, so a well-behaved model stops generating.
//!
//! Why the closures live as long as the model: JS may call `onDelta` (and the user's signal its
//! listener) at any time while the run lasts, so both are owned here and dropped with the run.

use super::{describe, get, json_of, to_js, type_of, OnAbort};
use crate::chat::{Message, ToolSpec};
use crate::error::{Error, ErrorKind};
use crate::host::LocalBoxFuture;
use crate::llm::function::{reply, ForModel, Piece, Returned};
use crate::llm::{Delta, Model, OnDelta, Reply, Request};
use crate::to_json::Object;
use js_sys::{Array, Function, Promise};
use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;
use std::task::{Poll, Waker};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, AbortSignal};

/// A model given as a JS function `(messages, {stop, tools, signal, onDelta}) => reply`, for one
/// run.
pub struct JsModel {
    function: Function,
    sent: RefCell<Sent>,
    inbox: Rc<RefCell<Inbox>>,
    /// What every call's `onDelta` calls, with the number of its call (see `Inbox::call`).
    on_delta: Closure<dyn FnMut(u32, JsValue) -> bool>,
    /// The listener on the user's signal (the page's Stop button), which aborts the call in
    /// flight.
    _user: Option<OnAbort>,
}

// One call of the model function: its options made in JS in one go (`onDelta` bound to the
// call's number: see `Inbox::call`).
#[wasm_bindgen(inline_js = r#"
export function call_model(model, messages, request, signal, onDelta, call, constraint) {
  const options = { stop: request.stop, tools: request.tools, signal, onDelta: (piece) => onDelta(call, piece) };
  if (constraint) options.constraint = constraint;
  return model(messages, options);
}"#)]
extern "C" {
    #[wasm_bindgen(catch)]
    fn call_model(
        model: &Function,
        messages: &Array,
        request: &JsValue,
        signal: &JsValue,
        on_delta: &JsValue,
        call: u32,
        constraint: &JsValue,
    ) -> Result<JsValue, JsValue>;
}

/// What `onDelta` and the user's signal leave for the call in flight.
#[derive(Default)]
struct Inbox {
    /// Pieces streamed and not yet handed to the loop.
    pieces: Vec<Piece>,
    /// The call waiting for them.
    waker: Option<Waker>,
    /// A call is in flight: `onDelta` outside one is ignored (and answers `false`).
    open: bool,
    /// The number of the call in flight: each call's `onDelta` is bound to its own number, so
    /// a model still streaming into a call tao has finished with (it stopped reading, or the
    /// model's Promise settled first) is answered `false` and does not reach the next call.
    call: u32,
    /// The loop has read enough of this reply.
    stopped: bool,
    /// The user stopped the run.
    aborted: bool,
    /// The controller of the signal the calls are given, and that signal: one for the run's
    /// calls until one is aborted (a controller and its signal cost more to make than the rest
    /// of a turn's crossing), then a new one.
    controller: Option<(AbortController, AbortSignal)>,
}

impl Inbox {
    /// Opens the next call: its number, and the signal it is given.
    fn open(&mut self) -> Result<(u32, JsValue), Error> {
        if self.aborted {
            return Err(Error::aborted());
        }
        (self.open, self.stopped) = (true, false);
        self.call = self.call.wrapping_add(1);
        self.pieces.clear();
        if self.controller.is_none() {
            let controller =
                AbortController::new().map_err(|_| Error::model("no AbortController"))?;
            let signal = controller.signal();
            self.controller = Some((controller, signal));
        }
        let signal = self.controller.as_ref().map(|(_, signal)| signal.clone());
        Ok((self.call, signal.into()))
    }

    /// Aborts the signal the call in flight was given.
    fn abort_call(&mut self) {
        if let Some((controller, _)) = self.controller.take() {
            controller.abort();
        }
    }

    fn wake(&mut self) {
        if let Some(waker) = self.waker.take() {
            waker.wake();
        }
    }
}

impl JsModel {
    /// The model `function`, for one run that `signal` can abort.
    pub fn new(function: Function, signal: Option<AbortSignal>) -> Self {
        let inbox = Rc::new(RefCell::new(Inbox::default()));
        let on_delta = Closure::<dyn FnMut(u32, JsValue) -> bool>::new({
            let inbox = inbox.clone();
            move |call: u32, value: JsValue| {
                let mut inbox = inbox.borrow_mut();
                if call != inbox.call || !inbox.open || inbox.stopped || inbox.aborted {
                    return false;
                }
                // A string (most pieces) is taken as it is, not through JSON.
                let piece = value.as_string().map(Piece::Text);
                inbox
                    .pieces
                    .extend(piece.or_else(|| Piece::read(&json_of(&value))));
                inbox.wake();
                true
            }
        });
        let shared = inbox.clone();
        let user = signal.map(|signal| {
            OnAbort::new(&signal, move || {
                let mut inbox = shared.borrow_mut();
                inbox.aborted = true;
                inbox.abort_call();
                inbox.wake();
            })
        });
        JsModel {
            function,
            sent: RefCell::default(),
            inbox,
            on_delta,
            _user: user,
        }
    }

    /// Hands the pieces streamed so far to the loop; `false` from it stops the stream.
    fn drain(&self, on_delta: &mut dyn FnMut(Delta) -> bool, streamed: &mut bool) {
        loop {
            // Taken out: the loop may run JS that streams more into the inbox.
            let pieces = std::mem::take(&mut self.inbox.borrow_mut().pieces);
            if pieces.is_empty() {
                return;
            }
            for piece in &pieces {
                *streamed |= matches!(piece, Piece::Text(_));
                let stopped = self.inbox.borrow().stopped;
                if !stopped && !on_delta(piece.delta()) {
                    let mut inbox = self.inbox.borrow_mut();
                    inbox.stopped = true;
                    inbox.abort_call();
                }
            }
        }
    }

    /// Waits for what the function returned (a Promise, or a value), handing the loop what it
    /// streams meanwhile. A model that never answers does not outlive a stop or an abort.
    async fn settle(
        &self,
        returned: JsValue,
        on_delta: &mut dyn FnMut(Delta) -> bool,
        streamed: &mut bool,
    ) -> Result<JsValue, JsValue> {
        // A Promise is waited for; a value (the usual string) is the reply at once.
        let mut settled = match returned.dyn_into::<Promise>() {
            Ok(promise) => JsFuture::from(promise),
            Err(value) => return Ok(value),
        };
        std::future::poll_fn(|cx| {
            self.drain(on_delta, streamed);
            if let Poll::Ready(value) = std::pin::Pin::new(&mut settled).poll(cx) {
                self.drain(on_delta, streamed);
                return Poll::Ready(value);
            }
            let mut inbox = self.inbox.borrow_mut();
            if inbox.stopped || inbox.aborted {
                return Poll::Ready(Ok(JsValue::NULL));
            }
            inbox.waker = Some(cx.waker().clone());
            Poll::Pending
        })
        .await
    }
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
            let messages = self.sent.borrow_mut().update(request.messages)?;
            // This call's number, and its signal: aborted by the user's Stop, or by tao when it
            // has read enough (the client-side stop).
            let (call, signal) = self.inbox.borrow_mut().open()?;
            let (stop, tools) = (request.stop, request.tools);
            let options = self.sent.borrow_mut().options(stop, tools)?;
            let on_delta_js = self.on_delta.as_ref();
            // `{format, step, tools}` when the run is constrained (`llm::Constraint`).
            let constraint = match request.constraint {
                Some(c) => to_js(&Object(&[
                    ("format", &c.format),
                    ("step", &c.step),
                    ("tools", &c.tools),
                ]))
                .map_err(|_| Error::model("could not pass the constraint to the JS model"))?,
                None => JsValue::UNDEFINED,
            };
            let called = call_model(
                &self.function,
                &messages,
                &options,
                &signal,
                on_delta_js,
                call,
                &constraint,
            );
            let mut streamed = false;
            let outcome = match called {
                Err(e) => Err(thrown(&e, "the JS model threw")),
                Ok(returned) => (self.settle(returned, on_delta, &mut streamed).await)
                    .map_err(|e| thrown(&e, "the JS model failed")),
            };
            let (stopped, aborted) = {
                let mut inbox = self.inbox.borrow_mut();
                (inbox.open, inbox.waker) = (false, None);
                (inbox.stopped, inbox.aborted)
            };
            if aborted {
                return Err(Error::aborted());
            }
            reply(returned(&outcome?), streamed || stopped, on_delta)
        })
    }
}

/// The prompt the last call sent, as Rust has it and as JS objects: the prompt only grows (a
/// turn and an observation a step), so the next call converts only the messages that are new,
/// and its cost does not grow with the run (converting the whole prompt every call made a
/// 50-step run's turns about twice as dear as a 10-step run's). Each call still gets an array
/// of its own; the messages it shares with the call before are the same objects.
#[derive(Default)]
struct Sent {
    messages: Vec<Message>,
    objects: Array,
    /// The stop sequences and tools of the last call, and `{stop, tools}` as JS values: the
    /// same for every call of a run until the format changes, so converted once.
    stop: Vec<String>,
    tools: Vec<ToolSpec>,
    options: Option<JsValue>,
}

impl Sent {
    fn update(&mut self, messages: &[Message]) -> Result<Array, Error> {
        let same = self
            .messages
            .iter()
            .zip(messages)
            .take_while(|(a, b)| a == b);
        let same = same.count();
        self.messages.truncate(same);
        self.objects.set_length(same as u32);
        let new = to_js(&messages[same..].iter().map(ForModel).collect::<Vec<_>>())
            .map_err(|_| Error::model("could not pass the prompt to the JS model"))?;
        self.objects = self.objects.concat(new.unchecked_ref::<Array>());
        self.messages.extend_from_slice(&messages[same..]);
        Ok(self.objects.slice(0, messages.len() as u32))
    }

    /// `{stop, tools}` as a JS value, converted again only when they changed (they are the same
    /// for every call of a run until the format changes).
    fn options(&mut self, stop: &[String], tools: &[ToolSpec]) -> Result<JsValue, Error> {
        match &self.options {
            Some(options) if self.stop == stop && self.tools == tools => Ok(options.clone()),
            _ => {
                let options = to_js(&Object(&[("stop", &stop), ("tools", &tools)]))
                    .map_err(|_| Error::model("could not pass the options to the JS model"))?;
                (self.stop, self.tools) = (stop.to_vec(), tools.to_vec());
                self.options = Some(options.clone());
                Ok(options)
            }
        }
    }
}

/// A thrown value as an error: one of tao's kinds keeps its kind and message (the providers'
/// module throws those); anything else is the model's failure, quoted after `what`.
pub(super) fn thrown(error: &JsValue, what: &str) -> Error {
    let kind = get(error, "kind")
        .as_string()
        .and_then(|k| ErrorKind::from_name(&k));
    match kind {
        Some(kind) if error.is_object() => Error::new(kind, describe(error)),
        _ => Error::model(format!("{what}: {}", describe(error))),
    }
}

/// What the function returned, told apart as only JS can (see `Returned`).
fn returned(value: &JsValue) -> Returned {
    match value.as_string() {
        Some(text) => Returned::Text(text),
        None if value.is_undefined() || value.is_null() => Returned::Nothing,
        None if !value.is_object() => Returned::Other(type_of(value)),
        None => Returned::Object(json_of(value)),
    }
}
