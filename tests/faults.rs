//! Real providers as they really behave, natively: each fault a user meets, in a stream
//! written in the vendor's documented format (`tests/streams/`), through the model alone and
//! through a whole run, whose trajectory must keep everything done so far.

use crate::providers::{
    agent_over, complete, fixture, knowledge_tools, model, openai_stream, settings, sse, status,
    Canned, FakeClock, Recorded, CANARY, MRKL_STEP,
};
use std::rc::Rc;
use tao_agent::error::ErrorKind;
use tao_agent::event::Event;
use tao_agent::format::Format;
use tao_agent::host::block_on;
use tao_agent::json;
use tao_agent::llm::http::{Api, HttpModel};
use tao_agent::tools::{FnTool, Registry};
use tao_agent::trajectory::{StopReason, Trajectory};
use tao_agent::{Agent, Config};

/// A stream whose events arrive one per chunk, as a server flushing each one sends them.
fn flushed(name: &str) -> Canned {
    let stream = fixture(name);
    let text = String::from_utf8_lossy(&stream).into_owned();
    let cuts: Vec<usize> = text
        .match_indices("\n\n")
        .map(|(i, _)| i + 2)
        .filter(|&i| i < text.len())
        .collect();
    sse(&stream, &cuts)
}

fn stalled(mut canned: Canned, after_chunks: usize) -> Canned {
    canned.stall = Some(after_chunks);
    canned
}

fn page(code: u16, content_type: &'static str, html: &str) -> Canned {
    Canned {
        content_type,
        ..status(code, html)
    }
}

const NGINX_WELCOME: &str = "<!DOCTYPE html>\n<html>\n<head>\n<title>Welcome to nginx!</title>\n<style>\nhtml { color-scheme: light dark; }\nbody { width: 35em; margin: 0 auto; font-family: Tahoma, Verdana, Arial, sans-serif; }\n</style>\n</head>\n<body>\n<h1>Welcome to nginx!</h1>\n<p>If you see this page, the nginx web server is successfully installed and\nworking. Further configuration is required.</p>\n</body>\n</html>\n";
const NGINX_502: &str = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

/// A run in the native format over `transport` (search answers every query), on `api`.
fn native_agent(api: Api, transport: &Rc<Recorded>) -> Agent {
    let (m, _) = model(api, transport);
    let mut tools = Registry::new();
    tools.register(Rc::new(FnTool::new(
        "search",
        "Searches.",
        "query",
        |q: &str| Ok(format!("Found: {q}")),
    )));
    let config = Config {
        format: Format::Tools,
        retries: 0,
        ..Config::default()
    };
    Agent::new(config, Box::new(m), tools, Rc::new(FakeClock::default()))
}

fn run(agent: &Agent) -> (Trajectory, Vec<String>) {
    let mut events = Vec::new();
    let t = block_on(agent.run("Where was Apple's CEO born?", &mut |e| {
        if let Event::Reasoning { text, .. } = e {
            events.push(format!("reasoning:{text}"));
        }
    }));
    (t, events)
}

fn stop_of(t: &Trajectory) -> (StopReason, String) {
    let stop = t.stop.clone().expect("the run ended");
    (stop.reason, stop.message.unwrap_or_default())
}

#[test]
fn a_server_that_never_answers_hits_the_first_byte_timeout_and_the_steps_so_far_stay() {
    let transport = Recorded::new(vec![
        openai_stream(MRKL_STEP),
        stalled(openai_stream(MRKL_STEP), 0),
    ]);
    let agent = agent_over(&transport, Format::Mrkl);
    let t = block_on(agent.run("Q?", &mut |_| {}));
    assert_eq!(t.steps.len(), 1, "the first step stays");
    assert!(t.steps[0].observation().is_some());
    let (reason, message) = stop_of(&t);
    assert_eq!(reason, StopReason::Error);
    assert!(
        message.starts_with("no response from https://api.openai.com/v1/chat/completions within 120 s (the first byte timeout)")
            && message.ends_with("or raise First byte timeout"),
        "{message}"
    );
}

