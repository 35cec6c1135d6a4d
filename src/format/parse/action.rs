//! Reading one action: from the block its `Action:` label starts to a tool call, a final
//! answer, or a failure that says what was wrong.
//!
//! The head (`head.rs`) decides the shape; this file finds where the input ends (brackets
//! that balance, one JSON value, a closing fence, or for plain text the next label or a blank
//! line), checks the tool's name against the registered tools, and recognises the final
//! answer written as an action (`Finish[x]`, `Action: Final Answer`).

use super::head::{clean_name, parse_head, Head};
use super::json::{
    close_to_open, find_close, parse_json_if_json, parse_json_lenient, scan_json_end,
};
use super::labels::{marker_parts, Label};
use super::messages::message_for;
use super::resolve::{with_next, Reader, Step};
use super::{sub, trim, trim_start, ParseOptions, Style, Why};
use crate::json::Value;

impl Reader<'_> {
    /// Reads the action whose label starts block `b`.
    pub(super) fn read_action(&mut self, b: usize) -> Step {
        let blk = self.blocks[b];
        let label_line = self.lines[blk.first];
        let mut head_at = blk.content;
        let mut head_end = label_line.end;
        // The name may sit on a later line: `Action:\n    Terminal`, `Action 7:\n\nFinish[X]`.
        if trim(sub(self.text, head_at, head_end)).is_empty() {
            let found = (blk.first + 1..blk.last).find(|&i| {
                !trim(sub(self.text, self.lines[i].start, self.lines[i].end)).is_empty()
            });
            let Some(i) = found else {
                return Step::Fail {
                    why: Why::MissingAction,
                    message: self.message_for("Your `Action:` line named no tool."),
                    next: b + 1,
                    decisive: false,
                };
            };
            let line = self.lines[i];
            let t = sub(self.text, line.start, line.end);
            head_at = line.start + (t.len() - trim_start(t).len());
            head_end = line.end;
        }
        let head = sub(self.text, head_at, head_end);
        match parse_head(head) {
            Head::Blank => Step::Skip { next: b + 1 },
            Head::None => {
                // `Action: None` may come with an `Action Input:` of its own; skip both.
                let next =
                    if self.blocks.get(b + 1).and_then(|k| k.label) == Some(Label::ActionInput) {
                        b + 2
                    } else {
                        b + 1
                    };
                Step::Skip { next }
            }
            Head::WithFinal => Step::Fail {
                why: Why::ActionAndFinal,
                message: self.message_for(
                    "Your `Action:` line also contained a final answer, so it is unclear which \
                     you meant. Give one: an action, or the final answer.",
                ),
                next: b + 1,
                decisive: true,
            },
            Head::Json => match scan_json_end(self.text, head_at) {
                Some(end) => {
                    let json = sub(self.text, head_at, end);
                    match self.blob_step(json, usize::MAX) {
                        Some(step) => with_next(step, self.block_from(end)),
                        None => self.bad_blob(b),
                    }
                }
                None => self.truncated("the JSON after `Action:` was never closed", b),
            },
            Head::Fence => {
                let open = self.line_at(head_at);
                let Some(close) = self.fence_close_after(open) else {
                    return self.truncated("the code fence after `Action:` was never closed", b);
                };
                let inner = trim(sub(
                    self.text,
                    self.lines[open].end,
                    self.lines[close].start,
                ));
                match self.blob_step(inner, close + 1) {
                    Some(step) => step,
                    None => self.bad_blob(b),
                }
            }
            Head::Bracket { name, open, close } | Head::Paren { name, open, close } => {
                let open_abs = head_at + open;
                let Some(close_at) = find_close(self.text, open_abs, blk.end, close) else {
                    if blk.end >= self.text.len() {
                        return self.truncated(
                            &format!("`{name}{}` was never closed", close_to_open(close) as char),
                            b,
                        );
                    }
                    return Step::Fail {
                        why: Why::UnclosedBracket,
                        message: self.message_for(&format!(
                            "`{name}{}` was not closed before the next label.",
                            close_to_open(close) as char
                        )),
                        next: b + 1,
                        decisive: false,
                    };
                };
                let mut input = trim(sub(self.text, open_abs + 1, close_at));
                if close == b')' {
                    input = unquote(input);
                }
                let line_end = self.lines[self.line_at(close_at)].end;
                let after = trim(sub(self.text, close_at + 1, line_end.max(close_at + 1)));
                if !after.is_empty() {
                    self.notes
                        .push(format!("ignored text after '{}': {after}", close as char));
                }
                let next = self.block_from(close_at + 1).max(b + 1);
                self.call_or_answer(name, Value::String(input.to_string()), true, next)
            }
            Head::Colon { name, rest } => {
                let at = head_at + rest;
                let t = sub(self.text, at, head_end);
                if t.starts_with('{') || t.starts_with('[') {
                    if let Some((value, end)) = self.json_input(at) {
                        let next = self.block_from(end).max(b + 1);
                        return self.call_or_answer(name, value, true, next);
                    }
                }
                self.call_or_answer(name, Value::String(unquote(trim(t)).into()), false, b + 1)
            }
            Head::Name(name) => {
                if let Err(message) = tool_name(name, self.options) {
                    if !is_finish(name, self.options) && !name.eq_ignore_ascii_case("final answer")
                    {
                        return Step::Fail {
                            why: Why::UnknownTool,
                            message,
                            next: b + 1,
                            decisive: self.blocks.get(b + 1).and_then(|k| k.label)
                                == Some(Label::ActionInput),
                        };
                    }
                }
                if self.blocks.get(b + 1).and_then(|k| k.label) != Some(Label::ActionInput) {
                    let what = if self.options.style == Style::Paper {
                        format!(
                            "Your reply named `{name}` without its input in brackets: write \
                             `{name}[<input>]`."
                        )
                    } else {
                        format!(
                            "Your reply named the tool `{name}` but had no `Action Input:` line \
                             after it."
                        )
                    };
                    return Step::Fail {
                        why: Why::MissingActionInput,
                        message: self.message_for(&what),
                        next: b + 1,
                        decisive: false,
                    };
                }
                match self.read_input(b + 1) {
                    Ok((input, delimited, next)) => {
                        self.call_or_answer(name, input, delimited, next)
                    }
                    Err(step) => step,
                }
            }
        }
    }

    fn bad_blob(&self, b: usize) -> Step {
        Step::Fail {
            why: Why::BadJson,
            message: self.message_for(
                "The JSON after `Action:` was not an object with an \"action\" key naming the \
                 tool and an \"action_input\".",
            ),
            next: b + 1,
            decisive: false,
        }
    }

    fn truncated(&self, what: &str, b: usize) -> Step {
        Step::Fail {
            why: Why::Truncated,
            message: self.message_for(&format!("Your reply was cut off: {what}.")),
            next: b + 1,
            decisive: false,
        }
    }

    /// One JSON value starting at byte `at`: the value (or its raw text when it does not
    /// parse, noted) and the offset after it.
    fn json_input(&mut self, at: usize) -> Option<(Value, usize)> {
        let end = scan_json_end(self.text, at)?;
        let raw = sub(self.text, at, end);
        let value = match parse_json_lenient(raw) {
            Ok(v) => v,
            Err(e) => {
                self.notes.push(format!(
                    "the input looks like JSON but does not parse ({e}); passed as text"
                ));
                Value::String(raw.to_string())
            }
        };
        Some((value, end))
    }

    /// Reads the `Action Input:` block `ib`: the input, whether it has a clear end, and the
    /// index of the next block to read.
    fn read_input(&mut self, ib: usize) -> Result<(Value, bool, usize), Step> {
        let blk = self.blocks[ib];
        let body = sub(self.text, blk.content, blk.end);
        let s = blk.content + (body.len() - trim_start(body).len());
        if s >= blk.end {
            return Ok((Value::String(String::new()), false, ib + 1));
        }
        let rest = sub(self.text, s, blk.end);
        if rest.starts_with('{') || rest.starts_with('[') {
            let Some((value, end)) = self.json_input(s) else {
                return Err(self.truncated("the JSON in `Action Input:` was never closed", ib));
            };
            let next = self.block_from(end).max(ib + 1);
            let tail_end = self.blocks.get(next).map_or(self.text.len(), |k| k.start);
            if !trim(sub(self.text, end, tail_end.max(end))).is_empty() {
                self.notes.push("ignored text after the JSON input".into());
            }
            return Ok((value, true, next));
        }
        if rest.starts_with("```") || rest.starts_with("~~~") {
            return self.fenced_input(s, ib).map(|v| (v, true, ib + 1));
        }
        // Plain text: to the next label, or to a blank line outside a code fence.
        let first = self.line_at(s);
        let mut end = self.lines.get(first).map_or(blk.end, |l| l.end);
        for line in self.lines.get(first + 1..blk.last).unwrap_or(&[]) {
            if !line.fenced && trim(sub(self.text, line.start, line.end)).is_empty() {
                if !trim(sub(self.text, line.end, blk.end)).is_empty() {
                    self.notes
                        .push("ignored text after a blank line that ended the input".into());
                }
                break;
            }
            end = line.end;
        }
        let input = unquote(trim(sub(self.text, s, end.max(s))));
        Ok((Value::String(input.to_string()), false, ib + 1))
    }

    /// A fenced input starting at byte `s`: JSON when it holds JSON, otherwise the text with
    /// its fences (what LangChain's tests expect for code).
    fn fenced_input(&mut self, s: usize, ib: usize) -> Result<Value, Step> {
        let open = self.line_at(s);
        let line_end = self.lines.get(open).map_or(self.text.len(), |l| l.end);
        let first_line = sub(self.text, s, line_end);
        let fence = sub(first_line, 0, 3);
        // The fence opens and closes on one line: ```ls -l```.
        if let Some(close) = first_line.get(3..).and_then(|r| r.find(fence)) {
            let inner = trim(sub(first_line, 3, 3 + close));
            if let Ok(v) = parse_json_if_json(inner) {
                return Ok(v);
            }
            return Ok(Value::String(sub(first_line, 0, close + 6).to_string()));
        }
        let Some(close) = self.fence_close_after(open) else {
            return Err(self.truncated("the code fence in `Action Input:` was never closed", ib));
        };
        let tag = first_line
            .get(3..)
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        let inner = trim(sub(self.text, line_end, self.lines[close].start));
        if tag == "json" || tag.is_empty() {
            if let Ok(v) = parse_json_if_json(inner) {
                return Ok(v);
            }
        }
        Ok(Value::String(
            trim(sub(self.text, s, self.lines[close].end)).to_string(),
        ))
    }

    /// A named call: the final answer when the name says so, an unknown-tool failure, or a
    /// call.
    pub(super) fn call_or_answer(
        &self,
        name: &str,
        input: Value,
        delimited: bool,
        next: usize,
    ) -> Step {
        let name = clean_name(name);
        if name.eq_ignore_ascii_case("final answer")
            || name.eq_ignore_ascii_case("final_answer")
            || is_finish(name, self.options)
        {
            let answer = match input {
                Value::String(s) => trim(&s).to_string(),
                Value::Null => String::new(),
                other => crate::to_json::to_string(&other),
            };
            return Step::Answer { answer, next };
        }
        match tool_name(name, self.options) {
            Ok(tool) => Step::Call {
                tool: tool.to_string(),
                input,
                delimited,
                next,
            },
            Err(message) => Step::Fail {
                why: Why::UnknownTool,
                message,
                next,
                decisive: true,
            },
        }
    }
}

