//! The `Agent` class: settings checked at construction, JS tools registered on it, and each
//! `run` building a fresh loop from them (so runs do not share tool state).

use super::host::WebHost;
use super::js_model::{thrown, JsModel};
use super::js_tool::JsTool;
#[cfg(not(feature = "providers"))]
use super::net::{NetModel, Source};
use super::{get, json_of, read_settings, to_js, OnAbort};
use crate::agent::Agent;
use crate::chat::{Listed, ToolSpec};
use crate::error::Error;
use crate::event::Event;
use crate::json::Value;
use crate::llm::Model;
use crate::settings::{Parts, Settings};
use crate::to_json::to_string;
use crate::tools::Tool;
use crate::trajectory::Trajectory;
use js_sys::{Function, Promise, JSON};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

// An event for the run's listener: its JSON, parsed and handed over in one call.
#[wasm_bindgen(
    inline_js = "export function emit(listener, event) { listener(JSON.parse(event)); }"
)]
extern "C" {
    #[wasm_bindgen(catch)]
    fn emit(listener: &Function, event: &str) -> Result<(), JsValue>;
}

/// A ReAct agent.
#[wasm_bindgen(js_name = Agent)]
pub struct JsAgent {
    settings: Rc<Settings>,
    /// The `model` setting when it is a JS function (JSON cannot carry it).
    model: Option<Function>,
    /// The tools registered; each run is given its own of each, holding the run's signal.
    js_tools: RefCell<Vec<Rc<JsTool>>>,
    /// The MCP servers' tools (the `mcp` setting), once listed: at the first run, or by
    /// `tools()`; later runs use the same connections.
    remote: Remote,
}

/// The MCP servers' tools, once listed (shared with the runs that list them).
type Remote = Rc<RefCell<Option<Vec<Rc<JsTool>>>>>;

