//! Parser for SMT-LIB 2.6 scripts plus the z3 and cvc5 dialects found in real corpora.
//!
//! Terms, sorts and S-expressions are parsed with explicit stacks, never recursion, so any
//! nesting depth parses in constant call-stack space. Standard commands are parsed into
//! typed [`CommandKind`]s and a malformed one is an error naming line, column and what was
//! expected; an unknown command is kept verbatim as [`CommandKind::Other`].

use super::ast::*;
use super::lexer::{line_col, LexBuffers, Lexer, Tok, Token};

mod commands;
mod terms;

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

/// Parses a whole script. A command whose typed form does not parse but that is a
/// well-formed S-expression is kept verbatim ([`Script::verbatim`]): solvers accept forms
/// outside the standard's grammar (z3's `(let ((x a)))`, `(Float64)`, `(_ map (+ (Int
/// Int) Int))`) and real suites use them, so a seed or trigger with one is still read,
/// fuzzed where typed and printed back as it came. Unbalanced parentheses and lexical
/// errors stay errors, at the first failure of the standard grammar.
pub fn parse(src: &str) -> Result<Script, SyntaxError> {
    // The masks and stacks of the previous parse on this thread.
    super::with_thread_buffers(&SCRATCH, Scratch::too_big, |b| {
        parse_in(src, b).or_else(|e| {
            // 2.6 escapes first, as for the strict grammar: the printer writes 2.6
            // spelling, so a script read under 2.0 rules must print to text that 2.6
            // rules read back the same (parse_target found `(d """" |\"|)(eval)`
            // read leniently under 2.0 rules alone, and its string doubled).
            let legacy = src.contains("\\\"");
            for escapes in [false, true] {
                if escapes && !legacy {
                    break;
                }
                let mut p = Parser::new(src, b, escapes);
                p.lenient = true;
                if p.script().is_ok() {
                    let mut s = p.finish_ok(b);
                    for v in &mut s.verbatim {
                        let (line, column) = line_col(src.as_bytes(), v.0);
                        v.1 = format!("{line}:{column}: {}", v.1);
                    }
                    return Ok(s);
                }
                p.finish(b);
            }
            Err(e)
        })
    })
}

/// [`parse`] in the standard's grammar only: the first command that does not parse is
/// an error.
pub fn parse_strict(src: &str) -> Result<Script, SyntaxError> {
    super::with_thread_buffers(&SCRATCH, Scratch::too_big, |b| parse_in(src, b))
}

fn parse_in(src: &str, scratch: &mut Scratch) -> Result<Script, SyntaxError> {
    let mut p = Parser::new(src, scratch, false);
    match p.script() {
        Ok(()) => Ok(p.finish_ok(scratch)),
        Err(e) if src.contains("\\\"") => {
            p.finish(scratch);
            // SMT-LIB 2.0 files escape quotes in strings as `\"`; cvc5 still reads them.
            let mut p = Parser::new(src, scratch, true);
            match p.script() {
                Ok(()) => Ok(p.finish_ok(scratch)),
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

impl Scratch {
    /// Grown by an input of over a megabyte or nested over 10,000 deep: not kept for
    /// the small inputs that follow.
    fn too_big(&self) -> bool {
        self.lex.ws.capacity() > (1 << 20) / 64 || self.stacks.frames.capacity() > 10_000
    }
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
    fn clone_err(&self) -> Self {
        PErr(self.0.clone())
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
    /// Tokens are read one at a time, with one of lookahead (`cur`): SMT-LIB's grammar
    /// needs no more, and a tape of every token was 18 MB of a 3 MB script (issue 37).
    lex: Lexer<'a>,
    /// The next token; the final `Eof` or `Error` once the input is read.
    cur: Token,
    legacy_escapes: bool,
    /// Keep a command whose typed form does not parse as an S-expression command
    /// ([`Script::verbatim`]) instead of failing.
    lenient: bool,
    s: Script,
    st: Stacks,
}

impl<'a> Parser<'a> {
    /// A parser of `src` in `scratch`'s buffers (given back by [`Parser::finish`]).
    fn new(src: &'a str, scratch: &mut Scratch, legacy: bool) -> Self {
        let mut lex = Lexer::new_in(src.as_bytes(), &mut scratch.lex, legacy);
        let k = lex.token_estimate();
        let cur = lex.token();
        // Pre-size the arenas from the source length (measured on cvc5's regressions:
        // about one string per 5 bytes and one term per 7), so parsing rarely regrows, and
        // at least from the tokens (a term or a string takes a token or more): a
        // script of short names (a reducer's candidate) has more terms per byte, and a
        // doubled arena of a 3 MB script was 22 MB of a reduction's peak (issue 37).
        let n = src.len();
        let s = Script {
            text: src.to_owned(),
            strs: Vec::with_capacity((n / 5).max(k / 3) + 8),
            terms: Vec::with_capacity((n / 7).max(k / 3) + 8),
            term_lists: Vec::with_capacity((n / 8).max(k / 6) + 8),
            commands: Vec::with_capacity(n / 40 + 4),
            command_offsets: Vec::with_capacity(n / 40 + 4),
            ..Script::default()
        };
        Parser { src, lex, cur, legacy_escapes: legacy, lenient: false, s, st: scratch.stacks.take() }
    }

    /// The script, with the buffers given back to `scratch`.
    fn finish(self, scratch: &mut Scratch) -> Script {
        self.lex.into_buffers(&mut scratch.lex);
        scratch.stacks = self.st;
        self.s
    }

    /// [`Parser::finish`] of a parse that succeeded: the script, its arenas' slack given
    /// back (a failed parse's script is dropped, not shrunk).
    fn finish_ok(self, scratch: &mut Scratch) -> Script {
        let mut s = self.finish(scratch);
        s.shrink_slack();
        s
    }

    // ---- tokens -------------------------------------------------------------------------

    /// The next token; at the end of the input it stays on the final `Eof`/`Error`
    /// token, which every caller turns into an error through [`Parser::err`].
    #[inline(always)]
    fn next(&mut self) -> Token {
        let t = self.cur;
        if !matches!(t.kind, Tok::Eof | Tok::Error) {
            self.cur = self.lex.token();
        }
        t
    }

    #[inline(always)]
    fn peek(&self) -> Token {
        self.cur
    }

    /// Where the parser is: [`Parser::rewind`] comes back to it.
    fn position(&self) -> (u32, Token) {
        (self.lex.offset(), self.cur)
    }

    fn rewind(&mut self, (offset, cur): (u32, Token)) {
        self.lex.seek(offset);
        self.cur = cur;
    }

    #[inline]
    fn text(&self, t: Token) -> &'a str {
        &self.src[t.start as usize..t.end as usize]
    }

    #[cold]
    fn err<T>(&self, t: Token, expected: &str) -> R<T> {
        if t.kind == Tok::Error {
            return Err(PErr::new(t.start, self.lex.error().to_string()));
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
                // `""` is an escaped quote under 2.0 rules too (the lexer reads it so).
                ('"', next) => {
                    if next == Some(&'"') {
                        chars.next();
                    }
                    out.push_str("\"\"");
                }
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
