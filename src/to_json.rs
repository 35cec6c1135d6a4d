//! Writing JSON: trajectory files, events, provider request bodies, and every value that
//! crosses to JavaScript.
//!
//! A type says what it looks like in JSON by listing its fields in [`ToJson::write_json`]:
//! `out.object(&[("index", &self.index), ("text", &self.text)])`. The writer does the rest:
//! commas, nesting, indentation, string escaping.
//!
//! **Why not `#[derive(Serialize)]`?** Size, as for reading (see `json`): serde's derived
//! serializers and the generic serializer they drive compiled to a tenth of the page's wasm.
//! This file does the same job in a few hundred bytes, and writes exactly what serde_json
//! wrote: fields in the order listed, compact (`{"a":1}`) or pretty (two-space indent, `[]`
//! and `{}` when empty), strings escaped the same way (`\"`, `\\`, `\n`, `\t`, `\r`, `\b`,
//! `\f`, other control characters as `\u001f`, everything else as is), finite floats in
//! serde_json's own shortest round-trip form (`1.0`, `0.25`) and non-finite ones as `null`.
//!
//! The same writer can also record a value on a [`Tape`] instead of writing its text: the
//! bindings hand JavaScript the tape, and a few lines of JS build the value from it, the value
//! `JSON.parse` would have made of the text (writing and parsing JSON was most of what a step
//! cost through the JS API). The `ToJson` impls do not know which they feed.

use std::fmt::Write;

/// A value that can be written as JSON.
pub trait ToJson {
    /// Writes `self` into `out`.
    fn write_json(&self, out: &mut JsonWriter);
}

/// `value` as compact JSON, e.g. `{"type":"step","index":1}`.
pub fn to_string(value: &dyn ToJson) -> String {
    write(value, false)
}

/// `value` as JSON indented by two spaces, one field per line.
pub fn to_string_pretty(value: &dyn ToJson) -> String {
    write(value, true)
}

fn write(value: &dyn ToJson, pretty: bool) -> String {
    let mut out = JsonWriter {
        text: String::new(),
        pretty,
        depth: 0,
        tape: None,
    };
    value.write_json(&mut out);
    out.text
}

/// `value` recorded on a tape.
pub fn record(value: &dyn ToJson) -> Tape {
    let mut out = JsonWriter::recorder();
    out.record(value);
    out.tape.unwrap_or_default()
}

/// JSON text being written (or a value being recorded on a tape).
pub struct JsonWriter {
    text: String,
    pretty: bool,
    /// How deep in objects and arrays the writer is (for the indentation).
    depth: usize,
    tape: Option<Tape>,
}

/// A value as a list of operations, for building it where JSON text would be parsed. Each
/// operation is a word: its kind in the low 3 bits, a count or a length above them.
/// - [`Tape::NULL`]; [`Tape::BOOL`] with 0 or 1; [`Tape::INT`], an integer below 2²⁹;
///   [`Tape::FLOAT`], the next of `numbers` (any other number); [`Tape::FLOAT`] with a
///   number above 0 is a struct that JS builds with a literal of its own (see
///   [`JsonWriter::literal`]), followed by its fields' values only;
/// - [`Tape::STRING`]: the next so many UTF-16 units of `text`, where all strings are
///   written one after the other (so JS decodes the text once, and cuts it);
/// - [`Tape::OBJECT`] with its number of fields, each a key then a value; a key is a string,
///   or [`Tape::KEY`] with the length of a key that is part of the program, followed by its
///   address (so JS decodes each of those once, and then finds it by its address); a value
///   can be a [`Tape::KEY`] too: a name that is part of the program ([`JsonWriter::name`]);
/// - [`Tape::ARRAY`] with its number of items.
#[derive(Default)]
pub struct Tape {
    /// The operations.
    pub ops: Vec<u32>,
    /// The strings.
    pub text: String,
    /// The numbers that are not small integers.
    pub numbers: Vec<f64>,
}

#[allow(missing_docs)] // see `Tape`
impl Tape {
    pub const NULL: u32 = 0;
    pub const BOOL: u32 = 1;
    pub const INT: u32 = 2;
    pub const FLOAT: u32 = 3;
    pub const STRING: u32 = 4;
    pub const OBJECT: u32 = 5;
    pub const ARRAY: u32 = 6;
    pub const KEY: u32 = 7;

