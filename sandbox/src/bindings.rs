//! The JavaScript surface: `inspect(bytes)` and `run(bytes, stdin, limits)`, as plain objects.
//!
//! This is the only file that knows about JavaScript, and it only converts: bytes and numbers
//! in, objects out, a `SandboxError` into a thrown `Error` whose `kind` is `"invalid"` or
//! `"refused"` (or `"limits"` for bad limits). `www/sandbox-worker.js` calls it in a Worker.
//!
//! Compiled modules are kept (the last few, keyed by their bytes) so that an agent calling the
//! same tool ten times compiles it once. Fuel does not depend on this: every function is
//! compiled before the first run (see `tool.rs`).

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;

use crate::{ErrorKind, Limits, SandboxError, WasmTool};

/// How many compiled tools to keep. A page rarely registers more than a few wasm tools.
const CACHED_TOOLS: usize = 8;

thread_local! {
    /// The most recently used tools last. (A Worker has one thread; `thread_local` is just
    /// the safe way to say "a global" in Rust.)
    static TOOLS: RefCell<Vec<(Vec<u8>, Rc<WasmTool>)>> = const { RefCell::new(Vec::new()) };
}

/// Checks a module; returns `{imports, initialMemoryBytes, sizeBytes}` or throws an `Error`
/// naming what is wrong (for example the first import that is not allowed).
#[wasm_bindgen]
pub fn inspect(bytes: &[u8]) -> Result<JsValue, JsValue> {
    let tool = compiled(bytes).map_err(to_js_error)?;
    let info = tool.info();
    let imports: js_sys::Array = info.imports.iter().map(|s| JsValue::from_str(s)).collect();
    let out = Object::new();
    set(&out, "imports", &imports);
    set(
        &out,
        "initialMemoryBytes",
        &(info.initial_memory_bytes as f64).into(),
    );
    set(&out, "sizeBytes", &(info.size_bytes as f64).into());
    Ok(out.into())
}

/// Runs a module once; returns `{stdout, stderr, exitCode, fuelUsed, stopped, observation,
/// isError}`, where `stopped` is `null` or `{kind, message}`. Throws only for an unusable
/// module or bad limits; a tool that fails is reported in the result.
#[wasm_bindgen]
pub fn run(bytes: &[u8], stdin: &str, limits: JsValue) -> Result<JsValue, JsValue> {
    let limits = read_limits(&limits).map_err(|message| {
        let error = js_sys::Error::new(&message);
        set(&error, "kind", &"limits".into());
        error
    })?;
    let tool = compiled(bytes).map_err(to_js_error)?;
    let outcome = tool.run(stdin.as_bytes(), &limits);
    let stopped = match &outcome.stopped {
        None => JsValue::NULL,
        Some(stop) => {
            let object = Object::new();
            set(&object, "kind", &stop.kind().into());
            set(&object, "message", &stop.to_string().into());
            object.into()
        }
    };
    let (observation, is_error) = match outcome.observation() {
        Ok(text) => (text, false),
        Err(text) => (text, true),
    };
    let out = Object::new();
    set(&out, "stdout", &outcome.stdout.into());
    set(&out, "stderr", &outcome.stderr.into());
    set(&out, "exitCode", &outcome.exit_code.into());
    // Fuel fits a JS number exactly below 2^53, which `read_limits` guarantees for the budget.
    set(&out, "fuelUsed", &(outcome.fuel_used as f64).into());
    set(&out, "stopped", &stopped);
    set(&out, "observation", &observation.into());
    set(&out, "isError", &is_error.into());
    Ok(out.into())
}

/// The compiled tool for these bytes, from the cache or compiled now.
fn compiled(bytes: &[u8]) -> Result<Rc<WasmTool>, SandboxError> {
    TOOLS.with(|tools| {
        let mut tools = tools.borrow_mut();
        if let Some(at) = tools.iter().position(|(key, _)| key == bytes) {
            let entry = tools.remove(at);
            let tool = Rc::clone(&entry.1);
            tools.push(entry);
            return Ok(tool);
        }
        let tool = Rc::new(WasmTool::new(bytes)?);
        if tools.len() == CACHED_TOOLS {
            tools.remove(0);
        }
        tools.push((bytes.to_vec(), Rc::clone(&tool)));
        Ok(tool)
    })
}

/// `{fuel, memoryBytes, outputBytes}`, each optional (the default where missing).
fn read_limits(object: &JsValue) -> Result<Limits, String> {
    let defaults = Limits::default();
    if object.is_undefined() || object.is_null() {
        return Ok(defaults);
    }
    // A whole number in 0..=max, or the default when the field is missing.
    let field = |name: &str, max: f64, default: f64| -> Result<f64, String> {
        let value = Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
        if value.is_undefined() || value.is_null() {
            return Ok(default);
        }
        match value.as_f64() {
            Some(n) if n.fract() == 0.0 && (0.0..=max).contains(&n) => Ok(n),
            // `max` printed as an integer: formatting an f64 would pull Rust's float
            // printing (~10 KB) into the module for this one message.
            _ => Err(format!(
                "limits.{name} must be a whole number from 0 to {}, got {value:?}",
                max as u64
            )),
        }
    };
    const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;
    Ok(Limits {
        fuel: field("fuel", MAX_SAFE_INTEGER, defaults.fuel as f64)? as u64,
        memory_bytes: field("memoryBytes", u32::MAX.into(), defaults.memory_bytes.into())? as u32,
        output_bytes: field("outputBytes", u32::MAX.into(), defaults.output_bytes.into())? as u32,
    })
}

/// A JS `Error` with the message, and `kind` set to `"invalid"` or `"refused"`.
fn to_js_error(error: SandboxError) -> JsValue {
    let js = js_sys::Error::new(&error.message);
    let kind = match error.kind {
        ErrorKind::Invalid => "invalid",
        ErrorKind::Refused => "refused",
    };
    set(&js, "kind", &kind.into());
    js.into()
}

/// Sets a property on an object this file just created. `Reflect.set` fails only on frozen
/// objects and proxies, which these never are, so its result carries no information.
fn set(object: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(object, &JsValue::from_str(key), value);
}
