//! JSON action blobs: `{"action": "search", "action_input": "q"}`, the shape LangChain's
//! structured-chat prompt asks for.
//!
//! A blob may follow `Action:`, sit in a code fence, or stand bare at the start of a line in
//! what is otherwise thought. Its tool is under `action`, `tool` or `tool_name` and its input
//! under `action_input`, `tool_input`, `input`, `arguments` or `args`; `"action": "Final
//! Answer"` is the final answer. A blob is always delimited, so what follows it cannot make
//! it ambiguous.

use super::json::{parse_json_lenient, scan_json_end};
use super::resolve::{with_next, Reader, Step};
use super::stream::LineKind;
use super::sub;
use crate::json::Value;

impl Reader<'_> {
    /// Looks for a JSON action blob in thought text (fenced, or bare at the start of a line).
    pub(super) fn find_blob(&self, b: usize, bare_ok: &mut bool) -> Option<(Step, usize)> {
        let blk = self.blocks[b];
        let mut i = if blk.label.is_some() {
            blk.first + 1
        } else {
            blk.first
        };
        while i < blk.last {
            let line = self.lines[i];
            if line.kind == LineKind::FenceOpen {
                let close = self.fence_close_after(i);
                let inner_end = close.map_or(self.text.len(), |c| self.lines[c].start);
                let inner = sub(self.text, line.end, inner_end).trim();
                if let Some(step) = self.blob_step(inner, close.map_or(blk.last, |c| c + 1)) {
                    return Some((step, line.start));
                }
                i = close.map_or(blk.last, |c| c + 1);
                continue;
            }
            let t = sub(self.text, line.start, line.end);
            if *bare_ok && !line.fenced && t.trim_start().starts_with('{') {
                let at = line.start + (t.len() - t.trim_start().len());
                match scan_json_end(self.text, at) {
                    None => *bare_ok = false,
                    Some(end) => {
                        if let Some(step) = self.blob_step(sub(self.text, at, end), usize::MAX) {
                            let step = with_next(step, self.block_from(end));
                            return Some((step, line.start));
                        }
                        i = self.line_at(end) + 1;
                        continue;
                    }
                }
            }
            i += 1;
        }
        None
    }

    /// Reads `{"action": .., "action_input": ..}`; `None` when `json` is not such a blob.
    /// `next_line` is the line index after the blob (converted to a block index).
    pub(super) fn blob_step(&self, json: &str, next_line: usize) -> Option<Step> {
        if !json.starts_with('{') {
            return None;
        }
        let value = parse_json_lenient(json).ok()?;
        let obj = value.as_object()?;
        let name = ["action", "tool", "tool_name"]
            .iter()
            .find_map(|k| obj.get(*k).and_then(Value::as_str))?;
        let input = ["action_input", "tool_input", "input", "arguments", "args"]
            .iter()
            .find_map(|k| obj.get(*k))
            .cloned()
            .unwrap_or_else(|| Value::String(String::new()));
        let next = match self.lines.get(next_line) {
            Some(l) => self.block_from(l.start),
            None => self.blocks.len(),
        };
        Some(self.call_or_answer(name, input, true, next))
    }
}
