//! The paper's modes as formats: `act` (actions, no thoughts), `cot` (no tools: think, then
//! answer) and `standard` (no tools: answer at once). What each prompt says, how a step reads
//! back, how a reply is read, that the no-tool modes never run or offer a tool, and that the
//! `exemplars` setting stands in for a format's worked example.

use std::cell::RefCell;
use std::rc::Rc;
use tao_agent::format::parse::{parse, Verdict, Why};
use tao_agent::format::{act, cot, paper, standard, Format, Lang, Move};
use tao_agent::host::{block_on, LocalBoxFuture, NativeHost};
use tao_agent::json;
use tao_agent::json::Value;
use tao_agent::llm::{Model, OnDelta, Reply, Request, Role};
use tao_agent::scenarios::scripted::{Policy, Scripted};
use tao_agent::settings::{Parts, Settings};
use tao_agent::tools::{builtin, Registry};
use tao_agent::zh::{self, Zh};
use tao_agent::{scenarios, Agent, Config, Error, StopReason, Trajectory};

const MODES: [Format; 3] = [Format::Act, Format::Cot, Format::Standard];

fn wiki_tools() -> Registry {
    builtin(&["search".into(), "lookup".into()], "en").unwrap()
}

/// The system message of `format` with the Wikipedia tools, in `lang`.
fn instructions(format: Format, lang: Lang, exemplars: Option<&str>) -> String {
    format.instructions(&wiki_tools(), lang, exemplars)
}

#[test]
fn the_mode_names_read_back() {
    for (name, format) in [
        ("act", Format::Act),
        ("cot", Format::Cot),
        ("standard", Format::Standard),
    ] {
        assert_eq!(Format::from_name(name), Some(format));
        assert_eq!(format.name(), name);
    }
    // `react` stays the old alias of mrkl.
    assert_eq!(Format::from_name("react"), Some(Format::Mrkl));
    assert!(!Format::Cot.has_tools() && !Format::Standard.has_tools());
    assert!(Format::Act.has_tools() && !Format::Act.is_native());
}

#[test]
fn act_prompt_is_the_paper_without_thoughts() {
    let en = instructions(Format::Act, Lang::En, None);
    assert!(en.starts_with(
        "Solve a question answering task with interleaving Action, Observation steps. Action can be 3 types:\n(1) search[input], "
    ));
    assert!(en.contains("(3) Finish[answer]"), "{en}");
    assert!(en.ends_with(act::EXAMPLE_EN), "{en}");
    assert!(!en.contains("Thought"), "act has no thoughts: {en}");
    let zh = instructions(Format::Act, Lang::Zh, None);
    assert!(
        zh.contains("(3) Finish[answer],给出答案并结束任务。")
            && zh.ends_with(zh::text(Zh::ActExample))
    );
}

#[test]
fn cot_and_standard_prompts_list_no_tools() {
    let cases = [
        (Format::Cot, Lang::En, cot::PROMPT_EN, cot::EXAMPLE_EN),
        (
            Format::Cot,
            Lang::Zh,
            zh::text(Zh::Cot),
            zh::text(Zh::CotExample),
        ),
        (
            Format::Standard,
            Lang::En,
            standard::PROMPT_EN,
            standard::EXAMPLE_EN,
        ),
        (
            Format::Standard,
            Lang::Zh,
            zh::text(Zh::Standard),
            zh::text(Zh::StandardExample),
        ),
    ];
    for (format, lang, prompt, example) in cases {
        let text = instructions(format, lang, None);
        assert_eq!(text, format!("{prompt}\n\n{example}"));
        for tool in ["search[", "lookup[", "Searches the encyclopedia", "Action"] {
            assert!(!text.contains(tool), "{format:?} mentions {tool}: {text}");
        }
    }
    assert!(cot::EXAMPLE_EN.contains(
        "Thought: Let's think step by step. Milhouse was named after U.S. president Richard Nixon, so the answer is Richard Nixon.\nAnswer: Richard Nixon"
    ));
}

