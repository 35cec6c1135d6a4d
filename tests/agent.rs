//! The loop's contract, checked through what a caller sees: events, stop reasons, counts.

use std::rc::Rc;
use tao_agent::format::parse::Why;
use tao_agent::format::{Format, Lang};
use tao_agent::host::{block_on, NativeHost};
use tao_agent::json;
use tao_agent::llm::Role;
use tao_agent::scenarios::scripted::{Policy, Scripted};
use tao_agent::to_json::to_string;
use tao_agent::tools::{FnTool, Registry, ToolError, ToolOutput, ToolSpec};
use tao_agent::{scenarios, settings, Agent, Config, Event, StopReason};

fn replay(replies: &[&str], tools: Registry, config: Config) -> Agent {
    let host = Rc::new(NativeHost::default());
    let replies = replies.iter().map(|r| r.to_string()).collect();
    let model = Scripted::new(
        "test",
        Policy::Replay(replies),
        config.format,
        config.lang,
        host.clone(),
    );
    Agent::new(config, Box::new(model), tools, host)
}

fn echo_tools() -> Registry {
    let mut tools = Registry::new();
    tools.register(Rc::new(FnTool::new(
        "echo",
        "Repeats its input.",
        "text",
        |text: &str| Ok(format!("echo: {text}")),
    )));
    tools
}

// The thought of a final step is announced when the reply ends (the parser cannot know the
// final answer's label is the last one before that), so it follows all of the step's tokens.

/// Events as compact strings, e.g. `action:1:echo`.
fn event_trace(agent: &Agent, task: &str) -> Vec<String> {
    let mut trace = Vec::new();
    block_on(agent.run(task, &mut |e| {
        trace.push(match e {
            Event::Step { index } => format!("step:{index}"),
            // Each step's first call goes without saying; a second one is the model asked again.
            // Either way, the counts as it begins (counting it): steps, model calls, bad calls.
            Event::ModelCall {
                index,
                n,
                trajectory,
                step,
                ..
            } => {
                let s = trajectory.stats_with(Some(step));
                let counts = format!("stats:{}:{}:{}", s.steps, s.n_calls, s.n_badcalls);
                match n {
                    1 => counts,
                    n => format!("call:{index}:{n} {counts}"),
                }
            }
            Event::Token { .. } => "token".into(),
            Event::Reasoning { index, .. } => format!("reasoning:{index}"),
            Event::Thought { index, .. } => format!("thought:{index}"),
            Event::Action { index, tool, .. } => format!("action:{index}:{tool}"),
            Event::Observation { index, .. } => format!("observation:{index}"),
            Event::Approval {
                index, approved, ..
            } => format!("approval:{index}:{approved}"),
            Event::Repair { index, why, .. } => format!("repair:{index}:{why}"),
            Event::Note { index, .. } => format!("note:{index}"),
            Event::Download { loaded, total, .. } => format!("download:{loaded}/{total}"),
            Event::Switch { index, to, .. } => format!("switch:{index}:{to}"),
            Event::Answer { index, .. } => format!("answer:{index}"),
            Event::Memo { kind, after, .. } => format!("{}:{after}", kind.name()),
            Event::Stopped { reason, .. } => format!("stopped:{}", reason.name()),
        })
    }));
    trace.dedup(); // collapse runs of token events
    trace
}

#[test]
fn events_arrive_in_loop_order() {
    let agent = replay(
        &[
            "Thought: say hi\nAction: echo\nAction Input: hi",
            "Thought: done\nFinal Answer: hi",
        ],
        echo_tools(),
        Config::default(),
    );
    assert_eq!(
        event_trace(&agent, "greet"),
        [
            "step:1",
            "stats:1:1:0",
            "token",
            "thought:1",
            "token",
            "action:1:echo",
            "observation:1",
            "step:2",
            "stats:2:2:0",
            "token",
            "thought:2",
            "answer:2",
            "stopped:answer"
        ]
    );
}

#[test]
fn the_prompt_is_rendered_from_the_trajectory() {
    let agent = replay(
        &[
            "Thought: say hi\nAction: echo\nAction Input: hi",
            "Final Answer: hi",
        ],
        echo_tools(),
        Config::default(),
    );
    let trajectory = block_on(agent.run("greet", &mut |_| {}));
    let mut first = trajectory.clone();
    first.steps.truncate(1);
    let prompt = agent.prompt(&first);
    let roles: Vec<Role> = prompt.iter().map(|m| m.role).collect();
    assert_eq!(
        roles,
        [Role::System, Role::User, Role::Assistant, Role::User]
    );
    assert!(
        prompt[0]
            .content
            .contains("echo: Repeats its input. Parameters: {"),
        "{}",
        prompt[0].content
    );
    assert!(prompt[0].content.contains("should be one of [echo]"));
    assert_eq!(prompt[1].content, "Question: greet");
    assert_eq!(
        prompt[2].content,
        "Thought: say hi\nAction: echo\nAction Input: hi"
    );
    assert_eq!(prompt[3].content, "Observation: echo: hi");

    let paper = Config {
        format: Format::Paper,
        lang: Lang::Zh,
        ..Config::default()
    };
    let agent = replay(
        &[
            "Thought 1: hi\nAction 1: echo[hi]",
            "Thought 2: ok\nAction 2: Finish[hi]",
        ],
        echo_tools(),
        paper,
    );
    let trajectory = block_on(agent.run("greet", &mut |_| {}));
    let prompt = agent.prompt(&trajectory);
    assert!(
        prompt[0]
            .content
            .contains("(1) echo[input], Repeats its input.\n(2) Finish[answer]"),
        "{}",
        prompt[0].content
    );
    assert!(prompt[0].content.starts_with("通过交替进行"));
    assert_eq!(prompt[2].content, "Thought 1: hi\nAction 1: echo[hi]");
    // A Chinese mrkl prompt labels each tool's parameters in Chinese too.
    let zh = Config {
        lang: Lang::Zh,
        ..Config::default()
    };
    let mrkl = replay(&["Thought: ok\nFinal Answer: hi"], echo_tools(), zh);
    let told = &mrkl.prompt(&block_on(mrkl.run("greet", &mut |_| {})))[0].content;
    assert!(told.contains("echo: Repeats its input. 参数：{"), "{told}");
    assert!(!told.contains("Parameters:"), "{told}");
    assert_eq!(prompt[3].content, "Observation 1: echo: hi");
    assert_eq!(prompt[4].content, "Thought 2: ok\nAction 2: Finish[hi]");
}

