//! `search` and `lookup` over a live MediaWiki (Wikipedia by default): the ReAct paper's
//! WikiEnv with the real encyclopedia behind it. The observations are worded and behave exactly
//! like the offline tools in `knowledge.rs` (the two share the page state, `Browser`).
//!
//! The paper's `wikienv.py` scraped the HTML of `index.php?search=`. A web page cannot read those
//! pages (they carry no CORS headers), so this asks the MediaWiki Action API instead, which lets
//! any origin read it with `origin=*`, in plain GETs without custom headers (no preflight):
//! 1. `prop=extracts` (the TextExtracts extension: the page as plain text) for the entity as a
//!    title, following redirects. A page opens, and its first five sentences are the
//!    observation.
//! 2. No page, or a disambiguation page ("… may refer to:"): `list=search` for the entity, and
//!    the observation is `Could not find [entity]. Similar: [...]` with up to five titles (the
//!    paper searched again for `[entity]` there, which lists search results the same way).
//!
//! `lookup[keyword]` then pages through the open page's sentences containing the keyword. When
//! the wiki fails (unreachable, an HTTP error, a reply that is not the API's JSON, an API
//! `error`) the tool fails: the model reads an error observation naming the host, and the run
//! goes on.

#[cfg(feature = "builtin-tools")]
use super::knowledge::{lookup_tool, Browser};
use super::{string_schema, ToolSpec};
#[cfg(feature = "builtin-tools")]
use super::{text_input, Tool, ToolError, ToolOutput};
use crate::error::Error;
#[cfg(feature = "builtin-tools")]
use crate::host::LocalBoxFuture;
#[cfg(feature = "builtin-tools")]
use crate::http::{read_reply, HttpRequest, Transport};
#[cfg(feature = "builtin-tools")]
use crate::json::Value;
#[cfg(feature = "builtin-tools")]
use crate::json::{FromJson, Object};
#[cfg(feature = "builtin-tools")]
use crate::text::sentences;
#[cfg(feature = "builtin-tools")]
use std::cell::RefCell;
#[cfg(feature = "builtin-tools")]
use std::rc::Rc;

/// The largest reply read from the wiki (a long article's plain text is about 200 KB).
#[cfg(feature = "builtin-tools")]
const MAX_REPLY_BYTES: usize = 2 << 20;
/// How many similar titles a miss lists (the paper's `result_titles[:5]`).
#[cfg(feature = "builtin-tools")]
const SIMILAR_SHOWN: &str = "5";
/// What the model is told `search` does over a live wiki.
const SEARCH: &str = "Searches Wikipedia for an entity (a person, place, company, topic) and returns the first sentences of its page, or similar titles when there is no page.";

/// What the model is told about `search` over a live wiki (`lookup` is the offline one's:
/// [`super::knowledge::lookup_spec`]). A build without the tools' code keeps these.
pub fn search_spec() -> ToolSpec {
    ToolSpec::new("search", SEARCH, string_schema("query"))
}

/// Which MediaWiki to ask, read from a setting by [`Wiki::parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wiki {
    /// The Action API endpoint, e.g. `https://en.wikipedia.org/w/api.php`.
    pub api: String,
    /// The language variant pages are converted to: `zh-cn` (simplified script) on a Chinese
    /// wiki, whose pages are written in a mix of simplified and traditional characters.
    pub variant: Option<&'static str>,
}

