//! Anthropic Messages: `POST {base}/v1/messages`.
//!
//! Differences from Chat Completions that matter here: the system prompt is a top-level field,
//! `max_tokens` is required, stop strings are `stop_sequences`, a tool call is a `tool_use`
//! content block and its result a `tool_result` block in the next user turn. Browsers must
//! send `anthropic-dangerous-direct-browser-access: true`, or the API refuses the CORS request.
//!
//! The stream is SSE with named events: `message_start` (input tokens), `content_block_start`
//! (a text block, or a `tool_use` block with its id and name), `content_block_delta`
//! (`text_delta`, or `input_json_delta` fragments of the tool's input), `content_block_stop`,
//! `message_delta` (stop reason, output tokens), `message_stop`, `ping`, and `error`.
//!
//! What real streams add: `thinking` blocks (`thinking_delta`, then one `signature_delta`),
//! shown as the step's reasoning and sent back before the tool calls of their turn, which the
//! API requires; `redacted_thinking` blocks, sent back as they came; `message_delta` may carry
//! `input_tokens` too, later and more accurate than `message_start`'s; `stop_reason:
//! "refusal"` with `stop_details.explanation`, and `"max_tokens"`; server-side tools
//! (`server_tool_use`, `web_search_tool_result`, `mcp_tool_use`, ...) whose blocks tao skips.

use super::diagnose::error_text;
use super::provider::{Finish, Piece, Provider, Settings};
use super::{Message, Request, Role, Thinking, ToolCall};
use crate::chat::ToolSpec;
use crate::json::Value;
use crate::to_json::{self, JsonWriter, Object, ToJson};

/// Anthropic's Messages API, for [`super::Api::Anthropic`].
pub struct Anthropic;

impl Provider for Anthropic {
    fn name(&self) -> &'static str {
        "anthropic"
    }
    /// Where requests go.
    fn url(&self, base: &str) -> String {
        let base = base.trim_end_matches('/');
        let base = base.strip_suffix("/v1").unwrap_or(base);
        format!("{base}/v1/messages")
    }
    /// The headers the API needs, and no more.
    fn headers(&self, key: &str) -> Vec<(&'static str, String)> {
        vec![
            ("content-type", "application/json".into()),
            ("x-api-key", key.into()),
            ("anthropic-version", VERSION.into()),
            // Without it the API refuses requests from a page (it cannot keep the key secret).
            ("anthropic-dangerous-direct-browser-access", "true".into()),
        ]
    }
    /// The JSON body for `request`, leaving out the parameters in `dropped`.
    fn body(&self, request: &Request, settings: &Settings, dropped: &[&str]) -> String {
        let system: Vec<&str> = request
            .messages
            .iter()
            .filter(|m| m.role == Role::System)
            .map(|m| m.content.as_str())
            .collect();
        let system = system.join("\n\n");
        let max_tokens = self.max_tokens(settings).unwrap_or(DEFAULT_MAX_TOKENS);
        // The results of one turn's tool calls go back together, in one user turn.
        let rest: Vec<&Message> = request
            .messages
            .iter()
            .filter(|m| m.role != Role::System)
            .collect();
        let turns: Vec<Turn> = rest
            .chunk_by(|a, b| a.role == Role::Tool && b.role == Role::Tool)
            .map(Turn)
            .collect();
        let tools: Vec<Tool> = request.tools.iter().map(Tool).collect();
        let mut body: Vec<(&str, &dyn ToJson)> =
            vec![("model", &settings.model), ("max_tokens", &max_tokens)];
        if !system.is_empty() {
            body.push(("system", &system));
        }
        body.extend([("messages", &turns as &dyn ToJson), ("stream", &true)]);
        if !request.stop.is_empty() && !dropped.contains(&"stop_sequences") {
            body.push(("stop_sequences", &request.stop));
        }
        if let (Some(t), false) = (&settings.temperature, dropped.contains(&"temperature")) {
            body.push(("temperature", t));
        }
        if !tools.is_empty() {
            body.push(("tools", &tools));
        }
        to_json::to_string(&Object(&body))
    }
    fn decode(&self, data: &str, pieces: &mut Vec<Piece>) -> Result<(), String> {
        decode(data, pieces)
    }
    fn optional_parameters(&self) -> &'static [&'static str] {
        &["stop_sequences", "temperature"]
    }
    /// The API needs a limit: the user's, or [`DEFAULT_MAX_TOKENS`].
    fn max_tokens(&self, settings: &Settings) -> Option<u32> {
        Some(settings.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS))
    }
    fn unreachable_hint(&self) -> Option<&'static str> {
        Some("check the base URL (https://api.anthropic.com) and your connection; tao sends the anthropic-dangerous-direct-browser-access header browsers need")
    }
}

