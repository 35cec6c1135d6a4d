//! The calculator tool: arithmetic without `eval`.
//!
//! A small recursive-descent parser over `+ - * / % ^ **`, parentheses, unary signs, factorial,
//! the constants `pi` and `e`, and the functions listed in [`FUNCTIONS`]. Anything it cannot
//! read is a bad input that tells the model what is allowed; division by zero and the like are
//! tool failures. Nesting is capped so a hostile expression cannot overflow the stack.

use super::{FnTool, Tool, ToolError};
use std::rc::Rc;

/// Functions the calculator knows, with their arity.
pub const FUNCTIONS: &[(&str, usize)] = &[
    ("sqrt", 1),
    ("abs", 1),
    ("exp", 1),
    ("ln", 1),
    ("log", 1),
    ("log10", 1),
    ("log2", 1),
    ("sin", 1),
    ("cos", 1),
    ("tan", 1),
    ("asin", 1),
    ("acos", 1),
    ("atan", 1),
    ("floor", 1),
    ("ceil", 1),
    ("round", 1),
    ("min", 2),
    ("max", 2),
    ("pow", 2),
];

const MAX_DEPTH: usize = 64;

/// The calculator as a registry tool named `calculator`.
pub fn tool() -> Rc<dyn Tool> {
    let mut tool = FnTool::new(
        "calculator",
        super::CALCULATOR,
        "expression",
        |expression: &str| evaluate(expression).map(format_number),
    );
    *tool.spec_mut() = super::calculator_spec();
    Rc::new(tool)
}

/// Evaluates `expression`. Errors say what was wrong, in words a model can act on.
pub fn evaluate(expression: &str) -> Result<f64, ToolError> {
    let cleaned = expression
        .trim()
        .trim_matches(|c| c == '`' || c == '"' || c == '\'');
    let cleaned = cleaned.trim_end_matches('=').trim();
    if cleaned.is_empty() {
        return Err(ToolError::BadInput(
            "the expression is empty; write e.g. 2 * (3 + 4)".into(),
        ));
    }
    let mut parser = Parser {
        chars: cleaned.chars().collect(),
        pos: 0,
        depth: 0,
    };
    let value = parser.expression()?;
    parser.skip_spaces();
    if let Some(c) = parser.peek() {
        return Err(parser.unexpected(c));
    }
    if value.is_nan() {
        return Err(ToolError::Failed(
            "the result is not a number (e.g. sqrt of a negative)".into(),
        ));
    }
    if value.is_infinite() {
        return Err(ToolError::Failed(
            "the result is infinite (division by zero or overflow)".into(),
        ));
    }
    Ok(value)
}

