//! The prompt, rendered from the trajectory: what the model reads at each step.
//!
//! A system message with the instructions (and, in the text formats, the tools), the question,
//! then for each step the model's own turn and what it observed. Nothing here is remembered
//! between steps: the prompt of step k is the rendering of the first k-1 steps, so what the
//! model reads can always be shown exactly (the CLI's `--show-prompts`, the page's prompt
//! view), and a trajectory that was edited or imported is read just as it now stands.
//!
//! The format in force is the trajectory's own: after `auto` falls back to text ReAct, the
//! whole prompt (instructions, tool list, earlier steps) is text ReAct.
//!
//! A long run's memos (see `crate::agent::memory`) change what is shown, never what happened:
//! the latest summary stands in for the steps it covers, right after the question, and each
//! reflection follows the step it was written after.

use crate::chat::{Message, Role, ToolCall};
use crate::format::{tools, Format, Lang, Move};
use crate::tools::Registry;
use crate::trajectory::{Memo, MemoKind, Step, Trajectory};

/// The whole prompt for the next step of `trajectory`, with `exemplars` (when given) in place
/// of the format's worked example (see [`Format::instructions`]).
pub fn render(
    trajectory: &Trajectory,
    registry: &Registry,
    exemplars: Option<&str>,
) -> Vec<Message> {
    let (format, lang) = (trajectory.format, trajectory.lang);
    let question = match format.is_native() {
        true => trajectory.task.clone(),
        false => format!("Question: {}", trajectory.task),
    };
    let mut messages = vec![
        Message::new(Role::System, format.instructions(registry, lang, exemplars)),
        Message::new(Role::User, question),
    ];
    let summary = trajectory.summary();
    if let Some(memo) = summary {
        say(&mut messages, memo_text(trajectory.lang, memo));
    }
    let from = summary.map_or(0, |m| m.covers);
    for step in trajectory.steps.iter().filter(|s| s.index > from) {
        turn(format, step, &mut messages);
        let reflections = trajectory
            .memos
            .iter()
            .filter(|m| m.kind == MemoKind::Reflection);
        for memo in reflections.filter(|m| m.after == step.index) {
            say(&mut messages, memo_text(trajectory.lang, memo));
        }
    }
    messages
}

/// The prompt of a loop's last model call, kept so that the next call renders only the steps
/// added since. Within one loop (`Agent::run`, `Agent::resume`) the loop holds the trajectory,
/// and a step it has rendered is complete and never changes again (a step is rendered once its
/// tools have answered; only the step in progress changes), so the prompt of the next call is
/// this one and the turns of the steps that followed. A new memo (a summary stands in for
/// earlier steps, a reflection joins an observation) or a change of format renders it whole.
///
/// This is the one saving of its kind tao keeps: rendering the whole prompt every call was the
/// dearest part of a turn after the model itself (the instructions alone a tenth of it at 10
/// steps, and the steps' turns grew with the run), and what made a 50-step run's turns dearer
/// than a 10-step run's (`make bench`).
#[derive(Default)]
pub struct Prompt {
    messages: Vec<Message>,
    /// The trajectory's steps, memos and format when `messages` was rendered.
    steps: usize,
    memos: usize,
    format: Option<Format>,
}

impl Prompt {
    /// The prompt for the next step of `trajectory`: what [`render`] renders.
    pub fn next(
        &mut self,
        trajectory: &Trajectory,
        registry: &Registry,
        exemplars: Option<&str>,
    ) -> &[Message] {
        let (steps, memos) = (trajectory.steps.len(), trajectory.memos.len());
        let kept = self.format == Some(trajectory.format) && self.memos == memos;
        if !kept || self.steps > steps {
            self.messages = render(trajectory, registry, exemplars);
        } else {
            for step in &trajectory.steps[self.steps..] {
                turn(trajectory.format, step, &mut self.messages);
            }
        }
        (self.steps, self.memos, self.format) = (steps, memos, Some(trajectory.format));
        &self.messages
    }
}

/// A memo as the model reads it.
fn memo_text(lang: Lang, memo: &Memo) -> String {
    let (covers, after, text) = (memo.covers, memo.after, &memo.text);
    match (memo.kind, lang) {
        (MemoKind::Summary, Lang::Zh) => {
            format!("第 1-{covers} 步的摘要(为缩短提示词而压缩):\n{text}")
        }
        (MemoKind::Summary, _) => {
            format!("Summary of steps 1-{covers} (condensed to keep the prompt short):\n{text}")
        }
        (MemoKind::Reflection, Lang::Zh) => format!("第 {after} 步之后的反思:\n{text}"),
        (MemoKind::Reflection, _) => format!("Reflection after step {after}:\n{text}"),
    }
}

/// Adds words of tao's to the user's side of the conversation: to the last message when it is
/// the user's (the question, an observation), else as a message of its own.
fn say(messages: &mut Vec<Message>, text: String) {
    match messages.last_mut() {
        Some(last) if last.role == Role::User && last.tool_call_id.is_none() => {
            last.content = format!("{}\n\n{text}", last.content);
        }
        _ => messages.push(Message::new(Role::User, text)),
    }
}

