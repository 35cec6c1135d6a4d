//! The verdict: reading the recorded lines once, in order, to decide what the model meant.
//!
//! The lines are grouped into blocks, one per label (text before the first label is a block
//! too). [`Reader::read`] walks the blocks and applies the ordering rules: the first complete
//! action wins, a final answer before any action wins, an action followed by a final answer
//! stands only when its input has a clear end, `Action: None` and incomplete actions give way
//! to a later action, and when nothing usable is found the error says what was missing. How
//! one action is read lives in `action.rs` and `blob.rs`; the thought is gathered here.

use super::labels::Label;
use super::stream::{Line, LineKind};
use super::{messages, prose};
use super::{sub, trim, ParseOptions, Parsed, Style, Verdict, Why};
use crate::json::Value;

/// A stretch of the reply that starts at a label (or at the start of the reply).
#[derive(Clone, Copy, Debug)]
pub(super) struct Block {
    /// The label it starts with (`None` for the text before the first label).
    pub(super) label: Option<Label>,
    /// Index of its first line.
    pub(super) first: usize,
    /// Index after its last line.
    pub(super) last: usize,
    /// Offset where its content starts (after the label's colon).
    pub(super) content: usize,
    /// Offset of its first byte.
    pub(super) start: usize,
    /// Offset of the next block's first byte (or the end of the text).
    pub(super) end: usize,
}

fn blocks_of(text: &str, lines: &[Line]) -> Vec<Block> {
    let labels = lines
        .iter()
        .filter(|l| matches!(l.kind, LineKind::Label(..)));
    let mut blocks = Vec::with_capacity(1 + labels.count());
    blocks.push(Block {
        label: None,
        first: 0,
        last: lines.len(),
        content: 0,
        start: 0,
        end: text.len(),
    });
    for (i, line) in lines.iter().enumerate() {
        if let LineKind::Label(label, content) = line.kind {
            if let Some(prev) = blocks.last_mut() {
                prev.last = i;
                prev.end = line.start;
            }
            blocks.push(Block {
                label: Some(label),
                first: i,
                last: lines.len(),
                content,
                start: line.start,
                end: text.len(),
            });
        }
    }
    blocks
}

/// The thought: text before the first label and the content of `Thought` labels, up to the
/// byte offset `upto_byte`, its parts joined by line breaks.
pub(super) fn collect_thought(text: &str, lines: &[Line], upto_byte: usize) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let mut current: Option<Label> = None;
    for line in lines {
        if line.start >= upto_byte {
            break;
        }
        let end = line.end.min(upto_byte);
        match line.kind {
            LineKind::Label(label, content) => {
                current = Some(label);
                if label == Label::Thought {
                    parts.push(sub(text, content.min(end), end));
                }
            }
            _ if matches!(current, None | Some(Label::Thought)) => {
                parts.push(sub(text, line.start, end))
            }
            _ => {}
        }
    }
    trim(&parts.join("\n")).to_string()
}

/// What reading one action (or blob) gave.
pub(super) enum Step {
    /// A tool call; `next` is the first block after what the call consumed.
    Call {
        tool: String,
        input: Value,
        delimited: bool,
        next: usize,
    },
    /// `Finish[x]`, `Action: Final Answer` or a `"Final Answer"` blob.
    Answer { answer: String, next: usize },
    /// `Action: None`.
    Skip { next: usize },
    /// Something was wrong; a `decisive` failure ends the reading, others let a later action
    /// stand in.
    Fail {
        why: Why,
        message: String,
        next: usize,
        decisive: bool,
    },
}

/// Replaces a step's `next` block index.
pub(super) fn with_next(step: Step, next: usize) -> Step {
    match step {
        Step::Call {
            tool,
            input,
            delimited,
            ..
        } => Step::Call {
            tool,
            input,
            delimited,
            next,
        },
        Step::Answer { answer, .. } => Step::Answer { answer, next },
        Step::Skip { .. } => Step::Skip { next },
        Step::Fail {
            why,
            message,
            decisive,
            ..
        } => Step::Fail {
            why,
            message,
            next,
            decisive,
        },
    }
}

