//! Server-Sent Events, decoded incrementally from bytes split anywhere.
//!
//! Both providers stream their replies as SSE (the WHATWG `text/event-stream` format): lines of
//! `field: value`, an empty line ending each event. The network hands us chunks cut at
//! arbitrary bytes, so a chunk may end inside a UTF-8 character, inside a line, or between the
//! `\r` and `\n` of a line ending. The decoder keeps the unfinished line as bytes and decodes a
//! line only once it is complete, so none of those splits can change what comes out. Each byte
//! is looked at a bounded number of times: decoding is linear in the stream's length.
//!
//! Per the spec: lines end with `\r\n`, `\n` or `\r`; a line starting with `:` is a comment
//! (keep-alives); `data:` lines of one event are joined with `\n`; `event:` names it; one space
//! after the colon is dropped; other fields (`id`, `retry`) are ignored here.

/// One event: its name (`message` when the stream gives none) and its data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field (Anthropic names every event; OpenAI names none).
    pub event: String,
    /// The `data:` lines, joined with `\n`.
    pub data: String,
}

/// Longest line kept, so a stream that never sends a newline cannot eat the tab's memory.
const MAX_LINE: usize = 8 << 20;

/// An incremental SSE decoder.
#[derive(Debug, Default)]
pub struct SseDecoder {
    line: Vec<u8>,
    event: String,
    data: String,
    has_data: bool,
    /// The last chunk ended with `\r`: a `\n` opening the next one belongs to that line end.
    after_cr: bool,
    /// No line has been completed yet (a UTF-8 byte-order mark may open the stream).
    at_start: bool,
    too_long: bool,
}

impl SseDecoder {
    /// A decoder at the start of a stream.
    pub fn new() -> Self {
        SseDecoder {
            at_start: true,
            ..Default::default()
        }
    }

    /// Feeds the next chunk; returns the events it completes.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        let mut rest = chunk;
        if self.after_cr && !rest.is_empty() {
            self.after_cr = false;
            if let Some(tail) = rest.strip_prefix(b"\n") {
                rest = tail;
            }
        }
        while let Some(end) = rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            self.take(&rest[..end]);
            self.end_line(&mut events);
            let crlf = rest[end] == b'\r';
            rest = &rest[end + 1..];
            if crlf {
                match rest.first() {
                    Some(b'\n') => rest = &rest[1..],
                    None => self.after_cr = true,
                    _ => {}
                }
            }
        }
        self.take(rest);
        events
    }

    /// End of stream: an event whose lines all arrived but whose closing empty line did not is
    /// still delivered (some servers end that way); an unfinished last line is dropped, because
    /// it may be half a JSON document.
    pub fn finish(&mut self) -> Option<SseEvent> {
        self.line.clear();
        self.dispatch()
    }

    /// Whether a line was longer than this decoder keeps (its excess was dropped).
    pub fn overflowed(&self) -> bool {
        self.too_long
    }

    fn take(&mut self, bytes: &[u8]) {
        let room = MAX_LINE.saturating_sub(self.line.len());
        if bytes.len() > room {
            self.too_long = true;
        }
        self.line.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    fn end_line(&mut self, events: &mut Vec<SseEvent>) {
        let bytes = std::mem::take(&mut self.line);
        let mut line = String::from_utf8_lossy(&bytes);
        if std::mem::take(&mut self.at_start) {
            if let Some(rest) = line.strip_prefix('\u{FEFF}') {
                line = rest.to_string().into();
            }
        }
        if line.is_empty() {
            events.extend(self.dispatch());
            return;
        }
        if line.starts_with(':') {
            return; // a comment, e.g. a keep-alive
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line.as_ref(), ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.event = value.to_string(),
            _ => {}
        }
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        let event = std::mem::take(&mut self.event);
        if !std::mem::take(&mut self.has_data) {
            return None;
        }
        Some(SseEvent {
            event: if event.is_empty() {
                "message".into()
            } else {
                event
            },
            data: std::mem::take(&mut self.data),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(chunks: &[&[u8]]) -> Vec<SseEvent> {
        let mut decoder = SseDecoder::new();
        let mut events: Vec<SseEvent> = chunks.iter().flat_map(|c| decoder.push(c)).collect();
        events.extend(decoder.finish());
        events
    }

    #[test]
    fn fields_comments_and_multiline_data() {
        let stream = b": keep-alive\nevent: ping\ndata: {}\n\ndata: a\ndata:b\nid: 7\n\n";
        let events = decode(&[stream]);
        assert_eq!(
            events,
            vec![
                SseEvent {
                    event: "ping".into(),
                    data: "{}".into()
                },
                SseEvent {
                    event: "message".into(),
                    data: "a\nb".into()
                },
            ]
        );
    }

    #[test]
    fn every_split_of_crlf_and_utf8_gives_the_same_events() {
        let stream = "\u{FEFF}data: 你好\r\n\r\nevent: x\rdata: é\r\rdata: [DONE]\n\n".as_bytes();
        let whole = decode(&[stream]);
        assert_eq!(whole.len(), 3);
        assert_eq!(whole[0].data, "你好");
        assert_eq!(whole[1].data, "é");
        for cut in 0..=stream.len() {
            assert_eq!(
                decode(&[&stream[..cut], &stream[cut..]]),
                whole,
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn an_unfinished_last_line_is_dropped_but_complete_lines_are_kept() {
        assert_eq!(decode(&[b"data: a\n"]).len(), 1);
        assert_eq!(decode(&[b"data: {\"half"]), vec![]);
    }
}
