//! OpenAI-compatible Chat Completions: one mapping for OpenAI, Ollama, LM Studio, vLLM,
//! llama.cpp's server, OpenRouter, Groq, DeepSeek, DashScope and Gemini's compatible endpoint.
//!
//! The request is `POST {base}/chat/completions` with `stream: true` and
//! `stream_options.include_usage` (so the last chunk carries token counts). The stream is SSE
//! whose `data:` lines are JSON chunks: `choices[0].delta.content` is text,
//! `choices[0].delta.tool_calls` are native tool calls whose `arguments` arrive as fragments of
//! a JSON string, `finish_reason` ends the reply (`length`: cut at the token limit;
//! `content_filter`: refused), a chunk with `choices: []` and `usage` may follow, and
//! `data: [DONE]` ends the stream. An `{"error": ...}` chunk is a failure. A refusal arrives
//! as `delta.refusal` text instead of `content`; reasoning models served by DeepSeek (and
//! OpenRouter, vLLM) stream their reasoning as `delta.reasoning_content` (or `reasoning`).

use super::diagnose::error_text;
use super::provider::{Finish, Piece, Provider, Settings};
use super::{Message, Request, ToolCall};
use crate::chat::ToolSpec;
use crate::json::Value;
use crate::to_json::{self, JsonWriter, Object, ToJson};

/// OpenAI's Chat Completions API, for [`super::Api::OpenAi`].
pub struct OpenAi;

impl Provider for OpenAi {
    fn name(&self) -> &'static str {
        "openai"
    }
    /// Where requests go: `{base}/chat/completions` (the base usually ends in `/v1`).
    fn url(&self, base: &str) -> String {
        format!("{}/chat/completions", base.trim_end_matches('/'))
    }
    /// The headers: only what is needed (every extra header must pass a CORS preflight, and some
    /// local servers allow very few). No key, no `Authorization`: Ollama and LM Studio need none.
    fn headers(&self, key: &str) -> Vec<(&'static str, String)> {
        let mut headers = vec![("content-type", "application/json".to_string())];
        if !key.is_empty() {
            headers.push(("authorization", format!("Bearer {key}")));
        }
        headers
    }
    /// The JSON body for `request`, leaving out the parameters in `dropped` (ones this endpoint
    /// has rejected before, e.g. `stop` on reasoning models).
    fn body(&self, request: &Request, settings: &Settings, dropped: &[&str]) -> String {
        let messages: Vec<Turn> = request.messages.iter().map(Turn).collect();
        let tools: Vec<Function> = request.tools.iter().map(Function).collect();
        let mut body: Vec<(&str, &dyn ToJson)> = vec![
            ("model", &settings.model),
            ("messages", &messages),
            ("stream", &true),
        ];
        // Optional parameters, each left out once the endpoint has rejected it.
        let include_usage = Object(&[("include_usage", &true)]);
        let mut optional: Vec<(&str, &dyn ToJson)> = vec![("stream_options", &include_usage)];
        if !request.stop.is_empty() {
            optional.push(("stop", &request.stop));
        }
        if let Some(t) = &settings.temperature {
            optional.push(("temperature", t));
        }
        if let Some(n) = &settings.max_tokens {
            optional.push(("max_tokens", n));
        }
        body.extend(
            optional
                .into_iter()
                .filter(|(name, _)| !dropped.contains(name)),
        );
        if !tools.is_empty() {
            body.push(("tools", &tools));
        }
        to_json::to_string(&Object(&body))
    }
    fn decode(&self, data: &str, pieces: &mut Vec<Piece>) -> Result<(), String> {
        decode(data, pieces)
    }
    fn optional_parameters(&self) -> &'static [&'static str] {
        &["stop", "stream_options", "temperature", "max_tokens"]
    }
}

/// A message as Chat Completions reads it: tool calls carry their arguments as a JSON string.
struct Turn<'a>(&'a Message);

