//! The tools' module's toolboxes, natively: each kind of built-in tool made from its settings as
//! JSON (what the shipped core writes and the module reads), the network asked only by the
//! kinds that need it, and the errors of bad settings.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use tao_agent::error::{Error, ErrorKind};
use tao_agent::host::{block_on, LocalBoxFuture};
use tao_agent::json;
use tao_agent::json::Value;
use tao_agent::llm::http::{HttpRequest, HttpResponse, Transport};
use tao_agent::tools::toolbox::toolbox;
use tao_agent::tools::{Tool, ToolError};

/// A network that is down, and remembers what was asked of it.
#[derive(Default)]
struct Down {
    asked: RefCell<Vec<String>>,
}

impl Transport for Down {
    fn send(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, Error>> {
        self.asked.borrow_mut().push(request.url);
        Box::pin(async { Err(Error::new(ErrorKind::Network, "the network is down")) })
    }
}

/// The toolbox of `kind` made from `config`, and how many transports it made.
fn made(kind: &str, config: Value, down: &Rc<Down>) -> (Result<Vec<Rc<dyn Tool>>, Error>, u32) {
    let count = Cell::new(0);
    let transport = || -> Rc<dyn Transport> {
        count.set(count.get() + 1);
        down.clone()
    };
    let tools = toolbox(kind, &config, transport);
    (tools, count.get())
}

fn names(tools: &[Rc<dyn Tool>]) -> Vec<&str> {
    tools.iter().map(|t| t.spec().name.as_str()).collect()
}

fn call(tool: &Rc<dyn Tool>, input: &str) -> Result<String, ToolError> {
    block_on(tool.call(&Value::String(input.into()))).map(|output| output.text)
}

#[test]
fn the_calculator_and_the_offline_pages_need_no_network() {
    let down = Rc::new(Down::default());
    let (tools, transports) = made("calculator", json!({}), &down);
    let tools = tools.unwrap();
    assert_eq!((names(&tools), transports), (vec!["calculator"], 0));
    assert_eq!(call(&tools[0], "60 * 35 + 500"), Ok("2600".to_string()));

    let pages = r#"{"pages": [{"title": "Ulm", "aliases": ["ulm"],
        "en": "Ulm is a city in Germany. Einstein was born there.", "zh": "乌尔姆是德国的一座城市。"}]}"#;
    for (lang, says) in [
        ("en", "Ulm is a city in Germany."),
        ("zh", "乌尔姆是德国的一座城市。"),
    ] {
        let (tools, transports) = made("offline", json!({"pages": pages, "lang": lang}), &down);
        let tools = tools.unwrap();
        assert_eq!((names(&tools), transports), (vec!["search", "lookup"], 0));
        let found = call(&tools[0], "Ulm").unwrap();
        assert!(found.contains(says), "{lang}: {found}");
    }
    assert!(down.asked.borrow().is_empty());
}

#[test]
fn the_wiki_and_a_docs_file_are_asked_through_the_transport_given() {
    let down = Rc::new(Down::default());
    let api = "https://zh.wikipedia.org/w/api.php";
    for (variant, asks) in [
        (json!("zh-cn"), true),
        (json!("zh-tw"), false),
        (Value::Null, false),
    ] {
        let (tools, transports) = made("wiki", json!({"api": api, "variant": variant}), &down);
        let tools = tools.unwrap();
        assert_eq!((names(&tools), transports), (vec!["search", "lookup"], 1));
        let failed = call(&tools[0], "乌尔姆").unwrap_err();
        let hint = "could not reach zh.wikipedia.org (the network is down)";
        assert!(
            matches!(&failed, ToolError::Failed(m) if m.starts_with(hint)),
            "{failed:?}"
        );
        let asked = down.asked.take();
        assert!(asked.len() == 1 && asked[0].starts_with(api), "{asked:?}");
        assert_eq!(asked[0].contains("variant=zh-cn"), asks, "{asked:?}");
    }

    let url = "https://example.com/docs.json";
    let (tools, transports) = made("docs", json!({"url": url, "docs": []}), &down);
    let tools = tools.unwrap();
    assert_eq!((names(&tools), transports), (vec!["search_docs"], 1));
    // Fetched at the first search, not before.
    assert!(down.asked.borrow().is_empty());
    let failed = call(&tools[0], "install").unwrap_err();
    let want = format!("could not load the documents from {url}: the network is down");
    assert_eq!(failed, ToolError::Failed(want));
    assert_eq!(down.asked.take(), vec![url.to_string()]);
}

#[test]
fn documents_given_are_searched_at_once() {
    let down = Rc::new(Down::default());
    let docs =
        json!([{"title": "Install", "url": "/install", "text": "Run npm install tao-agent."}]);
    let (tools, transports) = made("docs", json!({ "docs": docs }), &down);
    let tools = tools.unwrap();
    assert_eq!((names(&tools), transports), (vec!["search_docs"], 0));
    let found = call(&tools[0], "install").unwrap();
    assert!(
        found.contains("/install") && found.contains("npm install"),
        "{found}"
    );
}

#[test]
fn bad_settings_are_errors_saying_what_is_missing() {
    let down = Rc::new(Down::default());
    let error = |kind: &str, config: Value| {
        let (tools, _) = made(kind, config, &down);
        let e = tools.err().expect("an error");
        assert_eq!(e.kind, ErrorKind::Config, "{}", e.message);
        e.message
    };
    assert_eq!(
        error("wiki", json!({"variant": "zh-cn"})),
        "wiki needs {api}"
    );
    assert_eq!(error("wiki", json!({"api": 7})), "wiki needs {api}");
    assert_eq!(
        error("offline", json!({"lang": "en"})),
        "offline needs {pages}"
    );
    let invalid = error("offline", json!({"pages": "{\"pages\": 3}"}));
    assert!(
        invalid.starts_with("the knowledge pages are invalid: "),
        "{invalid}"
    );
    let docs = error("docs", json!({"docs": [{"title": "no text"}]}));
    assert!(docs.starts_with("docs: "), "{docs}");
    assert_eq!(
        error("shell", json!({})),
        "no built-in tools of the kind \"shell\""
    );
}
