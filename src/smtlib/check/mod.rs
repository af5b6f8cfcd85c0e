//! Sort checker: gives every term of a script its sort (SMT-LIB 2.6 §5 "Well-sortedness").
//!
//! Driven by the signature table ([`super::theory`]) for theory symbols and by the script's
//! own declarations for the rest (`declare-fun`, `define-fun(s)-rec`, `declare-sort`,
//! `define-sort`, datatypes with constructors, selectors and testers, `:named` terms),
//! respecting `let`/quantifier/`match` binders and `push`/`pop` scopes.
//!
//! Never fatal: a symbol nobody declared gets the unknown sort and is reported in
//! [`Checked::unknown_symbols`]; a misapplied operator is a [`Diagnostic`]. Errors do not
//! cascade: an argument of unknown sort makes its parent unknown without a new message.
//!
//! The term walk is iterative; sorts are resolved recursively but bounded by
//! [`MAX_SORT_DEPTH`], so no input can exhaust the call stack.

use super::ast::*;
use super::theory::{self, Shape, SortPat, WExpr};
use rustc_hash::{FxHashMap, FxHashSet};

use super::sort::{SortKind, SortRef, Sorts, MAX_SORT_DEPTH};

mod apply;
mod sorts;
mod terms;

/// A problem found while checking, located by command index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub command: usize,
    pub kind: DiagKind,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiagKind {
    UnknownSymbol,
    UnknownSort,
    IllSorted,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "command {}: {}", self.command + 1, self.message)
    }
}

/// The result of checking a script.
#[derive(Clone, Debug)]
pub struct Checked {
    pub sorts: Sorts,
    /// Sort of each term, indexed by [`TermId`]; unknown where it could not be determined.
    pub term_sorts: Vec<SortRef>,
    pub diagnostics: Vec<Diagnostic>,
    /// Distinct symbols and sorts nobody declared (sorts as `sort NAME`).
    pub unknown_symbols: Vec<String>,
    /// Arguments of sort `Int` where an application wants a `Real` (`(< 0.0 0)`,
    /// `(= x 1)` with `x` Real): accepted, as z3 and cvc5 accept them, but not SMT-LIB,
    /// whose Reals_Ints theory converts only by `to_real` ([`super::strict`]).
    pub coercions: u32,
}

impl Checked {
    pub fn sort_of(&self, t: TermId) -> SortRef {
        self.term_sorts[t.index()]
    }
    /// No diagnostics at all.
    pub fn is_clean(&self) -> bool {
        self.diagnostics.is_empty()
    }
}

/// The sort of theory operator `name` (with `indices`) applied to arguments of sorts
/// `args`, or `None` when no signature of the table accepts them. `sorts` is the table
/// the argument sorts come from (a [`Checked`]'s); result sorts new to it are added.
/// Engines use it to check one changed application without re-checking the script.
pub fn theory_app_sort(
    s: &Script,
    sorts: &mut Sorts,
    name: &str,
    indices: &[Index],
    args: &[SortRef],
) -> Option<SortRef> {
    if is_special_name(name) || args.contains(&SortRef::UNKNOWN) {
        return None;
    }
    let cands = theory::table().lookup(name);
    let mut c = Checker::new(s, &mut CheckScratch::default());
    std::mem::swap(&mut c.sorts, sorts);
    c.args.clear();
    c.args.extend_from_slice(args);
    let r = c.apply_theory(name, indices, args.len(), None, cands);
    std::mem::swap(&mut c.sorts, sorts);
    (r != SortRef::UNKNOWN && c.diags.is_empty()).then_some(r)
}

/// Checks a script.
pub fn check(s: &Script) -> Checked {
    let too_big = |b: &CheckScratch| b.bound.capacity() > 1 << 16 || b.work.capacity() > 1 << 16;
    super::with_thread_buffers(&CHECK_SCRATCH, too_big, |scratch| {
        let mut c = Checker::new(s, scratch);
        c.run();
        scratch.give_back(&mut c);
        Checked {
            sorts: c.sorts,
            term_sorts: c.term_sorts,
            diagnostics: c.diags,
            unknown_symbols: c.unknown_list,
            coercions: c.coercions.get(),
        }
    })
}

