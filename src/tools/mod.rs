//! Tools: a name, a description, a JSON Schema for the input, and a function.
//!
//! The registry is the agent's list of "known actions" (Simon Willison's ReAct keeps a dict of
//! them for the same reason): the prompt's tool descriptions are rendered from it, never
//! hand-copied, and the parser checks action names against it. Tools report two kinds of
//! failure, both shown to the model as observations: [`ToolError::BadInput`] is the model's
//! mistake (counted as a bad call), [`ToolError::Failed`] is the tool's (not counted).

#[cfg(feature = "builtin-tools")]
pub mod calculator;
pub mod docs;
pub mod knowledge;
pub mod schema;
#[cfg(feature = "builtin-tools")]
pub mod toolbox;
pub mod wikipedia;

pub use crate::chat::{string_schema, ToolSpec};
use crate::host::LocalBoxFuture;
use crate::json::Value;
use std::rc::Rc;

/// What a call returned: the observation, and what it cost when the tool measures that.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolOutput {
    /// The observation the model reads.
    pub text: String,
    /// Fuel (wasm instructions, roughly) a sandboxed tool burned, for the trajectory.
    pub fuel: Option<u64>,
    /// A picture to show with the observation (a chart: `{kind, title, x, y}`); the model
    /// does not read it.
    pub picture: Option<Value>,
}

impl From<String> for ToolOutput {
    fn from(text: String) -> Self {
        ToolOutput {
            text,
            fuel: None,
            picture: None,
        }
    }
}

impl ToolOutput {
    /// What a tool returned as an object, `{observation, fuel, picture}`: the observation's
    /// `text` (as its host reads it), and from the object's JSON the fuel it burned and a
    /// picture; a `fuel` that is not a number of at least 0, or a `picture` that is not an
    /// object, is none.
    pub fn from_object(text: String, object: &Value) -> ToolOutput {
        ToolOutput {
            text,
            fuel: (object["fuel"].as_f64())
                .filter(|f| *f >= 0.0)
                .map(|f| f as u64),
            // A picture (a chart's numbers) rides along as JSON; the page draws it.
            picture: Some(object["picture"].clone()).filter(Value::is_object),
        }
    }
}

/// Why a tool call produced no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolError {
    /// The input does not fit the tool: the model's mistake; the message says what was expected.
    BadInput(String),
    /// The tool itself failed (a division by zero, a missing page, a JS exception).
    Failed(String),
}

/// A tool the agent can call.
pub trait Tool {
    /// Name, description and input schema.
    fn spec(&self) -> &ToolSpec;
    /// Runs the tool on `input` and returns the observation. The agent has already checked
    /// `input` against the spec's schema and put it in that shape (see [`schema::check`]).
    fn call<'a>(&'a self, input: &'a Value) -> LocalBoxFuture<'a, Result<ToolOutput, ToolError>>;
    /// Whether the agent checks inputs against the spec's schema before the call (a JS tool
    /// registered without a schema takes what the model wrote).
    fn checks_input(&self) -> bool {
        true
    }
    /// Whether calling the tool again with the same input gives the same result and only
    /// changes the tool's own state: then a run that goes on from a trajectory made elsewhere
    /// (resumed in a new agent, forked, imported) can bring the tool back to where the run left
    /// it by calling it again on the trajectory's past inputs (see `Agent::restore`). The
    /// paper's WikiEnv is such a tool: `lookup` reads the page the last `search` opened. Tools
    /// with effects on the world, or no state, say no.
    fn replays(&self) -> bool {
        false
    }
    /// Whether the same input twice in a row goes on where the last call stopped (the paper's
    /// `lookup` returns the *next* sentence with the keyword): the agent lets such a tool repeat
    /// itself, where it refuses a repeated call to any other (see `Agent::act`).
    fn pages(&self) -> bool {
        false
    }
}

/// The tools an agent may use, in the order they were registered (the prompt lists them so).
#[derive(Clone, Default)]
pub struct Registry {
    tools: Vec<Rc<dyn Tool>>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a tool, replacing one of the same name (case-insensitive).
    pub fn register(&mut self, tool: Rc<dyn Tool>) {
        let name = tool.spec().name.clone();
        self.tools
            .retain(|t| !t.spec().name.eq_ignore_ascii_case(&name));
        self.tools.push(tool);
    }

    /// The tool called `name`, ignoring case (models write `Search` for `search`).
    pub fn get(&self, name: &str) -> Option<&Rc<dyn Tool>> {
        let name = name.trim();
        self.tools
            .iter()
            .find(|t| t.spec().name.eq_ignore_ascii_case(name))
    }

