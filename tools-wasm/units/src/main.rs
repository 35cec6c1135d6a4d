//! An example tao tool compiled to `wasm32-wasip1`: converts a quantity between units.
//!
//! The input is one line such as `10 km to mi`, `100 F to C` or `3 kg in lb`; the output is
//! `10 km = 6.21371 mi`. An unknown unit, or a conversion between different kinds of quantity,
//! is reported on stderr with exit status 1, which the agent shows the model as an error
//! observation, so the message says what *is* accepted.

use std::io::{self, Read};
use std::process::ExitCode;

/// What a unit measures; only units of the same kind convert into each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Length,
    Mass,
    Temperature,
    Volume,
    Time,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Length => "length",
            Kind::Mass => "mass",
            Kind::Temperature => "temperature",
            Kind::Volume => "volume",
            Kind::Time => "time",
        }
    }
}

/// A unit: its symbol, what it measures, and how to reach the kind's base unit (metre,
/// kilogram, kelvin, litre, second) as `base = value * scale + offset`. Only temperatures
/// need the offset.
struct Unit {
    symbol: &'static str,
    aliases: &'static [&'static str],
    kind: Kind,
    scale: f64,
    offset: f64,
}

const fn unit(
    symbol: &'static str,
    aliases: &'static [&'static str],
    kind: Kind,
    scale: f64,
) -> Unit {
    Unit {
        symbol,
        aliases,
        kind,
        scale,
        offset: 0.0,
    }
}

/// The table of units. Factors are the exact legal definitions (the international yard and
/// pound of 1959, the US liquid gallon), so conversions are as precise as `f64` allows.
const UNITS: &[Unit] = &[
    unit(
        "m",
        &["metre", "meter", "metres", "meters"],
        Kind::Length,
        1.0,
    ),
    unit(
        "km",
        &["kilometre", "kilometer", "kilometres", "kilometers"],
        Kind::Length,
        1000.0,
    ),
    unit(
        "cm",
        &["centimetre", "centimeter", "centimetres", "centimeters"],
        Kind::Length,
        0.01,
    ),
    unit(
        "mm",
        &["millimetre", "millimeter", "millimetres", "millimeters"],
        Kind::Length,
        0.001,
    ),
    unit("mi", &["mile", "miles"], Kind::Length, 1609.344),
    unit("yd", &["yard", "yards"], Kind::Length, 0.9144),
    unit("ft", &["foot", "feet"], Kind::Length, 0.3048),
    unit("in", &["inch", "inches"], Kind::Length, 0.0254),
    unit("kg", &["kilogram", "kilograms"], Kind::Mass, 1.0),
    unit("g", &["gram", "grams"], Kind::Mass, 0.001),
    unit("lb", &["lbs", "pound", "pounds"], Kind::Mass, 0.453_592_37),
    unit("oz", &["ounce", "ounces"], Kind::Mass, 0.028_349_523_125),
    unit("t", &["tonne", "tonnes"], Kind::Mass, 1000.0),
    Unit {
        symbol: "C",
        aliases: &["celsius", "°c"],
        kind: Kind::Temperature,
        scale: 1.0,
        offset: 273.15,
    },
    Unit {
        symbol: "F",
        aliases: &["fahrenheit", "°f"],
        kind: Kind::Temperature,
        scale: 5.0 / 9.0,
        offset: 273.15 - 32.0 * 5.0 / 9.0,
    },
    unit("K", &["kelvin"], Kind::Temperature, 1.0),
    unit(
        "l",
        &["litre", "liter", "litres", "liters"],
        Kind::Volume,
        1.0,
    ),
    unit(
        "ml",
        &["millilitre", "milliliter", "millilitres", "milliliters"],
        Kind::Volume,
        0.001,
    ),
    unit("gal", &["gallon", "gallons"], Kind::Volume, 3.785_411_784),
    unit("s", &["sec", "second", "seconds"], Kind::Time, 1.0),
    unit("min", &["minute", "minutes"], Kind::Time, 60.0),
    unit("h", &["hr", "hour", "hours"], Kind::Time, 3600.0),
    unit("d", &["day", "days"], Kind::Time, 86400.0),
];

/// Finds a unit by symbol (case-insensitively: `KM` and `c` are unambiguous here) or by name.
fn find(name: &str) -> Result<&'static Unit, String> {
    let lower = name.to_lowercase();
    UNITS
        .iter()
        .find(|u| u.symbol.to_lowercase() == lower || u.aliases.contains(&lower.as_str()))
        .ok_or_else(|| {
            let known: Vec<&str> = UNITS.iter().map(|u| u.symbol).collect();
            format!("unknown unit {name:?}; known units: {}", known.join(", "))
        })
}

