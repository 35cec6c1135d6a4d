//! Bytes that are not a good module: random, truncated, corrupted. The sandbox answers each
//! with an error that says what is wrong (or, for a corrupted module that still validates, an
//! outcome), and never panics: in the page a panic would kill the sandbox's Worker.

use tao_sandbox::{inspect, run, ErrorKind, Limits};

use crate::example_tool;

// The project's deterministic random source (tao's tests/rng.rs), so a failure reproduces
// exactly.
#[path = "../../tests/rng.rs"]
mod rng;
use rng::Rng as Random;

/// Every refusal starts by saying what it is about.
fn assert_explained(message: &str) {
    assert!(
        message.starts_with("the module ") || message.starts_with("the bytes "),
        "unhelpful message: {message}"
    );
}

#[test]
fn random_bytes_are_refused_as_invalid() {
    let mut random = Random(0x5eed);
    for round in 0..2000 {
        let len = random.below(300);
        let mut bytes: Vec<u8> = (0..len).map(|_| random.next() as u8).collect();
        // Half the time, a real header, so the parser goes past the first eight bytes.
        if round % 2 == 0 {
            bytes.splice(0..0, *b"\0asm\x01\0\0\0");
        }
        let error = inspect(&bytes).unwrap_err();
        assert_explained(&error.message);
    }
    assert_eq!(inspect(b"").unwrap_err().kind, ErrorKind::Invalid);
    assert_eq!(
        inspect(b"\0asm\x0d\0\x01\0").unwrap_err().message,
        "the module is not a core WebAssembly module (version 1): if it is a component \
         (wasm32-wasip2), build the tool for wasm32-wasip1 instead"
    );
}

#[test]
fn every_truncation_of_a_real_tool_is_refused() {
    let tool = example_tool("wordcount");
    let cuts = (0..64).chain((64..tool.len()).step_by(tool.len() / 300));
    for cut in cuts {
        let error = inspect(&tool[..cut]).unwrap_err();
        assert_explained(&error.message);
    }
}

#[test]
fn corrupted_tools_are_refused_or_run_within_their_limits() {
    let tool = example_tool("wordcount");
    let mut random = Random(0xc0ffee);
    let limits = Limits {
        fuel: 1_000_000,
        ..Limits::default()
    };
    let (mut refused, mut ran) = (0, 0);
    for _ in 0..300 {
        let mut bytes = tool.clone();
        let at = random.below(bytes.len());
        bytes[at] ^= 1 << random.below(8);
        match run(&bytes, b"some words to count", &limits) {
            Err(error) => {
                assert_explained(&error.message);
                refused += 1;
            }
            Ok(outcome) => {
                assert!(outcome.fuel_used <= limits.fuel);
                ran += 1;
            }
        }
    }
    // Most flips land in code or data and still validate; some break the module.
    eprintln!("corrupted wordcount: {refused} refused, {ran} ran");
    assert!(refused > 0 && ran > 0);
}
