//! Passes that remove binders: `let` bindings substituted, `define-fun`s inlined,
//! quantified variables eliminated.

use super::*;

/// `let` elimination: substitute a binding's value for its uses and drop the binding
/// (all bindings of a `let` at once first, then one by one). The candidates only name
/// which bindings go ([`Repl::LetElim`]); each text is built when its candidate is tried:
/// building them all up front copied the whole body once per `let`, quadratic in the
/// nesting (3,000 nested lets, 82 KB: 299 MB before the first check).
pub(super) fn lets(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let mut out = vec![];
    for n in &ctx.scope.nodes {
        let Term::Let(binds, _) = *s.term(n.term) else { continue };
        let count = s.binding_list(binds).len();
        if count > 1 {
            out.push(Change::term(n.term, Repl::LetElim((0..count).collect())));
        }
        out.extend((0..count).map(|k| Change::term(n.term, Repl::LetElim(Box::new([k])))));
    }
    out
}

/// The text of `let` term `t` with bindings `elim` substituted into its body and dropped.
pub(super) fn let_elim_text(ctx: &Ctx, t: TermId, elim: &[usize]) -> String {
    let s = ctx.s;
    let sc = ctx.scope;
    let Term::Let(binds, body) = *s.term(t) else { return term_to_string(s, t) };
    let Some(i) = sc.nodes.iter().position(|n| n.term == t) else { return term_to_string(s, t) };
    let n = &sc.nodes[i];
    let bs = s.binding_list(binds);
    let first = n.locals_before;
    let values: Vec<String> = bs.iter().map(|b| term_to_string(s, b.value)).collect();
    let subtree = &sc.nodes[i + 1..i + n.size as usize];
    let mut ov: Vec<(TermId, &str)> = vec![];
    for m in subtree {
        if m.binding != NONE && m.binding >= first && ((m.binding - first) as usize) < bs.len() {
            let k = (m.binding - first) as usize;
            if elim.contains(&k) {
                ov.push((m.term, values[k].as_str()));
            }
        }
    }
    let new_body = term_with(s, body, &ov);
    let kept: Vec<String> =
        (0..bs.len()).filter(|k| !elim.contains(k)).map(|k| format!("({} {})", s.str(bs[k].name), values[k])).collect();
    if kept.is_empty() {
        new_body
    } else {
        format!("(let ({}) {new_body})", kept.join(" "))
    }
}

/// Inlines a non-recursive `define-fun` (or z3's `define-const`) at every use and removes
/// the definition: arguments substituted for the parameters, or (second candidate, for
/// when substitution copies big arguments) a `let` of the parameters around the body.
pub(super) fn define_funs(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let sc = ctx.scope;
    let mut out = vec![];
    for (c, cmd) in s.commands.iter().enumerate() {
        let (name, params, body) = match cmd.kind {
            CommandKind::DefineFun { rec: false, decl, body } => (decl.name, s.var_list(decl.params), body),
            CommandKind::DefineConst(name, _, body) => (name, &[][..], body),
            _ => continue,
        };
        let name = s.sym(name);
        let body_text = term_to_string(s, body);
        let uses: Vec<usize> = (0..sc.nodes.len())
            .filter(|&j| {
                let m = &sc.nodes[j];
                m.cmd as usize > c
                    && match *s.term(m.term) {
                        Term::Var(q) => m.binding == NONE && q.ident.indices.is_empty() && s.sym(q.ident.sym) == name,
                        Term::App(q, _) => q.ident.indices.is_empty() && s.sym(q.ident.sym) == name,
                        _ => false,
                    }
            })
            .collect();
        if uses.is_empty() || uses.len().saturating_mul(body_text.len()) > 1 << 20 {
            continue;
        }
        // Where each parameter occurs in the body: the parameters are the locals bound
        // just before the body's root node.
        let root = sc.nodes.iter().position(|m| m.term == body);
        let param_uses: Vec<(TermId, usize)> = root
            .map(|r| {
                let n = &sc.nodes[r];
                let first = n.locals_before as usize - params.len();
                sc.nodes[r..r + n.size as usize]
                    .iter()
                    .filter(|m| m.binding != NONE && (first..first + params.len()).contains(&(m.binding as usize)))
                    .map(|m| (m.term, m.binding as usize - first))
                    .collect()
            })
            .unwrap_or_default();
        for substitute in [true, false] {
            if substitute && root.is_none() {
                continue;
            }
            // Innermost uses first, so an outer use's arguments contain the inner ones.
            let mut texts: Vec<(TermId, String)> = vec![];
            for &j in uses.iter().rev() {
                let t = sc.nodes[j].term;
                let text = match *s.term(t) {
                    Term::App(_, args) if !params.is_empty() => {
                        let ov: Vec<(TermId, &str)> = texts.iter().map(|(t, x)| (*t, x.as_str())).collect();
                        let args: Vec<String> = s.term_list(args).iter().map(|&a| term_with(s, a, &ov)).collect();
                        if substitute {
                            let pov: Vec<(TermId, &str)> =
                                param_uses.iter().filter_map(|&(u, k)| Some((u, args.get(k)?.as_str()))).collect();
                            term_with(s, body, &pov)
                        } else {
                            let binds: Vec<String> =
                                params.iter().zip(&args).map(|(p, a)| format!("({} {a})", s.str(p.name))).collect();
                            format!("(let ({}) {body_text})", binds.join(" "))
                        }
                    }
                    _ => body_text.clone(),
                };
                texts.push((t, text));
            }
            let terms: Box<[_]> = texts.into_iter().map(|(t, x)| (t, Repl::text(x))).collect();
            out.push(Change::Edit { drop: Box::new([c]), commands: Box::new([]), terms });
            if params.is_empty() {
                break;
            }
        }
    }
    out
}

