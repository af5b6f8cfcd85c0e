//! ValFuzz's Boolean Expression Coercion (Wolff, "Testing SMT solvers by mutating
//! values", 2021): constants become holes, chosen closed Boolean sub-terms are forced
//! true or false, and a reference solver's model gives the hole values that make them so
//! (the algorithm is described on [`super::valfuzz`]).

use super::choice::Choices;
use super::edit::{self, Edit};
use super::valfuzz::{ConstKind, Prepared};
use crate::smtlib::ast::*;
use crate::smtlib::printer::{print_command_with, term_with};
use crate::smtlib::sort::{SortKind, SortRef};
use std::collections::BTreeSet;

/// Boolean Expression Coercion on one seed: holes and monitors.
pub struct BecPlan {
    /// (site index, hole name, hole sort text).
    pub holes: Vec<(usize, String, String)>,
    /// Nodes of the monitored closed Boolean sub-terms (each contains a hole).
    pub monitors: Vec<usize>,
}

impl BecPlan {
    fn overrides<'a>(&'a self, p: &Prepared) -> Vec<(TermId, &'a str)> {
        self.holes.iter().map(|(i, name, _)| (p.scope.nodes[p.sites[*i].node].term, name.as_str())).collect()
    }

    /// The query forcing `forced` monitors (index into `monitors`, polarity): the seed's
    /// declarations and definitions with holes for constants, the coercions, then
    /// `(get-value (holes... monitors...))`. Assertions themselves are left out: they
    /// only enter through their monitored sub-terms. No `set-logic`: see below.
    pub fn query(&self, p: &Prepared, forced: &[(usize, bool)]) -> String {
        self.query_blocking(p, forced, &[])
    }

    /// [`BecPlan::query`] that also excludes earlier hole vectors (blocking clauses), so
    /// a deterministic solver cannot hand back the same constants again.
    pub fn query_blocking(&self, p: &Prepared, forced: &[(usize, bool)], blocked: &[Vec<String>]) -> String {
        let s = p.script;
        let ov = self.overrides(p);
        let mut out = String::from("(set-option :produce-models true)\n");
        let mut declared = false;
        let declare = |out: &mut String| {
            for (_, name, sort) in &self.holes {
                out.push_str(&format!("(declare-const {name} {sort})\n"));
            }
        };
        for c in &s.commands {
            // The commands a recombined script keeps, without `:status` and without the
            // logic: holes turn coefficients into unknowns (`(* 3 x)` becomes nonlinear).
            if !edit::kept_by_recombine(&c.kind) || s.is_status(&c.kind) || matches!(c.kind, CommandKind::SetLogic(_)) {
                continue;
            }
            // Definitions may use holes: declare them first.
            let definition = matches!(
                c.kind,
                CommandKind::DefineFun { .. } | CommandKind::DefineFunsRec(..) | CommandKind::DefineConst(..)
            );
            if definition && !declared {
                declare(&mut out);
                declared = true;
            }
            out.push_str(&print_command_with(s, &c.kind, &ov));
            out.push('\n');
        }
        if !declared {
            declare(&mut out);
        }
        for (i, name, sort) in &self.holes {
            if p.sites[*i].divisor {
                let zero = if sort == "Real" { "0.0" } else { "0" };
                out.push_str(&format!("(assert (distinct {name} {zero}))\n"));
            }
        }
        for &(m, pol) in forced {
            let t = term_with(s, p.scope.nodes[self.monitors[m]].term, &ov);
            if pol {
                out.push_str(&format!("(assert {t})\n"));
            } else {
                out.push_str(&format!("(assert (not {t}))\n"));
            }
        }
        for vals in blocked {
            out.push_str("(assert (not (and");
            for ((_, name, _), v) in self.holes.iter().zip(vals) {
                out.push_str(&format!(" (= {name} {v})"));
            }
            out.push_str(")))\n");
        }
        out.push_str("(check-sat)\n(get-value (");
        let mut first = true;
        for (_, name, _) in &self.holes {
            if !first {
                out.push(' ');
            }
            first = false;
            out.push_str(name);
        }
        for &m in &self.monitors {
            out.push(' ');
            out.push_str(&term_with(s, p.scope.nodes[m].term, &ov));
        }
        out.push_str("))\n");
        out
    }

    /// The mutant for the values of a `get-value` answer (holes first, in order): one
    /// `ReplaceConstant` per constant whose value changed. `None` if nothing changed or
    /// the mutant does not check.
    pub fn mutant(&self, p: &Prepared, values: &[(String, String)]) -> Option<(Vec<Edit>, Script)> {
        let mut edits = vec![];
        for ((i, _, _), (_, v)) in self.holes.iter().zip(values) {
            let site = &p.sites[*i];
            let old = p.text(site);
            let v = normalise_value(v, site.kind);
            if v != old {
                edits.push(Edit::ReplaceConstant { at: p.scope.path(site.node), value: v });
            }
        }
        if edits.is_empty() {
            return None;
        }
        edit::apply_with_baseline(p.script, &edits, p.baseline).ok().map(|m| (edits, m))
    }
}

