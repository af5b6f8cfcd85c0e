//! Typed errors of the library. The binary wraps them in `anyhow` at its edge.

use std::path::{Path, PathBuf};

/// Errors the library reports. Every error about a file names the file, and syntax
/// errors also the line and column and what was expected.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}:{line}:{column}: {message}", path.display())]
    Syntax { path: PathBuf, line: u32, column: u32, message: String },
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{0}")]
    Usage(String),
}

impl Error {
    pub fn syntax(path: &Path, e: crate::smtlib::SyntaxError) -> Self {
        Error::Syntax { path: path.to_owned(), line: e.line, column: e.column, message: e.message }
    }
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io { path: path.to_owned(), source }
    }
}

pub type Result<T> = std::result::Result<T, Error>;
