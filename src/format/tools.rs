//! Native tool calling (`tools`, and `auto`, which falls back to `mrkl`): the provider's own
//! tool-call API instead of text labels.
//!
//! The tools travel as JSON Schemas in the request (OpenAI `tools`, Anthropic `tools`), so the
//! prompt only says how to behave. The model's text before a call is the step's thought; a
//! reply without a call is the final answer; a reply with several calls runs them all. Each
//! step is rendered back as an assistant turn carrying its tool calls under the provider's own
//! ids (some servers check them; `call_<step>` when there is none) followed by a `tool`
//! message with each observation, which is how both APIs expect a conversation with tools to
//! continue. No stop sequence is needed: the provider ends the reply at the call.
//!
//! This is the robust alternative the seed articles recommend once a model supports it. It is
//! not always there: some endpoints reject `tools`, and some models answer in text ReAct
//! anyway; `auto` notices either ([`rejected`], [`read`]) and continues the run in the `mrkl`
//! text format.

use super::parse::{parse, Parsed, Verdict, Why};
use super::{Format, Lang};
use crate::chat::{Message, Role, Thinking, ToolCall};
use crate::error::{Error, ErrorKind};
use crate::zh::{self, Zh};

/// The English instructions.
pub const PROMPT_EN: &str = "Answer the user's question as best you can. You can call tools to look things up or to calculate. Before each tool call, say briefly what you are thinking and why you need the tool. When you know the answer, reply with the final answer only, without calling a tool.";

/// The system message in `lang`.
/// (The Chinese text is `tools` in data/zh.json: see `crate::zh`.)
pub fn instructions(lang: Lang) -> String {
    match lang {
        Lang::En => PROMPT_EN,
        Lang::Zh => zh::text(Zh::Tools),
    }
    .to_string()
}

/// The id tao gives call `k` (0-based) of step `n` when the provider gave none (text runs,
/// older files): ids only need to pair a call with its result.
pub fn call_id(n: u32, k: usize) -> String {
    match k {
        0 => format!("call_{n}"),
        k => format!("call_{n}_{}", k + 1),
    }
}

/// A step that acted, as the APIs expect it, added to `messages`: an assistant turn carrying
/// its tool calls (and the reasoning it began with, for the APIs that want it back), then each
/// call's result under the call's id, in order.
pub fn turn(
    thought: &str,
    calls: Vec<(ToolCall, &str)>,
    thinking: Option<&Thinking>,
    messages: &mut Vec<Message>,
) {
    let mut turn = Message::new(Role::Assistant, thought);
    turn.thinking = thinking.cloned();
    let mut results = Vec::new();
    for (call, observation) in calls {
        let mut result = Message::new(Role::Tool, observation);
        result.tool_call_id = Some(call.id.clone());
        results.push(result);
        turn.tool_calls.push(call);
    }
    messages.push(turn);
    messages.append(&mut results);
}

/// What a reply in native tool calling means: a call is the action (the text before it the
/// thought), text alone is the answer. In `auto`, a text reply written in text ReAct (labels
/// like `Action:` or `Final Answer:`) means the model does not do tool calls: `Err` says why,
/// and the run falls back to `mrkl`.
pub fn read(
    text: &str,
    calls: &[ToolCall],
    format: Format,
    tools: &[String],
) -> Result<Parsed, &'static str> {
    // Several calls at once all run (the agent records the others beside the first).
    let verdict = if let Some(call) = calls.first() {
        Verdict::Action {
            thought: text.to_string(),
            tool: call.name.clone(),
            input: call.arguments.clone(),
        }
    } else {
        if format == Format::Auto {
            // Is this text ReAct? Plain prose would read as mrkl's final answer, which is not
            // the question here: a plain reply is the native answer.
            let mut options = Format::Mrkl.parse_options_named(tools.to_vec());
            options.prose_is_answer = false;
            let parsed = parse(text, &options);
            let plain = matches!(
                &parsed.verdict,
                Verdict::Error {
                    why: Why::NoAction | Why::Empty,
                    ..
                }
            );
            if !plain {
                return Err("the model answered in text ReAct instead of calling a tool");
            }
        }
        match text.trim() {
            "" => Verdict::Error {
                thought: String::new(),
                why: Why::Empty,
                message:
                    "Your reply was empty. Call one of the tools, or reply with the final answer."
                        .into(),
            },
            answer => Verdict::Final {
                thought: String::new(),
                answer: answer.to_string(),
            },
        }
    };
    Ok(Parsed {
        verdict,
        notes: Vec::new(),
        cut_at: None,
    })
}

/// What to do when the endpoint refused native tool calling: `auto` falls back to text ReAct
/// (`Ok` with the reason, for the switch); `tools` fails, saying what to choose instead.
pub fn rejected(format: Format, mut error: Error) -> Result<String, Error> {
    match (format, error.kind) {
        (Format::Auto, ErrorKind::ToolsRejected) => Ok(error.message),
        (_, ErrorKind::ToolsRejected) => {
            error.message += "; choose the format \"auto\" to fall back to text ReAct, or \"mrkl\"";
            Err(error)
        }
        _ => Err(error),
    }
}
