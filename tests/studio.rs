//! The studio's core: stepping to each pause point, pausing and resuming, the exact prompt of
//! any step, forking from an edited step, and an offline model that plays only its own task.

use std::cell::RefCell;
use std::rc::Rc;
use tao_agent::format::{Format, Lang};
use tao_agent::host::{block_on, LocalBoxFuture, NativeHost};
use tao_agent::llm::{Message, Model, OnDelta, Reply, Request};
use tao_agent::{scenarios, settings, Agent, Config, Error, StopReason, Trajectory};

/// A model that records every request it is sent, and lets another model answer (also used
/// by `training.rs`).
pub(crate) struct Recording {
    pub(crate) inner: Box<dyn Model>,
    pub(crate) sent: Rc<RefCell<Vec<Vec<Message>>>>,
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
        self.sent.borrow_mut().push(request.messages.to_vec());
        self.inner.complete(request, on_delta)
    }
}

/// The offline agent of `name`, whose model records what it is sent.
fn scenario(name: &str, format: Option<Format>) -> (Agent, String, Rc<RefCell<Vec<Vec<Message>>>>) {
    let scenario = scenarios::get(name).unwrap();
    let config = Config {
        format: format.unwrap_or_else(|| Format::from_name(&scenario.format).unwrap()),
        ..Config::default()
    };
    let mut agent =
        settings::offline_agent(&scenario, config, 0, Rc::new(NativeHost::default())).unwrap();
    let sent = Rc::default();
    let inner = std::mem::replace(&mut agent.model, Box::new(Dummy));
    agent.model = Box::new(Recording {
        inner,
        sent: Rc::clone(&sent),
    });
    (agent, scenario.task(Lang::En).to_string(), sent)
}

struct Dummy;
impl Model for Dummy {
    fn name(&self) -> String {
        String::new()
    }
    fn complete<'a>(
        &'a self,
        _: Request<'a>,
        _: OnDelta<'a>,
    ) -> LocalBoxFuture<'a, Result<Reply, Error>> {
        Box::pin(std::future::ready(Ok(Reply::default())))
    }
}

/// The trajectory without the times (which differ from run to run).
fn timeless(t: &Trajectory) -> Trajectory {
    let mut t = t.clone();
    for step in &mut t.steps {
        step.ms = 0.0;
        for call in &mut step.tool_calls {
            call.ms = 0.0;
        }
        for call in &mut step.model_calls {
            call.ms = 0.0;
            call.first_token_ms = None;
        }
    }
    t
}

#[test]
fn each_press_of_step_stops_before_the_tool_call_then_before_the_model_call() {
    let (agent, task, sent) = scenario("apple-ceo", None);
    let mut t = agent.start(&task);
    let mut seen = Vec::new();
    // Before the model call: nothing sent yet, and the prompt can be shown.
    assert!(sent.borrow().is_empty());
    while t.stop.is_none() {
        block_on(agent.next(&mut t, &mut |_| {}));
        let last = t.steps.last().unwrap();
        seen.push(match (last.action(), last.observation(), &last.answer) {
            (Some(_), None, _) => format!("{}: before the tool call", last.index),
            (Some(_), Some(_), _) => format!("{}: before the model call", last.index),
            (_, _, Some(_)) => format!("{}: answered", last.index),
            _ => format!("{}: other", last.index),
        });
    }
    assert_eq!(
        seen,
        [
            "1: before the tool call",
            "1: before the model call",
            "2: before the tool call",
            "2: before the model call",
            "3: answered"
        ]
    );
    assert_eq!(sent.borrow().len(), 3, "one model call per step");
}

#[test]
fn each_prompt_is_the_last_one_plus_the_previous_step_s_action_and_observation() {
    let (agent, task, sent) = scenario("apple-ceo", None);
    let t = block_on(agent.run(&task, &mut |_| {}));
    let sent = sent.borrow();
    for k in 1..=t.steps.len() {
        // What step k was sent is exactly the prompt of the trajectory before it.
        assert_eq!(agent.prompt(&t.before(k as u32)), sent[k - 1], "step {k}");
    }
    for k in 1..sent.len() {
        let (before, after) = (&sent[k - 1], &sent[k]);
        assert_eq!(&after[..before.len()], &before[..], "the prompt only grows");
        let added: Vec<String> = after[before.len()..]
            .iter()
            .map(|m| m.content.clone())
            .collect();
        let step = &t.steps[k - 1];
        let action = step.action().unwrap();
        assert_eq!(added.len(), 2, "{added:?}");
        assert!(
            added[0].contains(&format!("Action: {}", action.tool)),
            "{added:?}"
        );
        assert_eq!(
            added[1],
            format!("Observation: {}", step.observation().unwrap())
        );
    }
}

