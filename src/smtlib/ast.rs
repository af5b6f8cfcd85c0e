//! The SMT-LIB abstract syntax tree, stored in arenas.
//!
//! A [`Script`] owns flat vectors of nodes addressed by `u32` ids. Nothing in the tree is
//! recursive in memory, so building, walking, printing and dropping a term nested 100,000
//! deep needs no call-stack depth (every walk in this crate uses an explicit stack).
//!
//! Strings are [`Str`] ids into a string table filled in order of occurrence, and every
//! other arena is filled in parse order too. Two parses of the same tree therefore produce
//! equal arenas, which makes `==` on scripts an exact structural comparison (the round-trip
//! property `parse(print(parse(x))) == parse(x)` is checked with it).

use std::marker::PhantomData;

/// An id into [`Script`]'s string table. The text is kept exactly as written
/// (quoted symbols keep their bars, literals their spelling).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Str(pub u32);

macro_rules! id_type {
    ($($(#[$m:meta])* $name:ident),*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize { self.0 as usize }
        }
    )*};
}
id_type!(
    /// Id of a [`Term`] in [`Script::terms`].
    TermId,
    /// Id of a [`Sort`] in [`Script::sorts`].
    SortId,
    /// Id of an [`Sexp`] in [`Script::sexps`].
    SexpId
);

/// A contiguous range of one of the script's list pools.
#[derive(Debug)]
pub struct List<T> {
    pub start: u32,
    pub len: u32,
    _t: PhantomData<fn() -> T>,
}
impl<T> Clone for List<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for List<T> {}
impl<T> PartialEq for List<T> {
    fn eq(&self, o: &Self) -> bool {
        self.start == o.start && self.len == o.len
    }
}
impl<T> Eq for List<T> {}
impl<T> std::hash::Hash for List<T> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self.start, self.len).hash(h)
    }
}
impl<T> List<T> {
    pub const EMPTY: List<T> = List { start: 0, len: 0, _t: PhantomData };
    pub fn new(start: u32, len: u32) -> Self {
        List { start, len, _t: PhantomData }
    }
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// Literal kinds (SMT-LIB 2.6 §3.1 `spec_constant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LitKind {
    Numeral,
    Decimal,
    /// cvc5's `1/3`.
    Rational,
    Hex,
    Binary,
    String,
}

/// An index of an indexed identifier: `(_ extract 7 0)`, `(_ is cons)`, `(_ char #x41)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Index {
    Num(Str),
    Sym(Str),
    Hex(Str),
}

/// `symbol` or `(_ symbol index+)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    pub sym: Str,
    pub indices: List<Index>,
}

/// `identifier` or `(as identifier sort)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QualIdent {
    pub ident: Ident,
    pub sort: Option<SortId>,
}

/// `(name value)` in a `let`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Binding {
    pub name: Str,
    pub value: TermId,
}

/// `(name sort)` in quantifiers, lambdas and function definitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SortedVar {
    pub name: Str,
    pub sort: SortId,
}

/// `forall`, `exists` or `lambda`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Binder {
    Forall,
    Exists,
    Lambda,
}

impl Binder {
    pub fn keyword(self) -> &'static str {
        match self {
            Binder::Forall => "forall",
            Binder::Exists => "exists",
            Binder::Lambda => "lambda",
        }
    }
}

/// A `match` case: `(pattern term)` where the pattern is a symbol (constructor or
/// variable) or `(constructor var+)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatchCase {
    pub ctor: Str,
    /// `None` for a bare-symbol pattern, `Some(vars)` for `(ctor var+)`.
    pub vars: Option<List<Str>>,
    pub body: TermId,
}

/// Value of an attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttrValue {
    None,
    /// `:pattern (t1 ... tn)` and `:no-pattern t` hold terms, so they are sort-checked
    /// and renamed with the rest of the formula.
    Terms(List<TermId>),
    /// Any other value, kept verbatim as an S-expression.
    Sexp(SexpId),
}

/// `:keyword value?`
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Attribute {
    pub key: Str,
    pub value: AttrValue,
}

/// A term node (SMT-LIB 2.6 §3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    Lit(LitKind, Str),
    /// A constant or variable, possibly indexed (`(_ bv5 8)`, `(_ +oo 8 24)`) or qualified.
    Var(QualIdent),
    App(QualIdent, List<TermId>),
    Let(List<Binding>, TermId),
    Quant(Binder, List<SortedVar>, TermId),
    /// A solver-specific binder `(name ((x S)...) term+)`: cvc5's `set.comprehension`
    /// and `witness` (see [`crate::smtlib::parser::EXT_BINDERS`]).
    ExtBinder(Str, List<SortedVar>, List<TermId>),
    Match(TermId, List<MatchCase>),
    Annot(TermId, List<Attribute>),
}

