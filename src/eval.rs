//! Scoring answers the way the ReAct paper did, so a run of tao can be compared with its
//! Table 1: HotpotQA by exact match and F1 after HotpotQA's own `normalize_answer`, FEVER by
//! the accuracy of the label (SUPPORTS, REFUTES, NOT ENOUGH INFO); the majority vote of its
//! CoT-SC (several samples, the most frequent answer); and the paper's sample of 500 questions,
//! drawn with Python's `random.Random(233).shuffle`, reproduced here bit for bit (Mersenne
//! Twister and all) so the same 500 indices come out without Python.
//!
//! One difference from the official code, for size: Python's `.lower()` knows every alphabet
//! with case, and Rust's `to_lowercase` would link ~12 KB of Unicode tables into the wasm for
//! the same. Answers are lower-cased with `text::fold_case` instead (ASCII, Latin-1, Latin
//! Extended-A, Greek, Cyrillic), which agrees with Python on those alphabets except that it
//! also folds a final `ς` to `σ`; letters of other alphabets with case keep it.

use crate::error::Error;
use crate::json::Value;
use crate::text::fold_case;
use crate::to_json::{JsonWriter, ToJson};

/// The benchmarks of the paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dataset {
    /// Multi-hop questions over Wikipedia, answered with a short span (exact match and F1).
    HotpotQa,
    /// Claims to verify against Wikipedia: SUPPORTS, REFUTES or NOT ENOUGH INFO (accuracy).
    Fever,
}

impl Dataset {
    /// `hotpotqa` or `fever` (any case).
    pub fn from_name(name: &str) -> Option<Dataset> {
        match name.trim().to_ascii_lowercase().as_str() {
            "hotpotqa" | "hotpot" => Some(Dataset::HotpotQa),
            "fever" => Some(Dataset::Fever),
            _ => None,
        }
    }
}

/// The score of one answer. For FEVER both are the label's accuracy, 0 or 1.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    /// Exact match after normalisation: 0 or 1.
    pub em: f64,
    /// Token F1 after normalisation, from 0 to 1.
    pub f1: f64,
}

/// Scores `prediction` against `gold` as the paper does; no prediction (the run ended without
/// an answer) scores 0, as in the paper's `get_reward`.
pub fn score(dataset: Dataset, prediction: Option<&str>, gold: &str) -> Score {
    let Some(prediction) = prediction else {
        return Score::default();
    };
    match dataset {
        Dataset::HotpotQa => Score {
            em: f64::from(u8::from(exact_match(prediction, gold))),
            f1: f1(prediction, gold),
        },
        Dataset::Fever => {
            let right = f64::from(u8::from(fever_correct(prediction, gold)));
            Score {
                em: right,
                f1: right,
            }
        }
    }
}

/// HotpotQA's `normalize_answer`: lower case, without ASCII punctuation (Python's
/// `string.punctuation`), without the words `a`, `an`, `the`, and with runs of white space as
/// one space.
pub fn normalize_answer(s: &str) -> String {
    // lower, then remove_punc
    let text: String = s
        .chars()
        .map(fold_case)
        .filter(|c| !c.is_ascii_punctuation())
        .collect();
    // remove_articles: `re.sub(r'\b(a|an|the)\b', ' ', text)`. A match with a word boundary on
    // both sides is a whole run of word characters, so the runs are compared whole.
    let mut without = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(c) = rest.chars().next() {
        let word = is_word(c);
        let end = rest
            .find(|c: char| is_word(c) != word)
            .unwrap_or(rest.len());
        let (run, after) = rest.split_at(end);
        match word && matches!(run, "a" | "an" | "the") {
            true => without.push(' '),
            false => without.push_str(run),
        }
        rest = after;
    }
    // white_space_fix: `' '.join(text.split())`
    let words: Vec<&str> = without.split(is_space).filter(|w| !w.is_empty()).collect();
    words.join(" ")
}

