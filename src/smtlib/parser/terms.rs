//! Terms, sorts and S-expressions (SMT-LIB 2.6 §3.4–3.6), parsed with explicit stacks
//! so that no nesting depth can exhaust the call stack.

use super::*;

impl<'a> Parser<'a> {
    /// After `(_`: `symbol index+ )`.
    pub(super) fn indexed_rest(&mut self) -> R<Ident> {
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
    pub(super) fn as_rest(&mut self) -> R<QualIdent> {
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

    pub(super) fn sort(&mut self) -> R<SortId> {
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

    pub(super) fn add_sort(&mut self, ident: Ident, args: List<SortId>) -> SortId {
        self.s.sorts.push(Sort { ident, args });
        SortId(self.s.sorts.len() as u32 - 1)
    }

    // ---- S-expressions ------------------------------------------------------------------

    pub(super) fn sexp(&mut self) -> R<SexpId> {
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

    pub(super) fn add_sexp(&mut self, x: Sexp) -> SexpId {
        self.s.sexps.push(x);
        SexpId(self.s.sexps.len() as u32 - 1)
    }

    // ---- terms --------------------------------------------------------------------------

    pub(super) fn term(&mut self) -> R<TermId> {
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

    pub(super) fn lit(&mut self, k: LitKind, t: Token) -> TermId {
        let s = self.mk_str(t);
        self.add_term(Term::Lit(k, s))
    }

    /// Reads `(pattern` of a match case and pushes a frame expecting its body.
    pub(super) fn match_case_start(&mut self, scrutinee: TermId, base: usize) -> R<()> {
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
    pub(super) fn annot_attrs(&mut self, body: TermId, attr_base: usize) -> R<Option<TermId>> {
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