/// A checker's buffers between scripts on one thread: most seeds are small, and
/// allocating and regrowing these per script showed in the checker's profile. They hold
/// only sorts and term ids, never names, and are emptied before each script.
#[derive(Default)]
struct CheckScratch {
    work: Vec<Work>,
    args: Vec<SortRef>,
    bound: Vec<(SortRef, u32)>,
    scopes: Vec<usize>,
}

impl CheckScratch {
    fn give_back(&mut self, c: &mut Checker<'_>) {
        self.work = std::mem::take(&mut c.work);
        self.args = std::mem::take(&mut c.args);
        self.bound = std::mem::take(&mut c.bound);
        self.scopes = std::mem::take(&mut c.scopes);
    }
}

thread_local! {
    static CHECK_SCRATCH: std::cell::Cell<Option<Box<CheckScratch>>> = const { std::cell::Cell::new(None) };
}

#[derive(Clone, Debug)]
struct FunSig {
    params: Vec<SortRef>,
    result: SortRef,
    /// Number of sort parameters (`Param(i)`) of a parametric datatype's functions.
    ntype: u32,
}

#[derive(Clone, Debug)]
enum SortDef<'s> {
    /// Declared sort or datatype of the given arity.
    Named(u32),
    /// `define-sort` macro: parameters and body (parameters as `Param(i)`).
    Alias(Vec<&'s str>, SortRef),
}

#[derive(Clone, Debug)]
struct CtorInfo<'s> {
    datatype: &'s str,
    fields: Vec<SortRef>,
}

/// What one name denotes: local bindings (innermost last), user declarations (latest
/// last), and its theory signatures (looked up once per script).
struct Sym {
    /// Innermost local binding: index into `Checker::bound`, or `NONE`.
    local: u32,
    /// Its declarations: an index into `Checker::fun_sets` ([`NONE`] if none). Most names
    /// (every `let` variable of a deep seed) have none, and an entry with a `Vec` inline
    /// made the map of a 100,000-deep `let` 15 MB (issue 37).
    funs: u32,
    class: NameClass,
}

const NONE: u32 = u32::MAX;

impl Default for Sym {
    fn default() -> Self {
        Sym { local: NONE, funs: NONE, class: NameClass::Unclassified }
    }
}