/// Prints integers without a fractional part and others rounded to 12 significant digits.
/// (The shortest round-trip form comes from JSON's number printer, `zmij`, which the crate needs
/// anyway; `format!` of an `f64` would pull a second float printer into the wasm.)
pub fn format_number(n: f64) -> String {
    if n == n.trunc() && n.abs() < 1e15 {
        return (n as i64).to_string();
    }
    let scale = 10f64.powi(11 - n.abs().log10().floor() as i32);
    let rounded = if scale.is_finite() && scale > 0.0 {
        (n * scale).round() / scale
    } else {
        n
    };
    crate::json::Number::from_f64(rounded)
        .map(|x| x.to_string())
        .unwrap_or_else(|| "NaN".into())
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }
    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|c| c.is_whitespace()) {
            self.pos += 1;
        }
    }
    fn eat(&mut self, c: char) -> bool {
        self.skip_spaces();
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn unexpected(&self, c: char) -> ToolError {
        ToolError::BadInput(format!(
            "unexpected '{c}' at position {}; use numbers, + - * / % ^, parentheses and functions like sqrt(x)",
            self.pos + 1
        ))
    }

    // expression := term (("+" | "-") term)*
    fn expression(&mut self) -> Result<f64, ToolError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(ToolError::BadInput(
                "the expression is nested too deeply".into(),
            ));
        }
        let mut value = self.term()?;
        loop {
            if self.eat('+') {
                value += self.term()?;
            } else if self.eat('-') || self.eat('−') {
                value -= self.term()?;
            } else {
                break;
            }
        }
        self.depth -= 1;
        Ok(value)
    }

    // term := power (("*" | "/" | "%") power)*
    fn term(&mut self) -> Result<f64, ToolError> {
        let mut value = self.power()?;
        loop {
            self.skip_spaces();
            let here = self.pos;
            if self.eat('*') || self.eat('×') {
                if self.peek() == Some('*') {
                    self.pos = here; // `**` is a power, handled below
                    break;
                }
                value *= self.power()?;
            } else if self.eat('/') || self.eat('÷') {
                let divisor = self.power()?;
                if divisor == 0.0 {
                    return Err(ToolError::Failed("division by zero".into()));
                }
                value /= divisor;
            } else if self.eat('%') {
                let divisor = self.power()?;
                if divisor == 0.0 {
                    return Err(ToolError::Failed("modulo by zero".into()));
                }
                value %= divisor;
            } else {
                break;
            }
        }
        Ok(value)
    }

    // power := unary (("^" | "**") power)?   (right-associative)
    fn power(&mut self) -> Result<f64, ToolError> {
        let base = self.unary()?;
        self.skip_spaces();
        let is_power = if self.peek() == Some('^') {
            self.pos += 1;
            true
        } else if self.peek() == Some('*') && self.chars.get(self.pos + 1) == Some(&'*') {
            self.pos += 2;
            true
        } else {
            false
        };
        if is_power {
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return Err(ToolError::BadInput(
                    "the expression is nested too deeply".into(),
                ));
            }
            let exponent = self.power()?;
            self.depth -= 1;
            return Ok(base.powf(exponent));
        }
        Ok(base)
    }

    // unary := ("-" | "+") unary | postfix
    fn unary(&mut self) -> Result<f64, ToolError> {
        if self.eat('-') || self.eat('−') {
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return Err(ToolError::BadInput(
                    "the expression is nested too deeply".into(),
                ));
            }
            let v = -self.unary()?;
            self.depth -= 1;
            return Ok(v);
        }
        if self.eat('+') {
            return self.unary();
        }
        let mut value = self.primary()?;
        while self.eat('!') {
            value = factorial(value)?;
        }
        Ok(value)
    }

    // primary := number | constant | function "(" args ")" | "(" expression ")"
    fn primary(&mut self) -> Result<f64, ToolError> {
        self.skip_spaces();
        match self.peek() {
            None => Err(ToolError::BadInput("the expression ends too early".into())),
            Some('(') => {
                self.pos += 1;
                let value = self.expression()?;
                if !self.eat(')') {
                    return Err(ToolError::BadInput("a '(' is not closed".into()));
                }
                Ok(value)
            }
            Some(c) if c.is_ascii_digit() || c == '.' => self.number(),
            Some(c) if c.is_alphabetic() || c == 'π' => self.name(),
            Some(c) => Err(self.unexpected(c)),
        }
    }

    fn number(&mut self) -> Result<f64, ToolError> {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_digit() || c == '.' || c == '_')
        {
            self.pos += 1;
        }
        // An exponent: 1e3, 2.5E-4.
        if matches!(self.peek(), Some('e' | 'E'))
            && self
                .chars
                .get(self.pos + 1)
                .is_some_and(|c| c.is_ascii_digit() || *c == '-' || *c == '+')
        {
            self.pos += 2;
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1;
            }
        }
        let text: String = self.chars[start..self.pos]
            .iter()
            .filter(|c| **c != '_')
            .collect();
        parse_decimal(&text).ok_or_else(|| ToolError::BadInput(format!("'{text}' is not a number")))
    }

    fn name(&mut self) -> Result<f64, ToolError> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_alphanumeric() || c == 'π') {
            self.pos += 1;
        }
        // Every known name is ASCII or π, so ASCII case folding (plus the capital Π) reads
        // them all; Unicode `to_lowercase` would pull ~12 KB of case tables into the wasm.
        let name: String = self.chars[start..self.pos]
            .iter()
            .map(|&c| {
                if c == 'Π' {
                    'π'
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect();
        match name.as_str() {
            "pi" | "π" => return Ok(std::f64::consts::PI),
            "e" => return Ok(std::f64::consts::E),
            _ => {}
        }
        let Some(&(_, arity)) = FUNCTIONS.iter().find(|(f, _)| *f == name) else {
            let known: Vec<&str> = FUNCTIONS.iter().map(|(f, _)| *f).collect();
            return Err(ToolError::BadInput(format!(
                "unknown name '{name}'; known functions: {}, and the constants pi and e",
                known.join(", ")
            )));
        };
        if !self.eat('(') {
            return Err(ToolError::BadInput(format!(
                "write {name}(...) with parentheses"
            )));
        }
        let mut args = vec![self.expression()?];
        while self.eat(',') {
            args.push(self.expression()?);
        }
        if !self.eat(')') {
            return Err(ToolError::BadInput(format!("{name}( is not closed")));
        }
        if args.len() != arity {
            return Err(ToolError::BadInput(format!(
                "{name} takes {arity} argument{}, got {}",
                if arity == 1 { "" } else { "s" },
                args.len()
            )));
        }
        let x = args[0];
        let y = args.get(1).copied().unwrap_or(0.0);
        Ok(match name.as_str() {
            "sqrt" => x.sqrt(),
            "abs" => x.abs(),
            "exp" => x.exp(),
            "ln" => x.ln(),
            "log" | "log10" => x.log10(),
            "log2" => x.log2(),
            "sin" => x.sin(),
            "cos" => x.cos(),
            "tan" => x.tan(),
            "asin" => x.asin(),
            "acos" => x.acos(),
            "atan" => x.atan(),
            "floor" => x.floor(),
            "ceil" => x.ceil(),
            "round" => x.round(),
            "min" => x.min(y),
            "max" => x.max(y),
            _ => x.powf(y), // pow
        })
    }
}

/// Reads `digits[.digits][e[+-]digits]` the way `str::parse::<f64>` does (`.5`, `5.` and `007`
/// included), but with the JSON reader's (serde_json's algorithm): the crate needs that one anyway,
/// and `str::parse` would add core's own float reader, ~15 KB of code and tables, to the wasm.
/// So the text is first rewritten in JSON's stricter grammar (`0.5`, `5`, `7`).
fn parse_decimal(text: &str) -> Option<f64> {
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (text, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if !all_digits(int) || !all_digits(frac) || (int.is_empty() && frac.is_empty()) {
        return None;
    }
    let int = int.trim_start_matches('0');
    let mut json = String::from(if int.is_empty() { "0" } else { int });
    if !frac.is_empty() {
        json = json + "." + frac;
    }
    if let Some(exponent) = exponent {
        let digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
        if digits.is_empty() || !all_digits(digits) {
            return None;
        }
        json = json + "e" + exponent;
    }
    // The text is valid JSON now, so the one error left is a number too large for an f64,
    // which `str::parse` reads as infinity (reported below as an overflow).
    Some(
        crate::json::from_str(&json)
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(f64::INFINITY),
    )
}

fn factorial(n: f64) -> Result<f64, ToolError> {
    if n < 0.0 || n != n.trunc() || n > 170.0 {
        return Err(ToolError::BadInput(
            "factorial needs a whole number from 0 to 170".into(),
        ));
    }
    Ok((1..=n as u32).fold(1.0, |acc, k| acc * f64::from(k)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluates_like_a_calculator() {
        let cases = [
            ("60 * 35 + 500", "2600"),
            ("2 ^ 3 ^ 2", "512"),
            ("2 ** 10", "1024"),
            ("-(3 - 5) * 4", "8"),
            ("sqrt(16) + abs(-2)", "6"),
            ("10 / 4", "2.5"),
            ("7 % 3", "1"),
            ("5!", "120"),
            ("max(3, 9) - min(3, 9)", "6"),
            ("1/3", "0.333333333333"),
            ("2.5e3", "2500"),
            ("round(pi * 100)", "314"),
            ("3 × 4 ÷ 2", "6"),
            (".5 + 5. + 007", "12.5"),
            ("1.e2 + 2.5E-1", "100.25"),
        ];
        for (expression, expected) in cases {
            assert_eq!(
                evaluate(expression).map(format_number),
                Ok(expected.to_string()),
                "{expression}"
            );
        }
    }

    #[test]
    fn explains_what_is_wrong() {
        assert_eq!(
            evaluate("1 / 0"),
            Err(ToolError::Failed("division by zero".into()))
        );
        assert!(
            matches!(evaluate("2 +"), Err(ToolError::BadInput(m)) if m.contains("ends too early"))
        );
        assert!(
            matches!(evaluate("foo(2)"), Err(ToolError::BadInput(m)) if m.contains("unknown name 'foo'"))
        );
        assert!(
            matches!(evaluate("(1 + 2"), Err(ToolError::BadInput(m)) if m.contains("not closed"))
        );
        assert!(matches!(evaluate(""), Err(ToolError::BadInput(_))));
        assert!(
            matches!(evaluate("1.2.3"), Err(ToolError::BadInput(m)) if m.contains("'1.2.3' is not a number"))
        );
        assert!(matches!(evaluate("1e400"), Err(ToolError::Failed(m)) if m.contains("infinite")));
        let deep = "(".repeat(10_000) + "1" + &")".repeat(10_000);
        assert!(
            matches!(evaluate(&deep), Err(ToolError::BadInput(m)) if m.contains("nested too deeply"))
        );
        let minus = "-".repeat(10_000) + "1";
        assert!(
            matches!(evaluate(&minus), Err(ToolError::BadInput(m)) if m.contains("nested too deeply"))
        );
    }
}
