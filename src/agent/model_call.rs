//! One call of the model: the prompt goes out, the reply streams back and is read as it
//! arrives ([`Agent::stream`]), and the call is recorded in the step ([`Agent::record`]); a reply
//! that cannot be read is asked again ([`Agent::reply`]).
//!
//! Reading while streaming is what lets tao stop a model that starts inventing its own
//! `Observation`: the parser cuts the reply there and the stream is closed at once (the stop
//! sequence is sent to the provider too, but not every provider honours it). The events the
//! page draws come from here: each token, the thought and the action as soon as they are
//! known. Native tool calling needs no parsing while streaming: the reply ends at the call.

use super::{micros, Agent};
use crate::chat::ToolCall;
use crate::error::Error;
use crate::event::{Event, Observer};
use crate::format::parse::{parse, ParseEvent, Parsed, StreamParser, Verdict, Why};
use crate::format::{tools, Format};
use crate::llm::{Constraint, Delta, Reply, Request, Thinking};
use crate::prompt::Prompt;
use crate::trajectory::{ModelCall, Repair, Step, Switch, Trajectory, CUT_KEPT};

/// What one model call came to.
pub(super) enum Called {
    /// The reply, read; and whether its thought and action were already announced while it
    /// streamed (the rest is announced once the reply is accepted).
    Read {
        parsed: Parsed,
        thought_sent: bool,
        action_sent: bool,
        /// The native tool calls of the reply, in order (the action is the first).
        calls: Vec<ToolCall>,
    },
    /// The run changed format (`auto` fell back to text ReAct): ask again in the new one.
    Switched,
}

/// What came in while the model replied: the call so far (its timing, usage, reasoning), the
/// text as received and as read, and how it ended.
struct Streamed {
    call: ModelCall,
    reply: Result<Reply, Error>,
    /// The whole reply as received.
    text: String,
    parser: StreamParser,
    /// The tool the stream has named so far, for the action it announces when its input is read.
    tool: String,
    /// What the stream has announced so far; the rest is announced once the reply is read.
    thought_sent: bool,
    action_sent: bool,
    /// Notes the model streamed (a retry, a dropped parameter).
    notes: Vec<String>,
}

impl Agent {
    /// The model's reply for `step`, read, with its native tool calls (the verdict's action is
    /// the first of them). Like the paper's code, a reply that cannot be read is a bad call and
    /// is asked again (`config.retries` times), since a second try often works; after that it
    /// is repaired. (An unknown tool is readable: the repair naming the valid tools helps more
    /// than asking again.)
    pub(super) async fn reply(
        &self,
        trajectory: &mut Trajectory,
        prompt: &mut Prompt,
        step: &mut Step,
        on_event: Observer<'_>,
    ) -> Result<(Verdict, Vec<ToolCall>), Error> {
        let index = step.index;
        let mut retries = 0;
        loop {
            let Called::Read {
                parsed,
                thought_sent,
                action_sent,
                calls,
            } = self.call(trajectory, prompt, step, on_event).await?
            else {
                continue; // switched to text ReAct: ask again in it
            };
            match parsed.verdict {
                Verdict::Error { why, message, .. }
                    if retries < self.config.retries && why != Why::UnknownTool =>
                {
                    retries += 1;
                    let (why_name, most) = (why.name(), self.config.retries);
                    let note = format!(
                        "the reply could not be read ({why_name}); asking again ({retries}/{most})"
                    );
                    on_event(&Event::Note { index, text: &note });
                    if let Some(call) = step.model_calls.last_mut() {
                        call.retried = Some(Repair { why, message });
                    }
                }
                verdict => {
                    announce(step, &verdict, (thought_sent, action_sent), on_event);
                    step.notes.extend(parsed.notes);
                    return Ok((verdict, calls));
                }
            }
        }
    }

    /// Calls the model once on the prompt rendered from `trajectory`, and records the call in
    /// `step`. An `Err` is a program error (the endpoint failed, the run was aborted): the call
    /// is still recorded, with the text that arrived.
    async fn call(
        &self,
        trajectory: &mut Trajectory,
        prompt: &mut Prompt,
        step: &mut Step,
        on_event: Observer<'_>,
    ) -> Result<Called, Error> {
        let index = step.index;
        // Recorded as it goes, so the run's counts include the call in flight.
        step.model_calls.push(ModelCall::default());
        let calls = &step.model_calls;
        let retried = calls
            .len()
            .checked_sub(2)
            .and_then(|i| calls[i].retried.as_ref());
        on_event(&Event::ModelCall {
            index,
            n: calls.len() as u32,
            retried,
            trajectory,
            step,
        });
        let streamed = self.stream(trajectory, prompt, index, on_event).await;
        self.record(trajectory, step, streamed, on_event)
    }