/// Step `step` as the model reads it: its own turn, then the observation.
fn turn(format: Format, step: &Step, messages: &mut Vec<Message>) {
    // A reply that could not be read is shown as the model wrote it, so it can see its mistake
    // next to the repair observation; a good one is shown in canonical form. (A native tool
    // call stays a call even when its input was refused: the APIs expect every call to be
    // answered by a tool result, and the repair is that result.)
    let repaired = step.repaired() && !format.is_native();
    let next = match (repaired, step.action(), &step.answer) {
        (false, Some(action), _) => Move::Act {
            tool: &action.tool,
            input: &action.input,
        },
        (false, None, Some(answer)) => Move::Answer(answer),
        _ => {
            messages.push(Message::new(Role::Assistant, step.raw().trim()));
            if let Some(observation) = step.observation() {
                let text = match format.is_native() {
                    true => observation.to_string(),
                    false => format.observation(step.index, observation),
                };
                messages.push(Message::new(Role::User, text));
            }
            return;
        }
    };
    if format.is_native() {
        return native_turn(step, matches!(next, Move::Act { .. }), messages);
    }
    // Each action of the step (one in text ReAct; several when `auto` fell back to text after
    // a native reply made several calls), with its observation.
    let text = format.turn(step.index, &step.thought, next);
    messages.push(Message::new(Role::Assistant, text));
    for (k, call) in step.tool_calls.iter().enumerate() {
        if k > 0 {
            let (tool, input) = (&call.action.tool, &call.action.input);
            let text = format.turn(step.index, "", Move::Act { tool, input });
            messages.push(Message::new(Role::Assistant, text));
        }
        if let Some(observation) = &call.observation {
            let text = format.observation(step.index, observation);
            messages.push(Message::new(Role::User, text));
        }
    }
}

/// A step in native tool calling: the assistant turn with its calls, each under its id, then
/// a tool message answering each; or the answer.
fn native_turn(step: &Step, acted: bool, messages: &mut Vec<Message>) {
    if !acted || step.tool_calls.is_empty() {
        let answer = step.answer.as_deref().unwrap_or("");
        return messages.push(Message::new(Role::Assistant, answer));
    }
    let calls = step.tool_calls.iter().enumerate().map(|(k, call)| {
        let a = &call.action;
        let id = (a.id.clone()).unwrap_or_else(|| tools::call_id(step.index, k));
        let (name, arguments) = (a.tool.clone(), a.input.clone());
        let seen = call.observation.as_deref().unwrap_or("");
        (
            ToolCall {
                id,
                name,
                arguments,
            },
            seen,
        )
    });
    let thinking = step.model_calls.last().and_then(|c| c.thinking.as_ref());
    tools::turn(&step.thought, calls.collect(), thinking, messages)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::FnTool;
    use crate::trajectory::{Action, ModelCall, ToolCall};
    use std::rc::Rc;

    fn step(index: u32) -> Step {
        let input = format!("token-{index}");
        Step {
            thought: format!("Thought {index}."),
            tool_calls: vec![ToolCall {
                action: Action {
                    tool: "echo".into(),
                    input: input.clone().into(),
                    id: None,
                },
                observation: Some(format!("echo:{input}")),
                ..ToolCall::default()
            }],
            model_calls: vec![ModelCall::default()],
            ..Step::new(index)
        }
    }

    /// A loop's kept prompt is the prompt rendered whole, however the trajectory grew: a step
    /// more, a memo, a change of format.
    #[test]
    fn a_kept_prompt_is_the_whole_prompt() {
        let mut registry = Registry::new();
        let echo = |s: &str| Ok(s.to_string());
        registry.register(Rc::new(FnTool::new("echo", "Repeats.", "text", echo)));
        let mut kept = Prompt::default();
        let mut t = Trajectory::new("Echo the tokens", Format::Mrkl, Lang::En, "m");
        let mut check = |t: &Trajectory, what: &str| {
            let whole = render(t, &registry, None);
            assert_eq!(kept.next(t, &registry, None), whole.as_slice(), "{what}");
        };
        check(&t, "no step yet");
        check(&t, "asked again: no step more");
        for i in 1..=3 {
            t.steps.push(step(i));
            check(&t, "one step more");
        }
        t.memos.push(Memo {
            kind: MemoKind::Reflection,
            after: 3,
            covers: 0,
            text: "Think again.".into(),
            call: None,
        });
        check(&t, "a reflection");
        t.steps.push(step(4));
        check(&t, "a step after the reflection");
        t.memos.push(Memo {
            kind: MemoKind::Summary,
            after: 4,
            covers: 3,
            text: "Tokens 1 to 3 echoed.".into(),
            call: None,
        });
        check(&t, "a summary");
        t.steps.push(step(5));
        check(&t, "a step after the summary");
        t.format = Format::Paper;
        check(&t, "another format");
    }
}
