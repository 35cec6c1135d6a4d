//! One call of a tool: the input checked against the tool's schema, the user asked when the
//! tool needs approval, the tool run under its time limit, and what came of it recorded in its
//! place among the step's tool calls. A mistake of the model (an unknown tool, an input that
//! does not fit, the same action as the step before) is a repair it reads as the observation;
//! a tool that fails or runs out of time is an observation too ("Error: ..."), since the model
//! can still go on.

use super::{micros, Agent};
use crate::event::{Event, Observer};
use crate::format::input_text;
use crate::format::parse::Why;
use crate::host::with_timeout;
use crate::json::Value;
use crate::tools::{schema, Tool, ToolError, ToolOutput};
use crate::trajectory::{Action, Repair, Step, Trajectory};
use std::rc::Rc;

impl Agent {
    /// Runs `action`'s tool (tool call `tool_call` of step `index`): checks the input against
    /// the tool's schema, asks for approval when the tool needs it (saying so to `on_event`),
    /// and returns what the tool returned.
    pub(super) async fn run_tool(
        &self,
        index: u32,
        tool_call: u32,
        action: &Action,
        on_event: Option<Observer<'_>>,
    ) -> Outcome {
        let (tool, input) = match self.checked(action) {
            Ok(checked) => checked,
            Err(repair) => return repair,
        };
        let spec = tool.spec();
        let mut approved = None;
        if spec.needs_approval {
            let yes = self.host.approve(&spec.name, &input).await;
            let tool = &spec.name;
            if let Some(on_event) = on_event {
                let approved = yes;
                on_event(&Event::Approval {
                    index,
                    tool_call,
                    tool,
                    approved,
                });
            }
            approved = Some(yes);
            if !yes {
                let text = format!(
                    "The user denied this call to {tool}. Do not repeat it; continue another way, or give your final answer."
                );
                let denied = Outcome::observed(ToolOutput::from(text));
                return Outcome { approved, ..denied };
            }
        }
        let (started, name) = (self.host.now_ms(), action.tool.as_str());
        let limit = spec.timeout_ms.unwrap_or(self.config.tool_timeout_ms);
        let mut outcome = match with_timeout(&*self.host, limit, tool.call(&input)).await {
            Some(Ok(output)) => Outcome::observed(output),
            Some(Err(ToolError::BadInput(problem))) => bad_input(name, tool.as_ref(), problem),
            Some(Err(ToolError::Failed(problem))) => {
                Outcome::observed(ToolOutput::from(format!("Error: {name} failed: {problem}")))
            }
            None => Outcome::observed(ToolOutput::from(format!(
                "Error: {name} did not answer within {limit} ms and was abandoned."
            ))),
        };
        outcome.ms = micros(self.host.now_ms() - started);
        outcome.approved = approved;
        outcome
    }

    /// The tool `action` names, and its input as checked against the tool's schema; the
    /// repair when the model named no tool of the registry or gave an input that does not fit.
    fn checked(&self, action: &Action) -> Result<(Rc<dyn Tool>, Value), Outcome> {
        let Some(tool) = self.tools.get(&action.tool) else {
            // The parser checks names against the registry, so this is only reached when a
            // tool was removed mid-run (or a trajectory was edited), or a native call named
            // one that does not exist; it is still the model's mistake to repair.
            let message = format!(
                "Unknown tool \"{}\". Valid tools: {}.",
                action.tool,
                crate::text::join(&self.tools.names(), ", ")
            );
            return Err(Outcome::repair(Why::UnknownTool, message));
        };
        let input = match tool.checks_input() {
            true => schema::check(&tool.spec().parameters, &action.input),
            false => Ok(action.input.clone()),
        };
        match input {
            Ok(input) => Ok((tool.clone(), input)),
            Err(problem) => Err(bad_input(&action.tool, tool.as_ref(), problem)),
        }
    }
}

/// The repair for an input that does not fit `tool` (the checker or the tool found it), which
/// the model called `name`: the problem, and the schema it must fit.
fn bad_input(name: &str, tool: &dyn Tool, problem: String) -> Outcome {
    let schema = crate::to_json::to_string(&tool.spec().parameters);
    let message = format!("Invalid input for {name}: {problem}. Its input schema is {schema}.");
    Outcome::repair(Why::BadInput, message)
}

/// What became of one tool call: the observation (or the repair) and what it cost, to be
/// recorded in its place in the step.
#[derive(Default)]
pub(super) struct Outcome {
    observation: String,
    repair: Option<Repair>,
    approved: Option<bool>,
    fuel: Option<u64>,
    ms: f64,
    picture: Option<crate::json::Value>,
}

