//! Running a tool once: its input on stdin, under a fuel budget, a memory cap and an output
//! cap, and what came of it.
//!
//! Each run gets a fresh wasmi `Store` (the instance, its memory, its fuel) so nothing leaks
//! from one call to the next. Whatever the tool does, [`WasmTool::run`] returns an
//! [`Outcome`]: an exit status, what it printed, the fuel it used, and, if the sandbox had to
//! stop it, a [`Stop`] saying why in words a model can act on.

use std::fmt;

use wasmi::{Error, ResourceLimiter, Store, TrapCode};
use wasmi_core::LimiterError;

use crate::tool::WasmTool;
use crate::wasi::{HostStop, Io};

/// The budgets of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Fuel: about one unit per WebAssembly instruction executed (plus a little per byte a
    /// WASI call moves). Running out stops the tool.
    pub fuel: u64,
    /// The most linear memory the tool may have, in bytes.
    pub memory_bytes: u32,
    /// The most it may print, stdout and stderr together, in bytes.
    pub output_bytes: u32,
}

impl Default for Limits {
    /// 200 million fuel, 64 MiB of memory, 64 KiB of output (more than any observation a
    /// model should read).
    ///
    /// The fuel is measured, not guessed: the example tools use 80 000-150 000 units for a
    /// unit conversion and about 1.2 million to count the words of a 2 KB page (Rust's
    /// start-up, UTF-8 checks and formatting included), so 200 million leaves 100x headroom
    /// for both. An infinite loop then ends in under a second natively (the test
    /// `the_default_fuel_budget_ends_an_infinite_loop_in_seconds` prints the figure) and in
    /// 3-7 s in Chromium, in the sandbox's Worker, on a busy 2-core machine
    /// (`tests/browser/sandbox.mjs` prints that one).
    fn default() -> Self {
        Limits {
            fuel: 200_000_000,
            memory_bytes: 64 << 20,
            output_bytes: 64 << 10,
        }
    }
}

/// Why the sandbox stopped a tool before it finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// It used its whole fuel budget (`fuel` units).
    OutOfFuel {
        /// The budget it had.
        fuel: u64,
    },
    /// It asked for more memory than the cap.
    MemoryCap {
        /// The memory size it asked for, in bytes.
        requested: u64,
        /// The cap, in bytes.
        cap: u32,
    },
    /// It printed more than the cap; its output is cut at the cap.
    OutputCap {
        /// The cap, in bytes.
        cap: u32,
    },
    /// It crashed: a WebAssembly trap (`unreachable`, division by zero, a bad memory access...)
    /// or a module that could not be started.
    Trap(String),
}

impl Stop {
    /// A short, stable name for programs: `out_of_fuel`, `memory_cap`, `output_cap`, `trap`.
    pub fn kind(&self) -> &'static str {
        match self {
            Stop::OutOfFuel { .. } => "out_of_fuel",
            Stop::MemoryCap { .. } => "memory_cap",
            Stop::OutputCap { .. } => "output_cap",
            Stop::Trap(_) => "trap",
        }
    }
}

impl fmt::Display for Stop {
    /// The sentence the model reads as (the start of) its observation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::OutOfFuel { fuel } => write!(
                f,
                "the tool ran out of fuel after {fuel} units (an infinite loop?) and was stopped"
            ),
            Stop::MemoryCap { requested, cap } => write!(
                f,
                "the tool asked for {requested} bytes of memory, over the cap of {cap} bytes, \
                 and was stopped"
            ),
            Stop::OutputCap { cap } => write!(
                f,
                "the tool printed more than the output cap of {cap} bytes and was stopped; \
                 its output is cut at the cap"
            ),
            Stop::Trap(message) => write!(f, "the tool crashed: {message}"),
        }
    }
}

/// What came of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// What it printed on stdout (invalid UTF-8 replaced by U+FFFD): the observation.
    pub stdout: String,
    /// What it printed on stderr.
    pub stderr: String,
    /// Its exit status: 0 when `_start` returned, the argument of `proc_exit` when it called
    /// that, and -1 when the sandbox stopped it (then `stopped` says why).
    pub exit_code: i32,
    /// The fuel it used (deterministic: the same module and input always use the same).
    pub fuel_used: u64,
    /// Why the sandbox stopped it, if it did.
    pub stopped: Option<Stop>,
}

impl Outcome {
    /// What the model should read: `Ok(stdout)` when the tool exited with status 0, otherwise
    /// `Err` with why it failed, followed by its stderr and any stdout it printed.
    pub fn observation(&self) -> Result<String, String> {
        let failure = match (&self.stopped, self.exit_code) {
            (None, 0) => return Ok(self.stdout.clone()),
            (Some(stop), _) => stop.to_string(),
            (None, status) => format!("the tool exited with status {status}"),
        };
        let mut message = failure;
        if !self.stderr.trim().is_empty() {
            message.push_str("\nstderr:\n");
            message.push_str(self.stderr.trim_end());
        }
        if !self.stdout.trim().is_empty() {
            message.push_str("\nstdout:\n");
            message.push_str(self.stdout.trim_end());
        }
        Err(message)
    }
}

