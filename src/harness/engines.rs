//! Structure-aware mutation for libFuzzer's `fuzz_mutator!`/`fuzz_crossover!` (and the
//! AFL++ custom mutator): the input is parsed, an engine picks an edit from the fuzzer's
//! seed, and the mutant is printed back. Deterministic: the same input and seed give the
//! same output, as libFuzzer requires. `None` means "no structured mutant" — the target
//! then falls back to libFuzzer's byte mutation.

use super::runner::Harness;
use crate::mutate::choice::{Choices, Rng};
use crate::mutate::edit::Edit;
use crate::mutate::{storm, Construction, Ctx, Engine, Mutant, Mutator, Reference};
use crate::smtlib::ast::CommandKind;
use crate::smtlib::{self, Script};
use std::sync::Arc;

/// The witness line of an input, if it has one.
fn witness_of(data: &[u8]) -> Option<Vec<(String, String)>> {
    std::str::from_utf8(data).ok().and_then(storm::read_witness)
}

/// One structured mutant of `data` by `engine`, at most `max_size` bytes, made through the
/// engine's [`Mutator`] (as a campaign makes it). For STORM the input is taken as a seed:
/// an instance is generated from the reference's model of it (pools cached per seed, in
/// the process-global harness) and carries its witness line.
pub fn mutate(engine: Engine, data: &[u8], seed: u32, max_size: usize) -> Option<Vec<u8>> {
    if matches!(engine, Engine::Storm | Engine::Bec) {
        return mutate_in(&mut super::runner::harness(), engine, data, seed, max_size);
    }
    mutant_of(engine, &smtlib::parse_bytes(data).ok()?, seed, max_size)
}

/// [`mutate`] by a non-STORM engine, of the parsed input, through the engine's
/// [`crate::mutate::Mutator`]. The configuration engine has no option tables here and
/// fusion no partner: neither makes a mutant in the harness.
fn mutant_of(engine: Engine, s: &Script, seed: u32, max_size: usize) -> Option<Vec<u8>> {
    if engine == Engine::Config {
        return None;
    }
    let options = crate::solver::options::Options::default();
    let bounds = storm::Bounds::default();
    let no_draw = |_| 0;
    let mut ctx = ctx(&options, &bounds, &no_draw, seed, None);
    let m = one_mutant(crate::mutate::mutator(engine), s, &mut ctx, seed)?;
    let text = smtlib::print(&m);
    (text.len() <= max_size).then(|| text.into_bytes())
}

/// A mutant of `s` by `engine` (a seed-only or the configuration engine) with the
/// configuration space `options`: its edits and script.
pub(super) fn edited(
    engine: Engine,
    s: &Script,
    options: &crate::solver::options::Options,
    seed: u32,
) -> Option<(Vec<crate::mutate::edit::Edit>, Script)> {
    let bounds = storm::Bounds::default();
    let no_draw = |_| 0;
    let mut ctx = ctx(options, &bounds, &no_draw, seed, None);
    let mut m = crate::mutate::mutator(engine);
    m.prepare(s, &mut ctx).ok()?;
    let x = m.mutate(seed as u64)?;
    let script = m.rebuild(s, &x).ok()?.into_owned();
    Some((x.edits, script))
}

/// A Semantic Fusion of `s` with `partner` (same status), through the engine interface.
pub(super) fn fused(s: &Script, partner: crate::mutate::Partner<'_>, seed: u32) -> Option<Script> {
    let options = crate::solver::options::Options::default();
    let bounds = storm::Bounds::default();
    let no_draw = |_| 0;
    let mut ctx = ctx(&options, &bounds, &no_draw, seed, None);
    ctx.partner = Some(partner);
    one_mutant(crate::mutate::mutator(Engine::Fusion), s, &mut ctx, seed)
}

