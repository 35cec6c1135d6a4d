//! The head of an action: what the model wrote right after `Action:`.
//!
//! The same label carries every convention models use: a bare tool name (the input follows in
//! `Action Input:`), the paper's `Tool[input]`, a call `tool(input)`, `tool: input`, a JSON
//! blob or a fenced one, `None` (nothing to do), or a name run together with a final answer.
//! [`parse_head`] tells them apart from the head's text alone; both the live events and the
//! verdict start from it.

use super::{sub, trim, trim_start};

/// The start of an action, as written after `Action:`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Head<'t> {
    Blank,
    /// `Action: None` (the model had nothing to do).
    None,
    /// `Action: search Final Answer:`: both in one line.
    WithFinal,
    /// A JSON blob starts here.
    Json,
    /// A fenced blob starts here.
    Fence,
    /// `Tool[input]`: the bracket's byte offset within the head.
    Bracket {
        name: &'t str,
        open: usize,
        close: u8,
    },
    /// `tool(input)`.
    Paren {
        name: &'t str,
        open: usize,
        close: u8,
    },
    /// `tool: input`; the input starts at this byte offset within the head.
    Colon {
        name: &'t str,
        rest: usize,
    },
    /// Just a name; the input follows in `Action Input:`.
    Name(&'t str),
}

/// Strips the decoration models put around names: `**search**`, `` `search` ``, `"search"`.
pub(super) fn clean_name(s: &str) -> &str {
    let decoration = |c: char| matches!(c, '`' | '*' | '"' | '\'');
    // (Its ends looked at as bytes: the decorations are ASCII. Names are read twice a reply.)
    let decorated = |b: Option<&u8>| b.is_some_and(|&b| decoration(char::from(b)));
    match trim(s) {
        s if decorated(s.as_bytes().first()) || decorated(s.as_bytes().last()) => {
            s.trim_matches(decoration).trim()
        }
        s => s,
    }
}

pub(super) fn is_none_name(name: &str) -> bool {
    let n = name.as_bytes();
    let dots = n.iter().rev().take_while(|&&b| b == b'.').count();
    let n = &n[..n.len() - dots];
    // (Most names are told apart by their first letter.)
    matches!(n.first(), Some(b'n' | b'N'))
        && [&b"none"[..], b"n/a", b"no action", b"null"]
            .iter()
            .any(|none| n.eq_ignore_ascii_case(none))
}

fn is_token(s: &str) -> bool {
    !s.is_empty() && !s.contains(char::is_whitespace)
}

pub(super) fn parse_head(head: &str) -> Head<'_> {
    let t = trim(head);
    if t.is_empty() {
        return Head::Blank;
    }
    if t.starts_with('{') {
        return Head::Json;
    }
    if t.starts_with("```") || t.starts_with("~~~") {
        return Head::Fence;
    }
    // ASCII folding finds the same matches as Unicode lowercasing here: no non-ASCII
    // character lowercases into this ASCII phrase.
    let final_answer = b"final answer:";
    if t.as_bytes()
        .windows(final_answer.len())
        .any(|w| w.eq_ignore_ascii_case(final_answer))
    {
        return Head::WithFinal;
    }
    let lead = head.len() - trim_start(head).len();
    let mut best: Option<(usize, Head)> = None;
    if let Some(i) = t.find('[') {
        let name = clean_name(sub(t, 0, i));
        if !name.is_empty() {
            best = Some((
                i,
                Head::Bracket {
                    name,
                    open: lead + i,
                    close: b']',
                },
            ));
        }
    }
    if let Some(i) = t.find('(') {
        let name = clean_name(sub(t, 0, i));
        if is_token(name) && best.is_none_or(|(p, _)| i < p) {
            best = Some((
                i,
                Head::Paren {
                    name,
                    open: lead + i,
                    close: b')',
                },
            ));
        }
    }
    if let Some(i) = t.find(':') {
        let name = clean_name(sub(t, 0, i));
        let rest = sub(t, i + 1, t.len());
        if is_token(name) && !trim(rest).is_empty() && best.is_none_or(|(p, _)| i < p) {
            let skip = rest.len() - trim_start(rest).len();
            best = Some((
                i,
                Head::Colon {
                    name,
                    rest: lead + i + 1 + skip,
                },
            ));
        }
    }
    match best {
        Some((_, h)) => h,
        None => {
            let name = clean_name(t);
            if is_none_name(name) {
                Head::None
            } else {
                Head::Name(name)
            }
        }
    }
}
