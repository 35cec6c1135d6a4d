//! Text helpers the tools share, written once: lower case, where sentences end, and which
//! characters are Chinese, Japanese or Korean.
//!
//! `lookup` ignores case as the paper's Python `.lower()` does, and `search_docs` folds every
//! term to lower case; both fold with [`fold_case`], so "WÜRTTEMBERG" finds "Württemberg" in
//! either tool. `lookup` pages through a page's sentences (the paper's WikiEnv), over the
//! built-in pages and over a live wiki, and `search_docs` starts and ends its passages at
//! sentences; one splitter serves them all, so a page is read the same way by every tool, and
//! a fix (Chinese sentences ending in ！ or ？) is made once. This file is the ground floor: it
//! imports nothing from the rest of the crate, and uses no Unicode tables beyond what `char`
//! already links, because every byte here is in the wasm the page downloads. (The sentence
//! splitter and the folding are the built-in tools' code, with tao's own memos for the offline
//! model: the page's core leaves them to the tools' module.)

#[cfg(feature = "builtin-tools")]
use std::ops::Range;

/// `items` joined with `sep` between them, as `[String]::join` does. The crate joins lists of
/// `&str` too, and std compiles its `join` once for each kind of item: lists of `String`s are
/// joined here instead, so the wasm carries one copy of std's (size).
pub fn join(items: &[String], sep: &str) -> String {
    let mut joined = String::new();
    for (k, item) in items.iter().enumerate() {
        if k > 0 {
            joined.push_str(sep);
        }
        joined.push_str(item);
    }
    joined
}

/// `text` in lower case, as [`fold_case`] folds each character: what `lookup` compares.
#[cfg(feature = "builtin-tools")]
pub fn folded(text: &str) -> String {
    text.chars().map(fold_case).collect()
}

/// Lower case for the alphabets with case that pages are most often written in: ASCII,
/// Latin-1, Latin Extended-A, Greek and Cyrillic; other characters are themselves. Unicode's
/// full `to_lowercase` would link ~12 KB of case tables into the wasm for the rest.
pub fn fold_case(c: char) -> char {
    let n = c as u32;
    let lower = match n {
        // A-Z; À-Þ but not ×
        0x41..=0x5A => n + 32,
        0xC0..=0xDE if n != 0xD7 => n + 32,
        // Latin Extended-A pairs capital and small letters: Ā ā … Ķ ķ, Ŋ ŋ … Ŷ ŷ, then
        // Ĺ ĺ … Ň ň and Ź ź … Ž ž with the capital at an odd code point
        0x100..=0x12F | 0x132..=0x137 | 0x14A..=0x177 if n % 2 == 0 => n + 1,
        0x139..=0x148 | 0x179..=0x17E if n % 2 == 1 => n + 1,
        // Greek Α-Ϋ and the capitals with tonos (Ά Έ Ή Ί Ό Ύ Ώ), and the final sigma ς as σ;
        // Cyrillic Ѐ-Џ and А-Я
        0x391..=0x3AB if n != 0x3A2 => n + 32,
        0x386 => 0x3AC,
        0x388..=0x38A => n + 37,
        0x38C => 0x3CC,
        0x38E | 0x38F => n + 63,
        0x3C2 => 0x3C3,
        0x400..=0x40F => n + 80,
        0x410..=0x42F => n + 32,
        _ => n,
    };
    char::from_u32(lower).unwrap_or(c)
}

/// The sentences of `text`, as pieces of it without the spaces around them (see
/// [`sentence_ranges`] for where they end).
#[cfg(feature = "builtin-tools")]
pub fn sentences(text: &str) -> Vec<&str> {
    // A loop rather than `map` and `collect`: the iterator adapters cost the wasm ~1 KB.
    let mut out = Vec::new();
    for range in sentence_ranges(text) {
        out.push(text[range].trim_end());
    }
    out
}

