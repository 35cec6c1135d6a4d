//! The Thought → Action → Observation loop.
//!
//! Each step renders the prompt from the trajectory, lets the model continue it (reading the
//! reply as it streams, and stopping it at a hallucinated `Observation`), then either records
//! the final answer or runs the tool and appends what it returned. Model mistakes become repair
//! observations the model reads next turn, counted in `n_badcalls` as in the paper's code;
//! program errors (the model endpoint failing) end the run with the trajectory intact.

use crate::error::{Error, ErrorKind};
use crate::format::parse::{parse, ParseEvent, Parsed, StreamParser, Verdict, Why};
use crate::format::{Format, Lang};
pub use crate::host::Abort;
use crate::host::{with_timeout, Host};
use crate::llm::{Delta, Message, Model, Request, ToolCall};
use crate::to_json::{JsonWriter, ToJson};
use crate::tools::{schema, Registry, ToolError, ToolOutput, ToolSpec};
use crate::trajectory::{Action, Repair, Retry, Step, StopReason, Switch, Trajectory};
use serde_json::Value;
use std::rc::Rc;

/// How the agent runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The prompt format.
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
}

impl Default for Config {
    fn default() -> Self {
        Config {
            format: Format::Mrkl,
            lang: Lang::En,
            max_steps: 8,
            retries: 1,
            tool_timeout_ms: 30_000,
        }
    }
}

/// What happens during a run, as it happens (the page draws these; tests check their order).
/// In every variant `index` is the 1-based step number and `text` the payload.
#[allow(missing_docs)] // the fields are named for what they hold; see above
#[derive(Clone, Debug, PartialEq)]
pub enum Event<'a> {
    /// Step `index` begins.
    Step { index: u32 },
    /// A streamed piece of the model's reply.
    Token { index: u32, text: &'a str },
    /// The step's thought is complete.
    Thought { index: u32, text: &'a str },
    /// The step's action is known.
    Action {
        index: u32,
        tool: &'a str,
        input: &'a Value,
    },
    /// A tool that needs approval was approved or denied by the user.
    Approval {
        index: u32,
        tool: &'a str,
        approved: bool,
    },
    /// What the tool returned, and the fuel it burned when it is a sandboxed wasm tool.
    Observation {
        index: u32,
        text: &'a str,
        fuel: Option<u64>,
    },
    /// The reply could not be used; `message` is what the model is told.
    Repair {
        index: u32,
        why: &'a str,
        message: &'a str,
    },
    /// Something the reader should know (a cut stream, ignored text, a retry).
    Note { index: u32, text: &'a str },
    /// The run continues in another format (`auto` falling back to text ReAct).
    Switch {
        index: u32,
        from: &'a str,
        to: &'a str,
        why: &'a str,
    },
    /// The final answer.
    Answer { index: u32, text: &'a str },
    /// The run ended.
    Stopped {
        reason: StopReason,
        message: Option<&'a str>,
    },
}

/// An event as the page receives it: `{"type": "thought", "index": 1, "text": "..."}`, the
/// variant's name (lowercase) first, then its fields.
impl ToJson for Event<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        match self {
            Event::Step { index } => out.object(&[("type", &"step"), ("index", index)]),
            Event::Token { index, text } => {
                out.object(&[("type", &"token"), ("index", index), ("text", text)])
            }
            Event::Thought { index, text } => {
                out.object(&[("type", &"thought"), ("index", index), ("text", text)])
            }
            Event::Action { index, tool, input } => out.object(&[
                ("type", &"action"),
                ("index", index),
                ("tool", tool),
                ("input", input),
            ]),
            Event::Approval {
                index,
                tool,
                approved,
            } => out.object(&[
                ("type", &"approval"),
                ("index", index),
                ("tool", tool),
                ("approved", approved),
            ]),
            Event::Observation { index, text, fuel } => out.object(&[
                ("type", &"observation"),
                ("index", index),
                ("text", text),
                ("fuel", fuel),
            ]),
            Event::Repair {
                index,
                why,
                message,
            } => out.object(&[
                ("type", &"repair"),
                ("index", index),
                ("why", why),
                ("message", message),
            ]),
            Event::Note { index, text } => {
                out.object(&[("type", &"note"), ("index", index), ("text", text)])
            }
            Event::Switch {
                index,
                from,
                to,
                why,
            } => out.object(&[
                ("type", &"switch"),
                ("index", index),
                ("from", from),
                ("to", to),
                ("why", why),
            ]),
            Event::Answer { index, text } => {
                out.object(&[("type", &"answer"), ("index", index), ("text", text)])
            }
            Event::Stopped { reason, message } => out.object(&[
                ("type", &"stopped"),
                ("reason", reason),
                ("message", message),
            ]),
        }
    }
}

/// Receives events.
pub type Observer<'a> = &'a mut dyn FnMut(&Event);

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
    host: Rc<dyn Host>,
}