#[test]
fn max_steps_stops_with_a_reason() {
    let reply = "Thought: again\nAction: echo\nAction Input: x";
    let agent = replay(
        &[reply; 10],
        echo_tools(),
        Config {
            max_steps: 3,
            ..Config::default()
        },
    );
    let t = block_on(agent.run("loop", &mut |_| {}));
    assert_eq!(t.steps.len(), 3);
    assert_eq!(
        t.stop.as_ref().map(|s| s.reason),
        Some(StopReason::MaxSteps)
    );
    assert_eq!(
        t.stop.as_ref().and_then(|s| s.message.as_deref()),
        Some("no answer after 3 steps")
    );
    // The same action each time: the repeats are refused (bad calls), the budget still ends it.
    assert_eq!((t.stats().n_calls, t.stats().n_badcalls), (3, 2));
}

#[test]
fn abort_stops_mid_stream_and_keeps_the_steps_so_far() {
    let agent = replay(
        &[
            "Thought: one\nAction: echo\nAction Input: 1",
            "Thought: two, a long thought that streams\nAction: echo\nAction Input: 2",
        ],
        echo_tools(),
        Config::default(),
    );
    let abort = agent.abort.clone();
    let mut tokens_in_step_2 = 0;
    let t = block_on(agent.run("count", &mut |e| {
        if let Event::Token { index: 2, .. } = e {
            tokens_in_step_2 += 1;
            if tokens_in_step_2 == 3 {
                abort.abort();
            }
        }
    }));
    assert_eq!(t.stop.as_ref().map(|s| s.reason), Some(StopReason::Aborted));
    assert_eq!(
        t.steps.len(),
        2,
        "the interrupted step is kept with what streamed"
    );
    assert_eq!(t.steps[0].observation(), Some("echo: 1"));
    assert_eq!(t.steps[1].raw(), "Thought: two");
    assert_eq!(t.steps[1].observation(), None);
}

#[test]
fn a_failing_model_ends_the_run_and_keeps_the_trajectory() {
    let agent = replay(
        &["Thought: one\nAction: echo\nAction Input: 1"],
        echo_tools(),
        Config::default(),
    );
    let t = block_on(agent.run("count", &mut |_| {}));
    assert_eq!(t.steps.len(), 1);
    let stop = t.stop.unwrap();
    assert_eq!(stop.reason, StopReason::Error);
    assert_eq!(
        stop.message.as_deref(),
        Some("the scripted replies ran out after 1 replies")
    );
}

#[test]
fn tool_errors_are_observations_and_bad_input_is_a_bad_call() {
    let mut tools = Registry::new();
    tools.register(Rc::new(FnTool::new(
        "picky",
        "Wants a number.",
        "number",
        |text: &str| match text {
            "boom" => Err(ToolError::Failed("it exploded".into())),
            _ if text.parse::<f64>().is_ok() => Ok("fine".into()),
            _ => Err(ToolError::BadInput("expected a number".into())),
        },
    )));
    let agent = replay(
        &[
            "Thought: a\nAction: picky\nAction Input: boom",
            "Thought: b\nAction: picky\nAction Input: seven",
            "Thought: c\nAction: picky\nAction Input: 7",
            "Final Answer: ok",
        ],
        tools,
        Config::default(),
    );
    let t = block_on(agent.run("t", &mut |_| {}));
    assert_eq!(
        t.steps[0].observation(),
        Some("Error: picky failed: it exploded")
    );
    assert!(!t.steps[0].repaired());
    // A bad input is the repair of the tool call, which the model reads as its observation.
    assert!(t.steps[1].repair.is_none());
    let repair = t.steps[1].tool_calls[0].repair.as_ref().unwrap();
    assert_eq!(t.steps[1].observation(), Some(repair.message.as_str()));
    assert_eq!(repair.why.name(), "bad_input");
    assert!(
        repair
            .message
            .starts_with("Invalid input for picky: expected a number. Its input schema is {"),
        "{}",
        repair.message
    );
    assert_eq!(t.steps[2].observation(), Some("fine"));
    assert_eq!((t.stats().n_calls, t.stats().n_badcalls), (4, 1));
    assert_eq!(t.answer(), Some("ok"));
}

#[test]
fn every_scenario_ends_as_designed_in_both_languages() {
    let expected = [
        ("apple-ceo", StopReason::Answer),
        ("einstein", StopReason::Answer),
        ("water", StopReason::Answer),
        ("huawei-phone", StopReason::Answer),
        ("format-repair", StopReason::Answer),
        ("max-steps", StopReason::MaxSteps),
        ("long-run-summary", StopReason::Answer),
        ("reflection", StopReason::Answer),
        ("hallucination", StopReason::Answer),
        ("html-injection", StopReason::Answer),
    ];
    // `units`, `code` and `stock-chart` use tools the page registers (a sandboxed wasm tool, the
    // JS sandbox; tested end to end in Chromium); without them the offline agent says which is
    // missing.
    let page_tools = [
        ("units", "\"units\""),
        ("code", "\"run_js\""),
        ("stock-chart", "\"run_js\""),
    ];
    for (name, tool) in page_tools {
        let scenario = scenarios::get(name).unwrap();
        let host = Rc::new(NativeHost::default());
        let missing = settings::offline_agent(&scenario, Config::default(), 0, host)
            .err()
            .expect("needs a page tool");
        assert!(missing.message.contains(tool), "{}", missing.message);
    }
    assert_eq!(scenarios::all().len(), expected.len() + page_tools.len());
    for (name, reason) in expected {
        for lang in [Lang::En, Lang::Zh] {
            for format in [Format::Mrkl, Format::Paper] {
                let scenario = scenarios::get(name).unwrap();
                let config = Config {
                    format,
                    lang,
                    ..Config::default()
                };
                let agent =
                    settings::offline_agent(&scenario, config, 0, Rc::new(NativeHost::default()))
                        .unwrap();
                let t = block_on(agent.run(scenario.task(lang), &mut |_| {}));
                assert_eq!(
                    t.stop.as_ref().map(|s| s.reason),
                    Some(reason),
                    "{name} {lang:?} {format:?}\n{}",
                    t.to_text()
                );
            }
        }
    }
}

