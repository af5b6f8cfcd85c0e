//! How a solver can be asked, extracted from the installed solver itself (issue 23): for
//! z3, the tactics and their parameters that `(help-tactic)` lists, each with its type and
//! default. Never hand-kept: a release that drops or renames a parameter drops it from
//! its own table, so the configuration engine only writes what that release reads.
//!
//! The rules below only *classify* what the solver lists, by name and by its own
//! description: options that change only output or resources, or that run in parallel,
//! are never used; options and tactics that change what a formula means or drop part of
//! it (under-approximations, premise selection) are never used either, since an answer
//! under them may rightly differ from the others (a false report would cost users' trust
//! in every other finding). The parameters of [`crate::smtlib::framing::MEANING_PARAMS`]
//! are the same list the self-consistency oracle keeps apart.
//!
//! The module by idea: the tables' types and [`intersect`] here; which tactics, parameters
//! and options are never used (`exclude.rs`); reading what a solver prints about itself
//! (`help.rs`); asking the solver and keeping what it accepts ([`extract()`]); the table
//! cached beside each installed release ([`extract_cached`]).

mod cache;
mod exclude;
mod extract;
mod help;

pub use cache::{extract_cached, installed_owners};
pub use extract::extract;
pub use help::{command_line_args, parse_listed_options, parse_yices_help, parse_z3_help_tactic};

use crate::solver::{Family, OptionOwners};
use serde::{Deserialize, Serialize};

/// A parameter's type as the solver prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ParamKind {
    Bool,
    UInt,
    Double,
    /// One of the values the solver lists for it (cvc5's modes).
    Mode,
}

/// One tactic parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    pub name: String,
    pub kind: ParamKind,
    /// The default as printed (`true`, `2`, `0.5`), if the solver prints one.
    pub default: Option<String>,
    /// Values other than the default that the solver accepted when asked
    /// ([`extract`]); a parameter with none is never set.
    #[serde(default)]
    pub values: Vec<String>,
}

impl Param {
    /// Values to try: the flip of a Boolean; small, boundary and scaled numbers (values
    /// that change search without making the solver give up at once). [`extract`] keeps
    /// those the solver accepts.
    pub fn candidates(&self) -> Vec<String> {
        let mut v: Vec<String> = match self.kind {
            ParamKind::Bool => vec!["true".into(), "false".into()],
            ParamKind::UInt => {
                let d: u64 = self.default.as_deref().and_then(|d| d.parse().ok()).unwrap_or(1);
                [0, 1, 2, 3, 5, 10, 100, d.saturating_mul(2).min(1 << 20), d / 2].iter().map(u64::to_string).collect()
            }
            ParamKind::Double => ["0.0", "0.1", "0.5", "1.0", "2.0", "10.0"].iter().map(|s| s.to_string()).collect(),
            // A mode's values are the solver's own list ([`parse_listed_options`]).
            ParamKind::Mode => self.values.clone(),
        };
        v.retain(|x| Some(x.as_str()) != self.default.as_deref());
        v.sort();
        v.dedup();
        v
    }
}

/// What a tactic can be in a pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// It decides goals (`smt`, `qfnia`, `default`, `nlsat`, ...): a pipeline ends in one.
    Decides,
    /// It transforms goals into equisatisfiable ones (`simplify`, `solve-eqs`, ...).
    Transforms,
}

/// One tactic and the parameters the configuration engine may set on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tactic {
    pub name: String,
    pub role: Role,
    pub params: Vec<Param>,
}

/// A solver's configuration space: the usable tactics in the order the solver lists them
/// (z3), and the options a script may set with `(set-option :NAME VALUE)` (cvc5,
/// bitwuzla).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Options {
    pub tactics: Vec<Tactic>,
    /// Options set at a script's start, each with the values the solver accepted. They
    /// reach only the family they were read from ([`Options::add_owners`],
    /// [`Family::without_foreign_options`]): z3 drops an undotted key without `_`,
    /// yices every non-standard one, and cvc5 and bitwuzla each other's.
    #[serde(default)]
    pub set_options: Vec<Param>,
    /// Command-line options (yices: `--mcsat`, `--mcsat-nra-nlsat`,
    /// `--ematch-cnstr-mode=random`), each with the values the solver ran with. A
    /// session cannot change them per query, so a campaign asks a few configured
    /// variants of the solver besides the plain one.
    #[serde(default)]
    pub command_line: Vec<Param>,
}

impl Options {
    /// Records this table's `set-option` names as `family`'s in `owners`: only that family
    /// is then sent them ([`Family::rejects_option`]).
    pub fn add_owners(&self, family: Family, owners: &mut OptionOwners) {
        owners.add(family, self.set_options.iter().map(|p| p.name.as_str()));
    }
}

/// What every table allows: the tactics all of them list, with the parameters all of
/// them list for it (one mutant is sent to every release under test).
pub fn intersect(tables: &[Options]) -> Options {
    let Some((first, rest)) = tables.split_first() else { return Options::default() };
    let mut out = first.clone();
    out.set_options.retain_mut(|p| {
        for o in rest {
            match o.set_options.iter().find(|q| q.name == p.name && q.kind == p.kind) {
                Some(q) => p.values.retain(|v| q.values.contains(v)),
                None => return false,
            }
        }
        !p.values.is_empty()
    });
    out.tactics.retain_mut(|t| {
        rest.iter().all(|o| o.tactics.iter().any(|u| u.name == t.name && u.role == t.role)) && {
            t.params.retain(|p| {
                rest.iter().all(|o| {
                    o.tactics
                        .iter()
                        .any(|u| u.name == t.name && u.params.iter().any(|q| q.name == p.name && q.kind == p.kind))
                })
            });
            true
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_intersection_keeps_what_every_release_reads() {
        let a = parse_z3_help_tactic(help::tests::SAMPLE);
        let mut b = a.clone();
        b.tactics.retain(|t| t.name != "qfnia");
        b.tactics[1].params.retain(|p| p.name != "random_seed");
        let both = intersect(&[a.clone(), b]);
        let names: Vec<&str> = both.tactics.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["simplify", "smt"]);
        assert_eq!(both.tactics[1].params.len(), 1);
        assert_eq!(intersect(std::slice::from_ref(&a)), a);
        assert_eq!(intersect(&[]), Options::default());
    }
}
