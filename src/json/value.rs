//! A JSON value, as read from text ([`super::from_str`]) or built by [`json!`](crate::json!):
//! `null`, a boolean, a number, a string, an array or an object. The same shape and the same
//! names as `serde_json::Value`, which it replaces (see `json`'s opening comment for why):
//! objects are [`Map`]s, so their keys are sorted, and a number keeps whether it was an
//! unsigned integer, a negative one or a float.

use std::fmt;

use crate::to_json::{JsonWriter, ToJson};

/// Any JSON value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Value {
    /// `null` (and the value of a field that is not there: `value["missing"]`).
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number: see [`Number`].
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, its keys sorted.
    Object(Map<String, Value>),
}

pub use super::map::Map;

/// A JSON number: an integer (from `-2⁶³` to `2⁶⁴-1`) or a finite float. `1` and `1.0` are
/// different numbers, as in serde_json: they are written back as they were read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Number(N);

/// A number's float is never NaN (JSON has none), so `==` is an equivalence.
impl Eq for Number {}

#[derive(Clone, Copy, Debug, PartialEq)]
enum N {
    PosInt(u64),
    /// Always below zero.
    NegInt(i64),
    /// Always finite.
    Float(f64),
}

static NULL: Value = Value::Null;

impl Value {
    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number as a `u64`, if it is a whole number in its range (not a float).
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number().and_then(Number::as_u64)
    }

    /// The number as an `i64`, if it is a whole number in its range (not a float).
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(Number::as_i64)
    }

    /// The number as an `f64` (an integer converted), if this is a number.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().and_then(Number::as_f64)
    }

    /// The number, if this is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The items, if this is an array.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The items, to change, if this is an array.
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The fields, if this is an object.
    pub fn as_object(&self) -> Option<&Map<String, Value>> {
        match self {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    /// The fields, to change, if this is an object.
    pub fn as_object_mut(&mut self) -> Option<&mut Map<String, Value>> {
        match self {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Whether this is a boolean.
    pub fn is_boolean(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    /// Whether this is a number.
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }

    /// Whether this is a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// Whether this is an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// Whether this is a whole number in `u64`'s range (not a float).
    pub fn is_u64(&self) -> bool {
        self.as_u64().is_some()
    }

    /// Whether this is a whole number in `i64`'s range (not a float).
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// Whether this is a float (`1.0`, `-0`, `1e3`), not an integer.
    pub fn is_f64(&self) -> bool {
        self.as_number().is_some_and(Number::is_f64)
    }

    /// The field (`value.get("name")`) or the item (`value.get(0)`), if there is one.
    pub fn get<I: Index>(&self, index: I) -> Option<&Value> {
        index.index_into(self)
    }

    /// The field or the item, to change, if there is one.
    pub fn get_mut<I: Index>(&mut self, index: I) -> Option<&mut Value> {
        index.index_into_mut(self)
    }

    /// This value, leaving `null` in its place.
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }
}

/// What finds a value inside another: a key (`&str`, `String`) in an object, a position
/// (`usize`) in an array.
pub trait Index {
    /// The value at `self` in `value`, if there is one.
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value>;
    /// The same, to change.
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value>;
}

impl Index for usize {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        value.as_array()?.get(*self)
    }

    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        value.as_array_mut()?.get_mut(*self)
    }
}

impl Index for str {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        value.as_object()?.get(self)
    }

    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        value.as_object_mut()?.get_mut(self)
    }
}

impl Index for String {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        self.as_str().index_into(value)
    }

    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().index_into_mut(value)
    }
}

impl<T: Index + ?Sized> Index for &T {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        (**self).index_into(value)
    }

    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        (**self).index_into_mut(value)
    }
}

/// `value["key"]`, `value[0]`: the field or the item, or `null` when there is none (this is
/// not an object or an array, or has no such key, or is shorter).
impl<I: Index> std::ops::Index<I> for Value {
    type Output = Value;

    fn index(&self, index: I) -> &Value {
        index.index_into(self).unwrap_or(&NULL)
    }
}

impl Number {
    /// `f` as a number; `None` when it is not finite (JSON has no NaN or infinity).
    pub fn from_f64(f: f64) -> Option<Number> {
        f.is_finite().then_some(Number(N::Float(f)))
    }

    /// Whether this is a float (`1.0`, `-0`, `1e3`), not an integer.
    pub fn is_f64(&self) -> bool {
        matches!(self.0, N::Float(_))
    }

