//! `search` and `lookup` over a small built-in knowledge base, with the ReAct paper's WikiEnv
//! semantics, so the seed scenarios run offline.
//!
//! `search[entity]` opens the best-matching page and returns its first five sentences, or
//! `Could not find [entity]. Similar: [...]`. `lookup[keyword]` returns the next sentence of the
//! open page containing the keyword, as `(Result i / n) sentence` (the paper's wording, so a
//! student sees the same observations as in the paper). The live Wikipedia version of the same
//! environment is `wikipedia.rs`, which shares this file's `Browser` (and, with `search_docs`,
//! the sentence splitter in `crate::text`); this one never touches the network.
//!
//! The pages (`data/knowledge.json`) are compiled in for the CLI and the tests (the
//! `bundled-data` feature). The shipped wasm leaves them out (5 KB gzip that a page with its own
//! tools never reads); the page that wants them fetches the file and hands it to [`install`].
//! The shipped core leaves out the two tools' code too (built without `builtin-tools`): it
//! checks and keeps the file's text, and the tools' module, loaded at the first search, reads it
//! and runs them ([`super::Elsewhere::offline`]).

use super::ToolSpec;
#[cfg(feature = "builtin-tools")]
use super::{FnTool, Tool, ToolError};
use crate::error::Error;
#[cfg(feature = "builtin-tools")]
use crate::json::FromJson;
use crate::json::Object;
use crate::json::Value;
#[cfg(feature = "builtin-tools")]
use crate::text::{fold_case, folded, quoted_list, sentences};
use std::cell::RefCell;
use std::rc::Rc;

thread_local! {
    /// The pages loaded: the compiled-in ones (or none) until [`install`] replaces them, read
    /// once rather than at every agent (reading them is the costly part of building one).
    #[cfg(feature = "builtin-tools")]
    static PAGES: RefCell<Rc<[Page]>> = RefCell::new(bundled());
    /// A build without the tools' code keeps the text of the pages it checked, for the module.
    #[cfg(not(feature = "builtin-tools"))]
    static PAGES: RefCell<Option<Rc<str>>> = const { RefCell::new(None) };
}

/// The compiled-in pages (the file is tested, so this never fails in practice).
#[cfg(all(feature = "builtin-tools", feature = "bundled-data"))]
fn bundled() -> Rc<[Page]> {
    read(include_str!("../../data/knowledge.json")).unwrap_or_else(|_| Rc::from([]))
}

/// None compiled in: the page installs them.
#[cfg(all(feature = "builtin-tools", not(feature = "bundled-data")))]
fn bundled() -> Rc<[Page]> {
    Rc::from([])
}

/// Loads the pages of `json`, a knowledge file (`{"pages": [{title, aliases, en, zh}, ...]}`,
/// as `data/knowledge.json`); they replace the ones loaded before. An invalid file loads nothing.
pub fn install(json: &str) -> Result<(), Error> {
    let pages =
        read(json).map_err(|e| Error::config(format!("the knowledge pages are invalid: {e}")))?;
    PAGES.with(|loaded| *loaded.borrow_mut() = pages);
    Ok(())
}

/// Whether there are pages for the offline `search` to read (in the wasm, once installed).
pub fn loaded() -> bool {
    #[cfg(feature = "builtin-tools")]
    return PAGES.with(|pages| !pages.borrow().is_empty());
    #[cfg(not(feature = "builtin-tools"))]
    return PAGES.with(|pages| pages.borrow().is_some());
}

/// The text of the pages loaded, for the tools' module to read (a build without their code).
#[cfg(not(feature = "builtin-tools"))]
pub fn text() -> Option<Rc<str>> {
    PAGES.with(|pages| pages.borrow().clone())
}

/// A build without the tools' code checks the file's shape (a JSON object with a list of
/// `pages`) and keeps its text: the tools' module reads the pages at the first search, and says
/// there what is wrong with one.
#[cfg(not(feature = "builtin-tools"))]
fn read(json: &str) -> Result<Option<Rc<str>>, String> {
    let value: Value = crate::json::from_str(json).map_err(|e| e.to_string())?;
    let pages: Vec<Value> = Object::new(&value, "the knowledge base")?.required("pages")?;
    Ok((!pages.is_empty()).then(|| Rc::from(json)))
}

