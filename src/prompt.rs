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
//!
//! A run renders the prompt once a step, and the prompt of step k+1 is the prompt of step k
//! and two messages more. [`Renderer`] keeps the last prompt with what each of its steps was
//! rendered from, and renders again only the steps that differ from that (it compares them
//! all, so the kept messages cannot drift from the trajectory, however it was edited between
//! calls). So a step costs what is new in it, not the whole history again. Within one loop
//! (`Agent::run`, `Agent::resume`: see [`Renderer::vouch`]) the steps already shown in that
//! loop are not compared again, nor copied to be: the loop holds the trajectory, and the steps
//! it changes are ones it has not shown yet (debug builds, and so the tests, compare them
//! anyway, and fail if one changed). After the loop, they are rendered again.

use crate::chat::{Message, Role, Thinking, ToolCall};
use crate::format::{tools, Format, Lang, Move};
use crate::json::Value;
use crate::text::same;
use crate::tools::{Registry, Tool};
use crate::trajectory::{Action, Memo, MemoKind, ParallelCall, Step, Trajectory};
use std::cell::RefCell;
use std::rc::Rc;

/// The whole prompt for the next step of `trajectory`.
pub fn render(trajectory: &Trajectory, registry: &Registry) -> Vec<Message> {
    render_with(trajectory, registry, None)
}

/// Like [`render`], with `exemplars` in place of the format's worked example (see
/// [`Format::instructions`]).
pub fn render_with(
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

/// Renders prompts as [`render_with`] does, keeping the last one (see the module's
/// documentation). [`Renderer::take`] lends it out for a model call, [`Renderer::keep`] takes
/// it back; a prompt not given back is rendered whole the next time.
#[derive(Default)]
pub struct Renderer(RefCell<Kept>);

#[derive(Default)]
struct Kept {
    /// The last prompt (empty while it is lent out).
    messages: Vec<Message>,
    /// What its system message and question were rendered from.
    head: Option<Head>,
    /// Each step it shows, as it was then, and how many messages that step rendered to. A step
    /// shown in a loop is not copied (`None`): the loop will not compare it again, and once the
    /// loop is over it reads as changed.
    steps: Vec<(Option<Shown>, usize)>,
    /// Debug builds: each step shown, as it was then (a loop's too), to check the loop's word.
    #[cfg(debug_assertions)]
    witnessed: Vec<Shown>,
    /// How many messages the prompt has, once it is given back.
    len: usize,
    /// How many of the last prompt's first messages are those of the one given back before it.
    unchanged: usize,
    /// The trajectory a loop holds and vouches for (its address: see [`Renderer::vouch`]).
    vouched_for: Option<usize>,
    /// How many of the kept steps were shown to that loop, and so are known unchanged.
    vouched: usize,
}

/// While it lives, the loop that holds it vouches that the steps it was shown do not change
/// (see [`Renderer::vouch`]).
pub struct Vouch<'a>(&'a Renderer);

impl Drop for Vouch<'_> {
    fn drop(&mut self) {
        // (Whichever loop ends, no loop's word is taken any more: at worst, one still running
        // has its steps compared again.)
        if let Ok(mut kept) = self.0 .0.try_borrow_mut() {
            (kept.vouched_for, kept.vouched) = (None, 0);
        }
    }
}

/// A trajectory's address: which trajectory a loop holds (no other can be at it meanwhile).
fn address(trajectory: &Trajectory) -> usize {
    trajectory as *const Trajectory as usize
}

struct Head {
    format: Format,
    lang: Lang,
    exemplars: Option<String>,
    /// The tools, themselves: a tool's spec cannot change while it is held.
    tools: Vec<Rc<dyn Tool>>,
    task: String,
}

