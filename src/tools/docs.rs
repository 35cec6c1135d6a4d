//! `search_docs`: full-text search over the pages of the site the agent is embedded in.
//!
//! A static site (a product's documentation, a handbook, a blog) has no search server, so the
//! embedder hands tao its pages as `[{title, url, text}]` and the agent searches them with this
//! tool. The index is built once, when the tool is made, and ranks pages with BM25, the ranking
//! Lucene and most site search use: a page scores for each query term by how often the term
//! occurs in it (saturating: the tenth "install" adds little), times how rare the term is among
//! the pages (idf: "install" says more than "page"), scaled down for long pages (they contain a
//! little of everything). The observation shows the best pages, each with the passage that holds
//! the most query terms, so the model can answer from it and cite the address.
//!
//! Text is cut into terms at anything that is not a letter or a digit and folded to lower
//! case; common English words ("the", "how") are dropped and plurals folded ("pages" → "page").
//! Chinese, Japanese and Korean write words without spaces, so a run of those characters is cut
//! into overlapping pairs ("安装指南" → 安装 装指 指南): the pairs of a query meet the pairs of a
//! page without a dictionary, which is what Lucene's CJK bigram analyzer does. A lone character
//! between other text is a term of its own. Scores are only compared, never printed: printing
//! or parsing a float would link ~14 KB of float formatting into the wasm.

use super::{string_schema, FnTool, Tool, ToolError, ToolOutput, ToolSpec};
use crate::host::LocalBoxFuture;
use crate::json::{invalid_type, FromJson, Object};
use crate::llm::http::{HttpRequest, Method, Transport};
use crate::text::{fold_case, is_cjk, sentence_ranges};
use serde_json::Value;
use std::cell::RefCell;
use std::cmp::Reverse;
use std::rc::Rc;

/// BM25's saturation: how fast more occurrences of a term stop adding to a page's score.
const K1: f64 = 1.2;
/// BM25's length normalisation: 0 ignores a page's length, 1 divides by it in full.
const B: f64 = 0.75;
/// A title term counts as this many occurrences in the text. A title says what the page is
/// about in a few words, so a term there outweighs a passing mention; counting it twice in one
/// field is the simplest form of BM25F's per-field weights, and keeps one length per page.
const TITLE_WEIGHT: u32 = 2;
/// How many pages the tool shows unless told otherwise.
pub const RESULTS: usize = 3;
/// The longest passage shown of a page, in bytes of its text (whitespace runs are then folded
/// and "…" marks added). Bytes rather than characters, because a byte budget holds about as
/// much meaning in either script: 300 bytes are ~50 English words, or 100 Chinese characters.
pub const PASSAGE_BYTES: usize = 300;
/// A query is a few words; a pasted page is read up to this many distinct terms.
const MAX_QUERY_TERMS: usize = 64;
/// How many titles the no-match observation lists, so the model learns what the pages cover.
const TITLES_LISTED: usize = 5;
/// English words too common to tell pages apart (a short list: rare words carry the ranking),
/// sorted for a binary search. (One string scanned word by word was 100 bytes smaller in the
/// gzipped wasm, and made indexing more than twice as slow.)
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "can", "do", "does", "for", "from",
    "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or",
    "s", "so", "t", "that", "the", "then", "there", "these", "this", "to", "was", "we", "what",
    "when", "where", "which", "who", "why", "will", "with", "you", "your",
];

/// What the model is told the tool does.
const DESCRIPTION: &str = "Searches this site's documentation and returns the best-matching pages, each with its title, address and the passage that matches best.";

/// A page of the site, as the embedder gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Doc {
    /// The page's title: shown in results, and its terms weigh double in the ranking.
    pub title: String,
    /// The page's address, shown so the model can cite it (may be empty).
    pub url: String,
    /// The page's plain text (not HTML).
    pub text: String,
}

// Read by hand, not derived (see `crate::json` for why).
impl FromJson for Doc {
    fn from_value(value: &Value) -> Result<Self, String> {
        let o = Object::new(value, "a document {title, url, text}")?;
        // Read into an empty page, so a failing field has one clean-up path (size: see
        // `Object::read`).
        let mut doc = Doc {
            title: String::new(),
            url: String::new(),
            text: String::new(),
        };
        for (key, into) in [
            ("title", &mut doc.title),
            ("url", &mut doc.url),
            ("text", &mut doc.text),
        ] {
            *into = o.required(key)?;
        }
        Ok(doc)
    }
}

/// Reads documents from JSON: an array of `{title, url, text}`, or `{"docs": [...]}`. The
/// error names the entry and what is wrong with it (``docs[2]: missing field `url` ``).
pub fn read_docs(json: &Value) -> Result<Vec<Doc>, String> {
    let list = match json {
        Value::Object(map) => map.get("docs").unwrap_or(json),
        other => other,
    };
    let Value::Array(items) = list else {
        return Err(format!(
            "cannot read the documents: {}",
            invalid_type(list, "an array of {title, url, text}, or {\"docs\": [...]}")
        ));
    };
    let mut docs = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        docs.push(Doc::from_value(item).map_err(|e| format!("docs[{i}]: {e}"))?);
    }
    Ok(docs)
}

