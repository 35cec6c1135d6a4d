//! The scripted model: deterministic replies with no key and no network.
//!
//! Two ways to script it, both of which a student can read as data:
//! - **rules**, like the seed's `simulated_llm_policy`: each rule says "when the latest
//!   observation contains X, reply with this thought and this action (or answer)". The rule
//!   sees only the prompt, exactly as a real model would;
//! - **replay**: a list of raw replies returned in order (for transcript tests and recorded
//!   runs).
//!
//! Replies are streamed in small deltas with a configurable delay so a page shows them
//! arriving, and the stream stops as soon as the reader says so (the client-side stop).

use crate::error::Error;
use crate::format::parse::{parse, Verdict};
use crate::format::{Format, Lang, Move};
use crate::host::{Host, LocalBoxFuture};
use crate::json::Value;
use crate::json::{invalid_type, FromJson, Object};
use crate::llm::{Delta, Model, OnDelta, Reply, Request, Role, ToolCall};
use std::cell::Cell;
use std::rc::Rc;

/// Text in English and Chinese, or one string for both.
#[derive(Clone, Debug)]
pub enum Text {
    /// The same text in every language.
    Same(String),
    /// Per language; a missing Chinese text falls back to English.
    Localized {
        /// English.
        en: String,
        /// Chinese.
        zh: Option<String>,
    },
}

impl Text {
    /// The text in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match self {
            Text::Same(s) => s,
            Text::Localized { en, zh } => match (lang, zh) {
                (Lang::Zh, Some(zh)) => zh,
                _ => en,
            },
        }
    }
}

/// When a rule applies.
#[derive(Clone, Debug)]
pub enum When {
    /// `"start"` (no step yet), `"*"` (always), or a text the latest observation contains.
    One(String),
    /// Any of these texts (e.g. the English and the Chinese wording).
    Any(Vec<String>),
}

/// One rule of a policy: a condition and the reply it gives.
#[derive(Clone, Debug)]
pub struct Rule {
    /// When the rule applies.
    pub when: When,
    /// The thought (rendered in the run's format).
    pub thought: Option<Text>,
    /// The tool to call.
    pub tool: Option<String>,
    /// The tool's input: a text, or a JSON value.
    pub input: Option<Value>,
    /// The final answer.
    pub answer: Option<Text>,
    /// A raw reply instead of a rendered one (to show malformed or hallucinating models).
    pub raw: Option<Text>,
}

// Reading scenario files (see `crate::json` for why this is not derived).

impl FromJson for Text {
    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::String(s) => Ok(Text::Same(s.clone())),
            Value::Object(_) => {
                let o = Object::new(value, "a text")?;
                Ok(Text::Localized {
                    en: o.required("en")?,
                    zh: o.or_default("zh")?,
                })
            }
            other => Err(invalid_type(other, "a text, or {\"en\": .., \"zh\": ..}")),
        }
    }
}

impl FromJson for When {
    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::String(s) => Ok(When::One(s.clone())),
            other => Vec::from_value(other)
                .map(When::Any)
                .map_err(|_| invalid_type(other, "a text or a list of texts")),
        }
    }
}

impl FromJson for Rule {
    fn from_value(value: &Value) -> Result<Self, String> {
        let o = Object::new(value, "struct Rule")?;
        let mut rule = Rule {
            when: o.required("when")?,
            thought: None,
            tool: None,
            input: None,
            answer: None,
            raw: None,
        };
        o.read("thought", &mut rule.thought)?;
        o.read("tool", &mut rule.tool)?;
        o.read("input", &mut rule.input)?;
        o.read("answer", &mut rule.answer)?;
        o.read("raw", &mut rule.raw)?;
        Ok(rule)
    }
}

impl Rule {
    /// Whether the rule applies to the latest message, and what its `{name}` slots caught
    /// there (see [`capture`]).
    fn applies(&self, is_start: bool, latest: &str) -> Option<Vec<(String, String)>> {
        let one = |w: &str| match w {
            "start" => is_start.then(Vec::new),
            "*" => Some(Vec::new()),
            _ if is_start => None,
            text => capture(text, latest),
        };
        match &self.when {
            When::One(w) => one(w),
            When::Any(ws) => ws.iter().find_map(|w| one(w)),
        }
    }

