//! tao's JSON reader and writer (`tao_agent::json`, `tao_agent::to_json`) against serde_json,
//! which they replaced: every text must read to the same value (the same numbers to the bit,
//! the same kinds of number, the same strings, the keys in the same order) or fail with the
//! same words at the same line and column, and every value must be written as the same text,
//! compact and pretty. The texts: every JSON file of the repository and of the shared corpus
//! and data, every prefix of the small ones, thousands of random documents and mutations of
//! them, and the edges (numbers, escapes, surrogates, nesting, long strings).

use super::rng::Rng;
use tao_agent::json::{self, Value};
use tao_agent::to_json;

/// A value as text that shows everything that must agree: each number's kind and bits, each
/// string exactly, each object's keys in order.
fn shape(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) if n.is_f64() => format!("f64:{:#x}", n.as_f64().unwrap().to_bits()),
        Value::Number(n) if n.is_u64() => format!("u64:{}", n.as_u64().unwrap()),
        Value::Number(n) => format!("i64:{}", n.as_i64().unwrap()),
        Value::String(s) => format!("{s:?}"),
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(shape).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("{k:?}: {}", shape(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The same for serde_json's value.
fn serde_shape(value: &serde_json::Value) -> String {
    use serde_json::Value as S;
    match value {
        S::Null => "null".into(),
        S::Bool(b) => b.to_string(),
        S::Number(n) if n.is_f64() => format!("f64:{:#x}", n.as_f64().unwrap().to_bits()),
        S::Number(n) if n.is_u64() => format!("u64:{}", n.as_u64().unwrap()),
        S::Number(n) => format!("i64:{}", n.as_i64().unwrap()),
        S::String(s) => format!("{s:?}"),
        S::Array(items) => format!(
            "[{}]",
            items.iter().map(serde_shape).collect::<Vec<_>>().join(", ")
        ),
        S::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("{k:?}: {}", serde_shape(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The first 200 characters of `text`, for a failure's message.
fn head(text: &str) -> String {
    let head: String = text.chars().take(200).collect();
    format!("{head:?}{}", if head.len() < text.len() { "…" } else { "" })
}

/// Reads `text` with both, and checks that they agree: the same value, written the same way,
/// or the same error. Returns whether it was JSON.
fn check(text: &str) -> bool {
    match (
        json::from_str(text),
        serde_json::from_str::<serde_json::Value>(text),
    ) {
        (Ok(ours), Ok(theirs)) => {
            assert_eq!(
                shape(&ours),
                serde_shape(&theirs),
                "read differently: {}",
                head(text)
            );
            check_written(&ours, &theirs);
            true
        }
        (Err(ours), Err(theirs)) => {
            assert_eq!(
                ours.to_string(),
                theirs.to_string(),
                "a different error: {}",
                head(text)
            );
            false
        }
        (ours, theirs) => panic!(
            "one reads it, the other does not: {}\n  tao: {:?}\n  serde_json: {:?}",
            head(text),
            ours.map(|v| shape(&v)),
            theirs.map(|v| serde_shape(&v))
        ),
    }
}

/// The same value, as both write it: compact, pretty, and through `Display`.
fn check_written(ours: &Value, theirs: &serde_json::Value) {
    let compact = serde_json::to_string(theirs).unwrap();
    assert_eq!(to_json::to_string(ours), compact, "written differently");
    assert_eq!(ours.to_string(), compact, "displayed differently");
    let pretty = serde_json::to_string_pretty(theirs).unwrap();
    assert_eq!(
        to_json::to_string_pretty(ours),
        pretty,
        "written differently (pretty)"
    );
    assert_eq!(
        format!("{ours:#}"),
        pretty,
        "displayed differently ({{:#}})"
    );
}

/// Numbers at the edges: of u64 and i64, of f64 (the largest, the smallest normal and
/// subnormal, past them), exponents beyond i32, mantissas of 20 digits and more, `-0`, and the
/// malformed ones.
#[rustfmt::skip]
const NUMBERS: &[&str] = &[
    "0", "-0", "0.0", "-0.0", "0e0", "-0e-0", "1", "-1", "7", "1.5", "-1.5", "3.0", "0.1", "0.25",
    "1e20", "1E20", "1e+20", "1e-7", "-1e-7", "1.5e-7", "2.5e-7", "1e22", "1e23", "1e308", "1e309",
    "-1e309", "1e400", "-1e400", "1e-400", "-1e-400", "1e-324", "5e-324", "2e-324",
    "4.9406564584124654e-324", "2.2250738585072014e-308", "2.2250738585072011e-308",
    "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "1.8e308",
    "8.98846567431158e307", "18446744073709551615", "18446744073709551616", "-18446744073709551615",
    "-18446744073709551616", "9223372036854775807", "9223372036854775808", "-9223372036854775807",
    "-9223372036854775808", "-9223372036854775809", "9007199254740993", "9007199254740993.0",
    "123456789012345678901234567890", "-123456789012345678901234567890", "1844674407370955161",
    "18446744073709551615.5", "1844674407370955161.6", "18446744073709551616.5e-2",
    "0.1234567890123456789012345678901234567890", "1234567890123456789012.5e-3",
    "0.30000000000000004", "1.0666666666666667", "1e2147483647", "1e2147483648", "1e-2147483648",
    "1e-2147483649", "1e99999999999", "1e-99999999999", "0e99999999999", "-0e-99999999999",
    "-1e-99999999999", "0.0e99999999999", "123.456e-330", "1.0e-330", "1e-330", "1e-308", "1e-309",
    "1e-320", "4e-320",
    "0.00000000000000000000000000000000000000000000000000000000000000000000000000001",
    "100000000000000000000000000000000000000000000000000000000000000000000000000000000000",
    "1.7976931348623157e308e", "01", "-01", "00", "1.", "1.e5", ".5", "-", "--1", "+1", "1e", "1e+",
    "1e-", "1ee5", "1e5.5", "0x10", "1_000", "Infinity", "-Infinity", "NaN", "1.5.5", "-.5", "-a",
    "1e+-5", "2.", "2.x", "1e\u{e9}", "-\u{e9}",
];

/// Strings at the edges: every escape, surrogate pairs and lone halves, control characters,
/// bad escapes, and strings that never end.
#[rustfmt::skip]
const STRINGS: &[&str] = &[
    r#""""#, r#""plain""#, r#""\" \\ \/ \b \f \n \r \t""#, r#""\u0000 \u001f \u0020 \u007f""#,
    r#""\u00e9 \u00E9 \u4e2d \uFFFF \uffff""#, r#""\uD83D\uDE00 \ud83d\ude00 \uDBFF\uDFFF""#,
    r#""\ud800""#, r#""\ud800x""#, r#""\ud800\n""#, r#""\ud800\u0041""#, r#""\udc00""#,
    r#""\udfff\ud800""#, r#""\ud800\ud800""#, r#""\ud800\""#, r#""\ud800\u""#, r#""\ud800\u12""#,
    r#""\ud800\uDC0""#, r#""\u12""#, r#""\u12G4""#, r#""\u""#, r#""\x41""#, r#""\é""#, r#""\'""#,
    r#""\U0041""#, r#""\"#, r#""abc"#, r#""abc\"#, r#""é中😀""#, "\"tab\there\"", "\"line\nbreak\"",
    "\"\u{0}\"", "\"\u{1f}\"", "\"\u{7f}\"", "\"\u{feff}\"", "\"\u{2028}\u{2029}\"", r#""\/\/""#,
    r#""\u0022""#, r#""\u005C""#,
];

/// Texts that are not JSON, or barely: one of each mistake, where it is, and where the line and
/// column count from.
#[rustfmt::skip]
const STRUCTURES: &[&str] = &[
    "", " ", "\n", "\n\n  \t", "null", "true", "false", "nul", "nulx", "nulll", "tru", "True",
    "fals", "falsey", "[]", "{}", "[ ]", "{ }", "[1]", "[1,]", "[,1]", "[1 2]", "[1,,2]", "[", "]",
    "{", "}", "[1", "[1,", "{\"a\"", "{\"a\":", "{\"a\":1", "{\"a\":1,", "{\"a\" 1}", "{\"a\":1,}",
    "{,}", "{1:2}", "{a:1}", "{'a':1}", "{\"a\":1 \"b\":2}", "{\"a\":1,\"a\":2}",
    "{\"b\":1,\"a\":2,\"c\":{\"z\":[],\"y\":{}}}", "[true false]", "1 2", "\"a\" \"b\"", "[]]",
    "{}}", "[}", "{]", "\n\n  x", "\r\n\r\n x", "[1,\n2,\n3,\n]", "{\n\"a\":\n}", "\u{feff}1",
    "1\u{feff}", "[1]\u{0}", "/* c */ 1", "1 // c", "[\"a\",\n \"b\"\n \"c\"]", "{\"\":\"\"}",
    "{\"a\":[{\"b\":[{\"c\":null}]}]}", "[\r\n1\r\n]", " \t\r\n[ \t\r\n1 \t\r\n, \t\r\n2 ]",
    "\u{b}1", "\u{c}1", "[\u{a0}1]", "{\"a\":1}x", "[1]\n\n\nx", "中", "[\"中\" 1]",
];

/// A random JSON document's text, with random whitespace; `depth` bounds its nesting.
fn random_document(rng: &mut Rng, depth: usize, out: &mut String) {
    let space = |rng: &mut Rng, out: &mut String| {
        if rng.below(3) == 0 {
            for _ in 0..rng.below(3) {
                out.push_str(rng.pick(&[" ", "\n", "\t", "\r\n", "  "]));
            }
        }
    };
    space(rng, out);
    match rng.below(if depth == 0 { 5 } else { 8 }) {
        0 => out.push_str(rng.pick(&["null", "true", "false"])),
        1 | 2 => random_number(rng, out),
        3 | 4 => random_string(rng, out),
        5 => out.push_str(rng.pick(NUMBERS)),
        6 => {
            out.push('[');
            for i in 0..rng.below(5) {
                if i > 0 {
                    out.push(',');
                }
                random_document(rng, depth - 1, out);
            }
            space(rng, out);
            out.push(']');
        }
        _ => {
            out.push('{');
            for i in 0..rng.below(5) {
                if i > 0 {
                    out.push(',');
                }
                space(rng, out);
                random_string(rng, out);
                space(rng, out);
                out.push(':');
                random_document(rng, depth - 1, out);
            }
            space(rng, out);
            out.push('}');
        }
    }
    space(rng, out);
}

/// A random number: digits of random lengths (to past a u64's 20), a point, an exponent.
fn random_number(rng: &mut Rng, out: &mut String) {
    let digits = |rng: &mut Rng, n: usize, out: &mut String| {
        for _ in 0..n {
            out.push(char::from(b'0' + rng.below(10) as u8));
        }
    };
    if rng.below(3) == 0 {
        out.push('-');
    }
    match rng.below(4) {
        0 => out.push('0'),
        _ => {
            out.push(char::from(b'1' + rng.below(9) as u8));
            let n = [rng.below(4), rng.below(18), rng.below(30)][rng.below(3)];
            digits(rng, n, out);
        }
    }
    if rng.below(2) == 0 {
        out.push('.');
        let n = [1 + rng.below(3), 1 + rng.below(25)][rng.below(2)];
        digits(rng, n, out);
    }
    if rng.below(3) == 0 {
        out.push_str(rng.pick(&["e", "E", "e+", "e-", "E-"]));
        let n = [1 + rng.below(2), 1 + rng.below(3), 1 + rng.below(12)][rng.below(3)];
        digits(rng, n, out);
    }
}

/// A random string: plain, non-ASCII and escaped pieces.
fn random_string(rng: &mut Rng, out: &mut String) {
    out.push('"');
    for _ in 0..rng.below(8) {
        let piece = rng.pick(&[
            "a",
            "key",
            " ",
            "é",
            "中文",
            "😀",
            "\\\"",
            "\\\\",
            "\\/",
            "\\b",
            "\\f",
            "\\n",
            "\\r",
            "\\t",
            "\\u0041",
            "\\u00e9",
            "\\u4E2D",
            "\\ud83d\\ude00",
            "\\u0000",
            "\\u001F",
        ]);
        out.push_str(piece);
        if rng.below(4) == 0 {
            out.push_str(&format!("\\u{:04x}", rng.below(0x1_0000)));
        }
    }
    out.push('"');
}

/// `text` changed a little: a piece of JSON put in, a range cut or doubled, a byte changed.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(5) {
            0 | 1 => {
                let piece = rng.pick(&[
                    "\"",
                    "\\",
                    "\\u",
                    "\\ud800",
                    "\\udc00",
                    ",",
                    "]",
                    "}",
                    "[",
                    "{",
                    ":",
                    "1e",
                    "-",
                    ".",
                    "0",
                    "e999",
                    "\u{0}",
                    "\u{1f}",
                    "\n",
                    " ",
                    "\r\n",
                    "null",
                    "é",
                    "\"\"",
                    "[[[[",
                    "}}}}",
                    "9999999999999999999999",
                ]);
                bytes.splice(at..at, piece.bytes());
            }
            2 => {
                let end = (at + rng.below(16)).min(bytes.len());
                bytes.drain(at..end);
            }
            3 => {
                let end = (at + rng.below(16)).min(bytes.len());
                let copy = bytes[at..end].to_vec();
                bytes.splice(at..at, copy);
            }
            _ => {
                if at < bytes.len() {
                    bytes[at] = rng.below(128) as u8;
                }
            }
        }
    }
    // serde_json's `from_str` takes a `&str`, as tao's does: invalid UTF-8 never reaches them.
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Every JSON and JSON Lines file under `dir`.
fn json_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            json_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e == "json" || e == "jsonl")
        {
            out.push(path);
        }
    }
}

/// The texts of the JSON files tao reads and ships (tests/, data/, www/) and of the shared
/// corpus and data beside the repository (when it is there): each file, and each line of the
/// JSON Lines files.
fn files() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    for dir in [
        "tests",
        "data",
        "www",
        "../shared/corpus",
        "../shared/data/react-paper",
    ] {
        json_files(&root.join(dir), &mut paths);
    }
    let mut texts = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        if path.extension().is_some_and(|e| e == "jsonl") {
            texts.extend(text.lines().map(String::from));
        }
        texts.push(text);
    }
    texts
}

