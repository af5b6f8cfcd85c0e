//! Hashes that must be the same in every build and on every machine: dedup ids on disk,
//! feature indices of the behaviour shim, RNG seeds derived from fuzzer bytes. `std`'s
//! hasher is randomly keyed per process, so it can serve none of these.

/// The FNV-1a 64-bit offset basis (Fowler–Noll–Vo, IETF draft-eastlake-fnv).
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

/// FNV-1a (64 bit) of `bytes`, continued from `h` (start from [`FNV_OFFSET`]).
pub const fn fnv1a_from(mut h: u64, bytes: &[u8]) -> u64 {
    // `while`, not `for`: usable in constants (a source file's fingerprint).
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(FNV_PRIME);
        i += 1;
    }
    h
}

/// FNV-1a (64 bit) of `bytes`.
pub const fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(FNV_OFFSET, bytes)
}

/// A stable 16-hex-digit id for a key (FNV-1a): the name of a bug's directory.
pub fn short_hash(key: &str) -> String {
    format!("{:016x}", fnv1a(key.as_bytes()))
}

/// Mixes several numbers into one RNG seed (campaign seed, run, worker, counter), so
/// that neighbouring inputs give unrelated streams (SplitMix64's multiplier).
pub fn mix(parts: &[u64]) -> u64 {
    let mut h = 0x9E37_79B9_7F4A_7C15u64;
    for &p in parts {
        h = (h ^ p).wrapping_mul(0xBF58_476D_1CE4_E5B9).rotate_left(31);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bug directories are named by this hash: a change would split every existing
    /// store's dedup index from its directories.
    #[test]
    fn ids_are_stable_across_builds() {
        assert_eq!(fnv1a(b""), FNV_OFFSET);
        // Published FNV-1a 64 test vector for "a".
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(short_hash("a"), "af63dc4c8601ec8c");
        assert_eq!(fnv1a_from(fnv1a(b"ab"), b"c"), fnv1a(b"abc"));
        assert_ne!(mix(&[1, 2]), mix(&[2, 1]));
    }
}
