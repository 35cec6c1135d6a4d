//! Trajectory files: what is written reads back the same; anything else is a clear error.

use std::rc::Rc;
use tao_agent::format::parse::Why;
use tao_agent::format::{Format, Lang};
use tao_agent::host::{block_on, NativeHost};
use tao_agent::json;
use tao_agent::trajectory::{
    Action, Memo, MemoKind, ModelCall, Repair, Switch, Thinking, ToolCall, Usage,
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
        json.starts_with("{\n  \"format\": \"tao-trajectory\",\n  \"version\": 5,"),
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
        ("{\"format\": \"tao-trajectory\", \"version\": 7}", "this trajectory was written by a newer tao (version 7); this tao reads versions 1 to 5: update tao to open it"),
        ("{\"format\": \"tao-trajectory\", \"version\": \"1\"}", "not a trajectory file: the field \"version\" must be from 1 to 5"),
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
            cached_tokens: 100,
            prompt_per_second: Some(9.5),
            reply_per_second: Some(4.25),
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
        tool_calls: vec![
            ToolCall {
                action: Action {
                    tool: "units".into(),
                    input: json!({"value": 42, "unit": "km"}),
                    id: Some("call_Xy9".into()),
                },
                observation: Some("26.1 mi".into()),
                repair: Some(repair(Why::BadInput)),
                approved: Some(true),
                fuel: Some(123_456),
                ms: 3.5,
                picture: Some(json!({"kind": "scatter", "title": "t", "x": ["a"], "y": [1]})),
            },
            ToolCall {
                action: Action {
                    tool: "units".into(),
                    input: json!({"value": 1, "unit": "mi"}),
                    id: Some("call_Ab3".into()),
                },
                observation: Some("Invalid input".into()),
                repair: Some(repair(Why::BadInput)),
                approved: Some(false),
                fuel: Some(7),
                ms: 0.5,
                picture: Some(json!({"kind": "line", "x": [1, 2], "y": [3.5, 4]})),
            },
        ],
        answer: Some("both, to fill every field".into()),
        repair: Some(repair(Why::UnknownTool)),
        model_calls: vec![
            call("?", Some(repair(Why::NoAction))),
            call("Action: units", None),
        ],
        notes: vec!["a note".into()],
        switch: Some(Switch {
            from: Format::Auto,
            to: Format::Mrkl,
            why: "tools rejected".into(),
        }),
        ms: 1500.75,
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
        (step, 9),
        (&step["model_calls"][0], 8),
        (&step["model_calls"][0]["thinking"], 3),
        (&step["tool_calls"][0], 7),
        (&step["tool_calls"][1], 7),
        (&value["memos"][0], 5),
        (&step["switch"], 3),
        (&step["tool_calls"][0]["action"], 3),
        (&step["tool_calls"][0]["repair"], 2),
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
        value["stats"]["n_badcalls"], 4,
        "one retried call, one repaired reply, two repaired tool calls"
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
    assert_eq!(step.model_calls.len(), 2);
    assert_eq!(step.model_calls[0].raw, "??");
    assert_eq!(
        step.model_calls[0].retried.as_ref().unwrap().why,
        Why::NoAction
    );
    assert_eq!(step.raw(), "Thought: t\nAction: search\nAction Input: x");
    assert_eq!(step.tool_calls.len(), 1);
    assert_eq!(step.action().unwrap().input, json!("x"));
    assert_eq!(step.observation(), Some("o"));
    let tool_ms = step.tool_calls[0].ms;
    assert_eq!((step.model_ms(), tool_ms, step.ms), (20.0, 1.5, 21.5));
    assert_eq!(step.saved_chars(), 4);
    let stats = t.stats();
    assert_eq!((stats.n_calls, stats.n_badcalls, stats.steps), (2, 1, 1));
    assert_eq!((stats.prompt_tokens, stats.elapsed_ms), (10, 21.5));
    // And it is written back as the current version.
    assert!(t.to_json().contains("\"version\": 5,"));
}

#[test]
fn version_2_files_still_read() {
    // Before a step could hold several calls, actions had no id and calls no reasoning.
    let v2 = r#"{"format": "tao-trajectory", "version": 2, "task": "t", "react_format": "tools",
      "steps": [{"index": 1, "thought": "t", "action": {"tool": "search", "input": {"query": "x"}},
                 "observation": "o", "calls": [{"raw": "t", "ms": 3}]}]}"#;
    let t = Trajectory::from_json(v2).unwrap();
    let step = &t.steps[0];
    assert_eq!(step.action().unwrap().id, None);
    assert_eq!(step.observation(), Some("o"));
    assert!(step.tool_calls.len() == 1 && step.model_calls[0].thinking.is_none());
    assert!(t.to_json().contains("\"version\": 5,"));
}

