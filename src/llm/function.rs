//! The JS model interface's values: what a model function is given and what it streams and
//! returns, as JSON.
//!
//! A page's model is a function `(messages, {stop, tools, signal, onDelta}) => reply` (see
//! `bindings::js_model`, which calls it, and the providers' module, which is one). What crosses
//! is plain JSON, so its reading and writing live here, where `cargo test` checks them natively;
//! the bindings keep only what needs JS: the closures, the Promise, the signal.

use super::{Delta, OnDelta, Reply};
use crate::chat::{Message, Thinking, ToolCall, ToolSpec, Usage};
use crate::error::Error;
use crate::json::{FromJson, Value};
use crate::to_json::{JsonWriter, Object, ToJson};

/// One thing a model function streamed through `onDelta`.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    /// The next piece of the reply: a string.
    Text(String),
    /// `{reasoning}`: shown, never parsed.
    Reasoning(String),
    /// `{note}`: a retry, a dropped parameter.
    Note(String),
    /// `{usage}`: the counts so far, kept if the call then fails.
    Usage(Usage),
    /// `{download: {loaded, total}}`: the model's files in bytes (0 when unknown).
    Download {
        /// Bytes loaded so far.
        loaded: u64,
        /// Bytes in all.
        total: u64,
    },
}

impl Piece {
    /// A string is text; `{reasoning}`, `{note}`, `{usage}` and `{download: {loaded, total}}`
    /// are the others; anything else is ignored.
    pub fn read(value: &Value) -> Option<Piece> {
        if let Value::String(text) = value {
            return Some(Piece::Text(text.clone()));
        }
        let text = |key: &str| value[key].as_str().map(str::to_string);
        if let Some(text) = text("reasoning") {
            return Some(Piece::Reasoning(text));
        }
        if let Some(text) = text("note") {
            return Some(Piece::Note(text));
        }
        let download = &value["download"];
        if download.is_object() {
            let bytes = |key: &str| {
                download[key]
                    .as_f64()
                    .filter(|n| *n >= 0.0)
                    .map_or(0, |n| n as u64)
            };
            return Some(Piece::Download {
                loaded: bytes("loaded"),
                total: bytes("total"),
            });
        }
        read_usage(&value["usage"]).map(Piece::Usage)
    }

    /// The piece as the loop reads it.
    pub fn delta(&self) -> Delta<'_> {
        match self {
            Piece::Text(text) => Delta::Text(text),
            Piece::Reasoning(text) => Delta::Reasoning(text),
            Piece::Note(text) => Delta::Note(text),
            Piece::Usage(usage) => Delta::Usage(*usage),
            Piece::Download { loaded, total } => Delta::Download {
                loaded: *loaded,
                total: *total,
            },
        }
    }
}

/// `{promptTokens, completionTokens, cachedTokens, promptPerSecond, replyPerSecond}` (each
/// optional), if it is an object.
pub fn read_usage(value: &Value) -> Option<Usage> {
    let number = |key: &str| value[key].as_f64().filter(|n| n.is_finite() && *n >= 0.0);
    let count = |key: &str| number(key).map_or(0, |n| n as u64);
    value.is_object().then(|| Usage {
        prompt_tokens: count("promptTokens"),
        completion_tokens: count("completionTokens"),
        cached_tokens: count("cachedTokens"),
        prompt_per_second: number("promptPerSecond"),
        reply_per_second: number("replyPerSecond"),
    })
}

/// What a model function returned (its Promise settled to), as the binding tells the kinds
/// apart: JSON alone cannot name what is not an object (a function, a symbol), which the error
/// names.
pub enum Returned {
    /// A string: the whole reply.
    Text(String),
    /// `undefined` or `null`.
    Nothing,
    /// Neither an object nor one of the above: its `typeof`.
    Other(String),
    /// An object, as JSON: `{text, toolCalls, usage, thinking}`.
    Object(Value),
}

/// Reads what the function returned: a string, or `{text, toolCalls, usage, thinking}`. Text
/// that was already streamed through `onDelta` is not sent again.
pub fn reply(returned: Returned, streamed: bool, on_delta: OnDelta<'_>) -> Result<Reply, Error> {
    let value = match returned {
        Returned::Text(text) => {
            if !streamed {
                on_delta(Delta::Text(&text));
            }
            return Ok(Reply::default());
        }
        Returned::Nothing if streamed => return Ok(Reply::default()),
        Returned::Nothing => {
            return Err(Error::model(
                "the JS model returned nothing and streamed nothing through onDelta",
            ))
        }
        Returned::Other(kind) => {
            let want = "a string or {text, toolCalls, usage} (or a Promise of one)";
            let said = format!("the JS model must return {want}; it returned {kind}");
            return Err(Error::model(said));
        }
        Returned::Object(value) => value,
    };
    if let (false, Some(text)) = (streamed, value["text"].as_str()) {
        on_delta(Delta::Text(text));
    }
    Ok(read_reply(&value))
}

