//! A finding's `meta.json`, typed. The JSON keeps the shape stores have always had (the
//! serde attributes below say how), so every store written before still reads: an
//! origin is the string `engine`, outcomes the strings `Outcome` displays as, edits the
//! list the mutators serialise.

use super::perf::Strategy;
use super::reduction;
use crate::mutate::{edit::Edit, Engine};
use crate::oracle::{BlameBy, BugKind};
use crate::solver::Outcome;
use serde::{Deserialize, Serialize};

/// The content hash of a seed as `meta.json` records it (`seed_hash`): FNV-1a, 16 hex
/// digits, as campaigns have always written it. BanditFuzz wrote the SHA-256 of its
/// generated seed (64 hex digits) before it used this one; such stores read as they are,
/// since no finding's id or dedup key depends on the seed's hash.
pub fn seed_hash(text: &str) -> String {
    crate::util::hash::short_hash(text)
}

/// Where a finding came from: what made its trigger. Stored as the string `engine`
/// (`opfuzz`, `seed`, `triage`, `bandit-single`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A campaign's mutant of this engine.
    Engine(Engine),
    /// A campaign's unmutated seed (a seed finding).
    Seed,
    /// A fuzzer artifact replayed by `smtstorm triage`.
    Triage,
    /// A BanditFuzz input, made under this strategy.
    Bandit(Strategy),
    /// A name this build does not know (a store of another version, a hand edit), kept
    /// as written so that the finding reads and is written back unchanged.
    Other(String),
}

impl Origin {
    /// The name stored in `meta.json` and shown in reports.
    pub fn name(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Origin::Engine(e) => e.name().into(),
            Origin::Seed => "seed".into(),
            Origin::Triage => "triage".into(),
            Origin::Bandit(s) => format!("bandit-{}", s.name()).into(),
            Origin::Other(s) => s.as_str().into(),
        }
    }
    /// The origin a stored name stands for (every name reads: see [`Origin::Other`]).
    pub fn from_name(s: &str) -> Origin {
        match s {
            "seed" => Origin::Seed,
            "triage" => Origin::Triage,
            _ => match (
                Engine::from_name(s),
                s.strip_prefix("bandit-").and_then(|r| {
                    <Strategy as clap::ValueEnum>::value_variants().iter().copied().find(|x| x.name() == r)
                }),
            ) {
                (Some(e), _) => Origin::Engine(e),
                // Only the names `Strategy::name` writes: an alias would not read back
                // to the same text.
                (None, Some(st)) if st.name() == &s["bandit-".len()..] => Origin::Bandit(st),
                _ => Origin::Other(s.to_string()),
            },
        }
    }
}

impl PartialEq<Engine> for Origin {
    fn eq(&self, e: &Engine) -> bool {
        *self == Origin::Engine(*e)
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

impl Serialize for Origin {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

impl<'de> Deserialize<'de> for Origin {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Origin, D::Error> {
        Ok(Origin::from_name(&String::deserialize(d)?))
    }
}

/// One solver's answer to a trigger, as stored.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SolverAnswer {
    pub solver: String,
    pub version: Option<String>,
    /// One outcome per check-sat, then the crash if the process died after answering;
    /// stored as `Outcome` displays them (`sat`, `unknown(reason)`, `crash(SIGSEGV)`,
    /// ...). What is stored of a crash is its message: the signal number and exit status
    /// read back as `None`.
    #[serde(with = "outcome_text")]
    pub outcomes: Vec<Outcome>,
    pub stdout_excerpt: String,
    pub stderr_excerpt: String,
    pub seconds: f64,
}

impl SolverAnswer {
    /// What `spec` answered in `r`, as stored.
    pub fn of(spec: &crate::solver::SolverSpec, r: &crate::solver::QueryResult) -> SolverAnswer {
        SolverAnswer {
            solver: spec.name.clone(),
            version: spec.version.clone(),
            outcomes: r.outcomes.iter().chain(&r.crash).cloned().collect(),
            stdout_excerpt: r.stdout_excerpt.clone(),
            stderr_excerpt: r.stderr_excerpt.clone(),
            seconds: r.wall.as_secs_f64(),
        }
    }

    /// The outcomes as stored, comma-separated (for reports).
    pub fn outcomes_text(&self) -> String {
        self.outcomes.iter().map(|o| o.to_string()).collect::<Vec<_>>().join(", ")
    }
}

/// Why a finding's trigger was not bisected over the releases of the blamed solver's
/// family when it was stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NotBisected {
    /// The campaign ran with `--no-bisect`.
    Disabled,
    /// A probe would have run past the run's `--time` (less the reductions' reserve):
    /// the search stopped before it named a release.
    TimeUp,
}

impl NotBisected {
    /// Why, in words, for the report.
    pub fn words(self) -> &'static str {
        match self {
            NotBisected::Disabled => "the campaign ran with `--no-bisect`",
            NotBisected::TimeUp => "the run's `--time` was up before the search ended",
        }
    }
}

