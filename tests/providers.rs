//! The providers, natively: request bodies, stream decoding against recorded streams in each
//! vendor's documented format (split at every byte), retries, and the failures users hit.
//!
//! A recorded transport stands in for `fetch`: it answers each request with the next canned
//! response, cut into chunks where the test says, and records what was sent, whether the
//! body was dropped before its end (the client-side stop), and every sleep (for backoff).

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use tao_agent::error::ErrorKind;
use tao_agent::format::Format;
use tao_agent::host::{block_on, Abort, Host, LocalBoxFuture};
use tao_agent::json;
use tao_agent::json::Value;
use tao_agent::llm::http::{Api, Body, HttpModel, HttpRequest, HttpResponse, Settings, Transport};
use tao_agent::llm::provider::{FIRST_BYTE_MS, IDLE_MS};
use tao_agent::llm::{Delta, Message, Model, Reply, Request, Role};
use tao_agent::tools::{string_schema, FnTool, Registry, ToolSpec};
use tao_agent::trajectory::StopReason;
use tao_agent::{Agent, Config, Error};

pub(crate) const CANARY: &str = "sk-canary-0123456789abcdef";

/// A canned response: status, headers, and the body in chunks.
#[derive(Clone)]
pub(crate) struct Canned {
    pub(crate) status: u16,
    pub(crate) retry_after: Option<String>,
    pub(crate) content_type: &'static str,
    pub(crate) chunks: Vec<Vec<u8>>,
    /// A server that goes quiet: `Some(0)` sends no response at all, `Some(n)` sends the
    /// headers and `n - 1` chunks, then nothing (the test's clock then runs out a timeout).
    pub(crate) stall: Option<usize>,
}

pub(crate) fn sse(stream: &[u8], cuts: &[usize]) -> Canned {
    let mut chunks = Vec::new();
    let mut at = 0;
    for &cut in cuts.iter().chain([stream.len()].iter()) {
        chunks.push(stream[at..cut].to_vec());
        at = cut;
    }
    Canned {
        status: 200,
        retry_after: None,
        content_type: "text/event-stream",
        chunks,
        stall: None,
    }
}

pub(crate) fn status(code: u16, body: &str) -> Canned {
    Canned {
        status: code,
        retry_after: None,
        content_type: "application/json",
        chunks: vec![body.as_bytes().to_vec()],
        stall: None,
    }
}

#[derive(Default)]
pub(crate) struct Recorded {
    pub(crate) responses: RefCell<VecDeque<Result<Canned, Error>>>,
    pub(crate) sent: RefCell<Vec<HttpRequest>>,
    /// Bodies dropped before their last chunk was read: streams the client stopped.
    pub(crate) cut_bodies: Rc<Cell<u32>>,
}

impl Recorded {
    pub(crate) fn new(responses: Vec<Canned>) -> Rc<Self> {
        let r = Recorded::default();
        r.responses.replace(responses.into_iter().map(Ok).collect());
        Rc::new(r)
    }
    pub(crate) fn bodies(&self) -> Vec<Value> {
        self.sent
            .borrow()
            .iter()
            .map(|r| tao_agent::json::from_str(&r.body).unwrap())
            .collect()
    }
}

struct RecordedBody {
    chunks: VecDeque<Vec<u8>>,
    cut: Rc<Cell<u32>>,
    /// Chunks left before the body goes quiet for good.
    until_stall: Option<usize>,
}

impl Body for RecordedBody {
    fn chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, Error>> {
        if let Some(left) = &mut self.until_stall {
            if *left == 0 {
                return Box::pin(std::future::pending());
            }
            *left -= 1;
        }
        Box::pin(std::future::ready(Ok(self.chunks.pop_front())))
    }
}

impl Drop for RecordedBody {
    fn drop(&mut self) {
        if !self.chunks.is_empty() {
            self.cut.set(self.cut.get() + 1);
        }
    }
}

