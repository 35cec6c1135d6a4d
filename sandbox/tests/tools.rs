//! The example tools (`tools-wasm/`), compiled by rustc for wasm32-wasip1, run through the
//! sandbox with real inputs: exact outputs, and the fuel each call uses.

use tao_sandbox::{inspect, Limits, Outcome};

use crate::{example_tool, run_ok};

/// Runs an example tool on `input` with the default limits.
fn call(tool: &str, input: &str) -> Outcome {
    let outcome = run_ok(&example_tool(tool), input, &Limits::default());
    // The figures in the report come from here (`cargo test -- --nocapture`).
    eprintln!("{tool} {input:?}: fuel used {}", outcome.fuel_used);
    outcome
}

#[test]
fn the_tools_import_only_what_rust_std_needs() {
    let expected = [
        "wasi_snapshot_preview1.fd_read",
        "wasi_snapshot_preview1.fd_write",
        "wasi_snapshot_preview1.environ_get",
        "wasi_snapshot_preview1.environ_sizes_get",
        "wasi_snapshot_preview1.proc_exit",
    ];
    for tool in ["wordcount", "units"] {
        let mut imports = inspect(&example_tool(tool)).unwrap().imports;
        imports.sort();
        let mut sorted = expected.map(String::from).to_vec();
        sorted.sort();
        assert_eq!(imports, sorted, "{tool}");
    }
}

#[test]
fn wordcount_counts_words_lines_and_characters() {
    let outcome = call(
        "wordcount",
        "the quick brown fox\njumps over the lazy dog\n",
    );
    assert_eq!(
        outcome.observation(),
        Ok("words: 9\nlines: 2\ncharacters: 44\n".to_string())
    );
    assert_eq!((outcome.exit_code, outcome.stderr.as_str()), (0, ""));

    let outcome = call("wordcount", "道可道，非常道。\n名可名 非常名");
    assert_eq!(outcome.stdout, "words: 3\nlines: 2\ncharacters: 16\n");
}

#[test]
fn units_converts_and_explains_unknown_units() {
    let cases = [
        ("10 km to mi", "10 km = 6.21371 mi\n"),
        ("100 F to C", "100 F = 37.7778 C\n"),
        ("3 kg to lb", "3 kg = 6.61387 lb\n"),
    ];
    for (input, expected) in cases {
        assert_eq!(
            call("units", input).observation(),
            Ok(expected.to_string()),
            "{input}"
        );
    }

    let outcome = call("units", "3 parsec to km");
    assert_eq!(outcome.exit_code, 1);
    let known =
        "m, km, cm, mm, mi, yd, ft, in, kg, g, lb, oz, t, C, F, K, l, ml, gal, s, min, h, d";
    assert_eq!(
        outcome.observation(),
        Err(format!(
            "the tool exited with status 1\nstderr:\nunits: unknown unit \"parsec\"; known units: {known}"
        ))
    );
}

#[test]
fn fuel_is_deterministic_and_grows_with_the_input() {
    let short = "one two three";
    let long = short.repeat(100);
    let first = call("wordcount", short).fuel_used;
    assert!(first > 0);
    assert_eq!(
        call("wordcount", short).fuel_used,
        first,
        "same input, same fuel"
    );
    let longer = call("wordcount", &long).fuel_used;
    assert!(
        longer > first * 10,
        "100x the input used {longer} fuel vs {first}"
    );
}

#[test]
fn the_default_fuel_budget_leaves_100x_headroom_for_the_examples() {
    // A page of text for wordcount, and the worst of the unit conversions above.
    let page = "All work and no play makes Jack a dull boy.\n".repeat(50);
    let budget = Limits::default().fuel;
    for (tool, input) in [
        ("wordcount", page.as_str()),
        ("units", "100 F to C"),
        ("units", "3 parsec to km"),
    ] {
        let used = call(tool, input).fuel_used;
        assert!(
            used * 100 <= budget,
            "{tool} used {used} of {budget}: less than 100x headroom"
        );
    }
}

/// Regression: with wasmi's tail-call dispatch (its default once default features are off),
/// each executed instruction took a host stack frame wherever LLVM did not turn the calls
/// into jumps (our test builds; wasm32 in the browser), so a long run overflowed the stack
/// and killed the process. A long run must fit in 1 MiB of stack, what Rust gives the main
/// thread on wasm32.
#[test]
fn a_long_run_fits_in_the_stack_a_browser_worker_has() {
    let text = "a few words on a line\n".repeat(5000);
    let wordcount = example_tool("wordcount");
    let outcome = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || run_ok(&wordcount, &text, &Limits::default()))
        .unwrap()
        .join()
        .expect("the run overflowed 1 MiB of stack");
    assert_eq!(
        outcome.stdout,
        "words: 30000\nlines: 5000\ncharacters: 110000\n"
    );
}
