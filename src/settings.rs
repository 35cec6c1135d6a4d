//! Settings: what an agent is built from, read once and checked.
//!
//! The page's `new Agent({...})`, the `tao` command line and the offline scenarios all describe
//! an agent the same way, as one JSON object (`{"scenario": "apple-ceo", "format": "paper"}`),
//! and all of them build it here, so a setting means the same thing everywhere and is checked
//! in one place. A misspelled option (`maxStep`), an unknown built-in tool or a value of the
//! wrong type is an error that names it and lists what is valid, never silently ignored.
//!
//! Building an agent needs a few things only the host has: the clock, the way to reach the
//! network (the browser's `fetch`), the tools made in JavaScript and a model played by a JS
//! function. They come in as [`Parts`]; everything else is decided here, in pure Rust.

use crate::agent::{Agent, Config};
use crate::error::Error;
use crate::format::{Format, Lang};
use crate::host::Host;
use crate::http::Transport;
use crate::json::FromJson;
use crate::json::{Map, Value};
#[cfg(feature = "providers")]
use crate::llm::http::HttpModel;
use crate::llm::provider::{Api, Settings as Endpoint, FIRST_BYTE_MS, IDLE_MS};
use crate::llm::Model;
use crate::scenarios::scripted::{Policy, Scripted};
use crate::scenarios::{self, Scenario};
use crate::to_json::{JsonWriter, ToJson};
use crate::tools::docs;
pub use crate::tools::docs::Docs;
use crate::tools::knowledge;
#[cfg(feature = "builtin-tools")]
use crate::tools::wikipedia;
use crate::tools::wikipedia::Wiki;
pub use crate::tools::Elsewhere;
use crate::tools::{Registry, Tool};
use std::rc::Rc;

/// Every option `new Agent({...})` takes, in the order the TypeScript declarations list them.
pub const OPTIONS: &[&str] = &[
    "format",
    "lang",
    "maxSteps",
    "retries",
    "scenario",
    "tools",
    "replies",
    "delayMs",
    "provider",
    "baseUrl",
    "model",
    "apiKey",
    "temperature",
    "maxTokens",
    "firstByteTimeoutMs",
    "idleTimeoutMs",
    "docs",
    "wiki",
    "toolTimeoutMs",
    "tokenBudget",
    "timeBudgetMs",
    "memoryTokens",
    "keepSteps",
    "reflectEvery",
    "exemplars",
    "constrained",
    "mcp",
];

/// A provider the page offers, with what it needs.
pub struct Provider {
    /// The `provider` setting.
    pub name: &'static str,
    /// The base URL used when none is given.
    pub base_url: &'static str,
    /// A model name to show as an example.
    pub model: &'static str,
    /// Whether a request without a key is refused before it is sent (a local server needs
    /// none; OpenAI's and Anthropic's own endpoints always do).
    pub needs_key: bool,
}

/// The providers over HTTP, in menu order (the scripted model needs no entry: it is the
/// default when none is given).
pub const PROVIDERS: &[Provider] = &[
    Provider {
        name: "openai",
        base_url: "https://api.openai.com/v1",
        model: "gpt-4o-mini",
        needs_key: true,
    },
    Provider {
        name: "ollama",
        base_url: "http://localhost:11434/v1",
        model: "llama3.2",
        needs_key: false,
    },
    Provider {
        name: "anthropic",
        base_url: "https://api.anthropic.com",
        model: "claude-sonnet-4-5",
        needs_key: true,
    },
];

/// As the page's Model panel reads it (`providers()` in JS).
impl ToJson for Provider {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[
            ("name", &self.name),
            ("baseUrl", &self.base_url),
            ("model", &self.model),
            ("needsKey", &self.needs_key),
        ]);
    }
}

/// The tools built into the core, by the names `tools` takes.
pub const BUILTIN_TOOLS: &[&str] = &["search", "lookup", "calculator", "search_docs"];

