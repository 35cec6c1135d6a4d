//! The live Wikipedia tools (`search`, `lookup`) against a wiki in a file.
//!
//! `FileWiki` is a transport that answers MediaWiki Action API queries from
//! `tests/wiki/pages.json`, by the rules the node mock (`tests/mock/mediawiki.mjs`) follows, in
//! the real API's JSON (formatversion=2): so the tool is checked here natively, and in a browser
//! against the mock, on the same content. It also records every URL the tool asked for, and
//! refuses anything but a plain GET (no headers, no body: no CORS preflight).

use std::cell::RefCell;
use std::rc::Rc;
use tao_agent::error::ErrorKind;
use tao_agent::format::{Format, Lang};
use tao_agent::host::{block_on, LocalBoxFuture, NativeHost};
use tao_agent::json;
use tao_agent::json::Value;
use tao_agent::llm::http::{Body, HttpRequest, HttpResponse, Method, Transport};
use tao_agent::scenarios::scripted::{Policy, Scripted};
use tao_agent::tools::wikipedia::{self, Wiki};
use tao_agent::tools::{Registry, Tool, ToolError};
use tao_agent::{Agent, Config, Error, StopReason};

const PAGES: &str = include_str!("wiki/pages.json");
const MOCK: &str = "http://127.0.0.1:8124";
const API: &str = "http://127.0.0.1:8124/w/api.php";
/// What every query starts with.
const QUERY: &str =
    "http://127.0.0.1:8124/w/api.php?action=query&format=json&formatversion=2&origin=*";

// ---------------------------------------------------------------------------------------------
// The wiki in a file.

/// A transport that is a small MediaWiki (see the module's comment).
struct FileWiki {
    wiki: Value,
    sent: RefCell<Vec<String>>,
}

impl FileWiki {
    fn new() -> Rc<Self> {
        Rc::new(FileWiki {
            wiki: tao_agent::json::from_str(PAGES).unwrap(),
            sent: RefCell::default(),
        })
    }

    /// The URLs asked for since the last call.
    fn sent(&self) -> Vec<String> {
        self.sent.take()
    }

    /// The answer to a query: status and body, or a failure to connect.
    fn answer(&self, params: &[(String, String)]) -> Result<(u16, String), Error> {
        let param = |key: &str| {
            params
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        };
        let error = |code: &str, info: &str| {
            let docref = "See https://www.mediawiki.org/wiki/API:Main_page for API usage.";
            let body = json!({"error": {"code": code, "info": info, "docref": docref}, "servedby": "mock"});
            Ok((200, body.to_string()))
        };
        if param("action") != Some("query") {
            let action = param("action").unwrap_or_default();
            return error(
                "badvalue",
                &format!("Unrecognized value for parameter \"action\": {action}."),
            );
        }
        if param("format") != Some("json") || param("formatversion") != Some("2") {
            return error(
                "mock-unsupported",
                "This mock answers only format=json&formatversion=2.",
            );
        }
        for key in ["titles", "srsearch"] {
            let failure = &self.wiki["failures"][param(key).unwrap_or_default()];
            if failure["reset"] == true {
                return Err(Error::new(ErrorKind::Network, "connection reset"));
            }
            if let Some(body) = failure["body"].as_str() {
                return Ok((failure["status"].as_u64().unwrap() as u16, body.into()));
            }
        }

        let pages = self.wiki["pages"].as_array().unwrap();
        let mut query = tao_agent::json::Map::new();
        let props: Vec<&str> = param("prop").unwrap_or_default().split('|').collect();
        if let Some(titles) = param("titles") {
            let (mut normalized, mut redirects, mut found) = (vec![], vec![], vec![]);
            for asked in titles.split('|') {
                let mut title = normalize(asked);
                if title != asked {
                    normalized.push(json!({"fromencoded": false, "from": asked, "to": title}));
                }
                if let Some(target) = self.wiki["redirects"][&title].as_str() {
                    assert!(param("redirects").is_some(), "the tool follows redirects");
                    redirects.push(json!({"from": title, "to": target}));
                    title = target.to_string();
                }
                let Some(page) = pages.iter().find(|p| p["title"] == title.as_str()) else {
                    found.push(json!({"ns": 0, "title": title, "missing": true}));
                    continue;
                };
                let mut out = json!({"pageid": page["pageid"], "ns": 0, "title": page["title"]});
                if props.contains(&"extracts") {
                    out.as_object_mut()
                        .unwrap()
                        .insert("extract".into(), page["extract"].clone());
                }
                let ppprop =
                    param("ppprop").is_none_or(|p| p.split('|').any(|p| p == "disambiguation"));
                if props.contains(&"pageprops") && page["disambiguation"] == true && ppprop {
                    out.as_object_mut()
                        .unwrap()
                        .insert("pageprops".into(), json!({"disambiguation": ""}));
                }
                found.push(out);
            }
            if !normalized.is_empty() {
                query.insert("normalized".into(), normalized.into());
            }
            if !redirects.is_empty() {
                query.insert("redirects".into(), redirects.into());
            }
            query.insert("pages".into(), found.into());
        }
        let mut body = json!({"batchcomplete": true});
        if param("list").is_some_and(|l| l.split('|').any(|l| l == "search")) {
            let Some(text) = param("srsearch").filter(|t| !t.is_empty()) else {
                return error("missingparam", "The \"srsearch\" parameter must be set.");
            };
            let limit = param("srlimit")
                .and_then(|l| l.parse().ok())
                .unwrap_or(10usize)
                .clamp(1, 500);
            let hits = search(pages, text);
            query.insert("searchinfo".into(), json!({"totalhits": hits.len()}));
            let shown = hits.iter().take(limit).map(|page| {
                let extract = page["extract"].as_str().unwrap();
                let snippet: String = extract.chars().take(80).collect();
                json!({"ns": 0, "title": page["title"], "pageid": page["pageid"], "size": extract.len(),
                       "wordcount": extract.split_whitespace().count(),
                       "snippet": snippet.replace('&', "&amp;").replace('<', "&lt;"),
                       "timestamp": "2024-06-01T12:00:00Z"})
            });
            query.insert("search".into(), shown.collect::<Vec<_>>().into());
            if hits.len() > limit {
                body.as_object_mut().unwrap().insert(
                    "continue".into(),
                    json!({"sroffset": limit, "continue": "-||"}),
                );
            }
        }
        body.as_object_mut()
            .unwrap()
            .insert("query".into(), query.into());
        Ok((200, body.to_string()))
    }
}