#[test]
fn reads_every_json_file_as_serde_json_does() {
    let files = files();
    // The repository's own files at least (tests/, data/, www/).
    assert!(files.len() > 25, "only {} files found", files.len());
    let mut read = 0;
    for text in &files {
        if check(text) {
            read += 1;
        }
        // What a stream cut short looks like: the short texts cut at every character, the others
        // at 100 places.
        let cuts: Vec<usize> = match text.len() {
            0..=600 => text.char_indices().map(|(i, _)| i).collect(),
            n => (0..100)
                .map(|k| k * n / 100)
                .filter(|&i| text.is_char_boundary(i))
                .collect(),
        };
        for cut in cuts {
            check(&text[..cut]);
        }
    }
    assert!(read > 25, "only {read} of the files read");
}

#[test]
fn reads_the_edges_as_serde_json_does() {
    for text in NUMBERS.iter().chain(STRINGS).chain(STRUCTURES) {
        check(text);
        // The same inside an array and an object, after a line break (positions), and cut.
        check(&format!("[\n  {text}\n]"));
        check(&format!("{{\"k\": {text}}}"));
        check(&format!("{{{text}: 1}}"));
        for (cut, _) in text.char_indices() {
            check(&text[..cut]);
        }
    }
    // Every ASCII byte, alone, in a string, after a backslash and as an exponent.
    for byte in 0..128u8 {
        let c = char::from(byte);
        for text in [
            format!("{c}"),
            format!("\"{c}\""),
            format!("\"\\{c}\""),
            format!("1e{c}"),
        ] {
            check(&text);
        }
    }
}