/// Where the sentences of `text` are, as byte ranges: from a sentence's first non-space
/// character to just after the stop that ends it, or to the line break or the end of the text
/// that does (spaces before those are kept: `search_docs` cuts a passage at the range's end, and
/// it must cut where it always has).
///
/// A sentence ends:
/// - after `。` `！` `？`, the full stops of Chinese and Japanese, which need no space after
///   them;
/// - after `.` `!` `?` followed by a space or the end of the text, as in the paper's
///   `split(". ")`; `!` and `?` also end one when a CJK character follows them at once (Chinese
///   is often written with half-width punctuation);
/// - at a line break.
///
/// The closing quotes and brackets and further stops right after a stop belong to the sentence
/// it ends (`他说：“你好。”`, `(Five.)`, `真的？！`). A `.` inside a word or number does not end
/// one (`3.14`, `v1.2`, `e.g.this`), nor does `.` before a CJK character (`Apple Inc.是`). An
/// abbreviation before a space does (`Dr. Smith` is two): telling the two apart needs a
/// dictionary, and the paper's observations are cut this way ("The current CEO of Apple
/// Inc.").
#[cfg(feature = "builtin-tools")]
pub fn sentence_ranges(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut open: Option<usize> = None; // where the sentence being read starts
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c.is_whitespace() {
            if let (Some(start), '\n') = (open, c) {
                out.push(start..at);
                open = None;
            }
            continue;
        }
        let start = *open.get_or_insert(at);
        if !is_stop(c) {
            continue;
        }
        // The stops and closing marks right after this one end the sentence with it (`。”`,
        // `?!`). `wide`: one of them is a full-width stop, which needs no space after it.
        // `dots`: every stop is a `.`, which a CJK character may follow inside a sentence.
        let mut end = at + c.len_utf8();
        let mut wide = c > '\u{7f}';
        let mut dots = c == '.';
        while let Some(&(at, next)) = chars.peek() {
            if !is_stop(next) && !is_closing(next) {
                break;
            }
            wide |= is_stop(next) && next > '\u{7f}';
            dots &= next == '.' || !is_stop(next);
            end = at + next.len_utf8();
            chars.next();
        }
        let ends = match chars.peek() {
            None => true,
            Some(&(_, next)) => wide || next.is_whitespace() || (!dots && is_cjk(next)),
        };
        if ends {
            out.push(start..end);
            open = None;
        }
    }
    if let Some(start) = open {
        out.push(start..text.len());
    }
    out
}

/// A mark that can end a sentence, in either width.
#[cfg(feature = "builtin-tools")]
fn is_stop(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '。' | '！' | '？')
}

/// A closing quote or bracket, which stays with the stop before it.
#[cfg(feature = "builtin-tools")]
fn is_closing(c: char) -> bool {
    matches!(
        c,
        '"' | '\'' | ')' | ']' | '”' | '’' | '」' | '』' | '）' | '》' | '】'
    )
}

/// `items` as a list of quoted texts, `["Ulm", "Albert Einstein"]`: the way Rust's `{:?}` shows
/// them (and Python's `str(list)`, as the paper's WikiEnv wrote its "Similar:"), quoted and
/// escaped as JSON, so the wasm does not carry Rust's debug formatting for one line (0.5 KB).
#[cfg(feature = "builtin-tools")]
pub fn quoted_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items
        .iter()
        .map(|item| crate::to_json::to_string(item))
        .collect();
    format!("[{}]", quoted.join(", "))
}

/// Han, kana and Hangul: scripts written without spaces between words (Korean has spaces, but
/// its words inflect, and pairs match across the endings).
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF        // Hangul Jamo
        | 0x3005 | 0x3007      // 々 〇
        | 0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3130..=0x318F      // Hangul Compatibility Jamo
        | 0x31F0..=0x31FF      // Katakana Phonetic Extensions
        | 0x3400..=0x4DBF      // CJK Unified Ideographs Extension A
        | 0x4E00..=0x9FFF      // CJK Unified Ideographs
        | 0xAC00..=0xD7AF      // Hangul Syllables
        | 0xF900..=0xFAFF      // CJK Compatibility Ideographs
        | 0xFF66..=0xFF9F      // Halfwidth Katakana
        | 0x20000..=0x323AF // CJK Unified Ideographs Extensions B to H
    )
}