#[test]
fn headers_then_silence_is_the_first_byte_timeout_and_a_stall_mid_stream_the_idle_one() {
    // Headers, then not one byte of the body.
    let transport = Recorded::new(vec![stalled(openai_stream(MRKL_STEP), 1)]);
    let (m, clock) = model(Api::OpenAi, &transport);
    let error = complete(&m, &[], &[]).2.unwrap_err();
    assert_eq!(error.kind, ErrorKind::Timeout);
    assert!(
        error
            .message
            .contains("within 120 s (the first byte timeout)"),
        "{}",
        error.message
    );
    assert_eq!(*clock.slept.borrow(), [120_000]);

    // Three events, then silence: the idle timeout, with the text so far.
    let transport = Recorded::new(vec![stalled(openai_stream(MRKL_STEP), 4)]);
    let (m, clock) = model(Api::OpenAi, &transport);
    let (text, _, reply) = complete(&m, &[], &[]);
    let error = reply.unwrap_err();
    assert_eq!(error.kind, ErrorKind::Timeout);
    assert_eq!(text, "Thought: I need");
    assert_eq!(
        error.message,
        "the stream stalled: nothing arrived for 60 s (the idle timeout) after 15 characters; the text so far is kept. Try again, or raise Idle timeout"
    );
    // (A timer starts only for a wait that does not end at once: here, the one that ran out.)
    assert_eq!(*clock.slept.borrow(), [60_000]);

    // The limits are settings; in a run the partial reply stays in the step.
    let transport = Recorded::new(vec![stalled(openai_stream(MRKL_STEP), 4)]);
    let clock = Rc::new(FakeClock::default());
    let endpoint = tao_agent::llm::http::Settings {
        first_byte_ms: 5_000,
        idle_ms: 2_000,
        ..settings(Api::OpenAi, "https://api.openai.com/v1")
    };
    let m = HttpModel::new(endpoint, transport.clone(), clock.clone());
    let agent = Agent::new(
        Config::default(),
        Box::new(m),
        knowledge_tools(),
        clock.clone(),
    );
    let t = block_on(agent.run("Q?", &mut |_| {}));
    assert_eq!(t.steps[0].raw(), "Thought: I need");
    assert!(stop_of(&t)
        .1
        .contains("nothing arrived for 2 s (the idle timeout)"));
    assert_eq!(*clock.slept.borrow(), [2_000]);
}

#[test]
fn a_web_page_where_the_api_should_be_is_not_an_api_endpoint() {
    for canned in [
        page(200, "text/html; charset=utf-8", NGINX_WELCOME),
        // Labelled as text, sniffed by its first byte.
        page(200, "text/plain", NGINX_WELCOME),
    ] {
        let transport = Recorded::new(vec![canned]);
        let (m, _) = model(Api::OpenAi, &transport);
        let error = complete(&m, &[], &[]).2.unwrap_err();
        assert_eq!(error.kind, ErrorKind::NotFound);
        assert_eq!(
            error.message,
            "https://api.openai.com/v1/chat/completions is not an API endpoint: it answered with a web page (a web page titled \"Welcome to nginx!\": Welcome to nginx! If you see this page, the nginx web server is successfully installed and working. Further configuration is required.); the base URL is probably wrong: OpenAI-compatible ones usually end in /v1 (http://localhost:11434/v1 for Ollama)"
        );
    }
    // An event stream labelled `text/plain` (some servers do) still works.
    let mut plain = openai_stream(MRKL_STEP);
    plain.content_type = "text/plain; charset=utf-8";
    let transport = Recorded::new(vec![plain]);
    let (m, _) = model(Api::OpenAi, &transport);
    let (text, _, reply) = complete(&m, &[], &[]);
    assert!(reply.is_ok());
    assert_eq!(text, MRKL_STEP);
}

