//! One finding per cause (issue 39): after reduction, each finding gets its regression
//! range over its family's installed releases (on the reduced trigger), is told apart as
//! a dialect difference where a known change of meaning explains it, and the store
//! merges the findings whose identities meet ([`Store::regroup`]). A campaign does this
//! after its reductions; `smtstorm report --regroup` does it on a stored campaign.

use crate::oracle::semantics;
use crate::reduce::range::regression_range;
use crate::solver::SolverSpec;
use crate::store::identity::{family_of, Regrouped};
use crate::store::{FindingDir, Store};
use crate::util::stop::stop_flag;
use std::path::Path;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What [`regroup`] did.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Findings whose range was computed: (id, range in words).
    pub ranged: Vec<(String, String)>,
    /// Findings filed as dialect differences: (id, change).
    pub dialect: Vec<(String, &'static str)>,
    /// Findings that could not be ranged: (id, why).
    pub failed: Vec<(String, String)>,
    /// (kept, merged) directories.
    pub merged: Regrouped,
}

impl Outcome {
    /// What a person is told (the campaign's stderr, `report --regroup`'s), a line each.
    pub fn lines(&self) -> Vec<String> {
        let id = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let ranged = self.ranged.iter().map(|(f, w)| format!("range of {f}: {w}"));
        let dialect = self.dialect.iter().map(|(f, c)| format!("{f} is a dialect difference ({c}), not a bug"));
        let failed = self.failed.iter().map(|(f, why)| format!("no range for {f}: {why}"));
        let merged = self.merged.iter().map(|(k, g)| format!("merged {} into {}: one cause", id(g), id(k)));
        ranged.chain(dialect).chain(failed).chain(merged).collect()
    }
}

/// Ranges every reduced finding of the store at `out` that has no range on its current
/// reduction (with `solvers` resolving its solvers, `ladder` the installed releases,
/// `max_time` the per-query limit), marks dialect differences, and merges the findings of
/// one cause. Stops ranging at Ctrl-C or `deadline` (the merge still runs: it needs no
/// solver).
pub fn regroup(
    out: &Path,
    store: &Mutex<Store>,
    solvers: &dyn Fn(&Path) -> Vec<SolverSpec>,
    ladder: &[SolverSpec],
    max_time: Duration,
    deadline: Option<Instant>,
) -> Outcome {
    let mut done = Outcome::default();
    let mut all_solvers: Vec<SolverSpec> = vec![];
    for (path, meta) in Store::list_in(out) {
        let Some(f) = FindingDir::of_meta(&path) else { continue };
        let dir = f.path().to_path_buf();
        let here = solvers(&dir);
        for s in &here {
            if !all_solvers.iter().any(|a| a.name == s.name) {
                all_solvers.push(s.clone());
            }
        }
        let Ok(text) = f.read_reduced() else { continue };
        let stale = meta.cause.range.as_ref().is_none_or(|r| r.on != crate::store::layout::REDUCED);
        if !stale || stop_flag().load(Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
            continue;
        }
        let range = match regression_range(&dir, &here, ladder, max_time) {
            Ok(r) => r,
            Err(e) => {
                done.failed.push((meta.id.clone(), e.to_string()));
                continue;
            }
        };
        // Re-read: nothing else writes it meanwhile (the store is held), but the range
        // took seconds and the file is the truth.
        let Ok(mut m) = f.read_meta() else { continue };
        let family = here.iter().find(|s| s.name == m.blamed).map(|s| s.family);
        let fam = family.unwrap_or_else(|| crate::solver::Family::guess(&m.blamed));
        let change = semantics::explains(fam, &range.failing(), &range.passing(), &text);
        m.cause.dialect = change.map(|c| c.id.to_string());
        if let Some(c) = change {
            done.dialect.push((m.id.clone(), c.id));
        }
        m.cause.family = Some(family_of(&m.blamed, &here));
        done.ranged.push((m.id.clone(), range.words()));
        m.cause.range = Some(range);
        if f.write_meta(&m).is_err() {
            done.failed.push((m.id.clone(), format!("cannot write {}", f.meta_path().display())));
        }
    }
    done.merged = store.lock().unwrap_or_else(|e| e.into_inner()).regroup(&all_solvers);
    done
}

/// Reduces every finding of the store at `out` that has no reduction yet, each for at
/// most `each` (`jobs` checks at once, `max_time` per query), in the campaign's order (a
/// finding that looks like one reduced before it waits: new causes first). For the stores
/// no campaign reduced: a fuzz target's (`fuzz/store/<target>`, whose findings the target
/// only confirms) and a campaign stopped before its reductions; a regroup then ranges and
/// merges them. Stops at Ctrl-C. `say` gets a line per finding, for a person, as each
/// ends (a store of many findings takes a while).
pub fn reduce_unreduced(
    out: &Path,
    solvers: &dyn Fn(&Path) -> Vec<SolverSpec>,
    ladder: &[SolverSpec],
    each: Duration,
    max_time: Duration,
    jobs: usize,
    say: &mut dyn FnMut(String),
) {
    for (meta_path, meta) in super::reduction_order(Store::list_in(out)) {
        if stop_flag().load(Relaxed) {
            break;
        }
        let Some(dir) = meta_path.parent().filter(|_| meta.reduction.is_none()) else { continue };
        let opts = crate::reduce::Options { jobs, time: Some(each), stop: Some(stop_flag()), ..Default::default() };
        say(match crate::reduce::reduce_finding(dir, &solvers(dir), ladder, &opts, max_time) {
            Ok(r) => format!(
                "reduced {} {}: {} -> {} bytes in {:.1}s",
                meta.kind, meta.id, r.original_bytes, r.reduced_bytes, r.seconds
            ),
            Err(e) => format!("not reduced {} {}: {e}", meta.kind, meta.id),
        });
    }
}
