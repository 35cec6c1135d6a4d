//! The slice of WASI preview1 a tool may use: its standard streams, empty arguments and
//! environment, a clock, random bytes and exit. Nothing else exists for it.
//!
//! WASI preview1 is the system interface `wasm32-wasip1` programs are compiled against: a set
//! of functions imported from the module `wasi_snapshot_preview1`. A real WASI runtime offers
//! files, directories and sockets; this one offers only what a program that reads its input
//! and prints an answer needs, so a tool cannot touch anything of the page or the machine. The
//! allow-list below is the whole interface, and [`inspect`](crate::inspect) refuses a module
//! that imports anything else before it ever runs.
//!
//! Every call reaches guest memory through wasmi's bounds-checked slices: a bad pointer from
//! the tool makes the call return `EFAULT`, the way a real kernel answers, and never panics the
//! host. Every call also pays fuel for the bytes it moves, so a tool cannot escape its budget by
//! making the host do its work (copying megabytes of "random" bytes in a loop, for example).
//!
//! The clock and the random numbers are deliberately *deterministic*: the same tool on the same
//! input does exactly the same thing every time, which is what lets tao replay a trajectory
//! without a key and lets the tests compare fuel counts exactly.

use std::fmt;
use std::ops::Range;

use wasmi::{Caller, Error, Linker};

/// The WebAssembly value types the allow-list's signatures are written in.
pub use wasmi::ValType;

use crate::run::Host;

/// The module name WASI preview1 functions are imported from.
pub const MODULE: &str = "wasi_snapshot_preview1";

/// One WASI call a tool may import, and why a tool needs it.
#[derive(Clone, Copy, Debug)]
pub struct WasiCall {
    /// The function name inside [`MODULE`].
    pub name: &'static str,
    /// Its parameter types, as WASI preview1 defines them (pointers are `i32`).
    pub params: &'static [ValType],
    /// Its result types: an `errno`, except for `proc_exit`, which never returns.
    pub results: &'static [ValType],
    /// What it does here, and why it is allowed.
    pub why: &'static str,
}

const I32: ValType = ValType::I32;
const I64: ValType = ValType::I64;
const ERRNO: &[ValType] = &[I32];

/// The allow-list: everything a tool may import. Anything else is refused by name at
/// registration. The first eight are what the brief asks for; the last four are what C's
/// wasi-libc (and other toolchains) link into an ordinary stdin→stdout program, implemented so
/// that they can only ever see the three standard streams.
pub const ALLOWED: &[WasiCall] = &[
    WasiCall {
        name: "fd_read",
        params: &[I32, I32, I32, I32],
        results: ERRNO,
        why: "reads the action input from stdin (fd 0); other fds are EBADF",
    },
    WasiCall {
        name: "fd_write",
        params: &[I32, I32, I32, I32],
        results: ERRNO,
        why: "writes stdout (the observation) and stderr (fd 1, 2), counted against the output cap",
    },
    WasiCall {
        name: "args_sizes_get",
        params: &[I32, I32],
        results: ERRNO,
        why: "the argument list, which is empty: the input comes on stdin",
    },
    WasiCall {
        name: "args_get",
        params: &[I32, I32],
        results: ERRNO,
        why: "the argument list, which is empty: the input comes on stdin",
    },
    WasiCall {
        name: "environ_sizes_get",
        params: &[I32, I32],
        results: ERRNO,
        why: "the environment, which is empty (Rust's std reads it at start-up)",
    },
    WasiCall {
        name: "environ_get",
        params: &[I32, I32],
        results: ERRNO,
        why: "the environment, which is empty (Rust's std reads it at start-up)",
    },
    WasiCall {
        name: "clock_time_get",
        params: &[I32, I64, I32],
        results: ERRNO,
        why: "a virtual clock: nanoseconds since 1970 = fuel used so far (deterministic)",
    },
    WasiCall {
        name: "clock_res_get",
        params: &[I32, I32],
        results: ERRNO,
        why: "the virtual clock's resolution, 1 ns",
    },
    WasiCall {
        name: "random_get",
        params: &[I32, I32],
        results: ERRNO,
        why: "pseudo-random bytes from a fixed seed (deterministic; not for cryptography)",
    },
    WasiCall {
        name: "proc_exit",
        params: &[I32],
        results: &[],
        why: "ends the run with an exit status; non-zero makes the observation an error",
    },
    WasiCall {
        name: "fd_fdstat_get",
        params: &[I32, I32],
        results: ERRNO,
        why: "says fds 0-2 are character devices (libc's isatty and stdio buffering ask)",
    },
    WasiCall {
        name: "fd_seek",
        params: &[I32, I64, I32, I32],
        results: ERRNO,
        why: "answers ESPIPE for fds 0-2, as for a pipe (libc's stdio links it)",
    },
    WasiCall {
        name: "fd_close",
        params: &[I32],
        results: ERRNO,
        why: "closes one of fds 0-2 (libc closes its streams at exit)",
    },
    WasiCall {
        name: "sched_yield",
        params: &[],
        results: ERRNO,
        why: "does nothing and succeeds: there is no other thread to yield to",
    },
];