#[test]
fn scenario_answers_are_right() {
    let run = |name: &str| {
        let scenario = scenarios::get(name).unwrap();
        let format = Format::from_name(&scenario.format).unwrap();
        let agent = settings::offline_agent(
            &scenario,
            Config {
                format,
                ..Config::default()
            },
            0,
            Rc::new(NativeHost::default()),
        )
        .unwrap();
        block_on(agent.run(scenario.task(Lang::En), &mut |_| {}))
    };
    assert!(run("apple-ceo")
        .answer()
        .unwrap()
        .contains("Mobile, Alabama"));
    assert!(run("einstein").answer().unwrap().starts_with("Ulm"));
    let water = run("water");
    assert!(water.answer().unwrap().contains("2600 ml"));
    assert_eq!(
        water.steps[2]
            .action()
            .map(|a| (a.tool.as_str(), a.input.clone())),
        Some(("calculator", json!("60 * 35 + 500")))
    );
    let repair = run("format-repair");
    let retried = repair.steps[0]
        .model_calls
        .iter()
        .filter(|c| c.retried.is_some());
    assert_eq!(retried.count(), 1);
    assert!(repair.steps[0].repair.is_some());
    assert_eq!(repair.stats().n_badcalls, 2);
    let hallucination = run("hallucination");
    assert!(
        hallucination.steps[0]
            .notes
            .iter()
            .any(|n| n.contains("Observation")),
        "{:?}",
        hallucination.steps[0].notes
    );
    assert!(
        !hallucination.steps[0].raw().contains("Paris"),
        "the invented observation is cut off"
    );
    assert!(hallucination.answer().unwrap().contains("Mobile, Alabama"));
}

/// The page's menu (`scenarios(lang)`): each scenario loaded, in menu order, with its texts in
/// the language asked for, what a run of it uses, and its modes; not its scripted replies.
#[test]
fn the_menu_lists_each_scenario_in_the_language_asked_for() {
    let menu = |lang| json::from_str(&to_string(&scenarios::menu(lang))).unwrap();
    let (en, zh) = (menu(Lang::En), menu(Lang::Zh));
    assert_eq!(
        en[0],
        json!({
            "name": "apple-ceo", "title": "Apple CEO's hometown",
            "description": "The basic loop: each observation decides the next action; two searches, then the answer.",
            "task": "What is the hometown of the current CEO of Apple Inc.?", "format": "mrkl",
            "maxSteps": null, "memoryTokens": null, "reflectEvery": null, "tools": ["search"],
            "gold": "Mobile, Alabama", "modes": ["react", "act", "cot", "standard"]
        })
    );
    assert_eq!(
        (&zh[0]["title"], &zh[0]["task"], &zh[0]["gold"]),
        (
            &json!("苹果 CEO 的家乡"),
            &json!("苹果公司现任 CEO 的家乡是哪里?"),
            &json!("阿拉巴马州莫比尔")
        )
    );
    let names = |menu: &json::Value| -> Vec<String> {
        let list = menu.as_array().unwrap().iter();
        list.map(|s| s["name"].as_str().unwrap().to_string())
            .collect()
    };
    let all: Vec<String> = scenarios::all().into_iter().map(|s| s.name).collect();
    assert!(all.len() > 10, "{all:?}");
    assert_eq!((names(&en), names(&zh)), (all.clone(), all));
}

/// The parts of a host with nothing of its own: no network, tools, model or tools' module.
fn bare() -> tao_agent::settings::Parts {
    tao_agent::settings::Parts {
        host: Rc::new(NativeHost::default()),
        transport: None,
        tools: Vec::new(),
        model: None,
        elsewhere: None,
    }
}

