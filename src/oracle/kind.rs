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
        /// A self-check the solver offers (cvc5's `check-unsat-cores`, `check-proofs`;
        /// z3's `smt.core.validate`; [`crate::solver::checks`]) failed on the answer it
        /// re-checked: a wrong core, proof or lemma, in the mode users run (the check
        /// options never change the answer). Neither a crash of the search nor a wrong
        /// answer.
        CheckFailed = "check-failed",
        /// An older release of the family decides the query and a newer one does not (or
        /// 10× slower): incompleteness, never a wrong answer ([`super::regress`]).
        Regression = "regression",
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
        /// The blamed solver's unsat core (or unsat assumptions) is satisfiable: it says so
        /// itself, or another family does and none says `unsat` ([`super::cores`]).
        UnsatCore = "unsat-core",
        /// The blamed solver's own self-check failed on its answer (the self-check
        /// oracle, [`crate::oracle::checks`]).
        SelfCheck = "self-check",
        /// An older release of the blamed one's family decides the query; the newest in
        /// the run does not ([`super::regress`]).
        Ladder = "ladder",
        /// The run's `--baseline` decides the query; the blamed build of its family does
        /// not (a regression), or decides it otherwise (a wrong answer, the baseline's
        /// answer expected; [`super::regress::wrong_answers`]).
        Baseline = "baseline",
        /// The blamed solver answered `sat` to the seed and `unsat` to a variant built
        /// to be equisatisfiable to it, or the reverse ([`super::metamorphic`]).
        Metamorphic = "metamorphic",
    }
}

named_enum! {
    /// Which oracle decided a finding: the report groups and the dedup key name it
    /// (issue 40), since a maintainer weighs a disagreement between solvers, a solver's
    /// own checker and a relation the solver broke by itself differently. Several
    /// [`BlameBy`] belong to one oracle (a differential verdict may be settled by
    /// majority, status or a model cross-check).
    pub enum Oracle {
        /// Solvers of different families disagree (yinyang's differential testing).
        Differential = "differential",
        /// One solver answers `sat` and `unsat` to one assertion stack asked twice.
        SelfConsistency = "self-consistency",
        /// A STORM instance's witness satisfies what the solver called `unsat`.
        Witness = "witness",
        /// A Semantic Fusion mutant's satisfiability is known by construction.
        Construction = "construction",
        /// The solver's own model validation rejected its model.
        ModelValidation = "model-validation",
        /// The process died.
        Crash = "crash",
        /// An unsat core (or the unsat assumptions) the solver returned is satisfiable
        /// (Murxla, CAV 2022).
        UnsatCore = "unsat-core",
        /// The solver's own self-check (cvc5 `check-unsat-cores`, `check-proofs`, z3
        /// `smt.core.validate`, ...) failed on its answer.
        SelfCheck = "self-check",
        /// An older release (or the `--baseline`) decides a query a newer one does not
        /// (Janus, ASE 2022): incompleteness, never a wrong answer.
        Regression = "regression",
        /// A solver answers an equisatisfiable variant of a query otherwise than the
        /// query itself: metamorphic relations with known satisfiability.
        Metamorphic = "metamorphic",
    }
}

impl BlameBy {
    /// The oracle this way of blaming belongs to.
    pub fn oracle(self) -> Oracle {
        match self {
            BlameBy::Majority | BlameBy::Status | BlameBy::ModelCheck | BlameBy::Undecided => Oracle::Differential,
            BlameBy::Witness => Oracle::Witness,
            BlameBy::Crash => Oracle::Crash,
            BlameBy::Validation => Oracle::ModelValidation,
            BlameBy::SelfContradiction => Oracle::SelfConsistency,
            BlameBy::Construction => Oracle::Construction,
            BlameBy::UnsatCore => Oracle::UnsatCore,
            BlameBy::SelfCheck => Oracle::SelfCheck,
            BlameBy::Ladder | BlameBy::Baseline => Oracle::Regression,
            BlameBy::Metamorphic => Oracle::Metamorphic,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `meta.json` keeps the names it had as strings: old stores must still read.
    #[test]
    fn serde_names_are_the_stored_strings() {
        let old = ["soundness", "crash", "invalid-model", "check-failed", "regression"];
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
            "unsat-core",
            "self-check",
            "ladder",
            "baseline",
            "metamorphic",
        ];
        assert_eq!(BlameBy::ALL.iter().map(|k| k.as_str()).collect::<Vec<_>>(), old);
        for &k in BugKind::ALL {
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(json, format!("\"{k}\""));
            assert_eq!(serde_json::from_str::<BugKind>(&json).unwrap(), k);
        }
        // Every way of blaming belongs to an oracle, and every oracle is reached.
        let oracles: std::collections::BTreeSet<Oracle> = BlameBy::ALL.iter().map(|b| b.oracle()).collect();
        assert_eq!(oracles.len(), Oracle::ALL.len());
        for &b in BlameBy::ALL {
            let json = serde_json::to_string(&b).unwrap();
            assert_eq!(json, format!("\"{b}\""));
            assert_eq!(serde_json::from_str::<BlameBy>(&json).unwrap(), b);
        }
    }
}