#[test]
fn reads_random_documents_and_their_mutations_as_serde_json_does() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let (mut documents, mut read, mut refused) = (0, 0, 0);
    for _ in 0..3000 {
        let mut text = String::new();
        let depth = 1 + rng.below(5);
        random_document(&mut rng, depth, &mut text);
        // (Not all are JSON: a number may be out of range, or one of NUMBERS' malformed ones.)
        documents += usize::from(check(&text));
        for _ in 0..4 {
            match check(&mutate(&mut rng, &text)) {
                true => read += 1,
                false => refused += 1,
            }
        }
    }
    // Mutations both keep documents JSON and break them, often enough to test both.
    assert!(
        documents > 2000,
        "only {documents} random documents are JSON"
    );
    assert!(
        read > 1000 && refused > 4000,
        "{read} mutants read, {refused} refused"
    );
    // And the shared corpus's texts, mutated.
    let files = files();
    for _ in 0..2000 {
        let text = &files[rng.below(files.len())];
        if text.len() < 20_000 {
            check(&mutate(&mut rng, text));
        }
    }
}

#[test]
fn nesting_stops_at_serde_jsons_limit_without_overflowing_the_stack() {
    for depth in [1, 2, 126, 127, 128, 129, 200, 100_000] {
        let arrays = "[".repeat(depth) + &"]".repeat(depth);
        let objects = "{\"a\":".repeat(depth) + "1" + &"}".repeat(depth);
        let mixed = "[{\"a\":".repeat(depth) + &"}]".repeat(depth);
        for text in [
            &arrays,
            &objects,
            &mixed,
            &"[".repeat(depth),
            &"{\"a\":".repeat(depth),
        ] {
            check(text);
        }
    }
    assert!(json::from_str(&("[".repeat(127) + &"]".repeat(127))).is_ok());
    assert_eq!(
        json::from_str(&"[".repeat(100_000))
            .unwrap_err()
            .to_string(),
        "recursion limit exceeded at line 1 column 128"
    );
}