/// A rough token count, the same for every model (as the page's prompt view estimates it):
/// about 4 characters a token for Latin text and code, about 1 token a CJK character. Used
/// where the provider reports no count (the offline model, a JS model) for budgets and memory.
pub fn estimate_tokens(text: &str) -> u64 {
    let (mut cjk, mut rest) = (0u64, 0u64);
    for c in text.chars() {
        match is_cjk(c) {
            true => cjk += 1,
            false => rest += 1,
        }
    }
    cjk + rest.div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `{:?}` showed for the same list, for every title a wiki has.
    #[test]
    fn a_quoted_list_reads_as_rust_and_python_show_one() {
        let titles = [
            "Ulm",
            "Albert Einstein",
            "Mercury (planet)",
            "爱因斯坦",
            "Say \"hi\" \\ bye",
        ];
        assert_eq!(quoted_list(&titles), format!("{titles:?}"));
        assert_eq!(quoted_list(&[]), "[]");
    }

    /// `same` agrees with `==` for every length around its word size, whichever byte differs.
    /// Each case: a text, and the sentences it is cut into.
    const CASES: &[(&str, &[&str])] = &[
        // Chinese ends a sentence at 。！？ with no space after it.
        (
            "爱因斯坦出生于乌尔姆！他是物理学家？是的。",
            &["爱因斯坦出生于乌尔姆！", "他是物理学家？", "是的。"],
        ),
        // Closing quotes and brackets, and more stops, belong to the sentence they follow.
        (
            "他说：“你好。”然后走了（很快。）真的？！好",
            &["他说：“你好。”", "然后走了（很快。）", "真的？！", "好"],
        ),
        // Half-width ! and ? end a Chinese sentence too; a half-width . does not ("Inc.)是").
        (
            "他是物理学家?是的!苹果公司(Apple Inc.)是公司",
            &["他是物理学家?", "是的!", "苹果公司(Apple Inc.)是公司"],
        ),
        // English ends at . ! ? before a space or the end, with the quotes that close it.
        (
            "One. Two! Three? He said \"four.\" (Five.) Six",
            &[
                "One.",
                "Two!",
                "Three?",
                "He said \"four.\"",
                "(Five.)",
                "Six",
            ],
        ),
        // A stop inside a word or a number does not end it, nor does one run into another.
        (
            "Pi is 3.14 and v1.2 is out. Yahoo!Japan, e.g.this. Why?! Wait... what",
            &[
                "Pi is 3.14 and v1.2 is out.",
                "Yahoo!Japan, e.g.this.",
                "Why?!",
                "Wait...",
                "what",
            ],
        ),
        // An abbreviation before a space ends a sentence, as the paper's `split(". ")` does:
        // the observations keep the paper's sentences ("The current CEO of Apple Inc.").
        (
            "The U.S. Army hired Dr. Smith.",
            &["The U.S.", "Army hired Dr.", "Smith."],
        ),
        // A line break ends a sentence; spaces around sentences and blank lines are not text.
        (
            "One. v1.2 two! 三。四\n  five? six",
            &["One.", "v1.2 two!", "三。", "四", "five?", "six"],
        ),
        (
            "  Heading\r\n\n  Body text.  \nNext  ",
            &["Heading", "Body text.", "Next"],
        ),
        ("", &[]),
        (" \n\t ", &[]),
        ("。", &["。"]),
    ];

    #[test]
    fn sentences_end_at_full_stops_in_english_and_chinese() {
        for (text, expected) in CASES {
            let found = sentences(text);
            assert_eq!(&found, expected, "{text:?}");
        }
    }

    #[test]
    fn a_range_runs_from_the_first_character_to_what_ends_the_sentence() {
        let text = "  One.  Two \n三。 Four ";
        let pieces: Vec<&str> = sentence_ranges(text)
            .into_iter()
            .map(|range| &text[range])
            .collect();
        assert_eq!(pieces, ["One.", "Two ", "三。", "Four "]);
    }

    #[test]
    fn random_text_is_cut_into_ordered_sentences_that_lose_nothing() {
        // Pieces that end, or nearly end, sentences, glued at random (tests/rng.rs, so every run
        // reads the same texts).
        const PIECES: &[&str] = &[
            "word", "安装", "3.5", "U.S.", " ", "  ", "\n", "\r\n", ".", "!", "?", "。", "！",
            "？", "\"", "'", ")", "”", "」", "…", "é", "😀", "\u{3000}",
        ];
        let mut rng = crate::rng::Rng(0x9E37_79B9_7F4A_7C15);
        let mut next = |n: usize| rng.below(n);
        for _ in 0..2000 {
            let text: String = (0..next(40)).map(|_| PIECES[next(PIECES.len())]).collect();
            let ranges = sentence_ranges(&text);
            let mut kept = String::new();
            let mut after = 0;
            for range in &ranges {
                // In order, apart, and starting at a character that is not a space.
                assert!(after <= range.start && range.start < range.end, "{text:?}");
                assert!(
                    !text[range.clone()].starts_with(char::is_whitespace),
                    "{text:?}"
                );
                kept.push_str(&text[range.clone()]);
                after = range.end;
            }
            // Between the sentences there is only whitespace: no text is lost.
            let visible = |t: &str| t.split_whitespace().collect::<String>();
            assert_eq!(visible(&kept), visible(&text), "{text:?}");
        }
    }

    #[test]
    fn case_is_folded_in_the_alphabets_pages_are_written_in() {
        // (text, folded): ASCII, Latin-1 (× is not a letter; ß has no capital here), Latin
        // Extended-A in its two pairings, Greek with tonos and the final sigma, Cyrillic; other
        // scripts stay as they are.
        let cases = [
            ("Albert EINSTEIN", "albert einstein"),
            ("ÀÉÎÕÜÞ ×ß", "àéîõüþ ×ß"),
            ("ĀĶŊŶ ĹŇŹŽ", "āķŋŷ ĺňźž"),
            ("ΣΊΣΥΦΟΣ Ά Ώ ς", "σίσυφοσ ά ώ σ"),
            ("ЁЖ Привет", "ёж привет"),
            ("爱因斯坦 ＡＢ İ", "爱因斯坦 ＡＢ İ"),
        ];
        for (text, expected) in cases {
            assert_eq!(folded(text), expected, "{text:?}");
        }
    }
}
