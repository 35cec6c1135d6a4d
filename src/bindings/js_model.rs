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
//! A model may stream more than text, and say more at the end: `onDelta({reasoning})` (shown,
//! never parsed), `onDelta({note})` (a retry, a dropped parameter), `onDelta({usage})` (the
//! counts so far, kept if the call then fails); `{thinking: {text, signature, redacted}}` in
//! what it returns (sent back with the assistant turn: Anthropic wants it before tool calls);
//! and a thrown `Error` whose `kind` is one of tao's (`auth`, `rate_limited`, `truncated`, ...)
//! keeps its kind and message. The providers' module is such a model: the core built without
//! the providers runs them through this file.
//!
//! Deltas arrive through `onDelta` while the function's Promise is pending, so they cannot go
//! straight to the loop (which is borrowed by the awaiting future, not by a JS callback).
//! They are queued in an inbox instead, and the future drains it each time it is woken: the
//! callback wakes it. When the loop stops the stream (an invented `Observation`, or Stop),
//! `onDelta` returns `false` and `signal` is aborted, so a well-behaved model stops generating.

use super::{describe, to_js, type_of};
use crate::chat::{Message, Role, Thinking};
use crate::error::{Error, ErrorKind};
use crate::host::LocalBoxFuture;
use crate::json::Value;
use crate::llm::{Delta, Model, OnDelta, Reply, Request, ToolCall};
use crate::to_json::{JsonWriter, ToJson};
use crate::trajectory::Usage;
use js_sys::{Array, Function, Reflect};
use std::cell::RefCell;
use std::rc::Rc;
use std::task::{Poll, Waker};
use wasm_bindgen::prelude::*;
use web_sys::{AbortController, AbortSignal};

/// A model given as a JS function `(messages, {stop, tools, signal, onDelta}) => reply`.
///
/// One is built per run, and what a call sets up on the JS side is kept for the next call
/// of the run (a model is called once a step, so per-call set-up was most of a step's cost):
/// the `onDelta` callback and the `signal`'s controller ([`Channel`], kept for the agent's
/// next run too: see [`Spare`]), and the messages as JS objects ([`Sent`]).
pub struct JsModel {
    /// The function.
    function: Function,
    /// The user's signal (the page's Stop button).
    signal: Option<AbortSignal>,
    channel: RefCell<Option<Channel>>,
    sent: RefCell<Sent>,
    /// What the agent said of the next call's prompt (see `Model::rendered`).
    unchanged: std::cell::Cell<Option<usize>>,
    /// The buffer a reply's text is read into, kept from call to call.
    text: std::cell::Cell<Vec<u8>>,
    spare: Spare,
}

/// What an agent's last run left for its next: its [`Channel`], unless the run ended with it
/// aborted or with a call pending. Making one (a controller, its signal, and four callbacks) cost
/// ~5 µs under Node, a third of a step, so the next run takes it (a run with another `signal`
/// of the user's keeps only its controller). A model is thus given the same `signal` and
/// `onDelta` from call to call, and from run to run, until one is aborted.
#[derive(Clone, Default)]
pub(super) struct Spare(Rc<RefCell<Option<Channel>>>);

/// Deltas from `onDelta`, waiting for the loop; who to wake when one arrives (or when the
/// user aborts); and the controller of the `signal` the function was given.
struct Inbox {
    deltas: Deltas,
    waker: Option<Waker>,
    stopped: bool,
    /// A call is in progress (`onDelta` outside a call is ignored, and answers `false`).
    open: bool,
    controller: AbortController,
    /// The controller's signal (asked for once: each ask is a call into JS).
    signal: AbortSignal,
    /// The controller was aborted: known here rather than asked of the signal (a call into
    /// JS), since only tao aborts it (the model is given its signal, not the controller).
    aborted: bool,
    /// How the function's Promise settled, once it has.
    settled: Option<Result<JsValue, JsValue>>,
    /// A Promise is pending (see `Channel`'s `settle`).
    waiting: bool,
}

