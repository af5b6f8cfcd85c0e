//! Confirmation: a suspected bug found through persistent sessions becomes a verdict only
//! when it comes back in fresh processes. One place builds what a fresh process is sent,
//! reruns the solvers, settles ties and re-checks a STORM witness, under one rule, for
//! every caller: campaigns and triage (`campaign/confirm.rs`), the fuzz harness
//! (`harness/runner.rs`), the reducer's judge (`reduce/judge.rs`) and the repro files of a
//! finding's report. Three rules for one verdict meant a finding could be confirmed by a
//! campaign and refused by the reducer, or the reverse (issue 38).

use super::{BlameBy, BugKind, Verdict};
use crate::smtlib::{self, Script};
use crate::solver::{run_file, Family, Limits, Outcome, QueryResult, SolverSpec};
use std::path::{Path, PathBuf};

/// The text `spec` gets in a fresh process: its family's model validation first (the same
/// as in the sessions, so an invalid model is seen the same way) and the script in the
/// solver's own dialect (no option its family rejects, [`SolverSpec::own_script`]).
pub fn fresh_text(spec: &SolverSpec, s: &Script) -> String {
    format!("{}{}", spec.family.dialect().model_validation, smtlib::print(&spec.own_script(s)))
}

/// [`fresh_text`] of a text: one that does not parse is sent as it is, after the model
/// validation (a finding's report still shows how to reproduce it).
pub fn fresh_text_of(spec: &SolverSpec, text: &str) -> String {
    match smtlib::parse(text) {
        Ok(s) => fresh_text(spec, &s),
        Err(_) => format!("{}{text}", spec.family.dialect().model_validation),
    }
}

/// The crash in a result: the process's own end, or a crash reported at a check-sat.
pub fn crash_of(r: &QueryResult) -> Option<&Outcome> {
    r.crash.as_ref().or_else(|| r.outcomes.iter().find(|o| matches!(o, Outcome::Crash { .. })))
}

/// Whether `r` crashed with the normalised message `signature`.
pub fn crashes_with(r: &QueryResult, signature: &str) -> bool {
    matches!(crash_of(r), Some(Outcome::Crash { message, .. }) if message == signature)
}

/// What a candidate's answers are expected to be, besides the solvers' votes: by its
/// seed's status or by construction. (Not `store::known::Known`, the causes
/// already filed.)
#[derive(Clone, Copy, Debug, Default)]
pub struct Expected<'a> {
    /// Expected answers per check-sat (a seed's `:status`, a fusion's construction, a
    /// STORM instance's `sat`).
    pub truth: Option<&'a [Outcome]>,
    /// STORM's model: the instance is satisfiable by construction if it holds
    /// ([`witness_holds`]).
    pub witness: Option<&'a [(String, String)]>,
    /// A Semantic Fusion: `truth` is known by construction ([`super::judge_constructed`]).
    pub fusion: bool,
    /// A metamorphic finding ([`super::metamorphic`]): the trigger is the seed side, and
    /// these relations build the variant from it ([`crate::mutate::equisat::apply`]).
    pub metamorphic: Option<&'a [crate::mutate::equisat::Relation]>,
    /// The run's `--baseline` (solver index): a wrong answer blamed against it
    /// ([`BlameBy::Baseline`]) is judged again by [`super::regress::wrong_answers`].
    pub baseline: Option<usize>,
}

/// Where and how candidates are confirmed.
#[derive(Clone, Copy)]
pub struct Confirm<'a> {
    pub specs: &'a [SolverSpec],
    pub families: &'a [Family],
    pub limits: &'a Limits,
    /// Scratch directory for the fresh processes' files.
    pub dir: &'a Path,
    /// Prefix of the file names, distinct per caller that shares `dir` (campaign workers).
    pub tag: &'a str,
    /// No fresh run of a regression's newer release, whose limit is up to
    /// [`super::regress::NEWER_LIMIT_FACTOR`] times the run's, starts that could end
    /// after this (a campaign's `--time`: nothing is confirmed after it).
    pub until: Option<std::time::Instant>,
}

/// A candidate rerun in fresh processes, by solver index.
#[derive(Debug, Default)]
pub struct Fresh {
    pub checks: usize,
    /// The solvers asked, in order.
    pub readers: Vec<usize>,
    /// The file each reader was sent ([`fresh_text`]), kept for bisection and gdb.
    pub files: Vec<Option<PathBuf>>,
    pub results: Vec<Option<QueryResult>>,
}

impl Fresh {
    /// The results as the oracles take them.
    pub fn all(&self) -> Vec<Option<&QueryResult>> {
        self.results.iter().map(Option::as_ref).collect()
    }

