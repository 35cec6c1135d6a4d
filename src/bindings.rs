//! The JavaScript API: the only file (with the JS model and JS tools below) that touches JS.
//!
//! ```js
//! import init, { Agent, scenarios } from "./pkg/tao_agent.js";
//! await init();
//! const agent = new Agent({ scenario: "apple-ceo", delayMs: 30 });
//! agent.registerTool({ name: "docs", description: "Searches our docs" }, async (q) => "...");
//! const trajectory = await agent.run("What is ...?", { onEvent: (e) => console.log(e), signal });
//! ```
//!
//! Values cross the boundary as JSON (`serde_json` here, `JSON.parse` there): the core already
//! speaks JSON for trajectories, so this costs no extra code in the wasm. Futures here are not
//! `Send`: they hold JS values, and a browser tab has one thread.

use crate::agent::{Agent, Config};
use crate::error::Error;
use crate::format::{Format, Lang};
use crate::host::{Host, LocalBoxFuture};
use crate::json::FromJson;
use crate::llm::scripted::{Policy, Scripted};
use crate::llm::{Model, OnDelta, Reply, Request};
use crate::scenarios;
use crate::tools::{Registry, Tool, ToolError, ToolSpec};
use crate::trajectory::Trajectory;
use js_sys::{Array, Function, Object, Promise, Reflect, JSON};
use serde::Serialize;
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** Settings of an Agent; every field is optional. */
export interface AgentConfig {
  /** Prompt format: "mrkl" (Thought/Action/Action Input) or "paper" (Action n: Tool[input]). Default: the scenario's, else "mrkl". */
  format?: "mrkl" | "paper";
  /** Prompt language. Default "en". */
  lang?: "en" | "zh";
  /** Steps before the run stops without an answer. Default 8 (or the scenario's). */
  maxSteps?: number;
  /** How often an unreadable reply is asked again before it becomes a repair observation. Default 1. */
  retries?: number;
  /** A built-in scenario: its tools, and (without `model`) its scripted model. */
  scenario?: string;
  /** Built-in tools to enable: "search", "lookup", "calculator". Default: the scenario's. */
  tools?: string[];
  /** Replies for the scripted model to replay in order (deterministic replay, no key). */
  replies?: string[];
  /** Milliseconds between streamed deltas of the scripted model. Default 0. */
  delayMs?: number;
  /** A model as a JS function: chat messages in, reply text out. */
  model?: (messages: TaoMessage[], options: { stop: string[]; signal?: AbortSignal }) => string | Promise<string>;
}
export interface TaoMessage { role: "system" | "user" | "assistant"; content: string; }
export interface ToolSpecInit { name: string; description: string; parameters?: object; }
export interface RunOptions { onEvent?: (event: TaoEvent) => void; signal?: AbortSignal; }
export type TaoEvent =
  | { type: "step"; index: number }
  | { type: "token"; index: number; text: string }
  | { type: "thought"; index: number; text: string }
  | { type: "action"; index: number; tool: string; input: unknown }
  | { type: "observation"; index: number; text: string }
  | { type: "repair"; index: number; why: string; message: string }
  | { type: "note"; index: number; text: string }
  | { type: "answer"; index: number; text: string }
  | { type: "stopped"; reason: StopReason; message: string | null };
export type StopReason = "answer" | "max_steps" | "aborted" | "error";
export interface TaoStep {
  index: number; thought: string; action: { tool: string; input: unknown } | null;
  answer: string | null; observation: string | null; raw: string;
  repair: { why: string; message: string } | null; notes: string[];
  retries: { raw: string; why: string; message: string }[];
  timing: { model_ms: number; tool_ms: number };
  usage: { prompt_tokens: number; completion_tokens: number } | null;
}
export interface Trajectory {
  format: "tao-trajectory"; version: 1; task: string; react_format: string; lang: string; model: string;
  steps: TaoStep[]; answer: string | null; stop: { reason: StopReason; message: string | null } | null;
  stats: { n_calls: number; n_badcalls: number; steps: number; elapsed_ms: number; prompt_tokens: number; completion_tokens: number };
}
export interface ScenarioInfo { name: string; title: string; description: string; task: string; format: "mrkl" | "paper"; maxSteps: number | null; tools: string[]; }
"#;

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// The version of tao.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").into()
}