/// A character of `\w` in Python's regular expressions over text: a letter, a digit or `_`.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// White space as Python's `str.split()` sees it (Unicode's, and the separators \x1c-\x1f).
fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// HotpotQA's `exact_match_score`: the normalised answers are equal.
pub fn exact_match(prediction: &str, gold: &str) -> bool {
    normalize_answer(prediction) == normalize_answer(gold)
}

/// HotpotQA's `f1_score`: the harmonic mean of the precision and recall of the normalised
/// tokens, counted with their multiplicity. A yes/no question is all or nothing: when either
/// side is `yes`, `no` or `noanswer` and they differ, F1 is 0.
pub fn f1(prediction: &str, gold: &str) -> f64 {
    let (prediction, gold) = (normalize_answer(prediction), normalize_answer(gold));
    let special = |s: &str| matches!(s, "yes" | "no" | "noanswer");
    if (special(&prediction) || special(&gold)) && prediction != gold {
        return 0.0;
    }
    let predicted: Vec<&str> = prediction.split(' ').filter(|w| !w.is_empty()).collect();
    let mut wanted: Vec<&str> = gold.split(' ').filter(|w| !w.is_empty()).collect();
    let gold_len = wanted.len();
    // `Counter(prediction) & Counter(gold)`: each predicted token uses up one gold token.
    let mut same = 0usize;
    for token in &predicted {
        if let Some(at) = wanted.iter().position(|w| w == token) {
            wanted.swap_remove(at);
            same += 1;
        }
    }
    if same == 0 {
        return 0.0;
    }
    let precision = same as f64 / predicted.len() as f64;
    let recall = same as f64 / gold_len as f64;
    2.0 * precision * recall / (precision + recall)
}

/// The FEVER labels.
pub const FEVER_LABELS: [&str; 3] = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"];

/// The FEVER label a model's answer names: the label itself in any case (`supports`), the
/// paper's action around it (`Finish[SUPPORTS]`), a stop or quotes around it, or a close
/// spelling (`supported`, `refuted`, `not enough information`, `NEI`). `None` for anything
/// else: a sentence about the claim is not a label.
pub fn fever_label(answer: &str) -> Option<&'static str> {
    let mut text = answer.trim();
    let finish = text
        .get(..7)
        .is_some_and(|s| s.eq_ignore_ascii_case("finish["));
    if finish && text.ends_with(']') {
        text = &text[7..text.len() - 1];
    }
    match normalize_answer(text).as_str() {
        "supports" | "support" | "supported" => Some(FEVER_LABELS[0]),
        "refutes" | "refute" | "refuted" => Some(FEVER_LABELS[1]),
        "not enough info" | "not enough information" | "nei" | "notenoughinfo" => {
            Some(FEVER_LABELS[2])
        }
        _ => None,
    }
}

/// Whether `prediction` gives FEVER's `label`: the paper's test (the normalised answers are
/// equal), or both name the same label by [`fever_label`]'s spellings.
pub fn fever_correct(prediction: &str, label: &str) -> bool {
    exact_match(prediction, label)
        || fever_label(prediction).is_some_and(|l| Some(l) == fever_label(label))
}

/// The majority answer of several samples (the paper's CoT-SC).
#[derive(Clone, Debug, PartialEq)]
pub struct Vote {
    /// The winning answer, as its first sample spelled it.
    pub answer: String,
    /// How many samples gave it (compared after normalisation).
    pub count: usize,
    /// How many samples there were, those without an answer included.
    pub of: usize,
}

impl Vote {
    /// Whether the winner has less than `min_share` of the samples. The paper backs off from
    /// CoT-SC to ReAct when "the majority answer among n CoT-SC samples occurs less than n/2
    /// times": that is `is_weak(0.5)`.
    pub fn is_weak(&self, min_share: f64) -> bool {
        (self.count as f64) < min_share * self.of as f64
    }
}