/// Reads one reply's recorded lines; its methods are spread over `resolve.rs` (the order of
/// things), `action.rs` (one action) and `blob.rs` (JSON blobs).
pub(super) struct Reader<'a> {
    /// The reply's text (up to the cut, if any).
    pub(super) text: &'a str,
    /// Its complete lines.
    pub(super) lines: &'a [Line],
    /// What the prompt asked for.
    pub(super) options: &'a ParseOptions,
    /// The lines grouped by label.
    pub(super) blocks: Vec<Block>,
    /// What the reader should know about the reading (see [`Parsed::notes`]).
    pub(super) notes: Vec<String>,
}

/// The verdict for the recorded `lines` of `text`.
pub(super) fn resolve(text: &str, lines: &[Line], options: &ParseOptions) -> Parsed {
    let mut reader = Reader::new(text, lines, options);
    let verdict = reader.read();
    Parsed {
        verdict,
        notes: reader.notes,
        cut_at: None,
    }
}

impl<'a> Reader<'a> {
    fn new(text: &'a str, lines: &'a [Line], options: &'a ParseOptions) -> Self {
        Reader {
            text,
            lines,
            options,
            blocks: blocks_of(text, lines),
            notes: Vec::new(),
        }
    }

    /// One pass over the blocks: the first decisive thing is the next step.
    fn read(&mut self) -> Verdict {
        let mut first_fail: Option<(Why, String)> = None;
        let mut skipped_fails = 0;
        let mut nones = 0;
        let mut bare_json_ok = true;
        let mut b = 0;
        while b < self.blocks.len() {
            let blk = self.blocks[b];
            let (step, at) = match blk.label {
                None | Some(Label::Thought) => match self.find_blob(b, &mut bare_json_ok) {
                    Some(found) => found,
                    None => {
                        b += 1;
                        continue;
                    }
                },
                Some(Label::Observation) => {
                    b += 1;
                    continue;
                }
                Some(Label::ActionInput) => {
                    if first_fail.is_none() {
                        first_fail = Some((
                            Why::MissingAction,
                            self.message_for(
                                "Your reply had an `Action Input:` line but no `Action:` line \
                                 naming the tool before it.",
                            ),
                        ));
                    }
                    b += 1;
                    continue;
                }
                Some(Label::Final) => {
                    if skipped_fails > 0 {
                        self.notes
                            .push("ignored an incomplete action before the final answer".into());
                    }
                    return self.final_answer(b);
                }
                Some(Label::Action) => (self.read_action(b), blk.start),
            };
            // The thought is collected only for the step that decides (collecting it for
            // every skipped `Action: None` would make the reading quadratic).
            let thought = || collect_thought(self.text, self.lines, at);
            match step {
                Step::Skip { next } => {
                    nones += 1;
                    b = next.max(b + 1);
                }
                Step::Fail {
                    why,
                    message,
                    next,
                    decisive,
                } => {
                    if decisive {
                        return Verdict::Error {
                            thought: thought(),
                            why,
                            message,
                        };
                    }
                    if first_fail.is_none() {
                        first_fail = Some((why, message));
                    }
                    skipped_fails += 1;
                    b = next.max(b + 1);
                }
                Step::Answer { answer, next } => {
                    self.note_after_final(next);
                    return Verdict::Final {
                        thought: thought(),
                        answer,
                    };
                }
                Step::Call {
                    tool,
                    input,
                    delimited,
                    next,
                } => {
                    let later = self.blocks.get(next..).unwrap_or(&[]);
                    let later_final = later.iter().any(|k| k.label == Some(Label::Final));
                    if later_final && !delimited {
                        // LangChain's rule, kept on purpose: a plain-text input has no clear
                        // end, so "action, then final answer" could be either. (An invented
                        // Observation between them cuts the reply before the final answer is
                        // seen, whole or streamed, and then the action stands: a departure
                        // from LangChain, which reads that as this error too.)
                        return Verdict::Error {
                            thought: thought(),
                            why: Why::ActionAndFinal,
                            message: self.message_for(
                                "Your reply had both an action and a final answer, so it is \
                                 unclear which you meant. Give one: an action (then wait for its \
                                 Observation), or the final answer.",
                            ),
                        };
                    }
                    if nones > 0 {
                        let s = if nones == 1 { "" } else { "s" };
                        self.notes
                            .push(format!("ignored {nones} `Action: None` line{s}"));
                    }
                    if skipped_fails > 0 {
                        self.notes
                            .push("ignored an incomplete action before this one".into());
                    }
                    let more = later
                        .iter()
                        .filter(|k| k.label == Some(Label::Action))
                        .count();
                    if more > 0 {
                        let s = if more == 1 { "" } else { "s" };
                        self.notes.push(format!("ignored {more} more action{s}"));
                    }
                    if later.iter().any(|k| k.label == Some(Label::Observation)) {
                        self.notes
                            .push("ignored a hallucinated Observation after the action".into());
                    }
                    if later_final {
                        self.notes
                            .push("ignored a final answer after the action".into());
                    }
                    return Verdict::Action {
                        thought: thought(),
                        tool,
                        input,
                    };
                }
            }
        }
        let thought = collect_thought(self.text, self.lines, usize::MAX);
        let (why, message) = if let Some(fail) = first_fail {
            fail
        } else if let Some(stub) = self.trailing_stub() {
            (
                Why::Truncated,
                self.message_for(&format!(
                    "Your reply was cut off in the middle of `{stub}`."
                )),
            )
        } else if nones > 0 {
            (
                Why::ActionNone,
                self.message_for(
                    "Your reply said `Action: None`. Every reply must either call a tool or give \
                     the final answer.",
                ),
            )
        } else if trim(self.text).is_empty() {
            (Why::Empty, self.message_for("Your reply was empty."))
        } else if self.options.prose_is_answer
            && prose::is_answer(self.text, self.lines, self.options)
        {
            self.notes
                .push("read a reply without labels as the final answer".into());
            return Verdict::Final {
                thought: String::new(),
                answer: trim(self.text).to_string(),
            };
        } else {
            let label = match self.options.style {
                _ if self.options.answers_only() => messages::answer_label(self.options),
                Style::Paper => "Action n:",
                _ => "Action:",
            };
            (
                Why::NoAction,
                self.message_for(&format!("Your reply had no `{label}` line.")),
            )
        };
        Verdict::Error {
            thought,
            why,
            message,
        }
    }