/// Everything an agent is built from, checked.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Format, language and budgets of the loop.
    pub config: Config,
    /// A built-in scenario: its tools, its format and budget, and (with no other model) its
    /// scripted model.
    pub scenario: Option<Scenario>,
    /// The tools to enable, by name (built-ins, and the names of tools the host makes);
    /// `None` means the scenario's.
    pub tools: Option<Vec<String>>,
    /// Milliseconds between the scripted model's streamed deltas.
    pub delay_ms: u32,
    /// Replies for the scripted model to replay in order.
    pub replies: Option<Vec<String>>,
    /// A provider over HTTP (its key included: this struct is never serialised or logged).
    pub endpoint: Option<Endpoint>,
    /// The model in the tab (`provider: "wllama"`), which the page's host runs.
    pub local: Option<Local>,
    /// The MediaWiki that `search` and `lookup` read, instead of the built-in pages.
    pub wiki: Option<Wiki>,
    /// What `search_docs` searches, unless the scenario names its own pages (which win: its
    /// rules are written against them).
    pub docs: Option<Docs>,
    /// MCP servers whose tools the agent gets (their headers included: see `endpoint`), as
    /// given: the host lists their tools when a run starts, and `crate::mcp::servers` reads
    /// and checks this then.
    pub mcp: Option<Value>,
}

/// A model that runs in the page (`provider: "wllama"`: llama.cpp compiled to WebAssembly), on
/// the reader's machine, with no key and no server. The host runs it (the page loads the
/// engine's module on demand: `src/llm/wllama.js`); this is what it is told.
#[derive(Clone, Debug, PartialEq)]
pub struct Local {
    /// A name from the engine's catalogue (`smollm2-360m`, ...), or the URL of a `.gguf` file.
    /// (It samples at temperature 0, the most predictable, so that experiments repeat, and
    /// writes at most 512 tokens a reply: a step is short.)
    pub model: String,
}

/// The `provider` setting of the model in the tab.
pub const LOCAL_PROVIDER: &str = "wllama";

/// What only the host can supply to build an agent.
pub struct Parts {
    /// The clock, the timer and the person who approves tool calls.
    pub host: Rc<dyn Host>,
    /// How the wiki, a documents URL and a provider are reached (`fetch` in a page); `None`
    /// where there is no network (then those settings are an error).
    pub transport: Option<Rc<dyn Transport>>,
    /// Tools made by the host (JavaScript functions), registered after the built-ins: a name
    /// they share with a built-in is theirs.
    pub tools: Vec<Rc<dyn Tool>>,
    /// The built-in tools' code, where this build does not carry it (the page's core takes it
    /// from the tools' module); `None` elsewhere.
    pub elsewhere: Option<Rc<dyn Elsewhere>>,
    /// A model played by the host (a JavaScript function), used unless a provider is set. In a
    /// build without the `providers` feature (the page's core), the host plays the provider
    /// too: with a provider set, this is the host's way to it (the page loads the providers'
    /// module on demand), and it is required.
    pub model: Option<Box<dyn Model>>,
}

