//! Program errors: a small type with a kind and an actionable message.
//!
//! Only failures of the *program* are errors here: a model endpoint that fails, a malformed
//! trajectory file, a bad setting. Mistakes of the *model* (unparseable text, an unknown tool,
//! bad input, a tool that fails) are not errors: they become observations the model reads on
//! its next turn (see `agent.rs`), the way the ReAct paper's code feeds them back.

use std::fmt;

/// What went wrong, broadly; the message says what exactly and how to fix it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A setting or argument has a value tao cannot use.
    Config,
    /// The model (provider, JS function, scripted policy) failed to produce a reply.
    Model,
    /// A document (trajectory, scenario) could not be read.
    Format,
    /// The run was aborted by the caller.
    Aborted,
    /// The model endpoint could not be reached (offline, CORS, wrong host).
    Network,
    /// The endpoint refused the key (HTTP 401/403).
    Auth,
    /// The endpoint does not know the path or the model (HTTP 404).
    NotFound,
    /// The prompt is longer than the model's context window.
    TooLong,
    /// Rate-limited (HTTP 429) even after waiting and retrying.
    RateLimited,
    /// The endpoint failed (HTTP 5xx, a broken stream) even after retrying.
    Server,
    /// The endpoint does not accept native tool calling (`auto` falls back to text ReAct).
    ToolsRejected,
    /// The endpoint sent nothing for longer than a timeout allows (first byte, or idle).
    Timeout,
    /// The model refused to answer (a refusal, or the provider's content filter).
    Refused,
    /// The reply was cut at the token limit.
    Truncated,
}

/// A program error: a kind and a lowercase message with context and, where one exists, a hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The broad kind.
    pub kind: ErrorKind,
    /// What happened and what to do about it.
    pub message: String,
}

impl Error {
    /// A new error of `kind`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
        }
    }
    /// A bad setting or argument.
    pub fn config(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Config, message)
    }
    /// The model failed.
    pub fn model(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Model, message)
    }
    /// A document could not be read.
    pub fn format(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Format, message)
    }
    /// The user stopped the run (Stop, or the embedder's abort signal).
    pub fn aborted() -> Self {
        Self::new(ErrorKind::Aborted, "aborted by the user")
    }
}

impl ErrorKind {
    /// The kind as JavaScript sees it (`error.kind`): `config`, `model`, `format`, `aborted`,
    /// `network`, `auth`, `not_found`, `too_long`, `rate_limited`, `server`, `tools_rejected`,
    /// `timeout`, `refused`, `truncated`.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Config => "config",
            ErrorKind::Model => "model",
            ErrorKind::Format => "format",
            ErrorKind::Aborted => "aborted",
            ErrorKind::Network => "network",
            ErrorKind::Auth => "auth",
            ErrorKind::NotFound => "not_found",
            ErrorKind::TooLong => "too_long",
            ErrorKind::RateLimited => "rate_limited",
            ErrorKind::Server => "server",
            ErrorKind::ToolsRejected => "tools_rejected",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Refused => "refused",
            ErrorKind::Truncated => "truncated",
        }
    }
}

impl ErrorKind {
    /// The kind called `name` (as [`ErrorKind::name`] writes it), if there is one.
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        use ErrorKind::*;
        [
            Config,
            Model,
            Format,
            Aborted,
            Network,
            Auth,
            NotFound,
            TooLong,
            RateLimited,
            Server,
            ToolsRejected,
            Timeout,
            Refused,
            Truncated,
        ]
        .into_iter()
        .find(|kind| kind.name() == name)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