#[cfg(feature = "builtin-tools")]
fn read(json: &str) -> Result<Rc<[Page]>, String> {
    let value: Value = crate::json::from_str(json).map_err(|e| e.to_string())?;
    let pages: Vec<Page> = Object::new(&value, "the knowledge base")?.required("pages")?;
    Ok(pages.into())
}
/// How many sentences `search` shows of a page (the paper's `get_page_obs` shows five).
#[cfg(feature = "builtin-tools")]
const SENTENCES_SHOWN: usize = 5;

#[cfg(feature = "builtin-tools")]
struct Page {
    title: String,
    aliases: Vec<String>,
    en: String,
    zh: String,
}

// Reading the knowledge base (see `crate::json` for why this is not derived).
#[cfg(feature = "builtin-tools")]
impl FromJson for Page {
    fn from_value(value: &Value) -> Result<Self, String> {
        let o = Object::new(value, "struct Page")?;
        Ok(Page {
            title: o.required("title")?,
            aliases: o.required("aliases")?,
            en: o.required("en")?,
            zh: o.required("zh")?,
        })
    }
}

/// The open page and the current lookup: the paper's WikiEnv state, shared by `search` and
/// `lookup` (here and in the live Wikipedia tools, so the two environments behave the same).
#[cfg(feature = "builtin-tools")]
#[derive(Default)]
pub(crate) struct Browser {
    sentences: Vec<String>,
    keyword: String,
    results: Vec<usize>,
    next: usize,
}

#[cfg(feature = "builtin-tools")]
impl Browser {
    /// Opens a page, given as its sentences, and returns what `search` shows of it: the first
    /// five sentences. A new page forgets the lookup in progress.
    pub(crate) fn open(&mut self, sentences: Vec<&str>) -> String {
        *self = Browser::default();
        for sentence in sentences {
            self.sentences.push(sentence.to_string());
        }
        let shown: Vec<&str> = self
            .sentences
            .iter()
            .take(SENTENCES_SHOWN)
            .map(String::as_str)
            .collect();
        shown.join(" ")
    }

    /// `lookup[keyword]`: the next sentence of the open page containing `keyword` (ignoring
    /// case), as `(Result i / n) sentence`, then `No more results.`
    pub(crate) fn lookup(&mut self, keyword: &str) -> Result<String, ToolError> {
        if self.sentences.is_empty() {
            return Err(ToolError::BadInput(
                "there is no open page: search for an entity first".into(),
            ));
        }
        // A new keyword starts a new list of results; the same keyword moves to the next one.
        // Case is ignored as Python's `.lower()` does in the paper's lookup.
        let needle = folded(keyword);
        if self.keyword != needle {
            self.results = (0..self.sentences.len())
                .filter(|i| folded(&self.sentences[*i]).contains(&needle))
                .collect();
            self.keyword = needle;
            self.next = 0;
        }
        let Some(&sentence) = self.results.get(self.next) else {
            return Ok("No more results.".into());
        };
        self.next += 1;
        Ok(format!(
            "(Result {} / {}) {}",
            self.next,
            self.results.len(),
            self.sentences[sentence]
        ))
    }
}

/// The two tools, `search` and `lookup`, sharing one browser state. `lang` picks the page text
/// (`zh` for Chinese, anything else English).
/// Without pages loaded, every search finds nothing (settings refuse such a run first).
#[cfg(feature = "builtin-tools")]
pub fn tools(lang: &str) -> Vec<Rc<dyn Tool>> {
    tools_over(PAGES.with(|pages| pages.borrow().clone()), lang)
}

/// The two tools over the pages of `json` (the tools' module: the core hands it the text).
#[cfg(feature = "builtin-tools")]
pub(crate) fn tools_from(json: &str, lang: &str) -> Result<Vec<Rc<dyn Tool>>, Error> {
    let pages =
        read(json).map_err(|e| Error::config(format!("the knowledge pages are invalid: {e}")))?;
    Ok(tools_over(pages, lang))
}

#[cfg(feature = "builtin-tools")]
fn tools_over(pages: Rc<[Page]>, lang: &str) -> Vec<Rc<dyn Tool>> {
    let chinese = lang == "zh";
    let browser = Rc::new(RefCell::new(Browser::default()));

    let state = browser.clone();
    let search = FnTool::new("search", SEARCH, "query", move |query: &str| {
        if query.is_empty() {
            return Err(ToolError::BadInput(
                "search needs an entity, e.g. search[Albert Einstein]".into(),
            ));
        }
        let Some(page) = best_page(&pages, query) else {
            let titles: Vec<&str> = pages.iter().map(|p| p.title.as_str()).collect();
            return Ok(format!(
                "Could not find [{query}]. Similar: {}.",
                quoted_list(&titles)
            ));
        };
        let text = if chinese { &page.zh } else { &page.en };
        Ok(state.borrow_mut().open(sentences(text)))
    });
    vec![Rc::new(search.replaying()), lookup_tool(browser)]
}

