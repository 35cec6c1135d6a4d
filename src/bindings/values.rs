//! Rust values as JS values: each value is recorded on a [`Tape`] (by its `ToJson` impl, as
//! for its JSON text), and `values.js` builds the JS value from the tape where it lies, in the
//! wasm's memory: one call across, no JSON written or parsed. The value is the one
//! `JSON.parse` would make of the JSON text, field for field.
//!
//! The tape's buffers are kept from value to value (a run records several per step).

use crate::to_json::{JsonWriter, ToJson};
use js_sys::Function;
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/bindings/values.js")]
extern "C" {
    fn tao_memory(memory: JsValue);
    fn tao_value(ops: u32, text: u32, text_length: u32, numbers: u32) -> JsValue;
    fn tao_emit(listener: &Function, ops: u32, text: u32, text_length: u32, numbers: u32);
    fn tao_options(
        ops: u32,
        text: u32,
        length: u32,
        numbers: u32,
        a: &JsValue,
        b: &JsValue,
    ) -> JsValue;
    fn tao_text(text: &JsValue, at: u32, room: u32) -> i32;
}

thread_local! {
    static RECORDER: RefCell<JsonWriter> = RefCell::new(JsonWriter::recorder());
    static READY: Cell<bool> = const { Cell::new(false) };
}

/// `value` as a JS value.
pub(crate) fn to_js(value: &dyn ToJson) -> JsValue {
    on_tape(value, tao_value)
}

/// Calls `listener` with `value` as a JS value (an exception it throws is ignored).
pub(crate) fn emit(listener: &Function, value: &dyn ToJson) {
    on_tape(value, |ops, text, length, numbers| {
        tao_emit(listener, ops, text, length, numbers)
    })
}

/// A JS model's options: `values` (an object) with its `signal` and `onDelta` after them.
pub(crate) fn options(values: &dyn ToJson, signal: &JsValue, on_delta: &JsValue) -> JsValue {
    on_tape(values, |ops, text, length, numbers| {
        tao_options(ops, text, length, numbers, signal, on_delta)
    })
}

/// Appends `text` to `bytes` as UTF-8 when it is a string (JS copies it in place: quicker
/// than `as_string`, and no allocation of its own); whether it was one.
pub(crate) fn append_text(text: &JsValue, bytes: &mut Vec<u8>) -> bool {
    let start = bytes.len();
    let mut room = 64;
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

fn on_tape<R>(value: &dyn ToJson, build: impl FnOnce(u32, u32, u32, u32) -> R) -> R {
    if !READY.replace(true) {
        tao_memory(wasm_bindgen::memory());
    }
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
