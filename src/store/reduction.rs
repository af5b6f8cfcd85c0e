//! What a reduction did, as `meta.json` records it beside `reduced.smt2`.

use std::collections::BTreeMap;

/// What a reduction did.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Report {
    pub original_bytes: usize,
    pub reduced_bytes: usize,
    /// Candidates given to the judge.
    pub checks: u64,
    /// Candidates skipped because an identical text was already found uninteresting.
    pub cache_hits: u64,
    /// Candidates refused before any solver saw them (syntax, sorts, not smaller).
    pub refused: u64,
    /// Accepted reductions.
    pub successes: u64,
    /// Interesting to a worker, but not on confirmation.
    pub unconfirmed: u64,
    pub seconds: f64,
    /// Whether the time limit stopped the reduction before its fixpoint.
    pub timed_out: bool,
    /// Successes per pass.
    pub by_pass: BTreeMap<String, u64>,
    /// Candidates given to the judge per pass, and bytes each pass removed: what a pass
    /// buys per check (how the pass order was chosen, issue 26).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub checks_by_pass: BTreeMap<String, u64>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub bytes_by_pass: BTreeMap<String, u64>,
    /// Seconds the workers spent in checks, summed over workers: all of them, those that
    /// were not interesting, and how many checks reached the per-check limit (where a
    /// reduction's time goes, issue 26).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub check_seconds: f64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub boring_seconds: f64,
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub timeouts: u64,
    /// Checks stopped early because an earlier candidate of their wave had already won.
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub cancelled: u64,
    /// For a STORM finding: what bound minimisation found before the passes ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<BoundsReport>,
    /// Size of an earlier result in the output file that this run started from (it was
    /// smaller than the input and still showed the bug).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resumed_from: Option<usize>,
    /// The input did not parse even as S-expressions (this message, `line:column`), so it
    /// was reduced by removing lines, untyped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub untyped: Option<String>,
    /// The per-check limit, in seconds, when it was narrowed below the one derived from
    /// the finding: its first query ran to the time limit, and the smallest limit that
    /// still showed the bug on the trigger was measured (issue 39).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check_limit: Option<f64>,
    /// Why a reduction that ends above 1 KB stopped there: the time limit, which passes
    /// could not shrink it and what is left (issue 39).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub why_large: Vec<String>,
    /// For a reduction a solver read leniently (an `Int` where SMT-LIB wants a `Real`,
    /// `to_real` of a `Real`: [`crate::smtlib::strict`]): whether the bug still showed
    /// on its SMT-LIB typing, which then became the reduction, or needs the leniency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub typing: Option<Typing>,
    /// The commands of the reduction (indices among its commands) it keeps only because a
    /// release it must keep passing ([`crate::reduce::judge::FindingJudge::keep_passing`])
    /// shows the bug without them, while the blamed solver shows it with or without each.
    /// They make older releases refuse the input (an unused finite-field `define-sort`, an
    /// `assert` of a finite-field literal), so two reductions of one bug keep different
    /// ones; the identity's shape leaves them out ([`super::identity::key`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gates: Vec<usize>,
    /// Whether the bug needs the blamed solver to go on after its own error on the
    /// reduction; `None` where that was not checked (reductions before it was).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own_error: Option<OwnError>,
    /// A notation the bug needs ([`Notation`]): with the names its `let`s bind made fresh,
    /// the reduction is the same formula and the blamed solver no longer shows the bug,
    /// twice, while the reduction still does. `None` where none does or it was not
    /// checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notation: Option<Notation>,
}

/// A notation of SMT-LIB's a bug can live in: the solver reads the notation wrong, whatever
/// the formula around it ([`Report::notation`]). yices 2.6.5's
/// parallel `let` that leaks a shadowing binding was two reduced shapes of one cause in
/// both of one day's runs (`(let ((x false) (y x)) (= x y))` under push/pop, and the same
/// `let` around `distinct` asked twice): its maintainers' unit is the notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Notation {
    /// `let` (SMT-LIB 2.6 §3.6.1: parallel binding, lexical scope): the bug goes when the
    /// names it binds are made fresh.
    Let,
}

impl Notation {
    pub fn as_str(self) -> &'static str {
        match self {
            Notation::Let => "let",
        }
    }
}

/// Whether a reduced trigger's bug needs the solver's lenient typing ([`Report::typing`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Typing {
    /// The bug shows on the trigger written as SMT-LIB types it: the reduction is that.
    Strict,
    /// The bug shows only with the solver's implicit conversions: a bug of the solver's
    /// extension of SMT-LIB (its maintainers' unit of triage is that extension).
    Lenient,
    /// The trigger has conversions SMT-LIB does not have and no repair removed them:
    /// whether the bug needs them is not known, but its input is not SMT-LIB.
    Unrepaired,
}

/// What the blamed solver's own errors have to do with a reduction's bug
/// ([`Report::own_error`]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OwnError {
    /// It refuses nothing before its first answer, or the bug shows without what it
    /// refuses.
    Absent,
    /// It refuses this command first (its index among the reduction's commands, and its
    /// keyword), and without it the bug does not show: the bug needs the solver to go on
    /// after its own error, and its maintainers' first answer is that error
    /// ([`super::identity::key`]).
    Refused { command: usize, keyword: String },
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

fn is_zero_u64(x: &u64) -> bool {
    *x == 0
}

/// The outcome of STORM's bound minimisation (`reduce::bounds::minimise`).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BoundsReport {
    pub amax: usize,
    pub dmax: usize,
    pub nc: usize,
    /// Trigger size before, and of the regenerated instance.
    pub from_bytes: usize,
    pub to_bytes: usize,
    pub instances: u64,
}