#[test]
fn in_native_tool_calling_too_each_step_was_sent_the_prompt_of_the_steps_before_it() {
    let (agent, task, sent) = scenario("apple-ceo", Some(Format::Auto));
    let t = block_on(agent.run(&task, &mut |_| {}));
    assert_eq!(
        t.format,
        Format::Auto,
        "the scripted model calls tools natively"
    );
    let sent = sent.borrow();
    for k in 1..=t.steps.len() {
        assert_eq!(agent.prompt(&t.before(k as u32)), sent[k - 1], "step {k}");
    }
}

#[test]
fn a_paused_run_resumes_to_the_same_trajectory_as_an_uninterrupted_one() {
    let (agent, task, _) = scenario("einstein", None);
    let whole = block_on(agent.run(&task, &mut |_| {}));
    // Einstein takes five pause points (three model calls, two tool calls): pause after each
    // of the first four.
    for pause_after in 1..5 {
        let (agent, task, _) = scenario("einstein", None);
        let mut t = agent.start(&task);
        let points = std::cell::Cell::new(0);
        let pause = || {
            points.set(points.get() + 1);
            points.get() > pause_after
        };
        block_on(agent.resume(&mut t, &pause, &mut |_| {}));
        assert!(
            t.stop.is_none(),
            "paused after {pause_after} pause points, not ended"
        );
        block_on(agent.resume(&mut t, &|| false, &mut |_| {}));
        assert_eq!(timeless(&t), timeless(&whole), "paused after {pause_after}");
    }
}

#[test]
fn a_fork_from_an_edited_observation_goes_its_own_way_and_the_original_stays() {
    let (agent, task, _) = scenario("einstein", None);
    let original = block_on(agent.run(&task, &mut |_| {}));
    assert!(original.answer().unwrap().starts_with("Ulm"));
    // Edit the observation that says where he was born, and go on from that step.
    let k = original
        .steps
        .iter()
        .position(|s| s.observation().is_some_and(|o| o.contains("born in Ulm")))
        .unwrap();
    let mut fork = original.clone();
    fork.steps.truncate(k + 1);
    fork.steps[k].tool_calls[0].observation =
        Some("(Result 1 / 1) Einstein was born in Munich.".into());
    fork.stop = None;
    block_on(agent.resume(&mut fork, &|| false, &mut |_| {}));
    assert_eq!(fork.answer(), Some("Munich"));
    assert!(fork.steps.last().unwrap().thought.contains("Munich"));
    assert!(
        original.answer().unwrap().starts_with("Ulm"),
        "the original branch keeps Ulm"
    );
}

#[test]
fn an_ended_run_resumes_from_where_it_stopped() {
    // Stopped by the step budget, then given more steps: it goes on, not over.
    let scenario = scenarios::get("apple-ceo").unwrap();
    let task = scenario.task(Lang::En);
    let mut config = Config {
        max_steps: 1,
        ..Config::default()
    };
    let host = Rc::new(NativeHost::default());
    let short = settings::offline_agent(&scenario, config.clone(), 0, host.clone()).unwrap();
    let mut t = block_on(short.run(task, &mut |_| {}));
    assert_eq!(t.stop.as_ref().unwrap().reason, StopReason::MaxSteps);
    config.max_steps = 8;
    let long = settings::offline_agent(&scenario, config, 0, host).unwrap();
    block_on(long.resume(&mut t, &|| false, &mut |_| {}));
    assert_eq!(t.stop.as_ref().unwrap().reason, StopReason::Answer);
    assert_eq!(t.steps.len(), 3);
    // An interrupted last step (no move yet) is taken again.
    let mut t2 = t.clone();
    t2.steps[2].answer = None;
    t2.finish(StopReason::Aborted, None);
    t2.reopen();
    assert_eq!((t2.steps.len(), t2.stop.is_none()), (2, true));
}

