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
