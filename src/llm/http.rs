//! A model behind an HTTP API: sending the request, reading the stream, and failing well.
//!
//! This file holds what both providers share, in pure Rust: the request goes out through a
//! [`Transport`] (the browser's `fetch` in the bindings; a recorded one in tests), the reply is
//! read chunk by chunk through the SSE decoder and the provider's `decode`, and every delta
//! goes straight to the reader, who may stop the stream at once (the client-side stop at a
//! hallucinated `Observation`: dropping the body closes the connection, so the provider stops
//! generating and stops billing).
//!
//! Failures are where users lose an afternoon, so each one is turned into an error that names
//! the cause and the fix: CORS and network failures (with the hint that applies: Ollama needs
//! `OLLAMA_ORIGINS`, a server may send no CORS headers), a refused key, a wrong base URL or
//! model, a prompt too long for the context window. Rate limits and server errors are retried
//! with backoff, honouring `Retry-After`, a bounded number of times, and each wait is shown to
//! the user as a note. A parameter the model rejects (reasoning models refuse `stop`) is
//! dropped and the request sent again: tao enforces the stop itself anyway. The API key is
//! never part of any message: text from the server is scrubbed of it before it is shown.

use super::sse::SseDecoder;
use super::{anthropic, openai, Delta, Message, Model, OnDelta, Reply, Request, Role, ToolCall};
use crate::error::{Error, ErrorKind};
use crate::host::{Abort, Host, LocalBoxFuture};
use crate::to_json::{JsonWriter, ToJson};
use crate::trajectory::Usage;
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;

/// Which wire format an endpoint speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    /// OpenAI Chat Completions (and every compatible server).
    OpenAi,
    /// Anthropic Messages.
    Anthropic,
}

impl Api {
    /// `openai` or `anthropic`.
    pub fn from_name(name: &str) -> Option<Api> {
        match name.trim().to_ascii_lowercase().as_str() {
            "openai" | "openai-compatible" | "ollama" => Some(Api::OpenAi),
            "anthropic" | "claude" => Some(Api::Anthropic),
            _ => None,
        }
    }
    /// The short name.
    pub fn name(self) -> &'static str {
        match self {
            Api::OpenAi => "openai",
            Api::Anthropic => "anthropic",
        }
    }
}

/// Where and how to reach a model. The key is held here and in the request's header, and
/// nowhere else: it is not part of the model's name, of errors or of events.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The wire format.
    pub api: Api,
    /// e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1`, `https://api.anthropic.com`.
    pub base_url: String,
    /// The model's name at that endpoint.
    pub model: String,
    /// The API key; empty for local servers that need none.
    pub key: String,
    /// Sampling temperature; `None` leaves the provider's default.
    pub temperature: Option<f64>,
    /// Most tokens per reply; `None` leaves the provider's default (Anthropic: 1024).
    pub max_tokens: Option<u32>,
}

/// How a request is sent: models are POSTed a JSON body; a wiki is read with plain GETs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// A read: everything is in the URL, and the body is not sent.
    Get,
    /// The body is sent.
    Post,
}

/// An HTTP request, ready to send.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpRequest {
    /// GET or POST.
    pub method: Method,
    /// The full URL.
    pub url: String,
    /// Header names (lowercase) and values. A GET carries none: a request with only "simple"
    /// headers needs no CORS preflight, and servers like MediaWiki answer no preflight.
    pub headers: Vec<(&'static str, String)>,
    /// The JSON body of a POST (empty for a GET).
    pub body: String,
}

/// The start of an HTTP response; the body is read chunk by chunk.
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// The `Retry-After` header, when the server sent one (and CORS lets the page read it).
    pub retry_after: Option<String>,
    /// The `Content-Type` header.
    pub content_type: String,
    /// The body.
    pub body: Box<dyn Body>,
}

/// A response body being received. Dropping it cancels the request: that is how a stream is
/// stopped early.
pub trait Body {
    /// The next chunk of bytes, or `None` at the end.
    fn chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, Error>>;
}

