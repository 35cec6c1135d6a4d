//! The Thought → Action → Observation loop.
//!
//! Each step renders the prompt from the trajectory, lets the model continue it (reading the
//! reply as it streams, and stopping it at a hallucinated `Observation`), then either records
//! the final answer or runs the tool and appends what it returned. Model mistakes become repair
//! observations the model reads next turn, counted in `n_badcalls` as in the paper's code;
//! program errors (the model endpoint failing) end the run with the trajectory intact.
//!
//! A step has two halves, [`Agent::think`] and [`Agent::act`], and the trajectory between them
//! is a valid one: its last step has an action and no observation yet.
//!
//! Reading order: this file (the loop), `agent/model_call.rs` (one call of the model: the prompt
//! out, the reply streamed in and read), `agent/tool_call.rs` (one call of a tool: input checked,
//! approval asked, observation recorded), `agent/memory.rs` (long runs' summaries and
//! reflections). That is where a run can
//! pause before the tool call (and before the next model call, between steps), be saved,
//! edited or forked, and go on with [`Agent::step`] from any trajectory.

pub(crate) mod memory;
mod model_call;
mod tool_call;

use crate::chat::{self, ToolSpec};
use crate::error::Error;
pub use crate::event::{Event, Observer};
use crate::format::parse::{Verdict, Why};
use crate::format::{Format, Lang};
pub use crate::host::Abort;
use crate::host::{join_all, unless_aborted, Host};
use crate::llm::{Message, Model};
use crate::prompt::Prompt;
use crate::tools::{schema, Registry};
use crate::trajectory::{Action, Repair, Step, StopReason, ToolCall, Trajectory};
use std::rc::Rc;
use tool_call::{repetition, Outcome};

/// How the agent runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The prompt format a run starts in.
    pub format: Format,
    /// The prompt language.
    pub lang: Lang,
    /// Steps before the run stops without an answer (the paper's loop runs 8).
    pub max_steps: u32,
    /// How many times an unreadable reply is asked again before it becomes a repair
    /// observation (the paper's code retries; 0 repairs at once).
    pub retries: u32,
    /// How long a tool call may take, unless its spec says otherwise; a call that runs longer
    /// is abandoned with an error observation (the run goes on).
    pub tool_timeout_ms: u32,
    /// Tokens the whole run may use (prompts and replies, as the provider counts them, else
    /// estimated); checked before each model call. `None`: no limit.
    pub token_budget: Option<u64>,
    /// Milliseconds the run may take (its steps' time, not the time it spent paused); checked
    /// before each model call. `None`: no limit.
    pub time_budget_ms: Option<u64>,
    /// The prompt's budget, in estimated tokens: when the next prompt would exceed it, the
    /// oldest steps are condensed into a summary (see `memory`). `None`: no limit.
    pub memory_tokens: Option<u64>,
    /// The latest steps a summary leaves as they are.
    pub keep_steps: u32,
    /// Reflect every this many steps (and after two failed actions in a row). `None`: never.
    pub reflect_every: Option<u32>,
    /// Few-shot examples (the paper's own, or any) in place of the format's worked example.
    pub exemplars: Option<String>,
    /// Whether each reply is held to the format: the model is told what a step is
    /// (`llm::Constraint`), which a model that can hold to a grammar does (the in-tab engine).
    pub constrained: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            format: Format::Mrkl,
            lang: Lang::En,
            max_steps: 8,
            retries: 1,
            tool_timeout_ms: 30_000,
            token_budget: None,
            time_budget_ms: None,
            memory_tokens: None,
            keep_steps: 2,
            reflect_every: None,
            exemplars: None,
            constrained: false,
        }
    }
}

/// A ReAct agent: a model, tools, a format, and the loop that ties them together.
pub struct Agent {
    /// Settings.
    pub config: Config,
    /// The model that thinks.
    pub model: Box<dyn Model>,
    /// The tools it may use.
    pub tools: Registry,
    /// Stops the current run when set.
    pub abort: Abort,
    /// The built-in tools' code, when this build does not carry it: the offline model's memos
    /// are written there (see `memory`). `None` in a build that carries it.
    pub elsewhere: Option<Rc<dyn crate::tools::Elsewhere>>,
    host: Rc<dyn Host>,
    /// Whether the tools were brought back to where the trajectory left them (see `restore`).
    restored: std::cell::Cell<bool>,
}

