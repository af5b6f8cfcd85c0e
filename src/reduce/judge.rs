//! Interestingness: when a candidate still shows what is being reduced.
//!
//! * [`super::external::External`] (the user's command) lives with the external mode.
//! * [`FindingJudge`] is built from a finding's `meta.json`: the *same bug*, never just
//!   "a bug". A crash keeps its normalised crash message; an invalid model its normalised
//!   validation message; a soundness bug needs one check-sat where every solver that gave
//!   a definite answer at the bug's check-sat gives that same answer again (the blamed one
//!   still wrong, the others still right), and for a STORM finding the witness must still
//!   satisfy the candidate. Candidates are screened through persistent sessions (the
//!   blamed solver first: most candidates fail there) and confirmed in fresh processes.

use super::{Check, Judge};
use crate::mutate::Engine;
use crate::oracle::{BlameBy, BugKind};
use crate::smtlib::{self, Script};
use crate::solver::{run_file, Limits, Outcome, QueryResult, Session, SolverSpec};
use crate::store::{FindingDir, Meta, StoreFileError};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The symptom a finding's reduction must keep.
#[derive(Clone, Debug, PartialEq)]
pub enum Symptom {
    /// The blamed solver crashes with this normalised message, and (where the finding
    /// recorded one and gdb is installed) in this crash state: the top frames of
    /// [`crate::solver::backtrace::crash_state`]. A bare SIGSEGV says nothing about where,
    /// so without the frames a reduction could slip to another crash of the same solver.
    Crash { signature: String, frames: Vec<String> },
    /// The blamed solver's model validation fails with this normalised message.
    InvalidModel { signature: String },
    /// The blamed solver's self-check fails with this message (`NAME: TEXT`,
    /// [`crate::solver::checks::failure_in`]); the trigger's check options stay, since
    /// without them nothing fails.
    CheckFailed { signature: String },
    /// At one check-sat, solver `i` answers `want[i]` (where `Some`).
    Answers { want: Vec<Option<Outcome>> },
    /// The blamed solver answers `sat` and `unsat` to one assertion stack
    /// ([`crate::oracle::self_contradiction`]); the framings may simplify (a tactic
    /// pipeline to a plain check-sat) as long as it still contradicts itself.
    Contradiction,
    /// The blamed solver's unsat core (assumptions) in the trigger, a named script, is
    /// satisfiable with this signature ([`crate::oracle::cores::recheck`]).
    Core { signature: String },
    /// A ladder regression ([`crate::oracle::regress`]): the older release (the judge's
    /// second solver) gives `want` within `within`, and the blamed newer one does not
    /// decide within the judge's (larger) limit, or is 10× slower.
    Regression { want: Vec<Outcome>, within: Duration, how: crate::oracle::regress::Failure },
    /// The blamed solver answers `seed` to the candidate (a metamorphic finding's seed
    /// side) and `variant` to its variant at one check-sat. The variant is rebuilt from
    /// each candidate by the finding's relations ([`crate::mutate::equisat::apply`]), so
    /// the two stay equisatisfiable however far the seed side is reduced: the flip is
    /// still the solver contradicting itself, never a drift to a formula whose answer
    /// changed. (Reducing the variant against the seed's old answer would not be: a
    /// reduced variant is no longer equisatisfiable to the seed.)
    Metamorphic { seed: Outcome, variant: Outcome, relations: Vec<crate::mutate::equisat::Relation> },
}

/// The built-in judge for a stored finding.
pub struct FindingJudge {
    /// The solvers involved, the blamed one first.
    pub solvers: Vec<SolverSpec>,
    pub symptom: Symptom,
    /// For a STORM finding: the model every instance is built to satisfy.
    pub witness: Option<Vec<(String, String)>>,
    pub limits: Limits,
    pub dir: PathBuf,
    /// Screen in fresh processes too (set when sessions do not reproduce the original).
    pub fresh_only: std::sync::atomic::AtomicBool,
    /// The trigger declares a logic and a solver of the judge needs one, so every
    /// candidate must declare one: yices and bitwuzla get one inferred where a script has none ([`crate::solver::Family::logic_for`]), and a
    /// reduction that dropped it would reproduce through smtstorm only, not when a user
    /// runs the solver on the file.
    pub keeps_logic: bool,
    /// Releases of the blamed solver's family on which the trigger does not show the bug
    /// ([`super::range::guards`]): an accepted candidate must not show it there either.
    /// Without them a reduction can slip from the bug found to another of the same kind
    /// that older releases show too, and the range of the reduction then speaks of that
    /// other bug (issue 39).
    pub keep_passing: Vec<SolverSpec>,
}