#[test]
fn a_proxys_error_page_is_summarised_and_the_retry_notes_stay_in_the_failed_run() {
    let bad = || page(502, "text/html", NGINX_502);
    let transport = Recorded::new(vec![bad(), bad(), bad(), bad()]);
    let agent = agent_over(&transport, Format::Mrkl);
    let t = block_on(agent.run("Q?", &mut |_| {}));
    let (reason, message) = stop_of(&t);
    assert_eq!(reason, StopReason::Error);
    assert_eq!(
        message,
        "the server failed (HTTP 502) after 3 retries: a web page titled \"502 Bad Gateway\": 502 Bad Gateway nginx; try again later"
    );
    // The step that failed keeps what happened on the way.
    let notes = &t.steps[0].notes;
    assert_eq!(notes.len(), 4, "{notes:?}");
    assert_eq!(
        notes[0],
        "the server failed (HTTP 502); retrying in 1 s (1/3)"
    );
    assert!(notes[3].starts_with("interrupted: the server failed (HTTP 502)"));
    assert!(!t.to_json().contains("<title>"));
}

#[test]
fn a_refusal_is_its_own_outcome_with_what_the_model_said_and_is_not_asked_again() {
    // OpenAI: the refusal arrives as `delta.refusal`, never as content.
    let transport = Recorded::new(vec![flushed("openai-refusal.sse")]);
    let (t, _) = run(&agent_over(&transport, Format::Mrkl));
    assert_eq!(
        stop_of(&t),
        (
            StopReason::Refused,
            "the model refused to answer: \"I'm sorry, I can't assist with that request.\". Rephrase the task, or try another model".into()
        )
    );
    assert_eq!(transport.sent.borrow().len(), 1, "a refusal is not retried");
    // Its tokens were spent: the call is recorded with them, and they count.
    let usage = t.steps[0].model_calls[0].usage.unwrap();
    assert_eq!((usage.prompt_tokens, usage.completion_tokens), (79, 11));
    assert_eq!(t.stats().prompt_tokens, 79);

    // Anthropic: streamed text, then `stop_reason: "refusal"` and its explanation.
    let transport = Recorded::new(vec![flushed("anthropic-refusal.sse")]);
    let (t, _) = run(&native_agent(Api::Anthropic, &transport));
    let (reason, message) = stop_of(&t);
    assert_eq!(reason, StopReason::Refused);
    assert!(
        message
            .contains("\"This request was declined because it could enable cyber harm. [cyber]\""),
        "{message}"
    );
    assert_eq!(
        t.steps[0].raw(),
        "Hello..",
        "what streamed before the refusal is kept"
    );
    assert_eq!(transport.sent.borrow().len(), 1);
}

#[test]
fn a_reply_cut_at_the_token_limit_names_the_limit_and_its_action_does_not_run() {
    // OpenAI with no limit set: tao sent none.
    let transport = Recorded::new(vec![flushed("openai-length.sse")]);
    let (t, _) = run(&agent_over(&transport, Format::Mrkl));
    let (reason, message) = stop_of(&t);
    assert_eq!(reason, StopReason::Truncated);
    assert!(message.starts_with("the reply was cut at the token limit (the provider's default; tao sent none): raise Max tokens"), "{message}");
    assert_eq!(
        t.steps[0].raw(),
        "Thought: I should look up the CEO of Apple and then where he"
    );

    // Anthropic, whose limit tao always sends (1024 unless set), cut after a whole action.
    let transport = Recorded::new(vec![flushed("anthropic-max-tokens.sse")]);
    let (m, _) = model(Api::Anthropic, &transport);
    let agent = Agent::new(
        Config::default(),
        Box::new(m),
        knowledge_tools(),
        Rc::new(FakeClock::default()),
    );
    let (t, _) = run(&agent);
    assert_eq!(
        stop_of(&t),
        (
            StopReason::Truncated,
            "the reply was cut at the token limit (1024 tokens): raise Max tokens and run again. The partial reply is kept in the step; an action in it is not run".into()
        )
    );
    let step = &t.steps[0];
    assert!(step.raw().contains("Action Input: Tim Cook"));
    assert!(
        step.tool_calls.is_empty() && step.observation().is_none(),
        "the action is not run"
    );
    assert_eq!(transport.bodies()[0]["max_tokens"], 1024);
}

