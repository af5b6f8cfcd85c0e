//! Parser for SMT-LIB 2.6 scripts plus the z3 and cvc5 dialects found in real corpora.
//!
//! Terms, sorts and S-expressions are parsed with explicit stacks, never recursion, so any
//! nesting depth parses in constant call-stack space. Standard commands are parsed into
//! typed [`CommandKind`]s and a malformed one is an error naming line, column and what was
//! expected; an unknown command is kept verbatim as [`CommandKind::Other`].

use super::ast::*;
use super::lexer::{line_col, LexBuffers, Lexer, Tok, Token};

/// A syntax error: byte offset in the source and a message saying what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub offset: u32,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl SyntaxError {
    /// The error as the library reports it: with the file it came from.
    pub fn in_file(self, path: &std::path::Path) -> crate::util::error::Error {
        crate::util::error::Error::Syntax {
            path: path.to_owned(),
            line: self.line,
            column: self.column,
            message: self.message,
        }
    }
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// Parses a whole script.
pub fn parse(src: &str) -> Result<Script, SyntaxError> {
    // The tape, masks and stacks of the previous parse on this thread.
    super::with_thread_buffers(&SCRATCH, |b| b.lex.toks.capacity() > 1 << 20, |b| parse_in(src, b))
}

fn parse_in(src: &str, scratch: &mut Scratch) -> Result<Script, SyntaxError> {
    let mut p = Parser::new(src, scratch, false);
    match p.script() {
        Ok(()) => Ok(p.finish(scratch)),
        Err(e) if src.contains("\\\"") => {
            p.finish(scratch);
            // SMT-LIB 2.0 files escape quotes in strings as `\"`; cvc5 still reads them.
            let mut p = Parser::new(src, scratch, true);
            match p.script() {
                Ok(()) => Ok(p.finish(scratch)),
                Err(_) => {
                    p.finish(scratch);
                    Err(e.into_syntax(src))
                }
            }
        }
        Err(e) => {
            p.finish(scratch);
            Err(e.into_syntax(src))
        }
    }
}

/// A parser's buffers between inputs: the lexer's, and the explicit stacks.
#[derive(Default)]
struct Scratch {
    lex: LexBuffers,
    stacks: Stacks,
}

/// The explicit stacks that stand in for recursion (a list's items wait on them until
/// its closing parenthesis).
#[derive(Default)]
struct Stacks {
    frames: Vec<Frame>,
    term_stack: Vec<TermId>,
    bind_stack: Vec<Binding>,
    attr_stack: Vec<Attribute>,
    case_stack: Vec<MatchCase>,
    sort_frames: Vec<(Ident, usize)>,
    sort_stack: Vec<SortId>,
    sexp_frames: Vec<usize>,
    sexp_stack: Vec<SexpId>,
    /// Items of `((x S)...)`, `(S...)` and `(s...)` lists (a `vec![]` per list before).
    var_stack: Vec<SortedVar>,
    str_stack: Vec<Str>,
}

impl Stacks {
    /// Empty stacks in the buffers of `self` (a failed parse leaves items behind).
    fn take(&mut self) -> Stacks {
        let mut st = std::mem::take(self);
        st.frames.clear();
        st.term_stack.clear();
        st.bind_stack.clear();
        st.attr_stack.clear();
        st.case_stack.clear();
        st.sort_frames.clear();
        st.sort_stack.clear();
        st.sexp_frames.clear();
        st.sexp_stack.clear();
        st.var_stack.clear();
        st.str_stack.clear();
        st
    }
}

thread_local! {
    static SCRATCH: std::cell::Cell<Option<Box<Scratch>>> = const { std::cell::Cell::new(None) };
}

impl PErr {
    fn into_syntax(self, src: &str) -> SyntaxError {
        let offset = self.offset();
        let (line, column) = line_col(src.as_bytes(), offset);
        SyntaxError { offset, line, column, message: self.0 .1 }
    }
}

/// Parses bytes that may not be UTF-8 (fuzzer input): invalid UTF-8 is an error at the
/// first bad byte, never a panic.
pub fn parse_bytes(src: &[u8]) -> Result<Script, SyntaxError> {
    match std::str::from_utf8(src) {
        Ok(s) => parse(s),
        Err(e) => {
            let (line, column) = line_col(src, e.valid_up_to() as u32);
            Err(SyntaxError { offset: e.valid_up_to() as u32, line, column, message: "invalid UTF-8".into() })
        }
    }
}

/// Boxed so that `Result<Token, PErr>` stays two words on the hot path.
struct PErr(Box<(u32, String)>);

impl PErr {
    #[cold]
    fn new(offset: u32, message: String) -> Self {
        PErr(Box::new((offset, message)))
    }
    fn offset(&self) -> u32 {
        self.0 .0
    }
}

type R<T> = Result<T, PErr>;

/// Names of the commands the parser gives a typed form (besides [`Nullary`] ones and
/// [`TERM_COMMANDS`]); a test checks that each of them parses into a typed command.
pub const TYPED_COMMANDS: &[&str] = &[
    "assert",
    "check-sat-assuming",
    "declare-codatatypes",
    "declare-const",
    "declare-datatype",
    "declare-datatypes",
    "declare-fun",
    "declare-sort",
    "define-const",
    "define-fun",
    "define-fun-rec",
    "define-funs-rec",
    "define-sort",
    "echo",
    "get-info",
    "get-option",
    "get-value",
    "pop",
    "push",
    "set-info",
    "set-logic",
    "set-option",
];

