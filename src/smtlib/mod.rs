//! SMT-LIB front end: lexer, arena AST, parser, printer, theory signature tables and
//! sort checker.

pub mod ast;
pub mod lexer;
pub mod parser;
pub mod printer;

pub use ast::{checks, Script};
pub use parser::{parse, parse_bytes, parse_strict, SyntaxError};
pub use printer::print;
pub mod check;
pub mod dict;
pub mod framing;
pub mod logic;
pub mod slice;
pub mod sort;
pub mod stats;
pub mod strict;
pub mod theory;

/// A thread's kept buffers of one kind (the lexer's masks and the parser's stacks, the checker's
/// stacks): most seeds are small, and allocating these per script was a fixed cost.
pub(crate) type ThreadBuffers<T> = std::thread::LocalKey<std::cell::Cell<Option<Box<T>>>>;

/// Runs `f` with the buffers kept in `key` (fresh ones if there are none, or if a call
/// on this thread is already using them), and keeps them afterwards unless `too_big`:
/// buffers grown by a huge input are not held for the small ones that follow. `f` must
/// empty what it takes from them.
pub(crate) fn with_thread_buffers<T: Default, R>(
    key: &'static ThreadBuffers<T>,
    too_big: fn(&T) -> bool,
    f: impl FnOnce(&mut T) -> R,
) -> R {
    let mut b = key.with(|c| c.take()).unwrap_or_default();
    let r = f(&mut b);
    if !too_big(&b) {
        key.with(|c| c.set(Some(b)));
    }
    r
}

/// `parse_target`: any byte string either fails to parse with a positioned error, or
/// parses, prints, and parses back to the identical AST, and printing is idempotent.
///
/// Panics (so libFuzzer records the input) when the round trip breaks.
pub fn roundtrip(data: &[u8]) {
    let Ok(script) = parse_bytes(data) else { return };
    let printed = print(&script);
    let again = match parse(&printed) {
        Ok(s) => s,
        Err(e) => panic!("printed script does not parse: {e}\n{printed}"),
    };
    assert!(again == script, "round trip changed the AST:\n{printed}");
    assert_eq!(print(&again), printed, "printing is not idempotent");
}
