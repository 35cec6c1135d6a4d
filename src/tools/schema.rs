//! Checks a tool's input against its JSON Schema before the call, so a wrong input becomes a
//! repair the model can act on ("the field \"unit\" must be one of ...") instead of a tool
//! failing somewhere inside.
//!
//! Only the part of JSON Schema that tool definitions use is understood: `type` (one or a
//! list), `properties`, `required`, `additionalProperties: false`, `items`, `enum`, `const`,
//! `minimum`/`maximum` (and the exclusive forms), `minLength`/`maxLength`,
//! `minItems`/`maxItems`. Anything else (`pattern`, `format`, `$ref`, `anyOf`, ...) is
//! accepted unchecked: a schema the checker cannot read never blocks a call.
//!
//! Text formats give a tool a string (`Action Input: Paris`) or JSON text; [`check`] turns that
//! into the value the schema describes, the way a reader would: JSON text is parsed, a bare
//! string fills a tool's only string field, and `"5"` is a number where a number is wanted.

use crate::json::{Map, Value};

/// Checks `input` against `schema` and returns it in the schema's shape (see the module
/// documentation for the coercions). The error names the field and what was expected, e.g.
/// `the field "unit" must be one of "km", "mi" (got "miles")`.
pub fn check(schema: &Value, input: &Value) -> Result<Value, String> {
    let input = shape(schema, input);
    let mut value = input;
    visit(schema, &mut value, "")?;
    Ok(value)
}

/// The input as the schema's top level wants it: an object tool given a string, a number or
/// JSON text gets the object the model meant.
fn shape(schema: &Value, input: &Value) -> Value {
    if !wants(schema, "object") {
        return input.clone();
    }
    if let Value::String(text) = input {
        let trimmed = text.trim();
        if trimmed.starts_with('{') {
            if let Ok(parsed @ Value::Object(_)) = crate::json::from_str(trimmed) {
                return parsed;
            }
        }
    }
    if input.is_object() {
        return input.clone();
    }
    // A scalar for a tool with one field (or one required field): that field's value.
    match only_field(schema) {
        Some(field) => {
            let mut map = Map::new();
            map.insert(field.to_string(), input.clone());
            Value::Object(map)
        }
        None => input.clone(),
    }
}

/// The field a lone value belongs to: the only property, or else the only required one.
fn only_field(schema: &Value) -> Option<&str> {
    let properties = schema.get("properties").and_then(Value::as_object);
    if let Some(properties) = properties.filter(|p| p.len() == 1) {
        return properties.keys().next().map(String::as_str);
    }
    match schema.get("required").and_then(Value::as_array) {
        Some(required) if required.len() == 1 => required[0].as_str(),
        _ => None,
    }
}

/// Checks (and coerces) `value` against `schema`; `path` names it in errors (`""` is the input
/// itself, `"unit"` a field, `"items[2]"` an element).
fn visit(schema: &Value, value: &mut Value, path: &str) -> Result<(), String> {
    let Some(schema) = schema.as_object() else {
        return Ok(()); // `true`, `{}`-like or unreadable: nothing to check
    };
    if let Some(types) = schema.get("type") {
        coerce(types, value);
        if !type_matches(types, value) {
            return Err(format!(
                "{} must be {} (got {})",
                name(path),
                expected_type(types),
                describe(value)
            ));
        }
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
        if !allowed.iter().any(|a| same(a, value)) {
            let list: Vec<String> = allowed
                .iter()
                .map(|a| crate::to_json::to_string(a))
                .collect();
            return Err(format!(
                "{} must be one of {} (got {})",
                name(path),
                crate::text::join(&list, ", "),
                describe(value)
            ));
        }
    }
    if let Some(constant) = schema.get("const") {
        if !same(constant, value) {
            return Err(format!(
                "{} must be {} (got {})",
                name(path),
                crate::to_json::to_string(constant),
                describe(value)
            ));
        }
    }
    match value {
        Value::Number(_) => bounds(schema, value, path),
        Value::String(text) => {
            let length = text.chars().count();
            limit(schema, "minLength", "maxLength", length, path, "characters")
        }
        Value::Array(items) => {
            limit(schema, "minItems", "maxItems", items.len(), path, "items")?;
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter_mut().enumerate() {
                    visit(item_schema, item, &format!("{path}[{i}]"))?;
                }
            }
            Ok(())
        }
        Value::Object(fields) => object(schema, fields, path),
        _ => Ok(()),
    }
}