/// Why a refused WASI call is refused, for the message a tool author reads.
pub(crate) fn refusal_reason(name: &str) -> Option<&'static str> {
    let files = name.starts_with("path_")
        || (name.starts_with("fd_") && !ALLOWED.iter().any(|call| call.name == name));
    if files {
        Some("files")
    } else if name.starts_with("sock_") {
        Some("sockets")
    } else if name == "poll_oneoff" {
        Some("waiting and sleeping")
    } else if name == "proc_raise" {
        Some("signals")
    } else {
        None
    }
}

// WASI error numbers (`errno`) the calls below return. A call that succeeds returns 0.
const SUCCESS: i32 = 0;
const EBADF: i32 = 8;
const EFAULT: i32 = 21;
const EINVAL: i32 = 28;
const ESPIPE: i32 = 70;

/// The most buffers one `fd_read`/`fd_write` may pass: Linux's `IOV_MAX`. Without a bound, a
/// call naming a billion empty buffers would keep the host busy without spending fuel.
const MAX_IOVECS: u32 = 1024;

/// Fuel a WASI call costs on top of the bytes it moves (one unit per 8 bytes, roughly what the
/// same copy costs when the guest does it itself).
const CALL_FUEL: u64 = 10;

/// The tool's side of the conversation: its input, what it has printed, and the state of its
/// deterministic clock and random numbers.
pub(crate) struct Io {
    stdin: Vec<u8>,
    read: usize,
    pub(crate) stdout: Vec<u8>,
    pub(crate) stderr: Vec<u8>,
    output_cap: usize,
    /// Set when a write hit the output cap (the run stops right there).
    pub(crate) output_capped: bool,
    closed: [bool; 3],
    rng: u64,
    /// The fuel the run started with; the virtual clock reads `budget - fuel left`.
    fuel_budget: u64,
}

impl Io {
    pub(crate) fn new(stdin: &[u8], output_cap: u32, fuel_budget: u64) -> Self {
        Io {
            stdin: stdin.to_vec(),
            read: 0,
            stdout: Vec::new(),
            stderr: Vec::new(),
            output_cap: output_cap as usize,
            output_capped: false,
            closed: [false; 3],
            // A fixed seed: every run sees the same "random" bytes (see the file comment).
            rng: 0x7461_6f5f_7361_6e64, // "tao_sand"
            fuel_budget,
        }
    }

    /// Whether `fd` is one of the standard streams and still open.
    fn is_open(&self, fd: i32) -> bool {
        usize::try_from(fd)
            .ok()
            .and_then(|fd| self.closed.get(fd))
            .is_some_and(|closed| !closed)
    }

    /// splitmix64: a tiny, well-mixed generator; good for hash seeds, not for secrets.
    fn next_random(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Why the host stopped a run from inside a WASI call. (An exit is not here: wasmi carries
/// it as `Error::i32_exit`.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HostStop {
    /// A write would have passed the output cap.
    OutputCap,
    /// The call's fuel cost was more than the fuel left.
    OutOfFuel,
}

impl fmt::Display for HostStop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HostStop::OutputCap => "output cap reached",
            HostStop::OutOfFuel => "out of fuel in a wasi call",
        })
    }
}

