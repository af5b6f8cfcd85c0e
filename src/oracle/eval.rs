//! Our own evaluator of a formula under a solver's model: the model-evaluation oracle.
//!
//! A tie between a `sat` family and an `unsat` family is settled by the `sat` side's
//! model, without trusting either solver: if every assertion evaluates to `true` under
//! it, the formula is satisfiable and the `unsat` answer is wrong; if one evaluates to
//! `false`, the `sat` answer has no model to show for itself. Where the theories are
//! beyond this evaluator (quantifiers, arrays, strings, floating point, datatypes,
//! values that overflow 128 bits, division by zero, whose value SMT-LIB leaves to the
//! model), it says so and the tie goes to the cross-check that pins the model into the
//! formula for the other solver ([`super::resolve_tie`]).
//!
//! Semantics follow the SMT-LIB 2.6 theory definitions: Core, Ints and Reals (`div` and
//! `mod` are Euclidean: `x = y·q + r` with `0 ≤ r < |y|`), FixedSizeBitVectors (QF_BV's
//! `bvudiv` by zero is all ones and `bvurem` by zero the dividend, since 2.6).

use crate::smtlib::ast::{CommandKind, Index, LitKind, Nullary, QualIdent, Term, TermId};
use crate::smtlib::{self, Script};
use crate::solver::model::Model;
use std::collections::HashMap;

/// A value: a Boolean, a number (Int and Real alike, as an exact rational), or a
/// bit-vector of at most 128 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    Bool(bool),
    Num(Rat),
    Bv(u128, u32),
}

/// An exact rational `n/d` in lowest terms with `d > 0`; arithmetic that would overflow
/// `i128` gives `None` (the evaluator then cannot decide).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rat {
    n: i128,
    d: i128,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

impl Rat {
    fn new(n: i128, d: i128) -> Option<Rat> {
        if d == 0 {
            return None;
        }
        let g = gcd(n, d).max(1);
        let (n, d) = (n / g, d / g);
        Some(if d < 0 { Rat { n: n.checked_neg()?, d: d.checked_neg()? } } else { Rat { n, d } })
    }
    fn int(n: i128) -> Rat {
        Rat { n, d: 1 }
    }
    fn add(self, o: Rat) -> Option<Rat> {
        Rat::new(self.n.checked_mul(o.d)?.checked_add(o.n.checked_mul(self.d)?)?, self.d.checked_mul(o.d)?)
    }
    fn neg(self) -> Option<Rat> {
        Some(Rat { n: self.n.checked_neg()?, d: self.d })
    }
    fn mul(self, o: Rat) -> Option<Rat> {
        Rat::new(self.n.checked_mul(o.n)?, self.d.checked_mul(o.d)?)
    }
    fn div(self, o: Rat) -> Option<Rat> {
        Rat::new(self.n.checked_mul(o.d)?, self.d.checked_mul(o.n)?)
    }
    fn floor(self) -> i128 {
        self.n.div_euclid(self.d)
    }
    fn cmp(self, o: Rat) -> Option<std::cmp::Ordering> {
        Some(self.n.checked_mul(o.d)?.cmp(&o.n.checked_mul(self.d)?))
    }
}

/// What the model says of the formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelCheck {
    /// Every assertion is `true` under the model: the formula is satisfiable.
    Holds,
    /// The assertion of command `k` is `false` under the model.
    Fails(usize),
    /// Some assertion could not be evaluated (and none was `false`).
    Unknown,
}