/// The shipped wasm carries no offline data (built without `bundled-data`): until the page
/// loads it, a scenario or the offline `search` is a setting to fix, and the message says how,
/// rather than an empty menu or a search that finds nothing. Once loaded, the scenario plays.
#[test]
fn without_the_offline_data_a_run_says_how_to_load_it() {
    use tao_agent::settings::Settings;
    use tao_agent::tools::knowledge;
    // What the wasm starts with: nothing loaded (natively, in this test's thread only).
    scenarios::install("[]").unwrap();
    knowledge::install(r#"{"pages": []}"#).unwrap();
    let agent = |settings: tao_agent::json::Value| Settings::from_json(&settings)?.agent(bare());
    let message = |settings| agent(settings).err().map(|e| e.message).unwrap_or_default();
    assert_eq!(
        message(json!({"scenario": "apple-ceo"})),
        "unknown scenario \"apple-ceo\": the offline scenarios are not loaded; call loadOfflineData({scenarios}) with the text of data/scenarios.json (beside the wasm) first"
    );
    let replies = ["Thought: done\nFinal Answer: 42"];
    assert_eq!(
        message(json!({"tools": ["calculator", "search"], "replies": replies})),
        "the offline search and lookup have no pages: call loadOfflineData({knowledge}) with the text of data/knowledge.json (beside the wasm) first, or set wiki to read a live wiki"
    );
    // A live wiki needs no pages (here it needs a network instead), nor do other tools.
    let wiki = message(json!({"tools": ["search", "lookup"], "wiki": "en", "replies": replies}));
    assert!(wiki.starts_with("wiki needs the network"), "{wiki}");
    assert!(agent(json!({"tools": ["calculator"], "replies": replies})).is_ok());

    // Loaded as the page loads them: every scenario in one array, and the knowledge file.
    let mut files: Vec<_> = std::fs::read_dir("data/scenarios")
        .unwrap()
        .map(|f| f.unwrap().path())
        .collect();
    files.sort();
    let documents: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    scenarios::install(&format!("[{}]", documents.join(","))).unwrap();
    knowledge::install(&std::fs::read_to_string("data/knowledge.json").unwrap()).unwrap();
    let run = agent(json!({"scenario": "apple-ceo"})).unwrap();
    let t = block_on(run.run(
        "What is the hometown of the current CEO of Apple Inc.?",
        &mut |_| {},
    ));
    assert_eq!(t.answer(), Some("Mobile, Alabama"));
}

/// Offline, the scripted model plays native tool calling too: in the `tools` format its
/// scripted actions arrive as tool calls, the prompt carries `tool` messages, and the run ends
/// with the same answer as in text ReAct.
#[test]
fn the_scripted_model_plays_native_tool_calling() {
    let scenario = scenarios::get("apple-ceo").unwrap();
    let config = Config {
        format: Format::Tools,
        ..Config::default()
    };
    let agent =
        settings::offline_agent(&scenario, config, 0, Rc::new(NativeHost::default())).unwrap();
    let t = block_on(agent.run(scenario.task(Lang::En), &mut |_| {}));
    assert_eq!(t.stop.as_ref().map(|s| s.reason), Some(StopReason::Answer));
    assert_eq!(t.format.name(), "tools");
    assert_eq!(t.steps.len(), 3);
    assert_eq!(
        t.steps[0].action().map(|a| a.input.clone()),
        Some(json!({"query": "current CEO of Apple"}))
    );
    assert!(
        t.steps[0].raw().starts_with("The user is asking"),
        "only the thought streams: {}",
        t.steps[0].raw()
    );
    assert!(t.answer().unwrap_or("").contains("Mobile, Alabama"));
    let prompt = agent.prompt(&t);
    assert_eq!(prompt[2].role, Role::Assistant);
    assert_eq!(prompt[2].tool_calls[0].name, "search");
    assert_eq!(prompt[3].role, Role::Tool);
    assert_eq!(prompt[3].tool_call_id.as_deref(), Some("call_1"));
}

/// A tool with a real schema (two fields, an enum and a bound), answering with the fuel a
/// sandboxed tool would report.
struct Convert(ToolSpec);

impl Convert {
    fn new() -> Self {
        Convert(ToolSpec::new(
            "convert",
            "Converts a distance.",
            json!({"type": "object",
                   "properties": {"value": {"type": "number", "minimum": 0},
                                  "unit": {"type": "string", "enum": ["km", "mi"]}},
                   "required": ["value", "unit"]}),
        ))
    }
}

impl tao_agent::tools::Tool for Convert {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }
    fn call<'a>(
        &'a self,
        input: &'a tao_agent::json::Value,
    ) -> tao_agent::host::LocalBoxFuture<'a, Result<ToolOutput, ToolError>> {
        let text = format!(
            "{} {}",
            input["value"],
            input["unit"].as_str().unwrap_or("?")
        );
        Box::pin(std::future::ready(Ok(ToolOutput {
            text,
            fuel: Some(1234),
            picture: None,
        })))
    }
}

#[test]
fn a_schema_violation_is_a_repair_naming_the_field() {
    let mut tools = Registry::new();
    tools.register(Rc::new(Convert::new()));
    let agent = replay(
        &[
            "Thought: convert\nAction: convert\nAction Input: {\"value\": 5, \"unit\": \"miles\"}",
            "Thought: fix it\nAction: convert\nAction Input: {\"value\": \"5\", \"unit\": \"mi\"}",
            "Thought: done\nFinal Answer: 5 mi",
        ],
        tools,
        Config::default(),
    );
    let t = block_on(agent.run("convert", &mut |_| {}));
    assert!(t.steps[0].repair.is_none(), "the reply was read");
    let repair = t.steps[0].tool_calls[0].repair.as_ref().expect("a repair");
    assert_eq!(repair.why.name(), "bad_input");
    assert!(
        repair.message.starts_with(
            "Invalid input for convert: the field \"unit\" must be one of \"km\", \"mi\" (got \"miles\"). Its input schema is {"
        ),
        "{}",
        repair.message
    );
    assert_eq!(t.stats().n_badcalls, 1);
    // The second call is coerced ("5" is a number here) and reports its fuel.
    assert_eq!(t.steps[1].observation(), Some("5 mi"));
    assert_eq!(t.steps[1].tool_calls[0].fuel, Some(1234));
    let json = tao_agent::to_json::to_string(&t);
    assert!(json.contains("\"fuel\":1234"), "{json}");
}

/// A JS tool's returned object, `{observation, fuel, picture}`: the fuel it burned and the
/// chart it drew ride along with the observation, and what is not one of them is left out.
#[test]
fn a_tools_object_carries_its_fuel_and_picture() {
    let chart = json!({"kind": "line", "title": "AAPL", "x": [1, 2], "y": [190.5, 192]});
    let cases = [
        (
            json!({"observation": "ok", "fuel": 1234, "picture": chart}),
            Some(1234),
            Some(chart.clone()),
        ),
        (json!({"fuel": 99.9}), Some(99), None),
        (json!({"fuel": 0}), Some(0), None),
        (json!({"fuel": -1, "picture": [1, 2]}), None, None),
        (json!({"fuel": "1234", "picture": "a chart"}), None, None),
        (json!(null), None, None),
    ];
    for (object, fuel, picture) in cases {
        let output = ToolOutput::from_object("seen".into(), &object);
        assert_eq!(
            output,
            ToolOutput {
                text: "seen".into(),
                fuel,
                picture
            },
            "{object}"
        );
    }
}