impl Renderer {
    /// Called by a loop that holds `trajectory` (borrowed mutably, so nobody else changes it)
    /// and changes no step of it once it has shown it: until the guard is dropped, the steps of
    /// it [`Renderer::take`] has shown are not compared again, nor copied to be. The first take
    /// compares them all (the trajectory may have been edited before the loop began), and so
    /// does a take of any other trajectory (another run of the same agent, meanwhile).
    pub fn vouch(&self, trajectory: &Trajectory) -> Vouch<'_> {
        if let Ok(mut kept) = self.0.try_borrow_mut() {
            (kept.vouched_for, kept.vouched) = (Some(address(trajectory)), 0);
        }
        Vouch(self)
    }

    /// The prompt for the next step of `trajectory`: the same messages as
    /// [`render_with`]`(trajectory, registry, exemplars)`.
    pub fn take(
        &self,
        trajectory: &Trajectory,
        registry: &Registry,
        exemplars: Option<&str>,
    ) -> Vec<Message> {
        let Ok(mut kept) = self.0.try_borrow_mut() else {
            return render_with(trajectory, registry, exemplars);
        };
        kept.unchanged = 0;
        // Memos change earlier messages (a summary stands in for steps): rendered whole.
        if !trajectory.memos.is_empty() {
            kept.head = None;
            return render_with(trajectory, registry, exemplars);
        }
        let (format, lang) = (trajectory.format, trajectory.lang);
        let same_head = kept.head.as_ref().is_some_and(|h| {
            (h.format, h.lang) == (format, lang)
                && h.exemplars.as_deref() == exemplars
                && h.task == trajectory.task
                && h.tools.len() == registry.tools().len()
                && h.tools
                    .iter()
                    .zip(registry.tools())
                    .all(|(a, b)| Rc::ptr_eq(a, b))
        });
        let mut messages = std::mem::take(&mut kept.messages);
        let whole = !same_head || messages.len() != kept.len;
        if whole {
            kept.steps.clear();
            #[cfg(debug_assertions)]
            kept.witnessed.clear();
            let start = Trajectory::new(&trajectory.task, format, lang, "");
            messages = render_with(&start, registry, exemplars);
            kept.head = Some(Head {
                format,
                lang,
                exemplars: exemplars.map(str::to_string),
                tools: registry.tools().to_vec(),
                task: trajectory.task.clone(),
            });
        }
        // The steps shown as they were last time keep their messages; the rest are rendered.
        // (Those the loop that holds the trajectory was shown are known unchanged.)
        let held = kept.vouched_for == Some(address(trajectory));
        if !held {
            kept.vouched = 0;
        }
        let vouched = kept
            .vouched
            .min(kept.steps.len())
            .min(trajectory.steps.len());
        #[cfg(debug_assertions)]
        assert!(
            kept.witnessed[..vouched]
                .iter()
                .zip(&trajectory.steps)
                .all(|(then, now)| same_turn(then, now)),
            "a step changed after its loop was shown it"
        );
        let same_steps = vouched
            + kept.steps[vouched..]
                .iter()
                .zip(&trajectory.steps[vouched..])
                .take_while(|((then, _), now)| then.as_ref().is_some_and(|t| same_turn(t, now)))
                .count();
        let shown: usize = kept.steps[same_steps..].iter().map(|(_, n)| n).sum();
        messages.truncate(messages.len() - shown);
        kept.steps.truncate(same_steps);
        #[cfg(debug_assertions)]
        kept.witnessed.truncate(same_steps);
        if !whole {
            kept.unchanged = messages.len();
        }
        for step in &trajectory.steps[same_steps..] {
            let before = messages.len();
            turn(format, step, &mut messages);
            let copy = (!held).then(|| Shown::of(step));
            kept.steps.push((copy, messages.len() - before));
            #[cfg(debug_assertions)]
            kept.witnessed.push(Shown::of(step));
        }
        if held {
            kept.vouched = kept.steps.len();
        }
        messages
    }

    /// How many first messages of the prompt [`Renderer::take`] last gave are those of the
    /// prompt given back before it, unchanged (0 when either was rendered whole): what a
    /// model that converts the messages need not convert again.
    pub fn unchanged(&self) -> usize {
        self.0.try_borrow().map_or(0, |kept| kept.unchanged)
    }

    /// Takes back the prompt [`Renderer::take`] gave, to build the next one from.
    pub fn keep(&self, messages: Vec<Message>) {
        if let Ok(mut kept) = self.0.try_borrow_mut() {
            kept.len = messages.len();
            kept.messages = messages;
        }
    }
}

/// What [`turn`] reads of a step, as it was when its messages were rendered (a copy of these
/// fields only: the step's calls and notes are not needed to tell whether it changed).
struct Shown {
    index: u32,
    thought: String,
    action: Option<Action>,
    answer: Option<String>,
    observation: Option<String>,
    repaired: bool,
    parallel: Vec<ParallelCall>,
    /// The reasoning of the model's last call, and its reply.
    thinking: Option<Thinking>,
    raw: String,
}

impl Shown {
    fn of(step: &Step) -> Shown {
        Shown {
            index: step.index,
            thought: step.thought.clone(),
            action: step.action.clone(),
            answer: step.answer.clone(),
            observation: step.observation.clone(),
            repaired: step.repair.is_some(),
            parallel: step.parallel.clone(),
            thinking: last_thinking(step).cloned(),
            raw: step.raw().to_string(),
        }
    }
}

fn last_thinking(step: &Step) -> Option<&Thinking> {
    step.calls.last().and_then(|c| c.thinking.as_ref())
}

/// Whether step `now` reads as step `then` did: the same of everything [`turn`] reads.
fn same_turn(then: &Shown, now: &Step) -> bool {
    let same_text = |a: &Option<String>, b: &Option<String>| match (a, b) {
        (Some(a), Some(b)) => same(a, b),
        (a, b) => a.is_none() && b.is_none(),
    };
    then.index == now.index
        && same(&then.thought, &now.thought)
        && match (&then.action, &now.action) {
            (Some(a), Some(b)) => same_action(a, b),
            (a, b) => a.is_none() && b.is_none(),
        }
        && same_text(&then.answer, &now.answer)
        && same_text(&then.observation, &now.observation)
        && then.repaired == now.repair.is_some()
        && then.parallel == now.parallel
        && then.thinking.as_ref() == last_thinking(now)
        && same(&then.raw, now.raw())
}

