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

/// Sorts nested deeper than this are reported and treated as unknown.
pub const MAX_SORT_DEPTH: usize = 200;

/// An interned sort.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SortRef(pub u32);

/// The structure of an interned sort.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SortKind {
    Bool,
    Int,
    Real,
    String,
    RegLan,
    RoundingMode,
    Unknown,
    BitVec(u64),
    Float(u64, u64),
    /// A sort constructor applied to sorts: `Array`, `Seq`, `Set`, `Bag`, declared sorts,
    /// datatypes.
    Con(Box<str>, Vec<SortRef>),
    /// The i-th sort parameter of a parametric declaration.
    Param(u32),
}

impl SortRef {
    pub const BOOL: SortRef = SortRef(0);
    pub const INT: SortRef = SortRef(1);
    pub const REAL: SortRef = SortRef(2);
    pub const STRING: SortRef = SortRef(3);
    pub const REGLAN: SortRef = SortRef(4);
    pub const RM: SortRef = SortRef(5);
    pub const UNKNOWN: SortRef = SortRef(6);
}

/// Interning table of sorts.
#[derive(Clone, Debug)]
pub struct Sorts {
    kinds: Vec<SortKind>,
    map: FxHashMap<SortKind, SortRef>,
    /// `BitVec(w)` for small widths, without hashing (bit-vector results are frequent).
    bv_small: Vec<SortRef>,
    /// Constructor names, and `[name id, arg ids...]` → sort: lookups without allocating.
    con_names: FxHashMap<Box<str>, u32>,
    con_map: FxHashMap<Vec<u32>, SortRef>,
    scratch: Vec<u32>,
}

impl Default for Sorts {
    fn default() -> Self {
        let mut s = Sorts {
            kinds: vec![],
            map: FxHashMap::default(),
            bv_small: vec![],
            con_names: FxHashMap::default(),
            con_map: FxHashMap::default(),
            scratch: vec![],
        };
        // The base sorts occupy ids 0..7 and are matched in `intern` without hashing.
        s.kinds.extend(BASE_SORTS.iter().cloned());
        s
    }
}

const BASE_SORTS: [SortKind; 7] = [
    SortKind::Bool,
    SortKind::Int,
    SortKind::Real,
    SortKind::String,
    SortKind::RegLan,
    SortKind::RoundingMode,
    SortKind::Unknown,
];

impl Sorts {
    pub fn intern(&mut self, k: SortKind) -> SortRef {
        match k {
            SortKind::Bool => return SortRef::BOOL,
            SortKind::Int => return SortRef::INT,
            SortKind::Real => return SortRef::REAL,
            SortKind::String => return SortRef::STRING,
            SortKind::RegLan => return SortRef::REGLAN,
            SortKind::RoundingMode => return SortRef::RM,
            SortKind::Unknown => return SortRef::UNKNOWN,
            _ => {}
        }
        if let Some(&r) = self.map.get(&k) {
            return r;
        }
        let r = SortRef(self.kinds.len() as u32);
        self.kinds.push(k.clone());
        self.map.insert(k, r);
        r
    }
    pub fn kind(&self, r: SortRef) -> &SortKind {
        &self.kinds[r.0 as usize]
    }
    pub fn bv(&mut self, w: u64) -> SortRef {
        const SMALL: u64 = 256;
        if w >= SMALL {
            return self.intern(SortKind::BitVec(w));
        }
        if let Some(&r) = self.bv_small.get(w as usize) {
            if r != SortRef::UNKNOWN {
                return r;
            }
        } else {
            self.bv_small.resize(w as usize + 1, SortRef::UNKNOWN);
        }
        let r = self.intern(SortKind::BitVec(w));
        self.bv_small[w as usize] = r;
        r
    }
    /// The sort a signature pattern denotes under width and sort-parameter assignments
    /// (`None` where one is unassigned, or a bit-vector width is 0). Shared by the sort
    /// checker and the generator, which instantiates the table over a universe of sorts.
    pub fn instantiate(&mut self, p: &SortPat, w: &[Option<u64>], se: &[Option<SortRef>]) -> Option<SortRef> {
        Some(match p {
            SortPat::Bool => SortRef::BOOL,
            SortPat::Int => SortRef::INT,
            SortPat::Real => SortRef::REAL,
            SortPat::String => SortRef::STRING,
            SortPat::RegLan => SortRef::REGLAN,
            SortPat::RoundingMode => SortRef::RM,
            SortPat::BitVec(e) => self.bv(e.eval(w).filter(|&v| v > 0)?),
            SortPat::Float(e, s) => self.intern(SortKind::Float(e.eval(w)?, s.eval(w)?)),
            SortPat::Param(i) => (*se.get(*i as usize)?)?,
            SortPat::Con(n, ps) => {
                let mut args = vec![];
                for p in ps {
                    args.push(self.instantiate(p, w, se)?);
                }
                self.con(n, args)
            }
        })
    }

    fn con(&mut self, name: &str, args: Vec<SortRef>) -> SortRef {
        self.con_slice(name, &args)
    }
    fn con_slice(&mut self, name: &str, args: &[SortRef]) -> SortRef {
        let id = match self.con_names.get(name) {
            Some(&id) => id,
            None => {
                let id = self.con_names.len() as u32;
                self.con_names.insert(name.into(), id);
                id
            }
        };
        self.scratch.clear();
        self.scratch.push(id);
        self.scratch.extend(args.iter().map(|a| a.0));
        if let Some(&r) = self.con_map.get(self.scratch.as_slice()) {
            return r;
        }
        let r = self.intern(SortKind::Con(name.into(), args.to_vec()));
        self.con_map.insert(self.scratch.clone(), r);
        r
    }

