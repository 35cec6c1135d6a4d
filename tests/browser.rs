//! The JS API in a real browser (headless Chromium): the `Agent` class as a page uses it,
//! with JS functions for the model and the tools and a real `AbortController`.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Function, Object, Promise, Reflect, JSON};
use tao_agent::bindings::{parse_trajectory, JsAgent};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A JS object from JSON text plus named JS values.
fn object(json: &str, extra: &[(&str, &JsValue)]) -> JsValue {
    let value = JSON::parse(json).unwrap();
    for (key, v) in extra {
        Reflect::set(&value, &(*key).into(), v).unwrap();
    }
    value
}

fn get(value: &JsValue, path: &str) -> JsValue {
    path.split('.').fold(value.clone(), |v, key| {
        Reflect::get(&v, &key.into()).unwrap_or(JsValue::UNDEFINED)
    })
}

fn text(value: &JsValue, path: &str) -> String {
    get(value, path).as_string().unwrap_or_default()
}

async fn run(agent: &JsAgent, task: &str, options: JsValue) -> JsValue {
    JsFuture::from(agent.run(task.into(), options))
        .await
        .unwrap()
}

/// A JS event handler that records `type:index` into the returned array (a run of tokens as one
/// `token`; a model call as `model_call:index` and its counts, `stats:steps:n_calls:n_badcalls`).
fn recorder() -> (Array, Function) {
    let events = Array::new();
    let f = Function::new_with_args("e", "if (e.type !== 'token' || this[this.length - 1] !== 'token') { this.push(e.type === 'token' ? 'token' : e.type + ':' + (e.index ?? e.reason)); if (e.stats) this.push(['stats', e.stats.steps, e.stats.n_calls, e.stats.n_badcalls].join(':')); }");
    (events.clone(), f.bind0(&events))
}

fn strings(array: &Array) -> Vec<String> {
    array
        .iter()
        .map(|v| v.as_string().unwrap_or_default())
        .collect()
}