/// Why a finding cannot be reduced with the built-in judge.
#[derive(Debug, thiserror::Error)]
pub enum FindingError {
    #[error(transparent)]
    Read(#[from] StoreFileError),
    #[error("finding {id}: {why}")]
    Unusable { id: String, why: String },
}

/// Solver `a`'s answer at check-sat `k`, if it is definite.
fn definite(a: &crate::store::SolverAnswer, k: usize) -> Option<Outcome> {
    a.outcomes.get(k).filter(|o| o.is_definite()).cloned()
}

impl FindingJudge {
    /// The judge for the finding in `dir` (its description and trigger). Solvers are
    /// resolved by name in `solvers` (the campaign's own definitions).
    pub fn for_finding(
        dir: &Path,
        solvers: &[SolverSpec],
        max_time: Duration,
        scratch: &Path,
    ) -> Result<(Self, Meta), FindingError> {
        let dir = FindingDir::new(dir);
        let meta: Meta = dir.read_meta()?;
        let trigger = dir.read_trigger().map_err(|source| StoreFileError::Io { path: dir.trigger_path(), source })?;
        // A trigger that sets cvc5's or bitwuzla's own options reaches that family with
        // them only with their tables known: the installed ones', with what `solvers`
        // already carry (a campaign's own tables).
        let installed = if trigger.contains("(set-option") {
            crate::solver::options::installed_owners(solvers)
        } else {
            Default::default()
        };
        let unusable = |why: String| FindingError::Unusable { id: meta.id.clone(), why };
        let find = |name: &str| {
            solvers.iter().find(|s| s.name == name).cloned().map(|mut s| {
                s.option_owners.merge(&installed);
                s
            })
        };
        let answers = &meta.answers;
        let blamed_at = answers.iter().position(|a| a.solver == meta.blamed);
        let (involved, symptom): (Vec<usize>, Symptom) = match meta.kind {
            BugKind::Crash | BugKind::InvalidModel | BugKind::CheckFailed => {
                let b = blamed_at.ok_or_else(|| unusable(format!("blamed solver {} has no answer", meta.blamed)))?;
                let signature = meta.signature.clone();
                let sym = match meta.kind {
                    BugKind::Crash => Symptom::Crash { signature, frames: meta.frames.clone() },
                    BugKind::CheckFailed => Symptom::CheckFailed { signature },
                    _ => Symptom::InvalidModel { signature },
                };
                (vec![b], sym)
            }
            BugKind::Soundness if meta.blame_by == BlameBy::UnsatCore => {
                let b = blamed_at.ok_or_else(|| unusable(format!("blamed solver {} has no answer", meta.blamed)))?;
                let order = std::iter::once(b).chain((0..answers.len()).filter(|&i| i != b)).collect();
                (order, Symptom::Core { signature: meta.signature.clone() })
            }
            BugKind::Regression => {
                let b = blamed_at.ok_or_else(|| unusable(format!("blamed solver {} has no answer", meta.blamed)))?;
                let older = crate::oracle::regress::older_in(&meta.signature)
                    .and_then(|n| answers.iter().position(|a| a.solver == n))
                    .ok_or_else(|| unusable("the release that decides has no answer".into()))?;
                let want = answers[older].outcomes.clone();
                if want.is_empty() || !want.iter().all(Outcome::is_definite) {
                    return Err(unusable("the release that decides has no definite answers".into()));
                }
                // Twice the older release's own time (at least 0.3 s: process start-up).
                let within = crate::util::time::seconds((answers[older].seconds * 2.0).max(0.3));
                // The reduction keeps the way the newer release fails: a timeout or an
                // `unknown` reduced to a mere slowdown would be another bug, and one that
                // a loaded machine can fake on any tiny input (a start-up of 0.5 s is
                // "10x slower" than a 30 ms answer).
                let how = crate::oracle::regress::Failure::of_signature(&meta.signature)
                    .ok_or_else(|| unusable(format!("not a regression signature: {}", meta.signature)))?;
                (vec![b, older], Symptom::Regression { want, within, how })
            }
            BugKind::Soundness if meta.blame_by == BlameBy::Metamorphic => {
                let b = blamed_at.ok_or_else(|| unusable(format!("blamed solver {} has no answer", meta.blamed)))?;
                let (seed, variant) = crate::oracle::metamorphic::parse_signature(&meta.signature)
                    .ok_or_else(|| unusable(format!("not a metamorphic signature: {}", meta.signature)))?;
                let relations = crate::mutate::equisat::relations(&meta.edits);
                (vec![b], Symptom::Metamorphic { seed, variant, relations })
            }
            BugKind::Soundness if meta.blame_by == BlameBy::SelfContradiction => {
                let b = blamed_at.ok_or_else(|| unusable(format!("blamed solver {} has no answer", meta.blamed)))?;
                (vec![b], Symptom::Contradiction)
            }
            BugKind::Soundness => {
                // The bug's check-sat: the first where definite answers conflict.
                let checks = answers.iter().map(|a| a.outcomes.len()).max().unwrap_or(0);
                let k0 = (0..checks)
                    .find(|&k| {
                        let def: Vec<Outcome> = answers.iter().filter_map(|a| definite(a, k)).collect();
                        def.contains(&Outcome::Sat) && def.contains(&Outcome::Unsat)
                    })
                    .ok_or_else(|| unusable("no check-sat with conflicting answers".into()))?;
                let mut order: Vec<usize> =
                    (0..answers.len()).filter(|&i| definite(&answers[i], k0).is_some()).collect();
                // The blamed solver first: most candidates lose the bug there.
                if let Some(b) = blamed_at {
                    order.sort_by_key(|&i| i != b);
                }
                let want = order.iter().map(|&i| definite(&answers[i], k0)).collect();
                (order, Symptom::Answers { want })
            }
        };
        let specs: Vec<SolverSpec> = involved
            .iter()
            .map(|&i| {
                find(&answers[i].solver)
                    .ok_or_else(|| unusable(format!("solver {} is not configured", answers[i].solver)))
            })
            .collect::<Result<_, _>>()?;
        // Adaptive limit: generous against the original's own solving time.
        let slowest = involved.iter().map(|&i| answers[i].seconds).fold(0.0, f64::max);
        // The cap (`--timeout`, a campaign's limit) never cuts below twice the finding's
        // own run: an `smtfd` crash that came 3.6 s into its run (8.3 s under a
        // campaign's load) was refused before any reduction under the 10 s default on
        // a loaded machine, and stayed a cause of its own beside its reduced twin
        // (judge31b). A check shorter than the run that showed the bug can only fail.
        let cap = max_time.max(crate::util::time::seconds(slowest * 2.0)).max(Duration::from_millis(100));
        let time = crate::util::time::seconds((slowest * 5.0).max(1.0)).min(cap);
        // A regression's newer release gets room for a 10× slowdown of the older one's
        // bound to finish (a limit cut shorter would keep a near miss), within the cap
        // a campaign's limit gets: the adaptive limit above stands for the campaign's.
        // (Passing no campaign limit here capped it at zero, and every regression's
        // judge then refused its own trigger: no regression was reduced, and each stayed
        // a cause of its own.)
        let time = match &symptom {
            Symptom::Regression { within, .. } => crate::oracle::regress::newer_limit(time, *within),
            _ => time,
        };
        let limits = Limits { time, grace: Duration::from_millis(500), ..Limits::default() };
        // A STORM soundness finding is judged against its witness too.
        let storm = meta.origin == Engine::Storm || meta.blame_by == BlameBy::Witness;
        let witness = match symptom {
            Symptom::Answers { .. } if storm => crate::mutate::storm::read_witness(&trigger),
            _ => None,
        };
        let keeps_logic = specs.iter().any(|s| s.family.dialect().standard_logic_only)
            && smtlib::parse(&trigger).is_ok_and(|s| s.logic().is_some());
        let _ = std::fs::create_dir_all(scratch);
        let judge = FindingJudge {
            solvers: specs,
            symptom,
            witness,
            limits,
            dir: scratch.to_path_buf(),
            fresh_only: false.into(),
            keeps_logic,
            keep_passing: vec![],
        };
        Ok((judge, meta))
    }

