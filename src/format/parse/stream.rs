//! The streaming reader: [`StreamParser`] takes the reply in chunks split anywhere and
//! classifies each line once, when its newline arrives.
//!
//! It keeps the decoded text and one [`Line`] record per complete line (a label, a fence, a
//! bare label stub, or body text, and whether it sits inside a code fence). Two things happen
//! while the reply streams: the live events are updated (`events.rs`), and, once an action has
//! begun, a line that starts an `Observation` label cuts the reply there, because the model is
//! inventing the tool's answer. The unfinished last line is only probed for that label, within
//! `LABEL_WINDOW` bytes, so a long line is never rescanned. The verdict is read once, in
//! [`StreamParser::finish`], from the recorded lines (`resolve.rs`).

use super::events::{Record, Tracker};
use super::head::{clean_name, is_none_name};
use super::labels::{is_fence_line, keywords_for, probe, Keywords, Label, Probe, LABEL_WINDOW};
use super::resolve::resolve;
use super::{sub, trim_start, ParseEvent, ParseOptions, Parsed};

/// What a complete line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LineKind {
    /// Text: thought, an input, an answer.
    Body,
    /// A bare label keyword without its colon (`Action 2`): a sign of a truncated reply.
    Stub,
    /// A code fence that opens.
    FenceOpen,
    /// A code fence that closes.
    FenceClose,
    /// A label; the content starts at this absolute byte offset.
    Label(Label, usize),
}

/// One complete line of the reply, classified when its newline arrived: the record the
/// verdict (`resolve.rs`) and the live events (`events.rs`) read.
#[derive(Clone, Copy, Debug)]
pub(super) struct Line {
    /// Offset of the first byte.
    pub(super) start: usize,
    /// Offset after the last byte of content (before `\r\n` / `\n`).
    pub(super) end: usize,
    /// What the line is.
    pub(super) kind: LineKind,
    /// Inside a code fence (fence lines included): labels and blank lines mean nothing here.
    pub(super) fenced: bool,
}

/// Reads a streamed reply incrementally; see the module documentation.
pub struct StreamParser {
    options: ParseOptions,
    keywords: Keywords,
    /// The decoded text kept so far.
    text: String,
    /// The bytes of a UTF-8 character split across chunks.
    utf8_tail: Vec<u8>,
    /// Start of the unfinished last line.
    line_start: usize,
    /// The unfinished last line is known not to start an Observation label.
    line_decided: bool,
    lines: Vec<Line>,
    in_fence: bool,
    /// An action has begun, so a following `Observation` is the model inventing one.
    action_seen: bool,
    cut: Option<usize>,
    /// The first action, followed for the live events.
    tracker: Tracker,
    work: u64,
}

impl StreamParser {
    /// A parser for one reply.
    pub fn new(options: ParseOptions) -> Self {
        StreamParser {
            keywords: keywords_for(&options),
            options,
            text: String::new(),
            utf8_tail: Vec::new(),
            line_start: 0,
            line_decided: false,
            lines: Vec::new(),
            in_fence: false,
            action_seen: false,
            cut: None,
            tracker: Tracker::new(),
            work: 0,
        }
    }

