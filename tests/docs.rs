//! `search_docs`: a small documentation site (`tests/docs/site.json`, the pages of a made-up
//! static site generator, in English and Chinese) searched the way a model would, BM25's
//! arithmetic checked by hand, passages cut in multibyte text, bad document lists, and no
//! panic on random input.

use super::rng::Rng;
use std::rc::Rc;
use tao_agent::host::block_on;
use tao_agent::json;
use tao_agent::json::Value;
use tao_agent::tools::docs::{self, read_docs, snippet, Doc, Index, PASSAGE_BYTES};
use tao_agent::tools::{Tool, ToolError};

fn site() -> Vec<Doc> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/docs/site.json"))
            .unwrap();
    read_docs(&tao_agent::json::from_str(&text).unwrap()).unwrap()
}

fn doc(title: &str, text: &str) -> Doc {
    Doc {
        title: title.into(),
        url: format!("https://example.com/{}", title.to_lowercase()),
        text: text.into(),
    }
}

fn call(tool: &Rc<dyn Tool>, input: Value) -> Result<String, ToolError> {
    block_on(tool.call(&input)).map(|output| output.text)
}

/// The titles of the pages `query` finds, best first.
fn titles(index: &Index, query: &str) -> Vec<String> {
    index
        .search(query, 3)
        .iter()
        .map(|hit| hit.doc.title.clone())
        .collect()
}