/// `meta.json` of a finding.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Meta {
    pub id: String,
    pub kind: BugKind,
    pub blamed: String,
    pub blamed_version: Option<String>,
    /// How the blame was decided.
    pub blame_by: BlameBy,
    pub logic: String,
    /// The normalised crash message, or the answers pattern for soundness bugs.
    pub signature: String,
    /// First release of the blamed solver's ladder that answers correctly, if found.
    pub fixed_in: Option<String>,
    /// Releases checked during bisection, with what they answered.
    pub bisection: Vec<(String, String)>,
    /// Why the trigger was not bisected (or not to the end) when it was stored: then
    /// `fixed_in` says nothing (absent otherwise: older stores read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_bisected: Option<NotBisected>,
    pub answers: Vec<SolverAnswer>,
    pub seed: String,
    /// [`seed_hash`] of the seed's text.
    pub seed_hash: String,
    /// What made the trigger.
    #[serde(rename = "engine")]
    pub origin: Origin,
    /// The edits that made the trigger from the seed (none for a seed finding or a
    /// generated input).
    #[serde(with = "edits_compat")]
    pub edits: Vec<Edit>,
    /// For a seed every solver timed out on: the seed's commands (indices as the campaign
    /// loads it) in the slice the edits apply to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_slice: Option<Vec<usize>>,
    pub rng_seed: u64,
    /// Seconds since the campaign's first start when first found.
    pub found_at: f64,
    pub found_unix: u64,
    pub run: u32,
    pub trigger_bytes: usize,
    /// How many more times the same bug was found.
    pub duplicates: u64,
    /// Whether this is a seed finding (the unmutated seed already fails).
    pub seed_finding: bool,
    /// What `smtstorm reduce` made of the trigger (`reduced.smt2` beside it), if run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduction: Option<reduction::Report>,
    /// For a crash on a signal: the crash state, the top frames in the solver's own code
    /// as gdb shows them (`solver::backtrace`); the crash's identity when present.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frames: Vec<String>,
    /// Findings of other stores counted into this one by `smtstorm merge`, as
    /// `CAMPAIGN/ID` (the source campaign's identity, see [`super::Store::merge_from`]): a
    /// merge run again, or finished after an interruption, counts none of them twice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<String>,
    /// Dedup keys of findings merged into this one because their reductions came out
    /// identical ([`super::Store::merge_same_reductions`]); they stay in the index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_keys: Vec<String>,
    /// The finding's cause (issue 39): its identity after reduction, its regression
    /// range on the reduced trigger, whether it is a dialect difference, and the findings
    /// merged into it ([`super::identity`]). Empty, and absent from the file, until the
    /// finding is regrouped: older stores read.
    #[serde(default, skip_serializing_if = "super::identity::Cause::is_empty")]
    pub cause: super::identity::Cause,
    /// Where `--known` lists this finding's cause (`FILE:LINE`, or an earlier store's
    /// finding): already filed, so reported apart and not counted as new. Under
    /// `--baseline`, also why a finding is not the build's regression
    /// ([`super::known::baseline_mark`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known: Option<String>,
    /// For a finding on a seed the campaign grew ([`super::corpus`]): the seed it was
    /// grown from and the original seed of the suite, so that the finding names the
    /// user's file as well as `OUT/corpus/<hash>.smt2` (absent otherwise: older stores
    /// read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lineage: Option<super::corpus::Lineage>,
}