/// The pieces `onDelta` was given (strings; anything else is ignored), one after the other in
/// one buffer: each piece is copied there by JS, with no allocation of its own.
#[derive(Default)]
struct Deltas {
    bytes: Vec<u8>,
    /// Where each piece ends.
    ends: Vec<usize>,
    /// What each piece is: text, or (rarely) one of the other things a model may stream.
    kinds: Vec<Kind>,
}

/// What a piece of [`Deltas`] is (its text, if any, is in the buffer).
#[derive(Clone, Copy)]
enum Kind {
    Text,
    Reasoning,
    Note,
    Usage(Usage),
}

impl Deltas {
    fn push(&mut self, value: &JsValue) {
        let kind = if super::values::append_text(value, &mut self.bytes, 64, false) {
            Kind::Text
        } else {
            match Piece::read(value) {
                Some(Piece::Reasoning(text)) => {
                    self.bytes.extend_from_slice(text.as_bytes());
                    Kind::Reasoning
                }
                Some(Piece::Note(text)) => {
                    self.bytes.extend_from_slice(text.as_bytes());
                    Kind::Note
                }
                Some(Piece::Usage(usage)) => Kind::Usage(usage),
                None => return,
            }
        };
        self.ends.push(self.bytes.len());
        self.kinds.push(kind);
    }

    fn iter(&self) -> impl Iterator<Item = (&Kind, &str)> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        let pieces = starts.zip(&self.ends).map(|(a, b)| self.bytes.get(a..*b));
        let texts =
            pieces.map(|piece| std::str::from_utf8(piece.unwrap_or_default()).unwrap_or_default());
        self.kinds.iter().zip(texts)
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.ends.clear();
        self.kinds.clear();
    }

    /// Keeps the buffers of `read` (emptied) for the next pieces, unless more came meanwhile.
    fn reuse(&mut self, mut read: Deltas) {
        if self.ends.is_empty() {
            read.clear();
            *self = read;
        }
    }
}

/// The JS side of a model's calls: the `onDelta` callback, and the listener that forwards the
/// user's abort to the controller. Kept from call to call (and run to run) while each call ends
/// with its function's Promise settled; a call that is given up (tao stopped reading, or the
/// user aborted) drops it, so a model still streaming into the old `onDelta` cannot reach the
/// next call (it gets the error of a dropped closure, as it always did).
///
/// The function's Promise is waited for with two callbacks of the channel, made once too (a
/// `JsFuture` makes two closures a call). A Promise may still be pending when its channel is
/// dropped (a model that never answered an abort): its callbacks are then left to it, to
/// settle into the dropped channel's inbox, since a freed callback would throw.
struct Channel {
    inbox: Rc<RefCell<Inbox>>,
    on_delta: Closure<dyn FnMut(JsValue) -> bool>,
    forward: Closure<dyn FnMut()>,
    signal: Option<AbortSignal>,
    /// `then`'s callbacks: fulfilled, rejected.
    settle: Option<(Settle, Settle)>,
}

type Settle = Closure<dyn FnMut(JsValue) -> bool>;