    /// The file solver `k` was sent.
    pub fn file(&self, k: usize) -> Option<&Path> {
        self.files.get(k).and_then(|f| f.as_deref())
    }

    /// The crash state of a confirmed crash on a signal (`verdict`, over `specs`): gdb's
    /// frames of the blamed solver on the file it was sent (issue 24) — the frames, not
    /// the signal, tell two segfaults apart. Asked twice before it is given up on (a
    /// crash's key depends on it). Empty for any other verdict, or without gdb.
    pub fn crash_frames(&self, verdict: &Verdict, specs: &[SolverSpec], limits: &Limits) -> Vec<String> {
        match (verdict.kind, verdict.blamed.and_then(|b| self.file(b).map(|f| (b, f)))) {
            (BugKind::Crash, Some((b, f))) if verdict.signature.starts_with("SIG") => {
                (0..2).find_map(|_| crate::solver::backtrace::crash_state(&specs[b], f, limits)).unwrap_or_default()
            }
            _ => vec![],
        }
    }
}

/// A candidate that came back.
#[derive(Debug)]
pub struct Confirmed {
    /// The fresh run's verdict; `blamed: None` is a tie the model cross-check could not
    /// settle ([`BlameBy::Undecided`]).
    pub verdict: Verdict,
    pub fresh: Fresh,
}

/// Why a candidate is not confirmed.
#[derive(Debug)]
pub enum Refused {
    /// A file for the fresh processes could not be written.
    Unwritable,
    /// The fresh processes do not give the same verdict (kind and blamed solver).
    NotReproduced,
    /// The crash does not happen the same way with twice the memory
    /// ([`crash_survives_more_memory`]).
    NeedsMoreMemory(Verdict),
    /// The witness does not hold ([`witness_holds`]): the generator is wrong, not the
    /// solver.
    WitnessInvalid(WitnessCheck),
    /// A run the confirmation needs could not end before [`Confirm::until`].
    OutOfTime,
}

/// What the solvers said about a STORM witness ([`witness_holds`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WitnessCheck {
    /// Judges that found the pinned instance `sat` at every check.
    pub sat: usize,
    /// Whether a judge found it `unsat`.
    pub refuted: bool,
}

impl WitnessCheck {
    /// The one rule for a STORM witness (every caller goes through it).
    ///
    /// A witness is valid when at least one solver other than the blamed one finds the
    /// instance with the witness pinned `sat`, and none of them finds it `unsat`; a
    /// timeout, `unknown` or error abstains. Why this rule and not another:
    /// * "the reference solver says sat" (the harness's former rule) loses every bug
    ///   when the reference times out, checks nothing when the reference is the blamed
    ///   solver, and reports a false bug when the reference is wrong on the pinned
    ///   instance (a generator fault it shares);
    /// * "any solver not blamed says sat" (the reducer's former rule) lets one wrong `sat`
    ///   outvote a correct `unsat`: a false bug whenever the witness is in fact wrong and
    ///   one other solver errs;
    /// * requiring *every* other solver to say `sat` loses real bugs to a timeout.
    ///
    /// With abstentions neutral and a single `unsat` a veto, a wrong reference (or any
    /// one wrong judge) cannot make a false report on its own, and a timing-out
    /// reference cannot lose a bug while another solver answers. A real bug is lost only
    /// when a second solver is wrong on the fully pinned instance, which is then its own
    /// differential candidate.
    pub fn valid(&self) -> bool {
        self.sat > 0 && !self.refuted
    }
}

/// Re-checks `witness` on `instance`: the judges are `judges` (solver indices, the blamed
/// one left out by the caller), each sent the instance with the witness pinned
/// ([`crate::mutate::storm::pinned`]) as a fresh process ([`fresh_text`]). Judges that do
/// not read the pinned instance abstain.
pub fn witness_holds(
    specs: &[SolverSpec],
    judges: &[usize],
    instance: &Script,
    witness: &[(String, String)],
    dir: &Path,
    tag: &str,
    limits: &Limits,
) -> WitnessCheck {
    let mut w = WitnessCheck::default();
    let pinned = crate::mutate::storm::pinned(instance, witness);
    let Ok(p) = smtlib::parse(&pinned) else { return w };
    let checks = smtlib::checks(&p).max(1);
    let f = dir.join(format!("{tag}witness.smt2"));
    for &k in judges {
        let spec = &specs[k];
        if spec.cannot_read(&spec.own_script(&p)).is_some() || std::fs::write(&f, fresh_text(spec, &p)).is_err() {
            continue;
        }
        let r = run_file(spec, &f, checks, limits);
        if r.outcomes.contains(&Outcome::Unsat) {
            w.refuted = true;
        } else if !r.outcomes.is_empty() && r.outcomes.iter().all(|o| *o == Outcome::Sat) {
            w.sat += 1;
        }
    }
    let _ = std::fs::remove_file(&f);
    w
}

