//! The trajectory: the single source of truth of a run.
//!
//! A run is a task and a list of steps; each step is what the model thought, what it did
//! (an action, or its final answer) and what it observed, and the model calls it took to get
//! there. The prompt is rendered from it, the page draws it, exports serialise it and tests
//! compare it: there is no second copy of the history anywhere (the ReAct paper's code returns
//! its prompt string as `traj` for the same reason). Even the counts the paper reports
//! (`n_calls`, `n_badcalls`) are computed from the steps, never kept beside them.
//!
//! On disk it is a versioned JSON document, `{"format": "tao-trajectory", "version": 5, ...}`.
//! Reading one never panics: a malformed file, or one from a newer tao, is a clear error.
//! Older files still read: version 1 (before steps recorded each model call), version 2
//! (before a step could hold several tool calls, actions kept the provider's call id and
//! model calls their reasoning), version 3 (before memos and pictures) and version 4 (a step's
//! first tool call in the step's own fields, the others in `parallel`; its model calls in
//! `calls`).

pub use crate::chat::{Thinking, Usage};
use crate::error::{Error, ErrorKind};
use crate::format::parse::Why;
use crate::format::{input_text, Format, Lang};
use crate::json::Value;
use crate::json::{json_struct, FromJson, Object};
use crate::to_json::{JsonWriter, ToJson};

/// The document type written in every exported trajectory.
pub const DOCUMENT_FORMAT: &str = "tao-trajectory";
/// The version this tao writes (and the newest it reads).
pub const VERSION: u32 = 5;

/// A whole run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trajectory {
    /// The question or task the agent was given.
    pub task: String,
    /// The prompt format in force: the one the run started in, until `auto` falls back to
    /// text ReAct (the step where it did records the switch). Written as `react_format`.
    pub format: Format,
    /// The prompt language.
    pub lang: Lang,
    /// Which model produced the replies (e.g. `scripted:apple-ceo`).
    pub model: String,
    /// The steps so far, in order.
    pub steps: Vec<Step>,
    /// What the agent wrote down between steps for a long run: summaries of the oldest steps
    /// and reflections, in the order they were written (see `crate::agent::memory`).
    pub memos: Vec<Memo>,
    /// Why the run ended; `None` while it is still going.
    pub stop: Option<Stop>,
}

/// A note the agent writes between two steps, which the following prompts carry.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Memo {
    /// What it is.
    pub kind: MemoKind,
    /// The step it was written after.
    pub after: u32,
    /// For a summary, the steps it stands for: 1 to `covers`, which the prompt then leaves out.
    pub covers: u32,
    /// What the model reads.
    pub text: String,
    /// The model call that wrote it; `None` when tao wrote it itself from the steps (with the
    /// offline model, which cannot write one).
    pub call: Option<ModelCall>,
}

/// The kinds of [`Memo`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MemoKind {
    /// The oldest steps condensed, so the prompt stays within its budget.
    #[default]
    Summary,
    /// What has been learned so far and what to try next.
    Reflection,
}

impl MemoKind {
    /// The name in JSON, events and on the page: `summary` or `reflection`.
    pub fn name(self) -> &'static str {
        match self {
            MemoKind::Summary => "summary",
            MemoKind::Reflection => "reflection",
        }
    }
}

/// One Thought → Action → Observation step (or Thought → Answer).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Step {
    /// 1-based position in the run.
    pub index: u32,
    /// The model's reasoning before it acted.
    pub thought: String,
    /// The tools the model called, in its order (one in text ReAct; several when a native
    /// reply made several calls at once), each with what came of it.
    pub tool_calls: Vec<ToolCall>,
    /// The final answer, when the model finished.
    pub answer: Option<String>,
    /// Set when the reply itself could not be used (no readable action, an unknown tool): why,
    /// and what the model is told, which it reads as the step's observation.
    pub repair: Option<Repair>,
    /// The model calls of this step, in order: the last one is the reply the step is made of;
    /// those before it were asked again (see [`ModelCall::retried`]) or answered before a
    /// change of format.
    pub model_calls: Vec<ModelCall>,
    /// What the reader of this step should know (text ignored, stream cut, ...).
    pub notes: Vec<String>,
    /// Set when the run changed format in this step (`auto` falling back to text ReAct).
    pub switch: Option<Switch>,
    /// Milliseconds the whole step took (model calls, tools, approval).
    pub ms: f64,
}

