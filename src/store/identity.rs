//! A finding's identity after reduction (issue 39): what makes two stored findings one
//! cause, and the regroup that merges them.
//!
//! The dedup key ([`super::dedup_key`]) is decided when a finding is confirmed, from the
//! trigger as found: the blamed *release*, the declared logic, the answer pattern and the
//! fixed-in release of the unreduced trigger. Held-out runs judged by hand had 16 keys
//! for 10 causes against z3 4.8.12 and 18 for 14 against today's releases: one `smtfd`
//! crash under a 4.8.12 key and a 5.4.0 key, one `fp.to_real` bug under four keys (two
//! inputs × two tactic pipelines), one yices bug under `yices`, `yices+mcsat` and
//! `yices+ematch-trial-vdepth=3`. Once a finding is reduced its identity ([`key`]) is
//! recomputed from what it is:
//!
//! * its kind and its solver's *family* (not the release, not a configured variant);
//! * for a crash, the crash state (gdb's top frames) or message — on the newest release
//!   the regression range found failing ([`Range::state`]), so that a crash reached from
//!   two releases, whose binaries inline differently (z3 4.8.12's `smtfd` crash tops out
//!   in `expr::get_sort`, 5.4.0's in `decl_plugin::mk_func_decl`), is compared on one;
//! * otherwise the reduced trigger's normalised shape ([`shape`]): symbols renamed in
//!   order of first appearance, literals abstracted to their sort, the logic, `set-info`,
//!   output commands and options that only ask for output dropped, and a
//!   `check-sat-using` pipeline cut to its decisive tactics ([`decisive_tactics`]);
//! * for a wrong answer that goes when the names its `let`s bind are made fresh (a bug
//!   of the solver's reading of `let`, [`super::reduction::Notation`]), that notation and
//!   the release that fixed it;
//! * but under a tactic or option the solver's maintainers disown
//!   ([`crate::solver::caveats`]), the disowned component and the release that fixed it,
//!   whatever the input or crash site: the maintainers triage those per component.
//!
//! Findings whose identities meet are merged ([`super::Store::regroup`]): the one with the
//! smallest reduction stays and is shown; the others move whole under its `instances/`,
//! each listed in its [`Cause::instances`].

pub use super::shape::{decisive_tactics, shape};
use super::{dedup_key, layout, FindingDir, Meta, Store};
use crate::oracle::BugKind;
use crate::solver::Family;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What `meta.json` says of a finding's cause: its identity after reduction, its
/// regression range over the family's installed releases, whether it is a dialect
/// difference, and the other findings merged into it. Every field is optional in the
/// file: stores written before issue 39 read with an empty one.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Cause {
    /// The identity ([`key`]), once the finding has been regrouped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The blamed solver's family (`z3`, `yices`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// The regression range of the reduced trigger.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Range>,
    /// The id of the known change of meaning ([`crate::oracle::semantics::CHANGES`]) that
    /// explains the finding: a dialect difference, not a bug.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialect: Option<String>,
    /// The findings merged into this one, smallest reduction first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instances: Vec<Instance>,
}

impl Cause {
    pub fn is_empty(&self) -> bool {
        *self == Cause::default()
    }
}

/// A finding merged into another as one more instance of its cause; its files are under
/// the survivor's `instances/<id>/`.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Instance {
    pub id: String,
    pub blamed: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blamed_version: Option<String>,
    pub logic: String,
    pub trigger_bytes: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduced_bytes: Option<usize>,
    /// How many times it had been found (1 + its duplicates).
    pub found: u64,
}

/// What one release did on the trigger a range was computed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProbeVerdict {
    /// Shows the bug.
    Fails,
    /// Answers without the bug (an `unknown` the release gave up with included: no wrong
    /// answer, no invalid model; an `unknown` at the time limit is inconclusive).
    Passes,
    /// Says nothing about it: refuses the input, runs out of time or memory, or fails
    /// another way.
    Inconclusive,
}

