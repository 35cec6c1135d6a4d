//! A connection to one server over Streamable HTTP: the era found by the first request (modern,
//! or older with the `initialize` handshake and a session), one JSON-RPC request per POST, the
//! answer read from JSON or from an event stream, and every failure worded for the person who
//! can fix it.

use super::tools::{header_value, listed, param_headers, Listed};
use super::{observation, Server, LEGACY, MODERN};
use crate::error::{Error, ErrorKind};
use crate::http::{read_body, HttpRequest, HttpResponse, Method, Transport, Whole};
use crate::json::{self, Map, Value};
use crate::llm::diagnose::{page_summary, preview};
use crate::llm::sse::SseDecoder;
use crate::tools::{ToolError, ToolOutput};
use std::cell::{Cell, RefCell};

/// The JSON-RPC error codes only a modern server sends: a server that answers with one of them
/// speaks the modern protocol, whatever else went wrong.
const UNSUPPORTED_VERSION: i64 = -32022;
const MODERN_ERRORS: &[i64] = &[UNSUPPORTED_VERSION, -32021, -32020];
/// "Invalid params": the arguments did not fit the tool (the model's mistake).
const INVALID_PARAMS: i64 = -32602;
/// The largest reply read (a tool's result is text for a prompt; an image is summarised).
const MAX_REPLY: usize = 16 << 20;
/// Pages of `tools/list` read at most (a server that never stops paging is cut there).
const MAX_PAGES: usize = 20;

thread_local! {
    /// The older servers met, by URL, with the version agreed: a new connection to one of them
    /// opens with the handshake.
    static ERAS: RefCell<Vec<(String, String)>> = const { RefCell::new(Vec::new()) };
}

/// Which generation of the protocol a server speaks, once known.
#[derive(Clone, Debug, PartialEq)]
enum Era {
    /// Not asked yet.
    Unknown,
    /// Stateless, at this version.
    Modern(String),
    /// After `initialize`, at this version, in this session (if the server keeps one and the
    /// page may read its id).
    Legacy {
        version: String,
        session: Option<String>,
    },
}

/// A connection to one server: its era and session, shared by the run's calls.
pub struct Client {
    server: Server,
    /// The page's origin, for the advice when the browser refuses the server's CORS answer
    /// (`None` outside a page).
    origin: Option<String>,
    era: RefCell<Era>,
    /// Whether the handshake was made (an older server's era may be known from before).
    opened: Cell<bool>,
    next_id: Cell<u64>,
}

/// A JSON-RPC answer: the result, or the error.
enum Answer {
    Result(Value),
    Error {
        code: i64,
        message: String,
        data: Value,
    },
}

/// What one POST brought back.
struct Exchange {
    status: u16,
    session: Option<String>,
    /// The JSON-RPC answer to the request, if the body held one.
    answer: Option<Answer>,
    /// The body, when it was JSON or no JSON at all (for the error: a failure's answer is
    /// quoted with its status).
    text: String,
}

impl Client {
    /// A connection to `server`, not opened yet: the first request finds its era, unless a
    /// connection to the same URL found it before (the specification asks clients to keep it:
    /// an older server is not sent the modern request it refuses again).
    pub fn new(server: Server, origin: Option<String>) -> Client {
        let known = ERAS.with(|eras| {
            let eras = eras.borrow();
            eras.iter()
                .find(|(url, _)| url == &server.url)
                .map(|(_, v)| v.clone())
        });
        let era = match known {
            Some(version) => Era::Legacy {
                version,
                session: None,
            },
            None => Era::Unknown,
        };
        Client {
            server,
            origin,
            era: RefCell::new(era),
            opened: Cell::new(false),
            next_id: Cell::new(1),
        }
    }

    /// The server's URL.
    pub fn url(&self) -> &str {
        &self.server.url
    }

    /// The setting this connection was made from.
    pub fn server(&self) -> &Server {
        &self.server
    }