/// One call of a tool: the action the model chose, and what came of it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolCall {
    /// The tool and its input.
    pub action: Action,
    /// What the tool returned, or the repair message the model will read. `None` until the
    /// tool has run: the run is paused before the tool call.
    pub observation: Option<String>,
    /// Set when its input did not fit the tool (or repeated the step before's): why, and what
    /// the model is told.
    pub repair: Option<Repair>,
    /// Whether the user approved it, for a tool that needs approval.
    pub approved: Option<bool>,
    /// The fuel a sandboxed wasm tool burned.
    pub fuel: Option<u64>,
    /// Milliseconds the tool took.
    pub ms: f64,
    /// A picture the tool returned with its observation (a chart: `{kind, title, x, y}`), drawn
    /// by the page from its numbers; the model reads only the observation.
    pub picture: Option<Value>,
}

/// One call of the model: what it replied, and what that cost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelCall {
    /// The reply as it was kept (cut at a hallucinated Observation, if it was).
    pub raw: String,
    /// Set when this reply could not be read and the model was asked again (the paper's
    /// retries): why, and the parser's explanation.
    pub retried: Option<Repair>,
    /// Tokens, when the model reported them.
    pub usage: Option<Usage>,
    /// Milliseconds from sending the request to the end of the reply.
    pub ms: f64,
    /// Milliseconds from sending the request to the first streamed text, when there was any.
    pub first_token_ms: Option<f64>,
    /// Characters of the reply not used because the stream was stopped at an invented
    /// `Observation`: those received after the cut, plus those the model had not yet sent
    /// when it says (a provider's stream is closed there, so it generates no more).
    pub saved_chars: u32,
    /// What arrived after the point where tao stopped reading (the invented `Observation`
    /// and whatever followed it), up to [`CUT_KEPT`] bytes, so the reader can see what was cut.
    pub cut: Option<String>,
    /// The model's reasoning before its reply, when it showed it (reasoning models).
    pub thinking: Option<Thinking>,
}

/// The most of a cut-off tail a model call keeps (the rest is only counted in `saved_chars`).
pub const CUT_KEPT: usize = 2000;

/// A change of format during a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Switch {
    /// The format before (`auto`).
    pub from: Format,
    /// The format from this step on (`mrkl`).
    pub to: Format,
    /// Why: the endpoint rejected tools, or the model answered in text ReAct.
    pub why: String,
}

/// A tool call.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Action {
    /// The tool's name, as registered.
    pub tool: String,
    /// Its input: a string, or a JSON value.
    pub input: Value,
    /// The provider's id for the call (native tool calling), sent back with its result as
    /// it came: some servers check it.
    pub id: Option<String>,
}

/// A model mistake turned into an observation (counted in `n_badcalls`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Repair {
    /// What was wrong: `no_action`, `unknown_tool`, `bad_input`, ...
    pub why: Why,
    /// The observation the model reads next turn.
    pub message: String,
}

/// Why a run ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StopReason {
    /// The model gave its final answer.
    #[default]
    Answer,
    /// `max_steps` steps passed without an answer.
    MaxSteps,
    /// The caller aborted the run.
    Aborted,
    /// A program error (the model endpoint failed, ...); the message says which.
    Error,
    /// The model refused to answer; the message has what it said.
    Refused,
    /// The reply was cut at the token limit; the message names the limit.
    Truncated,
    /// The run's token budget was spent before the next model call.
    TokenBudget,
    /// The run's wall-clock budget was spent before the next model call.
    TimeBudget,
}

/// The end of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stop {
    /// Why.
    pub reason: StopReason,
    /// Details for `Error` (and a human sentence for the others).
    pub message: Option<String>,
}

/// Counts over a run, named as in the ReAct paper's code; computed from the steps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Model calls made (retries included).
    pub n_calls: u32,
    /// Model replies that could not be used: unreadable (asked again, or repaired), unknown
    /// tool, bad input.
    pub n_badcalls: u32,
    /// Steps taken.
    pub steps: u32,
    /// Time the steps took.
    pub elapsed_ms: f64,
    /// Prompt tokens over the run, when reported.
    pub prompt_tokens: u64,
    /// Completion tokens over the run, when reported.
    pub completion_tokens: u64,
    /// Characters saved by stopping streams at invented observations (see `ModelCall`).
    pub saved_chars: u64,
}