/// A harness turn's context: no solvers (the mutant's script is printed), one mutant.
fn ctx<'s, 'c>(
    options: &'s crate::solver::options::Options,
    bounds: &'s storm::Bounds,
    seed_draw: &'c dyn Fn(u64) -> u64,
    seed: u32,
    reference: Option<&'c mut dyn crate::mutate::Reference>,
) -> Ctx<'s, 'c> {
    Ctx {
        solvers: &[],
        options,
        storm: bounds,
        batch: 1,
        seed_draw,
        turn_draw: seed as u64,
        reference_reads: reference.is_some(),
        reference,
        partner: None,
        learning: None,
        baseline: vec![],
    }
}

/// The first mutant of `m` readied on `s`, as a script without its `:status`.
fn one_mutant<'s>(mut m: Box<dyn Mutator<'s> + 's>, s: &'s Script, ctx: &mut Ctx<'s, '_>, seed: u32) -> Option<Script> {
    m.prepare(s, ctx).ok()?;
    let x = m.mutate(seed as u64)?;
    m.rebuild(s, &x).ok().map(|c| c.into_owned())
}

/// The first line of an operator mutant made for a seed without STORM instances.
pub const NO_MODEL: &str = "; smtstorm-no-model\n";

/// [`mutate`] with a given harness (its reference session builds STORM's pools).
pub fn mutate_in(h: &mut Harness, engine: Engine, data: &[u8], seed: u32, max_size: usize) -> Option<Vec<u8>> {
    if engine == Engine::Bec {
        // One coercion round; a seed with nothing to coerce (or a reference that gives up)
        // still gets ValFuzz's plain value mutant.
        let s = smtlib::parse_bytes(data).ok()?;
        return bec_mutant(h, &s, data, seed, max_size).or_else(|| mutant_of(Engine::ValFuzz, &s, seed, max_size));
    }
    if engine != Engine::Storm {
        return mutate(engine, data, seed, max_size);
    }
    let t0 = std::time::Instant::now();
    // A seed without a model (unsat, unknown, beyond the reference) has no STORM
    // instances; an operator mutant of it still tests the solvers differentially, where
    // libFuzzer's byte fallback would give an input that never reaches one (measured: with
    // `-max_len=1024`, half of all executions were such rejects). The operator mutant
    // carries a first line saying so: its own mutants rarely have a model either, and
    // asking for one each cost a time limit (measured: 45 % of model queries failed,
    // 9-17 s a minute).
    let known_without = data.starts_with(NO_MODEL.as_bytes());
    let r = smtlib::parse_bytes(data).ok().and_then(|s| {
        let storm = if known_without { None } else { storm_mutant(h, &s, data, seed, max_size) };
        storm.or_else(|| {
            // An ill-sorted input is no STORM seed; the target rejects its mutants too.
            if !crate::smtlib::check::check(&s).diagnostics.is_empty() {
                return None;
            }
            h.stats.storm_fallbacks += 1;
            let m = mutant_of(Engine::OpFuzz, &s, seed, max_size.saturating_sub(NO_MODEL.len()))?;
            Some([NO_MODEL.as_bytes(), &m].concat())
        })
    });
    h.stats.mutate_wall += t0.elapsed();
    r
}

/// A Boolean Expression Coercion mutant of `s` (ValFuzz, Wolff 2021): the plan is the
/// input's own (from its hash), the forced sub-terms come from libFuzzer's seed, and the
/// reference's answers are cached per query ([`Harness::bec_answer`]).
fn bec_mutant(h: &mut Harness, s: &Script, data: &[u8], seed: u32, max_size: usize) -> Option<Vec<u8>> {
    if !crate::smtlib::check::check(s).diagnostics.is_empty() {
        return None;
    }
    let options = crate::solver::options::Options::default();
    let bounds = storm::Bounds::default();
    // The plan is the input's own (from its hash), the forced sub-terms libFuzzer's seed's.
    let plan_seed = crate::util::hash::fnv1a(data);
    let draw = |_| plan_seed;
    let mut ctx = ctx(&options, &bounds, &draw, seed, Some(&mut *h));
    let m = one_mutant(crate::mutate::mutator(Engine::Bec), s, &mut ctx, seed)?;
    let text = smtlib::print(&m);
    h.stats.bec_mutants += 1;
    (text.len() <= max_size).then(|| text.into_bytes())
}