impl Agent {
    /// An agent with these parts; `host` supplies the clock.
    pub fn new(config: Config, model: Box<dyn Model>, tools: Registry, host: Rc<dyn Host>) -> Self {
        Agent {
            config,
            model,
            tools,
            abort: Abort::default(),
            elsewhere: None,
            host,
            restored: Default::default(),
        }
    }

    /// Runs `task` to the end: an answer, `max_steps`, an abort, or an error.
    ///
    /// ```text
    /// memory = [task]
    /// while not done: action = llm(memory); observation = env(action); memory += [action, observation]
    /// ```
    pub async fn run(&self, task: &str, on_event: Observer<'_>) -> Trajectory {
        let mut trajectory = self.start(task);
        self.restored.set(true); // a new run: the tools start where they are
        let mut prompt = Prompt::default(); // grown a step at a time (see `Prompt`)
        while trajectory.stop.is_none() {
            self.step_with(&mut trajectory, &mut prompt, on_event).await;
        }
        trajectory
    }

    /// A new, empty trajectory for `task` (the `memory = [task]` of the pseudocode).
    pub fn start(&self, task: &str) -> Trajectory {
        let (format, lang) = (self.config.format, self.config.lang);
        Trajectory::new(task, format, lang, &self.model.name())
    }

    /// One step: Thought, Action, Observation. Runs can be resumed or forked from any
    /// trajectory: everything the step needs is in it.
    pub async fn step(&self, trajectory: &mut Trajectory, on_event: Observer<'_>) {
        self.step_with(trajectory, &mut Prompt::default(), on_event)
            .await;
    }

    async fn step_with(
        &self,
        trajectory: &mut Trajectory,
        prompt: &mut Prompt,
        on_event: Observer<'_>,
    ) {
        self.restore(trajectory).await;
        // Thought → Action: the model continues the prompt rendered from the trajectory, and
        // its move (an action, the final answer, or a reply to repair) joins the trajectory.
        if trajectory.pending_action().is_none() {
            self.think_with(trajectory, prompt, on_event).await;
        }
        // Observation: the tool the model chose runs, and what it returns completes the step;
        // the model reads it next turn. (A run paused before the tool call goes on here.)
        if trajectory.stop.is_none() && trajectory.pending_action().is_some() {
            self.act(trajectory, on_event).await;
        }
    }

    /// Advances `trajectory` to its next pause point: runs the tool when an action waits for
    /// its observation (the run was paused before the tool call), else calls the model (it was
    /// paused before the model call). This is what a studio's *Step* button does; [`Agent::step`]
    /// is two of these.
    pub async fn next(&self, trajectory: &mut Trajectory, on_event: Observer<'_>) {
        self.next_with(trajectory, &mut Prompt::default(), on_event)
            .await;
    }

    async fn next_with(
        &self,
        trajectory: &mut Trajectory,
        prompt: &mut Prompt,
        on_event: Observer<'_>,
    ) {
        self.restore(trajectory).await;
        match trajectory.pending_action() {
            Some(_) => self.act(trajectory, on_event).await,
            None => self.think_with(trajectory, prompt, on_event).await,
        }
    }

    /// Goes on from `trajectory` (a paused, imported, edited or ended run) until it ends or
    /// `paused()` says to stop, which it does at the next pause point with nothing lost.
    pub async fn resume(
        &self,
        trajectory: &mut Trajectory,
        paused: &dyn Fn() -> bool,
        on_event: Observer<'_>,
    ) {
        if trajectory
            .stop
            .as_ref()
            .is_some_and(|s| s.reason != StopReason::Answer)
        {
            trajectory.reopen();
        }
        let mut prompt = Prompt::default(); // grown a step at a time (see `Prompt`)
        while trajectory.stop.is_none() && !paused() {
            self.next_with(trajectory, &mut prompt, on_event).await;
        }
    }

    /// The first half of a step: the model's next move, up to (not including) the tool call.
    pub async fn think(&self, trajectory: &mut Trajectory, on_event: Observer<'_>) {
        self.think_with(trajectory, &mut Prompt::default(), on_event)
            .await;
    }

