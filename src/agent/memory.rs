//! Memory for long runs: the agent writes *memos* between steps, which the following prompts
//! carry (see `crate::prompt`).
//!
//! - A **summary**, when the next prompt would outgrow its budget (`memory_tokens`, in
//!   estimated tokens): the oldest steps, all but the last `keep_steps`, are condensed, and the
//!   prompt then shows the summary in their place. (Seed 000's interview question: what to do
//!   when the history no longer fits.)
//! - A **reflection**, every `reflect_every` steps and after two failed actions in a row: what
//!   has been learned and what to try next (seed 003's reflection).
//!
//! The trajectory keeps every step either way: a summary changes what the model reads, never
//! what happened. The model writes the memo, with its own short prompt below; the offline
//! model cannot, so tao writes it from the steps (extractive: for each step, the sentence of
//! its observation that shares most words with the task), deterministically.

use super::{micros, Agent};
use crate::event::{Event, Observer};
use crate::format::{input_text, Lang};
use crate::llm::{Delta, Request};
use crate::text::estimate_tokens;
#[cfg(feature = "builtin-tools")]
use crate::text::{folded, sentences};
use crate::trajectory::{Memo, MemoKind, ModelCall, Step, StopReason, Trajectory};
#[cfg(feature = "builtin-tools")]
use crate::trajectory::{MemoSource, MemoStep};
use crate::zh::{self, Zh};

/// What the model is asked when it writes a summary (in Chinese: `summary` in data/zh.json).
const SUMMARY_EN: &str = "You keep the memory of a ReAct agent that is working on the question below. Its earliest steps no longer fit in its prompt. Condense them into a short summary, at most five sentences: the facts found, with the tool and input that found each; what was tried without success; what is still to find. Write only the summary.";
/// What the model is asked when it writes a reflection (in Chinese: `reflection` there).
const REFLECTION_EN: &str = "You are a ReAct agent working on the question below, pausing to reflect on your steps so far. In two or three sentences, say what you have learned, what went wrong (if anything), and what you will try next. Write only the reflection.";

/// The longest piece of an observation a memo's prompt quotes, in characters.
const QUOTE_CHARS: usize = 600;

impl Agent {
    /// Writes the memos due before the next step: a reflection, then a summary. Returns why
    /// the run must end if a memo's model call failed (the trajectory keeps what was done).
    pub(super) async fn remember(
        &self,
        trajectory: &mut Trajectory,
        on_event: Observer<'_>,
    ) -> Option<(StopReason, Option<String>)> {
        let after = trajectory.steps.len() as u32;
        if self.reflection_due(trajectory) {
            let memo = self.memo(trajectory, MemoKind::Reflection, after, 0).await;
            if let Some(stop) = self.keep(trajectory, memo, on_event) {
                return Some(stop);
            }
        }
        let covers = self.summary_due(trajectory)?;
        let memo = self
            .memo(trajectory, MemoKind::Summary, after, covers)
            .await;
        self.keep(trajectory, memo, on_event)
    }

    /// Adds a written memo to the trajectory and says so; a failed call ends the run.
    fn keep(
        &self,
        trajectory: &mut Trajectory,
        memo: Result<Memo, crate::error::Error>,
        on_event: Observer<'_>,
    ) -> Option<(StopReason, Option<String>)> {
        match memo {
            Ok(memo) => {
                on_event(&Event::Memo {
                    kind: memo.kind,
                    after: memo.after,
                    covers: memo.covers,
                    text: &memo.text,
                    by_model: memo.call.is_some(),
                });
                trajectory.memos.push(memo);
                None
            }
            Err(error) => Some((StopReason::of(error.kind), Some(error.message))),
        }
    }

    /// A reflection is due every `reflect_every` steps, and after two failed actions in a row
    /// (once per such pair), when reflection is on.
    fn reflection_due(&self, trajectory: &Trajectory) -> bool {
        let Some(every) = self.config.reflect_every.filter(|&n| n > 0) else {
            return false;
        };
        let n = trajectory.steps.len() as u32;
        let written = |after: u32| {
            trajectory
                .memos
                .iter()
                .any(|m| m.kind == MemoKind::Reflection && m.after == after)
        };
        if n == 0 || written(n) {
            return false;
        }
        let steps = &trajectory.steps;
        let failing = n >= 2 && steps[n as usize - 1].failed() && steps[n as usize - 2].failed();
        n % every == 0 || (failing && !written(n - 1))
    }

