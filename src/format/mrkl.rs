//! The MRKL / LangChain / Qwen-Agent format: `Thought`, `Action`, `Action Input`,
//! `Observation`, repeated, then `Final Answer`.
//!
//! The prompt is Qwen-Agent's `PROMPT_REACT` (seed 001), with the tool list rendered from the
//! registry. The question follows as its own message, and each step is one assistant turn
//! followed by one `Observation:` message, so chat models see a dialogue they can continue.

use super::{input_text, tool_descriptions, with_examples, Lang, Move};
use crate::tools::Registry;
use crate::zh::{self, Zh};

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

/// The system message for `tools` in `lang`, then the `exemplars`, if any: this format has no
/// worked example of its own (chat models follow the instructions; a small model is given
/// [`example`]). (The Chinese prompt is `mrkl` in data/zh.json: see `crate::zh`.)
pub fn instructions(tools: &Registry, lang: Lang, exemplars: Option<&str>) -> String {
    let template = match lang {
        Lang::En => PROMPT_EN,
        Lang::Zh => zh::text(Zh::Mrkl),
    };
    let prompt = template
        .replace("{tool_descs}", &tool_descriptions(tools, lang))
        .replace("{tool_names}", &crate::text::join(&tools.names(), ","));
    match exemplars {
        Some(_) => with_examples(&prompt, "", exemplars, lang),
        None => prompt,
    }
}

/// Worked examples with the tools a run has (`calculator`, `search`), for a small model, which
/// writes no parseable step from the instructions alone (SmolLM2-135M: none in 12 tries; with
/// two examples and the grammar, 4 of 4). `None` when the run has neither tool.
pub fn example(tools: &[String]) -> Option<String> {
    let has = |name: &str| tools.iter().any(|t| t == name);
    let mut examples = Vec::new();
    if has("calculator") {
        examples.push("Question: What is 12 * 7?\nThought: I need to multiply 12 by 7.\nAction: calculator\nAction Input: 12 * 7\nObservation: 84\nThought: I now know the final answer\nFinal Answer: 84");
    }
    if has("search") {
        examples.push("Question: Where was Albert Einstein born?\nThought: I should search for Albert Einstein.\nAction: search\nAction Input: Albert Einstein\nObservation: Albert Einstein was a German-born physicist, born in Ulm.\nThought: I now know the final answer\nFinal Answer: Ulm");
    }
    (!examples.is_empty()).then(|| examples.join("\n\n"))
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
