//! SMT-LIB logic names from the features a script uses (SMT-LIB 2.6 §5.5 and the logic
//! catalogue): `QF_` unless quantified, then `A`, `UF`, `DT`, `BV`, `FP`, `S`, and `L`/`N`
//! with `IA`/`RA`/`IRA`. The reducer names the logic a trigger still needs from this; the
//! generator names the logic of what it can produce. z3 and cvc5 both accept every
//! combination (z3 rejects a sort the name leaves out: `Int` under `QF_BVDT`).

use super::ast::{Binder, CommandKind, DatatypesForm, Term};
use super::check::Checked;
use super::sort::SortKind;
use super::Script;

/// Operators that make arithmetic nonlinear when applied to two non-literals.
pub const NONLINEAR: &[&str] = &["*", "/", "div", "mod", "^", "rem", "abs"];

/// What a script uses, as far as the logic name is concerned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    pub quantifiers: bool,
    pub arrays: bool,
    pub uf: bool,
    pub datatypes: bool,
    pub bv: bool,
    pub fp: bool,
    pub strings: bool,
    pub ints: bool,
    pub reals: bool,
    pub nonlinear: bool,
}

/// The logic name covering `f`.
pub fn name(f: &Features) -> String {
    let mut name = String::new();
    if !f.quantifiers {
        name.push_str("QF_");
    }
    for (on, part) in [(f.arrays, "A"), (f.uf, "UF"), (f.datatypes, "DT"), (f.bv, "BV"), (f.fp, "FP"), (f.strings, "S")]
    {
        if on {
            name.push_str(part);
        }
    }
    if f.ints || f.reals {
        name.push(if f.nonlinear { 'N' } else { 'L' });
        name.push_str(match (f.ints, f.reals) {
            (true, true) => "IRA",
            (true, false) => "IA",
            _ => "RA",
        });
    }
    if name == "QF_" || name.is_empty() {
        name.push_str("UF");
    }
    if name == "QF_A" {
        name = "QF_AX".into();
    }
    // z3 knows strings only under QF_S, QF_SLIA and QF_SNIA (a String constant under
    // QF_ASLIA or SLIA is "unknown sort"); anything richer is ALL for both solvers.
    if f.strings && !["QF_S", "QF_SLIA", "QF_SNIA"].contains(&name.as_str()) {
        name = "ALL".into();
    }
    name
}

/// Whether a numeral or decimal literal is zero (`0`, `0.0`, `00`).
fn is_zero(lit: &str) -> bool {
    lit.chars().all(|c| c == '0' || c == '.') && lit.contains('0')
}

/// Whether `l` is a logic name of the SMT-LIB catalogue's grammar (SMT-LIB 2.6 §5.5:
/// `QF_`, then `A`/`AX`, `UF`, `DT`, `BV`, `FP`, `S`, and an arithmetic part), or `ALL`.
/// `QF_ALL`, `HO_ALL`, `QF_NRAT`, `QF_FF` are one solver's own names.
pub fn is_standard(l: &str) -> bool {
    if l == "ALL" {
        return true;
    }
    let mut rest = l.strip_prefix("QF_").unwrap_or(l);
    for part in ["AX", "A", "UF", "DT", "BV", "FP", "S"] {
        rest = rest.strip_prefix(part).unwrap_or(rest);
    }
    ["", "IDL", "RDL", "LIA", "LRA", "LIRA", "NIA", "NRA", "NIRA"].contains(&rest) && !l.is_empty() && l != "QF_"
}

/// Whether `s` applies a theory symbol no catalogue logic has, whose sort would not show
/// it (cvc5's transcendentals: `(exp x)` is a `Real`, yet `QF_NRA` does not cover it):
/// a fusion of a seed that uses one with a seed of another logic must not be named a
/// logic that drops it. A symbol the script declares itself is its own, not the theory's.
fn uses_theory_outside_catalogue(s: &Script) -> bool {
    use super::theory::{table, Theory};
    let own: Vec<&str> = s.commands.iter().filter_map(|c| s.term_declared_name(&c.kind)).collect();
    let outside = |name: &str| {
        let sigs = table().lookup(name);
        !sigs.is_empty()
            && sigs.iter().all(|&i| {
                !matches!(
                    table().sig(i).theory,
                    Theory::Core
                        | Theory::Ints
                        | Theory::Reals
                        | Theory::RealsInts
                        | Theory::BitVectors
                        | Theory::FloatingPoint
                        | Theory::Strings
                        | Theory::ArraysEx
                )
            })
            && !own.contains(&name)
    };
    s.terms.iter().any(|t| match *t {
        Term::App(q, _) | Term::Var(q) => outside(s.sym(q.ident.sym)),
        _ => false,
    })
}

