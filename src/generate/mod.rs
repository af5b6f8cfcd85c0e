//! Grammar-based generation of well-sorted scripts (BanditFuzz: Scott, Sudula, Rehman,
//! Mora, Ganesh, "BanditFuzz: Fuzzing SMT Solvers with Multi-agent Reinforcement
//! Learning", FM 2021, §3: "a generator samples well-sorted formulas from the grammar").
//!
//! The grammar is not written here: every operator comes from the signature table
//! ([`crate::smtlib::theory::SIGNATURES`]), instantiated over the sorts a [`Config`]
//! enables (bit-vector widths, floating-point formats, arrays over those sorts), so a line
//! added to the table is generated the day it is added. On top of the table the generator
//! adds what a script declares itself: an uninterpreted sort with functions (`uf`),
//! a list and an enumeration datatype (`datatypes`), and quantifiers.
//!
//! Generation is deterministic from its [`Choices`]: the CLI passes a seeded [`Rng`],
//! BanditFuzz passes its own seeded generator, a fuzzing harness could pass bytes.
//! Trees are full (every branch reaches the requested depth wherever some construct
//! produces the sort needed); leaves are variables or literals.

pub mod acceptance;
mod config;
mod grammar;
pub mod insert;

pub use config::{parse_features, Config, Feature, GenError, NOT_PORTABLE};
pub use grammar::{Construct, Grammar};

use crate::mutate::choice::{Choices, Rng};
use crate::smtlib::sort::{SortKind, SortRef};
use std::fmt::Write as _;

/// One generation: the grammar plus the quantifier-bound variables in scope.
struct Gen<'a> {
    g: &'a Grammar,
    bound: Vec<(String, SortRef)>,
    next_bound: usize,
}