impl Wiki {
    /// Reads the wiki setting; `lang` is the run's language (`en`, `zh`). The setting is
    /// - empty: the Wikipedia in `lang`;
    /// - a Wikipedia language code (`en`, `zh`, `de`, `zh-yue`, `simple`):
    ///   `https://{code}.wikipedia.org/w/api.php`;
    /// - an `http://` or `https://` URL whose path ends in `/api.php`: that endpoint;
    /// - an `http://` or `https://` URL of a site root (`http://127.0.0.1:8123`): `/w/api.php`
    ///   on that site, where Wikipedia (and tao's mock) keep it.
    ///
    /// Chinese pages are asked for in simplified script when the code is `zh` or, for a URL,
    /// when `lang` is `zh`.
    pub fn parse(setting: &str, lang: &str) -> Result<Wiki, Error> {
        let setting = setting.trim();
        let code = if setting.is_empty() {
            lang.trim()
        } else {
            setting
        };
        let url = code
            .strip_prefix("https://")
            .or_else(|| code.strip_prefix("http://"));
        if let Some(rest) = url {
            let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
            let plain = !host.is_empty()
                && !code.contains(|c: char| c.is_whitespace() || c == '?' || c == '#');
            let api = if plain && path.ends_with("/api.php") {
                Some(code.to_string())
            } else if plain && path.trim_end_matches('/').is_empty() {
                Some(format!("{}/w/api.php", code.trim_end_matches('/')))
            } else {
                None
            };
            if let Some(api) = api {
                let variant = (lang.trim() == "zh").then_some("zh-cn");
                return Ok(Wiki { api, variant });
            }
        } else {
            // Two or three letters, then `-` and letters (`zh-yue`), as Wikipedias are named.
            let code = code.to_ascii_lowercase();
            let mut parts = code.split('-');
            let first = parts.next().unwrap_or_default();
            let is_code = code == "simple"
                || ((2..=3).contains(&first.len())
                    && first.chars().all(|c| c.is_ascii_lowercase())
                    && parts.all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_lowercase())));
            if is_code {
                return Ok(Wiki {
                    api: format!("https://{code}.wikipedia.org/w/api.php"),
                    variant: (code == "zh").then_some("zh-cn"),
                });
            }
        }
        Err(Error::config(format!(
            "the wiki \"{code}\" is neither a Wikipedia language code (en, zh) nor the http(s) URL of a MediaWiki api.php (e.g. https://en.wikipedia.org/w/api.php, without ? or #)"
        )))
    }

    /// The host the API is on, to name in messages (`en.wikipedia.org`).
    pub fn host(&self) -> &str {
        let rest = self.api.split_once("://").map_or(&*self.api, |(_, r)| r);
        rest.split('/').next().unwrap_or(rest)
    }

    /// The URL of an Action API query with `params` after the ones every query has: JSON in
    /// its modern shape (`formatversion=2`: pages as a list, flags as `true`) and `origin=*`,
    /// which makes MediaWiki answer with `Access-Control-Allow-Origin: *`.
    pub fn url(&self, params: &[(&str, &str)]) -> String {
        let mut url = format!(
            "{}?action=query&format=json&formatversion=2&origin=*",
            self.api
        );
        // A Chinese title may be stored in the other script (`converttitles`), and the text is
        // converted to the variant asked for.
        let variant = self
            .variant
            .map(|v| [("converttitles", "1"), ("variant", v)]);
        for (key, value) in params.iter().chain(variant.iter().flatten()) {
            url.push('&');
            url.push_str(key);
            url.push('=');
            url.push_str(&encode(value));
        }
        url
    }
}

/// `text` percent-encoded for a URL's query: every byte of its UTF-8 but the unreserved
/// `A-Z a-z 0-9 - . _ ~` becomes `%XX` (RFC 3986), so `Ulm` stays `Ulm`, a space is `%20`,
/// `&` is `%26` and `乌` is `%E4%B9%8C`.
pub fn encode(text: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 15)]));
        }
    }
    out
}

/// The two tools, `search` and `lookup`, sharing one open page, asking `wiki` through
/// `transport` (the browser's `fetch` in the page).
#[cfg(feature = "builtin-tools")]
pub fn tools(wiki: Wiki, transport: Rc<dyn Transport>) -> Vec<Rc<dyn Tool>> {
    let browser = Rc::new(RefCell::new(Browser::default()));
    let search = Search {
        spec: search_spec(),
        wiki,
        transport,
        browser: browser.clone(),
    };
    vec![Rc::new(search), lookup_tool(browser)]
}

/// `search[entity]`: needs the network, so it is a tool of its own rather than an `FnTool`.
#[cfg(feature = "builtin-tools")]
struct Search {
    spec: ToolSpec,
    wiki: Wiki,
    transport: Rc<dyn Transport>,
    browser: Rc<RefCell<Browser>>,
}

#[cfg(feature = "builtin-tools")]
impl Tool for Search {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    /// A search is a read: asking again opens the same page (the wiki may have been edited
    /// since, which a fork would see too).
    fn replays(&self) -> bool {
        true
    }
    fn call<'a>(&'a self, input: &'a Value) -> LocalBoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let query = text_input(input, "query")?;
            self.search(&query).await.map(ToolOutput::from)
        })
    }
}

