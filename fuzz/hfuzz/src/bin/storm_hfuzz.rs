//! honggfuzz harness: the body of `storm_target`.
fn main() {
    loop {
        honggfuzz::fuzz!(|data: &[u8]| { smtstorm::harness::runner::storm_target(data).abort_on_finding() });
    }
}
