//! honggfuzz harness: the body of `opfuzz_target`.
fn main() {
    loop {
        honggfuzz::fuzz!(|data: &[u8]| { smtstorm::harness::runner::differential_target(data).abort_on_finding() });
    }
}
