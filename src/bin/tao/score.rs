//! `tao parse`'s output: a parser verdict as one JSON object, the contract the shared corpus's
//! scorer reads.
//!
//! This is the command line's business, not the agent's: the agent acts on a `Verdict`, while
//! `make parse-score` pipes a corpus through `tao parse --jsonl` and compares these objects
//! with the expected ones. So the helpers live next to the CLI and use only the library's
//! public parser API. The native tests compile this same file (see `tests/tests.rs`), so the
//! corpus tests score exactly what `make parse-score` scores.

use tao_agent::format::parse::{self, ParseOptions, Parsed, Style, Verdict};
use tao_agent::json;
use tao_agent::json::{Map, Value};

/// The `tao parse --jsonl` contract: one input object {id, text, style, final_marker,
/// prompt_suffix, tools} (missing fields default; style "mixed" reads as Json) -> one output
/// object {"id":..,"kind":"action","tool":..,"input":..} | {"id":..,"kind":"final","answer":..}
/// | {"id":..,"kind":"error","why":..,"message":..}, plus "notes" when non-empty. A
/// malformed input gives
/// {"id":null,"kind":"error","why":"bad_request","message":..}.
pub fn verdict_for_case(case: &Value) -> Value {
    let bad = |message: String| {
        let id = case.get("id").cloned().unwrap_or(Value::Null);
        json!({"id": id, "kind": "error", "why": "bad_request", "message": message})
    };
    let Some(obj) = case.as_object() else {
        return json!({"id": null, "kind": "error", "why": "bad_request",
                      "message": "each input line must be a JSON object with a \"text\" field"});
    };
    let text = match obj.get("text") {
        None | Some(Value::Null) => "",
        Some(Value::String(s)) => s.as_str(),
        Some(_) => return bad("\"text\" must be a string".into()),
    };
    let style = match obj.get("style").and_then(Value::as_str) {
        None => Style::Mrkl,
        Some(s) => match Style::from_name(s) {
            Some(style) => style,
            None => {
                return bad(format!(
                    "unknown style {s:?}; use \"mrkl\", \"paper\", \"json\" or \"mixed\""
                ))
            }
        },
    };
    let mut options = ParseOptions::new(style);
    options.final_marker = obj
        .get("final_marker")
        .and_then(Value::as_str)
        .map(str::to_string);
    options.tools = obj.get("tools").and_then(Value::as_array).map(|tools| {
        tools
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect()
    });
    // A prompt that ends with a label other than `Thought:` (say `Action:`) is continued by
    // the reply, so the label is read as part of it.
    let suffix = obj
        .get("prompt_suffix")
        .and_then(Value::as_str)
        .unwrap_or("");
    let joined;
    let text = match parse::open_label(suffix, &options) {
        Some(label) => {
            joined = format!("{label}{text}");
            joined.as_str()
        }
        None => text,
    };
    let mut out = verdict_json(&parse::parse(text, &options));
    if let Value::Object(map) = &mut out {
        let mut with_id = Map::new();
        with_id.insert("id".into(), obj.get("id").cloned().unwrap_or(Value::Null));
        with_id.append(map);
        return Value::Object(with_id);
    }
    out
}

/// Same output object (without id) for a Verdict, used by `tao parse` on a single text.
pub fn verdict_json(parsed: &Parsed) -> Value {
    let mut out = match &parsed.verdict {
        Verdict::Action { tool, input, .. } => {
            json!({"kind": "action", "tool": tool, "input": input})
        }
        Verdict::Final { answer, .. } => json!({"kind": "final", "answer": answer}),
        Verdict::Error { why, message, .. } => {
            json!({"kind": "error", "why": why.name(), "message": message})
        }
    };
    if !parsed.notes.is_empty() {
        if let Value::Object(map) = &mut out {
            map.insert("notes".into(), json!(parsed.notes));
        }
    }
    out
}