    /// The step a summary should condense up to, when the next prompt would exceed
    /// `memory_tokens` and there are steps beyond the last `keep_steps` not yet condensed.
    fn summary_due(&self, trajectory: &Trajectory) -> Option<u32> {
        let budget = self.config.memory_tokens?;
        let prompt = self.prompt(trajectory);
        let size: u64 = prompt.iter().map(|m| estimate_tokens(&m.content)).sum();
        let covers = (trajectory.steps.len() as u32).saturating_sub(self.config.keep_steps);
        (size > budget && covers > condensed(trajectory)).then_some(covers)
    }

    /// A memo of `kind` written after step `after` (a summary of steps 1 to `covers`): by the
    /// model, or from the steps when the model cannot write one.
    async fn memo(
        &self,
        trajectory: &Trajectory,
        kind: MemoKind,
        after: u32,
        covers: u32,
    ) -> Result<Memo, crate::error::Error> {
        let (text, call) = match self.model.writes_memos() {
            true => {
                let call = self.write(trajectory, kind, covers).await?;
                (call.raw.trim().to_string(), Some(call))
            }
            false => (self.extracted(trajectory, kind, covers).await?, None),
        };
        Ok(Memo {
            kind,
            after,
            covers,
            text,
            call,
        })
    }

    /// The memo tao writes itself ([`extract`]): here when this build carries the built-in
    /// tools' code; else by that code where the host keeps it (the page's core: the tools'
    /// module, which the offline search loads too), which reads what it needs from the
    /// trajectory file (see `MemoSource::read`).
    async fn extracted(
        &self,
        trajectory: &Trajectory,
        kind: MemoKind,
        covers: u32,
    ) -> Result<String, crate::error::Error> {
        #[cfg(feature = "builtin-tools")]
        return Ok(extract(&MemoSource::of(trajectory), kind, covers));
        #[cfg(not(feature = "builtin-tools"))]
        match &self.elsewhere {
            Some(elsewhere) => {
                let document = crate::to_json::to_string(trajectory);
                elsewhere.memo(document, kind.name(), covers).await
            }
            None => Err(crate::error::Error::config(
                "this build of tao has no code for the offline model's memos",
            )),
        }
    }

    /// Asks the model to write a memo: its own instructions, then the question and the steps
    /// it is about.
    async fn write(
        &self,
        trajectory: &Trajectory,
        kind: MemoKind,
        covers: u32,
    ) -> Result<ModelCall, crate::error::Error> {
        let lang = trajectory.lang;
        let instructions = match (kind, lang) {
            (MemoKind::Summary, Lang::Zh) => zh::text(Zh::Summary),
            (MemoKind::Summary, _) => SUMMARY_EN,
            (MemoKind::Reflection, Lang::Zh) => zh::text(Zh::Reflection),
            (MemoKind::Reflection, _) => REFLECTION_EN,
        };
        let from = condensed(trajectory);
        let upto = match kind {
            MemoKind::Summary => covers,
            MemoKind::Reflection => trajectory.steps.len() as u32,
        };
        let mut about = format!("Question: {}\n", trajectory.task);
        if let Some(earlier) = trajectory.summary() {
            about += &format!("\nEarlier summary: {}\n", earlier.text);
        }
        for step in trajectory
            .steps
            .iter()
            .filter(|s| s.index > from && s.index <= upto)
        {
            about += &step_text(step);
        }
        let messages = [
            crate::chat::Message::new(crate::chat::Role::System, instructions),
            crate::chat::Message::new(crate::chat::Role::User, about),
        ];
        let request = Request {
            messages: &messages,
            stop: &[],
            tools: &[],
            abort: &self.abort,
            // A memo is prose, not a step.
            constraint: None,
        };
        let mut call = ModelCall::default();
        let started = self.host.now_ms();
        let mut on_delta = |delta: Delta| -> bool {
            match delta {
                Delta::Text(text) => call.raw.push_str(text),
                Delta::Usage(usage) => call.usage = Some(usage),
                Delta::Reasoning(_) | Delta::Note(_) | Delta::Download { .. } => {}
            }
            !self.abort.is_aborted()
        };
        let reply = self.model.complete(request, &mut on_delta).await;
        call.ms = micros(self.host.now_ms() - started);
        let reply = reply?;
        call.usage = reply.usage.or(call.usage);
        Ok(call)
    }
}

