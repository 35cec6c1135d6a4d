//! The live events: what the first action of a streamed reply is, reported as soon as each
//! part is known, so a page can show the thought, the tool and its input while the model is
//! still writing.
//!
//! A [`Tracker`] follows the first action through its shapes (a [`Track`]: waiting for the
//! tool's name, for `Action Input:`, inside a plain, JSON, fenced or bracketed input) one
//! recorded line at a time. When an input is complete it is read exactly as the verdict will
//! read it (one `resolve` over the lines so far, once per reply, so streaming stays linear).
//! The events are hints; the verdict from [`StreamParser::finish`] is authoritative.
//!
//! [`StreamParser::finish`]: super::StreamParser::finish

use super::action::{is_finish, tool_name};
use super::head::{parse_head, Head};
use super::json::{bracket_feed, close_to_open, JsonScan};
use super::labels::Label;
use super::resolve::{collect_thought, resolve};
use super::stream::{Line, LineKind};
use super::{sub, trim, trim_start, ParseEvent, ParseOptions, Verdict};

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

/// The stream's record so far, as the tracker reads it.
pub(super) struct Record<'a> {
    /// The text kept so far.
    pub(super) text: &'a str,
    /// The complete lines; the last one is the line just recorded.
    pub(super) lines: &'a [Line],
    /// The options the reply is read with.
    pub(super) options: &'a ParseOptions,
    /// An action has begun, so a closing fence may end a JSON blob that is the action.
    pub(super) action_seen: bool,
}

/// Follows the first action of the reply and sends its events.
pub(super) struct Tracker {
    track: Track,
    thought_sent: bool,
    action_sent: bool,
    /// Bytes examined here (resolving complete inputs); counted in `bytes_examined`.
    work: u64,
}

impl Tracker {
    /// A tracker before the first line.
    pub(super) fn new() -> Self {
        Tracker {
            track: Track::Looking,
            thought_sent: false,
            action_sent: false,
            work: 0,
        }
    }

    /// How many bytes the tracker has examined.
    pub(super) fn work(&self) -> u64 {
        self.work
    }

    /// Updates the tracker with the line just recorded (the last of `seen.lines`).
    pub(super) fn line(&mut self, seen: &Record, events: &mut Vec<ParseEvent>) {
        let Some(&line) = seen.lines.last() else {
            return;
        };
        let n = seen.lines.len();
        let text = sub(seen.text, line.start, line.end);
        let blank = trim(text).is_empty();
        if let LineKind::Label(Label::Action | Label::Final, _) = line.kind {
            if !self.thought_sent {
                self.thought_sent = true;
                let thought = collect_thought(seen.text, &seen.lines[..n - 1], usize::MAX);
                events.push(ParseEvent::Thought(thought));
            }
        }
        match self.track {
            Track::Looking => match line.kind {
                LineKind::Label(Label::Final, _) => self.track = Track::Done,
                LineKind::Label(Label::Action, content) => {
                    let head = sub(seen.text, content, line.end);
                    self.start_head(seen, head, events);
                }
                LineKind::FenceClose if seen.action_seen => self.emit_input(seen, n, events),
                _ => {}
            },
            Track::AwaitName => match line.kind {
                _ if blank => {}
                LineKind::FenceOpen => self.track = Track::Fence,
                LineKind::Label(..) => self.track = Track::Looking,
                _ => self.start_head(seen, trim_start(text), events),
            },
            Track::AwaitInputLabel => match line.kind {
                LineKind::Label(Label::ActionInput, content) => {
                    let rest = sub(seen.text, content, line.end);
                    if trim(rest).is_empty() {
                        self.track = Track::AwaitInputStart;
                    } else {
                        self.start_input(seen, rest, n, events);
                    }
                }
                LineKind::Label(..) => self.track = Track::Done,
                _ => {}
            },
            Track::AwaitInputStart => match line.kind {
                _ if blank => {}
                LineKind::Label(..) => self.emit_input(seen, n - 1, events),
                _ => self.start_input(seen, text, n, events),
            },
            Track::Plain => {
                if (blank && !line.fenced) || matches!(line.kind, LineKind::Label(..)) {
                    self.emit_input(seen, n - 1, events);
                }
            }
            Track::Json(mut scan) => {
                let closed = scan.feed(text.as_bytes()).is_some();
                self.track = Track::Json(scan);
                if closed {
                    self.emit_input(seen, n, events);
                }
            }
            Track::Fence => {
                if line.kind == LineKind::FenceClose {
                    self.emit_input(seen, n, events);
                }
            }
            Track::Bracket(open, depth) => {
                match bracket_feed(open, depth, text.as_bytes()) {
                    Ok(()) => self.emit_input(seen, n, events),
                    Err(depth) => self.track = Track::Bracket(open, depth),
                }
                if matches!(line.kind, LineKind::Label(..)) {
                    self.track = Track::Done;
                }
            }
            Track::Done => {}
        }
    }