    /// The same judge with another witness (an instance regenerated from the same seed
    /// carries the model it was built on).
    pub fn with_witness(&self, witness: Vec<(String, String)>) -> FindingJudge {
        FindingJudge {
            solvers: self.solvers.clone(),
            symptom: self.symptom.clone(),
            witness: Some(witness),
            limits: self.limits,
            dir: self.dir.clone(),
            fresh_only: self.fresh_only.load(std::sync::atomic::Ordering::Relaxed).into(),
            keeps_logic: self.keeps_logic,
            keep_passing: self.keep_passing.clone(),
        }
    }

    /// The text solver `k` gets: in a fresh process the one every confirmation sends
    /// ([`crate::oracle::confirm::fresh_text`]); a session gets the same script without
    /// `(exit)` and with the validation options as its per-query options.
    fn text_for(&self, k: usize, s: &Script, session: bool) -> String {
        if session {
            crate::solver::session_text(&self.solvers[k].own_script(s)).0
        } else {
            crate::oracle::confirm::fresh_text(&self.solvers[k], s)
        }
    }

    /// Solver `k` on `s` in a fresh process, as a confirmation asks it, through `file`.
    fn run_fresh(&self, file: &Path, k: usize, s: &Script, checks: usize) -> QueryResult {
        if std::fs::write(file, self.text_for(k, s, false)).is_err() {
            return unwritable(checks);
        }
        run_file(&self.solvers[k], file, checks, &self.limits)
    }