impl Trajectory {
    /// An empty trajectory for `task`.
    pub fn new(task: &str, format: Format, lang: Lang, model: &str) -> Self {
        Trajectory {
            task: task.into(),
            format,
            lang,
            model: model.into(),
            ..Trajectory::default()
        }
    }

    /// Ends the run (the first reason given wins).
    pub fn finish(&mut self, reason: StopReason, message: Option<String>) {
        if self.stop.is_none() {
            self.stop = Some(Stop { reason, message });
        }
    }

    /// The latest summary of a long run, the one the prompt shows in place of the steps it
    /// covers (see `crate::prompt`).
    pub fn summary(&self) -> Option<&Memo> {
        let summaries = self.memos.iter().filter(|m| m.kind == MemoKind::Summary);
        summaries.max_by_key(|m| m.covers)
    }

    /// The final answer, once there is one.
    pub fn answer(&self) -> Option<&str> {
        self.steps.last().and_then(|s| s.answer.as_deref())
    }

    /// An action of the last step that waits for its observation: the run paused before the
    /// tool call (the first such, when the step made several calls).
    pub fn pending_action(&self) -> Option<&Action> {
        let step = self.steps.last()?;
        let waiting = step.tool_calls.iter().find(|t| t.observation.is_none());
        waiting.map(|t| &t.action)
    }

    /// The trajectory as it stood when step `index` (1-based) was about to call the model: the
    /// steps before it, in the format then in force. Its prompt is exactly what that step's
    /// last model call was sent (see `crate::prompt`).
    pub fn before(&self, index: u32) -> Trajectory {
        let keep = (index.max(1) - 1) as usize;
        let mut earlier = Trajectory {
            steps: self.steps.iter().take(keep).cloned().collect(),
            // The memos written before that step's call: after one of the steps kept.
            memos: self
                .memos
                .iter()
                .filter(|m| m.after < index.max(1))
                .cloned()
                .collect(),
            stop: None,
            ..self.clone()
        };
        // Undo the switches that happened later: the format then was the one switched from.
        // (A switch inside step `index` itself happened before its last call, so it stays.)
        if let Some(switch) = self
            .steps
            .iter()
            .skip(keep + 1)
            .find_map(|s| s.switch.as_ref())
        {
            earlier.format = switch.from;
        }
        earlier
    }

    /// Makes an ended run ready to go on (resuming an aborted, failed or step-limited run, or
    /// one imported from a file): the stop is removed, and so is a last step that was
    /// interrupted before the model made its move, so it is taken again.
    pub fn reopen(&mut self) {
        self.stop = None;
        let interrupted = self
            .steps
            .last()
            .is_some_and(|s| s.tool_calls.is_empty() && s.answer.is_none() && s.repair.is_none());
        if interrupted {
            self.steps.pop();
        }
    }

    /// The counts over the run, from its steps.
    pub fn stats(&self) -> Stats {
        self.stats_with(None)
    }

    /// The counts over the run and `current`, a step in progress that is not in the trajectory
    /// yet (its model calls so far, the one in flight included): what a page shows live.
    pub fn stats_with(&self, current: Option<&Step>) -> Stats {
        let mut stats = Stats::default();
        for step in self.steps.iter().chain(current) {
            let retried = step.model_calls.iter().filter(|c| c.retried.is_some());
            let repaired = step.tool_calls.iter().filter(|t| t.repair.is_some());
            stats.steps += 1;
            stats.n_calls += step.model_calls.len() as u32;
            stats.n_badcalls += (retried.count() + repaired.count()) as u32;
            stats.n_badcalls += u32::from(step.repair.is_some());
            stats.elapsed_ms += step.ms;
            let usage = step.usage().unwrap_or_default();
            stats.prompt_tokens += usage.prompt_tokens;
            stats.completion_tokens += usage.completion_tokens;
            stats.saved_chars += u64::from(step.saved_chars());
        }
        // The model calls that wrote memos cost time and tokens too.
        for call in self.memos.iter().filter_map(|m| m.call.as_ref()) {
            stats.n_calls += 1;
            stats.elapsed_ms += call.ms;
            let usage = call.usage.unwrap_or_default();
            stats.prompt_tokens += usage.prompt_tokens;
            stats.completion_tokens += usage.completion_tokens;
        }
        stats.elapsed_ms = (stats.elapsed_ms * 1000.0).round() / 1000.0;
        stats
    }