#[cfg(feature = "builtin-tools")]
impl Search {
    /// The paper's `search_step`: the page, or similar titles.
    async fn search(&self, entity: &str) -> Result<String, ToolError> {
        if entity.is_empty() {
            return Err(ToolError::BadInput(
                "search needs an entity, e.g. search[Albert Einstein]".into(),
            ));
        }
        let reply = self
            .ask(&[
                ("prop", "extracts|pageprops"),
                ("explaintext", "1"),
                ("ppprop", "disambiguation"),
                ("redirects", "1"),
                ("titles", entity),
            ])
            .await?;
        let pages: Vec<Page> = self.read(&reply, "pages")?;
        // One title was asked for, so there is one page (`|` in a title would ask for more:
        // MediaWiki splits on it; the first is as good an answer as any).
        let mut skip = None;
        if let Some(page) = pages.into_iter().next() {
            match page.extract {
                Some(extract) if !page.disambiguation && !extract.contains("may refer to:") => {
                    // Not held across an await: the borrow ends with this statement.
                    return Ok(self.browser.borrow_mut().open(page_sentences(&extract)));
                }
                // A disambiguation page is a list of other pages: show them as similar titles,
                // without the disambiguation page itself (searching it again would loop).
                Some(_) => skip = Some(page.title),
                None => {} // `missing` (or an `invalid` title): no such page
            }
        }
        let reply = self
            .ask(&[
                ("list", "search"),
                ("srsearch", entity),
                ("srlimit", SIMILAR_SHOWN),
            ])
            .await?;
        let hits: Vec<Page> = self.read(&reply, "search")?;
        let titles: Vec<&str> = hits
            .iter()
            .map(|hit| hit.title.as_str())
            .filter(|title| skip.as_deref() != Some(*title))
            .collect();
        Ok(format!(
            "Could not find [{entity}]. Similar: {}.",
            crate::text::quoted_list(&titles)
        ))
    }

    /// Sends one Action API query and returns the reply's JSON. Any failure is the tool's, and
    /// is worded for the model (and the user reading the trajectory) with the host it concerns.
    async fn ask(&self, params: &[(&str, &str)]) -> Result<Value, ToolError> {
        let host = self.wiki.host();
        let request = HttpRequest::get(self.wiki.url(params));
        let response = self.transport.send(request).await.map_err(|e| {
            ToolError::Failed(format!(
                "could not reach {host} ({}); check the connection and the wiki's address",
                e.message
            ))
        })?;
        let status = response.status;
        let body = read_reply(response.body, MAX_REPLY_BYTES, host).await;
        if status != 200 {
            let detail = body.map_or("no details".into(), |b| preview(&b));
            return Err(ToolError::Failed(format!(
                "{host} answered HTTP {status}: {detail}"
            )));
        }
        // Read as text first: one JSON reader (`from_str`) serves the whole crate (size).
        let body = body.map_err(ToolError::Failed)?;
        let reply: Value = crate::json::from_str(&String::from_utf8_lossy(&body)).map_err(|e| {
            ToolError::Failed(format!(
                "{host} sent a reply that is not JSON ({e}); is {} a MediaWiki api.php?",
                self.wiki.api
            ))
        })?;
        // MediaWiki reports a refused query with status 200 and an `error` object.
        if let Some(error) = reply.get("error") {
            let (mut code, mut info) = (String::new(), String::new());
            if let Ok(error) = Object::new(error, "an API error") {
                let _ = error.read("code", &mut code);
                let _ = error.read("info", &mut info);
            }
            let why = if info.is_empty() {
                code
            } else {
                format!("{info} ({code})")
            };
            return Err(ToolError::Failed(format!(
                "{host} refused the query: {why}"
            )));
        }
        Ok(reply)
    }

    /// The list `query.{list}` of a reply (`pages` or `search`).
    fn read(&self, reply: &Value, list: &str) -> Result<Vec<Page>, ToolError> {
        Object::new(&reply["query"], "a query result")
            .and_then(|query| query.required(list))
            .map_err(|e| {
                ToolError::Failed(format!(
                    "{} sent a reply that is not a MediaWiki query result ({e})",
                    self.wiki.host()
                ))
            })
    }
}

#[cfg(feature = "builtin-tools")]
/// A page of `query.pages` (`{"title", "extract", "pageprops": {"disambiguation": ""}}`, or
/// `{"title", "missing": true}`), or a hit of `query.search` (`{"title", ...}`).
struct Page {
    title: String,
    extract: Option<String>,
    disambiguation: bool,
}

#[cfg(feature = "builtin-tools")]
impl FromJson for Page {
    fn from_value(value: &Value) -> Result<Self, String> {
        let o = Object::new(value, "a page")?;
        let missing = value.get("missing").is_some() || value.get("invalid").is_some();
        Ok(Page {
            title: o.required("title")?,
            extract: if missing {
                None
            } else {
                o.or_default("extract")?
            },
            disambiguation: value["pageprops"].get("disambiguation").is_some(),
        })
    }
}

