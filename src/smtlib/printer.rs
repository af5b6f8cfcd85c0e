//! Printer: the inverse of the parser. `parse(print(parse(x))) == parse(x)` for every
//! accepted script, and literal text is reproduced exactly as written.
//!
//! Terms, sorts and S-expressions are printed by one work-stack machine, so depth costs
//! heap, not call stack.

use super::ast::*;

enum Item {
    Term(TermId),
    Sort(SortId),
    Sexp(SexpId),
    Ident(Ident),
    QualIdent(QualIdent),
    Open,
    Close,
    Text(Str),
    Attr(Attribute),
}

/// Writes scripts, commands and terms as SMT-LIB text.
pub struct Printer<'s> {
    s: &'s Script,
    pub out: String,
    need_space: bool,
    stack: Vec<Item>,
    /// Terms printed as the given text instead (see [`print_with`]).
    overrides: &'s [(TermId, &'s str)],
    /// When set, the byte offset in `out` of the head of every application and quantifier
    /// printed: its operator (`(_ op ...)` for an indexed one) or binder keyword. OpFuzz
    /// mutants are then the seed's text with one operator replaced, not a re-print.
    pub heads: Option<rustc_hash::FxHashMap<TermId, u32>>,
    /// Symbols printed under other names (see [`print_renamed`]).
    renames: Option<&'s std::collections::HashMap<&'s str, &'s str>>,
}

/// Prints a whole script, one command per line.
pub fn print(s: &Script) -> String {
    Printer::new(s).script(&[])
}

/// Prints a whole script with some terms replaced by text (how text edits are applied:
/// the result is parsed back, so the replacement is checked like any other input).
pub fn print_with<'s>(s: &'s Script, overrides: &'s [(TermId, &'s str)]) -> String {
    let mut p = Printer::new(s);
    p.overrides = overrides;
    p.script(&[])
}

/// What [`crate::smtlib::ast::rename_symbols`] then [`print`] would give, with the commands
/// `skip` (sorted indices) left out, without a copy of the script: a reducer's renaming
/// of a 3 MB script copied all of it per candidate (issue 37).
pub fn print_renamed<'s>(
    s: &'s Script,
    map: &'s std::collections::HashMap<&'s str, &'s str>,
    skip: &[usize],
) -> String {
    let mut p = Printer::new(s);
    p.renames = Some(map);
    p.script(skip)
}

/// Prints one term.
pub fn term_to_string(s: &Script, t: TermId) -> String {
    let mut p = Printer::new(s);
    p.term(t);
    p.out
}

/// Prints one term with some of its subterms replaced by text.
pub fn term_with<'s>(s: &'s Script, t: TermId, overrides: &'s [(TermId, &'s str)]) -> String {
    let mut p = Printer::new(s);
    p.overrides = overrides;
    p.term(t);
    p.out
}

/// Prints one command with some terms replaced by text.
pub fn print_command_with<'s>(s: &'s Script, c: &CommandKind, overrides: &'s [(TermId, &'s str)]) -> String {
    let mut p = Printer::new(s);
    p.overrides = overrides;
    p.command(c);
    p.out
}

/// Prints one sort.
pub fn sort_to_string(s: &Script, t: SortId) -> String {
    let mut p = Printer::new(s);
    p.run(Item::Sort(t));
    p.out
}

impl<'s> Printer<'s> {
    pub fn new(s: &'s Script) -> Self {
        Printer { s, out: String::new(), need_space: false, stack: vec![], overrides: &[], heads: None, renames: None }
    }

    /// The whole script, one command per line, without the commands `skip` (sorted
    /// indices): what [`print`], [`print_with`] and [`print_renamed`] share.
    fn script(mut self, skip: &[usize]) -> String {
        let s = self.s;
        self.out.reserve(s.text.len() + s.text.len() / 8);
        for (i, c) in s.commands.iter().enumerate() {
            if skip.binary_search(&i).is_err() {
                self.command(&c.kind);
                self.newline();
            }
        }
        self.out
    }

    /// Ends a line (between commands).
    pub fn newline(&mut self) {
        self.out.push('\n');
        self.need_space = false;
    }

    #[inline]
    fn atom(&mut self, x: &str) {
        if self.need_space {
            self.out.push(' ');
        }
        self.out.push_str(x);
        self.need_space = true;
    }
    #[inline]
    fn open(&mut self) {
        if self.need_space {
            self.out.push(' ');
        }
        self.out.push('(');
        self.need_space = false;
    }
    #[inline]
    fn close(&mut self) {
        self.out.push(')');
        self.need_space = true;
    }
    #[inline]
    fn text(&mut self, x: Str) {
        let s = self.s;
        if let Some(new) = self.renames.and_then(|m| m.get(s.sym(x))) {
            self.atom(&crate::smtlib::ast::symbol_text(new));
            return;
        }
        self.atom(s.str(x));
    }