/// One release of the ladder, run on the reduced trigger.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Probe {
    pub release: String,
    pub verdict: ProbeVerdict,
    /// Its answers, as outcomes display.
    pub answers: String,
}

/// A regression range (ClusterFuzz's regressed and fixed ranges), from running every
/// installed release of the blamed family on the reduced trigger, oldest first.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Range {
    /// Which file it was computed on (`reduced.smt2`, or `trigger.smt2` if there is no
    /// reduction).
    pub on: String,
    pub probes: Vec<Probe>,
    /// The first failing release of the newest run of failing releases, when a release
    /// before that run passes ([`Range::settle`]); `None` when no release before it
    /// passes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub introduced_in: Option<String>,
    /// The first release that passes after the newest failing one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_in: Option<String>,
    /// The newest release probed, and whether it fails.
    pub newest: String,
    pub newest_fails: bool,
    /// For a crash: the crash state (gdb's frames, or the message where gdb gives none)
    /// on the newest failing release: the crash's identity across releases.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub state: Vec<String>,
}

impl Range {
    /// The failing releases, oldest first.
    pub fn failing(&self) -> Vec<&str> {
        self.probes.iter().filter(|p| p.verdict == ProbeVerdict::Fails).map(|p| p.release.as_str()).collect()
    }
    /// The passing releases, oldest first.
    pub fn passing(&self) -> Vec<&str> {
        self.probes.iter().filter(|p| p.verdict == ProbeVerdict::Passes).map(|p| p.release.as_str()).collect()
    }
    /// Fills in `introduced_in`, `fixed_in`, `newest` and `newest_fails` from the probes
    /// (oldest first). The range is the newest run of failing releases (inconclusive ones
    /// inside it do not break it), as ClusterFuzz's regression range is the latest
    /// good-to-bad step: that is where a maintainer bisects. A release that passed before
    /// an older one that failed (z3 4.8.5 `unknown`, 4.8.7–4.8.17 right, 4.12.6 on
    /// `unknown` again) makes the newer failing run the one introduced; the older failures
    /// are said beside it ([`Range::words`]).
    pub fn settle(&mut self) {
        let verdict = |i: usize| self.probes[i].verdict;
        self.introduced_in = None;
        self.fixed_in = None;
        if let Some(last) = (0..self.probes.len()).rev().find(|&i| verdict(i) == ProbeVerdict::Fails) {
            let pass_before = (0..last).rev().find(|&i| verdict(i) == ProbeVerdict::Passes);
            let first =
                (pass_before.map_or(0, |p| p + 1)..=last).find(|&i| verdict(i) == ProbeVerdict::Fails).unwrap_or(last);
            if pass_before.is_some() {
                self.introduced_in = Some(self.probes[first].release.clone());
            }
            let after = (last + 1..self.probes.len()).find(|&i| verdict(i) != ProbeVerdict::Inconclusive);
            if let Some(a) = after.filter(|&a| verdict(a) == ProbeVerdict::Passes) {
                self.fixed_in = Some(self.probes[a].release.clone());
            }
        }
        self.newest = self.probes.last().map(|p| p.release.clone()).unwrap_or_default();
        self.newest_fails = self.probes.last().is_some_and(|p| p.verdict == ProbeVerdict::Fails);
    }

    /// The range in words: `introduced in 4.8.9, fixed in 4.12.6`, `in every release
    /// from 4.8.7 (the oldest that reads it), still failing in 5.4.0`; failures older
    /// than the range are named after it.
    pub fn words(&self) -> String {
        let fails = self.failing();
        let (Some(first), Some(last)) = (fails.first(), fails.last()) else {
            return format!("no installed release shows it on `{}`", self.on);
        };
        let from = match &self.introduced_in {
            Some(i) => format!("introduced in {i}"),
            None => format!("failing from {first} (the oldest installed release that reads it)"),
        };
        let to = match (&self.fixed_in, self.newest_fails) {
            (_, true) => format!("still failing in the newest, {}", self.newest),
            (Some(f), _) => format!("fixed in {f}"),
            (None, false) => format!("last seen failing in {last}; no newer release answers it"),
        };
        let older: Vec<&str> = match &self.introduced_in {
            Some(i) => fails.iter().copied().take_while(|r| r != i).collect(),
            None => vec![],
        };
        if older.is_empty() {
            format!("{from}, {to}")
        } else {
            format!("{from}, {to} (older releases failed too: {}; a release between passed)", older.join(", "))
        }
    }
}

