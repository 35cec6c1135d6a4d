//! Trajectories as training data: one JSON record per run, with each step's exact prompt.
//!
//! A ReAct trajectory is what reinforcement learning and fine-tuning on agents consume (the
//! seed article 000 frames it so): at each step the model read a prompt, wrote a reply, and
//! the environment answered; at the end the run earns a reward (the answer was right, or the
//! user liked it). The record lays that out flat, one object per run:
//!
//! ```text
//! {"task", "mode", "model", "format", "lang",
//!  "steps": [{"index", "prompt": [{role, content, ...}], "tools": [{name, description, parameters}],
//!             "reply", "thought", "action": {tool, input} | null, "observation", "answer"}],
//!  "answer", "stop", "reward", ...extra}
//! ```
//!
//! Each step's `prompt` is not stored anywhere: it is rendered again from the trajectory cut
//! before that step (`crate::prompt`), which is exactly what the step's last model call was
//! sent, in the JSON shape the page's prompt view receives (`tools` is what went with it:
//! the specs in native tool calling, none in the text formats, whose prompt lists them).
//! Rendering needs what the run's agent knew and the trajectory does not say: the tools'
//! descriptions and the few-shot exemplars. So the caller gives an [`Agent`] set up as the
//! run's was (the page's agent is; the CLI rebuilds one from `--scenario` or `--tools`).

use crate::agent::Agent;
use crate::format::Format;
use crate::json::{object, Map, Value};
use crate::to_json::ToJson;
use crate::trajectory::Trajectory;

/// The training record of `trajectory` (see the module's schema). `mode` is `react` for the
/// paper's format and the format's own name otherwise; `reward` is null unless `extra` gives
/// one. The fields of `extra` (e.g. `reward`, `gold`, `em`, `f1`, `dataset`, `id`) are added
/// last and replace a field of the same name.
pub fn record(trajectory: &Trajectory, agent: &Agent, extra: &Map<String, Value>) -> Value {
    let mut steps = Vec::new();
    for (k, step) in trajectory.steps.iter().enumerate() {
        // The request of step k+1: the rendering of the k steps before it.
        let earlier = trajectory.before(k as u32 + 1);
        let (prompt, tools) = (agent.prompt(&earlier), agent.tool_specs(&earlier));
        let action = step.action().map(|a| {
            object(vec![
                ("tool", Value::from(a.tool.as_str())),
                ("input", a.input.clone()),
            ])
        });
        steps.push(object(vec![
            ("index", step.index.into()),
            ("prompt", json(&prompt)),
            ("tools", json(&tools)),
            ("reply", step.raw().into()),
            ("thought", step.thought.as_str().into()),
            ("action", action.unwrap_or(Value::Null)),
            ("observation", step.observation().into()),
            ("answer", step.answer.as_deref().into()),
        ]));
    }
    let mode = match trajectory.format {
        Format::Paper => "react",
        other => other.name(),
    };
    let stop = trajectory.stop.as_ref().map(|s| s.reason.name());
    let mut out = object(vec![
        ("task", trajectory.task.as_str().into()),
        ("mode", mode.into()),
        ("model", trajectory.model.as_str().into()),
        ("format", trajectory.format.name().into()),
        ("lang", trajectory.lang.name().into()),
        ("steps", Value::Array(steps)),
        ("answer", trajectory.answer().into()),
        ("stop", stop.into()),
        ("reward", Value::Null),
    ]);
    if let Some(fields) = out.as_object_mut() {
        for (key, value) in extra {
            fields.insert(key.clone(), value.clone());
        }
    }
    out
}

/// `value` as the JSON the page receives for it (the crate's writer, read back).
fn json(value: &dyn ToJson) -> Value {
    crate::json::from_str(&crate::to_json::to_string(value)).unwrap_or(Value::Null)
}
