//! Failures of a model over HTTP, turned into errors that name the cause and the fix.
//!
//! Failures are where users lose an afternoon: CORS and network failures (with the hint that
//! applies: Ollama needs `OLLAMA_ORIGINS`, a server may send no CORS headers), a refused key, a
//! wrong base URL or model, a prompt too long for the context window, a rate limit that did
//! not pass, a web page where the API should be. Each becomes an [`Error`] with a kind and a
//! sentence saying what to do. Web pages (a proxy's error page, a web server's welcome page)
//! are summarised, never shown as markup. The API key is never part of any of them: text from
//! the server is scrubbed of it, and of the pieces of it servers quote (`sk-proj-ab***xyz1`).

use super::provider::Settings;
use super::Request;
use crate::error::{Error, ErrorKind};
use crate::json::Value;

/// Which rejected parameter a 400 names, if it is one tao can do without.
pub fn rejected_parameter(
    settings: &Settings,
    dropped: &[&'static str],
    status: u16,
    body: &str,
    request: &Request,
) -> Option<&'static str> {
    if status != 400 && status != 422 {
        return None;
    }
    let lower = body.to_ascii_lowercase();
    settings
        .api
        .provider()
        .optional_parameters()
        .iter()
        .copied()
        .find(|&p| {
            let sent = match p {
                "stop" | "stop_sequences" => !request.stop.is_empty(),
                "temperature" => settings.temperature.is_some(),
                "max_tokens" => settings.max_tokens.is_some(),
                _ => true,
            };
            sent && !dropped.contains(&p)
                && (lower.contains(&format!("'{p}'"))
                    || lower.contains(&format!("\"{p}\""))
                    || lower.contains(&format!("`{p}`"))
                    || lower.contains(&format!("\"param\":\"{p}\""))
                    || lower.contains(&format!("{p}: ")))
        })
}

/// The error for a request that got no response at all, with the hint that applies.
pub fn unreachable(settings: &Settings, url: &str, cause: &str) -> Error {
    let base = settings.base_url.to_ascii_lowercase();
    let local = ["localhost", "127.0.0.1", "[::1]", "0.0.0.0"]
        .iter()
        .any(|h| base.contains(h));
    let hint = if base.contains(":11434") || base.contains("ollama") {
        "Ollama answers web pages only when started with OLLAMA_ORIGINS set, e.g. OLLAMA_ORIGINS=\"*\" ollama serve (and it must be running)"
    } else if let Some(hint) = settings.api.provider().unreachable_hint() {
        hint
    } else if local {
        "is the server running at that address? It must also allow cross-origin requests (LM Studio: enable CORS in the server settings; llama.cpp and vLLM: allow the page's origin)"
    } else {
        "the server may not send CORS headers (browsers then block the response; the browser console says \"CORS\"), the base URL may be wrong, or you are offline"
    };
    Error::new(
        ErrorKind::Network,
        scrub(
            settings,
            &format!("could not reach {url} ({cause}): {hint}"),
        ),
    )
}

/// The error for an HTTP failure that is not worth retrying (or no longer).
pub fn diagnose(settings: &Settings, status: u16, detail: &str, url: &str, retries: u32) -> Error {
    let s = settings;
    let lower = detail.to_ascii_lowercase();
    let too_long = [
        "context_length",
        "context length",
        "context window",
        "too long",
        "maximum context",
        "too many tokens",
    ]
    .iter()
    .any(|m| lower.contains(m));
    let (kind, message) = match status {
        401 | 403 if lower.contains("cors") || lower.contains("browser-access") => (
            ErrorKind::Auth,
            format!("{} refused a request from a web page (HTTP {status}: {detail}); Anthropic needs the header anthropic-dangerous-direct-browser-access: true", s.api.name()),
        ),
        401 | 403 => (
            ErrorKind::Auth,
            format!("the endpoint refused the API key (HTTP {status}: {detail}); check that the key is right, belongs to this provider, and may use the model \"{}\"", s.model),
        ),
        404 if lower.contains("model") => (
            ErrorKind::NotFound,
            format!("the model \"{}\" was not found (HTTP 404: {detail}); check its exact name (for Ollama: ollama pull {})", s.model, s.model),
        ),
        404 => (
            ErrorKind::NotFound,
            format!("nothing answers at {url} (HTTP 404: {detail}); the base URL is probably wrong: OpenAI-compatible ones usually end in /v1 (http://localhost:11434/v1 for Ollama)"),
        ),
        400 | 413 | 422 if too_long => (
            ErrorKind::TooLong,
            format!("the prompt is longer than the model's context window (HTTP {status}: {detail}); lower the step budget, shorten the task, or pick a model with a longer context"),
        ),
        429 => (
            ErrorKind::RateLimited,
            format!("rate limited (HTTP 429) after {retries} retries: {detail}; wait a minute, or check your plan's limits and billing"),
        ),
        408 | 500.. => (
            ErrorKind::Server,
            format!("the server failed (HTTP {status}) after {retries} retries: {detail}; try again later"),
        ),
        _ => (
            ErrorKind::Model,
            format!("the endpoint rejected the request (HTTP {status}: {detail})"),
        ),
    };
    Error::new(kind, scrub(settings, &message))
}