/// The built-in scenarios, with texts in `lang` ("en" or "zh").
#[wasm_bindgen(unchecked_return_type = "ScenarioInfo[]")]
pub fn scenarios(lang: Option<String>) -> Result<JsValue, JsError> {
    let lang = lang
        .as_deref()
        .and_then(Lang::from_name)
        .unwrap_or(Lang::En);
    let list: Vec<Value> = scenarios::all()
        .iter()
        .map(|s| {
            serde_json::json!({
                "name": s.name, "title": s.title.get(lang), "description": s.description.get(lang),
                "task": s.task(lang), "format": s.format, "maxSteps": s.max_steps, "tools": s.tools,
            })
        })
        .collect();
    to_js(&list)
}

/// Reads a trajectory file (JSON text); throws an Error saying what is wrong with it.
#[wasm_bindgen(js_name = parseTrajectory, unchecked_return_type = "Trajectory")]
pub fn parse_trajectory(text: &str) -> Result<JsValue, JsError> {
    let trajectory = Trajectory::from_json(text).map_err(|e| JsError::new(&e.message))?;
    to_js(&trajectory)
}

/// A ReAct agent. Each `run` builds a fresh loop from these settings, so runs do not share
/// tool state.
#[wasm_bindgen(js_name = Agent)]
pub struct JsAgent {
    settings: Settings,
    js_tools: Rc<RefCell<Vec<(ToolSpec, Function)>>>,
}

#[derive(Clone)]
struct Settings {
    config: Config,
    scenario: Option<scenarios::Scenario>,
    tools: Option<Vec<String>>,
    delay_ms: u32,
    model: Option<Function>,
    replies: Option<Vec<String>>,
}

