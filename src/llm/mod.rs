//! Models: one small trait, one file per provider.
//!
//! A model receives the prompt as chat messages and streams its reply as text deltas. The
//! caller reads each delta as it arrives and may say "stop" (by returning `false`): that is how
//! the stop sequence at `Observation` is enforced on the client side even when a provider
//! ignores `stop`, and how an abort ends a stream at once. Anything that implements [`Model`]
//! plays one: the providers here, a JS function in a page, and the scripted model that plays
//! the built-in scenarios offline (`crate::scenarios::scripted`, which lives with them since it
//! reads replies in their formats; this module knows no prompt format). What a JS function is
//! given, and what it streams and returns, is [`function`]'s JSON.
//!
//! Providers over HTTP: [`openai`] (Chat Completions: OpenAI, Ollama, LM Studio, vLLM,
//! llama.cpp, OpenRouter, Groq, DeepSeek, DashScope, Gemini's compatible endpoint) and
//! [`anthropic`] (Messages). Each maps a [`Request`] to its API's JSON and decodes its stream;
//! [`http`] sends it (through a [`http::Transport`] the host supplies: `fetch` in a browser),
//! retries what is worth retrying and turns failures into errors that name the fix; [`sse`]
//! decodes Server-Sent Events from bytes split anywhere. They are the `providers` feature: the
//! shipped core wasm leaves them out and the page loads them as a module of their own when a
//! run first needs one (see `bindings`); [`provider`]'s settings stay, so a bad setting is still
//! caught when the agent is made.
//!
//! The model in the tab (`provider: "wllama"`) is a provider written in JavaScript, since its
//! engine (llama.cpp in WebAssembly) is: `wllama.js`, which the core loads as a module of its own
//! and calls as a JS model.

#[cfg(feature = "providers")]
pub mod anthropic;
#[cfg(feature = "providers")]
mod assembly;
#[cfg(feature = "providers")]
pub mod connection;
#[cfg(feature = "providers")]
pub mod diagnose;
pub mod function;
#[cfg(feature = "providers")]
pub mod http;
#[cfg(feature = "providers")]
pub mod openai;
pub mod provider;
#[cfg(feature = "providers")]
pub mod sse;

pub use crate::chat::{Message, Role, Thinking, ToolCall};
use crate::chat::{ToolSpec, Usage};
use crate::error::Error;
use crate::host::{Abort, LocalBoxFuture};

/// What the model is asked.
pub struct Request<'a> {
    /// The whole prompt, rendered from the trajectory.
    pub messages: &'a [Message],
    /// Where the model should stop (providers that honour it save tokens; tao also stops
    /// reading there itself).
    pub stop: &'a [String],
    /// The tools offered for native tool calling (empty in the text formats).
    pub tools: &'a [ToolSpec],
    /// Set when the run is aborted: a provider waiting to retry gives up at once.
    pub abort: &'a Abort,
    /// What every reply must be, when the run is `constrained`: one well-formed step. A model
    /// that can hold to a grammar writes it in its own (the in-tab engine: a GBNF grammar,
    /// src/llm/wllama.js); others ignore it.
    pub constraint: Option<Constraint<'a>>,
}

/// One well-formed step of `format` (numbered `step` in the paper's formats), calling one of
/// `tools` or answering.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Constraint<'a> {
    /// The format in force, by name (`mrkl`, `paper`, ...).
    pub format: &'a str,
    /// The step's number.
    pub step: u32,
    /// The tools' names (none in the no-tool modes).
    pub tools: &'a [String],
}

/// What the model said (its text arrived through the deltas).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reply {
    /// Token counts, when the provider reports them.
    pub usage: Option<Usage>,
    /// Native tool calls, in order (the `tools` format).
    pub tool_calls: Vec<ToolCall>,
    /// The model's reasoning, when it showed it (with the signature the API wants back).
    pub thinking: Option<Thinking>,
    /// Characters the model had ready but never sent because the reader stopped it, when the
    /// model knows (the scripted one does; a real provider never says).
    pub unsent_chars: u32,
}

/// What a model streams: its text, its reasoning, its token counts so far, or a note for the
/// reader (a retry, a dropped parameter).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Delta<'a> {
    /// The next piece of the reply.
    Text(&'a str),
    /// The next piece of the model's reasoning (shown, never parsed).
    Reasoning(&'a str),
    /// The token counts so far (the latest win; they are kept even if the stream then fails).
    Usage(Usage),
    /// Something the user should see while waiting, e.g. "rate limited; retrying in 2 s".
    Note(&'a str),
    /// The model's files are downloading: bytes loaded and in all (0 when unknown).
    Download {
        /// Bytes loaded so far.
        loaded: u64,
        /// Bytes in all (0 when the server does not say).
        total: u64,
    },
}

/// Receives each streamed delta; returns `false` to stop the stream (client-side stop, abort).
pub type OnDelta<'a> = &'a mut dyn FnMut(Delta) -> bool;

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
    /// Whether it can write a long run's memos (a summary, a reflection) when asked in plain
    /// words; the offline scripted model cannot, and tao writes them itself.
    fn writes_memos(&self) -> bool {
        true
    }
}