/// A host that answers approval requests from a list and records them.
struct Approver {
    clock: NativeHost,
    answers: std::cell::RefCell<Vec<bool>>,
    asked: std::cell::RefCell<Vec<String>>,
}

impl tao_agent::host::Host for Approver {
    fn now_ms(&self) -> f64 {
        self.clock.now_ms()
    }
    fn sleep(&self, ms: u32) -> tao_agent::host::LocalBoxFuture<'static, ()> {
        self.clock.sleep(ms)
    }
    fn approve(
        &self,
        tool: &str,
        input: &tao_agent::json::Value,
    ) -> tao_agent::host::LocalBoxFuture<'static, bool> {
        self.asked.borrow_mut().push(format!("{tool} {input}"));
        let answer = self.answers.borrow_mut().remove(0);
        Box::pin(std::future::ready(answer))
    }
}

fn guarded_echo() -> Registry {
    let mut echo = FnTool::new("echo", "Repeats its input.", "text", |text: &str| {
        Ok(format!("echo: {text}"))
    });
    echo.spec_mut().needs_approval = true;
    let mut tools = Registry::new();
    tools.register(Rc::new(echo));
    tools
}

#[test]
fn approval_pauses_for_the_user_and_a_denial_is_an_observation() {
    let host = Rc::new(Approver {
        clock: NativeHost::default(),
        answers: vec![false, true].into(),
        asked: Vec::new().into(),
    });
    let replies = [
        "Thought: a\nAction: echo\nAction Input: one",
        "Thought: b\nAction: echo\nAction Input: two",
        "Thought: done\nFinal Answer: ok",
    ];
    let config = Config::default();
    let model = Scripted::new(
        "test",
        Policy::Replay(replies.iter().map(|r| r.to_string()).collect()),
        config.format,
        config.lang,
        host.clone(),
    );
    let agent = Agent::new(config, Box::new(model), guarded_echo(), host.clone());
    let mut events = Vec::new();
    let t = block_on(agent.run("echo twice", &mut |e| {
        if let Event::Approval {
            index, approved, ..
        } = e
        {
            events.push((*index, *approved));
        }
    }));
    assert_eq!(events, [(1, false), (2, true)]);
    assert_eq!(
        *host.asked.borrow(),
        ["echo {\"text\":\"one\"}", "echo {\"text\":\"two\"}"]
    );
    assert_eq!(t.steps[0].tool_calls[0].approved, Some(false));
    assert!(t.steps[0]
        .observation()
        .unwrap()
        .starts_with("The user denied this call to echo."));
    assert_eq!(t.steps[1].observation(), Some("echo: two"));
    assert_eq!(
        t.stats().n_badcalls,
        0,
        "a denial is not the model's mistake"
    );
    // Without anyone to ask (the plain native host), a guarded tool never runs.
    let agent = replay(&replies[..1], guarded_echo(), Config::default());
    let t = block_on(agent.run("echo", &mut |_| {}));
    assert!(t.steps[0]
        .observation()
        .unwrap()
        .starts_with("The user denied"));
}

/// A tool that never answers.
struct Hang(ToolSpec);

impl tao_agent::tools::Tool for Hang {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }
    fn call<'a>(
        &'a self,
        _: &'a tao_agent::json::Value,
    ) -> tao_agent::host::LocalBoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(std::future::pending())
    }
}

#[test]
fn a_tool_that_runs_too_long_is_abandoned_and_the_run_goes_on() {
    let mut tools = Registry::new();
    tools.register(Rc::new(Hang(ToolSpec {
        timeout_ms: Some(30),
        ..ToolSpec::new(
            "hang",
            "Never answers.",
            tao_agent::tools::string_schema("input"),
        )
    })));
    let agent = replay(
        &[
            "Thought: wait\nAction: hang\nAction Input: x",
            "Thought: give up\nFinal Answer: no",
        ],
        tools,
        Config::default(),
    );
    let t = block_on(agent.run("hang", &mut |_| {}));
    assert_eq!(
        t.steps[0].observation(),
        Some("Error: hang did not answer within 30 ms and was abandoned.")
    );
    assert!(t.steps[0].tool_calls[0].ms >= 30.0);
    assert_eq!(t.answer(), Some("no"));
}

/// A clock that moves 50 ms each time it is read, so a run's steps take time deterministically.
struct Ticking(std::cell::Cell<f64>);

impl tao_agent::host::Host for Ticking {
    fn now_ms(&self) -> f64 {
        self.0.set(self.0.get() + 50.0);
        self.0.get()
    }
    fn sleep(&self, _ms: u32) -> tao_agent::host::LocalBoxFuture<'static, ()> {
        Box::pin(std::future::ready(()))
    }
}

#[test]
fn a_time_budget_stops_the_run_before_the_next_model_call() {
    let host = Rc::new(Ticking(0.0.into()));
    let replies: Vec<String> = (0..20)
        .map(|k| format!("Thought: a\nAction: echo\nAction Input: {k}"))
        .collect();
    let config = Config {
        time_budget_ms: Some(2000),
        ..Config::default()
    };
    let model = Scripted::new(
        "test",
        Policy::Replay(replies),
        Format::Mrkl,
        Lang::En,
        host.clone(),
    );
    let agent = Agent::new(config, Box::new(model), echo_tools(), host);
    let t = block_on(agent.run("Echo", &mut |_| {}));
    let stop = t.stop.as_ref().unwrap();
    assert_eq!(stop.reason, StopReason::TimeBudget);
    let message = stop.message.as_deref().unwrap();
    assert!(
        message.starts_with("the time budget is spent: ")
            && message.contains("of 2.0 s; raise Time budget"),
        "{message}"
    );
    // Stopped once the steps' time reached the budget, with every step before it kept whole.
    let elapsed = t.stats().elapsed_ms;
    assert!(elapsed >= 2000.0, "{elapsed}");
    assert!(
        t.steps.len() >= 2 && t.steps.iter().all(|s| s.observation().is_some()),
        "{}",
        t.to_text()
    );
    let before_last = t.stats().elapsed_ms - t.steps.last().unwrap().ms;
    assert!(before_last < 2000.0, "one step too many: {before_last}");
}

