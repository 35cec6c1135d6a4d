//! Trajectory files: what is written reads back the same; anything else is a clear error.

use std::rc::Rc;
use tao_agent::format::{Format, Lang};
use tao_agent::host::{block_on, NativeHost};
use tao_agent::{scenarios, settings, Config, Trajectory};

fn sample() -> Trajectory {
    let scenario = scenarios::get("water").unwrap();
    let agent = settings::offline_agent(
        &scenario,
        Config::default(),
        0,
        Rc::new(NativeHost::default()),
    )
    .unwrap();
    block_on(agent.run(scenario.task(Lang::En), &mut |_| {}))
}

#[test]
fn round_trip() {
    let t = sample();
    let json = t.to_json();
    assert!(
        json.starts_with("{\n  \"format\": \"tao-trajectory\",\n  \"version\": 1,"),
        "{json}"
    );
    let read = Trajectory::from_json(&json).unwrap();
    assert_eq!(read.to_json(), json);
    assert_eq!(read.steps, t.steps);
    assert_eq!(t.react_format, Format::Mrkl.name());
}

#[test]
fn bad_files_get_clear_errors() {
    let cases = [
        ("", "not a trajectory file: invalid JSON"),
        ("[1, 2]", "not a trajectory file: expected a JSON object"),
        ("{\"format\": \"other\"}", "not a trajectory file: the field \"format\" must be \"tao-trajectory\""),
        ("{\"format\": \"tao-trajectory\", \"version\": 7}", "this trajectory was written by a newer tao (version 7); this tao reads version 1: update tao to open it"),
        ("{\"format\": \"tao-trajectory\", \"version\": \"1\"}", "not a trajectory file: the field \"version\" must be 1"),
        ("{\"format\": \"tao-trajectory\", \"version\": 1}", "malformed trajectory: missing field `task`"),
        ("{\"format\": \"tao-trajectory\", \"version\": 1, \"task\": \"t\", \"react_format\": \"mrkl\", \"steps\": [{\"index\": \"one\"}]}", "malformed trajectory: invalid type: string \"one\", expected u32"),
    ];
    for (text, expected) in cases {
        let message = Trajectory::from_json(text).unwrap_err().message;
        assert!(message.starts_with(expected), "{text:?}: got {message:?}");
    }
}

#[test]
fn never_panics_on_any_input() {
    let json = sample().to_json();
    let bytes = json.as_bytes();
    // Every truncation, and seeded random byte edits (xorshift: deterministic, no dependency).
    for end in 0..bytes.len() {
        let _ = Trajectory::from_json(&String::from_utf8_lossy(&bytes[..end]));
    }
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet = b"{}[]\":,0123456789.eE-+ \\nulltruefalse\xff\xc3\xa9";
    for _ in 0..3000 {
        let mut edited = bytes.to_vec();
        for _ in 0..(next() % 8 + 1) {
            let at = (next() as usize) % edited.len();
            let byte = alphabet[(next() as usize) % alphabet.len()];
            match next() % 3 {
                0 => edited[at] = byte,
                1 => edited.insert(at, byte),
                _ => {
                    edited.remove(at);
                }
            }
        }
        let _ = Trajectory::from_json(&String::from_utf8_lossy(&edited));
    }
    // Deep nesting is an error (serde_json's recursion limit), not a stack overflow.
    let deep = "[".repeat(100_000);
    assert!(Trajectory::from_json(&deep).is_err());
}
