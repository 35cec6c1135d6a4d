//! The paper's *Act* ablation: the `paper` format without thoughts, `Action n: Tool[input]` /
//! `Observation n:`, ending with `Finish[answer]`.
//!
//! The ReAct paper compares its prompt with one that keeps the actions and drops the
//! reasoning (its `webact` prompts): the model must pick each action from the observations
//! alone, with no plan written down, and the paper finds it loses track (repeating a search,
//! stopping at a vague answer). The prompt, the numbering, the stop and the reader are the
//! `paper` format's; only the thoughts are gone, from the instructions, the example and every
//! turn shown back to the model.

use super::{input_text, paper, with_examples, Lang, Move};
use crate::tools::Registry;
use crate::zh::{self, Zh};

/// The English prompt. `{actions}` lists the tools as numbered action types.
pub const PROMPT_EN: &str = "Solve a question answering task with interleaving Action, Observation steps. Action can be {count} types:
{actions}

Write one Action per reply, numbered like the step, then stop: the Observation will be given to you.";

/// The worked example that follows the English prompt (the `exemplars` setting replaces it).
pub const EXAMPLE_EN: &str = "Here is an example:
Question: Musician and satirist Allie Goertz wrote a song about the \"The Simpsons\" character Milhouse, who Matt Groening named after who?
Action 1: search[Milhouse]
Observation 1: Milhouse Mussolini Van Houten is a recurring character in the Fox animated television series The Simpsons voiced by Pamela Hayden and created by Matt Groening.
Action 2: lookup[named after]
Observation 2: (Result 1 / 1) Milhouse was named after U.S. president Richard Nixon, whose middle name was Milhous.
Action 3: Finish[Richard Nixon]";

/// The system message in `lang`: the prompt with the tools as action types, then the worked
/// example, or the `exemplars` given instead.
/// (The Chinese texts are `act` and `act_example` in data/zh.json: see `crate::zh`.)
pub fn instructions(tools: &Registry, lang: Lang, exemplars: Option<&str>) -> String {
    let (prompt, example) = match lang {
        Lang::En => (PROMPT_EN, EXAMPLE_EN),
        Lang::Zh => (zh::text(Zh::Act), zh::text(Zh::ActExample)),
    };
    let prompt = paper::with_actions(prompt, tools, lang);
    with_examples(&prompt, example, exemplars, lang)
}

/// Step `n` as the model's turn: the action alone (a thought the step has, typed by a person
/// or written by a model that reasoned anyway, is not shown: this mode has none).
pub fn turn(n: u32, next: Move) -> String {
    match next {
        Move::Act { tool, input } => format!("Action {n}: {tool}[{}]", input_text(input)),
        Move::Answer(answer) => format!("Action {n}: Finish[{answer}]"),
    }
}