impl wasmi::errors::HostError for HostStop {}

/// Defines every call of [`ALLOWED`] in `linker` (a test checks each one against its listed
/// signature).
pub(crate) fn define(linker: &mut Linker<Host>) -> Result<(), Error> {
    // Each closure unpacks its arguments, lets `with_memory` find guest memory and charge fuel,
    // and does its work in a plain function below.
    linker.func_wrap(
        MODULE,
        "fd_read",
        |mut caller: Caller<'_, Host>, fd: i32, iovs: i32, len: i32, nread: i32| {
            with_memory(&mut caller, |mem, io| {
                fd_read(mem, io, fd, iovs as u32, len as u32, nread as u32)
            })
        },
    )?;
    linker.func_wrap(
        MODULE,
        "fd_write",
        |mut caller: Caller<'_, Host>, fd: i32, iovs: i32, len: i32, nwritten: i32| {
            with_memory(&mut caller, |mem, io| {
                fd_write(mem, io, fd, iovs as u32, len as u32, nwritten as u32)
            })
        },
    )?;
    for (sizes, get) in [
        ("args_sizes_get", "args_get"),
        ("environ_sizes_get", "environ_get"),
    ] {
        // An empty list: zero entries taking zero bytes, and nothing to copy out.
        linker.func_wrap(
            MODULE,
            sizes,
            |mut caller: Caller<'_, Host>, count: i32, bytes: i32| {
                with_memory(&mut caller, |mem, _| {
                    write_u32(mem, count as u32, 0)?;
                    write_u32(mem, bytes as u32, 0)?;
                    Ok((SUCCESS, 0))
                })
            },
        )?;
        linker.func_wrap(MODULE, get, |_: Caller<'_, Host>, _: i32, _: i32| {
            Ok(SUCCESS)
        })?;
    }
    linker.func_wrap(
        MODULE,
        "clock_time_get",
        |mut caller: Caller<'_, Host>, clock: i32, _precision: i64, time: i32| {
            let left = caller.get_fuel()?;
            with_memory(&mut caller, |mem, io| {
                if !(0..=3).contains(&clock) {
                    return Ok((EINVAL, 0));
                }
                // Realtime, monotonic and the two CPU-time clocks all read the same virtual
                // time: one nanosecond per unit of fuel used.
                write_u64(mem, time as u32, io.fuel_budget.saturating_sub(left))?;
                Ok((SUCCESS, 0))
            })
        },
    )?;
    linker.func_wrap(
        MODULE,
        "clock_res_get",
        |mut caller: Caller<'_, Host>, clock: i32, resolution: i32| {
            with_memory(&mut caller, |mem, _| {
                if !(0..=3).contains(&clock) {
                    return Ok((EINVAL, 0));
                }
                write_u64(mem, resolution as u32, 1)?;
                Ok((SUCCESS, 0))
            })
        },
    )?;
    linker.func_wrap(
        MODULE,
        "random_get",
        |mut caller: Caller<'_, Host>, buf: i32, len: i32| {
            with_memory(&mut caller, |mem, io| {
                let bytes = slice_mut(mem, buf as u32, len as u32)?;
                for chunk in bytes.chunks_mut(8) {
                    let random = io.next_random().to_le_bytes();
                    chunk.copy_from_slice(&random[..chunk.len()]);
                }
                Ok((SUCCESS, len as u32 as u64))
            })
        },
    )?;
    linker.func_wrap(
        MODULE,
        "proc_exit",
        |_: Caller<'_, Host>, status: i32| -> Result<(), Error> {
            // Unwinds out of the guest; `run` reads the status back from the error.
            Err(Error::i32_exit(status))
        },
    )?;
    linker.func_wrap(
        MODULE,
        "fd_fdstat_get",
        |mut caller: Caller<'_, Host>, fd: i32, stat: i32| {
            with_memory(&mut caller, |mem, io| {
                if !io.is_open(fd) {
                    return Ok((EBADF, 0));
                }
                // struct fdstat { u8 filetype; u16 flags; u64 rights_base; u64 rights_inheriting }
                // (24 bytes): a character device that may be read (fd 0) or written (1, 2).
                const CHARACTER_DEVICE: u8 = 2;
                const RIGHT_FD_READ: u64 = 1 << 1;
                const RIGHT_FD_WRITE: u64 = 1 << 6;
                let rights = if fd == 0 {
                    RIGHT_FD_READ
                } else {
                    RIGHT_FD_WRITE
                };
                let out = slice_mut(mem, stat as u32, 24)?;
                out.fill(0);
                out[0] = CHARACTER_DEVICE;
                out[8..16].copy_from_slice(&rights.to_le_bytes());
                Ok((SUCCESS, 0))
            })
        },
    )?;
    linker.func_wrap(
        MODULE,
        "fd_seek",
        |mut caller: Caller<'_, Host>, fd: i32, _offset: i64, _whence: i32, _new: i32| {
            with_memory(&mut caller, |_, io| {
                Ok((if io.is_open(fd) { ESPIPE } else { EBADF }, 0))
            })
        },
    )?;
    linker.func_wrap(
        MODULE,
        "fd_close",
        |mut caller: Caller<'_, Host>, fd: i32| {
            with_memory(&mut caller, |_, io| {
                if !io.is_open(fd) {
                    return Ok((EBADF, 0));
                }
                if let Some(closed) = io.closed.get_mut(fd as usize) {
                    *closed = true;
                }
                Ok((SUCCESS, 0))
            })
        },
    )?;
    linker.func_wrap(MODULE, "sched_yield", |_: Caller<'_, Host>| Ok(SUCCESS))?;
    Ok(())
}