/// How many of the first steps the latest summary stands for (0: none).
fn condensed(trajectory: &Trajectory) -> u32 {
    trajectory.summary().map_or(0, |m| m.covers)
}

/// A step as a memo's prompt quotes it.
fn step_text(step: &Step) -> String {
    let mut text = format!("\nStep {}\n", step.index);
    if !step.thought.is_empty() {
        text += &format!("Thought: {}\n", step.thought);
    }
    if let Some(action) = step.action() {
        text += &format!("Action: {}[{}]\n", action.tool, input_text(&action.input));
    }
    if let Some(observation) = step.observation() {
        let quoted: String = observation.chars().take(QUOTE_CHARS).collect();
        text += &format!("Observation: {quoted}\n");
    }
    text
}

/// The memo tao writes itself when the model cannot (the offline model): for each step, its
/// action and the sentence of its observation that shares most words with the task. Part of
/// the built-in tools' code (with the sentence splitting and word folding it shares with the
/// offline search), which the page's core leaves to the tools' module.
#[cfg(feature = "builtin-tools")]
pub(crate) fn extract(source: &MemoSource, kind: MemoKind, covers: u32) -> String {
    let zh = source.lang == Lang::Zh;
    let from = source.condensed;
    let line = |step: &MemoStep| extracted_line(step, &words(&source.task), zh);
    match kind {
        MemoKind::Summary => {
            let mut lines: Vec<String> = source.summary.iter().cloned().collect();
            let steps = source.steps.iter();
            lines.extend(
                steps
                    .filter(|s| s.index > from && s.index <= covers)
                    .map(line),
            );
            lines.join("\n")
        }
        MemoKind::Reflection => {
            let steps = &source.steps;
            let learned: Vec<String> = steps
                .iter()
                .filter(|s| s.index > from && !s.failed && s.observation.is_some())
                .map(line)
                .collect();
            let failing = steps.len() >= 2 && steps[steps.len() - 2..].iter().all(|s| s.failed);
            let (learned, next) = match (zh, learned.is_empty(), failing) {
                (false, true, _) => ("nothing useful yet".to_string(), "try another tool or another input"),
                (false, false, true) => (learned.join("; "), "the last two actions failed: try another tool or another input, not the same again"),
                (false, false, false) => (learned.join("; "), "answer from what was found, or look up what is still missing"),
                (true, true, _) => ("还没有有用的信息".to_string(), "换一个工具或换一个输入"),
                (true, false, true) => (learned.join(";"), "最近两次行动都失败了:换一个工具或换一个输入,不要重复"),
                (true, false, false) => (learned.join(";"), "根据已找到的信息作答,或查找仍然缺少的信息"),
            };
            match zh {
                false => format!("Learned so far: {learned}. Next: {next}."),
                true => format!("目前了解到:{learned}。接下来:{next}。"),
            }
        }
    }
}

/// One step as tao's own memo says it: its action and the first of the sentences of its
/// observation sharing most words with the task (`task`) and the action's input, a sentence with
/// a number (a date, an amount) counting one more.
#[cfg(feature = "builtin-tools")]
fn extracted_line(step: &MemoStep, task: &[String], zh: bool) -> String {
    let seen = step.observation.as_deref().unwrap_or("");
    let asked = words(&step.input);
    let mut best = ("", 0);
    for sentence in sentences(seen) {
        let said = words(sentence);
        let shared = said.iter().filter(|w| task.contains(w)).count()
            + said.iter().filter(|w| asked.contains(w)).count()
            + usize::from(sentence.chars().any(|c| c.is_ascii_digit()));
        if shared > best.1 || best.0.is_empty() {
            best = (sentence, shared.max(best.1));
        }
    }
    let best: String = best.0.chars().take(240).collect();
    let best = best.trim_end_matches(['.', '。']);
    let action = &step.action;
    match (step.failed, zh) {
        (true, false) => format!("{action} failed: {best}"),
        (true, true) => format!("{action} 失败:{best}"),
        (false, _) => format!("{action}: {best}"),
    }
}

