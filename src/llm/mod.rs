//! Models: one small trait, one file per provider.
//!
//! A model receives the prompt as chat messages and streams its reply as text deltas. The
//! caller reads each delta as it arrives and may say "stop" (by returning `false`): that is how
//! the stop sequence at `Observation` is enforced on the client side even when a provider
//! ignores `stop`, and how an abort ends a stream at once. The scripted model is a provider like
//! any other (the offline default), not a test helper.
//!
//! Providers over HTTP: [`openai`] (Chat Completions: OpenAI, Ollama, LM Studio, vLLM,
//! llama.cpp, OpenRouter, Groq, DeepSeek, DashScope, Gemini's compatible endpoint) and
//! [`anthropic`] (Messages). Each maps a [`Request`] to its API's JSON and decodes its stream;
//! [`http`] sends it (through a [`http::Transport`] the host supplies: `fetch` in a browser),
//! retries what is worth retrying and turns failures into errors that name the fix; [`sse`]
//! decodes Server-Sent Events from bytes split anywhere.

pub mod anthropic;
pub mod http;
pub mod openai;
pub mod scripted;
pub mod sse;

use crate::error::Error;
use crate::host::{Abort, LocalBoxFuture};
use crate::to_json::{JsonWriter, ToJson};
use crate::tools::ToolSpec;
use crate::trajectory::Usage;
use serde_json::Value;

/// Who says a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The instructions (format, tools).
    System,
    /// The question, and each observation in the text formats.
    User,
    /// The model's own earlier turns.
    Assistant,
    /// A tool's result, in native tool calling (the `tools` format).
    Tool,
}

/// One chat message of the prompt.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub content: String,
    /// The tools an assistant turn called (native tool calling only; left out of the JSON
    /// when there are none).
    pub tool_calls: Vec<ToolCall>,
    /// The call a `Tool` message answers (left out of the JSON when there is none).
    pub tool_call_id: Option<String>,
}

impl Message {
    /// A message from `role`.
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        Message {
            role,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }
}

/// A native tool call: which tool, with which arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    /// The call's id, echoed by the tool result (`call_<step>` when tao renders it).
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// Its arguments (a JSON object, as the tool's schema describes).
    pub arguments: Value,
}

impl ToJson for Role {
    fn write_json(&self, out: &mut JsonWriter) {
        out.string(self.name());
    }
}

impl Role {
    /// `system`, `user`, `assistant` or `tool`.
    pub fn name(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }
}

/// `tool_calls` is left out when empty, `tool_call_id` when there is none.
impl ToJson for Message {
    fn write_json(&self, out: &mut JsonWriter) {
        let mut fields: Vec<(&str, &dyn ToJson)> =
            vec![("role", &self.role), ("content", &self.content)];
        if !self.tool_calls.is_empty() {
            fields.push(("tool_calls", &self.tool_calls));
        }
        if let Some(id) = &self.tool_call_id {
            fields.push(("tool_call_id", id));
        }
        out.object(&fields);
    }
}

impl ToJson for ToolCall {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[
            ("id", &self.id),
            ("name", &self.name),
            ("arguments", &self.arguments),
        ]);
    }
}

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
}

/// What the model said (its text arrived through the deltas).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reply {
    /// Token counts, when the provider reports them.
    pub usage: Option<Usage>,
    /// Native tool calls, in order (the `tools` format).
    pub tool_calls: Vec<ToolCall>,
    /// Characters the model had ready but never sent because the reader stopped it, when the
    /// model knows (the scripted one does; a real provider never says).
    pub unsent_chars: u32,
}

/// What a model streams: its text, or a note for the reader (a retry, a dropped parameter).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Delta<'a> {
    /// The next piece of the reply.
    Text(&'a str),
    /// Something the user should see while waiting, e.g. "rate limited; retrying in 2 s".
    Note(&'a str),
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
}
