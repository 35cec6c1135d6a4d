//! Each hostile module of `tests/hostile/` against the sandbox: what stops it, how fast, and
//! what the model is told.

use std::time::{Duration, Instant};

use tao_sandbox::{inspect, run, ErrorKind, Limits, Stop};

use crate::{hostile, refusal, run_ok};

/// The allow-list as refusals print it.
const ALLOWED: &str = "fd_read, fd_write, args_sizes_get, args_get, environ_sizes_get, \
environ_get, clock_time_get, clock_res_get, random_get, proc_exit, fd_fdstat_get, fd_seek, \
fd_close, sched_yield (from wasi_snapshot_preview1)";

#[test]
fn an_infinite_loop_runs_out_of_fuel_and_returns_promptly() {
    let limits = Limits {
        fuel: 10_000_000,
        ..Limits::default()
    };
    let started = Instant::now();
    let outcome = run_ok(&hostile("infinite_loop"), "", &limits);
    let took = started.elapsed();
    assert_eq!(outcome.stopped, Some(Stop::OutOfFuel { fuel: 10_000_000 }));
    // Fuel is taken a basic block at a time: the block that did not fit leaves a few units.
    assert!(
        (9_999_990..=10_000_000).contains(&outcome.fuel_used),
        "{}",
        outcome.fuel_used
    );
    assert_eq!(outcome.exit_code, -1);
    assert_eq!(
        outcome.observation(),
        Err(
            "the tool ran out of fuel after 10000000 units (an infinite loop?) and was stopped"
                .to_string()
        )
    );
    assert!(took < Duration::from_secs(5), "10M fuel took {took:?}");
}

#[test]
fn the_default_fuel_budget_ends_an_infinite_loop_in_seconds() {
    let started = Instant::now();
    let outcome = run_ok(&hostile("infinite_loop"), "", &Limits::default());
    let took = started.elapsed();
    assert_eq!(
        outcome.stopped,
        Some(Stop::OutOfFuel {
            fuel: Limits::default().fuel
        })
    );
    eprintln!(
        "infinite loop, default fuel {}: stopped after {took:?}",
        Limits::default().fuel
    );
    assert!(
        took < Duration::from_secs(20),
        "the default budget took {took:?}"
    );
}

#[test]
fn a_memory_grow_loop_stops_at_the_memory_cap() {
    let limits = Limits {
        memory_bytes: 1 << 20,
        ..Limits::default()
    };
    let outcome = run_ok(&hostile("memory_grow_loop"), "", &limits);
    // It starts with one page and grows a page at a time: the 17th page is over 1 MiB.
    assert_eq!(
        outcome.stopped,
        Some(Stop::MemoryCap {
            requested: 17 * 65536,
            cap: 1 << 20
        })
    );
    assert_eq!(
        outcome.observation(),
        Err(
            "the tool asked for 1114112 bytes of memory, over the cap of 1048576 bytes, and was \
             stopped"
                .to_string()
        )
    );
}

#[test]
fn a_huge_initial_memory_is_stopped_before_the_first_instruction() {
    let module = hostile("huge_initial_memory");
    assert_eq!(
        inspect(&module).map(|info| info.initial_memory_bytes),
        Ok(2000 * 65536)
    );
    let outcome = run_ok(&module, "", &Limits::default());
    assert_eq!(
        outcome.stopped,
        Some(Stop::MemoryCap {
            requested: 2000 * 65536,
            cap: 64 << 20
        })
    );
    assert_eq!(outcome.fuel_used, 0);
}

#[test]
fn a_huge_table_is_stopped_before_the_first_instruction() {
    let outcome = run_ok(&hostile("huge_table"), "", &Limits::default());
    assert_eq!(
        outcome.observation(),
        Err(
            "the tool crashed: it asked for a table of 10000000 elements, over the sandbox's \
             limit of 100000"
                .to_string()
        )
    );
}

#[test]
fn an_output_flood_is_cut_at_the_output_cap_and_stopped() {
    let limits = Limits {
        output_bytes: 1000,
        ..Limits::default()
    };
    let outcome = run_ok(&hostile("output_flood"), "", &limits);
    assert_eq!(outcome.stopped, Some(Stop::OutputCap { cap: 1000 }));
    assert_eq!(outcome.stdout.len(), 1000);
    assert_eq!(outcome.stdout, "flood!\n".repeat(143)[..1000]);
    // Stopped at the cap, long before its fuel ran out.
    assert!(
        outcome.fuel_used < limits.fuel / 100,
        "used {}",
        outcome.fuel_used
    );
    let observation = outcome.observation().unwrap_err();
    assert!(
        observation.starts_with(
            "the tool printed more than the output cap of 1000 bytes and was stopped; its output \
             is cut at the cap\nstdout:\nflood!\nflood!\n"
        ),
        "{observation}"
    );
}

#[test]
fn forbidden_imports_are_refused_at_registration_by_name() {
    let cases = [
        (
            "forbidden_path_open",
            "wasi_snapshot_preview1.path_open (files)",
        ),
        (
            "forbidden_sock_accept",
            "wasi_snapshot_preview1.sock_accept (sockets)",
        ),
        ("forbidden_env_import", "env.anything"),
    ];
    for (file, import) in cases {
        let module = hostile(file);
        let expected =
            format!("the module imports {import}, which tools may not use; allowed: {ALLOWED}");
        assert_eq!(refusal(&module), expected, "{file}");
        // Running it is refused the same way: there is no path around registration.
        let error = run(&module, b"", &Limits::default()).unwrap_err();
        assert_eq!(
            (error.kind, error.message),
            (ErrorKind::Refused, expected),
            "{file}"
        );
    }
}

#[test]
fn traps_become_error_observations_with_the_reason() {
    let cases = [
        (
            "trap_unreachable",
            "wasm `unreachable` instruction executed",
        ),
        ("trap_divide_by_zero", "integer divide by zero"),
        ("deep_recursion", "call stack exhausted"),
    ];
    for (file, reason) in cases {
        let outcome = run_ok(&hostile(file), "", &Limits::default());
        assert_eq!(
            outcome.stopped,
            Some(Stop::Trap(reason.to_string())),
            "{file}"
        );
        assert_eq!(
            outcome.observation(),
            Err(format!("the tool crashed: {reason}")),
            "{file}"
        );
    }
}

#[test]
fn a_non_zero_exit_reports_the_status_and_stderr() {
    let outcome = run_ok(&hostile("exit_with_stderr"), "", &Limits::default());
    assert_eq!(outcome.exit_code, 3);
    assert_eq!(outcome.stopped, None);
    assert_eq!(outcome.stderr, "no such city: Atlantis\n");
    assert_eq!(outcome.stdout, "");
    assert_eq!(
        outcome.observation(),
        Err("the tool exited with status 3\nstderr:\nno such city: Atlantis".to_string())
    );
}

#[test]
fn a_pointer_outside_memory_gets_efault_not_a_crash() {
    let outcome = run_ok(&hostile("bad_pointer"), "", &Limits::default());
    const EFAULT: i32 = 21;
    assert_eq!((outcome.exit_code, outcome.stopped), (EFAULT, None));
    assert_eq!(outcome.stdout, "");
}