/// A sort: `identifier` or `(identifier sort+)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sort {
    pub ident: Ident,
    pub args: List<SortId>,
}

/// An S-expression kept verbatim (attribute values, unknown commands, tactics).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sexp {
    Atom(crate::smtlib::lexer::Tok, Str),
    List(List<SexpId>),
}

/// A constructor declaration: `(name (field sort)*)`, or a bare `name` in z3's legacy form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ctor {
    pub name: Str,
    pub fields: List<SortedVar>,
    /// Written as a bare symbol (legacy `declare-datatypes`), printed the same way.
    pub bare: bool,
}

/// One datatype's constructors, with `par` parameters (2.6 form) if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DatatypeDecl {
    /// The datatype's name in z3's legacy form `(Name ctor...)`; `None` in the 2.6 form
    /// where names come from the sort declarations.
    pub legacy_name: Option<Str>,
    /// `(par (T ...) ...)` parameters; empty if none.
    pub params: List<Str>,
    /// Whether the 2.6 form wrote `(par ...)` (kept so printing is exact).
    pub has_par: bool,
    pub ctors: List<Ctor>,
}

/// `(name arity)` in the 2.6 `declare-datatypes` form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SortDecl {
    pub name: Str,
    pub arity: Str,
}

/// Which `declare-datatypes` syntax a command used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DatatypesForm {
    /// SMT-LIB 2.6: `(declare-datatypes ((D n)...) (decl...))`.
    Standard(List<SortDecl>),
    /// z3 legacy: `(declare-datatypes (params...) ((D ctor...)...))`.
    Legacy(List<Str>),
}

/// `(name ((x S)...) R)` of `define-fun(s)-rec`; body separate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FunDecl {
    pub name: Str,
    pub params: List<SortedVar>,
    pub ret: SortId,
}

/// Commands without arguments; the table is also their printed names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Nullary {
    CheckSat,
    Exit,
    GetAssertions,
    GetAssignment,
    GetModel,
    GetProof,
    GetUnsatAssumptions,
    GetUnsatCore,
    Reset,
    ResetAssertions,
}

impl Nullary {
    pub const ALL: [(Nullary, &'static str); 10] = [
        (Nullary::CheckSat, "check-sat"),
        (Nullary::Exit, "exit"),
        (Nullary::GetAssertions, "get-assertions"),
        (Nullary::GetAssignment, "get-assignment"),
        (Nullary::GetModel, "get-model"),
        (Nullary::GetProof, "get-proof"),
        (Nullary::GetUnsatAssumptions, "get-unsat-assumptions"),
        (Nullary::GetUnsatCore, "get-unsat-core"),
        (Nullary::Reset, "reset"),
        (Nullary::ResetAssertions, "reset-assertions"),
    ];
    pub fn name(self) -> &'static str {
        Self::ALL[self as usize].1
    }
}

/// A command (SMT-LIB 2.6 §3.9 plus z3 and cvc5 extensions).
///
/// Commands with a term argument that solvers add (`assert-soft`, `minimize`, `maximize`,
/// `simplify`, `eval`, `get-qe`, ...) are [`CommandKind::TermCmd`], so their terms are
/// checked and mutated like assertions. Anything unknown is [`CommandKind::Other`] and is
/// printed back verbatim: a solver-specific seed is never rejected for its dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommandKind {
    Assert(TermId),
    Nullary(Nullary),
    CheckSatAssuming(List<TermId>),
    DeclareConst(Str, SortId),
    DeclareFun(Str, List<SortId>, SortId),
    /// Arity is optional: z3 accepts `(declare-sort S)`.
    DeclareSort(Str, Option<Str>),
    DefineSort(Str, List<Str>, SortId),
    /// `define-fun` or (`rec`) `define-fun-rec`.
    DefineFun {
        rec: bool,
        decl: FunDecl,
        body: TermId,
    },
    DefineFunsRec(List<FunDecl>, List<TermId>),
    /// z3's `define-const`.
    DefineConst(Str, SortId, TermId),
    DeclareDatatype(Str, DatatypeDecl),
    /// `declare-datatypes`, or `declare-codatatypes` when `co`.
    DeclareDatatypes {
        co: bool,
        form: DatatypesForm,
        decls: List<DatatypeDecl>,
    },
    /// `(push n)`; z3 accepts `(push)`.
    Push(Option<Str>),
    Pop(Option<Str>),
    SetLogic(Str),
    SetOption(Attribute),
    SetInfo(Attribute),
    GetInfo(Str),
    GetOption(Str),
    GetValue(List<TermId>),
    Echo(Str),
    /// `(name term attribute*)`: `assert-soft`, `minimize`, `maximize`, `simplify`, `eval`, ...
    TermCmd {
        name: Str,
        term: TermId,
        attrs: List<Attribute>,
    },
    /// Any other command, kept verbatim.
    Other {
        name: Str,
        args: List<SexpId>,
    },
}