impl Transport for Recorded {
    fn send(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, Error>> {
        self.sent.borrow_mut().push(request);
        let next = self
            .responses
            .borrow_mut()
            .pop_front()
            .unwrap_or_else(|| Ok(status(500, "no more canned responses")));
        let cut = self.cut_bodies.clone();
        if matches!(&next, Ok(Canned { stall: Some(0), .. })) {
            return Box::pin(std::future::pending());
        }
        Box::pin(std::future::ready(next.map(|c| HttpResponse {
            status: c.status,
            retry_after: c.retry_after,
            content_type: c.content_type.into(),
            session: None,
            body: Box::new(RecordedBody {
                chunks: c.chunks.into(),
                cut,
                until_stall: c.stall.map(|n| n - 1),
            }),
        })))
    }
}

/// A clock that moves only when something sleeps, and remembers the sleeps.
#[derive(Default)]
pub(crate) struct FakeClock {
    now: Cell<f64>,
    pub(crate) slept: RefCell<Vec<u32>>,
}

impl Host for FakeClock {
    fn now_ms(&self) -> f64 {
        self.now.get()
    }
    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        self.now.set(self.now.get() + f64::from(ms));
        self.slept.borrow_mut().push(ms);
        Box::pin(std::future::ready(()))
    }
}

pub(crate) fn settings(api: Api, base: &str) -> Settings {
    Settings {
        api,
        base_url: base.into(),
        model: "test-model".into(),
        key: CANARY.into(),
        temperature: Some(0.0),
        max_tokens: None,
        first_byte_ms: FIRST_BYTE_MS,
        idle_ms: IDLE_MS,
    }
}

pub(crate) fn model(api: Api, transport: &Rc<Recorded>) -> (HttpModel, Rc<FakeClock>) {
    let clock = Rc::new(FakeClock::default());
    let base = match api {
        Api::OpenAi => "https://api.openai.com/v1/",
        Api::Anthropic => "https://api.anthropic.com",
    };
    let m = HttpModel::new(settings(api, base), transport.clone(), clock.clone());
    (m, clock)
}

pub(crate) fn search_spec() -> ToolSpec {
    ToolSpec::new("search", "Searches.", string_schema("query"))
}

/// Runs one completion; returns the streamed text, the notes, and the reply.
pub(crate) fn complete(
    model: &HttpModel,
    tools: &[ToolSpec],
    stop: &[String],
) -> (String, Vec<String>, Result<Reply, Error>) {
    let messages = vec![
        Message::new(Role::System, "Be brief."),
        Message::new(Role::User, "What is the hometown of Apple's CEO?"),
    ];
    let abort = Abort::default();
    let (mut text, mut notes) = (String::new(), Vec::new());
    let reply = block_on(model.complete(
        Request {
            messages: &messages,
            stop,
            tools,
            abort: &abort,
            constraint: None,
        },
        &mut |d| {
            match d {
                Delta::Text(t) => text.push_str(t),
                Delta::Note(n) => notes.push(n.to_string()),
                Delta::Reasoning(_) | Delta::Usage(_) | Delta::Download { .. } => {}
            }
            true
        },
    ));
    (text, notes, reply)
}

pub(crate) fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/streams/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

pub(crate) const MRKL_STEP: &str = "Thought: I need to find out who the CEO of Apple is first.\nAction: search\nAction Input: current CEO of Apple";