/// Evaluates the assertions of `s` before its first check-sat under `m`. Only for a
/// script that asks once: with `push`/`pop` or several check-sats the stack a model
/// belongs to is not the whole script.
pub fn check_model(s: &Script, m: &Model) -> ModelCheck {
    let stacked = s.commands.iter().any(|c| matches!(c.kind, CommandKind::Push(_) | CommandKind::Pop(_)));
    if stacked || smtlib::checks(s) != 1 {
        return ModelCheck::Unknown;
    }
    // The model's function interpretations, each parsed as a script of its own.
    let scripts: Vec<Script> = m.functions.iter().filter_map(|f| smtlib::parse(f).ok()).collect();
    let ev = Evaluator::new(s, &scripts, m);
    // The assertions on the stack at the check-sat: `reset` and `reset-assertions` empty
    // it (SMT-LIB 2.6 §4.2.2).
    let mut stack: Vec<(usize, TermId)> = vec![];
    for (k, c) in s.commands.iter().enumerate() {
        match c.kind {
            ref kind if s.is_check(kind) => break,
            CommandKind::Assert(t) => stack.push((k, t)),
            CommandKind::Nullary(Nullary::Reset | Nullary::ResetAssertions) => stack.clear(),
            _ => {}
        }
    }
    let mut unknown = false;
    for (k, t) in stack {
        match ev.eval(s, t, &mut vec![], 0) {
            Some(Val::Bool(true)) => {}
            Some(Val::Bool(false)) => return ModelCheck::Fails(k),
            _ => unknown = true,
        }
    }
    if unknown {
        ModelCheck::Unknown
    } else {
        ModelCheck::Holds
    }
}

/// A function's definition: the script it lives in (the formula's or the model's own),
/// its parameters and body.
struct Def<'a> {
    script: &'a Script,
    params: Vec<String>,
    body: TermId,
}

struct Evaluator<'a> {
    consts: HashMap<String, Val>,
    defs: HashMap<String, Def<'a>>,
    /// Terms evaluated so far: definitions that use each other twice over can ask for
    /// exponentially many, so the evaluator gives up after [`MAX_STEPS`].
    steps: std::cell::Cell<u64>,
}

/// The evaluation budget of one model check (a formula of a few megabytes takes a few
/// million steps; a confirmation must never hang on a crafted chain of definitions).
const MAX_STEPS: u64 = 5_000_000;

/// Deep terms are evaluated by recursion; beyond this depth the evaluator gives up
/// rather than risk the stack.
const MAX_DEPTH: u32 = 1_000;