impl Meta {
    /// A new finding's `meta.json` for `verdict` among `solvers` (the indices it names):
    /// whom it blames and how, the `answers` kept, the trigger's logic (`none` without
    /// one) and size, found now. Where it came from (seed, origin, edits, time into the
    /// run) and what later steps add (bisection, reduction, cause) are the caller's to
    /// set: the campaign, the fuzz harness and BanditFuzz fill in their own.
    pub fn found(
        verdict: &crate::oracle::Verdict,
        solvers: &[crate::solver::SolverSpec],
        answers: Vec<SolverAnswer>,
        logic: Option<&str>,
        trigger_bytes: usize,
    ) -> Meta {
        let blamed = verdict.blamed.and_then(|b| solvers.get(b));
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        Meta {
            id: String::new(),
            kind: verdict.kind,
            blamed: blamed.map_or("undecided".into(), |s| s.name.clone()),
            blamed_version: blamed.and_then(|s| s.version.clone()),
            blame_by: verdict.blame_by,
            logic: logic.unwrap_or("none").to_string(),
            signature: verdict.signature.clone(),
            fixed_in: None,
            bisection: vec![],
            not_bisected: None,
            answers,
            seed: String::new(),
            seed_hash: String::new(),
            origin: Origin::Seed,
            edits: vec![],
            seed_slice: None,
            rng_seed: 0,
            found_at: 0.0,
            found_unix: now,
            run: 1,
            trigger_bytes,
            duplicates: 0,
            seed_finding: false,
            reduction: None,
            merged_keys: vec![],
            merged_from: vec![],
            cause: Default::default(),
            known: None,
            lineage: None,
            frames: vec![],
        }
    }

    /// The z3 tactic a STORM trigger's checks go through, if its edits chose one.
    pub fn storm_tactic(&self) -> Option<&str> {
        self.edits.iter().find_map(|e| match e {
            Edit::Recombine { tactic, .. } => tactic.as_deref(),
            _ => None,
        })
    }
}

/// An outcome from the text [`Outcome`]'s `Display` writes: the inverse of it, but for
/// what a crash's text does not hold (signal number, exit status). Total: a text no
/// outcome displays as (a hand edit) reads as an error carrying that text.
pub fn outcome_from_text(s: &str) -> Outcome {
    let inner = |name: &str| s.strip_prefix(name).and_then(|r| r.strip_prefix('(')).and_then(|r| r.strip_suffix(')'));
    let msg = |m: &str| m.to_string();
    match s {
        "sat" => return Outcome::Sat,
        "unsat" => return Outcome::Unsat,
        "unknown" => return Outcome::Unknown { reason: String::new() },
        "timeout" => return Outcome::Timeout,
        _ => {}
    }
    if let Some(m) = inner("unknown") {
        Outcome::Unknown { reason: msg(m) }
    } else if let Some(m) = inner("crash") {
        Outcome::Crash { signal: None, exit_code: None, message: msg(m) }
    } else if let Some(m) = inner("error") {
        Outcome::Error { message: msg(m) }
    } else if let Some(m) = inner("resource") {
        Outcome::Resource { message: msg(m) }
    } else if let Some(m) = inner("invalid-model") {
        Outcome::InvalidModel { message: msg(m) }
    } else if let Some(m) = inner("check-failed") {
        Outcome::CheckFailed { message: msg(m) }
    } else {
        Outcome::Error { message: msg(s) }
    }
}

