//! Reading a model's reply: the lenient, incremental ReAct output parser.
//!
//! A ReAct model answers each turn with a *thought* and then either an *action* (a tool name
//! and its input) or a *final answer*. Real models rarely write that in exactly the shape the
//! prompt asked for, so this parser reads the way a careful human would:
//!
//! * **Labels** (`Thought`, `Action`, `Action Input`, `Observation`, `Final Answer`, the
//!   prompt's own final-answer marker such as `AI:`, and the Chinese 思考 / 行动 / 动作 /
//!   行动输入 / 动作输入 / 观察 / 最终答案) are recognised at the start of a line, after any
//!   indentation and markdown decoration (`#`, `*`, `-`, `>`, bold, list bullets), in any case,
//!   with an optional step number (`Action 2:`) and an ASCII or full-width colon. Text before
//!   the first label is thought: prompts often end with `Thought:` and the model continues it.
//! * **Actions** come as `Action: tool` + `Action Input: x`, or `Action: tool[x]`,
//!   `tool(x)`, `tool: x`; the name may sit on a later line than the label. Brackets nest,
//!   so `Lookup[The Dark Tower (2017 film)]` is one input. An input that starts with `{` or
//!   `[` is exactly one JSON value; a fenced block is kept (as JSON when it holds JSON).
//!   A plain input runs to the next label or to a blank line.
//! * **JSON blobs** (`{"action": .., "action_input": ..}`, fenced or bare) are actions too, and
//!   `"action": "Final Answer"` is the final answer. `Finish[x]` is the paper's final answer.
//! * **Several things in one reply**: the first complete action wins and the rest is noted; a
//!   final answer that comes *before* any action wins. An action followed by a final answer is
//!   kept only when its input has a clear end (brackets, JSON, a fence); with a plain-text
//!   input the reply is ambiguous and reported as `action_and_final`.
//! * **Hallucinated observations**: a model without a server-side stop sequence invents the
//!   tool's answer. With [`ParseOptions::stop_at_observation`] the text is cut where an
//!   `Observation` label follows an action, and everything after it is never read.
//!
//! When the parser cannot tell what the model meant, the verdict is an error whose `message`
//! is written *to the model*: it says what was missing and shows the expected format for the
//! style, because it becomes the next observation (see `message_for`).
//!
//! **Why incremental.** Replies arrive as a stream of small deltas and the agent wants to stop
//! the stream the moment a hallucinated `Observation` begins. [`StreamParser`] therefore
//! classifies each line once, when its newline arrives, and looks at the unfinished last line
//! only to ask whether it starts an `Observation` label (at most `LABEL_WINDOW` bytes, so a
//! long line is never rescanned). The verdict itself is resolved once, in
//! [`StreamParser::finish`], in one pass over the recorded lines. Total work is linear in the
//! length of the reply whatever the chunking, and [`parse`] is simply "push everything, then
//! finish", so streamed and whole-text readings agree by construction.
//!
//! Nothing here panics on any input: slicing goes through `sub`, which returns `""` instead
//! of panicking on a bad range.

use serde_json::Value;

/// How far into a line a label may end (its colon included). Labels are short; bounding the
/// window keeps the check of an unfinished line constant-time per line.
const LABEL_WINDOW: usize = 80;

/// Which convention the prompt asked for. The parser accepts all of them in any style
/// (lenient); the style only decides defaults (e.g. the final-answer marker, whether
/// `Finish[x]` is expected) and the format shown in error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// LangChain's MRKL convention: `Thought:` / `Action:` / `Action Input:` / `Final Answer:`.
    Mrkl,
    /// The ReAct paper's convention: `Thought n:` / `Action n: Tool[input]` / `Finish[answer]`.
    Paper,
    /// A fenced JSON blob `{"action": .., "action_input": ..}` after `Action:`.
    Json,
}

impl Style {
    /// The style named `"mrkl"`, `"paper"` or `"json"` (any case), or `None`. The corpus's
    /// `"mixed"` (MRKL labels around JSON blobs) reads as `Json`, which accepts both.
    pub fn from_name(s: &str) -> Option<Style> {
        match s.trim().to_ascii_lowercase().as_str() {
            "mrkl" => Some(Style::Mrkl),
            "paper" => Some(Style::Paper),
            "json" | "mixed" => Some(Style::Json),
            _ => None,
        }
    }
}

/// What the parser should assume about the prompt the reply answers.
#[derive(Clone, Debug)]
pub struct ParseOptions {
    /// The prompt's convention.
    pub style: Style,
    /// The prompt's final-answer marker, e.g. "Final Answer:" (default for Mrkl/Json), "AI:",
    /// "Answer:", "Finish[...]" (Paper default: `Finish[x]`).
    pub final_marker: Option<String>,
    /// Known tool names, when the caller has them (None = unknown: accept any well-formed name).
    pub tools: Option<Vec<String>>,
    /// Stop reading at a hallucinated `Observation` label that follows an action (the paper's
    /// stop sequence, enforced client-side). The agent sets this true; `parse()` of a complete
    /// text for `tao parse` sets it false.
    pub stop_at_observation: bool,
}

impl ParseOptions {
    /// Options for `style` with no marker override, unknown tools, and the stop at
    /// `Observation` enabled.
    pub fn new(style: Style) -> Self {
        ParseOptions {
            style,
            final_marker: None,
            tools: None,
            stop_at_observation: true,
        }
    }
}

/// What the model meant as its next step.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The next step is a tool call. `input` is a JSON string for plain text, or the parsed
    /// JSON value.
    Action {
        /// The reasoning before the action.
        thought: String,
        /// The tool's name (the registered spelling when tools are known).
        tool: String,
        /// The tool's input.
        input: Value,
    },
    /// The model gave its final answer.
    Final {
        /// The reasoning before the answer.
        thought: String,
        /// The answer.
        answer: String,
    },
    /// The parser cannot tell what the model meant.
    Error {
        /// The reasoning the reply did contain.
        thought: String,
        /// A short code: no_action, missing_action_input, missing_action, action_none,
        /// action_and_final, truncated, empty, unknown_tool, bad_json, unclosed_bracket,
        /// empty_answer.
        why: String,
        /// Addressed to the model: what was missing, and the expected format.
        message: String,
    },
}