/// What a call's body returns: its `errno` and the bytes it moved (which decide its fuel
/// cost), or a reason to stop the whole run. `Err(errno)` from the helpers below converts
/// into a normal return of that `errno`.
type CallResult = Result<(i32, u64), Stopping>;

/// Either a WASI error number to return to the tool, or a stop of the run.
enum Stopping {
    Errno(i32),
    Stop(Error),
}

impl From<i32> for Stopping {
    fn from(errno: i32) -> Self {
        Stopping::Errno(errno)
    }
}

/// Runs a call's body against the tool's memory and I/O, then charges the fuel it used.
fn with_memory(
    caller: &mut Caller<'_, Host>,
    body: impl FnOnce(&mut [u8], &mut Io) -> CallResult,
) -> Result<i32, Error> {
    // `inspect` made sure the module exports a memory; if it did not, every pointer is bad.
    let Some(memory) = caller
        .get_export("memory")
        .and_then(wasmi::Extern::into_memory)
    else {
        return Ok(EFAULT);
    };
    let (mem, host) = memory.data_and_store_mut(&mut *caller);
    let (errno, moved) = match body(mem, &mut host.io) {
        Ok(done) => done,
        Err(Stopping::Errno(errno)) => (errno, 0),
        Err(Stopping::Stop(stop)) => return Err(stop),
    };
    charge(caller, CALL_FUEL + moved / 8)?;
    Ok(errno)
}

/// Takes `units` of fuel from the run, or stops it when there is not that much left.
fn charge(caller: &mut Caller<'_, Host>, units: u64) -> Result<(), Error> {
    let left = caller.get_fuel()?;
    match left.checked_sub(units) {
        Some(rest) => caller.set_fuel(rest),
        None => {
            caller.set_fuel(0)?;
            Err(Error::host(HostStop::OutOfFuel))
        }
    }
}

/// `fd_read(fd, iovs, iovs_len, nread)`: fills the tool's buffers from stdin, in order.
fn fd_read(mem: &mut [u8], io: &mut Io, fd: i32, iovs: u32, len: u32, nread: u32) -> CallResult {
    if fd != 0 || !io.is_open(fd) {
        return Ok((EBADF, 0));
    }
    let mut total: u32 = 0;
    for (buf, buf_len) in iovecs(mem, iovs, len)? {
        let rest = io.stdin.get(io.read..).unwrap_or_default();
        let n = rest.len().min(buf_len as usize);
        slice_mut(mem, buf, n as u32)?.copy_from_slice(&rest[..n]);
        io.read += n;
        // `n` fits in u32 (it is at most `buf_len`), and the sum of the lengths the tool asked
        // for may not overflow u32 (checked in `iovecs`), so neither does `total`.
        total += n as u32;
    }
    write_u32(mem, nread, total)?;
    Ok((SUCCESS, u64::from(total)))
}