    /// The stream is cut at an invented Observation: a plain input ends where it begins.
    pub(super) fn cut(&mut self, seen: &Record, events: &mut Vec<ParseEvent>) {
        if matches!(self.track, Track::Plain | Track::AwaitInputStart) {
            self.emit_input(seen, seen.lines.len(), events);
        }
    }

    /// The first action's head (`tool`, `Tool[x]`, `{...}`) is known.
    fn start_head(&mut self, seen: &Record, head: &str, events: &mut Vec<ParseEvent>) {
        let n = seen.lines.len();
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
                    self.emit_input(seen, n, events);
                }
            }
            Head::Fence => self.track = Track::Fence,
            Head::Bracket { name, open, close } | Head::Paren { name, open, close } => {
                self.send_action(seen, name, events);
                let inner = sub(head, open + 1, head.len()).as_bytes();
                match bracket_feed(head.as_bytes().get(open).copied().unwrap_or(b'['), 1, inner) {
                    Ok(()) => self.emit_input(seen, n, events),
                    Err(depth) => self.track = Track::Bracket(close_to_open(close), depth),
                }
            }
            Head::Colon { name, .. } => {
                self.send_action(seen, name, events);
                self.emit_input(seen, n, events);
            }
            Head::Name(name) => {
                if name.eq_ignore_ascii_case("final answer") {
                    self.track = Track::Done;
                } else {
                    self.send_action(seen, name, events);
                    self.track = Track::AwaitInputLabel;
                }
            }
        }
    }

    /// The input's first text is known: what kind of input it is decides where it ends.
    fn start_input(&mut self, seen: &Record, rest: &str, n: usize, events: &mut Vec<ParseEvent>) {
        let t = trim_start(rest);
        if t.starts_with('{') || t.starts_with('[') {
            let mut scan = JsonScan::default();
            let closed = scan.feed(t.as_bytes()).is_some();
            self.track = Track::Json(scan);
            if closed {
                self.emit_input(seen, n, events);
            }
        } else if t.starts_with("```") || t.starts_with("~~~") {
            if t.get(3..).is_some_and(|r| r.contains("```")) {
                self.emit_input(seen, n, events);
            } else {
                self.track = Track::Fence;
            }
        } else {
            self.track = Track::Plain;
        }
    }

    /// The tool is named: sent at once when it is a tool (not the paper's `Finish`).
    fn send_action(&mut self, seen: &Record, name: &str, events: &mut Vec<ParseEvent>) {
        if let Ok(tool) = tool_name(name, seen.options) {
            if !is_finish(tool, seen.options) {
                self.action_sent = true;
                events.push(ParseEvent::Action(tool.to_string()));
            }
        }
    }

    /// The first action's input is complete after `lines[..n]`: read it exactly as `finish`
    /// would (one resolve over the prefix, done once per reply, so still linear).
    fn emit_input(&mut self, seen: &Record, n: usize, events: &mut Vec<ParseEvent>) {
        self.track = Track::Done;
        let n = n.min(seen.lines.len());
        let upto = seen.lines.get(n.wrapping_sub(1)).map_or(0, |l| l.end);
        let prefix = sub(seen.text, 0, upto);
        self.work += prefix.len() as u64;
        let parsed = resolve(prefix, &seen.lines[..n], seen.options);
        if let Verdict::Action { tool, input, .. } = parsed.verdict {
            if !self.action_sent {
                self.action_sent = true;
                events.push(ParseEvent::Action(tool.clone()));
            }
            events.push(ParseEvent::ActionInput(input));
        }
    }
}
