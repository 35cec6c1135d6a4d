//! The JavaScript API: with the fetch transport ([`fetch`]) and the JS model ([`js_model`]),
//! the only code that touches JS.
//!
//! ```js
//! import init, { Agent, scenarios } from "./pkg/tao_agent.js";
//! await init();
//! const agent = new Agent({ scenario: "apple-ceo", delayMs: 30 });
//! agent.registerTool({ name: "docs", description: "Searches our docs" }, async (q) => "...");
//! const trajectory = await agent.run("What is ...?", { onEvent: (e) => console.log(e), signal });
//! ```
//!
//! Values cross the boundary as JSON ([`crate::to_json`] here, `JSON.parse` there): the core already
//! speaks JSON for trajectories, so this costs no extra code in the wasm. Futures here are not
//! `Send`: they hold JS values, and a browser tab has one thread.

mod fetch;
mod js_model;

use crate::agent::{Agent, Config};
use crate::error::Error;
use crate::format::{Format, Lang};
use crate::host::{Host, LocalBoxFuture};
use crate::json::FromJson;
use crate::llm::http::{self, Api, HttpModel};
use crate::llm::scripted::{Policy, Scripted};
use crate::llm::Model;
use crate::scenarios;
use crate::to_json::{JsonWriter, ToJson};
use crate::tools::docs;
use crate::tools::wikipedia::{self, Wiki};
use crate::tools::{Registry, Tool, ToolError, ToolOutput, ToolSpec};
use crate::trajectory::Trajectory;
use fetch::WebTransport;
use js_model::JsModel;
use js_sys::{Array, Function, Promise, Reflect, JSON};
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** Settings of an Agent; every field is optional. */
export interface AgentConfig {
  /** Prompt format: "mrkl" (Thought/Action/Action Input), "paper" (Action n: Tool[input]), "tools" (native tool calling) or "auto" (native, falling back to mrkl). Default: the scenario's, else "mrkl". */
  format?: "mrkl" | "paper" | "tools" | "auto";
  /** Prompt language. Default "en". */
  lang?: "en" | "zh";
  /** Steps before the run stops without an answer. Default 8 (or the scenario's). */
  maxSteps?: number;
  /** How often an unreadable reply is asked again before it becomes a repair observation. Default 1. */
  retries?: number;
  /** A built-in scenario: its tools, and (without a provider or `model` function) its scripted model. */
  scenario?: string;
  /** Tools to enable: the built-ins "search", "lookup", "calculator", "search_docs", and names of tools added with registerTool. Default: the scenario's. */
  tools?: string[];
  /** Replies for the scripted model to replay in order (deterministic replay, no key). */
  replies?: string[];
  /** Milliseconds between streamed deltas of the scripted model. Default 0. */
  delayMs?: number;
  /** Where the model runs: "scripted" (offline, default), "openai" (any OpenAI-compatible endpoint), "ollama" (OpenAI-compatible at http://localhost:11434/v1) or "anthropic". */
  provider?: "scripted" | "openai" | "ollama" | "anthropic";
  /** The provider's base URL. Default https://api.openai.com/v1, http://localhost:11434/v1 or https://api.anthropic.com. */
  baseUrl?: string;
  /** The model: its name at the provider (e.g. "gpt-4o-mini"), or a JS function that plays the model. */
  model?: string | JsModelFunction;
  /** The API key. Kept in memory, sent only in the provider's auth header; never in events, trajectories or errors. */
  apiKey?: string;
  /** Sampling temperature. Default: the provider's. */
  temperature?: number;
  /** Most tokens per reply. Default: the provider's (Anthropic: 1024). */
  maxTokens?: number;
  /** What the `search_docs` tool searches: a list of pages, or the URL of a JSON file of them (fetched at the first search). Enable the tool with tools: [..., "search_docs"] */
  docs?: { title: string; url: string; text: string }[] | string;
  /** Where `search` and `lookup` read: "en" or "zh" (that Wikipedia), or a MediaWiki api.php URL. Default: the built-in offline pages. The API is called with origin=* (CORS). */
  wiki?: string;
  /** Milliseconds a tool call may take before it is abandoned with an error observation (a tool's own `timeoutMs` wins). Default 30000. */
  toolTimeoutMs?: number;
}
/** A model in JS: stream with `onDelta` (it returns false when tao has read enough) and/or return the reply. */
export type JsModelFunction = (messages: TaoMessage[], options: {
  stop: string[]; tools: ToolSpecInit[]; signal: AbortSignal; onDelta: (text: string) => boolean;
}) => JsModelReply | Promise<JsModelReply>;
export type JsModelReply = string | void | {
  text?: string; toolCalls?: { id?: string; name: string; arguments: object | string }[];
  usage?: { promptTokens: number; completionTokens: number };
};
/** What testConnection found. */
export interface ConnectionReport {
  model: string; reply: string; deltas: number; first_token_ms: number | null; total_ms: number;
  usage: { prompt_tokens: number; completion_tokens: number } | null; notes: string[];
}
export interface TaoMessage {
  role: "system" | "user" | "assistant" | "tool"; content: string;
  tool_calls?: { id: string; name: string; arguments: unknown }[]; tool_call_id?: string;
}
/** A tool: `parameters` is the JSON Schema of its input (inputs are checked against it before the call; without it, the model is told the tool takes one string, and the function receives the input unchecked, as the model wrote it: a string, or parsed JSON). */
export interface ToolSpecInit { name: string; description: string; parameters?: object; needsApproval?: boolean; timeoutMs?: number; }
/** What a tool function may return: the observation, or the observation with the fuel a sandboxed tool burned. */
export type ToolResult = string | { observation: string; fuel?: number } | unknown;
export interface RunOptions {
  onEvent?: (event: TaoEvent) => void; signal?: AbortSignal;
  /** Asked before each call of a tool with `needsApproval`; resolve true to run it. Without it, such calls are denied. */
  approve?: (request: { tool: string; input: unknown }) => boolean | Promise<boolean>;
}
export type TaoEvent =
  | { type: "step"; index: number }
  | { type: "token"; index: number; text: string }
  | { type: "thought"; index: number; text: string }
  | { type: "action"; index: number; tool: string; input: unknown }
  | { type: "approval"; index: number; tool: string; approved: boolean }
  | { type: "observation"; index: number; text: string; fuel: number | null }
  | { type: "repair"; index: number; why: string; message: string }
  | { type: "note"; index: number; text: string }
  | { type: "switch"; index: number; from: string; to: string; why: string }
  | { type: "answer"; index: number; text: string }
  | { type: "stopped"; reason: StopReason; message: string | null };