#[wasm_bindgen(js_class = Agent)]
impl JsAgent {
    /// A new agent; throws an Error naming any setting it cannot use.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "AgentConfig | undefined")] config: JsValue,
    ) -> Result<JsAgent, JsError> {
        let settings = read_settings(&config).map_err(|e| JsError::new(&e.message))?;
        Ok(JsAgent {
            settings,
            js_tools: Rc::default(),
        })
    }

    /// Adds a tool implemented in JavaScript: `fn(input)` returns the observation (a string,
    /// or a value shown as JSON), or a Promise of it; a thrown error becomes an observation.
    #[wasm_bindgen(js_name = registerTool)]
    pub fn register_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ToolSpecInit")] spec: JsValue,
        #[wasm_bindgen(unchecked_param_type = "(input: unknown) => unknown")] function: Function,
    ) -> Result<(), JsError> {
        let json = JSON::stringify(&spec)
            .ok()
            .and_then(|s| s.as_string())
            .unwrap_or_default();
        let spec = serde_json::from_str::<Value>(&json)
            .map_err(|e| e.to_string())
            .and_then(|spec| ToolSpec::from_value(&spec))
            .map_err(|e| {
                JsError::new(&format!(
                    "registerTool needs {{name, description, parameters?}}: {e}"
                ))
            })?;
        if spec.name.trim().is_empty() || spec.name.contains(char::is_whitespace) {
            return Err(JsError::new(
                "registerTool: the tool name must be one word, e.g. \"search_docs\"",
            ));
        }
        let mut tools = self.js_tools.borrow_mut();
        tools.retain(|(s, _)| !s.name.eq_ignore_ascii_case(&spec.name));
        tools.push((spec, function));
        Ok(())
    }

    /// Runs `task`; resolves with the trajectory (also when aborted or when the model fails:
    /// `stop.reason` says which), and calls `onEvent` for each event as the run streams.
    #[wasm_bindgen(unchecked_return_type = "Promise<Trajectory>")]
    pub fn run(
        &self,
        task: String,
        #[wasm_bindgen(unchecked_param_type = "RunOptions | undefined")] options: JsValue,
    ) -> Promise {
        let settings = self.settings.clone();
        let js_tools = self.js_tools.borrow().clone();
        future_to_promise(async move {
            let on_event = get(&options, "onEvent").dyn_into::<Function>().ok();
            let signal = get(&options, "signal")
                .dyn_into::<web_sys::AbortSignal>()
                .ok();
            let agent = build(settings, js_tools, signal.clone())
                .map_err(|e| JsValue::from(JsError::new(&e.message)))?;
            // The AbortSignal sets the loop's abort flag; the closure must live as long as the
            // run, so it is kept here and removed at the end.
            let abort = agent.abort.clone();
            let listener = Closure::<dyn FnMut()>::new(move || abort.abort());
            if let Some(signal) = &signal {
                let _ = signal
                    .add_event_listener_with_callback("abort", listener.as_ref().unchecked_ref());
            }
            if signal.as_ref().is_some_and(|s| s.aborted()) {
                agent.abort.abort();
            }
            let trajectory = agent
                .run(&task, &mut |event| {
                    // Converted only when someone listens; an exception in the page's handler
                    // must not stop the agent.
                    if let Some(f) = &on_event {
                        if let Ok(value) = to_js(event) {
                            let _ = f.call1(&JsValue::NULL, &value);
                        }
                    }
                })
                .await;
            if let Some(signal) = &signal {
                let _ = signal.remove_event_listener_with_callback(
                    "abort",
                    listener.as_ref().unchecked_ref(),
                );
            }
            to_js(&trajectory).map_err(JsValue::from)
        })
    }
}

fn read_settings(config: &JsValue) -> Result<Settings, Error> {
    let text = |key: &str| get(config, key).as_string();
    let number = |key: &str| -> Result<Option<u32>, Error> {
        let v = get(config, key);
        if v.is_undefined() || v.is_null() {
            return Ok(None);
        }
        match v.as_f64() {
            Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= 1e6 => Ok(Some(n as u32)),
            _ => Err(Error::config(format!(
                "{key} must be a whole number from 0 to 1000000"
            ))),
        }
    };
    let scenario = text("scenario")
        .map(|name| scenarios::get(&name))
        .transpose()?;
    let mut config_out = Config::default();
    if let Some(s) = &scenario {
        config_out.format = Format::from_name(&s.format).unwrap_or(Format::Mrkl);
        config_out.max_steps = s.max_steps.unwrap_or(config_out.max_steps);
    }
    if let Some(name) = text("format") {
        config_out.format = Format::from_name(&name).ok_or_else(|| {
            Error::config(format!(
                "unknown format \"{name}\"; use \"mrkl\" or \"paper\""
            ))
        })?;
    }
    if let Some(name) = text("lang") {
        config_out.lang = Lang::from_name(&name).ok_or_else(|| {
            Error::config(format!("unknown lang \"{name}\"; use \"en\" or \"zh\""))
        })?;
    }
    if let Some(n) = number("maxSteps")? {
        if n == 0 {
            return Err(Error::config("maxSteps must be at least 1"));
        }
        config_out.max_steps = n;
    }
    if let Some(n) = number("retries")? {
        config_out.retries = n.min(5);
    }
    let tools = string_array(config, "tools", "tools must be an array of tool names")?;
    let model = get(config, "model");
    let model = if model.is_undefined() || model.is_null() {
        None
    } else {
        Some(model.dyn_into::<Function>().map_err(|_| {
            Error::config(
                "model must be a function (messages, options) => string | Promise<string>",
            )
        })?)
    };
    let replies = string_array(config, "replies", "replies must be an array of strings")?;
    if scenario.is_none() && model.is_none() && replies.is_none() {
        return Err(Error::config(
            "give a scenario or replies (for the offline scripted model), or a model function",
        ));
    }
    Ok(Settings {
        config: config_out,
        scenario,
        tools,
        delay_ms: number("delayMs")?.unwrap_or(0),
        model,
        replies,
    })
}