    /// All tools, in order.
    pub fn tools(&self) -> &[Rc<dyn Tool>] {
        &self.tools
    }

    /// All tool specs, in order.
    pub fn specs(&self) -> impl Iterator<Item = &ToolSpec> {
        self.tools.iter().map(|t| t.spec())
    }

    /// All tool names, in order.
    pub fn names(&self) -> Vec<String> {
        self.specs().map(|s| s.name.clone()).collect()
    }

    /// Whether there are no tools.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }
}

/// A tool described in another language: the same tool, with another description.
struct Described {
    tool: Rc<dyn Tool>,
    spec: ToolSpec,
}

impl Tool for Described {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn call<'a>(&'a self, input: &'a Value) -> LocalBoxFuture<'a, Result<ToolOutput, ToolError>> {
        self.tool.call(input)
    }
    fn checks_input(&self) -> bool {
        self.tool.checks_input()
    }
    fn replays(&self) -> bool {
        self.tool.replays()
    }
    fn pages(&self) -> bool {
        self.tool.pages()
    }
}

impl Registry {
    /// Describes the built-in tools in Chinese (for a prompt in Chinese): the prompt describes
    /// the tools in the language it is written in.
    pub fn in_chinese(&mut self) {
        for tool in &mut self.tools {
            let name = tool.spec().name.clone();
            // Their English descriptions are written with each tool; the Chinese ones are in
            // data/zh.json. The names stay: models follow them best.
            if let Some(description) = crate::zh::tool_description(&name) {
                let mut spec = tool.spec().clone();
                spec.description = description.to_string();
                *tool = Rc::new(Described {
                    tool: tool.clone(),
                    spec,
                });
            }
        }
    }
}

/// Reads the one string a single-input tool needs from what the model wrote: a bare string, or
/// an object carrying it under `key` (or under its only field, e.g. `{"tool_input": "..."}`,
/// which LangChain-trained models often write). Anything else is a bad input naming the field.
pub fn text_input(input: &Value, key: &str) -> Result<String, ToolError> {
    match input {
        Value::String(s) => Ok(s.trim().to_string()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Object(map) => match map.get(key) {
            Some(Value::String(s)) => Ok(s.trim().to_string()),
            Some(Value::Number(n)) => Ok(n.to_string()),
            Some(_) => Err(ToolError::BadInput(format!(
                "the field \"{key}\" must be a string"
            ))),
            None if map.len() == 1 => match map.values().next() {
                Some(Value::String(s)) => Ok(s.trim().to_string()),
                _ => Err(ToolError::BadInput(format!(
                    "expected a string in the field \"{key}\""
                ))),
            },
            None => Err(ToolError::BadInput(format!("missing the field \"{key}\""))),
        },
        _ => Err(ToolError::BadInput(format!(
            "expected a string, or an object with the string field \"{key}\""
        ))),
    }
}

/// A tool made from a plain function of one string (the built-ins, and tests). The schema
/// names that string `field`, and the same name is used to read it, so the two cannot drift.
pub struct FnTool<F> {
    spec: ToolSpec,
    field: String,
    function: F,
    replays: bool,
    pages: bool,
}

impl<F: Fn(&str) -> Result<String, ToolError>> FnTool<F> {
    /// A tool called `name` whose one string input is called `field`.
    pub fn new(name: &str, description: &str, field: &str, function: F) -> Self {
        FnTool {
            spec: ToolSpec::new(name, description, string_schema(field)),
            field: field.into(),
            function,
            replays: false,
            pages: false,
        }
    }
}

impl<F> FnTool<F> {
    /// Marks the tool as one whose state a replay of its past calls restores (see
    /// [`Tool::replays`]).
    pub fn replaying(mut self) -> Self {
        self.replays = true;
        self
    }

    /// Marks the tool as one whose repeated calls go on where the last stopped (see
    /// [`Tool::pages`]).
    pub fn paging(mut self) -> Self {
        self.pages = true;
        self
    }

    /// The spec, to mark the tool as needing approval or give it its own timeout.
    pub fn spec_mut(&mut self) -> &mut ToolSpec {
        &mut self.spec
    }
}

impl<F: Fn(&str) -> Result<String, ToolError>> Tool for FnTool<F> {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn call<'a>(&'a self, input: &'a Value) -> LocalBoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(std::future::ready(
            text_input(input, &self.field)
                .and_then(|text| (self.function)(&text))
                .map(ToolOutput::from),
        ))
    }
    fn replays(&self) -> bool {
        self.replays
    }
    fn pages(&self) -> bool {
        self.pages
    }
}

