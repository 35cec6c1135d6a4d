//! A small deterministic random source (xorshift64) for the randomised tests, so that a failure
//! replays from its seed. Shared by the native tests and `make fuzz`'s stable driver.

/// The generator's state; any seed but 0.
pub struct Rng(pub u64);

#[allow(dead_code)] // (each user takes what it needs)
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn pick<'a>(&mut self, choices: &[&'a str]) -> &'a str {
        choices[self.below(choices.len())]
    }
}
