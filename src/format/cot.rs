//! The paper's *CoT* baseline: no tools; the model thinks step by step, then answers.
//!
//! Chain-of-thought prompting (Wei et al., 2022) as the ReAct paper runs it (its `cotqa`
//! prompts): `Thought: Let's think step by step. ...` then `Answer: X`. The reasoning is the
//! model's own memory, never checked against the world, which is what the paper finds goes
//! wrong: a fluent chain built on a fact that is false. With no tools the instructions list
//! none, the reader knows none (an action is a repair naming none), and a native provider is
//! sent none.

use super::{with_examples, Lang, Move};
use crate::zh::{self, Zh};

/// The English prompt.
pub const PROMPT_EN: &str = "Solve a question answering task. There are no tools: think step by step about what you know, then give the answer.

Reply with one Thought that reasons step by step, then one line `Answer: <answer>` with the answer alone, as short as possible.";

/// The worked example that follows the English prompt (the `exemplars` setting replaces it).
pub const EXAMPLE_EN: &str = "Here is an example:
Question: Musician and satirist Allie Goertz wrote a song about the \"The Simpsons\" character Milhouse, who Matt Groening named after who?
Thought: Let's think step by step. Milhouse was named after U.S. president Richard Nixon, so the answer is Richard Nixon.
Answer: Richard Nixon";

/// The final-answer label the reader looks for.
pub const ANSWER: &str = "Answer:";

/// The system message in `lang`: the prompt, then the worked example, or the `exemplars`
/// given instead.
/// (The Chinese texts are `cot` and `cot_example` in data/zh.json: see `crate::zh`.)
pub fn instructions(lang: Lang, exemplars: Option<&str>) -> String {
    match lang {
        Lang::En => with_examples(PROMPT_EN, EXAMPLE_EN, exemplars, lang),
        Lang::Zh => with_examples(zh::text(Zh::Cot), zh::text(Zh::CotExample), exemplars, lang),
    }
}

/// A step as the model's turn: the reasoning, then the answer. (A step with an action, from
/// an imported or edited trajectory, is shown the way `mrkl` writes it: this mode has no
/// form for one.)
pub fn turn(thought: &str, next: Move) -> String {
    match next {
        Move::Answer(answer) => format!("Thought: {}\n{ANSWER} {answer}", thought.trim()),
        act => super::mrkl::turn(thought, act),
    }
}