    /// SMT-LIB text of a sort (for messages and printing models).
    pub fn display(&self, r: SortRef) -> String {
        let mut out = String::new();
        self.write(r, &mut out, 0);
        out
    }
    fn write(&self, r: SortRef, out: &mut String, depth: usize) {
        if depth > MAX_SORT_DEPTH {
            out.push_str("...");
            return;
        }
        match self.kind(r) {
            SortKind::Bool => out.push_str("Bool"),
            SortKind::Int => out.push_str("Int"),
            SortKind::Real => out.push_str("Real"),
            SortKind::String => out.push_str("String"),
            SortKind::RegLan => out.push_str("RegLan"),
            SortKind::RoundingMode => out.push_str("RoundingMode"),
            SortKind::Unknown => out.push('?'),
            SortKind::BitVec(w) => out.push_str(&format!("(_ BitVec {w})")),
            SortKind::Float(e, s) => out.push_str(&format!("(_ FloatingPoint {e} {s})")),
            SortKind::Param(i) => out.push_str(&format!("?T{i}")),
            SortKind::Con(n, args) => {
                if args.is_empty() {
                    out.push_str(n);
                } else {
                    out.push('(');
                    out.push_str(n);
                    for &a in args {
                        out.push(' ');
                        self.write(a, out, depth + 1);
                    }
                    out.push(')');
                }
            }
        }
    }
}

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
        Checked { sorts: c.sorts, term_sorts: c.term_sorts, diagnostics: c.diags, unknown_symbols: c.unknown_list }
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
    funs: Vec<FunSig>,
    class: NameClass,
}

const NONE: u32 = u32::MAX;

impl Default for Sym {
    fn default() -> Self {
        Sym { local: NONE, funs: vec![], class: NameClass::Unclassified }
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
            cmd: 0,
            work,
            args,
        }
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
        self.syms.entry(name).or_default().funs.push(sig);
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
                        if let Some(e) = self.syms.get_mut(n) {
                            e.funs.pop();
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
                    e.funs.clear();
                }
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

    fn expect_bool(&mut self, t: TermId, what: &str) {
        let got = self.term(t);
        self.expect_sort(got, SortRef::BOOL, what);
    }

    fn expect_sort(&mut self, got: SortRef, want: SortRef, what: &str) {
        if got == want || got == SortRef::UNKNOWN || want == SortRef::UNKNOWN {
            return;
        }
        if want == SortRef::REAL && got == SortRef::INT {
            return;
        }
        let msg = format!("{what} has sort {}, expected {}", self.sorts.display(got), self.sorts.display(want));
        self.diag(DiagKind::IllSorted, msg);
    }

    // ---- sorts -------------------------------------------------------------------------

    fn resolve_sort(&mut self, so: SortId) -> SortRef {
        self.resolve_sort_depth(so, 0)
    }

    fn resolve_sort_depth(&mut self, so: SortId, depth: usize) -> SortRef {
        let s = self.s;
        if depth > MAX_SORT_DEPTH {
            self.diag(DiagKind::IllSorted, "sort nested too deeply".into());
            return SortRef::UNKNOWN;
        }
        let srt = *s.sort(so);
        let name = s.sym(srt.ident.sym);
        let idx = s.index_list(srt.ident.indices);
        if !idx.is_empty() {
            let nums: Option<Vec<u64>> =
                idx.iter().map(|i| if let Index::Num(n) = i { parse_num(s.str(*n)) } else { None }).collect();
            return match (name, nums.as_deref()) {
                ("BitVec", Some(&[w])) if w > 0 && srt.args.is_empty() => self.sorts.bv(w),
                ("FloatingPoint", Some(&[e, sb])) if e > 1 && sb > 1 && srt.args.is_empty() => {
                    self.sorts.intern(SortKind::Float(e, sb))
                }
                // cvc5 finite fields; the order can exceed 64 bits, so it stays text.
                ("FiniteField", Some(_)) | ("FiniteField", None) if idx.len() == 1 && srt.args.is_empty() => {
                    let p = match idx[0] {
                        Index::Num(n) | Index::Sym(n) | Index::Hex(n) => s.str(n),
                    };
                    self.finite_field(p)
                }
                _ => {
                    self.unknown_symbol(format!("sort (_ {name} ...)"), DiagKind::UnknownSort);
                    SortRef::UNKNOWN
                }
            };
        }
        let args: Vec<SortRef> = s.sort_list(srt.args).iter().map(|&a| self.resolve_sort_depth(a, depth + 1)).collect();
        if args.is_empty() {
            if let Some(&(_, r)) = self.sort_params.iter().rev().find(|(n, _)| *n == name) {
                return r;
            }
        }
        if let Some(d) = self.sort_defs.get(name).and_then(|v| v.last()).cloned() {
            return match d {
                SortDef::Named(arity) => {
                    if arity as usize != args.len() {
                        self.diag(
                            DiagKind::IllSorted,
                            format!("sort {name} expects {arity} arguments, got {}", args.len()),
                        );
                    }
                    self.sorts.con(name, args)
                }
                SortDef::Alias(params, body) => {
                    if params.len() != args.len() {
                        self.diag(
                            DiagKind::IllSorted,
                            format!("sort {name} expects {} arguments, got {}", params.len(), args.len()),
                        );
                        return SortRef::UNKNOWN;
                    }
                    self.subst(body, &args, 0)
                }
            };
        }
        let r = match (name, args.len()) {
            ("Bool", 0) => SortRef::BOOL,
            ("Int", 0) => SortRef::INT,
            ("Real", 0) => SortRef::REAL,
            ("String", 0) => SortRef::STRING,
            ("RegLan", 0) => SortRef::REGLAN,
            ("RoundingMode", 0) => SortRef::RM,
            ("Float16", 0) => self.sorts.intern(SortKind::Float(5, 11)),
            ("Float32", 0) => self.sorts.intern(SortKind::Float(8, 24)),
            ("Float64", 0) => self.sorts.intern(SortKind::Float(11, 53)),
            ("Float128", 0) => self.sorts.intern(SortKind::Float(15, 113)),
            ("Array", 2) | ("Seq", 1) | ("Set", 1) | ("Bag", 1) | ("Nullable", 1) => self.sorts.con(name, args),
            // Higher-order function sorts (SMT-LIB 2.7, cvc5 HO logics).
            ("->", n) if n >= 2 => self.sorts.con(name, args),
            // cvc5: (Relation A B) = (Set (Tuple A B)), (Table A B) = (Bag (Tuple A B)).
            ("Relation", _) | ("Table", _) => {
                let t = self.sorts.con("Tuple", args);
                self.sorts.con(if name == "Relation" { "Set" } else { "Bag" }, vec![t])
            }
            // cvc5 tuples and z3's n-ary arrays.
            ("Tuple", _) | ("UnitTuple", 0) => self.sorts.con(name, args),
            ("Array", n) if n > 2 => self.sorts.con(name, args),
            _ => {
                self.unknown_symbol(format!("sort {name}"), DiagKind::UnknownSort);
                SortRef::UNKNOWN
            }
        };
        r
    }