impl Channel {
    fn new(signal: Option<AbortSignal>, spare: &Spare) -> Result<Channel, Error> {
        let kept = spare.0.borrow_mut().take();
        let controller = match kept {
            // With no signal of the user's, there is no listener to move.
            Some(kept) if kept.signal.is_none() && signal.is_none() => return Ok(kept),
            // (Dropped here: its listener leaves the other signal.)
            Some(kept) => kept.inbox.borrow().controller.clone(),
            None => controller()?,
        };
        let inbox = Rc::new(RefCell::new(Inbox {
            deltas: Deltas::default(),
            waker: None,
            stopped: false,
            open: false,
            signal: controller.signal(),
            controller,
            aborted: false,
            settled: None,
            waiting: false,
        }));
        let settle = |fulfilled: bool| {
            let inbox = inbox.clone();
            Settle::new(move |value: JsValue| {
                let mut inbox = inbox.borrow_mut();
                inbox.waiting = false;
                inbox.settled = Some(if fulfilled { Ok(value) } else { Err(value) });
                if let Some(waker) = inbox.waker.take() {
                    waker.wake();
                }
                true
            })
        };
        let settle = Some((settle(true), settle(false)));
        let on_delta = Closure::<dyn FnMut(JsValue) -> bool>::new({
            let inbox = inbox.clone();
            move |text: JsValue| {
                let mut inbox = inbox.borrow_mut();
                if !inbox.open {
                    return false;
                }
                inbox.deltas.push(&text);
                if let Some(waker) = inbox.waker.take() {
                    waker.wake();
                }
                !inbox.stopped
            }
        });
        // The user's abort aborts this call's signal, and wakes the call to give it up. (The
        // controller is taken out first: aborting runs the model's listeners, which may call
        // `onDelta`.)
        let forward = Closure::<dyn FnMut()>::new({
            let inbox = inbox.clone();
            move || {
                let controller = inbox.borrow().controller.clone();
                inbox.borrow_mut().aborted = true;
                controller.abort();
                if let Some(waker) = inbox.borrow_mut().waker.take() {
                    waker.wake();
                }
            }
        });
        if let Some(user) = &signal {
            let _ =
                user.add_event_listener_with_callback("abort", forward.as_ref().unchecked_ref());
        }
        Ok(Channel {
            inbox,
            on_delta,
            forward,
            signal,
            settle,
        })
    }

    /// Waits for what the function `returned`, unless it is a string (the reply itself): as
    /// for a Promise of it (the next poll finds how it settled in the inbox). Whether it
    /// waits. (One call into JS: see `values::wait`.)
    fn wait(&self, returned: &JsValue) -> bool {
        let Some((on_value, on_error)) = &self.settle else {
            return !returned.is_string();
        };
        let mut inbox = self.inbox.borrow_mut();
        (inbox.settled, inbox.waiting) = (None, true);
        drop(inbox);
        let waits = super::values::wait(returned, on_value.as_ref(), on_error.as_ref());
        self.inbox.borrow_mut().waiting = waits;
        waits
    }
}

impl Drop for Channel {
    fn drop(&mut self) {
        if self.inbox.borrow().waiting {
            if let Some((on_value, on_error)) = self.settle.take() {
                on_value.forget();
                on_error.forget();
            }
        }
        if let Some(user) = &self.signal {
            let _ = user.remove_event_listener_with_callback(
                "abort",
                self.forward.as_ref().unchecked_ref(),
            );
        }
    }
}

/// What `onDelta` was given: a piece of text, or `{reasoning}`, `{note}` or `{usage}`.
enum Piece {
    Reasoning(String),
    Note(String),
    Usage(Usage),
}

impl Piece {
    fn read(value: &JsValue) -> Option<Piece> {
        let get = |key: &str| {
            Reflect::get(value, &key.into())
                .ok()
                .filter(|v| !v.is_undefined())
        };
        if !value.is_object() {
            return None;
        }
        if let Some(text) = get("reasoning").and_then(|v| v.as_string()) {
            return Some(Piece::Reasoning(text));
        }
        if let Some(text) = get("note").and_then(|v| v.as_string()) {
            return Some(Piece::Note(text));
        }
        get("usage")
            .and_then(|usage| read_usage(&usage))
            .map(Piece::Usage)
    }
}

/// `{promptTokens, completionTokens}`, if it is an object.
fn read_usage(value: &JsValue) -> Option<Usage> {
    let count = |key: &str| {
        Reflect::get(value, &key.into())
            .ok()
            .and_then(|v| v.as_f64())
            .filter(|n| *n >= 0.0 && n.fract() == 0.0)
            .map_or(0, |n| n as u64)
    };
    value.is_object().then(|| Usage {
        prompt_tokens: count("promptTokens"),
        completion_tokens: count("completionTokens"),
    })
}

