//! tao's native tests: one binary, one module per concern.
//!
//! Tests read like transcripts and transcripts are data: the files in `tests/transcripts/`
//! hold a model's replies and the trajectory they must produce, compared whole.

/// The loop's contract: events in order, budgets, abort, retries, errors keep the trajectory.
mod agent;
/// `search_docs` over a small documentation site: ranking, passages, CJK, bad document lists,
/// and no panic on random pages and queries.
mod docs;
/// Scoring as the paper did: HotpotQA's official EM and F1 on its edge cases, FEVER labels,
/// the CoT-SC vote, and the paper's sample of 500 (Python's shuffle, reproduced).
mod eval;
/// Real providers as they really behave: stalls, web pages where the API should be,
/// refusals, truncation, parallel tool calls, reasoning, late usage, masked keys; each in the
/// vendor's documented stream format.
mod faults;
/// The JSON reader and writer against serde_json, which they replaced: the same values, the
/// same errors at the same places, the same text written; for every JSON file, the edges, and
/// thousands of random and mutated documents.
mod json;
/// MCP servers over a scripted transport: the modern request and the older handshake as real
/// servers answer them, sessions dropped and hidden, failures with their fixes, event streams
/// split anywhere, mirrored headers, results as observations, and the `mcp` setting.
mod mcp;
/// The JS model interface's values: the pieces a model function streams, the reply it returns
/// (and the errors when it returns something else), and the messages it is given.
mod model_function;
/// The paper's modes as formats (act, cot, standard): prompts, turns, replies read, no tools
/// in the no-tool modes, exemplars, and each mode's scripted mistakes.
mod modes;
/// The lenient streaming parser against the shared corpus (real outputs and the anchors'
/// own parser tests), split at every byte, and fuzzed.
mod parser;
/// Providers over a recorded transport: request bodies, vendor streams split at every byte,
/// retries, failures with their fixes, the client-side stop, and `auto`'s fallback.
mod providers;
/// A small deterministic random source for the randomised tests (shared with `make fuzz`).
mod rng;
/// `tao parse`'s JSON verdicts, compiled from the CLI's own source so that the corpus tests
/// score exactly what `make parse-score` scores.
#[path = "../src/bin/tao/score.rs"]
mod score;
/// The shape of the code: the loop's line budget, no circle among the modules, and only the
/// bindings touching JavaScript.
mod shape;
/// The studio's core: pause points, resume, each step's exact prompt, forks, honest offline.
mod studio;
/// The tools' module's toolboxes: each kind of built-in tool made from its settings as JSON,
/// the network asked only by the kinds that need it, and bad settings.
mod toolbox;
/// Trajectories as training data: each step's prompt as the model was sent it, and
/// `tao export-jsonl` over a directory of files.
mod training;
/// Trajectory files: round trip, and no panic on any input.
mod trajectory_file;
/// Scripted replies in, rendered trajectory out: the loop end to end, one file per case.
mod transcripts;
/// The live Wikipedia tools against a wiki in a file (the one the node mock serves): the
/// paper's WikiEnv observations, redirects, misses, Chinese, URL encoding, failures, and a
/// two-hop run in the paper's format.
mod wikipedia;
