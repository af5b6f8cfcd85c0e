//! What a finding is and how its blame was decided. Their serde names are the strings
//! `meta.json` has always held, so stores written before these were enums still read.

use serde::{Deserialize, Serialize};

/// The kind of a bug (the `bugs/<kind>/` directory of a store).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BugKind {
    /// Definite answers that contradict each other, a known status or a witness.
    Soundness,
    /// The process died on a signal, an assertion or a sanitizer report.
    Crash,
    /// The solver's own model validation rejected the model it produced.
    InvalidModel,
}

impl BugKind {
    pub const ALL: [BugKind; 3] = [BugKind::Soundness, BugKind::Crash, BugKind::InvalidModel];
    /// The name in `meta.json`, events and directory names.
    pub fn as_str(self) -> &'static str {
        match self {
            BugKind::Soundness => "soundness",
            BugKind::Crash => "crash",
            BugKind::InvalidModel => "invalid-model",
        }
    }
}

/// Compares with the stored name, as read from `meta.json` or an event.
impl PartialEq<&str> for BugKind {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Display for BugKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How the blame of a finding was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BlameBy {
    /// The blamed solver is the minority of definite answers.
    Majority,
    /// The blamed solver contradicts the seed's `:status`.
    Status,
    /// The blamed solver answered `unsat` to a STORM instance its witness satisfies.
    Witness,
    /// A tie settled by pinning one side's model into the other's query.
    ModelCheck,
    /// A tie neither side's model settles.
    Undecided,
    /// The blamed solver crashed.
    Crash,
    /// The blamed solver's own model validation failed.
    Validation,
}

impl BlameBy {
    /// The name in `meta.json` and events.
    pub fn as_str(self) -> &'static str {
        match self {
            BlameBy::Majority => "majority",
            BlameBy::Status => "status",
            BlameBy::Witness => "witness",
            BlameBy::ModelCheck => "model-check",
            BlameBy::Undecided => "undecided",
            BlameBy::Crash => "crash",
            BlameBy::Validation => "validation",
        }
    }
}

/// Compares with the stored name, as read from `meta.json` or an event.
impl PartialEq<&str> for BlameBy {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Display for BlameBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `meta.json` keeps the names it had as strings: old stores must still read.
    #[test]
    fn serde_names_are_the_stored_strings() {
        for k in BugKind::ALL {
            assert_eq!(serde_json::to_string(&k).unwrap(), format!("\"{}\"", k.as_str()));
        }
        let all = [
            BlameBy::Majority,
            BlameBy::Status,
            BlameBy::Witness,
            BlameBy::ModelCheck,
            BlameBy::Undecided,
            BlameBy::Crash,
            BlameBy::Validation,
        ];
        for b in all {
            let json = serde_json::to_string(&b).unwrap();
            assert_eq!(json, format!("\"{}\"", b.as_str()));
            assert_eq!(serde_json::from_str::<BlameBy>(&json).unwrap(), b);
        }
    }
}