/// How a name is resolved when no local or user declaration applies; decided on first use.
#[derive(Clone, Copy)]
enum NameClass {
    Unclassified,
    /// Handled by `apply_special` (tuples, relations, HO application, literals ...).
    Special,
    Theory(&'static [usize]),
}

enum Undo<'s> {
    Fun(&'s str),
    Sort(&'s str),
    Ctor(&'s str),
}

enum Work {
    Enter(TermId),
    Exit(TermId),
    BindLet(TermId),
    EnterCase(TermId, u32),
    ExitCase(TermId, u32),
}

struct Checker<'s> {
    s: &'s Script,
    sorts: Sorts,
    term_sorts: Vec<SortRef>,
    /// Everything a name can denote, so an application hashes its name once.
    syms: FxHashMap<&'s str, Sym>,
    /// The declarations of the names that have any ([`Sym::funs`]).
    fun_sets: Vec<Vec<FunSig>>,
    /// Local bindings: (sort, index of the binding it shadows).
    bound: Vec<(SortRef, u32)>,
    sort_defs: FxHashMap<&'s str, Vec<SortDef<'s>>>,
    ctors: FxHashMap<&'s str, Vec<CtorInfo<'s>>>,
    sort_params: Vec<(&'s str, SortRef)>,
    undo: Vec<Undo<'s>>,
    scopes: Vec<usize>,
    global_decls: bool,
    diags: Vec<Diagnostic>,
    unknown: FxHashSet<String>,
    unknown_list: Vec<String>,
    cmd: usize,
    work: Vec<Work>,
    args: Vec<SortRef>,
    /// [`Checked::coercions`] so far (a cell: sort unification reads `&self`); a
    /// signature tried and refused takes back what it counted.
    coercions: std::cell::Cell<u32>,
}

fn parse_num(s: &str) -> Option<u64> {
    s.parse().ok()
}

impl<'s> Checker<'s> {
    /// A checker of `s` in the (emptied) buffers of `scratch`.
    fn new(s: &'s Script, scratch: &mut CheckScratch) -> Self {
        fn empty<T>(v: &mut Vec<T>) -> Vec<T> {
            v.clear();
            std::mem::take(v)
        }
        let (work, args, bound, scopes) =
            (empty(&mut scratch.work), empty(&mut scratch.args), empty(&mut scratch.bound), empty(&mut scratch.scopes));
        Checker {
            s,
            sorts: Sorts::default(),
            term_sorts: vec![SortRef::UNKNOWN; s.terms.len()],
            // Sized for a typical seed's distinct names (avoids regrowing in every file).
            syms: FxHashMap::with_capacity_and_hasher(64, Default::default()),
            bound,
            sort_defs: FxHashMap::default(),
            ctors: FxHashMap::default(),
            sort_params: vec![],
            undo: vec![],
            scopes,
            global_decls: false,
            diags: vec![],
            unknown: FxHashSet::default(),
            unknown_list: vec![],
            fun_sets: vec![],
            cmd: 0,
            coercions: Default::default(),
            work,
            args,
        }
    }

    /// One more `Int` argument where a `Real` is wanted ([`Checked::coercions`]).
    fn coerced(&self) {
        self.coercions.set(self.coercions.get().saturating_add(1));
    }

    fn diag(&mut self, kind: DiagKind, message: String) {
        // Bound the list: a broken seed should not cost megabytes of messages.
        if self.diags.len() < 64 {
            self.diags.push(Diagnostic { command: self.cmd, kind, message });
        }
    }

    fn unknown_symbol(&mut self, name: String, kind: DiagKind) {
        if self.unknown.insert(name.clone()) {
            self.unknown_list.push(name.clone());
            self.diag(kind, format!("unknown {}", name));
        }
    }

    // ---- scopes ----------------------------------------------------------------------

    fn add_fun(&mut self, name: &'s str, sig: FunSig) {
        let e = self.syms.entry(name).or_default();
        if e.funs == NONE {
            e.funs = self.fun_sets.len() as u32;
            self.fun_sets.push(vec![]);
        }
        self.fun_sets[e.funs as usize].push(sig);
        self.undo.push(Undo::Fun(name));
    }
    fn add_sort_def(&mut self, name: &'s str, d: SortDef<'s>) {
        self.sort_defs.entry(name).or_default().push(d);
        self.undo.push(Undo::Sort(name));
    }
    fn add_ctor(&mut self, name: &'s str, c: CtorInfo<'s>) {
        self.ctors.entry(name).or_default().push(c);
        self.undo.push(Undo::Ctor(name));
    }

    fn push(&mut self, n: usize) {
        for _ in 0..n {
            self.scopes.push(self.undo.len());
        }
    }

    fn pop(&mut self, n: usize) {
        for _ in 0..n {
            let Some(mark) = self.scopes.pop() else {
                self.diag(DiagKind::IllSorted, "pop without matching push".into());
                return;
            };
            if self.global_decls {
                continue;
            }
            while self.undo.len() > mark {
                match self.undo.pop().unwrap() {
                    Undo::Fun(n) => {
                        if let Some(f) = self.syms.get(n).filter(|e| e.funs != NONE) {
                            self.fun_sets[f.funs as usize].pop();
                        }
                    }
                    Undo::Sort(n) => pop_entry(&mut self.sort_defs, n),
                    Undo::Ctor(n) => pop_entry(&mut self.ctors, n),
                }
            }
        }
    }

    fn bind(&mut self, name: &'s str, sort: SortRef) {
        let e = self.syms.entry(name).or_default();
        self.bound.push((sort, e.local));
        e.local = self.bound.len() as u32 - 1;
    }
    fn unbind(&mut self, name: &'s str) {
        if let Some(e) = self.syms.get_mut(name) {
            if e.local != NONE {
                e.local = self.bound[e.local as usize].1;
            }
        }
    }

    // ---- commands ----------------------------------------------------------------------

    fn run(&mut self) {
        let s = self.s;
        for (i, c) in s.commands.iter().enumerate() {
            self.cmd = i;
            self.command(&c.kind);
        }
    }

    fn command(&mut self, c: &CommandKind) {
        let s = self.s;
        match *c {
            CommandKind::Assert(t) => self.expect_bool(t, "assertion"),
            CommandKind::CheckSatAssuming(l) => {
                for &t in s.term_list(l) {
                    self.expect_bool(t, "assumption");
                }
            }
            CommandKind::GetValue(l) => {
                for &t in s.term_list(l) {
                    self.term(t);
                }
            }
            CommandKind::TermCmd { term, .. } => {
                self.term(term);
            }
            CommandKind::DeclareConst(n, so) => {
                let r = self.resolve_sort(so);
                self.add_fun(s.sym(n), FunSig { params: vec![], result: r, ntype: 0 });
            }
            CommandKind::DeclareFun(n, args, r) => {
                let params = s.sort_list(args).iter().map(|&a| self.resolve_sort(a)).collect();
                let result = self.resolve_sort(r);
                self.add_fun(s.sym(n), FunSig { params, result, ntype: 0 });
            }
            CommandKind::DeclareSort(n, a) => {
                let arity = a.and_then(|a| parse_num(s.str(a))).unwrap_or(0) as u32;
                self.add_sort_def(s.sym(n), SortDef::Named(arity));
            }
            CommandKind::DefineSort(n, ps, body) => {
                let params: Vec<&str> = s.str_list(ps).iter().map(|&p| s.sym(p)).collect();
                let base = self.sort_params.len();
                for (i, &p) in params.iter().enumerate() {
                    let r = self.sorts.intern(SortKind::Param(i as u32));
                    self.sort_params.push((p, r));
                }
                let b = self.resolve_sort(body);
                self.sort_params.truncate(base);
                self.add_sort_def(s.sym(n), SortDef::Alias(params, b));
            }
            CommandKind::DefineFun { rec, decl, body } => {
                let sig = self.fun_sig(&decl);
                if rec {
                    self.add_fun(s.sym(decl.name), sig.clone());
                }
                self.fun_body(&decl, &sig, body);
                if !rec {
                    self.add_fun(s.sym(decl.name), sig);
                }
            }
            CommandKind::DefineFunsRec(decls, bodies) => {
                let decls = s.fun_decl_list(decls);
                let sigs: Vec<FunSig> = decls.iter().map(|d| self.fun_sig(d)).collect();
                for (d, sig) in decls.iter().zip(&sigs) {
                    self.add_fun(s.sym(d.name), sig.clone());
                }
                for ((d, sig), &b) in decls.iter().zip(&sigs).zip(s.term_list(bodies)) {
                    self.fun_body(d, sig, b);
                }
            }
            CommandKind::DefineConst(n, so, t) => {
                let r = self.resolve_sort(so);
                let got = self.term(t);
                self.expect_sort(got, r, "define-const body");
                self.add_fun(s.sym(n), FunSig { params: vec![], result: r, ntype: 0 });
            }
            CommandKind::DeclareDatatype(n, d) => {
                let arity = d.params.len;
                self.add_sort_def(s.sym(n), SortDef::Named(arity));
                self.datatype(s.sym(n), &d, d.params);
            }
            CommandKind::DeclareDatatypes { form, decls, .. } => {
                let decls = s.decl_list(decls);
                match form {
                    DatatypesForm::Standard(sds) => {
                        let sds = s.sort_decl_list(sds);
                        for sd in sds {
                            let arity = parse_num(s.str(sd.arity)).unwrap_or(0) as u32;
                            self.add_sort_def(s.sym(sd.name), SortDef::Named(arity));
                        }
                        for (sd, d) in sds.iter().zip(decls) {
                            self.datatype(s.sym(sd.name), d, d.params);
                        }
                    }
                    DatatypesForm::Legacy(ps) => {
                        for d in decls {
                            if let Some(n) = d.legacy_name {
                                self.add_sort_def(s.sym(n), SortDef::Named(ps.len));
                            }
                        }
                        for d in decls {
                            if let Some(n) = d.legacy_name {
                                self.datatype(s.sym(n), d, ps);
                            }
                        }
                    }
                }
            }
            CommandKind::Push(n) => self.push(n.and_then(|n| parse_num(s.str(n))).unwrap_or(1) as usize),
            CommandKind::Pop(n) => self.pop(n.and_then(|n| parse_num(s.str(n))).unwrap_or(1) as usize),
            CommandKind::Nullary(Nullary::Reset) => {
                // `(reset)` forgets every declaration and option (SMT-LIB 2.6 §4.2.2).
                for e in self.syms.values_mut() {
                    e.funs = NONE;
                }
                self.fun_sets.clear();
                self.sort_defs.clear();
                self.ctors.clear();
                self.undo.clear();
                self.scopes.clear();
                self.global_decls = false;
            }
            CommandKind::Nullary(Nullary::ResetAssertions) => {
                let depth = self.scopes.len();
                self.pop(depth);
            }
            CommandKind::SetOption(a) if s.str(a.key) == ":global-declarations" => {
                if let AttrValue::Sexp(x) = a.value {
                    if let Sexp::Atom(_, v) = s.sexps[x.index()] {
                        self.global_decls = s.str(v) == "true";
                    }
                }
            }
            _ => {}
        }
    }

    fn fun_sig(&mut self, d: &FunDecl) -> FunSig {
        let s = self.s;
        let params = s.var_list(d.params).iter().map(|v| self.resolve_sort(v.sort)).collect();
        let result = self.resolve_sort(d.ret);
        FunSig { params, result, ntype: 0 }
    }

    fn fun_body(&mut self, d: &FunDecl, sig: &FunSig, body: TermId) {
        let s = self.s;
        let vars = s.var_list(d.params);
        for (v, &p) in vars.iter().zip(&sig.params) {
            self.bind(s.sym(v.name), p);
        }
        let got = self.term(body);
        for v in vars {
            self.unbind(s.sym(v.name));
        }
        self.expect_sort(got, sig.result, "function body");
    }

    fn datatype(&mut self, name: &'s str, d: &DatatypeDecl, params: List<Str>) {
        let s = self.s;
        let base = self.sort_params.len();
        let mut pargs = vec![];
        for (i, &p) in s.str_list(params).iter().enumerate() {
            let r = self.sorts.intern(SortKind::Param(i as u32));
            self.sort_params.push((s.sym(p), r));
            pargs.push(r);
        }
        let ntype = pargs.len() as u32;
        let dt = self.sorts.con(name, pargs);
        for c in s.ctor_list(d.ctors) {
            let mut fields = vec![];
            for f in s.var_list(c.fields) {
                let fs = self.resolve_sort(f.sort);
                fields.push(fs);
                self.add_fun(s.sym(f.name), FunSig { params: vec![dt], result: fs, ntype });
            }
            self.add_fun(s.sym(c.name), FunSig { params: fields.clone(), result: dt, ntype });
            self.add_ctor(s.sym(c.name), CtorInfo { datatype: name, fields });
        }
        self.sort_params.truncate(base);
    }
}

/// `Array` and `->` over the same sorts are interchangeable: z3 gives lambdas array
/// sorts, cvc5 function sorts, and both apply `select`/application to either.
fn same_con(a: &str, b: &str) -> bool {
    a == b || (a == "Array" && b == "->") || (a == "->" && b == "Array")
}

fn unify_width(e: &WExpr, n: u64, w: &mut [Option<u64>; 8]) -> bool {
    match e.eval(w) {
        Some(v) => v == n,
        None => match e {
            WExpr::Var(i) => {
                w[*i as usize] = Some(n);
                true
            }
            _ => false,
        },
    }
}

/// Names whose sorts [`Checker::apply_special`] computes (no table line can express them).
fn is_special_name(name: &str) -> bool {
    matches!(
        name,
        "tuple"
            | "tuple.unit"
            | "tuple.select"
            | "tuple.update"
            | "tuple.project"
            | "rel.project"
            | "table.project"
            | "rel.transpose"
            | "rel.tclosure"
            | "rel.product"
            | "table.product"
            | "rel.join"
            | "rel.join_image"
            | "rel.iden"
            | "set.insert"
            | "@"
            | "update"
            | "fmf.card"
    ) || name.starts_with("#f")
        || name.starts_with("ff")
        || name.starts_with('-')
}

fn is_bv_literal(name: &str) -> bool {
    name.len() > 2 && name.starts_with("bv") && name[2..].bytes().all(|b| b.is_ascii_digit())
}

fn pop_entry<K: std::hash::Hash + Eq + Copy, V>(m: &mut FxHashMap<K, Vec<V>>, k: K) {
    if let Some(v) = m.get_mut(&k) {
        v.pop();
        if v.is_empty() {
            m.remove(&k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Everything a user reads off a check, as text (sort ids are per check).
    fn observed(s: &Script) -> (Vec<String>, Vec<String>, Vec<String>) {
        let c = check(s);
        let sorts = c.term_sorts.iter().map(|&r| c.sorts.display(r)).collect();
        (sorts, c.diagnostics.iter().map(|d| d.to_string()).collect(), c.unknown_symbols)
    }

    /// The checker keeps its stacks with the thread ([`CheckScratch`]); a check after any
    /// other — one that leaves a scope open, one with binders, one ill-sorted — reads
    /// exactly as on a fresh thread. (An open scope that leaked would hide the second
    /// script's "pop without matching push".)
    #[test]
    fn a_check_is_independent_of_the_previous_one_on_the_thread() {
        let inputs = [
            "(push 1)(push 1)(declare-const x Int)",
            "(pop 1)(declare-const y Int)(assert (> y 0))",
            "(declare-fun f (Int) Int)(assert (forall ((x Int)) (let ((y (f x))) (> y x))))",
            "(declare-datatypes ((L 0)) (((nil) (cons (h Int) (t L)))))(declare-const l L)(assert (match l ((nil false) ((cons h t) (> h 0)))))",
            "(declare-const a (Array Int Bool))(assert (select (store a 1 true) 2))",
            "(assert (and 1 (bvadd #x1 #b1)))(assert (unknown_thing 3))",
            "",
        ];
        let scripts: Vec<Script> = inputs.iter().map(|t| crate::smtlib::parse(t).unwrap()).collect();
        let fresh: Vec<_> = scripts
            .iter()
            .map(|s| {
                let s = s.clone();
                std::thread::spawn(move || observed(&s)).join().unwrap()
            })
            .collect();
        assert!(fresh[1].1.iter().any(|d| d.contains("pop without matching push")), "{:?}", fresh[1]);
        for a in &scripts {
            for (b, want) in scripts.iter().zip(&fresh) {
                check(a);
                assert_eq!(&observed(b), want);
            }
        }
    }
}