/// Solver-specific binders `(name ((x S)...) term+)`, parsed as [`Term::ExtBinder`].
pub const EXT_BINDERS: &[&str] = &["set.comprehension", "witness"];

/// Commands of solver dialects shaped `(name term attribute*)`.
pub const TERM_COMMANDS: &[&str] =
    &["assert-soft", "minimize", "maximize", "simplify", "eval", "get-qe", "get-qe-disjunct"];

enum Frame {
    App {
        head: QualIdent,
        base: usize,
    },
    ExtBinder {
        name: Str,
        vars: List<SortedVar>,
        base: usize,
    },
    LetValue {
        name: Str,
        base: usize,
    },
    LetBody {
        base: usize,
    },
    Quant {
        binder: Binder,
        vars: List<SortedVar>,
    },
    AnnotBody,
    /// Parsing the terms of `:pattern (...)` (`single`: `:no-pattern t`).
    PatternTerms {
        body: TermId,
        attr_base: usize,
        key: Str,
        base: usize,
        single: bool,
    },
    MatchScrutinee,
    MatchCase {
        scrutinee: TermId,
        base: usize,
        ctor: Str,
        vars: Option<List<Str>>,
    },
}

struct Parser<'a> {
    src: &'a str,
    /// All tokens of the input, ending with `Eof` or `Error` (see [`Lexer::tape`]).
    toks: Vec<Token>,
    i: usize,
    lex_error: &'static str,
    legacy_escapes: bool,
    s: Script,
    st: Stacks,
}

impl<'a> Parser<'a> {
    /// A parser of `src` in `scratch`'s buffers (given back by [`Parser::finish`]).
    fn new(src: &'a str, scratch: &mut Scratch, legacy: bool) -> Self {
        // Pre-size the arenas from the source length (measured on cvc5's regressions:
        // about one string per 5 bytes and one term per 7), so parsing rarely regrows.
        let n = src.len();
        let s = Script {
            text: src.to_owned(),
            strs: Vec::with_capacity(n / 5 + 8),
            terms: Vec::with_capacity(n / 7 + 8),
            term_lists: Vec::with_capacity(n / 8 + 8),
            commands: Vec::with_capacity(n / 40 + 4),
            command_offsets: Vec::with_capacity(n / 40 + 4),
            ..Script::default()
        };
        let mut lex = Lexer::new_in(src.as_bytes(), &mut scratch.lex, legacy);
        let toks = lex.tape_into(std::mem::take(&mut scratch.lex.toks));
        let lex_error = lex.error();
        lex.into_buffers(&mut scratch.lex);
        Parser { src, toks, i: 0, lex_error, legacy_escapes: legacy, s, st: scratch.stacks.take() }
    }

    /// The script, with the buffers given back to `scratch`.
    fn finish(self, scratch: &mut Scratch) -> Script {
        scratch.lex.toks = self.toks;
        scratch.stacks = self.st;
        self.s
    }

    // ---- tokens -------------------------------------------------------------------------

    /// The next token; at the end of the tape it stays on the final `Eof`/`Error`
    /// token, which every caller turns into an error through [`Parser::err`].
    #[inline(always)]
    fn next(&mut self) -> Token {
        let t = self.toks[self.i];
        if self.i + 1 < self.toks.len() {
            self.i += 1;
        }
        t
    }

    #[inline(always)]
    fn peek(&self) -> Token {
        self.toks[self.i]
    }

