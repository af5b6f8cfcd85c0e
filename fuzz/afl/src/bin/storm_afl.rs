//! AFL++ harness: the body of `storm_target` (structure comes from the custom mutator).
fn main() {
    afl::fuzz!(|data: &[u8]| { smtstorm::harness::runner::storm_target(data).abort_on_finding() });
}