    /// The versioned JSON document, pretty-printed.
    pub fn to_json(&self) -> String {
        crate::to_json::to_string_pretty(self)
    }

    /// Reads a trajectory document. Never panics; the error says what is wrong with the file.
    pub fn from_json(text: &str) -> Result<Trajectory, Error> {
        let value: Value = crate::json::from_str(text)
            .map_err(|e| Error::format(format!("not a trajectory file: invalid JSON ({e})")))?;
        let object = value
            .as_object()
            .ok_or_else(|| Error::format("not a trajectory file: expected a JSON object"))?;
        match object.get("format").and_then(Value::as_str) {
            Some(DOCUMENT_FORMAT) => {}
            _ => {
                return Err(Error::format(format!(
                    "not a trajectory file: the field \"format\" must be \"{DOCUMENT_FORMAT}\""
                )))
            }
        }
        match object.get("version").and_then(Value::as_u64) {
            Some(1..=5) => {}
            Some(v) if v > u64::from(VERSION) => {
                return Err(Error::format(format!(
                    "this trajectory was written by a newer tao (version {v}); this tao reads versions 1 to {VERSION}: update tao to open it"
                )))
            }
            _ => {
                return Err(Error::format(format!(
                    "not a trajectory file: the field \"version\" must be from 1 to {VERSION}"
                )))
            }
        };
        read_trajectory(&value).map_err(|e| Error::format(format!("malformed trajectory: {e}")))
    }
}

impl Step {
    /// A step about to begin.
    pub fn new(index: u32) -> Self {
        Step {
            index,
            ..Step::default()
        }
    }

    /// The reply the step is made of: its last model call's (empty before any call).
    pub fn raw(&self) -> &str {
        self.model_calls.last().map_or("", |c| c.raw.as_str())
    }

    /// Its first action, when the model acted (text ReAct has one a step).
    pub fn action(&self) -> Option<&Action> {
        self.tool_calls.first().map(|t| &t.action)
    }

    /// What the model reads after its move: the repair of a reply it could not use, else what
    /// its first tool call observed (or that call's repair).
    pub fn observation(&self) -> Option<&str> {
        match &self.repair {
            Some(repair) => Some(&repair.message),
            None => self.tool_calls.first()?.observation.as_deref(),
        }
    }

    /// Whether the model's move was repaired: the reply could not be used, or its first
    /// action did not fit its tool.
    pub fn repaired(&self) -> bool {
        let first = self.tool_calls.first();
        self.repair.is_some() || first.is_some_and(|t| t.repair.is_some())
    }

    /// The tokens of all its model calls, when any reported them.
    pub fn usage(&self) -> Option<Usage> {
        self.model_calls
            .iter()
            .filter_map(|c| c.usage)
            .reduce(|mut a, b| {
                a += b;
                a
            })
    }

    /// Characters saved by stopping its streams at invented observations.
    pub fn saved_chars(&self) -> u32 {
        self.model_calls.iter().map(|c| c.saved_chars).sum()
    }

    /// Whether its move failed: a repair, a tool error, or a denied approval.
    pub fn failed(&self) -> bool {
        let first = self.tool_calls.first();
        failed(
            self.repaired(),
            self.observation(),
            first.and_then(|t| t.approved),
        )
    }

    /// Milliseconds spent waiting for (and reading) the model, over all its calls.
    pub fn model_ms(&self) -> f64 {
        self.model_calls.iter().map(|c| c.ms).sum()
    }
}

/// Whether a step's action failed (see [`Step::failed`]): it was repaired, its tool returned an
/// error, or its call was denied. One rule for a step and for a step read from a file
/// ([`MemoSource::read`]).
fn failed(repaired: bool, observation: Option<&str>, approved: Option<bool>) -> bool {
    let error = observation.is_some_and(|o| o.starts_with("Error:"));
    repaired || error || approved == Some(false)
}