impl Settings {
    /// Reads a settings object (a `model` that is a JavaScript function is not in it: JSON
    /// cannot carry one, and the host keeps it).
    pub fn from_json(value: &Value) -> Result<Settings, Error> {
        let object = match value {
            Value::Object(map) => map,
            Value::Null => &Map::new(),
            _ => {
                return Err(Error::config(
                    "the settings must be an object, e.g. {scenario: \"apple-ceo\"}",
                ))
            }
        };
        if let Some(key) = object.keys().find(|k| !OPTIONS.contains(&k.as_str())) {
            return Err(Error::config(format!(
                "unknown option \"{key}\"; the options are: {}",
                OPTIONS.join(", ")
            )));
        }
        let read = Reader(object);
        let mut s = Settings {
            scenario: read
                .text("scenario")?
                .map(|n| scenarios::get(&n))
                .transpose()?,
            ..Settings::default()
        };
        if let Some(scenario) = &s.scenario {
            s.config.format = Format::from_name(&scenario.format).unwrap_or_default();
            scenario.configure(&mut s.config);
        }
        if let Some(name) = read.text("format")? {
            s.config.format = Format::from_name(&name).ok_or_else(|| {
                Error::config(format!("unknown format \"{name}\"; use {}", Format::NAMES))
            })?;
        }
        if let Some(name) = read.text("lang")? {
            s.config.lang = Lang::from_name(&name).ok_or_else(|| {
                Error::config(format!("unknown lang \"{name}\"; use \"en\" or \"zh\""))
            })?;
            // A core without the Chinese texts says so now, not with a prompt missing its text.
            if s.config.lang == Lang::Zh {
                crate::zh::require()?;
            }
        }
        if let Some(n) = read.whole("maxSteps")? {
            if n == 0 {
                return Err(Error::config("maxSteps must be at least 1"));
            }
            s.config.max_steps = n;
        }
        if let Some(n) = read.whole("toolTimeoutMs")? {
            s.config.tool_timeout_ms = n.max(1);
        }
        // Budgets: 0 (or absent) is no limit.
        s.config.token_budget = read
            .whole_up_to("tokenBudget", 1_000_000_000)?
            .filter(|&n| n > 0);
        s.config.time_budget_ms = read
            .whole_up_to("timeBudgetMs", 1_000_000_000)?
            .filter(|&n| n > 0);
        // Memory for long runs: 0 is off.
        if let Some(n) = read.whole_up_to("memoryTokens", 1_000_000_000)? {
            s.config.memory_tokens = Some(n).filter(|&n| n > 0);
        }
        if let Some(n) = read.whole("keepSteps")? {
            s.config.keep_steps = n;
        }
        if let Some(n) = read.whole("reflectEvery")? {
            s.config.reflect_every = Some(n).filter(|&n| n > 0);
        }
        s.config.exemplars = read.text("exemplars")?.filter(|e| !e.trim().is_empty());
        if let Some(n) = read.whole("retries")? {
            s.config.retries = n.min(5);
        }
        s.delay_ms = read.whole("delayMs")?.unwrap_or(0);
        s.tools = read.texts("tools", "tools must be an array of tool names")?;
        s.replies = read.texts("replies", "replies must be an array of strings")?;
        s.wiki = read
            .text("wiki")?
            .map(|setting| Wiki::parse(&setting, s.config.lang.name()))
            .transpose()?;
        s.docs = read_docs(object.get("docs"))?;
        // Read and checked when a run starts, by the client (`crate::mcp::servers`).
        s.mcp = object.get("mcp").filter(|v| !v.is_null()).cloned();
        s.local = read_local(&read)?;
        if s.local.is_none() {
            s.endpoint = read_endpoint(&read)?;
        }
        // A model in the tab is small: held to the format by a grammar unless told otherwise,
        // and given the worked example `mrkl` otherwise lacks.
        s.config.constrained = match read.get("constrained") {
            None => s.local.is_some(),
            Some(Value::Bool(on)) => *on,
            Some(_) => return Err(Error::config("constrained must be true or false")),
        };
        if s.config.constrained && s.config.format == Format::Mrkl && s.config.exemplars.is_none() {
            s.config.exemplars = crate::format::mrkl::example(&s.tool_names());
        }
        Ok(s)
    }

    /// Checks that something will play the model: a provider, the host's model (a JavaScript
    /// function, when `host_model`), scripted replies or a scenario.
    pub fn require_model(&self, host_model: bool) -> Result<(), Error> {
        let provider = self.endpoint.is_some() || self.local.is_some();
        match self.scenario.is_some() || host_model || self.replies.is_some() || provider {
            true => Ok(()),
            false => Err(Error::config(
                "give a provider, a model function, a scenario or replies (for the offline scripted model)",
            )),
        }
    }

    /// The tools this agent will have, by name: the setting, else the scenario's.
    pub fn tool_names(&self) -> Vec<String> {
        self.tools
            .clone()
            .or_else(|| self.scenario.as_ref().map(|s| s.tools.clone()))
            .unwrap_or_default()
    }