/// The reference as STORM asks it in the harness: an instance (its witness line read)
/// gives its own pools, valued by the witness at no solver cost
/// ([`storm::Pools::from_instance`]); a seed asks the harness's reference session, once
/// per seed text ([`Harness`] as a [`Reference`]).
struct StormReference<'h> {
    h: &'h mut Harness,
    witness: Option<Vec<(String, String)>>,
}

impl Reference for StormReference<'_> {
    fn bec_answer(&mut self, query: &str) -> crate::mutate::bec::BecAnswer {
        self.h.bec_answer(query)
    }
    fn pools(&mut self, seed: &Script, bounds: &storm::Bounds, rng_seed: u64) -> Option<Arc<storm::Pools>> {
        match self.witness.take() {
            Some(w) => {
                let own = storm::Pools::from_instance(seed, w, bounds, &mut Rng::new(rng_seed))?;
                self.h.stats.pools_from_witness += 1;
                Some(Arc::new(own))
            }
            None => Reference::pools(&mut *self.h, seed, bounds, rng_seed),
        }
    }
}

/// A STORM instance of `s` (whose text is `data`), through the engine interface, under
/// its witness line.
fn storm_mutant(h: &mut Harness, s: &Script, data: &[u8], seed: u32, max_size: usize) -> Option<Vec<u8>> {
    // Small instances: libFuzzer needs many fast executions, and each corpus instance is
    // mutated by re-fragmenting *it*, so formulas of up to 8 KB (the campaign's bound)
    // would compound into instances z3 needs 70 ms for (measured under libFuzzer, push/pop).
    // Depth and breadth come from the corpus' evolution instead of from one instance.
    let bounds = storm::Bounds { amax: 4, nc: 64, max_formula_bytes: 512, ..Default::default() };
    let options = crate::solver::options::Options::default();
    // An instance (it carries its witness) is re-mutated from its own structure, its
    // fragments drawn from its text's hash; a seed needs the reference's model once.
    let key = crate::util::hash::fnv1a(data);
    let draw = |_| key;
    let mut reference = StormReference { h, witness: witness_of(data) };
    let mut ctx = ctx(&options, &bounds, &draw, seed, Some(&mut reference));
    let mut m = crate::mutate::mutator(Engine::Storm);
    m.prepare(s, &mut ctx).ok()?;
    let mut x = m.mutate(seed as u64)?;
    let Construction::Witness(w) = m.construction() else { return None };
    let line = storm::witness_line(w);
    let text = |x: &Mutant| Some(format!("{line}\n{}", smtlib::print(&*m.rebuild(s, x).ok()?)));
    let mut t = text(&x)?;
    if t.len() > max_size {
        // Too long for libFuzzer's current length limit: keep a prefix of the assertions
        // that fits (each one is satisfied by the witness on its own).
        if let Some(Edit::Recombine { assertions: a, .. }) = x.edits.first_mut() {
            let mut excess = t.len() - max_size;
            while excess > 0 && a.len() > 1 {
                let last = a.pop()?;
                excess = excess.saturating_sub(last.len() + "(assert )\n".len());
            }
        }
        t = text(&x)?;
    }
    (t.len() <= max_size).then(|| t.into_bytes())
}

/// Commands a crossover keeps from its inputs: everything but queries and `exit`.
fn is_context(k: &CommandKind) -> bool {
    !matches!(
        k,
        CommandKind::Assert(_)
            | CommandKind::Nullary(_)
            | CommandKind::CheckSatAssuming(_)
            | CommandKind::GetValue(_)
            | CommandKind::Push(_)
            | CommandKind::Pop(_)
    )
}

