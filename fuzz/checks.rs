//! What must hold for any input, checked the same way by both fuzzing engines (the stable
//! driver in `examples/fuzz.rs` and the cargo-fuzz targets in `fuzz/fuzz_targets/`), so that a
//! failing input found by one replays in the other.
//!
//! Input layout: the first byte picks options and chunk sizes, the rest is the text. Each
//! check panics (with what went wrong) when a property fails; the engines catch the panic.

use tao_agent::format::parse::{parse, ParseEvent, ParseOptions, StreamParser, Style, Verdict};
use tao_agent::llm::sse::SseDecoder;
use tao_agent::Trajectory;

#[path = "../tests/rng.rs"]
pub mod rng;

/// Chunk sizes from 1 to 16 bytes, from the project's deterministic sequence (tests/rng.rs)
/// seeded by `seed`.
fn chunks(bytes: &[u8], seed: u8) -> Vec<&[u8]> {
    let mut rng = rng::Rng(u64::from(seed).wrapping_mul(2_654_435_761) | 1);
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let n = 1 + rng.below(16);
        let (head, tail) = rest.split_at(n.min(rest.len()));
        out.push(head);
        rest = tail;
    }
    out
}

/// The parser: any split gives the whole text's verdict, notes and events; `parse()` agrees;
/// every error tells the model the format; a cut sits at the start of an Observation line.
pub fn parser(data: &[u8]) {
    let Some((&first, bytes)) = data.split_first() else {
        return;
    };
    let style = [Style::Mrkl, Style::Paper, Style::Json][usize::from(first % 3)];
    let mut options = ParseOptions::new(style);
    if first & 4 != 0 {
        options.tools = Some(vec!["search".into(), "lookup".into(), "calculator".into()]);
    }
    if first & 8 != 0 {
        options.final_marker = Some("AI:".into());
    }
    let read = |pieces: &[&[u8]]| {
        let mut p = StreamParser::new(options.clone());
        let mut events: Vec<ParseEvent> = Vec::new();
        for piece in pieces {
            events.extend(p.push(piece));
        }
        (p.finish(), events)
    };
    let (whole, whole_events) = read(&[bytes]);
    let split = bytes.len() * usize::from(first) / 255;
    let (halves, half_events) = read(&[&bytes[..split], &bytes[split..]]);
    assert_eq!(halves, whole, "split at byte {split} reads differently");
    assert_eq!(
        half_events, whole_events,
        "split at byte {split} announces differently"
    );
    let (small, small_events) = read(&chunks(bytes, first));
    assert_eq!(small, whole, "small chunks read differently");
    assert_eq!(
        small_events, whole_events,
        "small chunks announce differently"
    );
    let text = String::from_utf8_lossy(bytes);
    assert_eq!(
        parse(&text, &options),
        whole,
        "parse() differs from streaming"
    );
    if let Verdict::Error { message, why, .. } = &whole.verdict {
        assert!(
            message.contains("Reply with"),
            "{why}: the error shows no format: {message}"
        );
    }
    if let Some(at) = whole.cut_at {
        // The label may come after decoration (`3. **观察：`, `> Observation 2:`).
        let line = text.get(at..).unwrap_or("").lines().next().unwrap_or("");
        let head: String = line.chars().take(40).collect();
        assert!(
            head.to_ascii_lowercase().contains("observation") || head.contains("观察"),
            "cut at {at}, not at an Observation: {head:?}"
        );
    }
}

/// The SSE decoder: any split gives the same events.
pub fn sse(data: &[u8]) {
    let Some((&first, bytes)) = data.split_first() else {
        return;
    };
    let decode = |pieces: &[&[u8]]| {
        let mut decoder = SseDecoder::new();
        let mut events = Vec::new();
        for piece in pieces {
            events.extend(decoder.push(piece));
        }
        events.extend(decoder.finish());
        events
    };
    let whole = decode(&[bytes]);
    assert_eq!(
        decode(&chunks(bytes, first)),
        whole,
        "small chunks decode differently"
    );
    let split = bytes.len() * usize::from(first) / 255;
    assert_eq!(
        decode(&[&bytes[..split], &bytes[split..]]),
        whole,
        "split at {split}"
    );
}

/// The trajectory reader: any text is read or refused (never a panic), and a file tao wrote
/// reads back equal and is written the same again.
pub fn trajectory(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(read) = Trajectory::from_json(&text) else {
        return;
    };
    let written = read.to_json();
    let again = Trajectory::from_json(&written).expect("what tao wrote must read back");
    assert_eq!(again, read, "a written trajectory reads back different");
    assert_eq!(
        again.to_json(),
        written,
        "a written trajectory is written differently"
    );
}

/// The JSON reader against serde_json's, which it replaced: the same value, or the same error
/// at the same line and column. The values are compared as both write them, compact and
/// pretty, which shows each number's kind and bits (`1`, `1.0`, `-0.0`, shortest round-trip
/// digits), each string, and the keys' order.
pub fn json(data: &[u8]) {
    let Some((_, bytes)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(bytes);
    match (
        tao_agent::json::from_str(&text),
        serde_json::from_str::<serde_json::Value>(&text),
    ) {
        (Ok(ours), Ok(theirs)) => {
            assert_eq!(ours.to_string(), theirs.to_string(), "read differently");
            assert_eq!(
                format!("{ours:#}"),
                format!("{theirs:#}"),
                "written differently (pretty)"
            );
        }
        (Err(ours), Err(theirs)) => {
            assert_eq!(ours.to_string(), theirs.to_string(), "a different error")
        }
        (ours, theirs) => panic!(
            "one reads it, the other does not: tao {:?}, serde_json {:?}",
            ours.map(|v| v.to_string()),
            theirs.map(|v| v.to_string())
        ),
    }
}
