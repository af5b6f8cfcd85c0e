//! The checker's iterative term walk: binders (`let`, quantifiers, `match`), then each
//! application's sort from its arguments' ([`super::apply`]).

use super::*;

impl<'s> Checker<'s> {
    /// Checks a term and returns its sort.
    pub(super) fn term(&mut self, root: TermId) -> SortRef {
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

    pub(super) fn enter_case(&mut self, t: TermId, i: u32) {
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
    pub(super) fn ctor_of(&mut self, name: &str, dt: SortRef) -> Option<Vec<SortRef>> {
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

    pub(super) fn exit(&mut self, t: TermId) -> SortRef {
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
}
