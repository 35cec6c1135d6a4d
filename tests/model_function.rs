//! The JS model interface's values (`llm::function`), natively: what a model function streams
//! through `onDelta` and returns is read, and what it is given is written, exactly as the page's
//! model and the providers' module see them.

use tao_agent::chat::{Thinking, Usage};
use tao_agent::error::ErrorKind;
use tao_agent::json::{from_str, Value};
use tao_agent::llm::function::{
    read_usage, reply, Call, Counts, End, ForModel, Piece, Returned, Streamed,
};
use tao_agent::llm::{Delta, Message, Reply, Role, ToolCall};
use tao_agent::to_json::to_string;

fn json(text: &str) -> Value {
    from_str(text).unwrap()
}

fn usage(prompt: u64, completion: u64, cached: u64) -> Usage {
    Usage {
        prompt_tokens: prompt,
        completion_tokens: completion,
        cached_tokens: cached,
        ..Usage::default()
    }
}

#[test]
fn each_piece_given_to_on_delta_is_read_as_its_kind() {
    let text = |s: &str| Some(Piece::Text(s.into()));
    let cases: &[(&str, Option<Piece>)] = &[
        (r#""Thought: I""#, text("Thought: I")),
        (r#""""#, text("")),
        (
            r#"{"reasoning": "hmm"}"#,
            Some(Piece::Reasoning("hmm".into())),
        ),
        (
            r#"{"note": "retrying in 2 s"}"#,
            Some(Piece::Note("retrying in 2 s".into())),
        ),
        // The first kind named wins.
        (
            r#"{"note": "n", "reasoning": "r"}"#,
            Some(Piece::Reasoning("r".into())),
        ),
        (
            r#"{"usage": {"promptTokens": 12, "completionTokens": 3}}"#,
            Some(Piece::Usage(usage(12, 3, 0))),
        ),
        (
            r#"{"download": {"loaded": 512.7, "total": 2048}}"#,
            Some(Piece::Download {
                loaded: 512,
                total: 2048,
            }),
        ),
        // Bytes the engine does not know (or gets wrong) are 0.
        (
            r#"{"download": {"loaded": -1, "total": "lots"}}"#,
            Some(Piece::Download {
                loaded: 0,
                total: 0,
            }),
        ),
        (
            r#"{"download": {}, "usage": {}}"#,
            Some(Piece::Download {
                loaded: 0,
                total: 0,
            }),
        ),
        // Anything else is ignored.
        (r#"{"reasoning": 3}"#, None),
        (r#"{"usage": 7}"#, None),
        (r#"{"download": true}"#, None),
        (r#"{}"#, None),
        ("42", None),
        ("null", None),
        (r#"["text"]"#, None),
    ];
    for (given, want) in cases {
        assert_eq!(&Piece::read(&json(given)), want, "{given}");
    }
}

#[test]
fn a_piece_reaches_the_loop_as_the_delta_of_its_kind() {
    let pieces = [
        (Piece::Text("Act".into()), Delta::Text("Act")),
        (Piece::Reasoning("r".into()), Delta::Reasoning("r")),
        (Piece::Note("n".into()), Delta::Note("n")),
        (Piece::Usage(usage(1, 2, 3)), Delta::Usage(usage(1, 2, 3))),
        (
            Piece::Download {
                loaded: 4,
                total: 9,
            },
            Delta::Download {
                loaded: 4,
                total: 9,
            },
        ),
    ];
    for (piece, delta) in &pieces {
        assert_eq!(&piece.delta(), delta);
    }
}

#[test]
fn usage_keeps_the_counts_and_speeds_that_make_sense() {
    let read = read_usage(&json(
        r#"{"promptTokens": 100.9, "completionTokens": -5, "cachedTokens": 40,
            "promptPerSecond": 250.5, "replyPerSecond": -1}"#,
    ));
    assert_eq!(
        read,
        Some(Usage {
            prompt_tokens: 100,
            completion_tokens: 0,
            cached_tokens: 40,
            prompt_per_second: Some(250.5),
            reply_per_second: None,
        })
    );
    assert_eq!(read_usage(&json("{}")), Some(Usage::default()));
    assert_eq!(read_usage(&json(r#""12 tokens""#)), None);
    assert_eq!(read_usage(&Value::Null), None);
}

/// What `reply` returns and the text it hands the loop.
fn returned(value: Returned, streamed: bool) -> (Result<Reply, (ErrorKind, String)>, Vec<String>) {
    let mut texts = Vec::new();
    let mut on_delta = |delta: Delta| {
        if let Delta::Text(text) = delta {
            texts.push(text.to_string());
        }
        true
    };
    let result = reply(value, streamed, &mut on_delta).map_err(|e| (e.kind, e.message));
    (result, texts)
}

#[test]
fn a_returned_string_is_the_reply_unless_it_was_streamed() {
    let text = || Returned::Text("Final Answer: 42".into());
    assert_eq!(
        returned(text(), false),
        (Ok(Reply::default()), vec!["Final Answer: 42".to_string()])
    );
    assert_eq!(returned(text(), true), (Ok(Reply::default()), vec![]));
}

#[test]
fn nothing_or_another_kind_of_value_is_an_error_naming_what_to_return() {
    assert_eq!(
        returned(Returned::Nothing, true),
        (Ok(Reply::default()), vec![])
    );
    let nothing = "the JS model returned nothing and streamed nothing through onDelta";
    assert_eq!(
        returned(Returned::Nothing, false).0,
        Err((ErrorKind::Model, nothing.to_string()))
    );
    for streamed in [false, true] {
        assert_eq!(
            returned(Returned::Other("number".into()), streamed).0,
            Err((ErrorKind::Model, "the JS model must return a string or {text, toolCalls, usage} (or a Promise of one); it returned number".to_string()))
        );
    }
}

#[test]
fn a_returned_object_gives_its_tool_calls_usage_and_thinking() {
    let object = json(
        r#"{"text": "I will search.",
            "toolCalls": [
              {"name": "search", "arguments": "{\"query\": \"Apple\"}"},
              {"id": "toolu_1", "name": "lookup", "arguments": "not json"},
              {"name": "calculator"},
              {"id": 7, "arguments": {"expression": "1+1"}}
            ],
            "usage": {"promptTokens": 30, "completionTokens": 8, "cachedTokens": 20},
            "thinking": {"text": "first search", "redacted": ["opaque", 3]}}"#,
    );
    let (result, texts) = returned(Returned::Object(object.clone()), false);
    let call = |id: &str, name: &str, arguments: &str| ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: json(arguments),
    };
    let want = Reply {
        tool_calls: vec![
            call("call_0", "search", r#"{"query": "Apple"}"#),
            call("toolu_1", "lookup", r#""not json""#),
            call("call_2", "calculator", "{}"),
            call("call_3", "", r#"{"expression": "1+1"}"#),
        ],
        usage: Some(usage(30, 8, 20)),
        thinking: Some(Thinking {
            text: "first search".into(),
            signature: String::new(),
            redacted: vec!["opaque".into()],
        }),
        unsent_chars: 0,
    };
    assert_eq!(result, Ok(want.clone()));
    assert_eq!(texts, vec!["I will search.".to_string()]);
    // Streamed already: the text is not sent again, the rest is the same.
    assert_eq!(returned(Returned::Object(object), true), (Ok(want), vec![]));
    // An object that says nothing (an array, a `toJSON` that made it a number) is an empty reply.
    for said_nothing in ["{}", "[1, 2]", "null"] {
        let (result, texts) = returned(Returned::Object(json(said_nothing)), false);
        assert_eq!(
            (result, texts),
            (Ok(Reply::default()), vec![]),
            "{said_nothing}"
        );
    }
}

#[test]
fn a_message_is_given_with_its_thinking_and_only_the_fields_it_has() {
    let plain = Message::new(Role::User, "What is 2+2?");
    assert_eq!(
        to_string(&ForModel(&plain)),
        r#"{"role":"user","content":"What is 2+2?"}"#
    );
    let mut turn = Message::new(Role::Assistant, "");
    turn.tool_calls = vec![ToolCall {
        id: "call_1".into(),
        name: "search".into(),
        arguments: json(r#"{"query":"Apple"}"#),
    }];
    turn.thinking = Some(Thinking {
        text: "t".into(),
        signature: "sig".into(),
        redacted: vec![],
    });
    assert_eq!(
        to_string(&ForModel(&turn)),
        r#"{"role":"assistant","content":"","tool_calls":[{"id":"call_1","name":"search","arguments":{"query":"Apple"}}],"thinking":{"text":"t","signature":"sig","redacted":[]}}"#
    );
    let mut result = Message::new(Role::Tool, "Apple Inc. is ...");
    result.tool_call_id = Some("call_1".into());
    assert_eq!(
        to_string(&ForModel(&result)),
        r#"{"role":"tool","content":"Apple Inc. is ...","tool_call_id":"call_1"}"#
    );
}

#[test]
fn a_call_is_read_back_from_its_messages_and_options() {
    let messages = json(
        r#"[{"role": "system", "content": "Answer."},
            {"role": "assistant", "content": "", "thinking": {"text": "t", "signature": "s", "redacted": []},
             "tool_calls": [{"id": "call_1", "name": "search", "arguments": {"query": "Apple"}}]},
            {"role": "tool", "content": "Apple Inc.", "tool_call_id": "call_1"}]"#,
    );
    let options = json(
        r#"{"stop": ["\nObservation:"],
            "tools": [{"name": "search", "description": "Searches.", "parameters": {"type": "object"}}]}"#,
    );
    let call = Call::read(&messages, &options).unwrap();
    // What the page's model is given reads back to the same messages.
    let written: Vec<Value> = (call.messages.iter())
        .map(|m| json(&to_string(&ForModel(m))))
        .collect();
    assert_eq!(&Value::Array(written), &messages);
    assert_eq!(call.stop, vec!["\nObservation:".to_string()]);
    assert_eq!(
        (
            call.tools.len(),
            call.tools[0].name.as_str(),
            &call.tools[0].parameters
        ),
        (1, "search", &json(r#"{"type": "object"}"#))
    );
    // Lists left out (or no options at all) are empty.
    for options in [json("{}"), Value::Null] {
        let call = Call::read(&json("[]"), &options).unwrap();
        assert!(call.messages.is_empty() && call.stop.is_empty() && call.tools.is_empty());
    }
}

#[test]
fn a_bad_call_is_an_error_naming_the_argument() {
    let bad = |messages: &str, options: &str| {
        let e = Call::read(&json(messages), &json(options)).unwrap_err();
        (e.kind, e.message)
    };
    let cases = [
        ("null", "{}", "httpModel: messages: "),
        (r#"[{"role": "robot"}]"#, "{}", "httpModel: messages: "),
        ("[]", r#"{"stop": "Observation:"}"#, "httpModel: stop: "),
        ("[]", r#"{"stop": [1]}"#, "httpModel: stop: "),
        ("[]", r#"{"tools": [{"name": "x"}]}"#, "httpModel: tools: "),
    ];
    for (messages, options, starts) in cases {
        let (kind, message) = bad(messages, options);
        assert_eq!(kind, ErrorKind::Model, "{message}");
        assert!(message.starts_with(starts), "{message}");
    }
    assert_eq!(
        bad(r#"[{"role": "robot"}]"#, "{}").1,
        r#"httpModel: messages: unknown role "robot""#
    );
}

#[test]
fn what_is_streamed_reads_back_as_the_same_delta() {
    let counts = Usage {
        prompt_per_second: Some(9.0),
        ..usage(5, 6, 7)
    };
    let deltas = [
        (
            Delta::Text("Thought: \"quoted\""),
            r#""Thought: \"quoted\"""#,
        ),
        (Delta::Reasoning("r"), r#"{"reasoning":"r"}"#),
        (Delta::Note("retrying"), r#"{"note":"retrying"}"#),
        // Counts only: the speeds are the in-tab engine's, not a provider's.
        (
            Delta::Usage(counts),
            r#"{"usage":{"promptTokens":5,"completionTokens":6,"cachedTokens":7}}"#,
        ),
        (
            Delta::Download {
                loaded: 1,
                total: 2,
            },
            r#"{"download":{"loaded":1,"total":2}}"#,
        ),
    ];
    for (delta, text) in deltas {
        assert_eq!(to_string(&Streamed(delta)), text);
        let read = Piece::read(&json(text)).unwrap();
        match delta {
            Delta::Usage(_) => assert_eq!(read.delta(), Delta::Usage(usage(5, 6, 7))),
            delta => assert_eq!(read.delta(), delta),
        }
    }
}

#[test]
fn the_end_of_a_reply_is_returned_as_a_model_function_returns_it() {
    let reply = Reply {
        tool_calls: vec![ToolCall {
            id: "toolu_9".into(),
            name: "calculator".into(),
            arguments: json(r#"{"expression": "2+2"}"#),
        }],
        usage: Some(usage(10, 2, 0)),
        thinking: Some(Thinking {
            text: "add".into(),
            signature: "sig".into(),
            redacted: vec!["x".into()],
        }),
        unsent_chars: 3,
    };
    let written = to_string(&End(&reply));
    assert_eq!(
        written,
        r#"{"toolCalls":[{"id":"toolu_9","name":"calculator","arguments":{"expression":"2+2"}}],"usage":{"promptTokens":10,"completionTokens":2,"cachedTokens":0},"thinking":{"text":"add","signature":"sig","redacted":["x"]}}"#
    );
    // And the JS model reads it back as the same reply (what it can carry of it).
    let (read, _) = returned(Returned::Object(json(&written)), true);
    assert_eq!(
        read,
        Ok(Reply {
            unsent_chars: 0,
            ..reply
        })
    );
    assert_eq!(
        to_string(&End(&Reply::default())),
        r#"{"toolCalls":[],"usage":null,"thinking":null}"#
    );
    assert_eq!(
        to_string(&Counts(&usage(1, 2, 3))),
        r#"{"promptTokens":1,"completionTokens":2,"cachedTokens":3}"#
    );
}