    /// Whether this is an integer in `u64`'s range.
    pub fn is_u64(&self) -> bool {
        matches!(self.0, N::PosInt(_))
    }

    /// Whether this is an integer in `i64`'s range.
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// The integer, if it is one in `u64`'s range.
    pub fn as_u64(&self) -> Option<u64> {
        match self.0 {
            N::PosInt(n) => Some(n),
            _ => None,
        }
    }

    /// The integer, if it is one in `i64`'s range.
    pub fn as_i64(&self) -> Option<i64> {
        match self.0 {
            N::PosInt(n) => i64::try_from(n).ok(),
            N::NegInt(n) => Some(n),
            N::Float(_) => None,
        }
    }

    /// The number as an `f64` (an integer converted, maybe rounded). Always `Some`.
    pub fn as_f64(&self) -> Option<f64> {
        Some(match self.0 {
            N::PosInt(n) => n as f64,
            N::NegInt(n) => n as f64,
            N::Float(f) => f,
        })
    }
}

/// The number as JSON writes it, serde_json's digits: an integer as is, a float in its
/// shortest form that reads back to the same `f64` (`zmij`, serde_json's float printer):
/// `1.0`, `0.1`, `1e20`, `-0.0`, `1.5e-7`.
impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.0 {
            N::PosInt(n) => fmt::Display::fmt(&n, f),
            N::NegInt(n) => fmt::Display::fmt(&n, f),
            N::Float(x) => f.write_str(zmij::Buffer::new().format_finite(x)),
        }
    }
}

/// Written with serde_json's digits (see [`Number`]'s `Display`).
impl ToJson for Number {
    fn write_json(&self, out: &mut JsonWriter) {
        match self.0 {
            N::PosInt(n) => n.write_json(out),
            N::NegInt(n) => n.write_json(out),
            N::Float(f) => f.write_json(out),
        }
    }
}

/// Object keys come out in the map's order: sorted.
impl ToJson for Value {
    fn write_json(&self, out: &mut JsonWriter) {
        match self {
            Value::Null => out.null(),
            Value::Bool(b) => b.write_json(out),
            Value::Number(n) => n.write_json(out),
            Value::String(s) => out.string(s),
            Value::Array(items) => items.write_json(out),
            Value::Object(map) => out.map(
                map.len(),
                &mut map.iter().map(|(k, v)| (k.as_str(), v as &dyn ToJson)),
            ),
        }
    }
}

impl From<u64> for Number {
    fn from(n: u64) -> Number {
        Number(N::PosInt(n))
    }
}

impl From<i64> for Number {
    fn from(n: i64) -> Number {
        match u64::try_from(n) {
            Ok(n) => Number(N::PosInt(n)),
            Err(_) => Number(N::NegInt(n)),
        }
    }
}

impl From<u32> for Number {
    fn from(n: u32) -> Number {
        Number::from(u64::from(n))
    }
}

impl From<usize> for Number {
    fn from(n: usize) -> Number {
        Number::from(n as u64)
    }
}

impl From<i32> for Number {
    fn from(n: i32) -> Number {
        Number::from(i64::from(n))
    }
}

/// A value from a Rust value: what `Value::from` and [`json!`](crate::json!) build.
/// Non-finite floats are `null`, as serde_json makes them.
macro_rules! from {
    ($($ty:ty => |$x:ident| $value:expr),* $(,)?) => {
        $(impl From<$ty> for Value {
            fn from($x: $ty) -> Value {
                $value
            }
        })*
    };
}

from! {
    bool => |b| Value::Bool(b),
    u64 => |n| Value::Number(n.into()),
    u32 => |n| Value::Number(n.into()),
    usize => |n| Value::Number(n.into()),
    i64 => |n| Value::Number(n.into()),
    i32 => |n| Value::Number(n.into()),
    f64 => |f| Number::from_f64(f).map_or(Value::Null, Value::Number),
    Number => |n| Value::Number(n),
    String => |s| Value::String(s),
    &str => |s| Value::String(s.into()),
    Map<String, Value> => |map| Value::Object(map),
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(items: Vec<T>) -> Value {
        Value::Array(items.into_iter().map(Into::into).collect())
    }
}

/// `None` is `null`.
impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(value: Option<T>) -> Value {
        value.map_or(Value::Null, Into::into)
    }
}

impl<T: Into<Value>> FromIterator<T> for Value {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Value {
        Value::Array(items.into_iter().map(Into::into).collect())
    }
}

