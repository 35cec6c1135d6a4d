//! `make fuzz` on a stable toolchain: a bounded, coverage-free fuzzer over the parser, the SSE
//! decoder, the trajectory reader and the JSON reader (against serde_json's), checking the
//! properties in `fuzz/checks.rs` (the same checks the cargo-fuzz targets run where a nightly
//! toolchain is available).
//!
//! It mutates seeds (the shared corpus's replies, the transcripts' replies, the recorded
//! streams, a trajectory file of every scenario, and the JSON files of the repository and the
//! shared corpus) with what breaks ReAct readers: pieces of
//! ReAct dropped in, ranges cut, doubled or spliced, line endings changed, invalid UTF-8, deep
//! nesting, very long lines, and (in trajectories) JSON values of the wrong type. A panic, or an
//! input that takes more than 2 s, is a failure: it is saved to `target/fuzz-failures/` and
//! can be replayed with `--replay <file>`.
//!
//! ```text
//! cargo run --profile fuzz --example fuzz -- --seconds 60 [--seed N] [--replay FILE]
//! cargo run --profile fuzz --example fuzz -- --write-seeds fuzz/corpus   (for cargo-fuzz)
//! ```

#[path = "../fuzz/checks.rs"]
mod checks;
// The project's deterministic random source (tests/rng.rs), which the checks load.
use checks::rng::Rng;

use std::time::{Duration, Instant};
use tao_agent::format::Lang;
use tao_agent::Config;

/// The pieces a careful model-output reader is most often wrong about.
const PIECES: &[&str] = &[
    "Thought:",
    "Action:",
    "Action Input:",
    "Observation:",
    "Final Answer:",
    "Thought 2:",
    "Action 2: Search[",
    "]",
    "Finish[",
    "```json\n",
    "```\n",
    "{\"action\": \"search\", \"action_input\": ",
    "{",
    "}",
    "[",
    "(",
    ")",
    "\"",
    "\n",
    "\r\n",
    "\n\n",
    "**Action:**",
    "思考：",
    "行动：",
    "观察：",
    "最终答案：",
    "AI:",
    "Action: None\n",
    "I will ",
    "Let me know.",
    "：",
    "data: ",
    "event: ",
    "data: [DONE]\n\n",
    ": comment\n",
    "\r",
    "\u{FFFD}",
    "日本",
];

fn mutate(rng: &mut Rng, seed: &[u8], seeds: &[Vec<u8>], json: bool) -> Vec<u8> {
    let mut out = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(if json { 10 } else { 9 }) {
            0 | 1 => {
                let piece = PIECES[rng.below(PIECES.len())].as_bytes();
                out.splice(at..at, piece.iter().copied());
            }
            2 => {
                let end = (at + rng.below(64)).min(out.len());
                out.drain(at..end);
            }
            3 => {
                let end = (at + rng.below(64)).min(out.len());
                let copy = out[at..end].to_vec();
                out.splice(at..at, copy);
            }
            4 => {
                let other = &seeds[rng.below(seeds.len())];
                let from = rng.below(other.len() + 1);
                let end = (from + rng.below(200)).min(other.len());
                out.splice(at..at, other[from..end].iter().copied());
            }
            5 => {
                let text = String::from_utf8_lossy(&out).into_owned();
                out = match rng.below(3) {
                    0 => text.replace('\n', "\r\n"),
                    1 => text.replace("\r\n", "\n"),
                    _ => text.replace('\n', "\r"),
                }
                .into_bytes();
            }
            6 => {
                let bad: [&[u8]; 4] = [b"\xFF", b"\xE6\x97", b"\xC0\x80", b"\xED\xA0\x80"];
                out.splice(at..at, bad[rng.below(4)].iter().copied());
            }
            7 => {
                let depth = 1 + rng.below(50_000);
                let open = ["[", "{\"a\":", "(", "```\n"][rng.below(4)];
                out.splice(at..at, open.repeat(depth).into_bytes());
            }
            8 => {
                let line = "x".repeat(1 + rng.below(200_000));
                out.splice(at..at, line.into_bytes());
            }
            _ => {
                // A JSON value of another type where one was.
                let text = String::from_utf8_lossy(&out).into_owned();
                let swaps = [
                    "null",
                    "\"one\"",
                    "-1",
                    "1.5",
                    "[]",
                    "{}",
                    "true",
                    "4294967296",
                ];
                let swap = swaps[rng.below(swaps.len())];
                if let Some(colon) = text.get(at.min(text.len())..).and_then(|t| t.find(": ")) {
                    let start = at.min(text.len()) + colon + 2;
                    let end = text[start..]
                        .find([',', '\n', '}'])
                        .map_or(text.len(), |e| start + e);
                    out = format!("{}{swap}{}", &text[..start], &text[end..]).into_bytes();
                }
            }
        }
    }
    out
}

/// Inputs, each a byte string.
type Pool = Vec<Vec<u8>>;
/// A target: its name, its seeds, its check.
type Target<'a> = (&'a str, &'a [Vec<u8>], fn(&[u8]));

