//! The deterministic generator of the randomised tests (xorshift64), so that each test draws the
//! same inputs on every run; the core's tests use it too.

/// Xorshift64: each draw advances the state and returns it.
pub struct XorShift(u64);

impl XorShift {
    /// A generator starting from `seed`, which must not be zero.
    pub fn new(seed: u64) -> Self {
        XorShift(seed)
    }

    /// The next state.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// The next state modulo `bound`.
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }
}
