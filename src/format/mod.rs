//! Prompt formats: how the trajectory is shown to the model, and how its reply is read.
//!
//! One file per format, each opening with its prompt text as a `const`, so a student reads the
//! prompt first and then the code that renders it:
//! - [`mrkl`]: `Thought: / Action: / Action Input: / Observation: / Final Answer:` (LangChain,
//!   Qwen-Agent);
//! - [`paper`]: `Thought n: / Action n: Tool[input] / Observation n:` with `Finish[answer]`
//!   (the ReAct paper);
//! - [`tools`]: native tool calling (OpenAI `tools`, Anthropic `tool_use`); `auto` is the same
//!   with a fallback to `mrkl` when the endpoint or the model does not do it;
//! - the paper's ablations, to compare with ReAct on one question: [`act`] (`paper` without
//!   thoughts), [`cot`] (no tools: `Thought: Let's think step by step...` then `Answer:`) and
//!   [`standard`] (no tools, no thoughts: `Answer:` at once).
//!
//! The text formats share one lenient, incremental reader, [`parse`]. Each file owns its
//! prompt, how a step reads as the model's turn, how an observation is labelled and where the
//! model must stop; walking the trajectory to put those together is `crate::prompt`'s job.

pub mod act;
pub mod cot;
pub mod mrkl;
pub mod paper;
pub mod parse;
pub mod standard;
pub mod tools;

use crate::json::Value;
use crate::tools::Registry;

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
    /// The paper's Act: `Action n: Tool[input] / Observation n`, no thoughts.
    Act,
    /// The paper's CoT: no tools, `Thought: ...` then `Answer: X`.
    Cot,
    /// The paper's Standard: no tools, `Answer: X` at once.
    Standard,
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
    /// The names [`Format::from_name`] reads, for error messages.
    pub const NAMES: &'static str = "mrkl, paper, tools, auto, act, cot or standard";

    /// `mrkl`, `paper`, `tools`, `auto`, `act`, `cot` or `standard`.
    pub fn from_name(name: &str) -> Option<Format> {
        match name.trim().to_ascii_lowercase().as_str() {
            "mrkl" | "react" => Some(Format::Mrkl),
            "paper" => Some(Format::Paper),
            "tools" | "native" => Some(Format::Tools),
            "auto" => Some(Format::Auto),
            "act" => Some(Format::Act),
            "cot" => Some(Format::Cot),
            "standard" => Some(Format::Standard),
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
            Format::Act => "act",
            Format::Cot => "cot",
            Format::Standard => "standard",
        }
    }

    /// Whether the model calls tools through the provider's API rather than in text.
    pub fn is_native(self) -> bool {
        matches!(self, Format::Tools | Format::Auto)
    }

    /// Whether the model is offered tools: every format but the paper's no-tool baselines
    /// (`cot`, `standard`), whose model answers from what it knows.
    pub fn has_tools(self) -> bool {
        !matches!(self, Format::Cot | Format::Standard)
    }

    /// The system message: how to answer, and the tools. `exemplars` (the paper's few-shot
    /// examples, or any) stand in for the worked example of the formats that have one
    /// (`paper`, `act`, `cot`, `standard`).
    pub fn instructions(self, tools: &Registry, lang: Lang, exemplars: Option<&str>) -> String {
        match self {
            Format::Mrkl => mrkl::instructions(tools, lang, exemplars),
            Format::Paper => paper::instructions(tools, lang, exemplars),
            Format::Tools | Format::Auto => self::tools::instructions(lang),
            Format::Act => act::instructions(tools, lang, exemplars),
            Format::Cot => cot::instructions(lang, exemplars),
            Format::Standard => standard::instructions(lang, exemplars),
        }
    }

    /// How step `n` reads as the model's turn in text (the native formats write `mrkl` text,
    /// which is what `auto` falls back to).
    pub fn turn(self, n: u32, thought: &str, next: Move) -> String {
        match self {
            Format::Paper => paper::turn(n, thought, next),
            Format::Act => act::turn(n, next),
            Format::Cot => cot::turn(thought, next),
            Format::Standard => standard::turn(thought, next),
            _ => mrkl::turn(thought, next),
        }
    }

    /// How the observation of step `n` is shown to the model in text.
    pub fn observation(self, n: u32, text: &str) -> String {
        match self {
            Format::Paper | Format::Act => paper::observation(n, text),
            _ => mrkl::observation(text),
        }
    }

    /// Where the model should stop in step `n`: before it writes an observation itself (the
    /// native formats need no stop: the provider ends the reply at the tool call). The no-tool
    /// modes wait for no observation; their reply is the whole answer, but a model that
    /// follows few-shot exemplars (`Question: ... Answer: ...`, over and over) goes on to
    /// write the next question, so they stop there.
    pub fn stop_sequences(self, n: u32) -> Vec<String> {
        match self {
            Format::Mrkl => vec![mrkl::STOP.into()],
            Format::Paper | Format::Act => vec![paper::stop(n)],
            Format::Tools | Format::Auto => Vec::new(),
            Format::Cot | Format::Standard => vec!["\nQuestion:".into()],
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

    /// The no-tool modes know no tool (so any action the model writes is a repair that says
    /// there are none, and no tool ever runs) and read `Answer:` as the final answer.
    pub(crate) fn parse_options_named(self, names: Vec<String>) -> parse::ParseOptions {
        let mut options = parse::ParseOptions::new(match self {
            Format::Paper | Format::Act => parse::Style::Paper,
            _ => parse::Style::Mrkl,
        });
        match self.has_tools() {
            true => options.tools = Some(names),
            false => {
                options.tools = Some(Vec::new());
                options.final_marker = Some(cot::ANSWER.into());
            }
        }
        options
    }
}

/// An action input as the model should see it: strings as they are, JSON compact.
pub fn input_text(input: &Value) -> std::borrow::Cow<'_, str> {
    match input {
        Value::String(s) => s.into(),
        other => crate::to_json::to_string(other).into(),
    }
}

/// `prompt`, then its worked `example`, or the `exemplars` given instead, introduced as the
/// paper's notebooks do.
fn with_examples(prompt: &str, example: &str, exemplars: Option<&str>, lang: Lang) -> String {
    match (exemplars.map(str::trim).filter(|e| !e.is_empty()), lang) {
        (None, _) => format!("{prompt}\n\n{example}"),
        (Some(given), Lang::En) => format!("{prompt}\n\nHere are some examples.\n{given}"),
        (Some(given), Lang::Zh) => format!("{prompt}\n\n以下是一些示例。\n{given}"),
    }
}

/// Tool descriptions in Qwen-Agent's style: name, description, then the JSON-Schema parameters
/// (labelled in the prompt's language).
pub fn tool_descriptions(tools: &Registry, lang: Lang) -> String {
    let label = match lang {
        Lang::En => " Parameters: ",
        Lang::Zh => " 参数：",
    };
    let descriptions: Vec<String> = tools
        .specs()
        .map(|t| {
            let parameters = crate::to_json::to_string(&t.parameters);
            format!("{}: {}{label}{parameters}", t.name, t.description)
        })
        .collect();
    crate::text::join(&descriptions, "\n\n")
}