/// The most frequent of `answers`, compared after [`normalize_answer`] (so `The Beatles` and
/// `beatles` are one vote); a tie goes to the answer given first. Empty answers (a sample that
/// gave none) count in [`Vote::of`] but cannot win; `None` when no sample answered.
pub fn vote(answers: &[&str]) -> Option<Vote> {
    // (normalised, first spelling, count), in order of first appearance.
    let mut tally: Vec<(String, &str, usize)> = Vec::new();
    for answer in answers {
        let key = normalize_answer(answer);
        if key.is_empty() {
            continue;
        }
        match tally.iter_mut().find(|(k, _, _)| *k == key) {
            Some(entry) => entry.2 += 1,
            None => tally.push((key, answer.trim(), 1)),
        }
    }
    // The first of the largest: `max_by_key` would keep the last of equals.
    let mut best: Option<&(String, &str, usize)> = None;
    for entry in &tally {
        if best.is_none_or(|b| entry.2 > b.2) {
            best = Some(entry);
        }
    }
    best.map(|(_, answer, count)| Vote {
        answer: answer.to_string(),
        count: *count,
        of: answers.len(),
    })
}

/// The indices of the paper's sample: `idxs = list(range(total));
/// random.Random(seed).shuffle(idxs); idxs[:n]` (the paper: seed 233, n 500, over HotpotQA's
/// 7,405 dev questions and FEVER's 9,999 dev claims).
pub fn paper_sample(total: usize, seed: u32, n: usize) -> Vec<usize> {
    let mut idxs: Vec<usize> = (0..total).collect();
    let mut random = MersenneTwister::python(seed);
    // `for i in reversed(range(1, len(x))): j = _randbelow(i + 1); x[i], x[j] = x[j], x[i]`
    for i in (1..total).rev() {
        let j = random.below(i as u64 + 1) as usize;
        idxs.swap(i, j);
    }
    idxs.truncate(n);
    idxs
}

/// What one of the paper's functions computed, as JavaScript is given it: a score `{em, f1}`,
/// a vote `{answer, count, of}` (or `null`), or a sample's indices.
#[derive(Clone, Debug, PartialEq)]
pub enum Computed {
    /// [`score`]'s.
    Score(Score),
    /// [`vote`]'s.
    Vote(Option<Vote>),
    /// [`paper_sample`]'s.
    Sample(Vec<usize>),
}

/// The paper's function `name` (`scoreAnswer`, `vote`, else `paperSample`) on `args`, the list
/// of its arguments as JSON (JS calls it so: the built-in tools' module exports it). An argument
/// that is not a string is none (a sample that is not a string is one without an answer); a
/// number that is not one is 0.
pub fn paper(name: &str, args: &Value) -> Result<Computed, Error> {
    let text = |i: usize| args[i].as_str();
    match name {
        "scoreAnswer" => {
            let dataset = text(0).unwrap_or_default();
            let dataset = Dataset::from_name(dataset).ok_or_else(|| {
                Error::config(format!(
                    "unknown dataset \"{dataset}\"; use \"hotpotqa\" or \"fever\""
                ))
            })?;
            let s = score(dataset, text(1), text(2).unwrap_or_default());
            Ok(Computed::Score(s))
        }
        "vote" => {
            let list = args[0].as_array().map(Vec::as_slice).unwrap_or_default();
            let answers: Vec<&str> = list.iter().map(|a| a.as_str().unwrap_or("")).collect();
            Ok(Computed::Vote(vote(&answers)))
        }
        _ => {
            let number = |i: usize| args[i].as_f64().map_or(0, |n| n as usize);
            Ok(Computed::Sample(paper_sample(number(0), 233, number(1))))
        }
    }
}