/// Everything the store carries for one run: the tool's I/O and the memory limiter.
pub(crate) struct Host {
    pub(crate) io: Io,
    limiter: Limiter,
}

/// The most elements a table may have. Tables hold function references for indirect calls;
/// compiled programs have hundreds to a few thousand. The cap bounds the host memory a crafted
/// module could make the sandbox allocate this way (a few MB), which the memory cap does not see.
const TABLE_ELEMENTS_CAP: usize = 100_000;

/// wasmi asks this before creating or growing a memory or a table. It records a refusal so
/// the outcome can name the size asked for, then refuses by trapping: a tool that asked for
/// too much should stop with a clear reason, not carry on with `memory.grow` returning -1
/// (which in Rust ends in an abort with a vaguer message anyway).
struct Limiter {
    memory_cap: u32,
    refused: Option<Refused>,
}

#[derive(Clone, Copy)]
enum Refused {
    Memory { bytes: usize },
    Table { elements: usize },
}

impl ResourceLimiter for Limiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> Result<bool, LimiterError> {
        if desired > self.memory_cap as usize {
            self.refused = Some(Refused::Memory { bytes: desired });
            return Err(LimiterError::ResourceLimiterDeniedAllocation);
        }
        // Past the module's own declared maximum `memory.grow` returns -1, as the spec says.
        Ok(maximum.is_none_or(|maximum| desired <= maximum))
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> Result<bool, LimiterError> {
        if desired > TABLE_ELEMENTS_CAP {
            self.refused = Some(Refused::Table { elements: desired });
            return Err(LimiterError::ResourceLimiterDeniedAllocation);
        }
        Ok(maximum.is_none_or(|maximum| desired <= maximum))
    }

    // One instance with (at most) one memory and a handful of tables per run.
    fn instances(&self) -> usize {
        1
    }
    fn tables(&self) -> usize {
        100
    }
    fn memories(&self) -> usize {
        1
    }
}

impl WasmTool {
    /// Runs the tool once with `stdin` as its input. Never fails: whatever the tool does ends
    /// in an [`Outcome`].
    pub fn run(&self, stdin: &[u8], limits: &Limits) -> Outcome {
        // 1. A fresh store: the tool's I/O, the limiter, and the fuel budget.
        let host = Host {
            io: Io::new(stdin, limits.output_bytes, limits.fuel),
            limiter: Limiter {
                memory_cap: limits.memory_bytes,
                refused: None,
            },
        };
        let mut store = Store::new(self.module.engine(), host);
        store.limiter(|host| &mut host.limiter);
        // 2. Instantiate (this allocates the initial memory, which the limiter checks, and runs
        //    a start function if the module has one) and call `_start`. Both spend fuel.
        let result = store.set_fuel(limits.fuel).and_then(|()| {
            let instance = self
                .linker
                .instantiate_and_start(&mut store, &self.module)?;
            let start = instance.get_typed_func::<(), ()>(&store, "_start")?;
            start.call(&mut store, ())
        });
        // 3. Whatever happened, collect what it printed and the fuel it burned.
        let fuel_used = limits.fuel.saturating_sub(store.get_fuel().unwrap_or(0));
        let host = store.into_data();
        let (exit_code, stopped) = match result {
            Ok(()) => (0, None),
            Err(error) => ending(&error, &host, limits),
        };
        Outcome {
            stdout: String::from_utf8_lossy(&host.io.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&host.io.stderr).into_owned(),
            exit_code,
            fuel_used,
            stopped,
        }
    }
}

/// Tells an exit from a stop, and names the stop. The host's own records (the limiter's
/// refusal, the output flag) come first: they say *why* wasmi reported a trap.
fn ending(error: &Error, host: &Host, limits: &Limits) -> (i32, Option<Stop>) {
    if let Some(status) = error.i32_exit_status() {
        return (status, None);
    }
    let host_stop = error.downcast_ref::<HostStop>().copied();
    let stop = if let Some(refused) = host.limiter.refused {
        match refused {
            Refused::Memory { bytes } => Stop::MemoryCap {
                requested: bytes as u64,
                cap: limits.memory_bytes,
            },
            Refused::Table { elements } => Stop::Trap(format!(
                "it asked for a table of {elements} elements, over the sandbox's limit of \
                 {TABLE_ELEMENTS_CAP}"
            )),
        }
    } else if host.io.output_capped || host_stop == Some(HostStop::OutputCap) {
        Stop::OutputCap {
            cap: limits.output_bytes,
        }
    } else if host_stop == Some(HostStop::OutOfFuel)
        || error.as_trap_code() == Some(TrapCode::OutOfFuel)
    {
        Stop::OutOfFuel { fuel: limits.fuel }
    } else if let Some(code) = error.as_trap_code() {
        Stop::Trap(code.trap_message().to_string())
    } else {
        Stop::Trap(error.to_string())
    };
    (-1, Some(stop))
}
