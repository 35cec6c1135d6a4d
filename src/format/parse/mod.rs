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
//!   tool's answer. The text is cut where an `Observation` label follows an action, and
//!   everything after it is never read: the action before it stands, whether the text
//!   streams in or is parsed whole (`tao parse`, imports), so one text always gets one
//!   verdict. This departs from LangChain, whose own test (`lc-test-mrkl-valid-action-and-answer`)
//!   reads an action, an invented observation and a final answer as an error: what follows
//!   the invented observation is not the model's move. (An action and a final answer with no
//!   observation between them stays ambiguous, as in LangChain.)
//! * **Plain prose** (`mrkl` only, [`ParseOptions::prose_is_answer`]): a reply with no ReAct
//!   label at all that reads as an answer is the final answer (`prose.rs` says what reads so);
//!   one with labels but no usable action stays a repair.
//!
//! When the parser cannot tell what the model meant, the verdict is an error whose `message`
//! is written *to the model*: it says what was missing and shows the expected format for the
//! style, because it becomes the next observation (see `messages.rs`).
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
//!
//! **How the files fit**, in reading order:
//!
//! * `labels.rs`: recognising a label at the start of a line (`probe`);
//! * `stream.rs`: [`StreamParser`], which classifies each line as it arrives and cuts the
//!   reply at an invented `Observation`;
//! * `events.rs`: the early events for a live display (thought, tool, input): [`ParseEvent`];
//! * `resolve.rs`: the verdict, read once from the recorded lines (which of several things
//!   the model meant);
//! * `head.rs`, `action.rs`, `blob.rs`: reading one action, from what follows `Action:`,
//!   its `Action Input:`, or a JSON blob;
//! * `json.rs`: where a JSON value or a bracket ends, and lenient JSON reading;
//! * `messages.rs`: what the model is told when its reply cannot be read;
//! * `why.rs`: [`Why`], the short reason for code and records.

mod action;
mod blob;
mod events;
mod head;
mod json;
mod labels;
mod messages;
mod prose;
mod resolve;
mod stream;
mod why;

pub use labels::open_label;
pub use stream::StreamParser;
pub use why::Why;

use crate::json::Value;

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
    /// Read a reply without any ReAct label that reads as an answer as the final answer (on
    /// for `mrkl`, whose conversational agents answer that way; off for the others, whose
    /// answer has a form of its own).
    pub prose_is_answer: bool,
}

impl ParseOptions {
    /// Options for `style` with no marker override and unknown tools.
    pub fn new(style: Style) -> Self {
        ParseOptions {
            style,
            final_marker: None,
            tools: None,
            prose_is_answer: style == Style::Mrkl,
        }
    }

    /// Whether the model has no tools at all (the paper's `cot` and `standard`): then only an
    /// answer is a usable reply, and the repairs ask for one.
    fn answers_only(&self) -> bool {
        self.tools.as_ref().is_some_and(Vec::is_empty)
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
        /// Why the reply could not be used (its [`Why::name`] is the short code in events and
        /// JSON).
        why: Why,
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

/// Parse a complete text (same result as pushing it in any split and calling finish).
pub fn parse(text: &str, options: &ParseOptions) -> Parsed {
    let mut parser = StreamParser::new(options.clone());
    parser.push_str(text);
    parser.finish()
}

/// The substring `text[a..b]`, or `""` when the range is not valid (never panics). Every file
/// of the parser slices through it.
/// `s.trim()`, at once when `s` neither starts nor ends with a space or a non-ASCII byte (a
/// tool's name, most lines): the wasm's own `trim` decodes the characters at each end one by
/// one through several calls, and the parser trims the same few names several times a reply.
fn trim(s: &str) -> &str {
    match (s.as_bytes().first(), s.as_bytes().last()) {
        (Some(a), Some(z)) if a.is_ascii_graphic() && z.is_ascii_graphic() => s,
        _ => s.trim(),
    }
}

/// `s.trim_start()`, at once when `s` starts with a printable ASCII byte (see [`trim`]).
fn trim_start(s: &str) -> &str {
    match s.as_bytes().first() {
        Some(a) if a.is_ascii_graphic() => s,
        _ => s.trim_start(),
    }
}

fn sub(text: &str, a: usize, b: usize) -> &str {
    text.get(a..b).unwrap_or("")
}