/// Plans BEC for a seed: every Int/Real (in arithmetic position), bit-vector and string
/// constant of an assertion or definition becomes a hole; up to `max_monitors` closed
/// Boolean sub-terms of the assertions that contain a hole are monitored.
pub fn bec_plan(p: &Prepared, max_monitors: usize, choices: &mut impl Choices) -> Option<BecPlan> {
    let s = p.script;
    let mut holes = vec![];
    for (i, site) in p.sites.iter().enumerate() {
        let n = &p.scope.nodes[site.node];
        let in_body = matches!(
            s.commands[n.cmd as usize].kind,
            CommandKind::Assert(_) | CommandKind::DefineFun { .. } | CommandKind::DefineConst(..)
        );
        let sort = match p.checked.sorts.kind(n.sort) {
            SortKind::Int if site.arithmetic => "Int".to_string(),
            SortKind::Real if site.arithmetic => "Real".to_string(),
            SortKind::BitVec(w) => format!("(_ BitVec {w})"),
            SortKind::String => "String".to_string(),
            _ => continue,
        };
        if in_body
            && matches!(
                site.kind,
                ConstKind::Numeral
                    | ConstKind::Decimal
                    | ConstKind::Binary(_)
                    | ConstKind::Hex(_)
                    | ConstKind::BvIndexed(_)
                    | ConstKind::String
            )
        {
            holes.push((i, format!("smtstorm_hole_{}", holes.len()), sort));
        }
    }
    if holes.is_empty() {
        return None;
    }
    let hole_nodes: BTreeSet<usize> = holes.iter().map(|h| p.sites[h.0].node).collect();
    let mut cands = vec![];
    for (i, n) in p.scope.nodes.iter().enumerate() {
        if n.sort == SortRef::BOOL
            && !n.named()
            && n.size <= 256
            && matches!(s.commands[n.cmd as usize].kind, CommandKind::Assert(_))
            && hole_nodes.range(i..i + n.size as usize).next().is_some()
            && p.scope.free_locals(s, i).is_empty()
        {
            cands.push(i);
        }
    }
    let mut monitors = vec![];
    while !cands.is_empty() && monitors.len() < max_monitors {
        monitors.push(cands.remove(choices.below(cands.len())?));
    }
    monitors.sort_unstable();
    if monitors.is_empty() {
        return None;
    }
    Some(BecPlan { holes, monitors })
}

/// A solver's value printed the way the seed wrote the constant: bit-vectors keep the
/// seed's notation (`#x` stays `#x` when the width allows), decimals stay decimals.
fn normalise_value(v: &str, kind: ConstKind) -> String {
    let v = v.trim();
    let bits = |v: &str| -> Option<Vec<bool>> {
        if let Some(b) = v.strip_prefix("#b") {
            return Some(b.bytes().map(|c| c == b'1').collect());
        }
        if let Some(h) = v.strip_prefix("#x") {
            return Some(
                h.chars()
                    .flat_map(|c| {
                        let d = c.to_digit(16).unwrap_or(0);
                        (0..4).rev().map(move |i| d >> i & 1 == 1)
                    })
                    .collect(),
            );
        }
        None
    };
    match kind {
        ConstKind::Binary(_) => bits(v)
            .map(|b| format!("#b{}", b.iter().map(|&x| if x { '1' } else { '0' }).collect::<String>()))
            .unwrap_or_else(|| v.to_string()),
        ConstKind::Hex(n) => match bits(v) {
            Some(b) if b.len() == n * 4 => format!(
                "#x{}",
                b.chunks(4)
                    .map(|ch| char::from_digit(ch.iter().fold(0, |a, &x| a * 2 + x as u32), 16).unwrap())
                    .collect::<String>()
            ),
            _ => v.to_string(),
        },
        ConstKind::Decimal if !v.contains('.') && !v.contains('/') => {
            // `3` or `(- 3)` from a solver, for a site written as a decimal.
            if let Some(inner) = v.strip_prefix("(- ").and_then(|x| x.strip_suffix(')')) {
                format!("(- {inner}.0)")
            } else {
                format!("{v}.0")
            }
        }
        _ => v.to_string(),
    }
}