/// The family a blamed solver name stands for, and whether the name is a configured
/// variant (`SOLVER+FLAG+...`, [`crate::mutate::config::command_line_variants`]): the
/// campaign's definition of that name when there is one, else its base's, else the
/// family the name's stem says (`z3-4.8.12` is z3, `yices+mcsat` is yices).
pub fn blamed_family(name: &str, solvers: &[crate::solver::SolverSpec]) -> (Family, bool) {
    let by_name = |n: &str| solvers.iter().find(|s| s.name == n).map(|s| s.family);
    match by_name(name) {
        Some(f) => (f, false),
        None => match name.split_once('+') {
            Some((base, _)) => (by_name(base).unwrap_or_else(|| Family::guess(base)), true),
            None => (Family::guess(name), false),
        },
    }
}

/// The family a solver name stands for ([`blamed_family`]), as identity keys spell it.
pub fn family_of(name: &str, solvers: &[crate::solver::SolverSpec]) -> String {
    match blamed_family(name, solvers).0 {
        // An unknown command line is a family of its own, up to its configured variants.
        Family::Other => name.split('+').next().unwrap_or(name).to_string(),
        f => serde_json::to_value(f).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default(),
    }
}

/// A finding's identity after reduction (see the module's overview), or `None` before it
/// has a reduction (its dedup key stands for it then). `reduced` is its reduction's text.
pub fn key(m: &Meta, solvers: &[crate::solver::SolverSpec], reduced: &str) -> Option<String> {
    let gates = m.reduction.as_ref().map_or(&[][..], |r| &r.gates[..]);
    key_with(m, solvers, reduced, &|| shape(&without_gates(reduced, gates)))
}

/// `reduced` without the commands its reduction kept only so that older releases keep
/// refusing it ([`super::reduction::Report::gates`], by index): two reductions of z3
/// 5.4.0's `QF_FF` unsat-assumptions bug kept one each (an unused `define-sort` of a
/// finite field, an `assert` of a finite-field literal) and were two shapes of one cause.
/// A text that does not parse is returned as it is.
fn without_gates(reduced: &str, gates: &[usize]) -> String {
    if gates.is_empty() {
        return reduced.to_string();
    }
    let Ok(s) = crate::smtlib::parse(reduced) else { return reduced.to_string() };
    let keep: Vec<usize> = (0..s.commands.len()).filter(|i| !gates.contains(i)).collect();
    crate::smtlib::print(&crate::smtlib::slice::keep_commands(&s, &keep))
}

/// The identity of a finding that has no reduction (it failed, or its turn never came),
/// where that identity does not rest on a reduced shape: a crash by its crash state or
/// message, a finding under a disowned component by the component. `None` otherwise:
/// an unreduced trigger's shape is its own, and would merge nothing. (A stack overflow
/// whose reduction never came was stored twice under one crash state, issue 39.)
pub fn key_before_reduction(m: &Meta, solvers: &[crate::solver::SolverSpec], trigger: &str) -> Option<String> {
    key_with(m, solvers, trigger, &|| None)
}