    /// The server's tools, all pages of `tools/list`. Tools whose `x-mcp-header` annotations
    /// break the specification's rules are left out, as it asks.
    pub async fn list(&self, transport: &dyn Transport) -> Result<Vec<Listed>, Error> {
        let mut tools = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let mut params = Map::new();
            if let Some(cursor) = cursor.take() {
                params.insert("cursor".into(), Value::String(cursor));
            }
            let result = match self.request(transport, "tools/list", params, None).await? {
                Answer::Result(result) => result,
                Answer::Error { code, message, .. } => {
                    return Err(self.failed(&format!(
                        "refused to list its tools (error {code}: {message})"
                    )))
                }
            };
            let Some(page) = result["tools"].as_array() else {
                return Err(self.failed("answered tools/list without a list of tools"));
            };
            tools.extend(page.iter().filter_map(listed));
            match result["nextCursor"].as_str() {
                Some(next) if !next.is_empty() => cursor = Some(next.to_string()),
                _ => break,
            }
        }
        Ok(tools)
    }

    /// Calls `tool` with `arguments` (already checked against its schema): the observation,
    /// or the failure (an input the server refused as invalid is the model's to repair).
    pub async fn call(
        &self,
        transport: &dyn Transport,
        tool: &Listed,
        arguments: &Value,
    ) -> Result<ToolOutput, ToolError> {
        let mut params = Map::new();
        params.insert("name".into(), Value::String(tool.name.clone()));
        params.insert("arguments".into(), arguments.clone());
        let mirrored = param_headers(tool, arguments);
        let call = (&tool.name, mirrored.as_slice());
        match self
            .request(transport, "tools/call", params, Some(call))
            .await
        {
            Err(e) => Err(ToolError::Failed(e.message)),
            Ok(Answer::Error { code, message, .. }) if code == INVALID_PARAMS => {
                Err(ToolError::BadInput(message))
            }
            Ok(Answer::Error { code, message, .. }) => Err(ToolError::Failed(format!(
                "the server answered error {code}: {message}"
            ))),
            Ok(Answer::Result(result)) => observation(&result),
        }
    }

    /// Sends one request in the server's era, finding the era first if it is not known, and
    /// opening a dropped session again once.
    async fn request(
        &self,
        transport: &dyn Transport,
        method: &str,
        params: Map,
        call: Option<(&String, &[(String, String)])>,
    ) -> Result<Answer, Error> {
        let mut reopened = false;
        loop {
            let era = self.era.borrow().clone();
            match era {
                Era::Unknown => {
                    if let Some(answer) = self.probe(transport, method, &params, call).await? {
                        return Ok(answer);
                    }
                }
                // Known to be modern: a refusal is its answer (arguments refused with HTTP
                // 400 are still the model's to repair), not a sign of another era.
                Era::Modern(version) => {
                    let exchange = self
                        .modern(transport, &version, method, &params, call)
                        .await?;
                    return self.answer(exchange);
                }
                // Known to be an older server, not opened yet: the handshake first.
                Era::Legacy { version, .. } if !self.opened.get() => {
                    self.initialize(transport, &version).await?;
                }
                Era::Legacy { version, session } => {
                    let exchange = self
                        .legacy(transport, &version, session.as_deref(), method, &params)
                        .await?;
                    // A session the server no longer knows (it restarted, or ended it): a
                    // new one, once. A 400 about something else is the server's answer.
                    let dropped = match exchange.status {
                        404 => true,
                        400 => session.is_some() && about_session(&exchange),
                        _ => false,
                    };
                    if dropped && !reopened {
                        reopened = true;
                        self.initialize(transport, &version).await?;
                        continue;
                    }
                    if exchange.status == 400 && session.is_none() && about_session(&exchange) {
                        return Err(self.unread_session());
                    }
                    return self.answer(exchange);
                }
            }
        }
    }

    /// The first request to a server of unknown era, sent the modern way: the answer if the
    /// server is modern, or `None` once the era is found another way (a version chosen, or the
    /// handshake of an older server made), for the request to be sent again.
    async fn probe(
        &self,
        transport: &dyn Transport,
        method: &str,
        params: &Map,
        call: Option<(&String, &[(String, String)])>,
    ) -> Result<Option<Answer>, Error> {
        match self.modern(transport, MODERN, method, params, call).await {
            Ok(exchange) => match self.modern_answer(exchange)? {
                Some(Answer::Error { code, data, .. }) if code == UNSUPPORTED_VERSION => {
                    self.choose(&data["supported"], transport).await?;
                    Ok(None)
                }
                Some(answer) => {
                    *self.era.borrow_mut() = Era::Modern(MODERN.into());
                    Ok(Some(answer))
                }
                // Not a modern server: the handshake, then again.
                None => self.initialize(transport, LEGACY[0]).await.map(|()| None),
            },
            // The modern request may fail where the older one does not: a server whose CORS
            // answer lists only the older headers refuses the request before it is sent. The
            // handshake says which it is, and an answer to it says more than no answer did.
            Err(e) if e.kind == ErrorKind::Network => {
                match self.initialize(transport, LEGACY[0]).await {
                    Ok(()) => Ok(None),
                    Err(again) if again.kind == ErrorKind::Network => Err(e),
                    Err(again) => Err(again),
                }
            }
            Err(e) => Err(e),
        }
    }

    /// What a modern request's reply says: the answer, or `None` when the server is not a
    /// modern one (a refusal with no modern error in it).
    fn modern_answer(&self, exchange: Exchange) -> Result<Option<Answer>, Error> {
        let modern_error = match &exchange.answer {
            Some(Answer::Error { code, .. }) => {
                MODERN_ERRORS.contains(code) || (exchange.status == 404 && *code == -32601)
            }
            _ => false,
        };
        match exchange.status {
            400 | 404 | 405 | 406 | 415 | 422 if !modern_error => Ok(None),
            // Some older servers answer a request without a session with a JSON-RPC error
            // and a success status.
            200..=299 if matches!(&exchange.answer, Some(Answer::Error { code, .. }) if *code == -32000) => {
                Ok(None)
            }
            _ => self.answer(exchange).map(Some),
        }
    }

    /// The answer of a reply, or the error its status or body says.
    fn answer(&self, exchange: Exchange) -> Result<Answer, Error> {
        let Exchange {
            status,
            answer,
            text,
            ..
        } = exchange;
        if let (200..=299 | 400 | 404, Some(answer)) = (status, answer) {
            return Ok(answer);
        }
        let sent_auth = self
            .server
            .headers
            .iter()
            .any(|(name, _)| name == "authorization");
        Err(match status {
            401 if sent_auth => Error::new(
                ErrorKind::Auth,
                format!("the MCP server {} refused the token (HTTP 401): check the Authorization header you gave it", self.url()),
            ),
            401 => Error::new(
                ErrorKind::Auth,
                format!("the MCP server {} needs a token (HTTP 401): give it one (it is sent as Authorization: Bearer <token>)", self.url()),
            ),
            403 => Error::new(
                ErrorKind::Auth,
                format!(
                    "the MCP server {} refused this request (HTTP 403): the token is not allowed, or the server does not accept requests from {}",
                    self.url(),
                    self.origin.as_deref().unwrap_or("this origin")
                ),
            ),
            // A server that does not take POST at all (a plain web server's "501 Unsupported
            // method") is no MCP endpoint.
            501 => self.not_mcp("it does not take POST requests (HTTP 501)"),
            500..=599 => match page_summary(&text) {
                Some(page) => Error::new(
                    ErrorKind::Server,
                    format!("the MCP server {} failed (HTTP {status}, {page})", self.url()),
                ),
                None => Error::new(
                    ErrorKind::Server,
                    format!("the MCP server {} failed (HTTP {status}){}", self.url(), detail(&text)),
                ),
            },
            200..=299 => match page_summary(&text) {
                Some(page) => self.not_mcp(&format!("it answered with {page}")),
                None if text.trim().is_empty() => self.failed("answered with an empty reply"),
                None if binary(&text) => self.not_mcp("it answered with a file that is not text"),
                None => self.failed(&format!("sent a malformed reply{}", detail(&text))),
            },
            _ => match page_summary(&text) {
                Some(page) => self.not_mcp(&format!("it answered HTTP {status} with {page}")),
                None => self.not_mcp(&format!("it answered HTTP {status}{}", detail(&text))),
            },
        })
    }

    /// Picks a version from a modern server's `supported` list: a modern one tao speaks, else
    /// an older one, with the handshake.
    async fn choose(&self, supported: &Value, transport: &dyn Transport) -> Result<(), Error> {
        let theirs: Vec<&str> = supported
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if theirs.contains(&MODERN) && *self.era.borrow() == Era::Unknown {
            // It listed the version it refused: nothing to choose.
            return Err(self.versions(&theirs));
        }
        match LEGACY.iter().find(|v| theirs.contains(v)) {
            Some(version) => self.initialize(transport, version).await,
            None => Err(self.versions(&theirs)),
        }
    }

    /// The handshake of the older revisions: `initialize`, then `notifications/initialized`.
    async fn initialize(&self, transport: &dyn Transport, version: &str) -> Result<(), Error> {
        let params = crate::json!({
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "tao", "version": env!("CARGO_PKG_VERSION")},
        });
        let params = params.as_object().cloned().unwrap_or_default();
        let exchange = self
            .legacy(transport, version, None, "initialize", &params)
            .await?;
        let session = exchange.session.clone();
        let result = match self.answer(exchange)? {
            Answer::Result(result) => result,
            Answer::Error { code, message, .. } => {
                return Err(self.not_mcp(&format!(
                    "it refused the handshake (error {code}: {message})"
                )))
            }
        };
        let agreed = result["protocolVersion"].as_str().unwrap_or_default();
        if !LEGACY.contains(&agreed) {
            return Err(self.versions(&[agreed]));
        }
        *self.era.borrow_mut() = Era::Legacy {
            version: agreed.to_string(),
            session: session.clone(),
        };
        self.opened.set(true);
        ERAS.with(|eras| {
            let mut eras = eras.borrow_mut();
            eras.retain(|(url, _)| url != &self.server.url);
            eras.push((self.server.url.clone(), agreed.to_string()));
        });
        let body = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_string();
        let request = self.post(body, self.legacy_headers(agreed, session.as_deref()));
        let response = self.send(transport, request).await?;
        match response.status {
            200..=299 => Ok(()),
            400 if session.is_none() => Err(self.unread_session()),
            status => Err(self.not_mcp(&format!(
                "it refused the end of the handshake (HTTP {status})"
            ))),
        }
    }

    /// A modern request: stateless, everything about the client in `_meta` and the headers.
    async fn modern(
        &self,
        transport: &dyn Transport,
        version: &str,
        method: &str,
        params: &Map,
        call: Option<(&String, &[(String, String)])>,
    ) -> Result<Exchange, Error> {
        let mut params = params.clone();
        let meta = crate::json!({
            "io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientInfo": {"name": "tao", "version": env!("CARGO_PKG_VERSION")},
            "io.modelcontextprotocol/clientCapabilities": {},
        });
        params.insert("_meta".into(), meta);
        let mut headers = self.common_headers();
        headers.push(("mcp-protocol-version".into(), version.into()));
        headers.push(("mcp-method".into(), method.into()));
        if let Some((name, mirrored)) = call {
            headers.push(("mcp-name".into(), header_value(name)));
            headers.extend(mirrored.iter().cloned());
        }
        self.exchange(transport, method, Value::Object(params), headers)
            .await
    }

    /// A request of the older revisions, in `session` if there is one.
    async fn legacy(
        &self,
        transport: &dyn Transport,
        version: &str,
        session: Option<&str>,
        method: &str,
        params: &Map,
    ) -> Result<Exchange, Error> {
        let mut headers = self.legacy_headers(version, session);
        if method == "initialize" {
            // The version is agreed by the handshake itself.
            headers.retain(|(name, _)| name != "mcp-protocol-version");
        }
        self.exchange(transport, method, Value::Object(params.clone()), headers)
            .await
    }

    fn legacy_headers(&self, version: &str, session: Option<&str>) -> Vec<(String, String)> {
        let mut headers = self.common_headers();
        headers.push(("mcp-protocol-version".into(), version.into()));
        if let Some(session) = session {
            headers.push(("mcp-session-id".into(), session.into()));
        }
        headers
    }

    fn common_headers(&self) -> Vec<(String, String)> {
        let mut headers = vec![
            ("content-type".to_string(), "application/json".to_string()),
            (
                "accept".to_string(),
                "application/json, text/event-stream".to_string(),
            ),
        ];
        headers.extend(self.server.headers.iter().cloned());
        headers
    }

    fn post(&self, body: String, headers: Vec<(String, String)>) -> HttpRequest {
        HttpRequest {
            method: Method::Post,
            url: self.server.url.clone(),
            headers,
            body,
        }
    }

    /// Sends one JSON-RPC request and reads its answer, whether the server replies with JSON
    /// or with an event stream (notifications first, then the answer).
    async fn exchange(
        &self,
        transport: &dyn Transport,
        method: &str,
        params: Value,
        headers: Vec<(String, String)>,
    ) -> Result<Exchange, Error> {
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        let body = crate::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let body = crate::to_json::to_string(&body);
        let response = self.send(transport, self.post(body, headers)).await?;
        let (status, session) = (response.status, response.session.clone());
        let (answer, text) = match response.content_type.starts_with("text/event-stream") {
            true => (self.read_stream(response, id).await?, String::new()),
            false => {
                let Whole { bytes, .. } = read_body(response.body, MAX_REPLY)
                    .await
                    .map_err(|e| self.broke(&e))?;
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let answer = json::from_str(&text).ok().and_then(|v| answer_of(&v, id));
                (answer, text)
            }
        };
        Ok(Exchange {
            status,
            session,
            answer,
            text,
        })
    }

    /// Reads an event stream until the answer to request `id` comes; notifications before it
    /// (progress, logs) are passed over.
    async fn read_stream(
        &self,
        mut response: HttpResponse,
        id: u64,
    ) -> Result<Option<Answer>, Error> {
        let mut decoder = SseDecoder::new();
        loop {
            let chunk = response.body.chunk().await.map_err(|e| self.broke(&e))?;
            let events = match &chunk {
                Some(bytes) => decoder.push(bytes),
                None => decoder.finish().into_iter().collect(),
            };
            for event in events.iter().filter(|e| !e.data.trim().is_empty()) {
                let message = json::from_str(&event.data)
                    .map_err(|e| self.failed(&format!("sent a malformed event ({e})")))?;
                if let Some(answer) = answer_of(&message, id) {
                    return Ok(Some(answer));
                }
                // A request of the server's own (sampling, elicitation, roots) waits for an
                // answer tao cannot give: the call would never end.
                if let (Some(method), false) = (message["method"].as_str(), message["id"].is_null())
                {
                    return Err(self.failed(&format!(
                        "asked the client for {method}, which tao does not offer"
                    )));
                }
            }
            if chunk.is_none() {
                return Ok(None);
            }
        }
    }

    async fn send(
        &self,
        transport: &dyn Transport,
        request: HttpRequest,
    ) -> Result<HttpResponse, Error> {
        transport.send(request).await.map_err(|e| match e.kind {
            ErrorKind::Network => self.unreachable(&e.message),
            _ => e,
        })
    }

    fn unreachable(&self, cause: &str) -> Error {
        let url = self.url();
        let allow = "Access-Control-Allow-Headers: Content-Type, Accept, Authorization, MCP-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name; Access-Control-Expose-Headers: Mcp-Session-Id";
        let advice = match &self.origin {
            Some(origin) => format!(
                "If it is running, the browser may have refused its answer: a server used from a web page must allow the page's origin (Access-Control-Allow-Origin: {origin}, or *) and its headers ({allow})"
            ),
            None => "Check that it is running and that the address is right".into(),
        };
        Error::new(
            ErrorKind::Network,
            format!("could not reach the MCP server {url} ({cause}). {advice}."),
        )
    }

    fn unread_session(&self) -> Error {
        Error::new(
            ErrorKind::Network,
            format!(
                "the MCP server {} keeps a session, but its id did not reach this page: its CORS answer must expose it (Access-Control-Expose-Headers: Mcp-Session-Id)",
                self.url()
            ),
        )
    }

    fn versions(&self, theirs: &[&str]) -> Error {
        let ours: Vec<&str> = std::iter::once(MODERN)
            .chain(LEGACY.iter().copied())
            .collect();
        Error::new(
            ErrorKind::Config,
            format!(
                "the MCP server {} speaks protocol versions {}, and tao speaks {}: no version in common",
                self.url(),
                match theirs.is_empty() {
                    true => "it did not name".to_string(),
                    false => theirs.join(", "),
                },
                ours.join(", ")
            ),
        )
    }

    fn not_mcp(&self, why: &str) -> Error {
        // A page's words may end a sentence already ("…").
        let end = if why.ends_with(['.', '…']) { "" } else { "." };
        Error::new(
            ErrorKind::NotFound,
            format!(
                "{} is not an MCP endpoint: {why}{end} Give the server's MCP URL (often ending in /mcp)",
                self.url()
            ),
        )
    }

    fn failed(&self, what: &str) -> Error {
        Error::new(
            ErrorKind::Server,
            format!("the MCP server {} {what}", self.url()),
        )
    }

    fn broke(&self, e: &Error) -> Error {
        match e.kind {
            ErrorKind::Aborted => e.clone(),
            _ => Error::new(
                ErrorKind::Network,
                format!(
                    "the connection to the MCP server {} broke ({})",
                    self.url(),
                    e.message
                ),
            ),
        }
    }
}

