//! JSON: the value, reading it from text, and reading typed data out of it. (Writing is
//! `crate::to_json`.)
//!
//! - [`Value`] (`value`): any JSON value, built by [`json!`](crate::json!) or read from text.
//! - [`from_str`] (`read`): text to a `Value`, or an [`Error`] that says what is wrong and where.
//! - `from_json` (internal): a `Value` to tao's types (`FromJson`, `json_struct!`).
//!
//! **Why not serde_json?** Size. tao used serde_json for exactly this (its `Value`, `from_str`
//! and `json!`), and a well-kept library is better than code of one's own, unless what it costs
//! says otherwise. Here it did: serde_json's reader drives a `Value` through serde's generic
//! deserializer and carries a table of 309 powers of ten; this module reads the same texts to
//! the same values, with the same errors, and the core (wasm + glue, `make size`) is 6,210 B
//! gzip smaller without serde_json: 149,559 -> 143,349 B, of which about 2.5 KB is the table
//! of powers, computed here instead (the providers' and tools' modules lost 5.9 and 6.0 KB). The
//! texts it reads and the texts `to_json` writes are checked against serde_json's, byte for
//! byte and bit for bit (`tests/json.rs`, `make fuzz`); serde_json is a dev-dependency for that.

mod from_json;
mod map;
mod read;
mod value;

pub(crate) use from_json::{invalid_type, json_struct, object, read_field, FromJson, Object};
pub use read::{from_str, Error};
pub use value::{Map, Number, ToValue, Value};
