//! Trajectory files: what is written reads back the same; anything else is a clear error.

use std::rc::Rc;
use tao_agent::format::parse::Why;
use tao_agent::format::{Format, Lang};
use tao_agent::host::{block_on, NativeHost};
use tao_agent::json;
use tao_agent::trajectory::{
    Action, Memo, MemoKind, ModelCall, ParallelCall, Repair, Switch, Thinking, Usage,
};
use tao_agent::{scenarios, settings, Config, Trajectory};
use tao_agent::{Step, StopReason};

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
        json.starts_with("{\n  \"format\": \"tao-trajectory\",\n  \"version\": 4,"),
        "{json}"
    );
    let read = Trajectory::from_json(&json).unwrap();
    assert_eq!(read.to_json(), json);
    assert_eq!(read.steps, t.steps);
    assert_eq!(t.format, Format::Mrkl);
}

#[test]
fn bad_files_get_clear_errors() {
    let cases = [
        ("", "not a trajectory file: invalid JSON"),
        ("[1, 2]", "not a trajectory file: expected a JSON object"),
        ("{\"format\": \"other\"}", "not a trajectory file: the field \"format\" must be \"tao-trajectory\""),
        ("{\"format\": \"tao-trajectory\", \"version\": 7}", "this trajectory was written by a newer tao (version 7); this tao reads versions 1 to 4: update tao to open it"),
        ("{\"format\": \"tao-trajectory\", \"version\": \"1\"}", "not a trajectory file: the field \"version\" must be from 1 to 4"),
        ("{\"format\": \"tao-trajectory\", \"version\": 1}", "malformed trajectory: missing field `task`"),
        ("{\"format\": \"tao-trajectory\", \"version\": 1, \"task\": \"t\", \"react_format\": \"mrkl\", \"steps\": [{\"index\": \"one\"}]}", "malformed trajectory: invalid type: string \"one\", expected u32"),
        ("{\"format\": \"tao-trajectory\", \"version\": 2, \"task\": \"t\", \"react_format\": \"yaml\"}", "malformed trajectory: unknown format `yaml`"),
        ("{\"format\": \"tao-trajectory\", \"version\": 2, \"task\": \"t\", \"react_format\": \"mrkl\", \"steps\": [{\"repair\": {\"why\": \"oops\", \"message\": \"m\"}}]}", "malformed trajectory: unknown variant `oops`, expected a repair reason"),
    ];
    for (text, expected) in cases {
        let message = Trajectory::from_json(text).unwrap_err().message;
        assert!(message.starts_with(expected), "{text:?}: got {message:?}");
    }
}

/// A trajectory with every field of every record set, none at its default.
fn everything() -> Trajectory {
    let mut t = Trajectory::new("task", Format::Auto, Lang::Zh, "openai:gpt");
    let call = |raw: &str, retried: Option<Repair>| ModelCall {
        raw: raw.into(),
        retried,
        usage: Some(Usage {
            prompt_tokens: 120,
            completion_tokens: 7,
        }),
        ms: 812.5,
        first_token_ms: Some(301.25),
        saved_chars: 42,
        cut: Some("\nObservation: made up".into()),
        thinking: Some(Thinking {
            text: "hmm".into(),
            signature: "sig".into(),
            redacted: vec!["opaque".into()],
        }),
    };
    let repair = |why: Why| Repair {
        why,
        message: "Write an Action.".into(),
    };
    t.steps.push(Step {
        index: 1,
        thought: "think".into(),
        action: Some(Action {
            tool: "units".into(),
            input: json!({"value": 42, "unit": "km"}),
            id: Some("call_Xy9".into()),
        }),
        answer: Some("both, to fill every field".into()),
        observation: Some("26.1 mi".into()),
        repair: Some(repair(Why::BadInput)),
        calls: vec![
            call("?", Some(repair(Why::NoAction))),
            call("Action: units", None),
        ],
        notes: vec!["a note".into()],
        switch: Some(Switch {
            from: Format::Auto,
            to: Format::Mrkl,
            why: "tools rejected".into(),
        }),
        approved: Some(true),
        fuel: Some(123_456),
        ms: 1500.75,
        tool_ms: 3.5,
        parallel: vec![ParallelCall {
            action: Action {
                tool: "units".into(),
                input: json!({"value": 1, "unit": "mi"}),
                id: Some("call_Ab3".into()),
            },
            observation: Some("Invalid input".into()),
            repair: Some(repair(Why::BadInput)),
            approved: Some(false),
            fuel: Some(7),
            tool_ms: 0.5,
            picture: Some(json!({"kind": "line", "x": [1, 2], "y": [3.5, 4]})),
        }],
        picture: Some(json!({"kind": "scatter", "title": "t", "x": ["a"], "y": [1]})),
    });
    t.memos.push(Memo {
        kind: MemoKind::Reflection,
        after: 1,
        covers: 0,
        text: "learned".into(),
        call: Some(call("think again", None)),
    });
    t.memos.push(Memo {
        kind: MemoKind::Summary,
        after: 1,
        covers: 1,
        text: "condensed".into(),
        call: None,
    });
    t.finish(StopReason::Error, Some("the server failed".into()));
    t
}