    fn fun_array_equiv(&self, a: SortRef, b: SortRef) -> bool {
        match (self.sorts.kind(a), self.sorts.kind(b)) {
            (SortKind::Con(x, xs), SortKind::Con(y, ys)) => same_con(x, y) && xs == ys,
            _ => false,
        }
    }

    fn finite_field(&mut self, order: &str) -> SortRef {
        self.sorts.con(&format!("(_ FiniteField {order})"), vec![])
    }

    /// Components of a `Tuple` sort, if `r` is one.
    fn tuple_parts(&self, r: SortRef) -> Option<Vec<SortRef>> {
        match self.sorts.kind(r) {
            SortKind::Con(n, a) if &**n == "Tuple" => Some(a.clone()),
            SortKind::Con(n, a) if &**n == "UnitTuple" && a.is_empty() => Some(vec![]),
            _ => None,
        }
    }

    /// Tuple components of a relation `(Set (Tuple ...))` or table `(Bag (Tuple ...))`.
    fn relation_parts(&self, r: SortRef) -> Option<(&'static str, Vec<SortRef>)> {
        match self.sorts.kind(r) {
            SortKind::Con(n, a) if (&**n == "Set" || &**n == "Bag") && a.len() == 1 => {
                let c = if &**n == "Set" { "Set" } else { "Bag" };
                self.tuple_parts(a[0]).map(|p| (c, p))
            }
            _ => None,
        }
    }

    fn relation(&mut self, con: &str, parts: Vec<SortRef>) -> SortRef {
        let t = self.sorts.con("Tuple", parts);
        self.sorts.con(con, vec![t])
    }

    /// Applies a value of function sort `(-> A... R)` to `args` (full or partial application).
    fn apply_fun_sort(&mut self, f: SortRef, args: &[SortRef]) -> Option<SortRef> {
        let SortKind::Con(n, ps) = self.sorts.kind(f) else { return None };
        // Lambdas get array sorts (z3's view), so arrays apply like functions too.
        let full_only = &**n == "Array";
        if !(&**n == "->" || full_only) || args.len() >= ps.len() || (full_only && args.len() + 1 != ps.len()) {
            return None;
        }
        let ps = ps.clone();
        let mut env = vec![];
        if !ps.iter().zip(args).all(|(&p, &a)| self.unify_user(p, a, &mut env, 0)) {
            return None;
        }
        let rest = &ps[args.len()..];
        Some(if rest.len() == 1 { rest[0] } else { self.sorts.con("->", rest.to_vec()) })
    }

