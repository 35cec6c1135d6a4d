//! The Thought → Action → Observation loop.
//!
//! Each step renders the prompt from the trajectory, lets the model continue it (reading the
//! reply as it streams, and stopping it at a hallucinated `Observation`), then either records
//! the final answer or runs the tool and appends what it returned. Model mistakes become repair
//! observations the model reads next turn, counted in `n_badcalls` as in the paper's code;
//! program errors (the model endpoint failing) end the run with the trajectory intact.
//!
//! A step has two halves, [`Agent::think`] and [`Agent::act`], and the trajectory between them
//! is a valid one: its last step has an action and no observation yet. That is where a run can
//! pause before the tool call (and before the next model call, between steps), be saved,
//! edited or forked, and go on with [`Agent::step`] from any trajectory.

mod call;
pub(crate) mod memory;

use crate::chat::ToolSpec;
use crate::error::Error;
pub use crate::event::{Event, Observer};
use crate::format::parse::{Verdict, Why};
use crate::format::{input_text, Format, Lang};
pub use crate::host::Abort;
use crate::host::{join_all, with_timeout, Host};
use crate::llm::{Message, Model, ToolCall};
use crate::tools::{schema, Registry, ToolError, ToolOutput};
use crate::trajectory::{Action, ParallelCall, Repair, Step, StopReason, Trajectory};
use call::Called;
use std::rc::Rc;

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
        while trajectory.stop.is_none() {
            self.step(&mut trajectory, on_event).await;
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
        self.restore(trajectory).await;
        // Thought → Action: the model continues the prompt rendered from the trajectory, and
        // its move (an action, the final answer, or a reply to repair) joins the trajectory.
        if trajectory.pending_action().is_none() {
            self.think(trajectory, on_event).await;
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
        self.restore(trajectory).await;
        match trajectory.pending_action() {
            Some(_) => self.act(trajectory, on_event).await,
            None => self.think(trajectory, on_event).await,
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
        while trajectory.stop.is_none() && !paused() {
            self.next(trajectory, on_event).await;
        }
    }

    /// The first half of a step: the model's next move, up to (not including) the tool call.
    pub async fn think(&self, trajectory: &mut Trajectory, on_event: Observer<'_>) {
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
        let replied = self.reply(trajectory, &mut step, on_event).await;
        // Notes so far (retries on the way) stay, even when the call then fails.
        let noted = !step.notes.is_empty();
        let stop = take(&mut step, replied, on_event);
        // Keep the step, even an interrupted one: nothing already done is lost. (A step that
        // failed before the model said anything, or anything worth a note, has nothing to
        // keep; the stop says why.)
        step.ms = micros(self.host.now_ms() - started);
        let said = step
            .calls
            .iter()
            .any(|c| !c.raw.is_empty() || c.thinking.is_some())
            || step.switch.is_some();
        if stop.is_none() || said || noted || step.answer.is_some() {
            trajectory.steps.push(step);
        }
        if let Some((reason, message)) = stop {
            end(trajectory, reason, message, on_event);
        }
    }

    /// The second half of a step: runs the tool of each pending action and records the
    /// observations (or the repair, when an input does not fit its tool). Several calls of one
    /// reply run together when every tool allows it ([`ToolSpec::concurrent`]) and none waits
    /// for the user's approval, else one after the other; their results are recorded in the
    /// model's order either way.
    pub async fn act(&self, trajectory: &mut Trajectory, on_event: Observer<'_>) {
        let repeated = repetition(trajectory).filter(|_| {
            let action = trajectory.steps.last().and_then(|s| s.action.as_ref());
            !action.is_some_and(|a| self.tools.get(&a.tool).is_some_and(|t| t.pages()))
        });
        let Some(step) = trajectory.steps.last_mut() else {
            return;
        };
        let Some(own) = step.action.clone() else {
            return;
        };
        let own = step.observation.is_none().then_some((0, own));
        // The same action as the step before is not run again: the model reads why instead.
        if let (Some(message), Some(_)) = (repeated, &own) {
            Outcome::repair(Why::Repeated, message).record(step, 0, on_event);
        }
        let own = own.filter(|_| step.observation.is_none());
        let others = step.parallel.iter().enumerate();
        let others = others.filter(|(_, p)| p.observation.is_none());
        let waiting: Vec<(u32, Action)> = own
            .into_iter()
            .chain(others.map(|(k, p)| (k as u32 + 1, p.action.clone())))
            .collect();
        let started = self.host.now_ms();
        let index = step.index;
        let together = waiting.len() > 1
            && waiting.iter().all(|(_, a)| {
                let spec = self.tools.get(&a.tool).map(|t| t.spec());
                spec.is_some_and(|s| s.concurrent && !s.needs_approval)
            });
        if together {
            let runs = waiting
                .iter()
                .map(|(_, a)| self.run_tool(index, 0, a, None));
            let outcomes = join_all(runs.collect()).await;
            for ((call, _), mut outcome) in waiting.iter().zip(outcomes) {
                outcome.record(step, *call, on_event);
            }
        } else {
            for (call, action) in &waiting {
                let mut outcome = self
                    .run_tool(index, *call, action, Some(&mut *on_event))
                    .await;
                outcome.record(step, *call, on_event);
            }
        }
        step.ms = micros(step.ms + self.host.now_ms() - started);
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
        for step in &trajectory.steps {
            let (Some(action), Some(_), None) = (&step.action, &step.observation, &step.repair)
            else {
                continue;
            };
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
            for call in &step.calls {
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

    /// The tool specs sent with the next request for `trajectory`: all of them in native tool
    /// calling, none in the text formats (where the prompt describes the tools).
    pub fn tool_specs(&self, trajectory: &Trajectory) -> Vec<ToolSpec> {
        match trajectory.format.is_native() {
            true => self.tools.specs().cloned().collect(),
            false => Vec::new(),
        }
    }

    /// The model's reply for `step`, read, with its native tool calls (the verdict's action is
    /// the first of them). Like the paper's code, a reply that cannot be read
    /// is a bad call and is asked again (`config.retries` times), since a second try often
    /// works; after that it is repaired. (An unknown tool is readable: the repair naming the
    /// valid tools helps more than asking again.)
    async fn reply(
        &self,
        trajectory: &mut Trajectory,
        step: &mut Step,
        on_event: Observer<'_>,
    ) -> Result<(Verdict, Vec<ToolCall>), Error> {
        let index = step.index;
        let mut retries = 0;
        loop {
            let (parsed, thought_sent, action_sent, calls) =
                match self.call(trajectory, step, on_event).await? {
                    Called::Switched => continue,
                    Called::Read {
                        parsed,
                        thought_sent,
                        action_sent,
                        calls,
                    } => (parsed, thought_sent, action_sent, calls),
                };
            match parsed.verdict {
                Verdict::Error { why, message, .. }
                    if retries < self.config.retries && why != Why::UnknownTool =>
                {
                    retries += 1;
                    let note = format!(
                        "the reply could not be read ({}); asking again ({retries}/{})",
                        why.name(),
                        self.config.retries
                    );
                    on_event(&Event::Note { index, text: &note });
                    if let Some(call) = step.calls.last_mut() {
                        call.retried = Some(Repair { why, message });
                    }
                }
                verdict => {
                    let (Verdict::Action { thought, .. }
                    | Verdict::Final { thought, .. }
                    | Verdict::Error { thought, .. }) = &verdict;
                    step.thought = thought.trim().to_string();
                    if !thought_sent && !step.thought.is_empty() {
                        let text = &step.thought;
                        on_event(&Event::Thought { index, text });
                    }
                    if let (Verdict::Action { tool, input, .. }, false) = (&verdict, action_sent) {
                        on_event(&Event::Action {
                            index,
                            call: 0,
                            tool,
                            input,
                        });
                    }
                    step.notes.extend(parsed.notes);
                    return Ok((verdict, calls));
                }
            }
        }
    }

    /// Runs `action`'s tool (call `call` of step `index`): checks the input against the
    /// tool's schema, asks for approval when the tool needs it (saying so to `on_event`), and
    /// returns what the tool returned.
    async fn run_tool(
        &self,
        index: u32,
        call: u32,
        action: &Action,
        on_event: Option<Observer<'_>>,
    ) -> Outcome {
        let (tool, input) = (action.tool.as_str(), action.input.clone());
        let Some(found) = self.tools.get(tool) else {
            // The parser checks names against the registry, so this is only reached when a
            // tool was removed mid-run (or a trajectory was edited), or a native call named
            // one that does not exist; it is still the model's mistake to repair.
            let message = format!(
                "Unknown tool \"{tool}\". Valid tools: {}.",
                self.tools.names().join(", ")
            );
            return Outcome::repair(Why::UnknownTool, message);
        };
        let spec = found.spec();
        // The model's mistake, whether the checker or the tool finds it.
        let bad_input = |problem: String| {
            let message = format!(
                "Invalid input for {tool}: {problem}. Its input schema is {}.",
                crate::to_json::to_string(&spec.parameters)
            );
            Outcome::repair(Why::BadInput, message)
        };
        let checked = match found.checks_input() {
            true => schema::check(&spec.parameters, &input),
            false => Ok(input),
        };
        let input = match checked {
            Ok(input) => input,
            Err(problem) => return bad_input(problem),
        };
        let mut approval = None;
        if spec.needs_approval {
            let approved = self.host.approve(&spec.name, &input).await;
            let tool = &spec.name;
            if let Some(on_event) = on_event {
                on_event(&Event::Approval {
                    index,
                    call,
                    tool,
                    approved,
                });
            }
            approval = Some(approved);
            if !approved {
                let text = format!(
                    "The user denied this call to {tool}. Do not repeat it; continue another way, or give your final answer."
                );
                return Outcome {
                    approved: approval,
                    ..Outcome::observed(ToolOutput::from(text))
                };
            }
        }
        let started = self.host.now_ms();
        let limit = spec.timeout_ms.unwrap_or(self.config.tool_timeout_ms);
        let result = with_timeout(&*self.host, limit, found.call(&input)).await;
        let mut outcome = match result {
            Some(Ok(output)) => Outcome::observed(output),
            Some(Err(ToolError::BadInput(problem))) => bad_input(problem),
            Some(Err(ToolError::Failed(problem))) => {
                Outcome::observed(ToolOutput::from(format!("Error: {tool} failed: {problem}")))
            }
            None => Outcome::observed(ToolOutput::from(format!(
                "Error: {tool} did not answer within {limit} ms and was abandoned."
            ))),
        };
        outcome.tool_ms = micros(self.host.now_ms() - started);
        outcome.approved = approval;
        outcome
    }
}

/// Records the model's move in `step`: the answer, the action(s), the repair, or the error
/// that interrupted the step; returns why the run ends, if it does.
fn take(
    step: &mut Step,
    replied: Result<(Verdict, Vec<ToolCall>), Error>,
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
            let mut calls = calls.into_iter();
            let id = calls.next().map(|c| c.id).filter(|id| !id.is_empty());
            step.action = Some(Action { tool, input, id });
            for (k, c) in calls.enumerate() {
                let (tool, input) = (&c.name, &c.arguments);
                let call = k as u32 + 1;
                on_event(&Event::Action {
                    index,
                    call,
                    tool,
                    input,
                });
                let id = Some(c.id).filter(|id| !id.is_empty());
                let action = Action {
                    tool: c.name,
                    input: c.arguments,
                    id,
                };
                step.parallel.push(ParallelCall {
                    action,
                    ..ParallelCall::default()
                });
            }
            None
        }
        // A mistake of the model: it reads the explanation next turn and tries again.
        Ok((Verdict::Error { why, message, .. }, _)) => {
            let mut slot = Outcome::repair(why, message);
            slot.record(step, 0, on_event);
            None
        }
        Err(error) => {
            step.notes.push(format!("interrupted: {error}"));
            Some((StopReason::of(error.kind), Some(error.message)))
        }
    }
}

/// What became of one tool call: the observation (or the repair) and what it cost, to be
/// recorded in its place in the step.
#[derive(Default)]
struct Outcome {
    observation: String,
    repair: Option<Repair>,
    approved: Option<bool>,
    fuel: Option<u64>,
    tool_ms: f64,
    picture: Option<crate::json::Value>,
}

impl Outcome {
    /// What a tool returned.
    fn observed(output: ToolOutput) -> Self {
        Outcome {
            observation: output.text,
            fuel: output.fuel,
            picture: output.picture,
            ..Outcome::default()
        }
    }

    /// A model mistake: the model reads `message` next turn.
    fn repair(why: Why, message: String) -> Self {
        Outcome {
            observation: message.clone(),
            repair: Some(Repair { why, message }),
            ..Outcome::default()
        }
    }

    /// Records this as call `call` of `step` (0: the step's own) and says so.
    fn record(&mut self, step: &mut Step, call: u32, on_event: Observer<'_>) {
        let index = step.index;
        match &self.repair {
            Some(r) => on_event(&Event::Repair {
                index,
                call,
                why: r.why.name(),
                message: &r.message,
            }),
            None => on_event(&Event::Observation {
                index,
                call,
                text: &self.observation,
                fuel: self.fuel,
                picture: self.picture.as_ref(),
            }),
        }
        let observation = Some(std::mem::take(&mut self.observation));
        let repair = self.repair.take();
        match call
            .checked_sub(1)
            .and_then(|k| step.parallel.get_mut(k as usize))
        {
            Some(p) => {
                (p.observation, p.repair, p.approved) = (observation, repair, self.approved);
                (p.fuel, p.tool_ms, p.picture) = (self.fuel, self.tool_ms, self.picture.take());
            }
            None => {
                (step.observation, step.repair) = (observation, repair);
                (step.approved, step.fuel) = (self.approved.or(step.approved), self.fuel);
                (step.tool_ms, step.picture) = (self.tool_ms, self.picture.take());
            }
        }
    }
}

/// The repair for the last step's action when it is the step before's again (same tool, same
/// input once case and spacing are set aside): the paper's most common ReAct failure, a model
/// that repeats itself. `None` when it differs, or when there is no earlier action.
fn repetition(trajectory: &Trajectory) -> Option<String> {
    let [.., before, last] = trajectory.steps.as_slice() else {
        return None;
    };
    let (Some(a), Some(b)) = (&last.action, &before.action) else {
        return None;
    };
    let same = a.tool.eq_ignore_ascii_case(&b.tool) && same_input(&a.input, &b.input);
    (same && last.observation.is_none()).then(|| {
        format!(
            "This action repeats the previous one: {}[{}], with the same input. Its observation is above; the tool was not run again. Try another tool or another input, or give your final answer.",
            a.tool,
            input_text(&a.input)
        )
    })
}

/// Whether two action inputs are the same once case and runs of spacing are set aside.
fn same_input(a: &crate::json::Value, b: &crate::json::Value) -> bool {
    use crate::json::Value::String;
    match (a, b) {
        // The usual inputs, texts, are compared where they lie, with nothing copied; two that
        // differ and have nothing to set aside differ (told apart at once: this runs each step).
        (String(a), String(b)) => a == b || (!(bare(a) && bare(b)) && plain(a).eq(plain(b))),
        _ => plain(&input_text(a)).eq(plain(&input_text(b))),
    }
}

/// Whether `text` is its own [`plain`] form: ASCII with no spacing and no capitals.
fn bare(text: &str) -> bool {
    text.bytes()
        .all(|b| b.is_ascii_graphic() && !b.is_ascii_uppercase())
}

/// A text's characters with case and runs of spacing set aside: folded, each run of spacing
/// one space, none at either end.
fn plain(text: &str) -> impl Iterator<Item = char> + '_ {
    let mut spacing = false;
    text.trim()
        .chars()
        .filter_map(move |c| match c.is_whitespace() {
            true => (!std::mem::replace(&mut spacing, true)).then_some(' '),
            false => {
                spacing = false;
                Some(crate::text::fold_case(c))
            }
        })
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

#[cfg(test)]
mod tests {
    use crate::json;

    #[test]
    fn an_input_repeats_another_whatever_its_case_and_spacing() {
        let same = |a, b| super::same_input(&a, &b);
        assert!(same(json!("Apple  CEO"), json!(" apple\tceo\n")));
        assert!(same(json!("ÉTÉ Москва"), json!("été москва")));
        assert!(same(json!({"q": "X"}), json!({"q": "X"})));
        assert!(!same(json!("token-1"), json!("token-2")));
        assert!(!same(json!("a b"), json!("ab")));
        assert!(!same(json!("a"), json!("a b")));
        assert!(!same(json!({"q": "X"}), json!({"q": "Y"})));
    }
}
