//! Built-in scenarios: offline demos from the seed articles, kept as data files in
//! `data/scenarios/`.
//!
//! A scenario is a task (English and Chinese), the prompt format it is best shown in, the tools
//! it needs, and the scripted model's policy ([`scripted`]: the offline model, which reads the
//! replies it is shown, so it lives with the scenarios rather than with the providers). Anyone can add one by writing a JSON file; the
//! page and the CLI list them from here.
//!
//! For the compare view, a scenario may also give its short `gold` answer (to score each mode
//! by exact match and F1) and a policy per mode of the paper (`modes`: `act`, `cot`,
//! `standard`), each showing how that mode goes wrong; ReAct's is the main `policy`.
//!
//! Where they come from: the CLI and the tests compile the files in (the `bundled-data`
//! feature, on by default). The shipped wasm leaves them out, since a page that embeds tao with
//! its own model and tools never plays them (10 KB gzip); the page that does fetches them as one
//! bundle (`pkg/data/scenarios.json`, written by scripts/build.sh) and hands it to [`install`].
//! Everything reads the list through [`all`] and [`get`], which serve what is loaded.

pub mod scripted;

use crate::error::Error;
use crate::format::{Format, Lang};
use crate::json::Value;
use crate::json::{invalid_type, FromJson, Object};
use crate::to_json::{JsonWriter, ToJson};
use scripted::{Rule, Text};
use std::cell::RefCell;
use std::rc::Rc;

/// The scenario files, in menu order (scripts/build.sh reads this list to write the bundle in
/// the same order).
#[cfg(feature = "bundled-data")]
const FILES: &[&str] = &[
    include_str!("../data/scenarios/apple-ceo.json"),
    include_str!("../data/scenarios/einstein.json"),
    include_str!("../data/scenarios/units.json"),
    include_str!("../data/scenarios/code.json"),
    include_str!("../data/scenarios/stock-chart.json"),
    include_str!("../data/scenarios/water.json"),
    include_str!("../data/scenarios/huawei-phone.json"),
    include_str!("../data/scenarios/format-repair.json"),
    include_str!("../data/scenarios/max-steps.json"),
    include_str!("../data/scenarios/long-run-summary.json"),
    include_str!("../data/scenarios/reflection.json"),
    include_str!("../data/scenarios/hallucination.json"),
    include_str!("../data/scenarios/html-injection.json"),
];

thread_local! {
    /// The scenarios loaded, in menu order: the compiled-in ones (or none) until [`install`]
    /// replaces them. A browser tab has one thread, so this is the page's one list; natively,
    /// each test's thread starts from the compiled-in list.
    static LOADED: RefCell<Rc<[Scenario]>> = RefCell::new(bundled());
}

/// The compiled-in scenarios (the files are checked by a test, so none is skipped in practice).
#[cfg(feature = "bundled-data")]
fn bundled() -> Rc<[Scenario]> {
    let documents = FILES.iter().filter_map(|f| crate::json::from_str(f).ok());
    documents.filter_map(|d: Value| read(&d).ok()).collect()
}

/// None compiled in: the page installs them.
#[cfg(not(feature = "bundled-data"))]
fn bundled() -> Rc<[Scenario]> {
    Rc::from([])
}

/// A built-in scenario.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The id used in links and on the command line (`apple-ceo`).
    pub name: String,
    /// A short title.
    pub title: Text,
    /// One sentence on what it shows.
    pub description: Text,
    /// The question.
    pub task: Text,
    /// The prompt format it is written for (`mrkl`, `paper`).
    pub format: String,
    /// Its step budget, when it differs from the default.
    pub max_steps: Option<u32>,
    /// Its prompt budget for a long run (a summary condenses the oldest steps beyond it).
    pub memory_tokens: Option<u64>,
    /// The latest steps a summary leaves as they are, when not the default.
    pub keep_steps: Option<u32>,
    /// Reflect every this many steps (and after two failed actions in a row).
    pub reflect_every: Option<u32>,
    /// The built-in tools it uses (`search`, `lookup`, `calculator`).
    pub tools: Vec<String>,
    /// The JSON file of pages its `search_docs` searches, per language: a path from the site's
    /// root (`www/samples/huawei-phones.json`), which the page fetches and a host without a
    /// network reads from its disk. Its rules are written against those pages.
    pub docs: Option<Text>,
    /// The scripted model's rules (ReAct's, and any mode's without its own).
    pub policy: Vec<Rule>,
    /// The short gold answer (`Mobile, Alabama`), when the scenario has one.
    pub gold: Option<Text>,
    /// The scripted model's rules in the paper's other modes, where it has them.
    pub modes: Vec<(Format, Vec<Rule>)>,
}

