//! Why a reply could not be used: the short reason a [`Verdict::Error`] carries, and the
//! agent's repairs with it.
//!
//! The model is told what went wrong in a sentence (the error's `message`); the reason is for
//! code, and for people reading events, trajectories and `tao parse`'s JSON. There each reason
//! appears as a short name (`no_action`, `unknown_tool`, ...), so the names are part of those
//! formats: [`Why::name`] gives exactly them and [`Why::from_name`] reads them back. Code
//! compares the enum, never the text, so a misspelt reason is a compile error rather than a
//! branch that silently never runs.
//!
//! [`Verdict::Error`]: super::Verdict::Error

use std::fmt;

/// Why a reply, or the tool call it asked for, could not be used. (The default, for a record
/// read without one, is the commonest reason.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Why {
    /// `no_action`: the reply had neither an action nor a final answer.
    #[default]
    NoAction,
    /// `missing_action_input`: the reply named a tool but gave no `Action Input:` (or, in the
    /// paper's style, no input in brackets).
    MissingActionInput,
    /// `missing_action`: an `Action Input:` with no `Action:` before it, or an `Action:` that
    /// names nothing.
    MissingAction,
    /// `action_none`: the only action was `Action: None`.
    ActionNone,
    /// `action_and_final`: an action and a final answer, and it is unclear which was meant.
    ActionAndFinal,
    /// `truncated`: the reply was cut off: a bracket, JSON value or code fence never closed,
    /// a bare label such as `Action 2` at the end, or a final-answer label with nothing after.
    Truncated,
    /// `empty`: the reply was empty or blank.
    Empty,
    /// `unknown_tool`: the named tool is not one of the registered tools.
    UnknownTool,
    /// `bad_json`: the JSON after `Action:` was not an action blob.
    BadJson,
    /// `unclosed_bracket`: `Tool[` or `tool(` was not closed before the next label.
    UnclosedBracket,
    /// `empty_answer`: a final-answer label with no answer, though more text followed.
    EmptyAnswer,
    /// `bad_input`: the tool's input does not fit its schema, or the tool rejected it. The
    /// agent finds this when it calls the tool; the parser never does.
    BadInput,
    /// `repeated`: the action and its input are the previous step's again (the paper's most
    /// common ReAct failure, repetitive actions); the tool is not run a second time.
    Repeated,
}

impl Why {
    /// Every reason, in the order they are declared.
    pub const ALL: [Why; 13] = [
        Why::NoAction,
        Why::MissingActionInput,
        Why::MissingAction,
        Why::ActionNone,
        Why::ActionAndFinal,
        Why::Truncated,
        Why::Empty,
        Why::UnknownTool,
        Why::BadJson,
        Why::UnclosedBracket,
        Why::EmptyAnswer,
        Why::BadInput,
        Why::Repeated,
    ];

    /// The reason's name as it appears in events, trajectories and JSON (`"no_action"`).
    pub fn name(self) -> &'static str {
        match self {
            Why::NoAction => "no_action",
            Why::MissingActionInput => "missing_action_input",
            Why::MissingAction => "missing_action",
            Why::ActionNone => "action_none",
            Why::ActionAndFinal => "action_and_final",
            Why::Truncated => "truncated",
            Why::Empty => "empty",
            Why::UnknownTool => "unknown_tool",
            Why::BadJson => "bad_json",
            Why::UnclosedBracket => "unclosed_bracket",
            Why::EmptyAnswer => "empty_answer",
            Why::BadInput => "bad_input",
            Why::Repeated => "repeated",
        }
    }

    /// The reason with this exact name, or `None`.
    pub fn from_name(name: &str) -> Option<Why> {
        Why::ALL.into_iter().find(|why| why.name() == name)
    }
}

/// Writes the name, so a reason reads the same in a note as in JSON.
impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
