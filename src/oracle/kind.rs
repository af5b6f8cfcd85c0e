//! What a finding is and how its blame was decided. Their serde names are the strings
//! `meta.json` has always held, so stores written before these were enums still read.

use serde::{Deserialize, Serialize};

/// An enum whose every variant has one stored name: serde, `as_str`, `Display` and the
/// comparison with a `&str` all read it from here, so they cannot drift apart.
macro_rules! named_enum {
    ($(#[$m:meta])* pub enum $T:ident { $($(#[$vm:meta])* $V:ident = $s:literal,)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum $T {
            $($(#[$vm])* #[serde(rename = $s)] $V,)*
        }

        impl $T {
            pub const ALL: &'static [$T] = &[$($T::$V),*];
            /// The name in `meta.json`, events and directory names.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($T::$V => $s,)*
                }
            }
        }

        /// Compares with the stored name, as read from `meta.json` or an event.
        impl PartialEq<&str> for $T {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        impl std::fmt::Display for $T {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

named_enum! {
    /// The kind of a bug (the `bugs/<kind>/` directory of a store).
    pub enum BugKind {
        /// Definite answers that contradict each other, a known status or a witness.
        Soundness = "soundness",
        /// The process died on a signal, an assertion or a sanitizer report.
        Crash = "crash",
        /// The solver's own model validation rejected the model it produced.
        InvalidModel = "invalid-model",
    }
}

named_enum! {
    /// How the blame of a finding was decided.
    pub enum BlameBy {
        /// The blamed solver is the minority of definite answers.
        Majority = "majority",
        /// The blamed solver contradicts the seed's `:status`.
        Status = "status",
        /// The blamed solver answered `unsat` to a STORM instance its witness satisfies.
        Witness = "witness",
        /// A tie settled by pinning one side's model into the other's query.
        ModelCheck = "model-check",
        /// A tie neither side's model settles.
        Undecided = "undecided",
        /// The blamed solver crashed.
        Crash = "crash",
        /// The blamed solver's own model validation failed.
        Validation = "validation",
        /// The blamed solver answered `sat` and `unsat` to one assertion stack, asked
        /// twice (another tactic, a repeated check-sat): no vote needed.
        SelfContradiction = "self-contradiction",
        /// The blamed solver contradicts the satisfiability a Semantic Fusion mutant has
        /// by construction (both seeds' agreed status).
        Construction = "construction",
        /// The blamed solver answered `sat` to the seed and `unsat` to a variant built
        /// to be equisatisfiable to it, or the reverse ([`super::metamorphic`]).
        Metamorphic = "metamorphic",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `meta.json` keeps the names it had as strings: old stores must still read.
    #[test]
    fn serde_names_are_the_stored_strings() {
        let old = ["soundness", "crash", "invalid-model"];
        assert_eq!(BugKind::ALL.iter().map(|k| k.as_str()).collect::<Vec<_>>(), old);
        let old = [
            "majority",
            "status",
            "witness",
            "model-check",
            "undecided",
            "crash",
            "validation",
            "self-contradiction",
            "construction",
            "metamorphic",
        ];
        assert_eq!(BlameBy::ALL.iter().map(|k| k.as_str()).collect::<Vec<_>>(), old);
        for &k in BugKind::ALL {
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(json, format!("\"{k}\""));
            assert_eq!(serde_json::from_str::<BugKind>(&json).unwrap(), k);
        }
        for &b in BlameBy::ALL {
            let json = serde_json::to_string(&b).unwrap();
            assert_eq!(json, format!("\"{b}\""));
            assert_eq!(serde_json::from_str::<BlameBy>(&json).unwrap(), b);
        }
    }
}
