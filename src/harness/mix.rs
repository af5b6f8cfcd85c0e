//! `storm_target`'s mutator: every engine of the campaign, with STORM at the centre.
//!
//! The campaign's engines found what the targets did not (issue 41: on z3 regression
//! seeds every finding of 30 minutes came from the configuration engine, which no target
//! had). So from libFuzzer's seed the mutator picks, in sixteenths ([`MIX`]): a STORM
//! instance half the time (the user names it), a configuration edit a quarter (tactic
//! pipelines, parameters, cvc5/bitwuzla options, incremental framing), and OpFuzz,
//! TypeFuzz, ValFuzz and BEC one each — applied, half the time each, to the input or to a
//! STORM instance of it. Semantic Fusion needs a second input: it is half of the crossover
//! hook ([`crossover`]), with a partner of the same satisfiability.
//!
//! Oracles compose with the edits: a configuration edit changes how an instance is
//! asked, not what, so an instance asked again through a tactic pipeline (or inside a
//! scope, or under options) keeps its witness line and its sat-by-construction oracle —
//! any `unsat` is a bug with no second solver. A formula edit on an instance drops the
//! witness (the differential oracle judges the mutant). A fusion child carries a first
//! line [`FUSED`] with its status by construction.
//!
//! Deterministic: the same input and seed give the same output (STORM's pools and BEC's
//! answers are the reference's, cached per seed and query).

use super::engines::{self, NO_MODEL};
use super::runner::{Harness, IN_PROCESS_Z3};
use crate::mutate::edit::Edit;
use crate::mutate::{storm, Engine};
use crate::smtlib::{self, Script};
use crate::solver::options::{self, Options};
use crate::solver::{Family, OptionOwners, SolverSpec};

/// The engines of `storm_target`'s mutator, each with its share in sixteenths of the
/// structured mutants.
pub const MIX: [(Engine, u64); 6] = [
    (Engine::Storm, 8),
    (Engine::Config, 4),
    (Engine::OpFuzz, 1),
    (Engine::TypeFuzz, 1),
    (Engine::ValFuzz, 1),
    (Engine::Bec, 1),
];

/// The first line of a fusion child, followed by `sat` or `unsat`: its status by
/// construction ([`crate::mutate::fusion`]).
pub const FUSED: &str = "; smtstorm-fused ";

/// The status a fusion child's first line gives (`true`: sat).
pub fn read_fused(text: &str) -> Option<bool> {
    match text.lines().next()?.strip_prefix(FUSED)?.trim() {
        "sat" => Some(true),
        "unsat" => Some(false),
        _ => None,
    }
}

/// The engine `seed` picks from [`MIX`].
fn pick(seed: u32) -> (Engine, bool) {
    let r = crate::util::hash::mix(&[seed as u64, 0x6d69_78]);
    let mut x = r % 16;
    let on_instance = (r >> 32) & 1 == 0;
    for (e, share) in MIX {
        if x < share {
            return (e, on_instance);
        }
        x -= share;
    }
    (Engine::Storm, on_instance)
}

/// One structured mutant of `data` (at most `max_size` bytes) and the engine that made
/// it; `None` when no engine could (libFuzzer's byte mutation then runs).
pub fn mutate(h: &mut Harness, data: &[u8], seed: u32, max_size: usize) -> Option<(Engine, Vec<u8>)> {
    let storm = |h: &mut Harness| engines::mutate_in(h, Engine::Storm, data, seed, max_size).map(|m| (Engine::Storm, m));
    let (engine, on_instance) = pick(seed);
    if engine == Engine::Storm {
        return storm(h);
    }
    // The base: the input itself, or one of its STORM instances (a seed without a model
    // has none: its STORM mutants are operator mutants, marked).
    let instance = (on_instance && !data.starts_with(NO_MODEL.as_bytes()))
        .then(|| engines::mutate_in(h, Engine::Storm, data, seed.rotate_left(16), max_size))
        .flatten()
        .filter(|m| witness_of(m).is_some());
    let base = instance.as_deref().unwrap_or(data);
    let made = match engine {
        Engine::Config => configured(h, base, seed, max_size),
        // An ill-sorted input gives STORM nothing, and nothing here either.
        Engine::Bec => engines::mutate_in(h, Engine::Bec, base, seed, max_size),
        e => engines::mutate_in(h, e, base, seed, max_size),
    };
    match made {
        Some(m) => Some((engine, m)),
        None => storm(h),
    }
}

fn witness_of(data: &[u8]) -> Option<Vec<(String, String)>> {
    std::str::from_utf8(data).ok().and_then(storm::read_witness)
}

