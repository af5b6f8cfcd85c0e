//! Fuzzing harness bodies. Each cargo-fuzz / AFL++ / honggfuzz target is a one-line call
//! into a function here, and each function also runs as a unit test on seeded inputs.
//!
//! * [`parse_roundtrip`]: the front end on arbitrary bytes.
//! * [`engines`]: the structure-aware mutators (libFuzzer's `fuzz_mutator!` and
//!   `fuzz_crossover!`) that turn the fuzzer's seed into typed AST edits.
//! * [`oracle`]: the solver-facing targets: process-global sessions, the differential and
//!   STORM oracles, confirmation in fresh processes, and the behaviour shim that turns
//!   solver statistics into coverage ([`shim`]).

pub mod engines;
pub mod oracle;
pub mod shim;

use crate::smtlib::{parse_bytes, print};

/// The body of a libFuzzer custom mutator (`fuzz_mutator!`): a structured mutant by
/// `engine` written into `data` (returns its size), or — for one seed in 16, and whenever
/// the input yields no structured mutant — libFuzzer's own byte mutation (`bytes`, i.e.
/// `libfuzzer_sys::fuzzer_mutate`), so malformed inputs still evolve.
pub fn libfuzzer_mutate(
    engine: crate::mutate::Engine,
    data: &mut [u8],
    size: usize,
    max_size: usize,
    seed: u32,
    bytes: impl FnOnce(&mut [u8], usize, usize) -> usize,
) -> usize {
    if seed % 16 != 15 {
        if let Some(m) = engines::mutate(engine, &data[..size.min(data.len())], seed, max_size.min(data.len())) {
            data[..m.len()].copy_from_slice(&m);
            return m.len();
        }
    }
    bytes(data, size, max_size)
}

/// The body of a libFuzzer custom crossover (`fuzz_crossover!`): the child's size, 0 when
/// the two inputs do not combine.
pub fn libfuzzer_crossover(a: &[u8], b: &[u8], out: &mut [u8], seed: u32) -> usize {
    match engines::crossover(a, b, seed, out.len()) {
        Some(c) => {
            out[..c.len()].copy_from_slice(&c);
            c.len()
        }
        None => 0,
    }
}

/// `parse_target`: any byte string either fails to parse with a positioned error, or
/// parses, prints, and parses back to the identical AST, and printing is idempotent.
///
/// Panics (so libFuzzer records the input) when the round trip breaks.
pub fn parse_roundtrip(data: &[u8]) {
    let Ok(script) = parse_bytes(data) else { return };
    let printed = print(&script);
    let again = match crate::smtlib::parse(&printed) {
        Ok(s) => s,
        Err(e) => panic!("printed script does not parse: {e}\n{printed}"),
    };
    assert!(again == script, "round trip changed the AST:\n{printed}");
    assert_eq!(print(&again), printed, "printing is not idempotent");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the parse harness on every corpus seed and on byte-level mutations of them
    /// (truncations, flips, splices), a few hundred inputs, deterministic.
    #[test]
    fn parse_target_as_unit_test() {
        let mut inputs: Vec<Vec<u8>> = vec![];
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        let mut seeds: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        seeds.sort();
        for p in &seeds {
            inputs.push(std::fs::read(p).unwrap());
        }
        assert!(inputs.len() >= 60, "corpus/ should hold at least 60 seeds");
        let mut x: u64 = 0x9E3779B97F4A7C15;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let n = inputs.len();
        for i in 0..400 {
            let base = &inputs[i % n];
            let mut m = base.clone();
            match i % 4 {
                0 => m.truncate(rnd() as usize % (base.len() + 1)),
                1 => {
                    for _ in 0..3 {
                        if !m.is_empty() {
                            let k = rnd() as usize % m.len();
                            m[k] = b"()|\";:#x0 a_!"[rnd() as usize % 13];
                        }
                    }
                }
                2 => {
                    let other = &inputs[rnd() as usize % n];
                    let k = rnd() as usize % (m.len() + 1);
                    m.truncate(k);
                    m.extend_from_slice(&other[rnd() as usize % (other.len() + 1)..]);
                }
                _ => m.push(rnd() as u8),
            }
            parse_roundtrip(&m);
        }
        for s in &inputs {
            parse_roundtrip(s);
        }
    }

    /// Every input that once crashed `parse_target` (kept in fuzz/regressions/) stays fixed.
    #[test]
    fn parse_target_regressions() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions/parse_target");
        let mut n = 0;
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            parse_roundtrip(&std::fs::read(&p).unwrap());
            n += 1;
        }
        assert!(n > 0, "no regression inputs in {}", dir.display());
    }
}