/// Sends HTTP requests (the browser's `fetch`, or a recording in tests). A failure to get any
/// response at all is an error of kind [`ErrorKind::Network`] (or `Aborted`) with the
/// transport's own words; the model turns it into advice.
pub trait Transport {
    /// Sends `request` and resolves when the response's status and headers are in.
    fn send(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, Error>>;
}

/// What a provider's stream decoder found in one event.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    /// Reply text.
    Text(String),
    /// A native tool call begins (its arguments follow as `ToolArgs`).
    ToolStart {
        /// The call's position in the reply.
        index: usize,
        /// The provider's id for the call.
        id: String,
        /// The tool's name.
        name: String,
    },
    /// A fragment of a tool call's JSON arguments.
    ToolArgs {
        /// The call's position in the reply.
        index: usize,
        /// The fragment.
        json: String,
    },
    /// Token counts (either may be missing; later counts replace earlier ones).
    Usage {
        /// Prompt tokens.
        prompt: Option<u64>,
        /// Completion tokens.
        completion: Option<u64>,
    },
    /// The model finished its reply (a stop reason arrived); usage may still follow.
    Finished,
    /// The stream is complete.
    Done,
    /// The provider reported an error inside the stream.
    Error(String),
}

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
        let s = &self.settings;
        let dropped = self.dropped.borrow();
        let (url, headers, body) = match s.api {
            Api::OpenAi => (
                openai::url(&s.base_url),
                openai::headers(&s.key),
                openai::body(request, s, &dropped),
            ),
            Api::Anthropic => (
                anthropic::url(&s.base_url),
                anthropic::headers(&s.key),
                anthropic::body(request, s, &dropped),
            ),
        };
        HttpRequest {
            method: Method::Post,
            url,
            headers,
            body,
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
            let response = match self.transport.send(http).await {
                Ok(response) => response,
                Err(e) if e.kind == ErrorKind::Aborted => return Err(e),
                Err(e) => return Err(self.unreachable(&url, &e.message)),
            };
            if (200..300).contains(&response.status) {
                return self.read(response, on_delta).await;
            }
            let (status, retry_after) = (response.status, response.retry_after.clone());
            let body = read_all(response.body, 64 << 10).await;
            let detail = self.scrub(&error_detail(&body));

            // A parameter this model does not take (reasoning models refuse `stop`): leave it
            // out and ask again. tao stops at `Observation` itself, so nothing is lost.
            if let Some(param) = self.rejected_parameter(status, &body, &request) {
                self.dropped.borrow_mut().push(param);
                let note = format!(
                    "the endpoint does not accept \"{param}\" for this model ({detail}); asking again without it"
                );
                on_delta(Delta::Note(&note));
                continue;
            }
            if !request.tools.is_empty()
                && (400..500).contains(&status)
                && status != 401
                && status != 403
                && status != 429
                && detail.to_ascii_lowercase().contains("tool")
            {
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
            return Err(self.diagnose(status, &detail, &url, retries));
        }
    }

    /// Reads a successful response: an SSE stream, or (from a server that ignored `stream`)
    /// one JSON document.
    async fn read(
        &self,
        mut response: HttpResponse,
        on_delta: OnDelta<'_>,
    ) -> Result<Reply, Error> {
        let api = self.settings.api;
        let decode = |data: &str, pieces: &mut Vec<Piece>| match api {
            Api::OpenAi => openai::decode(data, pieces),
            Api::Anthropic => anthropic::decode(data, pieces),
        };
        let mut reply = Assembly::default();
        if response.content_type.contains("json") {
            let body = read_all(response.body, 16 << 20).await;
            let mut pieces = Vec::new();
            decode(&body, &mut pieces).map_err(|e| self.stream_error(&e))?;
            pieces.push(Piece::Done);
            reply
                .apply(pieces, on_delta)
                .map_err(|e| self.stream_error(&e))?;
            return Ok(reply.finish());
        }
        let mut decoder = SseDecoder::new();
        while !reply.done {
            let chunk = match response.body.chunk().await {
                Ok(Some(chunk)) => chunk,
                Ok(None) => break,
                Err(e) if e.kind == ErrorKind::Aborted => return Err(e),
                Err(e) => {
                    return Err(self.stream_error(&format!(
                        "the connection broke after {} characters ({})",
                        reply.chars, e.message
                    )))
                }
            };
            let mut pieces = Vec::new();
            for event in decoder.push(&chunk).into_iter() {
                decode(&event.data, &mut pieces).map_err(|e| self.stream_error(&e))?;
            }
            if !reply
                .apply(pieces, on_delta)
                .map_err(|e| self.stream_error(&e))?
            {
                // The reader stopped the stream: dropping the body closes the connection.
                return Ok(reply.finish());
            }
        }
        if !reply.done {
            if let Some(event) = decoder.finish() {
                let mut pieces = Vec::new();
                decode(&event.data, &mut pieces).map_err(|e| self.stream_error(&e))?;
                reply
                    .apply(pieces, on_delta)
                    .map_err(|e| self.stream_error(&e))?;
            }
        }
        if !reply.done && !reply.finished {
            return Err(self.stream_error(&format!(
                "the stream ended early, after {} characters, without its end marker (the connection dropped or the server stopped); the text so far is kept",
                reply.chars
            )));
        }
        Ok(reply.finish())
    }

    /// Which rejected parameter a 400 names, if it is one tao can do without.
    fn rejected_parameter(
        &self,
        status: u16,
        body: &str,
        request: &Request,
    ) -> Option<&'static str> {
        if status != 400 && status != 422 {
            return None;
        }
        let lower = body.to_ascii_lowercase();
        let candidates: &[&'static str] = match self.settings.api {
            Api::OpenAi => &["stop", "stream_options", "temperature", "max_tokens"],
            Api::Anthropic => &["stop_sequences", "temperature"],
        };
        let dropped = self.dropped.borrow();
        candidates.iter().copied().find(|&p| {
            let sent = match p {
                "stop" | "stop_sequences" => !request.stop.is_empty(),
                "temperature" => self.settings.temperature.is_some(),
                "max_tokens" => self.settings.max_tokens.is_some(),
                _ => true,
            };
            sent && !dropped.contains(&p)
                && (lower.contains(&format!("'{p}'"))
                    || lower.contains(&format!("\"{p}\""))
                    || lower.contains(&format!("`{p}`"))
                    || lower.contains(&format!("\"param\":\"{p}\""))
                    || lower.contains(&format!("{p}: ")))
        })
    }

    /// The error for a request that got no response at all, with the hint that applies.
    fn unreachable(&self, url: &str, cause: &str) -> Error {
        let base = self.settings.base_url.to_ascii_lowercase();
        let local = ["localhost", "127.0.0.1", "[::1]", "0.0.0.0"]
            .iter()
            .any(|h| base.contains(h));
        let hint = if base.contains(":11434") || base.contains("ollama") {
            "Ollama answers web pages only when started with OLLAMA_ORIGINS set, e.g. OLLAMA_ORIGINS=\"*\" ollama serve (and it must be running)"
        } else if self.settings.api == Api::Anthropic {
            "check the base URL (https://api.anthropic.com) and your connection; tao sends the anthropic-dangerous-direct-browser-access header browsers need"
        } else if local {
            "is the server running at that address? It must also allow cross-origin requests (LM Studio: enable CORS in the server settings; llama.cpp and vLLM: allow the page's origin)"
        } else {
            "the server may not send CORS headers (browsers then block the response; the browser console says \"CORS\"), the base URL may be wrong, or you are offline"
        };
        Error::new(
            ErrorKind::Network,
            self.scrub(&format!("could not reach {url} ({cause}): {hint}")),
        )
    }

    /// The error for an HTTP failure that is not worth retrying (or no longer).
    fn diagnose(&self, status: u16, detail: &str, url: &str, retries: u32) -> Error {
        let s = &self.settings;
        let lower = detail.to_ascii_lowercase();
        let too_long = [
            "context_length",
            "context length",
            "context window",
            "too long",
            "maximum context",
            "too many tokens",
        ]
        .iter()
        .any(|m| lower.contains(m));
        let (kind, message) = match status {
            401 | 403 if lower.contains("cors") || lower.contains("browser-access") => (
                ErrorKind::Auth,
                format!("{} refused a request from a web page (HTTP {status}: {detail}); Anthropic needs the header anthropic-dangerous-direct-browser-access: true", s.api.name()),
            ),
            401 | 403 => (
                ErrorKind::Auth,
                format!("the endpoint refused the API key (HTTP {status}: {detail}); check that the key is right, belongs to this provider, and may use the model \"{}\"", s.model),
            ),
            404 if lower.contains("model") => (
                ErrorKind::NotFound,
                format!("the model \"{}\" was not found (HTTP 404: {detail}); check its exact name (for Ollama: ollama pull {})", s.model, s.model),
            ),
            404 => (
                ErrorKind::NotFound,
                format!("nothing answers at {url} (HTTP 404: {detail}); the base URL is probably wrong: OpenAI-compatible ones usually end in /v1 (http://localhost:11434/v1 for Ollama)"),
            ),
            400 | 413 | 422 if too_long => (
                ErrorKind::TooLong,
                format!("the prompt is longer than the model's context window (HTTP {status}: {detail}); lower the step budget, shorten the task, or pick a model with a longer context"),
            ),
            429 => (
                ErrorKind::RateLimited,
                format!("rate limited (HTTP 429) after {retries} retries: {detail}; wait a minute, or check your plan's limits and billing"),
            ),
            408 | 500.. => (
                ErrorKind::Server,
                format!("the server failed (HTTP {status}) after {retries} retries: {detail}; try again later"),
            ),
            _ => (
                ErrorKind::Model,
                format!("the endpoint rejected the request (HTTP {status}: {detail})"),
            ),
        };
        Error::new(kind, self.scrub(&message))
    }

    fn stream_error(&self, problem: &str) -> Error {
        Error::new(
            ErrorKind::Server,
            self.scrub(&format!(
                "{} stream failed: {problem}",
                self.settings.api.name()
            )),
        )
    }

    /// `text` without the API key in it (servers sometimes echo part or all of it).
    fn scrub(&self, text: &str) -> String {
        redact(text, &self.settings.key)
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

/// A tool call whose arguments are still arriving.
struct PendingCall {
    index: usize,
    call: ToolCall,
    json: String,
}

/// What a connection test found.
#[derive(Clone, Debug, PartialEq)]
pub struct ConnectionReport {
    /// The model, as `provider:name`.
    pub model: String,
    /// What it replied.
    pub reply: String,
    /// How many deltas the reply came in (more than one: streaming works).
    pub deltas: u32,
    /// From sending to the first text.
    pub first_token_ms: Option<f64>,
    /// From sending to the end of the reply.
    pub total_ms: f64,
    /// Token counts, if the endpoint reports them.
    pub usage: Option<Usage>,
    /// Retries and dropped parameters on the way.
    pub notes: Vec<String>,
}

impl ToJson for ConnectionReport {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[
            ("model", &self.model),
            ("reply", &self.reply),
            ("deltas", &self.deltas),
            ("first_token_ms", &self.first_token_ms),
            ("total_ms", &self.total_ms),
            ("usage", &self.usage),
            ("notes", &self.notes),
        ]);
    }
}

