//! The long Chinese texts: the prompts of the seven formats and their worked examples, the
//! prompts that ask for a long run's memos, and the built-in tools' descriptions. They live in
//! `data/zh.json`, one text per name, beside the
//! English texts' own files: `mrkl` beside `format/mrkl.rs`' `PROMPT_EN`, and so on.
//!
//! Where they come from, as with the scenarios (`crate::scenarios`): the CLI and the tests
//! compile the file in (the `bundled-data` feature). The shipped wasm leaves it out, since a
//! page that runs its agents in English never reads it (3.9 KB gzip); a page that runs one in
//! Chinese fetches it (`pkg/data/zh.json`) and hands it to [`install`] first. Until then a
//! Chinese agent, or a Chinese trajectory given to an agent, is refused with an error that says
//! so ([`require`]): no prompt is ever rendered with a text missing.

use crate::error::Error;
use crate::json::Value;
use std::cell::Cell;

/// A text of `data/zh.json`, by its name there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Zh {
    /// The `mrkl` format's prompt.
    Mrkl,
    /// The paper's format's prompt.
    Paper,
    /// The paper's worked example.
    PaperExample,
    /// How `Finish[answer]` is described among the paper's and `act`'s actions.
    Finish,
    /// The `act` format's prompt.
    Act,
    /// Its worked example.
    ActExample,
    /// The `cot` format's prompt.
    Cot,
    /// Its worked example.
    CotExample,
    /// The `standard` format's prompt.
    Standard,
    /// Its worked example.
    StandardExample,
    /// The `tools` format's system prompt.
    Tools,
    /// What a model is asked to write a long run's summary.
    Summary,
    /// What a model is asked to write a reflection.
    Reflection,
    /// The `search` tool's description.
    Search,
    /// The `lookup` tool's description.
    Lookup,
    /// The `calculator` tool's description.
    Calculator,
    /// The `search_docs` tool's description.
    SearchDocs,
}

/// Every text, in the file's order, with its name there.
const ALL: [(Zh, &str); 17] = [
    (Zh::Mrkl, "mrkl"),
    (Zh::Paper, "paper"),
    (Zh::PaperExample, "paper_example"),
    (Zh::Finish, "finish"),
    (Zh::Act, "act"),
    (Zh::ActExample, "act_example"),
    (Zh::Cot, "cot"),
    (Zh::CotExample, "cot_example"),
    (Zh::Standard, "standard"),
    (Zh::StandardExample, "standard_example"),
    (Zh::Tools, "tools"),
    (Zh::Summary, "summary"),
    (Zh::Reflection, "reflection"),
    (Zh::Search, "search"),
    (Zh::Lookup, "lookup"),
    (Zh::Calculator, "calculator"),
    (Zh::SearchDocs, "search_docs"),
];

/// The texts loaded, in the order of [`ALL`]. Each load is kept for the rest of the program
/// (a page loads the file once), so a text is simply borrowed for as long as it is needed.
type Texts = &'static [String];

thread_local! {
    static LOADED: Cell<Option<Texts>> = Cell::new(bundled());
}

/// The compiled-in texts (`data/zh.json` is checked by a test, so it always reads).
#[cfg(feature = "bundled-data")]
fn bundled() -> Option<Texts> {
    read(include_str!("../data/zh.json")).ok()
}

/// None compiled in: a Chinese page installs them.
#[cfg(not(feature = "bundled-data"))]
fn bundled() -> Option<Texts> {
    None
}

/// Loads the texts of `json` (the text of `data/zh.json`), replacing those loaded before. A
/// file without every text loads nothing and says which is missing.
pub fn install(json: &str) -> Result<(), Error> {
    let texts =
        read(json).map_err(|e| Error::config(format!("the Chinese texts are invalid: {e}")))?;
    LOADED.with(|loaded| loaded.set(Some(texts)));
    Ok(())
}

/// Ok when the Chinese texts are loaded; otherwise the error that says how to load them.
pub fn require() -> Result<(), Error> {
    match LOADED.with(Cell::get) {
        Some(_) => Ok(()),
        None => Err(Error::config(
            "the Chinese prompts are not loaded: call loadOfflineData({zh}) with the text of data/zh.json (beside the wasm) first",
        )),
    }
}

/// The text `key`; empty only when the texts are not loaded, which [`require`], asked before any
/// Chinese agent or trajectory is used, rules out.
#[inline(never)] // one copy for every caller (size)
pub fn text(key: Zh) -> &'static str {
    // `ALL` lists the keys in their order.
    LOADED
        .with(Cell::get)
        .and_then(|texts| texts.get(key as usize))
        .map_or("", String::as_str)
}

/// The Chinese description of the built-in tool `name`, if it has one.
pub fn tool_description(name: &str) -> Option<&'static str> {
    let key = match name {
        "search" => Zh::Search,
        "lookup" => Zh::Lookup,
        "calculator" => Zh::Calculator,
        "search_docs" => Zh::SearchDocs,
        _ => return None,
    };
    Some(text(key))
}

/// The texts of `json`, in the order of [`ALL`], kept for the rest of the program.
fn read(json: &str) -> Result<Texts, String> {
    let value: Value = crate::json::from_str(json).map_err(|e| e.to_string())?;
    let mut texts = Vec::with_capacity(ALL.len());
    for (_, name) in ALL {
        let text = value.get(name).and_then(Value::as_str);
        texts.push(
            text.ok_or_else(|| format!("`{name}` is missing, or not a text"))?
                .to_string(),
        );
    }
    Ok(Box::leak(texts.into_boxed_slice()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_has_every_text_and_nothing_else() {
        assert!(ALL
            .iter()
            .enumerate()
            .all(|(i, (key, _))| *key as usize == i));
        let file: Value = crate::json::from_str(include_str!("../data/zh.json")).unwrap();
        let names: Vec<&str> = file
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut expected: Vec<&str> = ALL.iter().map(|(_, name)| *name).collect();
        expected.sort_unstable();
        assert_eq!(names, expected, "data/zh.json's names are those of `ALL`");
        for (key, name) in ALL {
            assert!(!text(key).is_empty(), "{name} is empty");
        }
        assert!(text(Zh::Mrkl).contains("{tool_descs}") && text(Zh::Mrkl).contains('\n'));
    }

    #[test]
    fn a_file_without_a_text_loads_nothing_and_says_which() {
        let before = text(Zh::Tools);
        let error = install(r#"{"mrkl": "x"}"#).unwrap_err();
        assert!(
            error.message.contains("`paper` is missing"),
            "{}",
            error.message
        );
        assert_eq!(text(Zh::Tools), before);
        let error = install(r#"{"mrkl": 1}"#).unwrap_err();
        assert!(
            error.message.contains("`mrkl` is missing, or not a text"),
            "{}",
            error.message
        );
    }
}
