//! The checker's sort resolution: declared and defined sorts, parametric datatypes,
//! sort application and unification for user-declared functions.

use super::*;

impl<'s> Checker<'s> {
    pub(super) fn expect_bool(&mut self, t: TermId, what: &str) {
        let got = self.term(t);
        self.expect_sort(got, SortRef::BOOL, what);
    }

    pub(super) fn expect_sort(&mut self, got: SortRef, want: SortRef, what: &str) {
        if got == want || got == SortRef::UNKNOWN || want == SortRef::UNKNOWN {
            return;
        }
        if want == SortRef::REAL && got == SortRef::INT {
            // A definition's Int body for its Real result, a Real argument given an Int.
            self.coerced();
            return;
        }
        let msg = format!("{what} has sort {}, expected {}", self.sorts.display(got), self.sorts.display(want));
        self.diag(DiagKind::IllSorted, msg);
    }

    // ---- sorts -------------------------------------------------------------------------

    pub(super) fn resolve_sort(&mut self, so: SortId) -> SortRef {
        self.resolve_sort_depth(so, 0)
    }

    pub(super) fn resolve_sort_depth(&mut self, so: SortId, depth: usize) -> SortRef {
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

    pub(super) fn fun_array_equiv(&self, a: SortRef, b: SortRef) -> bool {
        match (self.sorts.kind(a), self.sorts.kind(b)) {
            (SortKind::Con(x, xs), SortKind::Con(y, ys)) => same_con(x, y) && xs == ys,
            _ => false,
        }
    }

    pub(super) fn finite_field(&mut self, order: &str) -> SortRef {
        self.sorts.con(&format!("(_ FiniteField {order})"), vec![])
    }

    /// Components of a `Tuple` sort, if `r` is one.
    pub(super) fn tuple_parts(&self, r: SortRef) -> Option<Vec<SortRef>> {
        match self.sorts.kind(r) {
            SortKind::Con(n, a) if &**n == "Tuple" => Some(a.clone()),
            SortKind::Con(n, a) if &**n == "UnitTuple" && a.is_empty() => Some(vec![]),
            _ => None,
        }
    }

    /// Tuple components of a relation `(Set (Tuple ...))` or table `(Bag (Tuple ...))`.
    pub(super) fn relation_parts(&self, r: SortRef) -> Option<(&'static str, Vec<SortRef>)> {
        match self.sorts.kind(r) {
            SortKind::Con(n, a) if (&**n == "Set" || &**n == "Bag") && a.len() == 1 => {
                let c = if &**n == "Set" { "Set" } else { "Bag" };
                self.tuple_parts(a[0]).map(|p| (c, p))
            }
            _ => None,
        }
    }

    pub(super) fn relation(&mut self, con: &str, parts: Vec<SortRef>) -> SortRef {
        let t = self.sorts.con("Tuple", parts);
        self.sorts.con(con, vec![t])
    }

    /// Applies a value of function sort `(-> A... R)` to `args` (full or partial application).
    pub(super) fn apply_fun_sort(&mut self, f: SortRef, args: &[SortRef]) -> Option<SortRef> {
        let SortKind::Con(n, ps) = self.sorts.kind(f) else { return None };
        // Lambdas get array sorts (z3's view), so arrays apply like functions too.
        let full_only = &**n == "Array";
        if !(&**n == "->" || full_only) || args.len() >= ps.len() || (full_only && args.len() + 1 != ps.len()) {
            return None;
        }
        let ps = ps.clone();
        let mut env = vec![];
        let counted = self.coercions.get();
        if !ps.iter().zip(args).all(|(&p, &a)| self.unify_user(p, a, &mut env, 0)) {
            self.coercions.set(counted);
            return None;
        }
        let rest = &ps[args.len()..];
        Some(if rest.len() == 1 { rest[0] } else { self.sorts.con("->", rest.to_vec()) })
    }

    /// cvc5 extensions whose sorts a table line cannot express: tuples, relations, HO
    /// application, variadic `set.insert`, updaters, finite-field literals.
    pub(super) fn apply_special(&mut self, name: &str, indices: &[Index], qual: Option<SortRef>) -> Option<SortRef> {
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
    pub(super) fn subst(&mut self, r: SortRef, args: &[SortRef], depth: usize) -> SortRef {
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
    pub(super) fn unify_user(
        &self,
        pat: SortRef,
        actual: SortRef,
        env: &mut Vec<Option<SortRef>>,
        depth: usize,
    ) -> bool {
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
            (SortKind::Real, SortKind::Int) => {
                self.coerced();
                true
            }
            (SortKind::Con(a, xs), SortKind::Con(b, ys)) if same_con(a, b) && xs.len() == ys.len() => {
                xs.iter().zip(ys).all(|(&x, &y)| self.unify_user(x, y, env, depth + 1))
            }
            // An unresolved parameter in the actual sort (`nil` without `as`) matches.
            (_, SortKind::Param(_)) => true,
            _ => false,
        }
    }

    // ---- terms -------------------------------------------------------------------------
}