/// The name a declaration or definition introduces, if any.
fn declared(s: &Script, k: &CommandKind) -> Option<String> {
    match *k {
        CommandKind::DeclareConst(n, _)
        | CommandKind::DeclareFun(n, ..)
        | CommandKind::DeclareSort(n, _)
        | CommandKind::DefineSort(n, ..)
        | CommandKind::DefineConst(n, ..)
        | CommandKind::DeclareDatatype(n, _) => Some(s.sym(n).to_string()),
        CommandKind::DefineFun { decl, .. } => Some(s.sym(decl.name).to_string()),
        _ => None,
    }
}

/// Crossover: the context (logic, options, declarations) of both inputs and a random
/// selection of the assertions of both, then one `(check-sat)`. A name both declare must
/// be declared identically. For STORM inputs both witnesses must agree on shared
/// constants; the merged witness then satisfies every assertion taken, so the child is
/// satisfiable by construction too.
pub fn crossover(a: &[u8], b: &[u8], seed: u32, max_size: usize) -> Option<Vec<u8>> {
    let sa = smtlib::parse_bytes(a).ok()?;
    let sb = smtlib::parse_bytes(b).ok()?;
    let witness = match (witness_of(a), witness_of(b)) {
        (Some(wa), Some(wb)) => {
            let mut w = wa.clone();
            for (k, v) in wb {
                match wa.iter().find(|(x, _)| *x == k) {
                    Some((_, va)) if *va != v => return None,
                    Some(_) => {}
                    None => w.push((k, v)),
                }
            }
            Some(w)
        }
        (None, None) => None,
        _ => return None,
    };
    let mut rng = Rng::new(seed as u64);
    let mut out = String::new();
    if let Some(w) = &witness {
        out.push_str(&storm::witness_line(w));
        out.push('\n');
    }
    let mut names: Vec<(String, String)> = vec![];
    let logic = match (sa.logic(), sb.logic()) {
        (Some(x), Some(y)) if x == y => Some(x.to_string()),
        (None, None) => None,
        _ => Some("ALL".to_string()),
    };
    if let Some(l) = &logic {
        out.push_str(&format!("(set-logic {l})\n"));
    }
    for s in [&sa, &sb] {
        for c in &s.commands {
            if !is_context(&c.kind) || matches!(c.kind, CommandKind::SetLogic(_)) || s.is_status(&c.kind) {
                continue;
            }
            let text = crate::smtlib::printer::print_command_with(s, &c.kind, &[]);
            if let Some(n) = declared(s, &c.kind) {
                match names.iter().find(|(x, _)| *x == n) {
                    Some((_, t)) if *t != text => return None,
                    Some(_) => continue,
                    None => names.push((n, text.clone())),
                }
            }
            out.push_str(&text);
            out.push('\n');
        }
    }
    let asserts = |s: &Script| -> Vec<String> {
        s.commands
            .iter()
            .filter_map(|c| match c.kind {
                CommandKind::Assert(t) => Some(crate::smtlib::printer::term_to_string(s, t)),
                _ => None,
            })
            .collect()
    };
    let (xa, xb) = (asserts(&sa), asserts(&sb));
    if xa.is_empty() || xb.is_empty() {
        return None;
    }
    // At least one assertion from each parent, each other one with probability 1/2.
    let first_a = rng.below(xa.len())?;
    let first_b = rng.below(xb.len())?;
    for (i, t) in xa.iter().enumerate() {
        if i == first_a || rng.below(2)? == 1 {
            out.push_str(&format!("(assert {t})\n"));
        }
    }
    for (i, t) in xb.iter().enumerate() {
        if i == first_b || rng.below(2)? == 1 {
            out.push_str(&format!("(assert {t})\n"));
        }
    }
    out.push_str("(check-sat)\n");
    // The child must be a well-formed, well-sorted script.
    let child = smtlib::parse(&out).ok()?;
    let diags = |s: &Script| crate::smtlib::check::check(s).diagnostics.len();
    if diags(&child) > diags(&sa) + diags(&sb) {
        return None;
    }
    (out.len() <= max_size).then(|| out.into_bytes())
}