/// Required fields, unknown fields (when the schema forbids them), and each known field.
fn object(
    schema: &Map<String, Value>,
    fields: &mut Map<String, Value>,
    path: &str,
) -> Result<(), String> {
    let properties = schema.get("properties").and_then(Value::as_object);
    if let Some(required) = schema.get("required").and_then(Value::as_array) {
        for field in required.iter().filter_map(Value::as_str) {
            if !fields.contains_key(field) {
                let expected = properties
                    .and_then(|p| p.get(field))
                    .and_then(|s| s.get("type"))
                    .map(|t| format!(" ({})", expected_type(t)))
                    .unwrap_or_default();
                return Err(format!(
                    "missing the required field \"{}\"{expected}",
                    join(path, field)
                ));
            }
        }
    }
    let Some(properties) = properties else {
        return Ok(());
    };
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
        if let Some(extra) = fields.keys().find(|k| !properties.contains_key(*k)) {
            let known: Vec<&str> = properties.keys().map(String::as_str).collect();
            return Err(format!(
                "unknown field \"{}\"; the fields are: {}",
                join(path, extra),
                known.join(", ")
            ));
        }
    }
    for (field, field_schema) in properties {
        if let Some(value) = fields.get_mut(field) {
            visit(field_schema, value, &join(path, field))?;
        }
    }
    Ok(())
}

/// Text where the schema wants a number, integer or boolean, when the text is one.
fn coerce(types: &Value, value: &mut Value) {
    let Value::String(text) = value else {
        return;
    };
    let text = text.trim();
    let wanted = |t: &str| type_names(types).any(|n| n == t);
    if wanted("string") {
        return;
    }
    if wanted("number") || wanted("integer") {
        if let Ok(number @ Value::Number(_)) = crate::json::from_str(text) {
            *value = number;
        }
    } else if wanted("boolean") && (text == "true" || text == "false") {
        *value = Value::Bool(text == "true");
    }
}

fn bounds(schema: &Map<String, Value>, value: &Value, path: &str) -> Result<(), String> {
    let Some(x) = value.as_f64() else {
        return Ok(());
    };
    type Holds = fn(f64, f64) -> bool;
    let checks: [(&str, Holds, &str); 4] = [
        ("minimum", |x, b| x >= b, "at least"),
        ("maximum", |x, b| x <= b, "at most"),
        ("exclusiveMinimum", |x, b| x > b, "more than"),
        ("exclusiveMaximum", |x, b| x < b, "less than"),
    ];
    for (key, holds, words) in checks {
        if let Some(bound) = schema.get(key).filter(|b| b.is_number()) {
            if !holds(x, bound.as_f64().unwrap_or(x)) {
                return Err(format!(
                    "{} must be {words} {} (got {})",
                    name(path),
                    crate::to_json::to_string(bound),
                    describe(value)
                ));
            }
        }
    }
    Ok(())
}

fn limit(
    schema: &Map<String, Value>,
    min_key: &str,
    max_key: &str,
    count: usize,
    path: &str,
    unit: &str,
) -> Result<(), String> {
    let count = count as u64;
    if let Some(min) = schema.get(min_key).and_then(Value::as_u64) {
        if count < min {
            return Err(format!(
                "{} must have at least {min} {unit} (got {count})",
                name(path)
            ));
        }
    }
    if let Some(max) = schema.get(max_key).and_then(Value::as_u64) {
        if count > max {
            return Err(format!(
                "{} must have at most {max} {unit} (got {count})",
                name(path)
            ));
        }
    }
    Ok(())
}

/// Whether the schema's `type` allows `wanted` (a schema without `type` allows anything, but
/// only an explicit `object` makes a scalar input into an object).
fn wants(schema: &Value, wanted: &str) -> bool {
    schema
        .get("type")
        .is_some_and(|t| type_names(t).any(|n| n == wanted))
}

fn type_names(types: &Value) -> impl Iterator<Item = &str> {
    let list: &[Value] = match types {
        Value::Array(list) => list,
        single => std::slice::from_ref(single),
    };
    list.iter().filter_map(Value::as_str)
}

fn type_matches(types: &Value, value: &Value) -> bool {
    let mut names = type_names(types).peekable();
    if names.peek().is_none() {
        return true; // an unreadable `type` checks nothing
    }
    names.any(|t| match t {
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => {
            value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|x| x.fract() == 0.0)
        }
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "null" => value.is_null(),
        _ => true, // a type this checker does not know is not held against the input
    })
}

fn expected_type(types: &Value) -> String {
    let names: Vec<String> = type_names(types)
        .map(|t| match t {
            "integer" => "an integer".to_string(),
            "object" | "array" => format!("an {t}"),
            "null" => "null".to_string(),
            other => format!("a {other}"),
        })
        .collect();
    crate::text::join(&names, " or ")
}

/// Values compared as JSON: `1` and `1.0` are the same number.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

/// A value as an error shows it: short values whole, long ones by their kind.
fn describe(value: &Value) -> String {
    let text = crate::to_json::to_string(value);
    if text.chars().count() <= 40 {
        return text;
    }
    match value {
        Value::String(_) => "a long string".into(),
        Value::Array(items) => format!("an array of {} items", items.len()),
        Value::Object(_) => "an object".into(),
        _ => text,
    }
}

fn name(path: &str) -> String {
    if path.is_empty() {
        "the input".into()
    } else {
        format!("the field \"{path}\"")
    }
}

fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn units() -> Value {
        json!({
            "type": "object",
            "properties": {
                "value": {"type": "number", "minimum": 0},
                "unit": {"type": "string", "enum": ["km", "mi"]},
                "digits": {"type": "integer", "minimum": 0, "maximum": 6},
                "note": {"type": "string", "maxLength": 5},
                "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
                "where": {"type": "object", "properties": {"lat": {"type": "number"}}, "required": ["lat"]}
            },
            "required": ["value", "unit"],
            "additionalProperties": false
        })
    }

    fn error(schema: &Value, input: Value) -> String {
        check(schema, &input).expect_err("should be refused")
    }

    #[test]
    fn names_the_wrong_field_and_what_was_expected() {
        let s = units();
        assert_eq!(
            error(&s, json!({"unit": "km"})),
            "missing the required field \"value\" (a number)"
        );
        assert_eq!(
            error(&s, json!({"value": 3, "unit": "miles"})),
            "the field \"unit\" must be one of \"km\", \"mi\" (got \"miles\")"
        );
        assert_eq!(
            error(&s, json!({"value": -1, "unit": "km"})),
            "the field \"value\" must be at least 0 (got -1)"
        );
        assert_eq!(
            error(&s, json!({"value": 1, "unit": "km", "digits": 2.5})),
            "the field \"digits\" must be an integer (got 2.5)"
        );
        assert_eq!(
            error(&s, json!({"value": 1, "unit": "km", "digits": 7})),
            "the field \"digits\" must be at most 6 (got 7)"
        );
        assert_eq!(
            error(&s, json!({"value": 1, "unit": "km", "note": "too long"})),
            "the field \"note\" must have at most 5 characters (got 8)"
        );
        assert_eq!(
            error(&s, json!({"value": 1, "unit": "km", "tags": ["a", 2]})),
            "the field \"tags[1]\" must be a string (got 2)"
        );
        assert_eq!(
            error(
                &s,
                json!({"value": 1, "unit": "km", "tags": ["a", "b", "c"]})
            ),
            "the field \"tags\" must have at most 2 items (got 3)"
        );
        assert_eq!(
            error(&s, json!({"value": 1, "unit": "km", "where": {}})),
            "missing the required field \"where.lat\" (a number)"
        );
        assert_eq!(
            error(&s, json!({"value": 1, "unit": "km", "speed": 3})),
            "unknown field \"speed\"; the fields are: digits, note, tags, unit, value, where"
        );
        assert_eq!(
            error(&s, json!([1, 2])),
            "the input must be an object (got [1,2])"
        );
    }

    #[test]
    fn text_inputs_are_read_as_the_model_meant() {
        let s = units();
        // JSON text, with numbers written as text.
        assert_eq!(
            check(
                &s,
                &json!(" {\"value\": \"10\", \"unit\": \"km\", \"digits\": \"2\"} ")
            )
            .unwrap(),
            json!({"value": 10, "unit": "km", "digits": 2})
        );
        // A bare string fills a single-field tool.
        let one = json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]});
        assert_eq!(
            check(&one, &json!("Paris")).unwrap(),
            json!({"query": "Paris"})
        );
        // Even when it looks like JSON but is not an object.
        assert_eq!(check(&one, &json!("[1]")).unwrap(), json!({"query": "[1]"}));
        // A number for a numeric single-field tool; booleans from text.
        let n = json!({"type": "object", "properties": {"n": {"type": "integer"}, "b": {"type": "boolean"}}, "required": ["n"]});
        assert_eq!(check(&n, &json!("42")).unwrap(), json!({"n": 42}));
        assert_eq!(
            check(&n, &json!({"n": 1, "b": "true"})).unwrap(),
            json!({"n": 1, "b": true})
        );
        assert_eq!(
            error(&n, json!("forty")),
            "the field \"n\" must be an integer (got \"forty\")"
        );
        // A string stays a string where a string is wanted.
        assert_eq!(
            check(&one, &json!({"query": "42"})).unwrap(),
            json!({"query": "42"})
        );
    }

    #[test]
    fn unknown_keywords_and_odd_schemas_never_block_a_call() {
        for schema in [
            json!(true),
            json!({}),
            json!({"type": 7}),
            json!({"anyOf": [{"type": "string"}]}),
            json!({"type": ["madeup"]}),
        ] {
            assert!(check(&schema, &json!({"x": 1})).is_ok(), "{schema}");
        }
        let multi = json!({"type": ["string", "null"]});
        assert!(check(&multi, &json!(null)).is_ok());
        assert_eq!(
            error(&multi, json!(3)),
            "the input must be a string or null (got 3)"
        );
        let long = json!({"type": "object", "properties": {"a": {"type": "number"}}});
        assert_eq!(
            error(&long, json!({"a": "x".repeat(100)})),
            "the field \"a\" must be a number (got a long string)"
        );
    }
}
