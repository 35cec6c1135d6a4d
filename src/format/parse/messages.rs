//! What the model reads when its reply cannot be used: what was wrong, then the format to use.
//!
//! The message becomes the next observation, so it is addressed to the model and ends with
//! the expected format for the prompt's style, naming the registered tools and the prompt's
//! own final-answer marker. Each failure's first sentence is written where the failure is
//! found (`resolve.rs`, `action.rs`); the format that follows is written here, once.

use super::{ParseOptions, Style};

/// An error message for the model: what was wrong, then the format to use.
pub(super) fn message_for(options: &ParseOptions, what: &str) -> String {
    format!("{what} Reply with\n{}", expected_format(options))
}

/// The prompt's final-answer label (`Final Answer:` unless the prompt has its own).
pub(super) fn answer_label(options: &ParseOptions) -> &str {
    options
        .final_marker
        .as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty() && !m.contains('['))
        .unwrap_or("Final Answer:")
}

/// The format the prompt asked for, shown in every error message.
fn expected_format(options: &ParseOptions) -> String {
    let tools: Vec<&str> = options
        .tools
        .iter()
        .flatten()
        .map(|t| t.trim())
        .filter(|t| options.style != Style::Paper || !t.eq_ignore_ascii_case("finish"))
        .collect();
    let tool = if tools.is_empty() {
        "tool name".to_string()
    } else {
        format!("one of {}", tools.join(", "))
    };
    let marker = answer_label(options);
    if options.answers_only() {
        return format!(
            "Thought: ...\n{marker} <answer>\n(there are no tools: answer from what you know)"
        );
    }
    match options.style {
        Style::Mrkl => format!(
            "Thought: ...\nAction: <{tool}>\nAction Input: <input>\nor, when you know the \
             answer,\nThought: ...\n{marker} <answer>"
        ),
        Style::Paper => format!(
            "Thought n: ...\nAction n: <{tool}>[<input>]\nor, when you know the answer,\n\
             Thought n: ...\nAction n: Finish[<answer>]"
        ),
        Style::Json => format!(
            "Thought: ...\nAction:\n```json\n{{\"action\": \"<{tool}>\", \"action_input\": \
             <input>}}\n```\nor, when you know the answer,\nThought: ...\nAction:\n```json\n\
             {{\"action\": \"Final Answer\", \"action_input\": \"<answer>\"}}\n```"
        ),
    }
}
