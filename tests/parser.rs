//! Tests for the ReAct output parser (`tao_agent::format::parse`).
//!
//! The parser is judged on real text, so most of these tests are data: the shared corpus
//! (`../shared/corpus/*.jsonl`, loaded at run time, never pasted here) and a table of named
//! cases, one per reading rule. The rest check the promises the agent relies on: streaming
//! gives the same verdict as whole-text parsing however the bytes are split, no input panics,
//! and the work done stays linear in the length of the reply.

use crate::score::verdict_for_case;
use tao_agent::format::parse::*;
use tao_agent::json;
use tao_agent::json::Value;

// ---------------------------------------------------------------------------------------------
// The corpus and the reference scorer's rule
// ---------------------------------------------------------------------------------------------

const PEER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/corpus/peer-suite.jsonl"
);
const REAL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/corpus/real-outputs.jsonl"
);

/// The real-outputs score this parser reaches; the test fails if a change lowers it.
const REAL_FLOOR: usize = 35;

fn load(path: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read the corpus at {path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| tao_agent::json::from_str(l).unwrap_or_else(|e| panic!("bad corpus line: {e}")))
        .collect()
}

/// score.py's canon(): strip, remove one pair of wrapping quotes (not a ``` fence), and read
/// JSON when the result starts with `{` or `[` and parses.
fn canon(v: &Value) -> Value {
    let s = match v {
        Value::Null => return json!(["str", ""]),
        Value::String(s) => s.trim(),
        other => return json!(["json", other]),
    };
    let mut s = s;
    let b = s.as_bytes();
    if b.len() >= 2
        && b[0] == b[b.len() - 1]
        && (b[0] == b'"' || b[0] == b'\'' || (b[0] == b'`' && !s.starts_with("``")))
    {
        s = s[1..s.len() - 1].trim();
    }
    if s.starts_with('{') || s.starts_with('[') {
        if let Ok(v) = tao_agent::json::from_str(s) {
            return json!(["json", v]);
        }
    }
    json!(["str", s])
}

fn matches(verdict: &Value, target: &Value) -> bool {
    if verdict["kind"] != target["kind"] {
        return false;
    }
    match target["kind"].as_str() {
        Some("error") => true,
        Some("final") => canon(&verdict["answer"]) == canon(&target["answer"]),
        Some("action") => {
            let tool = verdict["tool"].as_str().map(str::trim);
            tool.is_some()
                && tool == target["tool"].as_str().map(str::trim)
                && canon(&verdict["input"]) == canon(&target["input"])
        }
        _ => false,
    }
}

fn is_correct(case: &Value, verdict: &Value) -> bool {
    std::iter::once(&case["expected"])
        .chain(case["accept"].as_array().into_iter().flatten())
        .any(|t| matches(verdict, t))
}

