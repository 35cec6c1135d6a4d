//! OpenAI-compatible Chat Completions: one mapping for OpenAI, Ollama, LM Studio, vLLM,
//! llama.cpp's server, OpenRouter, Groq, DeepSeek, DashScope and Gemini's compatible endpoint.
//!
//! The request is `POST {base}/chat/completions` with `stream: true` and
//! `stream_options.include_usage` (so the last chunk carries token counts). The stream is SSE
//! whose `data:` lines are JSON chunks: `choices[0].delta.content` is text,
//! `choices[0].delta.tool_calls` are native tool calls whose `arguments` arrive as fragments of
//! a JSON string, `finish_reason` ends the reply, a chunk with `choices: []` and `usage` may
//! follow, and `data: [DONE]` ends the stream. An `{"error": ...}` chunk is a failure.

use super::http::{error_text, Piece, Settings};
use super::{Message, Request, Role};
use serde_json::{json, Map, Value};

/// Where requests go: `{base}/chat/completions` (the base usually ends in `/v1`).
pub fn url(base: &str) -> String {
    format!("{}/chat/completions", base.trim_end_matches('/'))
}

/// The headers: only what is needed (every extra header must pass a CORS preflight, and some
/// local servers allow very few). No key, no `Authorization`: Ollama and LM Studio need none.
pub fn headers(key: &str) -> Vec<(&'static str, String)> {
    let mut headers = vec![("content-type", "application/json".to_string())];
    if !key.is_empty() {
        headers.push(("authorization", format!("Bearer {key}")));
    }
    headers
}

/// The JSON body for `request`, leaving out the parameters in `dropped` (ones this endpoint
/// has rejected before, e.g. `stop` on reasoning models).
pub fn body(request: &Request, settings: &Settings, dropped: &[&str]) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), settings.model.clone().into());
    body.insert(
        "messages".into(),
        request.messages.iter().map(message).collect(),
    );
    body.insert("stream".into(), true.into());
    let mut optional = |name: &'static str, value: Value| {
        if !dropped.contains(&name) {
            body.insert(name.into(), value);
        }
    };
    optional("stream_options", json!({"include_usage": true}));
    if !request.stop.is_empty() {
        optional("stop", request.stop.into());
    }
    if let Some(t) = settings.temperature {
        optional("temperature", t.into());
    }
    if let Some(n) = settings.max_tokens {
        optional("max_tokens", n.into());
    }
    if !request.tools.is_empty() {
        let tools = request.tools.iter().map(|t| {
            json!({"type": "function", "function":
                {"name": t.name, "description": t.description, "parameters": t.parameters}})
        });
        body.insert("tools".into(), tools.collect());
    }
    Value::Object(body)
}

fn message(m: &Message) -> Value {
    let role = match m.role {
        Role::System => "system",
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Tool => "tool",
    };
    let mut out = json!({"role": role, "content": m.content});
    if let Some(id) = &m.tool_call_id {
        out["tool_call_id"] = id.clone().into();
    }
    if !m.tool_calls.is_empty() {
        let calls = m.tool_calls.iter().map(|c| {
            json!({"id": c.id, "type": "function",
                   "function": {"name": c.name, "arguments": c.arguments.to_string()}})
        });
        out["tool_calls"] = calls.collect();
    }
    out
}

/// What one `data:` payload of the stream says. A whole (non-streamed) response reads the same
/// way: its `message` is read like a `delta`.
pub fn decode(data: &str, pieces: &mut Vec<Piece>) -> Result<(), String> {
    if data.trim() == "[DONE]" {
        pieces.push(Piece::Done);
        return Ok(());
    }
    let chunk: Value = serde_json::from_str(data).map_err(|e| super::http::bad_json(data, &e))?;
    if let Some(error) = chunk.get("error").filter(|e| !e.is_null()) {
        pieces.push(Piece::Error(error_text(error)));
        return Ok(());
    }
    if let Some(usage) = chunk.get("usage").filter(|u| u.is_object()) {
        pieces.push(Piece::Usage {
            prompt: usage["prompt_tokens"].as_u64(),
            completion: usage["completion_tokens"].as_u64(),
        });
    }
    let Some(choice) = chunk["choices"].get(0) else {
        return Ok(());
    };
    let delta = choice.get("delta").unwrap_or(&choice["message"]);
    if let Some(text) = delta["content"].as_str().filter(|t| !t.is_empty()) {
        pieces.push(Piece::Text(text.to_string()));
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
                other => other.to_string(), // some servers send the object itself
            };
            if !arguments.is_empty() {
                pieces.push(Piece::ToolArgs {
                    index,
                    json: arguments,
                });
            }
        }
    }
    if !choice["finish_reason"].is_null() {
        pieces.push(Piece::Finished);
    }
    Ok(())
}
