//! Models: one small trait, one file per provider.
//!
//! A model receives the prompt as chat messages and streams its reply as text deltas. The
//! caller reads each delta as it arrives and may say "stop" (by returning `false`): that is how
//! the stop sequence at `Observation` is enforced on the client side even when a provider
//! ignores `stop`, and how an abort ends a stream at once. The scripted model is a provider like
//! any other (the offline default), not a test helper.

pub mod scripted;

use crate::error::Error;
use crate::host::LocalBoxFuture;
use crate::trajectory::Usage;
use serde::{Deserialize, Serialize};

/// Who says a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The instructions (format, tools).
    System,
    /// The question, and each observation.
    User,
    /// The model's own earlier turns.
    Assistant,
}

/// One chat message of the prompt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub content: String,
}

impl Message {
    /// A message from `role`.
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        Message {
            role,
            content: content.into(),
        }
    }
}

/// What the model is asked.
pub struct Request<'a> {
    /// The whole prompt, rendered from the trajectory.
    pub messages: &'a [Message],
    /// Where the model should stop (providers that honour it save tokens; tao also stops
    /// reading there itself).
    pub stop: &'a [String],
}

/// What the model said.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reply {
    /// Token counts, when the provider reports them.
    pub usage: Option<Usage>,
}

/// Receives each streamed delta; returns `false` to stop the stream (client-side stop, abort).
pub type OnDelta<'a> = &'a mut dyn FnMut(&str) -> bool;

/// A language model (or anything that plays one).
pub trait Model {
    /// A short name for the trajectory, e.g. `scripted:apple-ceo`.
    fn name(&self) -> String;
    /// Streams a reply to `request` into `on_delta`, stopping early when it returns `false`.
    fn complete<'a>(
        &'a self,
        request: Request<'a>,
        on_delta: OnDelta<'a>,
    ) -> LocalBoxFuture<'a, Result<Reply, Error>>;
}
