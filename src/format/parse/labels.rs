//! Labels: recognising `Thought:`, `Action:`, `Action Input:`, `Observation:` and the final
//! answer at the start of a line, however the model decorated it.
//!
//! A label is a keyword (a few lowercase words, English or Chinese, plus the prompt's own
//! final-answer marker such as `AI:`) after optional indentation and markdown (`#`, `*`, `-`,
//! `>`, list bullets), in any case, with an optional step number and an ASCII or full-width
//! colon. [`probe`] reads one line left to right and answers "a label, its content starts
//! here", "not a label", or "cannot tell yet": the last answer is what lets the stream ask
//! about an unfinished line without ever rescanning it (see `stream.rs`).

use super::{trim, trim_start, ParseOptions};

/// How far into a line a label may end (its colon included). Labels are short; bounding the
/// window keeps the check of an unfinished line constant-time per line.
pub(super) const LABEL_WINDOW: usize = 80;

/// The labels a line can start with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Label {
    Thought,
    Action,
    ActionInput,
    Observation,
    Final,
}

/// The labels every style understands, longest first where one is a prefix of another: each
/// a keyword of lowercase words (between words any spaces, `_`, `-` or a step number). A
/// `const` table, so reading a reply builds none of it.
const BASE_KEYWORDS: &[(&[&str], Label)] = &[
    (&["final", "answer"], Label::Final),
    (&["action", "input"], Label::ActionInput),
    (&["action"], Label::Action),
    (&["thought"], Label::Thought),
    (&["observation"], Label::Observation),
    (&["最终答案"], Label::Final),
    (&["行动输入"], Label::ActionInput),
    (&["动作输入"], Label::ActionInput),
    (&["行动"], Label::Action),
    (&["动作"], Label::Action),
    (&["思考"], Label::Thought),
    (&["观察"], Label::Observation),
];

/// The configured final marker split into its bracket keyword (`Finish[...]` -> "Finish") or
/// its label words (`AI:` -> "AI"), as written: callers compare them with ASCII case rules,
/// the same rules `probe_keyword` and `is_finish` use on the reply, so a marker matches a reply
/// spelled the way the marker is. (Full Unicode `to_lowercase` would also pull ~12 KB of case
/// tables into the wasm.)
pub(super) fn marker_parts(options: &ParseOptions) -> (&str, Option<&str>) {
    // The usual case, no marker of the prompt's own, asks for no string searching.
    let Some(marker) = options.final_marker.as_deref().map(trim) else {
        return ("finish", None);
    };
    if let Some(open) = marker.find('[') {
        let kw = marker.get(..open).unwrap_or("").trim();
        return (if kw.is_empty() { "finish" } else { kw }, None);
    }
    let words = marker.trim_end_matches([':', '：']).trim();
    ("finish", Some(words).filter(|w| !w.is_empty()))
}

/// The keywords a reply is read with: the base table, plus the prompt's own final-answer
/// label when it is not one of them (`AI:`). Built once per reply; for the base markers it
/// allocates nothing.
pub(super) struct Keywords {
    /// The marker's words, lowercased; empty when the base table has them.
    marker: Vec<String>,
}

pub(super) fn keywords_for(options: &ParseOptions) -> Keywords {
    let mut marker = Vec::new();
    if let (_, Some(words)) = marker_parts(options) {
        let same = |(kw, _): &(&[&str], Label)| {
            kw.len() == words.split_whitespace().count()
                && kw
                    .iter()
                    .zip(words.split_whitespace())
                    .all(|(a, b)| b.eq_ignore_ascii_case(a))
        };
        if !BASE_KEYWORDS.iter().any(same) {
            marker = words
                .split_whitespace()
                .map(str::to_ascii_lowercase)
                .collect();
        }
    }
    Keywords { marker }
}

/// What the start of a line says about a label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Probe {
    /// A label; the content starts at this byte offset within the line.
    Label(Label, usize),
    /// Not a label, whatever follows.
    Not,
    /// The line ended before a decision; `keyword` is true when a whole keyword was read
    /// (a bare `Action 2` at the end of a reply is a truncated label).
    More { keyword: bool },
}

