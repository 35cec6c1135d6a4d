//! MCP: tools from servers reached over Streamable HTTP (the Model Context Protocol's remote
//! transport).
//!
//! A server is a URL, with headers (a token, most often) that stay in memory. Its tools become
//! tools like any other: listed when a run starts, described to the model under their own names
//! (a name another tool already has gets the server's name in front), their input checked
//! against their schema by the agent, each call a `tools/call`, asking the user first unless
//! told otherwise (a remote tool may change the world).
//!
//! Both generations of the transport are spoken, as the 2026-07-28 specification's "Backward
//! Compatibility" says. A server is first sent a modern request: stateless, the version, the
//! client and its capabilities in the request's `_meta` and headers. A server that answers it,
//! or answers with a modern error (such as the versions it does speak), is modern; one that
//! refuses it any other way is an older one, and gets the `initialize` handshake and its session
//! (`Mcp-Session-Id`), as revisions 2025-03-26 to 2025-11-25 ask. The era found is kept for the
//! connection; a session the server dropped is opened again, once.
//!
//! Written here rather than taken from the official TypeScript SDK: the SDK's client and the
//! schema library it needs weigh more than tao's whole core, and what a tool-using client needs
//! is small (two methods, two framings of a reply). It lives in the providers' module, loaded
//! only when a run uses a server.
//!
//! The parts: the setting (`settings.rs`: which servers, with what headers, which tools and
//! approvals), the connection (`client.rs`: the eras, the session, the two framings of a reply,
//! the errors), the tools as the server lists them (`tools.rs`: their specs and names, the
//! arguments mirrored into headers) and a call's result in words (`results.rs`).

mod client;
mod results;
mod settings;
mod tools;

pub use client::Client;
pub use results::observation;
pub use settings::{servers, Approve, Server};
pub use tools::{check_names, label, specs, Listed};

/// The modern revision tao speaks (stateless, no handshake).
pub const MODERN: &str = "2026-07-28";
/// The revisions with the `initialize` handshake tao speaks, newest first.
pub const LEGACY: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26"];
