//! The ReAct paper's format: numbered `Thought n:` / `Action n: Tool[input]` /
//! `Observation n:`, ending with `Finish[answer]`.
//!
//! The prompt follows the paper's HotpotQA instruction ("Solve a question answering task with
//! interleaving Thought, Action, Observation steps...") with the action types rendered from the
//! registry, and one worked example in the paper's own words so the model sees the numbering.

use super::{input_text, with_examples, Lang, Move};
use crate::tools::Registry;
use crate::zh::{self, Zh};

/// The English prompt. `{actions}` lists the tools as numbered action types.
pub const PROMPT_EN: &str = "Solve a question answering task with interleaving Thought, Action, Observation steps. Thought can reason about the current situation, and Action can be {count} types:
{actions}

Write one Thought and one Action per reply, numbered like the step, then stop: the Observation will be given to you.";

/// The worked example that follows the English prompt (the `exemplars` setting replaces it).
pub const EXAMPLE_EN: &str = "Here is an example:
Question: Musician and satirist Allie Goertz wrote a song about the \"The Simpsons\" character Milhouse, who Matt Groening named after who?
Thought 1: The question simplifies to \"The Simpsons\" character Milhouse is named after who. I only need to search Milhouse and find who it is named after.
Action 1: search[Milhouse]
Observation 1: Milhouse Mussolini Van Houten is a recurring character in the Fox animated television series The Simpsons voiced by Pamela Hayden and created by Matt Groening.
Thought 2: The paragraph does not tell who Milhouse is named after, maybe I can look up \"named after\".
Action 2: lookup[named after]
Observation 2: (Result 1 / 1) Milhouse was named after U.S. president Richard Nixon, whose middle name was Milhous.
Thought 3: Milhouse was named after U.S. president Richard Nixon, so the answer is Richard Nixon.
Action 3: Finish[Richard Nixon]";

/// The system message in `lang`: the prompt with the tools as action types, then the worked
/// example, or the `exemplars` given instead. (The Chinese ones are `paper` and `paper_example`
/// in data/zh.json: see `crate::zh`.)
pub fn instructions(tools: &Registry, lang: Lang, exemplars: Option<&str>) -> String {
    let (prompt, example) = match lang {
        Lang::En => (PROMPT_EN, EXAMPLE_EN),
        Lang::Zh => (zh::text(Zh::Paper), zh::text(Zh::PaperExample)),
    };
    let prompt = with_actions(prompt, tools, lang);
    with_examples(&prompt, example, exemplars, lang)
}

/// `template` with `{count}` and `{actions}` filled: the tools as numbered action types, then
/// `Finish[answer]` (shared with `act`, whose prompt lists the same actions).
pub(super) fn with_actions(template: &str, tools: &Registry, lang: Lang) -> String {
    let finish = match lang {
        Lang::En => "Finish[answer], which returns the answer and finishes the task.",
        Lang::Zh => zh::text(Zh::Finish),
    };
    let mut actions: Vec<String> = tools
        .specs()
        .enumerate()
        .map(|(i, t)| format!("({}) {}[input], {}", i + 1, t.name, t.description))
        .collect();
    actions.push(format!("({}) {finish}", actions.len() + 1));
    template
        .replace("{count}", &actions.len().to_string())
        .replace("{actions}", &crate::text::join(&actions, "\n"))
}

/// Step `n` as the model's turn.
pub fn turn(n: u32, thought: &str, next: Move) -> String {
    let action = match next {
        Move::Act { tool, input } => format!("{tool}[{}]", input_text(input)),
        Move::Answer(answer) => format!("Finish[{answer}]"),
    };
    format!("Thought {n}: {}\nAction {n}: {action}", thought.trim())
}

/// How the observation of step `n` is shown to the model.
pub fn observation(n: u32, text: &str) -> String {
    format!("Observation {n}: {text}")
}

/// Where the model should stop in step `n`: before it writes the observation itself.
pub fn stop(n: u32) -> String {
    format!("\nObservation {n}:")
}
