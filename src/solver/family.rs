//! Solver families: how each is talked to, which SMT-LIB dialect it reads, and which
//! `set-option`s it rejects (its fixed rules, and the option tables of a run:
//! [`OptionOwners`]).

use serde::{Deserialize, Serialize};

/// How to talk to a solver: session arguments, time-limit flags, restart policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    Z3,
    Cvc5,
    Yices,
    Bitwuzla,
    /// Unknown solver: one-shot mode only (file argument), no own time limit.
    Other,
}

impl Family {
    /// Guesses the family from an executable name.
    pub fn guess(exe: &str) -> Family {
        let b = exe.rsplit('/').next().unwrap_or(exe).to_ascii_lowercase();
        if b.starts_with("z3") {
            Family::Z3
        } else if b.starts_with("cvc5") || b.starts_with("cvc4") {
            Family::Cvc5
        } else if b.starts_with("yices") {
            Family::Yices
        } else if b.starts_with("bitwuzla") {
            Family::Bitwuzla
        } else {
            Family::Other
        }
    }

    /// Queries after which a session restarts its process. cvc5 slows ~2× over 500
    /// `(reset)`s (measured here), so it restarts every 50.
    pub fn default_restart_every(self) -> u32 {
        match self {
            Family::Cvc5 => 50,
            Family::Z3 | Family::Yices | Family::Bitwuzla => 1000,
            Family::Other => 1,
        }
    }
}

/// What a solver family reads and how to ask it for models, validation and statistics.
#[derive(Debug)]
pub struct Dialect {
    /// Commands it rejects (z3 extensions, mostly).
    pub rejected_commands: &'static [&'static str],
    /// Whether it reads z3's legacy `(declare-datatypes () ...)` form.
    pub legacy_datatypes: bool,
    /// Theories it has no support for, by logic fragment (`"DT"`, `"S"`, `"LIA"`...).
    pub unsupported_logic_parts: &'static [&'static str],
    /// Options that make it validate its own models.
    pub model_validation: &'static str,
    /// The command that prints statistics, if any.
    pub statistics: Option<&'static str>,
    /// Whether it supports push/pop sessions ([`crate::solver::Framing::PushPop`]).
    pub push_pop: bool,
    /// Whether it reads only standard logic names and needs one: a script without
    /// `set-logic`, or with a solver's own name (`QF_ALL`, `HO_ALL`), gets the logic
    /// inferred from its sorts ([`Family::logic_for`]). yices refuses scripts without a
    /// logic; bitwuzla and yices refuse cvc5's names.
    pub standard_logic_only: bool,
}

const Z3_EXTENSIONS: &[&str] = &[
    "check-sat-using",
    "define-const",
    "assert-soft",
    "minimize",
    "maximize",
    "simplify",
    "eval",
    "declare-rel",
    "declare-var",
    "rule",
    "query",
];

static DIALECTS: [(Family, Dialect); 5] = [
    (
        Family::Z3,
        Dialect {
            rejected_commands: &["get-abduct", "get-interpolant", "declare-heap", "get-qe", "block-model"],
            legacy_datatypes: true,
            unsupported_logic_parts: &[],
            model_validation: "(set-option :model_validate true)\n",
            statistics: Some("(get-info :all-statistics)"),
            push_pop: true,
            standard_logic_only: false,
        },
    ),
    (
        Family::Cvc5,
        Dialect {
            rejected_commands: Z3_EXTENSIONS,
            legacy_datatypes: false,
            unsupported_logic_parts: &[],
            model_validation: "(set-option :check-models true)\n",
            statistics: Some("(get-info :all-statistics)"),
            push_pop: true,
            standard_logic_only: false,
        },
    ),
    (
        Family::Yices,
        Dialect {
            rejected_commands: Z3_EXTENSIONS,
            legacy_datatypes: false,
            unsupported_logic_parts: &["DT", "S", "FP"],
            model_validation: "",
            // yices-smt2 has no statistics command (`show-stats` is its native language's).
            statistics: None,
            push_pop: true,
            standard_logic_only: true,
        },
    ),
    (
        Family::Bitwuzla,
        Dialect {
            rejected_commands: Z3_EXTENSIONS,
            legacy_datatypes: false,
            unsupported_logic_parts: &["DT", "S", "LIA", "LRA", "NIA", "NRA", "LIRA", "NIRA", "IDL", "RDL"],
            model_validation: "",
            statistics: None,
            push_pop: true,
            standard_logic_only: true,
        },
    ),
    (
        Family::Other,
        Dialect {
            rejected_commands: &[],
            legacy_datatypes: true,
            unsupported_logic_parts: &[],
            model_validation: "",
            statistics: None,
            push_pop: false,
            standard_logic_only: false,
        },
    ),
];