#[test]
fn each_mode_writes_its_own_turn_observation_and_stop() {
    let input = Value::String("Ulm".into());
    let act = Move::Act {
        tool: "search",
        input: &input,
    };
    let answer = Move::Answer("Ulm");
    let thought = "I should look.";
    assert_eq!(Format::Act.turn(2, thought, act), "Action 2: search[Ulm]");
    assert_eq!(
        Format::Act.turn(3, thought, answer),
        "Action 3: Finish[Ulm]"
    );
    assert_eq!(
        Format::Cot.turn(1, thought, answer),
        "Thought: I should look.\nAnswer: Ulm"
    );
    assert_eq!(Format::Standard.turn(1, thought, answer), "Answer: Ulm");
    assert_eq!(Format::Act.observation(2, "o"), "Observation 2: o");
    assert_eq!(Format::Cot.observation(2, "o"), "Observation: o");
    assert_eq!(Format::Act.stop_sequences(2), ["\nObservation 2:"]);
    for format in [Format::Cot, Format::Standard] {
        assert_eq!(format.stop_sequences(1), ["\nQuestion:"]);
    }
}

/// The verdict on `reply` as `format` reads it, with the Wikipedia tools registered.
fn read(format: Format, reply: &str) -> Verdict {
    parse(reply, &format.parse_options(&wiki_tools())).verdict
}

fn action(tool: &str, input: &str) -> Verdict {
    Verdict::Action {
        thought: String::new(),
        tool: tool.into(),
        input: json!(input),
    }
}

fn answer(thought: &str, answer: &str) -> Verdict {
    Verdict::Final {
        thought: thought.into(),
        answer: answer.into(),
    }
}

#[test]
fn act_reads_bare_action_lines() {
    assert_eq!(
        read(Format::Act, "Action 1: search[Ulm]"),
        action("search", "Ulm")
    );
    // The paper's exemplars spell the tools `Search`, `Lookup`: the registered tool runs.
    assert_eq!(
        read(Format::Act, "Action 1: Search[Ulm]"),
        action("search", "Ulm")
    );
    assert_eq!(
        read(Format::Act, "Action 2: Lookup[born]"),
        action("lookup", "born")
    );
    assert_eq!(
        read(Format::Act, "Action 3: Finish[Ulm]"),
        answer("", "Ulm")
    );
}

#[test]
fn cot_reads_a_thought_then_the_answer() {
    let reply = "Thought: Let's think step by step. He grew up in Munich. So the answer is Munich.\nAnswer: Munich";
    assert_eq!(
        read(Format::Cot, reply),
        answer(
            "Let's think step by step. He grew up in Munich. So the answer is Munich.",
            "Munich"
        )
    );
    // A reply that thinks but never answers is asked for its `Answer:` line.
    let Verdict::Error { why, message, .. } = read(Format::Cot, "Thought: Let's think.") else {
        panic!("a thought alone is not an answer");
    };
    assert_eq!(why, Why::NoAction);
    assert!(
        message.starts_with(
            "Your reply had no `Answer:` line. Reply with\nThought: ...\nAnswer: <answer>"
        ),
        "{message}"
    );
}

#[test]
fn standard_reads_the_answer_labelled_or_bare() {
    assert_eq!(read(Format::Standard, "Answer: Ulm"), answer("", "Ulm"));
    assert_eq!(
        read(Format::Standard, "Final Answer: Ulm"),
        answer("", "Ulm")
    );
    assert_eq!(
        read(Format::Standard, "Ulm, Germany"),
        answer("", "Ulm, Germany")
    );
}

#[test]
fn an_action_in_a_no_tool_mode_is_a_repair() {
    for format in [Format::Cot, Format::Standard] {
        let Verdict::Error { why, message, .. } = read(
            format,
            "Thought: I should check.\nAction: search[Albert Einstein]",
        ) else {
            panic!("{format:?} read an action");
        };
        assert_eq!(why, Why::UnknownTool);
        assert!(
            message.starts_with("There are no tools here, so `search` cannot be used."),
            "{message}"
        );
        assert!(message.contains("Answer: <answer>"), "{message}");
    }
}