    /// Sends the prompt and reads the reply as it streams: each piece of text is a `token`
    /// event and goes through the parser, which announces the thought and the action as soon
    /// as each is known, and cuts the stream at an invented `Observation`.
    async fn stream(
        &self,
        trajectory: &Trajectory,
        prompt: &mut Prompt,
        index: u32,
        on_event: Observer<'_>,
    ) -> Streamed {
        let format = trajectory.format;
        let mut s = Streamed {
            call: ModelCall::default(),
            reply: Ok(Reply::default()),
            text: String::new(),
            parser: StreamParser::new(format.parse_options(&self.tools)),
            tool: String::new(),
            thought_sent: false,
            action_sent: false,
            notes: Vec::new(),
        };
        let exemplars = self.config.exemplars.as_deref();
        let messages = prompt.next(trajectory, &self.tools, exemplars);
        let specs = self.tool_specs(trajectory);
        // The stop sequence is sent to the provider, and enforced here too (see above).
        let stop = format.stop_sequences(index);
        let started = self.host.now_ms();
        let mut on_delta = |delta: Delta| -> bool {
            if self.abort.is_aborted() {
                return false;
            }
            let Delta::Text(piece) = delta else {
                s.aside(index, delta, on_event);
                return true;
            };
            let first = || micros(self.host.now_ms() - started);
            s.call.first_token_ms.get_or_insert_with(first);
            s.text.push_str(piece);
            on_event(&Event::Token { index, text: piece });
            if !format.is_native() {
                s.read(index, piece, on_event);
            }
            // The model began to invent an Observation: the stream stops here.
            !s.parser.is_cut()
        };
        let names = self.constrained_tools(format);
        let constraint = (names.as_ref()).map(|tools| Constraint {
            format: format.name(),
            step: index,
            tools,
        });
        let request = Request {
            messages,
            stop: &stop,
            tools: &specs,
            abort: &self.abort,
            constraint,
        };
        s.reply = self.model.complete(request, &mut on_delta).await;
        s.call.ms = micros(self.host.now_ms() - started);
        s
    }

    /// Records the model call in `step` (in place of the one in flight) and reads the reply:
    /// the parser's verdict, or the native tool calls. A reply refused for its tools (`auto`)
    /// switches the run to text ReAct.
    fn record(
        &self,
        trajectory: &mut Trajectory,
        step: &mut Step,
        mut s: Streamed,
        on_event: Observer<'_>,
    ) -> Result<Called, Error> {
        let format = trajectory.format;
        step.notes.append(&mut s.notes);
        // The text read: up to the cut (what came after it is counted below), else all.
        s.call.raw = match s.parser.is_cut() && !format.is_native() {
            true => s.parser.text().to_string(),
            false => s.text.clone(),
        };
        if self.abort.is_aborted() {
            keep(step, s.call);
            return Err(Error::aborted());
        }
        let reply = match s.reply {
            Ok(reply) => reply,
            // `auto` on an endpoint that refuses native tool calling: go on in text ReAct.
            Err(error) => {
                keep(step, s.call);
                let why = tools::rejected(format, error)?;
                self.switch(trajectory, step, &why, on_event);
                return Ok(Called::Switched);
            }
        };
        s.call.usage = reply.usage.or(s.call.usage);
        s.call.thinking = reply.thinking.clone().or(s.call.thinking);
        let parsed = match format.is_native() {
            true => self.read_native(trajectory, step, &s.text, &reply, on_event),
            false => s.parser.finish(),
        };
        if parsed.cut_at.is_some() {
            // Saved: what arrived after the cut, and what the model had not sent yet.
            let kept = s.call.raw.len();
            s.call.saved_chars = s.text.len().saturating_sub(kept) as u32 + reply.unsent_chars;
            let tail = s.text.get(kept..).unwrap_or("");
            let mut end = tail.len().min(CUT_KEPT);
            while !tail.is_char_boundary(end) {
                end -= 1;
            }
            s.call.cut = Some(tail[..end].to_string());
        }
        keep(step, s.call);
        for note in &parsed.notes {
            on_event(&Event::Note {
                index: step.index,
                text: note,
            });
        }
        Ok(Called::Read {
            parsed,
            thought_sent: s.thought_sent,
            action_sent: s.action_sent,
            calls: reply.tool_calls,
        })
    }