    fn op(&mut self, kind: u32, n: usize) {
        self.ops.push(kind | (n as u32) << 3);
    }

    fn string(&mut self, text: &str) {
        self.text.push_str(text);
        let units = match text.is_ascii() {
            true => text.len(),
            false => text.chars().map(char::len_utf16).sum(),
        };
        self.op(Tape::STRING, units);
    }

    fn number(&mut self, number: f64) {
        match number {
            // (-0.0 is not one: it is a float, as JSON.parse reads "-0.0".)
            n if n.is_sign_positive() && n < (1 << 29) as f64 && n.fract() == 0.0 => {
                self.op(Tape::INT, n as usize)
            }
            n if n.is_finite() => {
                self.numbers.push(n);
                self.op(Tape::FLOAT, 0)
            }
            _ => self.op(Tape::NULL, 0),
        }
    }
}

impl JsonWriter {
    /// A writer that records values on a tape (see [`JsonWriter::record`]).
    pub fn recorder() -> JsonWriter {
        JsonWriter {
            text: String::new(),
            pretty: false,
            depth: 0,
            tape: Some(Tape::default()),
        }
    }

    /// Records `value` on this recorder's tape, in place of the last value (its buffers are
    /// reused), and returns the tape.
    pub fn record(&mut self, value: &dyn ToJson) -> &Tape {
        let tape = self.tape.get_or_insert_with(Tape::default);
        tape.ops.clear();
        tape.text.clear();
        tape.numbers.clear();
        value.write_json(self);
        self.tape.get_or_insert_with(Tape::default)
    }

