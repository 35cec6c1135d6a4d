//! The WASI subset, call by call, through small WAT programs, and the module shapes
//! registration refuses.

use tao_sandbox::wasi::{ValType, ALLOWED};
use tao_sandbox::{inspect, Limits, Stop};

use crate::{refusal, run_ok, wat};

/// The imports every program below has ($fd_read, $fd_write, $proc_exit).
const IMPORTS: &str = r#"
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
"#;

/// A module: the common imports, then `more_imports`, a one-page memory, and `body`.
/// (WAT wants every import before the first definition.)
fn program_with(more_imports: &str, body: &str) -> Vec<u8> {
    wat(&format!(
        r#"(module {IMPORTS} {more_imports} (memory (export "memory") 1) {body})"#
    ))
}

/// A module with just the common imports.
fn program(body: &str) -> Vec<u8> {
    program_with("", body)
}

#[test]
fn stdin_is_read_in_pieces_until_end_of_file() {
    // `cat` with a 5-byte buffer: fd_read until it returns 0 bytes, echoing each piece.
    let cat = program(
        r#"(data (i32.const 0) "\64\00\00\00\05\00\00\00")
        (func (export "_start")
          (block $done
            (loop $more
              (br_if $done (call $fd_read (i32.const 0) (i32.const 0) (i32.const 1) (i32.const 8)))
              (br_if $done (i32.eqz (i32.load (i32.const 8))))
              (i32.store (i32.const 16) (i32.const 100))
              (i32.store (i32.const 20) (i32.load (i32.const 8)))
              (drop (call $fd_write (i32.const 1) (i32.const 16) (i32.const 1) (i32.const 24)))
              (br $more))))"#,
    );
    let input = "Thought: I should count the words.\n道可道，非常道。\n";
    let outcome = run_ok(&cat, input, &Limits::default());
    assert_eq!((outcome.stdout.as_str(), outcome.exit_code), (input, 0));
}

#[test]
fn only_the_standard_streams_exist() {
    // Exits with the errno of: fd_read(1) * 10000 + fd_write(0) * 100 + fd_write(3).
    let module = program(
        r#"(data (i32.const 0) "\64\00\00\00\01\00\00\00")
        (func (export "_start")
          (call $proc_exit
            (i32.add
              (i32.add
                (i32.mul (call $fd_read (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)) (i32.const 10000))
                (i32.mul (call $fd_write (i32.const 0) (i32.const 0) (i32.const 1) (i32.const 8)) (i32.const 100)))
              (call $fd_write (i32.const 3) (i32.const 0) (i32.const 1) (i32.const 8)))))"#,
    );
    const EBADF: i32 = 8;
    let outcome = run_ok(&module, "", &Limits::default());
    assert_eq!(outcome.exit_code, EBADF * 10000 + EBADF * 100 + EBADF);
}