/// A configuration mutant of `data` from the harness's tables. An instance keeps its
/// witness line when every edit is a configuration edit (it asks the same assertions).
fn configured(h: &Harness, data: &[u8], seed: u32, max_size: usize) -> Option<Vec<u8>> {
    let s = smtlib::parse_bytes(data).ok()?;
    let (edits, m) = engines::edited(Engine::Config, &s, &h.options, seed)?;
    let config_only =
        edits.iter().all(|e| matches!(e, Edit::AskAgain { .. } | Edit::SetOptions { .. } | Edit::PushSplit { .. }));
    let text = smtlib::print(&m);
    let text = match witness_of(data).filter(|_| config_only) {
        Some(w) => format!("{}\n{text}", storm::witness_line(&w)),
        None => text,
    };
    (text.len() <= max_size).then(|| text.into_bytes())
}

/// `x`'s satisfiability as far as it is known without asking: a fusion child's, a STORM
/// instance's (sat), the `:status` it gives; else sat when the reference has a model of
/// it (STORM's pools, cached per seed).
fn status(h: &mut Harness, x: &[u8], s: &Script) -> Option<bool> {
    let text = std::str::from_utf8(x).ok()?;
    if let Some(sat) = read_fused(text) {
        return Some(sat);
    }
    if storm::read_witness(text).is_some() {
        return Some(true);
    }
    match s.status() {
        Some("sat") => return Some(true),
        Some("unsat") => return Some(false),
        _ => {}
    }
    if text.starts_with(NO_MODEL) {
        return None;
    }
    let bounds = storm::Bounds { amax: 4, nc: 64, max_formula_bytes: 512, ..Default::default() };
    h.pools(s, &bounds).map(|_| true)
}

/// `storm_target`'s crossover: half the time a Semantic Fusion of the two inputs when
/// their satisfiability is known and the same (its status on the first line), else (and
/// when they do not fuse) [`engines::crossover`]. The engine is `None` for the latter.
pub fn crossover(h: &mut Harness, a: &[u8], b: &[u8], seed: u32, max_size: usize) -> Option<(Option<Engine>, Vec<u8>)> {
    if crate::util::hash::mix(&[seed as u64, 0x6675_7365]) & 1 == 0 {
        if let Some(m) = fused(h, a, b, seed, max_size) {
            return Some((Some(Engine::Fusion), m));
        }
    }
    engines::crossover(a, b, seed, max_size).map(|m| (None, m))
}

/// A fusion of `a` with the partner `b` (same status), marked with [`FUSED`].
fn fused(h: &mut Harness, a: &[u8], b: &[u8], seed: u32, max_size: usize) -> Option<Vec<u8>> {
    let (sa, sb) = (smtlib::parse_bytes(a).ok()?, smtlib::parse_bytes(b).ok()?);
    let sat = status(h, a, &sa)?;
    if status(h, b, &sb)? != sat {
        return None;
    }
    let partner = crate::mutate::Partner { script: &sb, path: "libfuzzer-partner".into(), sat };
    let m = engines::fused(&sa, partner, seed)?;
    let text = format!("{FUSED}{}\n{}", if sat { "sat" } else { "unsat" }, smtlib::print(&m));
    (text.len() <= max_size).then(|| text.into_bytes())
}

/// The configuration engine's space for the harness's solvers, as a campaign builds it:
/// the tactics (with parameters) every z3 release lists, and the options of the cvc5 and
/// bitwuzla releases, each read by the one family whose table lists it. Tables come from
/// the cache beside each release ([`options::extract_cached`]); a release that cannot be
/// asked leaves its family's part empty (the engine then frames incrementally, which
/// every solver reads), and says so once.
pub fn configuration_space(specs: &[SolverSpec]) -> (Options, OptionOwners) {
    let mut owners = OptionOwners::default();
    let mut table_of = |family: Family| -> Options {
        let mut tables = vec![];
        for spec in specs.iter().filter(|s| s.family == family && s.name != IN_PROCESS_Z3) {
            match options::extract_cached(spec) {
                Ok((o, _)) => {
                    o.add_owners(family, &mut owners);
                    tables.push(o);
                }
                Err(e) => {
                    eprintln!("smtstorm: no option table of {} ({e}): its configuration edits are off", spec.name);
                    return Options::default();
                }
            }
        }
        options::intersect(&tables)
    };
    let z3 = table_of(Family::Z3);
    let (cvc5, bitwuzla) = (table_of(Family::Cvc5), table_of(Family::Bitwuzla));
    let set_options = [(Family::Cvc5, cvc5), (Family::Bitwuzla, bitwuzla)]
        .into_iter()
        .flat_map(|(f, o)| o.set_options.into_iter().map(move |p| (f, p)))
        .filter(|(f, p)| owners.owner(&format!(":{}", p.name)) == Some(*f))
        .map(|(_, p)| p)
        .collect();
    (Options { tactics: z3.tactics, set_options, ..Default::default() }, owners)
}

impl Harness {
    /// Reads the configuration space of its solvers once ([`configuration_space`]); every
    /// solver then knows which options are whose (what it is sent leaves out the others').
    pub fn load_options(&mut self) {
        let (o, owners) = configuration_space(&self.specs);
        self.options = o;
        for s in &mut self.specs {
            s.option_owners.merge(&owners);
        }
    }
}