/// The value as JSON text: compact (`{"a":[1,2]}`), or with `{:#}` indented by two spaces, as
/// serde_json's `Value` prints (by `crate::to_json`).
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&match f.alternate() {
            true => crate::to_json::to_string_pretty(self),
            false => crate::to_json::to_string(self),
        })
    }
}

/// `value == "text"`, `value == 3`, `value == true`: whether the value is that string, number
/// (an integer is compared as an integer, a float as an `f64`) or boolean, as serde_json
/// compares them.
macro_rules! partial_eq {
    ($($ty:ty => |$value:ident, $other:ident| $same:expr),* $(,)?) => {
        $(impl PartialEq<$ty> for Value {
            fn eq(&self, other: &$ty) -> bool {
                let ($value, $other) = (self, other);
                $same
            }
        }
        impl PartialEq<Value> for $ty {
            fn eq(&self, value: &Value) -> bool {
                value == self
            }
        })*
    };
}

partial_eq! {
    str => |value, other| value.as_str() == Some(other),
    &str => |value, other| value.as_str() == Some(*other),
    String => |value, other| value.as_str() == Some(other.as_str()),
    bool => |value, other| value.as_bool() == Some(*other),
    i32 => |value, other| value.as_i64() == Some(i64::from(*other)),
    i64 => |value, other| value.as_i64() == Some(*other),
    u32 => |value, other| value.as_u64() == Some(u64::from(*other)),
    u64 => |value, other| value.as_u64() == Some(*other),
    usize => |value, other| value.as_u64() == Some(*other as u64),
    f64 => |value, other| value.as_f64() == Some(*other),
}

/// A Rust value as a JSON value, by reference: what [`json!`](crate::json!) does with a Rust
/// expression in its text (serde_json's `to_value`, for the types tao puts there).
pub trait ToValue {
    /// `self` as a JSON value.
    fn to_value(&self) -> Value;
}

macro_rules! to_value_by_from {
    ($($ty:ty),*) => {
        $(impl ToValue for $ty {
            fn to_value(&self) -> Value {
                Value::from(self.clone())
            }
        })*
    };
}

to_value_by_from!(Value, bool, u64, u32, usize, i64, i32, f64, String, Number);

impl ToValue for str {
    fn to_value(&self) -> Value {
        Value::from(self)
    }
}

impl ToValue for std::borrow::Cow<'_, str> {
    fn to_value(&self) -> Value {
        Value::from(self.as_ref())
    }
}

impl ToValue for Map<String, Value> {
    fn to_value(&self) -> Value {
        Value::Object(self.clone())
    }
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value {
        (**self).to_value()
    }
}

/// `None` is `null`.
impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, T::to_value)
    }
}

impl<T: ToValue> ToValue for [T] {
    fn to_value(&self) -> Value {
        Value::Array(self.iter().map(T::to_value).collect())
    }
}

impl<T: ToValue> ToValue for Vec<T> {
    fn to_value(&self) -> Value {
        self.as_slice().to_value()
    }
}

impl<T: ToValue, const N: usize> ToValue for [T; N] {
    fn to_value(&self) -> Value {
        self.as_slice().to_value()
    }
}

/// Builds a [`Value`] from JSON written in Rust, with Rust expressions where values go:
/// `json!({"tool": name, "input": {"query": query}, "n": [1, 2.5, null]})`. serde_json's
/// `json!` macro (MIT or Apache-2.0, <https://github.com/serde-rs/json>), ported: an
/// expression is turned into a value by [`ToValue`], by reference.
#[macro_export]
macro_rules! json {
    ($($json:tt)+) => {
        $crate::json_internal!($($json)+)
    };
}