/// The answer to request `id` in a JSON-RPC message, if it is one.
fn answer_of(message: &Value, id: u64) -> Option<Answer> {
    let message = message.as_object()?;
    let same = match message.get("id") {
        Some(Value::Number(n)) => n.as_u64() == Some(id),
        Some(Value::String(s)) => s == &id.to_string(),
        // An error about the request as a whole (a bad header) has no id.
        Some(Value::Null) | None => message.contains_key("error"),
        _ => false,
    };
    if !same {
        return None;
    }
    if let Some(result) = message.get("result") {
        return Some(Answer::Result(result.clone()));
    }
    let error = message.get("error")?;
    Some(Answer::Error {
        code: error["code"].as_i64().unwrap_or(0),
        message: error["message"]
            .as_str()
            .unwrap_or("no message")
            .to_string(),
        data: error["data"].clone(),
    })
}

/// Whether a refusal speaks of a session (or of a server not initialized): what an older server
/// says to a request that came without the session's id.
fn about_session(exchange: &Exchange) -> bool {
    let said = match &exchange.answer {
        Some(Answer::Error { message, .. }) => message.to_ascii_lowercase(),
        _ => exchange.text.to_ascii_lowercase(),
    };
    said.contains("session") || said.contains("not initialized")
}

/// A few words of a body, for an error (`: …`), or nothing.
fn detail(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match text.is_empty() || binary(&text) {
        true => String::new(),
        false => format!(": {}", preview(&text, 200)),
    }
}

/// Whether a body is no text (a model file, an image): quoted, it would be a line of boxes.
fn binary(text: &str) -> bool {
    (text.chars().take(512)).any(|c| c == '\u{FFFD}' || (c.is_control() && !c.is_whitespace()))
}
