//! Scanning bytes eight at a time as `u64` words (SWAR), for the hot loops that look for the
//! first byte of some kind: string ends in `json::scan`, word ends in `text::f1`.

/// `0x01` in every byte.
pub const ONES: u64 = u64::from_le_bytes([0x01; 8]);
/// `0x80` in every byte.
pub const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);

/// The index of the first byte of `bytes` that `flags` marks, or `bytes.len()` when none is.
///
/// `flags` gets eight bytes as one little-endian `u64` and returns it with the top bit set in
/// each byte to stop at; the lowest set bit must be exact (flags above a true one may be false,
/// as the borrow of a subtraction makes them). The last few bytes are padded with `padding`;
/// a mark on the padding counts as `bytes.len()`.
#[inline(always)]
pub fn first_flagged(bytes: &[u8], padding: u8, flags: impl Fn(u64) -> u64) -> usize {
    let mut words = bytes.chunks_exact(8);
    let mut run = 0;
    for word in words.by_ref() {
        let found = flags(u64::from_le_bytes(word.try_into().unwrap_or([padding; 8])));
        if found != 0 {
            return run + (found.trailing_zeros() / 8) as usize;
        }
        run += 8;
    }
    let rest = words.remainder();
    let mut last = [padding; 8];
    for (slot, &byte) in last.iter_mut().zip(rest) {
        *slot = byte;
    }
    run + ((flags(u64::from_le_bytes(last)).trailing_zeros() / 8) as usize).min(rest.len())
}
