//! Putting a reply together from the pieces a provider's stream decoder finds: text goes to
//! the reader at once (who may stop the stream), native tool calls are assembled from their
//! start and their argument fragments, and the latest token counts are kept.

use super::provider::Piece;
use super::{Delta, OnDelta, Reply, ToolCall};
use crate::chat::Usage;
use serde_json::Value;

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
    /// Characters of text so far.
    pub(crate) chars: usize,
    /// A stop reason arrived.
    pub(crate) finished: bool,
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
                Piece::ToolArgs { index, json } => match self.pending(index) {
                    Some(pending) => pending.json.push_str(&json),
                    None => {
                        return Err(format!(
                            "arguments arrived for tool call {index}, which never started"
                        ))
                    }
                },
                Piece::Usage { prompt, completion } => {
                    let usage = self.usage.get_or_insert_with(Usage::default);
                    usage.prompt_tokens = prompt.unwrap_or(usage.prompt_tokens);
                    usage.completion_tokens = completion.unwrap_or(usage.completion_tokens);
                }
                Piece::Finished => self.finished = true,
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
                    text => serde_json::from_str(text).unwrap_or(Value::String(json)),
                };
                call
            })
            .collect();
        Reply {
            usage: self.usage,
            tool_calls,
            unsent_chars: 0,
        }
    }
}
