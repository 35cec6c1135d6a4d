//! Plain prose as the final answer (`mrkl` only): a reply with no ReAct in it at all that
//! reads as an answer ("Paris is the capital of France.") is the model answering, as Qwen-Agent
//! and LangChain's conversational agents read it. A reply with any label, any sign of a tool
//! call, or an announced next step stays a repair: the model meant to act and did not.

use super::stream::{Line, LineKind};
use super::{sub, ParseOptions};

/// First-person plans: a reply that announces a step it did not take is not an answer.
/// Lower-case; matched (for the English ones) only as whole words, so "I can't" is not a plan,
/// and "let me know" (a question back to the user) is not one either.
const PLANS: [&str; 15] = [
    "i will",
    "i'll",
    "i need to",
    "i should",
    "i can",
    "let me",
    "let's",
    "we need to",
    "next step",
    "i now know the final answer",
    "i must",
    "我需要",
    "我应该",
    "让我",
    "下一步",
];

/// Whether `text` (its recorded `lines`) is plain prose that answers.
pub(super) fn is_answer(text: &str, lines: &[Line], options: &ParseOptions) -> bool {
    // No label (nor a bare one, `Action 2`), and some words outside code fences.
    let unlabelled = lines.iter().all(|l| {
        matches!(
            l.kind,
            LineKind::Body | LineKind::FenceOpen | LineKind::FenceClose
        )
    });
    let worded = lines
        .iter()
        .any(|l| !l.fenced && sub(text, l.start, l.end).chars().any(char::is_alphanumeric));
    if !unlabelled || !worded || text.contains("\"action\"") {
        return false;
    }
    let lower = text.to_ascii_lowercase();
    // A call written without its label: `search[x]`, `search(x)` for a known tool, `Finish[x]`,
    // or (tools unknown) a line that is only `Name[...]`.
    let called = match &options.tools {
        Some(tools) => tools.iter().chain(["finish".to_string()].iter()).any(|t| {
            let t = t.to_ascii_lowercase();
            lower.contains(&format!("{t}[")) || lower.contains(&format!("{t}("))
        }),
        None => {
            lower.contains("finish[")
                || lower.lines().map(str::trim).any(|l| {
                    let name = l.split('[').next().unwrap_or("");
                    l.ends_with(']')
                        && !name.is_empty()
                        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
                })
        }
    };
    let planned = PLANS.iter().any(|plan| {
        lower.match_indices(plan).any(|(at, _)| {
            let before = lower[..at].chars().next_back();
            let after = lower[at + plan.len()..].chars().next();
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '\'');
            let asks = lower[at..].starts_with("let me know");
            !plan.is_ascii() || (!word(before) && !word(after) && !asks)
        })
    });
    // A reply that stops mid-thought (`… as follows:`) is not finished.
    let open = text.trim_end().ends_with([
        ':', ',', ';', '(', '[', '{', '-', '—', '…', '：', '，', '；', '（', '【', '、',
    ]) || text.trim_end().ends_with("...");
    !called && !planned && !open
}