/// The token limit sent when the user set none (the API requires one).
pub const DEFAULT_MAX_TOKENS: u32 = 1024;

/// The API version tao speaks.
pub const VERSION: &str = "2023-06-01";

/// A tool as the Messages API offers it.
struct Tool<'a>(&'a ToolSpec);

impl ToJson for Tool<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        let t = self.0;
        out.object(&[
            ("name", &t.name),
            ("description", &t.description),
            ("input_schema", &t.parameters),
        ]);
    }
}

/// A message as the Messages API reads it: a tool's result is a `tool_result` block of a user
/// turn (the results of one turn's calls share it), a tool call a `tool_use` block of an
/// assistant turn.
struct Turn<'a>(&'a [&'a Message]);

impl ToJson for Turn<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        let Some(m) = self.0.first() else {
            return out.object(&[]);
        };
        // The API refuses empty turns; an empty reply is shown as such.
        let text = if m.content.trim().is_empty() {
            "(empty)"
        } else {
            &m.content
        };
        match m.role {
            Role::Tool => {
                let results: Vec<ToolResult> = self.0.iter().map(|m| ToolResult(m)).collect();
                out.object(&[("role", &"user"), ("content", &results)]);
            }
            Role::Assistant if !m.tool_calls.is_empty() => {
                let calls: Vec<ToolUse> = m.tool_calls.iter().map(ToolUse).collect();
                let said = Object(&[("type", &"text"), ("text", &m.content)]);
                // The turn's thinking goes back first, as it came: the API checks its signature.
                let thought = m
                    .thinking
                    .as_ref()
                    .filter(|t| !t.signature.is_empty())
                    .map(Thought);
                let redacted: Vec<Redacted> = m
                    .thinking
                    .iter()
                    .flat_map(|t| &t.redacted)
                    .map(|d| Redacted(d))
                    .collect();
                let mut blocks: Vec<&dyn ToJson> = Vec::new();
                blocks.extend(thought.as_ref().map(|t| t as &dyn ToJson));
                blocks.extend(redacted.iter().map(|r| r as &dyn ToJson));
                if !m.content.trim().is_empty() {
                    blocks.push(&said);
                }
                blocks.extend(calls.iter().map(|c| c as &dyn ToJson));
                out.object(&[("role", &"assistant"), ("content", &blocks)]);
            }
            Role::Assistant => out.object(&[("role", &"assistant"), ("content", &text)]),
            _ => out.object(&[("role", &"user"), ("content", &text)]),
        }
    }
}

/// A `tool_result` block: a tool's result under its call's id.
struct ToolResult<'a>(&'a Message);

impl ToJson for ToolResult<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        let m = self.0;
        let id = m.tool_call_id.as_deref().unwrap_or_default();
        let text = match m.content.trim() {
            "" => "(empty)",
            _ => &m.content,
        };
        out.object(&[
            ("type", &"tool_result"),
            ("tool_use_id", &id),
            ("content", &text),
        ]);
    }
}

/// A `thinking` block with its signature.
struct Thought<'a>(&'a Thinking);

impl ToJson for Thought<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        let t = self.0;
        out.object(&[
            ("type", &"thinking"),
            ("thinking", &t.text),
            ("signature", &t.signature),
        ]);
    }
}

/// A `redacted_thinking` block, its data as the API sent it.
struct Redacted<'a>(&'a str);

impl ToJson for Redacted<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[("type", &"redacted_thinking"), ("data", &self.0)]);
    }
}

/// A `tool_use` block.
struct ToolUse<'a>(&'a ToolCall);

impl ToJson for ToolUse<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        let call = self.0;
        // `input` must be an object; a bare value is wrapped.
        let wrapped = Object(&[("input", &call.arguments)]);
        let input: &dyn ToJson = match &call.arguments {
            Value::Object(_) => &call.arguments,
            _ => &wrapped,
        };
        out.object(&[
            ("type", &"tool_use"),
            ("id", &call.id),
            ("name", &call.name),
            ("input", input),
        ]);
    }
}

/// Anthropic's `usage`: its `input_tokens` leave out the prompt read from the cache and the
/// prompt written to it, which tao counts as prompt tokens too (as OpenAI does); the cache reads
/// are the `cached` part.
fn usage_piece(usage: &Value) -> Piece {
    let count = |key: &str| usage[key].as_u64();
    let cached = count("cache_read_input_tokens");
    let written = count("cache_creation_input_tokens").unwrap_or(0);
    Piece::Usage {
        prompt: count("input_tokens").map(|n| n + cached.unwrap_or(0) + written),
        completion: count("output_tokens"),
        cached,
    }
}