/// The `search_docs` tool over `docs`, showing the best [`RESULTS`] pages.
pub fn tool(docs: Vec<Doc>) -> Rc<dyn Tool> {
    tool_showing(docs, RESULTS)
}

/// The `search_docs` tool over `docs`, showing the best `results` pages (at least one).
pub fn tool_showing(docs: Vec<Doc>, results: usize) -> Rc<dyn Tool> {
    let index = Index::new(docs);
    Rc::new(FnTool::new(
        "search_docs",
        DESCRIPTION,
        "query",
        move |query: &str| index.answer(query, results),
    ))
}

/// Where a term occurs: in which page, and how often (title occurrences counted double).
struct Posting {
    doc: u32,
    count: u32,
}

/// The pages, and for every term the pages it occurs in, built once.
pub struct Index {
    docs: Vec<Doc>,
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

    /// The tool's observation for `query`: the best `results` pages as
    /// `[1] Title — url` and their best passage, or what the pages cover when none matches.
    pub fn answer(&self, query: &str, results: usize) -> Result<String, ToolError> {
        if self.docs.is_empty() {
            return Err(ToolError::Failed(
                "search_docs has no documents to search: the embedder gave no documents \
                 (pass a non-empty list of {title, url, text} when creating the tool)"
                    .into(),
            ));
        }
        let query = query.trim();
        if query.is_empty() {
            return Err(ToolError::BadInput(
                "search_docs needs a query: a few words to look for, e.g. \"install on windows\""
                    .into(),
            ));
        }
        let hits = self.search(query, results.max(1));
        if hits.is_empty() {
            // Say what the pages are about, so the model's next query can use their words.
            let mut out =
                format!("No documents match \"{query}\". Try other words; the documents cover: ");
            for (i, doc) in self.docs.iter().take(TITLES_LISTED).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&doc.title);
            }
            if self.docs.len() > TITLES_LISTED {
                out += &format!(" (and {} more)", self.docs.len() - TITLES_LISTED);
            }
            out.push('.');
            return Ok(out);
        }
        let mut out = String::new();
        for (i, hit) in hits.iter().enumerate() {
            if i > 0 {
                out.push_str("\n\n");
            }
            out += &format!("[{}] {}", i + 1, hit.doc.title);
            if !hit.doc.url.is_empty() {
                out += &format!(" — {}", hit.doc.url);
            }
            let passage = snippet(&hit.doc.text, query);
            if !passage.is_empty() {
                out.push('\n');
                out.push_str(&passage);
            }
        }
        Ok(out)
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

/// The distinct terms of a query, in order (at most [`MAX_QUERY_TERMS`]).
fn query_terms(query: &str) -> Vec<String> {
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
fn terms(text: &str, each: &mut dyn FnMut(&str, usize, usize)) {
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

/// The `search_docs` tool over the JSON file of documents at `url` (the same shapes as
/// [`read_docs`] reads), fetched through `transport` at the first search and kept. A file that
/// cannot be fetched or read is an error observation naming the URL, and the next search tries
/// again.
pub fn tool_from_url(url: &str, transport: Rc<dyn Transport>) -> Rc<dyn Tool> {
    Rc::new(DocsAt {
        spec: ToolSpec::new("search_docs", DESCRIPTION, string_schema("query")),
        url: url.to_string(),
        transport,
        loaded: RefCell::new(None),
    })
}

struct DocsAt {
    spec: ToolSpec,
    url: String,
    transport: Rc<dyn Transport>,
    loaded: RefCell<Option<Rc<dyn Tool>>>,
}

impl Tool for DocsAt {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn call<'a>(&'a self, input: &'a Value) -> LocalBoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let loaded = self.loaded.borrow().clone();
            let tool = match loaded {
                Some(tool) => tool,
                None => {
                    let docs = self.fetch().await.map_err(|e| {
                        ToolError::Failed(format!(
                            "could not load the documents from {}: {e}",
                            self.url
                        ))
                    })?;
                    let tool = tool(docs);
                    *self.loaded.borrow_mut() = Some(tool.clone());
                    tool
                }
            };
            tool.call(input).await
        })
    }
}

impl DocsAt {
    async fn fetch(&self) -> Result<Vec<Doc>, String> {
        let request = HttpRequest {
            method: Method::Get,
            url: self.url.clone(),
            headers: Vec::new(),
            body: String::new(),
        };
        let response = self.transport.send(request).await.map_err(|e| e.message)?;
        if response.status != 200 {
            return Err(format!("HTTP {}", response.status));
        }
        let bytes = super::wikipedia::read_body(response.body, &self.url).await?;
        let json: Value = serde_json::from_slice(&bytes).map_err(|e| format!("not JSON ({e})"))?;
        read_docs(&json)
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
