//! What the model reads of a `tools/call` result.

use crate::json::Value;
use crate::tools::{ToolError, ToolOutput};

/// What the model reads of a `tools/call` result: its text, with images, audio and resources
/// summarised in words; `isError` is the tool failing (the model reads that too).
pub fn observation(result: &Value) -> Result<ToolOutput, ToolError> {
    if result["resultType"].as_str() == Some("input_required") {
        return Err(ToolError::Failed(
            "the tool asked the user for more input, which tao cannot give it".into(),
        ));
    }
    let mut parts: Vec<String> = Vec::new();
    for item in result["content"].as_array().into_iter().flatten() {
        parts.push(content_text(item));
    }
    if parts.is_empty() && !result["structuredContent"].is_null() {
        parts.push(crate::to_json::to_string(&result["structuredContent"]));
    }
    let text = parts.join("\n");
    match result["isError"].as_bool() == Some(true) {
        true => Err(ToolError::Failed(match text.is_empty() {
            true => "the tool reported an error and said no more".into(),
            false => text,
        })),
        false => Ok(ToolOutput::from(text)),
    }
}

/// One content item in words.
fn content_text(item: &Value) -> String {
    let field = |key: &str| item[key].as_str().unwrap_or_default();
    let size = |data: &str| kilobytes(data.len() * 3 / 4);
    match field("type") {
        "text" => field("text").to_string(),
        kind @ ("image" | "audio") => {
            let mime = item["mimeType"].as_str().unwrap_or(kind);
            format!("[{kind}: {mime}, {}]", size(field("data")))
        }
        "resource_link" => {
            let mut text = format!("[resource link: {} <{}>", field("name"), field("uri"));
            if !field("description").is_empty() {
                text.push_str(&format!(": {}", field("description")));
            }
            text + "]"
        }
        "resource" => {
            let resource = &item["resource"];
            let uri = resource["uri"].as_str().unwrap_or_default();
            match (resource["text"].as_str(), resource["blob"].as_str()) {
                (Some(text), _) => format!("[resource <{uri}>]\n{text}"),
                (None, Some(blob)) => {
                    let mime = resource["mimeType"].as_str().unwrap_or("binary");
                    format!("[resource <{uri}>: {mime}, {}]", size(blob))
                }
                (None, None) => format!("[resource <{uri}>]"),
            }
        }
        other => format!(
            "[{} content]",
            if other.is_empty() { "unknown" } else { other }
        ),
    }
}

/// A size in words ("3.9 KB"), in integers: `{:.1}` would link the float formatting machinery
/// (18 KB of wasm) into the module.
fn kilobytes(bytes: usize) -> String {
    let tenths = (bytes * 10 + 512) / 1024;
    match bytes < 1024 {
        true => format!("{bytes} bytes"),
        false => format!("{}.{} KB", tenths / 10, tenths % 10),
    }
}