#[test]
fn reads_long_strings_as_serde_json_does() {
    let long = "x".repeat(1 << 20);
    for text in [
        format!("\"{long}\""),
        format!("\"{long}"),
        format!("[\"{long}\\n{long}\\u00e9\"]"),
        format!("\"{long}\\q\""),
        format!("\"{long}\u{1}\""),
        format!("{{\"{long}\": \"{long}\"}}"),
    ] {
        check(&text);
    }
    // A reply cut short in a string, 121 bytes long: the column is the byte after the last.
    let cut = format!("{{\"query\": \"{}", "a".repeat(110));
    assert_eq!(
        json::from_str(&cut).unwrap_err().to_string(),
        "EOF while parsing a string at line 1 column 121"
    );
    check(&cut);
}

#[test]
fn reads_and_writes_every_kind_of_number_as_serde_json_does() {
    let mut rng = Rng(0x0dd5_eed5_0000_0007);
    for _ in 0..20_000 {
        // A random f64 of any exponent (not NaN or infinite), written by both, read back by both.
        let f = f64::from_bits(rng.next());
        if !f.is_finite() {
            continue;
        }
        let ours = Value::from(f);
        let theirs = serde_json::Value::from(f);
        check_written(&ours, &theirs);
        let text = to_json::to_string(&ours);
        check(&text);
        // Rust's own ways of writing it (more digits, other forms), read by both.
        check(&format!("{f:e}"));
        check(&format!("{f:.20e}"));
        check(&format!("{:.3}", f % 1e6));
        // Integers at every size.
        let n = rng.next() >> rng.below(64);
        check_written(&Value::from(n), &serde_json::Value::from(n));
        check(&n.to_string());
        check(&format!("-{n}"));
        check(&format!("{n}{}", rng.below(1000)));
    }
}

#[test]
fn the_checks_can_fail() {
    // Each comparison tells a difference it must see.
    assert_ne!(
        shape(&json::from_str("1").unwrap()),
        shape(&json::from_str("1.0").unwrap())
    );
    assert_ne!(
        shape(&json::from_str("-0.0").unwrap()),
        shape(&json::from_str("0.0").unwrap())
    );
    assert_ne!(
        shape(&json::from_str("0.1").unwrap()),
        shape(&json::from_str("0.10000000000000002").unwrap())
    );
    assert_ne!(
        serde_shape(&serde_json::from_str("{\"a\":1,\"b\":2}").unwrap()),
        serde_shape(&serde_json::from_str("{\"a\":2,\"b\":1}").unwrap())
    );
    assert!(
        std::panic::catch_unwind(|| check_written(&Value::from(1.0), &serde_json::json!(1)))
            .is_err()
    );
}