export type StopReason = "answer" | "max_steps" | "aborted" | "error";
export interface TaoStep {
  index: number; thought: string; action: { tool: string; input: unknown } | null;
  answer: string | null; observation: string | null; raw: string;
  repair: { why: string; message: string } | null; notes: string[];
  retries: { raw: string; why: string; message: string }[];
  timing: { model_ms: number; tool_ms: number; first_token_ms: number | null };
  usage: { prompt_tokens: number; completion_tokens: number } | null;
  saved_chars: number; switch: { from: string; to: string; why: string } | null;
  approved: boolean | null; fuel: number | null;
}
export interface Trajectory {
  format: "tao-trajectory"; version: 1; task: string; react_format: string; lang: string; model: string;
  steps: TaoStep[]; answer: string | null; stop: { reason: StopReason; message: string | null } | null;
  stats: { n_calls: number; n_badcalls: number; steps: number; elapsed_ms: number; prompt_tokens: number; completion_tokens: number; saved_chars: number };
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
    struct Info(scenarios::Scenario, Lang);
    impl ToJson for Info {
        fn write_json(&self, out: &mut JsonWriter) {
            let Info(s, lang) = self;
            out.object(&[
                ("name", &s.name),
                ("title", &s.title.get(*lang)),
                ("description", &s.description.get(*lang)),
                ("task", &s.task(*lang)),
                ("format", &s.format),
                ("maxSteps", &s.max_steps),
                ("tools", &s.tools),
            ]);
        }
    }
    let list: Vec<Info> = scenarios::all()
        .into_iter()
        .map(|s| Info(s, lang))
        .collect();
    to_js(&list)
}

/// Sends a tiny request to the configured provider and reports what came back (the reply,
/// latency, token counts); throws an Error naming the cause and the fix when it fails.
#[wasm_bindgen(js_name = testConnection, unchecked_return_type = "Promise<ConnectionReport>")]
pub fn test_connection(
    #[wasm_bindgen(unchecked_param_type = "AgentConfig")] config: JsValue,
) -> Promise {
    future_to_promise(async move {
        let error = |e: Error| JsValue::from(JsError::new(&e.message));
        let endpoint = read_settings(&config)
            .map_err(error)?
            .endpoint
            .ok_or_else(|| {
                error(Error::config(
                    "testConnection needs a provider: openai, ollama or anthropic",
                ))
            })?;
        let host: Rc<dyn Host> = Rc::new(WebHost { approve: None });
        let transport = Rc::new(WebTransport { signal: None });
        let model = HttpModel::new(endpoint, transport, host.clone());
        let report = crate::llm::connection::test_connection(&model, host.as_ref())
            .await
            .map_err(error)?;
        to_js(&report).map_err(JsValue::from)
    })
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
    js_tools: Rc<RefCell<Vec<JsTool>>>,
}