fn controller() -> Result<AbortController, Error> {
    AbortController::new().map_err(|_| Error::model("no AbortController"))
}

/// What the previous call sent, as JS values, so the next call converts only what changed.
/// The prompt grows by a turn and an observation a step; the messages before them are the
/// same objects as last time: as many as the agent says are unchanged, when it rendered the
/// prompt (see `Model::rendered`) and the last call's prompt too. Any other call (a memo's,
/// or the one after it) converts all its messages. Each call still gets an array of its own.
#[derive(Default)]
struct Sent {
    objects: Array,
    /// How many messages `objects` holds, when they are those of a prompt the agent rendered.
    rendered: Option<usize>,
}

impl Sent {
    /// `messages` as JS values; `unchanged`, what the agent said of them (see above).
    fn messages(&mut self, messages: &[Message], unchanged: Option<usize>) -> Result<Array, Error> {
        let same = match (unchanged, self.rendered.take()) {
            (Some(n), Some(sent)) => n.min(sent).min(messages.len()),
            _ => 0,
        };
        self.objects.set_length(same as u32);
        for message in &messages[same..] {
            match plain(message) {
                // `{role, content}`, made by JS from the two (see `push_message`).
                Some((role, text)) => super::values::push_message(&self.objects, role, text),
                None => {
                    let object = to_js(&ForModel(message))
                        .map_err(|_| Error::model("could not pass the prompt to the JS model"))?;
                    self.objects.push(&object);
                }
            }
        }
        self.rendered = unchanged.map(|_| messages.len());
        Ok(self.objects.slice(0, messages.len() as u32))
    }
}

/// A message as the model function sees it: its JSON, and the reasoning an assistant turn
/// began with (`thinking`), which the trajectory's prompt leaves out but an API may want back.
struct ForModel<'a>(&'a Message);

impl ToJson for ForModel<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        let m = self.0;
        let mut fields: Vec<(&str, &dyn ToJson)> = vec![("role", &m.role), ("content", &m.content)];
        if !m.tool_calls.is_empty() {
            fields.push(("tool_calls", &m.tool_calls));
        }
        if let Some(id) = &m.tool_call_id {
            fields.push(("tool_call_id", id));
        }
        if let Some(thinking) = &m.thinking {
            fields.push(("thinking", thinking));
        }
        out.object(&fields);
    }
}

/// A message that is only a role and a text (the text formats' messages), which JS makes
/// from the two; the others (with tool calls) go on a tape.
fn plain(message: &Message) -> Option<(Role, &str)> {
    let plain = message.tool_calls.is_empty()
        && message.tool_call_id.is_none()
        && message.thinking.is_none();
    plain.then_some((message.role, &message.content))
}

impl JsModel {
    /// The model `function`, for one run that `signal` can abort (the providers' model, when
    /// they are loaded on demand).
    #[cfg_attr(feature = "providers", allow(dead_code))]
    pub fn new(function: Function, signal: Option<AbortSignal>) -> Self {
        JsModel::reusing(function, signal, Spare::default())
    }

    /// The same, with the controller its agent's runs leave in `spare`.
    pub(super) fn reusing(function: Function, signal: Option<AbortSignal>, spare: Spare) -> Self {
        JsModel {
            function,
            signal,
            channel: RefCell::default(),
            sent: RefCell::default(),
            unchanged: Default::default(),
            text: Default::default(),
            spare,
        }
    }
}

impl Drop for JsModel {
    /// Leaves the run's channel for the agent's next run, unless it was aborted or a call
    /// still waits on it (see [`Spare`]).
    fn drop(&mut self) {
        let Some(channel) = self.channel.get_mut().take() else {
            return;
        };
        let inbox = channel.inbox.borrow();
        let reusable = !inbox.waiting && !inbox.aborted;
        drop(inbox);
        if reusable {
            *self.spare.0.borrow_mut() = Some(channel);
        }
    }
}