/// The optional array of strings `config[key]`; `problem` is the error when it is something else.
fn string_array(config: &JsValue, key: &str, problem: &str) -> Result<Option<Vec<String>>, Error> {
    let value = get(config, key);
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    let array = value
        .dyn_into::<Array>()
        .map_err(|_| Error::config(problem))?;
    Ok(Some(
        array
            .iter()
            .map(|v| v.as_string().unwrap_or_default())
            .collect(),
    ))
}

/// Assembles the loop for one run: built-in and JS tools, and the JS or scripted model.
fn build(
    settings: Settings,
    js_tools: Vec<(ToolSpec, Function)>,
    signal: Option<web_sys::AbortSignal>,
) -> Result<Agent, Error> {
    let host: Rc<dyn Host> = Rc::new(WebHost);
    let lang = settings.config.lang;
    let builtin = settings
        .tools
        .clone()
        .or_else(|| settings.scenario.as_ref().map(|s| s.tools.clone()))
        .unwrap_or_default();
    let mut tools: Registry = crate::tools::builtin(&builtin, lang.name())?;
    for (spec, function) in js_tools {
        tools.register(Rc::new(JsTool { spec, function }));
    }
    let (format, delay_ms) = (settings.config.format, settings.delay_ms);
    let scripted = |name: &str, policy: Policy| -> Box<dyn Model> {
        let mut model = Scripted::new(name, policy, format, lang, host.clone());
        model.delay_ms = delay_ms;
        Box::new(model)
    };
    let model = match (settings.model, settings.replies, &settings.scenario) {
        (Some(function), _, _) => Box::new(JsModel { function, signal }),
        (None, Some(replies), _) => scripted("replay", Policy::Replay(replies)),
        (None, None, Some(scenario)) => {
            scripted(&scenario.name, Policy::Rules(scenario.policy.clone()))
        }
        (None, None, None) => {
            return Err(Error::config(
                "give a scenario, replies or a model function",
            ))
        }
    };
    Ok(Agent::new(settings.config, model, tools, host))
}

/// The browser's clock and timer.
struct WebHost;

impl Host for WebHost {
    fn now_ms(&self) -> f64 {
        // performance.now() where there is one (pages, workers), else Date.now().
        let performance = get(&js_sys::global(), "performance");
        get(&performance, "now")
            .dyn_into::<Function>()
            .ok()
            .and_then(|now| now.call0(&performance).ok())
            .and_then(|v| v.as_f64())
            .unwrap_or_else(js_sys::Date::now)
    }

    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        let promise = Promise::new(&mut |resolve, _reject| {
            if let Ok(set_timeout) = get(&js_sys::global(), "setTimeout").dyn_into::<Function>() {
                let _ = set_timeout.call2(&JsValue::NULL, &resolve, &JsValue::from(ms));
            } else {
                let _ = resolve.call0(&JsValue::NULL);
            }
        });
        Box::pin(async move {
            let _ = JsFuture::from(promise).await;
        })
    }
}

/// A model given as a JS function `(messages, {stop, signal}) => string | Promise<string>`.
struct JsModel {
    function: Function,
    signal: Option<web_sys::AbortSignal>,
}

impl Model for JsModel {
    fn name(&self) -> String {
        let name = self.function.name().as_string().unwrap_or_default();
        if name.is_empty() {
            "js".into()
        } else {
            format!("js:{name}")
        }
    }