/// Sends a tiny request ("say OK") and reports what came back, or the diagnosed error: the
/// page's "Test connection" button.
pub async fn test_connection(
    model: &dyn Model,
    host: &dyn Host,
) -> Result<ConnectionReport, Error> {
    let messages = [
        Message::new(
            Role::System,
            "This is a connection test. Reply with the single word OK.",
        ),
        Message::new(Role::User, "Say OK."),
    ];
    let abort = Abort::default();
    let request = Request {
        messages: &messages,
        stop: &[],
        tools: &[],
        abort: &abort,
    };
    let started = host.now_ms();
    let (mut reply, mut deltas, mut first_token_ms, mut notes) =
        (String::new(), 0, None, Vec::new());
    let result = model
        .complete(request, &mut |delta| {
            match delta {
                Delta::Text(text) => {
                    first_token_ms.get_or_insert_with(|| host.now_ms() - started);
                    deltas += 1;
                    reply.push_str(text);
                }
                Delta::Note(note) => notes.push(note.to_string()),
            }
            true
        })
        .await?;
    Ok(ConnectionReport {
        model: model.name(),
        reply,
        deltas,
        first_token_ms,
        total_ms: host.now_ms() - started,
        usage: result.usage,
        notes,
    })
}

/// A reply being put together from pieces.
#[derive(Default)]
struct Assembly {
    calls: Vec<PendingCall>,
    usage: Option<Usage>,
    chars: usize,
    finished: bool,
    done: bool,
}