#[wasm_bindgen(js_class = Agent)]
impl JsAgent {
    /// A new agent; throws an Error naming any setting it cannot use.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "AgentConfig")] config: JsValue,
    ) -> Result<JsAgent, JsValue> {
        let model = get(&config, "model").dyn_into::<Function>().ok();
        let settings = read_settings(&config)?;
        settings.require_model(model.is_some())?;
        Ok(JsAgent {
            settings: Rc::new(settings),
            model,
            js_tools: RefCell::default(),
            remote: Rc::default(),
        })
    }

    /// Adds a tool implemented in JavaScript: `fn(input, {signal})` returns the observation (a
    /// string, `{observation, fuel}`, or a value shown as JSON), or a Promise of it; a thrown
    /// error becomes an observation; `signal` aborts when the run is stopped. `input` is checked
    /// against `parameters` first; a tool declared without `parameters` receives the input
    /// unchecked, as the model wrote it.
    #[wasm_bindgen(js_name = registerTool)]
    pub fn register_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ToolSpecInit")] spec: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ToolFunction")] function: Function,
    ) -> Result<(), JsValue> {
        let tool = js_tool(&spec, function)?;
        let mut tools = self.js_tools.borrow_mut();
        tools.retain(|t| !t.spec.name.eq_ignore_ascii_case(&tool.spec.name));
        tools.push(Rc::new(tool));
        Ok(())
    }

    /// What the model receives at the first step of `task`: the messages, and the tool specs
    /// sent alongside them in native tool calling (empty in the text formats, where the tools
    /// are described in the messages). This is exactly how the model sees the tools.
    #[wasm_bindgen(unchecked_return_type = "{ messages: TaoMessage[]; tools: ToolSpecInit[] }")]
    pub fn prompt(&self, task: String) -> Result<JsValue, JsValue> {
        let agent = self.build(None, None)?;
        request(&agent, &agent.start(&task))
    }

    /// Every tool the agent has, as the model is told of it (with `needsApproval`): the
    /// built-in ones, those registered, and the MCP servers' (listed now, if no run has yet;
    /// rejects with the first server's error).
    #[wasm_bindgen(unchecked_return_type = "Promise<ToolSpecInit[]>")]
    pub fn tools(&self) -> Promise {
        let recipe = self.recipe();
        super::promise(async move {
            recipe.connect(&None).await?;
            let agent = recipe.build(None, None)?;
            let tools = agent.tools.tools();
            to_js(&tools.iter().map(|t| Listed(t.spec())).collect::<Vec<_>>())
        })
    }

    /// Runs `task`; resolves with the trajectory (also when aborted or when the model fails:
    /// `stop.reason` says which), and calls `onEvent` for each event as the run streams. With
    /// `pause` (an AbortSignal), the run stops at the next pause point once it is aborted and
    /// resolves with the unfinished trajectory (`stop` is null), ready for `resume` or `next`.
    #[wasm_bindgen(unchecked_return_type = "Promise<Trajectory>")]
    pub fn run(
        &self,
        task: String,
        #[wasm_bindgen(unchecked_param_type = "RunOptions | undefined")] options: JsValue,
    ) -> Promise {
        let trajectory = self.build(None, None).map(|agent| agent.start(&task));
        self.drive(trajectory, options, Drive::Resume)
    }

    /// A new trajectory for `task`, paused before its first model call: `prompt(trajectory)`
    /// shows what will be sent, and `next` sends it.
    #[wasm_bindgen(unchecked_return_type = "Trajectory")]
    pub fn start(&self, task: String) -> Result<JsValue, JsValue> {
        to_js(&self.build(None, None)?.start(&task))
    }

    /// Advances `trajectory` to its next pause point (see the studio's *Step*): calls the
    /// model when the trajectory waits before a model call, runs the tool when an action waits
    /// for its observation. Resolves with the new trajectory; the one given is not changed.
    #[wasm_bindgen(unchecked_return_type = "Promise<Trajectory>")]
    pub fn next(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Trajectory")] trajectory: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RunOptions | undefined")] options: JsValue,
    ) -> Promise {
        self.drive(read_trajectory(&trajectory), options, Drive::Next)
    }

    /// Goes on from `trajectory` (paused, imported, edited, forked, or ended by an abort, an
    /// error or the step budget) until it ends or `pause` fires. Resolves like `run`.
    #[wasm_bindgen(unchecked_return_type = "Promise<Trajectory>")]
    pub fn resume(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Trajectory")] trajectory: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RunOptions | undefined")] options: JsValue,
    ) -> Promise {
        self.drive(read_trajectory(&trajectory), options, Drive::Resume)
    }

    /// The exact request of step `index` of `trajectory` (1-based; by default the next step):
    /// the messages, and the tool specs sent alongside them in native tool calling.
    #[wasm_bindgen(
        js_name = promptAt,
        unchecked_return_type = "{ messages: TaoMessage[]; tools: ToolSpecInit[] }"
    )]
    pub fn prompt_at(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Trajectory")] trajectory: JsValue,
        index: Option<u32>,
    ) -> Result<JsValue, JsValue> {
        let agent = self.build(None, None)?;
        let t = read_trajectory(&trajectory)?;
        request(&agent, &t.before(index.unwrap_or(t.steps.len() as u32 + 1)))
    }

    /// `trajectory` as training data: one record with each step's exact prompt (rendered as
    /// `promptAt` renders it, with this agent's tools and exemplars), its reply, action and
    /// observation, and `extra`'s fields (`reward`, `gold`, `em`, `f1`, ...) added last.
    #[wasm_bindgen(js_name = trainingRecord, unchecked_return_type = "TrainingRecord")]
    pub fn training_record(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Trajectory")] trajectory: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | undefined")]
        extra: JsValue,
    ) -> Result<JsValue, JsValue> {
        let agent = self.build(None, None)?;
        let t = read_trajectory(&trajectory)?;
        let extra = match json_of(&extra) {
            Value::Object(fields) => fields,
            _ => Default::default(),
        };
        to_js(&crate::training::record(&t, &agent, &extra))
    }
}