    /// The last non-blank line, when it is a label keyword without its colon.
    fn trailing_stub(&self) -> Option<&'a str> {
        let last = self
            .lines
            .iter()
            .rev()
            .find(|l| !trim(sub(self.text, l.start, l.end)).is_empty())?;
        (last.kind == LineKind::Stub).then(|| trim(sub(self.text, last.start, last.end)))
    }

    fn final_answer(&mut self, b: usize) -> Verdict {
        let blk = self.blocks[b];
        let thought = collect_thought(self.text, self.lines, blk.start);
        let answer = trim(sub(self.text, blk.content, blk.end)).to_string();
        if answer.is_empty() {
            let (why, what) = if blk.end >= self.text.len() {
                (
                    Why::Truncated,
                    "Your reply ended right after the final-answer label.",
                )
            } else {
                (
                    Why::EmptyAnswer,
                    "Your final-answer label had no answer after it.",
                )
            };
            return Verdict::Error {
                thought,
                why,
                message: self.message_for(what),
            };
        }
        self.note_after_final(b + 1);
        Verdict::Final { thought, answer }
    }

    fn note_after_final(&mut self, next: usize) {
        let later = self.blocks.get(next..).unwrap_or(&[]);
        let n = later
            .iter()
            .filter(|k| k.label == Some(Label::Action))
            .count();
        if n > 0 {
            let s = if n == 1 { "" } else { "s" };
            self.notes
                .push(format!("ignored {n} action{s} after the final answer"));
        }
    }

    /// Index of the first block starting at or after byte `at`.
    pub(super) fn block_from(&self, at: usize) -> usize {
        self.blocks.partition_point(|k| k.start < at)
    }

    /// Index of the line containing byte `at`.
    pub(super) fn line_at(&self, at: usize) -> usize {
        self.lines
            .partition_point(|l| l.end < at)
            .min(self.lines.len().saturating_sub(1))
    }

    /// Index of the first fence line after line `from` (the closing fence of one opened there).
    pub(super) fn fence_close_after(&self, from: usize) -> Option<usize> {
        (from + 1..self.lines.len()).find(|&i| {
            matches!(
                self.lines[i].kind,
                LineKind::FenceClose | LineKind::FenceOpen
            )
        })
    }

    /// An error message for the model: what was wrong, then the format to use.
    pub(super) fn message_for(&self, what: &str) -> String {
        messages::message_for(self.options, what)
    }
}
