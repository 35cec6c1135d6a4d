//! Built-in scenarios: offline demos from the seed articles, kept as data files in
//! `data/scenarios/`.
//!
//! A scenario is a task (English and Chinese), the prompt format it is best shown in, the tools
//! it needs, and the scripted model's policy. Anyone can add one by writing a JSON file; the
//! page and the CLI list them from here.
//!
//! For the compare view, a scenario may also give its short `gold` answer (to score each mode
//! by exact match and F1) and a policy per mode of the paper (`modes`: `act`, `cot`,
//! `standard`), each showing how that mode goes wrong; ReAct's is the main `policy`.

use crate::error::Error;
use crate::format::{Format, Lang};
use crate::json::{invalid_type, FromJson, Object};
use crate::llm::scripted::{Rule, Text};
use serde_json::Value;

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

/// All built-in scenarios, in menu order.
pub fn all() -> Vec<Scenario> {
    // The files are compiled in and checked by a test, so none is skipped in practice.
    FILES.iter().filter_map(|f| read(f).ok()).collect()
}

/// Reads a scenario file (see `crate::json` for why this is not derived).
fn read(file: &str) -> Result<Scenario, String> {
    let value: Value = serde_json::from_str(file).map_err(|e| e.to_string())?;
    let o = Object::new(&value, "struct Scenario")?;
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

/// The scenario called `name`, or an error listing the valid names.
pub fn get(name: &str) -> Result<Scenario, Error> {
    let all = all();
    let names: Vec<String> = all.iter().map(|s| s.name.clone()).collect();
    all.into_iter().find(|s| s.name == name).ok_or_else(|| {
        Error::config(format!(
            "unknown scenario \"{name}\"; the built-in scenarios are: {}",
            names.join(", ")
        ))
    })
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

#[cfg(test)]
mod tests {
    #[test]
    fn every_file_is_a_valid_scenario() {
        assert_eq!(super::all().len(), super::FILES.len());
        for file in super::FILES {
            if let Err(e) = super::read(file) {
                panic!("invalid scenario file: {e}\n{file}");
            }
        }
    }
}