/// What the model is told the offline `search` does.
const SEARCH: &str = "Searches the encyclopedia for an entity (a person, place, company, topic) and returns the first sentences of its page, or similar titles when there is no page.";

/// What the model is told about the offline `search` (a build without its code keeps this).
pub fn search_spec() -> ToolSpec {
    ToolSpec::new("search", SEARCH, super::string_schema("query"))
}

/// `lookup[keyword]` in the page `browser` has open: the same tool over the built-in pages and
/// over a live wiki.
#[cfg(feature = "builtin-tools")]
pub(crate) fn lookup_tool(browser: Rc<RefCell<Browser>>) -> Rc<dyn Tool> {
    Rc::new(
        FnTool::new("lookup", LOOKUP, "keyword", move |keyword: &str| {
            browser.borrow_mut().lookup(keyword)
        })
        .replaying()
        .paging(),
    )
}

/// What the model is told `lookup` does.
const LOOKUP: &str =
    "Returns the next sentence containing a keyword in the page opened by the last search.";

/// What the model is told about `lookup` (offline, and over a live wiki).
pub fn lookup_spec() -> ToolSpec {
    ToolSpec::new("lookup", LOOKUP, super::string_schema("keyword"))
}

/// The page whose title or alias best matches `query`: an exact match, then the longest alias
/// the query contains (or that contains the query), then the most shared words.
#[cfg(feature = "builtin-tools")]
fn best_page<'p>(pages: &'p [Page], query: &str) -> Option<&'p Page> {
    let q = normalize(query);
    let words: Vec<&str> = q.split(' ').filter(|w| w.chars().count() >= 3).collect();
    let score = |page: &Page| -> usize {
        let names = std::iter::once(normalize(&page.title))
            .chain(page.aliases.iter().map(|a| normalize(a)));
        let mut best = 0;
        for name in names {
            if name.is_empty() {
                continue;
            }
            if name == q {
                best = best.max(1000);
            } else if q.contains(&name) || name.contains(&q) {
                best = best.max(100 + name.len());
            } else {
                // Shared words count only when they cover at least half of the name, so
                // "cricket club phone number" does not open the page on a phone.
                let shared = words
                    .iter()
                    .filter(|w| name.split(' ').any(|n| n == **w))
                    .count();
                if shared * 2 >= name.split(' ').count() {
                    best = best.max(shared * 10);
                }
            }
        }
        best
    };
    pages
        .iter()
        .map(|p| (score(p), p))
        .filter(|(s, _)| *s > 0)
        .max_by_key(|(s, _)| *s)
        .map(|(_, p)| p)
}

/// A title, an alias or a query as `best_page` compares them: in lower case (as `lookup` folds
/// it), its words (letters, digits, the `·` in Chinese names, and `<` for the HTML test page's
/// alias) joined by single spaces.
#[cfg(feature = "builtin-tools")]
fn normalize(s: &str) -> String {
    let cleaned: String = s
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '·' || c == '<' {
                fold_case(c)
            } else {
                ' '
            }
        })
        .collect();
    cleaned.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(all(test, feature = "builtin-tools"))]
mod tests {
    use super::*;
    use crate::host::block_on;

    fn call(tool: &Rc<dyn Tool>, input: &str) -> Result<String, ToolError> {
        block_on(tool.call(&Value::String(input.into()))).map(|output| output.text)
    }

    /// The tools over the repository's pages, installed as the page installs them (so these
    /// tests also run without the compiled-in data).
    fn tools(lang: &str) -> Vec<Rc<dyn Tool>> {
        install(include_str!("../../data/knowledge.json")).unwrap();
        super::tools(lang)
    }