    /// Feed the next streamed bytes. Chunks may split anywhere, including inside a multi-byte
    /// UTF-8 character (the incomplete sequence is buffered; invalid UTF-8 becomes U+FFFD).
    /// Returns events newly known. After a Cut, further input is ignored.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<ParseEvent> {
        let mut events = Vec::new();
        if self.cut.is_none() {
            self.push_bytes(bytes, &mut events);
            // (The cut ends what this push found.)
            events.extend(self.cut.map(|at| ParseEvent::Cut { at }));
        }
        events
    }

    fn push_bytes(&mut self, bytes: &[u8], events: &mut Vec<ParseEvent>) {
        // The usual chunk: whole characters, none waiting for the rest of theirs.
        if let (true, Ok(text)) = (self.utf8_tail.is_empty(), std::str::from_utf8(bytes)) {
            self.work += bytes.len() as u64;
            return self.push_decoded(text, events);
        }
        let mut joined = std::mem::take(&mut self.utf8_tail);
        joined.extend_from_slice(bytes);
        self.work += joined.len() as u64;
        let mut rest: &[u8] = &joined;
        let mut decoded = String::new();
        loop {
            match std::str::from_utf8(rest) {
                Ok(s) => {
                    decoded.push_str(s);
                    break;
                }
                Err(e) => {
                    let (good, bad) = rest.split_at(e.valid_up_to());
                    decoded.push_str(std::str::from_utf8(good).unwrap_or(""));
                    match e.error_len() {
                        // A character split across chunks: keep its first bytes for later.
                        None => {
                            self.utf8_tail = bad.to_vec();
                            break;
                        }
                        Some(n) => {
                            decoded.push('\u{FFFD}');
                            rest = bad.get(n..).unwrap_or(&[]);
                        }
                    }
                }
            }
        }
        self.push_decoded(&decoded, events)
    }

    /// Feed the next streamed text.
    pub fn push_str(&mut self, s: &str) -> Vec<ParseEvent> {
        self.push(s.as_bytes())
    }

    /// True once a hallucinated Observation was found and the rest of the stream is ignored.
    pub fn is_cut(&self) -> bool {
        self.cut.is_some()
    }

    /// The text kept so far (up to the cut, if any).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// How many bytes the parser has examined so far: a work counter, so that tests can check
    /// that streaming stays linear in the length of the reply however it is chunked.
    pub fn bytes_examined(&self) -> u64 {
        self.work + self.tracker.work()
    }

    /// End of stream: the verdict for everything pushed.
    pub fn finish(mut self) -> Parsed {
        // (The events of what is left would come too late to show: they are dropped.)
        let late = &mut Vec::new();
        if self.cut.is_none() {
            self.end_split_character(late);
            if self.cut.is_none() && self.line_start < self.text.len() {
                self.complete_line(self.line_start, self.text.len(), late);
            }
        }
        let mut parsed = resolve(&self.text, &self.lines, &self.options);
        if let Some(at) = self.cut {
            parsed
                .notes
                .insert(0, format!("cut at a hallucinated Observation (byte {at})"));
            parsed.cut_at = Some(at);
        }
        parsed
    }

    /// The first bytes of a character that `push` kept for the rest of it, when no rest will
    /// come: U+FFFD, as for any invalid UTF-8.
    fn end_split_character(&mut self, events: &mut Vec<ParseEvent>) {
        if !self.utf8_tail.is_empty() && self.cut.is_none() {
            self.utf8_tail.clear();
            self.push_decoded("\u{FFFD}", events);
        }
    }

    fn push_decoded(&mut self, decoded: &str, events: &mut Vec<ParseEvent>) {
        let mut pos = self.text.len();
        self.text.push_str(decoded);
        // Only the new bytes are searched for newlines: each byte is looked at once here.
        while let Some(nl) = self.text.get(pos..).and_then(|s| s.find('\n')) {
            let end = pos + nl;
            self.complete_line(self.line_start, end, events);
            if self.cut.is_some() {
                return;
            }
            self.line_start = end + 1;
            self.line_decided = false;
            pos = end + 1;
        }
        // The unfinished last line: can it already be seen to start an Observation label?
        if !self.line_decided && self.can_cut() {
            let line = sub(&self.text, self.line_start, self.text.len());
            self.work += line.len().min(LABEL_WINDOW) as u64;
            // A fence line is never a label, whatever follows its backticks (```Observation:);
            // found by `make fuzz`, where only a stream split inside the line cut there.
            match probe(line, &self.keywords) {
                _ if is_fence_line(line) => self.line_decided = true,
                Probe::Label(Label::Observation, _) => self.cut_here(self.line_start, events),
                Probe::More { .. } => {}
                _ => self.line_decided = true,
            }
        }
    }

    fn can_cut(&self) -> bool {
        self.action_seen && !self.in_fence
    }

    /// Classifies the line `[start, end)` (its newline, if any, is at `end`).
    fn complete_line(&mut self, start: usize, end: usize, events: &mut Vec<ParseEvent>) {
        let raw = sub(&self.text, start, end);
        let end = if raw.ends_with('\r') { end - 1 } else { end };
        let line = sub(&self.text, start, end);
        self.work += line.len() as u64;
        let was_fenced = self.in_fence;
        let kind = if is_fence_line(line) {
            self.in_fence = !self.in_fence;
            if was_fenced {
                LineKind::FenceClose
            } else {
                LineKind::FenceOpen
            }
        } else if was_fenced {
            LineKind::Body
        } else {
            match probe(line, &self.keywords) {
                Probe::Label(label, content) => {
                    // `Action Input: ```json` opens a fence on the label's own line.
                    let rest = sub(line, content, line.len());
                    if rest.contains('`') && rest.matches("```").count() % 2 == 1 {
                        self.in_fence = true;
                    }
                    LineKind::Label(label, start + content)
                }
                Probe::More { keyword: true } => LineKind::Stub,
                _ => LineKind::Body,
            }
        };
        if let LineKind::Label(Label::Observation, _) = kind {
            if self.action_seen && !was_fenced {
                self.cut_here(start, events);
                return;
            }
        }
        self.lines.push(Line {
            start,
            end,
            kind,
            fenced: was_fenced || matches!(kind, LineKind::FenceOpen | LineKind::FenceClose),
        });
        self.note_action(kind, start, end, was_fenced);
        let seen = Record {
            text: &self.text,
            lines: &self.lines,
            options: &self.options,
            action_seen: self.action_seen,
        };
        self.tracker.line(&seen, events);
    }

    /// Remembers whether an action has begun (the precondition for cutting).
    fn note_action(&mut self, kind: LineKind, start: usize, end: usize, was_fenced: bool) {
        let line = sub(&self.text, start, end);
        let begins_action = match kind {
            // `Action: None` is the model saying it has nothing to do: not an action.
            LineKind::Label(Label::Action, content) => {
                !is_none_name(clean_name(sub(&self.text, content, end)))
            }
            // A fenced JSON blob with an "action" key.
            LineKind::FenceClose => {
                let open = self.fence_open_before(self.lines.len().saturating_sub(1));
                let inner = open.map_or("", |o| sub(&self.text, self.lines[o].end, start));
                self.work += inner.len() as u64;
                inner.contains("\"action\"")
            }
            // A bare one-line blob.
            _ => !was_fenced && trim_start(line).starts_with("{\"action\""),
        };
        self.action_seen |= begins_action;
    }

    /// The index of the line that opened the fence closed at line `close`.
    fn fence_open_before(&self, close: usize) -> Option<usize> {
        self.lines
            .get(..close)?
            .iter()
            .rposition(|l| !l.fenced || l.kind == LineKind::FenceOpen)
    }

    fn cut_here(&mut self, at: usize, events: &mut Vec<ParseEvent>) {
        let seen = Record {
            text: &self.text,
            lines: &self.lines,
            options: &self.options,
            action_seen: self.action_seen,
        };
        self.tracker.cut(&seen, events);
        self.cut = Some(at);
        self.text.truncate(at);
        self.utf8_tail.clear();
    }
}