/// [`key`], with `shape` giving the reduced shape where the identity needs one.
fn key_with(
    m: &Meta,
    solvers: &[crate::solver::SolverSpec],
    reduced: &str,
    shape: &dyn Fn() -> Option<String>,
) -> Option<String> {
    let family = &family_of(&m.blamed, solvers);
    let top = if m.seed_finding { "seed" } else { "fuzz" };
    if let Some(d) = &m.cause.dialect {
        // A dialect difference is one cause per change of meaning and reduced shape.
        return Some(format!("{top}|dialect|{d}|{}", crate::util::hash::short_hash(&shape()?)));
    }
    let oracle = match m.kind {
        BugKind::Crash => String::new(),
        _ => format!("{}|", m.blame_by.oracle()),
    };
    let (fam, _) = blamed_family(&m.blamed, solvers);
    let caveats = crate::solver::caveats::caveats_of(reduced, fam);
    let under = crate::solver::caveats::every_check_under(reduced, fam)
        || (m.blame_by == crate::oracle::BlameBy::SelfContradiction && !plain_side_wrong(m, solvers));
    if !caveats.is_empty() && m.kind != BugKind::Regression && under {
        // Under a tactic or option its maintainers disown, the maintainers' unit of
        // triage is the tactic, not the input: z3's close every `smtfd` report on a
        // formula it does not apply to with one answer (Z3Prover/z3#6002), and
        // `euf-completion` is "too preliminary to file regular bugs against"
        // (Z3Prover/z3#7806). So one cause per disowned configuration, kind and oracle —
        // and per fix: findings a later release fixes apart are told apart by that
        // release, as compiler fuzzing's ground truth tells bugs apart by their fixing
        // commit (Chen et al., "Taming Compiler Fuzzers", PLDI 2013, §5). Each input
        // stays an instance, the smallest shown.
        let mut names: Vec<&str> = caveats.iter().map(|c| c.component).collect();
        names.sort_unstable();
        names.dedup();
        return Some(format!("{top}|{}|{oracle}{family}|caveat|{}|{}", m.kind, names.join(","), fix_of(m)));
    }
    let own = m.reduction.as_ref().and_then(|r| r.own_error.as_ref());
    if let Some(super::reduction::OwnError::Refused { keyword, .. }) = own {
        // A crash, an invalid model or a failed self-check that needs the solver to go on
        // after its own error on the input is one cause per family, refused command and
        // fix, whatever its kind: z3 keeps a datatype declaration it has just refused
        // half-declared, and what follows crashes on it in one input ("mismatch between
        // number of declared and supplied sort parameters") and gets an invalid model in
        // another ("datatype is not co-variant"), one cause by hand (judge29a). Its
        // maintainers' first answer is the error. A wrong answer or a regression keeps
        // its own identity: merged under a crash it would hide behind a lesser kind.
        // After the disowned components: a refused declaration the rest of the input
        // uses is "needed" by any bug of that input (removing it leaves the rest
        // ill-sorted), and an `sls-smt` crash on such an input was the tactic's, not the
        // error's (judge31b: the same crash on a valid datatype).
        if matches!(m.kind, BugKind::Crash | BugKind::InvalidModel | BugKind::CheckFailed) {
            return Some(format!("{top}|after-own-error|{family}|{keyword}|{}", fix_of(m)));
        }
    }
    let notation = m.reduction.as_ref().and_then(|r| r.notation);
    if let (Some(n), false) = (notation, matches!(m.kind, BugKind::Crash | BugKind::Regression)) {
        // A wrong answer that goes when the names its `let`s bind are made fresh (the same
        // formula, term for term) is a bug of the solver's reading of `let`: one cause per
        // family, kind, notation and fix, whatever the formula around it. yices'
        // leaking `let` reduced to two shapes, under push/pop and asked twice, one cause
        // by hand in both of one day's runs (judge31a, judge31b). The reducer does
        // not ask a finding that needs lenient typing, so the two rules never meet.
        // Whichever oracle caught it: a STORM witness and a majority caught yices' one
        // leak apart in one store (judge29b).
        return Some(format!("{top}|{}|{family}|notation|{}|{}", m.kind, n.as_str(), fix_of(m)));
    }
    let bare_signal = super::is_bare_signal(&m.signature);
    let state = m.cause.range.as_ref().map(|r| r.state.clone()).filter(|s| !s.is_empty());
    let ident = match m.kind {
        BugKind::Crash => match state {
            Some(s) => format!("state|{}", s.join("|")),
            None if !m.frames.is_empty() => format!("state|{}", m.frames.join("|")),
            None if !bare_signal => format!("message|{}", m.signature),
            None => format!("shape|{}", crate::util::hash::short_hash(&shape()?)),
        },
        // A regression is one cause per release that introduced it, symptom (an `unknown`
        // is incompleteness; a timeout or a 10× slowdown, performance) and reduced shape.
        BugKind::Regression => {
            let introduced = m.cause.range.as_ref().and_then(|r| r.introduced_in.as_deref()).unwrap_or("-");
            let how = if m.signature.starts_with("unknown") { "unknown" } else { "slow" };
            format!("introduced|{introduced}|{how}|shape|{}", crate::util::hash::short_hash(&shape()?))
        }
        // A bug that shows only through the solver's implicit conversions (its reduction
        // written as SMT-LIB types it no longer shows it) is a bug of that extension: one
        // cause per family, kind and oracle, whatever the shape around the conversion —
        // as for a disowned component above. cvc5's core that leaves out an assertion it
        // retyped was six keys of six shapes in one 30-minute run (`(< 0.0 0)`,
        // `(> 0 0.0)`, `(+ 1 0.0)`, `(to_real 0.0)`, ...), one cause by hand.
        // Told apart by the release that fixed it, as above, and a failed self-check by
        // the check that failed.
        _ if lenient(m) => {
            let check = match m.kind {
                BugKind::CheckFailed => crate::solver::checks::check_of_failure(&m.signature).map_or("", |c| c.name()),
                _ => "",
            };
            format!("typing|lenient|{check}|{}", fix_of(m))
        }
        _ => format!("shape|{}", crate::util::hash::short_hash(&shape()?)),
    };
    Some(format!("{top}|{}|{oracle}{family}|{ident}", m.kind))
}

