//! ValFuzz: value mutation (Wolff, "Testing SMT solvers by mutating values", 2021).
//!
//! Two modes on the same constant sites:
//!
//! * **Random value mutation** ([`mutate_prepared`]): one or two constants get a new value
//!   of their sort — boundary values, bit patterns, small and huge numerals, special
//!   floating-point values, strings with escapes, flipped Booleans, other rounding modes.
//! * **Boolean Expression Coercion** ([`bec`]): constants become fresh *hole* constants;
//!   closed Boolean sub-terms of the assertions are *monitored*; a chosen subset is forced
//!   true or false and a reference solver's model supplies hole values under which they
//!   are; substituting those values back gives a mutant whose sub-expressions take the
//!   forced truth values. Rounds go on until every monitor has been seen both true and
//!   false (or found impossible), or the budget ends. The paper's monitor variables
//!   `(= m_i e_i)` are written here as direct `(assert e_i)` / `(assert (not e_i))`, and
//!   the monitors' own values are read back with the same `get-value` as the holes.

use super::choice::Choices;
use super::edit::{self, Edit};
use super::scope::{Scope, NONE};
use crate::smtlib::ast::*;
use crate::smtlib::check::{self, Checked};
use crate::smtlib::printer::{print_command_with, term_to_string, term_with};
use crate::smtlib::sort::{SortKind, SortRef};
use std::collections::BTreeSet;

/// What kind of constant a site holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstKind {
    Numeral,
    Decimal,
    /// `#b...` with this many digits.
    Binary(usize),
    /// `#x...` with this many digits.
    Hex(usize),
    /// `(_ bvN w)`.
    BvIndexed(u64),
    String,
    Bool,
    /// `(_ +zero e s)` and the other special values; the text of `(e s)`.
    FpSpecial,
    RoundingMode,
}

/// A constant that can be mutated.
#[derive(Clone, Debug)]
pub struct Site {
    /// Index into [`Scope::nodes`].
    pub node: usize,
    pub kind: ConstKind,
    /// The constant sits in an arithmetic position (argument of an Ints/Reals/Core
    /// operator or a `let`/quantifier body), where negative and huge values are fine.
    /// Elsewhere (`re.loop`, `str.at`, `^`...) numerals stay small and non-negative.
    pub arithmetic: bool,
}

/// Operators whose numeral arguments may take any value.
const ARITH_PARENTS: &[&str] = &[
    "+", "-", "*", "/", "div", "mod", "abs", "<", "<=", ">", ">=", "=", "distinct", "ite", "to_real", "to_int",
    "is_int", "select", "store", "and", "or", "not",
];
const FP_SPECIALS: &[&str] = &["+zero", "-zero", "+oo", "-oo", "NaN"];
const ROUNDING: &[&str] = &[
    "RNE",
    "RNA",
    "RTP",
    "RTN",
    "RTZ",
    "roundNearestTiesToEven",
    "roundNearestTiesToAway",
    "roundTowardPositive",
    "roundTowardNegative",
    "roundTowardZero",
];

/// A seed prepared once for many mutants.
pub struct Prepared<'a> {
    pub script: &'a Script,
    pub scope: Scope,
    pub sites: Vec<Site>,
    checked: Checked,
    baseline: usize,
}

