//! BanditFuzz's mutation (Scott et al., FM 2021, §3): insert a construct the agent chose
//! at a node of the best script whose sort the construct produces, keeping the depth
//! within the grammar's. The edit is an [`Edit::InsertConstruct`], so it replays.

use super::Grammar;
use crate::mutate::choice::{Choices, Rng};
use crate::mutate::edit::{self, Edit};
use crate::mutate::opfuzz::NONLINEAR;
use crate::smtlib::ast::{CommandKind, Term};
use crate::smtlib::check;
use crate::smtlib::sort::SortRef;
use crate::smtlib::{parse, print};

/// Positions of the best script where a construct may go: assertion nodes with their
/// depth and grammar sort.
pub struct Sites {
    /// The script's walk: a chosen node's path comes from it.
    pub walk: edit::Walk,
    /// (walk index, depth, grammar sort) of each node.
    pub nodes: Vec<(usize, usize, SortRef)>,
    /// The first fresh quantifier index (`q<N>`).
    pub next_bound: usize,
}

/// The sites of `text`, a script of grammar `g`.
pub fn sites(g: &Grammar, text: &str) -> Option<Sites> {
    let s = parse(text).ok()?;
    let c = check::check(&s);
    let walk = edit::walk(&s);
    let mut nodes = vec![];
    // Depth below the command's term; a parent comes before its children in pre-order.
    let mut depth = vec![0usize; walk.nodes.len()];
    for (i, v) in walk.nodes.iter().enumerate() {
        if !matches!(s.commands[v.cmd as usize].kind, CommandKind::Assert(_)) {
            continue;
        }
        if v.parent != edit::ROOT {
            let parent = walk.nodes[v.parent as usize].term;
            depth[i] = depth[v.parent as usize] + 1;
            // Positions the grammar fills with literals only (factors and divisors in
            // linear arithmetic, `re.range` bounds) stay literals: cvc5 rejects anything
            // else there.
            if let Term::App(q, _) = *s.term(parent) {
                let op = s.str(q.ident.sym);
                let from = if op == "re.range" {
                    0
                } else if g.config.linear && NONLINEAR.contains(&op) {
                    1
                } else {
                    u32::MAX
                };
                if v.pos >= from {
                    continue;
                }
            }
        }
        let Some(sort) = g.sort_named(&c.sorts.display(c.sort_of(v.term))) else { continue };
        nodes.push((i, depth[i], sort));
    }
    // Fresh quantifier names continue after the highest `q<N>` in use.
    let next_bound = text
        .match_indices("(q")
        .filter_map(|(i, _)| text[i + 2..].split(|ch: char| !ch.is_ascii_digit()).next()?.parse::<usize>().ok())
        .max()
        .map_or(0, |m| m + 1);
    Some(Sites { walk, nodes, next_bound })
}

/// Inserts `op` at a random node of a fitting sort (depth kept within the grammar's).
pub fn insert(g: &Grammar, best: &str, sites: &Sites, op: &str, rng: &mut Rng) -> Option<(Edit, String)> {
    let results = g.results_of(op);
    let fits: Vec<&(usize, usize, SortRef)> =
        sites.nodes.iter().filter(|(_, d, s)| *d < g.config.depth && results.contains(s)).collect();
    if fits.is_empty() {
        return None;
    }
    let (node, depth, sort) = fits[rng.below(fits.len())?];
    let with = g.rooted(op, Some(*sort), g.config.depth - depth, sites.next_bound, rng)?;
    let e = Edit::InsertConstruct { at: sites.walk.path(*node), construct: op.to_string(), with };
    let seed = parse(best).ok()?;
    let m = edit::apply(&seed, std::slice::from_ref(&e)).ok()?;
    Some((e, print(&m)))
}
