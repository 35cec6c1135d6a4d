//! `tao`: the native command-line tool, for debugging what the page does.
//!
//! The seeds' advice for a misbehaving agent is "print the full prompt, look at the raw
//! output"; this does both, with no browser:
//!
//! ```text
//! tao parse --format mrkl|paper|json [--final-marker M] [--tools a,b]   < reply.txt
//! tao parse --jsonl                                                      < cases.jsonl
//! tao run --scenario NAME [--format F] [--lang en|zh] [--max-steps N] [--task T] [--json] [--show-prompts]
//!         [--exemplars FILE] [--token-budget N] [--time-budget-ms N] [--memory-tokens N] [--keep-steps N] [--reflect-every N]
//! tao export-jsonl DIR (--scenario NAME | --tools a,b) [--exemplars FILE] [--reward-from FIELD]
//! tao scenarios
//! ```

// The CLI is native only; built for wasm (as cargo does for wasm tests) it does nothing.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

#[cfg(not(target_arch = "wasm32"))]
mod score;

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use crate::score;
    use std::io::{BufRead, Read, Write};
    use std::process::ExitCode;
    use std::rc::Rc;
    use tao_agent::format::parse::{self, ParseOptions, Style};
    use tao_agent::format::Lang;
    use tao_agent::host::{block_on, NativeHost};
    use tao_agent::settings::{Parts, Settings};
    use tao_agent::{scenarios, Trajectory};

    const USAGE: &str = "usage:
      tao parse --format mrkl|paper|json [--final-marker M] [--tools a,b] < reply.txt
      tao parse --jsonl < cases.jsonl      (one {id, text, style, final_marker, prompt_suffix, tools} per line)
      tao run --scenario NAME [--format mrkl|paper|tools|auto|act|cot|standard] [--lang en|zh] [--max-steps N]
              [--task T] [--json] [--show-prompts] [--exemplars FILE]
              [--token-budget N] [--time-budget-ms N] [--memory-tokens N] [--keep-steps N] [--reflect-every N]
      tao export-jsonl DIR (--scenario NAME | --tools a,b) [--exemplars FILE] [--reward-from FIELD]
      tao scenarios";

    pub fn main() -> ExitCode {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let result = match args.first().map(String::as_str) {
            Some("parse") => parse_command(&args[1..]),
            Some("run") => run_command(&args[1..]),
            Some("export-jsonl") => export_command(&args[1..]),
            Some("scenarios") => {
                for s in scenarios::all() {
                    println!("{:<15} {:<6} {}", s.name, s.format, s.title.get(Lang::En));
                }
                Ok(())
            }
            _ => Err(USAGE.to_string()),
        };
        match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("tao: {message}");
                ExitCode::from(2)
            }
        }
    }

    /// The value after `--name`, if given.
    fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map(String::as_str)
    }

    fn parse_command(args: &[String]) -> Result<(), String> {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        if args.iter().any(|a| a == "--jsonl") {
            for line in std::io::stdin().lock().lines() {
                let line = line.map_err(|e| format!("cannot read stdin: {e}"))?;
                if line.trim().is_empty() {
                    continue;
                }
                let verdict = match tao_agent::json::from_str(&line) {
                    Ok(case) => score::verdict_for_case(&case),
                    Err(e) => {
                        tao_agent::json!({"id": null, "kind": "error", "why": "bad_request", "message": format!("not a JSON line: {e}")})
                    }
                };
                writeln!(out, "{verdict}").map_err(|e| e.to_string())?;
            }
            return Ok(());
        }
        let style_name = flag(args, "--format").unwrap_or("mrkl");
        let style = Style::from_name(style_name).ok_or(format!(
            "unknown format \"{style_name}\"; use mrkl, paper or json"
        ))?;
        let mut options = ParseOptions::new(style);
        options.final_marker = flag(args, "--final-marker").map(str::to_string);
        options.tools =
            flag(args, "--tools").map(|t| t.split(',').map(|s| s.trim().to_string()).collect());
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read stdin: {e}"))?;
        let text = String::from_utf8_lossy(&bytes);
        writeln!(
            out,
            "{}",
            score::verdict_json(&parse::parse(&text, &options))
        )
        .map_err(|e| e.to_string())
    }

    fn run_command(args: &[String]) -> Result<(), String> {
        // The flags are the page's settings under other names, read by the same code.
        let mut settings = tao_agent::json::Map::new();
        for (flag_name, option) in [
            ("--scenario", "scenario"),
            ("--format", "format"),
            ("--lang", "lang"),
        ] {
            if let Some(value) = flag(args, flag_name) {
                settings.insert(option.into(), value.into());
            }
        }
        // Few-shot examples in place of the format's own (the paper's, say), read from a file.
        if let Some(path) = flag(args, "--exemplars") {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read the exemplars at {path}: {e}"))?;
            settings.insert("exemplars".into(), text.into());
        }
        for (flag_name, option) in [
            ("--max-steps", "maxSteps"),
            ("--token-budget", "tokenBudget"),
            ("--time-budget-ms", "timeBudgetMs"),
            ("--memory-tokens", "memoryTokens"),
            ("--keep-steps", "keepSteps"),
            ("--reflect-every", "reflectEvery"),
        ] {
            if let Some(n) = flag(args, flag_name) {
                let n: u64 = n
                    .parse()
                    .map_err(|_| format!("{flag_name} takes a whole number, not \"{n}\""))?;
                settings.insert(option.into(), n.into());
            }
        }
        let settings = Settings::from_json(&settings.into()).map_err(|e| e.message)?;
        let scenario = settings
            .scenario
            .clone()
            .ok_or("tao run needs --scenario NAME (see `tao scenarios`)")?;
        let task = flag(args, "--task")
            .map(str::to_string)
            .unwrap_or_else(|| scenario.task(settings.config.lang).to_string());
        let agent = settings
            .agent(Parts {
                host: Rc::new(NativeHost::default()),
                transport: None,
                tools: Vec::new(),
                model: None,
                elsewhere: None,
            })
            .map_err(|e| e.message)?;
        let trajectory = block_on(agent.run(&task, &mut |_| {}));
        if args.iter().any(|a| a == "--show-prompts") {
            print_prompts(&agent, &trajectory);
        }
        if args.iter().any(|a| a == "--json") {
            println!("{}", trajectory.to_json());
        } else {
            print!("{}", trajectory.to_text());
        }
        Ok(())
    }

    /// The exact prompt of each step. The prompt is rendered from the trajectory, so the prompt of
    /// step k is the rendering of the first k-1 steps (and the memos written before it).
    fn print_prompts(agent: &tao_agent::Agent, trajectory: &Trajectory) {
        for k in 1..=trajectory.steps.len() as u32 {
            println!("──────── prompt for step {k} ────────");
            for message in agent.prompt(&trajectory.before(k)) {
                println!("[{}]\n{}", message.role.name(), message.content);
                for call in &message.tool_calls {
                    println!("(calls {} with {})", call.name, call.arguments);
                }
                println!();
            }
        }
        println!("──────── run ────────");
    }

    /// `tao export-jsonl DIR`: each trajectory file in DIR (`*.json`, by name) as a training
    /// record on a line of its own (see `tao_agent::training`); a file that is not a trajectory
    /// is named on stderr and skipped, and the exit code then says so. The prompts are
    /// rendered again, which needs what the run's agent had and a file does not say: its tools
    /// (a scenario's, or built-ins by name) and its exemplars. A file's top-level `reward`
    /// number (or the field `--reward-from` names) is the record's reward.
    fn export_command(args: &[String]) -> Result<(), String> {
        let dir = args
            .first()
            .filter(|a| !a.starts_with("--"))
            .ok_or("tao export-jsonl needs the directory of the trajectory files")?;
        let mut settings = tao_agent::json::Map::new();
        match (flag(args, "--scenario"), flag(args, "--tools")) {
            (Some(name), _) => settings.insert("scenario".into(), name.into()),
            (None, Some(list)) => settings.insert("tools".into(), list.split(',').map(str::trim).collect()),
            (None, None) => return Err("tao export-jsonl needs the tools the prompts described, which a trajectory file does not list: --scenario NAME or --tools search,lookup".into()),
        };
        if let Some(path) = flag(args, "--exemplars") {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read the exemplars at {path}: {e}"))?;
            settings.insert("exemplars".into(), text.into());
        }
        // A model that is never called: the prompts are rendered, not sent.
        settings.insert("replies".into(), tao_agent::json::Value::Array(Vec::new()));
        let reward_field = flag(args, "--reward-from").unwrap_or("reward");
        let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| format!("cannot read the directory {dir}: {e}"))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| path.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        // One agent per prompt language (the tools are described in it).
        let mut agents: Vec<(Lang, tao_agent::Agent)> = Vec::new();
        let (stdout, mut skipped) = (std::io::stdout(), 0);
        let mut out = stdout.lock();
        for path in &files {
            let read = std::fs::read_to_string(path).map_err(|e| e.to_string());
            let trajectory = read.and_then(|text| match Trajectory::from_json(&text) {
                Ok(t) => Ok((t, tao_agent::json::from_str(&text))),
                Err(e) => Err(e.message),
            });
            let (trajectory, raw) = match trajectory {
                Ok(read) => read,
                Err(why) => {
                    eprintln!("tao: skipped {}: {why}", path.display());
                    skipped += 1;
                    continue;
                }
            };
            let mut extra = tao_agent::json::Map::new();
            let reward = raw.ok().and_then(|raw| raw.get(reward_field).cloned());
            if let Some(reward) = reward.filter(tao_agent::json::Value::is_number) {
                extra.insert("reward".into(), reward);
            }
            let lang = trajectory.lang;
            if !agents.iter().any(|(l, _)| *l == lang) {
                settings.insert("lang".into(), lang.name().into());
                let agent = Settings::from_json(&settings.clone().into())
                    .and_then(|s| {
                        s.agent(Parts {
                            host: Rc::new(NativeHost::default()),
                            transport: None,
                            tools: Vec::new(),
                            model: None,
                            elsewhere: None,
                        })
                    })
                    .map_err(|e| e.message)?;
                agents.push((lang, agent));
            }
            let Some((_, agent)) = agents.iter().find(|(l, _)| *l == lang) else {
                continue;
            };
            let record = tao_agent::training::record(&trajectory, agent, &extra);
            writeln!(out, "{record}").map_err(|e| e.to_string())?;
        }
        match skipped {
            0 => Ok(()),
            n => Err(format!(
                "{n} of the {} files in {dir} were not trajectories and were skipped",
                files.len()
            )),
        }
    }
}