    /// Writes an object with these fields, in this order. (The keys are the program's own:
    /// see [`Tape::KEY`].)
    pub fn object(&mut self, fields: &[(&'static str, &dyn ToJson)]) {
        if let Some(tape) = &mut self.tape {
            tape.op(Tape::OBJECT, fields.len());
            for (key, value) in fields {
                if let Some(tape) = &mut self.tape {
                    tape.op(Tape::KEY, key.len());
                    tape.ops.push(key.as_ptr() as usize as u32);
                }
                value.write_json(self);
            }
            return;
        }
        self.open('{');
        for (i, (key, value)) in fields.iter().enumerate() {
            self.item(i);
            self.key(key);
            value.write_json(self);
        }
        self.close('}', fields.len());
    }

    /// Writes an object with these fields, as [`JsonWriter::object`] does; on a tape, a
    /// `literal` above 0 is the number of the literal in `bindings/values.js` that makes it,
    /// from the values alone (quicker in JS than an object made key by key).
    pub fn literal(&mut self, literal: u32, fields: &[(&'static str, &dyn ToJson)]) {
        match &mut self.tape {
            Some(tape) if literal > 0 => {
                tape.op(Tape::FLOAT, literal as usize);
                for (_, value) in fields {
                    value.write_json(self);
                }
            }
            _ => self.object(fields),
        }
    }

    /// Writes an array of these items.
    pub fn array(&mut self, items: &mut dyn ExactSizeIterator<Item = &dyn ToJson>) {
        let len = items.len();
        if let Some(tape) = &mut self.tape {
            tape.op(Tape::ARRAY, len);
            for value in items {
                value.write_json(self);
            }
            return;
        }
        self.open('[');
        for (i, value) in items.enumerate() {
            self.item(i);
            value.write_json(self);
        }
        self.close(']', len);
    }

    /// Writes a string, quoted and escaped.
    pub fn string(&mut self, text: &str) {
        if let Some(tape) = &mut self.tape {
            return tape.string(text);
        }
        self.text.push('"');
        // Runs of characters that need no escape are copied whole; every escaped character is
        // ASCII, so the cuts between runs fall on character boundaries.
        let mut start = 0;
        for (i, byte) in text.bytes().enumerate() {
            let escape = match byte {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0x08 => "\\b",
                0x0c => "\\f",
                0..=0x1f => "",
                _ => continue,
            };
            self.text.push_str(text.get(start..i).unwrap_or_default());
            if escape.is_empty() {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                self.text.push_str("\\u00");
                self.text.push(char::from(HEX[usize::from(byte >> 4)]));
                self.text.push(char::from(HEX[usize::from(byte & 0xf)]));
            } else {
                self.text.push_str(escape);
            }
            start = i + 1;
        }
        self.text.push_str(text.get(start..).unwrap_or_default());
        self.text.push('"');
    }

    /// Writes a string that is part of the program (a type's or a kind's name): on a tape,
    /// like a key, by its address (see [`Tape::KEY`]).
    pub fn name(&mut self, name: &'static str) {
        match &mut self.tape {
            Some(tape) => {
                tape.op(Tape::KEY, name.len());
                tape.ops.push(name.as_ptr() as usize as u32);
            }
            None => self.string(name),
        }
    }

    /// Writes an object whose keys are data, not the program's (a JSON value's fields): on a
    /// tape, each key is a string.
    pub fn map(&mut self, len: usize, fields: &mut dyn Iterator<Item = (&str, &dyn ToJson)>) {
        if let Some(tape) = &mut self.tape {
            tape.op(Tape::OBJECT, len);
            for (key, value) in fields {
                self.string(key);
                value.write_json(self);
            }
            return;
        }
        self.open('{');
        for (i, (key, value)) in fields.enumerate() {
            self.item(i);
            self.key(key);
            value.write_json(self);
        }
        self.close('}', len);
    }

    /// Writes `null`.
    pub fn null(&mut self) {
        match &mut self.tape {
            Some(tape) => tape.op(Tape::NULL, 0),
            None => self.text.push_str("null"),
        }
    }

    fn open(&mut self, bracket: char) {
        self.text.push(bracket);
        self.depth += 1;
    }

    /// Starts the `i`th item of an object or array: a comma after the first, and in pretty
    /// output a new line at the current depth.
    fn item(&mut self, i: usize) {
        if i > 0 {
            self.text.push(',');
        }
        self.new_line();
    }

    fn key(&mut self, key: &str) {
        self.string(key);
        self.text.push_str(if self.pretty { ": " } else { ":" });
    }

    /// Ends an object or array of `len` items (an empty one stays on its line: `[]`).
    fn close(&mut self, bracket: char, len: usize) {
        self.depth -= 1;
        if len > 0 {
            self.new_line();
        }
        self.text.push(bracket);
    }

    fn new_line(&mut self) {
        if self.pretty {
            self.text.push('\n');
            for _ in 0..self.depth {
                self.text.push_str("  ");
            }
        }
    }
}

/// An object written from a list of fields, for objects that are not a Rust type of their
/// own: `("function", &Object(&[("name", &call.name), ("arguments", &text)]))`.
pub struct Object<'a>(pub &'a [(&'static str, &'a dyn ToJson)]);

impl ToJson for Object<'_> {
    fn write_json(&self, out: &mut JsonWriter) {
        out.object(self.0);
    }
}

/// A string that is part of the program, written with [`JsonWriter::name`].
pub struct Name(pub &'static str);

impl ToJson for Name {
    fn write_json(&self, out: &mut JsonWriter) {
        out.name(self.0);
    }
}

impl ToJson for str {
    fn write_json(&self, out: &mut JsonWriter) {
        out.string(self);
    }
}

impl ToJson for String {
    fn write_json(&self, out: &mut JsonWriter) {
        out.string(self);
    }
}

impl ToJson for bool {
    fn write_json(&self, out: &mut JsonWriter) {
        match &mut out.tape {
            Some(tape) => tape.op(Tape::BOOL, usize::from(*self)),
            None => out.text.push_str(if *self { "true" } else { "false" }),
        }
    }
}

/// Integers are written with their digits (core's, the same as serde_json's `itoa`).
macro_rules! integer {
    ($($ty:ty),*) => {
        $(impl ToJson for $ty {
            fn write_json(&self, out: &mut JsonWriter) {
                match &mut out.tape {
                    Some(tape) => tape.number(*self as f64),
                    None => {
                        let _ = write!(out.text, "{self}");
                    }
                }
            }
        })*
    };
}

integer!(u32, u64, i64);

/// A float is written in its shortest form that reads back to the same `f64` (`zmij`,
/// serde_json's float printer): `1.0`, `0.1`, `1e20`, `-0.0`. Non-finite numbers have no JSON
/// form: they are written as `null`, as serde_json does.
impl ToJson for f64 {
    fn write_json(&self, out: &mut JsonWriter) {
        match &mut out.tape {
            Some(tape) => tape.number(*self),
            None if self.is_finite() => out.text.push_str(zmij::Buffer::new().format_finite(*self)),
            None => out.null(),
        }
    }
}

/// `None` is `null`.
impl<T: ToJson> ToJson for Option<T> {
    fn write_json(&self, out: &mut JsonWriter) {
        match self {
            Some(value) => value.write_json(out),
            None => out.null(),
        }
    }
}

impl<T: ToJson> ToJson for [T] {
    fn write_json(&self, out: &mut JsonWriter) {
        out.array(&mut self.iter().map(|item| item as &dyn ToJson));
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn write_json(&self, out: &mut JsonWriter) {
        self.as_slice().write_json(out);
    }
}

impl<T: ToJson, const N: usize> ToJson for [T; N] {
    fn write_json(&self, out: &mut JsonWriter) {
        self.as_slice().write_json(out);
    }
}

impl<T: ToJson + ?Sized> ToJson for &T {
    fn write_json(&self, out: &mut JsonWriter) {
        (**self).write_json(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn writes_what_serde_json_writes() {
        // The same JSON built twice: tao's value, and serde_json's to compare with.
        macro_rules! both {
            ($($json:tt)+) => { (json!($($json)+), serde_json::json!($($json)+)) };
        }
        let (value, serde) = both!({
            "text": "quote \" backslash \\ newline \n tab \t cr \r bell \u{7} bs \u{8} ff \u{c} del \u{7f} 中文 /",
            "numbers": [0, 1, -3, 18446744073709551615u64, 0.25, 1.0, -0.0, 1e300, 1.5e-7],
            "empty": {"list": [], "map": {}},
            "nested": [{"b": null, "a": true}, false],
        });
        assert_eq!(to_string(&value), serde_json::to_string(&serde).unwrap());
        assert_eq!(
            to_string_pretty(&value),
            serde_json::to_string_pretty(&serde).unwrap()
        );
        assert_eq!(to_string(&f64::NAN), "null");
        assert_eq!(to_string(&2.0f64), "2.0");
        assert_eq!(to_string(&Some(7u32)), "7");
        assert_eq!(to_string(&None::<u32>), "null");
    }

    #[test]
    fn writes_fields_in_the_order_given() {
        struct Point;
        impl ToJson for Point {
            fn write_json(&self, out: &mut JsonWriter) {
                out.object(&[("y", &1u32), ("x", &"a"), ("list", &vec![1u32, 2])]);
            }
        }
        assert_eq!(to_string(&Point), r#"{"y":1,"x":"a","list":[1,2]}"#);
        assert_eq!(
            to_string_pretty(&Point),
            "{\n  \"y\": 1,\n  \"x\": \"a\",\n  \"list\": [\n    1,\n    2\n  ]\n}"
        );
        assert_eq!(to_string_pretty(&Vec::<u32>::new()), "[]");
    }

    #[test]
    fn records_a_value_on_a_tape() {
        let value = json!({"b": [1, 2.5, -0.0, null, true, "é😀", 1e300, 536870912u64]});
        let tape = record(&value);
        let op = |kind: u32, n: u32| kind | n << 3;
        #[rustfmt::skip]
        let expected = [
            op(Tape::OBJECT, 1), op(Tape::STRING, 1),
            op(Tape::ARRAY, 8), op(Tape::INT, 1), op(Tape::FLOAT, 0), op(Tape::FLOAT, 0),
            op(Tape::NULL, 0), op(Tape::BOOL, 1), op(Tape::STRING, 3), op(Tape::FLOAT, 0),
            op(Tape::FLOAT, 0),
        ];
        assert_eq!(tape.ops, expected);
        assert_eq!(tape.text, "bé😀");
        assert_eq!(tape.numbers.len(), 4);
        assert!(tape.numbers[1].is_sign_negative());
        // A key of the program's is its length and its address.
        let tape = record(&Object(&[("index", &7u32), ("gone", &f64::NAN)]));
        assert_eq!(tape.ops[..2], [op(Tape::OBJECT, 2), op(Tape::KEY, 5)]);
        assert_eq!(tape.ops[3..5], [op(Tape::INT, 7), op(Tape::KEY, 4)]);
        assert_eq!(tape.ops[6], op(Tape::NULL, 0));
        assert!(tape.text.is_empty() && tape.numbers.is_empty());
    }
}