    /// Builds the agent: the built-in tools asked for, then the host's; the model from the
    /// provider, else the host's model, else the scripted replies, else the scenario's policy.
    pub fn agent(&self, parts: Parts) -> Result<Agent, Error> {
        let Parts {
            host,
            transport,
            tools: host_tools,
            elsewhere,
            model: host_model,
        } = parts;
        // The built-in tools' code, where this build does not carry it.
        let given = elsewhere;
        #[cfg(not(feature = "builtin-tools"))]
        let elsewhere = || {
            given.as_deref().ok_or_else(|| {
                Error::config("this build of tao has no code for the built-in tools")
            })
        };
        #[cfg_attr(
            not(any(feature = "providers", feature = "builtin-tools")),
            allow(unused_variables)
        )]
        let network = |what: &str| {
            transport.clone().ok_or_else(|| {
                Error::config(format!(
                    "{what} needs the network, which this host does not give"
                ))
            })
        };
        let names = self.tool_names();
        let is_host_tool = |name: &str| {
            host_tools
                .iter()
                .any(|t| t.spec().name.eq_ignore_ascii_case(name))
        };
        for name in &names {
            if !BUILTIN_TOOLS.contains(&name.as_str()) && !is_host_tool(name) {
                // An MCP server's tools are all used unless the server's own setting names some.
                let mcp = match self.mcp {
                    Some(_) => format!("; to use only some of an MCP server's tools, name them in its own setting: mcp: [{{url, tools: [\"{name}\"]}}]"),
                    None => String::new(),
                };
                return Err(Error::config(format!(
                    "unknown tool \"{name}\"; the built-in tools are: {} (tools made in JS are added with registerTool before the run){mcp}",
                    BUILTIN_TOOLS.join(", ")
                )));
            }
        }
        // The built-ins asked for and not replaced by a host tool; `search_docs` is made below
        // from the documents.
        let builtin: Vec<String> = names
            .iter()
            .filter(|name| !is_host_tool(name) && name.as_str() != "search_docs")
            .cloned()
            .collect();
        // Without a wiki, `search` and `lookup` read the offline pages, which the shipped wasm
        // does not carry: a run that needs them before they are loaded is a setting to fix.
        let offline = |name: &String| name == "search" || name == "lookup";
        if self.wiki.is_none() && builtin.iter().any(offline) && !knowledge::loaded() {
            return Err(Error::config(
                "the offline search and lookup have no pages: call loadOfflineData({knowledge}) with the text of data/knowledge.json (beside the wasm) first, or set wiki to read a live wiki",
            ));
        }
        let lang = self.config.lang;
        let mut tools: Registry =
            crate::tools::builtin_with(&builtin, lang.name(), given.as_deref())?;
        if names.iter().any(|n| n == "search_docs") && !is_host_tool("search_docs") {
            // A scenario's own pages come first: its rules are written against them.
            let own = self.scenario.as_ref().and_then(|s| s.docs.as_ref());
            let own = own.map(|path| Docs::At(path.get(lang).to_string()));
            match own.as_ref().or(self.docs.as_ref()) {
                // This build does not carry the search: the host's way to it.
                #[cfg(not(feature = "builtin-tools"))]
                Some(docs) => tools.register(elsewhere()?.docs(docs)),
                #[cfg(feature = "builtin-tools")]
                Some(Docs::Given(list)) => tools.register(docs::tool(list.clone())),
                // Without a network (the CLI, the tests), a path is read from the disk.
                #[cfg(feature = "builtin-tools")]
                Some(Docs::At(path)) if transport.is_none() && !path.contains("://") => {
                    tools.register(docs::tool(local_docs(path)?))
                }
                #[cfg(feature = "builtin-tools")]
                Some(Docs::At(url)) => {
                    tools.register(docs::tool_from_url(url, network("docs from a URL")?))
                }
                None => return Err(Error::config(
                    "search_docs needs the documents to search: set docs to a list of {title, url, text} or to the URL of a JSON file of them",
                )),
            }
        }
        // `search` and `lookup` over a live MediaWiki replace the built-in pages' versions.
        if let Some(wiki) = &self.wiki {
            #[cfg(feature = "builtin-tools")]
            let wiki_tools = wikipedia::tools(wiki.clone(), network("wiki")?);
            #[cfg(not(feature = "builtin-tools"))]
            let wiki_tools = elsewhere()?.wiki(wiki);
            for tool in wiki_tools {
                if builtin
                    .iter()
                    .any(|n| n.eq_ignore_ascii_case(&tool.spec().name))
                {
                    tools.register(tool);
                }
            }
        }
        if lang == Lang::Zh {
            tools.in_chinese();
        }
        for tool in host_tools {
            tools.register(tool);
        }
        // The model in the tab is the host's to run (the page's core loads the engine's module
        // for it: see `Parts::model`); a host without it (the CLI) cannot.
        if self.local.is_some() && host_model.is_none() {
            return Err(Error::config("provider \"wllama\" runs only in a web page"));
        }
        let model: Box<dyn Model> =
            match (&self.endpoint, host_model, &self.replies, &self.scenario) {
                // The host reaches the provider itself (the page's core loads the providers'
                // module for it: see `Parts::model`).
                #[cfg(not(feature = "providers"))]
                (Some(_), Some(model), _, _) => model,
                #[cfg(feature = "providers")]
                (Some(endpoint), _, _, _) => Box::new(HttpModel::new(
                    endpoint.clone(),
                    network("a provider")?,
                    host.clone(),
                )),
                #[cfg(not(feature = "providers"))]
                (Some(_), None, _, _) => {
                    return Err(Error::config(
                        "this build of tao has no providers over HTTP: give a model function",
                    ))
                }
                (None, Some(model), _, _) => model,
                (None, None, Some(replies), _) => {
                    Box::new(self.scripted("replay", Policy::Replay(replies.clone()), &host))
                }
                (None, None, None, Some(scenario)) => {
                    let policy = Policy::Rules(scenario.policy_for(self.config.format).to_vec());
                    let mut model = self.scripted(&scenario.name, policy, &host);
                    model.task = Some(scenario.task.clone());
                    Box::new(model)
                }
                (None, None, None, None) => {
                    return Err(Error::config(
                        "give a scenario, replies or a model function",
                    ))
                }
            };
        let mut agent = Agent::new(self.config.clone(), model, tools, host);
        agent.elsewhere = given;
        Ok(agent)
    }

    fn scripted(&self, name: &str, policy: Policy, host: &Rc<dyn Host>) -> Scripted {
        let (format, lang) = (self.config.format, self.config.lang);
        let mut model = Scripted::new(name, policy, format, lang, host.clone());
        model.delay_ms = self.delay_ms;
        model
    }
}