// The muncher behind `json!`, as serde_json writes it (its arms that only improve the compiler's
// message for malformed input are left out).
#[macro_export]
#[doc(hidden)]
macro_rules! json_internal {
    // An array's items, in `[...]`, munched one by one.
    (@array [$($elems:expr,)*]) => { vec![$($elems,)*] };
    (@array [$($elems:expr),*]) => { vec![$($elems),*] };
    (@array [$($elems:expr,)*] null $($rest:tt)*) => {
        $crate::json_internal!(@array [$($elems,)* $crate::json_internal!(null)] $($rest)*)
    };
    (@array [$($elems:expr,)*] true $($rest:tt)*) => {
        $crate::json_internal!(@array [$($elems,)* $crate::json_internal!(true)] $($rest)*)
    };
    (@array [$($elems:expr,)*] false $($rest:tt)*) => {
        $crate::json_internal!(@array [$($elems,)* $crate::json_internal!(false)] $($rest)*)
    };
    (@array [$($elems:expr,)*] [$($array:tt)*] $($rest:tt)*) => {
        $crate::json_internal!(@array [$($elems,)* $crate::json_internal!([$($array)*])] $($rest)*)
    };
    (@array [$($elems:expr,)*] {$($map:tt)*} $($rest:tt)*) => {
        $crate::json_internal!(@array [$($elems,)* $crate::json_internal!({$($map)*})] $($rest)*)
    };
    (@array [$($elems:expr,)*] $next:expr, $($rest:tt)*) => {
        $crate::json_internal!(@array [$($elems,)* $crate::json_internal!($next),] $($rest)*)
    };
    (@array [$($elems:expr,)*] $last:expr) => {
        $crate::json_internal!(@array [$($elems,)* $crate::json_internal!($last)])
    };
    (@array [$($elems:expr),*] , $($rest:tt)*) => {
        $crate::json_internal!(@array [$($elems,)*] $($rest)*)
    };

    // An object's fields, in `{...}`: the key's tokens gathered up to the colon, then the value.
    (@object $object:ident () () ()) => {};
    (@object $object:ident [$($key:tt)+] ($value:expr) , $($rest:tt)*) => {
        let _ = $object.insert(($($key)+).into(), $value);
        $crate::json_internal!(@object $object () ($($rest)*) ($($rest)*));
    };
    (@object $object:ident [$($key:tt)+] ($value:expr)) => {
        let _ = $object.insert(($($key)+).into(), $value);
    };
    (@object $object:ident ($($key:tt)+) (: null $($rest:tt)*) $copy:tt) => {
        $crate::json_internal!(@object $object [$($key)+] ($crate::json_internal!(null)) $($rest)*);
    };
    (@object $object:ident ($($key:tt)+) (: true $($rest:tt)*) $copy:tt) => {
        $crate::json_internal!(@object $object [$($key)+] ($crate::json_internal!(true)) $($rest)*);
    };
    (@object $object:ident ($($key:tt)+) (: false $($rest:tt)*) $copy:tt) => {
        $crate::json_internal!(@object $object [$($key)+] ($crate::json_internal!(false)) $($rest)*);
    };
    (@object $object:ident ($($key:tt)+) (: [$($array:tt)*] $($rest:tt)*) $copy:tt) => {
        $crate::json_internal!(@object $object [$($key)+] ($crate::json_internal!([$($array)*])) $($rest)*);
    };
    (@object $object:ident ($($key:tt)+) (: {$($map:tt)*} $($rest:tt)*) $copy:tt) => {
        $crate::json_internal!(@object $object [$($key)+] ($crate::json_internal!({$($map)*})) $($rest)*);
    };
    (@object $object:ident ($($key:tt)+) (: $value:expr , $($rest:tt)*) $copy:tt) => {
        $crate::json_internal!(@object $object [$($key)+] ($crate::json_internal!($value)) , $($rest)*);
    };
    (@object $object:ident ($($key:tt)+) (: $value:expr) $copy:tt) => {
        $crate::json_internal!(@object $object [$($key)+] ($crate::json_internal!($value)));
    };
    (@object $object:ident () (($key:expr) : $($rest:tt)*) $copy:tt) => {
        $crate::json_internal!(@object $object ($key) (: $($rest)*) (: $($rest)*));
    };
    (@object $object:ident ($($key:tt)*) ($tt:tt $($rest:tt)*) $copy:tt) => {
        $crate::json_internal!(@object $object ($($key)* $tt) ($($rest)*) ($($rest)*));
    };

    // A value.
    (null) => { $crate::json::Value::Null };
    (true) => { $crate::json::Value::Bool(true) };
    (false) => { $crate::json::Value::Bool(false) };
    ([]) => { $crate::json::Value::Array(vec![]) };
    ([ $($tt:tt)+ ]) => {
        $crate::json::Value::Array($crate::json_internal!(@array [] $($tt)+))
    };
    ({}) => { $crate::json::Value::Object($crate::json::Map::new()) };
    ({ $($tt:tt)+ }) => {
        $crate::json::Value::Object({
            let mut object = $crate::json::Map::new();
            $crate::json_internal!(@object object () ($($tt)+) ($($tt)+));
            object
        })
    };
    ($other:expr) => { $crate::json::ToValue::to_value(&$other) };
}