#[test]
fn every_field_survives_a_round_trip() {
    let t = everything();
    let json = t.to_json();
    let read = Trajectory::from_json(&json).unwrap();
    assert_eq!(read, t);
    // Every field is written, and none is written at its default: a field added to a type and
    // forgotten in its field list fails here.
    let value: tao_agent::json::Value = tao_agent::json::from_str(&json).unwrap();
    let step = &value["steps"][0];
    for (record, fields) in [
        (step, 15),
        (&step["calls"][0], 8),
        (&step["calls"][0]["thinking"], 3),
        (&step["parallel"][0], 7),
        (&value["memos"][0], 5),
        (&step["switch"], 3),
        (&step["action"], 3),
        (&step["repair"], 2),
        (&value["stop"], 2),
    ] {
        let object = record.as_object().unwrap();
        assert_eq!(object.len(), fields, "{record}");
        assert!(object.values().all(|v| !v.is_null()), "{record}");
    }
    assert_eq!(
        value["stats"]["n_calls"], 3,
        "the step's two calls and the reflection's"
    );
    assert_eq!(
        value["stats"]["n_badcalls"], 3,
        "one retried call, one repair, one repaired parallel call"
    );
    assert_eq!(value["stats"]["saved_chars"], 84);
    assert_eq!(value["answer"], "both, to fill every field");
}

#[test]
fn every_strict_prefix_of_a_file_is_an_error() {
    let json = everything().to_json();
    for (end, _) in json.char_indices().skip(1) {
        assert!(
            Trajectory::from_json(&json[..end]).is_err(),
            "{:?}",
            &json[..end]
        );
    }
    let json = sample().to_json();
    for (end, _) in json.char_indices().skip(1) {
        assert!(Trajectory::from_json(&json[..end]).is_err());
    }
}

#[test]
fn version_1_files_still_read() {
    // What tao wrote before steps recorded their model calls.
    let v1 = r##"{"format": "tao-trajectory", "version": 1, "task": "Q?", "react_format": "mrkl",
      "lang": "en", "model": "scripted:x",
      "steps": [{"index": 1, "thought": "t", "action": {"tool": "search", "input": "x"},
        "answer": null, "observation": "o", "raw": "Thought: t\nAction: search\nAction Input: x",
        "repair": null, "notes": [], "retries": [{"raw": "??", "why": "no_action", "message": "m"}],
        "timing": {"model_ms": 20.0, "tool_ms": 1.5, "first_token_ms": 3.0},
        "usage": {"prompt_tokens": 10, "completion_tokens": 5}, "saved_chars": 4,
        "switch": null, "approved": null, "fuel": null}],
      "answer": null, "stop": null,
      "stats": {"n_calls": 2, "n_badcalls": 1, "steps": 1, "elapsed_ms": 21.5}}"##;
    let t = Trajectory::from_json(v1).unwrap();
    let step = &t.steps[0];
    assert_eq!(step.calls.len(), 2);
    assert_eq!(step.calls[0].raw, "??");
    assert_eq!(step.calls[0].retried.as_ref().unwrap().why, Why::NoAction);
    assert_eq!(step.raw(), "Thought: t\nAction: search\nAction Input: x");
    assert_eq!((step.model_ms(), step.tool_ms, step.ms), (20.0, 1.5, 21.5));
    assert_eq!(step.saved_chars(), 4);
    let stats = t.stats();
    assert_eq!((stats.n_calls, stats.n_badcalls, stats.steps), (2, 1, 1));
    assert_eq!((stats.prompt_tokens, stats.elapsed_ms), (10, 21.5));
    // And it is written back as the current version.
    assert!(t.to_json().contains("\"version\": 4,"));
}

#[test]
fn version_2_files_still_read() {
    // Before a step could hold several calls, actions had no id and calls no reasoning.
    let v2 = r#"{"format": "tao-trajectory", "version": 2, "task": "t", "react_format": "tools",
      "steps": [{"index": 1, "thought": "t", "action": {"tool": "search", "input": {"query": "x"}},
                 "observation": "o", "calls": [{"raw": "t", "ms": 3}]}]}"#;
    let t = Trajectory::from_json(v2).unwrap();
    let step = &t.steps[0];
    assert_eq!(step.action.as_ref().unwrap().id, None);
    assert!(step.parallel.is_empty() && step.calls[0].thinking.is_none());
    assert!(t.to_json().contains("\"version\": 4,"));
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

#[test]
fn times_read_to_the_microsecond_so_files_round_trip() {
    // Found by `make fuzz`: a 17-digit time (written by hand, or by another tool) came back one
    // unit off in its last place when read, written and read again.
    let file = r#"{"format": "tao-trajectory", "version": 3, "task": "t", "react_format": "mrkl",
      "steps": [{"index": 1, "calls": [{"raw": "r", "ms": 2.5, "first_token_ms": 1.0666666666666667}]}]}"#;
    let read = Trajectory::from_json(file).unwrap();
    assert_eq!(read.steps[0].calls[0].first_token_ms, Some(1.067));
    let again = Trajectory::from_json(&read.to_json()).unwrap();
    assert_eq!(again, read);
    assert_eq!(again.to_json(), read.to_json());
    let huge = file.replace("2.5", "1e300");
    let message = Trajectory::from_json(&huge).unwrap_err().message;
    assert!(
        message.contains("a time of 10^12 ms or more, expected milliseconds"),
        "{message}"
    );
}