impl StopReason {
    /// Every reason, in the order the docs list them.
    pub const ALL: [StopReason; 8] = [
        StopReason::Answer,
        StopReason::MaxSteps,
        StopReason::Aborted,
        StopReason::Error,
        StopReason::Refused,
        StopReason::Truncated,
        StopReason::TokenBudget,
        StopReason::TimeBudget,
    ];

    /// The name used in JSON and on the page: `answer`, `max_steps`, `aborted`, `error`,
    /// `refused`, `truncated`, `token_budget`, `time_budget`.
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Answer => "answer",
            StopReason::MaxSteps => "max_steps",
            StopReason::Aborted => "aborted",
            StopReason::Error => "error",
            StopReason::Refused => "refused",
            StopReason::Truncated => "truncated",
            StopReason::TokenBudget => "token_budget",
            StopReason::TimeBudget => "time_budget",
        }
    }

    /// The reason a run ends with when a model call fails with an error of `kind`.
    pub fn of(kind: ErrorKind) -> StopReason {
        match kind {
            ErrorKind::Aborted => StopReason::Aborted,
            ErrorKind::Refused => StopReason::Refused,
            ErrorKind::Truncated => StopReason::Truncated,
            _ => StopReason::Error,
        }
    }
}

// Reading and writing: one field list per type (see `crate::json` for why this is not
// derived). A missing field takes its default, except those marked `required`.

json_struct!(Step {
    index,
    thought,
    tool_calls,
    answer,
    repair,
    model_calls,
    notes,
    switch,
    ms
} then upgrade);
json_struct!(ToolCall {
    action (required),
    observation,
    repair,
    approved,
    fuel,
    ms,
    picture
});
json_struct!(Memo {
    kind (required),
    after,
    covers,
    text,
    call
});
json_struct!(ModelCall {
    raw,
    retried,
    usage,
    ms,
    first_token_ms,
    saved_chars,
    cut,
    thinking
});
json_struct!(Switch { from, to (required), why });
json_struct!(Action { tool (required), input (required), id });
json_struct!(Repair { why (required), message (required) });
json_struct!(Stop { reason (required), message });
json_struct!(Stats {
    n_calls,
    n_badcalls,
    steps,
    elapsed_ms,
    prompt_tokens,
    completion_tokens,
    saved_chars
});

/// What tao's own memo (`crate::agent::memory::extract`) is written from: the task, the
/// latest summary, and each step's action, observation and whether it failed. Read from a
/// trajectory ([`MemoSource::of`]) or, in the tools' module, from the trajectory file the page's
/// core hands it ([`MemoSource::read`]: only these fields, without reading the whole file).
#[cfg(feature = "builtin-tools")]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemoSource {
    /// The question.
    pub task: String,
    /// The trajectory's language.
    pub lang: Lang,
    /// The latest summary's text.
    pub summary: Option<String>,
    /// How many of the first steps the latest summary stands for (0: none).
    pub condensed: u32,
    /// The steps so far.
    pub steps: Vec<MemoStep>,
}

/// A step as a memo reads it.
#[cfg(feature = "builtin-tools")]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemoStep {
    /// Its number, from 1.
    pub index: u32,
    /// Its action as `tool[input]` (empty: none).
    pub action: String,
    /// The action's input as text (empty: none).
    pub input: String,
    /// What the tool returned.
    pub observation: Option<String>,
    /// Whether the action failed: a repair, a tool error, or a denied approval.
    pub failed: bool,
}

#[cfg(feature = "builtin-tools")]
impl MemoStep {
    fn new(
        index: u32,
        action: Option<(&str, &Value)>,
        observation: Option<&str>,
        failed: bool,
    ) -> Self {
        let (action, input) = match action {
            Some((tool, input)) => {
                let input = input_text(input).into_owned();
                (format!("{tool}[{input}]"), input)
            }
            None => Default::default(),
        };
        MemoStep {
            index,
            action,
            input,
            observation: observation.map(String::from),
            failed,
        }
    }
}

#[cfg(feature = "builtin-tools")]
impl MemoSource {
    /// What a memo on `trajectory` is written from.
    pub fn of(trajectory: &Trajectory) -> Self {
        let step = |s: &Step| {
            let action = s.action().map(|a| (a.tool.as_str(), &a.input));
            MemoStep::new(s.index, action, s.observation(), s.failed())
        };
        let summary = trajectory.summary();
        MemoSource {
            task: trajectory.task.clone(),
            lang: trajectory.lang,
            summary: summary.map(|m| m.text.clone()),
            condensed: summary.map_or(0, |m| m.covers),
            steps: trajectory.steps.iter().map(step).collect(),
        }
    }

