//! Commands (SMT-LIB 2.6 §3.9): declarations, definitions, datatypes (2.6 and z3's
//! legacy form), options and attributes, and any other command kept as S-expressions.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn script(&mut self) -> R<()> {
        loop {
            let t = self.next();
            match t.kind {
                Tok::Eof => return Ok(()),
                Tok::LParen => {
                    // Only a lenient parse can undo a command; the strict one never pays.
                    let (at, mark) = (self.position(), self.lenient.then(|| self.s.mark()));
                    self.s.command_offsets.push(t.start);
                    let kind = match self.command() {
                        Ok(k) => k,
                        Err(e) if mark.is_some() => {
                            // The command again, untyped: its name and S-expressions.
                            self.rewind(at);
                            if let Some(m) = &mark {
                                self.s.rewind(m);
                            }
                            self.st = self.st.take();
                            self.s.command_offsets.push(t.start);
                            let nt = self.next();
                            if nt.kind != Tok::Symbol {
                                return Err(e);
                            }
                            let name = self.mk_str(nt);
                            let k = self.other(name).map_err(|_| e.clone_err())?;
                            self.s.verbatim.push((e.offset(), e.0 .1.clone()));
                            k
                        }
                        Err(e) => return Err(e),
                    };
                    self.s.commands.push(Command { kind });
                }
                _ => return self.err(t, "'(' to start a command"),
            }
        }
    }

    pub(super) fn command(&mut self) -> R<CommandKind> {
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
    pub(super) fn other(&mut self, name: Str) -> R<CommandKind> {
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

    pub(super) fn fun_decl(&mut self) -> R<FunDecl> {
        let name = self.symbol("a function name")?;
        let params = self.sorted_vars()?;
        let ret = self.sort()?;
        Ok(FunDecl { name, params, ret })
    }

    pub(super) fn sorted_vars(&mut self) -> R<List<SortedVar>> {
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

    pub(super) fn symbol_list(&mut self, what: &str) -> R<List<Str>> {
        self.lparen()?;
        let base = self.st.str_stack.len();
        while !self.is_rparen_next() {
            let sym = self.symbol(what)?;
            self.st.str_stack.push(sym);
        }
        self.next();
        Ok(Self::push_list(&mut self.s.str_lists, &mut self.st.str_stack, base))
    }

    pub(super) fn sort_list(&mut self) -> R<List<SortId>> {
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

    pub(super) fn declare_datatypes(&mut self, co: bool) -> R<CommandKind> {
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
    pub(super) fn datatype_decl(&mut self, legacy_name: Option<Str>) -> R<DatatypeDecl> {
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
    pub(super) fn ctor_list(&mut self, legacy_name: Option<Str>, params: List<Str>, has_par: bool) -> R<DatatypeDecl> {
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
    pub(super) fn attribute(&mut self) -> R<Attribute> {
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
}
