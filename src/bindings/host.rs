//! The browser as the loop's [`Host`]: `performance.now()` for the clock, `setTimeout` for the
//! timer, and the page's `approve` callback for tools that need a yes before they run.

use super::to_js;
use crate::host::{Host, LocalBoxFuture};
use crate::json::Value;
use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    // Pages, workers and Node all have both.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(callback: &Function, ms: u32) -> JsValue;
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(id: &JsValue);
}

/// The browser's clock and timer, and the page's way of asking the user.
#[derive(Default)]
pub(crate) struct WebHost {
    /// `approve({tool, input, server})` from `run`'s options; without it, tools that need
    /// approval are denied.
    pub(crate) approve: Option<Function>,
    /// Each MCP tool's name and its server's URL (`server` in the request: where the input goes).
    pub(crate) servers: Vec<(String, String)>,
}

/// A pending `setTimeout`, cleared when dropped.
struct Timer(JsValue);

impl Drop for Timer {
    fn drop(&mut self) {
        clear_timeout(&self.0);
    }
}

impl Host for WebHost {
    fn now_ms(&self) -> f64 {
        performance_now()
    }

    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        let mut id = JsValue::UNDEFINED;
        let promise = Promise::new(&mut |resolve, _reject| id = set_timeout(&resolve, ms));
        // A timer dropped before it fires (a tool's timeout, once the tool answered) is cleared,
        // so no timer outlives what it timed (Node would wait for it before exiting).
        let timer = Timer(id);
        Box::pin(async move {
            let _ = JsFuture::from(promise).await;
            drop(timer);
        })
    }

    fn approve(&self, tool: &str, input: &Value) -> LocalBoxFuture<'static, bool> {
        let Some(approve) = self.approve.clone() else {
            return Box::pin(std::future::ready(false));
        };
        let server = (self.servers.iter()).find_map(|(name, url)| (name == tool).then_some(url));
        let request = to_js(&crate::to_json::Object(&[
            ("tool", &tool),
            ("input", input),
            ("server", &server),
        ]));
        Box::pin(async move {
            // Anything but a clear yes (a throw, a rejection, a non-true value) is a no.
            let Some(answer) = request
                .ok()
                .and_then(|r| approve.call1(&JsValue::NULL, &r).ok())
            else {
                return false;
            };
            let answer = JsFuture::from(Promise::resolve(&answer)).await;
            answer.is_ok_and(|a| a.as_bool() == Some(true))
        })
    }
}