/// `Vec<Outcome>` as the list of strings stores have always held.
mod outcome_text {
    use super::*;

    pub fn serialize<S: serde::Serializer>(v: &[Outcome], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|o| o.to_string()))
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Outcome>, D::Error> {
        Ok(Vec::<String>::deserialize(d)?.iter().map(|s| outcome_from_text(s)).collect())
    }
}

/// `Vec<Edit>` from what stores hold: a list of edits, or `null` where older stores
/// recorded none (seed findings, BanditFuzz findings). An element this build cannot read
/// (a store of a newer version, a hand edit) is left out rather than making the whole
/// finding unreadable: edits only say how the trigger was made, and the trigger itself is
/// stored beside them.
mod edits_compat {
    use super::*;

    pub fn serialize<S: serde::Serializer>(v: &[Edit], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v)
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Edit>, D::Error> {
        let v = Option::<Vec<serde_json::Value>>::deserialize(d)?.unwrap_or_default();
        Ok(v.into_iter().filter_map(edit_from_value).collect())
    }

    /// One stored edit: the current spelling (`{"edit": "recombine", ...}`), or the older
    /// spelling of a STORM instance (`{"StormInstance": {"asserts": [...]}}`), as in
    /// `tests/fixtures/store-0957fee`.
    fn edit_from_value(v: serde_json::Value) -> Option<Edit> {
        if let Some(asserts) = v.get("StormInstance").and_then(|s| s.get("asserts")) {
            let assertions = serde_json::from_value(asserts.clone()).ok()?;
            return Some(Edit::Recombine { assertions, blocks: vec![], tactic: None });
        }
        serde_json::from_value(v).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every outcome reads back from the text it is stored as, but a crash's signal and
    /// exit status, which the text does not hold.
    #[test]
    fn outcomes_read_back_from_their_stored_text() {
        let all = [
            Outcome::Sat,
            Outcome::Unsat,
            Outcome::Unknown { reason: String::new() },
            Outcome::Unknown { reason: "(incomplete quantifiers)".into() },
            Outcome::Timeout,
            Outcome::Crash { signal: None, exit_code: None, message: "ASSERTION VIOLATION (a) f.cpp:3".into() },
            Outcome::Error { message: "line 1: unknown constant".into() },
            Outcome::Resource { message: "out of memory".into() },
            Outcome::InvalidModel { message: "an invalid model was generated".into() },
            Outcome::CheckFailed { message: "check-proofs: ProofChecker::check: failed".into() },
        ];
        for o in &all {
            assert_eq!(&outcome_from_text(&o.to_string()), o);
        }
        let crash = Outcome::Crash { signal: Some(11), exit_code: None, message: "SIGSEGV".into() };
        assert!(
            matches!(outcome_from_text(&crash.to_string()), Outcome::Crash { signal: None, message, .. } if message == "SIGSEGV")
        );
        assert_eq!(outcome_from_text("maybe"), Outcome::Error { message: "maybe".into() });
    }

    #[test]
    fn every_origin_reads_back_from_its_name() {
        let mut n = 0;
        let all = Engine::ALL.iter().map(|e| Origin::Engine(*e)).chain([
            Origin::Seed,
            Origin::Triage,
            Origin::Bandit(Strategy::Bandit),
            Origin::Bandit(Strategy::Single),
            Origin::Bandit(Strategy::Random),
            Origin::Other("[a](".into()),
        ]);
        for o in all {
            let json = serde_json::to_string(&o).unwrap();
            assert_eq!(serde_json::from_str::<Origin>(&json).unwrap(), o, "{json}");
            n += 1;
        }
        assert_eq!(n, Engine::ALL.len() + 6);
        // An alias the strategy parser accepts is not a name any store was written with.
        assert_eq!(Origin::from_name("bandit-banditfuzz"), Origin::Other("bandit-banditfuzz".into()));
        assert_eq!(Origin::from_name("storm"), Engine::Storm);
    }
}
