//! Prompt formats: how the trajectory is shown to the model, and how its reply is read.
//!
//! One file per format, each opening with its prompt text as a `const`, so a student reads the
//! prompt first and then the code that renders it:
//! - [`mrkl`]: `Thought: / Action: / Action Input: / Observation: / Final Answer:` (LangChain,
//!   Qwen-Agent);
//! - [`paper`]: `Thought n: / Action n: Tool[input] / Observation n:` with `Finish[answer]`
//!   (the ReAct paper);
//! - [`tools`]: native tool calling (OpenAI `tools`, Anthropic `tool_use`); `auto` is the same
//!   with a fallback to `mrkl` when the endpoint or the model does not do it.
//!
//! Both text formats share one lenient, incremental reader, [`parse`]. Each file owns its
//! prompt, how a step reads as the model's turn, how an observation is labelled and where the
//! model must stop; walking the trajectory to put those together is `crate::prompt`'s job.

pub mod mrkl;
pub mod paper;
pub mod parse;
pub mod tools;

use crate::tools::Registry;
use serde_json::Value;

/// A prompt format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// `Thought / Action / Action Input / Observation / Final Answer`.
    #[default]
    Mrkl,
    /// `Thought n / Action n: Tool[input] / Observation n`, `Finish[answer]`.
    Paper,
    /// Native tool calling; an endpoint that rejects it is an error.
    Tools,
    /// Native tool calling, falling back to `mrkl` when the endpoint rejects tools or the
    /// model answers in text ReAct.
    Auto,
}

/// The language of the prompt (the labels stay English in both: models follow them best, and
/// Qwen-Agent's Chinese prompt keeps them too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Chinese.
    Zh,
}

impl Lang {
    /// `en` or `zh`.
    pub fn from_name(name: &str) -> Option<Lang> {
        match name.trim().to_ascii_lowercase().as_str() {
            "en" | "english" => Some(Lang::En),
            "zh" | "cn" | "zh-cn" | "chinese" | "中文" => Some(Lang::Zh),
            _ => None,
        }
    }
    /// The short name.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }
}

/// What the model did in a step, as shown back to it.
#[derive(Clone, Copy, Debug)]
pub enum Move<'a> {
    /// Called a tool.
    Act {
        /// The tool.
        tool: &'a str,
        /// Its input.
        input: &'a Value,
    },
    /// Answered.
    Answer(&'a str),
}

impl Format {
    /// `mrkl`, `paper`, `tools` or `auto`.
    pub fn from_name(name: &str) -> Option<Format> {
        match name.trim().to_ascii_lowercase().as_str() {
            "mrkl" | "react" => Some(Format::Mrkl),
            "paper" => Some(Format::Paper),
            "tools" | "native" => Some(Format::Tools),
            "auto" => Some(Format::Auto),
            _ => None,
        }
    }

    /// The short name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Mrkl => "mrkl",
            Format::Paper => "paper",
            Format::Tools => "tools",
            Format::Auto => "auto",
        }
    }

    /// Whether the model calls tools through the provider's API rather than in text.
    pub fn is_native(self) -> bool {
        matches!(self, Format::Tools | Format::Auto)
    }

    /// The system message: how to answer, and the tools.
    pub fn instructions(self, tools: &Registry, lang: Lang) -> String {
        match self {
            Format::Mrkl => mrkl::instructions(tools, lang),
            Format::Paper => paper::instructions(tools, lang),
            Format::Tools | Format::Auto => self::tools::instructions(lang),
        }
    }

    /// How step `n` reads as the model's turn in text (the native formats write `mrkl` text,
    /// which is what `auto` falls back to).
    pub fn turn(self, n: u32, thought: &str, next: Move) -> String {
        match self {
            Format::Paper => paper::turn(n, thought, next),
            _ => mrkl::turn(thought, next),
        }
    }

    /// How the observation of step `n` is shown to the model in text.
    pub fn observation(self, n: u32, text: &str) -> String {
        match self {
            Format::Paper => paper::observation(n, text),
            _ => mrkl::observation(text),
        }
    }

    /// Where the model should stop in step `n`: before it writes an observation itself (the
    /// native formats need no stop: the provider ends the reply at the tool call).
    pub fn stop_sequences(self, n: u32) -> Vec<String> {
        match self {
            Format::Mrkl => vec![mrkl::STOP.into()],
            Format::Paper => vec![paper::stop(n)],
            Format::Tools | Format::Auto => Vec::new(),
        }
    }

    /// How the reply to step `n` is read (text replies in the native formats as `mrkl`).
    pub fn parse_options(self, tools: &Registry) -> parse::ParseOptions {
        self.parse_options_named(tools.names())
    }

    /// Like [`Format::parse_options`], for a list of tool specs.
    pub fn parse_options_for(self, tools: &[crate::tools::ToolSpec]) -> parse::ParseOptions {
        self.parse_options_named(tools.iter().map(|t| t.name.clone()).collect())
    }

    pub(crate) fn parse_options_named(self, names: Vec<String>) -> parse::ParseOptions {
        let mut options = parse::ParseOptions::new(match self {
            Format::Paper => parse::Style::Paper,
            _ => parse::Style::Mrkl,
        });
        options.tools = Some(names);
        options
    }
}

/// An action input as the model should see it: strings as they are, JSON compact.
pub fn input_text(input: &Value) -> String {
    match input {
        Value::String(s) => s.clone(),
        other => crate::to_json::to_string(other),
    }
}

/// Tool descriptions in Qwen-Agent's style: name, description, then the JSON-Schema parameters.
pub fn tool_descriptions(tools: &Registry) -> String {
    tools
        .specs()
        .map(|t| {
            let parameters = crate::to_json::to_string(&t.parameters);
            format!("{}: {} Parameters: {parameters}", t.name, t.description)
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}