/// A crash is confirmed only if it happens again, with the same message, when the solver
/// gets twice the memory: a solver that dies because an allocation failed under the
/// address-space limit (z3 4.x segfaults when it cannot map its first pages) is a limit
/// hit, not a bug, and does not crash the same way with more room. Without a memory
/// limit there is nothing to double.
pub fn crash_survives_more_memory(spec: &SolverSpec, file: &Path, checks: usize, limits: &Limits, sig: &str) -> bool {
    let Some(bytes) = limits.memory else { return true };
    let more = Limits { memory: Some(bytes.saturating_mul(2)), ..*limits };
    crashes_with(&run_file(spec, file, checks, &more), sig)
}

/// A tie (`sat` against `unsat`, one vote each) settled by a model cross-check
/// ([`super::resolve_tie`]): the blamed solver and the signature, or `None` when the
/// cross-check cannot tell. The text both sides get is the trigger as the `sat` side reads
/// it, in the `unsat` side's dialect.
pub fn settle_tie(
    specs: &[SolverSpec],
    trigger: &Script,
    sat: usize,
    unsat: usize,
    dir: &Path,
    limits: &Limits,
) -> Option<(usize, &'static str)> {
    let both = specs[unsat].own_script(&specs[sat].own_script(trigger)).into_owned();
    match super::resolve_tie(&both, &specs[sat], &specs[unsat], dir, limits)? {
        true => Some((sat, "sat where unsat is expected")),
        false => Some((unsat, "unsat where sat is expected")),
    }
}

