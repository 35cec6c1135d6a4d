//! Reading JSON text into a [`Value`]: serde_json's reader (`serde_json::from_str::<Value>`),
//! ported, so that every text reads to the same value and every error says the same words at
//! the same line and column.
//!
//! Ported from serde_json 1.0.154 (`src/de.rs` and `src/read.rs`, without its `float_roundtrip`
//! feature), by David Tolnay and serde_json's contributors, under the MIT or Apache-2.0 licence
//! (<https://github.com/serde-rs/json>). What is kept: the order in which bytes are looked at
//! and consumed (an error's position depends on it), the messages, the recursion limit (128
//! levels of nesting), and the way a number becomes an `f64`: its digits as a `u64` significand
//! times (or divided by) a power of ten, the digits that overflow the `u64` dropped. That is
//! not correctly rounded for every 17-digit decimal, but it is what serde_json gave, and it
//! keeps core's own float reader (`str::parse::<f64>`, over 10 KB of code and tables) out of
//! the wasm.
//!
//! What is left out, because `Value` never needed it: reading from a stream, borrowed strings,
//! typed deserialisation, byte strings (which may hold lone surrogates).

use std::fmt;

use super::{Map, Value};

/// Why a text is not JSON, and where, in serde_json's words: `expected value at line 1
/// column 1`. (The column counts bytes, from 1.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    message: &'static str,
    line: usize,
    column: usize,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.message, self.line, self.column
        )
    }
}

impl std::error::Error for Error {}

// serde_json's messages (its `ErrorCode`s), those a `Value` can meet.
const EOF_LIST: &str = "EOF while parsing a list";
const EOF_OBJECT: &str = "EOF while parsing an object";
const EOF_STRING: &str = "EOF while parsing a string";
const EOF_VALUE: &str = "EOF while parsing a value";
const EXPECTED_COLON: &str = "expected `:`";
const EXPECTED_LIST_COMMA: &str = "expected `,` or `]`";
const EXPECTED_OBJECT_COMMA: &str = "expected `,` or `}`";
const EXPECTED_IDENT: &str = "expected ident";
const EXPECTED_VALUE: &str = "expected value";
const INVALID_ESCAPE: &str = "invalid escape";
const INVALID_NUMBER: &str = "invalid number";
const OUT_OF_RANGE: &str = "number out of range";
const CONTROL_CHARACTER: &str = "control character (\\u0000-\\u001F) found while parsing a string";
const KEY_MUST_BE_A_STRING: &str = "key must be a string";
const LONE_SURROGATE: &str = "lone leading surrogate in hex escape";
const TRAILING_COMMA: &str = "trailing comma";
const TRAILING_CHARACTERS: &str = "trailing characters";
const END_OF_HEX_ESCAPE: &str = "unexpected end of hex escape";
const RECURSION_LIMIT: &str = "recursion limit exceeded";

/// Reads `text` as one JSON value (whitespace around it allowed, nothing else).
pub fn from_str(text: &str) -> Result<Value, Error> {
    let mut reader = Reader {
        text,
        at: 0,
        depth: 128,
    };
    let value = reader.value()?;
    match reader.whitespace() {
        Some(_) => Err(reader.peek_error(TRAILING_CHARACTERS)),
        None => Ok(value),
    }
}

