//! Semantic Fusion (Winterer, Zhang and Su, "Validating SMT Solvers via Semantic
//! Fusion", PLDI 2020; yinyang's `--fusion`): two seeds of the same satisfiability become
//! one whose satisfiability is known by construction, so a finding needs no second solver.
//!
//! - **sat ∘ sat**: φ1 ∧ φ2, with φ2's names renamed apart, a fresh `z` per fused pair
//!   `(x, y)` of one sort constrained by `z = f(x, y)`, and random occurrences of `x` (of
//!   `y`) replaced by `r_x(y, z)` (`r_y(x, z)`). Models of φ1 and of φ2 with `z :=
//!   f(x, y)` satisfy it, since `r_x(y, f(x, y)) = x` and `r_y(x, f(x, y)) = y`.
//! - **unsat ∘ unsat**: φ1 ∨ φ2 with the same replacements, plus `x = r_x(y, z)` and
//!   `y = r_y(x, z)`: in a model the replaced terms equal what they replaced, so the
//!   model would satisfy φ1 ∨ φ2.
//!
//! The fusion functions are the paper's (Table 2) for Int, Real and String, keeping only
//! those whose inversion is exact for every value (its `x * y` with `r_x = z div y` is
//! not: at `y = 0`, `div` is unspecified); for bit-vectors, the operators of the signature
//! table that are invertible at every width (`bvadd`, `bvsub`, `bvxor`).
//!
//! Only plain seeds fuse: one `check-sat` after the assertions, no incremental commands,
//! datatypes or recursive definitions, and fused names bound nowhere (a replacement under
//! a binder of the same name would be captured).
//!
//! No name is captured either way: a seed's declarations that clash with the other seed's
//! names, theory symbols or the fusion's own symbols are renamed apart first
//! ([`renamed_apart`]; issue 37).

use super::choice::Choices;
use super::edit::EditError;
// What a fusion records lives with the other edits ([`super::edit::Edit::Fuse`]), which
// replay through [`build`].
pub use super::edit::{Function, Pair, Recipe};
use super::scope::Meaning;
use crate::smtlib::ast::{self, symbol_text, CommandKind, Nullary, Script, Term, TermId};
use crate::smtlib::{self, check, printer};
use std::collections::{BTreeSet, HashMap};

/// The sorts fusion knows functions for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    Real,
    String,
    BitVec,
}

impl Kind {
    fn of(sort: &str) -> Option<Kind> {
        match sort {
            "Int" => Some(Kind::Int),
            "Real" => Some(Kind::Real),
            "String" => Some(Kind::String),
            _ if sort.starts_with("(_ BitVec ") => Some(Kind::BitVec),
            _ => None,
        }
    }

    fn functions(self) -> &'static [Function] {
        match self {
            Kind::Int | Kind::Real => &[Function::Add, Function::AddConst, Function::ScaleAdd],
            Kind::BitVec => &[Function::BvAdd, Function::BvSub, Function::BvXor],
            Kind::String => &[Function::Concat],
        }
    }
}

/// `(f(x, y), r_x(y, z), r_y(x, z))` as text; `c` is the constant of [`Function::AddConst`]
/// and [`Function::ScaleAdd`] (a positive literal of the sort).
fn texts(f: Function, c: &str, x: &str, y: &str, z: &str, real: bool) -> (String, String, String) {
    let div = if real { "/" } else { "div" };
    match f {
        Function::Add => (format!("(+ {x} {y})"), format!("(- {z} {y})"), format!("(- {z} {x})")),
        Function::AddConst => (format!("(+ {x} {c} {y})"), format!("(- {z} {c} {y})"), format!("(- {z} {c} {x})")),
        Function::ScaleAdd => {
            (format!("(+ (* {c} {x}) {y})"), format!("({div} (- {z} {y}) {c})"), format!("(- {z} (* {c} {x}))"))
        }
        Function::BvAdd => (format!("(bvadd {x} {y})"), format!("(bvsub {z} {y})"), format!("(bvsub {z} {x})")),
        Function::BvSub => (format!("(bvsub {x} {y})"), format!("(bvadd {z} {y})"), format!("(bvsub {x} {z})")),
        Function::BvXor => (format!("(bvxor {x} {y})"), format!("(bvxor {z} {y})"), format!("(bvxor {z} {x})")),
        Function::Concat => (
            format!("(str.++ {x} {y})"),
            format!("(str.substr {z} 0 (- (str.len {z}) (str.len {y})))"),
            format!("(str.substr {z} (str.len {x}) (- (str.len {z}) (str.len {x})))"),
        ),
    }
}

