//! smtstorm finds bugs in SMT solvers.
//!
//! Everything stands on [`smtlib`]: a lossless, depth-safe SMT-LIB 2.6 parser and printer
//! over an arena AST, and a sort checker driven by one table of theory signatures
//! ([`smtlib::theory`]) from which the fuzzing dictionary, operator classes and generator
//! grammar are derived.

pub mod bandit;
pub mod campaign;
pub mod generate;
pub mod harness;
pub mod mutate;
pub mod oracle;
pub mod reduce;
pub mod smtlib;
pub mod solver;
pub mod store;
pub mod util;

pub use util::error::{Error, Result};