/// Builds the offline agent for `scenario`: its tools and the scripted model following its
/// policy, streaming with `delay_ms` between deltas. `config` says the format and language; its
/// step budget and long-run memory are the scenario's own where it has them.
pub fn offline_agent(
    scenario: &Scenario,
    mut config: Config,
    delay_ms: u32,
    host: Rc<dyn Host>,
) -> Result<Agent, Error> {
    scenario.configure(&mut config);
    let settings = Settings {
        config,
        scenario: Some(scenario.clone()),
        delay_ms,
        ..Settings::default()
    };
    settings.agent(Parts {
        host,
        transport: None,
        tools: Vec::new(),
        model: None,
        elsewhere: None,
    })
}

/// The fields of a settings object, read with errors that name the option.
struct Reader<'a>(&'a Map<String, Value>);

impl Reader<'_> {
    /// A field that is missing or `null` is not set.
    fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key).filter(|v| !v.is_null())
    }

    fn text(&self, key: &str) -> Result<Option<String>, Error> {
        self.get(key)
            .map(|v| {
                String::from_value(v).map_err(|_| Error::config(format!("{key} must be a string")))
            })
            .transpose()
    }

    /// A whole number from 0 to a million.
    fn whole(&self, key: &str) -> Result<Option<u32>, Error> {
        Ok(self.whole_up_to(key, 1_000_000)?.map(|n| n as u32))
    }

    /// A whole number from 0 to `max`, or absent.
    fn whole_up_to(&self, key: &str, max: u64) -> Result<Option<u64>, Error> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        match value.as_f64() {
            Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= max as f64 => Ok(Some(n as u64)),
            _ => Err(Error::config(format!(
                "{key} must be a whole number from 0 to {max}"
            ))),
        }
    }

    /// A number from 0 to `max`, also given as text (a form field), or empty: not set.
    fn number(&self, key: &str, max: u32) -> Result<Option<f64>, Error> {
        let n = match self.get(key) {
            None => return Ok(None),
            Some(Value::String(s)) if s.trim().is_empty() => return Ok(None),
            // Read as a JSON value: typed float parsing would link float formatting (size).
            Some(Value::String(s)) => crate::json::from_str(s.trim())
                .ok()
                .and_then(|v| v.as_f64()),
            Some(v) => v.as_f64(),
        };
        match n {
            Some(n) if (0.0..=f64::from(max)).contains(&n) => Ok(Some(n)),
            _ => Err(Error::config(format!(
                "{key} must be a number from 0 to {max}"
            ))),
        }
    }

    fn texts(&self, key: &str, problem: &str) -> Result<Option<Vec<String>>, Error> {
        self.get(key)
            .map(|v| Vec::<String>::from_value(v).map_err(|_| Error::config(problem)))
            .transpose()
    }
}

/// A documents file read from the disk, for a host with no network: the CLI and the tests read
/// a scenario's pages from the repository (paths are relative to the working directory).
#[cfg(all(not(target_arch = "wasm32"), feature = "builtin-tools"))]
fn local_docs(path: &str) -> Result<Vec<docs::Doc>, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Error::config(format!(
            "cannot read the documents at {path}: {e} (paths are read from the repository's root)"
        ))
    })?;
    let json: Value = crate::json::from_str(&text)
        .map_err(|e| Error::config(format!("the documents at {path} are not JSON: {e}")))?;
    docs::read_docs(&json).map_err(|e| Error::config(format!("{path}: {e}")))
}