impl Assembly {
    /// Applies `pieces`; `Ok(false)` when the reader stopped the stream.
    fn apply(&mut self, pieces: Vec<Piece>, on_delta: OnDelta<'_>) -> Result<bool, String> {
        for piece in pieces {
            match piece {
                Piece::Text(text) => {
                    self.chars += text.chars().count();
                    if !on_delta(Delta::Text(&text)) {
                        return Ok(false);
                    }
                }
                Piece::ToolStart { index, id, name } => match self.pending(index) {
                    Some(pending) => {
                        pending.call.name.push_str(&name);
                        if pending.call.id.is_empty() {
                            pending.call.id = id;
                        }
                    }
                    None => self.calls.push(PendingCall {
                        index,
                        call: ToolCall {
                            id,
                            name,
                            arguments: Value::Null,
                        },
                        json: String::new(),
                    }),
                },
                Piece::ToolArgs { index, json } => match self.pending(index) {
                    Some(pending) => pending.json.push_str(&json),
                    None => {
                        return Err(format!(
                            "arguments arrived for tool call {index}, which never started"
                        ))
                    }
                },
                Piece::Usage { prompt, completion } => {
                    let usage = self.usage.get_or_insert_with(Usage::default);
                    usage.prompt_tokens = prompt.unwrap_or(usage.prompt_tokens);
                    usage.completion_tokens = completion.unwrap_or(usage.completion_tokens);
                }
                Piece::Finished => self.finished = true,
                Piece::Done => self.done = true,
                Piece::Error(message) => {
                    return Err(format!(
                        "the endpoint reported an error mid-stream: {message}"
                    ))
                }
            }
        }
        Ok(true)
    }