    /// Whether a release of [`FindingJudge::keep_passing`] shows the bug on `text`, at the
    /// check-sats where the blamed solver shows it: a candidate the confirmation refuses
    /// for that reason alone, not for a timeout, a crash state or a witness
    /// ([`crate::store::reduction::Report::gates`]). `false` where the blamed solver
    /// does not show it.
    pub fn a_guard_shows(&self, text: &str) -> bool {
        let file = self.dir.join("confirm.smt2");
        let Some(at) = self.decide_at(text, |k, s, checks| self.run_fresh(&file, k, s, checks)) else { return false };
        let Ok(s) = smtlib::parse(text) else { return false };
        self.keep_passing.iter().any(|spec| self.shown_by(spec, &s, &at, &file) == Some(true))
    }

    /// The command of `text` the blamed solver refuses before its first answer, run in a
    /// fresh process as a confirmation runs it
    /// ([`crate::store::severity::refused_command`]), by its index among `text`'s
    /// commands and its keyword, and only when the bug needs it: without that command the
    /// confirmation fails. `None` when it refuses none, names no line of `text` (the
    /// validation options sent before it), or the bug shows without the refused command
    /// (an error the reduction kept by chance is not the bug's). `checks` counts the runs.
    pub fn refused(&self, text: &str, checks: &mut u64) -> Option<(usize, String)> {
        use super::Judge;
        let s = smtlib::parse(text).ok()?;
        let sent = self.text_for(0, &s, false);
        let prefix = self.solvers[0].family.dialect().model_validation.len();
        let file = self.dir.join("refused.smt2");
        std::fs::write(&file, &sent).ok()?;
        *checks += 1;
        let r = run_file(&self.solvers[0], &file, smtlib::checks(&s), &self.limits);
        let (at, keyword) = crate::store::severity::refused_command(&r.stdout_excerpt, &sent)?;
        // The command's offset in what was sent, back to `text`'s own commands: the
        // solver's dialect (`own_script`) drops options, so match by printed command.
        let sent_script = smtlib::parse(&sent).ok()?;
        let offset = *sent_script.command_offsets.get(at)? as usize;
        if offset < prefix {
            return None;
        }
        let printed = smtlib::printer::print_command_with(&sent_script, &sent_script.commands[at].kind, &[]);
        let i = (0..s.commands.len())
            .find(|&i| smtlib::printer::print_command_with(&s, &s.commands[i].kind, &[]) == printed)?;
        let keep: Vec<usize> = (0..s.commands.len()).filter(|&k| k != i).collect();
        *checks += 1;
        (!self.confirm(&smtlib::print(&smtlib::slice::keep_commands(&s, &keep)))).then_some((i, keyword))
    }

