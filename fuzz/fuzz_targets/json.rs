//! The JSON reader against serde_json, fuzzed by libFuzzer: see `../checks.rs` for what must
//! hold.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::json(data));
