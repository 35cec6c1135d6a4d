//! The paper's *Standard* baseline: no tools and no reasoning; the model answers at once.
//!
//! The ReAct paper's `webqa` prompts show only `Question: ...` / `Answer: ...` pairs: what a
//! model knows by heart, with nothing to look up and no steps to think in. The reader takes
//! `Answer: X`, or a plain reply, as the answer; like `cot`, the mode has no tools anywhere.

use super::{cot::ANSWER, with_examples, Lang, Move};
use crate::zh::{self, Zh};

/// The English prompt.
pub const PROMPT_EN: &str = "Answer the question directly. There are no tools: answer from what you know, in one line `Answer: <answer>`, as short as possible.";

/// The worked example that follows the English prompt (the `exemplars` setting replaces it).
pub const EXAMPLE_EN: &str = "Here is an example:
Question: Musician and satirist Allie Goertz wrote a song about the \"The Simpsons\" character Milhouse, who Matt Groening named after who?
Answer: Richard Nixon";

/// The system message in `lang`: the prompt, then the worked example, or the `exemplars`
/// given instead.
/// (The Chinese texts are `standard` and `standard_example` in data/zh.json: see `crate::zh`.)
pub fn instructions(lang: Lang, exemplars: Option<&str>) -> String {
    match lang {
        Lang::En => with_examples(PROMPT_EN, EXAMPLE_EN, exemplars, lang),
        Lang::Zh => with_examples(
            zh::text(Zh::Standard),
            zh::text(Zh::StandardExample),
            exemplars,
            lang,
        ),
    }
}

/// A step as the model's turn: the answer alone (as `cot` shows an action, for a trajectory
/// that has one).
pub fn turn(thought: &str, next: Move) -> String {
    match next {
        Move::Answer(answer) => format!("{ANSWER} {answer}"),
        act => super::mrkl::turn(thought, act),
    }
}
