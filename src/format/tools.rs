//! Native tool calling (`tools`, and `auto`, which falls back to `mrkl`): the provider's own
//! tool-call API instead of text labels.
//!
//! The tools travel as JSON Schemas in the request (OpenAI `tools`, Anthropic `tools`), so the
//! prompt only says how to behave. The model's text before a call is the step's thought; a
//! reply without a call is the final answer. Each step is rendered back as an assistant turn
//! carrying its tool call (id `call_<step>`) followed by a `tool` message with the observation,
//! which is how both APIs expect a conversation with tools to continue. No stop sequence is
//! needed: the provider ends the reply at the call.
//!
//! This is the robust alternative the seed articles recommend once a model supports it. It is
//! not always there: some endpoints reject `tools`, and some models answer in text ReAct
//! anyway; `auto` notices either and continues the run in the `mrkl` text format.

use super::Lang;
use crate::llm::{Message, Role, ToolCall};
use crate::trajectory::Trajectory;

/// The English instructions.
pub const PROMPT_EN: &str = "Answer the user's question as best you can. You can call tools to look things up or to calculate. Before each tool call, say briefly what you are thinking and why you need the tool. Call one tool at a time and wait for its result. When you know the answer, reply with the final answer only, without calling a tool.";

/// The Chinese instructions.
pub const PROMPT_ZH: &str = "尽你所能回答用户的问题。你可以调用工具来查找信息或进行计算。每次调用工具之前,先简要说明你的思考以及为什么需要这个工具。一次只调用一个工具,并等待它的结果。当你知道答案时,直接给出最终答案,不要再调用工具。";

/// The system message in `lang`.
pub fn instructions(lang: Lang) -> String {
    match lang {
        Lang::En => PROMPT_EN,
        Lang::Zh => PROMPT_ZH,
    }
    .to_string()
}

/// The id tao gives the tool call of step `n` (ids only need to pair a call with its result).
pub fn call_id(n: u32) -> String {
    format!("call_{n}")
}

/// The conversation so far, with tool calls and tool results as the APIs expect them.
pub fn render(trajectory: &Trajectory, lang: Lang) -> Vec<Message> {
    let mut messages = vec![
        Message::new(Role::System, instructions(lang)),
        Message::new(Role::User, trajectory.task.clone()),
    ];
    for step in &trajectory.steps {
        let observation = step.observation.clone().unwrap_or_default();
        match (&step.action, &step.answer) {
            (Some(action), _) => {
                let mut turn = Message::new(Role::Assistant, step.thought.clone());
                turn.tool_calls.push(ToolCall {
                    id: call_id(step.index),
                    name: action.tool.clone(),
                    arguments: action.input.clone(),
                });
                messages.push(turn);
                let mut result = Message::new(Role::Tool, observation);
                result.tool_call_id = Some(call_id(step.index));
                messages.push(result);
            }
            (None, Some(answer)) => messages.push(Message::new(Role::Assistant, answer.clone())),
            // A reply that was neither (empty, or unreadable text): shown as it was, with the
            // repair message as the user's answer.
            (None, None) => {
                messages.push(Message::new(Role::Assistant, step.raw.trim().to_string()));
                if step.observation.is_some() {
                    messages.push(Message::new(Role::User, observation));
                }
            }
        }
    }
    messages
}