    pub fn term(&mut self, t: TermId) {
        self.run(Item::Term(t));
    }

    fn run(&mut self, first: Item) {
        let s = self.s;
        self.stack.push(first);
        while let Some(item) = self.stack.pop() {
            match item {
                Item::Open => self.open(),
                Item::Close => self.close(),
                Item::Text(x) => self.text(x),
                Item::Ident(id) => {
                    if id.indices.is_empty() {
                        self.text(id.sym);
                    } else {
                        self.open();
                        self.atom("_");
                        self.text(id.sym);
                        for ix in s.index_list(id.indices) {
                            match *ix {
                                Index::Num(x) | Index::Sym(x) | Index::Hex(x) => self.text(x),
                            }
                        }
                        self.close();
                    }
                }
                Item::QualIdent(q) => match q.sort {
                    None => self.stack.push(Item::Ident(q.ident)),
                    Some(so) => {
                        self.open();
                        self.atom("as");
                        self.stack.push(Item::Close);
                        self.stack.push(Item::Sort(so));
                        self.stack.push(Item::Ident(q.ident));
                    }
                },
                Item::Sort(so) => {
                    let srt = s.sort(so);
                    if srt.args.is_empty() {
                        self.stack.push(Item::Ident(srt.ident));
                    } else {
                        self.open();
                        self.stack.push(Item::Close);
                        for &a in s.sort_list(srt.args).iter().rev() {
                            self.stack.push(Item::Sort(a));
                        }
                        self.stack.push(Item::Ident(srt.ident));
                    }
                }
                Item::Sexp(x) => match s.sexps[x.index()] {
                    Sexp::Atom(_, t) => self.text(t),
                    Sexp::List(l) => {
                        self.open();
                        self.stack.push(Item::Close);
                        for &c in s.sexp_list(l).iter().rev() {
                            self.stack.push(Item::Sexp(c));
                        }
                    }
                },
                Item::Attr(a) => {
                    self.text(a.key);
                    match a.value {
                        AttrValue::None => {}
                        AttrValue::Sexp(x) => self.stack.push(Item::Sexp(x)),
                        AttrValue::Terms(ts) => {
                            let ts = s.term_list(ts);
                            if s.str(a.key) == ":no-pattern" && ts.len() == 1 {
                                self.stack.push(Item::Term(ts[0]));
                            } else {
                                self.open();
                                self.stack.push(Item::Close);
                                for &t in ts.iter().rev() {
                                    self.stack.push(Item::Term(t));
                                }
                            }
                        }
                    }
                }
                Item::Term(t) if !self.overrides.is_empty() && self.overrides.iter().any(|o| o.0 == t) => {
                    let text = self.overrides.iter().find(|o| o.0 == t).map(|o| o.1).unwrap_or_default();
                    self.atom(text);
                }
                Item::Term(t) => match *s.term(t) {
                    Term::Lit(_, x) => self.text(x),
                    Term::Var(q) => self.stack.push(Item::QualIdent(q)),
                    Term::App(q, args) => {
                        self.open();
                        if let Some(h) = self.heads.as_mut() {
                            h.insert(t, self.out.len() as u32);
                        }
                        self.stack.push(Item::Close);
                        for &a in s.term_list(args).iter().rev() {
                            self.stack.push(Item::Term(a));
                        }
                        self.stack.push(Item::QualIdent(q));
                    }
                    Term::Let(binds, body) => {
                        self.open();
                        self.atom("let");
                        self.open();
                        self.stack.push(Item::Close);
                        self.stack.push(Item::Term(body));
                        self.stack.push(Item::Close);
                        for b in s.binding_list(binds).iter().rev() {
                            self.stack.push(Item::Close);
                            self.stack.push(Item::Term(b.value));
                            self.stack.push(Item::Text(b.name));
                            self.stack.push(Item::Open);
                        }
                    }
                    Term::Quant(binder, vars, body) => {
                        self.open();
                        if let Some(h) = self.heads.as_mut() {
                            h.insert(t, self.out.len() as u32);
                        }
                        self.atom(binder.keyword());
                        self.open();
                        self.stack.push(Item::Close);
                        self.stack.push(Item::Term(body));
                        self.stack.push(Item::Close);
                        for v in s.var_list(vars).iter().rev() {
                            self.stack.push(Item::Close);
                            self.stack.push(Item::Sort(v.sort));
                            self.stack.push(Item::Text(v.name));
                            self.stack.push(Item::Open);
                        }
                    }
                    Term::ExtBinder(name, vars, bodies) => {
                        self.open();
                        self.text(name);
                        self.open();
                        self.stack.push(Item::Close);
                        for &b in s.term_list(bodies).iter().rev() {
                            self.stack.push(Item::Term(b));
                        }
                        self.stack.push(Item::Close);
                        for v in s.var_list(vars).iter().rev() {
                            self.stack.push(Item::Close);
                            self.stack.push(Item::Sort(v.sort));
                            self.stack.push(Item::Text(v.name));
                            self.stack.push(Item::Open);
                        }
                    }
                    Term::Match(scrut, cases) => {
                        self.open();
                        self.atom("match");
                        self.stack.push(Item::Close);
                        self.stack.push(Item::Close);
                        for c in s.case_list(cases).iter().rev() {
                            self.stack.push(Item::Close);
                            self.stack.push(Item::Term(c.body));
                            match c.vars {
                                None => self.stack.push(Item::Text(c.ctor)),
                                Some(vs) => {
                                    self.stack.push(Item::Close);
                                    for &v in s.str_list(vs).iter().rev() {
                                        self.stack.push(Item::Text(v));
                                    }
                                    self.stack.push(Item::Text(c.ctor));
                                    self.stack.push(Item::Open);
                                }
                            }
                            self.stack.push(Item::Open);
                        }
                        self.stack.push(Item::Open);
                        self.stack.push(Item::Term(scrut));
                    }
                    Term::Annot(body, attrs) => {
                        self.open();
                        self.atom("!");
                        self.stack.push(Item::Close);
                        for &a in s.attr_list(attrs).iter().rev() {
                            self.stack.push(Item::Attr(a));
                        }
                        self.stack.push(Item::Term(body));
                    }
                },
            }
        }
    }