impl ToJson for Turn<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        let m = self.0;
        let calls: Vec<Call> = m.tool_calls.iter().map(Call).collect();
        let mut fields: Vec<(&str, &dyn ToJson)> = vec![("role", &m.role), ("content", &m.content)];
        if let Some(id) = &m.tool_call_id {
            fields.push(("tool_call_id", id));
        }
        if !calls.is_empty() {
            fields.push(("tool_calls", &calls));
        }
        out.object(&fields);
    }
}

struct Call<'a>(&'a ToolCall);

impl ToJson for Call<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        let c = self.0;
        let arguments = to_json::to_string(&c.arguments);
        out.object(&[
            ("id", &c.id),
            ("type", &"function"),
            (
                "function",
                &Object(&[("name", &c.name), ("arguments", &arguments)]),
            ),
        ]);
    }
}

/// A tool as Chat Completions offers it.
struct Function<'a>(&'a ToolSpec);

impl ToJson for Function<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        let t = self.0;
        out.object(&[
            ("type", &"function"),
            (
                "function",
                &Object(&[
                    ("name", &t.name),
                    ("description", &t.description),
                    ("parameters", &t.parameters),
                ]),
            ),
        ]);
    }
}

/// What one `data:` payload of the stream says. A whole (non-streamed) response reads the same
/// way: its `message` is read like a `delta`.
pub fn decode(data: &str, pieces: &mut Vec<Piece>) -> Result<(), String> {
    if data.trim() == "[DONE]" {
        pieces.push(Piece::Done);
        return Ok(());
    }
    let chunk: Value =
        crate::json::from_str(data).map_err(|e| super::diagnose::bad_json(data, &e))?;
    if let Some(error) = chunk.get("error").filter(|e| !e.is_null()) {
        pieces.push(Piece::Error(error_text(error)));
        return Ok(());
    }
    if let Some(usage) = chunk.get("usage").filter(|u| u.is_object()) {
        pieces.push(Piece::Usage {
            prompt: usage["prompt_tokens"].as_u64(),
            completion: usage["completion_tokens"].as_u64(),
            cached: usage["prompt_tokens_details"]["cached_tokens"].as_u64(),
        });
    }
    let Some(choice) = chunk["choices"].get(0) else {
        return Ok(());
    };
    let delta = choice.get("delta").unwrap_or(&choice["message"]);
    let reasoning = delta["reasoning_content"]
        .as_str()
        .or(delta["reasoning"].as_str());
    if let Some(text) = reasoning.filter(|t| !t.is_empty()) {
        pieces.push(Piece::Reasoning(text.to_string()));
    }
    if let Some(text) = delta["content"].as_str().filter(|t| !t.is_empty()) {
        pieces.push(Piece::Text(text.to_string()));
    }
    if let Some(text) = delta["refusal"].as_str().filter(|t| !t.is_empty()) {
        pieces.push(Piece::Refusal(text.to_string()));
    }
    if let Some(calls) = delta["tool_calls"].as_array() {
        for (position, call) in calls.iter().enumerate() {
            let index = call["index"].as_u64().map_or(position, |i| i as usize);
            let function = &call["function"];
            let (id, name) = (call["id"].as_str(), function["name"].as_str());
            if id.is_some() || name.is_some() {
                pieces.push(Piece::ToolStart {
                    index,
                    id: id.unwrap_or_default().to_string(),
                    name: name.unwrap_or_default().to_string(),
                });
            }
            let arguments = match &function["arguments"] {
                Value::String(s) => s.clone(),
                Value::Null => String::new(),
                other => to_json::to_string(other), // some servers send the object itself
            };
            if !arguments.is_empty() {
                pieces.push(Piece::ToolArgs {
                    index,
                    json: arguments,
                });
            }
        }
    }
    if let Some(reason) = choice["finish_reason"].as_str() {
        pieces.push(Piece::Finished(match reason {
            "length" => Finish::Length,
            "content_filter" => Finish::Refusal,
            _ => Finish::Done,
        }));
    }
    Ok(())
}
