//! AFL++ harness: the body of `parse_target` (structure comes from the custom mutator).
fn main() {
    afl::fuzz!(|data: &[u8]| { smtstorm::smtlib::roundtrip(data) });
}
