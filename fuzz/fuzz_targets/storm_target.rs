//! storm_target: each input is a seed; the mutator turns it into a STORM instance (built
//! from the reference solver's model, carrying its witness line) half the time, and
//! otherwise applies the campaign's other engines to it or to an instance (configuration
//! edits keep the instance's witness), chosen by libFuzzer's seed; the crossover fuses two
//! inputs half the time. Any `unsat` for an instance is a bug, aborted on only after
//! fresh-process confirmation and the witness checked by the reference; a seed that
//! already fails is stored once and fuzzed on (`smtstorm::harness::kept`). Solvers: `SMTSTORM_SOLVERS` (see `smtstorm::harness::runner`).
#![no_main]
use libfuzzer_sys::{fuzz_crossover, fuzz_mutator, fuzz_target, Corpus};
use smtstorm::harness::{libfuzzer_mutate, libfuzzer_storm_crossover, runner};
use smtstorm::mutate::Engine;

smtstorm::asan_default_options!();

// Inputs that never reach a solver are not kept (see `Found::Rejected`).
fuzz_target!(init: smtstorm::harness::libfuzzer_init("storm_target", true), |data: &[u8]| -> Corpus {
    if runner::storm_target(data).abort_or_keep() {
        Corpus::Keep
    } else {
        Corpus::Reject
    }
});

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    libfuzzer_mutate(Engine::Storm, data, size, max_size, seed, libfuzzer_sys::fuzzer_mutate)
});

fuzz_crossover!(|data1: &[u8], data2: &[u8], out: &mut [u8], seed: u32| {
    libfuzzer_storm_crossover(data1, data2, out, seed)
});