/// MediaWiki's title normalisation, the part that matters here (as the mock does it).
fn normalize(title: &str) -> String {
    let spaced = title.replace('_', " ");
    let t = spaced.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut chars = t.chars();
    chars.next().map_or(String::new(), |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// The pages `list=search` finds, best first: 2 points per query word in the title, else 1 per
/// word in the text; none, left out; ties in the file's order (the rule in pages.json).
fn search<'a>(pages: &'a [Value], text: &str) -> Vec<&'a Value> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let mut scored: Vec<(usize, &Value)> = pages
        .iter()
        .map(|page| {
            let title = page["title"].as_str().unwrap().to_lowercase();
            let body = page["extract"].as_str().unwrap().to_lowercase();
            let score = words
                .iter()
                .map(|w| {
                    if title.contains(w) {
                        2
                    } else {
                        usize::from(body.contains(w))
                    }
                })
                .sum();
            (score, page)
        })
        .filter(|(score, _)| *score > 0)
        .collect();
    scored.sort_by_key(|(score, _)| std::cmp::Reverse(*score)); // stable: ties keep the file's order
    scored.into_iter().map(|(_, page)| page).collect()
}

/// The query's parameters, percent-decoded.
fn parameters(url: &str) -> Vec<(String, String)> {
    let (_, query) = url.split_once('?').expect("a query string");
    query
        .split('&')
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(key), decode(value))
        })
        .collect()
}

fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap();
            out.push(u8::from_str_radix(hex, 16).unwrap());
            i += 3;
        } else {
            assert!(
                bytes[i] != b' ' && bytes[i] != b'+',
                "unencoded space in {text}"
            );
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

impl Transport for FileWiki {
    fn send(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, Error>> {
        // The wiki must be read with a simple request: GET, no headers, no body.
        assert_eq!(request.method, Method::Get, "{}", request.url);
        assert!(
            request.headers.is_empty() && request.body.is_empty(),
            "{request:?}"
        );
        assert!(request.url.starts_with(API), "{}", request.url);
        let answer = self.answer(&parameters(&request.url));
        self.sent.borrow_mut().push(request.url);
        Box::pin(std::future::ready(
            answer.map(|(status, text)| reply(status, text.into_bytes())),
        ))
    }
}

/// A response whose body arrives in chunks of 1000 bytes (so the tool must put them together).
fn reply(status: u16, bytes: Vec<u8>) -> HttpResponse {
    let chunks: Vec<Vec<u8>> = bytes.chunks(1000).map(<[u8]>::to_vec).collect();
    HttpResponse {
        status,
        retry_after: None,
        content_type: "application/json; charset=utf-8".into(),
        session: None,
        body: Box::new(Chunks(chunks.into_iter())),
    }
}

struct Chunks(std::vec::IntoIter<Vec<u8>>);

impl Body for Chunks {
    fn chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, Error>> {
        Box::pin(std::future::ready(Ok(self.0.next())))
    }
}

/// A transport that always gives the same answer (for replies the mock never gives).
struct Always(u16, Vec<u8>);

impl Transport for Always {
    fn send(&self, _: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, Error>> {
        Box::pin(std::future::ready(Ok(reply(self.0, self.1.clone()))))
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers.

/// `search` and `lookup` on the file wiki, in `lang`.
fn tools(lang: &str) -> (Rc<FileWiki>, Rc<dyn Tool>, Rc<dyn Tool>) {
    let wiki = FileWiki::new();
    let tools = wikipedia::tools(Wiki::parse(MOCK, lang).unwrap(), wiki.clone());
    (wiki, tools[0].clone(), tools[1].clone())
}

fn call(tool: &Rc<dyn Tool>, input: &str) -> Result<String, ToolError> {
    block_on(tool.call(&Value::String(input.into()))).map(|output| output.text)
}

fn ok(tool: &Rc<dyn Tool>, input: &str) -> String {
    call(tool, input).unwrap_or_else(|e| panic!("{}[{input}]: {e:?}", tool.spec().name))
}

/// The text of a page in the file.
fn extract(title: &str) -> String {
    let wiki: Value = tao_agent::json::from_str(PAGES).unwrap();
    let pages = wiki["pages"].as_array().unwrap();
    let page = pages.iter().find(|p| p["title"] == title).unwrap();
    page["extract"].as_str().unwrap().to_string()
}

const EINSTEIN_FIRST_FIVE: &str = "Albert Einstein (14 March 1879 – 18 April 1955) was a theoretical physicist who is widely held to be one of the greatest scientists of all time. He is best known for developing the theory of relativity, and he also made important contributions to quantum mechanics. Born in the German Empire, Einstein moved to Switzerland in 1895 and gave up his German citizenship the following year. His mass–energy equivalence formula E = mc2 has been called the world's most famous equation. He received the 1921 Nobel Prize in Physics for his services to theoretical physics, and especially for his discovery of the law of the photoelectric effect.";
const BORN_1: &str = "(Result 1 / 2) Born in the German Empire, Einstein moved to Switzerland in 1895 and gave up his German citizenship the following year.";
const BORN_2: &str = "(Result 2 / 2) Albert Einstein was born in Ulm, in the Kingdom of Württemberg in the German Empire, on 14 March 1879.";
const ULM_FIRST_FIVE: &str = "Ulm is a city in the federal state of Baden-Württemberg, Germany, on the left bank of the River Danube. It lies on the border with Bavaria, facing its twin town Neu-Ulm across the river. Founded around the year 850, Ulm became a free imperial city in the Middle Ages. Its minster has the tallest church steeple in the world. The physicist Albert Einstein was born in Ulm in 1879.";

/// The first query of a search: the page's plain text and whether it is a disambiguation page.
fn page_query(title: &str) -> String {
    format!("{QUERY}&prop=extracts%7Cpageprops&explaintext=1&ppprop=disambiguation&redirects=1&titles={title}")
}

/// The second query of a search that found no page: up to five titles.
fn search_query(text: &str) -> String {
    format!("{QUERY}&list=search&srsearch={text}&srlimit=5")
}

// ---------------------------------------------------------------------------------------------
// search

#[test]
fn search_opens_the_page_and_shows_its_first_five_sentences() {
    let (wiki, search, _) = tools("en");
    assert_eq!(ok(&search, "Albert Einstein"), EINSTEIN_FIRST_FIVE);
    assert!(
        !EINSTEIN_FIRST_FIVE.contains("Ulm"),
        "the birthplace is further down"
    );
    assert_eq!(wiki.sent(), [page_query("Albert%20Einstein")]);
}

#[test]
fn search_follows_redirects_and_normalised_titles() {
    let (wiki, search, _) = tools("en");
    assert_eq!(ok(&search, "Einstein"), EINSTEIN_FIRST_FIVE);
    assert_eq!(ok(&search, "ulm"), ULM_FIRST_FIVE);
    assert_eq!(wiki.sent(), [page_query("Einstein"), page_query("ulm")]);
}

#[test]
fn a_miss_lists_similar_titles_and_keeps_the_open_page() {
    let (wiki, search, lookup) = tools("en");
    ok(&search, "Ulm");
    assert_eq!(
        ok(&search, "Einstein birthplace"),
        r#"Could not find [Einstein birthplace]. Similar: ["Albert Einstein", "Ulm"]."#
    );
    assert_eq!(
        ok(&search, "Zanzibar cricket"),
        "Could not find [Zanzibar cricket]. Similar: []."
    );
    // As in the paper, a search that finds nothing leaves the last page open.
    assert_eq!(
        ok(&lookup, "Danube"),
        "(Result 1 / 2) Ulm is a city in the federal state of Baden-Württemberg, Germany, on the left bank of the River Danube."
    );
    assert_eq!(
        wiki.sent()[1..],
        [
            page_query("Einstein%20birthplace"),
            search_query("Einstein%20birthplace"),
            page_query("Zanzibar%20cricket"),
            search_query("Zanzibar%20cricket"),
        ]
    );
}

#[test]
fn a_disambiguation_page_is_a_miss_with_its_meanings_as_similar_titles() {
    let (wiki, search, lookup) = tools("en");
    assert!(extract("Mercury").starts_with("Mercury may refer to:"));
    assert_eq!(
        ok(&search, "Mercury"),
        r#"Could not find [Mercury]. Similar: ["Mercury (planet)", "Mercury (element)"]."#
    );
    assert_eq!(
        wiki.sent(),
        [page_query("Mercury"), search_query("Mercury")]
    );
    // It opens no page.
    assert!(matches!(
        call(&lookup, "planet"),
        Err(ToolError::BadInput(_))
    ));
    assert_eq!(
        ok(&search, "Mercury (planet)"),
        "Mercury is the first planet from the Sun and the smallest in the Solar System. It has no natural satellites, and a year on Mercury lasts 88 days. Of all the planets, Mercury has the most eccentric orbit."
    );
}

#[test]
fn headings_are_not_sentences() {
    let (_, search, lookup) = tools("en");
    ok(&search, "Ulm");
    assert!(extract("Ulm").contains("== Geography =="));
    assert_eq!(ok(&lookup, "geography"), "No more results.");
    assert_eq!(
        ok(&lookup, "Swabian"),
        "(Result 1 / 1) Ulm lies where the rivers Blau and Iller flow into the Danube, at the edge of the Swabian Jura."
    );
}

#[test]
fn an_empty_search_is_the_models_mistake() {
    let (wiki, search, _) = tools("en");
    assert_eq!(
        call(&search, " "),
        Err(ToolError::BadInput(
            "search needs an entity, e.g. search[Albert Einstein]".into()
        ))
    );
    assert!(wiki.sent().is_empty());
}

// ---------------------------------------------------------------------------------------------
// lookup

#[test]
fn lookup_pages_through_the_sentences_with_the_keyword() {
    let (_, search, lookup) = tools("en");
    assert_eq!(
        call(&lookup, "born"),
        Err(ToolError::BadInput(
            "there is no open page: search for an entity first".into()
        ))
    );
    ok(&search, "Albert Einstein");
    assert_eq!(ok(&lookup, "born"), BORN_1);
    assert_eq!(
        ok(&lookup, "BORN"),
        BORN_2,
        "the same keyword, ignoring case"
    );
    assert_eq!(ok(&lookup, "born"), "No more results.");
    assert_eq!(ok(&lookup, "born"), "No more results.");
    // A new keyword starts again, and so does a new page.
    assert_eq!(
        ok(&lookup, "Munich"),
        "(Result 1 / 1) In 1880 the family moved to Munich, where his father and his uncle founded a company that made electrical equipment."
    );
    ok(&search, "Einstein");
    assert_eq!(ok(&lookup, "born"), BORN_1);
}

// ---------------------------------------------------------------------------------------------
// Chinese

#[test]
fn chinese_pages_in_simplified_script_split_at_full_stops() {
    let (wiki, search, lookup) = tools("zh");
    assert_eq!(
        ok(&search, "爱因斯坦"),
        "阿尔伯特·爱因斯坦（1879年3月14日—1955年4月18日）是一位理论物理学家，被公认为有史以来最伟大的科学家之一。 他以创立相对论而闻名，也对量子力学的发展做出了重要贡献。 他出生于德意志帝国，1895年迁居瑞士，次年放弃了德国国籍。 他的质能等价公式E = mc2被称为世界上最著名的方程。 他因对理论物理的贡献，特别是发现光电效应定律，获得1921年诺贝尔物理学奖。"
    );
    assert_eq!(
        ok(&lookup, "出生"),
        "(Result 1 / 2) 他出生于德意志帝国，1895年迁居瑞士，次年放弃了德国国籍。"
    );
    assert_eq!(
        ok(&lookup, "出生"),
        "(Result 2 / 2) 爱因斯坦于1879年3月14日出生于德意志帝国符腾堡王国的乌尔姆。"
    );
    assert_eq!(ok(&lookup, "出生"), "No more results.");
    assert!(
        ok(&search, "乌尔姆").starts_with("乌尔姆是德国巴登-符腾堡州的一座城市，位于多瑙河左岸。 ")
    );
    // Titles are UTF-8, percent-encoded; a Chinese wiki is asked for simplified script.
    let zh = "&converttitles=1&variant=zh-cn";
    assert_eq!(
        wiki.sent(),
        [
            format!("{}{zh}", page_query("%E7%88%B1%E5%9B%A0%E6%96%AF%E5%9D%A6")),
            format!("{}{zh}", page_query("%E4%B9%8C%E5%B0%94%E5%A7%86")),
        ]
    );
}

#[test]
fn titles_with_reserved_characters_are_encoded() {
    let (wiki, search, _) = tools("en");
    assert_eq!(
        ok(&search, "Ulm & AT&T=1 #2 50%+"),
        r#"Could not find [Ulm & AT&T=1 #2 50%+]. Similar: ["Ulm", "Albert Einstein"]."#
    );
    let text = "Ulm%20%26%20AT%26T%3D1%20%232%2050%25%2B";
    assert_eq!(wiki.sent(), [page_query(text), search_query(text)]);
}

// ---------------------------------------------------------------------------------------------
// When the wiki fails

#[test]
fn failures_of_the_wiki_are_the_tools_naming_the_host() {
    let (_, search, _) = tools("en");
    let failed = |problem: &str| Err(ToolError::Failed(problem.into()));
    assert_eq!(
        call(&search, "Mock: HTTP 500"),
        failed("127.0.0.1:8124 answered HTTP 500: <!DOCTYPE html><html><head><title>Wikimedia Error</title></head><body><p>Our servers are currently under maintenance or experiencing a technical issue.</p></body></html>")
    );
    assert_eq!(
        call(&search, "Mock: bad JSON"),
        failed("127.0.0.1:8124 sent a reply that is not JSON (EOF while parsing a string at line 1 column 121); is http://127.0.0.1:8124/w/api.php a MediaWiki api.php?")
    );
    assert_eq!(
        call(&search, "Mock: API error"),
        failed("127.0.0.1:8124 refused the query: You've exceeded your rate limit. Please wait some time and try again. (ratelimited)")
    );
    assert_eq!(
        call(&search, "Mock: connection reset"),
        failed("could not reach 127.0.0.1:8124 (connection reset); check the connection and the wiki's address")
    );
}

#[test]
fn replies_that_are_not_query_results_or_too_large_fail() {
    let search = |transport: Always| {
        let tools = wikipedia::tools(Wiki::parse("en", "en").unwrap(), Rc::new(transport));
        call(&tools[0], "Ulm")
    };
    let failed = |problem: &str| Err(ToolError::Failed(problem.into()));
    assert_eq!(
        search(Always(200, br#"{"batchcomplete":true}"#.to_vec())),
        failed("en.wikipedia.org sent a reply that is not a MediaWiki query result (invalid type: null, expected a query result)")
    );
    assert_eq!(
        search(Always(200, br#"{"query":{"pages":[{"ns":0}]}}"#.to_vec())),
        failed("en.wikipedia.org sent a reply that is not a MediaWiki query result (missing field `title`)")
    );
    assert_eq!(
        search(Always(
            200,
            br#"{"error":{"code":"readapidenied"}}"#.to_vec()
        )),
        failed("en.wikipedia.org refused the query: readapidenied")
    );
    let huge = format!("\"{}\"", "x".repeat(3 << 20)).into_bytes();
    assert_eq!(
        search(Always(200, huge)),
        failed("the reply from en.wikipedia.org is larger than 2 MB")
    );
    assert_eq!(
        search(Always(404, Vec::new())),
        failed("en.wikipedia.org answered HTTP 404: no details")
    );
}

// ---------------------------------------------------------------------------------------------
// A whole run in the paper's format

/// An agent in the paper's format whose model replies `replies` in turn (each continues the
/// prompt's `Thought n:`), with `search` and `lookup` on the file wiki.
fn paper_agent(replies: &[&str]) -> (Rc<FileWiki>, Agent) {
    let (wiki, search, lookup) = tools("en");
    let mut registry = Registry::new();
    registry.register(search);
    registry.register(lookup);
    let host = Rc::new(NativeHost::default());
    let config = Config {
        format: Format::Paper,
        ..Config::default()
    };
    let replies = replies.iter().map(|r| r.to_string()).collect();
    let model = Scripted::new(
        "replay",
        Policy::Replay(replies),
        config.format,
        Lang::En,
        host.clone(),
    );
    (wiki, Agent::new(config, Box::new(model), registry, host))
}

const TWO_HOP: &str = "\
Task: Which country is the city where Albert Einstein was born in?

Step 1
  Thought: I need to search Albert Einstein, find the city where he was born, then find the country of that city.
  Action: search[Albert Einstein]
  Observation: EINSTEIN

Step 2
  Thought: It says he was born in the German Empire, but not in which city. I need to look up born.
  Action: lookup[born]
  Observation: BORN_1

Step 3
  Thought: This is the same sentence about the German Empire. I need the next result.
  Action: lookup[born]
  Observation: BORN_2

Step 4
  Thought: Einstein was born in Ulm. I need to search Ulm and find its country.
  Action: search[Ulm]
  Observation: ULM

Step 5
  Thought: Ulm is a city in Baden-Württemberg, Germany. So the answer is Germany.
  Answer: Germany

Stopped: answer · 5 steps · 5 calls · 0 bad calls
";

#[test]
fn a_two_hop_question_in_the_papers_format() {
    let replies = [
        " I need to search Albert Einstein, find the city where he was born, then find the country of that city.\nAction 1: Search[Albert Einstein]",
        " It says he was born in the German Empire, but not in which city. I need to look up born.\nAction 2: Lookup[born]",
        " This is the same sentence about the German Empire. I need the next result.\nAction 3: Lookup[born]",
        " Einstein was born in Ulm. I need to search Ulm and find its country.\nAction 4: Search[Ulm]",
        " Ulm is a city in Baden-Württemberg, Germany. So the answer is Germany.\nAction 5: Finish[Germany]",
    ];
    let (wiki, agent) = paper_agent(&replies);
    let trajectory = block_on(agent.run(
        "Which country is the city where Albert Einstein was born in?",
        &mut |_| {},
    ));

    let expected = TWO_HOP
        .replace("EINSTEIN", EINSTEIN_FIRST_FIVE)
        .replace("BORN_1", BORN_1)
        .replace("BORN_2", BORN_2)
        .replace("ULM", ULM_FIRST_FIVE);
    assert_eq!(trajectory.to_text(), expected);
    assert_eq!(trajectory.answer(), Some("Germany"));
    assert_eq!(
        trajectory.stop.as_ref().map(|s| s.reason),
        Some(StopReason::Answer)
    );
    assert_eq!(
        wiki.sent(),
        [page_query("Albert%20Einstein"), page_query("Ulm")]
    );
}

#[test]
fn a_failing_wiki_is_an_observation_and_the_run_goes_on() {
    let replies = [
        " I need to search Albert Einstein.\nAction 1: Search[Mock: connection reset]",
        " The wiki failed. I will answer from memory.\nAction 2: Finish[Ulm]",
    ];
    let (_, agent) = paper_agent(&replies);
    let trajectory = block_on(agent.run("Where was Albert Einstein born?", &mut |_| {}));
    assert_eq!(
        trajectory.steps[0].observation(),
        Some("Error: search failed: could not reach 127.0.0.1:8124 (connection reset); check the connection and the wiki's address")
    );
    assert_eq!(
        trajectory.stats().n_badcalls,
        0,
        "the wiki's failure is not the model's"
    );
    assert_eq!(trajectory.answer(), Some("Ulm"));
}
