//! Where engines get their decisions from.
//!
//! Every decision an engine makes is one call to [`Choices::below`]. The CLI passes a
//! seeded [`Rng`]; the fuzzing harnesses pass libFuzzer's bytes through
//! `arbitrary::Unstructured`. Same seed (or same bytes) → same decisions → same mutant,
//! byte for byte. Running out of bytes answers `None`, which ends the mutation
//! deterministically.

/// A source of decisions.
pub trait Choices {
    /// A number in `0..n` (`n > 0`), or `None` when the source is exhausted.
    fn below(&mut self, n: usize) -> Option<usize>;
}

/// A small, seedable generator (xorshift64*): deterministic across platforms and runs.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // splitmix64 of the seed, so that small seeds start far apart and 0 is allowed.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

impl Choices for Rng {
    fn below(&mut self, n: usize) -> Option<usize> {
        Some((self.next_u64() % n.max(1) as u64) as usize)
    }
}

impl Choices for arbitrary::Unstructured<'_> {
    fn below(&mut self, n: usize) -> Option<usize> {
        if self.is_empty() {
            return None;
        }
        self.choose_index(n.max(1)).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_bytes_run_out() {
        let a: Vec<_> = (0..5)
            .map({
                let mut r = Rng::new(7);
                move |_| r.below(100).unwrap()
            })
            .collect();
        let b: Vec<_> = (0..5)
            .map({
                let mut r = Rng::new(7);
                move |_| r.below(100).unwrap()
            })
            .collect();
        assert_eq!(a, b);
        assert_ne!(
            a,
            (0..5)
                .map({
                    let mut r = Rng::new(8);
                    move |_| r.below(100).unwrap()
                })
                .collect::<Vec<_>>()
        );
        let mut u = arbitrary::Unstructured::new(&[3, 200]);
        assert!(u.below(10).is_some());
        let mut drained = 0;
        while u.below(10).is_some() {
            drained += 1;
            assert!(drained < 10);
        }
        assert_eq!(u.below(10), None);
    }
}