#[test]
fn arguments_and_environment_are_empty() {
    // args_sizes_get and environ_sizes_get write counts and sizes at 0, 4, 8, 12; the first
    // bytes are preset to 0xff so that "wrote zero" and "wrote nothing" differ.
    let module = wat(r#"(module
          (import "wasi_snapshot_preview1" "args_sizes_get" (func $args (param i32 i32) (result i32)))
          (import "wasi_snapshot_preview1" "environ_sizes_get" (func $env (param i32 i32) (result i32)))
          (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
          (memory (export "memory") 1)
          (data (i32.const 0) "\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff\ff")
          (func (export "_start")
            (drop (call $args (i32.const 0) (i32.const 4)))
            (drop (call $env (i32.const 8) (i32.const 12)))
            (call $proc_exit
              (i32.add (i32.add (i32.load (i32.const 0)) (i32.load (i32.const 4)))
                       (i32.add (i32.load (i32.const 8)) (i32.load (i32.const 12)))))))"#);
    assert_eq!(run_ok(&module, "", &Limits::default()).exit_code, 0);
}

#[test]
fn the_clock_is_virtual_counting_fuel_and_the_same_every_run() {
    // Reads the monotonic clock, burns fuel in a counted loop, reads it again, and exits
    // with the difference in nanoseconds; an unknown clock id answers EINVAL (28) instead.
    let module = wat(r#"(module
          (import "wasi_snapshot_preview1" "clock_time_get" (func $now (param i32 i64 i32) (result i32)))
          (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
          (memory (export "memory") 1)
          (global $n (mut i32) (i32.const 1000))
          (func (export "_start")
            (if (i32.ne (call $now (i32.const 9) (i64.const 0) (i32.const 0)) (i32.const 28))
              (then (call $proc_exit (i32.const -1))))
            (drop (call $now (i32.const 1) (i64.const 0) (i32.const 0)))
            (loop $spin
              (global.set $n (i32.sub (global.get $n) (i32.const 1)))
              (br_if $spin (global.get $n)))
            (drop (call $now (i32.const 0) (i64.const 0) (i32.const 8)))
            (call $proc_exit (i32.wrap_i64 (i64.sub (i64.load (i32.const 8)) (i64.load (i32.const 0)))))))"#);
    let first = run_ok(&module, "", &Limits::default());
    let again = run_ok(&module, "", &Limits::default());
    // A thousand turns of a loop of a few instructions: thousands of ns of virtual time.
    assert!((1000..100_000).contains(&first.exit_code), "{first:?}");
    assert_eq!(first.exit_code, again.exit_code);
}

#[test]
fn random_bytes_are_seeded_the_same_every_run() {
    // Fills 8 bytes with random_get and exits with their first four as the status; a second
    // call must give different bytes (the generator moves on), or the status is 0.
    let module = program_with(
        r#"(import "wasi_snapshot_preview1" "random_get" (func $random (param i32 i32) (result i32)))"#,
        r#"(func (export "_start")
          (drop (call $random (i32.const 100) (i32.const 8)))
          (drop (call $random (i32.const 200) (i32.const 8)))
          (call $proc_exit
            (select (i32.load (i32.const 100)) (i32.const 0)
              (i64.ne (i64.load (i32.const 100)) (i64.load (i32.const 200))))))"#,
    );
    let first = run_ok(&module, "", &Limits::default()).exit_code;
    assert_ne!(first, 0);
    assert_eq!(run_ok(&module, "", &Limits::default()).exit_code, first);
}

#[test]
fn stdio_are_character_devices_and_can_be_closed() {
    // fd_fdstat_get(1) → filetype at 0; fd_fdstat_get(7) → EBADF; fd_seek(1) → ESPIPE;
    // fd_close(1), then fd_write(1) → EBADF. Exit status: filetype | errnos packed in bytes.
    let module = program_with(
        r#"(import "wasi_snapshot_preview1" "fd_fdstat_get" (func $stat (param i32 i32) (result i32)))
        (import "wasi_snapshot_preview1" "fd_seek" (func $seek (param i32 i64 i32 i32) (result i32)))
        (import "wasi_snapshot_preview1" "fd_close" (func $close (param i32) (result i32)))"#,
        r#"(func (export "_start")
          (local $status i32)
          (drop (call $stat (i32.const 1) (i32.const 100)))
          (local.set $status (i32.load8_u (i32.const 100)))
          (local.set $status (i32.or (local.get $status)
            (i32.shl (call $stat (i32.const 7) (i32.const 100)) (i32.const 8))))
          (local.set $status (i32.or (local.get $status)
            (i32.shl (call $seek (i32.const 1) (i64.const 0) (i32.const 0) (i32.const 200)) (i32.const 16))))
          (drop (call $close (i32.const 1)))
          (local.set $status (i32.or (local.get $status)
            (i32.shl (call $fd_write (i32.const 1) (i32.const 0) (i32.const 0) (i32.const 8)) (i32.const 24))))
          (call $proc_exit (local.get $status)))"#,
    );
    let (character_device, ebadf, espipe) = (2, 8, 70);
    let outcome = run_ok(&module, "", &Limits::default());
    assert_eq!(
        outcome.exit_code,
        character_device | ebadf << 8 | espipe << 16 | ebadf << 24
    );
}

#[test]
fn stderr_counts_against_the_output_cap_too() {
    let module = program(
        r#"(data (i32.const 16) "warning\n")
        (data (i32.const 0) "\10\00\00\00\08\00\00\00")
        (func (export "_start")
          (loop $again
            (drop (call $fd_write (i32.const 2) (i32.const 0) (i32.const 1) (i32.const 8)))
            (br $again)))"#,
    );
    let outcome = run_ok(
        &module,
        "",
        &Limits {
            output_bytes: 20,
            ..Limits::default()
        },
    );
    assert_eq!(outcome.stopped, Some(Stop::OutputCap { cap: 20 }));
    assert_eq!(outcome.stderr, "warning\nwarning\nwarn");
}