#[cfg(feature = "builtin-tools")]
/// The sentences of a plain-text extract, paragraph by paragraph (a sentence never runs across
/// a line break, as in the paper's `get_page_obs`), without the `== Section ==` headings.
fn page_sentences(extract: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in extract.lines().map(str::trim) {
        if !(line.starts_with("==") && line.ends_with("==")) {
            out.extend(sentences(line));
        }
    }
    out
}

#[cfg(feature = "builtin-tools")]
/// The start of an error body, on one line.
fn preview(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None if line.is_empty() => "no details".into(),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wiki_settings() {
        let wiki =
            |setting: &str, lang: &str| Wiki::parse(setting, lang).map(|w| (w.api, w.variant));
        let en = "https://en.wikipedia.org/w/api.php".to_string();
        let zh = "https://zh.wikipedia.org/w/api.php".to_string();
        assert_eq!(wiki("en", "zh"), Ok((en.clone(), None)));
        assert_eq!(wiki(" ZH ", "en"), Ok((zh.clone(), Some("zh-cn"))));
        assert_eq!(wiki("", "zh"), Ok((zh, Some("zh-cn"))));
        assert_eq!(wiki("", "en"), Ok((en.clone(), None)));
        assert_eq!(
            wiki("zh-yue", "zh"),
            Ok(("https://zh-yue.wikipedia.org/w/api.php".into(), None))
        );
        assert_eq!(wiki(&en, "en"), Ok((en.clone(), None)));
        assert_eq!(
            wiki("http://127.0.0.1:8123/", "zh"),
            Ok(("http://127.0.0.1:8123/w/api.php".into(), Some("zh-cn")))
        );
        assert_eq!(
            wiki("https://wiki.example.org/api.php", "en"),
            Ok(("https://wiki.example.org/api.php".into(), None))
        );
        for bad in [
            "english",
            "e",
            "ftp://en.wikipedia.org/w/api.php",
            "https://en.wikipedia.org/wiki/Main_Page",
            "https://en.wikipedia.org/w/api.php?action=query",
            "https:///api.php",
            "en wikipedia",
            "zh-",
            "chinese",
        ] {
            let error = Wiki::parse(bad, "en").unwrap_err();
            assert_eq!(error.kind, crate::error::ErrorKind::Config, "{bad}");
            assert!(
                error
                    .message
                    .starts_with(&format!("the wiki \"{bad}\" is neither")),
                "{}",
                error.message
            );
        }
    }

    #[test]
    fn urls_are_percent_encoded_utf8() {
        assert_eq!(encode("Albert Einstein"), "Albert%20Einstein");
        assert_eq!(encode("AT&T=1+1?#/"), "AT%26T%3D1%2B1%3F%23%2F");
        assert_eq!(encode("乌尔姆"), "%E4%B9%8C%E5%B0%94%E5%A7%86");
        assert_eq!(encode("Baden-Württemberg_~."), "Baden-W%C3%BCrttemberg_~.");
        let wiki = Wiki::parse("zh", "zh").unwrap();
        assert_eq!(
            wiki.url(&[("titles", "乌尔姆"), ("prop", "extracts|pageprops")]),
            "https://zh.wikipedia.org/w/api.php?action=query&format=json&formatversion=2&origin=*&titles=%E4%B9%8C%E5%B0%94%E5%A7%86&prop=extracts%7Cpageprops&converttitles=1&variant=zh-cn"
        );
        assert_eq!(wiki.host(), "zh.wikipedia.org");
    }

    #[test]
    fn extracts_lose_their_headings_and_split_by_paragraph() {
        let extract = "Ulm is a city. It is old\n\n== History ==\n=== Early ===\nFounded in 850. 乌尔姆是一座城市。位于德国。";
        assert_eq!(
            page_sentences(extract),
            [
                "Ulm is a city.",
                "It is old",
                "Founded in 850.",
                "乌尔姆是一座城市。",
                "位于德国。"
            ]
        );
    }

    #[test]
    fn chinese_extracts_split_at_every_full_stop() {
        // Regression: ！ and ？ did not end a sentence, so these were one.
        let extract = "乌尔姆是一座城市！你去过吗？去过。\n== 历史 ==\n他说：“很美。”对!";
        assert_eq!(
            page_sentences(extract),
            [
                "乌尔姆是一座城市！",
                "你去过吗？",
                "去过。",
                "他说：“很美。”",
                "对!"
            ]
        );
    }
}