impl Model for JsModel {
    fn name(&self) -> String {
        match self.function.name().as_string().unwrap_or_default() {
            name if name.is_empty() => "js".into(),
            name => format!("js:{name}"),
        }
    }

    fn rendered(&self, unchanged: usize) {
        self.unchanged.set(Some(unchanged));
    }

    fn complete<'a>(
        &'a self,
        request: Request<'a>,
        on_delta: OnDelta<'a>,
    ) -> LocalBoxFuture<'a, Result<Reply, Error>> {
        // Taken at once: it speaks of this call only.
        let unchanged = self.unchanged.take();
        Box::pin(async move {
            // First, so that what was sent is what the agent's next `rendered` speaks of.
            let messages = (self.sent.borrow_mut()).messages(request.messages, unchanged)?;
            // This call's signal: aborted by the user's Stop, or by tao when it has read
            // enough (the client-side stop); a controller once aborted is replaced.
            if self.channel.borrow().is_none() {
                *self.channel.borrow_mut() = Some(Channel::new(self.signal.clone(), &self.spare)?);
            }
            let (inbox, on_js_delta) = match &*self.channel.borrow() {
                Some(c) => (c.inbox.clone(), c.on_delta.as_ref().clone()),
                None => return Err(Error::model("no channel to the JS model")),
            };
            let (controller, signal) = {
                let mut inbox = inbox.borrow_mut();
                if inbox.aborted {
                    inbox.controller = controller()?;
                    inbox.signal = inbox.controller.signal();
                    inbox.aborted = false;
                }
                inbox.deltas.clear();
                inbox.stopped = false;
                inbox.open = true;
                (inbox.controller.clone(), inbox.signal.clone())
            };
            if self.signal.as_ref().is_some_and(|s| s.aborted()) {
                inbox.borrow_mut().aborted = true;
                controller.abort();
            }
            // `{stop, tools, signal, onDelta}`, made in one call.
            let (stop, tools) = (request.stop, request.tools);
            let options = super::values::options(stop, tools, &signal, &on_js_delta);
            let result = self
                .function
                .call2(&JsValue::NULL, &messages, &options)
                .map_err(|e| thrown(&e, "the JS model threw"));
            let mut streamed = false;
            let mut given_up = false;
            let outcome = match result {
                Err(e) => Err(e),
                Ok(returned) => {
                    // A string is the reply; anything else may be a Promise (a plain value is
                    // a Promise that is already resolved).
                    let promised = match &*self.channel.borrow() {
                        Some(channel) => channel.wait(&returned),
                        None => !returned.is_string(),
                    };
                    std::future::poll_fn(|cx| {
                        // Drain first: everything streamed before the Promise settled counts.
                        // (Taken out: `on_delta` may run JS that streams more, into the inbox.)
                        loop {
                            let deltas = std::mem::take(&mut inbox.borrow_mut().deltas);
                            if deltas.ends.is_empty() {
                                break;
                            }
                            for (kind, text) in deltas.iter() {
                                let delta = match kind {
                                    Kind::Text => {
                                        streamed = true;
                                        Delta::Text(text)
                                    }
                                    Kind::Reasoning => Delta::Reasoning(text),
                                    Kind::Note => Delta::Note(text),
                                    Kind::Usage(usage) => Delta::Usage(*usage),
                                };
                                if !inbox.borrow().stopped && !on_delta(delta) {
                                    inbox.borrow_mut().stopped = true;
                                    inbox.borrow_mut().aborted = true;
                                    controller.abort();
                                }
                            }
                            inbox.borrow_mut().deltas.reuse(deltas);
                        }
                        let settled = inbox.borrow_mut().settled.take();
                        match (promised, settled) {
                            (false, _) => return Poll::Ready(Ok(returned.clone())),
                            (true, Some(value)) => return Poll::Ready(value),
                            (true, None) => {}
                        }
                        // A model that never answers must not outlive an abort or a stop.
                        if inbox.borrow().stopped || inbox.borrow().aborted {
                            given_up = true;
                            return Poll::Ready(Ok(JsValue::NULL));
                        }
                        inbox.borrow_mut().waker = Some(cx.waker().clone());
                        Poll::Pending
                    })
                    .await
                    .map_err(|e| thrown(&e, "the JS model failed"))
                }
            };
            let stopped = {
                let mut inbox = inbox.borrow_mut();
                inbox.open = false;
                inbox.waker = None;
                inbox.stopped
            };
            if given_up {
                *self.channel.borrow_mut() = None;
            }
            if self.signal.as_ref().is_some_and(|s| s.aborted()) {
                return Err(Error::aborted());
            }
            let value = outcome?;
            // The reply's text is read into the same buffer as the last call's (taken out:
            // `on_delta` may run JS that calls this model again).
            let mut text = self.text.take();
            let reply = reply(&value, streamed || stopped, on_delta, &mut text);
            self.text.set(text);
            reply
        })
    }
}