    fn complete<'a>(
        &'a self,
        request: Request<'a>,
        on_delta: OnDelta<'a>,
    ) -> LocalBoxFuture<'a, Result<Reply, Error>> {
        Box::pin(async move {
            let messages = to_js(request.messages)
                .map_err(|_| Error::model("could not pass the prompt to the JS model"))?;
            let options = Object::new();
            let _ = Reflect::set(
                &options,
                &"stop".into(),
                &to_js(request.stop).unwrap_or(JsValue::NULL),
            );
            if let Some(signal) = &self.signal {
                let _ = Reflect::set(&options, &"signal".into(), signal);
            }
            let returned = self
                .function
                .call2(&JsValue::NULL, &messages, &options)
                .map_err(|e| Error::model(format!("the JS model threw: {}", describe(&e))))?;
            let value = match returned.dyn_into::<Promise>() {
                // A model that never answers must not outlive an abort: race it with the signal.
                Ok(promise) => JsFuture::from(race_with_abort(promise, self.signal.as_ref()))
                    .await
                    .map_err(|e| Error::model(format!("the JS model failed: {}", describe(&e))))?,
                Err(value) => value,
            };
            if self.signal.as_ref().is_some_and(|s| s.aborted()) {
                return Err(Error::new(
                    crate::error::ErrorKind::Aborted,
                    "aborted by the user",
                ));
            }
            let text = value.as_string().ok_or_else(|| {
                Error::model(format!(
                    "the JS model must return a string (or a Promise of one); it returned {}",
                    type_of(&value)
                ))
            })?;
            on_delta(&text);
            Ok(Reply { usage: None })
        })
    }
}

/// A tool implemented by a JS function.
struct JsTool {
    spec: ToolSpec,
    function: Function,
}

impl Tool for JsTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn call<'a>(&'a self, input: &'a Value) -> LocalBoxFuture<'a, Result<String, ToolError>> {
        Box::pin(async move {
            let argument = to_js(input)
                .map_err(|_| ToolError::Failed("could not pass the input to the tool".into()))?;
            let name = &self.spec.name;
            let returned = self
                .function
                .call1(&JsValue::NULL, &argument)
                .map_err(|e| ToolError::Failed(format!("{name} threw: {}", describe(&e))))?;
            let value = match returned.dyn_into::<Promise>() {
                Ok(promise) => JsFuture::from(promise)
                    .await
                    .map_err(|e| ToolError::Failed(format!("{name} failed: {}", describe(&e))))?,
                Err(value) => value,
            };
            Ok(match value.as_string() {
                Some(text) => text,
                None if value.is_undefined() => String::new(),
                None => JSON::stringify(&value)
                    .ok()
                    .and_then(|s| s.as_string())
                    .unwrap_or_default(),
            })
        })
    }
}

/// `Promise.race([promise, <resolves on abort>])`.
fn race_with_abort(promise: Promise, signal: Option<&web_sys::AbortSignal>) -> Promise {
    let Some(signal) = signal else { return promise };
    let aborted = Promise::new(&mut |resolve, _reject| {
        if signal.aborted() {
            let _ = resolve.call0(&JsValue::NULL);
        } else {
            let _ = signal.add_event_listener_with_callback("abort", &resolve);
        }
    });
    Promise::race(&Array::of2(&promise, &aborted))
}

/// A Rust value as a plain JS value, through JSON.
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    let json = serde_json::to_string(value).map_err(|e| JsError::new(&e.to_string()))?;
    JSON::parse(&json).map_err(|_| JsError::new("could not convert a value for JavaScript"))
}

fn get(object: &JsValue, key: &str) -> JsValue {
    if object.is_object() || object.is_function() {
        Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

/// The message of a thrown JS value.
fn describe(error: &JsValue) -> String {
    if let Some(e) = error.dyn_ref::<js_sys::Error>() {
        return String::from(e.message());
    }
    error.as_string().unwrap_or_else(|| type_of(error))
}

fn type_of(value: &JsValue) -> String {
    value
        .js_typeof()
        .as_string()
        .unwrap_or_else(|| "a value".into())
}
