//! The browser as the loop's [`Host`]: `performance.now()` for the clock, `setTimeout` for the
//! timer, and the page's `approve` callback for tools that need a yes before they run.

#[cfg(feature = "net-module")]
use super::get;
use super::to_js;
use crate::host::{Host, LocalBoxFuture};
use crate::json::Value;
use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// The browser's clock and timer, and the page's way of asking the user.
pub(crate) struct WebHost {
    /// `approve({tool, input})` from `run`'s options; without it, tools that need approval are
    /// denied.
    pub(crate) approve: Option<Function>,
}

// The clock. The core reads it through `values.js`, which looks `performance` up once (in Node
// it is a getter on the global, and looking it up on each read cost a quarter of the read); the
// providers' module, which has no `values.js`, imports `performance.now` itself.
#[cfg(not(feature = "net-module"))]
use super::values::now as clock;

#[cfg(feature = "net-module")]
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

#[cfg(feature = "net-module")]
thread_local! {
    /// Whether this JS environment has `performance.now` (pages, workers and Node do), asked once.
    static HAS_PERFORMANCE: bool = get(&get(&js_sys::global(), "performance"), "now").is_function();
}

/// `performance.now()` where there is one, else `Date.now()`.
#[cfg(feature = "net-module")]
fn clock() -> f64 {
    match HAS_PERFORMANCE.with(|has| *has) {
        true => performance_now(),
        false => js_sys::Date::now(),
    }
}

// The timer: a Promise resolved by `setTimeout`, made by `values.js` for the core (no lookup of
// the global object, and no closure handed across: 0.1 KB); by hand for the providers' module.
#[cfg(not(feature = "net-module"))]
use super::values::sleep as timer;

#[cfg(feature = "net-module")]
fn timer(ms: u32) -> Promise {
    Promise::new(&mut |resolve, _reject| {
        if let Ok(set_timeout) = get(&js_sys::global(), "setTimeout").dyn_into::<Function>() {
            let _ = set_timeout.call2(&JsValue::NULL, &resolve, &JsValue::from(ms));
        } else {
            let _ = resolve.call0(&JsValue::NULL);
        }
    })
}

impl Host for WebHost {
    fn now_ms(&self) -> f64 {
        clock()
    }

    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        let promise = timer(ms);
        Box::pin(async move {
            let _ = JsFuture::from(promise).await;
        })
    }

    fn approve(&self, tool: &str, input: &Value) -> LocalBoxFuture<'static, bool> {
        let Some(approve) = self.approve.clone() else {
            return Box::pin(std::future::ready(false));
        };
        let request = to_js(&crate::to_json::Object(&[
            ("tool", &tool),
            ("input", input),
        ]));
        Box::pin(async move {
            // Anything but a clear yes (a throw, a rejection, a non-true value) is a no.
            let Some(answer) = request
                .ok()
                .and_then(|r| approve.call1(&JsValue::NULL, &r).ok())
            else {
                return false;
            };
            let answer = match answer.dyn_into::<Promise>() {
                Ok(promise) => JsFuture::from(promise).await.unwrap_or(JsValue::FALSE),
                Err(value) => value,
            };
            answer.as_bool() == Some(true)
        })
    }
}