/// Whether two actions are equal, a text input compared as [`same`] compares (the derived
/// comparison goes through `Value`'s, a chain of calls in the wasm).
fn same_action(a: &Action, b: &Action) -> bool {
    let same_input = match (&a.input, &b.input) {
        (Value::String(x), Value::String(y)) => same(x, y),
        (x, y) => x == y,
    };
    same(&a.tool, &b.tool) && same_input && a.id == b.id
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
        let thinking = last_thinking(step);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::FnTool;
    use crate::trajectory::{Action, ModelCall, Repair};
    use std::rc::Rc;

    fn step(index: u32, thought: &str, observation: &str) -> Step {
        Step {
            thought: thought.into(),
            action: Some(Action {
                tool: "echo".into(),
                input: format!("token-{index}").into(),
                id: None,
            }),
            observation: Some(observation.into()),
            calls: vec![ModelCall {
                raw: format!("{thought}\nAction: echo\nAction Input: token-{index}"),
                ..ModelCall::default()
            }],
            ..Step::new(index)
        }
    }

    /// A kept prompt is the prompt rendered whole, however the trajectory changed since the
    /// last one: grown, an earlier step edited, repaired or answered, another format, a memo.
    #[test]
    fn a_kept_prompt_is_the_whole_prompt() {
        let mut registry = Registry::new();
        let echo = |s: &str| Ok(s.to_string());
        registry.register(Rc::new(FnTool::new("echo", "Repeats.", "text", echo)));
        let renderer = Renderer::default();
        let mut t = Trajectory::new("Echo the tokens", Format::Mrkl, Lang::En, "m");
        let check = |t: &Trajectory, registry: &Registry, what: &str| {
            let kept = renderer.take(t, registry, None);
            assert_eq!(kept, render_with(t, registry, None), "{what}");
            renderer.keep(kept);
        };
        check(&t, &registry, "no step yet");
        for i in 1..=4 {
            t.steps.push(step(
                i,
                &format!("Thought {i}."),
                &format!("echo:token-{i}"),
            ));
            check(&t, &registry, "one step more");
        }
        t.steps[1].observation = Some("echo:token-X".into());
        check(&t, &registry, "an earlier observation edited");
        t.steps[0].thought = "Another thought.".into();
        check(&t, &registry, "the first thought edited");
        t.steps[2].repair = Some(Repair::default());
        check(&t, &registry, "an earlier step repaired: shown as written");
        t.steps[2].calls[0].raw = "I am not sure.".into();
        check(&t, &registry, "its raw reply edited");
        t.steps[3].action = None;
        t.steps[3].answer = Some("42".into());
        check(&t, &registry, "the last step answered");
        t.steps.truncate(2);
        check(&t, &registry, "steps taken away");
        t.format = Format::Paper;
        check(&t, &registry, "another format");
        t.task = "Another question".into();
        check(&t, &registry, "another question");
        registry.register(Rc::new(FnTool::new("shout", "Shouts.", "text", echo)));
        check(&t, &registry, "another tool");
        t.memos.push(Memo {
            kind: MemoKind::Reflection,
            after: 1,
            covers: 0,
            text: "Think again.".into(),
            call: None,
        });
        check(&t, &registry, "a reflection");
        t.memos.clear();
        check(&t, &registry, "no reflection again");
        // Not given back: rendered whole.
        let lost = renderer.take(&t, &registry, None);
        assert_eq!(renderer.take(&t, &registry, None), lost);
    }

    /// A loop's word holds for its own trajectory only: another trajectory of the same task,
    /// rendered by the same renderer meanwhile (another run of the same agent), is compared in
    /// full, and so is the loop's own once the loop is over.
    #[test]
    fn a_vouched_prompt_is_the_whole_prompt_too() {
        let mut registry = Registry::new();
        let echo = |s: &str| Ok(s.to_string());
        registry.register(Rc::new(FnTool::new("echo", "Repeats.", "text", echo)));
        let renderer = Renderer::default();
        let check = |t: &Trajectory, what: &str| {
            let kept = renderer.take(t, &registry, None);
            assert_eq!(kept, render_with(t, &registry, None), "{what}");
            renderer.keep(kept);
        };
        let mut held = Trajectory::new("Echo the tokens", Format::Mrkl, Lang::En, "m");
        let mut other = held.clone();
        for i in 1..=3 {
            held.steps.push(step(i, &format!("Thought {i}."), "echo:a"));
            other.steps.push(step(i, &format!("Other {i}."), "echo:b"));
        }
        let shown = renderer.vouch(&held);
        check(&held, "the held trajectory");
        check(&other, "another one meanwhile");
        held.steps.push(step(4, "Thought 4.", "echo:a"));
        check(&held, "the held one, a step more");
        check(&other, "the other one again");
        check(&held, "the held one again");
        drop(shown);
        held.steps[0].thought = "Edited after the loop.".into();
        check(&held, "edited once the loop is over");
    }
}
