//! MCP servers over a scripted transport: what tao sends (URL, headers, body) and what it makes
//! of what real servers answer.
//!
//! The replies are the ones measured from real servers: `@modelcontextprotocol/server-everything`
//! (an older server with sessions: it refuses a modern request with HTTP 400 and "Server not
//! initialized", answers `initialize` as an event stream opened by an empty priming event, and
//! sends its session in `mcp-session-id`) and the Python SDK's stateless modern server (plain
//! JSON). Each test reads as a transcript: the requests sent, one line each with the MCP headers
//! they carried, then the tools, the observation or the error the user sees.
//!
//! The era of an older server is remembered by URL for the thread (as the specification asks):
//! each test talks to its own URL so that no test inherits another's.

use std::cell::RefCell;
use std::collections::VecDeque;
use tao_agent::chat::ToolSpec;
use tao_agent::host::{block_on, LocalBoxFuture};
use tao_agent::http::{Body, HttpRequest, HttpResponse, Transport};
use tao_agent::json;
use tao_agent::json::Value;
use tao_agent::mcp::{self, Approve, Client, Listed, Server, LEGACY, MODERN};
use tao_agent::tools::{ToolError, ToolOutput};
use tao_agent::{Error, ErrorKind};

/// A token that must never appear in an error.
const CANARY: &str = "Bearer mcp-canary-7f3a9c";
/// The page tao runs in, for the CORS advice.
const ORIGIN: &str = "https://tao.example";

/// A canned reply: status, content type, the session header, and the body in chunks.
struct Reply {
    status: u16,
    content_type: &'static str,
    session: Option<&'static str>,
    chunks: Vec<Vec<u8>>,
}

impl Reply {
    fn with_session(mut self, session: &'static str) -> Reply {
        self.session = Some(session);
        self
    }
}

fn json_reply(status: u16, body: &str) -> Reply {
    Reply {
        status,
        content_type: "application/json",
        session: None,
        chunks: vec![body.as_bytes().to_vec()],
    }
}

/// An event stream, cut into chunks at `cuts` (byte offsets).
fn stream(body: &str, cuts: &[usize]) -> Reply {
    let bytes = body.as_bytes();
    let mut chunks = Vec::new();
    let mut at = 0;
    for &cut in cuts.iter().chain([bytes.len()].iter()) {
        chunks.push(bytes[at..cut].to_vec());
        at = cut;
    }
    Reply {
        status: 200,
        content_type: "text/event-stream",
        session: None,
        chunks,
    }
}

fn page(status: u16, html: &str) -> Reply {
    Reply {
        status,
        content_type: "text/html; charset=utf-8",
        session: None,
        chunks: vec![html.as_bytes().to_vec()],
    }
}

/// `202 Accepted`, no body: a notification taken.
fn accepted() -> Reply {
    Reply {
        status: 202,
        content_type: "",
        session: None,
        chunks: Vec::new(),
    }
}

/// A transport that answers each request with the next reply and records what was sent.
#[derive(Default)]
struct Scripted {
    replies: RefCell<VecDeque<Result<Reply, Error>>>,
    sent: RefCell<Vec<HttpRequest>>,
}

impl Scripted {
    /// An older server's opening, as server-everything answers (the modern request refused,
    /// `initialize` answered at `version` in `session`, the notification accepted), then `rest`.
    fn after_handshake(version: &str, session: Option<&'static str>, rest: Vec<Reply>) -> Scripted {
        let mut opened = initialized(version, 2);
        if let Some(session) = session {
            opened = opened.with_session(session);
        }
        let mut replies = vec![not_initialized(), opened, accepted()];
        replies.extend(rest);
        Scripted::new(replies)
    }

    fn new(replies: Vec<Reply>) -> Scripted {
        Scripted::failing(replies.into_iter().map(Ok).collect())
    }

    fn failing(replies: Vec<Result<Reply, Error>>) -> Scripted {
        Scripted {
            replies: RefCell::new(replies.into()),
            sent: RefCell::default(),
        }
    }

    /// The requests sent, one line each: the JSON-RPC method, then the MCP headers.
    fn transcript(&self) -> Vec<String> {
        self.sent.borrow().iter().map(line).collect()
    }

    fn bodies(&self) -> Vec<Value> {
        let sent = self.sent.borrow();
        sent.iter()
            .map(|r| json::from_str(&r.body).unwrap())
            .collect()
    }

    fn left(&self) -> usize {
        self.replies.borrow().len()
    }
}

/// A request in one line: `tools/list | mcp-protocol-version: 2026-07-28 | mcp-method: …`.
fn line(request: &HttpRequest) -> String {
    let body = json::from_str(&request.body).unwrap();
    let mut line = body["method"].as_str().unwrap_or("?").to_string();
    let order = [
        "mcp-protocol-version",
        "mcp-session-id",
        "mcp-method",
        "mcp-name",
    ];
    for name in order {
        if let Some(value) = header(request, name) {
            line.push_str(&format!(" | {name}: {value}"));
        }
    }
    let mut params: Vec<_> = request
        .headers
        .iter()
        .filter(|(n, _)| n.starts_with("mcp-param-"))
        .collect();
    params.sort();
    for (name, value) in params {
        line.push_str(&format!(" | {name}: {value}"));
    }
    line
}

fn header<'a>(request: &'a HttpRequest, name: &str) -> Option<&'a str> {
    let mut found = request.headers.iter().filter(|(n, _)| n == name);
    let value = found.next().map(|(_, v)| v.as_str());
    assert!(found.next().is_none(), "{name} sent twice");
    value
}

struct Chunks(VecDeque<Vec<u8>>);

impl Body for Chunks {
    fn chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, Error>> {
        Box::pin(std::future::ready(Ok(self.0.pop_front())))
    }
}

impl Transport for Scripted {
    fn send(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, Error>> {
        self.sent.borrow_mut().push(request);
        let next = self.replies.borrow_mut().pop_front();
        let next = next.unwrap_or_else(|| Ok(json_reply(500, "no more canned replies")));
        Box::pin(std::future::ready(next.map(|reply| HttpResponse {
            status: reply.status,
            retry_after: None,
            content_type: reply.content_type.into(),
            session: reply.session.map(String::from),
            body: Box::new(Chunks(reply.chunks.into())),
        })))
    }
}

fn server(url: &str) -> Server {
    Server {
        url: url.into(),
        headers: vec![("authorization".into(), CANARY.into())],
        tools: None,
        approve: Approve::All,
    }
}

fn client(url: &str) -> Client {
    Client::new(server(url), Some(ORIGIN.into()))
}

fn list(client: &Client, transport: &Scripted) -> Result<Vec<Listed>, Error> {
    block_on(client.list(transport))
}

fn call(client: &Client, transport: &Scripted, tool: &Listed, arguments: Value) -> Called {
    block_on(client.call(transport, tool, &arguments))
}

type Called = Result<ToolOutput, ToolError>;

fn names(tools: &[Listed]) -> Vec<&str> {
    tools.iter().map(|t| t.name.as_str()).collect()
}

/// The error of `result`, checked to hold no header value.
fn error<T: std::fmt::Debug>(result: Result<T, Error>) -> Error {
    let e = result.expect_err("an error");
    assert!(
        !e.message.contains(CANARY),
        "the token leaked: {}",
        e.message
    );
    e
}

fn echo() -> Listed {
    Listed {
        name: "echo".into(),
        description: "Echoes.".into(),
        schema: json!({"type": "object"}),
        param_headers: Vec::new(),
    }
}

// ---- What real servers answer ----

/// server-everything's answer to a modern request: it wants `initialize` first.
fn not_initialized() -> Reply {
    json_reply(
        400,
        r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}"#,
    )
}