    /// Whether results (in `self.solvers` order, as far as run) still show the symptom.
    /// `None` means "not decided yet, run the next solver".
    fn judge_prefix(&self, s: &Script, results: &[QueryResult], candidates: &mut Vec<usize>) -> Option<bool> {
        match &self.symptom {
            // Decided whole in [`FindingJudge::decide`].
            Symptom::Core { .. } => Some(false),
            Symptom::Contradiction => {
                Some(crate::oracle::self_contradiction(&results[0], &crate::smtlib::framing::framing(s)).is_some())
            }
            // Decided on two scripts, in [`FindingJudge::decide`].
            Symptom::Metamorphic { .. } => Some(false),
            Symptom::Crash { signature, .. } => {
                Some(crate::oracle::confirm::crashes_with(&results[0], signature))
            }
            Symptom::InvalidModel { signature } => Some(results[0].outcomes.iter().any(
                |o| matches!(o, Outcome::InvalidModel { message } if &crate::oracle::invalid_model_signature(message) == signature),
            )),
            Symptom::CheckFailed { signature } => Some(
                results[0].outcomes.iter().any(|o| matches!(o, Outcome::CheckFailed { message } if message == signature)),
            ),
            Symptom::Regression { want, within, how } => {
                use crate::oracle::regress::{decided, failure, starved, Failure};
                // A candidate whose newer run was out of time on a starved CPU shows the
                // load, not the regression: kept out, so a reduction under load stays
                // one the regression shows (it may stop early; never drift). Session runs
                // carry no CPU figure, so this takes effect in the fresh-process check of
                // every accepted candidate (`confirm`).
                if results.first().is_some_and(|new| {
                    failure(new, want, Duration::ZERO, self.limits.time) == Some(Failure::Timeout)
                        && starved(new, self.limits.time)
                }) {
                    return Some(false);
                }
                match results {
                    // Decided the same way within the margin: no slowdown is possible.
                    [new] => failure(new, want, Duration::ZERO, self.limits.time).is_none().then_some(false),
                    [new, old, ..] => Some(
                        decided(old) == Some(&want[..])
                            && old.wall <= *within
                            && failure(new, want, old.wall, self.limits.time) == Some(*how),
                    ),
                    [] => Some(false),
                }
            }
            Symptom::Answers { want } => {
                let k = results.len() - 1;
                let r = &results[k];
                let hits: Vec<usize> = (0..r.outcomes.len()).filter(|&c| Some(&r.outcomes[c]) == want[k].as_ref()).collect();
                if k == 0 {
                    *candidates = hits;
                } else {
                    candidates.retain(|c| hits.contains(c));
                }
                if candidates.is_empty() {
                    Some(false)
                } else if k + 1 == want.len() {
                    Some(true)
                } else {
                    None
                }
            }
        }
    }

    /// Runs the solvers one after another through `run` until the symptom is decided.
    fn decide(&self, text: &str, run: impl FnMut(usize, &Script, usize) -> QueryResult) -> bool {
        self.decide_at(text, run).is_some()
    }

