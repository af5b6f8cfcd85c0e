//! honggfuzz harness: the body of `parse_target`.
fn main() {
    loop {
        honggfuzz::fuzz!(|data: &[u8]| { smtstorm::smtlib::roundtrip(data) });
    }
}
