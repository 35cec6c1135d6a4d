//! The words models and tools share: the chat messages a model reads ([`Message`], [`Role`]),
//! the native tool calls it makes ([`ToolCall`]), what it is told about a tool ([`ToolSpec`]),
//! and the tokens it reports ([`Usage`]).
//!
//! These sit on the ground floor, below both `llm` (which sends them) and `tools` (which
//! describe themselves with them), so that neither has to import the other.

use crate::json::Value;
use crate::json::{json_struct, object, FromJson, Object};
use crate::to_json::{JsonWriter, ToJson};

/// Who says a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The instructions (format, tools).
    System,
    /// The question, and each observation in the text formats.
    User,
    /// The model's own earlier turns.
    Assistant,
    /// A tool's result, in native tool calling (the `tools` format).
    Tool,
}

impl Role {
    /// `system`, `user`, `assistant` or `tool`.
    pub fn name(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }
}

impl ToJson for Role {
    fn write_json(&self, out: &mut JsonWriter) {
        out.string(self.name());
    }
}

/// One chat message of the prompt.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub content: String,
    /// The tools an assistant turn called (native tool calling only; left out of the JSON
    /// when there are none).
    pub tool_calls: Vec<ToolCall>,
    /// The call a `Tool` message answers (left out of the JSON when there is none).
    pub tool_call_id: Option<String>,
    /// The reasoning an assistant turn began with, for the APIs that want it back (Anthropic,
    /// before tool calls); not part of the JSON.
    pub thinking: Option<Thinking>,
}

impl Message {
    /// A message from `role`.
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        Message {
            role,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: None,
            thinking: None,
        }
    }
}

/// `tool_calls` is left out when empty, `tool_call_id` when there is none.
impl ToJson for Message {
    fn write_json(&self, out: &mut JsonWriter) {
        let mut fields: Vec<(&str, &dyn ToJson)> =
            vec![("role", &self.role), ("content", &self.content)];
        if !self.tool_calls.is_empty() {
            fields.push(("tool_calls", &self.tool_calls));
        }
        if let Some(id) = &self.tool_call_id {
            fields.push(("tool_call_id", id));
        }
        out.object(&fields);
    }
}

/// Read back from the JSON a model function is given (the providers' module reads its
/// messages so): the fields above, and `thinking` when an assistant turn carries it.
impl FromJson for Message {
    fn from_value(value: &Value) -> Result<Self, String> {
        let o = Object::new(value, "struct Message")?;
        let role: String = o.required("role")?;
        Ok(Message {
            role: match role.as_str() {
                "system" => Role::System,
                "user" => Role::User,
                "assistant" => Role::Assistant,
                "tool" => Role::Tool,
                other => return Err(format!("unknown role \"{other}\"")),
            },
            content: o.or("content", String::new())?,
            tool_calls: o.or("tool_calls", Vec::new())?,
            tool_call_id: o.or("tool_call_id", None)?,
            thinking: o.or("thinking", None)?,
        })
    }
}

/// A model's visible reasoning: DeepSeek's `reasoning_content`, Anthropic's `thinking` block.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Thinking {
    /// What it reasoned.
    pub text: String,
    /// Anthropic's signature of the block: the API checks it when the block is sent back.
    pub signature: String,
    /// The opaque data of blocks the provider redacted (`redacted_thinking`), sent back as is.
    pub redacted: Vec<String>,
}

json_struct!(Thinking {
    text,
    signature,
    redacted
});

/// A native tool call: which tool, with which arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    /// The call's id, echoed by the tool result (`call_<step>` when tao renders it).
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// Its arguments (a JSON object, as the tool's schema describes).
    pub arguments: Value,
}

impl FromJson for ToolCall {
    fn from_value(value: &Value) -> Result<Self, String> {
        let o = Object::new(value, "struct ToolCall")?;
        Ok(ToolCall {
            id: o.required("id")?,
            name: o.required("name")?,
            arguments: o.or("arguments", Value::Null)?,
        })
    }
}

impl ToJson for ToolCall {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[
            ("id", &self.id),
            ("name", &self.name),
            ("arguments", &self.arguments),
        ]);
    }
}