/// A verdict and what the reader should know about how it was reached.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    /// The next step.
    pub verdict: Verdict,
    /// Things the reader should know about the reading: "ignored a final answer after the
    /// action", "ignored 3 more actions", "cut at a hallucinated Observation", ...
    pub notes: Vec<String>,
    /// Byte offset where reading stopped because of a hallucinated Observation, if it did.
    /// It is an offset into [`StreamParser::text`], which equals the input offset unless the
    /// input held invalid UTF-8.
    pub cut_at: Option<usize>,
}

/// Events emitted while streaming, as soon as each thing is known.
///
/// They are early hints for a live display; the verdict from [`StreamParser::finish`] is
/// authoritative (for example a plain input is complete when the next label begins, but a
/// final answer after it turns the verdict into `action_and_final`).
#[derive(Clone, Debug, PartialEq)]
pub enum ParseEvent {
    /// The thought is complete (an action/final label began).
    Thought(String),
    /// The tool name is known.
    Action(String),
    /// The input is complete.
    ActionInput(Value),
    /// A hallucinated Observation began at byte `at`: the caller should abort the stream.
    Cut {
        /// Offset of the start of the Observation line.
        at: usize,
    },
}

// ---------------------------------------------------------------------------------------------
// Lines and labels
// ---------------------------------------------------------------------------------------------

/// The labels a line can start with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Label {
    Thought,
    Action,
    ActionInput,
    Observation,
    Final,
}

/// A label spelled as lowercase words; between words any spaces, `_`, `-` or a step number.
struct Keyword {
    words: Vec<String>,
    label: Label,
}

/// The labels every style understands, longest first where one is a prefix of another.
const BASE_KEYWORDS: &[(&str, Label)] = &[
    ("final answer", Label::Final),
    ("action input", Label::ActionInput),
    ("action", Label::Action),
    ("thought", Label::Thought),
    ("observation", Label::Observation),
    ("最终答案", Label::Final),
    ("行动输入", Label::ActionInput),
    ("动作输入", Label::ActionInput),
    ("行动", Label::Action),
    ("动作", Label::Action),
    ("思考", Label::Thought),
    ("观察", Label::Observation),
];

/// The configured final marker split into its bracket keyword (`Finish[...]` -> "finish") or
/// its label words (`AI:` -> ["ai"]).
///
/// The parts are folded with ASCII case rules, the same rules `probe_keyword` and `is_finish`
/// use on the reply, so a marker matches a reply spelled the way the marker is. (Full Unicode
/// `to_lowercase` would also pull ~12 KB of case tables into the wasm.)
fn marker_parts(options: &ParseOptions) -> (String, Option<Vec<String>>) {
    let marker = options.final_marker.as_deref().map(str::trim).unwrap_or("");
    if let Some(open) = marker.find('[') {
        let kw = marker.get(..open).unwrap_or("").trim().to_ascii_lowercase();
        let kw = if kw.is_empty() {
            "finish".to_string()
        } else {
            kw
        };
        return (kw, None);
    }
    let words: Vec<String> = marker
        .trim_end_matches([':', '：'])
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    let label = if words.is_empty() { None } else { Some(words) };
    ("finish".to_string(), label)
}

fn keywords_for(options: &ParseOptions) -> Vec<Keyword> {
    let mut out: Vec<Keyword> = BASE_KEYWORDS
        .iter()
        .map(|(w, label)| Keyword {
            words: w.split(' ').map(str::to_string).collect(),
            label: *label,
        })
        .collect();
    if let (_, Some(words)) = marker_parts(options) {
        if !out.iter().any(|k| k.words == words) {
            out.push(Keyword {
                words,
                label: Label::Final,
            });
        }
    }
    out
}