/// The rest of a returned object: tool calls (ids default to `call_{i}`, arguments given as
/// text are read as JSON), usage and thinking.
fn read_reply(value: &Value) -> Reply {
    let calls = value["toolCalls"].as_array().into_iter().flatten();
    let tool_calls = calls.enumerate().map(|(i, call)| ToolCall {
        id: call["id"]
            .as_str()
            .map_or_else(|| format!("call_{i}"), str::to_string),
        name: call["name"].as_str().unwrap_or_default().to_string(),
        arguments: match &call["arguments"] {
            Value::String(s) => crate::json::from_str(s).unwrap_or(Value::String(s.clone())),
            Value::Null => Value::Object(Default::default()),
            other => other.clone(),
        },
    });
    let thinking = &value["thinking"];
    let text = |key: &str| thinking[key].as_str().unwrap_or_default().to_string();
    let redacted = thinking["redacted"].as_array().into_iter().flatten();
    Reply {
        tool_calls: tool_calls.collect(),
        usage: read_usage(&value["usage"]),
        thinking: thinking.is_object().then(|| Thinking {
            text: text("text"),
            signature: text("signature"),
            redacted: redacted
                .filter_map(|r| r.as_str().map(str::to_string))
                .collect(),
        }),
        unsent_chars: 0,
    }
}

/// A message as the model function sees it: its JSON, and the reasoning an assistant turn
/// began with (`thinking`), which the trajectory's prompt leaves out but an API may want back.
pub struct ForModel<'a>(pub &'a Message);

impl ToJson for ForModel<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        let m = self.0;
        let mut fields: Vec<(&str, &dyn ToJson)> = vec![("role", &m.role), ("content", &m.content)];
        if !m.tool_calls.is_empty() {
            fields.push(("tool_calls", &m.tool_calls));
        }
        if let Some(id) = &m.tool_call_id {
            fields.push(("tool_call_id", id));
        }
        if let Some(thinking) = &m.thinking {
            fields.push(("thinking", thinking));
        }
        out.object(&fields);
    }
}

/// What a model function is asked, read back from JSON (the providers' module reads its calls
/// so): the messages, and `{stop, tools}` (a list left out is empty).
#[derive(Debug, PartialEq)]
pub struct Call {
    /// The prompt.
    pub messages: Vec<Message>,
    /// Where to stop.
    pub stop: Vec<String>,
    /// The tools offered for native tool calling.
    pub tools: Vec<ToolSpec>,
}

impl Call {
    /// Reads `messages` and `options`; a bad one is the model's error, naming `httpModel`'s
    /// argument.
    pub fn read(messages: &Value, options: &Value) -> Result<Call, Error> {
        let bad = |what: &str, e: String| Error::model(format!("httpModel: {what}: {e}"));
        Ok(Call {
            messages: FromJson::from_value(messages).map_err(|e| bad("messages", e))?,
            stop: list(&options["stop"]).map_err(|e| bad("stop", e))?,
            tools: list(&options["tools"]).map_err(|e| bad("tools", e))?,
        })
    }
}

fn list<T: FromJson>(value: &Value) -> Result<Vec<T>, String> {
    match value {
        Value::Null => Ok(Vec::new()),
        value => FromJson::from_value(value),
    }
}

/// A delta as a model function streams it to `onDelta` (what [`Piece::read`] reads back), the
/// counts as [`Counts`].
pub struct Streamed<'a>(pub Delta<'a>);

impl ToJson for Streamed<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        match self.0 {
            Delta::Text(text) => out.string(text),
            Delta::Reasoning(text) => out.object(&[("reasoning", &text)]),
            Delta::Note(text) => out.object(&[("note", &text)]),
            Delta::Usage(usage) => out.object(&[("usage", &Counts(&usage))]),
            Delta::Download { loaded, total } => {
                let bytes = Object(&[("loaded", &loaded), ("total", &total)]);
                out.object(&[("download", &bytes)]);
            }
        }
    }
}

/// The end of a reply as a model function returns it, `{toolCalls, usage, thinking}`: its
/// text went through `onDelta`.
pub struct End<'a>(pub &'a Reply);

impl ToJson for End<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        let reply = self.0;
        out.object(&[
            ("toolCalls", &reply.tool_calls),
            ("usage", &reply.usage.as_ref().map(Counts)),
            ("thinking", &reply.thinking),
        ]);
    }
}

/// Token counts as a model function reports them.
pub struct Counts<'a>(pub &'a Usage);

impl ToJson for Counts<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[
            ("promptTokens", &self.0.prompt_tokens),
            ("completionTokens", &self.0.completion_tokens),
            ("cachedTokens", &self.0.cached_tokens),
        ]);
    }
}
