//! The AFL++ custom mutator (`AFL_CUSTOM_MUTATOR_LIBRARY`), safe side: the exported
//! `afl_custom_*` functions of `fuzz/afl-mutator` are thin glue around [`AflMutator`].
//!
//! Each `afl_custom_fuzz` call takes the next seed from a generator seeded by AFL++, and
//! either crosses the input with AFL++'s `add_buf` (one call in four, when given) or
//! mutates it with the engine named by `SMTSTORM_ENGINE` (`opfuzz` default, `typefuzz`,
//! `valfuzz`, `storm`) — the same functions as the libFuzzer mutator. Without a structured
//! mutant the input is returned unchanged and AFL++'s own havoc stage does the rest.

use crate::mutate::choice::{Choices, Rng};
use crate::mutate::Engine;

/// The mutator's state (one per AFL++ instance).
pub struct AflMutator {
    rng: Rng,
    engine: Engine,
    out: Vec<u8>,
    describe: std::ffi::CString,
    /// Structured mutants produced / calls (for `afl_custom_describe` and tests).
    pub made: u64,
    pub calls: u64,
}

impl AflMutator {
    pub fn new(seed: u32) -> AflMutator {
        let engine =
            std::env::var("SMTSTORM_ENGINE").ok().and_then(|e| Engine::from_name(&e)).unwrap_or(Engine::OpFuzz);
        AflMutator {
            rng: Rng::new(seed as u64),
            engine,
            out: vec![],
            describe: std::ffi::CString::default(),
            made: 0,
            calls: 0,
        }
    }

    /// One mutant of `buf` (crossed with `add` sometimes), at most `max_size` bytes.
    pub fn fuzz(&mut self, buf: &[u8], add: &[u8], max_size: usize) -> &[u8] {
        self.calls += 1;
        let seed = self.rng.below(u32::MAX as usize).unwrap_or(0) as u32;
        let cross = !add.is_empty() && seed.is_multiple_of(4);
        let m = if cross {
            super::engines::crossover(buf, add, seed, max_size)
        } else {
            super::engines::mutate(self.engine, buf, seed, max_size)
        };
        self.out.clear();
        match m {
            Some(m) => {
                self.made += 1;
                self.out.extend_from_slice(&m);
            }
            None => self.out.extend_from_slice(&buf[..buf.len().min(max_size)]),
        }
        &self.out
    }

    /// A short name for the last mutation (AFL++ puts it in queue file names).
    pub fn describe(&mut self, max_len: usize) -> &std::ffi::CStr {
        let mut d = format!("smtstorm-{}", self.engine.name());
        d.truncate(max_len.saturating_sub(1));
        self.describe = std::ffi::CString::new(d).unwrap_or_default();
        &self.describe
    }

    /// The output buffer (AFL++ reads the mutant from here).
    pub fn out_ptr(&mut self) -> *mut u8 {
        self.out.as_mut_ptr()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn afl_mutator_makes_structured_mutants_deterministically() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        let seeds: Vec<Vec<u8>> = ["lia_bounds.smt2", "bv_arith.smt2", "str_concat_len.smt2"]
            .iter()
            .map(|n| std::fs::read(dir.join(n)).unwrap())
            .collect();
        let run = || {
            let mut m = AflMutator::new(7);
            let mut outs = vec![];
            for i in 0..60 {
                let a = &seeds[i % 3];
                let b = &seeds[(i + 1) % 3];
                let o = m.fuzz(a, b, 1 << 16).to_vec();
                assert!(crate::smtlib::parse_bytes(&o).is_ok());
                outs.push(o);
            }
            (outs, m.made)
        };
        let (a, made) = run();
        // Most calls give a structured mutant (a crossover of two scripts whose
        // declarations clash, or a seed without an OpFuzz site, gives none).
        assert!(made >= 40, "{made} of 60 structured");
        assert_eq!(a, run().0, "same seed, same mutants");
        assert!(a.iter().zip(seeds.iter().cycle()).filter(|(o, s)| o != s).count() >= 40);
    }
}