#[test]
fn recorded_streams_decode_the_same_at_every_byte_split() {
    // (fixture, API, streamed text, tool called, (prompt, completion) tokens)
    type Case<'a> = (&'a str, Api, &'a str, Option<&'a str>, (u64, u64));
    let cases: [Case; 5] = [
        ("openai-mrkl.sse", Api::OpenAi, MRKL_STEP, None, (412, 27)),
        ("openai-tool-call.sse", Api::OpenAi, "I need to find out who the CEO of Apple is.", Some("search"), (201, 18)),
        ("ollama-zh-crlf.sse", Api::OpenAi, "Thought: 我需要先查出苹果公司的现任 CEO。\nAction: search\nAction Input: 苹果公司现任CEO", None, (0, 0)),
        ("anthropic-mrkl.sse", Api::Anthropic, MRKL_STEP, None, (472, 31)),
        ("anthropic-tool-use.sse", Api::Anthropic, "I need to find out who the CEO of Apple is.", Some("search"), (385, 89)),
    ];
    for (name, api, want_text, want_tool, (prompt, completion)) in cases {
        let stream = fixture(name);
        for cut in 0..=stream.len() {
            let transport = Recorded::new(vec![sse(&stream, &[cut])]);
            let (m, _) = model(api, &transport);
            let (text, _, reply) = complete(&m, &[], &[]);
            let reply = reply.unwrap_or_else(|e| panic!("{name} cut at {cut}: {e}"));
            assert_eq!(text, want_text, "{name} cut at {cut}");
            match want_tool {
                Some(tool) => {
                    assert_eq!(reply.tool_calls.len(), 1, "{name}");
                    assert_eq!(reply.tool_calls[0].name, tool);
                    assert_eq!(
                        reply.tool_calls[0].arguments,
                        json!({"query": "current CEO of Apple"})
                    );
                }
                None => assert!(reply.tool_calls.is_empty()),
            }
            let usage = reply.usage.map(|u| (u.prompt_tokens, u.completion_tokens));
            assert_eq!(usage.unwrap_or((0, 0)), (prompt, completion), "{name}");
        }
        // And a byte at a time.
        let one_by_one: Vec<usize> = (1..stream.len()).collect();
        let transport = Recorded::new(vec![sse(&stream, &one_by_one)]);
        let (m, _) = model(api, &transport);
        assert_eq!(complete(&m, &[], &[]).0, want_text, "{name} byte by byte");
    }
}

