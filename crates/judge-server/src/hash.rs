//! The deterministic hashes every decision of the server derives from: FNV-1a 64 over bytes and
//! a SplitMix64 finaliser to mix in seeds. Nothing here is random or depends on the clock.

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a 64 of `bytes`.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_continue(FNV_OFFSET, bytes)
}

/// Continues an FNV-1a 64 hash from `state` over `bytes`.
pub(crate) fn fnv1a_continue(state: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(state, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME)
    })
}

/// SplitMix64's finaliser: spreads every input bit over the whole word.
pub(crate) fn mix(value: u64) -> u64 {
    let mut z = value.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `hash` mixed with `seed`: a different seed gives an unrelated value.
pub(crate) fn with_seed(hash: u64, seed: u64) -> u64 {
    mix(hash ^ mix(seed))
}

/// A value in `[0, 1)` drawn from `hash` (its top 53 bits).
pub(crate) fn unit_interval(hash: u64) -> f64 {
    // 2^53 values, each exactly representable in an f64.
    (hash >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_reference_vectors() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn seeds_change_the_mix() {
        let hash = fnv1a(b"same text");
        assert_ne!(with_seed(hash, 0), with_seed(hash, 1));
        assert_eq!(with_seed(hash, 7), with_seed(hash, 7));
    }

    #[test]
    fn unit_interval_stays_below_one() {
        assert!(unit_interval(u64::MAX) < 1.0);
        assert_eq!(unit_interval(0), 0.0);
    }
}