/// server-everything's answer to `initialize`: a priming event with no data, then the result.
fn initialized_text(version: &str, id: u64) -> String {
    format!(
        "id: 8c1d0f6e-prime\ndata: \n\nevent: message\nid: 8c1d0f6e-1\ndata: {{\"result\":{{\"protocolVersion\":\"{version}\",\"capabilities\":{{\"tools\":{{}}}},\"serverInfo\":{{\"name\":\"mcp-servers/everything\",\"version\":\"2.0.0\"}}}},\"jsonrpc\":\"2.0\",\"id\":{id}}}\n\n"
    )
}

fn initialized(version: &str, id: u64) -> Reply {
    stream(&initialized_text(version, id), &[])
}

/// A result sent the way server-everything sends it: one event.
fn event_result(id: u64, result: &str) -> Reply {
    let text = format!(
        "event: message\nid: ev-{id}\ndata: {{\"result\":{result},\"jsonrpc\":\"2.0\",\"id\":{id}}}\n\n"
    );
    stream(&text, &[])
}

/// A result as the Python SDK's stateless server sends it: plain JSON.
fn json_result(id: u64, result: &str) -> Reply {
    json_reply(
        200,
        &format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#),
    )
}

const ECHO_TOOLS: &str = r#"{"tools":[{"name":"echo","description":"Echoes back the input","inputSchema":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"],"$schema":"http://json-schema.org/draft-07/schema#"}}]}"#;

const PYTHON_TOOLS: &str = r#"{"cacheScope":"private","resultType":"complete","tools":[{"name":"add","title":"Add","description":"Adds two numbers.","inputSchema":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"]}}],"ttlMs":0,"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"calc","version":"1.0"}}}"#;

// ---- The two eras ----

#[test]
fn a_modern_server_is_sent_the_version_and_the_client_in_meta_and_headers() {
    let url = "https://modern.example/mcp";
    let transport = Scripted::new(vec![
        json_result(1, PYTHON_TOOLS),
        json_result(
            2,
            r#"{"content":[{"type":"text","text":"5"}],"resultType":"complete"}"#,
        ),
    ]);
    let client = client(url);
    let tools = list(&client, &transport).unwrap();
    assert_eq!(names(&tools), ["add"]);
    assert_eq!(tools[0].description, "Adds two numbers.");
    let output = call(&client, &transport, &tools[0], json!({"a": 2, "b": 3}));
    assert_eq!(output.unwrap().text, "5");

    assert_eq!(
        transport.transcript(),
        [
            "tools/list | mcp-protocol-version: 2026-07-28 | mcp-method: tools/list",
            "tools/call | mcp-protocol-version: 2026-07-28 | mcp-method: tools/call | mcp-name: add",
        ]
    );
    let sent = transport.sent.borrow();
    for request in sent.iter() {
        assert_eq!(request.url, url);
        assert_eq!(header(request, "authorization"), Some(CANARY));
        assert_eq!(header(request, "content-type"), Some("application/json"));
        assert_eq!(
            header(request, "accept"),
            Some("application/json, text/event-stream")
        );
    }
    let bodies = transport.bodies();
    let meta = &bodies[0]["params"]["_meta"];
    assert_eq!(meta["io.modelcontextprotocol/protocolVersion"], MODERN);
    assert_eq!(meta["io.modelcontextprotocol/clientInfo"]["name"], "tao");
    assert!(meta["io.modelcontextprotocol/clientCapabilities"].is_object());
    assert_eq!(bodies[1]["params"]["name"], "add");
    assert_eq!(bodies[1]["params"]["arguments"], json!({"a": 2, "b": 3}));
    assert_eq!(bodies[1]["params"]["_meta"], *meta);
    assert_eq!(bodies[0]["id"], 1);
    assert_eq!(bodies[1]["id"], 2);
}