/// Reads `<number> <unit> to|in <unit>` (the number may touch its unit: `10km to mi`).
fn parse(line: &str) -> Result<(f64, &'static Unit, &'static Unit), String> {
    const EXPECTED: &str = "expected a conversion like `10 km to mi`";
    let mut words: Vec<&str> = line.split_whitespace().collect();
    // `10km` becomes `10`, `km`: split where the number's characters end.
    if let Some(first) = words.first().copied() {
        let end = first
            .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E')))
            .unwrap_or(first.len());
        if end > 0 && end < first.len() {
            words.splice(0..1, [&first[..end], &first[end..]]);
        }
    }
    let [number, from, separator, to] = words[..] else {
        return Err(format!("{EXPECTED}, got {line:?}"));
    };
    if !matches!(separator.to_lowercase().as_str(), "to" | "in" | "->") {
        return Err(format!(
            "{EXPECTED}: the third word must be `to`, got {separator:?}"
        ));
    }
    let value: f64 = number
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
        .ok_or_else(|| format!("{EXPECTED}: {number:?} is not a number"))?;
    Ok((value, find(from)?, find(to)?))
}

/// Converts through the base unit of the kind.
fn convert(value: f64, from: &Unit, to: &Unit) -> Result<f64, String> {
    if from.kind != to.kind {
        return Err(format!(
            "cannot convert {} ({}) to {} ({})",
            from.symbol,
            from.kind.name(),
            to.symbol,
            to.kind.name()
        ));
    }
    let base = value * from.scale + from.offset;
    Ok((base - to.offset) / to.scale)
}

/// Six significant digits without trailing zeros: `6.21371`, `37.7778`, `1000`.
fn format_number(value: f64) -> String {
    if value == 0.0 {
        return "0".to_string();
    }
    let magnitude = value.abs().log10().floor() as i32;
    let decimals = (5 - magnitude).clamp(0, 12) as usize;
    let text = format!("{value:.decimals$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    // `-0.000001` rounded to six places prints as `-0`.
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

fn answer(input: &str) -> Result<String, String> {
    let line = input.trim();
    let (value, from, to) = parse(line)?;
    let result = convert(value, from, to)?;
    Ok(format!(
        "{} {} = {} {}",
        format_number(value),
        from.symbol,
        format_number(result),
        to.symbol
    ))
}

fn main() -> ExitCode {
    let mut input = String::new();
    if let Err(error) = io::stdin().read_to_string(&mut input) {
        eprintln!("units: cannot read the input as text: {error}");
        return ExitCode::FAILURE;
    }
    match answer(&input) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("units: {message}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_between_units_of_one_kind() {
        let cases = [
            ("10 km to mi", "10 km = 6.21371 mi"),
            ("100 F to C", "100 F = 37.7778 C"),
            ("3 kg to lb", "3 kg = 6.61387 lb"),
            ("0 C to F", "0 C = 32 F"),
            ("-40 c in f", "-40 C = -40 F"),
            ("1km to m", "1 km = 1000 m"),
            ("2 hours to min", "2 h = 120 min"),
            ("1 gal to l\n", "1 gal = 3.78541 l"),
        ];
        for (input, expected) in cases {
            assert_eq!(answer(input).as_deref(), Ok(expected), "input {input:?}");
        }
    }

    #[test]
    fn explains_what_it_cannot_do() {
        assert_eq!(
            answer("3 parsec to km"),
            Err(format!(
                "unknown unit \"parsec\"; known units: {}",
                UNITS
                    .iter()
                    .map(|u| u.symbol)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        );
        assert_eq!(
            answer("3 kg to km"),
            Err("cannot convert kg (mass) to km (length)".to_string())
        );
        assert_eq!(
            answer("3 km is mi"),
            Err(
                "expected a conversion like `10 km to mi`: the third word must be `to`, got \"is\""
                    .to_string()
            )
        );
        assert_eq!(
            answer("how far is the moon"),
            Err(
                "expected a conversion like `10 km to mi`, got \"how far is the moon\"".to_string()
            )
        );
        assert_eq!(
            answer("km to mi"),
            Err("expected a conversion like `10 km to mi`, got \"km to mi\"".to_string())
        );
    }
}
