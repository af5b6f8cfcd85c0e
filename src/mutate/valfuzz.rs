//! ValFuzz: value mutation (Wolff, "Testing SMT solvers by mutating values", 2021).
//!
//! Two modes on the same constant sites:
//!
//! * **Random value mutation** ([`mutate_prepared`]): one or two constants get a new value
//!   of their sort — boundary values, bit patterns, small and huge numerals, special
//!   floating-point values, strings with escapes, flipped Booleans, other rounding modes.
//! * **Boolean Expression Coercion** ([`super::bec`]): constants become fresh *hole* constants;
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
use crate::smtlib::printer::term_to_string;
use crate::smtlib::sort::SortRef;

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
    /// The constant is a divisor (a later argument of `/`, `div`, `mod`, `rem`): zero
    /// there makes a linear formula nonlinear to yices and cvc5 (a dialect error).
    pub divisor: bool,
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
    pub(super) checked: Checked,
    pub(super) baseline: usize,
}

impl<'a> Prepared<'a> {
    pub fn new(script: &'a Script) -> Prepared<'a> {
        let checked = check::check(script);
        let scope = Scope::new(script, &checked);
        let declared = super::opfuzz::declared(script);
        // Parent operator of each node (pre-order: a node's children follow it, each
        // after the previous child's subtree).
        let mut parent: Vec<Option<&str>> = vec![None; scope.nodes.len()];
        let mut divisor = vec![false; scope.nodes.len()];
        for (i, n) in scope.nodes.iter().enumerate() {
            if let Term::App(q, args) = *script.term(n.term) {
                let op = script.sym(q.ident.sym);
                let mut c = i + 1;
                for k in 0..args.len {
                    parent[c] = Some(op);
                    divisor[c] = k > 0 && matches!(op, "/" | "div" | "mod" | "rem");
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
            sites.push(Site { node: i, kind, arithmetic, divisor: divisor[i] });
        }
        let baseline = checked.diagnostics.len();
        Prepared { script, scope, sites, checked, baseline }
    }

    pub(super) fn text(&self, site: &Site) -> String {
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
            let at = p.scope.path(site.node);
            if edits.iter().any(|e| e.at() == Some(&at)) {
                continue;
            }
            let old = p.text(site);
            let v = new_value(site, &old, linear_ok, choices)?;
            if v != old {
                edits.push(Edit::ReplaceConstant { at, value: v });
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

/// ValFuzz as a [`super::Mutator`].
pub fn mutator<'s>() -> super::mutator::Plain<'s, Prepared<'s>> {
    super::mutator::Plain::new(Prepared::new, mutate_prepared)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutate::bec::bec_plan;
    use crate::mutate::choice::Rng;
    use crate::smtlib::{parse, print};
    use std::collections::BTreeSet;

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