/// Reads the label at the start of `line`, if any.
///
/// The decision only depends on bytes read left to right within `LABEL_WINDOW`, so a
/// prefix that is a label stays one however the line continues: that is what lets the stream
/// cut an unfinished line at an `Observation` label.
pub(super) fn probe(line: &str, keywords: &Keywords) -> Probe {
    let b = line.as_bytes();
    let window = b.len().min(LABEL_WINDOW);
    // Running out of window on a line longer than the window is a decision ("not a label");
    // running out of line is not (more bytes may come).
    let ran_out = |keyword: bool| {
        if b.len() > LABEL_WINDOW {
            Probe::Not
        } else {
            Probe::More { keyword }
        }
    };
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let mut i = 0;
    // Indentation, markdown decoration and list bullets (`- `, `1. `, `2) `, `• `).
    loop {
        if i >= window {
            return ran_out(false);
        }
        match at(i) {
            b' ' | b'\t' | b'#' | b'*' | b'-' | b'>' | b'+' | b'_' | b'`' => i += 1,
            0xE2 if b.get(i..i + 3) == Some("•".as_bytes()) => i += 3,
            b'0'..=b'9' => {
                let mut j = i;
                while j < window && at(j).is_ascii_digit() {
                    j += 1;
                }
                if j >= window {
                    return ran_out(false);
                }
                if at(j) == b'.' || at(j) == b')' {
                    i = j + 1;
                } else {
                    return Probe::Not;
                }
            }
            _ => break,
        }
    }
    let mut more: Option<bool> = None;
    let base = BASE_KEYWORDS
        .iter()
        .map(|(words, label)| probe_keyword(b, i, window, words, *label));
    let marker = (!keywords.marker.is_empty())
        .then(|| probe_keyword(b, i, window, &keywords.marker, Label::Final));
    for probed in base.chain(marker) {
        match probed {
            Probe::Label(label, content) => return Probe::Label(label, content),
            Probe::More { keyword } => more = Some(more.unwrap_or(false) || keyword),
            Probe::Not => {}
        }
    }
    match more {
        Some(keyword) => ran_out(keyword),
        None => Probe::Not,
    }
}

fn probe_keyword<W: AsRef<str>>(
    b: &[u8],
    start: usize,
    window: usize,
    words: &[W],
    label: Label,
) -> Probe {
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let mut p = start;
    for (n, word) in words.iter().map(AsRef::as_ref).enumerate() {
        if n > 0 {
            while p < window && matches!(at(p), b' ' | b'\t' | b'_' | b'-' | b'0'..=b'9') {
                p += 1;
            }
        }
        for &want in word.as_bytes() {
            if p >= window {
                return Probe::More { keyword: false };
            }
            if at(p).to_ascii_lowercase() != want {
                return Probe::Not;
            }
            p += 1;
        }
    }
    if p >= window {
        return Probe::More { keyword: true };
    }
    // `Actions:` is a word, not the label `Action`.
    if words.iter().all(|w| w.as_ref().is_ascii()) && at(p).is_ascii_alphanumeric() {
        return Probe::Not;
    }
    // Optional step number and closing decoration: `Action 2:`, `**Action**:`.
    while p < window && matches!(at(p), b' ' | b'\t') {
        p += 1;
    }
    while p < window && at(p).is_ascii_digit() {
        p += 1;
    }
    while p < window && matches!(at(p), b' ' | b'\t' | b'*' | b'_' | b'`') {
        p += 1;
    }
    if p >= window {
        return Probe::More { keyword: true };
    }
    if at(p) == b':' {
        p += 1;
    } else if b.get(p..p + 3) == Some("：".as_bytes()) {
        p += 3;
    } else {
        return Probe::Not;
    }
    // `**Action:** x`: the bold closes after the colon.
    while matches!(at(p), b'*') {
        p += 1;
    }
    while matches!(at(p), b' ' | b'\t') {
        p += 1;
    }
    Probe::Label(label, p.min(b.len()))
}

/// The label line a prompt leaves open for the reply to finish, if any.
///
/// A prompt that ends with a label other than `Thought:` (say `Action:`) is continued by the
/// reply, so a reader that sees the reply alone must read that label as part of it: this
/// returns the prompt's last line when it is such a label, to be put before the reply. (A
/// `Thought:` needs no such help: text before the first label is thought anyway.) `tao parse
/// --jsonl` uses it for the corpus's `prompt_suffix`.
pub fn open_label<'p>(prompt_suffix: &'p str, options: &ParseOptions) -> Option<&'p str> {
    let last_line = prompt_suffix.rsplit('\n').next().unwrap_or("");
    match probe(last_line, &keywords_for(options)) {
        Probe::Label(label, _) if label != Label::Thought => Some(last_line),
        _ => None,
    }
}

/// A code fence line: ```` ``` ```` or `~~~`, with an optional info string.
pub(super) fn is_fence_line(line: &str) -> bool {
    let t = trim_start(line);
    t.starts_with("```") || t.starts_with("~~~")
}
