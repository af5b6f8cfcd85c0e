//! The sort of one application: user functions, the signature table's theory
//! operators (SMT-LIB 2.6 §5.4 ranks, with indices and parametric sorts), and the
//! operators whose sorts no table line can express.

use super::*;

impl<'s> Checker<'s> {
    /// Sort of identifier `q` applied to `self.args[..nargs]` (no arguments for a constant).
    pub(super) fn apply(&mut self, q: &QualIdent, nargs: usize) -> SortRef {
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
            Some(e) => (
                (e.local != NONE).then(|| self.bound[e.local as usize].0),
                e.funs != NONE && !self.fun_sets[e.funs as usize].is_empty(),
                e.class,
            ),
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
    pub(super) fn apply_user(&mut self, name: &str, qual: Option<SortRef>) -> Option<SortRef> {
        let funs = self.syms.get(name)?.funs;
        let sigs = self.fun_sets.get(funs as usize)?;
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
                let counted = self.coercions.get();
                if sig.params.iter().zip(&self.args).all(|(&p, &a)| self.unify_user(p, a, &mut env, 0)) {
                    let mut rest = sig.params[self.args.len()..].to_vec();
                    rest.push(sig.result);
                    return Some(self.sorts.con("->", rest));
                }
                self.coercions.set(counted);
                continue;
            }
            if sig.params.len() != self.args.len() {
                continue;
            }
            env.clear();
            let counted = self.coercions.get();
            if !sig.params.iter().zip(&self.args).all(|(&p, &a)| self.unify_user(p, a, &mut env, 0)) {
                self.coercions.set(counted);
                continue;
            }
            if sig.ntype == 0 {
                return Some(sig.result);
            }
            if let Some(q) = qual {
                if !self.unify_user(sig.result, q, &mut env, 0) {
                    self.coercions.set(counted);
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

    pub(super) fn apply_theory(
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

    pub(super) fn try_sig(
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
        // The signature's result, and how many of the arguments it converts from Int to
        // Real (counted once the whole application unified: an `=` whose first Real
        // comes after two Ints converts both).
        let r = (|| -> Option<(SortRef, u32)> {
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
                    let k = sig.params.iter().zip(&args).filter(|(p, &a)| converted(p, a, &se)).count();
                    Some((self.result(sig, &w, &mut se, qual)?, k as u32))
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
                    let k = args.iter().filter(|&&a| converted(&sig.params[0], a, &se)).count();
                    Some((self.result(sig, &w, &mut se, qual)?, k as u32))
                }
                Shape::LeftAssoc | Shape::RightAssoc => {
                    // `(and)`, `(or)` and unary `(and x)`, `(+ x)` are accepted by z3 and
                    // cvc5; a unary application has its argument's sort.
                    if nargs == 0 {
                        return (sig.result == SortPat::Bool && sig.params[0] == SortPat::Bool)
                            .then_some((SortRef::BOOL, 0));
                    }
                    if nargs == 1 {
                        // Only these are read unary by z3 and cvc5 (`(=> x)` is rejected).
                        if sig.result != sig.params[0] || !matches!(sig.name, "and" | "or" | "+" | "*") {
                            return None;
                        }
                        let (mut w, mut se) = fresh();
                        return self.unify_pat(&sig.params[0], args[0], &mut w, &mut se).then_some((args[0], 0));
                    }
                    let left = sig.shape == Shape::LeftAssoc;
                    let at = |i: usize| if left { args[i] } else { args[args.len() - 1 - i] };
                    let mut acc = at(0);
                    let mut k = 0;
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
                        // The accumulated side is an argument only at the first step.
                        let (acc_p, next_p) =
                            if left { (&sig.params[0], &sig.params[1]) } else { (&sig.params[1], &sig.params[0]) };
                        k += u32::from(converted(next_p, next, &se)) + u32::from(i == 1 && converted(acc_p, acc, &se));
                        acc = self.result(sig, &w, &mut se, None)?;
                    }
                    match qual {
                        Some(q) if q != acc => None,
                        _ => Some((acc, k)),
                    }
                }
            }
        })();
        self.args = args;
        let (r, k) = r?;
        self.coercions.set(self.coercions.get().saturating_add(k));
        Some(r)
    }

    pub(super) fn result(
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

    pub(super) fn unify_pat(
        &mut self,
        p: &SortPat,
        a: SortRef,
        w: &mut [Option<u64>; 8],
        se: &mut [Option<SortRef>; 4],
    ) -> bool {
        let k = self.sorts.kind(a);
        match (p, k) {
            (SortPat::Bool, SortKind::Bool)
            | (SortPat::Int, SortKind::Int)
            | (SortPat::Real, SortKind::Real)
            | (SortPat::String, SortKind::String)
            | (SortPat::RegLan, SortKind::RegLan)
            | (SortPat::RoundingMode, SortKind::RoundingMode) => true,
            // An implicit conversion, counted by the caller once the signature is chosen
            // ([`converted`]).
            (SortPat::Real, SortKind::Int) => true,
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

    pub(super) fn instantiate(
        &mut self,
        p: &SortPat,
        w: &[Option<u64>; 8],
        se: &[Option<SortRef>; 4],
    ) -> Option<SortRef> {
        self.sorts.instantiate(p, w, se)
    }
}

/// Whether argument sort `a`, matched to `p` in a signature whose parameters resolved to
/// `se`, is an Int the application reads as a Real (an implicit conversion: z3 and cvc5
/// accept it; SMT-LIB's Reals_Ints theory converts only by `to_real`).
fn converted(p: &SortPat, a: SortRef, se: &[Option<SortRef>; 4]) -> bool {
    a == SortRef::INT
        && match p {
            SortPat::Real => true,
            SortPat::Param(i) => se.get(*i as usize) == Some(&Some(SortRef::REAL)),
            _ => false,
        }
}
