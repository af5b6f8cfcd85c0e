//! AFL++ harness: the body of `valfuzz_target` (structure comes from the custom mutator).
fn main() {
    afl::fuzz!(|data: &[u8]| { smtstorm::harness::runner::differential_target(data).abort_on_finding() });
}