#[test]
fn budgets_are_options_of_the_agent_and_zero_means_none() {
    let s = settings::Settings::from_json(
        &json!({"scenario": "apple-ceo", "tokenBudget": 5000, "timeBudgetMs": 0}),
    )
    .unwrap();
    assert_eq!(
        (s.config.token_budget, s.config.time_budget_ms),
        (Some(5000), None)
    );
    let e = settings::Settings::from_json(&json!({"scenario": "apple-ceo", "timeBudgetMs": -1}))
        .unwrap_err();
    assert!(
        e.message.contains("timeBudgetMs must be a whole number"),
        "{}",
        e.message
    );
    assert_eq!(StopReason::TokenBudget.name(), "token_budget");
    assert_eq!(StopReason::TimeBudget.name(), "time_budget");
}

/// A model that writes a long run's memos when asked for one (its instructions say which) and
/// otherwise replays its replies; it records the memo prompts it was sent.
struct MemoWriter {
    replay: Scripted,
    asked: Rc<std::cell::RefCell<Vec<String>>>,
}

impl tao_agent::llm::Model for MemoWriter {
    fn name(&self) -> String {
        "memo-writer".into()
    }
    fn complete<'a>(
        &'a self,
        request: tao_agent::llm::Request<'a>,
        on_delta: tao_agent::llm::OnDelta<'a>,
    ) -> tao_agent::host::LocalBoxFuture<'a, Result<tao_agent::llm::Reply, tao_agent::Error>> {
        let system = &request.messages[0].content;
        let memo = match () {
            _ if system.starts_with("You keep the memory") => "SUMMARY: found 2, 4, 6.",
            _ if system
                .starts_with("You are a ReAct agent working on the question below, pausing") =>
            {
                "REFLECTION: the doubling works; go on."
            }
            _ => return self.replay.complete(request, on_delta),
        };
        self.asked
            .borrow_mut()
            .push(request.messages[1].content.clone());
        on_delta(tao_agent::llm::Delta::Text(memo));
        Box::pin(std::future::ready(Ok(tao_agent::llm::Reply::default())))
    }
}

fn doubling_run(config: Config) -> (Agent, Rc<std::cell::RefCell<Vec<String>>>) {
    let host = Rc::new(NativeHost::default());
    let mut replies: Vec<String> = (1..=8)
        .map(|k| format!("Thought: double {k}.\nAction: calculator\nAction Input: {k} * 2"))
        .collect();
    replies.push("Thought: done.\nFinal Answer: 16".into());
    let replay = Scripted::new(
        "replay",
        Policy::Replay(replies),
        Format::Mrkl,
        Lang::En,
        host.clone(),
    );
    let asked = Rc::new(std::cell::RefCell::new(Vec::new()));
    let model = Box::new(MemoWriter {
        replay,
        asked: asked.clone(),
    });
    let tools = tao_agent::tools::builtin(&["calculator".to_string()], "en").unwrap();
    (Agent::new(config, model, tools, host), asked)
}

#[test]
fn a_summary_keeps_every_prompt_within_its_budget_and_the_trajectory_whole() {
    let budget = 330;
    let (agent, writer) = doubling_run(Config {
        memory_tokens: Some(budget),
        keep_steps: 2,
        max_steps: 10,
        ..Config::default()
    });
    let t = block_on(agent.run("Double 1 to 8.", &mut |_| {}));
    assert_eq!(t.answer(), Some("16"));
    assert_eq!(t.steps.len(), 9, "every step is kept");
    let summaries: Vec<_> = t
        .memos
        .iter()
        .filter(|m| m.kind == tao_agent::trajectory::MemoKind::Summary)
        .collect();
    assert!(summaries.len() >= 2, "{}", t.to_text());
    for memo in &summaries {
        assert_eq!(memo.text, "SUMMARY: found 2, 4, 6.");
        assert_eq!(memo.covers, memo.after - 2, "all but the last two steps");
        assert!(memo.call.is_some(), "written by the model");
    }
    // Every model call's prompt stayed within the budget (estimated as the page does).
    for k in 1..=t.steps.len() as u32 {
        let prompt = agent.prompt(&t.before(k));
        let size: u64 = prompt
            .iter()
            .map(|m| tao_agent::estimate_tokens(&m.content))
            .sum();
        assert!(size <= budget, "step {k}: {size} tokens\n{prompt:#?}");
    }
    // The last prompt shows the summary in place of the steps it covers.
    let last = agent.prompt(&t.before(9));
    let text: Vec<&str> = last.iter().map(|m| m.content.as_str()).collect();
    let covers = summaries.last().unwrap().covers;
    assert!(
        text[1].contains(&format!("Summary of steps 1-{covers} (condensed")),
        "{text:?}"
    );
    assert!(
        !text.iter().any(|m| m.contains("Action Input: 1 * 2")),
        "{text:?}"
    );
    // The summary's own prompt quoted the steps it condensed.
    assert!(writer.borrow()[0].contains("Action: calculator[1 * 2]"));
    // Its model call counts.
    assert_eq!(t.stats().n_calls, 9 + summaries.len() as u32);
}