/// `Finish[x]` is the final answer in the paper's style, and in other styles unless a tool
/// of that name is registered.
pub(super) fn is_finish(name: &str, options: &ParseOptions) -> bool {
    let (kw, _) = marker_parts(options);
    name.eq_ignore_ascii_case(kw)
        && (options.style == Style::Paper
            || !options
                .tools
                .iter()
                .flatten()
                .any(|t| trim(t).eq_ignore_ascii_case(kw)))
}

/// The registered spelling of `name` (borrowed, so that checking a name copies nothing), or
/// the message naming the valid tools.
pub(super) fn tool_name<'a>(name: &'a str, options: &'a ParseOptions) -> Result<&'a str, String> {
    let name = trim(name);
    let Some(tools) = &options.tools else {
        return Ok(name);
    };
    // Exact first, then any case, then without the sentence's full stop (`search.`).
    let found = tools
        .iter()
        .find(|t| trim(t) == name)
        .or_else(|| tools.iter().find(|t| trim(t).eq_ignore_ascii_case(name)))
        .or_else(|| {
            let bare = name.trim_end_matches(['.', ',', ';']).trim_end();
            tools.iter().find(|t| trim(t).eq_ignore_ascii_case(bare))
        });
    if let Some(t) = found {
        return Ok(trim(t));
    }
    let what = match tools.is_empty() {
        true => format!("There are no tools here, so `{name}` cannot be used."),
        false => format!(
            "`{name}` is not one of the tools. The tools are: {}.",
            crate::text::join(tools, ", ")
        ),
    };
    Err(message_for(options, &what))
}

/// Removes one pair of wrapping double quotes from a plain input: `"NBA"` -> `NBA`.
fn unquote(s: &str) -> &str {
    match s.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(inner) if !inner.contains('"') => inner,
        _ => s,
    }
}