    /// What a memo is written from, read from a trajectory file's `document` as [`Trajectory`]
    /// writes it (a field of another type reads as missing).
    pub fn read(document: &Value) -> Self {
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(String::from);
        let number = |v: &Value, key: &str| v.get(key).and_then(Value::as_u64).unwrap_or(0) as u32;
        fn list<'a>(v: &'a Value, key: &str) -> &'a [Value] {
            v.get(key)
                .and_then(Value::as_array)
                .map_or(&[], Vec::as_slice)
        }
        // The latest summary: the one covering most steps (as `Trajectory::summary`).
        let memos = list(document, "memos");
        let summaries = memos
            .iter()
            .filter(|m| m.get("kind").and_then(Value::as_str) == Some("summary"));
        let summary = summaries.max_by_key(|m| number(m, "covers"));
        let steps = list(document, "steps");
        // As `MemoSource::of` reads a step: its first tool call, or the repair of its reply.
        let step = |s: &Value| {
            let first = list(s, "tool_calls").first().filter(|t| t.is_object());
            let action = first
                .and_then(|t| t.get("action"))
                .filter(|a| a.is_object());
            let tool = action.and_then(|a| a.get("tool")).and_then(Value::as_str);
            let input = action.and_then(|a| a.get("input"));
            let repair = |v: &Value| v.get("repair").filter(|r| r.is_object()).cloned();
            let step_repair = repair(s);
            let observation = match &step_repair {
                Some(r) => r.get("message").and_then(Value::as_str),
                None => first
                    .and_then(|t| t.get("observation"))
                    .and_then(Value::as_str),
            };
            let repaired = step_repair.is_some() || first.and_then(repair).is_some();
            let approved = first
                .and_then(|t| t.get("approved"))
                .and_then(Value::as_bool);
            let failed = failed(repaired, observation, approved);
            MemoStep::new(number(s, "index"), tool.zip(input), observation, failed)
        };
        MemoSource {
            task: text(document, "task").unwrap_or_default(),
            lang: text(document, "lang")
                .and_then(|l| Lang::from_name(&l))
                .unwrap_or_default(),
            summary: summary.and_then(|m| text(m, "text")),
            condensed: summary.map_or(0, |m| number(m, "covers")),
            steps: steps.iter().map(step).collect(),
        }
    }
}

/// The document: a header (`format`, `version`), the run, and two fields computed from the
/// steps for readers of the file (`answer`, `stats`), which are not read back.
impl ToJson for Trajectory {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[
            ("format", &DOCUMENT_FORMAT),
            ("version", &VERSION),
            ("task", &self.task),
            ("react_format", &self.format),
            ("lang", &self.lang),
            ("model", &self.model),
            ("steps", &self.steps),
            ("memos", &self.memos),
            ("answer", &self.answer()),
            ("stop", &self.stop),
            ("stats", &self.stats()),
        ]);
    }
}

/// The fields of a trajectory document after its header, as [`Trajectory`]'s `ToJson` writes
/// them (the header was checked by [`Trajectory::from_json`]).
fn read_trajectory(value: &Value) -> Result<Trajectory, String> {
    let o = Object::new(value, "struct Trajectory")?;
    let mut t = Trajectory {
        task: o.required("task")?,
        format: o.required("react_format")?,
        ..Trajectory::default()
    };
    o.read("lang", &mut t.lang)?;
    o.read("model", &mut t.model)?;
    o.read("stop", &mut t.stop)?;
    o.read("steps", &mut t.steps)?;
    o.read("memos", &mut t.memos)?;
    Ok(t)
}

impl FromJson for Format {
    fn from_value(value: &Value) -> Result<Self, String> {
        let name = String::from_value(value)?;
        Format::from_name(&name)
            .ok_or_else(|| format!("unknown format `{name}`, expected one of {}", Format::NAMES))
    }
}

impl ToJson for Format {
    fn write_json(&self, out: &mut JsonWriter) {
        out.string(self.name());
    }
}

