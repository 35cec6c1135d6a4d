//! The `mcp` setting: the servers, each a URL or `{url, headers?, tools?, approve?}`, checked.
//! A header's value is a secret (a token, most often): no error ever quotes one.

use crate::error::Error;
use crate::json::Value;

/// One server, as the `mcp` setting gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Server {
    /// The MCP endpoint (`https://example.com/mcp`).
    pub url: String,
    /// Headers sent with every request (`Authorization: Bearer …`): kept in memory only, never
    /// written into a trajectory, an event, an error or a link.
    pub headers: Vec<(String, String)>,
    /// The server's tools to offer, by the server's names; `None` is all of them.
    pub tools: Option<Vec<String>>,
    /// Which tools ask the user before each call.
    pub approve: Approve,
}

/// Which of a server's tools ask the user before each call.
#[derive(Clone, Debug, PartialEq)]
pub enum Approve {
    /// All of them (the default: a remote tool may have effects).
    All,
    /// None.
    Never,
    /// Those named (the server's names).
    Only(Vec<String>),
}

/// Reads the `mcp` setting: a list of servers, each a URL or `{url, headers?, tools?,
/// approve?}`. The errors never quote a header's value.
pub fn servers(value: &Value) -> Result<Vec<Server>, Error> {
    let example = "mcp must be a list of servers, e.g. [{url: \"https://example.com/mcp\", headers: {Authorization: \"Bearer …\"}}]";
    let Value::Array(list) = value else {
        return Err(Error::config(example));
    };
    list.iter().map(|item| server(item, example)).collect()
}

fn server(item: &Value, example: &str) -> Result<Server, Error> {
    let (url, object) = match item {
        Value::String(url) => (url.as_str(), None),
        Value::Object(o) => match o.get("url") {
            Some(Value::String(url)) => (url.as_str(), Some(o)),
            _ => {
                return Err(Error::config(format!(
                    "each MCP server needs a url: {example}"
                )))
            }
        },
        _ => return Err(Error::config(example)),
    };
    let url = url.trim();
    if !(url.starts_with("https://") || url.starts_with("http://")) {
        return Err(Error::config(format!(
            "the MCP server \"{url}\" must be an http:// or https:// URL (tao speaks MCP over HTTP)"
        )));
    }
    let field = |key: &str| object.and_then(|o| o.get(key)).filter(|v| !v.is_null());
    if let Some(key) = object.and_then(|o| {
        o.keys()
            .find(|k| !["url", "headers", "tools", "approve"].contains(&k.as_str()))
    }) {
        return Err(Error::config(format!(
            "unknown field \"{key}\" of the MCP server {url}; the fields are url, headers, tools, approve"
        )));
    }
    let headers = headers(field("headers"), url)?;
    let names = |v: &Value, what: &str| match v {
        Value::Array(items) if items.iter().all(Value::is_string) => Ok(items
            .iter()
            .filter_map(|i| i.as_str().map(String::from))
            .collect()),
        _ => Err(Error::config(format!(
            "{what} of the MCP server {url} must be a list of its tools' names"
        ))),
    };
    let tools = field("tools").map(|v| names(v, "tools")).transpose()?;
    let approve = match field("approve") {
        None | Some(Value::Bool(true)) => Approve::All,
        Some(Value::Bool(false)) => Approve::Never,
        Some(v) => Approve::Only(names(v, "approve (true, false or a list)")?),
    };
    Ok(Server {
        url: url.to_string(),
        headers,
        tools,
        approve,
    })
}

/// The `headers` of the server at `url`, names lowercased; the errors name the header, never
/// its value.
fn headers(field: Option<&Value>, url: &str) -> Result<Vec<(String, String)>, Error> {
    let map = match field {
        None => return Ok(Vec::new()),
        Some(Value::Object(map)) => map,
        Some(_) => {
            return Err(Error::config(format!(
                "the headers of the MCP server {url} must be an object of strings, e.g. {{Authorization: \"Bearer …\"}}"
            )))
        }
    };
    let mut headers = Vec::new();
    for (name, value) in map.iter() {
        let Value::String(value) = value else {
            return Err(Error::config(format!(
                "the header \"{name}\" of the MCP server {url} must be a string"
            )));
        };
        if name.is_empty() || !name.bytes().all(token_byte) {
            // Quoted only up to the first wrong character: what follows may be a token pasted
            // with its name (`"Authorization: Bearer …"`).
            let start: String = name
                .chars()
                .take_while(|c| c.is_ascii() && token_byte(*c as u8))
                .collect();
            return Err(Error::config(format!(
                "\"{start}…\" is not a header name (the MCP server {url}): give each header's name and value apart, e.g. {{Authorization: \"Bearer …\"}}"
            )));
        }
        // What `fetch` would refuse (its error may quote the value): line breaks inside, or
        // characters beyond plain text. Spaces around are dropped, as `fetch` drops them.
        let value = value.trim_matches([' ', '\t', '\r', '\n']);
        if !value
            .bytes()
            .all(|b| (0x20..=0x7e).contains(&b) || b == b'\t')
        {
            return Err(Error::config(format!(
                "the header \"{name}\" of the MCP server {url} has a character a header may not carry (a line break, or one beyond ASCII)"
            )));
        }
        headers.push((name.to_ascii_lowercase(), value.to_string()));
    }
    Ok(headers)
}

/// A byte of an HTTP header name (RFC 9110's `tchar`).
pub(super) fn token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}
