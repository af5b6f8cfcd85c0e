//! Arbitrary bytes → parse → print → parse must give the same AST (and never panic).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| smtstorm::smtlib::roundtrip(data));