/// The built-in tools' code, for a build without the `builtin-tools` feature: the host makes
/// each tool, behind the spec the core keeps (so prompts are the same before anything is
/// loaded), from its settings.
pub trait Elsewhere {
    /// The calculator.
    fn calculator(&self) -> Rc<dyn Tool>;
    /// `search` and `lookup` over the live MediaWiki `wiki`, sharing one open page.
    fn wiki(&self, wiki: &wikipedia::Wiki) -> Vec<Rc<dyn Tool>>;
    /// `search_docs` over `docs`: given, or the file at a URL (fetched at the first search).
    fn docs(&self, docs: &docs::Docs) -> Rc<dyn Tool>;
    /// `search` and `lookup` over the pages loaded ([`knowledge::install`]), with their texts
    /// in `lang`, sharing one open page.
    fn offline(&self, lang: &str) -> Vec<Rc<dyn Tool>>;
    /// The memo tao writes itself for a model that cannot (`agent::memory::extract`): a
    /// memo of `kind` (`summary`, `reflection`) on `trajectory`, the trajectory file so far, a
    /// summary of steps 1 to `covers`.
    fn memo(
        &self,
        trajectory: String,
        kind: &'static str,
        covers: u32,
    ) -> LocalBoxFuture<'_, Result<String, crate::error::Error>>;
}

/// The calculator's description (the tool is in [`calculator`], when this build carries it).
pub const CALCULATOR: &str = "Evaluates an arithmetic expression, e.g. 60 * 35 + 500 or sqrt(2) ^ 3. Supports + - * / % ^, parentheses, pi, e, and sqrt abs exp ln log log2 sin cos tan floor ceil round min max pow.";

/// What the model is told about the calculator: one string, `expression`; calls may run at
/// once (it has no state).
pub fn calculator_spec() -> ToolSpec {
    ToolSpec {
        concurrent: true,
        ..ToolSpec::new("calculator", CALCULATOR, string_schema("expression"))
    }
}

/// The built-in tools called `names` (`search`, `lookup`, `calculator`), in that order;
/// `lang` picks the language of the offline knowledge base.
pub fn builtin(names: &[String], lang: &str) -> Result<Registry, crate::error::Error> {
    builtin_with(names, lang, None)
}

/// [`builtin`], where a build without the `builtin-tools` feature takes the code it does not
/// carry from `elsewhere` (the page's core: the tools' module, loaded at the first call).
pub fn builtin_with(
    names: &[String],
    lang: &str,
    elsewhere: Option<&dyn Elsewhere>,
) -> Result<Registry, crate::error::Error> {
    #[cfg(feature = "builtin-tools")]
    let _ = elsewhere;
    #[cfg(not(feature = "builtin-tools"))]
    fn missing(what: &str) -> crate::error::Error {
        crate::error::Error::config(format!("this build of tao has no code for {what}"))
    }
    #[cfg(not(feature = "builtin-tools"))]
    let calculator = || {
        elsewhere
            .map(|e| e.calculator())
            .ok_or_else(|| missing("the calculator"))
    };
    #[cfg(not(feature = "builtin-tools"))]
    let offline = || {
        let made = elsewhere.map(|e| e.offline(lang));
        made.ok_or_else(|| missing("the offline search"))
    };
    #[cfg(feature = "builtin-tools")]
    let offline = || Ok::<_, crate::error::Error>(knowledge::tools(lang));
    let mut registry = Registry::new();
    // `search` and `lookup` share one browser state, so they are made together, and only when
    // asked for (reading the knowledge base is the costly part of building an agent).
    let mut knowledge: Option<Vec<Rc<dyn Tool>>> = None;
    for name in names {
        match name.as_str() {
            "search" | "lookup" => {
                if knowledge.is_none() {
                    knowledge = Some(offline()?);
                }
                // (Both makers make the two, in this order.)
                if let Some([search, lookup]) = knowledge.as_deref() {
                    registry.register(if name == "search" { search } else { lookup }.clone());
                }
            }
            #[cfg(feature = "builtin-tools")]
            "calculator" => registry.register(calculator::tool()),
            #[cfg(not(feature = "builtin-tools"))]
            "calculator" => registry.register(calculator()?),
            "search_docs" => {
                return Err(crate::error::Error::config(
                    "search_docs needs the documents to search: set docs to a list of {title, url, text} or to the URL of a JSON file of them",
                ))
            }
            other => {
                return Err(crate::error::Error::config(format!(
                    "unknown built-in tool \"{other}\"; the built-in tools are: search, lookup, calculator, search_docs (tools made in JS, such as the page's wasm tools, are added with registerTool)"
                )))
            }
        }
    }
    Ok(registry)
}