#[wasm_bindgen_test]
async fn runs_a_scenario_and_returns_the_trajectory() {
    let agent = JsAgent::new(object(r#"{"scenario": "apple-ceo"}"#, &[])).unwrap();
    let t = run(
        &agent,
        "What is the hometown of the current CEO of Apple Inc.?",
        JsValue::UNDEFINED,
    )
    .await;
    assert_eq!(text(&t, "format"), "tao-trajectory");
    assert_eq!(text(&t, "stop.reason"), "answer");
    assert!(
        text(&t, "answer").contains("Mobile, Alabama"),
        "{}",
        text(&t, "answer")
    );
    assert_eq!(get(&t, "steps").unchecked_into::<Array>().length(), 3);
    assert_eq!(text(&t, "steps.0.tool_calls.0.action.tool"), "search");
    assert_eq!(get(&t, "stats.n_calls").as_f64(), Some(3.0));
}

#[wasm_bindgen_test]
async fn events_arrive_in_order_while_the_run_streams() {
    let (events, on_event) = recorder();
    let agent = JsAgent::new(object(
        r#"{"scenario": "einstein", "lang": "zh", "delayMs": 1}"#,
        &[],
    ))
    .unwrap();
    let t = run(
        &agent,
        "爱因斯坦的出生地是哪里?",
        object("{}", &[("onEvent", &on_event)]),
    )
    .await;
    assert_eq!(text(&t, "stop.reason"), "answer");
    // In the paper format the action is the reply's last line, so the thought and the action
    // are announced when the reply ends, after its tokens. The counts ride on each model call
    // as it begins (counting it).
    #[rustfmt::skip]
    let expected = [
        "step:1", "model_call:1", "stats:1:1:0", "token", "thought:1", "action:1", "observation:1",
        "step:2", "model_call:2", "stats:2:2:0", "token", "thought:2", "action:2", "observation:2",
        "step:3", "model_call:3", "stats:3:3:0", "token", "thought:3", "answer:3", "stopped:answer",
    ];
    assert_eq!(strings(&events), expected);
}

/// Runs a question with the JS `model` and `tool` registered as `docs`.
async fn run_with_docs_tool(model: &Function, tool: Function) -> JsValue {
    let agent = JsAgent::new(object("{}", &[("model", model)])).unwrap();
    let spec = object(
        r#"{"name": "docs", "description": "Searches the docs."}"#,
        &[],
    );
    agent.register_tool(spec, tool).unwrap();
    run(&agent, "How do I install it?", JsValue::UNDEFINED).await
}

#[wasm_bindgen_test]
async fn a_js_model_and_a_js_tool() {
    let model = Function::new_with_args(
        "messages, options",
        "const turns = messages.filter(m => m.role === 'assistant').length;
         if (!Array.isArray(options.stop)) throw new Error('no stop sequences');
         return new Promise(r => setTimeout(() => r(turns === 0
           ? 'Thought: I will ask the docs.\\nAction: docs\\nAction Input: {\"query\": \"install\"}'
           : 'Thought: ' + messages[messages.length - 1].content + '\\nFinal Answer: done'), 1));",
    );
    let tool = Function::new_with_args(
        "input",
        "return Promise.resolve('docs say: ' + input.query + ' with npm');",
    );
    let t = run_with_docs_tool(&model, tool).await;
    assert_eq!(
        text(&t, "steps.0.tool_calls.0.observation"),
        "docs say: install with npm"
    );
    assert_eq!(
        text(&t, "steps.1.thought"),
        "Observation: docs say: install with npm"
    );
    assert_eq!(text(&t, "answer"), "done");
    assert_eq!(text(&t, "model"), "js:anonymous"); // `new Function` is named "anonymous"

    // A tool that throws gives an observation, not a failed run.
    let broken = Function::new_with_args("input", "throw new Error('index offline')");
    let t = run_with_docs_tool(&model, broken).await;
    assert_eq!(
        text(&t, "steps.0.tool_calls.0.observation"),
        "Error: docs failed: docs threw: index offline"
    );
    assert_eq!(text(&t, "stop.reason"), "answer");
}

#[wasm_bindgen_test]
async fn abort_stops_the_run_and_keeps_the_trajectory_so_far() {
    let controller = web_sys::AbortController::new().unwrap();
    let abort_on_first_observation =
        Function::new_with_args("e", "if (e.type === 'observation') this.abort();")
            .bind0(&controller);
    let agent = JsAgent::new(object(r#"{"scenario": "apple-ceo", "delayMs": 5}"#, &[])).unwrap();
    let options = object(
        "{}",
        &[
            ("onEvent", &abort_on_first_observation),
            ("signal", &controller.signal()),
        ],
    );
    let t = run(
        &agent,
        "What is the hometown of the current CEO of Apple Inc.?",
        options,
    )
    .await;
    assert_eq!(text(&t, "stop.reason"), "aborted");
    assert!(text(&t, "steps.0.tool_calls.0.observation").contains("Tim Cook"));
    assert_eq!(get(&t, "answer"), JsValue::NULL);

    // A JS model that never answers is cut off by the abort too.
    let never = Function::new_with_args("messages", "return new Promise(() => {});");
    let agent = JsAgent::new(object("{}", &[("model", &never)])).unwrap();
    let controller = web_sys::AbortController::new().unwrap();
    let pending = agent.run(
        "hang".into(),
        object("{}", &[("signal", &controller.signal())]),
    );
    let later = Promise::new(&mut |resolve, _| {
        let set_timeout: Function = Reflect::get(&js_sys::global(), &"setTimeout".into())
            .unwrap()
            .unchecked_into();
        set_timeout
            .call2(&JsValue::NULL, &resolve, &JsValue::from(20))
            .unwrap();
    });
    JsFuture::from(later).await.unwrap();
    controller.abort();
    let t = JsFuture::from(pending).await.unwrap();
    assert_eq!(text(&t, "stop.reason"), "aborted");
}

/// Stop reaches a JS tool at work: it is handed the run's signal, the run ends at once with
/// the call waiting, and what the tool returns later is not recorded.
#[wasm_bindgen_test]
async fn stop_reaches_a_slow_js_tool_and_its_late_result_is_not_recorded() {
    let model = Function::new_with_args(
        "messages",
        r"return 'Thought: ask\nAction: slow\nAction Input: x';",
    );
    let agent = JsAgent::new(object("{}", &[("model", &model)])).unwrap();
    let spec = object(
        r#"{"name": "slow", "description": "Takes two seconds."}"#,
        &[],
    );
    let slow = Function::new_with_args(
        "input, options",
        r#"
        globalThis.__toolSignal = options.signal;
        return new Promise((resolve) => setTimeout(() => resolve("late answer"), 2000));
        "#,
    );
    agent.register_tool(spec, slow).unwrap();
    let controller = web_sys::AbortController::new().unwrap();
    // Stopped as the tool starts work.
    let stop_at_action = Function::new_with_args(
        "e",
        "if (e.type === 'action') setTimeout(() => this.abort(), 50);",
    )
    .bind0(&controller);
    let options = object(
        "{}",
        &[
            ("signal", &controller.signal()),
            ("onEvent", &stop_at_action),
        ],
    );
    let started = js_sys::Date::now();
    let t = run(&agent, "slow", options).await;
    let took = js_sys::Date::now() - started;
    assert_eq!(text(&t, "stop.reason"), "aborted");
    assert!(
        took < 1000.0,
        "the run ended when it was stopped, not when the tool answered: {took} ms"
    );
    assert_eq!(get(&t, "steps.0.tool_calls.0.observation"), JsValue::NULL);
    assert_eq!(
        get(&js_sys::global(), "__toolSignal.aborted"),
        JsValue::TRUE
    );
}

#[wasm_bindgen_test]
async fn errors_are_js_errors_with_clear_messages() {
    let message = |e: JsValue| String::from(e.unchecked_into::<js_sys::Error>().message());
    let bad = JsAgent::new(object(
        r#"{"scenario": "apple-ceo", "format": "yaml"}"#,
        &[],
    ))
    .err()
    .unwrap();
    let kind = |e: &JsValue| Reflect::get(e, &"kind".into()).unwrap().as_string();
    assert_eq!(
        kind(&bad).as_deref(),
        Some("config"),
        "errors keep their kind"
    );
    assert_eq!(
        message(bad),
        "unknown format \"yaml\"; use mrkl, paper, tools, auto, act, cot or standard"
    );
    let misspelled = JsAgent::new(object(r#"{"scenario": "apple-ceo", "maxStep": 3}"#, &[]))
        .err()
        .unwrap();
    assert!(message(misspelled)
        .starts_with("unknown option \"maxStep\"; the options are: format, lang, maxSteps"));
    let bad = JsAgent::new(object(r#"{"scenario": "nope"}"#, &[]))
        .err()
        .unwrap();
    assert!(message(bad)
        .starts_with("unknown scenario \"nope\"; the built-in scenarios are: apple-ceo"));
    let bad = parse_trajectory("{\"format\": \"tao-trajectory\", \"version\": 6}")
        .err()
        .unwrap();
    assert_eq!(kind(&bad).as_deref(), Some("format"));
    assert!(message(bad).contains("written by a newer tao (version 6)"));

    // A model that throws ends the run with the error, and the trajectory is still returned.
    let throws = Function::new_with_args("messages", "throw new TypeError('bad key')");
    let agent = JsAgent::new(object("{}", &[("model", &throws)])).unwrap();
    let t = run(&agent, "t", JsValue::UNDEFINED).await;
    assert_eq!(text(&t, "stop.reason"), "error");
    assert_eq!(text(&t, "stop.message"), "the JS model threw: bad key");
}

/// A JS model that streams through `onDelta`, as a web-llm or Prompt API adapter does. Its
/// first reply runs on past the action; tao cuts it at the invented Observation, tells the
/// model (onDelta returns false, the signal aborts) and runs the real tool instead.
#[wasm_bindgen_test]
async fn a_streaming_js_model_is_cut_at_the_invented_observation() {
    let model = Function::new_with_args(
        "messages, options",
        r#"
        const turns = messages.filter((m) => m.role === "assistant").length;
        const replies = [
          "Thought: I need Apple's CEO.\nAction: search\nAction Input: Apple Inc.\nObservation: Steve Jobs.\nThought: done\nFinal Answer: Cupertino",
          "Thought: Tim Cook is the CEO.\nFinal Answer: Tim Cook",
        ];
        const text = replies[turns];
        globalThis.__streamStops = globalThis.__streamStops ?? [];
        let sent = 0;
        options.signal.addEventListener("abort", () => globalThis.__streamStops.push({ sent }));
        return (async () => {
          for (; sent < text.length; sent += 3) {
            await new Promise((r) => setTimeout(r, 1));
            if (!options.onDelta(text.slice(sent, sent + 3))) return; // tao has read enough
          }
        })();
        "#,
    );
    let config = object(r#"{"tools": ["search"]}"#, &[("model", &model)]);
    let agent = JsAgent::new(config).unwrap();
    let t = run(&agent, "Who is the CEO of Apple?", JsValue::UNDEFINED).await;
    assert_eq!(text(&t, "answer"), "Tim Cook");
    let steps: Array = get(&t, "steps").unchecked_into();
    let first = steps.get(0);
    assert!(
        text(&first, "tool_calls.0.observation").contains("Tim Cook"),
        "the real tool ran"
    );
    let calls: Array = get(&first, "model_calls").unchecked_into();
    let call = calls.get(0);
    assert!(!text(&call, "raw").contains("Steve Jobs"));
    assert!(get(&call, "saved_chars").as_f64().unwrap() > 0.0);
    let stops: Array = get(&js_sys::global(), "__streamStops").unchecked_into();
    assert_eq!(stops.length(), 1, "the model was told to stop once");
    let sent = get(&stops.get(0), "sent").as_f64().unwrap();
    assert!(
        sent < 90.0,
        "stopped at the Observation label (at 70-82), not at the end (125): {sent}"
    );
}

/// A run's calls share one `signal` until tao stops a stream: a stream tao cuts at an invented
/// Observation has its signal aborted, and the next call gets a fresh one.
#[wasm_bindgen_test]
async fn a_js_models_signal_is_aborted_when_its_stream_is_cut_and_the_next_call_gets_another() {
    let model = Function::new_with_args(
        "messages, options",
        r#"
        globalThis.__seen = globalThis.__seen ?? [];
        globalThis.__seen.push(options);
        const observed = messages.filter((m) => m.role === "user" && m.content.startsWith("Observation")).length;
        const text = [
          "Thought: look.\nAction: echo\nAction Input: x",
          "Thought: again.\nAction: echo\nAction Input: y\nObservation: made up\nFinal Answer: 0",
          "Thought: I have it.\nFinal Answer: 42",
        ][observed];
        return (async () => {
          for (let sent = 0; sent < text.length; sent += 4) {
            await null;
            if (!options.onDelta(text.slice(sent, sent + 4))) return;
          }
        })();
        "#,
    );
    let agent = JsAgent::new(object("{}", &[("model", &model)])).unwrap();
    let spec = object(r#"{"name": "echo", "description": "Echoes."}"#, &[]);
    let echo = Function::new_with_args("x", "return 'echo:' + x");
    agent.register_tool(spec, echo).unwrap();
    let t = run(&agent, "t", JsValue::UNDEFINED).await;
    assert_eq!(text(&t, "answer"), "42");
    let seen: Array = get(&js_sys::global(), "__seen").unchecked_into();
    assert_eq!(seen.length(), 3, "three calls");
    let (first, cut, last) = (seen.get(0), seen.get(1), seen.get(2));
    assert!(Object::is(&get(&first, "signal"), &get(&cut, "signal")));
    assert_eq!(get(&cut, "signal.aborted"), JsValue::TRUE);
    assert_eq!(get(&last, "signal.aborted"), JsValue::FALSE);
}

/// A JS model that answers with native tool calls and token counts, in the `tools` format.
#[wasm_bindgen_test]
async fn a_js_model_can_call_tools_natively_and_report_usage() {
    let model = Function::new_with_args(
        "messages, options",
        r#"
        if (!options.tools.some((t) => t.name === "calculator")) throw new Error("no tools offered");
        const last = messages[messages.length - 1];
        if (last.role === "tool") return { text: "It is " + last.content + ".", usage: { promptTokens: 30, completionTokens: 5 } };
        return { text: "I will calculate.", toolCalls: [{ name: "calculator", arguments: { expression: "6 * 7" } }],
                 usage: { promptTokens: 20, completionTokens: 10 } };
        "#,
    );
    let config = object(
        r#"{"tools": ["calculator"], "format": "tools"}"#,
        &[("model", &model)],
    );
    let agent = JsAgent::new(config).unwrap();
    let t = run(&agent, "What is 6 times 7?", JsValue::UNDEFINED).await;
    assert_eq!(text(&t, "answer"), "It is 42.");
    assert_eq!(text(&t, "steps.0.tool_calls.0.action.tool"), "calculator");
    assert_eq!(text(&t, "steps.0.thought"), "I will calculate.");
    assert_eq!(get(&t, "stats.prompt_tokens").as_f64(), Some(50.0));
    assert_eq!(get(&t, "stats.completion_tokens").as_f64(), Some(15.0));
}

/// The mock LLM server `scripts/test-browser.sh` starts on 127.0.0.1 (tests/mock/llm.mjs). Read
/// at compile time (the test runs in a browser, without an environment); missing, it fails.
#[allow(clippy::option_env_unwrap)]
fn mock_url() -> &'static str {
    option_env!("TAO_MOCK_URL").expect("run through scripts/test-browser.sh, which starts the mock LLM server and sets TAO_MOCK_URL")
}

/// The real fetch transport, streaming from an OpenAI-compatible and an Anthropic endpoint.
#[wasm_bindgen_test]
async fn the_fetch_transport_streams_from_both_apis() {
    for (provider, base) in [
        ("openai", format!("{}/v1", mock_url())),
        ("anthropic", mock_url().to_string()),
    ] {
        let json = format!(
            r#"{{"scenario": "apple-ceo", "provider": "{provider}", "baseUrl": "{base}", "model": "react-mrkl", "apiKey": "sk-browser-test-key"}}"#
        );
        let agent = JsAgent::new(object(&json, &[])).unwrap();
        let (events, on_event) = recorder();
        let options = object("{}", &[("onEvent", &on_event)]);
        let t = run(
            &agent,
            "What is the hometown of the current CEO of Apple Inc.?",
            options,
        )
        .await;
        assert_eq!(text(&t, "answer"), "Mobile, Alabama", "{provider}");
        assert_eq!(text(&t, "model"), format!("{provider}:react-mrkl"));
        assert!(get(&t, "stats.prompt_tokens").as_f64().unwrap() > 0.0);
        assert!(strings(&events).contains(&"token".to_string()));
    }
}

/// testConnection reports a working endpoint, and throws the diagnosed error for a bad key.
#[wasm_bindgen_test]
async fn test_connection_reports_what_it_found() {
    let base = format!("{}/v1", mock_url());
    let ok = object(
        &format!(r#"{{"provider": "openai", "baseUrl": "{base}", "model": "react-mrkl"}}"#),
        &[],
    );
    let report = JsFuture::from(tao_agent::bindings::test_connection(ok))
        .await
        .unwrap();
    assert_eq!(text(&report, "model"), "openai:react-mrkl");
    assert!(get(&report, "deltas").as_f64().unwrap() > 1.0);
    let bad = object(
        &format!(
            r#"{{"provider": "openai", "baseUrl": "{base}", "model": "fail-401", "apiKey": "sk-secret-canary-000"}}"#
        ),
        &[],
    );
    let error = JsFuture::from(tao_agent::bindings::test_connection(bad))
        .await
        .unwrap_err();
    let message = text(&error, "message");
    assert!(message.contains("refused the API key"), "{message}");
    assert!(!message.contains("sk-secret-canary-000"));
}

#[wasm_bindgen_test]
async fn a_run_can_be_stepped_paused_resumed_and_its_prompts_read() {
    let agent = JsAgent::new(object(r#"{"scenario": "apple-ceo"}"#, &[])).unwrap();
    let task = "What is the hometown of the current CEO of Apple Inc.?";
    // Paused before the first model call: the prompt is there, nothing is sent yet.
    let t = agent.start(task.into()).unwrap();
    let prompt = agent.prompt_at(t.clone(), None).unwrap();
    let messages: Array = get(&prompt, "messages").unchecked_into();
    assert_eq!(messages.length(), 2, "instructions and the question");
    // One press: the model's move, stopped before the tool call.
    let t = JsFuture::from(agent.next(t, JsValue::UNDEFINED))
        .await
        .unwrap();
    let steps: Array = get(&t, "steps").unchecked_into();
    assert_eq!(text(&steps.get(0), "tool_calls.0.action.tool"), "search");
    assert!(
        get(&steps.get(0), "tool_calls.0.observation").is_null(),
        "the tool has not run"
    );
    // Another: the observation. Then resume to the end.
    let t = JsFuture::from(agent.next(t, JsValue::UNDEFINED))
        .await
        .unwrap();
    let steps: Array = get(&t, "steps").unchecked_into();
    assert!(text(&steps.get(0), "tool_calls.0.observation").contains("Tim Cook"));
    // A pause signal that has already fired stops at once, losing nothing.
    let pause = web_sys::AbortController::new().unwrap();
    pause.abort();
    let paused =
        JsFuture::from(agent.resume(t.clone(), object("{}", &[("pause", &pause.signal())])))
            .await
            .unwrap();
    assert!(get(&paused, "stop").is_null());
    assert_eq!(get(&paused, "steps.length").as_f64(), Some(1.0));
    let done = JsFuture::from(agent.resume(paused, JsValue::UNDEFINED))
        .await
        .unwrap();
    assert_eq!(text(&done, "stop.reason"), "answer");
    assert!(text(&done, "answer").contains("Mobile, Alabama"));
    // Step 2's prompt is step 1's plus its action and observation.
    let second = agent.prompt_at(done.clone(), Some(2)).unwrap();
    let second: Array = get(&second, "messages").unchecked_into();
    assert_eq!(second.length(), 4);
    assert!(text(&second.get(3), "content").starts_with("Observation: "));
    // A trajectory that is not one is a clear error.
    let bad = JsFuture::from(agent.next(object(r#"{"task": "x"}"#, &[]), JsValue::UNDEFINED)).await;
    let message = String::from(bad.unwrap_err().unchecked_into::<js_sys::Error>().message());
    assert!(message.starts_with("not a trajectory file"), "{message}");
}

#[wasm_bindgen_test]
async fn the_papers_scores_come_as_promises() {
    use tao_agent::bindings::{paper_sample_later, score_answer_later, vote_later};
    let right = JsFuture::from(score_answer_later(
        "hotpotqa".into(),
        "Mobile, Alabama".into(),
        "mobile alabama".into(),
    ))
    .await
    .unwrap();
    assert_eq!(JSON::stringify(&right).unwrap(), r#"{"em":1,"f1":1}"#);
    let none = JsFuture::from(score_answer_later(
        "fever".into(),
        JsValue::UNDEFINED,
        "SUPPORTS".into(),
    ))
    .await
    .unwrap();
    assert_eq!(JSON::stringify(&none).unwrap(), r#"{"em":0,"f1":0}"#);
    let bad = JsFuture::from(score_answer_later("squad".into(), "a".into(), "b".into())).await;
    let message = String::from(bad.unwrap_err().unchecked_into::<js_sys::Error>().message());
    assert!(
        message.starts_with("unknown dataset \"squad\""),
        "{message}"
    );
    let vote = JsFuture::from(vote_later(
        JSON::parse(r#"["Ulm", "ulm", "Munich"]"#).unwrap(),
    ))
    .await
    .unwrap();
    assert_eq!(
        JSON::stringify(&vote).unwrap(),
        r#"{"answer":"Ulm","count":2,"of":3}"#
    );
    let sample = JsFuture::from(paper_sample_later(7405.into(), 5.into()))
        .await
        .unwrap();
    let expected: Vec<String> = tao_agent::eval::paper_sample(7405, 233, 5)
        .iter()
        .map(|i| i.to_string())
        .collect();
    assert_eq!(
        JSON::stringify(&sample).unwrap(),
        format!("[{}]", expected.join(","))
    );
}
