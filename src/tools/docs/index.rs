//! The BM25 index of `search_docs`: every term of every page, and for each term the pages it
//! occurs in, built once when the tool is made.
//!
//! BM25 is the ranking Lucene and most site search use: a page scores for each query term by
//! how often the term occurs in it (saturating: the tenth "install" adds little), times how
//! rare the term is among the pages (idf: "install" says more than "page"), scaled down for
//! long pages (they contain a little of everything). A title's terms count twice. Scores are
//! only compared, never printed: printing or parsing a float would link ~14 KB of float
//! formatting into the wasm. The terms are the ones `terms` reads, from the pages and from the
//! query alike, and they are kept in a small hand-written hash table ([`Dictionary`]).

use super::terms::{query_terms, terms};
use super::Doc;

/// BM25's saturation: how fast more occurrences of a term stop adding to a page's score.
const K1: f64 = 1.2;
/// BM25's length normalisation: 0 ignores a page's length, 1 divides by it in full.
const B: f64 = 0.75;
/// A title term counts as this many occurrences in the text. A title says what the page is
/// about in a few words, so a term there outweighs a passing mention; counting it twice in one
/// field is the simplest form of BM25F's per-field weights, and keeps one length per page.
const TITLE_WEIGHT: u32 = 2;

/// Where a term occurs: in which page, and how often (title occurrences counted double).
struct Posting {
    doc: u32,
    count: u32,
}

/// The pages, and for every term the pages it occurs in, built once.
pub struct Index {
    /// The pages, by id (the observation, in `mod.rs`, lists their titles when none matches).
    pub(super) docs: Vec<Doc>,
    /// Every term of every page, each with an id.
    dictionary: Dictionary,
    /// The postings of each term, by id, in page order.
    postings: Vec<Vec<Posting>>,
    /// Each page's length in terms (title terms counted double, as in the postings).
    lengths: Vec<u32>,
    average_length: f64,
}

/// A page that matches a query, and how well (scores are only meaningful compared).
#[derive(Clone, Debug, PartialEq)]
pub struct Hit<'a> {
    /// The page.
    pub doc: &'a Doc,
    /// Its BM25 score for the query, above zero.
    pub score: f64,
}

impl Index {
    /// Indexes `docs`: one pass over every title and text.
    pub fn new(docs: Vec<Doc>) -> Index {
        let mut dictionary = Dictionary::default();
        let mut postings: Vec<Vec<Posting>> = Vec::new();
        let mut lengths = Vec::with_capacity(docs.len());
        for (id, doc) in docs.iter().enumerate() {
            let id = id as u32;
            let mut length = 0;
            let mut add = |term: &str, weight: u32| {
                length += weight;
                let term = dictionary.id(term);
                if term == postings.len() {
                    postings.push(Vec::new()); // a new term
                }
                // Pages are read in order, so a term's postings stay in page order and the
                // current page, if the term was already seen in it, is the last one.
                let list = &mut postings[term];
                match list.last_mut() {
                    Some(last) if last.doc == id => last.count += weight,
                    _ => list.push(Posting {
                        doc: id,
                        count: weight,
                    }),
                }
            };
            terms(&doc.title, &mut |term, _, _| add(term, TITLE_WEIGHT));
            terms(&doc.text, &mut |term, _, _| add(term, 1));
            lengths.push(length);
        }
        let total: u64 = lengths.iter().map(|&l| u64::from(l)).sum();
        let average_length = total as f64 / docs.len().max(1) as f64;
        Index {
            docs,
            postings,
            lengths,
            dictionary,
            average_length,
        }
    }