/// A model that records the tools each request offers and its system message, and lets a
/// scripted model answer.
struct Recording {
    inner: Scripted,
    sent: Rc<RefCell<Vec<(usize, String)>>>,
}

impl Model for Recording {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn complete<'a>(
        &'a self,
        request: Request<'a>,
        on_delta: OnDelta<'a>,
    ) -> LocalBoxFuture<'a, Result<Reply, Error>> {
        let system = request
            .messages
            .iter()
            .find(|m| m.role == Role::System)
            .map_or(String::new(), |m| m.content.clone());
        self.sent.borrow_mut().push((request.tools.len(), system));
        self.inner.complete(request, on_delta)
    }
}

#[test]
fn no_tool_modes_never_run_or_offer_a_tool() {
    for format in [Format::Cot, Format::Standard] {
        let host = Rc::new(NativeHost::default());
        let replies = vec![
            "Thought: Let me check.\nAction: search[Albert Einstein]".to_string(),
            "Answer: Ulm".to_string(),
        ];
        let inner = Scripted::new("t", Policy::Replay(replies), format, Lang::En, host.clone());
        let sent = Rc::default();
        let model = Recording {
            inner,
            sent: Rc::clone(&sent),
        };
        let config = Config {
            format,
            ..Config::default()
        };
        let agent = Agent::new(config, Box::new(model), wiki_tools(), host);
        let t = block_on(agent.run("Where was Albert Einstein born?", &mut |_| {}));
        let first = &t.steps[0];
        assert_eq!(first.repair.as_ref().map(|r| r.why), Some(Why::UnknownTool));
        assert!(first.tool_calls.is_empty(), "no tool ran");
        assert_eq!(t.steps[1].answer.as_deref(), Some("Ulm"));
        for (tools, system) in sent.borrow().iter() {
            assert_eq!(*tools, 0, "{format:?} offered tools");
            assert!(!system.contains("search"), "{format:?}: {system}");
        }
        // The repair reads back as the model wrote it, labelled like an observation.
        let prompt = agent.prompt(&t.before(2));
        assert!(prompt[2]
            .content
            .contains("Action: search[Albert Einstein]"));
        assert!(prompt[3]
            .content
            .starts_with("Observation: There are no tools here"));
    }
}

#[test]
fn exemplars_stand_in_for_the_worked_example() {
    let given = "Question: Where was Ada Lovelace born?\nAnswer: London";
    for format in [Format::Paper, Format::Act, Format::Cot, Format::Standard] {
        let en = instructions(format, Lang::En, Some(given));
        let own = instructions(format, Lang::En, None);
        let (head, _) = own.split_once("\n\nHere is an example:\n").unwrap();
        assert_eq!(en, format!("{head}\n\nHere are some examples.\n{given}"));
        let zh = instructions(format, Lang::Zh, Some(given));
        assert!(
            zh.ends_with(&format!("\n\n以下是一些示例。\n{given}")),
            "{zh}"
        );
    }
    // The action list stays: the paper's exemplars follow it.
    let text = instructions(Format::Paper, Lang::En, Some(given));
    assert!(text.contains("(1) search[input]") && !text.contains(paper::EXAMPLE_EN));
    // Through the settings, as the page, the CLI and a scenario set it.
    let settings = Settings::from_json(&json!({
        "scenario": "einstein", "format": "act", "exemplars": given,
    }))
    .unwrap();
    let agent = settings
        .agent(Parts {
            host: Rc::new(NativeHost::default()),
            transport: None,
            tools: Vec::new(),
            model: None,
            elsewhere: None,
        })
        .unwrap();
    let system = &agent.prompt(&agent.start("q"))[0].content;
    assert!(
        system.ends_with(&format!("Here are some examples.\n{given}")),
        "{system}"
    );
    assert!(!system.contains("Milhouse"));
}