    fn pending(&mut self, index: usize) -> Option<&mut PendingCall> {
        self.calls.iter_mut().find(|c| c.index == index)
    }

    fn finish(self) -> Reply {
        let tool_calls = self
            .calls
            .into_iter()
            .map(|PendingCall { mut call, json, .. }| {
                // Arguments that are not JSON are passed on as text: the tool's input
                // validation then tells the model what it expected.
                call.arguments = match json.trim() {
                    "" => Value::Object(Default::default()),
                    text => serde_json::from_str(text).unwrap_or(Value::String(json)),
                };
                call
            })
            .collect();
        Reply {
            usage: self.usage,
            tool_calls,
            unsent_chars: 0,
        }
    }
}

/// Reads a whole (error) body, up to `limit` bytes, as text; a broken body reads as empty.
async fn read_all(mut body: Box<dyn Body>, limit: usize) -> String {
    let mut bytes = Vec::new();
    while let Ok(Some(chunk)) = body.chunk().await {
        bytes.extend_from_slice(&chunk);
        if bytes.len() >= limit {
            bytes.truncate(limit);
            break;
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The useful sentence of an error body: `error.message` in both APIs' JSON (and Ollama's
/// `{"error": "..."}`), else the start of the text.
pub fn error_detail(body: &str) -> String {
    match serde_json::from_str::<Value>(body) {
        Ok(v) if !v["error"].is_null() => error_text(&v["error"]),
        Ok(v) if v["message"].is_string() => v["message"].as_str().unwrap_or_default().into(),
        _ if body.trim().is_empty() => "no details".into(),
        _ => preview(body.trim(), 300),
    }
}

/// The message of an `error` value: a string, or an object with `message` (and `type`/`code`).
pub fn error_text(error: &Value) -> String {
    if let Some(text) = error.as_str() {
        return text.to_string();
    }
    let message = error["message"].as_str().unwrap_or("no message");
    match error["code"].as_str().or(error["type"].as_str()) {
        Some(code) => format!("{message} [{code}]"),
        None => message.to_string(),
    }
}

/// The message for a chunk that is not JSON.
pub fn bad_json(data: &str, error: &serde_json::Error) -> String {
    format!(
        "a chunk is not valid JSON ({error}): {}",
        preview(data, 120)
    )
}

/// `text` without any copy of `key` (keys shorter than 8 characters are not secrets worth the
/// false positives).
pub fn redact(text: &str, key: &str) -> String {
    let key = key.trim();
    if key.len() < 8 {
        return text.to_string();
    }
    text.replace(key, "[key]")
}

fn preview(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}