/// Drops a quantified variable, replacing its uses by a simple value of its sort (all of
/// a quantifier's variables at once first); no variables left, no quantifier.
pub(super) fn quant_vars(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let sc = ctx.scope;
    let globals = global_constants(ctx);
    let mut out = vec![];
    for (i, n) in sc.nodes.iter().enumerate() {
        let Term::Quant(b, vars, body) = *s.term(n.term) else { continue };
        if b == Binder::Lambda {
            continue;
        }
        let vs = s.var_list(vars);
        let first = n.locals_before;
        let subtree = &sc.nodes[i + 1..i + n.size as usize];
        let value = |k: usize| -> Option<String> {
            let sort = sc.locals[first as usize + k].sort;
            if sort == SortRef::UNKNOWN {
                return Some(String::new()); // unused
            }
            simple_values(ctx, sort, &globals).into_iter().next().map(Text::into_owned)
        };
        let vals: Vec<Option<String>> = (0..vs.len()).map(value).collect();
        let mut variants: Vec<Vec<usize>> = vec![];
        if vs.len() > 1 && vals.iter().all(|v| v.is_some()) {
            variants.push((0..vs.len()).collect());
        }
        variants.extend((0..vs.len()).filter(|&k| vals[k].is_some()).map(|k| vec![k]));
        for elim in variants {
            let mut ov: Vec<(TermId, &str)> = vec![];
            for m in subtree {
                if m.binding != NONE && m.binding >= first && ((m.binding - first) as usize) < vs.len() {
                    let k = (m.binding - first) as usize;
                    if elim.contains(&k) {
                        ov.push((m.term, vals[k].as_deref().unwrap_or_default()));
                    }
                }
            }
            let new_body = term_with(s, body, &ov);
            let kept: Vec<String> = (0..vs.len())
                .filter(|k| !elim.contains(k))
                .map(|k| format!("({} {})", s.str(vs[k].name), sort_to_string(s, vs[k].sort)))
                .collect();
            let text =
                if kept.is_empty() { new_body } else { format!("({} ({}) {new_body})", b.keyword(), kept.join(" ")) };
            out.push(Change::term(n.term, Repl::text(text)));
        }
    }
    out
}