/// Words too common to say what a sentence is about.
#[cfg(feature = "builtin-tools")]
const COMMON: &[&str] = &[
    "the", "was", "and", "for", "with", "who", "what", "which", "how", "that", "this", "from",
    "are", "his", "her", "its", "has", "had", "have", "when", "where", "were", "their", "是", "的",
    "了", "在", "和",
];

/// The words of `text` worth matching (folded, three characters or more, not common; each CJK
/// character).
#[cfg(feature = "builtin-tools")]
fn words(text: &str) -> Vec<String> {
    let folded = folded(text);
    let mut out: Vec<String> = folded
        // Any non-ASCII character counts as a letter: Unicode's tables would cost the wasm KBs.
        .split(|c: char| !c.is_ascii_alphanumeric() && c.is_ascii())
        .filter(|w| w.chars().count() >= 3 && !w.chars().any(crate::text::is_cjk))
        .filter(|w| !COMMON.contains(w))
        .map(str::to_string)
        .collect();
    out.extend(
        folded
            .chars()
            .filter(|&c| crate::text::is_cjk(c))
            .map(String::from)
            .filter(|w| !COMMON.contains(&w.as_str())),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse::Why;
    use crate::format::Format;
    use crate::trajectory::{Action, Memo, Repair, ToolCall};

    fn step(index: u32, tool: &str, input: &str, observation: &str) -> Step {
        Step {
            tool_calls: vec![ToolCall {
                action: Action {
                    tool: tool.into(),
                    input: crate::json::Value::String(input.into()),
                    id: None,
                },
                observation: Some(observation.into()),
                ..ToolCall::default()
            }],
            ..Step::new(index)
        }
    }

    /// The page's core hands the tools' module the trajectory file, and the module reads what a
    /// memo is written from out of it: the memo written there is the one written here, in both
    /// kinds and both languages.
    #[test]
    fn a_memo_written_from_its_source_read_back_is_the_same() {
        for lang in [Lang::En, Lang::Zh] {
            let mut t =
                Trajectory::new("Where was Einstein born in 1879?", Format::Mrkl, lang, "m");
            t.steps.push(step(
                1,
                "search",
                "Einstein",
                "Albert Einstein was a physicist. He was born in Ulm in 1879.",
            ));
            t.steps
                .push(step(2, "lookup", "born", "Error: no page is open."));
            let mut repaired = Step::new(3);
            repaired.repair = Some(Repair {
                why: Why::NoAction,
                message: "Say an action.".into(),
            });
            t.steps.push(repaired);
            t.memos.push(Memo {
                kind: MemoKind::Summary,
                after: 1,
                covers: 1,
                text: "search[Einstein]: born in Ulm".into(),
                call: None,
            });
            let source = MemoSource::of(&t);
            let text = crate::to_json::to_string(&t);
            let read = MemoSource::read(&crate::json::from_str(&text).unwrap());
            assert_eq!(read, source);
            for (kind, covers) in [(MemoKind::Summary, 3), (MemoKind::Reflection, 0)] {
                assert_eq!(extract(&read, kind, covers), extract(&source, kind, covers));
            }
            let summary = extract(&source, MemoKind::Summary, 3);
            let failed = if lang == Lang::Zh {
                "lookup[born] 失败:"
            } else {
                "lookup[born] failed:"
            };
            assert!(
                summary.starts_with("search[Einstein]: born in Ulm\n"),
                "{summary}"
            );
            assert!(summary.contains(failed), "{summary}");
        }
    }
}
