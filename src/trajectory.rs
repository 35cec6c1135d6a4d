//! The trajectory: the single source of truth of a run.
//!
//! A run is a task and a list of steps; each step is what the model thought, what it did
//! (an action, or its final answer) and what it observed. The prompt is rendered from it, the
//! page draws it, exports serialise it and tests compare it: there is no second copy of the
//! history anywhere (the ReAct paper's code returns its prompt string as `traj` for the same
//! reason).
//!
//! On disk it is a versioned JSON document, `{"format": "tao-trajectory", "version": 1, ...}`.
//! Reading one never panics: a malformed file, or one from a newer tao, is a clear error.

pub use crate::chat::Usage;
use crate::error::Error;
use crate::json::{FromJson, Object};
use crate::to_json::{JsonWriter, ToJson};
use serde_json::Value;

/// The document type written in every exported trajectory.
pub const DOCUMENT_FORMAT: &str = "tao-trajectory";
/// The version this tao writes and reads.
pub const VERSION: u32 = 1;

/// A whole run.
#[derive(Clone, Debug, PartialEq)]
pub struct Trajectory {
    /// Always [`DOCUMENT_FORMAT`].
    pub format: String,
    /// Always [`VERSION`] when written by this tao.
    pub version: u32,
    /// The question or task the agent was given.
    pub task: String,
    /// The prompt format the run used (`mrkl`, `paper`).
    pub react_format: String,
    /// The prompt language (`en`, `zh`).
    pub lang: String,
    /// Which model produced the replies (e.g. `scripted:apple-ceo`).
    pub model: String,
    /// The steps so far, in order.
    pub steps: Vec<Step>,
    /// The final answer, once there is one.
    pub answer: Option<String>,
    /// Why the run ended; `None` while it is still going.
    pub stop: Option<Stop>,
    /// Counts over the whole run.
    pub stats: Stats,
}

/// One Thought → Action → Observation step (or Thought → Answer).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Step {
    /// 1-based position in the run.
    pub index: u32,
    /// The model's reasoning before it acted.
    pub thought: String,
    /// The tool call, when the model acted.
    pub action: Option<Action>,
    /// The final answer, when the model finished.
    pub answer: Option<String>,
    /// What the tool returned, or the repair message the model will read.
    pub observation: Option<String>,
    /// The model's reply as it was kept (cut at a hallucinated Observation, if it was).
    pub raw: String,
    /// Set when the reply could not be used: why, and what the model was told.
    pub repair: Option<Repair>,
    /// What the reader of this step should know (text ignored, stream cut, ...).
    pub notes: Vec<String>,
    /// Replies that were unreadable and asked again before this one (the paper's retries).
    pub retries: Vec<Retry>,
    /// Where the time went.
    pub timing: Timing,
    /// Tokens, when the model reported them.
    pub usage: Option<Usage>,
    /// Characters of the reply not used because the stream was stopped at an invented
    /// `Observation`: those received after the cut, plus those the model had not yet sent
    /// when it says (a provider's stream is closed there, so it generates no more).
    pub saved_chars: u32,
    /// Set when the run changed format in this step (`auto` falling back to text ReAct).
    pub switch: Option<Switch>,
    /// Whether the user approved the call, for a tool that needs approval.
    pub approved: Option<bool>,
    /// The fuel a sandboxed wasm tool burned in this step's call.
    pub fuel: Option<u64>,
}

/// A change of format during a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Switch {
    /// The format before (`auto`).
    pub from: String,
    /// The format from this step on (`mrkl`).
    pub to: String,
    /// Why: the endpoint rejected tools, or the model answered in text ReAct.
    pub why: String,
}

/// A tool call.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    /// The tool's name, as registered.
    pub tool: String,
    /// Its input: a string, or a JSON value.
    pub input: Value,
}

/// A model mistake turned into an observation (counted in `n_badcalls`).
#[derive(Clone, Debug, PartialEq)]
pub struct Repair {
    /// A short code: `no_action`, `unknown_tool`, `bad_input`, ...
    pub why: String,
    /// The observation the model reads next turn.
    pub message: String,
}