    /// [`FindingJudge::decide`], and where it showed: for a wrong answer the check-sats
    /// at which every solver still answers as the finding says (else empty).
    fn decide_at(&self, text: &str, mut run: impl FnMut(usize, &Script, usize) -> QueryResult) -> Option<Vec<usize>> {
        let shown = |b: bool| b.then(Vec::new);
        let Ok(s) = smtlib::parse(text) else { return None };
        if self.keeps_logic && s.logic().is_none() {
            return None;
        }
        if let Symptom::Core { signature } = &self.symptom {
            let others: Vec<usize> = (1..self.solvers.len()).collect();
            return shown(match crate::oracle::cores::recheck(&s, 0, &others, false, &mut run) {
                crate::oracle::cores::Recheck::Wrong { verdict, .. } => verdict.signature == *signature,
                _ => false,
            });
        }
        let checks = crate::smtlib::checks(&s);
        if let Symptom::Metamorphic { seed, variant, relations } = &self.symptom {
            let v = crate::mutate::equisat::apply(&s, relations).ok()?;
            let sp = &self.solvers[0];
            if sp.cannot_read(&sp.own_script(&s)).is_some() || sp.cannot_read(&sp.own_script(&v)).is_some() {
                return None;
            }
            let a = run(0, &s, checks);
            if !a.outcomes.contains(seed) {
                return None;
            }
            let b = run(0, &v, crate::smtlib::checks(&v));
            return shown(
                (0..a.outcomes.len()).any(|k| a.outcomes.get(k) == Some(seed) && b.outcomes.get(k) == Some(variant)),
            );
        }
        let mut results = vec![];
        let mut cands = vec![];
        for k in 0..self.solvers.len() {
            // What the solver is sent: z3's `check-sat-using` is a plain `check-sat` for a
            // family that does not read it, so a cvc5 crash found under a z3 pipeline
            // is still read by cvc5.
            if self.solvers[k].cannot_read(&self.solvers[k].own_script(&s)).is_some() {
                return None;
            }
            results.push(run(k, &s, checks));
            if let Some(v) = self.judge_prefix(&s, &results, &mut cands) {
                return v.then_some(cands);
            }
        }
        None
    }

    /// Whether `spec`, a release of [`FindingJudge::keep_passing`], shows on `s` the symptom the
    /// blamed solver shows (at the check-sats `at`, for a wrong answer); `file` is where
    /// its query is written. `None`: it cannot say (a symptom no single release shows).
    fn shown_by(&self, spec: &SolverSpec, s: &Script, at: &[usize], file: &Path) -> Option<bool> {
        let run = |spec: &SolverSpec, s: &Script, checks: usize| {
            if std::fs::write(file, crate::oracle::confirm::fresh_text(spec, s)).is_err() {
                return unwritable(checks);
            }
            run_file(spec, file, checks, &self.limits)
        };
        if let Symptom::Core { signature } = &self.symptom {
            // The release's own core re-checked by the finding's other solvers, as a
            // range probes it.
            let specs: Vec<&SolverSpec> = std::iter::once(spec).chain(&self.solvers[1..]).collect();
            let others: Vec<usize> = (1..specs.len()).collect();
            return Some(matches!(
                crate::oracle::cores::recheck(s, 0, &others, false, &mut |k, s, c| run(specs[k], s, c)),
                crate::oracle::cores::Recheck::Wrong { verdict, .. } if verdict.signature == *signature
            ));
        }
        let r = run(spec, s, crate::smtlib::checks(s));
        Some(match &self.symptom {
            Symptom::Crash { .. } => r.crash.is_some() || r.outcomes.iter().any(|o| matches!(o, Outcome::Crash { .. })),
            Symptom::InvalidModel { .. } => r.outcomes.iter().any(|o| matches!(o, Outcome::InvalidModel { .. })),
            Symptom::CheckFailed { signature } => {
                r.outcomes.iter().any(|o| matches!(o, Outcome::CheckFailed { message } if message == signature))
            }
            Symptom::Answers { want } => {
                let wrong = want.first().cloned().flatten();
                at.iter().any(|&c| wrong.is_some() && r.outcomes.get(c) == wrong.as_ref())
            }
            Symptom::Contradiction => {
                crate::oracle::self_contradiction(&r, &crate::smtlib::framing::framing(s)).is_some()
            }
            Symptom::Core { .. } | Symptom::Regression { .. } | Symptom::Metamorphic { .. } => return None,
        })
    }

    /// Whether every release of [`FindingJudge::keep_passing`] still passes on `s`.
    fn still_passing(&self, s: &Script, at: &[usize], file: &Path) -> bool {
        self.keep_passing.iter().all(|spec| self.shown_by(spec, s, at, file) != Some(true))
    }
}

/// The result of a query whose file could not be written (never interesting).
fn unwritable(checks: usize) -> QueryResult {
    let message = "cannot write the candidate file".to_string();
    crate::solver::failed(vec![Outcome::Error { message }; checks.max(1)], std::time::Instant::now())
}

struct FindingWorker<'a> {
    judge: &'a FindingJudge,
    sessions: Vec<Option<Session>>,
    file: PathBuf,
}