impl<'a> Prepared<'a> {
    pub fn new(script: &'a Script) -> Prepared<'a> {
        let checked = check::check(script);
        let scope = Scope::new(script, &checked);
        let declared = super::opfuzz::declared(script);
        // Parent operator of each node (pre-order: a node's children follow it, each
        // after the previous child's subtree).
        let mut parent: Vec<Option<&str>> = vec![None; scope.nodes.len()];
        for (i, n) in scope.nodes.iter().enumerate() {
            if let Term::App(q, args) = *script.term(n.term) {
                let mut c = i + 1;
                for _ in 0..args.len {
                    parent[c] = Some(script.sym(q.ident.sym));
                    c += scope.nodes[c].size as usize;
                }
            }
        }
        let mut sites = vec![];
        for (i, n) in scope.nodes.iter().enumerate() {
            let kind = match *script.term(n.term) {
                Term::Lit(k, x) => match k {
                    LitKind::Numeral => ConstKind::Numeral,
                    LitKind::Decimal => ConstKind::Decimal,
                    LitKind::Binary => ConstKind::Binary(script.str(x).len() - 2),
                    LitKind::Hex => ConstKind::Hex(script.str(x).len() - 2),
                    LitKind::String => ConstKind::String,
                    LitKind::Rational => continue,
                },
                Term::Var(q) if q.sort.is_none() && n.binding == NONE => {
                    let name = script.sym(q.ident.sym);
                    let ix = script.index_list(q.ident.indices);
                    if declared.contains(name) {
                        continue;
                    }
                    match (name, ix) {
                        ("true" | "false", []) => ConstKind::Bool,
                        (_, [Index::Num(w)])
                            if name.len() > 2
                                && name.starts_with("bv")
                                && name[2..].bytes().all(|b| b.is_ascii_digit()) =>
                        {
                            match script.str(*w).parse::<u64>() {
                                Ok(w) if w > 0 => ConstKind::BvIndexed(w),
                                _ => continue,
                            }
                        }
                        (_, [_, _]) if FP_SPECIALS.contains(&name) => ConstKind::FpSpecial,
                        (_, []) if ROUNDING.contains(&name) => ConstKind::RoundingMode,
                        _ => continue,
                    }
                }
                _ => continue,
            };
            if n.sort == SortRef::UNKNOWN {
                continue;
            }
            let arithmetic = parent[i].is_none_or(|p| ARITH_PARENTS.contains(&p));
            sites.push(Site { node: i, kind, arithmetic });
        }
        let baseline = checked.diagnostics.len();
        Prepared { script, scope, sites, checked, baseline }
    }

    fn text(&self, site: &Site) -> String {
        term_to_string(self.script, self.scope.nodes[site.node].term)
    }
}

/// A new value for a constant, different from `old` when possible.
pub fn new_value(site: &Site, old: &str, linear_ok: bool, c: &mut impl Choices) -> Option<String> {
    let pick = |c: &mut dyn FnMut(usize) -> Option<usize>, xs: &[&str]| -> Option<String> {
        let xs: Vec<&&str> = xs.iter().filter(|x| **x != old).collect();
        Some(xs.get(c(xs.len().max(1))?)?.to_string())
    };
    let mut below = |n: usize| c.below(n);
    let neg = |v: String| if v == "0" || v == "0.0" { v } else { format!("(- {v})") };
    Some(match site.kind {
        ConstKind::Numeral | ConstKind::Decimal => {
            let dec = site.kind == ConstKind::Decimal;
            let small = ["0", "1", "2", "3", "7", "10", "12"];
            let v = if !site.arithmetic {
                pick(&mut below, &small)?
            } else {
                let raw = match below(6)? {
                    0 => pick(&mut below, &["0", "1", "2", "255", "256", "65536"])?,
                    1 => pick(&mut below, &["2147483647", "2147483648", "4294967296", "9223372036854775808"])?,
                    2 => pick(&mut below, &["18446744073709551616", "340282366920938463463374607431768211457"])?,
                    3 => old.trim_start_matches("(- ").trim_end_matches(')').to_string(),
                    _ => (below(1000)?).to_string(),
                };
                let raw = if dec && !raw.contains('.') { format!("{raw}.{}", below(10)?) } else { raw };
                if linear_ok && below(3)? == 0 {
                    neg(raw)
                } else {
                    raw
                }
            };
            if dec && !v.contains('.') {
                format!("{v}.0")
            } else {
                v
            }
        }
        ConstKind::Binary(n) | ConstKind::Hex(n) => {
            let (prefix, digit_bits) = if let ConstKind::Binary(_) = site.kind { ("#b", 1) } else { ("#x", 4) };
            let bits = n * digit_bits;
            let mut v: Vec<bool> = match below(6)? {
                0 => vec![false; bits],
                1 => vec![true; bits],
                2 => (0..bits).map(|i| i == 0).collect(), // signed minimum
                3 => (0..bits).map(|i| i != 0).collect(), // signed maximum
                4 => (0..bits).map(|i| i + 1 == bits).collect(), // one
                _ => (0..bits).map(|_| below(2) == Some(1)).collect(),
            };
            if v.is_empty() {
                v.push(false);
            }
            let digits: String = if digit_bits == 1 {
                v.iter().map(|&b| if b { '1' } else { '0' }).collect()
            } else {
                v.chunks(4)
                    .map(|ch| ch.iter().fold(0u32, |a, &b| a * 2 + b as u32))
                    .map(|d| char::from_digit(d, 16).unwrap())
                    .collect()
            };
            format!("{prefix}{digits}")
        }
        ConstKind::BvIndexed(w) => {
            let max = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
            let n = match below(5)? {
                0 => 0,
                1 => max,
                2 => 1,
                3 => max / 2 + 1,
                _ => (below(usize::MAX)? as u64) & max,
            };
            format!("(_ bv{n} {w})")
        }
        ConstKind::String => pick(
            &mut below,
            &[
                "\"\"",
                "\"a\"",
                "\"ab\"",
                "\"\"\"\"",
                "\"\\u{0}\"",
                "\"\\u{ff}\"",
                "\"\\u{2ffff}\"",
                "\"\\u{d7ff}\"",
                "\"aaaaaaaaaaaaaaaa\"",
                "\"A\\u{a}b\"",
                "\"\\\"",
                "\"0\"",
                "\"-1\"",
            ],
        )
        .map(|v| if below(3) == Some(0) && old.len() >= 2 { format!("\"z{}", &old[1..]) } else { v })?,
        ConstKind::Bool => (if old == "true" { "false" } else { "true" }).to_string(),
        ConstKind::FpSpecial => {
            let rest = old.trim_start_matches("(_ ").split_once(' ').map(|x| x.1).unwrap_or(")");
            let name = pick(&mut below, FP_SPECIALS)?;
            let name = if old.contains(&format!(" {name} ")) { "NaN".to_string() } else { name };
            format!("(_ {name} {rest}")
        }
        ConstKind::RoundingMode => pick(&mut below, &ROUNDING[..5])?,
    })
}

/// Chooses and applies one random value mutation (one or two constants).
pub fn mutate_prepared(p: &Prepared, choices: &mut impl Choices) -> Option<(Vec<Edit>, Script)> {
    if p.sites.is_empty() {
        return None;
    }
    let linear_ok = true;
    for _ in 0..8 {
        let k = 1 + choices.below(2)?;
        let mut edits: Vec<Edit> = vec![];
        for _ in 0..k {
            let site = &p.sites[choices.below(p.sites.len())?];
            let at = &p.scope.nodes[site.node].path;
            if edits.iter().any(|e| e.at() == Some(at)) {
                continue;
            }
            let old = p.text(site);
            let v = new_value(site, &old, linear_ok, choices)?;
            if v != old {
                edits.push(Edit::ReplaceConstant { at: at.clone(), value: v });
            }
        }
        if edits.is_empty() {
            continue;
        }
        if let Ok(m) = edit::apply_with_baseline(p.script, &edits, p.baseline) {
            return Some((edits, m));
        }
    }
    None
}

/// Chooses and applies one random value mutation.
pub fn mutate(seed: &Script, choices: &mut impl Choices) -> Option<(Vec<Edit>, Script)> {
    mutate_prepared(&Prepared::new(seed), choices)
}

/// Boolean Expression Coercion on one seed: holes and monitors.
pub struct BecPlan {
    /// (site index, hole name, hole sort text).
    pub holes: Vec<(usize, String, String)>,
    /// Nodes of the monitored closed Boolean sub-terms (each contains a hole).
    pub monitors: Vec<usize>,
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
            && !n.named
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
                edits.push(Edit::ReplaceConstant { at: p.scope.nodes[site.node].path.clone(), value: v });
            }
        }
        if edits.is_empty() {
            return None;
        }
        edit::apply_with_baseline(p.script, &edits, p.baseline).ok().map(|m| (edits, m))
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutate::choice::Rng;
    use crate::smtlib::{parse, print};

    #[test]
    fn value_mutation_covers_every_constant_kind_and_stays_well_sorted() {
        let src = "(set-logic ALL)\n(declare-const x Int)(declare-const r Real)(declare-const b (_ BitVec 8))\n\
                   (declare-const s String)(declare-const f (_ FloatingPoint 8 24))\n\
                   (assert (and (> x 5) (< r 2.5) (= b #x0f) (bvult b #b00000011) (= b (_ bv3 8))))\n\
                   (assert (and (str.in_re s (re.loop (str.to_re \"ab\") 1 3)) (= (str.at s 2) \"b\")))\n\
                   (assert (and (fp.eq f (_ +zero 8 24)) (= (fp.add RNE f f) f) true))\n(check-sat)\n";
        let s = parse(src).unwrap();
        let p = Prepared::new(&s);
        let kinds: BTreeSet<String> = p.sites.iter().map(|x| format!("{:?}", x.kind)).collect();
        assert_eq!(kinds.len(), 9, "{kinds:?}");
        let mut seen = BTreeSet::new();
        for i in 0..600 {
            let (edits, m) = mutate_prepared(&p, &mut Rng::new(i)).unwrap();
            let text = print(&m);
            let back = parse(&text).unwrap();
            assert!(check::check(&back).is_clean(), "{edits:?}\n{text}");
            assert_eq!(print(&back), text);
            for e in &edits {
                if let Edit::ReplaceConstant { value, .. } = e {
                    seen.insert(value.clone());
                }
            }
            let (e2, m2) = mutate_prepared(&p, &mut Rng::new(i)).unwrap();
            assert_eq!((e2, print(&m2)), (edits, text));
        }
        for v in ["false", "#x00", "#b11111111", "(_ NaN 8 24)", "\"\"", "(_ bv0 8)"] {
            assert!(seen.contains(v), "{v} never produced: {seen:?}");
        }
        // re.loop's bounds stay small and non-negative; `str.at`'s index too.
        let re_loop_site = p.sites.iter().find(|x| !x.arithmetic && x.kind == ConstKind::Numeral).unwrap();
        for i in 0..50 {
            let v = new_value(re_loop_site, "1", true, &mut Rng::new(i)).unwrap();
            assert!(v.parse::<u64>().unwrap() <= 12, "{v}");
        }
    }

    #[test]
    fn bec_queries_force_monitors_and_values_come_back_as_edits() {
        let src =
            "(declare-const x Int)(declare-const b (_ BitVec 4))\n(assert (or (> x 10) (= b #x3)))\n(check-sat)\n";
        let s = parse(src).unwrap();
        let p = Prepared::new(&s);
        let plan = bec_plan(&p, 8, &mut Rng::new(1)).unwrap();
        assert_eq!(plan.holes.len(), 2);
        assert_eq!(plan.monitors.len(), 3, "the disjunction and both disjuncts");
        let q = plan.query(&p, &[(0, false)]);
        assert!(q.contains("(declare-const smtstorm_hole_0 Int)"), "{q}");
        assert!(q.contains("(assert (not (or (> x smtstorm_hole_0) (= b smtstorm_hole_1))))"), "{q}");
        assert!(q.ends_with("(get-value (smtstorm_hole_0 smtstorm_hole_1 (or (> x smtstorm_hole_0) (= b smtstorm_hole_1)) (> x smtstorm_hole_0) (= b smtstorm_hole_1)))\n"), "{q}");
        assert!(!q.contains("(check-sat)\n(check-sat)"));
        let vals = vec![("smtstorm_hole_0".into(), "(- 4)".into()), ("smtstorm_hole_1".into(), "#b0101".into())];
        let (edits, m) = plan.mutant(&p, &vals).unwrap();
        assert_eq!(edits.len(), 2);
        assert!(print(&m).contains("(assert (or (> x (- 4)) (= b #x5)))"), "{}", print(&m));
    }
}
