//! A model behind an HTTP API: sending the request, retrying, and reading the stream.
//!
//! The request goes out through a [`Transport`] (the browser's `fetch` in the bindings; a
//! recorded one in tests), shaped by the API's [`Provider`] mapping. The reply is read chunk by
//! chunk through the SSE decoder and the provider's `decode`, and every delta goes straight to
//! the reader, who may stop the stream at once (the client-side stop at a hallucinated
//! `Observation`: dropping the body closes the connection, so the provider stops generating
//! and stops billing).
//!
//! Two timeouts guard against a server that accepts the request and then goes quiet: the
//! *first byte* one (no response, or no byte of its body, within it) and the *idle* one (a
//! started stream sends nothing for it). Either ends the call with an error that names it;
//! without them a stalled server kept a run "running" until the browser gave up.
//!
//! A 200 whose body is a web page (a wrong base URL answered by an ordinary web server) is
//! told apart from an API by its content type, or by its first byte where servers label event
//! streams `text/plain`. A reply cut at the token limit, and a refusal, are outcomes of their
//! own ([`ErrorKind::Truncated`], [`ErrorKind::Refused`]), never retried.
//!
//! Rate limits and server errors are retried with backoff, honouring `Retry-After`, a bounded
//! number of times, and each wait is shown to the user as a note. A parameter the model
//! rejects (reasoning models refuse `stop`) is dropped and the request sent again: tao enforces
//! the stop itself anyway. Everything that still fails is diagnosed in [`super::diagnose`].

use super::assembly::Assembly;
use super::diagnose::{
    self, diagnose, error_detail, not_an_api, rejects_tools, stream_error, unreachable,
};
pub use super::provider::{Api, Finish, Piece, Settings};
use super::sse::SseDecoder;
use super::{Delta, Model, OnDelta, Reply, Request};
use crate::error::{Error, ErrorKind};
use crate::host::{with_timeout, Host, LocalBoxFuture};
use crate::http::{read_body, Whole};
pub use crate::http::{Body, HttpRequest, HttpResponse, Method, Transport};
use std::cell::RefCell;
use std::rc::Rc;

/// Retries of a rate-limited or failing request before giving up.
const MAX_RETRIES: u32 = 3;
/// The longest wait tao accepts from `Retry-After`, in seconds.
const MAX_WAIT_S: u32 = 60;

/// A model reached over HTTP: OpenAI-compatible or Anthropic.
pub struct HttpModel {
    settings: Settings,
    transport: Rc<dyn Transport>,
    host: Rc<dyn Host>,
    /// Parameters this endpoint rejected, left out of later requests.
    dropped: RefCell<Vec<&'static str>>,
}

impl HttpModel {
    /// A model at `settings`, sending through `transport`, waiting with `host`'s timer.
    pub fn new(settings: Settings, transport: Rc<dyn Transport>, host: Rc<dyn Host>) -> Self {
        HttpModel {
            settings,
            transport,
            host,
            dropped: RefCell::default(),
        }
    }

    /// The HTTP request for `request` (public so tests and the prompt inspector can show it).
    pub fn http_request(&self, request: &Request) -> HttpRequest {
        let (s, provider) = (&self.settings, self.settings.api.provider());
        HttpRequest {
            method: Method::Post,
            url: provider.url(&s.base_url),
            headers: (provider.headers(&s.key).into_iter())
                .map(|(name, value)| (name.to_string(), value))
                .collect(),
            body: provider.body(request, s, &self.dropped.borrow()),
        }
    }