#[test]
fn settings_and_trajectory_files_take_the_modes() {
    for format in MODES {
        let settings =
            Settings::from_json(&json!({"scenario": "einstein", "format": format.name()}));
        assert_eq!(settings.unwrap().config.format, format);
        let file = Trajectory::new("q", format, Lang::En, "m").to_json();
        assert_eq!(Trajectory::from_json(&file).unwrap().format, format);
    }
    let bad = Settings::from_json(&json!({"scenario": "einstein", "format": "yaml"})).err();
    assert_eq!(
        bad.unwrap().message,
        "unknown format \"yaml\"; use mrkl, paper, tools, auto, act, cot or standard"
    );
    let file = Trajectory::new("q", Format::Cot, Lang::En, "m").to_json();
    let file = file.replace("\"react_format\": \"cot\"", "\"react_format\": \"yaml\"");
    let error = Trajectory::from_json(&file).unwrap_err().message;
    assert!(
        error.contains(
            "unknown format `yaml`, expected one of mrkl, paper, tools, auto, act, cot or standard"
        ),
        "{error}"
    );
}

#[test]
fn scenarios_give_gold_and_a_policy_per_mode() {
    for name in ["apple-ceo", "einstein"] {
        let scenario = scenarios::get(name).unwrap();
        assert_eq!(scenario.mode_names(), ["react", "act", "cot", "standard"]);
        assert!(scenario.gold.is_some());
        for format in MODES {
            assert!(!std::ptr::eq(
                scenario.policy_for(format),
                &scenario.policy[..]
            ));
        }
        assert!(std::ptr::eq(
            scenario.policy_for(Format::Paper),
            &scenario.policy[..]
        ));
    }
    let units = scenarios::get("units").unwrap();
    assert_eq!(units.mode_names(), ["react"]);
    assert!(units.gold.is_none());
}

/// The answer a scenario's offline run gives in `format` and `lang`, and its steps.
fn offline(name: &str, format: Format, lang: Lang) -> Trajectory {
    let scenario = scenarios::get(name).unwrap();
    let config = Config {
        format,
        lang,
        ..Config::default()
    };
    let host = Rc::new(NativeHost::default());
    let agent = tao_agent::settings::offline_agent(&scenario, config, 0, host).unwrap();
    block_on(agent.run(scenario.task(lang), &mut |_| {}))
}

#[test]
fn each_mode_goes_wrong_its_own_way() {
    // ReAct looks it up; CoT reasons confidently from a wrong fact; Act repeats a search (the
    // loop check refuses to run it again) before it answers; Standard answers unchecked.
    let cases = [
        ("apple-ceo", Format::Cot, "Robertsdale, Alabama", 1),
        ("apple-ceo", Format::Standard, "Cupertino, California", 1),
        ("apple-ceo", Format::Act, "Alabama", 4),
        ("einstein", Format::Cot, "Munich", 1),
        ("einstein", Format::Standard, "Germany", 1),
        ("einstein", Format::Act, "Ulm", 4),
        ("einstein", Format::Paper, "Ulm", 3),
    ];
    for (name, format, want, steps) in cases {
        let t = offline(name, format, Lang::En);
        assert_eq!(t.stop.as_ref().map(|s| s.reason), Some(StopReason::Answer));
        assert_eq!(t.answer(), Some(want), "{name} in {format:?}");
        assert_eq!(t.steps.len(), steps, "{name} in {format:?}");
        if format == Format::Act {
            // The repeat is the repair of the step's tool call, not of its reply.
            assert!(t.steps[1].repair.is_none());
            assert_eq!(
                t.steps[1].tool_calls[0].repair.as_ref().map(|r| r.why),
                Some(Why::Repeated)
            );
            assert!(
                t.steps.iter().all(|s| s.thought.is_empty()),
                "act has no thoughts"
            );
        }
        if format == Format::Cot {
            assert!(t.steps[0].thought.starts_with("Let's think step by step."));
        }
    }
    assert_eq!(
        offline("apple-ceo", Format::Cot, Lang::Zh).answer(),
        Some("阿拉巴马州罗伯茨代尔")
    );
}