impl Outcome {
    /// What a tool returned.
    pub(super) fn observed(output: ToolOutput) -> Self {
        Outcome {
            observation: output.text,
            fuel: output.fuel,
            picture: output.picture,
            ..Outcome::default()
        }
    }

    /// A model mistake: the model reads `message` next turn.
    pub(super) fn repair(why: Why, message: String) -> Self {
        Outcome {
            observation: message.clone(),
            repair: Some(Repair { why, message }),
            ..Outcome::default()
        }
    }

    /// Records this as tool call `tool_call` of `step` and says so.
    pub(super) fn record(&mut self, step: &mut Step, tool_call: u32, on_event: Observer<'_>) {
        let index = step.index;
        match &self.repair {
            Some(r) => on_event(&Event::Repair {
                index,
                tool_call,
                why: r.why.name(),
                message: &r.message,
            }),
            None => on_event(&Event::Observation {
                index,
                tool_call,
                text: &self.observation,
                fuel: self.fuel,
                picture: self.picture.as_ref(),
            }),
        }
        let Some(call) = step.tool_calls.get_mut(tool_call as usize) else {
            return;
        };
        call.observation = Some(std::mem::take(&mut self.observation));
        (call.repair, call.picture) = (self.repair.take(), self.picture.take());
        (call.approved, call.fuel, call.ms) = (self.approved, self.fuel, self.ms);
    }
}

/// The repair for the last step's action when it is the step before's again (same tool, same
/// input once case and spacing are set aside): the paper's most common ReAct failure, a model
/// that repeats itself. `None` when it differs, or when there is no earlier action.
pub(super) fn repetition(trajectory: &Trajectory) -> Option<String> {
    let [.., before, last] = trajectory.steps.as_slice() else {
        return None;
    };
    let (Some(a), Some(b)) = (last.action(), before.action()) else {
        return None;
    };
    let waiting = last
        .tool_calls
        .first()
        .is_some_and(|t| t.observation.is_none());
    let same = a.tool.eq_ignore_ascii_case(&b.tool) && same_input(&a.input, &b.input);
    (same && waiting).then(|| {
        format!(
            "This action repeats the previous one: {}[{}], with the same input. Its observation is above; the tool was not run again. Try another tool or another input, or give your final answer.",
            a.tool,
            input_text(&a.input)
        )
    })
}

/// Whether two action inputs are the same once case and runs of spacing are set aside.
fn same_input(a: &crate::json::Value, b: &crate::json::Value) -> bool {
    use crate::json::Value::String;
    match (a, b) {
        // The usual inputs, texts, are compared where they lie, with nothing copied; two that
        // differ and have nothing to set aside differ (told apart at once: this runs each step).
        (String(a), String(b)) => a == b || (!(bare(a) && bare(b)) && plain(a).eq(plain(b))),
        _ => plain(&input_text(a)).eq(plain(&input_text(b))),
    }
}

/// Whether `text` is its own [`plain`] form: ASCII with no spacing and no capitals.
fn bare(text: &str) -> bool {
    text.bytes()
        .all(|b| b.is_ascii_graphic() && !b.is_ascii_uppercase())
}

/// A text's characters with case and runs of spacing set aside: folded, each run of spacing
/// one space, none at either end.
fn plain(text: &str) -> impl Iterator<Item = char> + '_ {
    let mut spacing = false;
    text.trim()
        .chars()
        .filter_map(move |c| match c.is_whitespace() {
            true => (!std::mem::replace(&mut spacing, true)).then_some(' '),
            false => {
                spacing = false;
                Some(crate::text::fold_case(c))
            }
        })
}

#[cfg(test)]
mod tests {
    use crate::json;

    #[test]
    fn an_input_repeats_another_whatever_its_case_and_spacing() {
        let same = |a, b| super::same_input(&a, &b);
        assert!(same(json!("Apple  CEO"), json!(" apple\tceo\n")));
        assert!(same(json!("ÉTÉ Москва"), json!("été москва")));
        assert!(same(json!({"q": "X"}), json!({"q": "X"})));
        assert!(!same(json!("token-1"), json!("token-2")));
        assert!(!same(json!("a b"), json!("ab")));
        assert!(!same(json!("a"), json!("a b")));
        assert!(!same(json!({"q": "X"}), json!({"q": "Y"})));
    }
}