/// A seed that can take part in a fusion, with what fusing it needs.
pub struct Part<'a> {
    pub script: &'a Script,
    /// Its declared constants of a sort with fusion functions: (name, sort text).
    consts: Vec<(String, String)>,
    /// Every symbol it uses, declared or not (fresh names avoid them all).
    names: BTreeSet<String>,
    /// Names it binds somewhere (`let`, quantifiers, definitions' parameters, `match`).
    bound: BTreeSet<String>,
}

impl<'a> Part<'a> {
    /// `None` for a seed that cannot be fused (see the module documentation).
    pub fn new(s: &'a Script) -> Option<Part<'a>> {
        let mut checks = 0;
        for c in &s.commands {
            let ok = match c.kind {
                CommandKind::Nullary(Nullary::CheckSat) => {
                    checks += 1;
                    true
                }
                CommandKind::Assert(_) => checks == 0,
                CommandKind::Nullary(n) => {
                    !matches!(n, Nullary::Reset | Nullary::ResetAssertions | Nullary::CheckSat) || checks > 0
                }
                CommandKind::DefineFun { rec, .. } => !rec,
                CommandKind::DeclareConst(..)
                | CommandKind::DeclareFun(..)
                | CommandKind::DeclareSort(..)
                | CommandKind::DefineSort(..)
                | CommandKind::DefineConst(..)
                | CommandKind::SetLogic(_)
                | CommandKind::SetOption(_)
                | CommandKind::SetInfo(_)
                | CommandKind::GetInfo(_)
                | CommandKind::GetOption(_)
                | CommandKind::GetValue(_)
                | CommandKind::Echo(_) => true,
                CommandKind::TermCmd { .. } => true,
                _ => false,
            };
            if !ok {
                return None;
            }
        }
        if checks != 1 || !s.commands.iter().any(|c| matches!(c.kind, CommandKind::Assert(_))) {
            return None;
        }
        let consts = s
            .commands
            .iter()
            .filter_map(|c| match c.kind {
                CommandKind::DeclareConst(n, sort) => Some((n, sort)),
                CommandKind::DeclareFun(n, args, sort) if s.sort_list(args).is_empty() => Some((n, sort)),
                _ => None,
            })
            .map(|(n, sort)| (s.sym(n).to_string(), printer::sort_to_string(s, sort)))
            .filter(|(_, sort)| Kind::of(sort).is_some())
            .collect();
        let names = (0..s.strs.len() as u32).map(|i| s.sym(ast::Str(i)).to_string()).collect();
        let mut bound = BTreeSet::new();
        for c in &s.commands {
            if let CommandKind::DefineFun { decl, .. } = c.kind {
                bound.extend(s.var_list(decl.params).iter().map(|v| s.sym(v.name).to_string()));
            }
        }
        for t in &s.terms {
            match *t {
                Term::Let(bs, _) => bound.extend(s.binding_list(bs).iter().map(|b| s.sym(b.name).to_string())),
                Term::Quant(_, vs, _) | Term::ExtBinder(_, vs, _) => {
                    bound.extend(s.var_list(vs).iter().map(|v| s.sym(v.name).to_string()))
                }
                Term::Match(..) => return None,
                _ => {}
            }
        }
        Some(Part { script: s, consts, names, bound })
    }
}

/// Names the script declares or defines, and its `:named` labels: what must be renamed
/// apart when another script is fused in.
fn declared(s: &Script) -> Vec<String> {
    let mut out: Vec<String> = s.commands.iter().filter_map(|c| s.declared_name(&c.kind)).map(String::from).collect();
    for t in &s.terms {
        if let Term::Annot(_, attrs) = *t {
            for a in s.attr_list(attrs) {
                if let (":named", ast::AttrValue::Sexp(v)) = (s.str(a.key), a.value) {
                    if let ast::Sexp::Atom(_, v) = s.sexps[v.index()] {
                        out.push(s.sym(v).to_string());
                    }
                }
            }
        }
    }
    out
}

/// A name like `base` used by neither script: `base`, then `base_1`, `base_2`, ...
fn fresh(base: &str, used: &BTreeSet<String>) -> String {
    (0..).map(|i| if i == 0 { base.to_string() } else { format!("{base}_{i}") }).find(|n| !used.contains(n)).unwrap()
}

/// Symbols the fusion's own terms apply ([`texts`] and the connectives that join the
/// seeds): a seed that declares one of them has its declaration renamed, or the fusion
/// function would be captured by it.
const FUSION_SYMBOLS: &[&str] =
    &["=", "and", "or", "+", "-", "*", "/", "div", "bvadd", "bvsub", "bvxor", "str.++", "str.substr", "str.len"];

/// The names `s` uses without declaring them: theory symbols (and names the checker does
/// not know), resolved as the sort checker resolves them, so a local of the same name or
/// a declaration does not count.
pub(crate) fn undeclared_uses(s: &Script) -> BTreeSet<String> {
    let checked = check::check(s);
    let scope = super::scope::Scope::new(s, &checked);
    scope
        .meanings(s)
        .into_iter()
        .filter(|(_, _, m)| matches!(m, Meaning::Theory | Meaning::Unknown))
        .map(|(_, n, _)| n.to_string())
        .collect()
}

/// Both seeds with their names renamed apart, so that no symbol of the fused script
/// denotes something other than it did in its own seed (issue 37: a seed declaring
/// `(declare-fun exp (Real) Real)` captured the other seed's built-in `exp`, and the
/// fusion built as `unsat` was satisfiable):
///
/// - a name the second seed declares that the first uses at all (declared, as a theory
///   symbol, or as a local) is renamed in the second;
/// - a name the first seed declares that the second uses undeclared (a theory symbol) is
///   renamed in the first, since the second's theory symbol cannot be;
/// - a name either declares that the fusion's own terms apply is renamed in it.
///
/// Sorts are declared names like the others (`declare-sort`, `define-sort`); datatypes,
/// whose constructors would need the same, are not fusable ([`Part::new`]). Fresh names
/// avoid every symbol of both seeds. Deterministic from the two scripts.
pub fn renamed_apart(a: &Script, b: &Script) -> (Script, Script) {
    let names =
        |s: &Script| -> BTreeSet<String> { (0..s.strs.len() as u32).map(|i| s.sym(ast::Str(i)).to_string()).collect() };
    let (a_names, b_names) = (names(a), names(b));
    let mut used: BTreeSet<String> = a_names.union(&b_names).cloned().collect();
    let b_theory = undeclared_uses(b);
    let reserved = |n: &str| FUSION_SYMBOLS.contains(&n);
    let mut rename = |s: &Script, clash: &dyn Fn(&str) -> bool, suffix: &str| {
        let mut map: Vec<(String, String)> = vec![];
        for n in declared(s) {
            if (clash(&n) || reserved(&n)) && !map.iter().any(|(o, _)| *o == n) {
                let new = fresh(&format!("{n}{suffix}"), &used);
                used.insert(new.clone());
                map.push((n, new));
            }
        }
        let mut out = s.clone();
        let m: HashMap<&str, &str> = map.iter().map(|(o, n)| (o.as_str(), n.as_str())).collect();
        ast::rename_symbols(&mut out, &m);
        out
    };
    let a2 = rename(a, &|n| b_theory.contains(n), "_1");
    let b2 = rename(b, &|n| a_names.contains(n), "_2");
    (a2, b2)
}

/// The free occurrences of constant `x` in the assertions of `s`, in walk order.
fn occurrences(s: &Script, x: &str) -> Vec<TermId> {
    super::edit::walk(s)
        .nodes
        .into_iter()
        .filter(|v| {
            matches!(s.commands[v.cmd as usize].kind, CommandKind::Assert(_))
                && matches!(*s.term(v.term), Term::Var(q) if q.sort.is_none() && s.index_list(q.ident.indices).is_empty() && s.sym(q.ident.sym) == x)
        })
        .map(|v| v.term)
        .collect()
}

/// Chooses a fusion of `a` and `b` (both satisfiable if `sat`, else both unsatisfiable)
/// and builds it: `None` when they share no fusable sort or the choices run out.
pub fn fuse(a: &Part, b: &Part, sat: bool, c: &mut impl Choices) -> Option<(Recipe, Script)> {
    let (a2, b2) = renamed_apart(a.script, b.script);
    let (a, b2p) = (&Part::new(&a2)?, Part::new(&b2)?);
    let free = |n: &str| !a.bound.contains(n) && !b2p.bound.contains(n);
    let mut pairs: Vec<Pair> = vec![];
    let mut used: BTreeSet<String> = a.names.union(&b2p.names).cloned().collect();
    let want = 1 + c.below(3)?;
    for _ in 0..want {
        let xs: Vec<&(String, String)> = a
            .consts
            .iter()
            .filter(|(x, sx)| free(x) && Kind::of(sx).is_some() && !pairs.iter().any(|p| p.x == *x))
            .collect();
        let candidates: Vec<(&String, &String, &String)> = xs
            .iter()
            .flat_map(|(x, sx)| {
                b2p.consts.iter().filter(move |(y, sy)| sy == sx && free(y)).map(move |(y, _)| (x, y, sx))
            })
            .filter(|(_, y, _)| !pairs.iter().any(|p| p.y == **y))
            .collect();
        if candidates.is_empty() {
            break;
        }
        let (x, y, sort) = candidates[c.below(candidates.len())?];
        let kind = Kind::of(sort)?;
        let fs = kind.functions();
        let function = fs[c.below(fs.len())?];
        let k = 2 + c.below(8)?;
        let constant = match (function, kind) {
            (Function::AddConst | Function::ScaleAdd, Kind::Real) => format!("{k}.0"),
            (Function::AddConst | Function::ScaleAdd, _) => k.to_string(),
            _ => String::new(),
        };
        let z = fresh(&format!("z_{x}"), &used);
        used.insert(z.clone());
        let pick = |n: usize, c: &mut dyn FnMut(usize) -> Option<usize>| -> Option<Vec<u32>> {
            let mut at: Vec<u32> = (0..n as u32).filter(|_| c(2) == Some(0)).collect();
            if at.is_empty() && n > 0 {
                at.push(c(n)? as u32);
            }
            Some(at)
        };
        let mut below = |n: usize| c.below(n);
        let x_at = pick(occurrences(a.script, x).len(), &mut below)?;
        let y_at = pick(occurrences(&b2, y).len(), &mut below)?;
        pairs.push(Pair { x: x.clone(), y: y.clone(), z, sort: sort.clone(), function, constant, x_at, y_at });
    }
    if pairs.is_empty() {
        return None;
    }
    let recipe = Recipe { sat, pairs };
    let s = build_renamed(a.script, &b2, &recipe).ok()?;
    Some((recipe, s))
}

/// Rebuilds a fusion from its two seeds and its recipe (a finding's edit list replays
/// through here).
pub fn build(a: &Script, b: &Script, recipe: &Recipe) -> Result<Script, EditError> {
    Part::new(a).ok_or(EditError::NotFusable)?;
    let (a2, b2) = renamed_apart(a, b);
    build_renamed(&a2, &b2, recipe)
}

fn build_renamed(a: &Script, b: &Script, r: &Recipe) -> Result<Script, EditError> {
    // Replacement texts per script: each chosen occurrence of x by r_x, of y by r_y.
    let mut over_a: Vec<(TermId, String)> = vec![];
    let mut over_b: Vec<(TermId, String)> = vec![];
    let mut constraints = vec![];
    for p in &r.pairs {
        let (x, y, z) = (symbol_text(&p.x), symbol_text(&p.y), symbol_text(&p.z));
        let (f, rx, ry) = texts(p.function, &p.constant, &x, &y, &z, p.sort == "Real");
        let pick = |occ: Vec<TermId>, at: &[u32], text: &str, out: &mut Vec<(TermId, String)>| {
            for &i in at {
                let t = *occ.get(i as usize).ok_or_else(|| EditError::NoSuchPath(vec![i]))?;
                out.push((t, text.to_string()));
            }
            Ok::<(), EditError>(())
        };
        pick(occurrences(a, &p.x), &p.x_at, &rx, &mut over_a)?;
        pick(occurrences(b, &p.y), &p.y_at, &ry, &mut over_b)?;
        if r.sat {
            constraints.push(format!("(= {z} {f})"));
        } else {
            constraints.push(format!("(= {x} {rx})"));
            constraints.push(format!("(= {y} {ry})"));
        }
    }
    let mut out = String::new();
    // Options (before the logic: `:produce-models` and its kind may only be set in start
    // mode, SMT-LIB 2.6 §4.1.7): the first seed's, then the second's that the first does
    // not set.
    let option_key = |s: &Script, k: &CommandKind| match *k {
        CommandKind::SetOption(a) => Some(s.str(a.key).to_string()),
        _ => None,
    };
    let a_keys: Vec<String> = a.commands.iter().filter_map(|c| option_key(a, &c.kind)).collect();
    for (s, first) in [(a, true), (b, false)] {
        for c in &s.commands {
            if let Some(k) = option_key(s, &c.kind) {
                if first || !a_keys.contains(&k) {
                    out.push_str(&printer::print_command_with(s, &c.kind, &[]));
                }
            }
        }
    }
    let options = std::mem::take(&mut out);
    let same_logic = a.logic() == b.logic();
    let is_decl = |k: &CommandKind| {
        matches!(
            k,
            CommandKind::DeclareConst(..)
                | CommandKind::DeclareFun(..)
                | CommandKind::DeclareSort(..)
                | CommandKind::DefineSort(..)
                | CommandKind::DefineFun { .. }
                | CommandKind::DefineConst(..)
        )
    };
    for s in [a, b] {
        for c in s.commands.iter().filter(|c| is_decl(&c.kind)) {
            out.push_str(&printer::print_command_with(s, &c.kind, &[]));
        }
    }
    for p in &r.pairs {
        out.push_str(&format!("(declare-fun {} () {})\n", symbol_text(&p.z), p.sort));
    }
    let assertions = |s: &Script, over: &[(TermId, String)]| -> Vec<String> {
        let ov: Vec<(TermId, &str)> = over.iter().map(|(t, x)| (*t, x.as_str())).collect();
        s.commands
            .iter()
            .filter_map(|c| match c.kind {
                CommandKind::Assert(t) => Some(printer::term_with(s, t, &ov)),
                _ => None,
            })
            .collect()
    };
    let (fa, fb) = (assertions(a, &over_a), assertions(b, &over_b));
    if r.sat {
        for t in fa.iter().chain(&fb) {
            out.push_str(&format!("(assert {t})\n"));
        }
    } else {
        let conj = |v: &[String]| if v.len() == 1 { v[0].clone() } else { format!("(and {})", v.join(" ")) };
        out.push_str(&format!("(assert (or {} {}))\n", conj(&fa), conj(&fb)));
    }
    for k in constraints {
        out.push_str(&format!("(assert {k})\n"));
    }
    out.push_str("(check-sat)\n");
    let with_logic = |l: Option<&str>| {
        let logic = l.map(|l| format!("(set-logic {l})\n")).unwrap_or_default();
        smtlib::parse(&format!("{options}{logic}{out}")).map_err(|e| EditError::BadText(e.to_string()))
    };
    let mut fused = with_logic(a.logic().filter(|_| same_logic))?;
    if !same_logic {
        // Two logics: the smallest that covers the fusion, where one is known (yices needs
        // one); else none, and each solver reads it in its widest logic.
        if let Some(l) = crate::smtlib::logic::infer(&fused, &check::check(&fused)) {
            fused = with_logic(Some(&l))?;
        }
    }
    let before = check::check(a).diagnostics.len() + check::check(b).diagnostics.len();
    let after = check::check(&fused);
    if after.diagnostics.len() > before {
        return Err(EditError::IllSorted(after.diagnostics.last().map(|d| d.to_string()).unwrap_or_default()));
    }
    Ok(fused)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutate::choice::Rng;

    /// Both directions: the fusion parses and sort-checks, names shared by the two seeds
    /// are renamed apart, the fused constraints are there, and the recipe rebuilds the same
    /// text from the two seeds. Deterministic from the choice source.
    #[test]
    fn fusions_are_well_sorted_renamed_apart_and_replay() {
        let sat1 = smtlib::parse("(set-logic QF_LIA)(declare-const x Int)(declare-const b Bool)(assert (! (> x 3) :named p))(assert (=> b (< x 9)))(check-sat)(get-model)").unwrap();
        let sat2 = smtlib::parse("(set-logic QF_LIA)(declare-const x Int)(declare-const y Int)(assert (! (= (+ x y) 4) :named p))(check-sat)").unwrap();
        let str1 = smtlib::parse("(declare-const s String)(assert (= (str.len s) 2))(check-sat)").unwrap();
        let bv1 =
            smtlib::parse("(set-logic QF_BV)(declare-const u (_ BitVec 8))(assert (bvult u #x10))(check-sat)").unwrap();
        let bv2 = smtlib::parse("(set-logic QF_BV)(declare-const v (_ BitVec 8))(assert (= (bvand v #x01) #x01))(assert (bvugt v #x00))(check-sat)").unwrap();
        // Quoted names (cvc5's regressions have them) and an option that must stay before
        // the logic (yices refuses `:produce-models` after `set-logic`).
        let quoted = smtlib::parse("(set-option :produce-models true)(set-logic QF_LIA)(declare-fun |x y| () Int)(assert (> |x y| 3))(check-sat)").unwrap();
        let mut seen_functions = BTreeSet::new();
        let mut made = 0;
        let mut quoted_made = 0;
        for (a, b) in [
            (&sat1, &sat2),
            (&sat2, &sat1),
            (&bv1, &bv2),
            (&bv2, &bv1),
            (&str1, &str1),
            (&quoted, &quoted),
            (&quoted, &sat1),
        ] {
            let (pa, pb) = (Part::new(a).unwrap(), Part::new(b).unwrap());
            for sat in [true, false] {
                for i in 0..40u64 {
                    let Some((r, m)) = fuse(&pa, &pb, sat, &mut Rng::new(i)) else { continue };
                    let again = fuse(&pa, &pb, sat, &mut Rng::new(i)).unwrap();
                    assert_eq!(r, again.0);
                    let text = smtlib::print(&m);
                    assert_eq!(text, smtlib::print(&build(a, b, &r).unwrap()), "replays from the recipe");
                    assert!(check::check(&m).diagnostics.is_empty(), "{text}");
                    assert_eq!(smtlib::checks(&m), 1);
                    for p in &r.pairs {
                        let (x, y, z) = (symbol_text(&p.x), symbol_text(&p.y), symbol_text(&p.z));
                        assert!(text.contains(&format!("(declare-fun {z} () {})", p.sort)), "{text}");
                        let (f, rx, ry) = texts(p.function, &p.constant, &x, &y, &z, p.sort == "Real");
                        if sat {
                            assert!(text.contains(&format!("(= {z} {f})")), "{text}");
                        } else {
                            assert!(text.contains(&format!("(= {x} {rx})")), "{text}");
                            assert!(text.contains(&format!("(= {y} {ry})")), "{text}");
                        }
                        seen_functions.insert(format!("{:?}", p.function));
                    }
                    if std::ptr::eq(a, &sat1) {
                        // The second seed's x and its label are renamed apart.
                        assert!(text.contains("(declare-const x_2 Int)") && text.contains(":named p_2"), "{text}");
                    }
                    assert_eq!(text.contains("(assert (or "), !sat, "{text}");
                    if std::ptr::eq(a, &quoted) {
                        assert!(text.starts_with("(set-option :produce-models true)\n(set-logic QF_LIA)"), "{text}");
                        assert!(text.contains("|z_x y|"), "{text}");
                        quoted_made += 1;
                    }
                    made += 1;
                }
            }
        }
        assert!(made > 300 && quoted_made > 50, "{made} {quoted_made}");
        assert_eq!(seen_functions.len(), 7, "{seen_functions:?}");
        // Not fusable: two check-sats, incremental commands.
        for text in [
            "(declare-const x Int)(assert (> x 0))(check-sat)(assert (< x 0))(check-sat)",
            "(push 1)(declare-const x Int)(assert (> x 0))(check-sat)",
        ] {
            assert!(Part::new(&smtlib::parse(text).unwrap()).is_none(), "{text}");
        }
    }
}

/// Semantic Fusion as a [`super::Mutator`]: a turn needs a [`super::Partner`] of the
/// same status, and its mutants have that status by construction.
#[derive(Default)]
pub struct Fusion<'s> {
    parts: Option<(Part<'s>, Part<'s>)>,
    other: String,
    sat: bool,
    solvers: &'s [crate::solver::SolverSpec],
}

impl<'s> super::Mutator<'s> for Fusion<'s> {
    fn prepare(&mut self, seed: &'s Script, ctx: &mut super::Ctx<'s, '_>) -> Result<(), super::Skip> {
        let p = ctx.partner.take().ok_or(super::Skip::Wait)?;
        self.solvers = ctx.solvers;
        self.parts = Part::new(seed).zip(Part::new(p.script));
        self.other = p.path;
        self.sat = p.sat;
        Ok(())
    }
    fn mutate(&mut self, rng_seed: u64) -> Option<super::Mutant> {
        let (a, b) = self.parts.as_ref()?;
        let (recipe, m) = fuse(a, b, self.sat, &mut super::choice::Rng::new(rng_seed))?;
        let edits = vec![super::edit::Edit::Fuse { other: self.other.clone(), recipe }];
        // Its edits do not replay from the seed alone: the script is always kept.
        Some(super::Mutant::of_script(self.solvers, rng_seed, edits, m, false))
    }
    fn wants_partner(&self) -> bool {
        true
    }
    fn construction(&self) -> super::Construction<'_> {
        super::Construction::Answer(self.sat)
    }
}