    #[test]
    fn installed_pages_are_what_search_reads() {
        if !cfg!(feature = "bundled-data") {
            assert!(!loaded(), "the shipped build starts without pages");
        }
        let page = r#"{"pages": [{"title": "Plink", "aliases": ["plink tool"], "en": "Plink checks links. It is made up.", "zh": "Plink 检查链接。"}]}"#;
        install(page).unwrap();
        assert!(loaded());
        let t = super::tools("en");
        assert_eq!(
            call(&t[0], "plink").unwrap(),
            "Plink checks links. It is made up."
        );
        assert_eq!(
            call(&t[0], "Albert Einstein").unwrap(),
            r#"Could not find [Albert Einstein]. Similar: ["Plink"]."#
        );
        let bad = install(r#"{"pages": [{"title": "no text"}]}"#).unwrap_err();
        assert!(
            bad.message.starts_with("the knowledge pages are invalid: "),
            "{}",
            bad.message
        );
        assert!(
            call(&super::tools("en")[0], "plink")
                .unwrap()
                .starts_with("Plink checks"),
            "a bad file changes nothing"
        );
    }

    #[test]
    fn search_and_lookup_follow_the_paper() {
        let t = tools("en");
        let (search, lookup) = (&t[0], &t[1]);
        assert_eq!(
            call(lookup, "born"),
            Err(ToolError::BadInput(
                "there is no open page: search for an entity first".into()
            ))
        );
        let page = call(search, "Albert Einstein").unwrap();
        assert!(page.starts_with("Albert Einstein (14 March 1879"), "{page}");
        assert!(
            !page.contains("Ulm"),
            "the birthplace is beyond the first five sentences: {page}"
        );
        assert_eq!(
            call(lookup, "born").unwrap(),
            "(Result 1 / 1) Einstein was born in Ulm, in the Kingdom of Württemberg in the German Empire."
        );
        assert_eq!(call(lookup, "born").unwrap(), "No more results.");
        // Case is ignored beyond ASCII too, as Python's `lower()` does in the paper's code.
        assert!(call(lookup, "WÜRTTEMBERG")
            .unwrap()
            .starts_with("(Result 1 / 1) Einstein was born in Ulm"));
        let apple = call(search, "current CEO of Apple").unwrap();
        assert!(
            apple.contains("The current CEO of Apple Inc. is Tim Cook, who"),
            "{apple}"
        );
        assert!(call(search, "Tim Cook hometown")
            .unwrap()
            .contains("born in Mobile, Alabama"));
        assert!(call(search, "Zanzibar cricket")
            .unwrap()
            .starts_with("Could not find [Zanzibar cricket]. Similar: ["));
    }

    #[test]
    fn chinese_pages() {
        let t = tools("zh");
        assert!(call(&t[0], "苹果公司现任CEO")
            .unwrap()
            .contains("蒂姆·库克"));
        assert!(call(&t[0], "爱因斯坦")
            .unwrap()
            .starts_with("阿尔伯特·爱因斯坦"));
        assert!(call(&t[1], "出生于").unwrap().contains("乌尔姆"));
    }

    #[test]
    fn names_are_compared_in_lower_case_beyond_ascii_too() {
        // `search` folds case as `lookup` does: "ÉMILE ZOLA" is "émile zola".
        let cases = [
            ("  Albert   EINSTEIN ", "albert einstein"),
            ("ÉMILE ZOLA", "émile zola"),
            ("Baden-WÜRTTEMBERG, ULM!", "baden württemberg ulm"),
            ("蒂姆·库克的家乡?", "蒂姆·库克的家乡"),
            ("<img src=x>", "<img src x"),
        ];
        for (name, expected) in cases {
            assert_eq!(normalize(name), expected, "{name:?}");
        }
    }

    #[test]
    fn lookup_reads_chinese_sentences_ended_by_any_full_stop() {
        // Regression: Chinese was cut only at 。, so a page whose sentences end in ！ or ？ was
        // one long "sentence" and lookup returned all of it.
        let browser = Rc::new(RefCell::new(Browser::default()));
        let shown = browser
            .borrow_mut()
            .open(sentences("爱因斯坦出生于乌尔姆！他是物理学家？是的。"));
        assert_eq!(shown, "爱因斯坦出生于乌尔姆！ 他是物理学家？ 是的。");
        let lookup = lookup_tool(browser);
        assert_eq!(
            call(&lookup, "物理学家"),
            Ok("(Result 1 / 1) 他是物理学家？".into())
        );
        assert_eq!(
            call(&lookup, "是"),
            Ok("(Result 1 / 2) 他是物理学家？".into())
        );
        assert_eq!(call(&lookup, "是"), Ok("(Result 2 / 2) 是的。".into()));
        assert_eq!(call(&lookup, "是"), Ok("No more results.".into()));
    }
}