/// What one event of the stream says (the event's `type` field is read, not the SSE name).
pub fn decode(data: &str, pieces: &mut Vec<Piece>) -> Result<(), String> {
    let event: Value =
        crate::json::from_str(data).map_err(|e| super::diagnose::bad_json(data, &e))?;
    let index = event["index"].as_u64().unwrap_or(0) as usize;
    match event["type"].as_str().unwrap_or("") {
        "message_start" => {
            pieces.push(usage_piece(&event["message"]["usage"]));
        }
        "content_block_start" => block(&event["content_block"], index, pieces),
        "content_block_delta" => {
            let delta = &event["delta"];
            if let Some(text) = delta["text"].as_str() {
                pieces.push(Piece::Text(text.to_string()));
            }
            if let Some(text) = delta["thinking"].as_str() {
                pieces.push(Piece::Reasoning(text.to_string()));
            }
            if let Some(signature) = delta["signature"].as_str() {
                pieces.push(Piece::Signature(signature.to_string()));
            }
            if let Some(json) = delta["partial_json"].as_str() {
                pieces.push(Piece::ToolArgs {
                    index,
                    json: json.to_string(),
                });
            }
        }
        "message_delta" => {
            // The figures here are the latest (`input_tokens` too, when present).
            let usage = &event["usage"];
            if usage["input_tokens"].is_u64() || usage["output_tokens"].is_u64() {
                pieces.push(usage_piece(usage));
            }
            stop(&event["delta"], &event["delta"]["stop_details"], pieces);
        }
        "message_stop" => pieces.push(Piece::Done),
        "error" => pieces.push(Piece::Error(error_text(&event["error"]))),
        // A whole (non-streamed) message: its blocks, usage and stop at once.
        "message" => {
            pieces.push(usage_piece(&event["usage"]));
            for (i, b) in event["content"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
            {
                block(b, i, pieces);
            }
            stop(&event, &event["stop_details"], pieces);
            pieces.push(Piece::Done);
        }
        _ => {} // ping, content_block_stop, and events added after this was written
    }
    Ok(())
}

/// The stop reason (and a refusal's explanation), when `holder` has one.
fn stop(holder: &Value, details: &Value, pieces: &mut Vec<Piece>) {
    let Some(reason) = holder["stop_reason"].as_str() else {
        return;
    };
    let finish = match reason {
        "max_tokens" => Finish::Length,
        "refusal" => Finish::Refusal,
        _ => Finish::Done,
    };
    if finish == Finish::Refusal {
        let explanation = details["explanation"].as_str().unwrap_or_default();
        let text = match details["category"].as_str() {
            Some(category) => format!("{explanation} [{category}]"),
            None => explanation.to_string(),
        };
        pieces.push(Piece::Refusal(text.trim().to_string()));
    }
    pieces.push(Piece::Finished(finish));
}

fn block(block: &Value, index: usize, pieces: &mut Vec<Piece>) {
    match block["type"].as_str() {
        Some("text") => {
            if let Some(text) = block["text"].as_str().filter(|t| !t.is_empty()) {
                pieces.push(Piece::Text(text.to_string()));
            }
        }
        Some("tool_use") => {
            pieces.push(Piece::ToolStart {
                index,
                id: block["id"].as_str().unwrap_or_default().to_string(),
                name: block["name"].as_str().unwrap_or_default().to_string(),
            });
            // Streamed blocks start with `{}` and send the input as deltas; whole ones carry it.
            if block["input"].as_object().is_some_and(|o| !o.is_empty()) {
                pieces.push(Piece::ToolArgs {
                    index,
                    json: to_json::to_string(&block["input"]),
                });
            }
        }
        Some("thinking") => {
            let text = block["thinking"].as_str().unwrap_or_default();
            if !text.is_empty() {
                pieces.push(Piece::Reasoning(text.to_string()));
            }
            if let Some(signature) = block["signature"].as_str().filter(|s| !s.is_empty()) {
                pieces.push(Piece::Signature(signature.to_string()));
            }
        }
        Some("redacted_thinking") => {
            let data = block["data"].as_str().unwrap_or_default();
            pieces.push(Piece::Redacted(data.to_string()));
        }
        // Server-side tools and their results (web search, MCP, code execution), and block
        // types added after this was written: not the model's move, and never fatal.
        kind => pieces.push(Piece::Skipped {
            index,
            kind: kind.unwrap_or("untyped").to_string(),
        }),
    }
}
