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
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/bindings/values.js")]
extern "C" {
    fn tao_memory(memory: JsValue);
    fn tao_value(ops: i32, text: i32, text_length: i32, numbers: i32) -> JsValue;
    fn tao_event(
        listener: &Function,
        kind: i32,
        index: i32,
        n: i32,
        a: i32,
        a_length: i32,
        b: i32,
        b_length: i32,
        c: i32,
        c_length: i32,
        value: &JsValue,
        number: f64,
    );
    fn tao_options(
        ops: i32,
        text: i32,
        length: i32,
        numbers: i32,
        a: &JsValue,
        b: &JsValue,
    ) -> JsValue;
    fn tao_text(text: &JsValue, at: i32, room: i32) -> i32;
    // (An `Option`, for wasm-bindgen to write glue: imported directly, as `tao_memory` is,
    // it would be the module's second key of the same name in the glue's imports.)
    fn tao_wait(returned: &JsValue, on_value: &JsValue, on_error: &JsValue) -> Option<bool>;
    fn tao_push_message(array: &Array, role: i32, text: i32, length: i32);
    fn tao_now() -> f64;
    fn tao_sleep(ms: i32) -> js_sys::Promise;
    fn tao_string(text: i32, length: i32) -> JsValue;
    fn tao_option(options: &JsValue, which: i32) -> JsValue;
}

/// The options a run is given (`run`, `next`, `resume`), in `values.js`'s order.
#[derive(Clone, Copy)]
pub(crate) enum RunOption {
    OnEvent,
    Signal,
    Pause,
    Approve,
}

/// `options`' field `which` (undefined when `options` is not an object, or reading it throws),
/// read by JS in one call: no key made in JS from the wasm's memory, and no `Reflect.get`.
pub(crate) fn run_option(options: &JsValue, which: RunOption) -> JsValue {
    tao_option(options, which as i32)
}

/// `text` as a JS string, made by `values.js` (no tape: a tool's usual input).
pub(crate) fn string(text: &str) -> JsValue {
    ready();
    tao_string(text.as_ptr() as usize as i32, text.len() as i32)
}

/// The clock: `performance.now()` where there is one (pages, workers, Node), else `Date.now()`.
pub(crate) fn now() -> f64 {
    tao_now()
}

/// A Promise that resolves after `ms` milliseconds (at once where there is no `setTimeout`).
pub(crate) fn sleep(ms: u32) -> js_sys::Promise {
    tao_sleep(ms.min(i32::MAX as u32) as i32)
}

thread_local! {
    static RECORDER: RefCell<JsonWriter> = RefCell::new(JsonWriter::recorder());
    static READY: Cell<bool> = const { Cell::new(false) };
    static COPIED: Copied = const {
        Copied {
            text: RefCell::new(Vec::new()),
            kept: Cell::new(false),
        }
    };
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
/// tool's picture go on a tape. A text that is part of the last string JS handed over (a
/// reply's whole text, its thought, tool and input; a tool's observation) is not decoded
/// again: JS still has that string, and takes the slice (see `Copied`).
pub(crate) fn emit(listener: &Function, event: &Event) {
    // The `16 << k` bit of the kind says that the k-th text field (a, b, c) is a slice of the
    // string JS copied last, given by where it starts there and its length.
    let sliced = Cell::new(0);
    let text = |t: &str, k: u32| field(t, k, &sliced);
    let (none, flag) = ((0, 0), |yes: bool| (yes as u32, 0));
    // The value of an action's input (a text input is passed as a text), or of a picture.
    let mut value = JsValue::UNDEFINED;
    // An observation's fuel (-1: none).
    let mut number = -1.0;
    let (kind, index, n, a, b, c) = match *event {
        Event::Token { index, text: t } => (0, index, 0, text(t, 0), none, none),
        Event::Thought { index, text: t } => (1, index, 0, text(t, 0), none, none),
        Event::Answer { index, text: t } => (2, index, 0, text(t, 0), none, none),
        Event::Reasoning { index, text: t } => (3, index, 0, text(t, 0), none, none),
        Event::Note { index, text: t } => (4, index, 0, text(t, 0), none, none),
        Event::Step { index } => (5, index, 0, none, none, none),
        Event::Call { index, n, retry } => (6, index, n, flag(retry), none, none),
        Event::Action {
            index,
            call,
            tool,
            input,
        } => {
            let input = match input {
                Value::String(input) => text(input, 1),
                other => {
                    value = to_js(other);
                    none
                }
            };
            (7, index, call, text(tool, 0), input, none)
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
            (8, index, call, text(t, 0), none, none)
        }
        Event::Approval {
            index,
            call,
            tool,
            approved,
        } => (9, index, call, text(tool, 0), flag(approved), none),
        Event::Repair {
            index,
            call,
            why,
            message,
        } => (10, index, call, text(why, 0), text(message, 1), none),
        Event::Switch {
            index,
            from,
            to,
            why,
        } => (11, index, 0, text(from, 0), text(to, 1), text(why, 2)),
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
            text(t, 0),
            flag(by_model),
            text(kind.name(), 2),
        ),
        Event::Stopped { reason, message } => {
            let given = message.is_some() as u32;
            (
                13,
                0,
                given,
                text(reason.name(), 0),
                text(message.unwrap_or(""), 1),
                none,
            )
        }
    };
    let kind = kind | sliced.get();
    ready();
    let ((a, a_length), (b, b_length), (c, c_length)) = (a, b, c);
    let i = |x: u32| x as i32;
    tao_event(
        listener,
        i(kind),
        i(index),
        i(n),
        i(a),
        i(a_length),
        i(b),
        i(b_length),
        i(c),
        i(c_length),
        &value,
        number,
    );
}