#[test]
fn every_call_of_a_parallel_reply_runs_and_goes_back_under_its_own_id() {
    // OpenAI: two `tool_calls` entries (index 0 and 1), each result a `tool` message.
    let transport = Recorded::new(vec![
        flushed("openai-parallel-tools.sse"),
        openai_stream("Mobile, Alabama."),
    ]);
    let (t, _) = run(&native_agent(Api::OpenAi, &transport));
    assert_eq!(t.answer(), Some("Mobile, Alabama."));
    let step = &t.steps[0];
    let action = step.action().unwrap();
    assert_eq!(
        (action.input["query"].as_str(), action.id.as_deref()),
        (Some("Tim Cook"), Some("call_Hq4mZ1bVf0aWc7Xk2LpT9sNe"))
    );
    assert_eq!(step.observation(), Some("Found: Tim Cook"));
    assert_eq!(step.tool_calls.len(), 2);
    let other = &step.tool_calls[1];
    assert_eq!(other.action.input, json!({"query": "Apple Inc."}));
    assert_eq!(
        other.action.id.as_deref(),
        Some("call_3ZpYw8Rk5mJd1QvXa6Ge0uHc")
    );
    assert_eq!(other.observation.as_deref(), Some("Found: Apple Inc."));
    let sent = &transport.bodies()[1]["messages"];
    assert_eq!(
        sent[2]["tool_calls"][1]["id"],
        "call_3ZpYw8Rk5mJd1QvXa6Ge0uHc"
    );
    assert_eq!(
        [&sent[3], &sent[4]],
        [
            &json!({"role": "tool", "content": "Found: Tim Cook", "tool_call_id": "call_Hq4mZ1bVf0aWc7Xk2LpT9sNe"}),
            &json!({"role": "tool", "content": "Found: Apple Inc.", "tool_call_id": "call_3ZpYw8Rk5mJd1QvXa6Ge0uHc"}),
        ]
    );
    let text = t.to_text();
    assert!(
        text.contains(
            "Action: search[{\"query\":\"Apple Inc.\"}]\n  Observation: Found: Apple Inc."
        ),
        "{text}"
    );

    // Read as text (once `auto` has fallen back to it), each call is an action of its own.
    let mut as_text = t.clone();
    as_text.format = Format::Mrkl;
    let prompt = native_agent(Api::OpenAi, &transport).prompt(&as_text);
    let said: Vec<&str> = prompt.iter().map(|m| m.content.as_str()).collect();
    assert!(
        said.iter()
            .any(|m| m.ends_with("Action: search\nAction Input: {\"query\":\"Apple Inc.\"}")),
        "{said:?}"
    );
    assert!(said.contains(&"Observation: Found: Apple Inc."), "{said:?}");

    // Anthropic: two `tool_use` blocks; both results go back in one user turn, in order.
    let done = sse(&fixture("anthropic-usage-late.sse"), &[]);
    let transport = Recorded::new(vec![flushed("anthropic-parallel-tools.sse"), done]);
    let (t, _) = run(&native_agent(Api::Anthropic, &transport));
    assert_eq!(
        t.steps[0].tool_calls[1].action.id.as_deref(),
        Some("toolu_01B7mKq2xZ8pLw4nRv6tYh3s")
    );
    let sent = &transport.bodies()[1]["messages"];
    assert_eq!(
        sent[2],
        json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9", "content": "Found: Tim Cook"},
            {"type": "tool_result", "tool_use_id": "toolu_01B7mKq2xZ8pLw4nRv6tYh3s", "content": "Found: Apple Inc."}]})
    );
}