/// The error for a 200 that is a web page, not an API's reply: the base URL points at a web
/// server (or a login page, a proxy's portal).
pub fn not_an_api(settings: &Settings, url: &str, page: &str) -> Error {
    let found = page_summary(page).unwrap_or_else(|| "an empty web page".into());
    Error::new(
        ErrorKind::NotFound,
        scrub(
            settings,
            &format!("{url} is not an API endpoint: it answered with a web page ({found}); the base URL is probably wrong: OpenAI-compatible ones usually end in /v1 (http://localhost:11434/v1 for Ollama)"),
        ),
    )
}

/// A web page in a few words: `a web page titled "502 Bad Gateway": 502 Bad Gateway nginx`;
/// `None` when `body` is not HTML.
pub fn page_summary(body: &str) -> Option<String> {
    let body = body.trim_start();
    // ASCII lower-casing keeps every byte where it was, so positions found in `lower` hold in
    // `body`.
    let lower = body.to_ascii_lowercase();
    let tags = ["<html", "<!doctype", "<head", "<title", "<body"];
    if !body.starts_with('<') || !tags.iter().any(|t| lower.contains(t)) {
        return None;
    }
    let inside = |tag: &str| {
        let open = lower.find(&format!("<{tag}"))?;
        let start = open + lower[open..].find('>')? + 1;
        let end = start + lower[start..].find(&format!("</{tag}"))?;
        Some(&body[start..end])
    };
    // The words a reader sees: the body's text without its tags (styles and scripts are in the
    // head of the pages this meets: web servers' and proxies' own).
    let mut text = String::new();
    let mut in_tag = false;
    for c in inside("body").unwrap_or(body).chars() {
        match c {
            '<' => {
                in_tag = true;
                text.push(' ');
            }
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = words(&text, 30);
    Some(match inside("title").map(|t| words(t, 20)) {
        Some(title) if !title.is_empty() => format!("a web page titled \"{title}\": {text}"),
        _ => format!("a web page: {text}"),
    })
}

/// The first `n` words of `text`, on one line.
fn words(text: &str, n: usize) -> String {
    let all: Vec<&str> = text.split_whitespace().collect();
    let mut out = all[..all.len().min(n)].join(" ");
    if all.len() > n {
        out.push('…');
    }
    out
}

/// A stream that broke, carried an error or could not be read.
pub fn stream_error(settings: &Settings, problem: &str) -> Error {
    Error::new(
        ErrorKind::Server,
        scrub(
            settings,
            &format!("{} stream failed: {problem}", settings.api.name()),
        ),
    )
}

/// Whether a refusal (HTTP `status`, saying `detail`) is about native tool calling: `auto`
/// then falls back to text ReAct.
pub fn rejects_tools(status: u16, detail: &str) -> bool {
    (400..500).contains(&status)
        && ![401, 403, 429].contains(&status)
        && detail.to_ascii_lowercase().contains("tool")
}

/// `text` without the API key in it (servers sometimes echo part or all of it).
pub fn scrub(settings: &Settings, text: &str) -> String {
    redact(text, &settings.key)
}

/// The useful sentence of an error body: `error.message` in both APIs' JSON (and Ollama's
/// `{"error": "..."}`), else the start of the text.
pub fn error_detail(body: &str) -> String {
    match crate::json::from_str(body) {
        Ok(v) if !v["error"].is_null() => error_text(&v["error"]),
        Ok(v) if v["message"].is_string() => v["message"].as_str().unwrap_or_default().into(),
        _ if body.trim().is_empty() => "no details".into(),
        _ if page_summary(body).is_some() => page_summary(body).unwrap_or_default(),
        _ => preview(body.trim(), 300),
    }
}

/// The message of an `error` value: a string, or an object with `message` (and `type`/`code`).
pub fn error_text(error: &Value) -> String {
    if let Some(text) = error.as_str() {
        return text.to_string();
    }
    let message = error["message"].as_str().unwrap_or("no message");
    match error["code"].as_str().or(error["type"].as_str()) {
        Some(code) => format!("{message} [{code}]"),
        None => message.to_string(),
    }
}

/// The message for a chunk that is not JSON.
pub fn bad_json(data: &str, error: &crate::json::Error) -> String {
    format!(
        "a chunk is not valid JSON ({error}): {}",
        preview(data, 120)
    )
}

/// `text` without any copy of `key`, nor any run of 6 or more of its first or last characters
/// (servers quote keys masked, `sk-canar****Z123`; the visible ends are still the key's). Keys
/// shorter than 8 characters are not secrets worth the false positives.
pub fn redact(text: &str, key: &str) -> String {
    let key = key.trim();
    if key.len() < 8 {
        return text.to_string();
    }
    let mut out = text.replace(key, "[key]");
    // Longest runs first, so a long run is not left half replaced by a shorter one.
    for n in (6..key.len()).rev() {
        let ends = [key.get(..n), key.get(key.len() - n..)];
        for end in ends.into_iter().flatten() {
            if out.contains(end) {
                out = out.replace(end, "[key]");
            }
        }
    }
    out
}

/// The first `max` characters of `text`, with "…" when there were more.
pub fn preview(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}
