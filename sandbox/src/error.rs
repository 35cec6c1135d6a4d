//! Why a module cannot be used as a tool: a small type with a kind and an actionable message.
//!
//! Only problems with the *module* are errors: bytes that are not WebAssembly, an import the
//! sandbox refuses, a missing `_start`. Everything that goes wrong while a tool *runs* (it traps,
//! runs out of fuel, exits with a failure status) is not an error but part of the
//! [`Outcome`](crate::Outcome): the agent shows it to the model as an observation, the way it
//! shows any other tool failure.

use std::fmt;

/// What was wrong with the module, broadly; the message says exactly what and what to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The bytes are not a valid WebAssembly module (or use a feature the sandbox lacks).
    Invalid,
    /// The module is valid WebAssembly but not a tool the sandbox will run: it imports
    /// something outside the allow-list, or lacks the `_start` or `memory` export.
    Refused,
}

/// A module the sandbox cannot run: a kind and a lowercase message with a hint where one exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SandboxError {
    /// The broad kind.
    pub kind: ErrorKind,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl SandboxError {
    /// The bytes are not usable WebAssembly.
    pub fn invalid(message: impl Into<String>) -> Self {
        SandboxError {
            kind: ErrorKind::Invalid,
            message: message.into(),
        }
    }

    /// The module is WebAssembly, but not one the sandbox will run.
    pub fn refused(message: impl Into<String>) -> Self {
        SandboxError {
            kind: ErrorKind::Refused,
            message: message.into(),
        }
    }
}

impl fmt::Display for SandboxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SandboxError {}