    async fn think_with(
        &self,
        trajectory: &mut Trajectory,
        prompt: &mut Prompt,
        on_event: Observer<'_>,
    ) {
        if trajectory.stop.is_some() {
            return;
        }
        if let Some((reason, message)) = self.over(trajectory) {
            return end(trajectory, reason, message, on_event);
        }
        // A long run's memos (a summary, a reflection) come before the step that reads them.
        if let Some((reason, message)) = self.remember(trajectory, on_event).await {
            return end(trajectory, reason, message, on_event);
        }
        let started = self.host.now_ms();
        let mut step = Step::new(trajectory.steps.len() as u32 + 1);
        on_event(&Event::Step { index: step.index });
        let replied = self.reply(trajectory, prompt, &mut step, on_event).await;
        // Notes so far (retries on the way) stay, even when the call then fails.
        let noted = !step.notes.is_empty();
        let stop = take(&mut step, replied, on_event);
        // Keep the step, even an interrupted one: nothing already done is lost. (A step that
        // failed before the model said anything, or anything worth a note, has nothing to
        // keep; the stop says why.)
        step.ms = micros(self.host.now_ms() - started);
        let said = step
            .model_calls
            .iter()
            .any(|c| !c.raw.is_empty() || c.thinking.is_some() || c.usage.is_some())
            || step.switch.is_some();
        if stop.is_none() || said || noted || step.answer.is_some() {
            trajectory.steps.push(step);
        }
        let stop = stop.or_else(|| unreadable(trajectory));
        if let Some((reason, message)) = stop {
            end(trajectory, reason, message, on_event);
        }
    }

    /// The second half of a step: runs the tool of each pending action and records the
    /// observations (or the repair, when an input does not fit its tool).
    pub async fn act(&self, trajectory: &mut Trajectory, on_event: Observer<'_>) {
        let repeated = repetition(trajectory).filter(|_| {
            let action = trajectory.steps.last().and_then(Step::action);
            !action.is_some_and(|a| self.tools.get(&a.tool).is_some_and(|t| t.pages()))
        });
        let Some(step) = trajectory
            .steps
            .last_mut()
            .filter(|s| !s.tool_calls.is_empty())
        else {
            return;
        };
        // The same action as the step before is not run again: the model reads why instead.
        if let Some(message) = repeated {
            Outcome::repair(Why::Repeated, message).record(step, 0, on_event);
        }
        let started = self.host.now_ms();
        self.run_tools(step, on_event).await;
        step.ms = micros(step.ms + self.host.now_ms() - started);
        // A tool still running when the run was stopped: the run ends there, the call waiting.
        if self.abort.is_aborted() && trajectory.pending_action().is_some() {
            end(trajectory, StopReason::Aborted, None, on_event);
        }
    }

    /// Runs the step's waiting tool calls and records what each returned, in the model's order.
    /// Several run together when every tool allows it ([`ToolSpec::concurrent`]) and none waits
    /// for the user's approval, else one after the other. Stop reaches them: a call still
    /// running when the run is stopped is dropped, and its late result is not recorded.
    async fn run_tools(&self, step: &mut Step, on_event: Observer<'_>) {
        let waiting: Vec<(u32, Action)> = (step.tool_calls.iter().enumerate())
            .filter(|(_, call)| call.observation.is_none())
            .map(|(k, call)| (k as u32, call.action.clone()))
            .collect();
        let (index, abort) = (step.index, &self.abort);
        let together = waiting.len() > 1
            && waiting.iter().all(|(_, a)| {
                let spec = self.tools.get(&a.tool).map(|t| t.spec());
                spec.is_some_and(|s| s.concurrent && !s.needs_approval)
            });
        if together {
            let runs = waiting
                .iter()
                .map(|(_, a)| self.run_tool(index, 0, a, None));
            let outcomes = unless_aborted(abort, join_all(runs.collect())).await;
            for ((k, _), mut outcome) in waiting.iter().zip(outcomes.into_iter().flatten()) {
                outcome.record(step, *k, on_event);
            }
            return;
        }
        for (k, action) in &waiting {
            let run = self.run_tool(index, *k, action, Some(&mut *on_event));
            let Some(mut outcome) = unless_aborted(abort, run).await else {
                return;
            };
            outcome.record(step, *k, on_event);
        }
    }

    /// Brings the tools back to where `trajectory` left them, once per agent: a run that goes
    /// on from a trajectory made elsewhere (a new agent per stretch in the page, a fork, an
    /// import) finds the environment as its steps left it. Tools that can be asked again
    /// without effects on the world ([`crate::tools::Tool::replays`]: the paper's
    /// `search`/`lookup`) are called again on the past inputs, in order; their results are
    /// not used.
    async fn restore(&self, trajectory: &Trajectory) {
        if self.restored.replace(true) {
            return;
        }
        let calls = trajectory.steps.iter().flat_map(|s| &s.tool_calls);
        for call in calls.filter(|c| c.observation.is_some() && c.repair.is_none()) {
            let action = &call.action;
            if let Some(tool) = self.tools.get(&action.tool).filter(|t| t.replays()) {
                let input = schema::check(&tool.spec().parameters, &action.input);
                let _ = tool
                    .call(&input.unwrap_or_else(|_| action.input.clone()))
                    .await;
            }
        }
    }