    /// cvc5 extensions whose sorts a table line cannot express: tuples, relations, HO
    /// application, variadic `set.insert`, updaters, finite-field literals.
    fn apply_special(&mut self, name: &str, indices: &[Index], qual: Option<SortRef>) -> Option<SortRef> {
        let s = self.s;
        let args = self.args.clone();
        let nums: Vec<Option<usize>> =
            indices.iter().map(|i| if let Index::Num(n) = i { s.str(*n).parse().ok() } else { None }).collect();
        let r = match (name, indices.len(), args.as_slice()) {
            ("tuple", 0, _) => self.sorts.con("Tuple", args.clone()),
            ("tuple.unit", 0, []) => self.sorts.con("UnitTuple", vec![]),
            ("tuple.select", 1, [t]) => *self.tuple_parts(*t)?.get(nums[0]?)?,
            ("tuple.update", 1, [t, v]) => {
                let parts = self.tuple_parts(*t)?;
                (parts.get(nums[0]?)? == v).then_some(*t)?
            }
            ("tuple.project", _, [t]) => {
                let parts = self.tuple_parts(*t)?;
                let sel: Option<Vec<SortRef>> = nums.iter().map(|i| parts.get((*i)?).copied()).collect();
                self.sorts.con("Tuple", sel?)
            }
            ("rel.project" | "table.project", _, [r]) => {
                let (c, parts) = self.relation_parts(*r)?;
                let sel: Option<Vec<SortRef>> = nums.iter().map(|i| parts.get((*i)?).copied()).collect();
                self.relation(c, sel?)
            }
            ("rel.transpose", 0, [r]) => {
                let (c, mut parts) = self.relation_parts(*r)?;
                parts.reverse();
                self.relation(c, parts)
            }
            ("rel.tclosure", 0, [r]) => {
                let (_, parts) = self.relation_parts(*r)?;
                (parts.len() == 2 && parts[0] == parts[1]).then_some(*r)?
            }
            ("rel.product" | "table.product", 0, [a, b]) => {
                let (c, mut pa) = self.relation_parts(*a)?;
                let (_, pb) = self.relation_parts(*b)?;
                pa.extend(pb);
                self.relation(c, pa)
            }
            ("rel.join", 0, [a, b]) => {
                let (c, mut pa) = self.relation_parts(*a)?;
                let (_, pb) = self.relation_parts(*b)?;
                if pa.last()? != pb.first()? || pa.len() + pb.len() < 3 {
                    return None;
                }
                pa.pop();
                pa.extend_from_slice(&pb[1..]);
                self.relation(c, pa)
            }
            ("rel.join_image", 0, [r, n]) if *n == SortRef::INT => {
                let (c, parts) = self.relation_parts(*r)?;
                (parts.len() == 2).then(|| self.relation(c, vec![parts[0]]))?
            }
            ("rel.iden", 0, [r]) => {
                let (c, parts) = self.relation_parts(*r)?;
                (parts.len() == 1).then(|| self.relation(c, vec![parts[0], parts[0]]))?
            }
            ("set.insert", 0, [elems @ .., set]) if !elems.is_empty() => {
                let SortKind::Con(n, a) = self.sorts.kind(*set) else { return None };
                (&**n == "Set" && elems.iter().all(|e| *e == a[0])).then_some(*set)?
            }
            ("@", 0, [f, rest @ ..]) if !rest.is_empty() => self.apply_fun_sort(*f, rest)?,
            ("update", 1, [dt, _]) => *dt,
            ("fmf.card", 2, []) => SortRef::BOOL,
            (n, 0, []) if n.starts_with("#f") => {
                // cvc5 finite-field literal `#f<value>m<order>`.
                let (v, order) = n[2..].split_once('m')?;
                (v.bytes().all(|b| b.is_ascii_digit() || b == b'-') && order.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| self.finite_field(order))?
            }
            (n, 0, []) if n.starts_with("ff") && n[2..].parse::<i64>().is_ok() => qual?,
            // cvc5 reads the symbols `-1`, `-0.25`, `-1/4` as negative literals.
            (n, 0, []) if n.len() > 1 && n.starts_with('-') && n.as_bytes()[1].is_ascii_digit() => {
                let body = &n[1..];
                if body.bytes().all(|b| b.is_ascii_digit()) {
                    SortRef::INT
                } else if body.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b'/') {
                    SortRef::REAL
                } else {
                    return None;
                }
            }
            _ => return None,
        };
        Some(r)
    }

    /// Replaces `Param(i)` by `args[i]`.
    fn subst(&mut self, r: SortRef, args: &[SortRef], depth: usize) -> SortRef {
        if depth > MAX_SORT_DEPTH {
            return SortRef::UNKNOWN;
        }
        match self.sorts.kind(r).clone() {
            SortKind::Param(i) => args.get(i as usize).copied().unwrap_or(r),
            SortKind::Con(n, a) if !a.is_empty() => {
                let a2: Vec<SortRef> = a.iter().map(|&x| self.subst(x, args, depth + 1)).collect();
                self.sorts.con_slice(&n, &a2)
            }
            _ => r,
        }
    }

    /// Unifies a user signature's sort (with `Param`s) against an actual sort.
    fn unify_user(&self, pat: SortRef, actual: SortRef, env: &mut Vec<Option<SortRef>>, depth: usize) -> bool {
        if pat == actual || actual == SortRef::UNKNOWN {
            return true;
        }
        if depth > MAX_SORT_DEPTH {
            return false;
        }
        match (self.sorts.kind(pat), self.sorts.kind(actual)) {
            (SortKind::Param(i), _) => {
                let i = *i as usize;
                if env.len() <= i {
                    env.resize(i + 1, None);
                }
                match env[i] {
                    None => {
                        env[i] = Some(actual);
                        true
                    }
                    Some(b) => b == actual,
                }
            }
            (SortKind::Real, SortKind::Int) => true,
            (SortKind::Con(a, xs), SortKind::Con(b, ys)) if same_con(a, b) && xs.len() == ys.len() => {
                xs.iter().zip(ys).all(|(&x, &y)| self.unify_user(x, y, env, depth + 1))
            }
            // An unresolved parameter in the actual sort (`nil` without `as`) matches.
            (_, SortKind::Param(_)) => true,
            _ => false,
        }
    }

    // ---- terms -------------------------------------------------------------------------

    /// Checks a term and returns its sort.
    fn term(&mut self, root: TermId) -> SortRef {
        let s = self.s;
        self.work.push(Work::Enter(root));
        while let Some(w) = self.work.pop() {
            match w {
                Work::Enter(t) => match *s.term(t) {
                    Term::Lit(k, x) => {
                        let r = match k {
                            LitKind::Numeral => SortRef::INT,
                            LitKind::Decimal | LitKind::Rational => SortRef::REAL,
                            LitKind::String => SortRef::STRING,
                            LitKind::Hex => self.sorts.bv(4 * (s.str(x).len() as u64 - 2)),
                            LitKind::Binary => self.sorts.bv(s.str(x).len() as u64 - 2),
                        };
                        self.term_sorts[t.index()] = r;
                    }
                    Term::Var(q) => {
                        let r = self.apply(&q, 0);
                        self.term_sorts[t.index()] = r;
                    }
                    Term::App(_, args) => {
                        self.work.push(Work::Exit(t));
                        for &a in s.term_list(args).iter().rev() {
                            self.work.push(Work::Enter(a));
                        }
                    }
                    Term::Let(binds, body) => {
                        self.work.push(Work::Exit(t));
                        self.work.push(Work::Enter(body));
                        self.work.push(Work::BindLet(t));
                        for b in s.binding_list(binds).iter().rev() {
                            self.work.push(Work::Enter(b.value));
                        }
                    }
                    Term::Quant(_, vars, body) => {
                        for v in s.var_list(vars) {
                            let r = self.resolve_sort(v.sort);
                            self.bind(s.sym(v.name), r);
                        }
                        self.work.push(Work::Exit(t));
                        self.work.push(Work::Enter(body));
                    }
                    Term::ExtBinder(_, vars, bodies) => {
                        for v in s.var_list(vars) {
                            let r = self.resolve_sort(v.sort);
                            self.bind(s.sym(v.name), r);
                        }
                        self.work.push(Work::Exit(t));
                        for &b in s.term_list(bodies).iter().rev() {
                            self.work.push(Work::Enter(b));
                        }
                    }
                    Term::Match(scrut, cases) => {
                        self.work.push(Work::Exit(t));
                        for i in (0..cases.len).rev() {
                            let c = s.cases[cases.range().start + i as usize];
                            self.work.push(Work::ExitCase(t, i));
                            self.work.push(Work::Enter(c.body));
                            self.work.push(Work::EnterCase(t, i));
                        }
                        self.work.push(Work::Enter(scrut));
                    }
                    Term::Annot(body, attrs) => {
                        self.work.push(Work::Exit(t));
                        for a in s.attr_list(attrs).iter().rev() {
                            if let AttrValue::Terms(ts) = a.value {
                                for &p in s.term_list(ts).iter().rev() {
                                    self.work.push(Work::Enter(p));
                                }
                            }
                        }
                        self.work.push(Work::Enter(body));
                    }
                },
                Work::BindLet(t) => {
                    let Term::Let(binds, _) = *s.term(t) else { unreachable!() };
                    for b in s.binding_list(binds) {
                        let r = self.term_sorts[b.value.index()];
                        self.bind(s.sym(b.name), r);
                    }
                }
                Work::EnterCase(t, i) => self.enter_case(t, i),
                Work::ExitCase(t, i) => {
                    let Term::Match(_, cases) = *s.term(t) else { unreachable!() };
                    let c = s.cases[cases.range().start + i as usize];
                    match c.vars {
                        Some(vs) => {
                            for &v in s.str_list(vs) {
                                self.unbind(s.sym(v));
                            }
                        }
                        None => {
                            if !self.ctors.contains_key(s.sym(c.ctor)) {
                                self.unbind(s.sym(c.ctor));
                            }
                        }
                    }
                }
                Work::Exit(t) => {
                    let r = self.exit(t);
                    self.term_sorts[t.index()] = r;
                }
            }
        }
        self.term_sorts[root.index()]
    }

    fn enter_case(&mut self, t: TermId, i: u32) {
        let s = self.s;
        let Term::Match(scrut, cases) = *s.term(t) else { unreachable!() };
        let c = s.cases[cases.range().start + i as usize];
        let ss = self.term_sorts[scrut.index()];
        let name = s.sym(c.ctor);
        let info = self.ctor_of(name, ss);
        match c.vars {
            None => {
                if info.is_none() && !self.ctors.contains_key(name) {
                    // A variable pattern binds the scrutinee.
                    self.bind(name, ss);
                }
            }
            Some(vs) => {
                let vs = s.str_list(vs);
                let fields = match &info {
                    Some(f) if f.len() == vs.len() => f.clone(),
                    _ => {
                        if ss != SortRef::UNKNOWN {
                            self.diag(
                                DiagKind::IllSorted,
                                format!("pattern ({name} ...) does not match the scrutinee"),
                            );
                        }
                        vec![SortRef::UNKNOWN; vs.len()]
                    }
                };
                for (&v, f) in vs.iter().zip(fields) {
                    self.bind(s.sym(v), f);
                }
            }
        }
    }

    /// Field sorts of constructor `name` at the (instantiated) datatype sort `dt`.
    fn ctor_of(&mut self, name: &str, dt: SortRef) -> Option<Vec<SortRef>> {
        let infos = self.ctors.get(name)?.clone();
        for info in infos.iter().rev() {
            let args = match self.sorts.kind(dt) {
                SortKind::Con(n, a) if &**n == info.datatype => a.clone(),
                _ => continue,
            };
            let fields = info.fields.clone();
            return Some(fields.into_iter().map(|f| self.subst(f, &args, 0)).collect());
        }
        None
    }

    fn exit(&mut self, t: TermId) -> SortRef {
        let s = self.s;
        match *s.term(t) {
            Term::App(q, args) => {
                self.args.clear();
                for &a in s.term_list(args) {
                    self.args.push(self.term_sorts[a.index()]);
                }
                self.apply(&q, args.len as usize)
            }
            Term::Let(binds, body) => {
                for b in s.binding_list(binds) {
                    self.unbind(s.sym(b.name));
                }
                self.term_sorts[body.index()]
            }
            Term::Quant(binder, vars, body) => {
                for v in s.var_list(vars) {
                    self.unbind(s.sym(v.name));
                }
                let b = self.term_sorts[body.index()];
                match binder {
                    Binder::Lambda => {
                        let mut a: Vec<SortRef> = s.var_list(vars).iter().map(|v| self.resolve_sort(v.sort)).collect();
                        a.push(b);
                        self.sorts.con("->", a)
                    }
                    _ => {
                        self.expect_sort(b, SortRef::BOOL, "quantifier body");
                        SortRef::BOOL
                    }
                }
            }
            Term::ExtBinder(name, vars, bodies) => {
                let vs = s.var_list(vars);
                for v in vs {
                    self.unbind(s.sym(v.name));
                }
                let last = s.term_list(bodies).last().map_or(SortRef::UNKNOWN, |b| self.term_sorts[b.index()]);
                match (s.sym(name), vs) {
                    // (witness ((x S)) P) : S
                    ("witness", [v]) => self.resolve_sort(v.sort),
                    // (set.comprehension ((x S)...) P t) : (Set sort-of-t)
                    ("set.comprehension", _) if last != SortRef::UNKNOWN => self.sorts.con("Set", vec![last]),
                    _ => SortRef::UNKNOWN,
                }
            }
            Term::Match(_, cases) => {
                let mut r = SortRef::UNKNOWN;
                for c in s.case_list(cases) {
                    let b = self.term_sorts[c.body.index()];
                    if r == SortRef::UNKNOWN {
                        r = b;
                    } else if b != SortRef::UNKNOWN && b != r {
                        self.expect_sort(b, r, "match case");
                    }
                }
                r
            }
            Term::Annot(body, attrs) => {
                let r = self.term_sorts[body.index()];
                for a in s.attr_list(attrs) {
                    if s.str(a.key) == ":named" {
                        if let AttrValue::Sexp(x) = a.value {
                            if let Sexp::Atom(_, n) = s.sexps[x.index()] {
                                self.add_fun(s.sym(n), FunSig { params: vec![], result: r, ntype: 0 });
                            }
                        }
                    }
                }
                r
            }
            _ => self.term_sorts[t.index()],
        }
    }

    /// Sort of identifier `q` applied to `self.args[..nargs]` (no arguments for a constant).
    fn apply(&mut self, q: &QualIdent, nargs: usize) -> SortRef {
        let s = self.s;
        if nargs == 0 {
            self.args.clear();
        }
        let name = s.sym(q.ident.sym);
        let qual = q.sort.map(|so| self.resolve_sort(so));
        if self.args.contains(&SortRef::UNKNOWN) {
            return qual.unwrap_or(SortRef::UNKNOWN);
        }
        let indices = s.index_list(q.ident.indices);

        let (local, has_funs, class) = match self.syms.get(name) {
            Some(e) => ((e.local != NONE).then(|| self.bound[e.local as usize].0), !e.funs.is_empty(), e.class),
            None => (None, false, NameClass::Unclassified),
        };
        if indices.is_empty() {
            if let Some(r) = local {
                if nargs == 0 {
                    return r;
                }
                let args = self.args.clone();
                if let Some(r) = self.apply_fun_sort(r, &args) {
                    return r;
                }
            }
            if has_funs {
                if let Some(r) = self.apply_user(name, qual) {
                    return r;
                }
            }
            if let Some(dt) = name.strip_prefix("is-") {
                if nargs == 1 && self.ctors.contains_key(dt) {
                    return SortRef::BOOL;
                }
            }
            if name == "const" && nargs == 1 {
                if let Some(r) = qual {
                    return r;
                }
            }
        } else {
            match (name, indices) {
                (_, [Index::Num(w)]) if nargs == 0 && is_bv_literal(name) => {
                    return match parse_num(s.str(*w)) {
                        Some(w) if w > 0 => self.sorts.bv(w),
                        _ => {
                            self.diag(DiagKind::IllSorted, format!("bad bit-vector literal width in (_ {name} ..)"));
                            SortRef::UNKNOWN
                        }
                    };
                }
                ("is", [Index::Sym(c)]) if nargs == 1 && self.ctors.contains_key(s.sym(*c)) => return SortRef::BOOL,
                ("char", [Index::Hex(_)]) if nargs == 0 => return SortRef::STRING,
                _ => {}
            }
        }
        let class = match class {
            NameClass::Unclassified => {
                let c = if is_special_name(name) {
                    NameClass::Special
                } else {
                    NameClass::Theory(theory::table().lookup(name))
                };
                let key: &'s str = s.sym(q.ident.sym);
                self.syms.entry(key).or_default().class = c;
                c
            }
            c => c,
        };
        match class {
            NameClass::Theory(cands) => self.apply_theory(name, indices, nargs, qual, cands),
            _ => match self.apply_special(name, indices, qual) {
                Some(r) => r,
                None => self.apply_theory(name, indices, nargs, qual, theory::table().lookup(name)),
            },
        }
    }

    /// A user-declared function. `None` if the name is not declared, or if no declaration
    /// fits and the name is also a theory symbol (users may shadow `or`, `min`, ...).
    fn apply_user(&mut self, name: &str, qual: Option<SortRef>) -> Option<SortRef> {
        let sigs = &self.syms.get(name)?.funs;
        if sigs.is_empty() {
            return None;
        }
        let mut env = vec![];
        // A function used as a value (higher-order logics): its sort is (-> params result).
        if self.args.is_empty() && sigs.iter().all(|f| !f.params.is_empty()) {
            let f = sigs.last().unwrap();
            let mut all = f.params.clone();
            all.push(f.result);
            return Some(self.sorts.con("->", all));
        }
        for sig in sigs.iter().rev() {
            if sig.params.len() > self.args.len() && !self.args.is_empty() && sig.ntype == 0 {
                // Partial application (higher-order logics): the rest is a function.
                if sig.params.iter().zip(&self.args).all(|(&p, &a)| self.unify_user(p, a, &mut env, 0)) {
                    let mut rest = sig.params[self.args.len()..].to_vec();
                    rest.push(sig.result);
                    return Some(self.sorts.con("->", rest));
                }
                continue;
            }
            if sig.params.len() != self.args.len() {
                continue;
            }
            env.clear();
            if !sig.params.iter().zip(&self.args).all(|(&p, &a)| self.unify_user(p, a, &mut env, 0)) {
                continue;
            }
            if sig.ntype == 0 {
                return Some(sig.result);
            }
            if let Some(q) = qual {
                if !self.unify_user(sig.result, q, &mut env, 0) {
                    continue;
                }
                return Some(q);
            }
            let (result, n) = (sig.result, sig.ntype as usize);
            env.resize(n, None);
            let args: Vec<SortRef> =
                env.iter().enumerate().map(|(i, e)| e.unwrap_or(SortRef(u32::MAX - i as u32))).collect();
            if args.iter().any(|a| a.0 > u32::MAX - 64) {
                // A parametric constructor without `as`: its sort is not determined.
                return Some(SortRef::UNKNOWN);
            }
            return Some(self.subst(result, &args, 0));
        }
        // A constant of function sort applied to arguments.
        if let Some(f) = sigs.iter().rev().find(|f| f.params.is_empty()).map(|f| f.result) {
            let args = self.args.clone();
            if let Some(r) = self.apply_fun_sort(f, &args) {
                return Some(r);
            }
        }
        if !theory::table().lookup(name).is_empty() {
            return None;
        }
        let sig_list: Vec<String> = self.args.iter().map(|&a| self.sorts.display(a)).collect();
        let msg = format!("{name} cannot be applied to ({})", sig_list.join(" "));
        self.diag(DiagKind::IllSorted, msg);
        Some(SortRef::UNKNOWN)
    }

    fn apply_theory(
        &mut self,
        name: &str,
        indices: &[Index],
        nargs: usize,
        qual: Option<SortRef>,
        cands: &'static [usize],
    ) -> SortRef {
        let s = self.s;
        let table = theory::table();
        if cands.is_empty() {
            let shown = if indices.is_empty() { name.to_string() } else { format!("(_ {name} ...)") };
            self.unknown_symbol(shown, DiagKind::UnknownSymbol);
            return qual.unwrap_or(SortRef::UNKNOWN);
        }
        let mut idx_vals = [None; 4];
        let mut idx_ok = indices.len() <= 4;
        for (i, ix) in indices.iter().enumerate().take(4) {
            match ix {
                Index::Num(n) => idx_vals[i] = parse_num(s.str(*n)),
                _ => idx_ok = false,
            }
            if idx_vals[i].is_none() {
                idx_ok = false;
            }
        }
        for &ci in cands {
            let sig = table.sig(ci);
            if sig.indices as usize != indices.len() || !idx_ok {
                continue;
            }
            if let Some(r) = self.try_sig(sig, &idx_vals, nargs, qual) {
                return r;
            }
        }
        let shown: Vec<String> = self.args.iter().map(|&a| self.sorts.display(a)).collect();
        let msg = if indices.is_empty() {
            format!("no signature of {name} accepts ({})", shown.join(" "))
        } else {
            format!("no signature of (_ {name} ...) accepts these indices and ({})", shown.join(" "))
        };
        self.diag(DiagKind::IllSorted, msg);
        SortRef::UNKNOWN
    }

    fn try_sig(
        &mut self,
        sig: &theory::OpSig,
        idx: &[Option<u64>; 4],
        nargs: usize,
        qual: Option<SortRef>,
    ) -> Option<SortRef> {
        let fresh = || {
            let mut w = [None; 8];
            w[..4].copy_from_slice(idx);
            (w, [None::<SortRef>; 4])
        };
        let args = std::mem::take(&mut self.args);
        let r = (|| {
            let n = sig.params.len();
            match sig.shape {
                Shape::Fixed => {
                    if nargs != n {
                        return None;
                    }
                    let (mut w, mut se) = fresh();
                    for (p, &a) in sig.params.iter().zip(&args) {
                        if !self.unify_pat(p, a, &mut w, &mut se) {
                            return None;
                        }
                    }
                    if !sig.constraints_hold(&w) {
                        return None;
                    }
                    self.result(sig, &w, &mut se, qual)
                }
                Shape::Chainable | Shape::Pairwise => {
                    if nargs < 2 {
                        return None;
                    }
                    let (mut w, mut se) = fresh();
                    for &a in &args {
                        if !self.unify_pat(&sig.params[0], a, &mut w, &mut se) {
                            return None;
                        }
                    }
                    self.result(sig, &w, &mut se, qual)
                }
                Shape::LeftAssoc | Shape::RightAssoc => {
                    // `(and)`, `(or)` and unary `(and x)`, `(+ x)` are accepted by z3 and
                    // cvc5; a unary application has its argument's sort.
                    if nargs == 0 {
                        return (sig.result == SortPat::Bool && sig.params[0] == SortPat::Bool)
                            .then_some(SortRef::BOOL);
                    }
                    if nargs == 1 {
                        // Only these are read unary by z3 and cvc5 (`(=> x)` is rejected).
                        if sig.result != sig.params[0] || !matches!(sig.name, "and" | "or" | "+" | "*") {
                            return None;
                        }
                        let (mut w, mut se) = fresh();
                        return self.unify_pat(&sig.params[0], args[0], &mut w, &mut se).then_some(args[0]);
                    }
                    let left = sig.shape == Shape::LeftAssoc;
                    let at = |i: usize| if left { args[i] } else { args[args.len() - 1 - i] };
                    let mut acc = at(0);
                    for i in 1..args.len() {
                        let next = at(i);
                        let (mut w, mut se) = fresh();
                        let (first, second) = if sig.shape == Shape::LeftAssoc { (acc, next) } else { (next, acc) };
                        if !self.unify_pat(&sig.params[0], first, &mut w, &mut se)
                            || !self.unify_pat(&sig.params[1], second, &mut w, &mut se)
                            || !sig.constraints_hold(&w)
                        {
                            return None;
                        }
                        acc = self.result(sig, &w, &mut se, None)?;
                    }
                    match qual {
                        Some(q) if q != acc => None,
                        _ => Some(acc),
                    }
                }
            }
        })();
        self.args = args;
        r
    }

    fn result(
        &mut self,
        sig: &theory::OpSig,
        w: &[Option<u64>; 8],
        se: &mut [Option<SortRef>; 4],
        qual: Option<SortRef>,
    ) -> Option<SortRef> {
        if let Some(q) = qual {
            let mut w2 = *w;
            return self.unify_pat(&sig.result, q, &mut w2, se).then_some(q);
        }
        // A polymorphic constant without `as` (`seq.empty`, `set.empty`): its sort comes
        // from context, which this checker does not infer; unknown, not an error.
        Some(self.instantiate(&sig.result, w, se).unwrap_or(SortRef::UNKNOWN))
    }

    fn unify_pat(&mut self, p: &SortPat, a: SortRef, w: &mut [Option<u64>; 8], se: &mut [Option<SortRef>; 4]) -> bool {
        let k = self.sorts.kind(a);
        match (p, k) {
            (SortPat::Bool, SortKind::Bool)
            | (SortPat::Int, SortKind::Int)
            | (SortPat::Real, SortKind::Real | SortKind::Int)
            | (SortPat::String, SortKind::String)
            | (SortPat::RegLan, SortKind::RegLan)
            | (SortPat::RoundingMode, SortKind::RoundingMode) => true,
            (SortPat::BitVec(e), SortKind::BitVec(n)) => unify_width(e, *n, w),
            (SortPat::Float(e, s), SortKind::Float(a, b)) => {
                let (a, b) = (*a, *b);
                unify_width(e, a, w) && unify_width(s, b, w)
            }
            (SortPat::Con(name, ps), SortKind::Con(n2, args)) if same_con(n2, name) && ps.len() == args.len() => {
                // By index, not over a clone of the argument list, which allocated per
                // `select` and `store` (the borrow must end: unifying may intern sorts).
                (0..ps.len()).all(|i| {
                    let a = match self.sorts.kind(a) {
                        SortKind::Con(_, args) => args[i],
                        _ => return false,
                    };
                    self.unify_pat(&ps[i], a, w, se)
                })
            }
            (SortPat::Param(i), _) => {
                let i = *i as usize;
                match se[i] {
                    None => {
                        se[i] = Some(a);
                        true
                    }
                    Some(b) if b == a || self.fun_array_equiv(a, b) => true,
                    // Mixed Int/Real equalities and ites, as z3 and cvc5 accept them.
                    Some(b) if b == SortRef::INT && a == SortRef::REAL => {
                        se[i] = Some(a);
                        true
                    }
                    Some(b) => b == SortRef::REAL && a == SortRef::INT,
                }
            }
            _ => false,
        }
    }

    fn instantiate(&mut self, p: &SortPat, w: &[Option<u64>; 8], se: &[Option<SortRef>; 4]) -> Option<SortRef> {
        self.sorts.instantiate(p, w, se)
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
