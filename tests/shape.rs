//! The shape of the code, checked: the budgets STYLE.md and the README state.
//!
//! - The loop reads like the paper and fits on one screen: `Agent::step` (its body, `step_with`) is at most
//!   [`STEP_LINES`] lines, and every function of the loop (`src/agent.rs`, `src/agent/`) and of
//!   the prompt (`src/prompt.rs`) at most [`FUNCTION_LINES`], so one step can be followed end
//!   to end a screen at a time.
//! - The layers are layers: the modules of the crate import each other without a circle
//!   (imports only point down), and only `bindings` touches JavaScript.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Lines of `Agent::step`, its doc comment excluded.
const STEP_LINES: usize = 40;
/// Lines of any function of the loop and the prompt, its signature included.
const FUNCTION_LINES: usize = 60;

/// The lines of the function `name` in `source`: from its `fn` line to its closing brace.
fn function_lines(source: &str, name: &str) -> usize {
    let lines: Vec<&str> = source.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.contains(&format!("fn {name}(")) || l.contains(&format!("fn {name}<")))
        .unwrap_or_else(|| panic!("no fn {name}"));
    let mut depth = 0i32;
    for (i, line) in lines[start..].iter().enumerate() {
        depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
        if depth == 0 && line.contains('}') {
            return i + 1;
        }
    }
    panic!("fn {name} never ends")
}

#[test]
fn the_loop_fits_on_one_screen() {
    let agent = std::fs::read_to_string("src/agent.rs").unwrap();
    // (`step` lends `step_with` a fresh prompt; `run` keeps one across its steps.)
    let step = function_lines(&agent, "step_with");
    assert!(
        step <= STEP_LINES,
        "Agent::step_with is {step} lines; the budget is {STEP_LINES}"
    );
    // And it reads as the paper's loop: Thought, Action, Observation, each with its comment.
    let body: String = agent
        .lines()
        .skip_while(|l| !l.contains("async fn step_with("))
        .take(step)
        .collect::<Vec<_>>()
        .join("\n");
    let comments: Vec<&str> = body
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("// "))
        .collect();
    let said = comments.join(" ");
    for word in ["Thought", "Action", "Observation"] {
        assert!(
            said.contains(word),
            "Agent::step_with's comments never say {word}: {said}"
        );
    }
}

/// Every function of the loop and of the prompt is at most [`FUNCTION_LINES`] lines: from its
/// `fn` line to its closing brace (test modules aside).
#[test]
fn every_function_of_the_loop_fits_on_a_screen() {
    let mut files = vec![
        std::path::PathBuf::from("src/agent.rs"),
        "src/prompt.rs".into(),
    ];
    sources(Path::new("src/agent"), &mut files);
    let mut long = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap();
        for line in code.lines().filter(|l| is_fn(l)) {
            let name = line.split("fn ").nth(1).unwrap();
            let name: String = name
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let n = function_lines(code, &name);
            if n > FUNCTION_LINES {
                long.push(format!("{}: {name} is {n} lines", file.display()));
            }
        }
    }
    assert!(long.is_empty(), "over {FUNCTION_LINES} lines: {long:#?}");
}

/// Whether `line` starts a function (not a comment, not a call).
fn is_fn(line: &str) -> bool {
    let line = line.trim_start();
    let line = line
        .strip_prefix("pub(super) ")
        .or_else(|| line.strip_prefix("pub(crate) "))
        .or_else(|| line.strip_prefix("pub "))
        .unwrap_or(line);
    let line = line.strip_prefix("async ").unwrap_or(line);
    line.starts_with("fn ")
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The crate's top-level modules and the other top-level modules each one's code names
/// (`crate::x`), comments and test modules left out.
fn module_imports() -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    sources(Path::new("src"), &mut files);
    let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix("src").unwrap();
        let top = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if top == "lib" || top == "bin" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap();
        let names = imports.entry(top.clone()).or_default();
        for line in code.lines().map(str::trim).filter(|l| !l.starts_with("//")) {
            for (at, _) in line.match_indices("crate::") {
                let rest = &line[at + "crate::".len()..];
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                // (`crate::json!` is a macro, not a module.)
                let macro_call = rest[name.len()..].starts_with('!');
                if name != top
                    && !macro_call
                    && name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                {
                    names.insert(name);
                }
            }
        }
    }
    imports
}

#[test]
fn imports_only_point_down() {
    let imports = module_imports();
    // Peel off the modules that import nothing not yet peeled: each round is a floor.
    let mut placed: BTreeSet<String> = BTreeSet::new();
    let mut floors: Vec<Vec<String>> = Vec::new();
    while placed.len() < imports.len() {
        let floor: Vec<String> = imports
            .iter()
            .filter(|(m, uses)| !placed.contains(*m) && uses.iter().all(|u| placed.contains(u)))
            .map(|(m, _)| m.clone())
            .collect();
        assert!(
            !floor.is_empty(),
            "these modules import each other in a circle: {:?}",
            imports
                .iter()
                .filter(|(m, _)| !placed.contains(*m))
                .map(|(m, uses)| format!("{m} -> {uses:?}"))
                .collect::<Vec<_>>()
        );
        placed.extend(floor.iter().cloned());
        floors.push(floor);
    }
    // Models and tools stand side by side on the shared vocabulary (chat, http), neither
    // importing the other; the bindings are the roof.
    let floor = |m: &str| {
        floors
            .iter()
            .position(|f| f.iter().any(|x| x == m))
            .unwrap()
    };
    for ground in ["error", "chat", "http", "host", "json"] {
        assert!(
            floor(ground) < floor("tools") && floor(ground) < floor("llm"),
            "{floors:?}"
        );
    }
    assert!(
        !imports["tools"].contains("llm") && !imports["llm"].contains("tools"),
        "{imports:?}"
    );
    // The providers know no prompt format: a model is given messages and streams text. (The
    // offline model reads its scenario's replies, so it lives with the scenarios.)
    assert!(
        !imports["llm"].contains("format"),
        "src/llm imports the formats: {:?}",
        imports["llm"]
    );
    assert_eq!(
        floors.last().unwrap(),
        &["bindings".to_string()],
        "{floors:?}"
    );
}

#[test]
fn only_the_bindings_touch_javascript() {
    let mut files = Vec::new();
    sources(Path::new("src"), &mut files);
    for file in files {
        if file.starts_with("src/bindings") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for js in ["wasm_bindgen", "web_sys", "js_sys"] {
            let used = text
                .lines()
                .filter(|l| !l.trim().starts_with("//"))
                .any(|l| l.contains(&format!("{js}::")) || l.contains(&format!("use {js}")));
            assert!(
                !used,
                "{} uses {js}: the core must stay pure Rust",
                file.display()
            );
        }
    }
}