#[derive(Clone)]
struct Settings {
    config: Config,
    scenario: Option<scenarios::Scenario>,
    tools: Option<Vec<String>>,
    delay_ms: u32,
    model: Option<Function>,
    replies: Option<Vec<String>>,
    /// A provider over HTTP (its key included: this struct is never serialised or logged).
    endpoint: Option<http::Settings>,
    /// The MediaWiki that `search` and `lookup` read, instead of the built-in pages.
    wiki: Option<Wiki>,
    /// What `search_docs` searches.
    docs: Option<Docs>,
}

/// The embedder's documents: given in the settings, or the URL of a JSON file of them.
#[derive(Clone)]
enum Docs {
    Given(Vec<docs::Doc>),
    At(String),
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
    /// `{observation, fuel}`, or a value shown as JSON), or a Promise of it; a thrown error
    /// becomes an observation. `input` is checked against `parameters` first; a tool declared
    /// without `parameters` receives the input unchecked, as the model wrote it.
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
        let value = serde_json::from_str::<Value>(&json).unwrap_or_default();
        let unchecked = value.get("parameters").is_none();
        let spec = ToolSpec::from_value(&value).map_err(|e| {
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
        tools.retain(|t| !t.spec.name.eq_ignore_ascii_case(&spec.name));
        tools.push(JsTool {
            spec,
            function,
            unchecked,
        });
        Ok(())
    }

    /// What the model receives at the first step of `task`: the messages, and the tool specs
    /// sent alongside them in native tool calling (empty in the text formats, where the tools
    /// are described in the messages). This is exactly how the model sees the tools.
    #[wasm_bindgen(unchecked_return_type = "{ messages: TaoMessage[]; tools: ToolSpecInit[] }")]
    pub fn prompt(&self, task: String) -> Result<JsValue, JsError> {
        let js_tools = self.js_tools.borrow().clone();
        let agent = build(self.settings.clone(), js_tools, None, None)
            .map_err(|e| JsError::new(&e.message))?;
        let trajectory = agent.start(&task);
        let messages = agent.prompt(&trajectory);
        let tools: Vec<ToolSpec> = match agent.format_of(&trajectory).is_native() {
            true => agent.tools.specs().cloned().collect(),
            false => Vec::new(),
        };
        to_js(&crate::to_json::Object(&[
            ("messages", &messages),
            ("tools", &tools),
        ]))
    }

    /// Runs `task`; resolves with the trajectory (also when aborted or when the model fails:
    /// `stop.reason` says which), and calls `onEvent` for each event as the run streams.
    #[wasm_bindgen(unchecked_return_type = "Promise<Trajectory>")]
    pub fn run(
        &self,
        task: String,
        #[wasm_bindgen(unchecked_param_type = "RunOptions | undefined")] options: JsValue,
    ) -> Promise {
        let on_event = get(&options, "onEvent").dyn_into::<Function>().ok();
        let signal = get(&options, "signal")
            .dyn_into::<web_sys::AbortSignal>()
            .ok();
        let approve = get(&options, "approve").dyn_into::<Function>().ok();
        // The loop is assembled before the future starts, so the future holds only what the
        // run needs (size: every value an async block holds is part of its state machine).
        let js_tools = self.js_tools.borrow().clone();
        let agent = match build(self.settings.clone(), js_tools, signal.clone(), approve) {
            Ok(agent) => agent,
            Err(e) => return Promise::reject(&JsError::new(&e.message).into()),
        };
        future_to_promise(async move {
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

/// The `docs` setting: a URL, or a list of `{title, url, text}`.
fn read_docs(value: &JsValue) -> Result<Option<Docs>, Error> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    if let Some(url) = value.as_string() {
        return Ok(Some(Docs::At(url)));
    }
    let json = JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_default();
    let list = serde_json::from_str::<Value>(&json).unwrap_or_default();
    docs::read_docs(&list)
        .map(|list| Some(Docs::Given(list)))
        .map_err(|e| {
            Error::config(format!(
                "docs must be a list of {{title, url, text}} or a URL: {e}"
            ))
        })
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
                "unknown format \"{name}\"; use \"mrkl\", \"paper\", \"tools\" or \"auto\""
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
    if let Some(n) = number("toolTimeoutMs")? {
        config_out.tool_timeout_ms = n.max(1);
    }
    if let Some(n) = number("retries")? {
        config_out.retries = n.min(5);
    }
    let tools = string_array(config, "tools", "tools must be an array of tool names")?;
    let wiki = text("wiki")
        .map(|setting| Wiki::parse(&setting, config_out.lang.name()))
        .transpose()?;
    let docs = read_docs(&get(config, "docs"))?;
    let model = get(config, "model");
    let (model, model_name) = if model.is_function() {
        (Some(model.unchecked_into::<Function>()), None)
    } else if model.is_undefined() || model.is_null() {
        (None, None)
    } else {
        let name = model.as_string().ok_or_else(|| {
            Error::config("model must be the model's name at the provider, or a JS function (messages, options) => reply")
        })?;
        (
            None,
            Some(name.trim().to_string()).filter(|n| !n.is_empty()),
        )
    };
    let endpoint = read_endpoint(config, model_name)?;
    let replies = string_array(config, "replies", "replies must be an array of strings")?;
    if scenario.is_none() && model.is_none() && replies.is_none() && endpoint.is_none() {
        return Err(Error::config(
            "give a provider, a model function, a scenario or replies (for the offline scripted model)",
        ));
    }
    Ok(Settings {
        config: config_out,
        scenario,
        tools,
        delay_ms: number("delayMs")?.unwrap_or(0),
        wiki,
        docs,
        model,
        replies,
        endpoint,
    })
}

/// The provider settings, if a provider other than the scripted model is chosen.
fn read_endpoint(config: &JsValue, model: Option<String>) -> Result<Option<http::Settings>, Error> {
    let text = |key: &str| get(config, key).as_string().map(|s| s.trim().to_string());
    let provider = text("provider").unwrap_or_default().to_ascii_lowercase();
    if provider.is_empty() || provider == "scripted" {
        return Ok(None);
    }
    let api = Api::from_name(&provider).ok_or_else(|| {
        Error::config(format!(
            "unknown provider \"{provider}\"; use scripted, openai, ollama or anthropic"
        ))
    })?;
    let default_base = match (provider.as_str(), api) {
        ("ollama", _) => "http://localhost:11434/v1",
        (_, Api::OpenAi) => "https://api.openai.com/v1",
        (_, Api::Anthropic) => "https://api.anthropic.com",
    };
    let base_url = text("baseUrl")
        .filter(|b| !b.is_empty())
        .unwrap_or_else(|| default_base.into());
    if !base_url.starts_with("http://") && !base_url.starts_with("https://") {
        return Err(Error::config(format!(
            "baseUrl must start with http:// or https://, e.g. {default_base}"
        )));
    }
    let model = model.ok_or_else(|| {
        Error::config(format!(
            "give the model's name at {base_url}, e.g. \"gpt-4o-mini\", \"llama3.2\" or \"claude-sonnet-4-5\""
        ))
    })?;
    let key = text("apiKey").unwrap_or_default();
    if key.is_empty() && (api == Api::Anthropic || base_url.contains("api.openai.com")) {
        return Err(Error::config(format!(
            "{} needs an API key; paste it in the key field (it stays in this tab)",
            api.name()
        )));
    }
    let number = |key: &str, max: u32| -> Result<Option<f64>, Error> {
        let value = get(config, key);
        if value.is_undefined()
            || value.is_null()
            || value.as_string().is_some_and(|s| s.trim().is_empty())
        {
            return Ok(None);
        }
        let n = value
            .as_f64()
            // Read as a JSON value: typed float parsing would link float formatting (size).
            .or_else(|| {
                let text = value.as_string()?;
                serde_json::from_str::<serde_json::Value>(text.trim())
                    .ok()?
                    .as_f64()
            });
        match n {
            Some(n) if (0.0..=f64::from(max)).contains(&n) => Ok(Some(n)),
            _ => Err(Error::config(format!(
                "{key} must be a number from 0 to {max}"
            ))),
        }
    };
    Ok(Some(http::Settings {
        api,
        base_url,
        model,
        key,
        temperature: number("temperature", 2)?,
        max_tokens: number("maxTokens", 1_000_000)?.map(|n| n as u32),
    }))
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
    js_tools: Vec<JsTool>,
    signal: Option<web_sys::AbortSignal>,
    approve: Option<Function>,
) -> Result<Agent, Error> {
    let host: Rc<dyn Host> = Rc::new(WebHost { approve });
    let lang = settings.config.lang;
    let builtin = settings
        .tools
        .clone()
        .or_else(|| settings.scenario.as_ref().map(|s| s.tools.clone()))
        .unwrap_or_default();
    // Names of JS tools registered on the agent are theirs, not built-ins; `search_docs` is
    // made here when there are documents.
    let with_docs = settings.docs.is_some();
    let wants_docs = builtin.iter().any(|name| name == "search_docs");
    let builtin: Vec<String> = builtin
        .into_iter()
        .filter(|name| {
            !js_tools
                .iter()
                .any(|t| t.spec.name.eq_ignore_ascii_case(name))
        })
        .filter(|name| !(with_docs && name == "search_docs"))
        .collect();
    let mut tools: Registry = crate::tools::builtin(&builtin, lang.name())?;
    match settings.docs.clone().filter(|_| wants_docs) {
        Some(Docs::Given(list)) => tools.register(docs::tool(list)),
        Some(Docs::At(url)) => tools.register(docs::tool_from_url(
            &url,
            Rc::new(WebTransport {
                signal: signal.clone(),
            }),
        )),
        None => {}
    }
    // `search` and `lookup` over a live MediaWiki replace the built-in pages' versions.
    if let Some(wiki) = settings.wiki.clone() {
        let transport = Rc::new(WebTransport {
            signal: signal.clone(),
        });
        for tool in wikipedia::tools(wiki, transport) {
            if builtin
                .iter()
                .any(|n| n.eq_ignore_ascii_case(&tool.spec().name))
            {
                tools.register(tool);
            }
        }
    }
    for tool in js_tools {
        tools.register(Rc::new(tool));
    }
    let (format, delay_ms) = (settings.config.format, settings.delay_ms);
    let scripted = |name: &str, policy: Policy| -> Box<dyn Model> {
        let mut model = Scripted::new(name, policy, format, lang, host.clone());
        model.delay_ms = delay_ms;
        Box::new(model)
    };
    if let Some(endpoint) = settings.endpoint {
        let transport = Rc::new(WebTransport { signal });
        let model = Box::new(HttpModel::new(endpoint, transport, host.clone()));
        return Ok(Agent::new(settings.config, model, tools, host));
    }
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

/// The browser's clock and timer, and the page's way of asking the user.
struct WebHost {
    approve: Option<Function>,
}

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

    fn approve(&self, tool: &str, input: &Value) -> LocalBoxFuture<'static, bool> {
        let Some(approve) = self.approve.clone() else {
            return Box::pin(std::future::ready(false));
        };
        let request = to_js(&crate::to_json::Object(&[
            ("tool", &tool),
            ("input", input),
        ]));
        Box::pin(async move {
            // Anything but a clear yes (a throw, a rejection, a non-true value) is a no.
            let Some(answer) = request
                .ok()
                .and_then(|r| approve.call1(&JsValue::NULL, &r).ok())
            else {
                return false;
            };
            let answer = match answer.dyn_into::<Promise>() {
                Ok(promise) => JsFuture::from(promise).await.unwrap_or(JsValue::FALSE),
                Err(value) => value,
            };
            answer.as_bool() == Some(true)
        })
    }
}

/// A tool implemented by a JS function.
#[derive(Clone)]
struct JsTool {
    spec: ToolSpec,
    function: Function,
    /// Declared without `parameters`: the embedder gave no schema to hold the input to, so
    /// the function gets what the model wrote (as before schemas were checked).
    unchecked: bool,
}

impl Tool for JsTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn checks_input(&self) -> bool {
        !self.unchecked
    }

    fn call<'a>(&'a self, input: &'a Value) -> LocalBoxFuture<'a, Result<ToolOutput, ToolError>> {
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
            if let Some(text) = get(&value, "observation").as_string() {
                let fuel = get(&value, "fuel").as_f64().filter(|f| *f >= 0.0);
                return Ok(ToolOutput {
                    text,
                    fuel: fuel.map(|f| f as u64),
                });
            }
            Ok(ToolOutput::from(match value.as_string() {
                Some(text) => text,
                None if value.is_undefined() => String::new(),
                None => JSON::stringify(&value)
                    .ok()
                    .and_then(|s| s.as_string())
                    .unwrap_or_default(),
            }))
        })
    }
}

/// A Rust value as a plain JS value, through JSON.
pub(crate) fn to_js(value: &dyn ToJson) -> Result<JsValue, JsError> {
    let json = crate::to_json::to_string(value);
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
pub(crate) fn describe(error: &JsValue) -> String {
    if let Some(e) = error.dyn_ref::<js_sys::Error>() {
        return String::from(e.message());
    }
    error.as_string().unwrap_or_else(|| type_of(error))
}

pub(crate) fn type_of(value: &JsValue) -> String {
    value
        .js_typeof()
        .as_string()
        .unwrap_or_else(|| "a value".into())
}
