//! The fetch transport: the one place tao touches the network.
//!
//! `fetch` is called on the global object, so this works in a page and in a Worker. The body
//! is read with a stream reader, chunk by chunk, so deltas reach the parser as they arrive.
//! Each request has its own `AbortController`: dropping the body (the parser saw the model
//! invent an `Observation`, or the run ended) aborts it, which closes the connection and makes
//! the provider stop generating. The user's `AbortSignal` aborts it too; that listener is a JS
//! closure, so it is kept alive in the body and removed with it.

use super::{get, OnAbort};
use crate::error::{Error, ErrorKind};
use crate::host::LocalBoxFuture;
use crate::http::{Body, HttpRequest, HttpResponse, Method, Transport};
use js_sys::{Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, AbortSignal, ReadableStreamDefaultReader, Response};

#[wasm_bindgen]
extern "C" {
    // The global `fetch`, looked up when called: a page's, a Worker's or Node's.
    #[wasm_bindgen(catch)]
    fn fetch(url: &str, init: &Object) -> Result<Promise, JsValue>;
}

/// `fetch`, abortable by the run's signal.
pub struct WebTransport {
    /// The user's signal (the page's Stop button).
    pub signal: Option<AbortSignal>,
}

impl Transport for WebTransport {
    fn send(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, Error>> {
        Box::pin(async move {
            let controller = AbortController::new().map_err(|_| network("no AbortController"))?;
            let guard = Guard::new(controller, self.signal.as_ref());
            let headers = Object::new();
            for (name, value) in &request.headers {
                let _ = Reflect::set(&headers, &name.into(), &value.into());
            }
            let init = Object::new();
            let _ = Reflect::set(&init, &"headers".into(), &headers);
            // A GET has no body, so `fetch` adds no content type and the browser sends it
            // without a CORS preflight (MediaWiki's `origin=*` answers only simple requests).
            if request.method == Method::Post {
                let _ = Reflect::set(&init, &"method".into(), &"POST".into());
                let _ = Reflect::set(&init, &"body".into(), &request.body.into());
            }
            let _ = Reflect::set(&init, &"signal".into(), &guard.controller.signal());
            let promise = fetch(&request.url, &init).map_err(|e| failure(&e))?;
            let response: Response = JsFuture::from(promise)
                .await
                .map_err(|e| failure(&e))?
                .unchecked_into();
            let headers = response.headers();
            let header = |name: &str| headers.get(name).ok().flatten();
            let reader = response.body().map(|body| {
                body.get_reader()
                    .unchecked_into::<ReadableStreamDefaultReader>()
            });
            Ok(HttpResponse {
                status: response.status(),
                retry_after: header("retry-after"),
                content_type: header("content-type").unwrap_or_default(),
                session: header("mcp-session-id"),
                body: Box::new(WebBody { reader, guard }),
            })
        })
    }
}

/// A response body; dropping it aborts the request.
struct WebBody {
    reader: Option<ReadableStreamDefaultReader>,
    guard: Guard,
}

impl Body for WebBody {
    fn chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, Error>> {
        Box::pin(async move {
            let Some(reader) = &self.reader else {
                return Ok(None);
            };
            let result = JsFuture::from(reader.read())
                .await
                .map_err(|e| failure(&e))?;
            if get(&result, "done").is_truthy() {
                self.guard.finished = true;
                return Ok(None);
            }
            Ok(Some(Uint8Array::new(&get(&result, "value")).to_vec()))
        })
    }
}

/// Owns a request's controller and the listener forwarding the user's abort to it.
struct Guard {
    controller: AbortController,
    _user: Option<OnAbort>,
    finished: bool,
}

impl Guard {
    fn new(controller: AbortController, user: Option<&AbortSignal>) -> Guard {
        let inner = controller.clone();
        Guard {
            _user: user.map(|user| OnAbort::new(user, move || inner.abort())),
            controller,
            finished: false,
        }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if !self.finished {
            self.controller.abort(); // stop the stream: the provider stops generating
        }
    }
}

fn network(message: &str) -> Error {
    Error::new(ErrorKind::Network, message)
}

/// A rejected fetch or read: an abort, or a network failure in the browser's words.
fn failure(error: &JsValue) -> Error {
    if get(error, "name").as_string().as_deref() == Some("AbortError") {
        return Error::aborted();
    }
    let message = get(error, "message").as_string();
    network(&message.unwrap_or_else(|| "the request failed".into()))
}
