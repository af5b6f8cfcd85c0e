//! honggfuzz harness: the body of `parse_target`.
fn main() {
    loop {
        honggfuzz::fuzz!(|data: &[u8]| { smtstorm::harness::parse_roundtrip(data) });
    }
}
