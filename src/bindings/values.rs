//! Rust values as JS values: each value is recorded on a [`Tape`] (by its `ToJson` impl, as
//! for its JSON text), and `values.js` builds the JS value from the tape where it lies, in the
//! wasm's memory: one call across, no JSON written or parsed. The value is the one
//! `JSON.parse` would make of the JSON text, field for field.
//!
//! The tape's buffers are kept from value to value (a run records several per step).

use crate::chat::{Role, ToolSpec};
use crate::event::Event;
use crate::json::Value;
use crate::to_json::{JsonWriter, ToJson};
use js_sys::{Array, Function};
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/bindings/values.js")]
extern "C" {
    fn tao_memory(memory: JsValue);
    fn tao_value(ops: u32, text: u32, text_length: u32, numbers: u32) -> JsValue;
    fn tao_event(
        listener: &Function,
        kind: u32,
        index: u32,
        n: u32,
        a: u32,
        a_length: u32,
        b: u32,
        b_length: u32,
        c: u32,
        c_length: u32,
        value: &JsValue,
        number: f64,
    );
    fn tao_options(
        ops: u32,
        text: u32,
        length: u32,
        numbers: u32,
        a: &JsValue,
        b: &JsValue,
    ) -> JsValue;
    fn tao_text(text: &JsValue, at: u32, room: u32) -> i32;
    // (An `Option`, for wasm-bindgen to write glue: imported directly, as `tao_memory` is,
    // it would be the module's second key of the same name in the glue's imports.)
    fn tao_wait(returned: &JsValue, on_value: &JsValue, on_error: &JsValue) -> Option<bool>;
    fn tao_push_message(array: &Array, role: u32, text: u32, length: u32);
    fn tao_now() -> f64;
    fn tao_string(text: u32, length: u32) -> JsValue;
}

/// `text` as a JS string, made by `values.js` (no tape: a tool's usual input).
pub(crate) fn string(text: &str) -> JsValue {
    ready();
    tao_string(text.as_ptr() as usize as u32, text.len() as u32)
}

/// The clock: `performance.now()` where there is one (pages, workers, Node), else `Date.now()`.
pub(crate) fn now() -> f64 {
    tao_now()
}

thread_local! {
    static RECORDER: RefCell<JsonWriter> = RefCell::new(JsonWriter::recorder());
    static READY: Cell<bool> = const { Cell::new(false) };
}

/// Hands JS the wasm's memory, before the first value it reads there.
fn ready() {
    if !READY.replace(true) {
        tao_memory(wasm_bindgen::memory());
    }
}

/// `value` as a JS value.
pub(crate) fn to_js(value: &dyn ToJson) -> JsValue {
    on_tape(value, tao_value)
}

/// Calls `listener` with `event` as a JS value (an exception it throws is ignored): the value
/// its JSON would parse to (see `Event`'s `ToJson`), made by `tao_event` from the event's
/// fields, given as arguments. One call, and an object literal per kind, which JS builds
/// quicker than an object made key by key from a tape; only an action's JSON input and a
/// tool's picture go on a tape. The text of a token that is a whole reply a JS model returned
/// is not decoded again: JS has it (see `copied`).
pub(crate) fn emit(listener: &Function, event: &Event) {
    let text = place;
    let (none, flag) = ((0, 0), |yes: bool| (yes as u32, 0));
    // The value of an action's input (a text input is passed as a text), or of a picture.
    let mut value = JsValue::UNDEFINED;
    // An observation's fuel (-1: none); for a text, -2 when it is the one JS copied last.
    let mut number = -1.0;
    let (kind, index, n, a, b, c) = match *event {
        Event::Token { index, text: t } => (0, index, 0, text(t), none, none),
        Event::Thought { index, text: t } => (1, index, 0, text(t), none, none),
        Event::Answer { index, text: t } => (2, index, 0, text(t), none, none),
        Event::Reasoning { index, text: t } => (3, index, 0, text(t), none, none),
        Event::Note { index, text: t } => (4, index, 0, text(t), none, none),
        Event::Step { index } => (5, index, 0, none, none, none),
        Event::Call { index, n, retry } => (6, index, n, flag(retry), none, none),
        Event::Action {
            index,
            call,
            tool,
            input,
        } => {
            let input = match input {
                Value::String(input) => text(input),
                other => {
                    value = to_js(other);
                    none
                }
            };
            (7, index, call, text(tool), input, none)
        }
        Event::Observation {
            index,
            call,
            text: t,
            fuel: burned,
            picture,
        } => {
            value = picture.map_or(JsValue::NULL, |p| to_js(p));
            number = burned.map_or(-1.0, |f| f as f64);
            (8, index, call, text(t), none, none)
        }
        Event::Approval {
            index,
            call,
            tool,
            approved,
        } => (9, index, call, text(tool), flag(approved), none),
        Event::Repair {
            index,
            call,
            why,
            message,
        } => (10, index, call, text(why), text(message), none),
        Event::Switch {
            index,
            from,
            to,
            why,
        } => (11, index, 0, text(from), text(to), text(why)),
        Event::Memo {
            kind,
            after,
            covers,
            text: t,
            by_model,
        } => (
            12,
            after,
            covers,
            text(t),
            flag(by_model),
            text(kind.name()),
        ),
        Event::Stopped { reason, message } => {
            let given = message.is_some() as u32;
            (
                13,
                0,
                given,
                text(reason.name()),
                text(message.unwrap_or("")),
                none,
            )
        }
    };
    if kind < 5 && COPIED.load(Relaxed) == at(a) {
        number = -2.0;
    }
    ready();
    let ((a, a_length), (b, b_length), (c, c_length)) = (a, b, c);
    tao_event(
        listener, kind, index, n, a, a_length, b, b_length, c, c_length, &value, number,
    );
}