/// How far `drive` takes a trajectory.
#[derive(Clone, Copy, PartialEq)]
enum Drive {
    /// To the next pause point.
    Next,
    /// To the end, or until the `pause` signal fires.
    Resume,
}

impl JsAgent {
    /// Takes `trajectory` as far as `how` says, with `options`' listener, abort signal,
    /// approval and pause signal, and resolves with it (or rejects with the error that
    /// stood in its place).
    fn drive(
        &self,
        trajectory: Result<Trajectory, Error>,
        options: JsValue,
        how: Drive,
    ) -> Promise {
        let option = |key| get(&options, key);
        let on_event = option("onEvent").dyn_into::<Function>().ok();
        let signal = option("signal").dyn_into::<web_sys::AbortSignal>().ok();
        let pause = option("pause").dyn_into::<web_sys::AbortSignal>().ok();
        let approve = option("approve").dyn_into::<Function>().ok();
        let recipe = self.recipe();
        super::promise(async move {
            // The MCP servers' tools are listed before the first run's loop is assembled.
            let mut trajectory = trajectory?;
            recipe.connect(&signal).await?;
            let agent = recipe.build(signal.clone(), approve)?;
            // The AbortSignal sets the loop's abort flag while the run lasts.
            let abort = agent.abort.clone();
            let _listener = signal.map(|s| OnAbort::new(&s, move || abort.abort()));
            let mut on_event = |event: &Event| {
                // Converted only when someone listens; an exception in the page's handler
                // must not stop the agent.
                if let Some(f) = &on_event {
                    let _ = emit(f, &crate::to_json::to_string(event));
                }
            };
            match how {
                Drive::Next => agent.next(&mut trajectory, &mut on_event).await,
                Drive::Resume => {
                    let paused = || pause.as_ref().is_some_and(|p| p.aborted());
                    agent.resume(&mut trajectory, &paused, &mut on_event).await
                }
            }
            to_js(&trajectory)
        })
    }

    /// The loop as it stands, with no run's signal or approval (for the prompts and records).
    fn build(
        &self,
        signal: Option<web_sys::AbortSignal>,
        approve: Option<Function>,
    ) -> Result<Agent, Error> {
        self.recipe().build(signal, approve)
    }

    /// What a run's loop is assembled from (the future of a run holds it).
    fn recipe(&self) -> Recipe {
        Recipe {
            settings: self.settings.clone(),
            model: self.model.clone(),
            tools: self.js_tools.borrow().clone(),
            remote: self.remote.clone(),
        }
    }
}

/// What a run's loop is assembled from: the agent's settings, model function and tools.
struct Recipe {
    settings: Rc<Settings>,
    model: Option<Function>,
    tools: Vec<Rc<JsTool>>,
    remote: Remote,
}

impl Recipe {
    /// Lists the MCP servers' tools, unless there are none or they are listed already: the
    /// providers' module speaks MCP (or this core, in a build that carries the providers).
    async fn connect(&self, signal: &Option<web_sys::AbortSignal>) -> Result<(), Error> {
        let Some(servers) = &self.settings.mcp else {
            return Ok(());
        };
        if self.remote.borrow().is_some() {
            return Ok(());
        }
        let mut taken = self.settings.tool_names();
        taken.extend(self.tools.iter().map(|t| t.spec.name.clone()));
        // A server has the tools' time limit to list them; Stop stops it.
        let limit = self.settings.config.tool_timeout_ms;
        let config =
            crate::to_json::Object(&[("servers", servers), ("taken", &taken), ("limitMs", &limit)]);
        let config = to_string(&config);
        #[cfg(feature = "providers")]
        let listing = super::mcp::mcp_tools(config, signal.clone());
        #[cfg(not(feature = "providers"))]
        let listing = {
            let list = super::modules::export("tao_net", "the providers' module", "mcpTools");
            let list = list.await?;
            let called = list.call2(&JsValue::NULL, &config.into(), &signal.clone().into());
            Promise::resolve(&called.map_err(|e| thrown(&e, "the MCP client failed"))?)
        };
        let listed = JsFuture::from(listing)
            .await
            .map_err(|e| thrown(&e, "the MCP client failed"))?;
        let mut tools = Vec::new();
        for entry in js_sys::Array::from(&listed).iter() {
            let tool = js_tool(&get(&entry, "spec"), get(&entry, "call").into())?;
            let server = get(&entry, "server").as_string();
            tools.push(Rc::new(JsTool { server, ..tool }));
        }
        *self.remote.borrow_mut() = Some(tools);
        Ok(())
    }

