//! valfuzz_target: structure-aware mutation by ValFuzz's Boolean Expression Coercion (a
//! reference solver picks constants that force chosen sub-terms; plain value mutation where
//! there is nothing to coerce; libFuzzer's bytes become a
//! typed AST edit), solvers in persistent sessions, abort only on a finding confirmed in
//! fresh processes. Solvers: `SMTSTORM_SOLVERS` (see `smtstorm::harness::runner`).
#![no_main]
use libfuzzer_sys::{fuzz_crossover, fuzz_mutator, fuzz_target, Corpus};
use smtstorm::harness::{libfuzzer_crossover, libfuzzer_mutate, runner};
use smtstorm::mutate::Engine;

smtstorm::asan_default_options!();

// Inputs that never reach a solver are not kept (see `Found::Rejected`).
fuzz_target!(init: smtstorm::harness::libfuzzer_init("valfuzz_target", true), |data: &[u8]| -> Corpus {
    if runner::differential_target(data).abort_or_keep() {
        Corpus::Keep
    } else {
        Corpus::Reject
    }
});

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    libfuzzer_mutate(Engine::Bec, data, size, max_size, seed, libfuzzer_sys::fuzzer_mutate)
});

fuzz_crossover!(|data1: &[u8], data2: &[u8], out: &mut [u8], seed: u32| {
    libfuzzer_crossover(data1, data2, out, seed)
});