    #[inline]
    fn text(&self, t: Token) -> &'a str {
        &self.src[t.start as usize..t.end as usize]
    }

    #[cold]
    fn err<T>(&self, t: Token, expected: &str) -> R<T> {
        if t.kind == Tok::Error {
            return Err(PErr::new(t.start, self.lex_error.to_string()));
        }
        let found = match t.kind {
            Tok::Eof => "end of input".to_string(),
            _ => {
                let txt = self.text(t);
                let short: String = txt.chars().take(40).collect();
                if short.len() < txt.len() {
                    format!("'{short}...'")
                } else {
                    format!("'{short}'")
                }
            }
        };
        Err(PErr::new(t.start, format!("expected {expected}, found {found}")))
    }

    fn expect(&mut self, kind: Tok, what: &str) -> R<Token> {
        let t = self.next();
        if t.kind == kind {
            Ok(t)
        } else {
            self.err(t, what)
        }
    }

    fn rparen(&mut self) -> R<()> {
        self.expect(Tok::RParen, "')'").map(|_| ())
    }
    fn lparen(&mut self) -> R<()> {
        self.expect(Tok::LParen, "'('").map(|_| ())
    }

    #[inline]
    fn mk_str(&mut self, t: Token) -> Str {
        if self.legacy_escapes && t.kind == Tok::String {
            return self.legacy_string(t);
        }
        self.s.strs.push((t.start, t.end));
        Str(self.s.strs.len() as u32 - 1)
    }

    /// Under SMT-LIB 2.0 rules, `\"` is a quote and `\\` a backslash. The AST keeps the
    /// 2.6 spelling (`""`, `\`), so that printing gives a script that 2.6 rules read the
    /// same way (found by parse_target: printing 2.0 text verbatim changed its meaning).
    #[cold]
    fn legacy_string(&mut self, t: Token) -> Str {
        let text = self.text(t);
        let inner = &text[1..text.len() - 1];
        let mut out = String::with_capacity(text.len());
        out.push('"');
        let mut chars = inner.chars().peekable();
        while let Some(c) = chars.next() {
            match (c, chars.peek()) {
                ('\\', Some('"')) => {
                    chars.next();
                    out.push_str("\"\"");
                }
                ('\\', Some('\\')) => {
                    chars.next();
                    out.push('\\');
                }
                ('"', _) => out.push_str("\"\""),
                (c, _) => out.push(c),
            }
        }
        out.push('"');
        self.s.intern(&out)
    }

    fn symbol(&mut self, what: &str) -> R<Str> {
        let t = self.next();
        match t.kind {
            Tok::Symbol | Tok::QuotedSymbol => Ok(self.mk_str(t)),
            _ => self.err(t, what),
        }
    }

    fn numeral(&mut self, what: &str) -> R<Str> {
        let t = self.expect(Tok::Numeral, what)?;
        Ok(self.mk_str(t))
    }

    #[inline(always)]
    fn is_rparen_next(&self) -> bool {
        self.peek().kind == Tok::RParen
    }

    // ---- list pools ---------------------------------------------------------------------

    fn push_list<T: Copy>(pool: &mut Vec<T>, stack: &mut Vec<T>, base: usize) -> List<T> {
        let start = pool.len() as u32;
        pool.extend_from_slice(&stack[base..]);
        stack.truncate(base);
        List::new(start, pool.len() as u32 - start)
    }

    fn list_of<T: Copy>(pool: &mut Vec<T>, items: &[T]) -> List<T> {
        let start = pool.len() as u32;
        pool.extend_from_slice(items);
        List::new(start, items.len() as u32)
    }

    fn add_term(&mut self, t: Term) -> TermId {
        self.s.terms.push(t);
        TermId(self.s.terms.len() as u32 - 1)
    }

    // ---- script and commands ------------------------------------------------------------

    fn script(&mut self) -> R<()> {
        loop {
            let t = self.next();
            match t.kind {
                Tok::Eof => return Ok(()),
                Tok::LParen => {
                    self.s.command_offsets.push(t.start);
                    let kind = self.command()?;
                    self.s.commands.push(Command { kind });
                }
                _ => return self.err(t, "'(' to start a command"),
            }
        }
    }

    fn command(&mut self) -> R<CommandKind> {
        let nt = self.next();
        if nt.kind != Tok::Symbol {
            return self.err(nt, "a command name");
        }
        let name = self.text(nt);
        let kind = match name {
            "assert" => {
                let t = self.term()?;
                CommandKind::Assert(t)
            }
            "declare-const" => {
                let n = self.symbol("a constant name")?;
                let s = self.sort()?;
                CommandKind::DeclareConst(n, s)
            }
            "declare-fun" => {
                let n = self.symbol("a function name")?;
                let args = self.sort_list()?;
                let r = self.sort()?;
                CommandKind::DeclareFun(n, args, r)
            }
            "declare-sort" => {
                let n = self.symbol("a sort name")?;
                let a = if self.peek().kind == Tok::Numeral { Some(self.numeral("an arity")?) } else { None };
                CommandKind::DeclareSort(n, a)
            }
            "define-sort" => {
                let n = self.symbol("a sort name")?;
                let ps = self.symbol_list("sort parameter")?;
                let s = self.sort()?;
                CommandKind::DefineSort(n, ps, s)
            }
            "define-fun" | "define-fun-rec" => {
                let decl = self.fun_decl()?;
                let body = self.term()?;
                CommandKind::DefineFun { rec: name == "define-fun-rec", decl, body }
            }
            "define-funs-rec" => {
                self.lparen()?;
                let mut decls = vec![];
                while !self.is_rparen_next() {
                    self.lparen()?;
                    decls.push(self.fun_decl()?);
                    self.rparen()?;
                }
                self.next();
                let decls = Self::list_of(&mut self.s.fun_decls, &decls);
                self.lparen()?;
                let base = self.st.term_stack.len();
                while !self.is_rparen_next() {
                    let t = self.term()?;
                    self.st.term_stack.push(t);
                }
                self.next();
                let bodies = Self::push_list(&mut self.s.term_lists, &mut self.st.term_stack, base);
                CommandKind::DefineFunsRec(decls, bodies)
            }
            "define-const" => {
                let n = self.symbol("a constant name")?;
                let s = self.sort()?;
                let t = self.term()?;
                CommandKind::DefineConst(n, s, t)
            }
            "declare-datatype" => {
                let n = self.symbol("a datatype name")?;
                let d = self.datatype_decl(None)?;
                CommandKind::DeclareDatatype(n, d)
            }
            "declare-datatypes" | "declare-codatatypes" => self.declare_datatypes(name == "declare-codatatypes")?,
            "push" | "pop" => {
                let n = if self.peek().kind == Tok::Numeral { Some(self.numeral("a numeral")?) } else { None };
                if name == "push" {
                    CommandKind::Push(n)
                } else {
                    CommandKind::Pop(n)
                }
            }
            "set-logic" => CommandKind::SetLogic(self.symbol("a logic name")?),
            "set-option" => CommandKind::SetOption(self.attribute()?),
            "set-info" => CommandKind::SetInfo(self.attribute()?),
            "get-info" => {
                let t = self.expect(Tok::Keyword, "a keyword")?;
                CommandKind::GetInfo(self.mk_str(t))
            }
            "get-option" => {
                let t = self.expect(Tok::Keyword, "a keyword")?;
                CommandKind::GetOption(self.mk_str(t))
            }
            "echo" => {
                let t = self.expect(Tok::String, "a string literal")?;
                CommandKind::Echo(self.mk_str(t))
            }
            "check-sat-assuming" | "get-value" => {
                self.lparen()?;
                let base = self.st.term_stack.len();
                while !self.is_rparen_next() {
                    let t = self.term()?;
                    self.st.term_stack.push(t);
                }
                self.next();
                let l = Self::push_list(&mut self.s.term_lists, &mut self.st.term_stack, base);
                if name == "get-value" {
                    CommandKind::GetValue(l)
                } else {
                    CommandKind::CheckSatAssuming(l)
                }
            }
            _ => {
                if let Some(&(n, _)) = Nullary::ALL.iter().find(|(_, s)| *s == name) {
                    if self.is_rparen_next() {
                        CommandKind::Nullary(n)
                    } else {
                        // z3's `(check-sat a b)` and similar: kept verbatim.
                        let name = self.mk_str(nt);
                        return self.other(name);
                    }
                } else if TERM_COMMANDS.contains(&name) {
                    let name = self.mk_str(nt);
                    let term = self.term()?;
                    let base = self.st.attr_stack.len();
                    while !self.is_rparen_next() {
                        let a = self.attribute()?;
                        self.st.attr_stack.push(a);
                    }
                    let attrs = Self::push_list(&mut self.s.attrs, &mut self.st.attr_stack, base);
                    CommandKind::TermCmd { name, term, attrs }
                } else {
                    let name = self.mk_str(nt);
                    return self.other(name);
                }
            }
        };
        self.rparen()?;
        Ok(kind)
    }

    /// An unknown command: its arguments are S-expressions up to the closing paren.
    fn other(&mut self, name: Str) -> R<CommandKind> {
        let mut args = vec![];
        while !self.is_rparen_next() {
            let t = self.peek();
            if t.kind == Tok::Eof {
                return self.err(t, "')'");
            }
            args.push(self.sexp()?);
        }
        self.next();
        let args = Self::list_of(&mut self.s.sexp_lists, &args);
        Ok(CommandKind::Other { name, args })
    }

    fn fun_decl(&mut self) -> R<FunDecl> {
        let name = self.symbol("a function name")?;
        let params = self.sorted_vars()?;
        let ret = self.sort()?;
        Ok(FunDecl { name, params, ret })
    }

    fn sorted_vars(&mut self) -> R<List<SortedVar>> {
        self.lparen()?;
        let base = self.st.var_stack.len();
        while !self.is_rparen_next() {
            self.lparen()?;
            let name = self.symbol("a variable name")?;
            let sort = self.sort()?;
            self.rparen()?;
            self.st.var_stack.push(SortedVar { name, sort });
        }
        self.next();
        Ok(Self::push_list(&mut self.s.sorted_vars, &mut self.st.var_stack, base))
    }

    fn symbol_list(&mut self, what: &str) -> R<List<Str>> {
        self.lparen()?;
        let base = self.st.str_stack.len();
        while !self.is_rparen_next() {
            let sym = self.symbol(what)?;
            self.st.str_stack.push(sym);
        }
        self.next();
        Ok(Self::push_list(&mut self.s.str_lists, &mut self.st.str_stack, base))
    }

    fn sort_list(&mut self) -> R<List<SortId>> {
        self.lparen()?;
        // `sort` leaves the stack as it found it, so the items stay above `base`.
        let base = self.st.sort_stack.len();
        while !self.is_rparen_next() {
            let so = self.sort()?;
            self.st.sort_stack.push(so);
        }
        self.next();
        Ok(Self::push_list(&mut self.s.sort_lists, &mut self.st.sort_stack, base))
    }

    fn declare_datatypes(&mut self, co: bool) -> R<CommandKind> {
        self.lparen()?;
        let first = self.peek();
        if first.kind == Tok::LParen {
            // SMT-LIB 2.6: ((D n) ...) (decl ...)
            let mut sds = vec![];
            while !self.is_rparen_next() {
                self.lparen()?;
                let name = self.symbol("a datatype name")?;
                let arity = self.numeral("an arity")?;
                self.rparen()?;
                sds.push(SortDecl { name, arity });
            }
            self.next();
            let n = sds.len();
            let sorts = Self::list_of(&mut self.s.sort_decls, &sds);
            self.lparen()?;
            let mut decls = vec![];
            for _ in 0..n {
                decls.push(self.datatype_decl(None)?);
            }
            self.rparen()?;
            let decls = Self::list_of(&mut self.s.datatype_decls, &decls);
            Ok(CommandKind::DeclareDatatypes { co, form: DatatypesForm::Standard(sorts), decls })
        } else {
            // z3 legacy: (params...) ((D ctor...) ...)
            let mut ps = vec![];
            while !self.is_rparen_next() {
                ps.push(self.symbol("a sort parameter or '(' of a datatype declaration")?);
            }
            self.next();
            let params = Self::list_of(&mut self.s.str_lists, &ps);
            self.lparen()?;
            let mut decls = vec![];
            while !self.is_rparen_next() {
                self.lparen()?;
                let name = self.symbol("a datatype name")?;
                decls.push(self.ctor_list(Some(name), List::EMPTY, false)?);
            }
            self.next();
            let decls = Self::list_of(&mut self.s.datatype_decls, &decls);
            Ok(CommandKind::DeclareDatatypes { co, form: DatatypesForm::Legacy(params), decls })
        }
    }

    /// `(ctor+)` or `(par (T+) (ctor+))`; the opening paren is not yet read.
    fn datatype_decl(&mut self, legacy_name: Option<Str>) -> R<DatatypeDecl> {
        self.lparen()?;
        let t = self.peek();
        if t.kind == Tok::Symbol && self.text(t) == "par" {
            self.next();
            let params = self.symbol_list("a sort parameter")?;
            self.lparen()?;
            let d = self.ctor_list(legacy_name, params, true)?;
            self.rparen()?;
            Ok(d)
        } else {
            self.ctor_list(legacy_name, List::EMPTY, false)
        }
    }

    /// Constructors up to and including the closing paren.
    fn ctor_list(&mut self, legacy_name: Option<Str>, params: List<Str>, has_par: bool) -> R<DatatypeDecl> {
        let mut ctors = vec![];
        while !self.is_rparen_next() {
            let t = self.next();
            match t.kind {
                Tok::Symbol | Tok::QuotedSymbol => {
                    let name = self.mk_str(t);
                    ctors.push(Ctor { name, fields: List::EMPTY, bare: true });
                }
                Tok::LParen => {
                    let name = self.symbol("a constructor name")?;
                    let mut fields = vec![];
                    while !self.is_rparen_next() {
                        self.lparen()?;
                        let fname = self.symbol("a selector name")?;
                        let sort = self.sort()?;
                        self.rparen()?;
                        fields.push(SortedVar { name: fname, sort });
                    }
                    self.next();
                    let fields = Self::list_of(&mut self.s.sorted_vars, &fields);
                    ctors.push(Ctor { name, fields, bare: false });
                }
                _ => return self.err(t, "a constructor declaration"),
            }
        }
        self.next();
        if ctors.is_empty() {
            let t = self.peek();
            return self.err(t, "at least one constructor (the list was empty)");
        }
        let ctors = Self::list_of(&mut self.s.ctors, &ctors);
        Ok(DatatypeDecl { legacy_name, params, has_par, ctors })
    }

    /// `:keyword value?`; the value is an S-expression unless the next token closes the
    /// list or starts another keyword.
    fn attribute(&mut self) -> R<Attribute> {
        let k = self.expect(Tok::Keyword, "a keyword")?;
        let key = self.mk_str(k);
        let n = self.peek();
        let value = match n.kind {
            Tok::RParen | Tok::Keyword | Tok::Eof => AttrValue::None,
            _ => AttrValue::Sexp(self.sexp()?),
        };
        Ok(Attribute { key, value })
    }

    // ---- identifiers and sorts ----------------------------------------------------------

    /// After `(_`: `symbol index+ )`.
    fn indexed_rest(&mut self) -> R<Ident> {
        let sym = self.symbol("an identifier after '_'")?;
        let start = self.s.indices.len() as u32;
        loop {
            let t = self.next();
            let ix = match t.kind {
                Tok::Numeral => Index::Num(self.mk_str(t)),
                Tok::Symbol | Tok::QuotedSymbol => Index::Sym(self.mk_str(t)),
                Tok::Hex => Index::Hex(self.mk_str(t)),
                Tok::RParen if self.s.indices.len() as u32 > start => break,
                _ => return self.err(t, "an index (numeral or symbol)"),
            };
            self.s.indices.push(ix);
        }
        Ok(Ident { sym, indices: List::new(start, self.s.indices.len() as u32 - start) })
    }

    /// After `(as`: `identifier sort )`.
    fn as_rest(&mut self) -> R<QualIdent> {
        let t = self.next();
        let ident = match t.kind {
            Tok::Symbol | Tok::QuotedSymbol => Ident { sym: self.mk_str(t), indices: List::EMPTY },
            Tok::LParen => {
                let u = self.next();
                if u.kind != Tok::Symbol || self.text(u) != "_" {
                    return self.err(u, "'_' of an indexed identifier");
                }
                self.indexed_rest()?
            }
            _ => return self.err(t, "an identifier"),
        };
        let sort = self.sort()?;
        self.rparen()?;
        Ok(QualIdent { ident, sort: Some(sort) })
    }

    fn sort(&mut self) -> R<SortId> {
        let base = self.st.sort_frames.len();
        loop {
            let t = self.next();
            let mut done = match t.kind {
                Tok::Symbol | Tok::QuotedSymbol => {
                    let sym = self.mk_str(t);
                    self.add_sort(Ident { sym, indices: List::EMPTY }, List::EMPTY)
                }
                Tok::LParen => {
                    let h = self.next();
                    let head = match h.kind {
                        Tok::Symbol if self.text(h) == "_" => {
                            // `(_ BitVec 8)` is a complete sort.
                            Err(self.indexed_rest()?)
                        }
                        Tok::Symbol | Tok::QuotedSymbol => Ok(Ident { sym: self.mk_str(h), indices: List::EMPTY }),
                        Tok::LParen => {
                            // `((_ Name n) Sort+)`: an indexed, parametric sort.
                            let u = self.next();
                            if u.kind != Tok::Symbol || self.text(u) != "_" {
                                return self.err(u, "'_' of an indexed sort");
                            }
                            Ok(self.indexed_rest()?)
                        }
                        _ => return self.err(h, "a sort"),
                    };
                    match head {
                        Err(id) => self.add_sort(id, List::EMPTY),
                        Ok(id) => {
                            self.st.sort_frames.push((id, self.st.sort_stack.len()));
                            continue;
                        }
                    }
                }
                _ => return self.err(t, "a sort"),
            };
            loop {
                if self.st.sort_frames.len() == base {
                    return Ok(done);
                }
                self.st.sort_stack.push(done);
                if self.is_rparen_next() {
                    self.next();
                    let (id, b) = self.st.sort_frames.pop().unwrap();
                    let args = Self::push_list(&mut self.s.sort_lists, &mut self.st.sort_stack, b);
                    done = self.add_sort(id, args);
                } else {
                    break;
                }
            }
        }
    }

    fn add_sort(&mut self, ident: Ident, args: List<SortId>) -> SortId {
        self.s.sorts.push(Sort { ident, args });
        SortId(self.s.sorts.len() as u32 - 1)
    }

    // ---- S-expressions ------------------------------------------------------------------

    fn sexp(&mut self) -> R<SexpId> {
        let base = self.st.sexp_frames.len();
        loop {
            let t = self.next();
            let mut done = match t.kind {
                Tok::LParen => {
                    self.st.sexp_frames.push(self.st.sexp_stack.len());
                    if self.is_rparen_next() {
                        None
                    } else {
                        continue;
                    }
                }
                Tok::RParen | Tok::Eof | Tok::Error => return self.err(t, "an S-expression"),
                k => {
                    let s = self.mk_str(t);
                    Some(self.add_sexp(Sexp::Atom(k, s)))
                }
            };
            loop {
                if let Some(d) = done {
                    if self.st.sexp_frames.len() == base {
                        return Ok(d);
                    }
                    self.st.sexp_stack.push(d);
                }
                let n = self.peek();
                match n.kind {
                    Tok::RParen => {
                        self.next();
                        let b = self.st.sexp_frames.pop().unwrap();
                        let l = Self::push_list(&mut self.s.sexp_lists, &mut self.st.sexp_stack, b);
                        done = Some(self.add_sexp(Sexp::List(l)));
                    }
                    Tok::Eof | Tok::Error => return self.err(n, "')'"),
                    _ => break,
                }
            }
        }
    }

    fn add_sexp(&mut self, x: Sexp) -> SexpId {
        self.s.sexps.push(x);
        SexpId(self.s.sexps.len() as u32 - 1)
    }

    // ---- terms --------------------------------------------------------------------------

    fn term(&mut self) -> R<TermId> {
        let base = self.st.frames.len();
        'start: loop {
            // Begin a term.
            let t = self.next();
            let mut done = match t.kind {
                Tok::Numeral => self.lit(LitKind::Numeral, t),
                Tok::Decimal => self.lit(LitKind::Decimal, t),
                Tok::Rational => self.lit(LitKind::Rational, t),
                Tok::Hex => self.lit(LitKind::Hex, t),
                Tok::Binary => self.lit(LitKind::Binary, t),
                Tok::String => self.lit(LitKind::String, t),
                Tok::Symbol | Tok::QuotedSymbol => {
                    let sym = self.mk_str(t);
                    self.add_term(Term::Var(QualIdent { ident: Ident { sym, indices: List::EMPTY }, sort: None }))
                }
                Tok::LParen => {
                    let h = self.next();
                    match h.kind {
                        // `|let|` is a plain symbol: only unquoted names can be reserved words.
                        Tok::Symbol | Tok::QuotedSymbol => {
                            match if h.kind == Tok::Symbol { self.text(h) } else { "" } {
                                "let" => {
                                    self.lparen()?;
                                    self.lparen()?;
                                    let name = self.symbol("a variable name")?;
                                    self.st.frames.push(Frame::LetValue { name, base: self.st.bind_stack.len() });
                                    continue 'start;
                                }
                                "forall" | "exists" | "lambda" => {
                                    let binder = match self.text(h) {
                                        "forall" => Binder::Forall,
                                        "exists" => Binder::Exists,
                                        _ => Binder::Lambda,
                                    };
                                    let vars = self.sorted_vars()?;
                                    if vars.is_empty() && binder != Binder::Lambda {
                                        let n = self.peek();
                                        return self.err(n, "at least one bound variable");
                                    }
                                    self.st.frames.push(Frame::Quant { binder, vars });
                                    continue 'start;
                                }
                                "!" => {
                                    self.st.frames.push(Frame::AnnotBody);
                                    continue 'start;
                                }
                                "match" => {
                                    self.st.frames.push(Frame::MatchScrutinee);
                                    continue 'start;
                                }
                                "_" => {
                                    let ident = self.indexed_rest()?;
                                    self.add_term(Term::Var(QualIdent { ident, sort: None }))
                                }
                                "as" => {
                                    let q = self.as_rest()?;
                                    self.add_term(Term::Var(q))
                                }
                                name if EXT_BINDERS.contains(&name) && self.peek().kind == Tok::LParen => {
                                    let name = self.mk_str(h);
                                    let vars = self.sorted_vars()?;
                                    self.st.frames.push(Frame::ExtBinder {
                                        name,
                                        vars,
                                        base: self.st.term_stack.len(),
                                    });
                                    continue 'start;
                                }
                                _ => {
                                    let sym = self.mk_str(h);
                                    let head = QualIdent { ident: Ident { sym, indices: List::EMPTY }, sort: None };
                                    if self.is_rparen_next() {
                                        // `(f)`: accepted by z3 and cvc5 for nullary functions.
                                        self.next();
                                        self.add_term(Term::App(head, List::EMPTY))
                                    } else {
                                        self.st.frames.push(Frame::App { head, base: self.st.term_stack.len() });
                                        continue 'start;
                                    }
                                }
                            }
                        }
                        Tok::LParen => {
                            let u = self.next();
                            let head = match (u.kind, self.text(u)) {
                                (Tok::Symbol, "_") => QualIdent { ident: self.indexed_rest()?, sort: None },
                                (Tok::Symbol, "as") => self.as_rest()?,
                                _ => return self.err(u, "'_' or 'as' of a function identifier"),
                            };
                            if self.is_rparen_next() {
                                let n = self.peek();
                                return self.err(n, "an argument");
                            }
                            self.st.frames.push(Frame::App { head, base: self.st.term_stack.len() });
                            continue 'start;
                        }
                        _ => return self.err(h, "a function symbol or binder after '('"),
                    }
                }
                _ => return self.err(t, "a term"),
            };
            // Deliver the finished term to the enclosing frames until one wants another term.
            loop {
                if self.st.frames.len() == base {
                    return Ok(done);
                }
                match self.st.frames.last_mut().unwrap() {
                    Frame::App { .. } => {
                        self.st.term_stack.push(done);
                        if self.is_rparen_next() {
                            self.next();
                            let Some(Frame::App { head, base }) = self.st.frames.pop() else { unreachable!() };
                            let args = Self::push_list(&mut self.s.term_lists, &mut self.st.term_stack, base);
                            done = self.add_term(Term::App(head, args));
                        } else {
                            continue 'start;
                        }
                    }
                    Frame::ExtBinder { .. } => {
                        self.st.term_stack.push(done);
                        if self.is_rparen_next() {
                            self.next();
                            let Some(Frame::ExtBinder { name, vars, base }) = self.st.frames.pop() else {
                                unreachable!()
                            };
                            let bodies = Self::push_list(&mut self.s.term_lists, &mut self.st.term_stack, base);
                            done = self.add_term(Term::ExtBinder(name, vars, bodies));
                        } else {
                            continue 'start;
                        }
                    }
                    Frame::LetValue { name, base } => {
                        let (name, b) = (*name, *base);
                        self.st.bind_stack.push(Binding { name, value: done });
                        self.rparen()?;
                        let n = self.next();
                        match n.kind {
                            Tok::LParen => {
                                let name = self.symbol("a variable name")?;
                                *self.st.frames.last_mut().unwrap() = Frame::LetValue { name, base: b };
                            }
                            Tok::RParen => *self.st.frames.last_mut().unwrap() = Frame::LetBody { base: b },
                            _ => return self.err(n, "'(' of a binding or ')'"),
                        }
                        continue 'start;
                    }
                    Frame::LetBody { base } => {
                        let b = *base;
                        self.rparen()?;
                        self.st.frames.pop();
                        let binds = Self::push_list(&mut self.s.bindings, &mut self.st.bind_stack, b);
                        done = self.add_term(Term::Let(binds, done));
                    }
                    Frame::Quant { binder, vars } => {
                        let (binder, vars) = (*binder, *vars);
                        self.rparen()?;
                        self.st.frames.pop();
                        done = self.add_term(Term::Quant(binder, vars, done));
                    }
                    Frame::AnnotBody => {
                        self.st.frames.pop();
                        if self.is_rparen_next() {
                            let n = self.peek();
                            return self.err(n, "an attribute");
                        }
                        let attr_base = self.st.attr_stack.len();
                        match self.annot_attrs(done, attr_base)? {
                            Some(t) => done = t,
                            None => continue 'start,
                        }
                    }
                    Frame::PatternTerms { body, attr_base, key, base, single } => {
                        let (body, attr_base, key, b, single) = (*body, *attr_base, *key, *base, *single);
                        self.st.term_stack.push(done);
                        if !single && !self.is_rparen_next() {
                            continue 'start;
                        }
                        if !single {
                            self.next();
                        }
                        self.st.frames.pop();
                        let terms = Self::push_list(&mut self.s.term_lists, &mut self.st.term_stack, b);
                        self.st.attr_stack.push(Attribute { key, value: AttrValue::Terms(terms) });
                        match self.annot_attrs(body, attr_base)? {
                            Some(t) => done = t,
                            None => continue 'start,
                        }
                    }
                    Frame::MatchScrutinee => {
                        self.st.frames.pop();
                        self.lparen()?;
                        self.match_case_start(done, self.st.case_stack.len())?;
                        continue 'start;
                    }
                    Frame::MatchCase { scrutinee, base, ctor, vars } => {
                        let (scrutinee, b, ctor, vars) = (*scrutinee, *base, *ctor, *vars);
                        self.st.frames.pop();
                        self.rparen()?;
                        self.st.case_stack.push(MatchCase { ctor, vars, body: done });
                        if self.is_rparen_next() {
                            self.next();
                            self.rparen()?;
                            let cases = Self::push_list(&mut self.s.cases, &mut self.st.case_stack, b);
                            done = self.add_term(Term::Match(scrutinee, cases));
                        } else {
                            self.match_case_start(scrutinee, b)?;
                            continue 'start;
                        }
                    }
                }
            }
        }
    }

    fn lit(&mut self, k: LitKind, t: Token) -> TermId {
        let s = self.mk_str(t);
        self.add_term(Term::Lit(k, s))
    }

    /// Reads `(pattern` of a match case and pushes a frame expecting its body.
    fn match_case_start(&mut self, scrutinee: TermId, base: usize) -> R<()> {
        self.lparen()?;
        let t = self.next();
        let (ctor, vars) = match t.kind {
            Tok::Symbol | Tok::QuotedSymbol => (self.mk_str(t), None),
            Tok::LParen => {
                let c = self.symbol("a constructor name")?;
                let mut vs = vec![];
                while !self.is_rparen_next() {
                    vs.push(self.symbol("a pattern variable")?);
                }
                self.next();
                (c, Some(Self::list_of(&mut self.s.str_lists, &vs)))
            }
            _ => return self.err(t, "a pattern"),
        };
        self.st.frames.push(Frame::MatchCase { scrutinee, base, ctor, vars });
        Ok(())
    }

    /// Reads attributes of `(! body ...)` until `)`. Returns the finished term, or `None`
    /// after pushing a frame for the terms of a `:pattern`.
    fn annot_attrs(&mut self, body: TermId, attr_base: usize) -> R<Option<TermId>> {
        loop {
            let t = self.next();
            match t.kind {
                Tok::RParen => {
                    let attrs = Self::push_list(&mut self.s.attrs, &mut self.st.attr_stack, attr_base);
                    return Ok(Some(self.add_term(Term::Annot(body, attrs))));
                }
                Tok::Keyword => {
                    let key = self.mk_str(t);
                    let kt = self.text(t);
                    let n = self.peek();
                    if kt == ":pattern" && n.kind == Tok::LParen {
                        self.next();
                        if self.is_rparen_next() {
                            // `:pattern ()`: accepted by cvc5 (regress0/parser/empty-pat.smt2).
                            self.next();
                            let terms = List::new(self.s.term_lists.len() as u32, 0);
                            self.st.attr_stack.push(Attribute { key, value: AttrValue::Terms(terms) });
                            continue;
                        }
                        let base = self.st.term_stack.len();
                        self.st.frames.push(Frame::PatternTerms { body, attr_base, key, base, single: false });
                        return Ok(None);
                    }
                    if kt == ":no-pattern" && !matches!(n.kind, Tok::RParen | Tok::Keyword) {
                        let base = self.st.term_stack.len();
                        self.st.frames.push(Frame::PatternTerms { body, attr_base, key, base, single: true });
                        return Ok(None);
                    }
                    let value = match n.kind {
                        Tok::RParen | Tok::Keyword => AttrValue::None,
                        _ => AttrValue::Sexp(self.sexp()?),
                    };
                    self.st.attr_stack.push(Attribute { key, value });
                }
                _ => return self.err(t, "a keyword or ')'"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The buffers a thread keeps between parses carry nothing over: after any input —
    /// one that fails mid-term with the stacks full, one that needs the SMT-LIB 2.0
    /// escapes retry — every input parses exactly as on a fresh thread.
    #[test]
    fn a_parse_is_independent_of_the_previous_one_on_the_thread() {
        let inputs = [
            "(assert (and (or a (let ((x (f (g",
            "(assert (= s \"a\\\"b\"))",
            "(declare-const x Int)(assert (let ((y x)) (> y 0)))",
            "(assert (! (forall ((x Int)) (=> (p x) (q x))) :pattern ((p x)) :named a1))",
            "(check-sat",
            "(declare-datatypes ((L 0)) (((nil) (cons (h Int) (t L)))))(assert (match l ((nil false) ((cons h t) true))))",
            "(set-info :source |multi\nline|)(get-value ((_ bv3 8) (as const (Array Int Int))))",
            "",
        ];
        let fresh = |t: &str| {
            let t = t.to_string();
            std::thread::spawn(move || parse(&t)).join().unwrap()
        };
        for a in inputs {
            for b in inputs {
                let _ = parse(a);
                assert_eq!(parse(b), fresh(b), "{b:?} after {a:?}");
            }
        }
    }
}
