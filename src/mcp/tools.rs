//! A server's tools as tao offers them: read from a `tools/list` page, named apart from the
//! agent's other tools, asking first as the setting says, and the arguments a modern server
//! wants mirrored into headers (`x-mcp-header`), encoded as the specification says.

use super::settings::{token_byte, Approve, Server};
use crate::chat::ToolSpec;
use crate::error::Error;
use crate::json::Value;

/// A tool as the server lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    /// The server's name for it (what `tools/call` sends).
    pub name: String,
    /// What it is for.
    pub description: String,
    /// Its input's JSON Schema.
    pub schema: Value,
    /// The arguments a modern server wants mirrored into headers (`x-mcp-header`): the path of
    /// `properties` keys to each, and the header's name after `Mcp-Param-`.
    pub param_headers: Vec<(Vec<String>, String)>,
}

/// Checks that the tools `server`'s setting names (to offer, to ask about) are tools the server
/// listed: a misspelled name would otherwise leave a tool out, or unasked, in silence.
pub fn check_names(server: &Server, listed: &[Listed]) -> Result<(), Error> {
    let only = match &server.approve {
        Approve::Only(names) => names.as_slice(),
        _ => &[],
    };
    let named = server.tools.iter().flatten().chain(only);
    match named
        .into_iter()
        .find(|n| !listed.iter().any(|t| &t.name == *n))
    {
        None => Ok(()),
        Some(name) => {
            let theirs: Vec<&str> = listed.iter().map(|t| t.name.as_str()).collect();
            Err(Error::config(format!(
                "the MCP server {} has no tool \"{name}\"; its tools are: {}",
                server.url,
                theirs.join(", ")
            )))
        }
    }
}

/// The specs the agent gets for `server`'s tools `listed`: the ones the setting offers, named
/// as the server names them unless a name is `taken` (by another tool, or one of another server
/// listed before), then with the server's label in front (`label_name`); each name given is
/// added to `taken`.
pub fn specs(
    server: &Server,
    label: &str,
    listed: &[Listed],
    taken: &mut Vec<String>,
) -> Vec<(ToolSpec, String)> {
    let offered = |name: &str| match &server.tools {
        None => true,
        Some(names) => names.iter().any(|n| n == name),
    };
    let mut specs = Vec::new();
    for tool in listed.iter().filter(|t| offered(&t.name)) {
        let free = |name: &str| !taken.iter().any(|t| t.eq_ignore_ascii_case(name));
        let mut name = tool.name.clone();
        if !free(&name) {
            name = format!("{label}_{}", tool.name);
            let mut n = 2;
            while !free(&name) {
                name = format!("{label}{n}_{}", tool.name);
                n += 1;
            }
        }
        taken.push(name.clone());
        let mut spec = ToolSpec::new(&name, &tool.description, tool.schema.clone());
        spec.needs_approval = match &server.approve {
            Approve::All => true,
            Approve::Never => false,
            Approve::Only(names) => names.iter().any(|n| n == &tool.name),
        };
        specs.push((spec, tool.name.clone()));
    }
    specs
}

/// A server's label for tool names that collide: the host's first word (`mcp.example.com` →
/// `mcp`, `127.0.0.1:3001` → `127_0_0_1_3001`), in the characters a tool name may have.
pub fn label(url: &str) -> String {
    let host = url.split("://").nth(1).unwrap_or(url);
    let host = host.split(['/', '?', '#']).next().unwrap_or(host);
    let host = host.rsplit('@').next().unwrap_or(host);
    let numeric = host
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'.' || b == b':');
    let word = match numeric {
        true => host,
        false => host.split(['.', ':']).next().unwrap_or(host),
    };
    let clean: String = word
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    match clean.is_empty() {
        true => "server".into(),
        false => clean,
    }
}

