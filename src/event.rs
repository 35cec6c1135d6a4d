//! What happens during a run, as it happens: the page draws these, an embedder listens to
//! them, and tests check their order.
//!
//! Events are a live view; the trajectory is the record. Everything an event says is also in
//! the trajectory once the step is over (except the streamed tokens, whose sum is each model
//! call's `raw`), so a page can always redraw from the trajectory alone.

use crate::json::Value;
use crate::to_json::{JsonWriter, ToJson};
use crate::trajectory::{MemoKind, Repair, Step, StopReason, Trajectory};

/// What happens during a run, as it happens (the page draws these; tests check their order).
/// In every variant `index` is the 1-based step number and `text` the payload; `tool_call` is
/// the position of a tool call among those of its reply (0 unless the model made several at
/// once), and `n` the number of a model call within its step.
#[allow(missing_docs)] // the fields are named for what they hold; see above
#[derive(Clone, Debug, PartialEq)]
pub enum Event<'a> {
    /// Step `index` begins.
    Step { index: u32 },
    /// Model call `n` of the step begins. `retried`: it asks again because the previous reply
    /// could not be read (a bad call, as the paper counts them): why, and what the parser said
    /// of it (what was wrong, then the format to use); a call after a change of format is not
    /// one. `stats`: the run's counts as the call begins, counting it
    /// (`trajectory.stats_with(Some(step))`, worked out only when someone reads the event).
    ModelCall {
        index: u32,
        n: u32,
        retried: Option<&'a Repair>,
        trajectory: &'a Trajectory,
        step: &'a Step,
    },
    /// A streamed piece of the model's reply.
    Token { index: u32, text: &'a str },
    /// A streamed piece of the model's reasoning (reasoning models), before its reply.
    Reasoning { index: u32, text: &'a str },
    /// The step's thought is complete.
    Thought { index: u32, text: &'a str },
    /// The step's action is known.
    Action {
        index: u32,
        tool_call: u32,
        tool: &'a str,
        input: &'a Value,
    },
    /// A tool that needs approval was approved or denied by the user.
    Approval {
        index: u32,
        tool_call: u32,
        tool: &'a str,
        approved: bool,
    },
    /// What the tool returned, and the fuel it burned when it is a sandboxed wasm tool.
    Observation {
        index: u32,
        tool_call: u32,
        text: &'a str,
        fuel: Option<u64>,
        picture: Option<&'a Value>,
    },
    /// The reply could not be used; `message` is what the model is told.
    Repair {
        index: u32,
        tool_call: u32,
        why: &'a str,
        message: &'a str,
    },
    /// Something the reader should know (a cut stream, ignored text, a retry).
    Note { index: u32, text: &'a str },
    /// The model's files download before its first reply (the in-tab model): `loaded` of
    /// `total` bytes so far (`total` 0 when the server does not say).
    Download { index: u32, loaded: u64, total: u64 },
    /// The run continues in another format (`auto` falling back to text ReAct).
    Switch {
        index: u32,
        from: &'a str,
        to: &'a str,
        why: &'a str,
    },
    /// The final answer.
    Answer { index: u32, text: &'a str },
    /// A memo written after step `after`: a summary of steps 1 to `covers`, or a reflection
    /// (`covers` 0), written by the model or (`by_model` false) by tao from the steps. Its type
    /// is the memo's kind: `summary` or `reflection`.
    Memo {
        kind: MemoKind,
        after: u32,
        covers: u32,
        text: &'a str,
        by_model: bool,
    },
    /// The run ended.
    Stopped {
        reason: StopReason,
        message: Option<&'a str>,
    },
}

/// An event as the page receives it: `{"type": "thought", "index": 1, "text": "..."}`, the
/// variant's name (lowercase) first, then its fields.
impl ToJson for Event<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        match self {
            Event::Step { index } => out.object(&[("type", &"step"), ("index", index)]),
            Event::ModelCall {
                index,
                n,
                retried,
                trajectory,
                step,
            } => out.object(&[
                ("type", &"model_call"),
                ("index", index),
                ("n", n),
                ("retried", retried),
                ("stats", &trajectory.stats_with(Some(step))),
            ]),
            Event::Token { index, text } => {
                out.object(&[("type", &"token"), ("index", index), ("text", text)])
            }
            Event::Reasoning { index, text } => {
                out.object(&[("type", &"reasoning"), ("index", index), ("text", text)])
            }
            Event::Thought { index, text } => {
                out.object(&[("type", &"thought"), ("index", index), ("text", text)])
            }
            Event::Action {
                index,
                tool_call,
                tool,
                input,
            } => out.object(&[
                ("type", &"action"),
                ("index", index),
                ("tool_call", tool_call),
                ("tool", tool),
                ("input", input),
            ]),
            Event::Approval {
                index,
                tool_call,
                tool,
                approved,
            } => out.object(&[
                ("type", &"approval"),
                ("index", index),
                ("tool_call", tool_call),
                ("tool", tool),
                ("approved", approved),
            ]),
            Event::Observation {
                index,
                tool_call,
                text,
                fuel,
                picture,
            } => out.object(&[
                ("type", &"observation"),
                ("index", index),
                ("tool_call", tool_call),
                ("text", text),
                ("fuel", fuel),
                ("picture", picture),
            ]),
            Event::Repair {
                index,
                tool_call,
                why,
                message,
            } => out.object(&[
                ("type", &"repair"),
                ("index", index),
                ("tool_call", tool_call),
                ("why", why),
                ("message", message),
            ]),
            Event::Note { index, text } => {
                out.object(&[("type", &"note"), ("index", index), ("text", text)])
            }
            Event::Download {
                index,
                loaded,
                total,
            } => out.object(&[
                ("type", &"download"),
                ("index", index),
                ("loaded", loaded),
                ("total", total),
            ]),
            Event::Switch {
                index,
                from,
                to,
                why,
            } => out.object(&[
                ("type", &"switch"),
                ("index", index),
                ("from", from),
                ("to", to),
                ("why", why),
            ]),
            Event::Answer { index, text } => {
                out.object(&[("type", &"answer"), ("index", index), ("text", text)])
            }
            Event::Memo {
                kind,
                after,
                covers,
                text,
                by_model,
            } => out.object(&[
                ("type", &kind.name()),
                ("after", after),
                ("covers", covers),
                ("text", text),
                ("by_model", by_model),
            ]),
            Event::Stopped { reason, message } => out.object(&[
                ("type", &"stopped"),
                ("reason", reason),
                ("message", message),
            ]),
        }
    }
}

/// Receives events.
pub type Observer<'a> = &'a mut dyn FnMut(&Event);
