//! Brackets and JSON: where a value ends, and reading the JSON models actually write.
//!
//! Finding the end of a JSON value must skip brackets inside strings (`{"q": "a ] b"}`) and
//! must work on a stream that stops anywhere, so [`JsonScan`] is resumable. Tool inputs in
//! brackets nest (`Lookup[The Dark Tower (2017 film)]`), so bracket matching counts depth.
//! And models put raw newlines and tabs inside JSON strings, which strict JSON forbids, so
//! [`parse_json_lenient`] escapes them and tries again.

use crate::json::Value;

/// String-aware bracket matching, resumable across chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) struct JsonScan {
    depth: usize,
    in_string: bool,
    escaped: bool,
    started: bool,
}

impl JsonScan {
    /// Feeds bytes; returns the index just after the byte that closed the value, if one did.
    pub(super) fn feed(&mut self, bytes: &[u8]) -> Option<usize> {
        for (i, &c) in bytes.iter().enumerate() {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if c == b'\\' {
                    self.escaped = true;
                } else if c == b'"' {
                    self.in_string = false;
                }
                continue;
            }
            match c {
                b'"' if self.started => self.in_string = true,
                b'{' | b'[' => {
                    self.started = true;
                    self.depth += 1;
                }
                b'}' | b']' if self.started => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// The offset after the JSON value that starts at `at` (string-aware bracket matching), or
/// `None` if it never closes.
pub(super) fn scan_json_end(text: &str, at: usize) -> Option<usize> {
    let mut scan = JsonScan::default();
    let bytes = text.as_bytes().get(at..)?;
    scan.feed(bytes).map(|n| at + n)
}

/// Parses JSON, forgiving raw newlines and tabs inside strings (models write them).
pub(super) fn parse_json_lenient(s: &str) -> Result<Value, String> {
    match crate::json::from_str(s) {
        Ok(v) => Ok(v),
        Err(first) => {
            let mut fixed = String::with_capacity(s.len() + 16);
            let mut in_string = false;
            let mut escaped = false;
            for c in s.chars() {
                if in_string {
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == '"' {
                        in_string = false;
                    } else if c == '\n' {
                        fixed.push_str("\\n");
                        continue;
                    } else if c == '\r' {
                        fixed.push_str("\\r");
                        continue;
                    } else if c == '\t' {
                        fixed.push_str("\\t");
                        continue;
                    }
                } else if c == '"' {
                    in_string = true;
                }
                fixed.push(c);
            }
            crate::json::from_str(&fixed).map_err(|_| first.to_string())
        }
    }
}

pub(super) fn parse_json_if_json(s: &str) -> Result<Value, String> {
    if s.starts_with('{') || s.starts_with('[') {
        parse_json_lenient(s)
    } else {
        Err("not json".into())
    }
}

pub(super) fn close_to_open(close: u8) -> u8 {
    if close == b')' {
        b'('
    } else {
        b'['
    }
}

/// Continues matching `open` brackets at `depth` over `bytes`: `Ok` when they balance.
pub(super) fn bracket_feed(open: u8, mut depth: usize, bytes: &[u8]) -> Result<(), usize> {
    let close = if open == b'(' { b')' } else { b']' };
    for &c in bytes {
        if c == open {
            depth += 1;
        } else if c == close {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return Ok(());
            }
        }
    }
    Err(depth)
}

/// The offset of the bracket that closes the one at `open`, searching up to `limit`.
pub(super) fn find_close(text: &str, open: usize, limit: usize, close: u8) -> Option<usize> {
    let open_ch = close_to_open(close);
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    for i in open..limit.min(bytes.len()) {
        let c = bytes.get(i).copied().unwrap_or(0);
        if c == open_ch {
            depth += 1;
        } else if c == close {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}