/// The modes a scenario's `modes` may give a policy for.
const MODES: [Format; 3] = [Format::Act, Format::Cot, Format::Standard];

/// All the scenarios loaded, in menu order (none in the wasm before [`install`]).
pub fn all() -> Vec<Scenario> {
    LOADED.with(|loaded| loaded.borrow().to_vec())
}

/// Loads the scenarios of `bundle`, a JSON array of scenario documents in menu order (what
/// scripts/build.sh writes to `pkg/data/scenarios.json`); they replace the ones loaded before.
/// A bundle with any invalid document loads nothing and says which document is wrong.
pub fn install(bundle: &str) -> Result<(), Error> {
    let value: Value = crate::json::from_str(bundle)
        .map_err(|e| Error::config(format!("the scenarios are not valid JSON: {e}")))?;
    let Value::Array(documents) = value else {
        return Err(Error::config(
            "the scenarios must be a JSON array of scenario documents (data/scenarios.json)",
        ));
    };
    let mut scenarios = Vec::with_capacity(documents.len());
    for (i, document) in documents.iter().enumerate() {
        let scenario = read(document).map_err(|e| {
            let name = document.get("name").and_then(Value::as_str);
            let name = name.map(|n| format!(" (\"{n}\")")).unwrap_or_default();
            Error::config(format!("scenario {}{name} is invalid: {e}", i + 1))
        })?;
        scenarios.push(scenario);
    }
    LOADED.with(|loaded| *loaded.borrow_mut() = scenarios.into());
    Ok(())
}

/// Reads a scenario document (see `crate::json` for why this is not derived).
fn read(value: &Value) -> Result<Scenario, String> {
    let o = Object::new(value, "struct Scenario")?;
    Ok(Scenario {
        name: o.required("name")?,
        title: o.required("title")?,
        description: o.required("description")?,
        task: o.required("task")?,
        format: o.required("format")?,
        max_steps: o.or_default("max_steps")?,
        memory_tokens: o.or_default("memory_tokens")?,
        keep_steps: o.or_default("keep_steps")?,
        reflect_every: o.or_default("reflect_every")?,
        tools: o.required("tools")?,
        docs: o.or_default("docs")?,
        policy: o.required("policy")?,
        gold: o.or_default("gold")?,
        modes: read_modes(&o.or_default("modes")?)?,
    })
}

/// The `modes` object: `{"cot": [rules], ...}`, each key one of [`MODES`].
fn read_modes(value: &Value) -> Result<Vec<(Format, Vec<Rule>)>, String> {
    let map = match value {
        Value::Null => return Ok(Vec::new()),
        Value::Object(map) => map,
        other => return Err(invalid_type(other, "`modes`, an object of rule lists")),
    };
    let mut modes = Vec::new();
    for (name, rules) in map {
        let mode = Format::from_name(name).filter(|f| MODES.contains(f));
        let mode =
            mode.ok_or_else(|| format!("unknown mode `{name}`; use act, cot or standard"))?;
        modes.push((mode, Vec::from_value(rules)?));
    }
    Ok(modes)
}

impl Scenario {
    /// Puts the scenario's own step budget and long-run memory into `config`.
    pub fn configure(&self, config: &mut crate::agent::Config) {
        config.max_steps = self.max_steps.unwrap_or(config.max_steps);
        config.memory_tokens = self.memory_tokens.or(config.memory_tokens);
        config.keep_steps = self.keep_steps.unwrap_or(config.keep_steps);
        config.reflect_every = self.reflect_every.or(config.reflect_every);
    }
}

/// The scenario called `name`, or an error listing the valid names (or, when none is loaded,
/// saying how to load them).
pub fn get(name: &str) -> Result<Scenario, Error> {
    LOADED.with(|loaded| {
        let loaded = loaded.borrow();
        let found = loaded.iter().find(|s| s.name == name);
        found.cloned().ok_or_else(|| unknown(name, &loaded))
    })
}

/// The error for a name that is not among the `loaded` scenarios.
fn unknown(name: &str, loaded: &[Scenario]) -> Error {
    if loaded.is_empty() {
        return Error::config(format!(
            "unknown scenario \"{name}\": the offline scenarios are not loaded; call loadOfflineData({{scenarios}}) with the text of data/scenarios.json (beside the wasm) first"
        ));
    }
    let names: Vec<&str> = loaded.iter().map(|s| s.name.as_str()).collect();
    Error::config(format!(
        "unknown scenario \"{name}\"; the built-in scenarios are: {}",
        names.join(", ")
    ))
}

impl Scenario {
    /// The task in `lang`.
    pub fn task(&self, lang: Lang) -> &str {
        self.task.get(lang)
    }