/// Adds `{role, content}` to `array`: the value the tape would make of a message that is only
/// a role and a text (the text formats' messages), made by an object literal in JS.
pub(crate) fn push_message(array: &Array, role: Role, content: &str) {
    ready();
    let at = content.as_ptr() as usize as u32;
    tao_push_message(array, role as u32, at, content.len() as u32);
}

/// A JS model's options: `{stop, tools, signal, onDelta}`. In the text formats (one stop
/// sequence, no tools) JS makes them with a literal from the stop's text (given where a tape's
/// text goes, with no operations: `ops` 0); otherwise the first two go on a tape.
pub(crate) fn options(
    stop: &[String],
    tools: &[ToolSpec],
    signal: &JsValue,
    on_delta: &JsValue,
) -> JsValue {
    if let ([stop], []) = (stop, tools) {
        ready();
        let at = stop.as_ptr() as usize as u32;
        return tao_options(0, at, stop.len() as u32, 0, signal, on_delta);
    }
    let values = crate::to_json::Object(&[("stop", &stop), ("tools", &tools)]);
    on_tape(&values, |ops, text, length, numbers| {
        tao_options(ops, text, length, numbers, signal, on_delta)
    })
}

/// Unless `returned` is a string (then `false`), waits for it as for a Promise of it:
/// `Promise.resolve(returned).then(on_value, on_error)`, in the same call that asks.
pub(crate) fn wait(returned: &JsValue, on_value: &JsValue, on_error: &JsValue) -> bool {
    tao_wait(returned, on_value, on_error).unwrap_or(true)
}

/// Appends `text` to `bytes` as UTF-8 when it is a string (JS copies it in place: quicker
/// than `as_string`, and no allocation of its own); whether it was one. `room`: the bytes to
/// offer it first (more are offered when it needs them).
pub(crate) fn append_text(text: &JsValue, bytes: &mut Vec<u8>, room: usize) -> bool {
    let start = bytes.len();
    let mut room = room;
    loop {
        bytes.resize(start + room, 0);
        let at = bytes.as_ptr() as usize + start;
        // The bytes written; -1 when not a string; minus the room it needs when short of it.
        match tao_text(text, at as u32, room as u32) {
            written if written >= 0 => {
                bytes.truncate(start + written as usize);
                return true;
            }
            -1 => {
                bytes.truncate(start);
                return false;
            }
            needs => room = needs.unsigned_abs() as usize,
        }
    }
}

/// Says that `text` (until `None`) is the text `append_text` has just copied from a JS
/// string: an event whose text is this one (where it lies) is given the string JS kept
/// (`emit`), which JS takes when it is the same text: when each of its units is a byte
/// (ASCII; a copy with a character encoded as more, or replaced, would not be). The text must
/// not change meanwhile (the caller keeps it borrowed).
pub(crate) fn copied(text: Option<&str>) {
    COPIED.store(text.map_or(0, |t| at(place(t))), Relaxed);
}

/// The address and length of the text `append_text` copied last, while it is announced (see
/// `copied`), as one number (`at`); 0 when there is none. (An atomic only to be a static
/// without `unsafe`: the wasm has one thread.)
static COPIED: AtomicU64 = AtomicU64::new(0);

/// A text's address and length, as one number.
fn at((address, length): (u32, u32)) -> u64 {
    u64::from(address) << 32 | u64::from(length)
}

/// A text's address and length.
fn place(s: &str) -> (u32, u32) {
    (s.as_ptr() as usize as u32, s.len() as u32)
}

fn on_tape<R>(value: &dyn ToJson, build: impl FnOnce(u32, u32, u32, u32) -> R) -> R {
    ready();
    RECORDER.with(|kept| {
        // A listener that calls tao back while its event is delivered records on a writer of
        // its own.
        let (mut own, mut spare) = (kept.try_borrow_mut(), None);
        let recorder = match &mut own {
            Ok(recorder) => &mut **recorder,
            Err(_) => spare.insert(JsonWriter::recorder()),
        };
        let tape = recorder.record(value);
        let address = |p: *const u8| p as usize as u32;
        let built = build(
            address(tape.ops.as_ptr().cast()),
            address(tape.text.as_ptr()),
            tape.text.len() as u32,
            address(tape.numbers.as_ptr().cast()),
        );
        // A long trajectory's tape is not kept for the events that follow.
        if tape.text.capacity() > 1 << 16 {
            *recorder = JsonWriter::recorder();
        }
        built
    })
}