/// An unreadable reply that was retried.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Retry {
    /// What the model said.
    pub raw: String,
    /// Why it could not be read.
    pub why: String,
    /// The parser's explanation.
    pub message: String,
}

/// Milliseconds spent in the model and in the tool.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timing {
    /// Waiting for (and reading) the model's reply, retries included.
    pub model_ms: f64,
    /// Running the tool.
    pub tool_ms: f64,
    /// From sending the request to the first streamed text, when there was any.
    pub first_token_ms: Option<f64>,
}

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The model gave its final answer.
    Answer,
    /// `max_steps` steps passed without an answer.
    MaxSteps,
    /// The caller aborted the run.
    Aborted,
    /// A program error (the model endpoint failed, ...); the message says which.
    Error,
}

/// The end of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Stop {
    /// Why.
    pub reason: StopReason,
    /// Details for `Error` (and a human sentence for the others).
    pub message: Option<String>,
}

/// Counts over a run, named as in the ReAct paper's code.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Model calls made (retries included).
    pub n_calls: u32,
    /// Model replies that could not be used: unreadable, unknown tool, bad input.
    pub n_badcalls: u32,
    /// Steps taken.
    pub steps: u32,
    /// Wall-clock time of the run.
    pub elapsed_ms: f64,
    /// Prompt tokens over the run, when reported.
    pub prompt_tokens: u64,
    /// Completion tokens over the run, when reported.
    pub completion_tokens: u64,
    /// Characters saved by stopping streams at invented observations (see `Step`).
    pub saved_chars: u64,
}

impl Trajectory {
    /// An empty trajectory for `task`.
    pub fn new(task: &str, react_format: &str, lang: &str, model: &str) -> Self {
        Trajectory {
            format: DOCUMENT_FORMAT.into(),
            version: VERSION,
            task: task.into(),
            react_format: react_format.into(),
            lang: lang.into(),
            model: model.into(),
            steps: Vec::new(),
            answer: None,
            stop: None,
            stats: Stats::default(),
        }
    }

    /// Ends the run (the first reason given wins).
    pub fn finish(&mut self, reason: StopReason, message: Option<String>) {
        if self.stop.is_none() {
            self.stop = Some(Stop { reason, message });
        }
    }

    /// The latest observation, if any (what a rule policy looks at).
    pub fn last_observation(&self) -> Option<&str> {
        self.steps.last().and_then(|s| s.observation.as_deref())
    }

    /// The versioned JSON document, pretty-printed.
    pub fn to_json(&self) -> String {
        crate::to_json::to_string_pretty(self)
    }

    /// Reads a trajectory document. Never panics; the error says what is wrong with the file.
    pub fn from_json(text: &str) -> Result<Trajectory, Error> {
        let value: Value = serde_json::from_str(text)
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
            Some(v) if v == u64::from(VERSION) => {}
            Some(v) if v > u64::from(VERSION) => {
                return Err(Error::format(format!(
                    "this trajectory was written by a newer tao (version {v}); this tao reads version {VERSION}: update tao to open it"
                )))
            }
            _ => {
                return Err(Error::format(format!(
                    "not a trajectory file: the field \"version\" must be {VERSION}"
                )))
            }
        }
        <Trajectory as FromJson>::from_value(&value)
            .map_err(|e| Error::format(format!("malformed trajectory: {e}")))
    }
}

// Reading a trajectory document field by field (see `crate::json` for why this is not derived).
// A missing field takes its default, except the few every trajectory must have.