    /// A native reply read: its tool calls, or, when the model answered in text ReAct instead,
    /// its text read as `mrkl` (the run switches to it).
    fn read_native(
        &self,
        trajectory: &mut Trajectory,
        step: &mut Step,
        text: &str,
        reply: &Reply,
        on_event: Observer<'_>,
    ) -> Parsed {
        let names = self.tools.names();
        match tools::read(text, &reply.tool_calls, trajectory.format, &names) {
            Ok(parsed) => parsed,
            Err(why) => {
                self.switch(trajectory, step, why, on_event);
                parse(text, &Format::Mrkl.parse_options(&self.tools))
            }
        }
    }

    /// Continues the run in the `mrkl` text format, and says so in the step.
    fn switch(
        &self,
        trajectory: &mut Trajectory,
        step: &mut Step,
        why: &str,
        on_event: Observer<'_>,
    ) {
        let from = std::mem::replace(&mut trajectory.format, Format::Mrkl);
        let to = trajectory.format;
        on_event(&Event::Switch {
            index: step.index,
            from: from.name(),
            to: to.name(),
            why,
        });
        step.switch = Some(Switch {
            from,
            to,
            why: why.to_string(),
        });
    }
}

impl Streamed {
    /// Takes what the model streamed beside its text: a note for the reader, a piece of its
    /// reasoning (shown, never parsed), its token counts so far (kept as they come, so a stream
    /// that then fails still has its figures).
    fn aside(&mut self, index: u32, delta: Delta, on_event: Observer<'_>) {
        match delta {
            Delta::Note(text) => {
                on_event(&Event::Note { index, text });
                self.notes.push(text.to_string());
            }
            Delta::Reasoning(text) => {
                let thinking = self.call.thinking.get_or_insert_with(Thinking::default);
                thinking.text.push_str(text);
                on_event(&Event::Reasoning { index, text });
            }
            Delta::Usage(usage) => self.call.usage = Some(usage),
            Delta::Download { loaded, total } => on_event(&Event::Download {
                index,
                loaded,
                total,
            }),
            Delta::Text(_) => {}
        }
    }

    /// Reads a piece of a text reply, announcing the thought and the action as soon as the
    /// parser knows them.
    fn read(&mut self, index: u32, piece: &str, on_event: Observer<'_>) {
        for event in self.parser.push_str(piece) {
            match event {
                ParseEvent::Thought(text) => {
                    self.thought_sent = true;
                    on_event(&Event::Thought { index, text: &text });
                }
                ParseEvent::Action(name) => self.tool = name,
                ParseEvent::ActionInput(input) => {
                    self.action_sent = true;
                    let tool_call = 0;
                    let tool = &self.tool;
                    on_event(&Event::Action {
                        index,
                        tool_call,
                        tool,
                        input: &input,
                    });
                }
                ParseEvent::Cut { .. } => {}
            }
        }
    }
}

/// Keeps `call` in `step` in place of the call in flight, the last.
fn keep(step: &mut Step, call: ModelCall) {
    match step.model_calls.last_mut() {
        Some(in_flight) => *in_flight = call,
        None => step.model_calls.push(call),
    }
}

/// Announces the thought and the first action of the move `verdict`, those the stream did not
/// announce already (`sent`), and keeps the thought in `step`.
fn announce(step: &mut Step, verdict: &Verdict, sent: (bool, bool), on_event: Observer<'_>) {
    let index = step.index;
    let (Verdict::Action { thought, .. }
    | Verdict::Final { thought, .. }
    | Verdict::Error { thought, .. }) = verdict;
    step.thought = thought.trim().to_string();
    if !sent.0 && !step.thought.is_empty() {
        let text = &step.thought;
        on_event(&Event::Thought { index, text });
    }
    if let (Verdict::Action { tool, input, .. }, false) = (verdict, sent.1) {
        let tool_call = 0;
        on_event(&Event::Action {
            index,
            tool_call,
            tool,
            input,
        });
    }
}