/// A tool of a `tools/list` page, or `None` when it cannot be offered (no name, or headers
/// annotated against the rules).
pub(super) fn listed(tool: &Value) -> Option<Listed> {
    let name = tool["name"].as_str().filter(|n| !n.trim().is_empty())?;
    let mut schema = match &tool["inputSchema"] {
        Value::Object(_) => tool["inputSchema"].clone(),
        _ => crate::json!({"type": "object"}),
    };
    // Which draft of JSON Schema it is written in says nothing the model needs.
    if let Some(fields) = schema.as_object_mut() {
        fields.remove("$schema");
    }
    let mut param_headers = Vec::new();
    mirrored(&schema, &mut Vec::new(), &mut param_headers).ok()?;
    let mut seen: Vec<String> = Vec::new();
    for (_, header) in &param_headers {
        if seen.iter().any(|h| h.eq_ignore_ascii_case(header)) {
            return None;
        }
        seen.push(header.clone());
    }
    let description = tool["description"]
        .as_str()
        .or(tool["title"].as_str())
        .unwrap_or_default();
    Some(Listed {
        name: name.to_string(),
        description: description.to_string(),
        schema,
        param_headers,
    })
}

/// Collects the `x-mcp-header` annotations of `schema`'s properties (reached through
/// `properties` keys only); an annotation that breaks the rules is an error, and so is one
/// anywhere else (under `items`, `anyOf`, `$defs`…: the specification rejects the tool).
fn mirrored(
    schema: &Value,
    path: &mut Vec<String>,
    found: &mut Vec<(Vec<String>, String)>,
) -> Result<(), ()> {
    let fields = schema.as_object().into_iter().flat_map(|o| o.iter());
    let mut elsewhere = fields.filter(|(key, _)| match key.as_str() {
        "properties" => false,
        // A property's own annotation is read by its parent's loop (below, one level up);
        // one on the root schema annotates no argument.
        "x-mcp-header" => path.is_empty(),
        _ => true,
    });
    if elsewhere.any(|(key, value)| key == "x-mcp-header" || annotated(value)) {
        return Err(());
    }
    let Some(properties) = schema["properties"].as_object() else {
        return Ok(());
    };
    for (key, property) in properties.iter() {
        path.push(key.clone());
        if let Some(header) = property.get("x-mcp-header") {
            let header = header.as_str().ok_or(())?;
            let primitive = matches!(
                property["type"].as_str(),
                Some("string" | "integer" | "boolean")
            );
            if header.is_empty() || !header.bytes().all(token_byte) || !primitive {
                return Err(());
            }
            found.push((path.clone(), header.to_string()));
        }
        mirrored(property, path, found)?;
        path.pop();
    }
    Ok(())
}

/// Whether an `x-mcp-header` key is anywhere in `value`.
fn annotated(value: &Value) -> bool {
    match value {
        Value::Object(o) => o.iter().any(|(k, v)| k == "x-mcp-header" || annotated(v)),
        Value::Array(items) => items.iter().any(annotated),
        _ => false,
    }
}

/// The `Mcp-Param-*` headers of a call: each annotated argument present, encoded.
pub(super) fn param_headers(tool: &Listed, arguments: &Value) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    for (path, header) in &tool.param_headers {
        let mut value = arguments;
        for key in path {
            value = &value[key.as_str()];
        }
        let text = match value {
            Value::String(s) => s.clone(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => n.to_string(),
            _ => continue,
        };
        headers.push((
            format!("mcp-param-{}", header.to_ascii_lowercase()),
            header_value(&text),
        ));
    }
    headers
}

/// A value as a header carries it: as it is when it is plain visible ASCII, else Base64 in the
/// specification's `=?base64?…?=` sentinel.
pub(super) fn header_value(text: &str) -> String {
    let plain = text
        .bytes()
        .all(|b| (0x20..=0x7e).contains(&b) || b == b'\t')
        && text.trim() == text
        && !(text.starts_with("=?base64?") && text.ends_with("?="));
    match plain {
        true => text.to_string(),
        false => format!("=?base64?{}?=", base64(text.as_bytes())),
    }
}

/// Standard Base64, with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, &b| (n << 8) | b as u32) << (8 * (3 - chunk.len()));
        for i in 0..4 {
            match i <= chunk.len() {
                true => out.push(ALPHABET[(n >> (18 - 6 * i)) as usize & 63] as char),
                false => out.push('='),
            }
        }
    }
    out
}
