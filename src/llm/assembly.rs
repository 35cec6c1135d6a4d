//! Putting a reply together from the pieces a provider's stream decoder finds: text and
//! reasoning go to the reader at once (who may stop the stream), native tool calls are
//! assembled from their start and their argument fragments, and the latest token counts are
//! kept (and passed on as they come, so they outlive a stream that then fails). Blocks tao
//! does not use (a server-side tool's call and result) are skipped with a note.

use super::provider::{Finish, Piece};
use super::{Delta, OnDelta, Reply, Thinking, ToolCall};
use crate::chat::Usage;
use crate::json::Value;

/// A tool call whose arguments are still arriving.
struct PendingCall {
    index: usize,
    call: ToolCall,
    json: String,
}

/// A reply being put together from pieces.
#[derive(Default)]
pub(crate) struct Assembly {
    calls: Vec<PendingCall>,
    usage: Option<Usage>,
    thinking: Thinking,
    /// Blocks skipped (their deltas are ignored too).
    skipped: Vec<usize>,
    /// What the model said when it refused (OpenAI's `refusal`, Anthropic's explanation).
    pub(crate) refusal: String,
    /// Characters of text so far.
    pub(crate) chars: usize,
    /// Why the reply ended, once a stop reason arrived.
    pub(crate) finished: Option<Finish>,
    /// The end of the stream arrived.
    pub(crate) done: bool,
}

impl Assembly {
    /// Applies `pieces`; `Ok(false)` when the reader stopped the stream.
    pub(crate) fn apply(
        &mut self,
        pieces: Vec<Piece>,
        on_delta: OnDelta<'_>,
    ) -> Result<bool, String> {
        for piece in pieces {
            match piece {
                Piece::Text(text) => {
                    self.chars += text.chars().count();
                    if !on_delta(Delta::Text(&text)) {
                        return Ok(false);
                    }
                }
                Piece::Reasoning(text) => {
                    self.thinking.text.push_str(&text);
                    if !on_delta(Delta::Reasoning(&text)) {
                        return Ok(false);
                    }
                }
                Piece::Signature(signature) => self.thinking.signature.push_str(&signature),
                Piece::Redacted(data) => self.thinking.redacted.push(data),
                Piece::Refusal(text) => self.refusal.push_str(&text),
                Piece::Skipped { index, kind } => {
                    self.skipped.push(index);
                    let note = format!("skipped a \"{kind}\" block of the reply (a provider-side tool tao does not run or show)");
                    on_delta(Delta::Note(&note));
                }
                Piece::ToolStart { index, id, name } => match self.pending(index) {
                    Some(pending) => {
                        pending.call.name.push_str(&name);
                        if pending.call.id.is_empty() {
                            pending.call.id = id;
                        }
                    }
                    None => self.calls.push(PendingCall {
                        index,
                        call: ToolCall {
                            id,
                            name,
                            arguments: Value::Null,
                        },
                        json: String::new(),
                    }),
                },
                // A skipped block's input (a server-side tool's) is skipped with it.
                Piece::ToolArgs { index, .. } if self.skipped.contains(&index) => {}
                Piece::ToolArgs { index, json } => match self.pending(index) {
                    Some(pending) => pending.json.push_str(&json),
                    None => {
                        return Err(format!(
                            "arguments arrived for tool call {index}, which never started"
                        ))
                    }
                },
                Piece::Usage {
                    prompt,
                    completion,
                    cached,
                } => {
                    let usage = self.usage.get_or_insert_with(Usage::default);
                    usage.prompt_tokens = prompt.unwrap_or(usage.prompt_tokens);
                    usage.completion_tokens = completion.unwrap_or(usage.completion_tokens);
                    usage.cached_tokens = cached.unwrap_or(usage.cached_tokens);
                    on_delta(Delta::Usage(*usage));
                }
                Piece::Finished(why) => self.finished = Some(why),
                Piece::Done => self.done = true,
                Piece::Error(message) => {
                    return Err(format!(
                        "the endpoint reported an error mid-stream: {message}"
                    ))
                }
            }
        }
        Ok(true)
    }

    fn pending(&mut self, index: usize) -> Option<&mut PendingCall> {
        self.calls.iter_mut().find(|c| c.index == index)
    }

    pub(crate) fn finish(self) -> Reply {
        let tool_calls = self
            .calls
            .into_iter()
            .map(|PendingCall { mut call, json, .. }| {
                // Arguments that are not JSON are passed on as text: the tool's input
                // validation then tells the model what it expected.
                call.arguments = match json.trim() {
                    "" => Value::Object(Default::default()),
                    text => crate::json::from_str(text).unwrap_or(Value::String(json)),
                };
                call
            })
            .collect();
        let t = self.thinking;
        let shown = !t.text.is_empty() || !t.signature.is_empty() || !t.redacted.is_empty();
        Reply {
            usage: self.usage,
            tool_calls,
            thinking: shown.then_some(t),
            unsent_chars: 0,
        }
    }
}
