//! An example tao tool compiled to `wasm32-wasip1`: counts the words, lines and characters of
//! its input.
//!
//! A wasm tool is an ordinary command-line program. The action input arrives on stdin, whatever
//! it prints on stdout is the observation, and a message on stderr with a non-zero exit status
//! is an error observation. Nothing here knows about tao or the sandbox: `cargo build --target
//! wasm32-wasip1` is all it takes (see `scripts/build-sandbox.sh`).

use std::io::{self, Read, Write};

/// What the tool reports about a text.
#[derive(Debug, PartialEq, Eq)]
struct Counts {
    words: usize,
    lines: usize,
    characters: usize,
}

/// Counts like `wc`, with two differences a reader would expect: characters are Unicode
/// characters rather than bytes, and a last line without a newline still counts as a line.
fn count(text: &str) -> Counts {
    Counts {
        words: text.split_whitespace().count(),
        lines: text.lines().count(),
        characters: text.chars().count(),
    }
}

fn main() {
    let mut input = Vec::new();
    if let Err(error) = io::stdin().read_to_end(&mut input) {
        eprintln!("wordcount: cannot read the input: {error}");
        std::process::exit(1);
    }
    // Invalid UTF-8 is counted after replacing each bad sequence with U+FFFD (one character),
    // so any bytes give an answer instead of an error.
    let text = String::from_utf8_lossy(&input);
    let counts = count(&text);
    let report = format!(
        "words: {}\nlines: {}\ncharacters: {}\n",
        counts.words, counts.lines, counts.characters
    );
    if io::stdout().write_all(report.as_bytes()).is_err() {
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_words_lines_and_unicode_characters() {
        let cases = [
            ("", (0, 0, 0)),
            ("one", (1, 1, 3)),
            ("two words\n", (2, 1, 10)),
            ("a b\nc\n\nd", (4, 4, 8)),
            ("  spaced   out  ", (2, 1, 16)),
            ("道可道 非常道", (2, 1, 7)),
        ];
        for (text, (words, lines, characters)) in cases {
            let expected = Counts {
                words,
                lines,
                characters,
            };
            assert_eq!(count(text), expected, "input {text:?}");
        }
    }
}
