//! SMT-LIB front end: lexer, arena AST, parser, printer, theory signature tables and
//! sort checker.

pub mod ast;
pub mod lexer;
pub mod parser;
pub mod printer;

pub use ast::Script;
pub use parser::{parse, parse_bytes, SyntaxError};
pub use printer::print;
pub mod check;
pub mod dict;
pub mod logic;
pub mod theory;

/// A thread's kept buffers of one kind (the parser's tape and stacks, the checker's
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