impl Agent {
    /// An agent with these parts; `host` supplies the clock.
    pub fn new(config: Config, model: Box<dyn Model>, tools: Registry, host: Rc<dyn Host>) -> Self {
        Agent {
            config,
            model,
            tools,
            abort: Abort::default(),
            host,
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
        while trajectory.stop.is_none() {
            self.step(&mut trajectory, on_event).await;
        }
        trajectory
    }

    /// A new, empty trajectory for `task` (the `memory = [task]` of the pseudocode).
    pub fn start(&self, task: &str) -> Trajectory {
        Trajectory::new(
            task,
            self.config.format.name(),
            self.config.lang.name(),
            &self.model.name(),
        )
    }

    /// The exact prompt the model receives for the next step of `trajectory`.
    pub fn prompt(&self, trajectory: &Trajectory) -> Vec<Message> {
        self.format_of(trajectory)
            .render(trajectory, &self.tools, self.config.lang)
    }

    /// The tool specs sent with the next request for `trajectory`: all of them in native tool
    /// calling, none in the text formats (where the prompt describes the tools).
    pub fn tool_specs(&self, trajectory: &Trajectory) -> Vec<ToolSpec> {
        match self.format_of(trajectory).is_native() {
            true => self.tools.specs().cloned().collect(),
            false => Vec::new(),
        }
    }

    /// Advances `trajectory` by one step (or ends it). Runs can be resumed or forked from any
    /// trajectory: everything the step needs is in it.
    pub async fn step(&self, trajectory: &mut Trajectory, on_event: Observer<'_>) {
        if trajectory.stop.is_some() {
            return;
        }
        if self.abort.is_aborted() {
            return end(trajectory, StopReason::Aborted, None, on_event);
        }
        if trajectory.steps.len() as u32 >= self.config.max_steps {
            let message = format!("no answer after {} steps", self.config.max_steps);
            return end(trajectory, StopReason::MaxSteps, Some(message), on_event);
        }
        let started = self.host.now_ms();
        let index = trajectory.steps.len() as u32 + 1;
        let mut step = Step {
            index,
            ..Step::default()
        };
        on_event(&Event::Step { index });

        // Thought + Action: the model continues the prompt rendered from the trajectory.
        let verdict = self.think(trajectory, &mut step, on_event).await;

        // Act: record the answer, or run the tool and keep what it returns.
        let stopped = match verdict {
            Ok(Verdict::Final { answer, .. }) => {
                on_event(&Event::Answer {
                    index,
                    text: &answer,
                });
                step.answer = Some(answer.clone());
                trajectory.answer = Some(answer);
                Some((StopReason::Answer, None))
            }
            Ok(Verdict::Action { tool, input, .. }) => {
                self.act(trajectory, &mut step, tool, input, on_event).await;
                None
            }
            Ok(Verdict::Error { why, message, .. }) => {
                // A mistake of the model: it reads the explanation next turn and tries again.
                trajectory.stats.n_badcalls += 1;
                on_event(&Event::Repair {
                    index,
                    why: why.name(),
                    message: &message,
                });
                step.observation = Some(message.clone());
                let why = why.name().to_string();
                step.repair = Some(Repair { why, message });
                None
            }
            Err(error) => {
                let reason = if error.kind == ErrorKind::Aborted {
                    StopReason::Aborted
                } else {
                    StopReason::Error
                };
                step.notes.push(format!("interrupted: {error}"));
                Some((reason, Some(error.message)))
            }
        };

        // Keep the step, even an interrupted one: nothing already done is lost.
        let elapsed = self.host.now_ms() - started;
        trajectory.stats.elapsed_ms = micros(trajectory.stats.elapsed_ms + elapsed);
        if stopped.is_none() || !step.raw.is_empty() || step.answer.is_some() {
            trajectory.steps.push(step);
            trajectory.stats.steps = trajectory.steps.len() as u32;
        }
        if let Some((reason, message)) = stopped {
            end(trajectory, reason, message, on_event);
        }
    }

    /// The format of the next step: the trajectory's own, which changes when `auto` falls
    /// back to text ReAct (the trajectory is the single source of truth, so a resumed run
    /// continues in the format it had reached).
    pub fn format_of(&self, trajectory: &Trajectory) -> Format {
        Format::from_name(&trajectory.react_format).unwrap_or(self.config.format)
    }

    /// Asks the model for the next Thought and Action, reading its reply as it streams, and
    /// asks again (up to `retries` times) when the reply cannot be read.
    async fn think(
        &self,
        trajectory: &mut Trajectory,
        step: &mut Step,
        on_event: Observer<'_>,
    ) -> Result<Verdict, Error> {
        let index = step.index;
        let mut attempt = 0;
        loop {
            let format = self.format_of(trajectory);
            let native = format.is_native();
            let messages = self.prompt(trajectory);
            // The stop sequence is sent to the provider, and enforced here too: the parser
            // cuts the reply at an `Observation` the model invents, and we stop the stream
            // right there. (Native tool calling needs neither: the reply ends at the call.)
            let stop = format.stop_sequences(index);
            let specs: Vec<ToolSpec> = match native {
                true => self.tools.specs().cloned().collect(),
                false => Vec::new(),
            };
            let mut parser = StreamParser::new(format.parse_options(&self.tools));
            let mut text = String::new(); // the whole reply as received
                                          // What the stream has announced so far; the rest is announced after `finish`.
            let (mut tool, mut thought_sent, mut action_sent) = (String::new(), false, false);
            let mut notes = Vec::new();
            let mut first_token = None;
            let started = self.host.now_ms();
            let (abort, host) = (&self.abort, &self.host);
            let mut on_delta = |delta: Delta| -> bool {
                if abort.is_aborted() {
                    return false;
                }
                let delta = match delta {
                    Delta::Text(delta) => delta,
                    Delta::Note(note) => {
                        on_event(&Event::Note { index, text: note });
                        notes.push(note.to_string());
                        return true;
                    }
                };
                first_token.get_or_insert_with(|| micros(host.now_ms() - started));
                text.push_str(delta);
                on_event(&Event::Token { index, text: delta });
                if native {
                    return true; // the text is the thought (or the answer); nothing to parse yet
                }
                for event in parser.push_str(delta) {
                    match event {
                        ParseEvent::Thought(text) => {
                            thought_sent = true;
                            on_event(&Event::Thought { index, text: &text });
                        }
                        ParseEvent::Action(name) => tool = name,
                        ParseEvent::ActionInput(input) => {
                            action_sent = true;
                            on_event(&Event::Action {
                                index,
                                tool: &tool,
                                input: &input,
                            });
                        }
                        // The model began to invent an Observation: stop the stream here.
                        ParseEvent::Cut { .. } => return false,
                    }
                }
                true
            };
            let request = Request {
                messages: &messages,
                stop: &stop,
                tools: &specs,
                abort: &self.abort,
            };
            let reply = self.model.complete(request, &mut on_delta).await;
            step.timing.model_ms = micros(step.timing.model_ms + self.host.now_ms() - started);
            step.timing.first_token_ms = step.timing.first_token_ms.or(first_token);
            step.notes.append(&mut notes);
            trajectory.stats.n_calls += 1;
            step.raw = match native {
                true => text.clone(),
                false => parser.text().to_string(),
            };
            if self.abort.is_aborted() {
                return Err(Error::aborted());
            }
            let reply = match reply {
                // `auto`: the endpoint does not do native tool calling; continue in text.
                Err(e) if e.kind == ErrorKind::ToolsRejected && format == Format::Auto => {
                    self.switch(trajectory, step, &e.message, on_event);
                    continue;
                }
                Err(mut e) if e.kind == ErrorKind::ToolsRejected => {
                    e.message +=
                        "; choose the format \"auto\" to fall back to text ReAct, or \"mrkl\"";
                    return Err(e);
                }
                other => other?,
            };
            if let Some(usage) = reply.usage {
                trajectory.stats.prompt_tokens += usage.prompt_tokens;
                trajectory.stats.completion_tokens += usage.completion_tokens;
                let total = step.usage.get_or_insert_with(Default::default);
                total.prompt_tokens += usage.prompt_tokens;
                total.completion_tokens += usage.completion_tokens;
            }
            let parsed = if native {
                let parsed = self.read_native(&text, &reply.tool_calls, format);
                if parsed.is_none() {
                    let why = "the model answered in text ReAct instead of calling a tool";
                    self.switch(trajectory, step, why, on_event);
                }
                parsed.unwrap_or_else(|| parse(&text, &Format::Mrkl.parse_options(&self.tools)))
            } else {
                parser.finish()
            };
            if parsed.cut_at.is_some() {
                // Saved: what arrived after the cut, and what the model had not sent yet.
                let saved = text.len().saturating_sub(step.raw.len()) as u32 + reply.unsent_chars;
                step.saved_chars += saved;
                trajectory.stats.saved_chars += u64::from(saved);
            }
            for note in &parsed.notes {
                on_event(&Event::Note { index, text: note });
            }
            match parsed.verdict {
                // Like the paper's code: an unreadable reply is a bad call, asked again. (An
                // unknown tool is readable: the repair naming the valid tools helps more.)
                Verdict::Error { why, message, .. }
                    if attempt < self.config.retries && why != Why::UnknownTool =>
                {
                    attempt += 1;
                    trajectory.stats.n_badcalls += 1;
                    let note = format!(
                        "the reply could not be read ({why}); asking again ({attempt}/{})",
                        self.config.retries
                    );
                    on_event(&Event::Note { index, text: &note });
                    step.retries.push(Retry {
                        raw: std::mem::take(&mut step.raw),
                        why: why.name().to_string(),
                        message,
                    });
                }
                verdict => {
                    let (Verdict::Action { thought, .. }
                    | Verdict::Final { thought, .. }
                    | Verdict::Error { thought, .. }) = &verdict;
                    step.thought = thought.trim().to_string();
                    if !thought_sent && !step.thought.is_empty() {
                        on_event(&Event::Thought {
                            index,
                            text: &step.thought,
                        });
                    }
                    if let (Verdict::Action { tool, input, .. }, false) = (&verdict, action_sent) {
                        on_event(&Event::Action { index, tool, input });
                    }
                    step.notes.extend(parsed.notes);
                    return Ok(verdict);
                }
            }
        }
    }

    /// Reads a reply in native tool calling: a call is the action (the text before it the
    /// thought), text alone the answer. `None` when `auto` should fall back: the model wrote
    /// text ReAct (labels like `Action:` or `Final Answer:`) instead of calling a tool.
    fn read_native(&self, text: &str, calls: &[ToolCall], format: Format) -> Option<Parsed> {
        let mut notes = Vec::new();
        let verdict = if let Some(call) = calls.first() {
            if calls.len() > 1 {
                let ignored: Vec<&str> = calls[1..].iter().map(|c| c.name.as_str()).collect();
                notes.push(format!(
                    "the model called {} tools at once; tao runs one per step, so it ran the first and ignored: {}",
                    calls.len(),
                    ignored.join(", ")
                ));
            }
            Verdict::Action {
                thought: text.to_string(),
                tool: call.name.clone(),
                input: call.arguments.clone(),
            }
        } else {
            if format == Format::Auto {
                let parsed = parse(text, &Format::Mrkl.parse_options(&self.tools));
                let plain = matches!(
                    &parsed.verdict,
                    Verdict::Error {
                        why: Why::NoAction | Why::Empty,
                        ..
                    }
                );
                if !plain {
                    return None;
                }
            }
            match text.trim() {
                "" => Verdict::Error {
                    thought: String::new(),
                    why: Why::Empty,
                    message: "Your reply was empty. Call one of the tools, or reply with the final answer.".into(),
                },
                answer => Verdict::Final {
                    thought: String::new(),
                    answer: answer.to_string(),
                },
            }
        };
        Some(Parsed {
            verdict,
            notes,
            cut_at: None,
        })
    }

    /// Continues the run in the `mrkl` text format, and says so in the step.
    fn switch(
        &self,
        trajectory: &mut Trajectory,
        step: &mut Step,
        why: &str,
        on_event: Observer<'_>,
    ) {
        let from = std::mem::replace(&mut trajectory.react_format, Format::Mrkl.name().into());
        let to = trajectory.react_format.clone();
        on_event(&Event::Switch {
            index: step.index,
            from: &from,
            to: &to,
            why,
        });
        step.switch = Some(Switch {
            from,
            to,
            why: why.to_string(),
        });
    }

    /// Runs the tool the model chose and records the observation.
    async fn act(
        &self,
        trajectory: &mut Trajectory,
        step: &mut Step,
        tool: String,
        input: Value,
        on_event: Observer<'_>,
    ) {
        let index = step.index;
        step.action = Some(Action {
            tool: tool.clone(),
            input: input.clone(),
        });
        let Some(found) = self.tools.get(&tool) else {
            // The parser checks names against the registry, so this is only reached when a
            // tool was removed mid-run; it is still the model's mistake to repair.
            let message = format!(
                "Unknown tool \"{tool}\". Valid tools: {}.",
                self.tools.names().join(", ")
            );
            return self.repair(trajectory, step, "unknown_tool", message, on_event);
        };
        let spec = found.spec();
        // The model's mistake, whether the checker or the tool finds it.
        let bad_input = |problem: String| {
            format!(
                "Invalid input for {tool}: {problem}. Its input schema is {}.",
                crate::to_json::to_string(&spec.parameters)
            )
        };
        let checked = match found.checks_input() {
            true => schema::check(&spec.parameters, &input),
            false => Ok(input),
        };
        let input = match checked {
            Ok(input) => input,
            Err(problem) => {
                let message = bad_input(problem);
                return self.repair(trajectory, step, "bad_input", message, on_event);
            }
        };
        if spec.needs_approval {
            let approved = self.host.approve(&spec.name, &input).await;
            on_event(&Event::Approval {
                index,
                tool: &spec.name,
                approved,
            });
            step.approved = Some(approved);
            if !approved {
                let text = format!(
                    "The user denied this call to {tool}. Do not repeat it; continue another way, or give your final answer."
                );
                return observe(step, ToolOutput::from(text), on_event);
            }
        }
        let started = self.host.now_ms();
        let limit = spec.timeout_ms.unwrap_or(self.config.tool_timeout_ms);
        let result = with_timeout(&*self.host, limit, found.call(&input)).await;
        step.timing.tool_ms = micros(self.host.now_ms() - started);
        match result {
            Some(Ok(output)) => observe(step, output, on_event),
            Some(Err(ToolError::BadInput(problem))) => {
                self.repair(trajectory, step, "bad_input", bad_input(problem), on_event);
            }
            Some(Err(ToolError::Failed(problem))) => {
                let text = format!("Error: {tool} failed: {problem}");
                observe(step, ToolOutput::from(text), on_event);
            }
            None => {
                let text =
                    format!("Error: {tool} did not answer within {limit} ms and was abandoned.");
                observe(step, ToolOutput::from(text), on_event);
            }
        }
    }

    fn repair(
        &self,
        trajectory: &mut Trajectory,
        step: &mut Step,
        why: &str,
        message: String,
        on_event: Observer<'_>,
    ) {
        trajectory.stats.n_badcalls += 1;
        on_event(&Event::Repair {
            index: step.index,
            why,
            message: &message,
        });
        step.observation = Some(message.clone());
        step.repair = Some(Repair {
            why: why.into(),
            message,
        });
    }
}

/// Records what a tool returned as the step's observation.
fn observe(step: &mut Step, output: ToolOutput, on_event: Observer<'_>) {
    on_event(&Event::Observation {
        index: step.index,
        text: &output.text,
        fuel: output.fuel,
    });
    step.fuel = output.fuel;
    step.observation = Some(output.text);
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