/// The text and how far it is read.
struct Reader<'a> {
    text: &'a str,
    /// The next byte to read.
    at: usize,
    /// How many more arrays or objects may open (serde_json's `remaining_depth`).
    depth: u8,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let byte = self.peek();
        self.at += usize::from(byte.is_some());
        byte
    }

    /// An error at the byte just read.
    fn error(&self, message: &'static str) -> Error {
        self.error_at(self.at, message)
    }

    /// An error at the byte just peeked at.
    fn peek_error(&self, message: &'static str) -> Error {
        self.error_at((self.at + 1).min(self.text.len()), message)
    }

    /// The line and column of the `at`th byte, counted from 1, as serde_json counts them: the
    /// column is the number of bytes from the line's start to `at`.
    fn error_at(&self, at: usize, message: &'static str) -> Error {
        let before = self.text.as_bytes().get(..at).unwrap_or_default();
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        Error {
            message,
            line: 1 + before[..line_start].iter().filter(|&&b| b == b'\n').count(),
            column: at - line_start,
        }
    }

    /// Skips whitespace and returns the next byte, not consumed.
    fn whitespace(&mut self) -> Option<u8> {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.at += 1;
        }
        self.peek()
    }

    fn value(&mut self) -> Result<Value, Error> {
        let Some(first) = self.whitespace() else {
            return Err(self.peek_error(EOF_VALUE));
        };
        match first {
            b'n' => self.ident("null", Value::Null),
            b't' => self.ident("true", Value::Bool(true)),
            b'f' => self.ident("false", Value::Bool(false)),
            b'-' => {
                self.at += 1;
                self.number(false)
            }
            b'0'..=b'9' => self.number(true),
            b'"' => {
                self.at += 1;
                self.string().map(Value::String)
            }
            b'[' | b'{' => {
                self.depth -= 1;
                if self.depth == 0 {
                    return Err(self.peek_error(RECURSION_LIMIT));
                }
                self.at += 1;
                let value = match first {
                    b'[' => self.array(),
                    _ => self.object(),
                };
                self.depth += 1;
                value
            }
            _ => Err(self.peek_error(EXPECTED_VALUE)),
        }
    }

    /// `null`, `true` or `false`, whose first letter is the next byte.
    fn ident(&mut self, word: &str, value: Value) -> Result<Value, Error> {
        self.at += 1;
        for &expected in &word.as_bytes()[1..] {
            match self.next() {
                None => return Err(self.error(EOF_VALUE)),
                Some(byte) if byte != expected => return Err(self.error(EXPECTED_IDENT)),
                Some(_) => {}
            }
        }
        Ok(value)
    }

    /// The items of an array, its `[` read, up to its `]`.
    fn array(&mut self) -> Result<Value, Error> {
        let mut items = Vec::new();
        loop {
            match self.whitespace() {
                None => return Err(self.peek_error(EOF_LIST)),
                Some(b']') => break,
                Some(b',') if !items.is_empty() => {
                    self.at += 1;
                    if self.whitespace() == Some(b']') {
                        return Err(self.peek_error(TRAILING_COMMA));
                    }
                }
                Some(_) if !items.is_empty() => return Err(self.peek_error(EXPECTED_LIST_COMMA)),
                Some(_) => {}
            }
            items.push(self.value()?);
        }
        self.at += 1;
        Ok(Value::Array(items))
    }

    /// The fields of an object, its `{` read, up to its `}`. A key met twice keeps its last
    /// value.
    fn object(&mut self) -> Result<Value, Error> {
        // Kept in the order met, sorted once at the end (see `Map::from_pairs`).
        let mut map = Vec::new();
        loop {
            let mut next = self.whitespace();
            match next {
                None => return Err(self.peek_error(EOF_OBJECT)),
                Some(b'}') => break,
                Some(b',') if !map.is_empty() => {
                    self.at += 1;
                    next = self.whitespace();
                    match next {
                        None => return Err(self.peek_error(EOF_VALUE)),
                        Some(b'}') => return Err(self.peek_error(TRAILING_COMMA)),
                        Some(_) => {}
                    }
                }
                Some(_) if !map.is_empty() => {
                    return Err(self.peek_error(EXPECTED_OBJECT_COMMA));
                }
                Some(_) => {}
            }
            if next != Some(b'"') {
                return Err(self.peek_error(KEY_MUST_BE_A_STRING));
            }
            self.at += 1;
            let key = self.string()?;
            match self.whitespace() {
                Some(b':') => self.at += 1,
                Some(_) => return Err(self.peek_error(EXPECTED_COLON)),
                None => return Err(self.peek_error(EOF_OBJECT)),
            }
            let value = self.value()?;
            map.push((key, value));
        }
        self.at += 1;
        Ok(Value::Object(Map::from_pairs(map)))
    }

    /// A string, its opening quote read, up to its closing quote.
    fn string(&mut self) -> Result<String, Error> {
        let mut out = String::new();
        loop {
            // A run without escapes is copied whole. It ends at a quote, a backslash or a
            // control character, all ASCII, so on a character boundary.
            let rest = self.text.as_bytes().get(self.at..).unwrap_or_default();
            let run = rest
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                .unwrap_or(rest.len());
            out.push_str(self.text.get(self.at..self.at + run).unwrap_or_default());
            self.at += run;
            match self.next() {
                None => return Err(self.error(EOF_STRING)),
                Some(b'"') => return Ok(out),
                Some(b'\\') => self.escape(&mut out)?,
                Some(_) => return Err(self.error(CONTROL_CHARACTER)),
            }
        }
    }

    /// An escape, its backslash read.
    fn escape(&mut self, out: &mut String) -> Result<(), Error> {
        out.push(match self.next() {
            None => return Err(self.error(EOF_STRING)),
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => self.unicode_escape()?,
            Some(_) => return Err(self.error(INVALID_ESCAPE)),
        });
        Ok(())
    }

    /// `\uXXXX`, its `\u` read; a character outside the BMP is two of them, a UTF-16 surrogate
    /// pair. A surrogate without its other half is an error: a Rust string cannot hold it.
    fn unicode_escape(&mut self) -> Result<char, Error> {
        let high = self.hex()?;
        let code = match high {
            0xDC00..=0xDFFF => return Err(self.error(LONE_SURROGATE)),
            0xD800..=0xDBFF => {
                for expected in [b'\\', b'u'] {
                    match self.next() {
                        None => return Err(self.error(EOF_STRING)),
                        Some(byte) if byte != expected => {
                            return Err(self.error(END_OF_HEX_ESCAPE));
                        }
                        Some(_) => {}
                    }
                }
                let low = self.hex()?;
                if !(0xDC00..=0xDFFF).contains(&low) {
                    return Err(self.error(LONE_SURROGATE));
                }
                0x10000 + ((high - 0xD800) << 10 | (low - 0xDC00))
            }
            _ => high,
        };
        // Never the replacement character: the surrogates were handled above.
        Ok(char::from_u32(code).unwrap_or('\u{fffd}'))
    }

    /// The four hex digits of a `\u` escape.
    fn hex(&mut self) -> Result<u32, Error> {
        let Some(digits) = self.text.as_bytes().get(self.at..self.at + 4) else {
            self.at = self.text.len();
            return Err(self.error(EOF_STRING));
        };
        self.at += 4;
        let mut code = 0;
        for &digit in digits {
            match char::from(digit).to_digit(16) {
                Some(value) => code = code * 16 + value,
                None => return Err(self.error(INVALID_ESCAPE)),
            }
        }
        Ok(code)
    }

    /// A number, its sign read (serde_json's `parse_integer`): a `u64`, a negative `i64`, or
    /// an `f64` (a fraction, an exponent, `-0`, or an integer out of those ranges).
    fn number(&mut self, positive: bool) -> Result<Value, Error> {
        let significand = match self.next() {
            None => return Err(self.error(EOF_VALUE)),
            // One leading zero, no more.
            Some(b'0') if matches!(self.peek(), Some(b'0'..=b'9')) => {
                return Err(self.peek_error(INVALID_NUMBER));
            }
            Some(b'0') => 0,
            Some(digit @ b'1'..=b'9') => {
                let mut significand = u64::from(digit - b'0');
                while let Some(digit @ b'0'..=b'9') = self.peek() {
                    match grow(significand, digit) {
                        Some(grown) => significand = grown,
                        // Too long for a u64: an f64 of its first digits and an exponent.
                        None => return self.long_integer(positive, significand).map(Value::from),
                    }
                    self.at += 1;
                }
                significand
            }
            Some(_) => return Err(self.error(INVALID_NUMBER)),
        };
        Ok(match self.peek() {
            Some(b'.') => Value::from(self.fraction(positive, significand, 0)?),
            Some(b'e' | b'E') => Value::from(self.exponent(positive, significand, 0)?),
            _ if positive => Value::from(significand),
            // `-0` and integers below i64::MIN are floats.
            _ => match (significand as i64).wrapping_neg() {
                negative if negative < 0 => Value::from(negative),
                _ => Value::from(-(significand as f64)),
            },
        })
    }

    /// The digits after the 20th of an integer too long for a u64: each one a power of ten.
    fn long_integer(&mut self, positive: bool, significand: u64) -> Result<f64, Error> {
        let mut exponent = 0i32;
        loop {
            match self.peek() {
                Some(b'0'..=b'9') => {
                    self.at += 1;
                    exponent = exponent.saturating_add(1);
                }
                Some(b'.') => return self.fraction(positive, significand, exponent),
                Some(b'e' | b'E') => return self.exponent(positive, significand, exponent),
                _ => return self.f64_from_parts(positive, significand, exponent),
            }
        }
    }

    /// The digits after the point (the next byte): more digits of the significand, each one a
    /// power of ten less. Those that would overflow the u64 are dropped.
    fn fraction(
        &mut self,
        positive: bool,
        mut significand: u64,
        exponent: i32,
    ) -> Result<f64, Error> {
        self.at += 1;
        let mut digits = 0i32;
        let mut overflowed = false;
        while let Some(digit @ b'0'..=b'9') = self.peek() {
            match grow(significand, digit) {
                Some(grown) if !overflowed => {
                    significand = grown;
                    digits += 1;
                }
                _ => overflowed = true,
            }
            self.at += 1;
        }
        // At least one digit after the point.
        if digits == 0 && !overflowed {
            return Err(match self.peek() {
                Some(_) => self.peek_error(INVALID_NUMBER),
                None => self.peek_error(EOF_VALUE),
            });
        }
        let exponent = exponent - digits;
        match self.peek() {
            Some(b'e' | b'E') => self.exponent(positive, significand, exponent),
            _ => self.f64_from_parts(positive, significand, exponent),
        }
    }

    /// The exponent (its `e` the next byte), added to the one the digits gave.
    fn exponent(&mut self, positive: bool, significand: u64, starting: i32) -> Result<f64, Error> {
        self.at += 1;
        let positive_exponent = match self.peek() {
            Some(b'+') => {
                self.at += 1;
                true
            }
            Some(b'-') => {
                self.at += 1;
                false
            }
            _ => true,
        };
        let mut exponent = match self.next() {
            None => return Err(self.error(EOF_VALUE)),
            Some(digit @ b'0'..=b'9') => i32::from(digit - b'0'),
            Some(_) => return Err(self.error(INVALID_NUMBER)),
        };
        while let Some(digit @ b'0'..=b'9') = self.peek() {
            self.at += 1;
            let digit = i32::from(digit - b'0');
            match exponent.checked_mul(10).and_then(|e| e.checked_add(digit)) {
                Some(grown) => exponent = grown,
                // An exponent beyond i32: zero, or out of range.
                None if significand != 0 && positive_exponent => {
                    return Err(self.error(OUT_OF_RANGE));
                }
                None => {
                    while let Some(b'0'..=b'9') = self.peek() {
                        self.at += 1;
                    }
                    return Ok(if positive { 0.0 } else { -0.0 });
                }
            }
        }
        let exponent = match positive_exponent {
            true => starting.saturating_add(exponent),
            false => starting.saturating_sub(exponent),
        };
        self.f64_from_parts(positive, significand, exponent)
    }

    /// `significand × 10^exponent` (serde_json's `f64_from_parts`): the significand as an f64,
    /// times or divided by the power of ten (an exponent below -308 divides by 1e308 first).
    fn f64_from_parts(
        &self,
        positive: bool,
        significand: u64,
        mut exponent: i32,
    ) -> Result<f64, Error> {
        let mut f = significand as f64;
        loop {
            match exponent.unsigned_abs() {
                n @ 0..=308 => {
                    let pow = pow10(n);
                    if exponent >= 0 {
                        f *= pow;
                        if f.is_infinite() {
                            return Err(self.error(OUT_OF_RANGE));
                        }
                    } else {
                        f /= pow;
                    }
                    break;
                }
                _ => {
                    if f == 0.0 {
                        break;
                    }
                    if exponent >= 0 {
                        return Err(self.error(OUT_OF_RANGE));
                    }
                    f /= 1e308;
                    exponent += 308;
                }
            }
        }
        Ok(if positive { f } else { -f })
    }
}

