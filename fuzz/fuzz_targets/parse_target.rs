//! Arbitrary bytes → parse → print → parse must give the same AST (and never panic).
#![no_main]
smtstorm::asan_default_options!();
libfuzzer_sys::fuzz_target!(init: smtstorm::harness::libfuzzer_init("parse_target", false), |data: &[u8]| {
    smtstorm::smtlib::roundtrip(data)
});