    fn sort(&mut self, so: SortId) {
        self.run(Item::Sort(so));
    }

    /// Prints one S-expression.
    pub fn sexp(&mut self, x: SexpId) {
        self.run(Item::Sexp(x));
    }

    fn sorted_vars(&mut self, vars: List<SortedVar>) {
        let s = self.s;
        self.open();
        for v in s.var_list(vars) {
            self.open();
            self.text(v.name);
            self.sort(v.sort);
            self.close();
        }
        self.close();
    }

    fn fun_decl(&mut self, d: &FunDecl) {
        self.text(d.name);
        self.sorted_vars(d.params);
        self.sort(d.ret);
    }

    fn ctors(&mut self, d: &DatatypeDecl) {
        let s = self.s;
        for c in s.ctor_list(d.ctors) {
            if c.bare {
                self.text(c.name);
            } else {
                self.open();
                self.text(c.name);
                for f in s.var_list(c.fields) {
                    self.open();
                    self.text(f.name);
                    self.sort(f.sort);
                    self.close();
                }
                self.close();
            }
        }
    }

    fn datatype_decl(&mut self, d: &DatatypeDecl) {
        let s = self.s;
        self.open();
        if let Some(n) = d.legacy_name {
            self.text(n);
            self.ctors(d);
        } else if d.has_par {
            self.atom("par");
            self.open();
            for &p in s.str_list(d.params) {
                self.text(p);
            }
            self.close();
            self.open();
            self.ctors(d);
            self.close();
        } else {
            self.ctors(d);
        }
        self.close();
    }

    fn terms_paren(&mut self, l: List<TermId>) {
        let s = self.s;
        self.open();
        for &t in s.term_list(l) {
            self.term(t);
        }
        self.close();
    }