#[test]
fn a_model_finds_the_page_it_needs() {
    let index = Index::new(site());
    // (what a model would search for, the page that must come first)
    let cases = [
        ("how do I install Lumen on Windows", "Installation"),
        ("upgrade to a new version", "Installation"),
        ("change theme colours", "Themes"),
        ("change a template", "Themes"),
        ("deploy to GitHub Pages", "Deploying"),
        ("base_url for a GitHub project page", "Deploying"),
        (
            "environment variable for the output directory",
            "Configuration",
        ),
        ("preview server localhost", "Quick start"),
        ("port already in use", "Troubleshooting"),
        ("template not found", "Troubleshooting"),
        ("is it free", "FAQ"),
        ("MIT license", "FAQ"),
        ("javascript search api", "JavaScript API"),
        ("onNavigate callback", "JavaScript API"),
        // Chinese queries meet Chinese pages through character pairs, without a dictionary.
        ("如何安装", "安装指南"),
        ("检查安装是否成功", "安装指南"),
        ("链接失效", "部署到 GitHub Pages"),
        // Mixed: the pair 安装 is rare, so it outweighs the English words other pages share.
        ("Lumen 安装 Windows", "安装指南"),
        ("部署到 GitHub Pages", "部署到 GitHub Pages"),
    ];
    let mut wrong = Vec::new();
    for (query, expected) in cases {
        let found = titles(&index, query);
        if found.first().map(String::as_str) != Some(expected) {
            wrong.push(format!(
                "{query:?}: expected {expected:?} first, got {found:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_observation_shows_the_best_passage_of_each_page() {
    let tool = docs::tool(site());
    let observation = call(&tool, json!("base_url for a GitHub project page")).unwrap();
    let expected = "\
[1] Deploying — https://lumen.dev/docs/deploy
… GitHub Pages: push the site's source, and add the official workflow (lumen init github-pages) that builds it and publishes public/ on every push to main. For a project page, set base_url to https://user.github.io/project/ so that links include the project path. …

[2] 部署到 GitHub Pages — https://lumen.dev/zh/docs/deploy
… 要发布到 GitHub Pages，运行 lumen init github-pages 添加官方工作流，每次推送到 main 分支时它会自动构建并发布。如果是项目页面，请把 base_url 设为 https://user.github.io/project/，否则链接会失效。

[3] Configuration — https://lumen.dev/docs/configuration
… The most important setting is base_url, the address the site will be served from; links and feeds are built from it. Other settings: title and description (used in the page head and the feed), language (the default is en), output_dir (the default is public), and drafts = true to build pages marked …";
    assert_eq!(observation, expected);
}

#[test]
fn the_tool_reads_its_input_and_says_what_went_wrong() {
    let tool = docs::tool(site());
    let spec = tool.spec();
    assert_eq!(spec.name, "search_docs");
    assert_eq!(spec.parameters["required"], json!(["query"]));
    // The query as a string or as `{"query": ...}`; how many pages are shown is configurable.
    let first = call(&tool, json!({"query": "MIT license"})).unwrap();
    assert!(
        first.starts_with(
            "[1] FAQ — https://lumen.dev/docs/faq\n… Yes: it is open source under the MIT license."
        ),
        "{first}"
    );
    let one = call(&docs::tool_showing(site(), 1), json!("theme")).unwrap();
    assert!(
        one.starts_with("[1] Themes") && !one.contains("[2]"),
        "{one}"
    );

    assert_eq!(
        call(&tool, json!("kubernetes helm chart")).unwrap(),
        "No documents match \"kubernetes helm chart\". Try other words; the documents cover: \
         Installation, Quick start, Configuration, Themes, Deploying (and 6 more)."
    );
    // Only common words: nothing to rank by, so the same help.
    assert!(call(&tool, json!("how is the"))
        .unwrap()
        .starts_with("No documents match \"how is the\"."));
    for empty in [json!(""), json!("  \n"), json!({"query": ""})] {
        assert_eq!(
            call(&tool, empty),
            Err(ToolError::BadInput(
                "search_docs needs a query: a few words to look for, e.g. \"install on windows\""
                    .into()
            ))
        );
    }
    assert_eq!(
        call(&docs::tool(vec![]), json!("install")),
        Err(ToolError::Failed(
            "search_docs has no documents to search: the embedder gave no documents \
             (pass a non-empty list of {title, url, text} when creating the tool)"
                .into()
        ))
    );
}

#[test]
fn bm25_by_hand() {
    // "alpha" is in one page of two: idf = ln(1 + (2 - 1 + 0.5) / (1 + 0.5)) = ln 2. The page is
    // 2 terms long, the average 1.5: tf = 1 gives 2.2 / (1 + 1.2 × (0.25 + 0.75 × 2 / 1.5)).
    let index = Index::new(vec![doc("", "alpha beta"), doc("", "gamma")]);
    let hits = index.search("alpha", 3);
    assert_eq!(hits.len(), 1);
    let expected = 2f64.ln() * 2.2 / 2.5;
    assert!(
        (hits[0].score - expected).abs() < 1e-12,
        "{}",
        hits[0].score
    );
}

#[test]
fn rare_terms_short_pages_and_titles_weigh_more() {
    // idf: "install" is on every page and says little; "winget" is on one and decides.
    let index = Index::new(vec![
        doc("A", "install install install install guide"),
        doc("B", "install with winget guide notes here"),
        doc("C", "install later guide notes here"),
        doc("D", "install again guide notes here"),
    ]);
    assert_eq!(titles(&index, "install winget")[0], "B");
    // Saturation: four times the word is not four times the score.
    let hits = index.search("install", 4);
    assert_eq!(hits[0].doc.title, "A");
    assert!(hits[0].score < 2.0 * hits[1].score);

    // Length: the same one mention counts for more in a short page than in a long one.
    let long = format!("plugins {}", "filler words about other things ".repeat(20));
    let index = Index::new(vec![
        doc("Long", &long),
        doc("Short", "plugins are loaded at start"),
    ]);
    let hits = index.search("plugins", 3);
    assert_eq!(hits[0].doc.title, "Short");
    assert!(hits[0].score > hits[1].score);

    // A title term outweighs the same term once in the text of a page as long.
    let index = Index::new(vec![
        doc("Notes", "shortcodes are small templates"),
        doc("Shortcodes", "small templates in pages"),
    ]);
    assert_eq!(titles(&index, "shortcodes"), ["Shortcodes", "Notes"]);
}

#[test]
fn words_are_folded_before_they_are_compared() {
    let index = Index::new(vec![
        doc("Fr", "L'ÉCOLE est fermée"),
        doc("Ru", "ПРИВЕТ мир"),
        doc("El", "ΚΑΛΗΜΕΡΑ κόσμε"),
        doc("Pl", "ŻÓŁW"),
        doc("En", "The PAGES and their QUERIES"),
    ]);
    for (query, title) in [
        ("école", "Fr"),
        ("привет", "Ru"),
        ("καλημερα", "El"),
        ("żółw", "Pl"),
        ("page", "En"),
        ("query", "En"),
    ] {
        assert_eq!(titles(&index, query), [title], "{query}");
    }
    // "status" and "class" are not plurals.
    let index = Index::new(vec![doc("S", "status class")]);
    assert_eq!(titles(&index, "status"), ["S"]);
    assert!(titles(&index, "statu").is_empty());
    assert!(titles(&index, "clas").is_empty());
}

#[test]
fn japanese_and_korean_are_cut_into_pairs_too() {
    let index = Index::new(vec![
        doc("ja", "インストール方法：ダウンロードして実行します。"),
        doc("ko", "설치 방법: 내려받아 실행하세요."),
        doc("zh", "下载并运行。"),
        doc("one", "字 and 한"),
    ]);
    assert_eq!(titles(&index, "インストール"), ["ja"]);
    assert_eq!(titles(&index, "설치"), ["ko"]);
    assert_eq!(titles(&index, "运行"), ["zh"]);
    // A lone character is a term of its own, in a page and in a query.
    assert_eq!(titles(&index, "字"), ["one"]);
    assert_eq!(titles(&index, "한"), ["one"]);
}

#[test]
fn passages_start_and_end_at_sentences_and_never_split_a_character() {
    // The term is in the fifth sentence: the passage starts there and ends at a sentence end.
    let text =
        "First sentence about nothing. Second one is filler text here. Third adds more words to \
                pad the page. Fourth keeps going for a while longer. Fifth mentions the sitemap, \
                which is written at build time. Sixth follows it. Seventh is here. Eighth ends the \
                page with more words. Ninth and tenth sentences are only here to be left out. Eleventh \
                and twelfth say nothing either, but they take up room. Thirteenth is the last, and \
                no passage that starts at the fifth one reaches this far.";
    let passage = snippet(text, "sitemap");
    assert!(
        passage.starts_with("… Fifth mentions the sitemap, which is written at build time."),
        "{passage}"
    );
    assert!(passage.ends_with(". …"), "{passage}");

    // A short text is shown whole, whitespace folded, without marks.
    assert_eq!(
        snippet("Line one.\n\n  Line   two.", "two"),
        "Line one. Line two."
    );

    // Chinese without a full stop for 700 characters: the passage is cut between characters,
    // around the term, with marks on both sides.
    let filler = "文档内容".repeat(100);
    let text = format!("{filler}站点地图在构建时生成{filler}");
    let passage = snippet(&text, "站点地图");
    assert!(passage.contains("站点地图在构建时生成"), "{passage}");
    assert!(
        passage.starts_with("… ") && passage.ends_with(" …"),
        "{passage}"
    );
    assert!(passage.len() <= PASSAGE_BYTES + 8); // "… " and " …" are 4 bytes each

    // Emoji and combining accents: the cut falls between characters and the passage is text of
    // the page.
    let text = "👨‍👩‍👧e\u{301}🎉".repeat(200) + " needle " + &"ü😀".repeat(200);
    let passage = snippet(&text, "needle");
    assert!(passage.contains(" needle "), "{passage}");
    let core = passage.trim_start_matches("… ").trim_end_matches(" …");
    assert!(text.contains(core), "{passage}");
}

/// An agent built from settings with no network (as the CLI and these tests build it).
fn offline(settings: Value) -> Result<tao_agent::Agent, tao_agent::Error> {
    use tao_agent::settings::{Parts, Settings};
    Settings::from_json(&settings)?.agent(Parts {
        host: Rc::new(tao_agent::host::NativeHost::default()),
        transport: None,
        tools: Vec::new(),
        model: None,
        elsewhere: None,
    })
}

/// Regression (the huawei-phone scenario): a scenario that names its own pages searches those,
/// in the run's language, whatever the `docs` setting says (its rules are written against
/// them); where there is no network, a documents path is read from the disk.
#[test]
fn a_scenario_searches_its_own_pages_read_from_the_disk_without_a_network() {
    let other = json!([{"title": "Phones", "url": "", "text": "Nothing about Huawei here."}]);
    for (lang, first, answer) in [
        (
            "en",
            "Huawei Mate 70 series launched (26 November 2024)",
            "As of 11 June 2025",
        ),
        (
            "zh",
            "华为 Mate 70 系列发布(2024 年 11 月 26 日)",
            "截至 2025 年 6 月 11 日",
        ),
    ] {
        let agent =
            offline(json!({"scenario": "huawei-phone", "lang": lang, "docs": other})).unwrap();
        let scenario = tao_agent::scenarios::get("huawei-phone").unwrap();
        let task = scenario.task(tao_agent::format::Lang::from_name(lang).unwrap());
        let t = block_on(agent.run(task, &mut |_| {}));
        let observation = t.steps[0].observation().unwrap_or_default();
        assert!(
            observation.starts_with(&format!("[1] {first}")),
            "{observation}"
        );
        assert!(
            t.answer().unwrap_or_default().starts_with(answer),
            "{}",
            t.to_text()
        );
    }
    // The `docs` setting as a path, read from the disk too; a missing file names itself.
    let replies = json!([
        "Action: search_docs\nAction Input: Pura 80\n",
        "Final Answer: ok"
    ]);
    let agent = offline(json!({"tools": ["search_docs"], "docs": "www/samples/huawei-phones.json", "replies": replies})).unwrap();
    let t = block_on(agent.run("Which Pura is newest?", &mut |_| {}));
    let observation = t.steps[0].observation().unwrap_or_default();
    assert!(
        observation.starts_with("[1] Huawei Pura 80 series launched (11 June 2025)"),
        "{observation}"
    );
    let missing = offline(
        json!({"tools": ["search_docs"], "docs": "no/such/pages.json", "replies": replies}),
    );
    let message = missing.err().expect("a missing file is an error").message;
    assert!(
        message.starts_with("cannot read the documents at no/such/pages.json: "),
        "{message}"
    );
    // A URL still needs the network.
    let url = offline(
        json!({"tools": ["search_docs"], "docs": "https://example.com/docs.json", "replies": replies}),
    );
    let message = url.err().expect("a URL needs the network").message;
    assert!(message.contains("needs the network"), "{message}");
}

#[test]
fn bad_document_lists_say_which_entry_and_what_is_wrong() {
    let ok = json!({"title": "t", "url": "u", "text": "x"});
    let cases = [
        (json!(5), "cannot read the documents: invalid type: integer `5`, expected an array of {title, url, text}, or {\"docs\": [...]}"),
        (json!({"pages": []}), "cannot read the documents: invalid type: map, expected an array of {title, url, text}, or {\"docs\": [...]}"),
        (json!({"docs": "all"}), "cannot read the documents: invalid type: string \"all\", expected an array of {title, url, text}, or {\"docs\": [...]}"),
        (json!([ok, {"title": "t", "url": "u"}]), "docs[1]: missing field `text`"),
        (json!([{"url": "u", "text": "x"}]), "docs[0]: missing field `title`"),
        (json!([ok, ok, "page"]), "docs[2]: invalid type: string \"page\", expected a document {title, url, text}"),
        (json!([{"title": 1, "url": "u", "text": "x"}]), "docs[0]: invalid type: integer `1`, expected a string"),
        (json!([{"title": "t", "url": null, "text": "x"}]), "docs[0]: invalid type: null, expected a string"),
    ];
    for (value, expected) in cases {
        assert_eq!(read_docs(&value), Err(expected.to_string()), "{value}");
    }
    // Both shapes read, and an empty list is not an error here (the tool says so when called).
    assert_eq!(read_docs(&json!([ok])).unwrap().len(), 1);
    assert_eq!(read_docs(&json!({"docs": [ok, ok]})).unwrap().len(), 2);
    assert_eq!(read_docs(&json!([])), Ok(vec![]));
}

/// The random pages and queries (see `super::rng`: the same cases on every run).
impl Rng {
    /// A string of up to `most` random pieces: words, spaces, punctuation, scripts, emoji, combining marks,
    /// and now and then raw bytes read as UTF-8 (lossily, as a page would).
    fn text(&mut self, most: usize) -> String {
        const PIECES: &[&str] = &[
            "install",
            "Theme",
            "PAGES",
            "queries",
            "the",
            "ies",
            "s",
            "a",
            " ",
            " ",
            "\n",
            "\t",
            ".",
            ". ",
            "!",
            "?",
            "。",
            "！",
            "…",
            ",",
            "'",
            "-",
            "_",
            "0",
            "42",
            "é",
            "É",
            "ß",
            "İ",
            "ς",
            "Σ",
            "Ж",
            "ŉ",
            "ĸ",
            "日本",
            "語",
            "安装",
            "指南",
            "한국어",
            "ｶ",
            "ー",
            "々",
            "𠀀",
            "😀",
            "👨‍👩‍👧",
            "e\u{301}",
            "\u{200b}",
            "\u{feff}",
            "\u{202e}",
            "שלום",
            "\u{0}",
        ];
        let mut out = String::new();
        for _ in 0..self.below(most + 1) {
            if self.below(20) == 0 {
                let bytes: Vec<u8> = (0..self.below(6)).map(|_| self.next() as u8).collect();
                out.push_str(&String::from_utf8_lossy(&bytes));
            } else {
                out.push_str(PIECES[self.below(PIECES.len())]);
            }
        }
        out
    }
}

#[test]
fn random_pages_and_queries_never_panic_and_keep_the_contract() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for round in 0..120 {
        let docs: Vec<Doc> = (0..1 + rng.below(5))
            .map(|_| Doc {
                title: rng.text(3),
                url: rng.text(1),
                text: rng.text(400),
            })
            .collect();
        let index = Index::new(docs.clone());
        for _ in 0..8 {
            let query = rng.text(6);
            // Only a blank query is the model's mistake; anything else gets pages or help.
            match index.answer(&query, 3) {
                Err(ToolError::BadInput(_)) => assert!(query.trim().is_empty(), "{query:?}"),
                Ok(text) => assert!(
                    text.starts_with("[1] ") || text.starts_with("No documents match"),
                    "round {round}: {text:?}"
                ),
                Err(other) => panic!("round {round}, {query:?}: {other:?}"),
            }
            // At most three hits, positive, best first.
            let hits = index.search(&query, 3);
            assert!(hits.len() <= 3);
            for pair in hits.windows(2) {
                assert!(pair[0].score >= pair[1].score, "{query:?}");
            }
            assert!(hits.iter().all(|h| h.score > 0.0 && h.score.is_finite()));
            // Each passage fits, and (without its marks) is a piece of the page's text with
            // whitespace folded.
            for doc in &docs {
                let passage = snippet(&doc.text, &query);
                assert!(passage.len() <= PASSAGE_BYTES + 8, "{passage:?}");
                let folded = doc.text.split_whitespace().collect::<Vec<_>>().join(" ");
                let core = passage.strip_prefix("… ").unwrap_or(&passage);
                let core = core.strip_suffix(" …").unwrap_or(core);
                assert!(
                    folded.contains(core),
                    "round {round}: {core:?} not in {folded:?}"
                );
            }
        }
    }
}