impl FromJson for Lang {
    fn from_value(value: &Value) -> Result<Self, String> {
        let name = String::from_value(value)?;
        Lang::from_name(&name)
            .ok_or_else(|| format!("unknown language `{name}`, expected `en` or `zh`"))
    }
}

impl ToJson for Lang {
    fn write_json(&self, out: &mut JsonWriter) {
        out.string(self.name());
    }
}

impl FromJson for MemoKind {
    fn from_value(value: &Value) -> Result<Self, String> {
        match String::from_value(value)?.as_str() {
            "summary" => Ok(MemoKind::Summary),
            "reflection" => Ok(MemoKind::Reflection),
            other => Err(format!(
                "unknown memo kind `{other}`, expected `summary` or `reflection`"
            )),
        }
    }
}

impl ToJson for MemoKind {
    fn write_json(&self, out: &mut JsonWriter) {
        out.string(self.name());
    }
}

impl FromJson for Why {
    fn from_value(value: &Value) -> Result<Self, String> {
        let name = String::from_value(value)?;
        Why::from_name(&name).ok_or_else(|| {
            format!("unknown variant `{name}`, expected a repair reason such as `no_action` or `bad_input`")
        })
    }
}

impl ToJson for Why {
    fn write_json(&self, out: &mut JsonWriter) {
        out.string(self.name());
    }
}

impl FromJson for StopReason {
    fn from_value(value: &Value) -> Result<Self, String> {
        let name = String::from_value(value)?;
        StopReason::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = StopReason::ALL.iter().map(|r| r.name()).collect();
                format!(
                    "unknown variant `{name}`, expected one of `{}`",
                    names.join("`, `")
                )
            })
    }
}

impl ToJson for StopReason {
    fn write_json(&self, out: &mut JsonWriter) {
        out.string(self.name());
    }
}

/// A step as versions 1 to 4 wrote it, read into version 5's shape (a version 5 step has none
/// of their fields, and nothing is upgraded). Version 4 kept the first tool call in the step's
/// own fields (`action`, `observation`, `repair`, `approved`, `fuel`, `tool_ms`, `picture`),
/// the others in `parallel`, and the model calls in `calls`; a repair without an action was the
/// reply's. Version 1 is first read into version 2's shape ([`upgrade_v1`]).
fn upgrade(o: &Object, step: &mut Step) -> Result<(), String> {
    if o.has("calls") {
        step.model_calls = o.required("calls")?;
    }
    let tool_ms = upgrade_v1(o, step)?;
    let action: Option<Action> = o.or_default("action")?;
    let repair: Option<Repair> = o.or_default("repair")?;
    match action {
        Some(action) => {
            let mut first = ToolCall {
                action,
                repair,
                ms: tool_ms,
                ..ToolCall::default()
            };
            o.read("observation", &mut first.observation)?;
            o.read("approved", &mut first.approved)?;
            o.read("fuel", &mut first.fuel)?;
            o.read("tool_ms", &mut first.ms)?;
            o.read("picture", &mut first.picture)?;
            step.tool_calls.push(first);
            // (Read as version 5's field of the same name too: it was the action's, not the
            // reply's.)
            step.repair = None;
        }
        None => step.repair = step.repair.take().or(repair),
    }
    let parallel: Vec<Value> = o.or_default("parallel")?;
    for call in &parallel {
        let call = Object::new(call, "struct ParallelCall")?;
        let mut other = ToolCall {
            action: call.required("action")?,
            ..ToolCall::default()
        };
        call.read("observation", &mut other.observation)?;
        call.read("repair", &mut other.repair)?;
        call.read("approved", &mut other.approved)?;
        call.read("fuel", &mut other.fuel)?;
        call.read("tool_ms", &mut other.ms)?;
        call.read("picture", &mut other.picture)?;
        step.tool_calls.push(other);
    }
    Ok(())
}

