//! The passage `search_docs` shows of a page: the part of its text that holds the most of the
//! query's terms.
//!
//! A model answers from the passage, so it should be a whole thought: it starts at a sentence
//! where it can and ends at one where it can (sentences as `crate::text` cuts them, the same
//! as `lookup`'s), and is at most [`PASSAGE_BYTES`] long, with "…" where the page goes on. A
//! term deep in a sentence too long to show from its start gets a passage that starts a little
//! before it; Chinese without a full stop for a long way is cut between two characters, never
//! inside one.

use super::terms::{query_terms, terms};
use crate::text::sentence_ranges;
use std::cmp::Reverse;

/// The longest passage shown of a page, in bytes of its text (whitespace runs are then folded
/// and "…" marks added). Bytes rather than characters, because a byte budget holds about as
/// much meaning in either script: 300 bytes are ~50 English words, or 100 Chinese characters.
pub const PASSAGE_BYTES: usize = 300;

/// The passage of `text` that holds the most of `query`'s terms: at most [`PASSAGE_BYTES`]
/// of it, starting at a sentence where it can and ending at one where it can, with "…" where
/// the text goes on and runs of whitespace folded to one space. With no term in the text (the
/// title matched), the passage is the text's beginning.
pub fn snippet(text: &str, query: &str) -> String {
    let Some((start, end)) = Reading::new(text, query).best_passage() else {
        return String::new(); // a blank text
    };
    let mut out = String::new();
    if !text[..start].trim().is_empty() {
        out.push_str("… ");
    }
    for (i, word) in text[start..end].split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(word);
    }
    if !text[end..].trim().is_empty() {
        out.push_str(" …");
    }
    out
}

/// A page's text read for its passages: where its sentences and the query's terms are, as
/// byte offsets.
struct Reading<'a> {
    text: &'a str,
    /// Where sentences start and end (see [`sentence_ranges`]).
    starts: Vec<usize>,
    ends: Vec<usize>,
    /// Where the query's terms occur: (start, end, which term), in text order.
    found: Vec<(usize, usize, usize)>,
}

impl<'a> Reading<'a> {
    fn new(text: &'a str, query: &str) -> Self {
        let wanted = query_terms(query);
        let mut found = Vec::new();
        terms(text, &mut |term, start, end| {
            if let Some(i) = wanted.iter().position(|w| w == term) {
                found.push((start, end, i));
            }
        });
        let (mut starts, mut ends) = (Vec::new(), Vec::new());
        for range in sentence_ranges(text) {
            starts.push(range.start);
            ends.push(range.end);
        }
        Reading {
            text,
            starts,
            ends,
            found,
        }
    }

    /// The offset `n` bytes after `at`, moved back to the start of the character it falls in
    /// (or the text's end).
    fn after(&self, at: usize, n: usize) -> usize {
        let mut to = (at + n).min(self.text.len());
        while !self.text.is_char_boundary(to) {
            to -= 1;
        }
        to
    }

    /// The best passage, as a byte range: it holds the most distinct terms, then starts at a
    /// sentence, then holds the most occurrences, then has the least text before its first
    /// term (it starts at the sentence that holds the term, not some way before); on a tie,
    /// the earlier one. `None` for a blank text.
    fn best_passage(&self) -> Option<(usize, usize)> {
        // A passage may start at any sentence, or, for a term deep in a sentence too long to
        // show from its start, a little before the term.
        let mut candidates: Vec<(usize, bool)> = Vec::new();
        for &start in &self.starts {
            candidates.push((start, true));
        }
        for &(start, end, _) in &self.found {
            let sentence = self.starts[..below(&self.starts, start + 1)]
                .last()
                .map_or(0, |&s| s);
            if end - sentence > PASSAGE_BYTES * 3 / 4 {
                candidates.push((self.lead_in(start), false));
            }
        }
        let mut best: Option<(usize, usize)> = None;
        let mut best_key = (0, false, 0, Reverse(0));
        for (start, at_sentence) in candidates {
            let first = self.found.partition_point(|f| f.0 < start);
            // A start with no term in reach cannot win once one has been seen.
            let reach = self
                .found
                .get(first)
                .is_some_and(|f| f.1 <= start + PASSAGE_BYTES);
            if best.is_some() && !reach {
                continue;
            }
            let end = self.passage_end(start);
            let inside = &self.found[first..self.found.partition_point(|f| f.1 <= end).max(first)];
            let seen = inside.iter().fold(0u64, |seen, f| seen | 1 << f.2);
            let lead = inside.first().map_or(0, |f| f.0 - start);
            let key = (seen.count_ones(), at_sentence, inside.len(), Reverse(lead));
            if best.is_none() || key > best_key {
                best = Some((start, end));
                best_key = key;
            }
        }
        let (mut start, end) = best?;
        // A passage that reaches the end of the text with room to spare takes in the sentences
        // before it that fit: a short page is shown whole.
        if end == self.text.len() {
            let before = &self.starts[..below(&self.starts, start)];
            for &earlier in before.iter().rev() {
                if end - earlier > PASSAGE_BYTES {
                    break;
                }
                start = earlier;
            }
        }
        Some((start, end))
    }

    /// Where a passage starting at `start` ends: [`PASSAGE_BYTES`] on, pulled back to the last
    /// sentence end in the passage's second half, else to its last space (CJK text may have
    /// neither: then it is cut between two characters).
    fn passage_end(&self, start: usize) -> usize {
        let limit = self.after(start, PASSAGE_BYTES);
        if limit == self.text.len() {
            return limit;
        }
        let half = self.after(start, PASSAGE_BYTES / 2);
        match self.ends[..below(&self.ends, limit + 1)].last() {
            Some(&end) if end > half => end,
            _ => self.text[half..limit]
                .rfind(char::is_whitespace)
                .map_or(limit, |space| half + space),
        }
    }

    /// A start a quarter of a passage before the term at `at`, moved on to the next word's
    /// start when there is one before the term.
    fn lead_in(&self, at: usize) -> usize {
        let mut from = at.saturating_sub(PASSAGE_BYTES / 4);
        while !self.text.is_char_boundary(from) {
            from += 1;
        }
        match self.text[from..at]
            .char_indices()
            .find(|(_, c)| c.is_whitespace())
        {
            Some((i, space)) => from + i + space.len_utf8(),
            None => from,
        }
    }
}

/// How many of the ascending `offsets` are below `at`.
fn below(offsets: &[usize], at: usize) -> usize {
    offsets.partition_point(|&o| o < at)
}
