//! Reading typed data out of parsed JSON, with clear errors.
//!
//! Trajectory files, scenarios, the knowledge base and the specs of JavaScript tools are parsed
//! into a [`Value`] and then read field by field with [`FromJson`] and [`Object`].
//!
//! **Why not `#[derive(Deserialize)]`?** Size. Derived deserializers compile serde's visitor
//! machinery for every struct, plus serde_json's whole `Value` deserializer (or a second copy of
//! its text reader) to drive them; in the wasm that was ~55 KB of code before optimisation, a
//! quarter of the page's download, to read a handful of small documents. The functions below
//! do the same job for every type in a few hundred bytes. Writing is hand-written too, for the
//! same reason: see `crate::to_json`.
//!
//! The rules are serde's, so documents read exactly as before: unknown fields are ignored, a
//! missing `Option` field is `None`, a missing field with a default takes it, anything else
//! missing is an error; and errors use serde's words (``missing field `task` ``,
//! `invalid type: string "one", expected u32`).

use super::{Map, Value};

/// A type that can be read from a JSON value. The error says what is wrong, in serde's words.
pub(crate) trait FromJson: Sized {
    /// Reads `value`.
    fn from_value(value: &Value) -> Result<Self, String>;
}

/// The error for a value of the wrong kind: `invalid type: <what it is>, expected <what>`.
pub(crate) fn invalid_type(value: &Value, expected: &str) -> String {
    let found = match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) if n.is_f64() => format!("floating point `{n}`"),
        Value::Number(n) => format!("integer `{n}`"),
        // A JSON string prints quoted and escaped, as serde shows it.
        Value::String(s) => format!("string {}", crate::to_json::to_string(s)),
        Value::Array(_) => "sequence".to_string(),
        Value::Object(_) => "map".to_string(),
    };
    format!("invalid type: {found}, expected {expected}")
}

impl FromJson for String {
    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::String(s) => Ok(s.clone()),
            other => Err(invalid_type(other, "a string")),
        }
    }
}

impl FromJson for bool {
    fn from_value(value: &Value) -> Result<Self, String> {
        value
            .as_bool()
            .ok_or_else(|| invalid_type(value, "a boolean"))
    }
}

/// A whole number in range, like serde: `-1` is an invalid value, `1.5` an invalid type.
fn unsigned(value: &Value, expected: &str, max: u64) -> Result<u64, String> {
    match value {
        Value::Number(n) if !n.is_f64() => n
            .as_u64()
            .filter(|n| *n <= max)
            .ok_or_else(|| format!("invalid value: integer `{n}`, expected {expected}")),
        other => Err(invalid_type(other, expected)),
    }
}

impl FromJson for u64 {
    fn from_value(value: &Value) -> Result<Self, String> {
        unsigned(value, "u64", u64::MAX)
    }
}

impl FromJson for u32 {
    fn from_value(value: &Value) -> Result<Self, String> {
        unsigned(value, "u32", u32::MAX.into()).map(|n| n as u32)
    }
}

/// The only numbers with fractions in tao's documents are milliseconds, kept to the
/// microsecond (the agent rounds them so). Read at that precision, a file read, written and
/// read again keeps its numbers: the reader (serde_json's without its `float_roundtrip` feature,
/// see `read`) is not correctly rounded for every 17-digit decimal, but is exact for these. (Found by `make fuzz`: a hand-written `1.0666666666666667` came back one unit off.)
impl FromJson for f64 {
    fn from_value(value: &Value) -> Result<Self, String> {
        let ms = value.as_f64().ok_or_else(|| invalid_type(value, "f64"))?;
        match ms.abs() < 1e12 {
            true => Ok((ms * 1000.0).round() / 1000.0),
            false => Err("invalid value: a time of 10^12 ms or more, expected milliseconds".into()),
        }
    }
}

impl FromJson for Value {
    fn from_value(value: &Value) -> Result<Self, String> {
        Ok(value.clone())
    }
}

/// `null` is `None`.
impl<T: FromJson> FromJson for Option<T> {
    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::Null => Ok(None),
            other => T::from_value(other).map(Some),
        }
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::Array(items) => {
                // A loop, not `collect::<Result<Vec<_>, _>>()`: that adapter is compiled again
                // for every element type and costs several times the code (size).
                let mut list = Vec::with_capacity(items.len());
                for item in items {
                    list.push(T::from_value(item)?);
                }
                Ok(list)
            }
            other => Err(invalid_type(other, "a sequence")),
        }
    }
}

/// A JSON object with these fields: what `json!` builds, without the serializer `json!` runs
/// on every value it is given (size).
pub(crate) fn object(fields: Vec<(&str, Value)>) -> Value {
    // Inserted one by one: the fields are a handful, written in the code.
    let mut map = Map::new();
    for (key, value) in fields {
        map.insert(key.into(), value);
    }
    Value::Object(map)
}