    /// Why the run must stop before another step, if it must: the user stopped it, or a
    /// budget (steps, tokens, time) is spent.
    fn over(&self, trajectory: &Trajectory) -> Option<(StopReason, Option<String>)> {
        if self.abort.is_aborted() {
            return Some((StopReason::Aborted, None));
        }
        let max = self.config.max_steps;
        if trajectory.steps.len() as u32 >= max {
            let message = format!("no answer after {max} steps");
            return Some((StopReason::MaxSteps, Some(message)));
        }
        if let Some(budget) = self.config.token_budget {
            let (spent, estimated) = self.tokens_spent(trajectory);
            if spent >= budget {
                let about = if estimated { "about " } else { "" };
                let message = format!("the token budget is spent: {about}{spent} tokens used of {budget}; raise Token budget to let the run go on");
                return Some((StopReason::TokenBudget, Some(message)));
            }
        }
        let budget = self.config.time_budget_ms?;
        let spent = trajectory.stats().elapsed_ms;
        (spent >= budget as f64).then(|| {
            let (spent, budget) = (seconds(spent), seconds(budget as f64));
            let message = format!("the time budget is spent: {spent} s used of {budget} s; raise Time budget to let the run go on");
            (StopReason::TimeBudget, Some(message))
        })
    }

    /// The tokens the run has used, and whether any were estimated: each call's counts as its
    /// provider reported them, else an estimate of that step's prompt and of the reply (see
    /// [`crate::text::estimate_tokens`]).
    pub fn tokens_spent(&self, trajectory: &Trajectory) -> (u64, bool) {
        let estimate = crate::text::estimate_tokens;
        let (mut spent, mut estimated) = (0, false);
        for step in &trajectory.steps {
            // The step's prompt, estimated once for all its calls that report no counts.
            let mut prompt = None;
            for call in &step.model_calls {
                spent += match &call.usage {
                    Some(u) => u.prompt_tokens + u.completion_tokens,
                    None => {
                        estimated = true;
                        let prompt = *prompt.get_or_insert_with(|| {
                            let messages = self.prompt(&trajectory.before(step.index));
                            messages.iter().map(|m| estimate(&m.content)).sum::<u64>()
                        });
                        prompt + estimate(&call.raw)
                    }
                };
            }
        }
        (spent, estimated)
    }

    /// The exact prompt the model receives for the next step of `trajectory`.
    pub fn prompt(&self, trajectory: &Trajectory) -> Vec<Message> {
        let exemplars = self.config.exemplars.as_deref();
        crate::prompt::render(trajectory, &self.tools, exemplars)
    }

    /// In a `constrained` run, the tools a step in `format` may call (none in the no-tool
    /// modes), which the model is told with what a step is (`llm::Constraint`).
    pub fn constrained_tools(&self, format: Format) -> Option<Vec<String>> {
        let names = || match format.has_tools() {
            true => self.tools.names(),
            false => Vec::new(),
        };
        self.config.constrained.then(names)
    }

    /// The tool specs sent with the next request for `trajectory`: all of them in native tool
    /// calling, none in the text formats (where the prompt describes the tools).
    pub fn tool_specs(&self, trajectory: &Trajectory) -> Vec<ToolSpec> {
        match trajectory.format.is_native() {
            true => self.tools.specs().cloned().collect(),
            false => Vec::new(),
        }
    }
}