    /// The loop for one run: the settings, with the page's fetch, JS tools and JS model.
    fn build(
        &self,
        signal: Option<web_sys::AbortSignal>,
        approve: Option<Function>,
    ) -> Result<Agent, Error> {
        let mut tools = self.tools.clone();
        if let Some(remote) = &*self.remote.borrow() {
            tools.extend_from_slice(remote);
        }
        let model = self
            .model
            .clone()
            .map(|function| JsModel::new(function, signal.clone()))
            .map(|model| Box::new(model) as Box<dyn Model>);
        // A provider is reached through its module, loaded at the first call (this core was
        // built without the providers: see `super::net`); so is the model in the tab.
        #[cfg(not(feature = "providers"))]
        let model = (self.settings.endpoint.clone().map(Source::Endpoint))
            .or_else(|| self.settings.local.clone().map(Source::Local))
            .map(|source| Box::new(NetModel::new(source, signal.clone())) as Box<dyn Model>)
            .or(model);
        self.settings.agent(Parts {
            // An approval names the MCP server a tool is one of.
            host: Rc::new(WebHost {
                approve,
                servers: (tools.iter())
                    .filter_map(|t| Some((t.spec.name.clone(), t.server.clone()?)))
                    .collect(),
            }),
            // Only the providers and the built-in tools reach the network (the core built
            // without them leaves it to their modules).
            #[cfg(any(feature = "providers", feature = "builtin-tools"))]
            transport: Some(Rc::new(super::fetch::WebTransport {
                signal: signal.clone(),
            })),
            #[cfg(not(any(feature = "providers", feature = "builtin-tools")))]
            transport: None,
            // Each JS tool is handed the run's signal.
            tools: (tools.iter())
                .map(|t| Rc::new(t.for_run(&signal)) as Rc<dyn Tool>)
                .collect(),
            // The built-in tools' code, when this core does not carry it: the tools' module.
            #[cfg(not(feature = "builtin-tools"))]
            elsewhere: Some(Rc::new(super::module_tool::FromModule {
                signal: signal.clone(),
            })),
            #[cfg(feature = "builtin-tools")]
            elsewhere: None,
            model,
        })
    }
}

/// A JS tool from its spec (`{name, description, parameters?}`) and function.
fn js_tool(spec: &JsValue, function: Function) -> Result<JsTool, Error> {
    let value = json_of(spec);
    Ok(JsTool {
        spec: ToolSpec::registered(&value)?,
        function,
        unchecked: value.get("parameters").is_none(),
        signal: None,
        server: None,
    })
}

/// The request of the step `trajectory` waits for: the messages, and the tool specs sent
/// alongside them in native tool calling.
fn request(agent: &Agent, trajectory: &Trajectory) -> Result<JsValue, JsValue> {
    let (messages, tools) = (agent.prompt(trajectory), agent.tool_specs(trajectory));
    to_js(&crate::to_json::Object(&[
        ("messages", &messages),
        ("tools", &tools),
    ]))
}

/// A trajectory handed in from JS (one returned by `run`, edited, or imported), checked as a
/// trajectory file is.
fn read_trajectory(value: &JsValue) -> Result<Trajectory, Error> {
    let text = JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_default();
    let trajectory = Trajectory::from_json(&text)?;
    // Its prompts are rendered in its own language: the Chinese texts must be loaded.
    if trajectory.lang == crate::format::Lang::Zh {
        crate::zh::require()?;
    }
    Ok(trajectory)
}
