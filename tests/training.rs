//! Trajectories as training data: each step's prompt in the record is the one the model was
//! really sent, and `tao export-jsonl` turns a directory of trajectory files into JSONL.

use crate::studio::Recording;
use std::cell::RefCell;
use std::rc::Rc;
use tao_agent::format::{Format, Lang};
use tao_agent::host::{block_on, NativeHost};
use tao_agent::json;
use tao_agent::json::{Map, Value};
use tao_agent::training::record;
use tao_agent::{scenarios, settings, Agent, Config, Trajectory};

/// The offline agent of scenario `name` in `format`, and the run it makes: its trajectory, and
/// the messages of each request its model was sent (as JSON).
fn run(name: &str, format: Format) -> (Agent, Trajectory, Vec<Value>) {
    let scenario = scenarios::get(name).unwrap();
    let config = Config {
        format,
        ..Config::default()
    };
    let host = Rc::new(NativeHost::default());
    let Agent {
        config,
        model,
        tools,
        ..
    } = settings::offline_agent(&scenario, config, 0, host.clone()).unwrap();
    let sent = Rc::new(RefCell::new(Vec::new()));
    let model = Box::new(Recording {
        inner: model,
        sent: Rc::clone(&sent),
    });
    let agent = Agent::new(config, model, tools, host);
    let trajectory = block_on(agent.run(scenario.task(Lang::En), &mut |_| {}));
    let requests = sent
        .borrow()
        .iter()
        .map(|messages| {
            tao_agent::json::from_str(&tao_agent::to_json::to_string(messages)).unwrap()
        })
        .collect();
    (agent, trajectory, requests)
}

#[test]
fn each_step_holds_the_prompt_the_model_was_sent() {
    let (agent, trajectory, sent) = run("apple-ceo", Format::Mrkl);
    let extra: Map<String, Value> = json!({"gold": "Mobile, Alabama", "em": 0, "id": 7})
        .as_object()
        .unwrap()
        .clone();
    let r = record(&trajectory, &agent, &extra);
    // It reads back as JSON, as one line.
    let line = r.to_string();
    assert!(!line.contains('\n'));
    let r: Value = tao_agent::json::from_str(&line).unwrap();
    let steps = r["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 3);
    assert_eq!(sent.len(), 3, "one model call a step in this scenario");
    for (k, step) in steps.iter().enumerate() {
        assert_eq!(step["index"], k + 1);
        // The system message and the question, then each earlier step's turn and observation.
        let prompt = step["prompt"].as_array().unwrap();
        assert_eq!(prompt.len(), 2 + 2 * k, "step {}", k + 1);
        assert_eq!(step["prompt"], sent[k], "step {}", k + 1);
        assert_eq!(step["tools"], json!([]), "the text prompt lists the tools");
        assert_eq!(step["reply"], trajectory.steps[k].raw());
        assert_eq!(step["thought"], trajectory.steps[k].thought.as_str());
    }
    assert_eq!(
        steps[0]["action"],
        json!({"tool": "search", "input": "current CEO of Apple"})
    );
    assert!(steps[0]["observation"]
        .as_str()
        .unwrap()
        .contains("Tim Cook"));
    assert_eq!(steps[0]["answer"], Value::Null);
    assert_eq!(steps[2]["action"], Value::Null);
    assert_eq!(steps[2]["observation"], Value::Null);
    let answer = "Mobile, Alabama";
    assert_eq!(steps[2]["answer"], answer);
    assert_eq!(r["answer"], answer);
    assert_eq!(
        r["task"],
        "What is the hometown of the current CEO of Apple Inc.?"
    );
    assert_eq!(
        (&r["mode"], &r["format"], &r["lang"], &r["model"]),
        (
            &json!("mrkl"),
            &json!("mrkl"),
            &json!("en"),
            &json!("scripted:apple-ceo")
        )
    );
    assert_eq!(r["stop"], "answer");
    assert_eq!(r["reward"], Value::Null);
    // The extra fields are added as they were given.
    assert_eq!(
        (&r["gold"], &r["em"], &r["id"]),
        (extra.get("gold").unwrap(), &json!(0), &json!(7))
    );
}

#[test]
fn the_papers_format_is_the_react_mode_and_tool_calls_carry_their_tools() {
    let (agent, trajectory, sent) = run("apple-ceo", Format::Paper);
    let reward = json!({"reward": 1.0}).as_object().unwrap().clone();
    let r = record(&trajectory, &agent, &reward);
    assert_eq!(
        (&r["mode"], &r["format"]),
        (&json!("react"), &json!("paper"))
    );
    assert_eq!(r["reward"], 1.0);
    for (k, step) in r["steps"].as_array().unwrap().iter().enumerate() {
        assert_eq!(step["prompt"], sent[k]);
    }
    // In native tool calling the tools go beside the messages, at every step.
    let (agent, trajectory, sent) = run("apple-ceo", Format::Tools);
    let r = record(&trajectory, &agent, &Map::new());
    assert_eq!(r["mode"], "tools");
    for (k, step) in r["steps"].as_array().unwrap().iter().enumerate() {
        assert_eq!(step["prompt"], sent[k]);
        assert_eq!(step["tools"][0]["name"], "search", "step {}", k + 1);
    }
}

#[test]
fn export_jsonl_writes_a_line_per_trajectory_and_names_what_it_skipped() {
    let dir = std::env::temp_dir().join(format!("tao-export-jsonl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (_, trajectory, _) = run("apple-ceo", Format::Mrkl);
    // The page adds the user's thumbs up or down as a top-level `reward`.
    let mut rated: Value = tao_agent::json::from_str(&trajectory.to_json()).unwrap();
    rated
        .as_object_mut()
        .unwrap()
        .insert("reward".into(), json!(-1));
    std::fs::write(dir.join("a.json"), trajectory.to_json()).unwrap();
    std::fs::write(dir.join("b.json"), rated.to_string()).unwrap();
    std::fs::write(dir.join("c.json"), "{\"not\": \"a trajectory\"}").unwrap();
    std::fs::write(dir.join("notes.txt"), "not read: not .json").unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tao"))
        .args([
            "export-jsonl",
            dir.to_str().unwrap(),
            "--scenario",
            "apple-ceo",
        ])
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| tao_agent::json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert_eq!(
        (&lines[0]["reward"], &lines[1]["reward"]),
        (&Value::Null, &json!(-1))
    );
    assert_eq!(lines[0]["steps"].as_array().unwrap().len(), 3);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("c.json"), "{stderr}");
    assert!(
        !stderr.contains("a.json") && !stderr.contains("notes.txt"),
        "{stderr}"
    );
    assert!(!output.status.success());
}