/// A command with the byte offset where it starts in the source (for messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Command {
    pub kind: CommandKind,
}

/// A parsed SMT-LIB script. See the module documentation for the storage scheme.
#[derive(Clone, Debug, Default)]
pub struct Script {
    /// Text storage for [`Str`]: the source text, plus text appended by edits.
    pub text: String,
    /// `strs[i]` is the byte range of `Str(i)` in `text`.
    pub strs: Vec<(u32, u32)>,
    pub commands: Vec<Command>,
    /// Byte offset of each command in the source it was parsed from.
    pub command_offsets: Vec<u32>,
    pub terms: Vec<Term>,
    pub term_lists: Vec<TermId>,
    pub sorts: Vec<Sort>,
    pub sort_lists: Vec<SortId>,
    pub indices: Vec<Index>,
    pub bindings: Vec<Binding>,
    pub sorted_vars: Vec<SortedVar>,
    pub cases: Vec<MatchCase>,
    pub str_lists: Vec<Str>,
    pub attrs: Vec<Attribute>,
    pub sexps: Vec<Sexp>,
    pub sexp_lists: Vec<SexpId>,
    pub ctors: Vec<Ctor>,
    pub datatype_decls: Vec<DatatypeDecl>,
    pub sort_decls: Vec<SortDecl>,
    pub fun_decls: Vec<FunDecl>,
    /// Commands kept verbatim, as S-expressions, because their typed form did not parse
    /// (z3's `(let ((x a)))`, `(Float64)`, `(_ map (+ (Int Int) Int))`): the byte offset
    /// and the typed parser's message of each. Empty for a script in the standard's
    /// grammar.
    pub verbatim: Vec<(u32, String)>,
}

/// The arena lengths of a [`Script`] at one point of a parse, to undo a command that did
/// not parse ([`Script::rewind`]).
pub(crate) struct ArenaMark([usize; 19]);

macro_rules! arenas {
    ($s:expr, $f:ident) => {
        [
            $f!($s.strs),
            $f!($s.terms),
            $f!($s.term_lists),
            $f!($s.sorts),
            $f!($s.sort_lists),
            $f!($s.indices),
            $f!($s.bindings),
            $f!($s.sorted_vars),
            $f!($s.cases),
            $f!($s.str_lists),
            $f!($s.attrs),
            $f!($s.sexps),
            $f!($s.sexp_lists),
            $f!($s.ctors),
            $f!($s.datatype_decls),
            $f!($s.sort_decls),
            $f!($s.fun_decls),
            $f!($s.commands),
            $f!($s.command_offsets),
        ]
    };
}

impl Script {
    /// Inserts a command before command `at` (its source offset: that of the command it
    /// goes before, so messages about it point near where it stands).
    pub fn insert_command(&mut self, at: usize, kind: CommandKind) {
        let at = at.min(self.commands.len());
        if self.command_offsets.len() == self.commands.len() {
            let o = self.command_offsets.get(at).or(self.command_offsets.last()).copied().unwrap_or(0);
            self.command_offsets.insert(at, o);
        }
        self.commands.insert(at, Command { kind });
    }

    /// Gives back what the parser's size estimates reserved beyond what was used, where
    /// that is 64 KiB or more: a 3 MB script's arenas held 3 MB of slack, and a reducer
    /// holds two or three such scripts at once (issue 37). Small scripts keep theirs (a
    /// shrink per arena per parse would cost every mutant).
    pub(crate) fn shrink_slack(&mut self) {
        fn shrink<T>(v: &mut Vec<T>) {
            if (v.capacity() - v.len()) * std::mem::size_of::<T>() >= 64 << 10 {
                v.shrink_to_fit()
            }
        }
        macro_rules! shrink {
            ($v:expr) => {
                shrink(&mut $v)
            };
        }
        let _ = arenas!(self, shrink);
    }

    pub(crate) fn mark(&self) -> ArenaMark {
        macro_rules! len {
            ($v:expr) => {
                $v.len()
            };
        }
        ArenaMark(arenas!(self, len))
    }