/// Hole vectors excluded per query (the most recent ones).
pub const MAX_BLOCKED: usize = 32;

/// Outcome of one BEC round.
#[derive(Clone, Debug)]
pub enum BecAnswer {
    /// `sat`, with the `get-value` pairs.
    Values(Vec<(String, String)>),
    /// `unsat`: the coercion is impossible.
    Impossible,
    /// Anything else (unknown, timeout, error): the coercion is given up.
    GaveUp,
}

/// Runs `rounds` BEC rounds. Each round forces one (monitor, polarity) not yet seen (or
/// shown impossible) plus up to two random others; once all are covered, random ones.
/// Returns the mutants, in order.
pub fn bec(
    p: &Prepared,
    plan: &BecPlan,
    rounds: usize,
    choices: &mut impl Choices,
    solve: &mut dyn FnMut(&str) -> BecAnswer,
) -> Vec<(Vec<Edit>, Script)> {
    let m = plan.monitors.len();
    let mut covered = vec![[false; 2]; m];
    let mut out = vec![];
    let mut blocked: Vec<Vec<String>> = vec![];
    for _ in 0..rounds {
        let open: Vec<(usize, bool)> =
            (0..m).flat_map(|i| [(i, false), (i, true)]).filter(|&(i, pol)| !covered[i][pol as usize]).collect();
        // Once every monitor was seen both ways, keep coercing random subsets: each
        // round still yields constants under which a chosen structure holds.
        let open = if open.is_empty() { (0..m).flat_map(|i| [(i, false), (i, true)]).collect() } else { open };
        let Some(k) = choices.below(open.len()) else { break };
        let mut forced = vec![open[k]];
        for _ in 0..2 {
            let (Some(i), Some(pol)) = (choices.below(m), choices.below(2)) else { break };
            if !forced.iter().any(|f| f.0 == i) {
                forced.push((i, pol == 1));
            }
        }
        let q = plan.query_blocking(p, &forced, &blocked[blocked.len().saturating_sub(MAX_BLOCKED)..]);
        match solve(&q) {
            BecAnswer::Values(vals) => {
                blocked.push(vals.iter().take(plan.holes.len()).map(|(_, v)| v.clone()).collect());
                for (i, (_, v)) in vals.iter().skip(plan.holes.len()).enumerate().take(m) {
                    match v.trim() {
                        "true" => covered[i][1] = true,
                        "false" => covered[i][0] = true,
                        _ => {}
                    }
                }
                let (i, pol) = open[k];
                covered[i][pol as usize] = true;
                if let Some(mt) = plan.mutant(p, &vals) {
                    out.push(mt);
                }
            }
            BecAnswer::Impossible | BecAnswer::GaveUp => {
                let (i, pol) = open[k];
                covered[i][pol as usize] = true;
            }
        }
    }
    out
}

/// Boolean Expression Coercion as a [`super::Mutator`]: on ValFuzz's preparation of the
/// seed (its constant sites), the plan (holes and monitored sub-terms) is the seed's own
/// and the rounds vary by turn; a turn's mutants are made at once, one reference query a
/// round ([`super::Ctx::batch`] rounds), and handed out one by one.
#[derive(Default)]
pub struct Bec<'s> {
    seed: Option<Prepared<'s>>,
    made: std::collections::VecDeque<(Vec<Edit>, Script)>,
    solvers: &'s [crate::solver::SolverSpec],
}

impl<'s> super::Mutator<'s> for Bec<'s> {
    fn prepare(&mut self, seed: &'s Script, ctx: &mut super::Ctx<'s, '_>) -> Result<(), super::Skip> {
        self.solvers = ctx.solvers;
        self.made.clear();
        let p = self.seed.get_or_insert_with(|| Prepared::new(seed));
        let Some(r) = ctx.reference.as_mut().filter(|_| ctx.reference_reads) else { return Ok(()) };
        let Some(plan) = bec_plan(p, 16, &mut super::choice::Rng::new((ctx.seed_draw)(0xbec))) else { return Ok(()) };
        let mut rng = super::choice::Rng::new(ctx.turn_draw);
        self.made = bec(p, &plan, ctx.batch, &mut rng, &mut |q| r.bec_answer(q)).into();
        Ok(())
    }
    /// The turn's next mutant (its draw was the turn's, at [`super::Mutator::prepare`]).
    fn mutate(&mut self, rng_seed: u64) -> Option<super::Mutant> {
        let (edits, m) = self.made.pop_front()?;
        // Its edits do not replay from the seed alone: the script is always kept.
        Some(super::Mutant::of_script(self.solvers, rng_seed, edits, m, false))
    }
}