/// The options of SMT-LIB 2.6 §4.1.7, which every solver reads (the one list of them: the
/// allow-lists pass all but the two output channels, [`super::allow::allows`]).
pub const STANDARD_OPTIONS: &[&str] = &[
    ":diagnostic-output-channel",
    ":global-declarations",
    ":interactive-mode",
    ":print-success",
    ":produce-assertions",
    ":produce-assignments",
    ":produce-models",
    ":produce-proofs",
    ":produce-unsat-assumptions",
    ":produce-unsat-cores",
    ":random-seed",
    ":regular-output-channel",
    ":reproducible-resource-limit",
    ":verbosity",
];

impl Family {
    /// Whether a `set-option` with this key is another solver's option that this family
    /// would reject with an error (z3 errors on cvc5's `:incremental`, yices and
    /// bitwuzla on anything non-standard). z3's own options are dotted or use `_`. A key
    /// that an extracted option table lists (`owners`, [`OptionOwners`]) goes to its
    /// family only: cvc5 errors on bitwuzla's `:pp-flatten-and`, which bitwuzla reads.
    pub fn rejects_option(self, key: &str, owners: &OptionOwners) -> bool {
        if STANDARD_OPTIONS.contains(&key) {
            return false;
        }
        // A self-check's option goes to its family alone (bitwuzla reads `:check-model`,
        // which no option table the configuration engine uses lists).
        if let (Some(c), false) = (super::checks::check_of_option(key), self == Family::Other) {
            return c.family != self;
        }
        if let (Some(owner), false) = (owners.owner(key), self == Family::Other) {
            return owner != self;
        }
        match self {
            Family::Z3 => !(key.contains('.') || key.contains('_') || key == ":timeout"),
            Family::Yices | Family::Bitwuzla => true,
            Family::Cvc5 | Family::Other => false,
        }
    }

    /// The logic this family gets in place of `s`'s: `Some` for a family that reads only
    /// standard logic names ([`Dialect::standard_logic_only`]) when `s` has none or a
    /// solver's own (`QF_ALL`), inferred from the sorts `s` uses. More families then vote
    /// on seeds written for one solver.
    pub fn logic_for(self, s: &crate::smtlib::Script) -> Option<String> {
        if !self.dialect().standard_logic_only || s.logic().is_some_and(crate::smtlib::logic::is_standard) {
            return None;
        }
        let l = crate::smtlib::logic::infer(s, &crate::smtlib::check::check(s))?;
        (s.logic() != Some(l.as_str())).then_some(l)
    }

    /// Whether it reads z3's `(check-sat-using TACTIC)`; the others get a plain
    /// `check-sat` from [`Family::without_foreign_options`].
    pub fn reads_check_sat_using(self) -> bool {
        !self.dialect().rejected_commands.contains(&"check-sat-using")
    }

    /// This family's dialect.
    pub fn dialect(self) -> &'static Dialect {
        &DIALECTS.iter().find(|(f, _)| *f == self).expect("every family has a dialect").1
    }

    /// Why a solver of this family cannot read `script`, or `None` if it can: a seed in
    /// another solver's dialect is only sent to solvers that read it.
    pub fn cannot_read(self, s: &crate::smtlib::Script) -> Option<String> {
        use crate::smtlib::ast::{CommandKind, DatatypesForm};
        let d = self.dialect();
        for c in &s.commands {
            let name = match c.kind {
                CommandKind::Other { name, .. } | CommandKind::TermCmd { name, .. } => s.str(name),
                CommandKind::DefineConst(..) => "define-const",
                CommandKind::DeclareDatatypes { form: DatatypesForm::Legacy(_), .. } if !d.legacy_datatypes => {
                    return Some("z3's legacy declare-datatypes".into())
                }
                _ => continue,
            };
            if d.rejected_commands.contains(&name) {
                return Some(format!("command {name}"));
            }
        }
        let inferred = self.logic_for(s);
        let logic = inferred.as_deref().or(s.logic()).unwrap_or("ALL");
        let parts = logic.trim_start_matches("QF_");
        // Logic names concatenate fragments: QF_AUFLIA = A + UF + LIA, QF_SLIA = S + LIA.
        d.unsupported_logic_parts.iter().find(|p| parts.contains(*p)).map(|p| format!("logic {logic} ({p})"))
    }
}

/// What an option's value is, as a solver's own option table says ([`super::allow`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    Bool,
    Number,
    /// One of a set of words (cvc5's modes, z3's symbol-typed strategies).
    Word,
    /// Free text: a file name or anything else; never passed.
    Text,
}

/// A solver's allow-list of options ([`super::allow`]): read from the solver itself the
/// first time it is needed, once for the spec and every clone of it (a campaign's
/// ladder shares its releases' lists), so that every path that sends a seed's options
/// (a campaign, `report`'s re-runs, `reduce` of a stored finding, the harness) uses the
/// list of the very release it runs; `None` inside when the solver has no list or could
/// not be asked (the deny-list then holds). Never compared: it is derived from the
/// command.
#[derive(Clone, Default)]
pub struct AllowList(pub(super) std::sync::Arc<std::sync::OnceLock<Option<AllowTable>>>);

