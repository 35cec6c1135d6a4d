//! One call of the model: the prompt goes out, the reply streams back and is read as it
//! arrives, and the call is recorded in the step.
//!
//! Reading while streaming is what lets tao stop a model that starts inventing its own
//! `Observation`: the parser cuts the reply there and the stream is closed at once (the stop
//! sequence is sent to the provider too, but not every provider honours it). The events the
//! page draws come from here: each token, the thought and the action as soon as they are
//! known. Native tool calling needs no parsing while streaming: the reply ends at the call.

use super::{micros, Agent};
use crate::error::Error;
use crate::event::{Event, Observer};
use crate::format::parse::{parse, ParseEvent, Parsed, StreamParser};
use crate::format::{tools, Format};
use crate::llm::{Delta, Request, Thinking, ToolCall};
use crate::trajectory::{ModelCall, Step, Switch, Trajectory, CUT_KEPT};

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

impl Agent {
    /// Calls the model once on the prompt rendered from `trajectory`, streaming its reply into
    /// events, and records the call in `step`. An `Err` is a program error (the endpoint
    /// failed, the run was aborted): the call is still recorded, with the text that arrived.
    pub(super) async fn call(
        &self,
        trajectory: &mut Trajectory,
        step: &mut Step,
        on_event: Observer<'_>,
    ) -> Result<Called, Error> {
        let index = step.index;
        let format = trajectory.format;
        let retry = step.calls.last().is_some_and(|c| c.retried.is_some());
        let n = step.calls.len() as u32 + 1;
        on_event(&Event::Call { index, n, retry });
        // The prompt, rendered from the trajectory.
        let messages = self.prompt(trajectory);
        // The stop sequence is sent to the provider, and enforced here too (see above).
        let stop = format.stop_sequences(index);
        let specs = self.tool_specs(trajectory);
        let mut parser = StreamParser::new(format.parse_options(&self.tools));
        let mut text = String::new(); // the whole reply as received
                                      // What the stream has announced so far; the rest is announced once the reply is read.
        let (mut tool, mut thought_sent, mut action_sent) = (String::new(), false, false);
        let mut notes = Vec::new();
        let mut reasoning = String::new();
        let mut call = ModelCall::default();
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
                Delta::Reasoning(text) => {
                    reasoning.push_str(text);
                    on_event(&Event::Reasoning { index, text });
                    return true;
                }
                // Kept as they come, so a stream that then fails still has its figures.
                Delta::Usage(usage) => {
                    call.usage = Some(usage);
                    return true;
                }
            };
            call.first_token_ms
                .get_or_insert_with(|| micros(host.now_ms() - started));
            text.push_str(delta);
            on_event(&Event::Token { index, text: delta });
            if format.is_native() {
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
                            call: 0,
                            tool: &tool,
                            input: &input,
                        });
                    }
                    ParseEvent::Cut { .. } => {}
                }
            }
            // The model began to invent an Observation: the stream stops here.
            !parser.is_cut()
        };
        let request = Request {
            messages: &messages,
            stop: &stop,
            tools: &specs,
            abort: &self.abort,
        };
        let reply = self.model.complete(request, &mut on_delta).await;
        call.ms = micros(self.host.now_ms() - started);
        call.raw = match format.is_native() {
            true => text.clone(),
            // The text read, up to the cut (what came after it is counted below); without a
            // cut, all that came, which the parser has too (taken, not copied).
            false if parser.is_cut() => parser.text().to_string(),
            false => std::mem::take(&mut text),
        };
        step.notes.append(&mut notes);
        if !reasoning.is_empty() {
            let text = reasoning;
            call.thinking = Some(Thinking {
                text,
                ..Thinking::default()
            });
        }
        if self.abort.is_aborted() {
            step.calls.push(call);
            return Err(Error::aborted());
        }
        let reply = match reply {
            Ok(reply) => reply,
            // `auto` on an endpoint that refuses native tool calling: continue in text ReAct.
            Err(error) => {
                step.calls.push(call);
                let why = tools::rejected(format, error)?;
                self.switch(trajectory, step, &why, on_event);
                return Ok(Called::Switched);
            }
        };
        call.usage = reply.usage.or(call.usage);
        call.thinking = reply.thinking.clone().or(call.thinking);
        let parsed = if format.is_native() {
            let names = self.tools.names();
            match tools::read(&text, &reply.tool_calls, format, &names) {
                Ok(parsed) => parsed,
                Err(why) => {
                    self.switch(trajectory, step, why, on_event);
                    parse(&text, &Format::Mrkl.parse_options(&self.tools))
                }
            }
        } else {
            parser.finish()
        };
        if parsed.cut_at.is_some() {
            // Saved: what arrived after the cut, and what the model had not sent yet.
            call.saved_chars =
                text.len().saturating_sub(call.raw.len()) as u32 + reply.unsent_chars;
            let tail = text.get(call.raw.len()..).unwrap_or("");
            let mut end = tail.len().min(CUT_KEPT);
            while !tail.is_char_boundary(end) {
                end -= 1;
            }
            call.cut = Some(tail[..end].to_string());
        }
        step.calls.push(call);
        for note in &parsed.notes {
            on_event(&Event::Note { index, text: note });
        }
        Ok(Called::Read {
            parsed,
            thought_sent,
            action_sent,
            calls: reply.tool_calls,
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
