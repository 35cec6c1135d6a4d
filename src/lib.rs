//! # tao: a ReAct agent that runs in a web page
//!
//! ReAct (Yao et al., 2022) lets a language model interleave reasoning and acting: it writes a
//! **Thought**, chooses an **Action** (a tool and its input), reads the **Observation** the tool
//! returns, and repeats until it can give the final answer. tao runs that loop in Rust, compiled
//! to WebAssembly, entirely inside a browser tab; the same core runs natively for tests and the
//! `tao` command-line tool.
//!
//! ## Table of contents
//! - [`agent`]: the loop (`Agent::run`, `Agent::step`), events, budgets and stop reasons.
//! - [`trajectory`]: the record of a run (`Trajectory`, `Step`, `Stats`), as versioned JSON.
//! - [`format`]: the prompt formats (`mrkl`, `paper`, native `tools` / `auto`) and the lenient
//!   streaming parser.
//! - [`llm`]: the model trait; OpenAI-compatible and Anthropic providers over HTTP (request
//!   mapping, SSE decoding, retries, diagnostics), pure Rust. They know no prompt format.
//! - [`tools`]: the tool registry, input checking against each tool's JSON Schema, and the
//!   built-in tools: calculator, offline search/lookup, search/lookup over the live MediaWiki
//!   API, and `search_docs` over the pages of the site tao is embedded in.
//! - [`scenarios`]: built-in offline demos from the seed articles (compiled in natively; the
//!   shipped wasm loads them, and the offline search's pages, at run time), and the scripted
//!   (offline) model that plays them.
//! - [`eval`]: scoring answers as the paper did (HotpotQA EM/F1, FEVER accuracy), its CoT-SC
//!   vote, and its sample of 500 questions (Python's `Random(233).shuffle`, reproduced).
//! - [`training`]: trajectories as training data: one JSON record per run, each step's prompt.
//! - [`host`]: the clock and timer the loop needs from its environment.
//! - [`error`]: program errors (model mistakes are observations, not errors).
//! - `text` (internal): the text helpers the tools share: lower case without Unicode's tables,
//!   where sentences end (in English and Chinese), which characters are CJK. The ground floor:
//!   it imports nothing of the crate.
//! - [`json`](mod@json): the JSON value (`Value`, `json!`), reading it from text (`from_str`, with
//!   serde_json's errors), and reading tao's types out of it (not derived: size). It replaces
//!   serde_json, for size too.
//! - [`to_json`]: writing JSON (trajectories, events, request bodies), not derived either.
//! - `bindings` (wasm only): the JavaScript API (`Agent`, events, JS tools and models,
//!   `testConnection`) and the `fetch` transport.
//!
//! The core never imports `wasm_bindgen`, `web_sys` or `js_sys`: only `bindings` does, so
//! `cargo test` runs everything else natively in milliseconds.
//!
//! ## Untrusted input
//! Model output, tool output, provider responses (bodies, streams, error messages), wiki
//! replies (read up to 2 MB), imported trajectory files and user settings are untrusted.
//! What is protected: no input makes the core panic (the parser and the trajectory reader are
//! fuzzed with arbitrary bytes split at every position), nesting in calculator expressions and
//! JSON is bounded, a stream's line length is capped, and the page inserts all such text with
//! `textContent`, never as HTML. An API key is held only by the HTTP model and sent only in the
//! provider's auth header; text from the provider is scrubbed of it before it reaches an error
//! or an observation, and it is never part of a trajectory, an event or a model name. What
//! is not protected: a model can still be talked into calling a tool with harmful input, so
//! tools that act on the world should be marked as needing approval (a tool's input is checked
//! against its schema, which limits its shape, not its intent); and a JavaScript tool the
//! embedder registers runs with the page's privileges. Model-written code does not: `run_js`
//! runs it in an opaque-origin iframe's Worker with no network, and wasm tools run in wasmi
//! with fuel, memory and output caps, both off the page's thread (see the README's Safety).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

// The wasm's allocator: rlsf's TLSF (two-level segregated fit: constant-time allocation and
// freeing, free blocks merged with their neighbours, and the pages it takes from `memory.grow`
// merged into one pool) instead of std's dlmalloc. A well-kept library, chosen by measurement:
// the core 1.8 KB gzip smaller, and a turn no slower (`bench/ab.mjs`, 300 pairs: 0.96 and 1.005
// in the two orders at 10 steps; 0.96 at 50 with a listener), at "z" as at opt-level 3. Its own
// `realloc` (growing a block in place) is left out, as its code-size preset does: 0.3 KB for no
// measurable gain (a growing string or list doubles its capacity). Memory does not grow from
// run to run (400 runs of 50 steps); a run with 10 MB of observations peaked at 53 MB against
// dlmalloc's 46. Natively, the system's allocator.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: rlsf::GlobalTlsf<Pools> = rlsf::GlobalTlsf::new();

/// rlsf's options: the pools merged, no in-place `realloc` (see above).
#[cfg(target_arch = "wasm32")]
struct Pools;

#[cfg(target_arch = "wasm32")]
impl rlsf::GlobalTlsfOptions for Pools {
    const ENABLE_REALLOCATION: bool = false;
}

pub mod agent;
pub mod chat;
pub mod error;
pub mod eval;
pub mod event;
pub mod format;
pub mod host;
pub mod http;
pub mod json;
pub mod llm;
#[cfg(feature = "providers")]
pub mod mcp;
pub mod prompt;
pub mod scenarios;
pub mod settings;
mod text;
pub mod to_json;
pub mod tools;
pub mod training;
pub mod trajectory;
pub mod zh;

// The tests' deterministic random source, shared with tests/ and `make fuzz`.
#[cfg(test)]
#[path = "../tests/rng.rs"]
mod rng;

#[cfg(target_arch = "wasm32")]
pub mod bindings;

pub use agent::{Abort, Agent, Config};
pub use error::{Error, ErrorKind};
pub use event::Event;
pub use text::estimate_tokens;
pub use trajectory::{Step, StopReason, Trajectory};