/// What the model is told about a tool.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolSpec {
    /// The name the model writes after `Action:`.
    pub name: String,
    /// What the tool is for, in one or two sentences.
    pub description: String,
    /// JSON Schema of the input.
    pub parameters: Value,
    /// Whether the user must approve each call before it runs (a denial is the observation).
    /// Not shown to the model.
    pub needs_approval: bool,
    /// How long a call may take before it is abandoned with an error observation; `None`
    /// uses the agent's default. Not shown to the model.
    pub timeout_ms: Option<u32>,
    /// Whether calls may run at the same time as other calls of the same reply (a model may
    /// make several at once): true for tools without side effects on shared state. Not shown
    /// to the model.
    pub concurrent: bool,
}

impl ToolSpec {
    /// A spec with a name, a description and an input schema; no approval, default timeout.
    pub fn new(name: &str, description: &str, parameters: Value) -> Self {
        ToolSpec {
            name: name.into(),
            description: description.into(),
            parameters,
            needs_approval: false,
            timeout_ms: None,
            concurrent: false,
        }
    }
}

impl ToolSpec {
    /// The spec a page gives `registerTool(spec, fn)`, checked: `{name, description,
    /// parameters?}`, the name one word.
    pub fn registered(value: &Value) -> Result<ToolSpec, crate::error::Error> {
        let spec = ToolSpec::from_value(value).map_err(|e| {
            crate::error::Error::config(format!(
                "registerTool needs {{name, description, parameters?}}: {e}"
            ))
        })?;
        if spec.name.trim().is_empty() || spec.name.contains(char::is_whitespace) {
            return Err(crate::error::Error::config(
                "registerTool: the tool name must be one word, e.g. \"search_docs\"",
            ));
        }
        Ok(spec)
    }
}

/// A tool as `agent.tools()` lists it (and as the MCP client hands one to the core): what the
/// model is told, and whether a call asks first.
pub struct Listed<'a>(pub &'a ToolSpec);

impl ToJson for Listed<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        let spec = self.0;
        out.object(&[
            ("name", &spec.name),
            ("description", &spec.description),
            ("parameters", &spec.parameters),
            ("needsApproval", &spec.needs_approval),
        ]);
    }
}

/// Read from the JSON a page gives `registerTool` (camelCase, as JS writes it; see
/// `crate::json` for why this is not derived). Without `parameters`, the tool takes one
/// string called `input`.
impl FromJson for ToolSpec {
    fn from_value(value: &Value) -> Result<Self, String> {
        let o = Object::new(value, "struct ToolSpec")?;
        Ok(ToolSpec {
            name: o.required("name")?,
            description: o.required("description")?,
            parameters: o.or("parameters", string_schema("input"))?,
            needs_approval: o.or("needsApproval", false)?,
            timeout_ms: o.or("timeoutMs", None)?,
            concurrent: o.or("concurrent", false)?,
        })
    }
}

/// What the model is told: the approval and the timeout are the page's business, not its.
impl ToJson for ToolSpec {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[
            ("name", &self.name),
            ("description", &self.description),
            ("parameters", &self.parameters),
        ]);
    }
}

/// The schema of a tool that takes one string, called `field`.
pub fn string_schema(field: &str) -> Value {
    // {"type": "object", "properties": {field: {"type": "string"}}, "required": [field]}
    let string = object(vec![("type", "string".into())]);
    object(vec![
        ("type", "object".into()),
        ("properties", object(vec![(field, string)])),
        ("required", vec![field].into()),
    ])
}

/// Token counts reported by a provider.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Usage {
    /// Tokens in the prompt (those read from the cache included).
    pub prompt_tokens: u64,
    /// Tokens generated.
    pub completion_tokens: u64,
    /// Tokens of the prompt the model did not evaluate again: read from its cache (the in-tab
    /// engine's KV cache, OpenAI's `cached_tokens`, Anthropic's cache reads).
    pub cached_tokens: u64,
    /// How fast the prompt was read (the tokens evaluated, not those from the cache), in tokens
    /// per second, where the model says (the in-tab engine).
    pub prompt_per_second: Option<f64>,
    /// How fast the reply was written, in tokens per second, where the model says.
    pub reply_per_second: Option<f64>,
}

json_struct!(Usage {
    prompt_tokens,
    completion_tokens,
    cached_tokens,
    prompt_per_second,
    reply_per_second
});

impl std::ops::AddAssign for Usage {
    /// Counts add up; speeds do not (a sum has none).
    fn add_assign(&mut self, other: Usage) {
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
        self.cached_tokens += other.cached_tokens;
        self.prompt_per_second = None;
        self.reply_per_second = None;
    }
}