/// A step as version 1 wrote it, read into version 2's shape: its retried replies (`retries`)
/// and the reply it is made of (`raw`) become its model calls, the last carrying the time and
/// tokens of them all (version 1 kept only the sums); returns the time its tool took. Written by
/// hand over the reads the version 2 fields already use, so reading old files costs almost no
/// code (size).
fn upgrade_v1(o: &Object, step: &mut Step) -> Result<f64, String> {
    if o.has("calls") || !o.has("raw") {
        return Ok(0.0); // version 2 (or too little to tell): nothing to upgrade
    }
    let retries: Value = o.or_default("retries")?;
    for retry in retries.as_array().into_iter().flatten() {
        let retry = Object::new(retry, "struct Retry")?;
        let mut call = ModelCall::default();
        let mut repair = Repair::default();
        retry.read("raw", &mut call.raw)?;
        retry.read("why", &mut repair.why)?;
        retry.read("message", &mut repair.message)?;
        call.retried = Some(repair);
        step.model_calls.push(call);
    }
    let mut call = ModelCall::default();
    o.read("raw", &mut call.raw)?;
    o.read("usage", &mut call.usage)?;
    o.read("saved_chars", &mut call.saved_chars)?;
    let mut tool_ms = 0.0;
    if o.has("timing") {
        let timing = o.required::<Value>("timing")?;
        let timing = Object::new(&timing, "struct Timing")?;
        timing.read("model_ms", &mut call.ms)?;
        timing.read("first_token_ms", &mut call.first_token_ms)?;
        timing.read("tool_ms", &mut tool_ms)?;
    }
    step.ms = call.ms + tool_ms;
    step.model_calls.push(call);
    Ok(tool_ms)
}

impl Trajectory {
    /// The run as readable text, the way a student would write it down: one block per step.
    /// Timings are left out so the text of a scripted run is the same every time (transcript
    /// tests compare it whole).
    pub fn to_text(&self) -> String {
        let mut out = format!("Task: {}\n", self.task);
        for step in &self.steps {
            out += &format!("\nStep {}\n", step.index);
            if let Some(switch) = &step.switch {
                out += &format!(
                    "  Switched: {} -> {} ({})\n",
                    switch.from.name(),
                    switch.to.name(),
                    switch.why
                );
            }
            for call in &step.model_calls {
                if let Some(retried) = &call.retried {
                    // The reply quoted as a JSON string (its line ends shown as `\n`).
                    let raw = crate::to_json::to_string(&call.raw);
                    out += &format!("  (retried: {} — {raw})\n", retried.why.name());
                }
            }
            if let Some(thinking) = step.model_calls.last().and_then(|c| c.thinking.as_ref()) {
                out += &format!("  Reasoning: {}\n", thinking.text.trim());
            }
            if !step.thought.is_empty() {
                out += &format!("  Thought: {}\n", step.thought);
            }
            // Each action with what came of it; the step's notes after its first action.
            let outcome =
                |repair: &Option<Repair>, observation: &Option<String>| match (repair, observation)
                {
                    (Some(r), _) => format!("  Repair ({}): {}\n", r.why.name(), r.message),
                    (None, Some(observation)) => format!("  Observation: {observation}\n"),
                    (None, None) => String::new(),
                };
            let notes: String = step
                .notes
                .iter()
                .map(|n| format!("  Note: {n}\n"))
                .collect();
            for (k, call) in step.tool_calls.iter().enumerate() {
                let a = &call.action;
                out += &format!("  Action: {}[{}]\n", a.tool, input_text(&a.input));
                if k == 0 {
                    out += &notes;
                }
                out += &outcome(&call.repair, &call.observation);
            }
            if step.tool_calls.is_empty() {
                out += &notes;
                out += &outcome(&step.repair, &None);
            }
            if let Some(answer) = &step.answer {
                out += &format!("  Answer: {answer}\n");
            }
            for memo in self.memos.iter().filter(|m| m.after == step.index) {
                out += &match memo.kind {
                    MemoKind::Summary => {
                        format!("\nSummary of steps 1-{}: {}\n", memo.covers, memo.text)
                    }
                    MemoKind::Reflection => format!("\nReflection: {}\n", memo.text),
                };
            }
        }
        let s = self.stats();
        let reason = match &self.stop {
            Some(stop) => match (&stop.reason, &stop.message) {
                (StopReason::Answer, _) => "answer".to_string(),
                (reason, Some(message)) => format!("{} ({message})", reason.name()),
                (reason, None) => reason.name().to_string(),
            },
            None => "running".into(),
        };
        out += &format!(
            "\nStopped: {reason} · {} steps · {} calls · {} bad calls\n",
            s.steps, s.n_calls, s.n_badcalls
        );
        out
    }
}
