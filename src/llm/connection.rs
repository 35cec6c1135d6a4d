//! The page's "Test connection" button: a tiny request ("say OK") and a report of what came
//! back (the reply, whether it streamed, latency, token counts), or the diagnosed error.

use super::{Delta, Model, Request};
use crate::chat::{Message, Role, Usage};
use crate::error::Error;
use crate::host::{Abort, Host};
use crate::to_json::{JsonWriter, ToJson};

/// What a connection test found.
#[derive(Clone, Debug, PartialEq)]
pub struct ConnectionReport {
    /// The model, as `provider:name`.
    pub model: String,
    /// What it replied.
    pub reply: String,
    /// How many deltas the reply came in (more than one: streaming works).
    pub deltas: u32,
    /// From sending to the first text.
    pub first_token_ms: Option<f64>,
    /// From sending to the end of the reply.
    pub total_ms: f64,
    /// Token counts, if the endpoint reports them.
    pub usage: Option<Usage>,
    /// Retries and dropped parameters on the way.
    pub notes: Vec<String>,
}

impl ToJson for ConnectionReport {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(&[
            ("model", &self.model),
            ("reply", &self.reply),
            ("deltas", &self.deltas),
            ("first_token_ms", &self.first_token_ms),
            ("total_ms", &self.total_ms),
            ("usage", &self.usage),
            ("notes", &self.notes),
        ]);
    }
}

/// Sends a tiny request ("say OK") and reports what came back, or the diagnosed error: the
/// page's "Test connection" button.
pub async fn test_connection(
    model: &dyn Model,
    host: &dyn Host,
) -> Result<ConnectionReport, Error> {
    let messages = [
        Message::new(
            Role::System,
            "This is a connection test. Reply with the single word OK.",
        ),
        Message::new(Role::User, "Say OK."),
    ];
    let abort = Abort::default();
    let request = Request {
        messages: &messages,
        stop: &[],
        tools: &[],
        abort: &abort,
        constraint: None,
    };
    let started = host.now_ms();
    let (mut reply, mut deltas, mut first_token_ms, mut notes) =
        (String::new(), 0, None, Vec::new());
    let result = model
        .complete(request, &mut |delta| {
            match delta {
                Delta::Text(text) => {
                    first_token_ms.get_or_insert_with(|| host.now_ms() - started);
                    deltas += 1;
                    reply.push_str(text);
                }
                Delta::Note(note) => notes.push(note.to_string()),
                Delta::Reasoning(_) | Delta::Usage(_) | Delta::Download { .. } => {}
            }
            true
        })
        .await?;
    Ok(ConnectionReport {
        model: model.name(),
        reply,
        deltas,
        first_token_ms,
        total_ms: host.now_ms() - started,
        usage: result.usage,
        notes,
    })
}