    /// The scripted model's rules for a run in `format`: the mode's own, else ReAct's.
    pub fn policy_for(&self, format: Format) -> &[Rule] {
        let own = self.modes.iter().find(|(mode, _)| *mode == format);
        own.map_or(&self.policy, |(_, rules)| rules)
    }

    /// The modes this scenario has scripted replies for: `react`, then its own (`act`, ...).
    pub fn mode_names(&self) -> Vec<&'static str> {
        let own = self.modes.iter().map(|(mode, _)| mode.name());
        std::iter::once("react").chain(own).collect()
    }
}

/// A scenario as the page's menu lists it (`scenarios(lang)` in JS, and the
/// `scenario-list.*.json` scripts/build.sh writes from it): its texts in one language, and
/// what a run of it uses; not its scripted replies.
pub struct MenuEntry(pub Scenario, pub Lang);

impl ToJson for MenuEntry {
    fn write_json(&self, out: &mut JsonWriter) {
        let MenuEntry(s, lang) = self;
        out.object(&[
            ("name", &s.name),
            ("title", &s.title.get(*lang)),
            ("description", &s.description.get(*lang)),
            ("task", &s.task(*lang)),
            ("format", &s.format),
            ("maxSteps", &s.max_steps),
            ("memoryTokens", &s.memory_tokens),
            ("reflectEvery", &s.reflect_every),
            ("tools", &s.tools),
            ("gold", &s.gold.as_ref().map(|g| g.get(*lang))),
            ("modes", &s.mode_names()),
        ]);
    }
}

/// The scenarios loaded, as the menu lists them in `lang`.
pub fn menu(lang: Lang) -> Vec<MenuEntry> {
    all().into_iter().map(|s| MenuEntry(s, lang)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(feature = "bundled-data")]
    fn every_file_is_a_valid_scenario() {
        assert_eq!(all().len(), FILES.len());
        for file in FILES {
            let value = crate::json::from_str(file).map_err(|e| e.to_string());
            if let Err(e) = value.and_then(|v| read(&v)) {
                panic!("invalid scenario file: {e}\n{file}");
            }
        }
    }

    /// A bundle as scripts/build.sh writes it: the documents in a JSON array.
    fn bundle(files: &[&str]) -> String {
        format!("[{}]", files.join(","))
    }

    const WATER: &str = include_str!("../data/scenarios/water.json");
    const UNITS: &str = include_str!("../data/scenarios/units.json");

    #[test]
    fn an_installed_bundle_is_what_is_listed_and_found() {
        // Before: the compiled-in scenarios, or (in the shipped wasm's build) none, with an
        // error that says how to load them rather than listing nothing.
        if cfg!(feature = "bundled-data") {
            assert_eq!(get("apple-ceo").unwrap().name, "apple-ceo");
        } else {
            assert!(all().is_empty());
            assert_eq!(
                get("apple-ceo").unwrap_err().message,
                "unknown scenario \"apple-ceo\": the offline scenarios are not loaded; call loadOfflineData({scenarios}) with the text of data/scenarios.json (beside the wasm) first"
            );
        }
        install(&bundle(&[WATER, UNITS])).unwrap();
        let names: Vec<String> = all().into_iter().map(|s| s.name).collect();
        assert_eq!(
            names,
            ["water", "units"],
            "the bundle's order is the menu's"
        );
        assert_eq!(get("units").unwrap().tools, ["units"]);
        assert_eq!(
            get("apple-ceo").unwrap_err().message,
            "unknown scenario \"apple-ceo\"; the built-in scenarios are: water, units"
        );
    }

    #[test]
    fn a_name_asked_for_before_loading_says_how_to_load_them() {
        let error = unknown("apple-ceo", &[]);
        assert_eq!(error.kind, crate::error::ErrorKind::Config);
        assert!(
            error.message.starts_with("unknown scenario \"apple-ceo\": the offline scenarios are not loaded; call loadOfflineData("),
            "{}",
            error.message
        );
    }

    #[test]
    fn a_bad_bundle_loads_nothing_and_names_the_bad_document() {
        install(&bundle(&[WATER])).unwrap();
        let cases = [
            ("[", "the scenarios are not valid JSON: "),
            (
                r#"{"water": {}}"#,
                "the scenarios must be a JSON array of scenario documents",
            ),
            (
                &bundle(&[UNITS, r#"{"name": "half", "title": "Half"}"#]),
                "scenario 2 (\"half\") is invalid: ",
            ),
        ];
        for (bad, expected) in cases {
            let message = install(bad).unwrap_err().message;
            assert!(message.starts_with(expected), "{bad}: {message}");
            let names: Vec<String> = all().into_iter().map(|s| s.name).collect();
            assert_eq!(names, ["water"], "{bad} left the list as it was");
        }
    }
}