impl ToJson for Computed {
    fn write_json(&self, out: &mut JsonWriter) {
        match self {
            Computed::Score(s) => out.object(&[("em", &s.em), ("f1", &s.f1)]),
            Computed::Vote(None) => out.null(),
            Computed::Vote(Some(v)) => {
                let (count, of) = (v.count as u64, v.of as u64);
                out.object(&[("answer", &v.answer), ("count", &count), ("of", &of)]);
            }
            Computed::Sample(indices) => {
                let indices: Vec<u64> = indices.iter().map(|&i| i as u64).collect();
                indices.write_json(out);
            }
        }
    }
}

/// MT19937, the generator behind Python's `random` (CPython's `_randommodule.c`).
struct MersenneTwister {
    state: [u32; 624],
    next: usize,
}

impl MersenneTwister {
    /// The generator of `random.Random(seed)`: a non-negative int seeds `init_by_array` with
    /// its 32-bit words, least significant first, which for a `u32` is the one word `[seed]`.
    fn python(seed: u32) -> Self {
        let mut mt = MersenneTwister::new(19650218);
        let key = [seed];
        let n = 624;
        let (mut i, mut j) = (1, 0);
        for _ in 0..n.max(key.len()) {
            let previous = mt.state[i - 1] ^ (mt.state[i - 1] >> 30);
            mt.state[i] = (mt.state[i] ^ previous.wrapping_mul(1664525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            (i, j) = (i + 1, (j + 1) % key.len());
            if i >= n {
                mt.state[0] = mt.state[n - 1];
                i = 1;
            }
        }
        for _ in 0..n - 1 {
            let previous = mt.state[i - 1] ^ (mt.state[i - 1] >> 30);
            mt.state[i] = (mt.state[i] ^ previous.wrapping_mul(1566083941)).wrapping_sub(i as u32);
            i += 1;
            if i >= n {
                mt.state[0] = mt.state[n - 1];
                i = 1;
            }
        }
        mt.state[0] = 0x8000_0000;
        mt
    }

    /// `init_genrand(s)`.
    fn new(seed: u32) -> Self {
        let mut state = [0u32; 624];
        state[0] = seed;
        for i in 1..624 {
            let previous = state[i - 1] ^ (state[i - 1] >> 30);
            state[i] = 1812433253u32.wrapping_mul(previous).wrapping_add(i as u32);
        }
        MersenneTwister { state, next: 624 }
    }

    /// `genrand_uint32()`: the next 32 random bits.
    fn next_u32(&mut self) -> u32 {
        if self.next >= 624 {
            for k in 0..624 {
                let y = (self.state[k] & 0x8000_0000) | (self.state[(k + 1) % 624] & 0x7fff_ffff);
                let odd = if y & 1 == 1 { 0x9908_b0df } else { 0 };
                self.state[k] = self.state[(k + 397) % 624] ^ (y >> 1) ^ odd;
            }
            self.next = 0;
        }
        let mut y = self.state[self.next];
        self.next += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)` for `k` up to 64: 32-bit words from the least significant, the last
    /// one keeping only its top bits.
    fn bits(&mut self, k: u32) -> u64 {
        let (mut value, mut left, mut shift) = (0u64, k, 0);
        while left > 0 {
            let mut word = self.next_u32();
            if left < 32 {
                word >>= 32 - left;
            }
            value |= u64::from(word) << shift;
            left = left.saturating_sub(32);
            shift += 32;
        }
        value
    }

    /// `_randbelow(n)`: `getrandbits(n.bit_length())` until it is below `n`.
    fn below(&mut self, n: u64) -> u64 {
        let k = u64::BITS - n.leading_zeros();
        loop {
            let r = self.bits(k);
            if r < n {
                return r;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Python's `[random.Random(233).getrandbits(32) for _ in range(3)]`.
    #[test]
    fn the_generator_is_pythons() {
        let mut random = MersenneTwister::python(233);
        let words: Vec<u32> = (0..3).map(|_| random.next_u32()).collect();
        assert_eq!(words, [2931216007, 3446561803, 2698614761]);
    }
}
