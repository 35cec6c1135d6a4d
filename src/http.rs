//! HTTP as the core sees it: a request, the start of a response, a body read chunk by chunk,
//! and a [`Transport`] that sends requests.
//!
//! The core never opens a connection itself: the host supplies the transport (the browser's
//! `fetch` in the bindings; recorded responses in tests). Models POST JSON and stream the
//! reply; the wiki and the documents are read with plain GETs. This file is the ground floor
//! both `llm` and `tools` stand on, so neither imports the other.

use crate::error::Error;
use crate::host::LocalBoxFuture;

/// How a request is sent: models are POSTed a JSON body; a wiki is read with plain GETs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// A read: everything is in the URL, and the body is not sent.
    Get,
    /// The body is sent.
    Post,
}

/// An HTTP request, ready to send.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpRequest {
    /// GET or POST.
    pub method: Method,
    /// The full URL.
    pub url: String,
    /// Header names (lowercase) and values. A GET carries none: a request with only "simple"
    /// headers needs no CORS preflight, and servers like MediaWiki answer no preflight.
    pub headers: Vec<(String, String)>,
    /// The JSON body of a POST (empty for a GET).
    pub body: String,
}

impl HttpRequest {
    /// A plain GET of `url`, with no headers (so no CORS preflight).
    pub fn get(url: impl Into<String>) -> Self {
        HttpRequest {
            method: Method::Get,
            url: url.into(),
            headers: Vec::new(),
            body: String::new(),
        }
    }
}

/// The start of an HTTP response; the body is read chunk by chunk.
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// The `Retry-After` header, when the server sent one (and CORS lets the page read it).
    pub retry_after: Option<String>,
    /// The `Content-Type` header.
    pub content_type: String,
    /// The `Mcp-Session-Id` header: the session an MCP server keeps (when CORS lets the page
    /// read it).
    pub session: Option<String>,
    /// The body.
    pub body: Box<dyn Body>,
}

/// A response body being received. Dropping it cancels the request: that is how a stream is
/// stopped early.
pub trait Body {
    /// The next chunk of bytes, or `None` at the end.
    fn chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, Error>>;
}

/// Sends HTTP requests (the browser's `fetch`, or a recording in tests). A failure to get any
/// response at all is an error of kind [`crate::ErrorKind::Network`] (or `Aborted`) with the
/// transport's own words; the caller turns it into advice.
pub trait Transport {
    /// Sends `request` and resolves when the response's status and headers are in.
    fn send(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, Error>>;
}

/// A whole body, as far as it was read.
pub struct Whole {
    /// The bytes, at most the limit asked for.
    pub bytes: Vec<u8>,
    /// Whether the body went on past the limit (and was cut there).
    pub cut: bool,
}

/// Reads a whole body, up to `limit` bytes (a server may send more than anyone wants to keep);
/// the error is the transport's when the connection breaks on the way.
pub async fn read_body(mut body: Box<dyn Body>, limit: usize) -> Result<Whole, Error> {
    let mut bytes = Vec::new();
    while let Some(chunk) = body.chunk().await? {
        bytes.extend_from_slice(&chunk);
        if bytes.len() > limit {
            bytes.truncate(limit);
            return Ok(Whole { bytes, cut: true });
        }
    }
    Ok(Whole { bytes, cut: false })
}

/// Reads a whole reply from `host` that must fit in `limit` bytes (a wiki page, a documents
/// file), with the failure worded for an observation.
pub async fn read_reply(body: Box<dyn Body>, limit: usize, host: &str) -> Result<Vec<u8>, String> {
    match read_body(body, limit).await {
        Ok(Whole { bytes, cut: false }) => Ok(bytes),
        Ok(Whole { cut: true, .. }) => Err(format!(
            "the reply from {host} is larger than {} MB",
            limit >> 20
        )),
        Err(e) => Err(format!("the connection to {host} broke ({})", e.message)),
    }
}