/// The smallest standard logic name covering what `s` uses, by the sorts of its terms
/// (`checked` is its sort check): for the reducer's logic pass, and for solvers that
/// need a standard logic where a script has none or a solver-specific one (`QF_ALL`).
/// `None` when no standard name covers it: higher-order terms (a function as a value, a
/// lambda), separation logic (`declare-heap`), or a theory sort outside the catalogue
/// (sets, bags, sequences, finite fields, tuples), or a theory symbol outside it (cvc5's
/// transcendentals).
pub fn infer(s: &Script, checked: &Checked) -> Option<String> {
    let kinds: Vec<&SortKind> = checked.term_sorts.iter().map(|&r| checked.sorts.kind(r)).collect();
    let mut declared: Vec<&str> = vec!["Array"];
    for c in &s.commands {
        match c.kind {
            CommandKind::DeclareSort(n, _) | CommandKind::DefineSort(n, ..) | CommandKind::DeclareDatatype(n, _) => {
                declared.push(s.sym(n))
            }
            CommandKind::DeclareDatatypes { form: DatatypesForm::Standard(l), .. } => {
                declared.extend(s.sort_decl_list(l).iter().map(|d| s.sym(d.name)))
            }
            CommandKind::DeclareDatatypes { decls, .. } => {
                declared.extend(s.decl_list(decls).iter().filter_map(|d| d.legacy_name).map(|n| s.sym(n)))
            }
            // Separation logic and SyGuS: no standard logic names them.
            CommandKind::Other { name, .. }
                if matches!(
                    s.str(name),
                    "declare-heap" | "find-synth" | "synth-fun" | "check-synth" | "constraint" | "declare-var"
                ) =>
            {
                return None
            }
            _ => {}
        }
    }
    let outside = kinds.iter().any(|k| matches!(k, SortKind::Con(n, _) if !declared.contains(&&**n)))
        || uses_theory_outside_catalogue(s);
    let lambda = s.terms.iter().any(|t| matches!(t, Term::Quant(Binder::Lambda, ..)));
    if outside || lambda {
        return None;
    }
    let has = |f: &dyn Fn(&SortKind) -> bool| kinds.iter().any(|k| f(k));
    let declared_sort = |want: &str| {
        // Declared constants of a sort no term uses still need the theory's sort name.
        s.commands.iter().any(|c| match c.kind {
            CommandKind::DeclareConst(_, so) | CommandKind::DeclareFun(_, _, so) => {
                super::printer::sort_to_string(s, so).split(['(', ')', ' ']).any(|w| w == want)
            }
            _ => false,
        })
    };
    let quantifiers = s.terms.iter().any(|t| matches!(t, Term::Quant(b, ..) if *b != Binder::Lambda));
    let arrays = has(&|k| matches!(k, SortKind::Con(n, a) if &**n == "Array" && a.len() == 2));
    let uf = s.commands.iter().any(|c| match c.kind {
        CommandKind::DeclareFun(_, args, _) => !args.is_empty(),
        CommandKind::DeclareSort(..) => true,
        _ => false,
    });
    let datatypes = s
        .commands
        .iter()
        .any(|c| matches!(c.kind, CommandKind::DeclareDatatype(..) | CommandKind::DeclareDatatypes { .. }));
    let bv = has(&|k| matches!(k, SortKind::BitVec(_)));
    let fp = has(&|k| matches!(k, SortKind::Float(..) | SortKind::RoundingMode));
    let strings = has(&|k| matches!(k, SortKind::String | SortKind::RegLan));
    let ints = has(&|k| matches!(k, SortKind::Int)) || declared_sort("Int");
    let reals = has(&|k| matches!(k, SortKind::Real)) || declared_sort("Real");
    let literal = |t: &super::ast::TermId| matches!(s.term(*t), Term::Lit(..));
    let nonlinear = s.terms.iter().any(|t| match *t {
        Term::App(q, args) => {
            let op = s.str(q.ident.sym);
            let args = s.term_list(args);
            NONLINEAR.contains(&op)
                && (args.iter().filter(|a| !literal(a)).count() >= 2
                    // Division by a variable or by the literal zero is nonlinear to cvc5
                    // and yices (`(mod 0 0)` under QF_LIA is refused).
                    || (matches!(op, "/" | "div" | "mod" | "rem")
                        && args.get(1).is_some_and(|d| !literal(d) || is_zero(&super::printer::term_to_string(s, *d)))))
        }
        _ => false,
    });
    Some(name(&Features { quantifiers, arrays, uf, datatypes, bv, fp, strings, ints, reals, nonlinear }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_catalogue() {
        let f = |g: fn(&mut Features)| {
            let mut x = Features::default();
            g(&mut x);
            name(&x)
        };
        assert_eq!(f(|_| {}), "QF_UF");
        assert_eq!(f(|x| x.bv = true), "QF_BV");
        assert_eq!(f(|x| x.ints = true), "QF_LIA");
        assert_eq!(f(|x| (x.ints, x.nonlinear, x.quantifiers) = (true, true, true)), "NIA");
        assert_eq!(f(|x| (x.arrays, x.uf, x.ints) = (true, true, true)), "QF_AUFLIA");
        assert_eq!(f(|x| (x.strings, x.ints) = (true, true)), "QF_SLIA");
        assert_eq!(f(|x| (x.strings, x.ints, x.arrays) = (true, true, true)), "ALL");
        assert_eq!(f(|x| (x.ints, x.reals) = (true, true)), "QF_LIRA");
        assert_eq!(f(|x| x.arrays = true), "QF_AX");
        assert_eq!(f(|x| x.quantifiers = true), "UF");
    }
}