impl Confirm<'_> {
    /// A build `k`'s wrong answer against the baseline `b` ([`BlameBy::Baseline`]) settled
    /// as a tie is ([`settle_tie`]): the baseline is taken for right only where nothing
    /// contradicts it, and with only the build and the baseline running nothing can, so a
    /// build that fixes a bug of the baseline would be blamed for it. The `sat` side's
    /// model decides: if the build's `sat` holds, or the baseline's `sat` does not, the
    /// build is right and the verdict is the baseline's (a model check's; regression mode
    /// then stores it apart, not a build's bug). A cross-check that cannot tell (several
    /// check-sats, no model) leaves the baseline's answer expected.
    fn settle_against_baseline(&self, trigger: &Script, b: usize, k: usize, verdict: &mut Verdict) {
        let (sat, unsat) = match verdict.signature.starts_with("sat where") {
            true => (k, b),
            false => (b, k),
        };
        if let Some((blamed, signature)) = settle_tie(self.specs, trigger, sat, unsat, self.dir, self.limits) {
            if blamed == b {
                verdict.blamed = Some(b);
                verdict.blame_by = BlameBy::ModelCheck;
                verdict.signature = signature.into();
            }
        }
    }

    /// Sends `trigger` to each of `readers` in a fresh process ([`fresh_text`], built once
    /// per solver), through `run` (a fresh process, [`run_file`], unless the caller has
    /// another fresh backend).
    pub fn rerun(
        &self,
        trigger: &Script,
        readers: &[usize],
        run: &mut dyn FnMut(usize, &Path, usize) -> QueryResult,
    ) -> Result<Fresh, Refused> {
        let checks = smtlib::checks(trigger);
        let n = self.specs.len();
        let mut fresh = Fresh { checks, readers: readers.to_vec(), files: vec![None; n], results: vec![None; n] };
        for &k in readers {
            let f = self.dir.join(format!("{}candidate-{k}.smt2", self.tag));
            std::fs::write(&f, fresh_text(&self.specs[k], trigger)).map_err(|_| Refused::Unwritable)?;
            fresh.results[k] = Some(run(k, &f, checks));
            fresh.files[k] = Some(f);
        }
        Ok(fresh)
    }

    /// [`Confirm::confirm_with`] through fresh processes.
    pub fn confirm(
        &self,
        trigger: &Script,
        readers: &[usize],
        known: &Expected,
        v: &Verdict,
    ) -> Result<Confirmed, Refused> {
        let limits = *self.limits;
        self.confirm_with(trigger, readers, known, v, &mut |k, f, n| run_file(&self.specs[k], f, n, &limits))
    }

    /// Confirms the candidate verdict `v` on `trigger`: reruns `readers` in fresh
    /// processes; the same kind must come back with the same blamed solver; a crash must
    /// survive twice the memory; a tie is settled by a model cross-check; a STORM
    /// witness must hold under [`WitnessCheck::valid`] (judged by every other reader).
    pub fn confirm_with(
        &self,
        trigger: &Script,
        readers: &[usize],
        known: &Expected,
        v: &Verdict,
        run: &mut dyn FnMut(usize, &Path, usize) -> QueryResult,
    ) -> Result<Confirmed, Refused> {
        if super::cores::is_core_verdict(v) {
            return super::cores::confirm(self, trigger, readers, v, run);
        }
        if v.kind == BugKind::Regression {
            // Repeats and a longer limit for the newer release ([`super::regress`]).
            return self.regression(trigger, readers, known, v);
        }
        let fresh = self.rerun(trigger, readers, run)?;
        let all = fresh.all();
        let framing = smtlib::framing::framing(trigger);
        let again = match (known.truth, known.metamorphic) {
            // Seed and variant both asked again, each solver against itself.
            (_, Some(relations)) => {
                let variant = crate::mutate::equisat::apply(trigger, relations).map_err(|_| Refused::NotReproduced)?;
                let tag = format!("{}variant-", self.tag);
                let other = Confirm { tag: &tag, ..*self };
                let v_fresh = other.rerun(&variant, readers, run)?;
                super::metamorphic::judge_pair(&v_fresh.all(), &all, self.families)
            }
            (Some(t), None) if known.fusion => super::judge_constructed(&all, self.families, t, Some(&framing)),
            (t, None) => match known.baseline {
                // Two builds of one family cast one vote: the differential oracle would
                // see a tie; the baseline's answer is the expected one.
                Some(b) if v.kind == BugKind::Soundness && v.blame_by == BlameBy::Baseline => {
                    super::regress::wrong_answers(&all, self.specs, b, t, Some(&framing))
                }
                _ => super::judge(&all, self.families, t, Some(&framing)),
            },
        };
        let mut verdict = match again.iter().find(|x| x.kind == v.kind && x.blamed == v.blamed) {
            Some(x) if known.witness.is_some() && x.blame_by == BlameBy::Status => {
                Verdict { blame_by: BlameBy::Witness, ..x.clone() }
            }
            Some(x) => x.clone(),
            None => return Err(Refused::NotReproduced),
        };
        if let (BugKind::Crash, Some(b)) = (verdict.kind, verdict.blamed) {
            let file = fresh.file(b).ok_or(Refused::NotReproduced)?;
            if !crash_survives_more_memory(&self.specs[b], file, fresh.checks, self.limits, &verdict.signature) {
                return Err(Refused::NeedsMoreMemory(verdict));
            }
        }
        if let (Some(b), Some(k), BlameBy::Baseline) = (known.baseline, verdict.blamed, verdict.blame_by) {
            if verdict.kind == BugKind::Soundness {
                self.settle_against_baseline(trigger, b, k, &mut verdict);
            }
        }
        if verdict.blamed.is_none() {
            let first = |want: Outcome| {
                readers.iter().copied().find(|&k| all[k].is_some_and(|r| r.outcomes.first() == Some(&want)))
            };
            if let (Some(s), Some(u)) = (first(Outcome::Sat), first(Outcome::Unsat)) {
                if let Some((b, signature)) = settle_tie(self.specs, trigger, s, u, self.dir, self.limits) {
                    verdict.blamed = Some(b);
                    verdict.signature = signature.into();
                }
                verdict.blame_by = if verdict.blamed.is_some() { BlameBy::ModelCheck } else { BlameBy::Undecided };
            }
        }
        if let (Some(wit), Some(b)) = (known.witness, verdict.blamed) {
            let judges: Vec<usize> = readers.iter().copied().filter(|&k| k != b).collect();
            let w = witness_holds(self.specs, &judges, trigger, wit, self.dir, self.tag, self.limits);
            if !w.valid() {
                return Err(Refused::WitnessInvalid(w));
            }
        }
        Ok(Confirmed { verdict, fresh })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one witness rule: abstentions are neutral, one `unsat` vetoes, and at least one
    /// judge must say `sat` (no judge at all is no evidence).
    #[test]
    fn a_witness_needs_one_sat_and_no_unsat() {
        let w = |sat, refuted| WitnessCheck { sat, refuted }.valid();
        assert!(w(1, false) && w(3, false));
        assert!(!w(0, false), "every judge abstained (timeouts): nothing is known");
        assert!(!w(2, true), "one judge refutes it: the witness is doubted, not reported");
        assert!(!w(0, true));
    }
}