impl Judge for FindingJudge {
    fn worker(&self, id: usize) -> Box<dyn Check + Send + '_> {
        // Crashes end sessions anyway, so crash findings are checked in fresh processes
        // (also the only way to keep the exact crash message).
        let sessions = self
            .solvers
            .iter()
            .map(|sp| {
                let fresh = self.fresh_only.load(std::sync::atomic::Ordering::Relaxed);
                // A core is asked of a fresh process (a session's option state would differ);
                // a failed self-check ends the process too (cvc5 aborts on it).
                (sp.has_session()
                    && !fresh
                    && !matches!(
                        self.symptom,
                        Symptom::Crash { .. } | Symptom::Core { .. } | Symptom::CheckFailed { .. }
                    ))
                .then(|| Session::validating(sp.clone(), self.limits))
            })
            .collect();
        Box::new(FindingWorker { judge: self, sessions, file: self.dir.join(format!("w{id}-candidate.smt2")) })
    }

    fn check_like_confirm(&self) -> bool {
        self.fresh_only.store(true, std::sync::atomic::Ordering::Relaxed);
        true
    }

    fn confirm(&self, text: &str) -> bool {
        let file = self.dir.join("confirm.smt2");
        let Some(at) = self.decide_at(text, |k, s, checks| self.run_fresh(&file, k, s, checks)) else { return false };
        // A regression holds without smtstorm's own validation options too, as its
        // confirmation asked ([`crate::oracle::regress::holds_without_validation`]): a
        // reduction must not drift to a form only those options slow down.
        if let Symptom::Regression { want, within, .. } = &self.symptom {
            let Ok(s) = smtlib::parse(text) else { return false };
            let older_limits = Limits { time: (*within * 2).max(Duration::from_secs(1)), ..self.limits };
            let pair = (&self.solvers[0], &self.solvers[1]);
            if crate::oracle::regress::holds_without_validation(
                pair,
                &s,
                want,
                Duration::ZERO,
                (&self.limits, &older_limits),
                &file,
            )
            .is_none()
            {
                return false;
            }
        }
        // The releases the trigger passes on still pass (checked on confirmation only:
        // once per accepted candidate).
        if !self.keep_passing.is_empty() {
            let Ok(s) = smtlib::parse(text) else { return false };
            if !self.still_passing(&s, &at, &file) {
                return false;
            }
        }
        // The same crash state, checked on confirmation only (gdb costs a second or so:
        // once per accepted candidate, not per screened one).
        if let Symptom::Crash { frames, .. } = &self.symptom {
            if !frames.is_empty() && crate::solver::backtrace::gdb().is_some() {
                let Ok(s) = smtlib::parse(text) else { return false };
                if std::fs::write(&file, self.text_for(0, &s, false)).is_err() {
                    return false;
                }
                if crate::solver::backtrace::crash_state(&self.solvers[0], &file, &self.limits).as_ref() != Some(frames)
                {
                    return false;
                }
            }
        }
        let Some(w) = &self.witness else { return true };
        // The witness must still hold on the candidate under the one rule of every
        // confirmation ([`crate::oracle::confirm::WitnessCheck::valid`]), judged by the
        // solvers not blamed: otherwise the "bug" is the reducer's doing.
        let Ok(s) = smtlib::parse(text) else { return false };
        let judges: Vec<usize> = (1..self.solvers.len()).collect();
        crate::oracle::confirm::witness_holds(&self.solvers, &judges, &s, w, &self.dir, "", &self.limits).valid()
    }
}