/// A key without the origin it starts with (`seed|` for a seed finding, `fuzz|` for a
/// mutant's): one cause found both ways — the unmutated seed already fails, and a mutant
/// of it was stored before the seed's own finding existed to mark it inherited — is one
/// cause (a judge counted z3's `cos` regression twice, from a seed and its mutant).
pub fn without_origin(key: &str) -> &str {
    key.strip_prefix("seed|").or_else(|| key.strip_prefix("fuzz|")).unwrap_or(key)
}

/// The release that fixed a finding, for the identities that do not rest on its shape
/// (`open` when none did). A newest release that says nothing (out of time, refusing the
/// input) fixed nothing: the cause is still open. Without a range, a trigger that was not
/// bisected says nothing of its fix: it meets no finding whose fix is known (two causes
/// kept apart are counted twice; two merged, one is lost).
fn fix_of(m: &Meta) -> String {
    if m.cause.range.is_none() && m.not_bisected.is_some() {
        return "unbisected".into();
    }
    match m.cause.range.as_ref() {
        Some(r) => r.fixed_in.as_deref().filter(|_| !r.newest_fails),
        None => m.fixed_in.as_deref(),
    }
    .map_or("open".to_string(), |f| format!("fixed|{f}"))
}

/// Whether the finding's reduction needs the solver's lenient typing
/// ([`super::reduction::Typing::Lenient`]).
pub fn lenient(m: &Meta) -> bool {
    m.reduction.as_ref().and_then(|r| r.typing) == Some(super::reduction::Typing::Lenient)
}

