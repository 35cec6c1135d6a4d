//! `make bench` (native part): per-step overhead of the loop and streaming-parse throughput.
//! These print measurements; they assert nothing about time (timed tests are flaky).
//!
//! - per step: a 10-step run (9 actions + an answer) with the scripted model at zero delay and
//!   an echo tool, repeated; the figure is the loop's own cost per step (prompt rendering,
//!   streaming parse, events, trajectory bookkeeping).
//! - parse: a ~200 KB transcript pushed in 4-byte deltas; also 100 and 400 KB to show the
//!   time grows linearly with the text.
//! - stream decode: an OpenAI-style SSE stream (one `data:` chunk per 4 characters of reply,
//!   as providers send them) pushed through the SSE decoder and the chunk decoder in 1 KB
//!   network reads: the cost of receiving a reply, before the parser sees it.
//! - search_docs: indexing 1,000 generated pages (~200 words each, a skewed 5,000-word
//!   vocabulary, so some words are common and most rare), and answering 3-word queries (the
//!   whole observation: ranking and the passages of the three pages shown).

use std::hint::black_box;
use std::rc::Rc;
use std::time::Instant;
use tao_agent::format::parse::{ParseOptions, StreamParser, Style};
use tao_agent::format::{Format, Lang};
use tao_agent::host::{block_on, NativeHost};
use tao_agent::llm::http::Piece;
use tao_agent::llm::{openai, sse::SseDecoder};
use tao_agent::scenarios::scripted::{Policy, Scripted};
use tao_agent::tools::docs::{Doc, Index};
use tao_agent::tools::{FnTool, Registry};
use tao_agent::{Agent, Config};

#[path = "../tests/rng.rs"]
mod rng;

fn main() {
    println!("per-step overhead (native, scripted model at zero delay, echo tool, 10-step runs)");
    let mut replies: Vec<String> = (1..10)
        .map(|i| format!("Thought: step {i}\nAction: echo\nAction Input: value {i}"))
        .collect();
    replies.push("Thought: done\nFinal Answer: 42".into());
    let run = || {
        let host = Rc::new(NativeHost::default());
        let model = Scripted::new(
            "bench",
            Policy::Replay(replies.clone()),
            Format::Mrkl,
            Lang::En,
            host.clone(),
        );
        let mut tools = Registry::new();
        tools.register(Rc::new(FnTool::new(
            "echo",
            "Repeats its input.",
            "text",
            |t: &str| Ok(t.to_string()),
        )));
        let agent = Agent::new(
            Config {
                max_steps: 10,
                ..Config::default()
            },
            Box::new(model),
            tools,
            host,
        );
        let mut events = 0usize;
        let t = block_on(agent.run("count to ten", &mut |_| events += 1));
        assert_eq!(t.steps.len(), 10);
        black_box((t, events));
    };
    for _ in 0..200 {
        run(); // warm up
    }
    let mut per_step = Vec::new();
    for _ in 0..15 {
        let runs = 300;
        let start = Instant::now();
        for _ in 0..runs {
            run();
        }
        per_step.push(start.elapsed().as_secs_f64() * 1e6 / (runs * 10) as f64);
    }
    per_step.sort_by(f64::total_cmp);
    println!(
        "  median {:.1} µs/step (min {:.1}, max {:.1}; 15 batches of 300 runs)",
        per_step[7], per_step[0], per_step[14]
    );

    println!("streaming parse (4-byte deltas)");
    let block = "Thought: I need to look this up again, because the last observation did not say it.\n\
                 Action: search\nAction Input: {\"query\": \"Colorado orogeny eastern sector\", \"page\": 2}\n";
    for kb in [100, 200, 400] {
        let mut text = String::new();
        while text.len() < kb * 1024 {
            text.push_str(block);
        }
        text.push_str("Final Answer: done\n");
        let mut times = Vec::new();
        for _ in 0..7 {
            let options = ParseOptions::new(Style::Mrkl);
            let start = Instant::now();
            let mut parser = StreamParser::new(options);
            for chunk in text.as_bytes().chunks(4) {
                black_box(parser.push(chunk));
            }
            black_box(parser.finish());
            times.push(start.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        let t = times[3];
        println!(
            "  {kb:>3} KB: {:>7.2} ms  ({:.0} MB/s)",
            t * 1e3,
            text.len() as f64 / t / 1e6
        );
    }

    println!("stream decode (OpenAI SSE, 4-character deltas, 1 KB reads)");
    let mut stream = String::new();
    let mut reply_chars = 0;
    while stream.len() < 1 << 20 {
        stream.push_str(
            "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Thou\"},\"finish_reason\":null}]}\n\n",
        );
        reply_chars += 4;
    }
    let mut times = Vec::new();
    for _ in 0..7 {
        let start = Instant::now();
        let mut decoder = SseDecoder::new();
        let mut pieces: Vec<Piece> = Vec::new();
        for read in stream.as_bytes().chunks(1024) {
            for event in decoder.push(read) {
                let _ = openai::decode(&event.data, &mut pieces);
            }
            black_box(pieces.drain(..).count());
        }
        times.push(start.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let t = times[3];
    println!(
        "  1 MB of stream ({} KB of reply text): {:.2} ms ({:.0} MB/s of stream)",
        reply_chars / 1024,
        t * 1e3,
        stream.len() as f64 / t / 1e6
    );

    search_docs();
}

fn search_docs() {
    println!("search_docs (1,000 generated pages of ~200 words)");
    // tests/rng.rs: the same pages on every run.
    let mut rng = rng::Rng(0x9E37_79B9_7F4A_7C15);
    let mut next = move || rng.next();
    // A skewed pick: low word numbers come up far more often, as common words do.
    let mut word = move || {
        let n = next();
        format!("w{}", n % (n % 5000 + 1))
    };
    let mut sentence = |words: usize| {
        let words: Vec<String> = (0..words).map(|_| word()).collect();
        words.join(" ") + "."
    };
    let docs: Vec<Doc> = (0..1000)
        .map(|i| Doc {
            title: sentence(3),
            url: format!("https://example.com/page/{i}"),
            text: (0..20).map(|_| sentence(10)).collect::<Vec<_>>().join(" "),
        })
        .collect();
    let queries: Vec<String> = (0..100).map(|_| sentence(3)).collect();
    let bytes: usize = docs.iter().map(|d| d.title.len() + d.text.len()).sum();

    let mut builds = Vec::new();
    for _ in 0..7 {
        let start = Instant::now();
        black_box(Index::new(docs.clone()));
        builds.push(start.elapsed().as_secs_f64());
    }
    builds.sort_by(f64::total_cmp);
    println!(
        "  index build: {:.1} ms for {} KB of text",
        builds[3] * 1e3,
        bytes / 1024
    );

    let index = Index::new(docs);
    let mut per_query = Vec::new();
    for _ in 0..7 {
        let start = Instant::now();
        for query in &queries {
            black_box(index.answer(query, 3).unwrap());
        }
        per_query.push(start.elapsed().as_secs_f64() / queries.len() as f64);
    }
    per_query.sort_by(f64::total_cmp);
    println!(
        "  query (3 words, observation with 3 passages): {:.0} µs",
        per_query[3] * 1e6
    );
}