/// `fd_write(fd, iovs, iovs_len, nwritten)`: appends the tool's buffers to stdout or stderr,
/// and stops the run when together they would pass the output cap (keeping what fits).
fn fd_write(
    mem: &mut [u8],
    io: &mut Io,
    fd: i32,
    iovs: u32,
    len: u32,
    nwritten: u32,
) -> CallResult {
    if !(1..=2).contains(&fd) || !io.is_open(fd) {
        return Ok((EBADF, 0));
    }
    let mut total: u32 = 0;
    for (buf, buf_len) in iovecs(mem, iovs, len)? {
        let bytes = slice(mem, buf, buf_len)?;
        let room = io
            .output_cap
            .saturating_sub(io.stdout.len() + io.stderr.len());
        let keep = &bytes[..bytes.len().min(room)];
        let stream = if fd == 1 {
            &mut io.stdout
        } else {
            &mut io.stderr
        };
        stream.extend_from_slice(keep);
        if keep.len() < bytes.len() {
            io.output_capped = true;
            return Err(Stopping::Stop(Error::host(HostStop::OutputCap)));
        }
        total += buf_len;
    }
    write_u32(mem, nwritten, total)?;
    Ok((SUCCESS, u64::from(total)))
}

/// Reads the array of `(pointer, length)` pairs (`iovec`) at `iovs`, checking the count and
/// that the lengths add up to at most `u32::MAX` (so a caller can sum them in a `u32`).
fn iovecs(mem: &[u8], iovs: u32, len: u32) -> Result<Vec<(u32, u32)>, Stopping> {
    if len > MAX_IOVECS {
        return Err(EINVAL.into());
    }
    let raw = slice(mem, iovs, len * 8)?;
    let pairs: Vec<(u32, u32)> = raw
        .chunks_exact(8)
        .map(|pair| (le_u32(&pair[..4]), le_u32(&pair[4..])))
        .collect();
    let sum = pairs
        .iter()
        .try_fold(0u32, |sum, &(_, buf_len)| sum.checked_add(buf_len));
    match sum {
        Some(_) => Ok(pairs),
        None => Err(EINVAL.into()),
    }
}

/// The byte range `[ptr, ptr + len)` of guest memory, or `EFAULT` if any of it is outside.
fn range(mem_len: usize, ptr: u32, len: u32) -> Result<Range<usize>, Stopping> {
    let start = ptr as usize;
    match start.checked_add(len as usize) {
        Some(end) if end <= mem_len => Ok(start..end),
        _ => Err(EFAULT.into()),
    }
}

fn slice(mem: &[u8], ptr: u32, len: u32) -> Result<&[u8], Stopping> {
    let range = range(mem.len(), ptr, len)?;
    mem.get(range).ok_or(EFAULT.into())
}

fn slice_mut(mem: &mut [u8], ptr: u32, len: u32) -> Result<&mut [u8], Stopping> {
    let range = range(mem.len(), ptr, len)?;
    mem.get_mut(range).ok_or(EFAULT.into())
}

fn write_u32(mem: &mut [u8], ptr: u32, value: u32) -> Result<(), Stopping> {
    slice_mut(mem, ptr, 4)?.copy_from_slice(&value.to_le_bytes());
    Ok(())
}

fn write_u64(mem: &mut [u8], ptr: u32, value: u64) -> Result<(), Stopping> {
    slice_mut(mem, ptr, 8)?.copy_from_slice(&value.to_le_bytes());
    Ok(())
}

/// A little-endian u32 from four bytes (callers slice exactly four out of `chunks_exact(8)`).
fn le_u32(bytes: &[u8]) -> u32 {
    bytes.try_into().map(u32::from_le_bytes).unwrap_or_default()
}