impl Check for FindingWorker<'_> {
    fn interesting(&mut self, text: &str) -> bool {
        let j = self.judge;
        let sessions = &mut self.sessions;
        let file = &self.file;
        j.decide(text, |k, s, checks| match sessions[k].as_mut() {
            Some(sess) => sess.query(&j.text_for(k, s, true), checks),
            None => {
                if std::fs::write(file, j.text_for(k, s, false)).is_err() {
                    return unwritable(checks);
                }
                run_file(&j.solvers[k], file, checks, &j.limits)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::regress::Failure;

    /// A regression finding's judge: the newer release (first) times out where the older
    /// one decides `sat` within a second. Its solvers are never run here: only the results
    /// given are read.
    fn regression_judge() -> FindingJudge {
        let spec = |n: &str| SolverSpec::new(n, crate::solver::Family::Z3, vec![n.into()]);
        FindingJudge {
            solvers: vec![spec("z3-5.4.0"), spec("z3-4.15.4")],
            symptom: Symptom::Regression {
                want: vec![Outcome::Sat],
                within: Duration::from_secs(1),
                how: Failure::Timeout,
            },
            witness: None,
            limits: Limits { time: Duration::from_secs(4), ..Limits::default() },
            dir: std::env::temp_dir(),
            fresh_only: false.into(),
            keeps_logic: false,
            keep_passing: vec![],
        }
    }

    /// The per-check cap never cuts below twice the finding's own run: a crash that took
    /// 8.3 s under a campaign's load gets at least 16.6 s under a 10 s cap; a fast one
    /// keeps its adaptive limit under the cap. No solver runs.
    #[test]
    fn the_cap_never_cuts_below_twice_the_findings_own_run() {
        let limit_for = |seconds: f64| {
            let dir = crate::util::fs::scratch_dir(&std::env::temp_dir(), ".judge-cap-").unwrap();
            let meta = serde_json::json!({
                "id": "x", "kind": "crash", "blamed": "z3", "blamed_version": null, "blame_by": "crash",
                "logic": "ALL", "signature": "SIGSEGV", "fixed_in": null, "bisection": [],
                "answers": [{"solver": "z3", "version": null, "outcomes": ["unknown", "crash(SIGSEGV)"],
                             "stdout_excerpt": "", "stderr_excerpt": "", "seconds": seconds}],
                "seed": "", "seed_hash": "", "engine": "opfuzz", "edits": [], "rng_seed": 0, "found_at": 0.0,
                "found_unix": 0, "run": 1, "trigger_bytes": 0, "duplicates": 0, "seed_finding": false
            });
            let finding = crate::store::FindingDir::new(dir.path());
            finding.write_meta(&serde_json::from_value(meta).unwrap()).unwrap();
            finding.write_trigger("(check-sat)\n(check-sat)\n").unwrap();
            let z3 = SolverSpec::new("z3", crate::solver::Family::Z3, vec!["z3".into()]);
            let scratch = dir.path().join("work");
            let (j, _) = FindingJudge::for_finding(dir.path(), &[z3], Duration::from_secs(10), &scratch).unwrap();
            j.limits.time
        };
        assert!(limit_for(8.3) >= Duration::from_millis(16_600), "{:?}", limit_for(8.3));
        assert_eq!(limit_for(0.5), Duration::from_millis(2500));
        assert_eq!(limit_for(3.0), Duration::from_secs(10));
    }

    /// A candidate whose newer run timed out with a fraction of its limit on the CPU (a
    /// loaded machine, [`crate::oracle::regress::starved`]) shows the load, not the
    /// regression: the reducer keeps it out. The same timeout having used its CPU, or
    /// with no CPU figure (a session run), shows the regression.
    #[test]
    fn a_starved_timeout_is_not_the_regression() {
        let j = regression_judge();
        let s = smtlib::parse("(declare-const x Int)(assert (> x 0))(check-sat)").unwrap();
        let run = |cpu: Option<u64>, wall: u64, o: Outcome| QueryResult {
            wall: Duration::from_millis(wall),
            cpu: cpu.map(Duration::from_millis),
            ..crate::solver::failed(vec![o], std::time::Instant::now())
        };
        let older = run(Some(300), 300, Outcome::Sat);
        let judged = |new: QueryResult| j.judge_prefix(&s, &[new, older.clone()], &mut vec![]);
        assert_eq!(judged(run(Some(3900), 4000, Outcome::Timeout)), Some(true), "a timeout on the CPU");
        assert_eq!(judged(run(None, 4000, Outcome::Timeout)), Some(true), "no CPU figure: a session");
        assert_eq!(judged(run(Some(800), 4000, Outcome::Timeout)), Some(false), "a fifth of the limit: starved");
        assert_eq!(j.judge_prefix(&s, &[run(Some(800), 4000, Outcome::Timeout)], &mut vec![]), Some(false));
        assert_eq!(judged(run(Some(200), 200, Outcome::Sat)), Some(false), "decided in time");
    }
}