/// The seeds: replies, streams, trajectory files and JSON texts, by target.
fn seeds() -> (Pool, Pool, Pool, Pool) {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut replies: Vec<Vec<u8>> = Vec::new();
    for set in ["peer-suite", "real-outputs"] {
        let path = format!("{root}/../shared/corpus/{set}.jsonl");
        for line in std::fs::read_to_string(path).unwrap_or_default().lines() {
            if let Ok(case) = tao_agent::json::from_str(line) {
                if let Some(text) = case["text"].as_str() {
                    replies.push(text.as_bytes().to_vec());
                }
            }
        }
    }
    for entry in std::fs::read_dir(format!("{root}/tests/transcripts"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        for reply in text.split("--- reply\n").skip(1) {
            replies.push(
                reply
                    .split("=== trajectory")
                    .next()
                    .unwrap_or("")
                    .as_bytes()
                    .to_vec(),
            );
        }
    }
    let mut streams: Vec<Vec<u8>> = std::fs::read_dir(format!("{root}/tests/streams"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| std::fs::read(e.path()).ok())
        .collect();
    streams.push(b"data: {}\n\n".to_vec());
    // Every scenario's run, in both languages, as tao writes it.
    let mut trajectories = Vec::new();
    for scenario in tao_agent::scenarios::all() {
        for lang in [Lang::En, Lang::Zh] {
            let config = Config {
                lang,
                ..Config::default()
            };
            let host = std::rc::Rc::new(tao_agent::host::NativeHost::default());
            if let Ok(agent) = tao_agent::settings::offline_agent(&scenario, config, 0, host) {
                let t = tao_agent::host::block_on(agent.run(scenario.task(lang), &mut |_| {}));
                trajectories.push(t.to_json().into_bytes());
            }
        }
    }
    // JSON: the trajectories, the repository's JSON files, the corpus's lines.
    let mut jsons = trajectories.clone();
    for dir in [
        "data",
        "data/scenarios",
        "tests/docs",
        "tests/wiki",
        "tests/fixtures/react-paper",
        "www",
        "www/samples",
    ] {
        for entry in std::fs::read_dir(format!("{root}/{dir}"))
            .into_iter()
            .flatten()
            .flatten()
        {
            if entry.path().extension().is_some_and(|e| e == "json") {
                jsons.extend(std::fs::read(entry.path()));
            }
        }
    }
    for set in ["peer-suite", "real-outputs"] {
        let path = format!("{root}/../shared/corpus/{set}.jsonl");
        let text = std::fs::read_to_string(path).unwrap_or_default();
        jsons.extend(text.lines().map(|line| line.as_bytes().to_vec()));
    }
    (replies, streams, trajectories, jsons)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    if let Some(path) = flag("--replay") {
        let data = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        // The target is in the path: this driver's `<target>-…` files, cargo-fuzz's
        // `artifacts/<target>/…`.
        match path {
            p if p.contains("trajectory") => checks::trajectory(&data),
            p if p.contains("sse") => checks::sse(&data),
            p if p.contains("json") => checks::json(&data),
            _ => checks::parser(&data),
        }
        println!("{path}: no failure");
        return;
    }
    if let Some(dir) = flag("--write-seeds") {
        // The seeds as input files for cargo-fuzz (one folder per target), in the checks' layout.
        let (replies, streams, trajectories, jsons) = seeds();
        for (name, pool) in [
            ("parser", replies),
            ("sse", streams),
            ("trajectory", trajectories),
            ("json", jsons),
        ] {
            let folder = format!("{dir}/{name}");
            std::fs::create_dir_all(&folder).unwrap_or_else(|e| panic!("{folder}: {e}"));
            for (i, seed) in pool.iter().enumerate() {
                let input = [&[i as u8][..], seed].concat();
                std::fs::write(format!("{folder}/seed-{i}"), input)
                    .unwrap_or_else(|e| panic!("{folder}: {e}"));
            }
        }
        println!("fuzz: seeds written to {dir}/{{parser,sse,trajectory,json}}");
        return;
    }
    let seconds: u64 = flag("--seconds").and_then(|s| s.parse().ok()).unwrap_or(60);
    let seed: u64 = flag("--seed")
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
                | 1
        });
    println!("fuzz: seed {seed}, {seconds} s (replay a run with --seed {seed})");
    let (replies, streams, trajectories, jsons) = seeds();
    println!(
        "fuzz: {} replies, {} streams, {} trajectory files, {} JSON texts as seeds",
        replies.len(),
        streams.len(),
        trajectories.len(),
        jsons.len()
    );
    std::panic::set_hook(Box::new(|_| {})); // failures are reported below, once
    let mut rng = Rng(seed);
    let targets: [Target; 4] = [
        ("parser", &replies, checks::parser),
        ("sse", &streams, checks::sse),
        ("trajectory", &trajectories, checks::trajectory),
        ("json", &jsons, checks::json),
    ];
    let mut counts = [0u64; 4];
    let mut failures = 0;
    let end = Instant::now() + Duration::from_secs(seconds);
    // Stop early once failures pile up: they are likely one bug, and each is saved.
    while Instant::now() < end && failures < 20 {
        for (t, (name, pool, check)) in targets.iter().enumerate() {
            let base = &pool[rng.below(pool.len())];
            let mut input = vec![rng.next() as u8];
            let json = *name == "trajectory" || *name == "json";
            input.extend(mutate(&mut rng, base, pool, json));
            let started = Instant::now();
            let result = std::panic::catch_unwind(|| check(&input));
            let took = started.elapsed();
            counts[t] += 1;
            if result.is_err() || took > Duration::from_secs(2) {
                failures += 1;
                let why = match &result {
                    Err(e) => e
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default(),
                    Ok(()) => format!("took {took:?}"),
                };
                let dir = format!("{}/target/fuzz-failures", env!("CARGO_MANIFEST_DIR"));
                let _ = std::fs::create_dir_all(&dir);
                let path = format!("{dir}/{name}-{seed:x}-{}", counts[t]);
                let _ = std::fs::write(&path, &input);
                println!("FAIL {name}: {why}\n  saved to {path}");
            }
        }
    }
    println!(
        "fuzz: {} parser, {} sse, {} trajectory, {} json inputs; {failures} failures",
        counts[0], counts[1], counts[2], counts[3]
    );
    if failures > 0 {
        std::process::exit(1);
    }
}