/// `significand * 10 + digit`, unless that overflows a u64.
fn grow(significand: u64, digit: u8) -> Option<u64> {
    significand
        .checked_mul(10)
        .and_then(|s| s.checked_add(u64::from(digit - b'0')))
}

/// 10^n (n ≤ 308) correctly rounded: the value of the literal `1e{n}`. serde_json reads these
/// from a table of 309 numbers; computed, they cost 2.5 KB less in the wasm (gzip).
fn pow10(n: u32) -> f64 {
    // Exact up to 10^22, the last power of ten an f64 holds exactly.
    if n <= 22 {
        let mut f = 1.0;
        for _ in 0..n {
            f *= 10.0;
        }
        return f;
    }
    // 10^n = 5^n × 2^n. First 5^n exactly, in 32-bit words, the lowest first (5^308 < 2^716),
    // multiplied by 5^13 (the largest power of 5 in 32 bits) at a time.
    let mut words = [0u32; 23];
    words[0] = 1;
    let mut left = n;
    while left > 0 {
        let k = left.min(13);
        left -= k;
        let factor = 5u64.pow(k);
        let mut carry = 0;
        for word in &mut words {
            let product = u64::from(*word) * factor + carry;
            *word = product as u32;
            carry = product >> 32;
        }
    }
    let top_word = words.iter().rposition(|&w| w != 0).unwrap_or(0);
    let bits = 32 * top_word as u32 + 32 - words[top_word].leading_zeros();
    // Then its highest 64 bits, with a 1 in the lowest when any bit below them is set (always,
    // when there are bits below: 5^n is odd). Rounding that u64 to an f64 rounds 5^n once, to
    // nearest and ties to even, as the literal is.
    let shift = bits.saturating_sub(64);
    let mut top = 0u64;
    for i in (shift..bits).rev() {
        top = top << 1 | u64::from(words[i as usize / 32] >> (i % 32) & 1);
    }
    top |= u64::from(shift > 0);
    // And times 2^(shift + n), which is exact.
    top as f64 * f64::from_bits(u64::from(shift + n + 1023) << 52)
}

#[cfg(test)]
mod tests {
    /// serde_json keeps 10^0 to 10^308 in a table of literals; computed, they are the same.
    #[test]
    fn powers_of_ten_are_the_literals() {
        for n in 0..=308u32 {
            let literal: f64 = format!("1e{n}").parse().unwrap();
            assert_eq!(super::pow10(n).to_bits(), literal.to_bits(), "1e{n}");
        }
    }
}