impl FromJson for Trajectory {
    fn from_value(value: &Value) -> Result<Self, String> {
        let o = Object::new(value, "struct Trajectory")?;
        let (format, version) = (o.required("format")?, o.required("version")?);
        let mut t = Trajectory::new(
            &o.required::<String>("task")?,
            &o.required::<String>("react_format")?,
            "en",
            "",
        );
        (t.format, t.version) = (format, version);
        o.read("lang", &mut t.lang)?;
        o.read("model", &mut t.model)?;
        o.read("steps", &mut t.steps)?;
        o.read("answer", &mut t.answer)?;
        o.read("stop", &mut t.stop)?;
        o.read("stats", &mut t.stats)?;
        Ok(t)
    }
}

impl FromJson for Step {
    fn from_value(value: &Value) -> Result<Self, String> {
        let o = Object::new(value, "struct Step")?;
        let mut step = Step::default();
        o.read("index", &mut step.index)?;
        o.read("thought", &mut step.thought)?;
        o.read("action", &mut step.action)?;
        o.read("answer", &mut step.answer)?;
        o.read("observation", &mut step.observation)?;
        o.read("raw", &mut step.raw)?;
        o.read("repair", &mut step.repair)?;
        o.read("notes", &mut step.notes)?;
        o.read("retries", &mut step.retries)?;
        o.read("timing", &mut step.timing)?;
        o.read("usage", &mut step.usage)?;
        o.read("saved_chars", &mut step.saved_chars)?;
        o.read("switch", &mut step.switch)?;
        o.read("approved", &mut step.approved)?;
        o.read("fuel", &mut step.fuel)?;
        Ok(step)
    }
}

impl FromJson for Switch {
    fn from_value(value: &Value) -> Result<Self, String> {
        let o = Object::new(value, "struct Switch")?;
        Ok(Switch {
            from: o.or_default("from")?,
            to: o.required("to")?,
            why: o.or_default("why")?,
        })
    }
}

impl FromJson for Action {
    fn from_value(value: &Value) -> Result<Self, String> {
        let o = Object::new(value, "struct Action")?;
        Ok(Action {
            tool: o.required("tool")?,
            input: o.required("input")?,
        })
    }
}

impl FromJson for Repair {
    fn from_value(value: &Value) -> Result<Self, String> {
        let o = Object::new(value, "struct Repair")?;
        Ok(Repair {
            why: o.required("why")?,
            message: o.required("message")?,
        })
    }
}

impl FromJson for Retry {
    fn from_value(value: &Value) -> Result<Self, String> {
        let o = Object::new(value, "struct Retry")?;
        let mut retry = Retry::default();
        o.read("raw", &mut retry.raw)?;
        o.read("why", &mut retry.why)?;
        o.read("message", &mut retry.message)?;
        Ok(retry)
    }
}

impl FromJson for Timing {
    fn from_value(value: &Value) -> Result<Self, String> {
        let o = Object::new(value, "struct Timing")?;
        let mut timing = Timing::default();
        o.read("model_ms", &mut timing.model_ms)?;
        o.read("tool_ms", &mut timing.tool_ms)?;
        o.read("first_token_ms", &mut timing.first_token_ms)?;
        Ok(timing)
    }
}

impl FromJson for StopReason {
    fn from_value(value: &Value) -> Result<Self, String> {
        let all = [
            StopReason::Answer,
            StopReason::MaxSteps,
            StopReason::Aborted,
            StopReason::Error,
        ];
        let name = String::from_value(value)?;
        all.into_iter().find(|r| r.name() == name).ok_or_else(|| {
            format!("unknown variant `{name}`, expected one of `answer`, `max_steps`, `aborted`, `error`")
        })
    }
}

impl FromJson for Stop {
    fn from_value(value: &Value) -> Result<Self, String> {
        let o = Object::new(value, "struct Stop")?;
        Ok(Stop {
            reason: o.required("reason")?,
            message: o.or_default("message")?,
        })
    }
}