/// Whether, in a self-contradiction between a plain `check-sat` and a `check-sat-using`
/// (signature `sat to check-sat, unsat to check-sat-using …`), the plain check is the
/// wrong one: another family, whose solvers never run the pipeline, answered as the
/// pipeline did and none as the plain check did. Then the finding is a wrong answer to a
/// plain check, never folded into a disowned component; otherwise (the others side with
/// the plain check, or cannot say) the pipeline of the component its maintainers disown
/// is taken to be at fault, as they take it.
fn plain_side_wrong(m: &Meta, solvers: &[crate::solver::SolverSpec]) -> bool {
    let Some((plain, tactic)) = m.signature.split_once(", ") else { return false };
    let (Some(plain), Some((tactic, _))) =
        (plain.strip_suffix(" to check-sat"), tactic.split_once(" to check-sat-using"))
    else {
        return false;
    };
    let mine = blamed_family(&m.blamed, solvers).0;
    let said: Vec<&str> = m
        .answers
        .iter()
        .filter(|a| blamed_family(&a.solver, solvers).0 != mine)
        .flat_map(|a| a.outcomes.iter().filter(|o| o.is_definite()).map(|o| o.name()))
        .collect();
    said.contains(&tactic) && !said.contains(&plain)
}

/// The headline count of a store's findings (issue 39): causes, with the dedup keys and
/// the instances (every confirmed find, duplicates included) beside them; dialect
/// differences are not causes and are counted apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub causes: usize,
    pub dialect: usize,
    pub keys: usize,
    pub instances: u64,
}

impl Tally {
    /// The tally of these findings.
    pub fn of<'a>(metas: impl IntoIterator<Item = &'a Meta>) -> Tally {
        let mut t = Tally::default();
        for m in metas {
            if m.cause.dialect.is_some() {
                t.dialect += 1;
            } else {
                t.causes += 1;
            }
            t.keys += 1 + m.merged_keys.len();
            t.instances += 1 + m.duplicates;
        }
        t
    }

    /// `3 causes (5 keys, 9 instances; 1 dialect difference)`; `1 cause (1 key, 1 instance)`.
    pub fn words(&self) -> String {
        let dialect = match self.dialect {
            0 => String::new(),
            1 => "; 1 dialect difference, not a bug".into(),
            n => format!("; {n} dialect differences, not bugs"),
        };
        let n = |k: u64, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
        format!(
            "{} ({}, {}{dialect})",
            n(self.causes as u64, "cause", "causes"),
            n(self.keys as u64, "key", "keys"),
            n(self.instances, "instance", "instances")
        )
    }
}

/// What [`Store::regroup`] did: (kept, merged) directory pairs, the merged one now under
/// the kept one's `instances/`.
pub type Regrouped = Vec<(PathBuf, PathBuf)>;

/// The directory a merged finding moves to under its survivor.
pub fn instance_dir(survivor: &Path, id: &str) -> PathBuf {
    survivor.join(layout::INSTANCES).join(id)
}

