//! AFL++ harness: the body of `parse_target` (structure comes from the custom mutator).
fn main() {
    afl::fuzz!(|data: &[u8]| { smtstorm::harness::parse_roundtrip(data) });
}