#[test]
fn usage_takes_the_latest_figures_and_survives_a_stream_that_fails() {
    // Anthropic's `message_delta` input tokens come later than `message_start`'s, and win.
    let transport = Recorded::new(vec![flushed("anthropic-usage-late.sse")]);
    let (m, _) = model(Api::Anthropic, &transport);
    let usage = complete(&m, &[], &[]).2.unwrap().usage.unwrap();
    assert_eq!((usage.prompt_tokens, usage.completion_tokens), (112, 30));

    // The whole reply and its usage, then an error event: the run fails, the figures stay.
    let transport = Recorded::new(vec![flushed("openai-usage-then-error.sse")]);
    let (t, _) = run(&agent_over(&transport, Format::Mrkl));
    let (reason, message) = stop_of(&t);
    assert_eq!(reason, StopReason::Error);
    assert!(message.contains("The server had an error while processing your request"));
    let usage = t.steps[0].model_calls[0].usage.unwrap();
    assert_eq!((usage.prompt_tokens, usage.completion_tokens), (64, 9));
    assert_eq!(t.stats().prompt_tokens, 64);
}

#[test]
fn reasoning_is_streamed_and_kept_and_anthropic_thinking_goes_back_with_its_tool_call() {
    // DeepSeek: `reasoning_content` before the ReAct text.
    let transport = Recorded::new(vec![flushed("deepseek-reasoning.sse"), status(500, "stop")]);
    let (t, events) = run(&agent_over(&transport, Format::Mrkl));
    let reasoning = "The user asks where Apple's CEO was born. I should search first.";
    // Streamed in four pieces, which make the whole reasoning.
    let pieces: Vec<&str> = events
        .iter()
        .map(|e| e.trim_start_matches("reasoning:"))
        .collect();
    assert_eq!(pieces.len(), 4);
    assert_eq!(pieces.concat(), reasoning);
    let step = &t.steps[0];
    assert_eq!(
        step.model_calls[0].thinking.as_ref().unwrap().text,
        reasoning
    );
    assert_eq!(
        step.thought, "I need to find Apple's CEO.",
        "the reasoning is not the thought"
    );
    assert!(t.to_text().contains(&format!("Reasoning: {reasoning}")));

    // Anthropic: a signed thinking block before a tool call must come back first.
    let transport = Recorded::new(vec![
        flushed("anthropic-thinking-tools.sse"),
        status(500, "stop"),
    ]);
    let (t, _) = run(&native_agent(Api::Anthropic, &transport));
    let thinking = t.steps[0].model_calls[0].thinking.clone().unwrap();
    assert!(thinking.signature.starts_with("EqQBCgIYAh"));
    let sent = &transport.bodies()[1]["messages"][1];
    assert_eq!(
        sent["content"][0],
        json!({"type": "thinking", "thinking": thinking.text, "signature": thinking.signature})
    );
    assert_eq!(sent["content"][1]["type"], "tool_use");
    assert_eq!(sent["content"][1]["id"], "toolu_01Xy9kQ2wE4rT6yU8iO0pA1s");
    // The trajectory keeps it, so a saved run can go on.
    let read = Trajectory::from_json(&t.to_json()).unwrap();
    assert_eq!(
        read.steps[0].model_calls[0].thinking.as_ref(),
        Some(&thinking)
    );
}

#[test]
fn server_side_blocks_are_skipped_with_a_note_never_fatal() {
    let transport = Recorded::new(vec![flushed("anthropic-server-blocks.sse")]);
    let (m, _) = model(Api::Anthropic, &transport);
    let (text, notes, reply) = complete(&m, &[], &[]);
    assert!(reply.unwrap().tool_calls.is_empty());
    assert_eq!(
        text,
        "Thought: I know where he was born.\nFinal Answer: Mobile, Alabama"
    );
    assert_eq!(notes.len(), 4, "{notes:?}");
    assert_eq!(
        notes[0],
        "skipped a \"server_tool_use\" block of the reply (a provider-side tool tao does not run or show)"
    );
    // At every byte split too.
    let stream = fixture("anthropic-server-blocks.sse");
    for cut in 0..=stream.len() {
        let transport = Recorded::new(vec![sse(&stream, &[cut])]);
        let (m, _) = model(Api::Anthropic, &transport);
        assert!(complete(&m, &[], &[]).2.is_ok(), "cut at {cut}");
    }
}