    /// Sends the request, retrying what is worth retrying, and streams the reply.
    async fn call(&self, request: Request<'_>, on_delta: OnDelta<'_>) -> Result<Reply, Error> {
        let mut retries = 0;
        loop {
            if request.abort.is_aborted() {
                return Err(Error::aborted());
            }
            let http = self.http_request(&request);
            let url = http.url.clone();
            let first_byte = self.settings.first_byte_ms;
            let response = match self.within(first_byte, self.transport.send(http)).await {
                Some(Ok(response)) => response,
                Some(Err(e)) if e.kind == ErrorKind::Aborted => return Err(e),
                Some(Err(e)) => return Err(unreachable(&self.settings, &url, &e.message)),
                None => return Err(self.silent(&url, None)),
            };
            if (200..300).contains(&response.status) {
                return self.read(response, &url, on_delta).await;
            }
            let (status, retry_after) = (response.status, response.retry_after.clone());
            let body = read_text(response.body, 64 << 10).await;
            let detail = diagnose::scrub(&self.settings, &error_detail(&body));

            // A parameter this model does not take (reasoning models refuse `stop`): leave it
            // out and ask again. tao stops at `Observation` itself, so nothing is lost.
            let dropped = self.dropped.borrow().clone();
            let rejected =
                diagnose::rejected_parameter(&self.settings, &dropped, status, &body, &request);
            if let Some(param) = rejected {
                self.dropped.borrow_mut().push(param);
                let note = format!(
                    "the endpoint does not accept \"{param}\" for this model ({detail}); asking again without it"
                );
                on_delta(Delta::Note(&note));
                continue;
            }
            if !request.tools.is_empty() && rejects_tools(status, &detail) {
                return Err(Error::new(
                    ErrorKind::ToolsRejected,
                    format!(
                        "{} rejected native tool calling (HTTP {status}: {detail})",
                        self.settings.model
                    ),
                ));
            }
            let retryable = status == 408 || status == 429 || status >= 500;
            if retryable && retries < MAX_RETRIES {
                retries += 1;
                // Whole seconds: what `Retry-After` holds (an HTTP date there is rare; backoff
                // is used instead).
                let wait = retry_after
                    .as_deref()
                    .and_then(|s| s.trim().parse::<u32>().ok())
                    .map_or(1 << (retries - 1), |s| s.min(MAX_WAIT_S));
                let why = if status == 429 {
                    "rate limited"
                } else {
                    "the server failed"
                };
                let note = format!(
                    "{why} (HTTP {status}); retrying in {wait} s ({retries}/{MAX_RETRIES})"
                );
                if !on_delta(Delta::Note(&note)) {
                    return Err(Error::aborted());
                }
                // Wait in short slices, so an abort is not kept waiting for a long Retry-After.
                let mut left = wait * 1000;
                while left > 0 {
                    if request.abort.is_aborted() {
                        return Err(Error::aborted());
                    }
                    let slice = left.min(250);
                    self.host.sleep(slice).await;
                    left -= slice;
                }
                continue;
            }
            return Err(diagnose(&self.settings, status, &detail, &url, retries));
        }
    }

    /// `future`, unless it takes longer than `ms` (0: no limit).
    async fn within<F: std::future::Future>(&self, ms: u32, future: F) -> Option<F::Output> {
        match ms {
            0 => Some(future.await),
            ms => with_timeout(&*self.host, ms, future).await,
        }
    }

    /// The error for a server that went quiet: before its first byte (`chars` is `None`), or
    /// after `chars` characters of its stream.
    fn silent(&self, url: &str, chars: Option<usize>) -> Error {
        let s = &self.settings;
        let message = match chars {
            None => format!(
                "no response from {url} within {} s (the first byte timeout): the server took the request but sent nothing; check that it is running and not overloaded (a local model may still be loading), or raise First byte timeout",
                s.first_byte_ms / 1000
            ),
            Some(chars) => format!(
                "the stream stalled: nothing arrived for {} s (the idle timeout) after {chars} characters; the text so far is kept. Try again, or raise Idle timeout",
                s.idle_ms / 1000
            ),
        };
        Error::new(ErrorKind::Timeout, diagnose::scrub(s, &message))
    }