#[test]
fn openai_request_body_and_headers() {
    let transport = Recorded::new(vec![sse(&fixture("openai-mrkl.sse"), &[])]);
    let (m, _) = model(Api::OpenAi, &transport);
    complete(&m, &[search_spec()], &["\nObservation:".into()])
        .2
        .unwrap();
    let sent = &transport.sent.borrow()[0];
    assert_eq!(sent.url, "https://api.openai.com/v1/chat/completions");
    assert_eq!(
        sent.headers,
        vec![
            ("content-type".to_string(), "application/json".to_string()),
            ("authorization".to_string(), format!("Bearer {CANARY}")),
        ]
    );
    let body: Value = tao_agent::json::from_str(&sent.body).unwrap();
    assert_eq!(
        body,
        json!({
            "model": "test-model",
            "messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": "What is the hometown of Apple's CEO?"}
            ],
            "stream": true,
            "stream_options": {"include_usage": true},
            "stop": ["\nObservation:"],
            "temperature": 0.0,
            "tools": [{"type": "function", "function": {"name": "search", "description": "Searches.",
                "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}}]
        })
    );
    // A local server without a key gets no Authorization header at all.
    let mut local = settings(Api::OpenAi, "http://localhost:11434/v1");
    local.key.clear();
    let m = HttpModel::new(local, transport.clone(), Rc::new(FakeClock::default()));
    let request = m.http_request(&Request {
        messages: &[],
        stop: &[],
        tools: &[],
        abort: &Abort::default(),
        constraint: None,
    });
    assert_eq!(request.url, "http://localhost:11434/v1/chat/completions");
    assert_eq!(request.headers.len(), 1);
}

#[test]
fn anthropic_request_body_and_headers() {
    let transport = Recorded::new(vec![sse(&fixture("anthropic-mrkl.sse"), &[])]);
    let (m, _) = model(Api::Anthropic, &transport);
    complete(&m, &[search_spec()], &["\nObservation:".into()])
        .2
        .unwrap();
    let sent = &transport.sent.borrow()[0];
    assert_eq!(sent.url, "https://api.anthropic.com/v1/messages");
    let names: Vec<&str> = sent.headers.iter().map(|h| h.0.as_str()).collect();
    assert_eq!(
        names,
        [
            "content-type",
            "x-api-key",
            "anthropic-version",
            "anthropic-dangerous-direct-browser-access"
        ]
    );
    let body: Value = tao_agent::json::from_str(&sent.body).unwrap();
    assert_eq!(
        body,
        json!({
            "model": "test-model",
            "max_tokens": 1024,
            "system": "Be brief.",
            "messages": [{"role": "user", "content": "What is the hometown of Apple's CEO?"}],
            "stream": true,
            "stop_sequences": ["\nObservation:"],
            "temperature": 0.0,
            "tools": [{"name": "search", "description": "Searches.",
                "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}]
        })
    );
}

/// A scripted run in the native format, to check how tool calls and results are sent back.
fn native_trajectory_messages(api: Api) -> Value {
    let call = sse(
        &fixture(match api {
            Api::OpenAi => "openai-tool-call.sse",
            Api::Anthropic => "anthropic-tool-use.sse",
        }),
        &[],
    );
    let transport = Recorded::new(vec![call, status(500, "stop here")]);
    let (m, _) = model(api, &transport);
    let mut tools = Registry::new();
    tools.register(Rc::new(FnTool::new(
        "search",
        "Searches.",
        "query",
        |q: &str| Ok(format!("Results for {q}: Tim Cook.")),
    )));
    let config = Config {
        format: Format::Tools,
        retries: 0,
        ..Config::default()
    };
    let agent = Agent::new(config, Box::new(m), tools, Rc::new(FakeClock::default()));
    let t = block_on(agent.run("Who is Apple's CEO?", &mut |_| {}));
    assert_eq!(
        t.steps[0].thought,
        "I need to find out who the CEO of Apple is."
    );
    assert_eq!(
        t.steps[0].observation(),
        Some("Results for current CEO of Apple: Tim Cook.")
    );
    let bodies = transport.bodies();
    bodies[1]["messages"].clone()
}

#[test]
fn native_tool_calls_and_results_go_back_in_each_apis_shape() {
    // Under the provider's own ids, as they came (some servers check them).
    let openai = native_trajectory_messages(Api::OpenAi);
    assert_eq!(
        openai[2],
        json!({"role": "assistant", "content": "I need to find out who the CEO of Apple is.",
               "tool_calls": [{"id": "call_DdmO9pD3xa9XTPNJ32zg2hcA", "type": "function",
                   "function": {"name": "search", "arguments": "{\"query\":\"current CEO of Apple\"}"}}]})
    );
    assert_eq!(
        openai[3],
        json!({"role": "tool", "tool_call_id": "call_DdmO9pD3xa9XTPNJ32zg2hcA", "content": "Results for current CEO of Apple: Tim Cook."})
    );
    let anthropic = native_trajectory_messages(Api::Anthropic);
    assert_eq!(
        anthropic[1],
        json!({"role": "assistant", "content": [
            {"type": "text", "text": "I need to find out who the CEO of Apple is."},
            {"type": "tool_use", "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "name": "search", "input": {"query": "current CEO of Apple"}}]})
    );
    assert_eq!(
        anthropic[2],
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
            "content": "Results for current CEO of Apple: Tim Cook."}]})
    );
}

#[test]
fn rate_limits_are_retried_honouring_retry_after_then_given_up() {
    let limited = || Canned {
        retry_after: Some("7".into()),
        ..status(
            429,
            r#"{"error":{"message":"Rate limit reached for gpt-4o-mini","type":"requests","code":"rate_limit_exceeded"}}"#,
        )
    };
    let transport = Recorded::new(vec![limited(), sse(&fixture("openai-mrkl.sse"), &[])]);
    let (m, clock) = model(Api::OpenAi, &transport);
    let (text, notes, reply) = complete(&m, &[], &[]);
    assert!(reply.is_ok());
    assert_eq!(text, MRKL_STEP);
    assert_eq!(notes, ["rate limited (HTTP 429); retrying in 7 s (1/3)"]);
    assert_eq!(clock.slept.borrow().iter().sum::<u32>(), 7000);

    // Without Retry-After: 1 s, 2 s, 4 s, then a clear error.
    let transport = Recorded::new(vec![
        status(503, "{\"error\":{\"message\":\"overloaded\"}}");
        4
    ]);
    let (m, clock) = model(Api::OpenAi, &transport);
    let (_, notes, reply) = complete(&m, &[], &[]);
    let error = reply.unwrap_err();
    assert_eq!(error.kind, ErrorKind::Server);
    assert_eq!(
        error.message,
        "the server failed (HTTP 503) after 3 retries: overloaded; try again later"
    );
    assert_eq!(notes.len(), 3);
    assert_eq!(clock.slept.borrow().iter().sum::<u32>(), 7000);
    assert_eq!(transport.sent.borrow().len(), 4);
}

#[test]
fn each_failure_names_its_cause_and_fix_and_never_the_key() {
    let echo = format!(
        r#"{{"error":{{"message":"Incorrect API key provided: {CANARY}.","type":"invalid_request_error","code":"invalid_api_key"}}}}"#
    );
    let cases: Vec<(Api, Canned, ErrorKind, &str)> = vec![
        (Api::OpenAi, status(401, &echo), ErrorKind::Auth, "the endpoint refused the API key (HTTP 401: Incorrect API key provided: [key]. [invalid_api_key]); check that the key is right"),
        (Api::Anthropic, status(401, r#"{"type":"error","error":{"type":"authentication_error","message":"CORS requests must set 'anthropic-dangerous-direct-browser-access' header"}}"#), ErrorKind::Auth, "anthropic refused a request from a web page"),
        (Api::OpenAi, status(404, r#"{"error":{"message":"The model `test-model` does not exist or you do not have access to it.","type":"invalid_request_error","code":"model_not_found"}}"#), ErrorKind::NotFound, "the model \"test-model\" was not found"),
        (Api::OpenAi, Canned { content_type: "text/plain", ..status(404, "404 page not found") }, ErrorKind::NotFound, "nothing answers at https://api.openai.com/v1/chat/completions (HTTP 404: 404 page not found); the base URL is probably wrong"),
        (Api::OpenAi, status(400, r#"{"error":{"message":"This model's maximum context length is 8192 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#), ErrorKind::TooLong, "the prompt is longer than the model's context window"),
        (Api::Anthropic, status(400, r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#), ErrorKind::TooLong, "the prompt is longer than the model's context window"),
        (Api::OpenAi, sse(b"data: {\"choices\":[{\"delta\":{\"content\":\"Thou\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"ght\n", &[]), ErrorKind::Server, "openai stream failed: a chunk is not valid JSON"),
        (Api::OpenAi, sse(b"data: {\"choices\":[{\"delta\":{\"content\":\"Thought: I\"}}]}\n\n", &[]), ErrorKind::Server, "openai stream failed: the stream ended early, after 10 characters, without its end marker"),
        (Api::Anthropic, sse(b"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":5}}}\n\nevent: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n", &[]), ErrorKind::Server, "anthropic stream failed: the endpoint reported an error mid-stream: Overloaded [overloaded_error]"),
    ];
    for (api, canned, kind, start) in cases {
        let transport = Recorded::new(vec![canned]);
        let (m, _) = model(api, &transport);
        let error = complete(&m, &[], &[]).2.unwrap_err();
        assert_eq!(error.kind, kind, "{}", error.message);
        assert!(
            error.message.starts_with(start),
            "{}\n  should start with\n{start}",
            error.message
        );
        assert!(!error.message.contains(CANARY));
    }
}

#[test]
fn a_network_failure_says_which_hint_applies() {
    let cases = [
        (Api::OpenAi, "http://localhost:11434/v1", "OLLAMA_ORIGINS"),
        (
            Api::OpenAi,
            "http://127.0.0.1:1234/v1",
            "is the server running",
        ),
        (Api::OpenAi, "https://api.example.com/v1", "CORS"),
        (
            Api::Anthropic,
            "https://api.anthropic.com",
            "anthropic-dangerous-direct-browser-access",
        ),
    ];
    for (api, base, hint) in cases {
        let transport = Rc::new(Recorded::default());
        transport
            .responses
            .borrow_mut()
            .push_back(Err(Error::new(ErrorKind::Network, "Failed to fetch")));
        let m = HttpModel::new(
            settings(api, base),
            transport.clone(),
            Rc::new(FakeClock::default()),
        );
        let error = complete(&m, &[], &[]).2.unwrap_err();
        assert_eq!(error.kind, ErrorKind::Network);
        assert!(
            error.message.starts_with("could not reach "),
            "{}",
            error.message
        );
        assert!(
            error.message.contains("(Failed to fetch)"),
            "{}",
            error.message
        );
        assert!(error.message.contains(hint), "{}", error.message);
    }
}

#[test]
fn a_rejected_stop_parameter_is_dropped_and_the_request_sent_again() {
    let refusal = r#"{"error":{"message":"Unsupported parameter: 'stop' is not supported with this model.","type":"invalid_request_error","param":"stop","code":"unsupported_parameter"}}"#;
    let transport = Recorded::new(vec![
        status(400, refusal),
        sse(&fixture("openai-mrkl.sse"), &[]),
        sse(&fixture("openai-mrkl.sse"), &[]),
    ]);
    let (m, _) = model(Api::OpenAi, &transport);
    let stop = ["\nObservation:".to_string()];
    let (text, notes, reply) = complete(&m, &[], &stop);
    assert!(reply.is_ok());
    assert_eq!(text, MRKL_STEP);
    assert!(
        notes[0].starts_with("the endpoint does not accept \"stop\""),
        "{notes:?}"
    );
    assert!(complete(&m, &[], &stop).2.is_ok()); // and it stays dropped for this model
    let bodies = transport.bodies();
    assert!(bodies[0].get("stop").is_some());
    assert!(bodies[1].get("stop").is_none());
    assert!(bodies[2].get("stop").is_none());
}

pub(crate) fn knowledge_tools() -> Registry {
    tao_agent::tools::builtin(&["search".into()], "en").unwrap()
}

pub(crate) fn openai_stream(text: &str) -> Canned {
    let mut s = String::new();
    for piece in text.as_bytes().chunks(5) {
        let piece = String::from_utf8_lossy(piece);
        s += &format!(
            "data: {}\n\n",
            json!({"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": null}]})
        );
    }
    s += "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n";
    s += "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":20}}\n\ndata: [DONE]\n\n";
    // One chunk per event, as a server flushing each one sends them.
    let cuts: Vec<usize> = s
        .match_indices("\n\n")
        .map(|(i, _)| i + 2)
        .filter(|&i| i < s.len())
        .collect();
    sse(s.as_bytes(), &cuts)
}

pub(crate) fn agent_over(transport: &Rc<Recorded>, format: Format) -> Agent {
    let (m, _) = model(Api::OpenAi, transport);
    let config = Config {
        format,
        ..Config::default()
    };
    Agent::new(
        config,
        Box::new(m),
        knowledge_tools(),
        Rc::new(FakeClock::default()),
    )
}

#[test]
fn a_run_over_streams_cuts_a_runaway_reply_at_the_invented_observation() {
    let runaway = format!("{MRKL_STEP}\nObservation: Steve Jobs is the CEO.\nThought: I know.\nFinal Answer: Cupertino{}", " blah".repeat(400));
    let transport = Recorded::new(vec![
        openai_stream(&runaway),
        openai_stream("Thought: Tim Cook is the CEO. I need his hometown.\nAction: search\nAction Input: Tim Cook hometown"),
        openai_stream("Thought: He was born in Mobile, Alabama.\nFinal Answer: Mobile, Alabama"),
    ]);
    let agent = agent_over(&transport, Format::Mrkl);
    let t = block_on(agent.run(
        "What is the hometown of the current CEO of Apple Inc.?",
        &mut |_| {},
    ));
    assert_eq!(t.answer(), Some("Mobile, Alabama"));
    assert_eq!(t.steps[0].raw().trim_end(), MRKL_STEP);
    assert!(t.steps[0].observation().unwrap().contains("Tim Cook"));
    // The stream was closed at the cut (the body dropped unread), not read to its end.
    assert_eq!(transport.cut_bodies.get(), 1);
    assert!(
        t.steps[0].saved_chars() > 0 && t.steps[0].saved_chars() < 40,
        "{}",
        t.steps[0].saved_chars()
    );
    assert_eq!(
        (t.stats().prompt_tokens, t.stats().completion_tokens),
        (200, 40)
    );
    assert!(t
        .steps
        .iter()
        .all(|s| s.model_calls[0].first_token_ms.is_some()));
}

#[test]
fn auto_falls_back_to_text_react_when_tools_are_rejected_and_says_so() {
    let refusal = r#"{"error":{"message":"registry.ollama.ai/library/gemma:2b does not support tools","type":"api_error","param":null,"code":null}}"#;
    let transport = Recorded::new(vec![
        status(400, refusal),
        openai_stream(MRKL_STEP),
        openai_stream(
            "Thought: Tim Cook was born in Mobile, Alabama.\nFinal Answer: Mobile, Alabama",
        ),
    ]);
    let agent = agent_over(&transport, Format::Auto);
    let mut events = Vec::new();
    let t = block_on(agent.run("Q?", &mut |e| {
        events.push(tao_agent::json::from_str(&tao_agent::to_json::to_string(e)).unwrap())
    }));
    assert_eq!(t.answer(), Some("Mobile, Alabama"));
    assert_eq!(t.format.name(), "mrkl");
    let switch = t.steps[0].switch.as_ref().unwrap();
    assert_eq!((switch.from.name(), switch.to.name()), ("auto", "mrkl"));
    assert!(switch.why.contains("does not support tools"));
    assert!(events.iter().any(|e| e["type"] == "switch"));
    let bodies = transport.bodies();
    assert!(bodies[0].get("tools").is_some());
    assert!(bodies[1].get("tools").is_none());
    assert_eq!(bodies[1]["stop"], json!(["\nObservation:"]));
    // Regression: after the switch the prompt itself is text ReAct (it was still rendered in
    // the native format: no Thought/Action instructions, no tool list).
    assert_switched_prompt(&bodies[1], 0);
    assert_switched_prompt(&bodies[2], 1);
    // Strict `tools` stops with an error that says what to choose instead.
    let transport = Recorded::new(vec![status(400, refusal)]);
    let t = block_on(agent_over(&transport, Format::Tools).run("Q?", &mut |_| {}));
    let stop = t.stop.unwrap();
    assert_eq!(stop.reason, StopReason::Error);
    assert!(stop.message.unwrap().contains("choose the format \"auto\""));
}

/// What a request body sent after `auto` fell back to `mrkl` must hold: the mrkl
/// instructions with the tool list, and the `steps` earlier turns as text, not tool calls.
fn assert_switched_prompt(body: &Value, steps: usize) {
    let messages = body["messages"].as_array().unwrap();
    let system = messages[0]["content"].as_str().unwrap();
    assert!(system.contains("Action Input:"), "{system}");
    assert!(system.contains("[search]"), "{system}");
    assert_eq!(messages[1]["content"], "Question: Q?");
    assert!(messages
        .iter()
        .all(|m| m.get("tool_calls").is_none() && m["role"] != "tool"));
    let turns: Vec<&str> = messages
        .iter()
        .filter(|m| m["role"] == "assistant")
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(turns.len(), steps);
    assert!(
        turns.iter().all(|t| t.contains("Action: search")),
        "{turns:?}"
    );
}

#[test]
fn auto_falls_back_when_the_model_answers_in_text_react() {
    let transport = Recorded::new(vec![
        openai_stream(MRKL_STEP),
        openai_stream(
            "Thought: Tim Cook was born in Mobile, Alabama.\nFinal Answer: Mobile, Alabama",
        ),
    ]);
    let t = block_on(agent_over(&transport, Format::Auto).run("Q?", &mut |_| {}));
    assert_eq!(t.steps[0].action().unwrap().tool, "search");
    assert!(t.steps[0]
        .switch
        .as_ref()
        .unwrap()
        .why
        .contains("text ReAct"));
    assert_eq!(t.answer(), Some("Mobile, Alabama"));
    assert_switched_prompt(&transport.bodies()[1], 1);
    // And a plain text answer in `auto` is simply the answer.
    let transport = Recorded::new(vec![openai_stream("Mobile, Alabama.")]);
    let t = block_on(agent_over(&transport, Format::Auto).run("Q?", &mut |_| {}));
    assert_eq!(t.answer(), Some("Mobile, Alabama."));
    assert!(t.steps[0].switch.is_none());
}

#[test]
fn a_failure_mid_run_keeps_every_step_so_far() {
    let transport = Recorded::new(vec![
        openai_stream(MRKL_STEP),
        sse(
            b"data: {\"choices\":[{\"delta\":{\"content\":\"Thought: Tim\"}}]}\n\n",
            &[],
        ),
    ]);
    let t = block_on(agent_over(&transport, Format::Mrkl).run("Q?", &mut |_| {}));
    assert_eq!(t.steps.len(), 2);
    assert!(t.steps[0].observation().is_some());
    assert_eq!(t.steps[1].raw(), "Thought: Tim");
    let stop = t.stop.unwrap();
    assert_eq!(stop.reason, StopReason::Error);
    assert!(stop.message.unwrap().contains("ended early"));
}

/// The prompt tokens read from the provider's cache are kept as `cached_tokens`: OpenAI's
/// `prompt_tokens_details.cached_tokens` (within `prompt_tokens`), Anthropic's cache reads
/// (beside `input_tokens`, which leave them out: tao counts them as prompt tokens too).
#[test]
fn cached_prompt_tokens_are_read_from_both_apis() {
    use tao_agent::llm::provider::Piece;
    let mut pieces = Vec::new();
    let openai = r#"{"choices":[],"usage":{"prompt_tokens":1200,"completion_tokens":9,"prompt_tokens_details":{"cached_tokens":1024}}}"#;
    tao_agent::llm::openai::decode(openai, &mut pieces).unwrap();
    let anthropic = r#"{"type":"message_start","message":{"usage":{"input_tokens":20,"cache_read_input_tokens":1000,"cache_creation_input_tokens":5,"output_tokens":1}}}"#;
    tao_agent::llm::anthropic::decode(anthropic, &mut pieces).unwrap();
    let usage: Vec<_> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Usage {
                prompt,
                completion,
                cached,
            } => Some((*prompt, *completion, *cached)),
            _ => None,
        })
        .collect();
    assert_eq!(
        usage,
        [
            (Some(1200), Some(9), Some(1024)),
            (Some(1025), Some(1), Some(1000))
        ]
    );
}

/// The page's Model panel is built from this list (`providers()`): each provider's name, the
/// base URL used when none is given, an example model, and whether it needs a key.
#[test]
fn the_providers_are_listed_as_the_model_panel_reads_them() {
    let listed = tao_agent::to_json::to_string(&tao_agent::settings::PROVIDERS);
    let listed = json::from_str(&listed).unwrap();
    let openai = json!({"name": "openai", "baseUrl": "https://api.openai.com/v1", "model": "gpt-4o-mini", "needsKey": true});
    assert_eq!(listed[0], openai);
    let names: Vec<&str> = (listed.as_array().unwrap().iter())
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["openai", "ollama", "anthropic"]);
    // A local server needs no key; the vendors' own endpoints do.
    let keys: Vec<bool> = (listed.as_array().unwrap().iter())
        .map(|p| p["needsKey"].as_bool().unwrap())
        .collect();
    assert_eq!(keys, [true, false, true]);
}

/// A provider without a model name is told an example of its own (a new user, given
/// "claude-sonnet-4-5" as an example for api.openai.com, found that odd).
#[test]
fn a_missing_model_name_gets_the_providers_own_example() {
    use tao_agent::settings::Settings;
    let message = |settings: tao_agent::json::Value| {
        Settings::from_json(&settings)
            .err()
            .map(|e| e.message)
            .unwrap_or_default()
    };
    assert_eq!(
        message(json!({"provider": "openai", "apiKey": "k"})),
        "give the model's name at https://api.openai.com/v1, e.g. \"gpt-4o-mini\""
    );
    assert_eq!(
        message(json!({"provider": "anthropic", "apiKey": "k"})),
        "give the model's name at https://api.anthropic.com, e.g. \"claude-sonnet-4-5\""
    );
    assert_eq!(
        message(json!({"provider": "ollama"})),
        "give the model's name at http://localhost:11434/v1, e.g. \"llama3.2\""
    );
}
