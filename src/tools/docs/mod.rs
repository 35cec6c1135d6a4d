//! `search_docs`: full-text search over the pages of the site the agent is embedded in.
//!
//! A static site (a product's documentation, a handbook, a blog) has no search server, so the
//! embedder hands tao its pages as `[{title, url, text}]` (or the URL of a JSON file of them)
//! and the agent searches them with this tool. The observation shows the best pages, each with
//! its title, its address and the passage that holds the most query terms, so the model can
//! answer from it and cite the address.
//!
//! This file is the tool: the pages as the embedder gives them ([`Doc`], [`read_docs`]), the
//! tool made over them ([`tool`], or [`tool_from_url`] for a file fetched at the first search),
//! and the observation's wording. The search itself is in three parts, one file each:
//! - `terms`: what a word is (lower case, no stop words, singular, CJK character pairs);
//! - `index`: the BM25 index that ranks the pages for a query;
//! - `passage`: which part of a page's text is shown.

use super::{string_schema, ToolSpec};
#[cfg(feature = "builtin-tools")]
use super::{FnTool, Tool, ToolError, ToolOutput};
#[cfg(feature = "builtin-tools")]
use crate::host::LocalBoxFuture;
#[cfg(feature = "builtin-tools")]
use crate::http::{read_reply, HttpRequest, Transport};
use crate::json::Value;
use crate::json::{invalid_type, FromJson, Object};
use crate::to_json::{JsonWriter, ToJson};
#[cfg(feature = "builtin-tools")]
use std::cell::RefCell;
#[cfg(feature = "builtin-tools")]
use std::rc::Rc;

// The search (a build without the tools' code keeps only the documents and the spec).
#[cfg(feature = "builtin-tools")]
mod index;
#[cfg(feature = "builtin-tools")]
mod passage;
#[cfg(feature = "builtin-tools")]
mod terms;

#[cfg(feature = "builtin-tools")]
pub use index::{Hit, Index};
#[cfg(feature = "builtin-tools")]
pub use passage::{snippet, PASSAGE_BYTES};

/// How many pages the tool shows unless told otherwise.
pub const RESULTS: usize = 3;
/// How many titles the no-match observation lists, so the model learns what the pages cover.
#[cfg(feature = "builtin-tools")]
const TITLES_LISTED: usize = 5;
/// What the model is told the tool does.
const DESCRIPTION: &str = "Searches this site's documentation and returns the best-matching pages, each with its title, address and the passage that matches best.";

/// What `search_docs` searches: the embedder's pages, or the URL of a JSON file of them.
#[derive(Clone, Debug)]
pub enum Docs {
    /// Given in the settings.
    Given(Vec<Doc>),
    /// Fetched at the first search.
    At(String),
}

/// A page of the site, as the embedder gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Doc {
    /// The page's title: shown in results, and its terms weigh double in the ranking.
    pub title: String,
    /// The page's address, shown so the model can cite it (may be empty).
    pub url: String,
    /// The page's plain text (not HTML).
    pub text: String,
}

// Read by hand, not derived (see `crate::json` for why).
impl FromJson for Doc {
    fn from_value(value: &Value) -> Result<Self, String> {
        let o = Object::new(value, "a document {title, url, text}")?;
        // Read into an empty page, so a failing field has one clean-up path (size: see
        // `Object::read`).
        let mut doc = Doc {
            title: String::new(),
            url: String::new(),
            text: String::new(),
        };
        for (key, into) in [
            ("title", &mut doc.title),
            ("url", &mut doc.url),
            ("text", &mut doc.text),
        ] {
            *into = o.required(key)?;
        }
        Ok(doc)
    }
}

/// Written as read (the core hands given documents to the tools' module this way).
impl ToJson for Doc {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[
            ("title", &self.title),
            ("url", &self.url),
            ("text", &self.text),
        ]);
    }
}

/// Reads documents from JSON: an array of `{title, url, text}`, or `{"docs": [...]}`. The
/// error names the entry and what is wrong with it (``docs[2]: missing field `url` ``).
pub fn read_docs(json: &Value) -> Result<Vec<Doc>, String> {
    let list = match json {
        Value::Object(map) => map.get("docs").unwrap_or(json),
        other => other,
    };
    let Value::Array(items) = list else {
        return Err(format!(
            "cannot read the documents: {}",
            invalid_type(list, "an array of {title, url, text}, or {\"docs\": [...]}")
        ));
    };
    let mut docs = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        docs.push(Doc::from_value(item).map_err(|e| format!("docs[{i}]: {e}"))?);
    }
    Ok(docs)
}

/// The `search_docs` tool over `docs`, showing the best [`RESULTS`] pages.
#[cfg(feature = "builtin-tools")]
pub fn tool(docs: Vec<Doc>) -> Rc<dyn Tool> {
    tool_showing(docs, RESULTS)
}