impl Gen<'_> {
    fn term(&mut self, s: SortRef, depth: usize, c: &mut impl Choices, out: &mut String) -> Option<()> {
        let groups = self.g.by_result.get(&s);
        let quant = s == SortRef::BOOL && depth >= 2 && self.g.config.features.contains(&Feature::Quantifiers);
        let n = groups.map_or(0, |g| g.len()) + if quant { 1 } else { 0 };
        if depth == 0 || n == 0 {
            return self.leaf(s, c, out);
        }
        // Uniform over operator names first, so that `extract`'s many instantiations
        // do not crowd out `bvadd`.
        let pick = c.below(n)?;
        match groups.and_then(|g| g.get(pick)) {
            Some(group) => {
                let k = group[c.below(group.len())?];
                self.apply(k, depth, c, out)
            }
            None => {
                let q = if c.below(2)? == 0 { "forall" } else { "exists" };
                self.quantifier(q, depth, c, out)
            }
        }
    }

    fn apply(&mut self, k: usize, depth: usize, c: &mut impl Choices, out: &mut String) -> Option<()> {
        let k = &self.g.constructs[k];
        let extra = if k.variadic && c.below(4)? == 0 { 1 } else { 0 };
        out.push('(');
        out.push_str(&k.head);
        let last = *k.args.last().expect("non-nullary");
        for (i, &a) in k.args.iter().chain(std::iter::repeat_n(&last, extra)).enumerate() {
            out.push(' ');
            if i >= k.literals_from {
                self.literal(a, i > 0, c, out)?;
            } else {
                self.term(a, depth - 1, c, out)?;
            }
        }
        out.push(')');
        Some(())
    }

    fn quantifier(&mut self, q: &str, depth: usize, c: &mut impl Choices, out: &mut String) -> Option<()> {
        let nvars = 1 + c.below(2)?;
        let _ = write!(out, "({q} (");
        let before = self.bound.len();
        for i in 0..nvars {
            let s = self.g.binders[c.below(self.g.binders.len())?];
            let name = format!("q{}", self.next_bound);
            self.next_bound += 1;
            let _ = write!(out, "{}({name} {})", if i > 0 { " " } else { "" }, self.g.sort_text(s));
            self.bound.push((name, s));
        }
        out.push_str(") ");
        self.term(SortRef::BOOL, depth - 1, c, out)?;
        out.push(')');
        self.bound.truncate(before);
        Some(())
    }

    fn leaf(&mut self, s: SortRef, c: &mut impl Choices, out: &mut String) -> Option<()> {
        let globals = self.g.vars.get(&s).map_or(&[][..], |v| &v[..]);
        let locals: Vec<&str> = self.bound.iter().filter(|(_, b)| *b == s).map(|(n, _)| n.as_str()).collect();
        let nvars = globals.len() + locals.len();
        // Variables two times in three, where there are any.
        if nvars > 0 && c.below(3)? != 0 {
            let i = c.below(nvars)?;
            out.push_str(if i < globals.len() { &globals[i] } else { locals[i - globals.len()] });
            return Some(());
        }
        self.literal(s, false, c, out)
    }

    /// A literal (or nullary constant) of sort `s`; `nonzero` for divisors.
    fn literal(&mut self, s: SortRef, nonzero: bool, c: &mut impl Choices, out: &mut String) -> Option<()> {
        let g = self.g;
        let nullary = g.nullary.get(&s).map_or(&[][..], |v| &v[..]);
        let small = |c: &mut dyn FnMut(usize) -> Option<usize>| -> Option<u64> {
            Some(match c(8)? {
                0..=5 => c(10)? as u64,
                6 => 10 + c(90)? as u64,
                _ => 100 + c(100_000)? as u64,
            })
        };
        match g.sorts.kind(s).clone() {
            SortKind::Bool => out.push_str(["true", "false"][c.below(2)?]),
            SortKind::Int => {
                let mut n = small(&mut |k| c.below(k))?;
                if nonzero && n == 0 {
                    n = 1 + c.below(9)? as u64;
                }
                // Negative values come from the unary `-` construct: a leaf stays a leaf.
                let _ = write!(out, "{n}");
            }
            SortKind::Real => {
                let mut n = small(&mut |k| c.below(k))?;
                let frac = [0, 5, 25, 1][c.below(4)?];
                if nonzero && n == 0 && frac == 0 {
                    n = 1;
                }
                let _ = write!(out, "{n}.{frac}");
            }
            SortKind::BitVec(w) => {
                let mask = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
                let v = match c.below(4)? {
                    0 => 0,
                    1 => 1,
                    2 => mask,
                    _ => ((c.below(1 << 16)? as u64) << 16 | c.below(1 << 16)? as u64) & mask,
                };
                let v = if nonzero && v == 0 { 1 } else { v };
                if w % 4 == 0 && c.below(2)? == 0 {
                    let _ = write!(out, "#x{:0width$x}", v, width = (w / 4) as usize);
                } else if c.below(2)? == 0 {
                    let _ = write!(out, "#b{:0width$b}", v, width = w as usize);
                } else {
                    let _ = write!(out, "(_ bv{v} {w})");
                }
            }
            SortKind::Float(e, sg) => {
                if !nullary.is_empty() && c.below(3)? == 0 {
                    out.push_str(&nullary[c.below(nullary.len())?]);
                } else {
                    let bits = |n: u64, c: &mut dyn FnMut(usize) -> Option<usize>| -> Option<String> {
                        (0..n).map(|_| c(2).map(|b| if b == 1 { '1' } else { '0' })).collect()
                    };
                    let sign = bits(1, &mut |k| c.below(k))?;
                    let exp = bits(e, &mut |k| c.below(k))?;
                    let sig = bits(sg - 1, &mut |k| c.below(k))?;
                    let _ = write!(out, "(fp #b{sign} #b{exp} #b{sig})");
                }
            }
            SortKind::String => {
                const STRS: [&str; 8] = ["", "a", "b", "ab", "0", "10", "aba", "\\u{48}"];
                let _ = write!(out, "\"{}\"", STRS[c.below(STRS.len())?]);
            }
            SortKind::RegLan => {
                if c.below(2)? == 0 && !nullary.is_empty() {
                    out.push_str(&nullary[c.below(nullary.len())?]);
                } else {
                    const STRS: [&str; 4] = ["a", "b", "ab", "0"];
                    let _ = write!(out, "(str.to_re \"{}\")", STRS[c.below(STRS.len())?]);
                }
            }
            _ => {
                if !nullary.is_empty() {
                    out.push_str(&nullary[c.below(nullary.len())?]);
                } else {
                    // Uninterpreted sorts have no literals, and constant arrays are not
                    // read by cvc5's default array solver: a variable (always declared).
                    let v = g.vars.get(&s)?;
                    out.push_str(&v[c.below(v.len())?]);
                }
            }
        }
        Some(())
    }
}

/// `smtstorm generate`'s engine: `count` scripts from `seed`, seed `seed + i` each.
pub fn scripts(g: &Grammar, seed: u64, count: usize) -> impl Iterator<Item = (u64, String)> + '_ {
    (0..count as u64).filter_map(move |i| {
        let s = seed.wrapping_add(i);
        g.script(&mut Rng::new(s)).map(|t| (s, t))
    })
}

#[cfg(test)]
mod tests;
