//! The ReAct paper's format: numbered `Thought n:` / `Action n: Tool[input]` /
//! `Observation n:`, ending with `Finish[answer]`.
//!
//! The prompt follows the paper's HotpotQA instruction ("Solve a question answering task with
//! interleaving Thought, Action, Observation steps...") with the action types rendered from the
//! registry, and one worked example in the paper's own words so the model sees the numbering.

use super::{input_text, with_examples, Lang, Move};
use crate::tools::Registry;

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

/// The Chinese prompt (labels stay English: models follow them best).
pub const PROMPT_ZH: &str = "通过交替进行 Thought(思考)、Action(行动)、Observation(观察)的步骤来解决问答任务。Thought 用于推理当前情况,Action 可以是以下 {count} 种:
{actions}

每次回复只写一个带编号的 Thought 和一个 Action,然后停下:Observation 会由系统给出。";

/// The worked example that follows the Chinese prompt.
pub const EXAMPLE_ZH: &str = "示例:
Question: 音乐人 Allie Goertz 写了一首关于《辛普森一家》角色 Milhouse 的歌,Matt Groening 是以谁的名字给 Milhouse 命名的?
Thought 1: 问题可以简化为:Milhouse 是以谁命名的。我只需要搜索 Milhouse 并找到它以谁命名。
Action 1: search[Milhouse]
Observation 1: Milhouse Mussolini Van Houten 是福克斯动画剧集《辛普森一家》中的角色,由 Pamela Hayden 配音,Matt Groening 创作。
Thought 2: 这段话没有说明 Milhouse 以谁命名,也许我可以查找 \"named after\"。
Action 2: lookup[named after]
Observation 2: (Result 1 / 1) Milhouse 以美国总统理查德·尼克松命名,尼克松的中间名是 Milhous。
Thought 3: Milhouse 以美国总统理查德·尼克松命名,所以答案是理查德·尼克松。
Action 3: Finish[理查德·尼克松]";

/// The system message in `lang`: the prompt with the tools as action types, then the worked
/// example, or the `exemplars` given instead.
pub fn instructions(tools: &Registry, lang: Lang, exemplars: Option<&str>) -> String {
    let (prompt, example) = match lang {
        Lang::En => (PROMPT_EN, EXAMPLE_EN),
        Lang::Zh => (PROMPT_ZH, EXAMPLE_ZH),
    };
    let prompt = with_actions(prompt, tools, lang);
    with_examples(&prompt, example, exemplars, lang)
}

/// `template` with `{count}` and `{actions}` filled: the tools as numbered action types, then
/// `Finish[answer]` (shared with `act`, whose prompt lists the same actions).
pub(super) fn with_actions(template: &str, tools: &Registry, lang: Lang) -> String {
    let finish = match lang {
        Lang::En => "Finish[answer], which returns the answer and finishes the task.",
        Lang::Zh => "Finish[answer],给出答案并结束任务。",
    };
    let mut actions: Vec<String> = tools
        .specs()
        .enumerate()
        .map(|(i, t)| format!("({}) {}[input], {}", i + 1, t.name, t.description))
        .collect();
    actions.push(format!("({}) {finish}", actions.len() + 1));
    template
        .replace("{count}", &actions.len().to_string())
        .replace("{actions}", &actions.join("\n"))
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