/// server-everything, exactly as it answers: the modern request refused, then the handshake,
/// then everything in its session at the version it agreed, without the modern headers.
#[test]
fn an_older_server_gets_the_handshake_and_its_session() {
    let url = "https://everything.example/mcp";
    let transport = Scripted::after_handshake(
        "2025-11-25",
        Some("sess-a1"),
        vec![
            event_result(3, ECHO_TOOLS),
            event_result(4, r#"{"content":[{"type":"text","text":"Echo: hi"}]}"#),
            event_result(
                5,
                r#"{"content":[{"type":"text","text":"MCP error -32602: Input validation error: Invalid arguments for tool echo"}],"isError":true}"#,
            ),
        ],
    );
    let client = client(url);
    let tools = list(&client, &transport).unwrap();
    assert_eq!(names(&tools), ["echo"]);
    assert_eq!(
        tools[0].schema["$schema"],
        Value::Null,
        "the draft is not the model's business"
    );
    let said = call(&client, &transport, &tools[0], json!({"message": "hi"}));
    assert_eq!(said.unwrap().text, "Echo: hi");
    let refused = call(&client, &transport, &tools[0], json!({"message": 5}));
    assert_eq!(
        refused,
        Err(ToolError::Failed(
            "MCP error -32602: Input validation error: Invalid arguments for tool echo".into()
        ))
    );

    assert_eq!(
        transport.transcript(),
        [
            "tools/list | mcp-protocol-version: 2026-07-28 | mcp-method: tools/list",
            "initialize",
            "notifications/initialized | mcp-protocol-version: 2025-11-25 | mcp-session-id: sess-a1",
            "tools/list | mcp-protocol-version: 2025-11-25 | mcp-session-id: sess-a1",
            "tools/call | mcp-protocol-version: 2025-11-25 | mcp-session-id: sess-a1",
            "tools/call | mcp-protocol-version: 2025-11-25 | mcp-session-id: sess-a1",
        ]
    );
    let bodies = transport.bodies();
    assert_eq!(bodies[1]["params"]["protocolVersion"], LEGACY[0]);
    assert_eq!(bodies[1]["params"]["clientInfo"]["name"], "tao");
    assert_eq!(bodies[2]["id"], Value::Null, "a notification has no id");
    for body in &bodies[1..] {
        assert_eq!(body["params"]["_meta"], Value::Null, "{body:?}");
    }
    for request in transport.sent.borrow().iter() {
        assert_eq!(header(request, "authorization"), Some(CANARY));
    }
}

/// The version the server agreed is the one spoken, and a second connection to the same URL
/// opens with the handshake at that version: the server is not sent the modern request again.
#[test]
fn an_older_server_is_remembered_by_url() {
    let url = "https://remembered.example/mcp";
    let first =
        Scripted::after_handshake("2025-06-18", Some("s1"), vec![event_result(3, ECHO_TOOLS)]);
    list(&client(url), &first).unwrap();
    assert_eq!(
        first.transcript()[3],
        "tools/list | mcp-protocol-version: 2025-06-18 | mcp-session-id: s1"
    );

    let second = Scripted::new(vec![
        initialized("2025-06-18", 1).with_session("s2"),
        accepted(),
        event_result(2, ECHO_TOOLS),
    ]);
    let tools = list(&client(url), &second).unwrap();
    assert_eq!(names(&tools), ["echo"]);
    assert_eq!(
        second.transcript(),
        [
            "initialize",
            "notifications/initialized | mcp-protocol-version: 2025-06-18 | mcp-session-id: s2",
            "tools/list | mcp-protocol-version: 2025-06-18 | mcp-session-id: s2",
        ]
    );
    assert_eq!(
        second.bodies()[0]["params"]["protocolVersion"],
        "2025-06-18"
    );

    // Another URL is a server of its own, asked afresh.
    let other = Scripted::new(vec![json_result(1, PYTHON_TOOLS)]);
    list(&client("https://remembered.example/other"), &other).unwrap();
    assert_eq!(
        other.transcript(),
        ["tools/list | mcp-protocol-version: 2026-07-28 | mcp-method: tools/list"]
    );
}

#[test]
fn a_modern_server_that_refuses_the_version_is_spoken_to_in_an_older_one_it_lists() {
    let transport = Scripted::new(vec![
        json_reply(
            400,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2027-01-01","2025-06-18","2024-11-05"],"requested":"2026-07-28"}}}"#,
        ),
        json_result(
            2,
            r#"{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}"#,
        ),
        accepted(),
        json_result(3, PYTHON_TOOLS),
    ]);
    let tools = list(&client("https://unsupported.example/mcp"), &transport).unwrap();
    assert_eq!(names(&tools), ["add"]);
    assert_eq!(
        transport.transcript(),
        [
            "tools/list | mcp-protocol-version: 2026-07-28 | mcp-method: tools/list",
            "initialize",
            "notifications/initialized | mcp-protocol-version: 2025-06-18",
            "tools/list | mcp-protocol-version: 2025-06-18",
        ]
    );
    assert_eq!(
        transport.bodies()[1]["params"]["protocolVersion"],
        "2025-06-18"
    );
}

#[test]
fn no_version_in_common_names_both_lists() {
    let ours = "2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26";
    let refusal = |supported: &str| {
        json_reply(
            400,
            &format!(
                r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":-32022,"message":"Unsupported protocol version","data":{{"supported":{supported}}}}}}}"#
            ),
        )
    };
    let cases = [
        (
            "https://versions-a.example/mcp",
            vec![refusal(r#"["2027-01-01","2024-11-05"]"#)],
            "2027-01-01, 2024-11-05",
        ),
        // It refused the version it lists: nothing to choose.
        (
            "https://versions-b.example/mcp",
            vec![refusal(r#"["2026-07-28"]"#)],
            "2026-07-28",
        ),
        (
            "https://versions-c.example/mcp",
            vec![refusal("null")],
            "it did not name",
        ),
        // An older server that agrees only on a version tao does not speak.
        (
            "https://versions-d.example/mcp",
            vec![not_initialized(), initialized("2024-11-05", 2)],
            "2024-11-05",
        ),
    ];
    for (url, replies, theirs) in cases {
        let transport = Scripted::new(replies);
        let e = error(list(&client(url), &transport));
        assert_eq!(e.kind, ErrorKind::Config, "{url}");
        assert_eq!(
            e.message,
            format!("the MCP server {url} speaks protocol versions {theirs}, and tao speaks {ours}: no version in common")
        );
        assert_eq!(transport.left(), 0, "{url}");
    }
}

// ---- Sessions ----

/// A server that restarted forgets its sessions: the TypeScript SDK answers 404 "Session not
/// found", the Python SDK 400 "No valid session ID provided". A new session, once.
#[test]
fn a_dropped_session_is_opened_again_once() {
    let forgot = [
        json_reply(
            404,
            r#"{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}"#,
        ),
        json_reply(
            400,
            r#"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Bad Request: No valid session ID provided"}}"#,
        ),
    ];
    for (i, refusal) in forgot.into_iter().enumerate() {
        let url = format!("https://dropped-{i}.example/mcp");
        let transport = Scripted::after_handshake(
            "2025-11-25",
            Some("old"),
            vec![
                event_result(3, ECHO_TOOLS),
                refusal,
                initialized("2025-11-25", 5).with_session("new"),
                accepted(),
                // The call sent again is a request of its own, with the next id.
                event_result(6, r#"{"content":[{"type":"text","text":"Echo: again"}]}"#),
            ],
        );
        let client = client(&url);
        let tools = list(&client, &transport).unwrap();
        let output = call(&client, &transport, &tools[0], json!({"message": "again"}));
        assert_eq!(output.unwrap().text, "Echo: again");
        assert_eq!(
            transport.transcript()[4..],
            [
                "tools/call | mcp-protocol-version: 2025-11-25 | mcp-session-id: old",
                "initialize",
                "notifications/initialized | mcp-protocol-version: 2025-11-25 | mcp-session-id: new",
                "tools/call | mcp-protocol-version: 2025-11-25 | mcp-session-id: new",
            ]
        );
    }
}

#[test]
fn a_session_dropped_twice_in_a_row_is_an_error_not_a_loop() {
    let gone = || {
        json_reply(
            404,
            r#"{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}"#,
        )
    };
    let transport = Scripted::after_handshake(
        "2025-11-25",
        Some("a"),
        vec![
            gone(),
            initialized("2025-11-25", 4).with_session("b"),
            accepted(),
            gone(),
        ],
    );
    let called = call(
        &client("https://dropped-twice.example/mcp"),
        &transport,
        &echo(),
        json!({}),
    );
    assert_eq!(
        called,
        Err(ToolError::Failed(
            "the server answered error -32001: Session not found".into()
        ))
    );
    assert_eq!(transport.sent.borrow().len(), 7);
}

/// A 400 that says nothing of sessions is the server's answer, not a reason for a new one.
#[test]
fn a_refusal_about_something_else_keeps_the_session() {
    let transport = Scripted::after_handshake(
        "2025-11-25",
        Some("keep"),
        vec![json_reply(
            400,
            r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Unknown tool: nope"}}"#,
        )],
    );
    let called = call(
        &client("https://other-400.example/mcp"),
        &transport,
        &echo(),
        json!({}),
    );
    assert_eq!(
        called,
        Err(ToolError::BadInput("Unknown tool: nope".into()))
    );
    assert_eq!(
        transport.sent.borrow().len(),
        4,
        "{:#?}",
        transport.transcript()
    );
}

/// The server keeps a session, but CORS hid its id from the page: the fix is the server's
/// `Access-Control-Expose-Headers`, and the error says so.
#[test]
fn a_session_id_the_page_cannot_read_asks_for_the_expose_header() {
    let no_session = || {
        json_reply(
            400,
            r#"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Bad Request: No valid session ID provided"}}"#,
        )
    };
    let expected = |url: &str| {
        format!("the MCP server {url} keeps a session, but its id did not reach this page: its CORS answer must expose it (Access-Control-Expose-Headers: Mcp-Session-Id)")
    };
    // Refused at the first request after the handshake.
    let url = "https://hidden-session.example/mcp";
    let transport = Scripted::after_handshake("2025-11-25", None, vec![no_session()]);
    let e = error(list(&client(url), &transport));
    assert_eq!((e.kind, e.message), (ErrorKind::Network, expected(url)));
    assert_eq!(transport.left(), 0);

    // Refused at the end of the handshake itself.
    let url = "https://hidden-session-2.example/mcp";
    let transport = Scripted::new(vec![
        not_initialized(),
        initialized("2025-11-25", 2),
        no_session(),
    ]);
    let e = error(list(&client(url), &transport));
    assert_eq!(e.message, expected(url));
}

/// An older server without sessions (stateless) is spoken to without one.
#[test]
fn an_older_server_without_sessions_needs_none() {
    let transport =
        Scripted::after_handshake("2025-03-26", None, vec![event_result(3, ECHO_TOOLS)]);
    let tools = list(&client("https://stateless-old.example/mcp"), &transport).unwrap();
    assert_eq!(names(&tools), ["echo"]);
    assert_eq!(
        transport.transcript()[3],
        "tools/list | mcp-protocol-version: 2025-03-26"
    );
}

// ---- Failures, with their fixes ----

#[test]
fn a_token_missing_refused_or_not_allowed_says_so_without_quoting_it() {
    let url = "https://auth.example/mcp";
    let unauthorized = || json_reply(401, r#"{"error":"invalid_token"}"#);
    let cases = [
        // (the token given, the reply, the error)
        (
            false,
            unauthorized(),
            "the MCP server https://auth.example/mcp needs a token (HTTP 401): give it one (it is sent as Authorization: Bearer <token>)",
        ),
        (
            true,
            unauthorized(),
            "the MCP server https://auth.example/mcp refused the token (HTTP 401): check the Authorization header you gave it",
        ),
        (
            true,
            json_reply(403, r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Forbidden: invalid origin"},"id":null}"#),
            "the MCP server https://auth.example/mcp refused this request (HTTP 403): the token is not allowed, or the server does not accept requests from https://tao.example",
        ),
    ];
    for (token, reply, expected) in cases {
        let mut server = server(url);
        if !token {
            server.headers.clear();
        }
        let transport = Scripted::new(vec![reply]);
        let e = error(list(&Client::new(server, Some(ORIGIN.into())), &transport));
        assert_eq!((e.kind, e.message.as_str()), (ErrorKind::Auth, expected));
        assert_eq!(
            transport.sent.borrow().len(),
            1,
            "no handshake after a refusal"
        );
    }
}

#[test]
fn a_web_page_where_the_endpoint_should_be_is_not_mcp() {
    let html = "<!doctype html><html><head><title>Welcome</title></head><body><h1>Welcome to our site</h1></body></html>";
    // At 200 the page is the answer; at 404 tao tries the handshake too, which gets the page
    // again.
    let cases = [
        (
            "https://page-200.example/",
            vec![page(200, html)],
            "it answered with",
        ),
        (
            "https://page-404.example/",
            vec![page(404, html), page(404, html)],
            "it answered HTTP 404 with",
        ),
    ];
    for (url, replies, how) in cases {
        let transport = Scripted::new(replies);
        let e = error(list(&client(url), &transport));
        assert_eq!(e.kind, ErrorKind::NotFound, "{}", e.message);
        let start = format!("{url} is not an MCP endpoint: {how} a web page titled \"Welcome\"");
        assert!(e.message.starts_with(&start), "{}", e.message);
        assert!(
            e.message
                .ends_with("Give the server's MCP URL (often ending in /mcp)"),
            "{}",
            e.message
        );
        assert_eq!(transport.left(), 0);
    }
}

#[test]
fn a_malformed_or_empty_reply_is_quoted() {
    let url = "https://malformed.example/mcp";
    let transport = Scripted::new(vec![json_reply(
        200,
        r#"{"jsonrpc":"2.0","id":1,"result":"#,
    )]);
    let e = error(list(&client(url), &transport));
    assert_eq!(e.kind, ErrorKind::Server);
    assert_eq!(
        e.message,
        format!(
            r#"the MCP server {url} sent a malformed reply: {{"jsonrpc":"2.0","id":1,"result":"#
        )
    );

    // A file that is no text (here a model's first bytes) is not quoted: it is no endpoint.
    let transport = Scripted::new(vec![json_reply(200, "GGUF\u{3}\0\0\0general.architecture")]);
    let e = error(list(&client("https://file.example/model.gguf"), &transport));
    assert!(
        e.message.starts_with("https://file.example/model.gguf is not an MCP endpoint: it answered with a file that is not text"),
        "{}",
        e.message
    );

    let transport = Scripted::new(vec![json_reply(200, "")]);
    let e = error(list(&client("https://empty.example/mcp"), &transport));
    assert_eq!(
        e.message,
        "the MCP server https://empty.example/mcp answered with an empty reply"
    );

    let transport = Scripted::new(vec![stream("event: message\ndata: {\"jsonrpc\":\n\n", &[])]);
    let e = error(list(&client("https://bad-event.example/mcp"), &transport));
    assert!(
        e.message
            .starts_with("the MCP server https://bad-event.example/mcp sent a malformed event ("),
        "{}",
        e.message
    );

    let transport = Scripted::new(vec![json_result(1, r#"{"tools":"none"}"#)]);
    let e = error(list(&client("https://no-list.example/mcp"), &transport));
    assert_eq!(
        e.message,
        "the MCP server https://no-list.example/mcp answered tools/list without a list of tools"
    );
}

#[test]
fn a_server_failure_is_quoted() {
    let transport = Scripted::new(vec![json_reply(502, "upstream timed out")]);
    let e = error(list(&client("https://failing.example/mcp"), &transport));
    assert_eq!(e.kind, ErrorKind::Server);
    assert_eq!(
        e.message,
        "the MCP server https://failing.example/mcp failed (HTTP 502): upstream timed out"
    );

    // A failure answered in JSON-RPC keeps its words.
    let body = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error: database down"}}"#;
    let transport = Scripted::new(vec![json_reply(500, body)]);
    let e = error(list(&client("https://failing-rpc.example/mcp"), &transport));
    assert_eq!(
        e.message,
        format!("the MCP server https://failing-rpc.example/mcp failed (HTTP 500): {body}")
    );
}

/// `fetch` failing gives no reason (a CORS refusal looks like a server that is down): from a
/// page, the advice names the page's origin and the headers to allow.
#[test]
fn an_unreachable_server_gets_the_cors_advice_with_the_origin() {
    let url = "https://unreachable.example/mcp";
    let down = || Err(Error::new(ErrorKind::Network, "Failed to fetch"));
    let transport = Scripted::failing(vec![down(), down()]);
    let e = error(list(&client(url), &transport));
    assert_eq!(e.kind, ErrorKind::Network);
    assert_eq!(
        e.message,
        "could not reach the MCP server https://unreachable.example/mcp (Failed to fetch). If it is running, the browser may have refused its answer: a server used from a web page must allow the page's origin (Access-Control-Allow-Origin: https://tao.example, or *) and its headers (Access-Control-Allow-Headers: Content-Type, Accept, Authorization, MCP-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name; Access-Control-Expose-Headers: Mcp-Session-Id)."
    );
    // The modern request and then the handshake were tried.
    assert_eq!(
        transport.transcript(),
        [
            "tools/list | mcp-protocol-version: 2026-07-28 | mcp-method: tools/list",
            "initialize"
        ]
    );

    // Outside a page there is no CORS.
    let transport = Scripted::failing(vec![down(), down()]);
    let native = Client::new(server("https://unreachable-cli.example/mcp"), None);
    let e = error(list(&native, &transport));
    assert_eq!(
        e.message,
        "could not reach the MCP server https://unreachable-cli.example/mcp (Failed to fetch). Check that it is running and that the address is right."
    );
}

/// A server whose CORS answer allows only the older headers refuses the modern request before
/// it is sent, but takes the handshake: it is an older server, and it works.
#[test]
fn a_modern_request_refused_by_cors_falls_back_to_the_handshake() {
    let transport = Scripted::failing(vec![
        Err(Error::new(ErrorKind::Network, "Failed to fetch")),
        Ok(initialized("2025-11-25", 2).with_session("c")),
        Ok(accepted()),
        Ok(event_result(3, ECHO_TOOLS)),
    ]);
    let tools = list(&client("https://cors-old.example/mcp"), &transport).unwrap();
    assert_eq!(names(&tools), ["echo"]);
}

/// When the handshake gets an answer after the modern request got none, that answer is the
/// diagnosis (here: a token is needed), not "could not reach".
#[test]
fn a_handshake_refused_after_an_unreachable_modern_request_says_why() {
    let transport = Scripted::failing(vec![
        Err(Error::new(ErrorKind::Network, "Failed to fetch")),
        Ok(json_reply(401, "")),
    ]);
    let mut server = server("https://cors-auth.example/mcp");
    server.headers.clear();
    let e = error(list(&Client::new(server, Some(ORIGIN.into())), &transport));
    assert_eq!(e.kind, ErrorKind::Auth, "{}", e.message);
}

// ---- Event streams ----

/// server-everything's handshake stream, cut at every byte, and in CRLF line endings: the
/// same agreement whatever the cut.
#[test]
fn an_event_stream_split_anywhere_reads_the_same() {
    let lf = initialized_text("2025-11-25", 2);
    let crlf = lf.replace('\n', "\r\n");
    for text in [&lf, &crlf] {
        let mut splits: Vec<Vec<usize>> = (1..text.len()).map(|cut| vec![cut]).collect();
        splits.push((1..text.len()).collect());
        for cuts in splits {
            let url = format!("https://split-{}-{cuts:?}.example/mcp", text.len());
            let transport = Scripted::new(vec![
                not_initialized(),
                stream(text, &cuts).with_session("sp"),
                accepted(),
                event_result(3, ECHO_TOOLS),
            ]);
            let tools = list(&client(&url), &transport);
            assert_eq!(names(&tools.unwrap()), ["echo"], "cut at {cuts:?}");
            assert_eq!(
                transport.transcript()[3],
                "tools/list | mcp-protocol-version: 2025-11-25 | mcp-session-id: sp",
                "cut at {cuts:?}"
            );
        }
    }
}

#[test]
fn notifications_before_the_answer_are_passed_over() {
    let text = concat!(
        ": keep-alive\n\n",
        "event: message\n",
        "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":0.5}}\n\n",
        "event: message\n",
        "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"working\"}}\n\n",
        "data: {\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"not ours\"}]}}\n\n",
        "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}\n\n",
    );
    let transport = Scripted::new(vec![stream(text, &[7, 40, 41, 200])]);
    let output = call(
        &client("https://progress.example/mcp"),
        &transport,
        &echo(),
        json!({}),
    );
    assert_eq!(output.unwrap().text, "done");
}

/// An older server may ask the client something mid-call (sampling, elicitation): tao cannot
/// answer, and waiting would never end.
#[test]
fn a_request_from_the_server_ends_the_call_with_what_it_asked() {
    let text = concat!(
        "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n",
        "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"sampling/createMessage\",\"params\":{\"messages\":[],\"maxTokens\":100}}\n\n",
    );
    let transport = Scripted::new(vec![stream(text, &[30])]);
    let called = call(
        &client("https://sampling.example/mcp"),
        &transport,
        &echo(),
        json!({}),
    );
    assert_eq!(
        called,
        Err(ToolError::Failed(
            "the MCP server https://sampling.example/mcp asked the client for sampling/createMessage, which tao does not offer".into()
        ))
    );
}

#[test]
fn a_stream_that_ends_without_the_answer_is_an_error() {
    let text = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n";
    let transport = Scripted::new(vec![stream(text, &[])]);
    let e = error(list(&client("https://cut-stream.example/mcp"), &transport));
    assert_eq!(e.kind, ErrorKind::Server);
    assert!(
        e.message
            .starts_with("the MCP server https://cut-stream.example/mcp "),
        "{}",
        e.message
    );
}

// ---- Tools ----

#[test]
fn tools_are_listed_across_pages() {
    let transport = Scripted::new(vec![
        json_result(
            1,
            r#"{"tools":[{"name":"a","description":"A."},{"name":"b","title":"Bee"}],"nextCursor":"page-2"}"#,
        ),
        json_result(
            2,
            r#"{"tools":[{"name":"c"},{"name":"  "}],"nextCursor":""}"#,
        ),
    ]);
    let tools = list(&client("https://pages.example/mcp"), &transport).unwrap();
    assert_eq!(
        names(&tools),
        ["a", "b", "c"],
        "a tool without a name is left out"
    );
    assert_eq!(
        tools[1].description, "Bee",
        "the title when there is no description"
    );
    assert_eq!(tools[2].schema, json!({"type": "object"}));
    let bodies = transport.bodies();
    assert_eq!(bodies[0]["params"]["cursor"], Value::Null);
    assert_eq!(bodies[1]["params"]["cursor"], "page-2");
}

#[test]
fn a_server_that_never_stops_paging_is_cut_off() {
    let pages = (1..=30)
        .map(|id| json_result(id, r#"{"tools":[{"name":"t"}],"nextCursor":"again"}"#))
        .collect();
    let transport = Scripted::new(pages);
    let tools = list(&client("https://endless.example/mcp"), &transport).unwrap();
    assert_eq!(tools.len(), 20);
    assert_eq!(transport.left(), 10);
}

/// `x-mcp-header` arguments are mirrored into `Mcp-Param-*` headers, encoded as the
/// specification's examples show; tools whose annotations break its rules are left out.
#[test]
fn annotated_arguments_are_mirrored_into_headers() {
    let annotated = |name: &str, properties: &str| {
        format!(
            r#"{{"name":"{name}","inputSchema":{{"type":"object","properties":{properties}}}}}"#
        )
    };
    let tools = [
        annotated(
            "execute_sql",
            r#"{"region":{"type":"string","x-mcp-header":"Region"},"greeting":{"type":"string","x-mcp-header":"Greeting"},"text":{"type":"string","x-mcp-header":"Text"},"val":{"type":"string","x-mcp-header":"Val"},"count":{"type":"integer","x-mcp-header":"Count"},"dry":{"type":"boolean","x-mcp-header":"Dry-Run"},"missing":{"type":"string","x-mcp-header":"Missing"},"nothing":{"type":["string","null"]},"target":{"type":"object","properties":{"tenant":{"type":"string","x-mcp-header":"Tenant"}}},"query":{"type":"string"}}"#,
        ),
        annotated("number", r#"{"n":{"type":"number","x-mcp-header":"N"}}"#),
        annotated("object", r#"{"o":{"type":"object","x-mcp-header":"O"}}"#),
        annotated("empty", r#"{"s":{"type":"string","x-mcp-header":""}}"#),
        annotated(
            "space",
            r#"{"s":{"type":"string","x-mcp-header":"Two Words"}}"#,
        ),
        annotated("not_text", r#"{"s":{"type":"string","x-mcp-header":7}}"#),
        annotated(
            "twice",
            r#"{"a":{"type":"string","x-mcp-header":"Same"},"b":{"type":"string","x-mcp-header":"same"}}"#,
        ),
        annotated(
            "in_items",
            r#"{"list":{"type":"array","items":{"type":"object","properties":{"s":{"type":"string","x-mcp-header":"Item"}}}}}"#,
        ),
        annotated(
            "in_any_of",
            r#"{"s":{"anyOf":[{"type":"string","x-mcp-header":"Any"}]}}"#,
        ),
        annotated("plain", r#"{"s":{"type":"string"}}"#),
    ];
    let page = format!(r#"{{"tools":[{}]}}"#, tools.join(","));
    let transport = Scripted::new(vec![
        json_result(1, &page),
        json_result(2, r#"{"content":[]}"#),
    ]);
    let client = client("https://headers.example/mcp");
    let listed = list(&client, &transport).unwrap();
    assert_eq!(names(&listed), ["execute_sql", "plain"]);

    let arguments = json!({
        "region": "us-west1",
        "greeting": "Hello, 世界",
        "text": " padded ",
        "val": "=?base64?literal?=",
        "count": -7,
        "dry": true,
        "target": {"tenant": "acme"},
        "query": "SELECT 1",
    });
    call(&client, &transport, &listed[0], arguments).unwrap();
    assert_eq!(
        transport.transcript()[1],
        [
            "tools/call",
            "mcp-protocol-version: 2026-07-28",
            "mcp-method: tools/call",
            "mcp-name: execute_sql",
            "mcp-param-count: -7",
            "mcp-param-dry-run: true",
            "mcp-param-greeting: =?base64?SGVsbG8sIOS4lueVjA==?=",
            "mcp-param-region: us-west1",
            "mcp-param-tenant: acme",
            "mcp-param-text: =?base64?IHBhZGRlZCA=?=",
            "mcp-param-val: =?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=",
        ]
        .join(" | ")
    );
}

/// The specification's table of values, and the edges of plain ASCII.
#[test]
fn header_values_are_encoded_as_the_specification_shows() {
    let cases = [
        ("us-west1", "us-west1"),
        ("Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="),
        (" padded ", "=?base64?IHBhZGRlZCA=?="),
        ("line1\nline2", "=?base64?bGluZTEKbGluZTI=?="),
        ("=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
        ("=?base64?unfinished", "=?base64?unfinished"),
        ("tab\tinside", "tab\tinside"),
        ("trailing\t", "=?base64?dHJhaWxpbmcJ?="),
        ("a", "a"),
        ("ab", "ab"),
        ("é", "=?base64?w6k=?="),
        ("", ""),
    ];
    let tool = Listed {
        param_headers: vec![(vec!["v".into()], "V".into())],
        ..echo()
    };
    for (value, expected) in cases {
        let transport = Scripted::new(vec![json_result(1, r#"{"content":[]}"#)]);
        let client = client("https://encoding.example/mcp");
        call(&client, &transport, &tool, json!({"v": value})).unwrap();
        let sent = transport.sent.borrow();
        assert_eq!(header(&sent[0], "mcp-param-v"), Some(expected), "{value:?}");
    }
    // A tool's name is encoded the same way.
    let transport = Scripted::new(vec![json_result(1, r#"{"content":[]}"#)]);
    let named = Listed {
        name: "météo".into(),
        ..echo()
    };
    call(
        &client("https://encoding.example/mcp"),
        &transport,
        &named,
        json!({}),
    )
    .unwrap();
    assert_eq!(
        header(&transport.sent.borrow()[0], "mcp-name"),
        Some("=?base64?bcOpdMOpbw==?=")
    );
}

// ---- Observations ----

/// A `tools/call` result in, what the model reads out.
#[test]
fn results_become_observations() {
    let audio = "A".repeat(4000);
    let cases: Vec<(String, Result<&str, ToolError>)> = vec![
        (
            r#"{"content":[{"type":"text","text":"first"},{"type":"text","text":"second"}]}"#.into(),
            Ok("first\nsecond"),
        ),
        (
            r#"{"content":[{"type":"image","data":"iVBORw0K","mimeType":"image/png"}]}"#.into(),
            Ok("[image: image/png, 6 bytes]"),
        ),
        (
            format!(r#"{{"content":[{{"type":"audio","data":"{audio}","mimeType":"audio/wav"}}]}}"#),
            Ok("[audio: audio/wav, 2.9 KB]"),
        ),
        (
            r#"{"content":[{"type":"resource_link","uri":"file:///README.md","name":"README","description":"The project's readme"}]}"#.into(),
            Ok("[resource link: README <file:///README.md>: The project's readme]"),
        ),
        (
            r#"{"content":[{"type":"resource_link","uri":"file:///a","name":"a"}]}"#.into(),
            Ok("[resource link: a <file:///a>]"),
        ),
        (
            r#"{"content":[{"type":"resource","resource":{"uri":"file:///notes.txt","mimeType":"text/plain","text":"the notes"}}]}"#.into(),
            Ok("[resource <file:///notes.txt>]\nthe notes"),
        ),
        (
            r#"{"content":[{"type":"resource","resource":{"uri":"file:///report.pdf","mimeType":"application/pdf","blob":"JVBERi0x"}}]}"#.into(),
            Ok("[resource <file:///report.pdf>: application/pdf, 6 bytes]"),
        ),
        (
            r#"{"content":[{"type":"video"}]}"#.into(),
            Ok("[video content]"),
        ),
        (
            r#"{"content":[],"structuredContent":{"temperature":21.5,"unit":"C"}}"#.into(),
            Ok(r#"{"temperature":21.5,"unit":"C"}"#),
        ),
        (
            r#"{"content":[{"type":"text","text":"21.5 C"}],"structuredContent":{"temperature":21.5}}"#.into(),
            Ok("21.5 C"),
        ),
        (
            r#"{"content":[{"type":"text","text":"no such city"}],"isError":true}"#.into(),
            Err(ToolError::Failed("no such city".into())),
        ),
        (
            r#"{"content":[],"isError":true}"#.into(),
            Err(ToolError::Failed("the tool reported an error and said no more".into())),
        ),
        (
            r#"{"resultType":"input_required","inputRequests":{"confirm":{"method":"elicitation/create","params":{}}}}"#.into(),
            Err(ToolError::Failed("the tool asked the user for more input, which tao cannot give it".into())),
        ),
        (r#"{}"#.into(), Ok("")),
    ];
    for (result, expected) in cases {
        let seen = mcp::observation(&json::from_str(&result).unwrap());
        assert_eq!(seen.map(|o| o.text), expected.map(String::from), "{result}");
    }
}

/// "Invalid params" is the model's to repair; other errors are the tool failing.
#[test]
fn an_invalid_params_error_is_bad_input() {
    let cases = [
        (
            json_result_error(200, -32602, "Invalid arguments: message must be a string"),
            Err(ToolError::BadInput(
                "Invalid arguments: message must be a string".into(),
            )),
        ),
        (
            json_result_error(200, -32603, "database down"),
            Err(ToolError::Failed(
                "the server answered error -32603: database down".into(),
            )),
        ),
    ];
    for (i, (reply, expected)) in cases.into_iter().enumerate() {
        let url = format!("https://bad-input-{i}.example/mcp");
        let transport = Scripted::new(vec![json_result(1, ECHO_TOOLS), reply]);
        let client = client(&url);
        let tools = list(&client, &transport).unwrap();
        assert_eq!(call(&client, &transport, &tools[0], json!({})), expected);
    }
}

/// A modern server (known to be one) may refuse the arguments with HTTP 400 and the JSON-RPC
/// error: still the model's to repair.
#[test]
fn a_modern_servers_400_with_invalid_params_is_bad_input() {
    let transport = Scripted::new(vec![
        json_result(1, ECHO_TOOLS),
        json_result_error(400, -32602, "message: expected string"),
    ]);
    let client = client("https://modern-400.example/mcp");
    let tools = list(&client, &transport).unwrap();
    assert_eq!(
        call(&client, &transport, &tools[0], json!({})),
        Err(ToolError::BadInput("message: expected string".into()))
    );
}

fn json_result_error(status: u16, code: i64, message: &str) -> Reply {
    json_reply(
        status,
        &format!(r#"{{"jsonrpc":"2.0","id":2,"error":{{"code":{code},"message":"{message}"}}}}"#),
    )
}

// ---- The setting ----

fn listed(names: &[&str]) -> Vec<Listed> {
    names
        .iter()
        .map(|name| Listed {
            name: name.to_string(),
            ..echo()
        })
        .collect()
}

/// (name given, server's name, asks the user first)
fn given(specs: &[(ToolSpec, String)]) -> Vec<(&str, &str, bool)> {
    specs
        .iter()
        .map(|(spec, name)| (spec.name.as_str(), name.as_str(), spec.needs_approval))
        .collect()
}

#[test]
fn tool_names_are_kept_apart_with_the_servers_label() {
    let server = server("https://mcp.example.com/mcp");
    let label = mcp::label(&server.url);
    assert_eq!(label, "mcp");
    let mut taken = vec!["Search".into(), "fetch".into(), "MCP_fetch".into()];
    let tools = listed(&["search", "fetch", "echo", "echo"]);
    let specs = mcp::specs(&server, &label, &tools, &mut taken);
    assert_eq!(
        given(&specs),
        [
            ("mcp_search", "search", true),
            ("mcp2_fetch", "fetch", true),
            ("echo", "echo", true),
            ("mcp_echo", "echo", true),
        ]
    );
    assert_eq!(
        taken,
        [
            "Search",
            "fetch",
            "MCP_fetch",
            "mcp_search",
            "mcp2_fetch",
            "echo",
            "mcp_echo"
        ]
    );
    assert_eq!(specs[0].0.description, "Echoes.");

    // A second server with the same tools, listed after: its label, then numbered.
    let second = mcp::specs(&server, &label, &listed(&["search"]), &mut taken);
    assert_eq!(given(&second), [("mcp2_search", "search", true)]);
}

#[test]
fn the_setting_chooses_the_tools_offered_and_those_that_ask_first() {
    let tools = listed(&["read", "write", "delete"]);
    let cases = [
        (
            None,
            Approve::All,
            vec![("read", true), ("write", true), ("delete", true)],
        ),
        (
            None,
            Approve::Never,
            vec![("read", false), ("write", false), ("delete", false)],
        ),
        (
            None,
            Approve::Only(vec!["write".into(), "delete".into()]),
            vec![("read", false), ("write", true), ("delete", true)],
        ),
        (
            Some(vec!["read".to_string(), "nope".to_string()]),
            Approve::Never,
            vec![("read", false)],
        ),
        (Some(Vec::new()), Approve::All, vec![]),
    ];
    for (offered, approve, expected) in cases {
        let server = Server {
            tools: offered,
            approve,
            ..server("https://files.example/mcp")
        };
        let specs = mcp::specs(&server, "files", &tools, &mut Vec::new());
        let seen: Vec<(&str, bool)> = given(&specs).iter().map(|(n, _, a)| (*n, *a)).collect();
        assert_eq!(seen, expected, "{:?} {:?}", server.tools, server.approve);
    }
}

#[test]
fn a_misspelled_tool_name_in_the_setting_is_an_error_naming_the_servers_tools() {
    let tools = listed(&["read", "write"]);
    let named = |offered: Option<Vec<&str>>, approve: Approve| Server {
        tools: offered.map(|names| names.into_iter().map(String::from).collect()),
        approve,
        ..server("https://files.example/mcp")
    };
    assert_eq!(
        mcp::check_names(&named(Some(vec!["read"]), Approve::All), &tools),
        Ok(())
    );
    let misspelled = mcp::check_names(&named(Some(vec!["raed"]), Approve::All), &tools);
    assert_eq!(
        misspelled.unwrap_err().message,
        "the MCP server https://files.example/mcp has no tool \"raed\"; its tools are: read, write"
    );
    let asked = named(None, Approve::Only(vec!["wirte".into()]));
    assert!(mcp::check_names(&asked, &tools)
        .unwrap_err()
        .message
        .contains("\"wirte\""));
}

#[test]
fn labels_are_the_hosts_first_word() {
    let cases = [
        ("https://mcp.example.com/mcp", "mcp"),
        ("http://127.0.0.1:3001/mcp", "127_0_0_1_3001"),
        ("http://localhost:3000/mcp", "localhost"),
        ("https://user:secret@tools.example.org/mcp", "tools"),
        ("https://my-server.example/mcp?x=1", "my_server"),
        ("https://", "server"),
    ];
    for (url, label) in cases {
        assert_eq!(mcp::label(url), label, "{url}");
    }
}

fn setting(text: &str) -> Result<Vec<Server>, Error> {
    mcp::servers(&json::from_str(&text.replace("CANARY", CANARY)).unwrap())
}

#[test]
fn the_setting_reads_urls_and_objects() {
    let servers = setting(
        r#"[" https://a.example/mcp ", {"url":"http://localhost:3001/mcp","headers":{"Authorization":"CANARY","X-Tenant":"acme"},"tools":["echo"],"approve":["echo"]}, {"url":"https://c.example/mcp","approve":false,"tools":null}]"#,
    )
    .unwrap();
    assert_eq!(
        servers,
        [
            Server {
                url: "https://a.example/mcp".into(),
                headers: Vec::new(),
                tools: None,
                approve: Approve::All,
            },
            Server {
                url: "http://localhost:3001/mcp".into(),
                headers: vec![
                    ("authorization".into(), CANARY.into()),
                    ("x-tenant".into(), "acme".into()),
                ],
                tools: Some(vec!["echo".into()]),
                approve: Approve::Only(vec!["echo".into()]),
            },
            Server {
                url: "https://c.example/mcp".into(),
                headers: Vec::new(),
                tools: None,
                approve: Approve::Never,
            },
        ]
    );
    assert_eq!(setting("[]").unwrap(), []);
    // Spaces and a line break around a pasted token are dropped, as fetch drops them.
    let pasted =
        setting(r#"[{"url":"https://a.example/mcp","headers":{"Authorization":" CANARY\n"}}]"#);
    assert_eq!(
        pasted.unwrap()[0].headers,
        [("authorization".into(), CANARY.into())]
    );
}

/// Every mistake in the setting is named, and no message quotes a header's value.
#[test]
fn mistakes_in_the_setting_are_named_without_the_token() {
    let cases = [
        (r#"{"url":"https://a.example/mcp"}"#, "mcp must be a list of servers"),
        (r#"[5]"#, "mcp must be a list of servers"),
        (r#"[{"headers":{"Authorization":"CANARY"}}]"#, "each MCP server needs a url"),
        (
            r#"[{"url":"ftp://a.example/mcp","headers":{"Authorization":"CANARY"}}]"#,
            "the MCP server \"ftp://a.example/mcp\" must be an http:// or https:// URL",
        ),
        (r#"["a.example/mcp"]"#, "must be an http:// or https:// URL"),
        (
            r#"[{"url":"https://a.example/mcp","header":{"Authorization":"CANARY"}}]"#,
            "unknown field \"header\" of the MCP server https://a.example/mcp; the fields are url, headers, tools, approve",
        ),
        (
            r#"[{"url":"https://a.example/mcp","headers":{"Authorization":"CANARY","X-Retries":3}}]"#,
            "the header \"X-Retries\" of the MCP server https://a.example/mcp must be a string",
        ),
        (
            r#"[{"url":"https://a.example/mcp","headers":{"Authorization":["CANARY"]}}]"#,
            "the header \"Authorization\" of the MCP server https://a.example/mcp must be a string",
        ),
        (
            r#"[{"url":"https://a.example/mcp","headers":["Authorization: CANARY"]}]"#,
            "the headers of the MCP server https://a.example/mcp must be an object of strings",
        ),
        (
            r#"[{"url":"https://a.example/mcp","headers":{"Auth header":"CANARY"}}]"#,
            "\"Auth…\" is not a header name (the MCP server https://a.example/mcp): give each header's name and value apart",
        ),
        // The token pasted with its name is not quoted back.
        (
            r#"[{"url":"https://a.example/mcp","headers":{"Authorization: CANARY":""}}]"#,
            "\"Authorization…\" is not a header name",
        ),
        // What fetch would refuse, quoting the value in its own error.
        (
            r#"[{"url":"https://a.example/mcp","headers":{"Authorization":"CANARY\nX-Evil: 1"}}]"#,
            "the header \"Authorization\" of the MCP server https://a.example/mcp has a character a header may not carry",
        ),
        (
            r#"[{"url":"https://a.example/mcp","headers":{"Authorization":"CANARY…"}}]"#,
            "has a character a header may not carry",
        ),
        (
            r#"[{"url":"https://a.example/mcp","headers":{"Authorization":"CANARY"},"tools":"echo"}]"#,
            "tools of the MCP server https://a.example/mcp must be a list of its tools' names",
        ),
        (
            r#"[{"url":"https://a.example/mcp","headers":{"Authorization":"CANARY"},"approve":"yes"}]"#,
            "approve (true, false or a list) of the MCP server https://a.example/mcp must be a list",
        ),
    ];
    for (text, expected) in cases {
        let e = error(setting(text));
        assert_eq!(e.kind, ErrorKind::Config, "{text}");
        assert!(e.message.contains(expected), "{text}: {}", e.message);
    }
}
