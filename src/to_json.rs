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
        text: Vec::with_capacity(128),
        pretty,
        depth: 0,
    };
    value.write_json(&mut out);
    // Only whole `str`s and ASCII bytes were written.
    String::from_utf8(out.text).unwrap_or_default()
}

/// JSON text being written: bytes, since all the writer adds is ASCII (a byte pushed is cheaper
/// than a `char`; every event and every value for JS is written here).
pub struct JsonWriter {
    text: Vec<u8>,
    pretty: bool,
    /// How deep in objects and arrays the writer is (for the indentation).
    depth: usize,
}

impl JsonWriter {
    /// Writes an object with these fields, in this order (named by the program, not by data:
    /// their names need no escape).
    pub fn object(&mut self, fields: &[(&'static str, &dyn ToJson)]) {
        self.open(b'{');
        for (i, (key, value)) in fields.iter().enumerate() {
            self.item(i);
            // A field's name is the program's own, a plain word: no escape to look for.
            self.text.push(b'"');
            self.text.extend_from_slice(key.as_bytes());
            self.text
                .extend_from_slice(if self.pretty { b"\": " } else { b"\":" });
            value.write_json(self);
        }
        self.close(b'}', fields.len());
    }

    /// Writes an array of these items.
    pub fn array(&mut self, items: &mut dyn ExactSizeIterator<Item = &dyn ToJson>) {
        let len = items.len();
        self.open(b'[');
        for (i, value) in items.enumerate() {
            self.item(i);
            value.write_json(self);
        }
        self.close(b']', len);
    }

    /// Writes a string, quoted and escaped.
    pub fn string(&mut self, text: &str) {
        self.text.push(b'"');
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
            self.text
                .extend_from_slice(text.as_bytes().get(start..i).unwrap_or_default());
            if escape.is_empty() {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                self.text.extend_from_slice(b"\\u00");
                self.text.push(HEX[usize::from(byte >> 4)]);
                self.text.push(HEX[usize::from(byte & 0xf)]);
            } else {
                self.text.extend_from_slice(escape.as_bytes());
            }
            start = i + 1;
        }
        self.text
            .extend_from_slice(text.as_bytes().get(start..).unwrap_or_default());
        self.text.push(b'"');
    }

    /// Writes an object whose keys are data (a JSON value's fields).
    pub fn map(&mut self, len: usize, fields: &mut dyn Iterator<Item = (&str, &dyn ToJson)>) {
        self.open(b'{');
        for (i, (key, value)) in fields.enumerate() {
            self.item(i);
            self.key(key);
            value.write_json(self);
        }
        self.close(b'}', len);
    }

    /// Writes `null`.
    pub fn null(&mut self) {
        self.text.extend_from_slice(b"null");
    }

    fn open(&mut self, bracket: u8) {
        self.text.push(bracket);
        self.depth += 1;
    }

    /// Starts the `i`th item of an object or array: a comma after the first, and in pretty
    /// output a new line at the current depth.
    fn item(&mut self, i: usize) {
        if i > 0 {
            self.text.push(b',');
        }
        self.new_line();
    }

    fn key(&mut self, key: &str) {
        self.string(key);
        self.text
            .extend_from_slice(if self.pretty { b": " } else { b":" });
    }

    /// Ends an object or array of `len` items (an empty one stays on its line: `[]`).
    fn close(&mut self, bracket: u8, len: usize) {
        self.depth -= 1;
        if len > 0 {
            self.new_line();
        }
        self.text.push(bracket);
    }

    fn new_line(&mut self) {
        if self.pretty {
            self.text.push(b'\n');
            for _ in 0..self.depth {
                self.text.extend_from_slice(b"  ");
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
        out.text
            .extend_from_slice(if *self { b"true" } else { b"false" });
    }
}

/// Integers are written with their digits. (By hand rather than with `write!`: the formatting
/// machinery is the larger and slower way to the same digits.)
fn digits(out: &mut Vec<u8>, mut n: u64) {
    let mut buffer = [0u8; 20];
    let mut at = buffer.len();
    loop {
        at -= 1;
        buffer[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buffer[at..]);
}

impl ToJson for u32 {
    fn write_json(&self, out: &mut JsonWriter) {
        digits(&mut out.text, u64::from(*self));
    }
}

impl ToJson for u64 {
    fn write_json(&self, out: &mut JsonWriter) {
        digits(&mut out.text, *self);
    }
}

impl ToJson for i64 {
    fn write_json(&self, out: &mut JsonWriter) {
        if *self < 0 {
            out.text.push(b'-');
        }
        digits(&mut out.text, self.unsigned_abs());
    }
}

/// A float is written in its shortest form that reads back to the same `f64` (`zmij`,
/// serde_json's float printer): `1.0`, `0.1`, `1e20`, `-0.0`. Non-finite numbers have no JSON
/// form: they are written as `null`, as serde_json does.
impl ToJson for f64 {
    fn write_json(&self, out: &mut JsonWriter) {
        match self.is_finite() {
            true => out
                .text
                .extend_from_slice(zmij::Buffer::new().format_finite(*self).as_bytes()),
            false => out.null(),
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
    fn escapes_each_character_wherever_it_stands() {
        for c in ['"', '\\', '\n', '\u{1}', '\u{1f}', '\u{7f}', 'é', '😀'] {
            for at in 0..20 {
                let text: String = (0..20).map(|i| if i == at { c } else { 'a' }).collect();
                let serde = serde_json::to_string(&text).unwrap();
                assert_eq!(to_string(&text), serde, "{c:?} at {at}");
            }
        }
        for n in [0u64, 7, 10, 99, 100, u64::from(u32::MAX), u64::MAX] {
            assert_eq!(to_string(&n), n.to_string());
        }
        assert_eq!(to_string(&i64::MIN), i64::MIN.to_string());
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
}