    /// The reply text for step `n`, with the slots the rule caught filled in.
    fn reply(&self, format: Format, lang: Lang, n: u32, caught: &[(String, String)]) -> String {
        let fill = |text: &str| {
            let mut text = text.to_string();
            for (name, value) in caught {
                text = text.replace(&format!("{{{name}}}"), value);
            }
            text
        };
        if let Some(raw) = &self.raw {
            return fill(raw.get(lang));
        }
        let thought = fill(self.thought.as_ref().map(|t| t.get(lang)).unwrap_or(""));
        let thought = thought.as_str();
        let input = match &self.input {
            Some(Value::Object(map)) if map.keys().all(|k| k == "en" || k == "zh") => {
                let key = if lang == Lang::Zh && map.contains_key("zh") {
                    "zh"
                } else {
                    "en"
                };
                map.get(key).cloned().unwrap_or(Value::Null)
            }
            Some(other) => other.clone(),
            None => Value::String(String::new()),
        };
        let input = match input {
            Value::String(text) => Value::String(fill(&text)),
            other => other,
        };
        match (&self.tool, &self.answer) {
            (Some(tool), _) => format.turn(
                n,
                thought,
                Move::Act {
                    tool,
                    input: &input,
                },
            ),
            (None, Some(answer)) => format.turn(n, thought, Move::Answer(&fill(answer.get(lang)))),
            (None, None) => thought.to_string(),
        }
    }
}

/// Matches a rule's text against the latest message. A plain text matches when the message
/// contains it. A text with a slot, `born in {place}`, matches when the message contains the
/// text before the slot; the slot catches what follows, up to the text after the slot when
/// there is one (`about {ml} ml`), else up to the end of the sentence. A slot whose name starts
/// with `#` (`{#total}`) catches only a number. So a rule can answer with what the observation
/// actually says, and an edited observation changes the answer.
fn capture(pattern: &str, message: &str) -> Option<Vec<(String, String)>> {
    let Some((before, rest)) = pattern.split_once('{') else {
        return message.contains(pattern).then(Vec::new);
    };
    let (name, after) = rest.split_once('}')?;
    let at = message.find(before)? + before.len();
    let tail = &message[at..];
    let end = match after {
        "" => tail.find(['.', ';', '!', '?', '\n', '。', '；', '！', '？']),
        after => tail.find(after),
    };
    let caught = tail[..end.unwrap_or(tail.len())].trim();
    let number = |s: &str| s.chars().all(|c| c.is_ascii_digit() || ".,-".contains(c));
    let name = match name.strip_prefix('#') {
        Some(name) if number(caught) => name,
        Some(_) => return None,
        None => name,
    };
    (!caught.is_empty()).then(|| vec![(name.to_string(), caught.to_string())])
}

/// How the scripted model decides what to say.
#[derive(Clone, Debug)]
pub enum Policy {
    /// The first rule that applies to the latest observation.
    Rules(Vec<Rule>),
    /// These replies, in order.
    Replay(Vec<String>),
}

/// The scripted model.
pub struct Scripted {
    name: String,
    policy: Policy,
    format: Format,
    lang: Lang,
    /// Pause between deltas, in milliseconds (0: as fast as possible).
    pub delay_ms: u32,
    /// Characters per streamed delta.
    pub chunk_chars: usize,
    /// The only question a rule policy answers (its scenario's task), when it has one.
    pub task: Option<Text>,
    replayed: Cell<usize>,
    host: Rc<dyn Host>,
}

impl Scripted {
    /// A scripted model called `scripted:<name>` following `policy`, rendering rule replies in
    /// `format` and `lang`, pacing its stream with `host`.
    pub fn new(name: &str, policy: Policy, format: Format, lang: Lang, host: Rc<dyn Host>) -> Self {
        Scripted {
            name: format!("scripted:{name}"),
            policy,
            format,
            lang,
            delay_ms: 0,
            chunk_chars: 4,
            task: None,
            replayed: Cell::new(0),
            host,
        }
    }

    /// The offline model plays its scenario and nothing else: asked another question, it says
    /// so instead of answering its own scenario's question as if it were this one.
    fn check_task(&self, request: &Request) -> Result<(), Error> {
        let Some(task) = &self.task else {
            return Ok(());
        };
        let question = request
            .messages
            .iter()
            .find(|m| m.role == Role::User)
            .map_or("", |m| m.content.as_str());
        let question = question.trim();
        let question = question
            .strip_prefix("Question:")
            .unwrap_or(question)
            .trim();
        // A long run's summary follows the question in the same message (see `crate::prompt`).
        let same = |t: &str| {
            let rest = question.strip_prefix(t.trim());
            !t.is_empty() && rest.is_some_and(|rest| rest.is_empty() || rest.starts_with("\n\n"))
        };
        match task {
            Text::Same(t) if same(t) => Ok(()),
            Text::Localized { en, zh } if same(en) || zh.as_deref().is_some_and(same) => Ok(()),
            _ => Err(Error::model(format!(
                "the offline model only plays its own scenario (\"{}\"); to ask another question, choose You (type the model's replies) or a real model",
                task.get(self.lang)
            ))),
        }
    }