/// A thrown value as an error: one of tao's kinds keeps its kind and message (the providers'
/// module throws those); anything else is the model's failure, quoted after `what`.
pub(super) fn thrown(error: &JsValue, what: &str) -> Error {
    let kind = Reflect::get(error, &"kind".into())
        .ok()
        .and_then(|k| k.as_string())
        .and_then(|k| ErrorKind::from_name(&k));
    match kind {
        Some(kind) if error.is_object() => Error::new(kind, describe(error)),
        _ => Error::model(format!("{what}: {}", describe(error))),
    }
}

/// Reads what the function returned: a string, or `{text, toolCalls, usage}`. Text that was
/// already streamed through `onDelta` is not sent again (nor read: `text` is the buffer it is
/// read into).
fn reply(
    value: &JsValue,
    streamed: bool,
    on_delta: OnDelta<'_>,
    text: &mut Vec<u8>,
) -> Result<Reply, Error> {
    // Reads `given`'s text (whether it is a string) and passes it on as the reply's text.
    let mut read = |given: &JsValue| {
        text.clear();
        let read = super::values::append_text(given, text, text.capacity().max(64), true);
        if read {
            on_delta(Delta::Text(std::str::from_utf8(text).unwrap_or_default()));
        }
        read
    };
    // A string, the usual reply, is the reply's text: read at once, in the call that asks
    // whether it is one.
    if !streamed && read(value) {
        return Ok(Reply::default());
    }
    let get = |key: &str| Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED);
    let object = match () {
        _ if value.is_string() || value.is_undefined() || value.is_null() => false,
        _ if value.is_object() => true,
        _ => {
            return Err(Error::model(format!(
                "the JS model must return a string or {{text, toolCalls, usage}} (or a Promise of one); it returned {}",
                type_of(value)
            )))
        }
    };
    if !streamed {
        match object {
            true => _ = read(&get("text")),
            // (Not a string: undefined or null.)
            false => {
                return Err(Error::model(
                    "the JS model returned nothing and streamed nothing through onDelta",
                ))
            }
        }
    }
    let mut result = Reply::default();
    if object {
        let json = |v: JsValue| super::json_of(&v);
        let calls = json(get("toolCalls"));
        for (i, call) in calls.as_array().into_iter().flatten().enumerate() {
            let arguments = match &call["arguments"] {
                Value::String(s) => crate::json::from_str(s).unwrap_or(Value::String(s.clone())),
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
        result.usage = read_usage(&get("usage"));
        let thinking = json(get("thinking"));
        if thinking.is_object() {
            let text = |key: &str| thinking[key].as_str().unwrap_or_default().to_string();
            let redacted = thinking["redacted"].as_array().into_iter().flatten();
            result.thinking = Some(Thinking {
                text: text("text"),
                signature: text("signature"),
                redacted: redacted
                    .filter_map(|r| r.as_str().map(str::to_string))
                    .collect(),
            });
        }
    }
    Ok(result)
}