/// Where `emit` gives the text `t` of its `k`-th text field: where it starts in the string JS
/// copied last and its length, with the field's bit set in `sliced`, or where it lies in memory.
#[inline(never)] // (inlined in each of its calls, the core was larger)
fn field(t: &str, k: u32, sliced: &Cell<u32>) -> (u32, u32) {
    match COPIED.with(|copied| copied.find(t)) {
        Some(at) => {
            sliced.set(sliced.get() | 16 << k);
            (at, t.len() as u32)
        }
        None => place(t),
    }
}

/// Adds `{role, content}` to `array`: the value the tape would make of a message that is only
/// a role and a text (the text formats' messages), made by an object literal in JS.
pub(crate) fn push_message(array: &Array, role: Role, content: &str) {
    ready();
    let at = content.as_ptr() as usize as i32;
    tao_push_message(array, role as i32, at, content.len() as i32);
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
        let at = stop.as_ptr() as usize as i32;
        return tao_options(0, at, stop.len() as i32, 0, signal, on_delta);
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
/// offer it first (more are offered when it needs them). `keep`: whether to keep a copy for the
/// events that take a part of it (see `Copied`): not for a piece of a stream, whose pieces would
/// each pay for the copy (measured: 8% more a piece through `onDelta`).
pub(crate) fn append_text(text: &JsValue, bytes: &mut Vec<u8>, room: usize, keep: bool) -> bool {
    let start = bytes.len();
    let mut room = room;
    loop {
        bytes.resize(start + room, 0);
        let at = bytes.as_ptr() as usize + start;
        // The bytes written; -1 when not a string; minus the room it needs when short of it.
        match tao_text(text, at as i32, room as i32) {
            written if written >= 0 => {
                bytes.truncate(start + written as usize);
                COPIED.with(|copied| copied.keep(&bytes[start..], keep));
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

/// The last string `append_text` copied from JS, which `values.js` keeps too (its `copied`),
/// while it is short and ASCII: then each of its bytes is one unit of the JS string, so a text
/// found in it at byte `at` is that string's slice from `at`, which JS takes instead of decoding
/// the text again (`emit`). (A text with any other character is decoded, as it was.)
struct Copied {
    text: RefCell<Vec<u8>>,
    /// Whether `text` is the string JS keeps (false when it was not ASCII, or long).
    kept: Cell<bool>,
}

/// The longest copy kept: a longer one would hold its memory, and take its time to search,
/// for the rare event that is a part of it.
const LONGEST_COPY: usize = 1 << 14;

impl Copied {
    /// Keeps `bytes` (unless not `wanted`), what `tao_text` has just written of the string JS
    /// now keeps.
    fn keep(&self, bytes: &[u8], wanted: bool) {
        let Some(mut text) = self.text.try_borrow_mut().ok().filter(|_| wanted) else {
            return self.kept.set(false);
        };
        text.clear();
        let ascii = bytes.len() <= LONGEST_COPY && bytes.is_ascii();
        if ascii {
            text.extend_from_slice(bytes);
        }
        self.kept.set(ascii);
    }

    /// Where `t` starts in the copy, when it is part of it.
    fn find(&self, t: &str) -> Option<u32> {
        let text = self.text.try_borrow().ok().filter(|_| self.kept.get())?;
        let (copy, t) = (&text[..], t.as_bytes());
        let Some(&first) = t.first() else {
            return Some(0);
        };
        // Its end first: a reply's action input or answer ends it, and a reply (or a tool's
        // answer) is its whole copy. Then where its first byte is, the first match taken: a
        // reply's thought is found at once (a `str::find` costs more to set up than a part
        // costs to decode). At most 16 places are compared: a text not found there is
        // decoded, as any other.
        let end = copy.len().checked_sub(t.len())?;
        if copy[end..] == *t {
            return Some(end as u32);
        }
        let mut tries = 16;
        let mut at = 0;
        while let Some(skip) = copy[at..end].iter().position(|&b| b == first) {
            at += skip;
            if copy[at..at + t.len()] == *t {
                return Some(at as u32);
            }
            tries -= 1;
            if tries == 0 {
                return None;
            }
            at += 1;
        }
        None
    }
}

/// A text's address and length.
fn place(s: &str) -> (u32, u32) {
    (s.as_ptr() as usize as u32, s.len() as u32)
}

fn on_tape<R>(value: &dyn ToJson, build: impl FnOnce(i32, i32, i32, i32) -> R) -> R {
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
        let address = |p: *const u8| p as usize as i32;
        let built = build(
            address(tape.ops.as_ptr().cast()),
            address(tape.text.as_ptr()),
            tape.text.len() as i32,
            address(tape.numbers.as_ptr().cast()),
        );
        // A long trajectory's tape is not kept for the events that follow.
        if tape.text.capacity() > 1 << 16 {
            *recorder = JsonWriter::recorder();
        }
        built
    })
}