/// What the start of a line says about a label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Probe {
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
fn probe(line: &str, keywords: &[Keyword]) -> Probe {
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
    for kw in keywords {
        match probe_keyword(b, i, window, kw) {
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

fn probe_keyword(b: &[u8], start: usize, window: usize, kw: &Keyword) -> Probe {
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let mut p = start;
    for (n, word) in kw.words.iter().enumerate() {
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
    if kw.words.iter().all(|w| w.is_ascii()) && at(p).is_ascii_alphanumeric() {
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
    Probe::Label(kw.label, p.min(b.len()))
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
fn is_fence_line(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("```") || t.starts_with("~~~")
}

/// The substring `text[a..b]`, or `""` when the range is not valid (never panics).
fn sub(text: &str, a: usize, b: usize) -> &str {
    text.get(a..b).unwrap_or("")
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineKind {
    Body,
    /// A bare label keyword without its colon (`Action 2`): a sign of a truncated reply.
    Stub,
    FenceOpen,
    FenceClose,
    /// A label; the content starts at this absolute byte offset.
    Label(Label, usize),
}

/// One complete line of the reply, classified when its newline arrived.
#[derive(Clone, Copy, Debug)]
struct Line {
    /// Offset of the first byte.
    start: usize,
    /// Offset after the last byte of content (before `\r\n` / `\n`).
    end: usize,
    kind: LineKind,
    /// Inside a code fence (fence lines included): labels and blank lines mean nothing here.
    fenced: bool,
}

// ---------------------------------------------------------------------------------------------
// The stream parser
// ---------------------------------------------------------------------------------------------

/// Where the live-event tracker is in the first action of the reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Track {
    /// No action label yet.
    Looking,
    /// `Action:` with nothing after it: the next non-blank line names the tool.
    AwaitName,
    /// The tool is named; waiting for `Action Input:`.
    AwaitInputLabel,
    /// `Action Input:` with nothing after it yet.
    AwaitInputStart,
    /// A plain input: it ends at a blank line or the next label.
    Plain,
    /// A JSON value: it ends when its brackets balance.
    Json(JsonScan),
    /// A fenced input or fenced blob: it ends at the closing fence.
    Fence,
    /// `Tool[...` or `tool(...` spanning lines: it ends when the brackets balance.
    Bracket(u8, usize),
    /// The events for this reply are all sent.
    Done,
}

/// String-aware bracket matching, resumable across chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct JsonScan {
    depth: usize,
    in_string: bool,
    escaped: bool,
    started: bool,
}

impl JsonScan {
    /// Feeds bytes; returns the index just after the byte that closed the value, if one did.
    fn feed(&mut self, bytes: &[u8]) -> Option<usize> {
        for (i, &c) in bytes.iter().enumerate() {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if c == b'\\' {
                    self.escaped = true;
                } else if c == b'"' {
                    self.in_string = false;
                }
                continue;
            }
            match c {
                b'"' if self.started => self.in_string = true,
                b'{' | b'[' => {
                    self.started = true;
                    self.depth += 1;
                }
                b'}' | b']' if self.started => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// Reads a streamed reply incrementally; see the module documentation.
pub struct StreamParser {
    options: ParseOptions,
    keywords: Vec<Keyword>,
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
    track: Track,
    thought_sent: bool,
    action_sent: bool,
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
            track: Track::Looking,
            thought_sent: false,
            action_sent: false,
            work: 0,
        }
    }

    /// Feed the next streamed bytes. Chunks may split anywhere, including inside a multi-byte
    /// UTF-8 character (the incomplete sequence is buffered; invalid UTF-8 becomes U+FFFD).
    /// Returns events newly known. After a Cut, further input is ignored.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<ParseEvent> {
        if self.cut.is_some() {
            return Vec::new();
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
        self.push_decoded(&decoded)
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
        self.work
    }

    /// End of stream: the verdict for everything pushed.
    pub fn finish(mut self) -> Parsed {
        let mut ignored = Vec::new();
        if self.cut.is_none() {
            if !self.utf8_tail.is_empty() {
                self.utf8_tail.clear();
                self.push_decoded("\u{FFFD}");
            }
            if self.cut.is_none() && self.line_start < self.text.len() {
                self.complete_line(self.line_start, self.text.len(), &mut ignored);
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

    fn push_decoded(&mut self, decoded: &str) -> Vec<ParseEvent> {
        let mut events = Vec::new();
        let mut pos = self.text.len();
        self.text.push_str(decoded);
        // Only the new bytes are searched for newlines: each byte is looked at once here.
        while let Some(nl) = self.text.get(pos..).and_then(|s| s.find('\n')) {
            let end = pos + nl;
            self.complete_line(self.line_start, end, &mut events);
            if self.cut.is_some() {
                return events;
            }
            self.line_start = end + 1;
            self.line_decided = false;
            pos = end + 1;
        }
        // The unfinished last line: can it already be seen to start an Observation label?
        if !self.line_decided && self.can_cut() {
            let line = sub(&self.text, self.line_start, self.text.len());
            self.work += line.len().min(LABEL_WINDOW) as u64;
            match probe(line, &self.keywords) {
                Probe::Label(Label::Observation, _) => self.cut_here(self.line_start, &mut events),
                Probe::More { .. } => {}
                _ => self.line_decided = true,
            }
        }
        events
    }

    fn can_cut(&self) -> bool {
        self.options.stop_at_observation && self.action_seen && !self.in_fence
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
                    if sub(line, content, line.len()).matches("```").count() % 2 == 1 {
                        self.in_fence = true;
                    }
                    LineKind::Label(label, start + content)
                }
                Probe::More { keyword: true } => LineKind::Stub,
                _ => LineKind::Body,
            }
        };
        if let LineKind::Label(Label::Observation, _) = kind {
            if self.options.stop_at_observation && self.action_seen && !was_fenced {
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
        self.advance_track(events);
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
            _ => !was_fenced && line.trim_start().starts_with("{\"action\""),
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
        // A plain input ends where the invented Observation begins.
        if matches!(self.track, Track::Plain | Track::AwaitInputStart) {
            self.emit_input(self.lines.len(), events);
        }
        self.cut = Some(at);
        self.text.truncate(at);
        self.utf8_tail.clear();
        events.push(ParseEvent::Cut { at });
    }

    /// Updates the live-event tracker with the line just recorded.
    fn advance_track(&mut self, events: &mut Vec<ParseEvent>) {
        let Some(&line) = self.lines.last() else {
            return;
        };
        let n = self.lines.len();
        let text = sub(&self.text, line.start, line.end).to_string();
        let blank = text.trim().is_empty();
        if let LineKind::Label(Label::Action | Label::Final, _) = line.kind {
            if !self.thought_sent {
                self.thought_sent = true;
                let thought = collect_thought(&self.text, &self.lines[..n - 1], usize::MAX);
                events.push(ParseEvent::Thought(thought));
            }
        }
        match self.track {
            Track::Looking => match line.kind {
                LineKind::Label(Label::Final, _) => self.track = Track::Done,
                LineKind::Label(Label::Action, content) => {
                    let head = sub(&self.text, content, line.end).to_string();
                    self.start_head(&head, events);
                }
                LineKind::FenceClose if self.action_seen => self.emit_input(n, events),
                _ => {}
            },
            Track::AwaitName => match line.kind {
                _ if blank => {}
                LineKind::FenceOpen => self.track = Track::Fence,
                LineKind::Label(..) => self.track = Track::Looking,
                _ => {
                    let head = text.trim_start().to_string();
                    self.start_head(&head, events);
                }
            },
            Track::AwaitInputLabel => match line.kind {
                LineKind::Label(Label::ActionInput, content) => {
                    let rest = sub(&self.text, content, line.end).to_string();
                    if rest.trim().is_empty() {
                        self.track = Track::AwaitInputStart;
                    } else {
                        self.start_input(&rest, n, events);
                    }
                }
                LineKind::Label(..) => self.track = Track::Done,
                _ => {}
            },
            Track::AwaitInputStart => match line.kind {
                _ if blank => {}
                LineKind::Label(..) => self.emit_input(n - 1, events),
                _ => self.start_input(&text, n, events),
            },
            Track::Plain => {
                if (blank && !line.fenced) || matches!(line.kind, LineKind::Label(..)) {
                    self.emit_input(n - 1, events);
                }
            }
            Track::Json(mut scan) => {
                let closed = scan.feed(text.as_bytes()).is_some();
                self.track = Track::Json(scan);
                if closed {
                    self.emit_input(n, events);
                }
            }
            Track::Fence => {
                if line.kind == LineKind::FenceClose {
                    self.emit_input(n, events);
                }
            }
            Track::Bracket(open, depth) => {
                match bracket_feed(open, depth, text.as_bytes()) {
                    Ok(()) => self.emit_input(n, events),
                    Err(depth) => self.track = Track::Bracket(open, depth),
                }
                if matches!(line.kind, LineKind::Label(..)) {
                    self.track = Track::Done;
                }
            }
            Track::Done => {}
        }
    }

    /// The first action's head (`tool`, `Tool[x]`, `{...}`) is known.
    fn start_head(&mut self, head: &str, events: &mut Vec<ParseEvent>) {
        let n = self.lines.len();
        let h = parse_head(head);
        match h {
            Head::Blank => self.track = Track::AwaitName,
            Head::None => self.track = Track::Looking,
            Head::WithFinal => self.track = Track::Done,
            Head::Json => {
                let mut scan = JsonScan::default();
                let closed = scan.feed(head.as_bytes()).is_some();
                self.track = Track::Json(scan);
                if closed {
                    self.emit_input(n, events);
                }
            }
            Head::Fence => self.track = Track::Fence,
            Head::Bracket { name, open, close } | Head::Paren { name, open, close } => {
                self.send_action(name, events);
                let inner = sub(head, open + 1, head.len()).as_bytes();
                match bracket_feed(head.as_bytes().get(open).copied().unwrap_or(b'['), 1, inner) {
                    Ok(()) => self.emit_input(n, events),
                    Err(depth) => self.track = Track::Bracket(close_to_open(close), depth),
                }
            }
            Head::Colon { name, .. } => {
                self.send_action(name, events);
                self.emit_input(n, events);
            }
            Head::Name(name) => {
                if name.eq_ignore_ascii_case("final answer") {
                    self.track = Track::Done;
                } else {
                    self.send_action(name, events);
                    self.track = Track::AwaitInputLabel;
                }
            }
        }
    }

    fn start_input(&mut self, rest: &str, n: usize, events: &mut Vec<ParseEvent>) {
        let t = rest.trim_start();
        if t.starts_with('{') || t.starts_with('[') {
            let mut scan = JsonScan::default();
            let closed = scan.feed(t.as_bytes()).is_some();
            self.track = Track::Json(scan);
            if closed {
                self.emit_input(n, events);
            }
        } else if t.starts_with("```") || t.starts_with("~~~") {
            if t.get(3..).is_some_and(|r| r.contains("```")) {
                self.emit_input(n, events);
            } else {
                self.track = Track::Fence;
            }
        } else {
            self.track = Track::Plain;
        }
    }

    fn send_action(&mut self, name: &str, events: &mut Vec<ParseEvent>) {
        let reader = Reader::new("", &[], &self.options);
        if let Ok(tool) = reader.tool_name(name) {
            if !reader.is_finish(&tool) {
                self.action_sent = true;
                events.push(ParseEvent::Action(tool));
            }
        }
    }

    /// The first action's input is complete after `lines[..n]`: read it exactly as `finish`
    /// would (one resolve over the prefix, done once per reply, so still linear).
    fn emit_input(&mut self, n: usize, events: &mut Vec<ParseEvent>) {
        self.track = Track::Done;
        let n = n.min(self.lines.len());
        let upto = self.lines.get(n.wrapping_sub(1)).map_or(0, |l| l.end);
        let prefix = sub(&self.text, 0, upto);
        self.work += prefix.len() as u64;
        let parsed = resolve(prefix, &self.lines[..n], &self.options);
        if let Verdict::Action { tool, input, .. } = parsed.verdict {
            if !self.action_sent {
                self.action_sent = true;
                events.push(ParseEvent::Action(tool));
            }
            events.push(ParseEvent::ActionInput(input));
        }
    }
}

fn close_to_open(close: u8) -> u8 {
    if close == b')' {
        b'('
    } else {
        b'['
    }
}

/// Continues matching `open` brackets at `depth` over `bytes`: `Ok` when they balance.
fn bracket_feed(open: u8, mut depth: usize, bytes: &[u8]) -> Result<(), usize> {
    let close = if open == b'(' { b')' } else { b']' };
    for &c in bytes {
        if c == open {
            depth += 1;
        } else if c == close {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return Ok(());
            }
        }
    }
    Err(depth)
}

/// Parse a complete text (same result as pushing it in any split and calling finish).
pub fn parse(text: &str, options: &ParseOptions) -> Parsed {
    let mut parser = StreamParser::new(options.clone());
    parser.push_str(text);
    parser.finish()
}

// ---------------------------------------------------------------------------------------------
// Resolving the verdict
// ---------------------------------------------------------------------------------------------

/// The start of an action, as written after `Action:`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Head<'t> {
    Blank,
    /// `Action: None` (the model had nothing to do).
    None,
    /// `Action: search Final Answer:`: both in one line.
    WithFinal,
    /// A JSON blob starts here.
    Json,
    /// A fenced blob starts here.
    Fence,
    /// `Tool[input]`: the bracket's byte offset within the head.
    Bracket {
        name: &'t str,
        open: usize,
        close: u8,
    },
    /// `tool(input)`.
    Paren {
        name: &'t str,
        open: usize,
        close: u8,
    },
    /// `tool: input`; the input starts at this byte offset within the head.
    Colon {
        name: &'t str,
        rest: usize,
    },
    /// Just a name; the input follows in `Action Input:`.
    Name(&'t str),
}

/// Strips the decoration models put around names: `**search**`, `` `search` ``, `"search"`.
fn clean_name(s: &str) -> &str {
    s.trim()
        .trim_matches(|c| matches!(c, '`' | '*' | '"' | '\''))
        .trim()
}

fn is_none_name(name: &str) -> bool {
    let n = name.trim_end_matches('.').to_ascii_lowercase();
    matches!(n.as_str(), "none" | "n/a" | "no action" | "null")
}

fn is_token(s: &str) -> bool {
    !s.is_empty() && !s.contains(char::is_whitespace)
}

fn parse_head(head: &str) -> Head<'_> {
    let t = head.trim();
    if t.is_empty() {
        return Head::Blank;
    }
    if t.starts_with('{') {
        return Head::Json;
    }
    if t.starts_with("```") || t.starts_with("~~~") {
        return Head::Fence;
    }
    // ASCII folding finds the same matches as Unicode lowercasing here: no non-ASCII
    // character lowercases into this ASCII phrase.
    if t.to_ascii_lowercase().contains("final answer:") {
        return Head::WithFinal;
    }
    let lead = head.len() - head.trim_start().len();
    let mut best: Option<(usize, Head)> = None;
    if let Some(i) = t.find('[') {
        let name = clean_name(sub(t, 0, i));
        if !name.is_empty() {
            best = Some((
                i,
                Head::Bracket {
                    name,
                    open: lead + i,
                    close: b']',
                },
            ));
        }
    }
    if let Some(i) = t.find('(') {
        let name = clean_name(sub(t, 0, i));
        if is_token(name) && best.is_none_or(|(p, _)| i < p) {
            best = Some((
                i,
                Head::Paren {
                    name,
                    open: lead + i,
                    close: b')',
                },
            ));
        }
    }
    if let Some(i) = t.find(':') {
        let name = clean_name(sub(t, 0, i));
        let rest = sub(t, i + 1, t.len());
        if is_token(name) && !rest.trim().is_empty() && best.is_none_or(|(p, _)| i < p) {
            let skip = rest.len() - rest.trim_start().len();
            best = Some((
                i,
                Head::Colon {
                    name,
                    rest: lead + i + 1 + skip,
                },
            ));
        }
    }
    match best {
        Some((_, h)) => h,
        None => {
            let name = clean_name(t);
            if is_none_name(name) {
                Head::None
            } else {
                Head::Name(name)
            }
        }
    }
}

/// A stretch of the reply that starts at a label (or at the start of the reply).
#[derive(Clone, Copy, Debug)]
struct Block {
    label: Option<Label>,
    /// Index of its first line.
    first: usize,
    /// Index after its last line.
    last: usize,
    /// Offset where its content starts (after the label's colon).
    content: usize,
    /// Offset of its first byte.
    start: usize,
    /// Offset of the next block's first byte (or the end of the text).
    end: usize,
}

fn blocks_of(text: &str, lines: &[Line]) -> Vec<Block> {
    let mut blocks = vec![Block {
        label: None,
        first: 0,
        last: lines.len(),
        content: 0,
        start: 0,
        end: text.len(),
    }];
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
/// line index `upto` (or byte offset `upto_byte` within that line list).
fn collect_thought(text: &str, lines: &[Line], upto_byte: usize) -> String {
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
    parts.join("\n").trim().to_string()
}

/// What reading one action (or blob) gave.
enum Step {
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
        why: &'static str,
        message: String,
        next: usize,
        decisive: bool,
    },
}

struct Reader<'a> {
    text: &'a str,
    lines: &'a [Line],
    options: &'a ParseOptions,
    blocks: Vec<Block>,
    notes: Vec<String>,
}

fn resolve(text: &str, lines: &[Line], options: &ParseOptions) -> Parsed {
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
        let mut first_fail: Option<(&'static str, String)> = None;
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
                            "missing_action",
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
                            why: why.into(),
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
                        // end, so "action, then final answer" could be either. (With
                        // stop_at_observation the stream is usually cut at the invented
                        // Observation before the final answer is seen, and then the action
                        // stands: streaming and whole-text readings differ here by design.)
                        return Verdict::Error {
                            thought: thought(),
                            why: "action_and_final".into(),
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
                "truncated",
                self.message_for(&format!(
                    "Your reply was cut off in the middle of `{stub}`."
                )),
            )
        } else if nones > 0 {
            (
                "action_none",
                self.message_for(
                    "Your reply said `Action: None`. Every reply must either call a tool or give \
                     the final answer.",
                ),
            )
        } else if self.text.trim().is_empty() {
            ("empty", self.message_for("Your reply was empty."))
        } else {
            let label = if self.options.style == Style::Paper {
                "`Action n:`"
            } else {
                "`Action:`"
            };
            (
                "no_action",
                self.message_for(&format!("Your reply had no {label} line.")),
            )
        };
        Verdict::Error {
            thought,
            why: why.into(),
            message,
        }
    }

    /// The last non-blank line, when it is a label keyword without its colon.
    fn trailing_stub(&self) -> Option<&'a str> {
        let last = self
            .lines
            .iter()
            .rev()
            .find(|l| !sub(self.text, l.start, l.end).trim().is_empty())?;
        (last.kind == LineKind::Stub).then(|| sub(self.text, last.start, last.end).trim())
    }

    fn final_answer(&mut self, b: usize) -> Verdict {
        let blk = self.blocks[b];
        let thought = collect_thought(self.text, self.lines, blk.start);
        let answer = sub(self.text, blk.content, blk.end).trim().to_string();
        if answer.is_empty() {
            let (why, what) = if blk.end >= self.text.len() {
                (
                    "truncated",
                    "Your reply ended right after the final-answer label.",
                )
            } else {
                (
                    "empty_answer",
                    "Your final-answer label had no answer after it.",
                )
            };
            return Verdict::Error {
                thought,
                why: why.into(),
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
    fn block_from(&self, at: usize) -> usize {
        self.blocks.partition_point(|k| k.start < at)
    }

    /// Index of the line containing byte `at`.
    fn line_at(&self, at: usize) -> usize {
        self.lines
            .partition_point(|l| l.end < at)
            .min(self.lines.len().saturating_sub(1))
    }

    /// Index of the first fence line after line `from` (the closing fence of one opened there).
    fn fence_close_after(&self, from: usize) -> Option<usize> {
        (from + 1..self.lines.len()).find(|&i| {
            matches!(
                self.lines[i].kind,
                LineKind::FenceClose | LineKind::FenceOpen
            )
        })
    }

    /// Looks for a JSON action blob in thought text (fenced, or bare at the start of a line).
    fn find_blob(&self, b: usize, bare_ok: &mut bool) -> Option<(Step, usize)> {
        let blk = self.blocks[b];
        let mut i = if blk.label.is_some() {
            blk.first + 1
        } else {
            blk.first
        };
        while i < blk.last {
            let line = self.lines[i];
            if line.kind == LineKind::FenceOpen {
                let close = self.fence_close_after(i);
                let inner_end = close.map_or(self.text.len(), |c| self.lines[c].start);
                let inner = sub(self.text, line.end, inner_end).trim();
                if let Some(step) = self.blob_step(inner, close.map_or(blk.last, |c| c + 1)) {
                    return Some((step, line.start));
                }
                i = close.map_or(blk.last, |c| c + 1);
                continue;
            }
            let t = sub(self.text, line.start, line.end);
            if *bare_ok && !line.fenced && t.trim_start().starts_with('{') {
                let at = line.start + (t.len() - t.trim_start().len());
                match scan_json_end(self.text, at) {
                    None => *bare_ok = false,
                    Some(end) => {
                        if let Some(step) = self.blob_step(sub(self.text, at, end), usize::MAX) {
                            let step = with_next(step, self.block_from(end));
                            return Some((step, line.start));
                        }
                        i = self.line_at(end) + 1;
                        continue;
                    }
                }
            }
            i += 1;
        }
        None
    }

    /// Reads `{"action": .., "action_input": ..}`; `None` when `json` is not such a blob.
    /// `next_line` is the line index after the blob (converted to a block index).
    fn blob_step(&self, json: &str, next_line: usize) -> Option<Step> {
        if !json.starts_with('{') {
            return None;
        }
        let value = parse_json_lenient(json).ok()?;
        let obj = value.as_object()?;
        let name = ["action", "tool", "tool_name"]
            .iter()
            .find_map(|k| obj.get(*k).and_then(Value::as_str))?;
        let input = ["action_input", "tool_input", "input", "arguments", "args"]
            .iter()
            .find_map(|k| obj.get(*k))
            .cloned()
            .unwrap_or_else(|| Value::String(String::new()));
        let next = match self.lines.get(next_line) {
            Some(l) => self.block_from(l.start),
            None => self.blocks.len(),
        };
        Some(self.call_or_answer(name, input, true, next))
    }

    /// A named call: the final answer when the name says so, an unknown-tool failure, or a
    /// call.
    fn call_or_answer(&self, name: &str, input: Value, delimited: bool, next: usize) -> Step {
        let name = clean_name(name);
        if name.eq_ignore_ascii_case("final answer")
            || name.eq_ignore_ascii_case("final_answer")
            || self.is_finish(name)
        {
            let answer = match input {
                Value::String(s) => s.trim().to_string(),
                Value::Null => String::new(),
                other => crate::to_json::to_string(&other),
            };
            return Step::Answer { answer, next };
        }
        match self.tool_name(name) {
            Ok(tool) => Step::Call {
                tool,
                input,
                delimited,
                next,
            },
            Err(message) => Step::Fail {
                why: "unknown_tool",
                message,
                next,
                decisive: true,
            },
        }
    }

    /// `Finish[x]` is the final answer in the paper's style, and in other styles unless a tool
    /// of that name is registered.
    fn is_finish(&self, name: &str) -> bool {
        let (kw, _) = marker_parts(self.options);
        name.eq_ignore_ascii_case(&kw)
            && (self.options.style == Style::Paper
                || !self
                    .options
                    .tools
                    .iter()
                    .flatten()
                    .any(|t| t.trim().eq_ignore_ascii_case(&kw)))
    }

    /// The registered spelling of `name`, or the message naming the valid tools.
    fn tool_name(&self, name: &str) -> Result<String, String> {
        let name = name.trim();
        let Some(tools) = &self.options.tools else {
            return Ok(name.to_string());
        };
        // Exact first, then any case, then without the sentence's full stop (`search.`).
        let bare = name.trim_end_matches(['.', ',', ';']).trim_end();
        let found = tools
            .iter()
            .find(|t| t.trim() == name)
            .or_else(|| tools.iter().find(|t| t.trim().eq_ignore_ascii_case(name)))
            .or_else(|| tools.iter().find(|t| t.trim().eq_ignore_ascii_case(bare)));
        if let Some(t) = found {
            return Ok(t.trim().to_string());
        }
        Err(self.message_for(&format!(
            "`{name}` is not one of the tools. The tools are: {}.",
            tools.join(", ")
        )))
    }

    /// Reads the action whose label starts block `b`.
    fn read_action(&mut self, b: usize) -> Step {
        let blk = self.blocks[b];
        let label_line = self.lines[blk.first];
        let mut head_at = blk.content;
        let mut head_end = label_line.end;
        // The name may sit on a later line: `Action:\n    Terminal`, `Action 7:\n\nFinish[X]`.
        if sub(self.text, head_at, head_end).trim().is_empty() {
            let found = (blk.first + 1..blk.last).find(|&i| {
                !sub(self.text, self.lines[i].start, self.lines[i].end)
                    .trim()
                    .is_empty()
            });
            let Some(i) = found else {
                return Step::Fail {
                    why: "missing_action",
                    message: self.message_for("Your `Action:` line named no tool."),
                    next: b + 1,
                    decisive: false,
                };
            };
            let line = self.lines[i];
            let t = sub(self.text, line.start, line.end);
            head_at = line.start + (t.len() - t.trim_start().len());
            head_end = line.end;
        }
        let head = sub(self.text, head_at, head_end);
        match parse_head(head) {
            Head::Blank => Step::Skip { next: b + 1 },
            Head::None => {
                // `Action: None` may come with an `Action Input:` of its own; skip both.
                let next =
                    if self.blocks.get(b + 1).and_then(|k| k.label) == Some(Label::ActionInput) {
                        b + 2
                    } else {
                        b + 1
                    };
                Step::Skip { next }
            }
            Head::WithFinal => Step::Fail {
                why: "action_and_final",
                message: self.message_for(
                    "Your `Action:` line also contained a final answer, so it is unclear which \
                     you meant. Give one: an action, or the final answer.",
                ),
                next: b + 1,
                decisive: true,
            },
            Head::Json => match scan_json_end(self.text, head_at) {
                Some(end) => {
                    let json = sub(self.text, head_at, end);
                    match self.blob_step(json, usize::MAX) {
                        Some(step) => with_next(step, self.block_from(end)),
                        None => self.bad_blob(b),
                    }
                }
                None => self.truncated("the JSON after `Action:` was never closed", b),
            },
            Head::Fence => {
                let open = self.line_at(head_at);
                let Some(close) = self.fence_close_after(open) else {
                    return self.truncated("the code fence after `Action:` was never closed", b);
                };
                let inner = sub(self.text, self.lines[open].end, self.lines[close].start).trim();
                match self.blob_step(inner, close + 1) {
                    Some(step) => step,
                    None => self.bad_blob(b),
                }
            }
            Head::Bracket { name, open, close } | Head::Paren { name, open, close } => {
                let open_abs = head_at + open;
                let Some(close_at) = find_close(self.text, open_abs, blk.end, close) else {
                    if blk.end >= self.text.len() {
                        return self.truncated(
                            &format!("`{name}{}` was never closed", close_to_open(close) as char),
                            b,
                        );
                    }
                    return Step::Fail {
                        why: "unclosed_bracket",
                        message: self.message_for(&format!(
                            "`{name}{}` was not closed before the next label.",
                            close_to_open(close) as char
                        )),
                        next: b + 1,
                        decisive: false,
                    };
                };
                let mut input = sub(self.text, open_abs + 1, close_at).trim();
                if close == b')' {
                    input = unquote(input);
                }
                let line_end = self.lines[self.line_at(close_at)].end;
                let after = sub(self.text, close_at + 1, line_end.max(close_at + 1)).trim();
                if !after.is_empty() {
                    self.notes
                        .push(format!("ignored text after '{}': {after}", close as char));
                }
                let next = self.block_from(close_at + 1).max(b + 1);
                self.call_or_answer(name, Value::String(input.to_string()), true, next)
            }
            Head::Colon { name, rest } => {
                let at = head_at + rest;
                let t = sub(self.text, at, head_end);
                if t.starts_with('{') || t.starts_with('[') {
                    if let Some((value, end)) = self.json_input(at) {
                        let next = self.block_from(end).max(b + 1);
                        return self.call_or_answer(name, value, true, next);
                    }
                }
                self.call_or_answer(name, Value::String(unquote(t.trim()).into()), false, b + 1)
            }
            Head::Name(name) => {
                let name = name.to_string();
                if let Err(message) = self.tool_name(&name) {
                    if !self.is_finish(&name) && !name.eq_ignore_ascii_case("final answer") {
                        return Step::Fail {
                            why: "unknown_tool",
                            message,
                            next: b + 1,
                            decisive: self.blocks.get(b + 1).and_then(|k| k.label)
                                == Some(Label::ActionInput),
                        };
                    }
                }
                if self.blocks.get(b + 1).and_then(|k| k.label) != Some(Label::ActionInput) {
                    let what = if self.options.style == Style::Paper {
                        format!(
                            "Your reply named `{name}` without its input in brackets: write \
                             `{name}[<input>]`."
                        )
                    } else {
                        format!(
                            "Your reply named the tool `{name}` but had no `Action Input:` line \
                             after it."
                        )
                    };
                    return Step::Fail {
                        why: "missing_action_input",
                        message: self.message_for(&what),
                        next: b + 1,
                        decisive: false,
                    };
                }
                match self.read_input(b + 1) {
                    Ok((input, delimited, next)) => {
                        self.call_or_answer(&name, input, delimited, next)
                    }
                    Err(step) => step,
                }
            }
        }
    }

    fn bad_blob(&self, b: usize) -> Step {
        Step::Fail {
            why: "bad_json",
            message: self.message_for(
                "The JSON after `Action:` was not an object with an \"action\" key naming the \
                 tool and an \"action_input\".",
            ),
            next: b + 1,
            decisive: false,
        }
    }

    fn truncated(&self, what: &str, b: usize) -> Step {
        Step::Fail {
            why: "truncated",
            message: self.message_for(&format!("Your reply was cut off: {what}.")),
            next: b + 1,
            decisive: false,
        }
    }

    /// One JSON value starting at byte `at`: the value (or its raw text when it does not
    /// parse, noted) and the offset after it.
    fn json_input(&mut self, at: usize) -> Option<(Value, usize)> {
        let end = scan_json_end(self.text, at)?;
        let raw = sub(self.text, at, end);
        let value = match parse_json_lenient(raw) {
            Ok(v) => v,
            Err(e) => {
                self.notes.push(format!(
                    "the input looks like JSON but does not parse ({e}); passed as text"
                ));
                Value::String(raw.to_string())
            }
        };
        Some((value, end))
    }

    /// Reads the `Action Input:` block `ib`: the input, whether it has a clear end, and the
    /// index of the next block to read.
    fn read_input(&mut self, ib: usize) -> Result<(Value, bool, usize), Step> {
        let blk = self.blocks[ib];
        let body = sub(self.text, blk.content, blk.end);
        let s = blk.content + (body.len() - body.trim_start().len());
        if s >= blk.end {
            return Ok((Value::String(String::new()), false, ib + 1));
        }
        let rest = sub(self.text, s, blk.end);
        if rest.starts_with('{') || rest.starts_with('[') {
            let Some((value, end)) = self.json_input(s) else {
                return Err(self.truncated("the JSON in `Action Input:` was never closed", ib));
            };
            let next = self.block_from(end).max(ib + 1);
            let tail_end = self.blocks.get(next).map_or(self.text.len(), |k| k.start);
            if !sub(self.text, end, tail_end.max(end)).trim().is_empty() {
                self.notes.push("ignored text after the JSON input".into());
            }
            return Ok((value, true, next));
        }
        if rest.starts_with("```") || rest.starts_with("~~~") {
            return self.fenced_input(s, ib).map(|v| (v, true, ib + 1));
        }
        // Plain text: to the next label, or to a blank line outside a code fence.
        let first = self.line_at(s);
        let mut end = self.lines.get(first).map_or(blk.end, |l| l.end);
        for line in self.lines.get(first + 1..blk.last).unwrap_or(&[]) {
            if !line.fenced && sub(self.text, line.start, line.end).trim().is_empty() {
                if !sub(self.text, line.end, blk.end).trim().is_empty() {
                    self.notes
                        .push("ignored text after a blank line that ended the input".into());
                }
                break;
            }
            end = line.end;
        }
        let input = unquote(sub(self.text, s, end.max(s)).trim());
        Ok((Value::String(input.to_string()), false, ib + 1))
    }

    /// A fenced input starting at byte `s`: JSON when it holds JSON, otherwise the text with
    /// its fences (what LangChain's tests expect for code).
    fn fenced_input(&mut self, s: usize, ib: usize) -> Result<Value, Step> {
        let open = self.line_at(s);
        let line_end = self.lines.get(open).map_or(self.text.len(), |l| l.end);
        let first_line = sub(self.text, s, line_end);
        let fence = sub(first_line, 0, 3);
        // The fence opens and closes on one line: ```ls -l```.
        if let Some(close) = first_line.get(3..).and_then(|r| r.find(fence)) {
            let inner = sub(first_line, 3, 3 + close).trim();
            if let Ok(v) = parse_json_if_json(inner) {
                return Ok(v);
            }
            return Ok(Value::String(sub(first_line, 0, close + 6).to_string()));
        }
        let Some(close) = self.fence_close_after(open) else {
            return Err(self.truncated("the code fence in `Action Input:` was never closed", ib));
        };
        let tag = first_line
            .get(3..)
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        let inner = sub(self.text, line_end, self.lines[close].start).trim();
        if tag == "json" || tag.is_empty() {
            if let Ok(v) = parse_json_if_json(inner) {
                return Ok(v);
            }
        }
        Ok(Value::String(
            sub(self.text, s, self.lines[close].end).trim().to_string(),
        ))
    }

    /// An error message for the model: what was wrong, then the format to use.
    fn message_for(&self, what: &str) -> String {
        format!("{what} Reply with\n{}", expected_format(self.options))
    }
}

/// Replaces a step's `next` block index.
fn with_next(step: Step, next: usize) -> Step {
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

/// The format the prompt asked for, shown in every error message.
fn expected_format(options: &ParseOptions) -> String {
    let tools: Vec<&str> = options
        .tools
        .iter()
        .flatten()
        .map(|t| t.trim())
        .filter(|t| options.style != Style::Paper || !t.eq_ignore_ascii_case("finish"))
        .collect();
    let tool = if tools.is_empty() {
        "tool name".to_string()
    } else {
        format!("one of {}", tools.join(", "))
    };
    let marker = options
        .final_marker
        .as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty() && !m.contains('['))
        .unwrap_or("Final Answer:");
    match options.style {
        Style::Mrkl => format!(
            "Thought: ...\nAction: <{tool}>\nAction Input: <input>\nor, when you know the \
             answer,\nThought: ...\n{marker} <answer>"
        ),
        Style::Paper => format!(
            "Thought n: ...\nAction n: <{tool}>[<input>]\nor, when you know the answer,\n\
             Thought n: ...\nAction n: Finish[<answer>]"
        ),
        Style::Json => format!(
            "Thought: ...\nAction:\n```json\n{{\"action\": \"<{tool}>\", \"action_input\": \
             <input>}}\n```\nor, when you know the answer,\nThought: ...\nAction:\n```json\n\
             {{\"action\": \"Final Answer\", \"action_input\": \"<answer>\"}}\n```"
        ),
    }
}

/// Removes one pair of wrapping double quotes from a plain input: `"NBA"` -> `NBA`.
fn unquote(s: &str) -> &str {
    match s.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(inner) if !inner.contains('"') => inner,
        _ => s,
    }
}

/// The offset after the JSON value that starts at `at` (string-aware bracket matching), or
/// `None` if it never closes.
fn scan_json_end(text: &str, at: usize) -> Option<usize> {
    let mut scan = JsonScan::default();
    let bytes = text.as_bytes().get(at..)?;
    scan.feed(bytes).map(|n| at + n)
}

/// Parses JSON, forgiving raw newlines and tabs inside strings (models write them).
fn parse_json_lenient(s: &str) -> Result<Value, String> {
    match serde_json::from_str(s) {
        Ok(v) => Ok(v),
        Err(first) => {
            let mut fixed = String::with_capacity(s.len() + 16);
            let mut in_string = false;
            let mut escaped = false;
            for c in s.chars() {
                if in_string {
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == '"' {
                        in_string = false;
                    } else if c == '\n' {
                        fixed.push_str("\\n");
                        continue;
                    } else if c == '\r' {
                        fixed.push_str("\\r");
                        continue;
                    } else if c == '\t' {
                        fixed.push_str("\\t");
                        continue;
                    }
                } else if c == '"' {
                    in_string = true;
                }
                fixed.push(c);
            }
            serde_json::from_str(&fixed).map_err(|_| first.to_string())
        }
    }
}

fn parse_json_if_json(s: &str) -> Result<Value, String> {
    if s.starts_with('{') || s.starts_with('[') {
        parse_json_lenient(s)
    } else {
        Err("not json".into())
    }
}

/// The offset of the bracket that closes the one at `open`, searching up to `limit`.
fn find_close(text: &str, open: usize, limit: usize, close: u8) -> Option<usize> {
    let open_ch = close_to_open(close);
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    for i in open..limit.min(bytes.len()) {
        let c = bytes.get(i).copied().unwrap_or(0);
        if c == open_ch {
            depth += 1;
        } else if c == close {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}