    /// Prints one command.
    pub fn command(&mut self, c: &CommandKind) {
        let s = self.s;
        self.open();
        match *c {
            CommandKind::Assert(t) => {
                self.atom("assert");
                self.term(t);
            }
            CommandKind::Nullary(n) => self.atom(n.name()),
            CommandKind::CheckSatAssuming(l) => {
                self.atom("check-sat-assuming");
                self.terms_paren(l);
            }
            CommandKind::GetValue(l) => {
                self.atom("get-value");
                self.terms_paren(l);
            }
            CommandKind::DeclareConst(n, so) => {
                self.atom("declare-const");
                self.text(n);
                self.sort(so);
            }
            CommandKind::DeclareFun(n, args, r) => {
                self.atom("declare-fun");
                self.text(n);
                self.open();
                for &a in s.sort_list(args) {
                    self.sort(a);
                }
                self.close();
                self.sort(r);
            }
            CommandKind::DeclareSort(n, a) => {
                self.atom("declare-sort");
                self.text(n);
                if let Some(a) = a {
                    self.text(a);
                }
            }
            CommandKind::DefineSort(n, ps, so) => {
                self.atom("define-sort");
                self.text(n);
                self.open();
                for &p in s.str_list(ps) {
                    self.text(p);
                }
                self.close();
                self.sort(so);
            }
            CommandKind::DefineFun { rec, decl, body } => {
                self.atom(if rec { "define-fun-rec" } else { "define-fun" });
                self.fun_decl(&decl);
                self.term(body);
            }
            CommandKind::DefineFunsRec(decls, bodies) => {
                self.atom("define-funs-rec");
                self.open();
                for d in s.fun_decl_list(decls) {
                    self.open();
                    self.fun_decl(d);
                    self.close();
                }
                self.close();
                self.terms_paren(bodies);
            }
            CommandKind::DefineConst(n, so, t) => {
                self.atom("define-const");
                self.text(n);
                self.sort(so);
                self.term(t);
            }
            CommandKind::DeclareDatatype(n, d) => {
                self.atom("declare-datatype");
                self.text(n);
                self.datatype_decl(&d);
            }
            CommandKind::DeclareDatatypes { co, form, decls } => {
                self.atom(if co { "declare-codatatypes" } else { "declare-datatypes" });
                self.open();
                match form {
                    DatatypesForm::Standard(sds) => {
                        for sd in s.sort_decl_list(sds) {
                            self.open();
                            self.text(sd.name);
                            self.text(sd.arity);
                            self.close();
                        }
                    }
                    DatatypesForm::Legacy(ps) => {
                        for &p in s.str_list(ps) {
                            self.text(p);
                        }
                    }
                }
                self.close();
                self.open();
                for d in s.decl_list(decls) {
                    self.datatype_decl(d);
                }
                self.close();
            }
            CommandKind::Push(n) | CommandKind::Pop(n) => {
                self.atom(if matches!(c, CommandKind::Push(_)) { "push" } else { "pop" });
                if let Some(n) = n {
                    self.text(n);
                }
            }
            CommandKind::SetLogic(l) => {
                self.atom("set-logic");
                self.text(l);
            }
            CommandKind::SetOption(a) | CommandKind::SetInfo(a) => {
                self.atom(if matches!(c, CommandKind::SetOption(_)) { "set-option" } else { "set-info" });
                self.run(Item::Attr(a));
            }
            CommandKind::GetInfo(k) => {
                self.atom("get-info");
                self.text(k);
            }
            CommandKind::GetOption(k) => {
                self.atom("get-option");
                self.text(k);
            }
            CommandKind::Echo(x) => {
                self.atom("echo");
                self.text(x);
            }
            CommandKind::TermCmd { name, term, attrs } => {
                self.text(name);
                self.term(term);
                for &a in s.attr_list(attrs) {
                    self.run(Item::Attr(a));
                }
            }
            CommandKind::Other { name, args } => {
                self.text(name);
                for &a in s.sexp_list(args) {
                    self.run(Item::Sexp(a));
                }
            }
        }
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smtlib::ast::rename_symbols;

    /// A reducer's renaming is printed without copying the script: the text must be what
    /// renaming a copy and printing it gives, on every seed of `corpus/`, with a command
    /// left out and names that need bars.
    #[test]
    fn print_renamed_is_rename_then_print() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        let (mut files, mut renamed) = (0, 0);
        for f in std::fs::read_dir(dir).unwrap() {
            let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
            let Ok(s) = crate::smtlib::parse(&text) else { continue };
            // Every other symbol the script holds, to a name of its own (some with a space).
            let names: Vec<String> = (0..s.strs.len() as u32)
                .map(|i| s.sym(Str(i)).to_string())
                .filter(|n| n.starts_with(|c: char| c.is_ascii_alphabetic()))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .step_by(2)
                .collect();
            let new: Vec<String> = names.iter().enumerate().map(|(k, n)| format!("r{k} {}", n.len() % 2)).collect();
            let map: std::collections::HashMap<&str, &str> =
                names.iter().map(String::as_str).zip(new.iter().map(String::as_str)).collect();
            let skip = [s.commands.len() / 2];
            let mut copy = s.clone();
            rename_symbols(&mut copy, &map);
            let mut i = 0;
            copy.retain_commands(|_, _| {
                i += 1;
                i - 1 != skip[0]
            });
            assert_eq!(print_renamed(&s, &map, &skip), print(&copy), "{text}");
            files += 1;
            renamed += map.len();
        }
        assert!(files >= 50 && renamed >= 200, "{files} files, {renamed} names");
    }
}