    /// Drops everything added to the arenas since `m`.
    pub(crate) fn rewind(&mut self, m: &ArenaMark) {
        let mut lens = m.0.iter().copied();
        macro_rules! cut {
            ($v:expr) => {
                $v.truncate(lens.next().unwrap_or(usize::MAX))
            };
        }
        let _ = arenas!(self, cut);
    }

    /// The text of a string id, exactly as written.
    #[inline(always)]
    pub fn str(&self, s: Str) -> &str {
        let (a, b) = self.strs[s.0 as usize];
        &self.text[a as usize..b as usize]
    }

    /// The symbol a [`Str`] denotes: `|x|` and `x` are the same symbol (SMT-LIB 2.6 §3.1).
    #[inline(always)]
    pub fn sym(&self, s: Str) -> &str {
        unquote(self.str(s))
    }

    /// Appends new text and returns its id (used by edits and builders).
    pub fn intern(&mut self, text: &str) -> Str {
        let a = self.text.len() as u32;
        // Grown by an eighth, not doubled: an edit interns a few names into a copy of a
        // seed whose text may be megabytes (a doubled 3 MB text was 6 MB, issue 37).
        if self.text.capacity() - self.text.len() < text.len() {
            self.text.reserve_exact(text.len().max(self.text.len() / 8));
        }
        self.text.push_str(text);
        self.strs.push((a, self.text.len() as u32));
        Str(self.strs.len() as u32 - 1)
    }

    pub fn term(&self, t: TermId) -> &Term {
        &self.terms[t.index()]
    }
    pub fn sort(&self, s: SortId) -> &Sort {
        &self.sorts[s.index()]
    }
    pub fn term_list(&self, l: List<TermId>) -> &[TermId] {
        &self.term_lists[l.range()]
    }
    pub fn sort_list(&self, l: List<SortId>) -> &[SortId] {
        &self.sort_lists[l.range()]
    }
    pub fn index_list(&self, l: List<Index>) -> &[Index] {
        &self.indices[l.range()]
    }
    pub fn binding_list(&self, l: List<Binding>) -> &[Binding] {
        &self.bindings[l.range()]
    }
    pub fn var_list(&self, l: List<SortedVar>) -> &[SortedVar] {
        &self.sorted_vars[l.range()]
    }
    pub fn case_list(&self, l: List<MatchCase>) -> &[MatchCase] {
        &self.cases[l.range()]
    }
    pub fn str_list(&self, l: List<Str>) -> &[Str] {
        &self.str_lists[l.range()]
    }
    pub fn attr_list(&self, l: List<Attribute>) -> &[Attribute] {
        &self.attrs[l.range()]
    }
    pub fn sexp_list(&self, l: List<SexpId>) -> &[SexpId] {
        &self.sexp_lists[l.range()]
    }
    pub fn ctor_list(&self, l: List<Ctor>) -> &[Ctor] {
        &self.ctors[l.range()]
    }
    pub fn decl_list(&self, l: List<DatatypeDecl>) -> &[DatatypeDecl] {
        &self.datatype_decls[l.range()]
    }
    pub fn sort_decl_list(&self, l: List<SortDecl>) -> &[SortDecl] {
        &self.sort_decls[l.range()]
    }
    pub fn fun_decl_list(&self, l: List<FunDecl>) -> &[FunDecl] {
        &self.fun_decls[l.range()]
    }

    /// The symbol a command declares or defines (a constant, function or sort), if any;
    /// datatypes and recursive definitions, which name several, are not covered.
    pub fn declared_name(&self, k: &CommandKind) -> Option<&str> {
        match *k {
            CommandKind::DeclareConst(n, _)
            | CommandKind::DeclareFun(n, ..)
            | CommandKind::DeclareSort(n, _)
            | CommandKind::DefineSort(n, ..)
            | CommandKind::DefineConst(n, ..) => Some(self.sym(n)),
            CommandKind::DefineFun { decl, .. } => Some(self.sym(decl.name)),
            _ => None,
        }
    }

    /// The name a command gives a term-level symbol (a function, constant or definition;
    /// not a sort).
    pub fn term_declared_name(&self, k: &CommandKind) -> Option<&str> {
        match *k {
            CommandKind::DeclareSort(..) | CommandKind::DefineSort(..) => None,
            _ => self.declared_name(k),
        }
    }

    /// The logic named by the first `set-logic`, if any.
    pub fn logic(&self) -> Option<&str> {
        self.commands.iter().find_map(|c| match c.kind {
            CommandKind::SetLogic(s) => Some(self.sym(s)),
            _ => None,
        })
    }