/// In a page there is always a network (`fetch`), so a path is never read from a disk.
#[cfg(all(target_arch = "wasm32", feature = "builtin-tools"))]
fn local_docs(path: &str) -> Result<Vec<docs::Doc>, Error> {
    Err(Error::config(format!(
        "the documents at {path} need the network, which this host does not give"
    )))
}

/// The `docs` setting: a URL, or a list of `{title, url, text}`.
fn read_docs(value: Option<&Value>) -> Result<Option<Docs>, Error> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(url)) => Ok(Some(Docs::At(url.clone()))),
        Some(list) => docs::read_docs(list)
            .map(|l| Some(Docs::Given(l)))
            .map_err(|e| {
                Error::config(format!(
                    "docs must be a list of {{title, url, text}} or a URL: {e}"
                ))
            }),
    }
}

/// The provider settings, if a provider other than the scripted model is chosen.
/// Reads only the provider's part of a settings object (`provider`, `baseUrl`, `model`,
/// `apiKey`, `temperature`, `maxTokens`, the timeouts), checked as [`Settings::from_json`]
/// checks it: what the providers' module reads, so it carries nothing else of the settings.
pub fn read_provider(value: &Value) -> Result<Option<Endpoint>, Error> {
    match value {
        Value::Object(map) => read_endpoint(&Reader(map)),
        _ => Err(Error::config("the provider's settings must be an object")),
    }
}

/// The model in the tab, if `provider` is `wllama`: its `model`.
fn read_local(read: &Reader) -> Result<Option<Local>, Error> {
    if read.text("provider")?.as_deref().map(str::trim) != Some(LOCAL_PROVIDER) {
        return Ok(None);
    }
    let model = read.text("model")?.map(|m| m.trim().to_string());
    let model = model.filter(|m| !m.is_empty()).ok_or_else(|| {
        Error::config(
            "model: give a name from the catalogue (e.g. \"smollm2-360m\") or a .gguf file's URL",
        )
    })?;
    Ok(Some(Local { model }))
}

fn read_endpoint(read: &Reader) -> Result<Option<Endpoint>, Error> {
    let provider = read
        .text("provider")?
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let model = read
        .get("model")
        .map(|m| match m {
            Value::String(name) => Ok(name.trim().to_string()),
            _ => Err(Error::config("model must be the model's name at the provider, or a JS function (messages, options) => reply")),
        })
        .transpose()?
        .filter(|n| !n.is_empty());
    if provider.is_empty() || provider == "scripted" {
        return Ok(None);
    }
    let api = Api::from_name(&provider).ok_or_else(|| {
        Error::config(format!(
            "unknown provider \"{provider}\"; use scripted, openai, ollama, anthropic or wllama (a model in the tab)"
        ))
    })?;
    // `ollama` is OpenAI's API at another address; `claude` is another name for `anthropic`.
    let defaults = [provider.as_str(), api.name()]
        .iter()
        .find_map(|name| PROVIDERS.iter().find(|p| p.name == *name))
        .unwrap_or(&PROVIDERS[0]);
    let base_url = read
        .text("baseUrl")?
        .map(|b| b.trim().to_string())
        .filter(|b| !b.is_empty())
        .unwrap_or_else(|| defaults.base_url.into());
    if !base_url.starts_with("http://") && !base_url.starts_with("https://") {
        return Err(Error::config(format!(
            "baseUrl must start with http:// or https://, e.g. {}",
            defaults.base_url
        )));
    }
    let model = model.ok_or_else(|| {
        Error::config(format!(
            "give the model's name at {base_url}, e.g. \"{}\"",
            defaults.model
        ))
    })?;
    let key = read.text("apiKey")?.unwrap_or_default().trim().to_string();
    if key.is_empty() && (api == Api::Anthropic || base_url.contains("api.openai.com")) {
        return Err(Error::config(format!(
            "{} needs an API key; paste it in the key field (it stays in this tab)",
            api.name()
        )));
    }
    Ok(Some(Endpoint {
        api,
        base_url,
        model,
        key,
        temperature: read.number("temperature", 2)?,
        max_tokens: read.number("maxTokens", 1_000_000)?.map(|n| n as u32),
        // A wait longer than an hour is a stall by any measure; 0 means no limit.
        first_byte_ms: read
            .number("firstByteTimeoutMs", 3_600_000)?
            .map_or(FIRST_BYTE_MS, |n| n as u32),
        idle_ms: read
            .number("idleTimeoutMs", 3_600_000)?
            .map_or(IDLE_MS, |n| n as u32),
    }))
}
