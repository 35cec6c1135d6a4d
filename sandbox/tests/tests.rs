//! The sandbox's tests, natively, in one binary. The index:

/// Random, truncated and corrupted bytes: always an error or an outcome, never a panic.
mod garbage;
/// Hostile modules written in WAT (`tests/hostile/*.wat`): every way a tool can misbehave,
/// and the outcome a model reads for each.
mod hostile;
/// The example tools of `tools-wasm/`, with real inputs, exact outputs and their fuel.
mod tools;
/// The WASI subset in detail: stdin, empty arguments and environment, the virtual clock,
/// seeded random bytes, fd state, and modules refused for their shape.
mod wasi;

use std::path::PathBuf;

use tao_sandbox::{inspect, run, Limits, Outcome};

/// A module from `tests/hostile/`, compiled from its WAT text.
pub fn hostile(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/hostile/{name}.wat"));
    wat::parse_file(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// An example tool from `pkg/tools/`. The tests compile nothing themselves: the tools are
/// built for wasm32-wasip1 by the build script, which must run first.
pub fn example_tool(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../pkg/tools/{name}.wasm"));
    std::fs::read(&path).unwrap_or_else(|error| {
        panic!(
            "cannot read {} ({error}); build the example tools first: scripts/build-sandbox.sh",
            path.display()
        )
    })
}

/// A module from WAT text written in a test.
pub fn wat(text: &str) -> Vec<u8> {
    wat::parse_str(text).unwrap_or_else(|error| panic!("bad WAT in a test: {error}"))
}

/// Runs a module that must be accepted, with `stdin` and `limits`.
pub fn run_ok(module: &[u8], stdin: &str, limits: &Limits) -> Outcome {
    run(module, stdin.as_bytes(), limits).unwrap_or_else(|error| panic!("refused: {error}"))
}

/// The message `inspect` refuses a module with (it must refuse it).
pub fn refusal(module: &[u8]) -> String {
    match inspect(module) {
        Ok(info) => panic!("accepted a module that should be refused: {info:?}"),
        Err(error) => error.message,
    }
}
