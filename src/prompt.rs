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
    let observation = step.observation.as_deref();
    // A reply that could not be read is shown as the model wrote it, so it can see its mistake
    // next to the repair observation; a good one is shown in canonical form. (A native tool
    // call stays a call even when its input was refused: the APIs expect every call to be
    // answered by a tool result, and the repair is that result.)
    let repaired = step.repair.is_some() && !format.is_native();
    let next = match (repaired, &step.action, &step.answer) {
        (false, Some(action), _) => Move::Act {
            tool: &action.tool,
            input: &action.input,
        },
        (false, None, Some(answer)) => Move::Answer(answer),
        _ => {
            messages.push(Message::new(Role::Assistant, step.raw().trim()));
            if let Some(observation) = observation {
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
        let acted = matches!(next, Move::Act { .. });
        let Some(action) = step.action.as_ref().filter(|_| acted) else {
            let answer = step.answer.as_deref().unwrap_or("");
            return messages.push(Message::new(Role::Assistant, answer));
        };
        // The step's own call, then the others of the same reply, each under its id.
        let own = std::iter::once((action, observation));
        let others = step
            .parallel
            .iter()
            .map(|p| (&p.action, p.observation.as_deref()));
        let calls = own.chain(others).enumerate().map(|(k, (a, seen))| {
            let id =
                a.id.clone()
                    .unwrap_or_else(|| tools::call_id(step.index, k));
            let (name, arguments) = (a.tool.clone(), a.input.clone());
            (
                ToolCall {
                    id,
                    name,
                    arguments,
                },
                seen.unwrap_or(""),
            )
        });
        let thinking = step.calls.last().and_then(|c| c.thinking.as_ref());
        return tools::turn(&step.thought, calls.collect(), thinking, messages);
    }
    let text = format.turn(step.index, &step.thought, next);
    messages.push(Message::new(Role::Assistant, text));
    if let Some(observation) = observation {
        let text = format.observation(step.index, observation);
        messages.push(Message::new(Role::User, text));
    }
    // The other calls of a native step, read as text once `auto` fell back to it: each an
    // action of its own, with its observation.
    for p in &step.parallel {
        let (tool, input) = (&p.action.tool, &p.action.input);
        let text = format.turn(step.index, "", Move::Act { tool, input });
        messages.push(Message::new(Role::Assistant, text));
        if let Some(observation) = &p.observation {
            let text = format.observation(step.index, observation);
            messages.push(Message::new(Role::User, text));
        }
    }
}