/// Scores a corpus file; writes the verdicts as JSONL (for `score.py`) next to the test's
/// temporary files, and returns (correct, total, failure reports).
fn score(path: &str, out_name: &str) -> (usize, usize, Vec<String>) {
    let cases = load(path);
    let mut jsonl = String::new();
    let mut failures = Vec::new();
    let mut correct = 0;
    for case in &cases {
        let verdict = verdict_for_case(case);
        jsonl.push_str(&verdict.to_string());
        jsonl.push('\n');
        if is_correct(case, &verdict) {
            correct += 1;
        } else {
            failures.push(format!(
                "--- {}\ntext:\n{}\nexpected: {}\naccept:   {}\ngot:      {}\n",
                case["id"],
                case["text"].as_str().unwrap_or(""),
                case["expected"],
                case["accept"],
                verdict
            ));
        }
    }
    let out = format!("{}/{out_name}", env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(&out, jsonl).unwrap_or_else(|e| panic!("cannot write {out}: {e}"));
    println!("verdicts written to {out} (python3 score.py {path} {out})");
    (correct, cases.len(), failures)
}

#[test]
fn peer_suite_all_pass() {
    let (correct, total, failures) = score(PEER, "verdicts-peer.jsonl");
    assert!(
        failures.is_empty(),
        "peer suite: {correct}/{total}\n{}",
        failures.join("\n")
    );
}

#[test]
fn real_outputs_score_holds() {
    let (correct, total, failures) = score(REAL, "verdicts-real.jsonl");
    println!("real outputs: {correct}/{total}\n{}", failures.join("\n"));
    assert!(
        correct >= REAL_FLOOR,
        "real outputs: {correct}/{total}, below the floor {REAL_FLOOR}\n{}",
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Streaming equals whole-text parsing
// ---------------------------------------------------------------------------------------------

/// The options `verdict_for_case` would use.
fn options_for(case: &Value) -> ParseOptions {
    let style = match case["style"].as_str() {
        Some("paper") => Style::Paper,
        Some("mrkl") => Style::Mrkl,
        _ => Style::Json,
    };
    let mut o = ParseOptions::new(style);
    o.final_marker = case["final_marker"].as_str().map(str::to_string);
    o.tools = case["tools"].as_array().map(|t| {
        t.iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect()
    });
    o
}

/// Pushes `bytes` in the given chunks; returns the parsed result and all events.
fn stream(bytes: &[u8], cuts: &[usize], options: &ParseOptions) -> (Parsed, Vec<ParseEvent>) {
    let mut p = StreamParser::new(options.clone());
    let mut events = Vec::new();
    let mut from = 0;
    for &to in cuts.iter().chain(std::iter::once(&bytes.len())) {
        events.extend(p.push(&bytes[from..to]));
        from = to;
    }
    (p.finish(), events)
}

fn corpus_texts() -> Vec<Value> {
    let mut cases = load(PEER);
    cases.extend(load(REAL));
    cases
}

#[test]
fn every_two_chunk_split_gives_the_whole_text_verdict() {
    for case in corpus_texts() {
        let text = case["text"].as_str().unwrap_or("");
        let bytes = text.as_bytes();
        let options = options_for(&case);
        let (whole, whole_events) = stream(bytes, &[], &options);
        assert_eq!(
            whole,
            parse(text, &options),
            "{}: parse() differs from one push",
            case["id"]
        );
        for at in 0..=bytes.len() {
            let (split, events) = stream(bytes, &[at], &options);
            assert_eq!(split, whole, "{} split at byte {at}", case["id"]);
            assert_eq!(events, whole_events, "{} events, split at {at}", case["id"]);
        }
    }
}

fn random_cuts(rng: &mut Rng, len: usize) -> Vec<usize> {
    let mut cuts = Vec::new();
    let mut at = 0;
    loop {
        at += 1 + rng.below(7);
        if at >= len {
            return cuts;
        }
        cuts.push(at);
    }
}

#[test]
fn random_small_chunks_give_the_whole_text_verdict() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for case in corpus_texts() {
        let bytes = case["text"].as_str().unwrap_or("").as_bytes();
        let options = options_for(&case);
        let (whole, whole_events) = stream(bytes, &[], &options);
        for _ in 0..40 {
            let cuts = random_cuts(&mut rng, bytes.len());
            let (split, events) = stream(bytes, &cuts, &options);
            assert_eq!(split, whole, "{} cuts {cuts:?}", case["id"]);
            assert_eq!(events, whole_events, "{} events", case["id"]);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// No input panics
// ---------------------------------------------------------------------------------------------

const FRAGMENTS: &[&str] = &[
    "Thought:",
    "Action:",
    "Action 2:",
    "Action Input:",
    "Observation:",
    "Final Answer:",
    "**Action:**",
    "### Thought",
    "- Action 1:",
    "行动：",
    "最终答案：",
    "观察:",
    "Finish[",
    "]",
    "[",
    "(",
    ")",
    "{",
    "}",
    "\"",
    "\\",
    "\"action\": ",
    "```",
    "```json",
    "\n",
    "\n\n",
    "  ",
    "search",
    "None",
    "é",
    "日本",
    "😀",
    "\r\n",
    ":",
    "：",
    "Search[x]",
    "tool(x)",
    "a: b",
    "{\"action\": \"search\", \"action_input\": \"q\"}",
    "AI:",
    "Answer:",
    "\t",
    "1. ",
];

fn random_input(rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..rng.below(40) {
        match rng.below(10) {
            0 => out.push(rng.next() as u8),
            1 => out.extend_from_slice(&[0xF0, 0x9F]), // a cut-off 4-byte character
            _ => out.extend_from_slice(FRAGMENTS[rng.below(FRAGMENTS.len())].as_bytes()),
        }
    }
    out
}

#[test]
fn random_inputs_never_panic_and_stream_consistently() {
    let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
    for round in 0..6000 {
        let bytes = random_input(&mut rng);
        let style = [Style::Mrkl, Style::Paper, Style::Json][round % 3];
        let mut options = ParseOptions::new(style);
        if round % 5 == 0 {
            options.tools = Some(vec!["search".into(), "Finish".into()]);
        }
        if round % 7 == 0 {
            options.final_marker = Some("AI:".into());
        }
        let cuts = random_cuts(&mut rng, bytes.len());
        let (streamed, _) = stream(&bytes, &cuts, &options);
        let lossy = String::from_utf8_lossy(&bytes);
        let whole = parse(&lossy, &options);
        assert_eq!(streamed, whole, "input {:?}", lossy);
        if let Verdict::Error { message, why, .. } = &whole.verdict {
            assert!(message.contains("Reply with"), "{why}: {message}");
        }
        if let Some(at) = whole.cut_at {
            assert!(lossy
                .get(at..)
                .is_some_and(|rest| !rest.trim_start().is_empty()));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Linear time (a work count, not a clock)
// ---------------------------------------------------------------------------------------------

fn transcript(bytes: usize) -> String {
    let step = "Thought: I should look this up, **carefully**.\nAction: search\nAction Input: \
                {\"q\": \"weather in SF\", \"n\": [1, 2, 3]}\n```\ncode\nObservation: \
                sunny (quoted in a fence, so not an invented one)\n```\n- Action 2: Lookup[The Dark Tower (2017 film)]\n";
    let mut out = String::from("Thought: begin\n");
    while out.len() < bytes {
        out.push_str(step);
        out.push_str("a long line without any label at all, just words and 日本語 words ");
        out.push('\n');
    }
    out
}

fn work_for(text: &str) -> u64 {
    let options = ParseOptions::new(Style::Mrkl);
    let mut p = StreamParser::new(options);
    for chunk in text.as_bytes().chunks(4) {
        p.push(chunk);
    }
    let work = p.bytes_examined();
    assert!(matches!(p.finish().verdict, Verdict::Action { .. }));
    work
}

#[test]
fn streaming_work_is_linear_in_the_reply() {
    let small = transcript(100_000);
    let large = transcript(200_000);
    let (ws, wl) = (work_for(&small), work_for(&large));
    // Every byte is examined a bounded number of times...
    assert!(
        wl < 20 * large.len() as u64,
        "{wl} bytes examined for {}",
        large.len()
    );
    // ...so doubling the reply roughly doubles the work.
    let ratio = wl as f64 / ws as f64;
    assert!(
        (1.7..2.3).contains(&ratio),
        "work ratio {ratio} for twice the text"
    );
}

// ---------------------------------------------------------------------------------------------
// Named cases, one or more per reading rule
// ---------------------------------------------------------------------------------------------

/// What a named case expects.
enum Want {
    Act(&'static str, Value),
    Fin(&'static str),
    Fail(Why),
}
use crate::rng::Rng;
use Want::{Act, Fail, Fin};

struct Case {
    name: &'static str,
    style: Style,
    tools: &'static [&'static str],
    text: &'static str,
    want: Want,
    /// A substring one of the notes must contain ("" = no check).
    note: &'static str,
}

const fn case(name: &'static str, style: Style, text: &'static str, want: Want) -> Case {
    Case {
        name,
        style,
        tools: &[],
        text,
        want,
        note: "",
    }
}

fn named_cases() -> Vec<Case> {
    use Style::{Json, Mrkl, Paper};
    vec![
        case("plain mrkl", Mrkl, "Thought: t\nAction: search\nAction Input: weather", Act("search", json!("weather"))),
        case("bold labels", Mrkl, "**Thought:** t\n**Action:** search\n**Action Input:** weather", Act("search", json!("weather"))),
        case("bold around the label only", Mrkl, "**Action**: search\n**Action Input**: q", Act("search", json!("q"))),
        case("markdown heading and bullet", Mrkl, "### Thought: t\n- Action: search\n- Action Input: q", Act("search", json!("q"))),
        case("numbered list bullet", Mrkl, "1. Action: search\n2. Action Input: q", Act("search", json!("q"))),
        case("lower case and step numbers", Mrkl, "thought 3: t\naction 3: search\naction input 3: q", Act("search", json!("q"))),
        case("full-width colon", Mrkl, "Action： search\nAction Input： q", Act("search", json!("q"))),
        case("chinese labels", Mrkl, "思考：我需要搜索\n行动：search\n行动输入：天气", Act("search", json!("天气"))),
        case("chinese 动作 labels", Mrkl, "动作: search\n动作输入: q", Act("search", json!("q"))),
        case("chinese final answer", Mrkl, "思考：知道了\n最终答案：42", Fin("42")),
        case("bracket form", Paper, "t\nAction 1: Search[Milhouse]", Act("Search", json!("Milhouse"))),
        case("bracket with a space", Paper, "Action: Search [Milhouse]", Act("Search", json!("Milhouse"))),
        case("nested brackets", Paper, "Action 3: Lookup[The Dark Tower (2017 film)]", Act("Lookup", json!("The Dark Tower (2017 film)"))),
        case("paren form", Mrkl, "Action: search(\"weather in SF\")", Act("search", json!("weather in SF"))),
        case("colon form", Mrkl, "Action: python: print(1)", Act("python", json!("print(1)"))),
        case("name on a later line", Mrkl, "Action:\n    Terminal\nAction Input:\n    ls", Act("Terminal", json!("ls"))),
        case("bracket on a later line", Paper, "Action 7:\n\nFinish[NOT ENOUGH INFO]", Fin("NOT ENOUGH INFO")),
        case("finish any case", Paper, "Action: finish[yes]", Fin("yes")),
        case("finish is an answer in mrkl without a finish tool", Mrkl, "Action: Finish[done]", Fin("done")),
        Case { tools: &["finish", "search"], ..case("a registered finish tool is a tool in mrkl", Mrkl, "Action: finish[x]", Act("finish", json!("x"))) },
        Case { tools: &["Search", "Finish"], ..case("finish stays the answer in paper style", Paper, "Action: Finish[x]", Fin("x")) },
        case("unclosed bracket at the end", Paper, "Action 2: Search[Colorado oro", Fail(Why::Truncated)),
        case("unclosed bracket before a label", Paper, "Action 2: Search[Colorado\nThought 3: hmm", Fail(Why::UnclosedBracket)),
        case("bare label stub", Paper, "I think so.\nAction 2", Fail(Why::Truncated)),
        case("empty", Mrkl, "  \n\t\n", Fail(Why::Empty)),
        case("no action", Mrkl, "I should search for it.", Fail(Why::NoAction)),
        case("json input then prose", Mrkl, "Action: t\nAction Input: {\"a\": 1} because", Act("t", json!({"a": 1}))),
        case("json input with raw newline in a string", Mrkl, "Action: t\nAction Input: {\"code\": \"a\nb\"}", Act("t", json!({"code": "a\nb"}))),
        case("json array input", Mrkl, "Action: t\nAction Input: [1, 2]", Act("t", json!([1, 2]))),
        case("unclosed json input", Mrkl, "Action: t\nAction Input: {\"a\": ", Fail(Why::Truncated)),
        case("fenced json input", Mrkl, "Action: t\nAction Input:\n```json\n{\"a\": 1}\n```", Act("t", json!({"a": 1}))),
        case("fenced code input kept with fences", Mrkl, "Action: py\nAction Input:\n```\nx = 1\n\ny = 2\n```", Act("py", json!("```\nx = 1\n\ny = 2\n```"))),
        case("plain input ends at a blank line", Mrkl, "Action: t\nAction Input: q\n\nI will wait.", Act("t", json!("q"))),
        case("plain input spans lines", Mrkl, "Action: t\nAction Input: line one\nline two", Act("t", json!("line one\nline two"))),
        case("quoted plain input", Mrkl, "Action: t\nAction Input: \"NBA\"", Act("t", json!("NBA"))),
        case("empty input", Mrkl, "Action: t\nAction Input:", Act("t", json!(""))),
        case("json blob", Json, "```json\n{\"action\": \"search\", \"action_input\": \"q\"}\n```", Act("search", json!("q"))),
        case("bare json blob", Json, "Thought: t\n{\"action\": \"search\", \"action_input\": {\"q\": 1}}", Act("search", json!({"q": 1}))),
        case("blob after Action label", Json, "Action:\n```\n{\"action\": \"search\", \"action_input\": \"q\"}\n```", Act("search", json!("q"))),
        case("blob says final answer", Json, "```\n{\"action\": \"Final Answer\", \"action_input\": \"4\"}\n```", Fin("4")),
        case("sql fence before the blob", Json, "Query:\n```\nSELECT 1\n```\nAction:\n```json\n{\"action\": \"q\", \"action_input\": \"x\"}\n```", Act("q", json!("x"))),
        case("mrkl reader accepts a blob", Mrkl, "```json\n{\"action\": \"search\", \"action_input\": \"q\"}\n```", Act("search", json!("q"))),
        case("action: final answer", Mrkl, "Action: Final Answer\nAction Input: 42", Fin("42")),
        Case { note: "ignored 1 more action", ..case("first of several actions", Mrkl, "Action: a\nAction Input: {\"x\": 1}\nAction: b\nAction Input: {\"x\": 2}", Act("a", json!({"x": 1}))) },
        Case { note: "ignored 2 `Action: None`", ..case("action none skipped", Mrkl, "Thought: a\nAction: None\n\nThought: b\nAction: None\nThought: c\nAction: t\nAction Input: q", Act("t", json!("q"))) },
        case("action none only", Mrkl, "Thought: a\nAction: None\n", Fail(Why::ActionNone)),
        case("action none with its input", Mrkl, "Action: None\nAction Input: x\n", Fail(Why::ActionNone)),
        Case { note: "ignored 1 action after the final answer", ..case("final before action wins", Mrkl, "Final Answer: 42\n\nAction: t\nAction Input: q", Fin("42")) },
        case("final answer multi-line", Mrkl, "Final Answer: a\n\nb", Fin("a\n\nb")),
        Case { note: "ignored a final answer after the action", ..case("delimited action then final", Paper, "Action: Search[x]\nFinal Answer: y", Act("Search", json!("x"))) },
        case("json input then final", Mrkl, "Action: t\nAction Input: {\"a\": 1}\n\nFinal Answer: done", Act("t", json!({"a": 1}))),
        case("plain input then final is ambiguous", Mrkl, "Action: t\nAction Input: q\nFinal Answer: done", Fail(Why::ActionAndFinal)),
        // An invented Observation ends the model's move, whole or streamed (a departure from
        // LangChain, which reads this as action_and_final).
        Case { note: "cut at a hallucinated Observation", ..case("plain input, observation, final", Mrkl, "Action: t\nAction Input: q\nObservation: o\nThought: ok\nFinal Answer: done", Act("t", json!("q"))) },
        Case { note: "cut at a hallucinated Observation", ..case("the cut keeps the action", Mrkl, "Action: t\nAction Input: q\nObservation: o\nFinal Answer: done", Act("t", json!("q"))) },
        Case { note: "cut at a hallucinated Observation", ..case("paper: the cut keeps the action", Paper, "Thought 1: t\nAction 1: Search[x]\nObservation 1: made up\nThought 2: so\nAction 2: Finish[y]", Act("Search", json!("x"))) },
        Case { note: "cut at a hallucinated Observation", ..case("json: the cut keeps the blob", Json, "```json\n{\"action\": \"search\", \"action_input\": \"q\"}\n```\nObservation: o\nFinal Answer: done", Act("search", json!("q"))) },
        Case { note: "cut at a hallucinated Observation", ..case("chinese: the cut keeps the action", Mrkl, "思考：查一下\n行动：search\n行动输入：天气\n观察：晴\n最终答案：晴", Act("search", json!("天气"))) },
        case("final answer before the invented observation stays ambiguous", Mrkl, "Action: t\nAction Input: q\nFinal Answer: done\nObservation: o", Fail(Why::ActionAndFinal)),
        case("an observation before any action is not a cut", Mrkl, "Observation: earlier\nThought: so\nAction: t\nAction Input: q", Act("t", json!("q"))),
        case("an observation in a fence is text", Mrkl, "Action: t\nAction Input: q\n```\nObservation: quoted\n```\nFinal Answer: done", Fail(Why::ActionAndFinal)),
        // Plain prose is the final answer in mrkl; with labels, or announcing a step, it is not.
        Case { note: "read a reply without labels as the final answer", ..case("prose answers", Mrkl, "Paris is the capital of France, with about 2.1 million inhabitants.", Fin("Paris is the capital of France, with about 2.1 million inhabitants.")) },
        case("prose over several lines answers", Mrkl, "Tim Cook was born in Mobile, Alabama.\n\nHe grew up in Robertsdale.", Fin("Tim Cook was born in Mobile, Alabama.\n\nHe grew up in Robertsdale.")),
        case("chinese prose answers", Mrkl, "法国的首都是巴黎。", Fin("法国的首都是巴黎。")),
        case("a question back to the user answers", Mrkl, "Could you tell me which Apple you mean? Let me know.", Fin("Could you tell me which Apple you mean? Let me know.")),
        case("I can't is an answer", Mrkl, "I can't find that information.", Fin("I can't find that information.")),
        case("a plan is not an answer", Mrkl, "I will search for the CEO first.", Fail(Why::NoAction)),
        case("let me is a plan", Mrkl, "Let me search for it.", Fail(Why::NoAction)),
        case("a chinese plan is not an answer", Mrkl, "我需要先搜索一下。", Fail(Why::NoAction)),
        case("prose ending open is not an answer", Mrkl, "The answer is as follows:", Fail(Why::NoAction)),
        case("prose with a thought label is a repair", Mrkl, "Thought: Paris is the capital of France.", Fail(Why::NoAction)),
        case("a lone code block is not an answer", Mrkl, "```\nprint(1)\n```", Fail(Why::NoAction)),
        Case { tools: &["search"], ..case("a call without its label is not an answer", Mrkl, "search[Tim Cook]", Fail(Why::NoAction)) },
        case("a bracket call line with tools unknown is not an answer", Mrkl, "Lookup[Tim Cook]", Fail(Why::NoAction)),
        case("prose is not the answer in paper style", Paper, "Paris is the capital of France.", Fail(Why::NoAction)),
        case("prose is not the answer in json style", Json, "Paris is the capital of France.", Fail(Why::NoAction)),
        case("action and final on one line", Mrkl, "Action: search Final Answer:\nAction Input: q", Fail(Why::ActionAndFinal)),
        case("missing action input", Mrkl, "Action: Search\nThought: NBA", Fail(Why::MissingActionInput)),
        case("missing action", Mrkl, "Thought: Search\nAction Input: NBA", Fail(Why::MissingAction)),
        case("action label naming nothing", Mrkl, "Action:\nAction Input: q", Fail(Why::MissingAction)),
        Case { tools: &["search", "calculator"], ..case("unknown tool", Mrkl, "Action: browse\nAction Input: q", Fail(Why::UnknownTool)) },
        Case { tools: &["check_tables"], ..case("prose action name", Json, "Action: Check available tables.\n", Fail(Why::UnknownTool)) },
        Case { tools: &["Search", "Lookup", "Finish"], ..case("unknown paper tool", Paper, "Action 2: Login", Fail(Why::UnknownTool)) },
        Case { tools: &["Search"], ..case("registered spelling", Mrkl, "Action: search \nAction Input: q", Act("Search", json!("q"))) },
        // The paper's exemplars write `Search[..]`; tao's tool is `search` (and `act` has no thought).
        Case { tools: &["search", "lookup"], ..case("act: an action line alone, the paper's spelling", Paper, "Action 1: Search[Ulm]", Act("search", json!("Ulm"))) },
        Case { note: "ignored text after ']'", ..case("text after the bracket", Paper, "Action 3: Lookup[x] on a website", Act("Lookup", json!("x"))) },
        case("labels inside a code fence are text", Mrkl, "```\nAction: fake\n```\nAction: real\nAction Input: q", Act("real", json!("q"))),
        case("indented labels", Mrkl, "  - text\n    Action: t\n    Action Input: {\"a\": 1}", Act("t", json!({"a": 1}))),
        case("final answer inside a json string", Mrkl, "Action: py\nAction Input: {\"code\": \"print('Final Answer: x')\"}", Act("py", json!({"code": "print('Final Answer: x')"}))),
        Case { tools: &[], ..case("AI marker", Mrkl, "Thought: done\nAI: hello there", Fail(Why::NoAction)) },
    ]
}

fn check(c: &Case, parsed: &Parsed) -> Result<(), String> {
    let ok = match (&c.want, &parsed.verdict) {
        (
            Act(tool, input),
            Verdict::Action {
                tool: t, input: i, ..
            },
        ) => t == tool && i == input,
        (Fin(answer), Verdict::Final { answer: a, .. }) => a == answer,
        (Fail(why), Verdict::Error { why: w, .. }) => w == why,
        _ => false,
    };
    if !ok {
        return Err(format!("got {:?}", parsed.verdict));
    }
    if !c.note.is_empty() && !parsed.notes.iter().any(|n| n.contains(c.note)) {
        return Err(format!(
            "no note containing {:?} in {:?}",
            c.note, parsed.notes
        ));
    }
    Ok(())
}

#[test]
fn named_cases_read_as_a_careful_human_would() {
    let mut failures = Vec::new();
    for c in named_cases() {
        let mut options = ParseOptions::new(c.style);
        if !c.tools.is_empty() {
            options.tools = Some(c.tools.iter().map(|s| s.to_string()).collect());
        }
        let whole = parse(c.text, &options);
        if let Err(e) = check(&c, &whole) {
            failures.push(format!("{}:\n{}\n  {e}", c.name, c.text));
        }
        // The same verdict streamed, split at every byte.
        for at in 0..=c.text.len() {
            if stream(c.text.as_bytes(), &[at], &options).0 != whole {
                failures.push(format!("{}: split at byte {at} reads differently", c.name));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

#[test]
fn configured_final_marker_is_a_label() {
    let mut options = ParseOptions::new(Style::Mrkl);
    options.final_marker = Some("AI:".into());
    let parsed = parse("Thought: done\nAI: hello there", &options);
    assert_eq!(
        parsed.verdict,
        Verdict::Final {
            thought: "done".into(),
            answer: "hello there".into()
        }
    );
}

#[test]
fn cut_event_marks_the_observation_line_mid_line() {
    let mut p = StreamParser::new(ParseOptions::new(Style::Mrkl));
    let mut events = p.push_str("Thought: t\nAction: search\nAction Input: q\nObserv");
    assert!(
        !p.is_cut(),
        "a label prefix without its colon is not yet a cut"
    );
    events.extend(p.push_str("ation: invented"));
    let at = "Thought: t\nAction: search\nAction Input: q\n".len();
    assert_eq!(
        events,
        vec![
            ParseEvent::Thought("t".into()),
            ParseEvent::Action("search".into()),
            ParseEvent::ActionInput(json!("q")),
            ParseEvent::Cut { at },
        ]
    );
    assert!(p.is_cut());
    assert!(
        p.push_str("\nFinal Answer: x").is_empty(),
        "input after a cut is ignored"
    );
    assert_eq!(p.text().len(), at);
    let parsed = p.finish();
    assert_eq!(parsed.cut_at, Some(at));
    assert!(matches!(parsed.verdict, Verdict::Action { .. }));
}

#[test]
fn observation_before_any_action_is_not_a_cut() {
    let parsed = parse(
        "Observation: earlier\nFinal Answer: 4",
        &ParseOptions::new(Style::Mrkl),
    );
    assert_eq!(parsed.cut_at, None);
    assert!(matches!(parsed.verdict, Verdict::Final { .. }));
}

#[test]
fn split_utf8_and_invalid_bytes() {
    let text = "Action: search\nAction Input: 日本\n";
    let bytes = text.as_bytes();
    let mut p = StreamParser::new(ParseOptions::new(Style::Mrkl));
    // Split inside the 3-byte character 日.
    let at = text.find('日').unwrap_or(0) + 1;
    p.push(&bytes[..at]);
    p.push(&bytes[at..]);
    assert!(matches!(p.finish().verdict, Verdict::Action { input, .. } if input == json!("日本")));
    let mut p = StreamParser::new(ParseOptions::new(Style::Mrkl));
    p.push(b"Final Answer: a\xFFb\xE6");
    assert_eq!(p.text(), "Final Answer: a\u{FFFD}b");
    assert!(
        matches!(p.finish().verdict, Verdict::Final { answer, .. } if answer == "a\u{FFFD}b\u{FFFD}")
    );
}

#[test]
fn error_messages_tell_the_model_what_to_write() {
    let mut options = ParseOptions::new(Style::Mrkl);
    options.tools = Some(vec!["search".into(), "calculator".into()]);
    // (Plain "I think." would be read as a final answer: with a label, it is a repair.)
    let Verdict::Error { message, .. } = parse("Thought: I think.", &options).verdict else {
        panic!("expected an error");
    };
    assert_eq!(
        message,
        "Your reply had no `Action:` line. Reply with\nThought: ...\nAction: <one of search, \
         calculator>\nAction Input: <input>\nor, when you know the answer,\nThought: ...\n\
         Final Answer: <answer>"
    );
    let mut paper = ParseOptions::new(Style::Paper);
    paper.tools = Some(vec!["Search".into(), "Lookup".into(), "Finish".into()]);
    let Verdict::Error { message, why, .. } = parse("Action 2: Login", &paper).verdict else {
        panic!("expected an error");
    };
    assert_eq!(why, Why::UnknownTool);
    assert!(message
        .starts_with("`Login` is not one of the tools. The tools are: Search, Lookup, Finish."));
    assert!(
        message.contains("Action n: <one of Search, Lookup>[<input>]"),
        "{message}"
    );
    assert!(message.contains("Action n: Finish[<answer>]"), "{message}");
}

#[test]
fn repair_reasons_keep_their_names() {
    // The names are what events, trajectories and `tao parse` write: renaming one changes
    // those formats.
    let names = Why::ALL.map(Why::name);
    assert_eq!(
        names,
        [
            "no_action",
            "missing_action_input",
            "missing_action",
            "action_none",
            "action_and_final",
            "truncated",
            "empty",
            "unknown_tool",
            "bad_json",
            "unclosed_bracket",
            "empty_answer",
            "bad_input",
            "repeated",
        ]
    );
    for why in Why::ALL {
        assert_eq!(Why::from_name(why.name()), Some(why));
        assert_eq!(why.to_string(), why.name());
    }
    assert_eq!(Why::from_name("Unknown_Tool"), None);
    assert_eq!(Why::from_name("bad_request"), None);
}

#[test]
fn verdict_json_contract() {
    let out = verdict_for_case(
        &json!({"id": "a", "text": "Action: s\nAction Input: q", "style": "mixed"}),
    );
    assert_eq!(
        out,
        json!({"id": "a", "kind": "action", "tool": "s", "input": "q"})
    );
    let out =
        verdict_for_case(&json!({"id": 7, "text": "Final Answer: 4\nAction: s\nAction Input: q"}));
    assert_eq!(out["kind"], "final");
    assert_eq!(
        out["notes"],
        json!(["ignored 1 action after the final answer"])
    );
    let out = verdict_for_case(&json!("not an object"));
    assert_eq!(out["why"], "bad_request");
    assert_eq!(out["id"], Value::Null);
    let out = verdict_for_case(&json!({"id": 1, "text": 5}));
    assert_eq!(
        (out["id"].clone(), out["why"].clone()),
        (json!(1), json!("bad_request"))
    );
    // The two readings of issue 11: an invented Observation ends the move (the action stands,
    // with a note), and plain prose is mrkl's final answer.
    let out = verdict_for_case(&json!({"id": "o", "style": "mrkl",
        "text": "Action: s\nAction Input: q\nObservation: made up\nFinal Answer: 4"}));
    assert_eq!(
        (out["kind"].clone(), out["tool"].clone()),
        (json!("action"), json!("s"))
    );
    assert_eq!(
        out["notes"][0],
        "cut at a hallucinated Observation (byte 26)"
    );
    let out =
        verdict_for_case(&json!({"id": "p", "style": "mrkl", "text": "Paris is the capital."}));
    assert_eq!(
        out,
        json!({"id": "p", "kind": "final", "answer": "Paris is the capital.",
               "notes": ["read a reply without labels as the final answer"]})
    );
    let out =
        verdict_for_case(&json!({"id": "q", "style": "paper", "text": "Paris is the capital."}));
    assert_eq!(out["why"], "no_action");
    // A prompt that ends with `Action:` is continued by the reply.
    let out = verdict_for_case(
        &json!({"text": " search\nAction Input: q", "prompt_suffix": "Thought: t\nAction:"}),
    );
    assert_eq!(
        out,
        json!({"id": null, "kind": "action", "tool": "search", "input": "q"})
    );
}

#[test]
fn a_megabyte_of_plain_prose_reads_in_under_a_second() {
    // The prose reading runs after the work counter's reach, so this one is timed: each phrase
    // is searched once over the text (linear), never tried at every byte.
    let sentence = "Tim Cook grew up in Robertsdale, near Mobile; it is a small town. ";
    let text = sentence.repeat((1 << 20) / sentence.len()) + "That is all.";
    let started = std::time::Instant::now();
    let parsed = parse(&text, &ParseOptions::new(Style::Mrkl));
    assert!(matches!(parsed.verdict, Verdict::Final { .. }));
    let took = started.elapsed();
    assert!(took.as_secs_f64() < 1.0, "{took:?}");
}

#[test]
fn a_fence_line_is_never_a_cut_however_the_stream_is_split() {
    // Found by `make fuzz`: split inside "```Observation:", the stream cut there; read whole,
    // the line is a code fence (and the input runs on through it).
    let text = "Action: t\nAction Input: q\n```Observation: o\n```\nThought: ok";
    let options = ParseOptions::new(Style::Mrkl);
    let whole = parse(text, &options);
    assert_eq!(whole.cut_at, None);
    for at in 0..=text.len() {
        let (split, _) = stream(text.as_bytes(), &[at], &options);
        assert_eq!(split, whole, "split at {at}");
    }
}

/// The thought is one stretch of the reply when its lines follow each other one `\n` apart, and
/// is then lent to the live event rather than copied; in every other case its parts are joined
/// anew. Both give the same text, for the verdict and for the event, streamed in any chunks.
#[test]
fn a_thought_in_parts_reads_the_same_lent_or_joined() {
    let options = ParseOptions::new(Style::Mrkl);
    let cases = [
        // One stretch: lent.
        (
            "I should look.\nAction: search\nAction Input: x",
            "I should look.",
        ),
        ("a\n\nb\nAction: search\nAction Input: x", "a\n\nb"),
        ("Thought: a\nb\nAction: search\nAction Input: x", "a\nb"),
        ("Thought:\na\nAction: search\nAction Input: x", "a"),
        ("  a  \nAction: search\nAction Input: x", "a"),
        // Not one stretch: joined.
        (
            "Thought: a\r\nb\r\nAction: search\r\nAction Input: x",
            "a\nb",
        ),
        ("a\nThought: b\nAction: search\nAction Input: x", "a\nb"),
        (
            "a\nObservation: o\nThought: b\nAction: search\nAction Input: x",
            "a\nb",
        ),
        (
            "Thought: a\nThought: b\nc\nAction: search\nAction Input: x",
            "a\nb\nc",
        ),
    ];
    for (text, thought) in cases {
        match parse(text, &options).verdict {
            Verdict::Action { thought: read, .. } => assert_eq!(read, thought, "{text:?}"),
            other => panic!("{text:?}: {other:?}"),
        }
        for at in (0..=text.len()).filter(|&at| text.is_char_boundary(at)) {
            let (_, events) = stream(text.as_bytes(), &[at], &options);
            assert_eq!(
                events.first(),
                Some(&ParseEvent::Thought(thought.to_string())),
                "{text:?} split at {at}"
            );
        }
    }
}