/// Records the model's move in `step`: the answer, the action(s), the repair, or the error
/// that interrupted the step; returns why the run ends, if it does.
fn take(
    step: &mut Step,
    replied: Result<(Verdict, Vec<chat::ToolCall>), Error>,
    on_event: Observer<'_>,
) -> Option<(StopReason, Option<String>)> {
    let index = step.index;
    match replied {
        // The final answer ends the run.
        Ok((Verdict::Final { answer, .. }, _)) => {
            on_event(&Event::Answer {
                index,
                text: &answer,
            });
            step.answer = Some(answer);
            Some((StopReason::Answer, None))
        }
        // An action waits for its observation; so do the others of the same reply, when
        // the model made several calls at once (native tool calling), each under its id.
        Ok((Verdict::Action { tool, input, .. }, calls)) => {
            acted(step, tool, input, calls, on_event);
            None
        }
        // A mistake of the model: it reads the explanation next turn and tries again.
        Ok((Verdict::Error { why, message, .. }, _)) => {
            let (why_name, tool_call) = (why.name(), 0);
            on_event(&Event::Repair {
                index,
                tool_call,
                why: why_name,
                message: &message,
            });
            step.repair = Some(Repair { why, message });
            None
        }
        Err(error) => {
            step.notes.push(format!("interrupted: {error}"));
            Some((StopReason::of(error.kind), Some(error.message)))
        }
    }
}

/// The most replies in a row that could not be read before the run stops: a model that keeps
/// replying nothing readable (an empty or non-text reply, prose without an action) is not asked
/// again until the step budget is spent.
pub const UNREADABLE_IN_A_ROW: usize = 4;

/// Why the run must stop after its last step: its last [`UNREADABLE_IN_A_ROW`] model calls (in
/// this step and the ones before) were replies that could not be read.
fn unreadable(trajectory: &Trajectory) -> Option<(StopReason, Option<String>)> {
    // Each call from the last: unreadable when it was asked again, or when the step it ended
    // was repaired for its reply (an unknown tool aside: a reply read, naming the wrong tool).
    let calls = trajectory.steps.iter().rev().flat_map(|s| {
        let repaired = s.repair.as_ref().filter(|r| r.why != Why::UnknownTool);
        let last = s.model_calls.len().saturating_sub(1);
        let repairs = s.model_calls.iter().enumerate().rev().map(move |(k, c)| {
            let ended = repaired.filter(|_| k == last);
            c.retried.as_ref().or(ended)
        });
        repairs.chain(s.model_calls.is_empty().then_some(None))
    });
    let repairs: Vec<&Repair> = calls.take(UNREADABLE_IN_A_ROW).map_while(|r| r).collect();
    (repairs.len() == UNREADABLE_IN_A_ROW).then(|| {
        // What was wrong with the last, as the model was told it (before the format).
        let wrong = repairs[0].message.split(" Reply with").next().unwrap_or_default();
        let n = UNREADABLE_IN_A_ROW;
        let message = format!("the model's last {n} replies could not be read (the last: {}); it may not follow the format: try another model or format, or resume to ask it again", wrong.trim());
        (StopReason::Error, Some(message))
    })
}

/// Records the move's tool calls in `step`, each waiting for its observation: the verdict's
/// action (`tool`, `input`), which the reply announced as it was read, and the others the
/// native reply made beside it, announced here. Each keeps the provider's id, sent back with
/// its result.
fn acted(
    step: &mut Step,
    tool: String,
    input: crate::json::Value,
    calls: Vec<chat::ToolCall>,
    on_event: Observer<'_>,
) {
    let mut calls = calls.into_iter();
    let id = calls.next().map(|c| c.id).filter(|id| !id.is_empty());
    let first = Action { tool, input, id };
    let others = calls.map(|c| Action {
        id: Some(c.id).filter(|id| !id.is_empty()),
        tool: c.name,
        input: c.arguments,
    });
    for (k, action) in std::iter::once(first).chain(others).enumerate() {
        if k > 0 {
            let (index, tool_call) = (step.index, k as u32);
            let (tool, input) = (&action.tool, &action.input);
            on_event(&Event::Action {
                index,
                tool_call,
                tool,
                input,
            });
        }
        step.tool_calls.push(ToolCall {
            action,
            ..ToolCall::default()
        });
    }
}

/// Milliseconds as seconds with one decimal ("2.5"), without the float formatting machinery
/// `{:.1}` would link into the wasm.
fn seconds(ms: f64) -> String {
    let tenths = (ms / 100.0).round() as u64;
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// Ends the run and says so.
fn end(
    trajectory: &mut Trajectory,
    reason: StopReason,
    message: Option<String>,
    on_event: Observer<'_>,
) {
    trajectory.finish(reason, message);
    if let Some(stop) = &trajectory.stop {
        on_event(&Event::Stopped {
            reason: stop.reason,
            message: stop.message.as_deref(),
        });
    }
}

/// Milliseconds rounded to the microsecond: finer digits are noise, and short decimals survive
/// a JSON round trip unchanged.
fn micros(ms: f64) -> f64 {
    (ms * 1000.0).round() / 1000.0
}