#[test]
fn a_masked_key_in_a_providers_401_is_scrubbed_everywhere() {
    // OpenAI quotes the key's first 8 and last 4 characters around asterisks.
    let masked = format!(
        "{}{}{}",
        &CANARY[..8],
        "*".repeat(CANARY.len() - 12),
        &CANARY[CANARY.len() - 4..]
    );
    let body = format!(
        r#"{{"error":{{"message":"Incorrect API key provided: {masked}. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}}}"#
    );
    let transport = Recorded::new(vec![status(401, &body)]);
    let (t, _) = run(&agent_over(&transport, Format::Mrkl));
    let (_, message) = stop_of(&t);
    assert!(
        message.starts_with(
            "the endpoint refused the API key (HTTP 401: Incorrect API key provided: [key]"
        ),
        "{message}"
    );
    for text in [message, t.to_json(), t.to_text()] {
        assert!(
            !text.contains(&CANARY[..6]) && !text.contains(&CANARY[CANARY.len() - 6..]),
            "{text}"
        );
    }
}

/// A tool that waits once (as a fetch would) between its start and its end, and logs both.
struct Slow {
    spec: tao_agent::tools::ToolSpec,
    log: Rc<std::cell::RefCell<Vec<String>>>,
}

impl tao_agent::tools::Tool for Slow {
    fn spec(&self) -> &tao_agent::tools::ToolSpec {
        &self.spec
    }
    fn call<'a>(
        &'a self,
        input: &'a tao_agent::json::Value,
    ) -> tao_agent::host::LocalBoxFuture<
        'a,
        Result<tao_agent::tools::ToolOutput, tao_agent::tools::ToolError>,
    > {
        let query = input["query"].as_str().unwrap_or_default().to_string();
        self.log.borrow_mut().push(format!("start {query}"));
        let mut waited = false;
        Box::pin(std::future::poll_fn(move |cx| {
            if !waited {
                waited = true;
                cx.waker().wake_by_ref();
                return std::task::Poll::Pending;
            }
            self.log.borrow_mut().push(format!("end {query}"));
            std::task::Poll::Ready(Ok(format!("Found: {query}").into()))
        }))
    }
}

#[test]
fn parallel_calls_run_together_only_when_their_tool_allows_it() {
    for (concurrent, order) in [
        (
            true,
            [
                "start Tim Cook",
                "start Apple Inc.",
                "end Tim Cook",
                "end Apple Inc.",
            ],
        ),
        (
            false,
            [
                "start Tim Cook",
                "end Tim Cook",
                "start Apple Inc.",
                "end Apple Inc.",
            ],
        ),
    ] {
        let log = Rc::new(std::cell::RefCell::new(Vec::new()));
        let spec = tao_agent::tools::ToolSpec {
            concurrent,
            ..tao_agent::tools::ToolSpec::new(
                "search",
                "Searches.",
                tao_agent::tools::string_schema("query"),
            )
        };
        let mut tools = Registry::new();
        tools.register(Rc::new(Slow {
            spec,
            log: log.clone(),
        }));
        let transport = Recorded::new(vec![
            flushed("openai-parallel-tools.sse"),
            openai_stream("Mobile."),
        ]);
        let (m, _) = model(Api::OpenAi, &transport);
        let config = Config {
            format: Format::Tools,
            ..Config::default()
        };
        // A real clock: the test's fake one would run out the tool's timeout at its first wait.
        let host = Rc::new(tao_agent::host::NativeHost::default());
        let agent = Agent::new(config, Box::new(m), tools, host);
        let (t, _) = run(&agent);
        assert_eq!(*log.borrow(), order, "concurrent: {concurrent}");
        // The results are recorded in the model's order either way.
        assert_eq!(t.steps[0].observation(), Some("Found: Tim Cook"));
        assert_eq!(
            t.steps[0].tool_calls[1].observation.as_deref(),
            Some("Found: Apple Inc.")
        );
    }
}