#[test]
fn the_offline_model_plays_only_its_own_question() {
    let (agent, _, _) = scenario("apple-ceo", None);
    let t = block_on(agent.run("Who is the CEO of Microsoft?", &mut |_| {}));
    let stop = t.stop.unwrap();
    assert_eq!(stop.reason, StopReason::Error);
    let message = stop.message.unwrap();
    assert!(
        message.starts_with("the offline model only plays its own scenario"),
        "{message}"
    );
    assert!(message.contains("choose You"), "{message}");
    assert!(t.steps.is_empty());
    // Its own question, in either language, is answered.
    let (agent, _, _) = scenario("apple-ceo", None);
    let zh = scenarios::get("apple-ceo")
        .unwrap()
        .task(Lang::Zh)
        .to_string();
    let t = block_on(agent.run(&zh, &mut |_| {}));
    assert_eq!(t.stop.unwrap().reason, StopReason::Answer);
}

#[test]
fn a_chinese_prompt_describes_the_tools_in_chinese() {
    let scenario = scenarios::get("water").unwrap();
    let config = Config {
        lang: Lang::Zh,
        ..Config::default()
    };
    let agent =
        settings::offline_agent(&scenario, config, 0, Rc::new(NativeHost::default())).unwrap();
    let prompt = agent.prompt(&agent.start(scenario.task(Lang::Zh)));
    let system = &prompt[0].content;
    assert!(system.contains("search: 搜索一个实体"), "{system}");
    assert!(
        system.contains("calculator: 计算一个算术表达式"),
        "{system}"
    );
    assert!(!system.contains("Searches the encyclopedia"), "{system}");
    // The tools themselves are the same: their names stay, and they still answer.
    let t = block_on(agent.run(scenario.task(Lang::Zh), &mut |_| {}));
    assert_eq!(t.stop.unwrap().reason, StopReason::Answer);
}

#[test]
fn water_follows_an_edited_guideline_through_the_calculator() {
    // The scripted rules catch numbers from what they read: edit the guideline from 35 ml to
    // 40 ml per kg, fork, and the calculator is asked 60 * 40 + 500.
    let (agent, task, _) = scenario("water", None);
    let original = block_on(agent.run(&task, &mut |_| {}));
    assert!(original.answer().unwrap().contains("2600 ml"));
    let mut fork = original.clone();
    fork.steps.truncate(2);
    let edited = fork.steps[1]
        .observation()
        .unwrap()
        .replace("35 ml", "40 ml");
    fork.steps[1].tool_calls[0].observation = Some(edited);
    fork.stop = None;
    block_on(agent.resume(&mut fork, &|| false, &mut |_| {}));
    let calc = fork.steps[2].action().unwrap();
    assert_eq!(calc.input, tao_agent::json!("60 * 40 + 500"));
    assert!(
        fork.answer().unwrap().contains("2900 ml"),
        "{:?}",
        fork.answer()
    );
}

#[test]
fn a_run_driven_by_a_new_agent_each_time_finds_the_page_its_steps_opened() {
    // The page makes a new agent for every stretch of a run. Einstein's `lookup` reads the page
    // the earlier `search` opened: the new agent must find it open, in stepping and in a fork.
    let (agent, task, _) = scenario("einstein", None);
    let whole = block_on(agent.run(&task, &mut |_| {}));
    let mut t = scenario("einstein", None).0.start(&task);
    while t.stop.is_none() {
        let (fresh, _, _) = scenario("einstein", None);
        block_on(fresh.next(&mut t, &mut |_| {}));
    }
    assert_eq!(timeless(&t), timeless(&whole));
    // A fork from step 1 (its thought edited): step 2's lookup still reads Einstein's page.
    let mut fork = whole.clone();
    fork.steps.truncate(1);
    fork.steps[0].thought = "I should search for Einstein, then look up where he was born.".into();
    fork.stop = None;
    let (fresh, _, _) = scenario("einstein", None);
    block_on(fresh.resume(&mut fork, &|| false, &mut |_| {}));
    let lookup = fork.steps[1].observation().unwrap();
    assert!(lookup.starts_with("(Result 1 / 1)"), "{lookup}");
    assert!(fork.answer().unwrap().starts_with("Ulm"));
}