#[test]
fn never_panics_on_any_input() {
    let json = sample().to_json();
    let bytes = json.as_bytes();
    // Every truncation, and seeded random byte edits (tests/rng.rs: deterministic).
    for end in 0..bytes.len() {
        let _ = Trajectory::from_json(&String::from_utf8_lossy(&bytes[..end]));
    }
    let mut rng = crate::rng::Rng(0x9E37_79B9_7F4A_7C15);
    let mut next = move || rng.next();
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
    assert_eq!(read.steps[0].model_calls[0].first_token_ms, Some(1.067));
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

/// Version 4 kept a step's first tool call in the step's own fields (a repair of its input
/// among them) and the others in `parallel`: read, they are the step's tool calls, in order,
/// each with its own repair.
#[test]
fn a_version_4_step_with_parallel_calls_reads_as_tool_calls() {
    let message = "Invalid input for units: the field \"unit\" must be one of \"km\", \"mi\" (got \"miles\").";
    let v4 = r#"{"format": "tao-trajectory", "version": 4, "task": "t", "react_format": "tools",
      "steps": [{"index": 1, "thought": "convert both",
        "action": {"tool": "units", "input": {"value": 5, "unit": "miles"}, "id": "call_1"},
        "answer": null, "observation": "MESSAGE", "repair": {"why": "bad_input", "message": "MESSAGE"},
        "calls": [{"raw": "", "ms": 40}], "notes": [], "switch": null,
        "approved": null, "fuel": null, "ms": 45, "tool_ms": 0.25, "picture": null,
        "parallel": [{"action": {"tool": "units", "input": {"value": 1, "unit": "mi"}, "id": "call_2"},
          "observation": "1 mi", "repair": null, "approved": true, "fuel": 99, "tool_ms": 1.5,
          "picture": {"kind": "line", "x": [1], "y": [2]}}]}]}"#
        .replace("MESSAGE", &message.replace('"', "\\\""));
    let t = Trajectory::from_json(&v4).unwrap();
    let bad_input = Repair {
        why: Why::BadInput,
        message: message.into(),
    };
    let expected = Step {
        thought: "convert both".into(),
        tool_calls: vec![
            ToolCall {
                action: Action {
                    tool: "units".into(),
                    input: json!({"value": 5, "unit": "miles"}),
                    id: Some("call_1".into()),
                },
                observation: Some(message.into()),
                repair: Some(bad_input),
                ms: 0.25,
                ..ToolCall::default()
            },
            ToolCall {
                action: Action {
                    tool: "units".into(),
                    input: json!({"value": 1, "unit": "mi"}),
                    id: Some("call_2".into()),
                },
                observation: Some("1 mi".into()),
                approved: Some(true),
                fuel: Some(99),
                ms: 1.5,
                picture: Some(json!({"kind": "line", "x": [1], "y": [2]})),
                ..ToolCall::default()
            },
        ],
        repair: None,
        model_calls: vec![ModelCall {
            ms: 40.0,
            ..ModelCall::default()
        }],
        ms: 45.0,
        ..Step::new(1)
    };
    assert_eq!(t.steps, [expected]);
    // The repaired input is the model's mistake, read as the step's observation; counted once.
    let step = &t.steps[0];
    assert!(step.repaired());
    assert_eq!(step.observation(), Some(message));
    assert_eq!((t.stats().n_calls, t.stats().n_badcalls), (1, 1));
    // Written back as version 5, it reads back the same.
    let json = t.to_json();
    assert!(json.contains("\"version\": 5,"), "{json}");
    assert_eq!(Trajectory::from_json(&json).unwrap(), t);
}

/// A version 4 repair with no action was the reply's (nothing readable, an unknown tool): read,
/// it is the step's own repair, and the step has no tool calls.
#[test]
fn a_version_4_repair_without_an_action_is_the_steps() {
    let v4 = r#"{"format": "tao-trajectory", "version": 4, "task": "t", "react_format": "mrkl",
      "steps": [{"index": 1, "thought": "", "action": null, "answer": null,
        "observation": "Say an action.", "repair": {"why": "no_action", "message": "Say an action."},
        "calls": [{"raw": "I am not sure.", "ms": 12}], "notes": [], "switch": null,
        "approved": null, "fuel": null, "ms": 12, "tool_ms": 0, "picture": null, "parallel": []}]}"#;
    let t = Trajectory::from_json(v4).unwrap();
    let expected = Step {
        repair: Some(Repair {
            why: Why::NoAction,
            message: "Say an action.".into(),
        }),
        model_calls: vec![ModelCall {
            raw: "I am not sure.".into(),
            ms: 12.0,
            ..ModelCall::default()
        }],
        ms: 12.0,
        ..Step::new(1)
    };
    assert_eq!(t.steps, [expected]);
    let step = &t.steps[0];
    assert!(step.tool_calls.is_empty() && step.action().is_none());
    assert_eq!(step.observation(), Some("Say an action."));
    assert_eq!(t.stats().n_badcalls, 1);
    assert!(t
        .to_text()
        .contains("  Repair (no_action): Say an action.\n"));
}