    /// The whole reply this model gives to `request` (before streaming).
    pub fn reply_to(&self, request: &Request) -> Result<String, Error> {
        match &self.policy {
            Policy::Replay(replies) => {
                let i = self.replayed.get();
                self.replayed.set(i + 1);
                replies.get(i).cloned().ok_or_else(|| {
                    Error::model(format!(
                        "the scripted replies ran out after {} replies",
                        replies.len()
                    ))
                })
            }
            Policy::Rules(rules) => {
                // Like a real model, the policy sees only the prompt: how many turns it has
                // taken, and the latest message (the question, or the latest observation).
                let turns = turns_taken(request.messages);
                let latest = request
                    .messages
                    .last()
                    .map(|m| m.content.as_str())
                    .unwrap_or("");
                let n = turns as u32 + 1;
                self.check_task(request)?;
                rules
                    .iter()
                    .find_map(|r| Some((r, r.applies(turns == 0, latest)?)))
                    .map(|(r, caught)| r.reply(self.format, self.lang, n, &caught))
                    .ok_or_else(|| Error::model("the scripted policy has no rule for this observation; add a rule with \"when\": \"*\""))
            }
        }
    }
}

/// How many steps the prompt shows were taken, as a real model would read it: its own turns,
/// and the steps a long run's summary stands for ("Summary of steps 1-N", see `crate::prompt`).
fn turns_taken(messages: &[crate::llm::Message]) -> usize {
    let own = messages
        .iter()
        .filter(|m| m.role == Role::Assistant)
        .count();
    let condensed = messages.iter().find_map(|m| {
        let text = &m.content;
        let (en, zh) = (text.find("Summary of steps 1-"), text.find("第 1-"));
        let at = en
            .map(|i| i + "Summary of steps 1-".len())
            .or(zh.map(|i| i + "第 1-".len()))?;
        let digits: String = text[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse::<usize>().ok()
    });
    own + condensed.unwrap_or(0)
}

impl Model for Scripted {
    fn writes_memos(&self) -> bool {
        false
    }
    fn name(&self) -> String {
        self.name.clone()
    }

    fn complete<'a>(
        &'a self,
        request: Request<'a>,
        on_delta: OnDelta<'a>,
    ) -> LocalBoxFuture<'a, Result<Reply, Error>> {
        Box::pin(async move {
            let mut text = self.reply_to(&request)?;
            // Offered native tools, the scripted model plays a model that calls them: its
            // scripted text action becomes a tool call, and only the thought is streamed (or,
            // for an answer, only the answer). Replies that are not ReAct stay text.
            let mut tool_calls = Vec::new();
            if !request.tools.is_empty() {
                let options = Format::Mrkl.parse_options_for(request.tools);
                match parse(&text, &options).verdict {
                    Verdict::Action {
                        thought,
                        tool,
                        input,
                    } => {
                        let arguments = match input {
                            Value::String(s) => {
                                let field = request
                                    .tools
                                    .iter()
                                    .find(|t| t.name.eq_ignore_ascii_case(&tool))
                                    .and_then(|t| t.parameters["required"][0].as_str())
                                    .unwrap_or("input");
                                crate::json::object(vec![(field, s.into())])
                            }
                            other => other,
                        };
                        let step = turns_taken(request.messages) as u32 + 1;
                        tool_calls.push(ToolCall {
                            // Named like tao's own ids: `call_<step>`.
                            id: crate::format::tools::call_id(step, 0),
                            name: tool,
                            arguments,
                        });
                        text = thought;
                    }
                    Verdict::Final { answer, .. } => text = answer,
                    Verdict::Error { .. } => {}
                }
            }
            let chars: Vec<char> = text.chars().collect();
            let mut sent = 0;
            for chunk in chars.chunks(self.chunk_chars.max(1)) {
                if self.delay_ms > 0 {
                    self.host.sleep(self.delay_ms).await;
                }
                let delta: String = chunk.iter().collect();
                sent += chunk.len();
                if !on_delta(Delta::Text(&delta)) {
                    break; // the reader has what it needs (or the run was aborted)
                }
            }
            Ok(Reply {
                thinking: None,
                usage: None,
                tool_calls,
                unsent_chars: (chars.len() - sent) as u32,
            })
        })
    }
}
