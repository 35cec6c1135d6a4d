//! The MRKL / LangChain / Qwen-Agent format: `Thought`, `Action`, `Action Input`,
//! `Observation`, repeated, then `Final Answer`.
//!
//! The prompt is Qwen-Agent's `PROMPT_REACT` (seed 001), with the tool list rendered from the
//! registry. The question follows as its own message, and each step is one assistant turn
//! followed by one `Observation:` message, so chat models see a dialogue they can continue.

use super::{input_text, tool_descriptions, Lang, Move};
use crate::tools::Registry;

/// The English prompt. `{tool_descs}` and `{tool_names}` are filled from the registry.
pub const PROMPT_EN: &str = "Answer the following questions as best you can. You have access to the following tools:

{tool_descs}

Use the following format:

Question: the input question you must answer
Thought: you should always think about what to do
Action: the action to take, should be one of [{tool_names}]
Action Input: the input to the action
Observation: the result of the action
... (this Thought/Action/Action Input/Observation can be repeated zero or more times)
Thought: I now know the final answer
Final Answer: the final answer to the original input question

Write one Thought and one Action (with its Action Input) per reply, then stop: the Observation will be given to you.

Begin!";

/// The Chinese prompt (labels stay English: models follow them best).
pub const PROMPT_ZH: &str = "尽你所能回答下面的问题。你可以使用以下工具:

{tool_descs}

请使用以下格式:

Question: 你必须回答的问题
Thought: 你应该始终思考下一步该做什么
Action: 要采取的行动,必须是 [{tool_names}] 之一
Action Input: 行动的输入
Observation: 行动的结果
……(Thought/Action/Action Input/Observation 可以重复零次或多次)
Thought: 我现在知道最终答案了
Final Answer: 对原始问题的最终答案

每次回复只写一个 Thought 和一个 Action(及其 Action Input),然后停下:Observation 会由系统给出。

开始!";

/// The system message for `tools` in `lang`.
pub fn instructions(tools: &Registry, lang: Lang) -> String {
    let template = match lang {
        Lang::En => PROMPT_EN,
        Lang::Zh => PROMPT_ZH,
    };
    template
        .replace("{tool_descs}", &tool_descriptions(tools))
        .replace("{tool_names}", &tools.names().join(","))
}

/// A step as the model's turn.
pub fn turn(thought: &str, next: Move) -> String {
    // (Joined rather than `format!`ted: a turn is rendered every step, and the formatting
    // machinery costs more than the copying.)
    let thought = thought.trim();
    match next {
        Move::Act { tool, input } => {
            let input = input_text(input);
            [
                "Thought: ",
                thought,
                "\nAction: ",
                tool,
                "\nAction Input: ",
                &input,
            ]
            .concat()
        }
        Move::Answer(answer) => ["Thought: ", thought, "\nFinal Answer: ", answer].concat(),
    }
}

/// How an observation is shown to the model.
pub fn observation(text: &str) -> String {
    ["Observation: ", text].concat()
}

/// Where the model should stop: before it writes the observation itself.
pub const STOP: &str = "\nObservation:";