#[test]
fn a_reflection_every_n_steps_is_written_by_the_model_and_read_in_the_next_prompts() {
    let (agent, _) = doubling_run(Config {
        reflect_every: Some(3),
        max_steps: 10,
        ..Config::default()
    });
    let mut seen = Vec::new();
    let t = block_on(agent.run("Double 1 to 8.", &mut |e| {
        if let Event::Memo {
            kind, after, text, ..
        } = e
        {
            seen.push(format!("{}:{after}:{text}", kind.name()));
        }
    }));
    assert_eq!(
        seen,
        [
            "reflection:3:REFLECTION: the doubling works; go on.",
            "reflection:6:REFLECTION: the doubling works; go on."
        ]
    );
    let prompt = agent.prompt(&t.before(4));
    let last = &prompt.last().unwrap().content;
    assert!(last.starts_with("Observation: 6"), "{last}");
    assert!(
        last.ends_with("Reflection after step 3:\nREFLECTION: the doubling works; go on."),
        "{last}"
    );
    // A trajectory with memos reads back as it was written.
    let read = tao_agent::Trajectory::from_json(&t.to_json()).unwrap();
    assert_eq!(read, t);
}

#[test]
fn a_reflection_and_a_summary_due_together_are_both_written() {
    let (agent, _) = doubling_run(Config {
        reflect_every: Some(1),
        memory_tokens: Some(330),
        max_steps: 10,
        ..Config::default()
    });
    let t = block_on(agent.run("Double 1 to 8.", &mut |_| {}));
    let both = t.memos.iter().any(|m| {
        m.kind == tao_agent::trajectory::MemoKind::Summary
            && t.memos
                .iter()
                .any(|r| r.kind != m.kind && r.after == m.after)
    });
    assert!(both, "{}", t.to_text());
    assert_eq!(t.answer(), Some("16"));
}

#[test]
fn a_repeated_action_is_told_apart_by_its_words_not_their_case_or_spacing() {
    let agent = replay(
        &[
            "Thought: one\nAction: echo\nAction Input: Apple  Inc",
            "Thought: two\nAction: echo\nAction Input: APPLE inc",
            "Thought: three\nAction: echo\nAction Input: Apple Inc.",
            "Final Answer: done",
        ],
        echo_tools(),
        Config::default(),
    );
    let t = block_on(agent.run("echo it", &mut |_| {}));
    // A repeat is the repair of the step's tool call (the reply itself was read).
    assert!(t.steps.iter().all(|s| s.repair.is_none()));
    let why = |k: usize| t.steps[k].tool_calls[0].repair.as_ref().map(|r| r.why);
    assert_eq!((why(0), why(1), why(2)), (None, Some(Why::Repeated), None));
}

/// A tool that, once called, stops the run from outside (as the page's Stop would while the
/// tool works) and never answers.
struct StoppedWhileWorking(ToolSpec, tao_agent::Abort);

impl tao_agent::tools::Tool for StoppedWhileWorking {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }
    fn call<'a>(
        &'a self,
        _input: &'a tao_agent::json::Value,
    ) -> tao_agent::host::LocalBoxFuture<'a, Result<ToolOutput, ToolError>> {
        self.1.abort();
        Box::pin(std::future::pending())
    }
}

#[test]
fn stop_reaches_a_tool_at_work_and_its_late_result_is_not_recorded() {
    let abort = tao_agent::Abort::default();
    let spec = ToolSpec::new(
        "slow",
        "Works a long time.",
        tao_agent::tools::string_schema("input"),
    );
    let mut tools = Registry::new();
    tools.register(Rc::new(StoppedWhileWorking(spec, abort.clone())));
    let mut agent = replay(
        &[
            "Thought: work\nAction: slow\nAction Input: x",
            "Thought: done\nFinal Answer: y",
        ],
        tools,
        Config::default(),
    );
    agent.abort = abort;
    let t = block_on(agent.run("work", &mut |_| {}));
    // The run ends at once (the tool's future is never answered), stopped, with the call waiting:
    // a resumed run would call the tool again.
    assert_eq!(t.stop.as_ref().map(|s| s.reason), Some(StopReason::Aborted));
    assert_eq!(t.steps.len(), 1);
    assert_eq!(t.steps[0].tool_calls[0].observation, None);
    assert!(t.pending_action().is_some());
}

#[test]
fn a_model_that_keeps_replying_nothing_readable_stops_after_a_few_calls() {
    // Empty replies forever: asked again once a step (the default), then repaired.
    let agent = replay(&[""; 16], echo_tools(), Config::default());
    let t = block_on(agent.run("anything", &mut |_| {}));
    let stop = t.stop.clone().unwrap();
    assert_eq!(stop.reason, StopReason::Error);
    assert_eq!(
        t.stats().n_calls,
        tao_agent::agent::UNREADABLE_IN_A_ROW as u32
    );
    assert_eq!(t.steps.len(), 2, "two steps of a call and its retry");
    let message = stop.message.unwrap();
    assert!(
        message.starts_with("the model's last 4 replies could not be read (the last: "),
        "{message}"
    );
    assert!(
        !message.contains("empty)") && !message.contains("no_action"),
        "in words: {message}"
    );
    // A readable reply between them starts the count again.
    let agent = replay(
        &[
            "",
            "",
            "",
            "Thought: t\nAction: echo\nAction Input: a",
            "",
            "",
            "",
            "Thought: t\nFinal Answer: z",
        ],
        echo_tools(),
        Config::default(),
    );
    let t = block_on(agent.run("anything", &mut |_| {}));
    assert_eq!(t.answer(), Some("z"));
}

/// A model that records what each request said a step is, and the system prompt, then replays.
struct Constrained {
    replay: Scripted,
    seen: Rc<std::cell::RefCell<Vec<String>>>,
}

impl tao_agent::llm::Model for Constrained {
    fn name(&self) -> String {
        "constrained".into()
    }
    fn complete<'a>(
        &'a self,
        request: tao_agent::llm::Request<'a>,
        on_delta: tao_agent::llm::OnDelta<'a>,
    ) -> tao_agent::host::LocalBoxFuture<'a, Result<tao_agent::llm::Reply, tao_agent::Error>> {
        let said = match request.constraint {
            Some(c) => format!("{}:{}:{}", c.format, c.step, c.tools.join(",")),
            None => "free".into(),
        };
        let mut seen = self.seen.borrow_mut();
        seen.push(said);
        seen.push(request.messages[0].content.clone());
        self.replay.complete(request, on_delta)
    }
}