/// The fields of a JSON object, read by name.
pub(crate) struct Object<'a>(&'a Map<String, Value>);

impl<'a> Object<'a> {
    /// `value` as an object; `what` names it in the error (`struct Step`).
    pub(crate) fn new(value: &'a Value, what: &str) -> Result<Self, String> {
        match value {
            Value::Object(map) => Ok(Object(map)),
            other => Err(invalid_type(other, what)),
        }
    }

    /// A field that must be there.
    pub(crate) fn required<T: FromJson>(&self, key: &str) -> Result<T, String> {
        match self.0.get(key) {
            Some(value) => T::from_value(value),
            None => Err(format!("missing field `{key}`")),
        }
    }

    /// Reads field `key` into `into` when it is there; when it is missing, `into` keeps the
    /// value it has (the default). Structs with many fields are read this way, into a default
    /// value: building them field by field from `?` expressions compiles a separate clean-up
    /// path for every field that may fail (size).
    pub(crate) fn read<T: FromJson>(&self, key: &str, into: &mut T) -> Result<(), String> {
        if let Some(value) = self.0.get(key) {
            *into = T::from_value(value)?;
        }
        Ok(())
    }

    /// Whether the object has field `key`.
    pub(crate) fn has(&self, key: &str) -> bool {
        self.0.contains_key(key)
    }

    /// A field that may be missing (then it is `default`).
    pub(crate) fn or<T: FromJson>(&self, key: &str, default: T) -> Result<T, String> {
        self.0.get(key).map_or(Ok(default), T::from_value)
    }

    /// A field that may be missing (then it is `T::default()`, e.g. `None` or empty).
    pub(crate) fn or_default<T: FromJson + Default>(&self, key: &str) -> Result<T, String> {
        self.or(key, T::default())
    }
}

/// Reads and writes a struct as a JSON object from one list of its fields, so that no field
/// can be written and forgotten on read (or read and never written). The fields are written in
/// the order listed; on read, a missing field keeps its `Default` value, except those marked
/// `(required)`, and unknown fields are ignored (serde's rules, as above).
///
/// ```ignore
/// json_struct!(Action { tool (required), input (required) });
/// ```
///
/// A type whose older documents had other fields names a function after the list
/// (`then upgrade`): it runs after the fields are read, with the object, to fill them from the
/// old ones.
macro_rules! json_struct {
    ($ty:ident { $($field:ident $(($required:ident))?),* $(,)? } $(then $upgrade:path)?) => {
        impl $crate::json::FromJson for $ty {
            fn from_value(value: &$crate::json::Value) -> Result<Self, String> {
                let o = $crate::json::Object::new(value, concat!("struct ", stringify!($ty)))?;
                let mut read = <$ty>::default();
                $( $crate::json::read_field!(o, read, $field $(, $required)?); )*
                $( $upgrade(&o, &mut read)?; )?
                Ok(read)
            }
        }
        impl $crate::to_json::ToJson for $ty {
            fn write_json(&self, out: &mut $crate::to_json::JsonWriter) {
                out.object(&[$((stringify!($field), &self.$field)),*]);
            }
        }
    };
}

/// One field of [`json_struct!`]: kept at its default when missing, or `required`.
macro_rules! read_field {
    ($o:ident, $into:ident, $field:ident) => {
        $o.read(stringify!($field), &mut $into.$field)?
    };
    ($o:ident, $into:ident, $field:ident, required) => {
        $into.$field = $o.required(stringify!($field))?
    };
}

pub(crate) use {json_struct, read_field};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn reads_like_serde_and_says_what_is_wrong_in_its_words() {
        let value = json!({"n": 7, "s": "x", "none": null, "list": [1, 2], "extra": true});
        let o = Object::new(&value, "struct T").unwrap();
        assert_eq!(o.required::<u32>("n"), Ok(7));
        assert_eq!(o.or_default::<Option<String>>("none"), Ok(None));
        assert_eq!(o.or_default::<Vec<u64>>("missing"), Ok(vec![]));
        assert_eq!(o.or("missing", 3u32), Ok(3));
        assert_eq!(o.required::<Vec<u64>>("list"), Ok(vec![1, 2]));
        assert_eq!(
            o.required::<String>("task"),
            Err("missing field `task`".into())
        );
        assert_eq!(
            o.required::<u32>("s"),
            Err("invalid type: string \"x\", expected u32".into())
        );
        assert_eq!(
            u32::from_value(&json!(-1)),
            Err("invalid value: integer `-1`, expected u32".into())
        );
        assert_eq!(
            u32::from_value(&json!(1.5)),
            Err("invalid type: floating point `1.5`, expected u32".into())
        );
        assert_eq!(
            String::from_value(&json!(null)),
            Err("invalid type: null, expected a string".into())
        );
        assert_eq!(
            Object::new(&json!([]), "struct T").err(),
            Some("invalid type: sequence, expected struct T".into())
        );
    }
}
