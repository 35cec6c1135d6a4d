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

use super::http::{error_text, Piece, Settings};
use super::{Message, Request, Role};
use serde_json::{json, Map, Value};

/// The API version tao speaks.
pub const VERSION: &str = "2023-06-01";

/// Where requests go.
pub fn url(base: &str) -> String {
    let base = base.trim_end_matches('/');
    let base = base.strip_suffix("/v1").unwrap_or(base);
    format!("{base}/v1/messages")
}

/// The headers the API needs, and no more.
pub fn headers(key: &str) -> Vec<(&'static str, String)> {
    vec![
        ("content-type", "application/json".into()),
        ("x-api-key", key.into()),
        ("anthropic-version", VERSION.into()),
        // Without it the API refuses requests from a page (it cannot keep the key secret).
        ("anthropic-dangerous-direct-browser-access", "true".into()),
    ]
}

/// The JSON body for `request`, leaving out the parameters in `dropped`.
pub fn body(request: &Request, settings: &Settings, dropped: &[&str]) -> Value {
    let system: Vec<&str> = request
        .messages
        .iter()
        .filter(|m| m.role == Role::System)
        .map(|m| m.content.as_str())
        .collect();
    let mut body = Map::new();
    body.insert("model".into(), settings.model.clone().into());
    body.insert(
        "max_tokens".into(),
        settings.max_tokens.unwrap_or(1024).into(),
    );
    if !system.is_empty() {
        body.insert("system".into(), system.join("\n\n").into());
    }
    let turns = request.messages.iter().filter(|m| m.role != Role::System);
    body.insert("messages".into(), turns.map(message).collect());
    body.insert("stream".into(), true.into());
    if !request.stop.is_empty() && !dropped.contains(&"stop_sequences") {
        body.insert("stop_sequences".into(), request.stop.into());
    }
    if let (Some(t), false) = (settings.temperature, dropped.contains(&"temperature")) {
        body.insert("temperature".into(), t.into());
    }
    if !request.tools.is_empty() {
        let tools = request.tools.iter().map(
            |t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters}),
        );
        body.insert("tools".into(), tools.collect());
    }
    Value::Object(body)
}

fn message(m: &Message) -> Value {
    // The API refuses empty turns; an empty reply is shown as such.
    let text = if m.content.trim().is_empty() {
        "(empty)"
    } else {
        &m.content
    };
    match m.role {
        Role::Tool => json!({"role": "user", "content": [{"type": "tool_result",
            "tool_use_id": m.tool_call_id.clone().unwrap_or_default(), "content": text}]}),
        Role::Assistant if !m.tool_calls.is_empty() => {
            let mut blocks = Vec::new();
            if !m.content.trim().is_empty() {
                blocks.push(json!({"type": "text", "text": m.content}));
            }
            for call in &m.tool_calls {
                // `input` must be an object; a bare value is wrapped.
                let input = match &call.arguments {
                    Value::Object(_) => call.arguments.clone(),
                    other => json!({ "input": other }),
                };
                blocks.push(
                    json!({"type": "tool_use", "id": call.id, "name": call.name, "input": input}),
                );
            }
            json!({"role": "assistant", "content": blocks})
        }
        Role::Assistant => json!({"role": "assistant", "content": text}),
        _ => json!({"role": "user", "content": text}),
    }
}

/// What one event of the stream says (the event's `type` field is read, not the SSE name).
pub fn decode(data: &str, pieces: &mut Vec<Piece>) -> Result<(), String> {
    let event: Value = serde_json::from_str(data).map_err(|e| super::http::bad_json(data, &e))?;
    let index = event["index"].as_u64().unwrap_or(0) as usize;
    match event["type"].as_str().unwrap_or("") {
        "message_start" => {
            let usage = &event["message"]["usage"];
            pieces.push(Piece::Usage {
                prompt: usage["input_tokens"].as_u64(),
                completion: usage["output_tokens"].as_u64(),
            });
        }
        "content_block_start" => block(&event["content_block"], index, pieces),
        "content_block_delta" => {
            let delta = &event["delta"];
            if let Some(text) = delta["text"].as_str() {
                pieces.push(Piece::Text(text.to_string()));
            }
            if let Some(json) = delta["partial_json"].as_str() {
                pieces.push(Piece::ToolArgs {
                    index,
                    json: json.to_string(),
                });
            }
        }
        "message_delta" => {
            let output = event["usage"]["output_tokens"].as_u64();
            if output.is_some() {
                pieces.push(Piece::Usage {
                    prompt: None,
                    completion: output,
                });
            }
            if !event["delta"]["stop_reason"].is_null() {
                pieces.push(Piece::Finished);
            }
        }
        "message_stop" => pieces.push(Piece::Done),
        "error" => pieces.push(Piece::Error(error_text(&event["error"]))),
        // A whole (non-streamed) message: its blocks, usage and stop at once.
        "message" => {
            let usage = &event["usage"];
            pieces.push(Piece::Usage {
                prompt: usage["input_tokens"].as_u64(),
                completion: usage["output_tokens"].as_u64(),
            });
            for (i, b) in event["content"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
            {
                block(b, i, pieces);
            }
            pieces.push(Piece::Done);
        }
        _ => {} // ping, content_block_stop, and events added after this was written
    }
    Ok(())
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
                    json: block["input"].to_string(),
                });
            }
        }
        _ => {}
    }
}
