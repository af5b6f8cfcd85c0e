//! BanditFuzz's mutation (Scott et al., FM 2021, §3): insert a construct the agent chose
//! at a node of the best script whose sort the construct produces, keeping the depth
//! within the grammar's. The edit is an [`Edit::InsertConstruct`], so it replays.

use super::Grammar;
use crate::mutate::choice::{Choices, Rng};
use crate::mutate::edit::{self, Edit, Path as EditPath};
use crate::mutate::opfuzz::NONLINEAR;
use crate::smtlib::ast::{CommandKind, Term};
use crate::smtlib::check;
use crate::smtlib::sort::SortRef;
use crate::smtlib::{parse, print};

/// Positions of the best script where a construct may go: assertion nodes with their
/// depth and grammar sort.
pub struct Sites {
    /// (path, depth, grammar sort) of each node.
    pub nodes: Vec<(EditPath, usize, SortRef)>,
    /// The first fresh quantifier index (`q<N>`).
    pub next_bound: usize,
}

/// The sites of `text`, a script of grammar `g`.
pub fn sites(g: &Grammar, text: &str) -> Option<Sites> {
    let s = parse(text).ok()?;
    let c = check::check(&s);
    let mut nodes = vec![];
    // Positions the grammar fills with literals only (factors and divisors in linear
    // arithmetic, `re.range` bounds) stay literals: cvc5 rejects anything else there.
    let mut frozen: std::collections::HashSet<Vec<u32>> = std::collections::HashSet::new();
    for (path, t) in edit::walk(&s) {
        let cmd = path.0[0] as usize;
        if !matches!(s.commands[cmd].kind, CommandKind::Assert(_)) {
            continue;
        }
        if let Term::App(q, args) = *s.term(t) {
            let op = s.str(q.ident.sym);
            let from = if op == "re.range" {
                0
            } else if g.config.linear && NONLINEAR.contains(&op) {
                1
            } else {
                usize::MAX
            };
            for i in from..s.term_list(args).len() {
                let mut p = path.0.clone();
                p.push(i as u32);
                frozen.insert(p);
            }
        }
        if frozen.contains(&path.0) {
            continue;
        }
        let Some(sort) = g.sort_named(&c.sorts.display(c.sort_of(t))) else { continue };
        let depth = path.0.len() - 2;
        nodes.push((path, depth, sort));
    }
    // Fresh quantifier names continue after the highest `q<N>` in use.
    let next_bound = text
        .match_indices("(q")
        .filter_map(|(i, _)| text[i + 2..].split(|ch: char| !ch.is_ascii_digit()).next()?.parse::<usize>().ok())
        .max()
        .map_or(0, |m| m + 1);
    Some(Sites { nodes, next_bound })
}

/// Inserts `op` at a random node of a fitting sort (depth kept within the grammar's).
pub fn insert(g: &Grammar, best: &str, sites: &Sites, op: &str, rng: &mut Rng) -> Option<(Edit, String)> {
    let results = g.results_of(op);
    let fits: Vec<&(EditPath, usize, SortRef)> =
        sites.nodes.iter().filter(|(_, d, s)| *d < g.config.depth && results.contains(s)).collect();
    if fits.is_empty() {
        return None;
    }
    let (path, depth, sort) = fits[rng.below(fits.len())?];
    let with = g.rooted(op, Some(*sort), g.config.depth - depth, sites.next_bound, rng)?;
    let e = Edit::InsertConstruct { at: path.clone(), construct: op.to_string(), with };
    let seed = parse(best).ok()?;
    let m = edit::apply(&seed, std::slice::from_ref(&e)).ok()?;
    Some((e, print(&m)))
}