/// The script `text` with the names every `let` binds made fresh (α-renaming): the same
/// terms in the same order, with no bound name shadowing another, so every solver that
/// reads `let` as SMT-LIB 2.6 §3.6.1 defines it (parallel binding, lexical scope) builds
/// the very same formula from both; a bug that shows on `text` and not on this is in the
/// solver's reading of `let`. Expanding the `let`s instead would change the order terms
/// are made in, which a bug of the search can hang on as well. `None` where `text` does
/// not parse, already uses the fresh names, or binds inside a `match` (a bare variable
/// pattern is a binder the scope does not track).
pub fn rename_let_bound(text: &str) -> Option<String> {
    const FRESH: &str = "smtstorm_let";
    if text.contains(FRESH) {
        return None;
    }
    let mut text = text.to_string();
    let mut fresh = 0usize;
    for _ in 0..10_000 {
        let s = crate::smtlib::parse(&text).ok()?;
        let checked = crate::smtlib::check::check(&s);
        let scope = Scope::new(&s, &checked);
        let renamed = |t: TermId| match *s.term(t) {
            Term::Let(binds, _) => s.binding_list(binds).iter().all(|b| s.str(b.name).starts_with(FRESH)),
            _ => true,
        };
        let Some(i) = scope.nodes.iter().position(|n| !renamed(n.term)) else { return Some(text) };
        let n = &scope.nodes[i];
        let Term::Let(binds, body) = *s.term(n.term) else { return None };
        let subtree = &scope.nodes[i + 1..i + n.size as usize];
        if subtree.iter().any(|m| matches!(s.term(m.term), Term::Match(..))) {
            return None;
        }
        let bs = s.binding_list(binds);
        let names: Vec<String> = (fresh..fresh + bs.len()).map(|k| format!("{FRESH}{k}")).collect();
        fresh += bs.len();
        // The uses bound to this `let` (its values are read outside it: parallel binding).
        let first = n.locals_before;
        let uses: Vec<(TermId, &str)> = subtree
            .iter()
            .filter(|m| m.binding != NONE && m.binding >= first && ((m.binding - first) as usize) < bs.len())
            .map(|m| (m.term, names[(m.binding - first) as usize].as_str()))
            .collect();
        let bindings: Vec<String> =
            bs.iter().zip(&names).map(|(b, name)| format!("({name} {})", term_to_string(&s, b.value))).collect();
        let new = format!("(let ({}) {})", bindings.join(" "), term_with(&s, body, &uses));
        let ctx = Ctx { s: &s, checked: &checked, scope: &scope };
        text = materialize(&ctx, &Change::term(n.term, Repl::text(new)));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::rename_let_bound;

    /// yices' leaking parallel `let` renamed: the bound `x` becomes fresh and the value
    /// `x` stays the declared one; nested lets, a quantifier that shadows a bound name,
    /// annotations and quoted symbols keep their meaning; `match` refuses.
    #[test]
    fn let_bound_names_are_made_fresh_and_nothing_else_changes() {
        let decl = "(declare-fun x () Bool)\n";
        let renamed = |body: &str| rename_let_bound(&format!("{decl}(assert {body})\n(check-sat)\n"));
        let want = |body: &str| Some(format!("{decl}(assert {body})\n(check-sat)\n"));
        assert_eq!(
            renamed("(let ((x false) (y x)) (distinct x y))"),
            want("(let ((smtstorm_let0 false) (smtstorm_let1 x)) (distinct smtstorm_let0 smtstorm_let1))")
        );
        assert_eq!(
            renamed("(let ((y x)) (let ((y (not y))) (and y x)))"),
            want("(let ((smtstorm_let0 x)) (let ((smtstorm_let1 (not smtstorm_let0))) (and smtstorm_let1 x)))")
        );
        assert_eq!(
            renamed("(let ((y x)) (exists ((y Bool)) (! (= y x) :named n)))"),
            want("(let ((smtstorm_let0 x)) (exists ((y Bool)) (! (= y x) :named n)))"),
            "the quantifier's own y is not the let's"
        );
        assert_eq!(
            renamed("(let ((|y| x)) (and y |y|))"),
            want("(let ((smtstorm_let0 x)) (and smtstorm_let0 smtstorm_let0))")
        );
        assert_eq!(renamed("(and x x)"), want("(and x x)"), "no let: the text as it is");
        assert_eq!(renamed("(let ((smtstorm_let0 x)) smtstorm_let0)"), None, "the fresh names are taken");
        let dt = "(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))\n(declare-fun l () L)\n";
        let m = format!("{dt}(assert (let ((y 0)) (= 1 (match l ((nil 1) (y (+ y 1)))))))\n");
        assert_eq!(rename_let_bound(&m), None, "a bare pattern variable binds");
    }
}