/// The model in the tab: `provider: "wllama"` is read as such (the host runs it: a host without
/// it, the CLI, says so), constrained unless told otherwise; a constrained run tells the model
/// what each step is, and `mrkl` gives a small model its worked example.
#[test]
fn the_model_in_the_tab_is_constrained_and_given_the_worked_example() {
    use tao_agent::settings::{Parts, Settings};
    let local = json!({"provider": "wllama", "model": "smollm2-135m", "tools": ["calculator"]});
    let s = Settings::from_json(&local).unwrap();
    assert_eq!(
        s.local.as_ref().map(|l| l.model.as_str()),
        Some("smollm2-135m")
    );
    assert!(s.config.constrained && s.endpoint.is_none());
    assert!(s
        .config
        .exemplars
        .as_deref()
        .unwrap()
        .contains("Action: calculator\nAction Input: 12 * 7"));
    let host = Rc::new(NativeHost::default());
    let parts = |model: Option<Box<dyn tao_agent::llm::Model>>| Parts {
        host: host.clone(),
        transport: None,
        tools: Vec::new(),
        model,
        elsewhere: None,
    };
    let cli = s.agent(parts(None)).err().unwrap();
    assert_eq!(cli.message, "provider \"wllama\" runs only in a web page");
    // Off when asked, and for any model when asked on; a bad value says what it must be.
    let off = json!({"provider": "wllama", "model": "x.gguf", "constrained": false});
    assert!(!Settings::from_json(&off).unwrap().config.constrained);
    let bad = Settings::from_json(&json!({"provider": "wllama", "model": "m", "constrained": 1}));
    assert_eq!(
        bad.err().unwrap().message,
        "constrained must be true or false"
    );
    let missing = Settings::from_json(&json!({"provider": "wllama"}))
        .err()
        .unwrap();
    assert!(
        missing
            .message
            .starts_with("model: give a name from the catalogue"),
        "{}",
        missing.message
    );

    let seen = Rc::new(std::cell::RefCell::new(Vec::new()));
    let replies = vec![
        "Thought: multiply.\nAction: calculator\nAction Input: 17 * 23".to_string(),
        "Thought: I now know the final answer\nFinal Answer: 391".to_string(),
    ];
    let replay = Scripted::new(
        "replay",
        Policy::Replay(replies),
        Format::Mrkl,
        Lang::En,
        host.clone(),
    );
    let model = Constrained {
        replay,
        seen: seen.clone(),
    };
    let agent = s.agent(parts(Some(Box::new(model)))).unwrap();
    let t = block_on(agent.run("What is 17 * 23?", &mut |_| {}));
    assert_eq!(t.answer(), Some("391"));
    let seen = seen.borrow();
    assert_eq!(seen[0], "mrkl:1:calculator");
    assert_eq!(seen[2], "mrkl:2:calculator");
    assert!(
        seen[1].contains("Here are some examples.\nQuestion: What is 12 * 7?"),
        "{}",
        seen[1]
    );
    // Unconstrained runs say nothing of it, and `mrkl` keeps its prompt as it was.
    let free = Settings::from_json(
        &json!({"tools": ["calculator"], "replies": ["Thought: x\nFinal Answer: 1"]}),
    )
    .unwrap();
    assert!(!free.config.constrained && free.config.exemplars.is_none());
}

/// `registerTool`'s spec: checked when the page registers it, and listed by `tools()` with
/// whether it asks first (the approval and time limit are never told to the model).
#[test]
fn a_registered_spec_is_checked_and_listed_with_its_approval() {
    use tao_agent::chat::Listed;
    let read = |text: &str| ToolSpec::registered(&tao_agent::json::from_str(text).unwrap());
    let spec =
        read(r#"{"name": "stock", "description": "Prices", "needsApproval": true}"#).unwrap();
    assert_eq!(
        tao_agent::to_json::to_string(&Listed(&spec)),
        r#"{"name":"stock","description":"Prices","parameters":{"properties":{"input":{"type":"string"}},"required":["input"],"type":"object"},"needsApproval":true}"#
    );
    assert_eq!(
        tao_agent::to_json::to_string(&spec),
        r#"{"name":"stock","description":"Prices","parameters":{"properties":{"input":{"type":"string"}},"required":["input"],"type":"object"}}"#
    );
    let error = read(r#"{"name": "two words", "description": "x"}"#).unwrap_err();
    assert_eq!(
        error.message,
        "registerTool: the tool name must be one word, e.g. \"search_docs\""
    );
    let error = read(r#"{"description": "x"}"#).unwrap_err();
    assert!(
        error
            .message
            .starts_with("registerTool needs {name, description, parameters?}: "),
        "{}",
        error.message
    );
    assert!(read(r#"{"name": " ", "description": "x"}"#).is_err());
}

/// A name in `tools` that no tool has is a setting to fix; with MCP servers, the message says
/// how to pick some of a server's tools (a new user tried `<tao-agent mcp=… tools="get-sum">`).
#[test]
fn an_unknown_tool_name_says_where_an_mcp_servers_tools_are_chosen() {
    use tao_agent::settings::Settings;
    let message = |settings: tao_agent::json::Value| {
        let built = Settings::from_json(&settings).and_then(|s| s.agent(bare()));
        built.err().map(|e| e.message).unwrap_or_default()
    };
    let replies = ["Final Answer: 5"];
    let plain = message(json!({"tools": ["get-sum"], "replies": replies}));
    assert_eq!(plain, "unknown tool \"get-sum\"; the built-in tools are: search, lookup, calculator, search_docs (tools made in JS are added with registerTool before the run)");
    let mcp =
        json!({"tools": ["get-sum"], "replies": replies, "mcp": ["http://127.0.0.1:3001/mcp"]});
    assert_eq!(
        message(mcp),
        format!("{plain}; to use only some of an MCP server's tools, name them in its own setting: mcp: [{{url, tools: [\"get-sum\"]}}]")
    );
}
