//! Transcript tests. Each file in `tests/transcripts/` is a case:
//!
//! ```text
//! format: mrkl            <- settings, one per line, until the first `--- reply`
//! tools: search, calculator    (also max_steps, retries, token_budget, memory_tokens,
//!                               keep_steps, reflect_every)
//! task: ...
//! --- reply               <- each reply the scripted model gives, in order
//! Thought: ...
//! === trajectory          <- the run as `Trajectory::to_text` must render it
//! Task: ...
//! ```
//! Files named `scenario-<name>.txt` instead run the built-in scenario `<name>` (no replies);
//! `scenario-<name>-<mode>.txt` with a `format: <mode>` line runs it in one of the paper's
//! modes (`act`, `cot`, `standard`), with the scenario's policy for that mode; a `-zh` at the
//! end runs it in Chinese.
//! `TAO_BLESS=1 cargo test` rewrites the expected part from the actual run (review the diff).

use std::rc::Rc;
use tao_agent::format::{Format, Lang};
use tao_agent::host::{block_on, NativeHost};
use tao_agent::scenarios::scripted::{Policy, Scripted};
use tao_agent::{scenarios, settings, Agent, Config};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/transcripts");

#[test]
fn every_transcript_replays_exactly() {
    let mut failures = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(DIR)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 10, "expected the transcript files in {DIR}");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let (head, expected) = text.split_once("=== trajectory\n").unwrap_or((&text, ""));
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let actual = run_case(&name, head);
        if actual != expected {
            if std::env::var_os("TAO_BLESS").is_some() {
                std::fs::write(&path, format!("{head}=== trajectory\n{actual}")).unwrap();
            } else {
                failures.push(format!("── {name} ──\n{}", diff(expected, &actual)));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "transcripts differ (- expected, + actual):\n{}",
        failures.join("\n")
    );
}

fn run_case(name: &str, head: &str) -> String {
    let host = Rc::new(NativeHost::default());
    if let Some(scenario) = name.strip_prefix("scenario-") {
        let lang = if scenario.ends_with("-zh") {
            Lang::Zh
        } else {
            Lang::En
        };
        let mode = head.lines().find_map(|l| l.strip_prefix("format: "));
        let name = scenario.trim_end_matches("-zh");
        let name = mode.map_or(name, |m| name.trim_end_matches(&format!("-{m}")));
        let scenario = scenarios::get(name).unwrap();
        let format = Format::from_name(mode.unwrap_or(&scenario.format)).unwrap();
        let agent = settings::offline_agent(
            &scenario,
            Config {
                format,
                lang,
                ..Config::default()
            },
            0,
            host,
        )
        .unwrap();
        return block_on(agent.run(scenario.task(lang), &mut |_| {})).to_text();
    }
    let (settings, replies) = head.split_once("--- reply\n").unwrap_or((head, ""));
    let setting = |key: &str| {
        settings.lines().find_map(|l| {
            l.strip_prefix(&format!("{key}: "))
                .map(|v| v.trim().to_string())
        })
    };
    let format = Format::from_name(&setting("format").unwrap_or("mrkl".into())).unwrap();
    let tools: Vec<String> = setting("tools")
        .unwrap_or_default()
        .split(',')
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect();
    let mut config = Config {
        format,
        ..Config::default()
    };
    if let Some(n) = setting("max_steps") {
        config.max_steps = n.parse().unwrap();
    }
    if let Some(n) = setting("retries") {
        config.retries = n.parse().unwrap();
    }
    config.token_budget = setting("token_budget").map(|n| n.parse().unwrap());
    config.memory_tokens = setting("memory_tokens").map(|n| n.parse().unwrap());
    config.reflect_every = setting("reflect_every").map(|n| n.parse().unwrap());
    if let Some(n) = setting("keep_steps") {
        config.keep_steps = n.parse().unwrap();
    }
    let replies: Vec<String> = replies
        .split("--- reply\n")
        .map(|r| r.strip_suffix('\n').unwrap_or(r).to_string())
        .collect();
    let model = Scripted::new(
        name,
        Policy::Replay(replies),
        format,
        Lang::En,
        host.clone(),
    );
    let registry = tao_agent::tools::builtin(&tools, "en").unwrap();
    let agent = Agent::new(config, Box::new(model), registry, host);
    block_on(agent.run(&setting("task").unwrap_or_default(), &mut |_| {})).to_text()
}

/// A line diff good enough for transcripts: the common prefix and suffix, then the middle.
fn diff(expected: &str, actual: &str) -> String {
    let e: Vec<&str> = expected.lines().collect();
    let a: Vec<&str> = actual.lines().collect();
    let prefix = e.iter().zip(&a).take_while(|(x, y)| x == y).count();
    let suffix = e[prefix..]
        .iter()
        .rev()
        .zip(a[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let mut out = String::new();
    for line in &e[prefix..e.len() - suffix] {
        out += &format!("- {line}\n");
    }
    for line in &a[prefix..a.len() - suffix] {
        out += &format!("+ {line}\n");
    }
    out
}