impl<'a> Evaluator<'a> {
    /// The formula's definitions, then the model's: a model's interpretation of a name
    /// the formula defines is the formula's (the model only repeats it).
    fn new(s: &'a Script, model_scripts: &'a [Script], m: &Model) -> Evaluator<'a> {
        let mut ev = Evaluator { consts: HashMap::new(), defs: HashMap::new(), steps: 0.into() };
        for sc in model_scripts {
            ev.add_defs(sc);
        }
        ev.add_defs(s);
        for (name, text) in &m.values {
            let v = smtlib::parse(&format!("(assert {text})")).ok().and_then(|vs| {
                let CommandKind::Assert(t) = vs.commands.first()?.kind else { return None };
                ev.eval(&vs, t, &mut vec![], 0)
            });
            if let Some(v) = v {
                ev.consts.insert(smtlib::ast::unquote(name).to_string(), v);
            }
        }
        ev
    }

    fn add_defs(&mut self, s: &'a Script) {
        for c in &s.commands {
            let (name, params, body) = match c.kind {
                CommandKind::DefineFun { rec: false, decl, body } => (
                    s.sym(decl.name).to_string(),
                    s.var_list(decl.params).iter().map(|v| s.sym(v.name).to_string()).collect(),
                    body,
                ),
                CommandKind::DefineConst(n, _, body) => (s.sym(n).to_string(), vec![], body),
                _ => continue,
            };
            self.defs.insert(name, Def { script: s, params, body });
        }
    }

    fn lookup(&self, name: &str, env: &[(String, Val)], depth: u32) -> Option<Val> {
        if let Some((_, v)) = env.iter().rev().find(|(n, _)| n == name) {
            return Some(*v);
        }
        match name {
            "true" => return Some(Val::Bool(true)),
            "false" => return Some(Val::Bool(false)),
            _ => {}
        }
        if let Some(v) = self.consts.get(name) {
            return Some(*v);
        }
        let d = self.defs.get(name).filter(|d| d.params.is_empty())?;
        self.eval(d.script, d.body, &mut vec![], depth + 1)
    }

    fn eval(&self, s: &Script, t: TermId, env: &mut Vec<(String, Val)>, depth: u32) -> Option<Val> {
        self.steps.set(self.steps.get() + 1);
        if depth > MAX_DEPTH || self.steps.get() > MAX_STEPS {
            return None;
        }
        match *s.term(t) {
            Term::Lit(kind, text) => literal(kind, s.str(text)),
            Term::Var(q) => self.var(s, q, env, depth),
            Term::Annot(inner, _) => self.eval(s, inner, env, depth + 1),
            Term::Let(bindings, body) => {
                let mut bound = vec![];
                for b in s.binding_list(bindings) {
                    bound.push((s.sym(b.name).to_string(), self.eval(s, b.value, env, depth + 1)?));
                }
                let n = env.len();
                env.extend(bound);
                let v = self.eval(s, body, env, depth + 1);
                env.truncate(n);
                v
            }
            Term::App(q, args) => {
                let args = s.term_list(args);
                let op = s.sym(q.ident.sym);
                // `ite` and the connectives need not evaluate every argument, but a
                // model is total on what it mentions: evaluate all, simply.
                let mut vals = Vec::with_capacity(args.len());
                for &a in args {
                    vals.push(self.eval(s, a, env, depth + 1)?);
                }
                if let Some(d) = self.defs.get(op).filter(|d| d.params.len() == vals.len() && !vals.is_empty()) {
                    let mut inner: Vec<(String, Val)> = d.params.iter().cloned().zip(vals).collect();
                    return self.eval(d.script, d.body, &mut inner, depth + 1);
                }
                apply(s, q, op, &vals)
            }
            // Quantifiers, lambdas, binders of solver extensions and matches: beyond us.
            Term::Quant(..) | Term::ExtBinder(..) | Term::Match(..) => None,
        }
    }

    fn var(&self, s: &Script, q: QualIdent, env: &[(String, Val)], depth: u32) -> Option<Val> {
        let name = s.sym(q.ident.sym);
        let ix = s.index_list(q.ident.indices);
        if ix.is_empty() {
            return self.lookup(name, env, depth);
        }
        // `(_ bvN w)`.
        let num = |i: &Index| match *i {
            Index::Num(n) => s.str(n).parse::<u128>().ok(),
            _ => None,
        };
        match (name.strip_prefix("bv"), ix) {
            (Some(v), [w]) => {
                let (v, w) = (v.parse::<u128>().ok()?, num(w)? as u32);
                (1..=128).contains(&w).then(|| Val::Bv(v & mask(w), w))
            }
            _ => None,
        }
    }
}

fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

fn literal(kind: LitKind, text: &str) -> Option<Val> {
    match kind {
        LitKind::Numeral => Some(Val::Num(Rat::int(text.parse().ok()?))),
        LitKind::Decimal => {
            let (i, f) = text.split_once('.')?;
            let d = 10i128.checked_pow(f.len() as u32)?;
            let n = format!("{i}{f}").parse::<i128>().ok()?;
            Some(Val::Num(Rat::new(n, d)?))
        }
        LitKind::Rational => {
            let (n, d) = text.split_once('/')?;
            Some(Val::Num(Rat::new(n.trim().parse().ok()?, d.trim().parse().ok()?)?))
        }
        LitKind::Hex => {
            let h = text.strip_prefix("#x")?;
            let w = 4 * h.len() as u32;
            (1..=128).contains(&w).then(|| u128::from_str_radix(h, 16).ok().map(|v| Val::Bv(v, w))).flatten()
        }
        LitKind::Binary => {
            let b = text.strip_prefix("#b")?;
            let w = b.len() as u32;
            (1..=128).contains(&w).then(|| u128::from_str_radix(b, 2).ok().map(|v| Val::Bv(v, w))).flatten()
        }
        LitKind::String => None,
    }
}

/// `v` as a signed number of width `w`.
fn signed(v: u128, w: u32) -> i128 {
    if w < 128 && v >> (w - 1) & 1 == 1 {
        (v as i128) - (1i128 << w)
    } else {
        v as i128
    }
}