/// The `search_docs` tool over `docs`, showing the best `results` pages (at least one).
#[cfg(feature = "builtin-tools")]
pub fn tool_showing(docs: Vec<Doc>, results: usize) -> Rc<dyn Tool> {
    let index = Index::new(docs);
    let mut tool = FnTool::new("search_docs", DESCRIPTION, "query", move |query: &str| {
        index.answer(query, results)
    });
    *tool.spec_mut() = spec();
    Rc::new(tool)
}

// The observation is the tool's wording, so it is here rather than with the ranking.
#[cfg(feature = "builtin-tools")]
impl Index {
    /// The tool's observation for `query`: the best `results` pages as
    /// `[1] Title — url` and their best passage, or what the pages cover when none matches.
    pub fn answer(&self, query: &str, results: usize) -> Result<String, ToolError> {
        if self.docs.is_empty() {
            return Err(ToolError::Failed(
                "search_docs has no documents to search: the embedder gave no documents \
                 (pass a non-empty list of {title, url, text} when creating the tool)"
                    .into(),
            ));
        }
        let query = query.trim();
        if query.is_empty() {
            return Err(ToolError::BadInput(
                "search_docs needs a query: a few words to look for, e.g. \"install on windows\""
                    .into(),
            ));
        }
        let hits = self.search(query, results.max(1));
        if hits.is_empty() {
            // Say what the pages are about, so the model's next query can use their words.
            let mut out =
                format!("No documents match \"{query}\". Try other words; the documents cover: ");
            for (i, doc) in self.docs.iter().take(TITLES_LISTED).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&doc.title);
            }
            if self.docs.len() > TITLES_LISTED {
                out += &format!(" (and {} more)", self.docs.len() - TITLES_LISTED);
            }
            out.push('.');
            return Ok(out);
        }
        let mut out = String::new();
        for (i, hit) in hits.iter().enumerate() {
            if i > 0 {
                out.push_str("\n\n");
            }
            out += &format!("[{}] {}", i + 1, hit.doc.title);
            if !hit.doc.url.is_empty() {
                out += &format!(" — {}", hit.doc.url);
            }
            let passage = snippet(&hit.doc.text, query);
            if !passage.is_empty() {
                out.push('\n');
                out.push_str(&passage);
            }
        }
        Ok(out)
    }
}

/// The `search_docs` tool over the JSON file of documents at `url` (the same shapes as
/// [`read_docs`] reads), fetched through `transport` at the first search and kept. A file that
/// cannot be fetched or read is an error observation naming the URL, and the next search tries
/// again.
#[cfg(feature = "builtin-tools")]
pub fn tool_from_url(url: &str, transport: Rc<dyn Transport>) -> Rc<dyn Tool> {
    Rc::new(DocsAt {
        spec: spec(),
        url: url.to_string(),
        transport,
        loaded: RefCell::new(None),
    })
}

/// The spec of `search_docs`: searches only read, so calls may run together.
pub fn spec() -> ToolSpec {
    ToolSpec {
        concurrent: true,
        ..ToolSpec::new("search_docs", DESCRIPTION, string_schema("query"))
    }
}

/// The largest documents file read (as for a wiki reply: 2 MB).
#[cfg(feature = "builtin-tools")]
const MAX_FILE_BYTES: usize = 2 << 20;

#[cfg(feature = "builtin-tools")]
struct DocsAt {
    spec: ToolSpec,
    url: String,
    transport: Rc<dyn Transport>,
    loaded: RefCell<Option<Rc<dyn Tool>>>,
}

#[cfg(feature = "builtin-tools")]
impl Tool for DocsAt {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn call<'a>(&'a self, input: &'a Value) -> LocalBoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let loaded = self.loaded.borrow().clone();
            let tool = match loaded {
                Some(tool) => tool,
                None => {
                    let docs = self.fetch().await.map_err(|e| {
                        ToolError::Failed(format!(
                            "could not load the documents from {}: {e}",
                            self.url
                        ))
                    })?;
                    let tool = tool(docs);
                    *self.loaded.borrow_mut() = Some(tool.clone());
                    tool
                }
            };
            tool.call(input).await
        })
    }
}

#[cfg(feature = "builtin-tools")]
impl DocsAt {
    async fn fetch(&self) -> Result<Vec<Doc>, String> {
        let request = HttpRequest::get(self.url.clone());
        let response = self.transport.send(request).await.map_err(|e| e.message)?;
        if response.status != 200 {
            return Err(format!("HTTP {}", response.status));
        }
        let bytes = read_reply(response.body, MAX_FILE_BYTES, &self.url).await?;
        // Read as text first: one JSON reader (`from_str`) serves the whole crate (size).
        let text = String::from_utf8_lossy(&bytes);
        let json: Value = crate::json::from_str(&text).map_err(|e| format!("not JSON ({e})"))?;
        read_docs(&json)
    }
}