    /// The best `limit` pages for `query`, best first (on a tie, the earlier page).
    ///
    /// A page's score is the sum over the query's distinct terms of
    /// `idf × tf × (k1 + 1) / (tf + k1 × (1 − b + b × length / average length))`, with
    /// `idf = ln(1 + (N − n + 0.5) / (n + 0.5))` for a term found in `n` of the `N` pages
    /// (Lucene's form, never negative), k1 = 1.2 and b = 0.75.
    pub fn search(&self, query: &str, limit: usize) -> Vec<Hit<'_>> {
        let pages = self.docs.len() as f64;
        let mut scores = vec![0.0; self.docs.len()];
        for term in query_terms(query) {
            let Some(list) = self.dictionary.get(&term).map(|id| &self.postings[id]) else {
                continue;
            };
            let n = list.len() as f64;
            let idf = (1.0 + (pages - n + 0.5) / (n + 0.5)).ln();
            for posting in list {
                let tf = f64::from(posting.count);
                let length = f64::from(self.lengths[posting.doc as usize]);
                let norm = K1 * (1.0 - B + B * length / self.average_length);
                scores[posting.doc as usize] += idf * tf * (K1 + 1.0) / (tf + norm);
            }
        }
        // Pick the best page `limit` times rather than sort every score: the tool shows three,
        // and a sort would add its code to the wasm.
        let mut hits = Vec::new();
        while hits.len() < limit {
            let mut best: Option<usize> = None;
            for (i, &score) in scores.iter().enumerate() {
                if score > 0.0 && best.is_none_or(|b| score > scores[b]) {
                    best = Some(i);
                }
            }
            let Some(best) = best else { break };
            hits.push(Hit {
                doc: &self.docs[best],
                score: scores[best],
            });
            scores[best] = 0.0;
        }
        hits
    }
}

/// The index's dictionary: every term once, with an id, found by its hash in a table with
/// open addressing. (A `BTreeMap` did the same job for 4 KB more of wasm, measured, and a
/// `HashMap` brings its SipHash hasher along; this is a few hundred bytes.)
#[derive(Default)]
struct Dictionary {
    /// The terms, by id.
    terms: Vec<String>,
    /// The table: each slot holds a term's id + 1, or 0 when empty. Its length is a power of
    /// two, kept at least twice the number of terms so that probes stay short.
    slots: Vec<u32>,
}

impl Dictionary {
    /// The id of `term`, if the dictionary has it.
    fn get(&self, term: &str) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let slot = self.slots[self.slot(term)];
        slot.checked_sub(1).map(|id| id as usize)
    }

    /// The id of `term`, which is added if it is new (ids count up from 0).
    fn id(&mut self, term: &str) -> usize {
        if self.terms.len() * 2 >= self.slots.len() {
            // Twice the slots, and every term in its new place.
            self.slots = vec![0; (self.slots.len() * 2).max(64)];
            for id in 0..self.terms.len() {
                let slot = self.slot(&self.terms[id]);
                self.slots[slot] = id as u32 + 1;
            }
        }
        let slot = self.slot(term);
        if self.slots[slot] == 0 {
            self.terms.push(term.to_string());
            self.slots[slot] = self.terms.len() as u32;
        }
        self.slots[slot] as usize - 1
    }

    /// The slot that holds `term`, or the empty slot where it would go: the first of those
    /// from the slot its hash (FNV-1a) names onwards. The table must not be empty.
    fn slot(&self, term: &str) -> usize {
        let mask = self.slots.len() - 1;
        let hash = term.bytes().fold(0x811c_9dc5u32, |hash, byte| {
            (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
        });
        let mut slot = hash as usize & mask;
        loop {
            match self.slots[slot] {
                0 => return slot,
                id if self.terms[id as usize - 1] == term => return slot,
                _ => slot = (slot + 1) & mask,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dictionary_gives_each_term_one_id_as_it_grows() {
        let mut dictionary = Dictionary::default();
        assert_eq!(dictionary.get("install"), None);
        let words: Vec<String> = (0..5000).map(|i| format!("w{i}")).collect();
        for (i, word) in words.iter().enumerate() {
            assert_eq!(dictionary.id(word), i);
        }
        for (i, word) in words.iter().enumerate().rev() {
            assert_eq!(dictionary.id(word), i, "{word}");
            assert_eq!(dictionary.get(word), Some(i));
        }
        assert_eq!(dictionary.get("w5000"), None);
        assert_eq!(dictionary.get(""), None);
        assert_eq!(dictionary.id(""), 5000);
    }
}