    /// Reads a successful response: an SSE stream, or (from a server that ignored `stream`)
    /// one JSON document. A web page is not an API's reply: it is diagnosed, never decoded.
    async fn read(
        &self,
        mut response: HttpResponse,
        url: &str,
        on_delta: OnDelta<'_>,
    ) -> Result<Reply, Error> {
        let provider = self.settings.api.provider();
        let decode = |data: &str, pieces: &mut Vec<Piece>| provider.decode(data, pieces);
        let mut reply = Assembly::default();
        let first_byte = self.settings.first_byte_ms;
        if response.content_type.contains("html") {
            let page = read_text(response.body, 64 << 10);
            let page = self.within(first_byte, page).await.unwrap_or_default();
            return Err(not_an_api(&self.settings, url, &page));
        }
        if response.content_type.contains("json") {
            let body = read_text(response.body, 16 << 20);
            let Some(body) = self.within(first_byte, body).await else {
                return Err(self.silent(url, None));
            };
            let mut pieces = Vec::new();
            decode(&body, &mut pieces).map_err(|e| stream_error(&self.settings, &e))?;
            pieces.push(Piece::Done);
            reply
                .apply(pieces, on_delta)
                .map_err(|e| stream_error(&self.settings, &e))?;
            return self.finish(reply);
        }
        let mut decoder = SseDecoder::new();
        let mut started = false;
        while !reply.done {
            // Until the first byte, the first byte timeout; after it, the idle one.
            let limit = match started {
                false => first_byte,
                true => self.settings.idle_ms,
            };
            let chunk = match self.within(limit, response.body.chunk()).await {
                None => return Err(self.silent(url, started.then_some(reply.chars))),
                Some(Ok(Some(chunk))) => chunk,
                Some(Ok(None)) => break,
                Some(Err(e)) if e.kind == ErrorKind::Aborted => return Err(e),
                Some(Err(e)) => {
                    return Err(stream_error(
                        &self.settings,
                        &format!(
                            "the connection broke after {} characters ({})",
                            reply.chars, e.message
                        ),
                    ))
                }
            };
            // Some servers label event streams `text/plain`; a web page starts with `<`.
            if !started && chunk.trim_ascii_start().first() == Some(&b'<') {
                let rest = read_text(response.body, 64 << 10);
                let rest = self.within(first_byte, rest).await.unwrap_or_default();
                let page = String::from_utf8_lossy(&chunk).into_owned() + &rest;
                return Err(not_an_api(&self.settings, url, &page));
            }
            started |= !chunk.is_empty();
            let mut pieces = Vec::new();
            for event in decoder.push(&chunk).into_iter() {
                decode(&event.data, &mut pieces).map_err(|e| stream_error(&self.settings, &e))?;
            }
            if !reply
                .apply(pieces, on_delta)
                .map_err(|e| stream_error(&self.settings, &e))?
            {
                // The reader stopped the stream: dropping the body closes the connection.
                return self.finish(reply);
            }
        }
        if !reply.done {
            if let Some(event) = decoder.finish() {
                let mut pieces = Vec::new();
                decode(&event.data, &mut pieces).map_err(|e| stream_error(&self.settings, &e))?;
                reply
                    .apply(pieces, on_delta)
                    .map_err(|e| stream_error(&self.settings, &e))?;
            }
        }
        if !reply.done && reply.finished.is_none() {
            return Err(stream_error(&self.settings, &format!(
                "the stream ended early, after {} characters, without its end marker (the connection dropped or the server stopped); the text so far is kept",
                reply.chars
            )));
        }
        self.finish(reply)
    }

    /// The reply, unless the model refused or was cut at the token limit: those end the step
    /// with their own outcome (the text that arrived is kept in the step either way).
    fn finish(&self, reply: Assembly) -> Result<Reply, Error> {
        let s = &self.settings;
        let error = |kind, message: String| Err(Error::new(kind, diagnose::scrub(s, &message)));
        // OpenAI's refusals end with an ordinary stop: the refusal text is what tells.
        let refused = reply.finished == Some(Finish::Refusal) || !reply.refusal.is_empty();
        match reply.finished {
            _ if refused => {
                let said = match reply.refusal.trim() {
                    "" => String::new(),
                    text => format!(": \"{text}\""),
                };
                // What it streamed before refusing (Anthropic's classifier stops a reply already
                // begun) stays in the step; an OpenAI refusal streams no reply at all.
                let kept = match reply.chars {
                    0 => "",
                    _ => " Its reply so far is kept in the step.",
                };
                error(ErrorKind::Refused, format!("the model refused to answer{said}.{kept} Rephrase the task, or try another model"))
            }
            Some(Finish::Length) => {
                let limit = match s.api.provider().max_tokens(s) {
                    Some(n) => format!("{n} tokens"),
                    None => "the provider's default; tao sent none".into(),
                };
                error(ErrorKind::Truncated, format!("the reply was cut at the token limit ({limit}): raise Max tokens and run again. The partial reply is kept in the step; an action in it is not run"))
            }
            _ => Ok(reply.finish()),
        }
    }
}

impl Model for HttpModel {
    fn name(&self) -> String {
        format!("{}:{}", self.settings.api.name(), self.settings.model)
    }

    fn complete<'a>(
        &'a self,
        request: Request<'a>,
        on_delta: OnDelta<'a>,
    ) -> LocalBoxFuture<'a, Result<Reply, Error>> {
        Box::pin(self.call(request, on_delta))
    }
}

/// Reads a whole (error) body, up to `limit` bytes, as text; a broken body reads as empty.
async fn read_text(body: Box<dyn Body>, limit: usize) -> String {
    let bytes = match read_body(body, limit).await {
        Ok(Whole { bytes, .. }) => bytes,
        Err(_) => Vec::new(),
    };
    String::from_utf8_lossy(&bytes).into_owned()
}
