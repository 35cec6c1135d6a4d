//! The paper's *Standard* baseline: no tools and no reasoning; the model answers at once.
//!
//! The ReAct paper's `webqa` prompts show only `Question: ...` / `Answer: ...` pairs: what a
//! model knows by heart, with nothing to look up and no steps to think in. The reader takes
//! `Answer: X`, or a plain reply, as the answer; like `cot`, the mode has no tools anywhere.

use super::{cot::ANSWER, with_examples, Lang, Move};

/// The English prompt.
pub const PROMPT_EN: &str = "Answer the question directly. There are no tools: answer from what you know, in one line `Answer: <answer>`, as short as possible.";

/// The worked example that follows the English prompt (the `exemplars` setting replaces it).
pub const EXAMPLE_EN: &str = "Here is an example:
Question: Musician and satirist Allie Goertz wrote a song about the \"The Simpsons\" character Milhouse, who Matt Groening named after who?
Answer: Richard Nixon";

/// The Chinese prompt (the label stays English: models follow it best).
pub const PROMPT_ZH: &str =
    "直接回答问题。没有任何工具可用:根据你所知道的,用一行 `Answer: <答案>` 作答,越短越好。";

/// The worked example that follows the Chinese prompt.
pub const EXAMPLE_ZH: &str = "示例:
Question: 音乐人 Allie Goertz 写了一首关于《辛普森一家》角色 Milhouse 的歌,Matt Groening 是以谁的名字给 Milhouse 命名的?
Answer: 理查德·尼克松";

/// The system message in `lang`: the prompt, then the worked example, or the `exemplars`
/// given instead.
pub fn instructions(lang: Lang, exemplars: Option<&str>) -> String {
    match lang {
        Lang::En => with_examples(PROMPT_EN, EXAMPLE_EN, exemplars, lang),
        Lang::Zh => with_examples(PROMPT_ZH, EXAMPLE_ZH, exemplars, lang),
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