impl std::fmt::Debug for AllowList {
    /// Its size, not its hundreds of entries, in a spec's debug output.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.get() {
            None => f.write_str("AllowList(not read)"),
            Some(None) => f.write_str("AllowList(none)"),
            Some(Some(t)) => write!(f, "AllowList({} options)", t.len()),
        }
    }
}

/// An allow-list's table: a normalised key ([`super::allow`]) to its value's kind.
pub type AllowTable = std::collections::BTreeMap<String, ValueKind>;

impl AllowList {
    /// A list already known: `table`, or none.
    pub fn known(table: Option<AllowTable>) -> AllowList {
        AllowList(std::sync::Arc::new(std::sync::OnceLock::from(table)))
    }
}

impl PartialEq for AllowList {
    fn eq(&self, _: &AllowList) -> bool {
        true
    }
}

impl Eq for AllowList {}

/// Which family reads each option name (`:NAME`) that the option tables extracted for a
/// run list ([`super::options::extract`]): a `set-option` of such a name goes to that
/// family only ([`Family::rejects_option`]). `None` for a name two families list (cvc5
/// and bitwuzla both have `:sat-solver`, with other values), which no family is sent but
/// by its fixed rules. Built where the tables are read (a campaign's configuration space,
/// [`super::options::installed_owners`] for a stored finding) and handed to the solvers
/// of that run ([`super::SolverSpec::option_owners`]); empty where no table was read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptionOwners(std::sync::Arc<std::collections::BTreeMap<String, Option<Family>>>);

impl OptionOwners {
    /// Records `names` (without the colon) as read by `family`. A name already recorded
    /// for another family then belongs to none.
    pub fn add<'a>(&mut self, family: Family, names: impl IntoIterator<Item = &'a str>) {
        let map = std::sync::Arc::make_mut(&mut self.0);
        for name in names {
            let e = map.entry(format!(":{name}")).or_insert(Some(family));
            if *e != Some(family) {
                *e = None;
            }
        }
    }

    /// Both tables' names: a name the two give to different families belongs to none,
    /// as if every table behind both had been [`OptionOwners::add`]ed to one.
    pub fn merge(&mut self, other: &OptionOwners) {
        if other.0.is_empty() || self.0 == other.0 {
            return;
        }
        let map = std::sync::Arc::make_mut(&mut self.0);
        for (k, v) in other.0.iter() {
            let e = map.entry(k.clone()).or_insert(*v);
            if e != v {
                *e = None;
            }
        }
    }

    /// The family whose table lists the option `key` (`:NAME`), if exactly one does.
    pub fn owner(&self, key: &str) -> Option<Family> {
        self.0.get(key).copied().flatten()
    }

    /// Whether no table's names are known (every family keeps its fixed rules).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An option goes to the one family whose table lists it; a name two tables list
    /// goes by the families' fixed rules (cvc5 reads it, bitwuzla does not). The table is
    /// a value: another one, or none, leaves the fixed rules alone.
    #[test]
    fn options_go_to_the_family_whose_table_lists_them() {
        let (own, both) = (":smtstorm-unit-test-own", ":smtstorm-unit-test-both");
        let none = OptionOwners::default();
        for f in [Family::Z3, Family::Cvc5, Family::Yices, Family::Bitwuzla] {
            assert_eq!(f.rejects_option(own, &none), f != Family::Cvc5, "{f:?} without a table");
        }
        let mut owners = OptionOwners::default();
        owners.add(Family::Bitwuzla, [&own[1..], &both[1..]]);
        owners.add(Family::Cvc5, [&both[1..]]);
        assert_eq!(owners.owner(own), Some(Family::Bitwuzla));
        assert_eq!(owners.owner(both), None);
        for f in [Family::Z3, Family::Cvc5, Family::Yices, Family::Bitwuzla] {
            assert_eq!(f.rejects_option(own, &owners), f != Family::Bitwuzla, "{f:?}");
            assert_eq!(f.rejects_option(both, &owners), f != Family::Cvc5, "{f:?}");
            assert_eq!(f.rejects_option(own, &none), f != Family::Cvc5, "{f:?} still without a table");
        }
        assert!(!Family::Other.rejects_option(own, &owners));
        assert!(!Family::Yices.rejects_option(":produce-models", &owners));
        // Merging tables is adding theirs: in either order, a name two families list
        // belongs to none.
        let (mut a, mut b) = (OptionOwners::default(), OptionOwners::default());
        a.add(Family::Bitwuzla, [&own[1..], &both[1..]]);
        b.add(Family::Cvc5, [&both[1..], "smtstorm-unit-test-cvc5"]);
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab, ba);
        assert_eq!(ab.owner(own), Some(Family::Bitwuzla));
        assert_eq!(ab.owner(both), None);
        assert_eq!(ab.owner(":smtstorm-unit-test-cvc5"), Some(Family::Cvc5));
        assert!(none.is_empty() && !ab.is_empty());
    }
}
