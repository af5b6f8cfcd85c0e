//! `smtstorm recheck`.

use anyhow::Result;
use std::path::PathBuf;

/// Run a store's findings against another build (a solver team's fix, today's nightly):
/// which still fail, which it fixed, and which it leaves undecided. Each finding is judged
/// on its reduced trigger (else its trigger) by its own symptom, as its regression range
/// is: a crash must crash, a wrong answer must be given again while the other solvers of
/// the finding disagree, an invalid model must be rejected again; `unknown`, a timeout or
/// an error decide nothing. Findings of other families are skipped. Nothing in the store
/// changes.
#[derive(clap::Args)]
pub(crate) struct RecheckCmd {
    /// The store (a campaign's output directory).
    store: PathBuf,
    /// The build: a name from .solvers/solvers.toml, or NAME='command args'.
    #[arg(long = "solver")]
    solver: String,
    /// Upper limit per query, in seconds.
    #[arg(long, default_value_t = smtstorm::solver::DEFAULT_TIMEOUT_S)]
    timeout: f64,
    /// One JSON object a finding on stdout instead of the table.
    #[arg(long)]
    json: bool,
}

impl RecheckCmd {
    pub(crate) fn run(&self) -> Result<()> {
        use smtstorm::store::identity::ProbeVerdict;
        let max_time = super::opts::timeout_seconds(self.timeout)?;
        if let Err(why) = smtstorm::store::Store::check_source(&self.store) {
            anyhow::bail!("{}: {why}", self.store.display());
        }
        let reg = smtstorm::solver::resolve::default_registry()?;
        let mut build = smtstorm::solver::resolve::resolve(&reg, std::slice::from_ref(&self.solver))?
            .pop()
            .ok_or_else(|| anyhow::anyhow!("--solver {}: no such solver", self.solver))?;
        // The range runs releases by version: the build is one more, named by its own
        // version when the registry knows it, else by its name.
        let label = build.version.clone().unwrap_or_else(|| build.name.clone());
        build.version = Some(label.clone());
        let campaign = smtstorm::store::CampaignFile::read(&self.store).ok().flatten();
        let named = campaign.map(|c| c.solvers).unwrap_or_default();
        let build_family = smtstorm::store::identity::family_of(&build.name, std::slice::from_ref(&build));
        smtstorm::util::stop::install_signal_handlers();
        let (mut fails, mut fixed, mut open, mut skipped) = (0, 0, 0, 0);
        if !self.json {
            outln!("| finding | kind | blamed | on | {} | answers |\n|---|---|---|---|---|---|", build.name);
        }
        for (path, meta) in smtstorm::store::Store::list_in(&self.store) {
            if smtstorm::util::stop::stop_flag().load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            let family = smtstorm::store::identity::family_of(&meta.blamed, &named);
            if family != build_family {
                skipped += 1;
                continue;
            }
            let Some(dir) = path.parent() else { continue };
            let solvers = smtstorm::reduce::finding_solvers(dir);
            let range =
                smtstorm::reduce::range::regression_range(dir, &solvers, std::slice::from_ref(&build), max_time);
            let (verdict, answers, on) = match &range {
                Ok(r) => match r.probes.iter().find(|p| p.release == label) {
                    Some(p) => (p.verdict, p.answers.clone(), r.on.clone()),
                    None => (ProbeVerdict::Inconclusive, String::new(), r.on.clone()),
                },
                Err(e) => (ProbeVerdict::Inconclusive, e.to_string(), String::new()),
            };
            let word = match verdict {
                ProbeVerdict::Fails => {
                    fails += 1;
                    "still fails"
                }
                ProbeVerdict::Passes => {
                    fixed += 1;
                    "fixed"
                }
                ProbeVerdict::Inconclusive => {
                    open += 1;
                    "undecided"
                }
            };
            if self.json {
                let line = serde_json::json!({
                    "finding": meta.id, "kind": meta.kind, "blamed": meta.blamed, "on": on,
                    "build": build.name, "verdict": word, "answers": answers,
                });
                outln!("{line}");
            } else {
                outln!(
                    "| {} | {} | {} | {on} | {word} | {} |",
                    meta.id,
                    meta.kind,
                    meta.blamed,
                    answers.replace('|', "\\|")
                );
            }
        }
        eprintln!(
            "{}: {fails} still fail, {fixed} fixed, {open} undecided on {}; {skipped} findings of other families skipped",
            self.store.display(),
            build.name
        );
        Ok(())
    }
}