impl FromJson for Stats {
    fn from_value(value: &Value) -> Result<Self, String> {
        let o = Object::new(value, "struct Stats")?;
        let mut stats = Stats::default();
        o.read("n_calls", &mut stats.n_calls)?;
        o.read("n_badcalls", &mut stats.n_badcalls)?;
        o.read("steps", &mut stats.steps)?;
        o.read("elapsed_ms", &mut stats.elapsed_ms)?;
        o.read("prompt_tokens", &mut stats.prompt_tokens)?;
        o.read("completion_tokens", &mut stats.completion_tokens)?;
        o.read("saved_chars", &mut stats.saved_chars)?;
        Ok(stats)
    }
}

// Writing a trajectory document: every field, in declaration order (see `crate::to_json` for
// why this is not derived either).

impl ToJson for Trajectory {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[
            ("format", &self.format),
            ("version", &self.version),
            ("task", &self.task),
            ("react_format", &self.react_format),
            ("lang", &self.lang),
            ("model", &self.model),
            ("steps", &self.steps),
            ("answer", &self.answer),
            ("stop", &self.stop),
            ("stats", &self.stats),
        ]);
    }
}

impl ToJson for Step {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[
            ("index", &self.index),
            ("thought", &self.thought),
            ("action", &self.action),
            ("answer", &self.answer),
            ("observation", &self.observation),
            ("raw", &self.raw),
            ("repair", &self.repair),
            ("notes", &self.notes),
            ("retries", &self.retries),
            ("timing", &self.timing),
            ("usage", &self.usage),
            ("saved_chars", &self.saved_chars),
            ("switch", &self.switch),
            ("approved", &self.approved),
            ("fuel", &self.fuel),
        ]);
    }
}

impl ToJson for Switch {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[("from", &self.from), ("to", &self.to), ("why", &self.why)]);
    }
}

impl ToJson for Action {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[("tool", &self.tool), ("input", &self.input)]);
    }
}

impl ToJson for Repair {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[("why", &self.why), ("message", &self.message)]);
    }
}

impl ToJson for Retry {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[
            ("raw", &self.raw),
            ("why", &self.why),
            ("message", &self.message),
        ]);
    }
}

impl ToJson for Timing {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[
            ("model_ms", &self.model_ms),
            ("tool_ms", &self.tool_ms),
            ("first_token_ms", &self.first_token_ms),
        ]);
    }
}

impl ToJson for StopReason {
    fn write_json(&self, out: &mut JsonWriter) {
        out.string(self.name());
    }
}

impl ToJson for Stop {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[("reason", &self.reason), ("message", &self.message)]);
    }
}

impl ToJson for Stats {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[
            ("n_calls", &self.n_calls),
            ("n_badcalls", &self.n_badcalls),
            ("steps", &self.steps),
            ("elapsed_ms", &self.elapsed_ms),
            ("prompt_tokens", &self.prompt_tokens),
            ("completion_tokens", &self.completion_tokens),
            ("saved_chars", &self.saved_chars),
        ]);
    }
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
                    switch.from, switch.to, switch.why
                );
            }
            for retry in &step.retries {
                out += &format!("  (retried: {} — {:?})\n", retry.why, retry.raw);
            }
            if !step.thought.is_empty() {
                out += &format!("  Thought: {}\n", step.thought);
            }
            if let Some(action) = &step.action {
                out += &format!(
                    "  Action: {}[{}]\n",
                    action.tool,
                    crate::format::input_text(&action.input)
                );
            }
            for note in &step.notes {
                out += &format!("  Note: {note}\n");
            }
            match (&step.repair, &step.observation) {
                (Some(repair), _) => {
                    out += &format!("  Repair ({}): {}\n", repair.why, repair.message)
                }
                (None, Some(observation)) => out += &format!("  Observation: {observation}\n"),
                (None, None) => {}
            }
            if let Some(answer) = &step.answer {
                out += &format!("  Answer: {answer}\n");
            }
        }
        let s = &self.stats;
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

impl StopReason {
    /// The name used in JSON and on the page: `answer`, `max_steps`, `aborted`, `error`.
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Answer => "answer",
            StopReason::MaxSteps => "max_steps",
            StopReason::Aborted => "aborted",
            StopReason::Error => "error",
        }
    }
}
