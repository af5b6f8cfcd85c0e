//! `smtstorm recheck`.

use anyhow::Result;
use smtstorm::solver::SolverSpec;
use std::path::PathBuf;

/// Run a store's findings against other builds (a solver team's fix, today's nightly):
/// which still fail, which a build fixed, and which it now refuses to read. Each finding
/// is judged on its reduced trigger (else its trigger) by its own symptom, as its
/// regression range is: a crash must crash, a wrong answer must be given again while the
/// other solvers of the finding disagree, an invalid model must be rejected again. Per
/// finding and build: `still fails`, `fixed`, `refuses input` (the build answers with an
/// error: a parse or dialect error of the new build, not a fix) or `undecided` (`unknown`,
/// a timeout, a finding that cannot be judged). Findings of other families are skipped.
/// Nothing in the store changes. Exit status: 10 when a finding still fails on some build,
/// else 0 (a refusal or an undecided finding is printed and counted, but is not a
/// failure: nothing shows the bug is still there).
#[derive(clap::Args)]
pub(crate) struct RecheckCmd {
    /// The store (a campaign's output directory).
    store: PathBuf,
    /// A build: a name from .solvers/solvers.toml, or NAME=PATH (NAME='command args');
    /// repeatable.
    #[arg(long = "solver", required = true)]
    solvers: Vec<String>,
    /// Upper limit per query, in seconds.
    #[arg(long, default_value_t = smtstorm::solver::DEFAULT_TIMEOUT_S)]
    timeout: f64,
    /// One JSON object a finding and build on stdout instead of the table.
    #[arg(long)]
    json: bool,
}

/// What a build does on a stored finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    StillFails,
    Fixed,
    /// The build answers with an error: it cannot read the input any more.
    Refuses,
    Undecided,
}

impl Verdict {
    fn words(self) -> &'static str {
        match self {
            Verdict::StillFails => "still fails",
            Verdict::Fixed => "fixed",
            Verdict::Refuses => "refuses input",
            Verdict::Undecided => "undecided",
        }
    }

    /// The verdict of a probe: an inconclusive one whose answers hold an error (as
    /// outcomes display: `error(…)`) is a refusal.
    fn of(p: &smtstorm::store::identity::Probe) -> Verdict {
        use smtstorm::store::identity::ProbeVerdict;
        match p.verdict {
            ProbeVerdict::Fails => Verdict::StillFails,
            ProbeVerdict::Passes => Verdict::Fixed,
            ProbeVerdict::Inconclusive if p.answers.split_whitespace().any(|w| w.starts_with("error(")) => {
                Verdict::Refuses
            }
            ProbeVerdict::Inconclusive => Verdict::Undecided,
        }
    }
}

/// Counts per build.
#[derive(Default)]
struct Counts {
    fails: usize,
    fixed: usize,
    refuses: usize,
    undecided: usize,
    skipped: usize,
}

impl RecheckCmd {
    pub(crate) fn run(&self) -> Result<i32> {
        let max_time = super::opts::timeout_seconds(self.timeout)?;
        if let Err(why) = smtstorm::store::Store::check_source(&self.store) {
            anyhow::bail!("{}: {why}", self.store.display());
        }
        let reg = smtstorm::solver::resolve::default_registry()?;
        let builds = smtstorm::solver::resolve::resolve(&reg, &self.solvers)?;
        let campaign = smtstorm::store::CampaignFile::read(&self.store).ok().flatten();
        let named = campaign.map(|c| c.solvers).unwrap_or_default();
        smtstorm::util::stop::install_signal_handlers();
        if !self.json {
            outln!("| finding | kind | blamed | on | build | verdict | answers |\n|---|---|---|---|---|---|---|");
        }
        let findings = smtstorm::store::Store::list_in(&self.store);
        let mut counts: Vec<Counts> = builds.iter().map(|_| Counts::default()).collect();
        for (build, n) in builds.iter().zip(&mut counts) {
            self.recheck_on(build, &findings, &named, max_time, n);
        }
        for (build, n) in builds.iter().zip(&counts) {
            eprintln!(
                "{}: {} still fail, {} fixed, {} refuse the input, {} undecided on {}; {} findings of other families skipped",
                self.store.display(),
                n.fails,
                n.fixed,
                n.refuses,
                n.undecided,
                build.name,
                n.skipped
            );
        }
        let failing = counts.iter().any(|n| n.fails > 0);
        Ok(if failing { super::opts::EXIT_FINDINGS } else { 0 })
    }

    /// Every finding of `build`'s family judged on `build`, printed, counted in `n`.
    fn recheck_on(
        &self,
        build: &SolverSpec,
        findings: &[(PathBuf, smtstorm::store::Meta)],
        named: &[SolverSpec],
        max_time: std::time::Duration,
        n: &mut Counts,
    ) {
        let build_family = smtstorm::store::identity::family_of(&build.name, std::slice::from_ref(build));
        let label = build.version.clone().unwrap_or_else(|| build.name.clone());
        for (path, meta) in findings {
            if smtstorm::util::stop::stop_flag().load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            if smtstorm::store::identity::family_of(&meta.blamed, named) != build_family {
                n.skipped += 1;
                continue;
            }
            let Some(dir) = path.parent() else { continue };
            let solvers = smtstorm::reduce::finding_solvers(dir);
            let (verdict, answers, on) = match smtstorm::reduce::range::recheck(dir, &solvers, build, max_time) {
                Ok(r) => match r.probes.iter().find(|p| p.release == label) {
                    Some(p) => (Verdict::of(p), p.answers.clone(), r.on.clone()),
                    None => (Verdict::Undecided, String::new(), r.on.clone()),
                },
                Err(e) => (Verdict::Undecided, e.to_string(), String::new()),
            };
            match verdict {
                Verdict::StillFails => n.fails += 1,
                Verdict::Fixed => n.fixed += 1,
                Verdict::Refuses => n.refuses += 1,
                Verdict::Undecided => n.undecided += 1,
            }
            let word = verdict.words();
            if self.json {
                let line = serde_json::json!({
                    "finding": meta.id, "kind": meta.kind, "blamed": meta.blamed, "on": on,
                    "build": build.name, "verdict": word, "answers": answers,
                });
                outln!("{line}");
            } else {
                outln!(
                    "| {} | {} | {} | {on} | {} | {word} | {} |",
                    meta.id,
                    meta.kind,
                    meta.blamed,
                    build.name,
                    answers.replace('|', "\\|")
                );
            }
        }
    }
}