/// An operator of Core, Ints, Reals or FixedSizeBitVectors applied to values.
fn apply(s: &Script, q: QualIdent, op: &str, a: &[Val]) -> Option<Val> {
    use Val::*;
    let bools = || a.iter().map(|v| if let Bool(b) = v { Some(*b) } else { None }).collect::<Option<Vec<bool>>>();
    let nums = || a.iter().map(|v| if let Num(r) = v { Some(*r) } else { None }).collect::<Option<Vec<Rat>>>();
    let bvs = || {
        let w = match a.first()? {
            Bv(_, w) => *w,
            _ => return None,
        };
        a.iter()
            .map(|v| if let Bv(x, vw) = v { (*vw == w).then_some(*x) } else { None })
            .collect::<Option<Vec<u128>>>()
            .map(|v| (v, w))
    };
    let chain = |f: &dyn Fn(Rat, Rat) -> Option<bool>| -> Option<Val> {
        let n = nums()?;
        let mut ok = true;
        for p in n.windows(2) {
            ok &= f(p[0], p[1])?;
        }
        Some(Bool(ok))
    };
    let ix = s.index_list(q.ident.indices);
    let index = |k: usize| match ix.get(k)? {
        Index::Num(n) => s.str(*n).parse::<u32>().ok(),
        _ => None,
    };
    Some(match (op, a) {
        ("not", [Bool(x)]) => Bool(!x),
        ("and", _) => Bool(bools()?.iter().all(|&b| b)),
        ("or", _) => Bool(bools()?.iter().any(|&b| b)),
        ("xor", _) => Bool(bools()?.iter().fold(false, |x, &b| x ^ b)),
        ("=>", _) => {
            let b = bools()?;
            let (last, init) = b.split_last()?;
            Bool(init.iter().rev().fold(*last, |acc, &p| !p || acc))
        }
        ("ite", [Bool(c), x, y]) => {
            if *c {
                *x
            } else {
                *y
            }
        }
        ("=", _) if a.len() >= 2 => {
            let mut all = true;
            for p in a.windows(2) {
                all &= same(p[0], p[1])?;
            }
            Bool(all)
        }
        ("distinct", _) if a.len() >= 2 => {
            let mut all = true;
            for i in 0..a.len() {
                for j in i + 1..a.len() {
                    all &= !same(a[i], a[j])?;
                }
            }
            Bool(all)
        }
        ("+", _) => Num(nums()?.into_iter().try_fold(Rat::int(0), |x, y| x.add(y))?),
        ("-", [Num(x)]) => Num(x.neg()?),
        ("-", _) => {
            let n = nums()?;
            let (first, rest) = n.split_first()?;
            Num(rest.iter().try_fold(*first, |x, y| x.add(y.neg()?))?)
        }
        ("*", _) => Num(nums()?.into_iter().try_fold(Rat::int(1), |x, y| x.mul(y))?),
        // Division by zero is left to the model (SMT-LIB: an uninterpreted value).
        ("/", _) => {
            let n = nums()?;
            let (first, rest) = n.split_first()?;
            Num(rest.iter().try_fold(*first, |x, y| if y.n == 0 { None } else { x.div(*y) })?)
        }
        ("div" | "mod", [Num(x), Num(y)]) if x.d == 1 && y.d == 1 && y.n != 0 => {
            // x = y·q + r with 0 ≤ r < |y| (SMT-LIB Ints).
            let (x, y) = (x.n, y.n);
            let r = x.checked_rem_euclid(y.checked_abs()?)?;
            let q = x.checked_sub(r)? / y;
            Num(Rat::int(if op == "div" { q } else { r }))
        }
        ("abs", [Num(x)]) => Num(if x.n < 0 { x.neg()? } else { *x }),
        ("<", _) => chain(&|x, y| Some(x.cmp(y)?.is_lt()))?,
        ("<=", _) => chain(&|x, y| Some(x.cmp(y)?.is_le()))?,
        (">", _) => chain(&|x, y| Some(x.cmp(y)?.is_gt()))?,
        (">=", _) => chain(&|x, y| Some(x.cmp(y)?.is_ge()))?,
        ("to_real", [Num(x)]) => Num(*x),
        ("to_int", [Num(x)]) => Num(Rat::int(x.floor())),
        ("is_int", [Num(x)]) => Bool(x.d == 1),
        ("bvnot", [Bv(x, w)]) => Bv(!x & mask(*w), *w),
        ("bvneg", [Bv(x, w)]) => Bv(x.wrapping_neg() & mask(*w), *w),
        ("bvadd" | "bvmul" | "bvand" | "bvor" | "bvxor", _) => {
            let (v, w) = bvs()?;
            let f = |x: u128, y: u128| match op {
                "bvadd" => x.wrapping_add(y),
                "bvmul" => x.wrapping_mul(y),
                "bvand" => x & y,
                "bvor" => x | y,
                _ => x ^ y,
            };
            let (first, rest) = v.split_first()?;
            Bv(rest.iter().fold(*first, |x, &y| f(x, y)) & mask(w), w)
        }
        ("bvsub", [Bv(x, w), Bv(y, w2)]) if w == w2 => Bv(x.wrapping_sub(*y) & mask(*w), *w),
        ("bvudiv", [Bv(x, w), Bv(y, w2)]) if w == w2 => Bv(if *y == 0 { mask(*w) } else { x / y }, *w),
        ("bvurem", [Bv(x, w), Bv(y, w2)]) if w == w2 => Bv(if *y == 0 { *x } else { x % y }, *w),
        ("bvshl", [Bv(x, w), Bv(y, w2)]) if w == w2 => Bv(if *y >= *w as u128 { 0 } else { (x << y) & mask(*w) }, *w),
        ("bvlshr", [Bv(x, w), Bv(y, w2)]) if w == w2 => Bv(if *y >= *w as u128 { 0 } else { x >> y }, *w),
        ("bvashr", [Bv(x, w), Bv(y, w2)]) if w == w2 => {
            let sx = signed(*x, *w);
            let sh = (*y).min(*w as u128 - 1) as u32;
            Bv((sx >> sh) as u128 & mask(*w), *w)
        }
        ("bvult" | "bvule" | "bvugt" | "bvuge" | "bvslt" | "bvsle" | "bvsgt" | "bvsge", [Bv(x, w), Bv(y, w2)])
            if w == w2 =>
        {
            let (ux, uy, sx, sy) = (*x, *y, signed(*x, *w), signed(*y, *w));
            Bool(match op {
                "bvult" => ux < uy,
                "bvule" => ux <= uy,
                "bvugt" => ux > uy,
                "bvuge" => ux >= uy,
                "bvslt" => sx < sy,
                "bvsle" => sx <= sy,
                "bvsgt" => sx > sy,
                _ => sx >= sy,
            })
        }
        ("concat", _) => {
            let mut out = 0u128;
            let mut width = 0u32;
            for v in a {
                let Bv(x, w) = v else { return None };
                width = width.checked_add(*w).filter(|&t| t <= 128)?;
                out = if *w == 128 { *x } else { (out << w) | x };
            }
            Bv(out, width)
        }
        ("extract", [Bv(x, w)]) => {
            let (i, j) = (index(0)?, index(1)?);
            if i < j || i >= *w {
                return None;
            }
            Bv((x >> j) & mask(i - j + 1), i - j + 1)
        }
        ("zero_extend", [Bv(x, w)]) => Bv(*x, w.checked_add(index(0)?).filter(|&t| t <= 128)?),
        ("sign_extend", [Bv(x, w)]) => {
            let nw = w.checked_add(index(0)?).filter(|&t| t <= 128)?;
            Bv((signed(*x, *w) as u128) & mask(nw), nw)
        }
        _ => return None,
    })
}