#[test]
fn every_allowed_call_is_defined_with_its_listed_signature() {
    // A module importing the whole allow-list, each with the signature the list gives: if
    // the linker lacked one or defined it differently, instantiation would fail (a trap).
    let imports: String = ALLOWED
        .iter()
        .map(|call| {
            let list = |types: &[ValType]| {
                types
                    .iter()
                    .map(|ty| format!("{ty:?}").to_lowercase())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            format!(
                r#"(import "wasi_snapshot_preview1" "{}" (func (param {}) (result {})))"#,
                call.name,
                list(call.params),
                list(call.results)
            )
        })
        .collect();
    let module = wat(&format!(
        r#"(module {imports} (memory (export "memory") 1) (func (export "_start")))"#
    ));
    assert_eq!(
        inspect(&module).map(|info| info.imports.len()),
        Ok(ALLOWED.len())
    );
    let outcome = run_ok(&module, "", &Limits::default());
    assert_eq!((outcome.exit_code, outcome.stopped), (0, None));
}

#[test]
fn modules_of_the_wrong_shape_are_refused_with_the_reason() {
    let cases = [
        (
            r#"(module (import "wasi_snapshot_preview1" "fd_write" (func (param i32) (result i32)))
               (memory (export "memory") 1) (func (export "_start")))"#,
            "the module imports wasi_snapshot_preview1.fd_write as (i32) -> (i32), but wasi \
             preview1 defines it as (i32, i32, i32, i32) -> (i32)",
        ),
        (
            r#"(module (memory (export "memory") 1) (func (export "main")))"#,
            "the module has no `_start` export: a tool must be a wasi command (a program with \
             `main`), not a library or a reactor",
        ),
        (
            r#"(module (memory (export "memory") 1) (func (export "_start") (param i32)))"#,
            "the module's `_start` export is not a function of no arguments and no results",
        ),
        (
            r#"(module (memory 1) (func (export "_start")))"#,
            "the module exports no memory named `memory`, so the sandbox cannot pass it its \
             input; wasi commands built by standard toolchains always export one",
        ),
        (
            r#"(module (import "env" "memory" (memory 1)) (func (export "_start")))"#,
            "the module imports a memory (env.memory), which tools may not do; a tool defines \
             its own memory and imports only wasi functions",
        ),
        (
            r#"(module (import "wasi_snapshot_preview1" "poll_oneoff" (func (param i32 i32 i32 i32) (result i32)))
               (memory (export "memory") 1) (func (export "_start")))"#,
            "the module imports wasi_snapshot_preview1.poll_oneoff (waiting and sleeping), which \
             tools may not use; allowed: fd_read, fd_write, args_sizes_get, args_get, \
             environ_sizes_get, environ_get, clock_time_get, clock_res_get, random_get, \
             proc_exit, fd_fdstat_get, fd_seek, fd_close, sched_yield (from wasi_snapshot_preview1)",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(refusal(&wat(text)), expected);
    }
}

#[test]
fn work_done_by_a_wasi_call_is_paid_for_in_fuel() {
    // One random_get of 64 KiB: a single instruction for the tool, but 8 192 units of host
    // work. With 5 000 fuel the call itself runs out.
    let module = program_with(
        r#"(import "wasi_snapshot_preview1" "random_get" (func $random (param i32 i32) (result i32)))"#,
        r#"(func (export "_start") (drop (call $random (i32.const 0) (i32.const 65536))))"#,
    );
    let outcome = run_ok(
        &module,
        "",
        &Limits {
            fuel: 5_000,
            ..Limits::default()
        },
    );
    assert_eq!(outcome.stopped, Some(Stop::OutOfFuel { fuel: 5_000 }));
    let outcome = run_ok(
        &module,
        "",
        &Limits {
            fuel: 10_000,
            ..Limits::default()
        },
    );
    assert_eq!((outcome.exit_code, outcome.stopped), (0, None));
    assert!(outcome.fuel_used > 8_192, "{}", outcome.fuel_used);
}