impl Store {
    /// Recomputes the identity of every reduced finding ([`key`]; `solvers` name the
    /// families) and merges those whose identities meet: the one with the smallest
    /// reduction (then the earliest) stays, counting the others' finds as duplicates and
    /// listing each as an [`Instance`]; each other moves whole under its `instances/`,
    /// and its dedup keys keep pointing at the survivor. Idempotent, and safe to
    /// interrupt: the survivor's `meta.json` is written before anything moves, and a
    /// merge it already counted is not counted again.
    pub fn regroup(&mut self, solvers: &[crate::solver::SolverSpec]) -> Regrouped {
        // Per identity: directory, description, whether it is unreduced, and its size.
        let mut groups: BTreeMap<String, Vec<(PathBuf, Meta, bool, usize)>> = BTreeMap::new();
        for (path, mut meta) in Store::list_in(&self.out) {
            let Some(f) = FindingDir::of_meta(&path) else { continue };
            let (text, k, unreduced) = match f.read_reduced() {
                Ok(text) => {
                    let k = key(&meta, solvers, &text);
                    (text, k, false)
                }
                Err(_) => {
                    let Ok(text) = f.read_trigger() else { continue };
                    let k = key_before_reduction(&meta, solvers, &text);
                    (text, k, true)
                }
            };
            let family = family_of(&meta.blamed, solvers);
            let Some(k) = k else { continue };
            if meta.cause.key.as_ref() != Some(&k) || meta.cause.family.as_ref() != Some(&family) {
                meta.cause.key = Some(k.clone());
                meta.cause.family = Some(family);
                if f.write_meta(&meta).is_err() {
                    continue;
                }
            }
            let bytes = meta.reduction.as_ref().map_or(text.len(), |r| r.reduced_bytes);
            groups.entry(without_origin(&k).to_string()).or_default().push((
                f.path().to_path_buf(),
                meta,
                unreduced,
                bytes,
            ));
        }
        let mut merged = vec![];
        for (_, mut g) in groups {
            if g.len() < 2 {
                continue;
            }
            // A reduced finding is shown before any unreduced one, then a seed finding
            // (the cause is the seed's: the unmutated seed already fails), then the
            // smallest.
            g.sort_by(|a, b| {
                (a.2, !a.1.seed_finding, a.3)
                    .cmp(&(b.2, !b.1.seed_finding, b.3))
                    .then(a.1.found_at.total_cmp(&b.1.found_at))
                    .then(a.1.id.cmp(&b.1.id))
            });
            let mut it = g.into_iter();
            let Some((kdir, mut kmeta, _, _)) = it.next() else { continue };
            for (dir, meta, unreduced, bytes) in it {
                let dkey = dedup_key(&meta);
                if !kmeta.merged_keys.contains(&dkey) {
                    kmeta.duplicates += 1 + meta.duplicates;
                    kmeta.merged_keys.push(dkey.clone());
                    kmeta.merged_keys.extend(meta.merged_keys.iter().cloned());
                    // What `merge` copied in stays known as merged: the same merge run
                    // again must not count it a second time.
                    for f in &meta.merged_from {
                        if !kmeta.merged_from.contains(f) {
                            kmeta.merged_from.push(f.clone());
                        }
                    }
                    kmeta.cause.instances.push(Instance {
                        id: meta.id.clone(),
                        blamed: meta.blamed.clone(),
                        blamed_version: meta.blamed_version.clone(),
                        logic: meta.logic.clone(),
                        trigger_bytes: meta.trigger_bytes,
                        reduced_bytes: (!unreduced).then_some(bytes),
                        found: 1 + meta.duplicates,
                    });
                    kmeta.cause.instances.extend(meta.cause.instances.iter().cloned());
                    if kmeta.cause.range.is_none() {
                        kmeta.cause.range = meta.cause.range.clone();
                    }
                    kmeta.cause.instances.sort_by_key(|i| (i.reduced_bytes.is_none(), i.reduced_bytes, i.id.clone()));
                    if FindingDir::new(&kdir).write_meta(&kmeta).is_err() {
                        continue;
                    }
                }
                if move_under(&dir, &kdir, &meta.id).is_err() {
                    continue;
                }
                for k in std::iter::once(dkey).chain(meta.merged_keys) {
                    self.index.insert(k, kdir.clone());
                }
                merged.push((kdir.clone(), dir));
            }
        }
        merged
    }
}

/// Moves the finding `dir` under `survivor`'s `instances/<id>/` (its own instances
/// first, flattened), `meta.json` last so that a move cut short leaves either a finding
/// or none.
fn move_under(dir: &Path, survivor: &Path, id: &str) -> std::io::Result<()> {
    let inst = survivor.join(layout::INSTANCES);
    crate::util::fs::create_dirs(&inst)?;
    if let Ok(rd) = std::fs::read_dir(dir.join(layout::INSTANCES)) {
        for e in rd.flatten() {
            let to = inst.join(e.file_name());
            if !to.exists() {
                std::fs::rename(e.path(), to)?;
            }
        }
    }
    let to = instance_dir(survivor, id);
    if to.exists() {
        // Moved before, the finding written again since: the newer copy wins.
        std::fs::remove_dir_all(&to)?;
    }
    std::fs::rename(dir, &to)
}

#[cfg(test)]
#[path = "identity_tests.rs"]
mod tests;