    /// The `:status` given by the first `set-info`, if any.
    pub fn status(&self) -> Option<&str> {
        self.commands.iter().find_map(|c| self.status_value(&c.kind))
    }

    /// Whether `c` asks for a satisfiability answer: `check-sat`, `check-sat-assuming`,
    /// or z3's `check-sat-using` (one answer each; sessions count them to read replies).
    pub fn is_check(&self, c: &CommandKind) -> bool {
        match *c {
            CommandKind::Nullary(Nullary::CheckSat) | CommandKind::CheckSatAssuming(_) => true,
            CommandKind::Other { name, .. } => self.str(name) == "check-sat-using",
            _ => false,
        }
    }

    /// Whether `c` is a `(set-info :status ...)`.
    pub fn is_status(&self, c: &CommandKind) -> bool {
        matches!(c, CommandKind::SetInfo(a) if self.str(a.key) == ":status")
    }

    /// The value (`sat`, `unsat`, `unknown`) if `c` is a `(set-info :status V)`.
    pub fn status_value(&self, c: &CommandKind) -> Option<&str> {
        match *c {
            CommandKind::SetInfo(a) if self.is_status(c) => match a.value {
                AttrValue::Sexp(s) => match self.sexps[s.index()] {
                    Sexp::Atom(_, v) => Some(self.str(v)),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// Keeps only the commands `keep` accepts (with their source offsets).
    pub fn retain_commands(&mut self, mut keep: impl FnMut(&Script, &Command) -> bool) {
        let flags: Vec<bool> = self.commands.iter().map(|c| keep(self, c)).collect();
        let mut it = flags.iter();
        self.commands.retain(|_| *it.next().unwrap_or(&true));
        let mut it = flags.iter();
        self.command_offsets.retain(|_| *it.next().unwrap_or(&true));
    }
}

impl PartialEq for Script {
    /// Structural equality: same tree, same literal text. Source offsets and the position
    /// of text in the buffer do not matter.
    fn eq(&self, o: &Self) -> bool {
        self.commands == o.commands
            && self.terms == o.terms
            && self.term_lists == o.term_lists
            && self.sorts == o.sorts
            && self.sort_lists == o.sort_lists
            && self.indices == o.indices
            && self.bindings == o.bindings
            && self.sorted_vars == o.sorted_vars
            && self.cases == o.cases
            && self.str_lists == o.str_lists
            && self.attrs == o.attrs
            && self.sexps == o.sexps
            && self.sexp_lists == o.sexp_lists
            && self.ctors == o.ctors
            && self.datatype_decls == o.datatype_decls
            && self.sort_decls == o.sort_decls
            && self.fun_decls == o.fun_decls
            && self.strs.len() == o.strs.len()
            && (0..self.strs.len() as u32).all(|i| self.str(Str(i)) == o.str(Str(i)))
    }
}

/// Strips the bars of a quoted symbol; other text is returned unchanged.
#[inline(always)]
pub fn unquote(s: &str) -> &str {
    if s.len() >= 2 && s.starts_with('|') && s.ends_with('|') {
        &s[1..s.len() - 1]
    } else {
        s
    }
}
/// The check-sat count of a script.
pub fn checks(s: &Script) -> usize {
    s.commands.iter().filter(|c| s.is_check(&c.kind)).count()
}

/// Renames symbols everywhere they occur (declarations, uses, binders, attribute values),
/// in bars where the new name is not a simple symbol (SMT-LIB 2.6 §3.1). String literals
/// and keywords are other tokens and never match. Renaming every occurrence of a name to
/// one used nowhere else is an alpha-renaming: the script means the same.
pub fn rename_symbols(s: &mut Script, map: &std::collections::HashMap<&str, &str>) {
    for i in 0..s.strs.len() {
        let id = Str(i as u32);
        if let Some(new) = map.get(s.sym(id)) {
            let a = s.text.len() as u32;
            s.text.push_str(&symbol_text(new));
            s.strs[i] = (a, s.text.len() as u32);
        }
    }
}

/// A symbol's name as it is written (SMT-LIB 2.6 §3.1): as is when it is a simple symbol,
/// else between bars (`x y` → `|x y|`).
pub fn symbol_text(n: &str) -> std::borrow::Cow<'_, str> {
    let simple = !n.is_empty()
        && !n.starts_with(|c: char| c.is_ascii_digit())
        && n.chars().all(|c| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c));
    if simple {
        n.into()
    } else {
        format!("|{n}|").into()
    }
}
