//! What differs between the HTTP APIs, behind one trait: where a request goes, its headers and
//! JSON body, and how one event of the reply's stream is decoded.
//!
//! Everything else about a model over HTTP (sending, retrying, reading the stream, diagnosing
//! failures) is the same for every API and lives in [`super::http`]. A new API is one file that
//! implements [`Provider`], plus a name in [`Api`].

use super::Request;
#[cfg(feature = "providers")]
use super::{anthropic, openai};

/// Which wire format an endpoint speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    /// OpenAI Chat Completions (and every compatible server).
    OpenAi,
    /// Anthropic Messages.
    Anthropic,
}

impl Api {
    /// `openai` or `anthropic` (and their aliases: `ollama` speaks OpenAI's API).
    pub fn from_name(name: &str) -> Option<Api> {
        match name.trim().to_ascii_lowercase().as_str() {
            "openai" | "openai-compatible" | "ollama" => Some(Api::OpenAi),
            "anthropic" | "claude" => Some(Api::Anthropic),
            _ => None,
        }
    }

    /// The short name.
    pub fn name(self) -> &'static str {
        match self {
            Api::OpenAi => "openai",
            Api::Anthropic => "anthropic",
        }
    }

    /// The mapping of this API.
    #[cfg(feature = "providers")]
    pub fn provider(self) -> &'static dyn Provider {
        match self {
            Api::OpenAi => &openai::OpenAi,
            Api::Anthropic => &anthropic::Anthropic,
        }
    }
}

/// Where and how to reach a model. The key is held here and in the request's header, and
/// nowhere else: it is not part of the model's name, of errors or of events.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The wire format.
    pub api: Api,
    /// e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1`, `https://api.anthropic.com`.
    pub base_url: String,
    /// The model's name at that endpoint.
    pub model: String,
    /// The API key; empty for local servers that need none.
    pub key: String,
    /// Sampling temperature; `None` leaves the provider's default.
    pub temperature: Option<f64>,
    /// Most tokens per reply; `None` leaves the provider's default (Anthropic, which needs
    /// one, gets [`super::anthropic::DEFAULT_MAX_TOKENS`]).
    pub max_tokens: Option<u32>,
    /// How long to wait for the response to start (its headers, then its first byte) before
    /// giving up: a stalled server otherwise keeps a run "running" until the browser gives up.
    pub first_byte_ms: u32,
    /// How long a started stream may send nothing before tao gives up on it.
    pub idle_ms: u32,
}

/// The default of [`Settings::first_byte_ms`]: generous, for a slow local model loading.
pub const FIRST_BYTE_MS: u32 = 120_000;
/// The default of [`Settings::idle_ms`].
pub const IDLE_MS: u32 = 60_000;

/// Why a reply ended, as the provider said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// It was complete (a stop, a stop sequence, a tool call).
    Done,
    /// It was cut at the token limit (`finish_reason: "length"`, `stop_reason: "max_tokens"`).
    Length,
    /// The model (or the provider's filter) refused (`stop_reason: "refusal"`,
    /// `finish_reason: "content_filter"`).
    Refusal,
}

/// What a provider's stream decoder found in one event.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    /// Reply text.
    Text(String),
    /// A native tool call begins (its arguments follow as `ToolArgs`).
    ToolStart {
        /// The call's position in the reply.
        index: usize,
        /// The provider's id for the call.
        id: String,
        /// The tool's name.
        name: String,
    },
    /// A fragment of a tool call's JSON arguments.
    ToolArgs {
        /// The call's position in the reply.
        index: usize,
        /// The fragment.
        json: String,
    },
    /// A fragment of the model's reasoning (DeepSeek's `reasoning_content`, Anthropic's
    /// `thinking`), shown to the user, never read as ReAct.
    Reasoning(String),
    /// The signature of a thinking block, which the API wants back with it.
    Signature(String),
    /// A thinking block the provider redacted: its opaque data, sent back as it came.
    Redacted(String),
    /// A fragment of a refusal (OpenAI's `delta.refusal`, Anthropic's `stop_details`).
    Refusal(String),
    /// A content block tao does not use (a server-side tool's call or result): its position
    /// (its deltas are ignored too) and its type.
    Skipped {
        /// The block's position in the reply.
        index: usize,
        /// Its `type`, e.g. `server_tool_use`.
        kind: String,
    },
    /// Token counts (any may be missing; later counts replace earlier ones).
    Usage {
        /// Prompt tokens (those read from the cache included).
        prompt: Option<u64>,
        /// Completion tokens.
        completion: Option<u64>,
        /// Prompt tokens read from the provider's cache.
        cached: Option<u64>,
    },
    /// The model finished its reply (a stop reason arrived), and why; usage may still follow.
    Finished(Finish),
    /// The stream is complete.
    Done,
    /// The provider reported an error inside the stream.
    Error(String),
}

/// One HTTP API's mapping: request out, stream in.
pub trait Provider {
    /// `openai` or `anthropic`: the first half of the model's name in a trajectory.
    fn name(&self) -> &'static str;
    /// Where requests go, from the base URL the user gave.
    fn url(&self, base: &str) -> String;
    /// The headers: only what is needed (every extra header must pass a CORS preflight).
    fn headers(&self, key: &str) -> Vec<(&'static str, String)>;
    /// The JSON body for `request`, leaving out the parameters in `dropped` (ones this
    /// endpoint has rejected before).
    fn body(&self, request: &Request, settings: &Settings, dropped: &[&str]) -> String;
    /// Decodes the `data` of one stream event (or a whole JSON reply) into `pieces`.
    fn decode(&self, data: &str, pieces: &mut Vec<Piece>) -> Result<(), String>;
    /// The body parameters an endpoint may refuse that tao can do without (it enforces the
    /// stop sequence itself), in the API's own spelling.
    fn optional_parameters(&self) -> &'static [&'static str];
    /// The token limit a request sends, if any (the number a truncation message quotes).
    fn max_tokens(&self, settings: &Settings) -> Option<u32> {
        settings.max_tokens
    }
    /// What to check when the endpoint cannot be reached at all, if this API has its own
    /// advice (the generic advice is about CORS, the address and the connection).
    fn unreachable_hint(&self) -> Option<&'static str> {
        None
    }
}
