//! # tao-sandbox: wasm tools for tao, run under budgets
//!
//! A tao tool can be a WebAssembly *command* module built for `wasm32-wasip1` in any language:
//! the action input arrives on stdin, what it prints on stdout is the observation, and stderr
//! with a non-zero exit status is an error observation. This crate runs such modules in
//! [wasmi](https://docs.rs/wasmi), a WebAssembly interpreter written in Rust, with a fuel
//! budget, a memory cap and an output cap per call, and with only fourteen WASI calls available.
//!
//! It is its own wasm module, apart from tao's core: wasmi adds a few hundred KB, so the page
//! fetches it only when the first wasm tool is registered, and runs it in a Worker so a long
//! tool never freezes the page (`www/sandbox.js`, `www/sandbox-worker.js`).
//!
//! ## Table of contents
//! - [`inspect`] and [`run`]: the two entry points (registration, one call).
//! - [`tool`]: [`WasmTool`], a module checked and compiled once; [`ModuleInfo`].
//! - [`run`](mod@run): [`Limits`], [`Outcome`], [`Stop`]; one run in a fresh store.
//! - [`wasi`]: the allow-list ([`wasi::ALLOWED`]) and its implementation over wasmi's linker.
//! - [`error`]: [`SandboxError`], for modules that cannot be used at all.
//! - `bindings` (wasm only): the JavaScript surface, `inspect` and `run`.
//!
//! ## Untrusted input
//! The module bytes and the input are untrusted. What is protected: no bytes make the sandbox
//! panic (tests feed it random and truncated modules); a tool cannot loop forever (fuel, the
//! same count on every machine), cannot take more than the memory cap of linear memory, a
//! bounded table and a bounded wasm call stack (wasmi's default of 1 000 nested calls), cannot
//! print more than the output cap, and can see nothing but its input, an empty argument list
//! and environment, a virtual clock and seeded pseudo-random bytes. What is not protected:
//! compiling a module is not fuel-metered (wasmi's strict module-shape limits bound it, and in
//! the page the Worker's wall-clock timeout is the last resort); the host memory wasmi uses for
//! its own bookkeeping is outside the memory cap; and the random bytes are predictable by
//! design, so a tool must not use them for secrets. A tool's *output* is untrusted text like
//! any observation: the page shows it with `textContent`.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod error;
pub mod run;
pub mod tool;
pub mod wasi;

#[cfg(target_arch = "wasm32")]
mod bindings;

pub use error::{ErrorKind, SandboxError};
pub use run::{Limits, Outcome, Stop};
pub use tool::{ModuleInfo, WasmTool};

/// Checks that `module` can be a tool: valid WebAssembly, a WASI command (`_start` and
/// `memory` exported), importing nothing outside [`wasi::ALLOWED`]. The error names the first
/// import that is not allowed.
pub fn inspect(module: &[u8]) -> Result<ModuleInfo, SandboxError> {
    WasmTool::new(module).map(|tool| tool.info().clone())
}

/// Checks `module` like [`inspect`], then runs it once with `stdin` as its input.
///
/// Only an unusable module is an `Err`; a tool that crashes, loops or fails still gives an
/// [`Outcome`] (see [`Outcome::observation`] for the text the model reads).
pub fn run(module: &[u8], stdin: &[u8], limits: &Limits) -> Result<Outcome, SandboxError> {
    Ok(WasmTool::new(module)?.run(stdin, limits))
}