/// Equality of two values of one sort; `None` for values of different kinds.
fn same(x: Val, y: Val) -> Option<bool> {
    match (x, y) {
        (Val::Bool(a), Val::Bool(b)) => Some(a == b),
        (Val::Num(a), Val::Num(b)) => Some(a.cmp(b)?.is_eq()),
        (Val::Bv(a, w), Val::Bv(b, v)) if w == v => Some(a == b),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(values: &[(&str, &str)], functions: &[&str]) -> Model {
        Model {
            values: values.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect(),
            functions: functions.iter().map(|f| f.to_string()).collect(),
        }
    }

    fn check(src: &str, m: &Model) -> ModelCheck {
        check_model(&smtlib::parse(src).unwrap(), m)
    }

    #[test]
    fn assertions_are_evaluated_under_a_model_with_smt_lib_semantics() {
        let lia = "(declare-const x Int)(declare-const y Int)(assert (= (mod x 3) 2))(assert (= (div x (- 3)) y))(assert (< y 0))(check-sat)";
        // x = 5: 5 mod 3 = 2, 5 div -3 = -1 (5 = -3·-1 + 2).
        assert_eq!(check(lia, &model(&[("x", "5"), ("y", "(- 1)")], &[])), ModelCheck::Holds);
        // x = -1: -1 mod 3 = 2, -1 div -3 = 1 (-1 = -3·1 + 2): the third assertion fails.
        assert_eq!(check(lia, &model(&[("x", "(- 1)"), ("y", "1")], &[])), ModelCheck::Fails(4));
        let lra = "(declare-const r Real)(define-fun h ((a Real)) Real (* 2.0 a))(assert (let ((z (h r))) (and (> z 0.5) (< z (/ 2 3)))))(check-sat)";
        assert_eq!(check(lra, &model(&[("r", "(/ 1.0 3.0)")], &[])), ModelCheck::Fails(2));
        assert_eq!(check(lra, &model(&[("r", "(/ 3 10)")], &[])), ModelCheck::Holds);
        let bv = "(declare-const b (_ BitVec 8))(assert (bvslt b #x00))(assert (= ((_ extract 7 4) (bvudiv b #x00)) #xf))(assert (= ((_ sign_extend 8) b) #xff80))(check-sat)";
        assert_eq!(check(bv, &model(&[("b", "#x80")], &[])), ModelCheck::Holds);
        assert_eq!(check(bv, &model(&[("b", "#x7f")], &[])), ModelCheck::Fails(1));
        // Only what is on the stack at the check-sat counts.
        let reset = "(assert false)(reset-assertions)(declare-const x Int)(assert (= x 1))(check-sat)";
        assert_eq!(check(reset, &model(&[("x", "1")], &[])), ModelCheck::Holds);
        // An uninterpreted function through the model's interpretation.
        let uf = "(declare-fun f (Int) Int)(assert (= (f 1) 7))(assert (distinct (f 2) 7))(check-sat)";
        let fm = model(&[], &["(define-fun f ((x!0 Int)) Int (ite (= x!0 1) 7 0))"]);
        assert_eq!(check(uf, &fm), ModelCheck::Holds);
        // What the evaluator cannot decide it says so: a missing value, division by
        // zero, quantifiers, strings.
        assert_eq!(check(lia, &model(&[("x", "5")], &[])), ModelCheck::Unknown);
        let div0 = "(declare-const r Real)(assert (= (/ r 0.0) 1.0))(check-sat)";
        assert_eq!(check(div0, &model(&[("r", "1.0")], &[])), ModelCheck::Unknown);
        let q = "(declare-const x Int)(assert (forall ((y Int)) (> x y)))(check-sat)";
        assert_eq!(check(q, &model(&[("x", "1")], &[])), ModelCheck::Unknown);
        let st = "(declare-const s String)(assert (= s \"a\"))(check-sat)";
        assert_eq!(check(st, &model(&[("s", "\"a\"")], &[])), ModelCheck::Unknown);
        // Definitions that double at every level give up instead of running for ages.
        let mut chain = String::from("(declare-const x Int)(define-fun d0 () Int x)");
        for i in 1..64 {
            chain.push_str(&format!("(define-fun d{i} () Int (- d{} d{}))", i - 1, i - 1));
        }
        chain.push_str("(assert (= d63 0))(check-sat)");
        assert_eq!(check(&chain, &model(&[("x", "1")], &[])), ModelCheck::Unknown);
        // A value beyond 128 bits is no guess.
        let big = "(declare-const x Int)(assert (> (* x x x) 0))(check-sat)";
        assert_eq!(check(big, &model(&[("x", "340282366920938463463374607431768211457")], &[])), ModelCheck::Unknown);
    }
}
