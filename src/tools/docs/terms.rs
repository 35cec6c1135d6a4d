//! What `search_docs` counts as a term, in a page and in a query alike.
//!
//! Text is cut into terms at anything that is not a letter or a digit and folded to lower case
//! (with `crate::text::fold_case`); common English words ("the", "how") are dropped and plurals
//! folded ("pages" → "page"). Chinese, Japanese and Korean write words without spaces, so a run
//! of those characters is cut into overlapping pairs ("安装指南" → 安装 装指 指南): the pairs of
//! a query meet the pairs of a page without a dictionary, which is what Lucene's CJK bigram
//! analyzer does. A lone character between other text is a term of its own. Each term comes
//! with the bytes it was read from, so a passage can be chosen around the query's terms.

use crate::text::{fold_case, is_cjk};

/// A query is a few words; a pasted page is read up to this many distinct terms.
const MAX_QUERY_TERMS: usize = 64;
/// English words too common to tell pages apart (a short list: rare words carry the ranking),
/// sorted for a binary search. (One string scanned word by word was 100 bytes smaller in the
/// gzipped wasm, and made indexing more than twice as slow.)
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "can", "do", "does", "for", "from",
    "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or",
    "s", "so", "t", "that", "the", "then", "there", "these", "this", "to", "was", "we", "what",
    "when", "where", "which", "who", "why", "will", "with", "you", "your",
];

/// The distinct terms of a query, in order (at most [`MAX_QUERY_TERMS`]).
pub(super) fn query_terms(query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    terms(query, &mut |term, _, _| {
        if out.len() < MAX_QUERY_TERMS && !out.iter().any(|t| t == term) {
            out.push(term.to_string());
        }
    });
    out
}

/// Calls `each(term, start, end)` for every term of `text`, in order, with the byte range it
/// was read from: lower-cased words that are not stop words, in the singular, and the
/// character pairs of CJK runs (or the character of a one-character run).
pub(super) fn terms(text: &str, each: &mut dyn FnMut(&str, usize, usize)) {
    let mut word = String::new();
    let mut word_start = 0;
    // The CJK run being read: its last character and where it starts, and the run's length.
    let mut last_cjk: Option<(usize, char)> = None;
    let mut run = 0;
    let mut pair = String::new();
    let mut chars = text.char_indices();
    loop {
        // A space after the end flushes the last word or run.
        let (at, c) = chars.next().unwrap_or((text.len(), ' '));
        let cjk = !c.is_ascii() && is_cjk(c); // (most text is ASCII: check that first)
        if !cjk {
            if let (1, Some((start, single))) = (run, last_cjk) {
                pair.clear();
                pair.push(single);
                each(&pair, start, at);
            }
            last_cjk = None;
            run = 0;
        }
        if cjk || !c.is_alphanumeric() {
            if !word.is_empty() && STOP_WORDS.binary_search(&word.as_str()).is_err() {
                singular(&mut word);
                each(&word, word_start, at);
            }
            word.clear();
        }
        if cjk {
            if let Some((start, previous)) = last_cjk {
                pair.clear();
                pair.push(previous);
                pair.push(c);
                each(&pair, start, at + c.len_utf8());
            }
            last_cjk = Some((at, c));
            run += 1;
        } else if c.is_alphanumeric() {
            if word.is_empty() {
                word_start = at;
            }
            word.push(fold_case(c));
        }
        if at == text.len() {
            return;
        }
    }
}

/// Folds an English plural to its singular as Lucene's `EnglishMinimalStemmer` does, so
/// "pages" finds "page" and "queries" finds "query", while "status", "class" and "does" stay.
/// (Only plurals: "deploying" does not find "deploy"; a full stemmer misreads too many names.)
fn singular(word: &mut String) {
    let b = word.as_bytes();
    let n = b.len();
    if n < 3 || b[n - 1] != b's' {
        return;
    }
    match b[n - 2] {
        b'u' | b's' => {}
        // -ies is -y, except after a vowel (-aies, -eies); -aes -ees -oes stay
        b'e' if n > 3 && b[n - 3] == b'i' && !matches!(b[n - 4], b'a' | b'e') => {
            word.truncate(n - 3);
            word.push('y');
        }
        b'e' if matches!(b[n - 3], b'i' | b'a' | b'o' | b'e') => {}
        _ => {
            word.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The terms of `text`, each with the piece of text it was read from.
    fn read(text: &str) -> Vec<(String, &str)> {
        let mut out = Vec::new();
        terms(text, &mut |term, start, end| {
            out.push((term.to_string(), &text[start..end]))
        });
        out
    }

    #[test]
    fn text_is_cut_into_terms() {
        // (text, its terms)
        let cases: &[(&str, &[&str])] = &[
            ("How do I install Lumen?", &["install", "lumen"]),
            ("The PAGES' queries, boxes", &["page", "query", "boxe"]),
            // Not plurals; and "series" reads as "sery", as in Lucene: wrong, but the same
            // in pages and queries, so it still matches.
            ("status class does series", &["status", "class", "sery"]),
            (
                "v2.1 e-mail base_url",
                &["v2", "1", "e", "mail", "base", "url"],
            ),
            (
                "ÉCOLE Straße ŻÓŁW ΣΊΣΥΦΟΣ Привет",
                &["école", "straße", "żółw", "σίσυφοσ", "привет"],
            ),
            ("安装指南", &["安装", "装指", "指南"]),
            ("用 winget 安装。", &["用", "winget", "安装"]),
            ("Lumen安装的", &["lumen", "安装", "装的"]),
            ("インストール", &["イン", "ンス", "スト", "トー", "ール"]),
            ("설치 방법", &["설치", "방법"]),
            ("", &[]),
            ("  ... the of !", &[]),
        ];
        for (text, expected) in cases {
            let found: Vec<String> = read(text).into_iter().map(|(t, _)| t).collect();
            assert_eq!(&found, expected, "{text:?}");
        }
    }

    #[test]
    fn stop_words_are_sorted_for_the_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn every_term_knows_where_it_came_from() {
        let pieces: Vec<&str> = read("Les PAGES安装 x 字.")
            .into_iter()
            .map(|(_, p)| p)
            .collect();
        assert_eq!(pieces, ["Les", "PAGES", "安装", "x", "字"]);
    }
}
