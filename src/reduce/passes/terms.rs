//! Passes over terms: a term by a descendant or a simple value of its sort, literals by
//! shorter ones.

use super::*;

/// Terms under `:pattern`/`:no-pattern` (replacing them makes patterns solvers reject).
pub(super) fn in_patterns(ctx: &Ctx) -> Vec<bool> {
    let s = ctx.s;
    let nodes = &ctx.scope.nodes;
    let mut roots: BTreeSet<TermId> = BTreeSet::new();
    for n in nodes {
        if let Term::Annot(_, attrs) = *s.term(n.term) {
            for a in s.attr_list(attrs) {
                if let AttrValue::Terms(ts) = a.value {
                    roots.extend(s.term_list(ts));
                }
            }
        }
    }
    let mut mark = vec![false; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        if roots.contains(&n.term) {
            mark[i..i + n.size as usize].iter_mut().for_each(|m| *m = true);
        }
    }
    mark
}

/// Each term, in pre-order: a simple value of its sort, then each child of the same sort,
/// then a declared constant of its sort.
pub(super) fn terms(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let globals = global_constants(ctx);
    let others = constants_by_sort(ctx, 3);
    let skip = in_patterns(ctx);
    let mut out = vec![];
    for (i, n) in ctx.scope.nodes.iter().enumerate() {
        if skip[i] || n.sort == SortRef::UNKNOWN {
            continue;
        }
        let leaf = match *s.term(n.term) {
            Term::Lit(_, x) => Some(s.str(x)),
            Term::Var(q) if q.ident.indices.is_empty() && q.sort.is_none() => Some(s.str(q.ident.sym)),
            _ => None,
        };
        for v in simple_values(ctx, n.sort, &globals) {
            // A leaf only gets shorter values (literal shrinking is its own pass).
            if leaf.is_none_or(|l| v.len() < l.len()) {
                out.push(Change::term(n.term, Repl::text(v)));
            }
        }
        if leaf.is_none() {
            // Other declared constants of the sort than the shortest (ddSMT's "replace by
            // variable"): the shortest alone may not keep the bug.
            for c in others.get(&n.sort).into_iter().flatten().skip(1) {
                out.push(Change::term(n.term, Repl::text(c.clone())));
            }
            // Children, then grandchildren and great-grandchildren of the same sort (so
            // `(not (not x))` can become `x`, `(ite c (+ a b) d)` can become `a`).
            let mut level = vec![n.term];
            for _ in 0..3 {
                let next: Vec<TermId> = level.iter().flat_map(|&t| children(s, t)).collect();
                for &c in &next {
                    if ctx.checked.term_sorts.get(c.index()) == Some(&n.sort) {
                        out.push(Change::term(n.term, Repl::Term(c)));
                    }
                }
                level = next;
            }
        }
    }
    out
}

/// Smaller literals: numerals to 0, 1 and a digit shorter; decimals to their integer part;
/// bit-vector literals to zeros; strings to empty and to their first half.
pub(super) fn literals(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let mut out = vec![];
    for n in &ctx.scope.nodes {
        let Term::Lit(kind, x) = *s.term(n.term) else { continue };
        let text = s.str(x);
        let mut cands: Vec<String> = vec![];
        match kind {
            LitKind::Numeral => {
                cands.extend(["0".to_string(), "1".to_string()]);
                if text.len() > 1 {
                    cands.push(text[..text.len() - 1].to_string());
                }
            }
            LitKind::Decimal => {
                if let Some((int, _)) = text.split_once('.') {
                    cands.extend(["0.0".to_string(), "1.0".to_string(), format!("{int}.0")]);
                    if int.len() > 1 {
                        cands.push(format!("{}.0", &int[..int.len() - 1]));
                    }
                }
            }
            LitKind::Hex | LitKind::Binary => {
                let (prefix, digits) = text.split_at(2);
                cands.push(format!("{prefix}{}", "0".repeat(digits.len())));
                if digits.len() > 1 {
                    cands.push(format!("{prefix}{}1", "0".repeat(digits.len() - 1)));
                }
            }
            LitKind::String => {
                let inner: Vec<char> = text.chars().skip(1).take(text.chars().count().saturating_sub(2)).collect();
                if !inner.is_empty() {
                    cands.push("\"\"".into());
                    let half: String = inner[..inner.len() / 2].iter().collect();
                    cands.push(format!("\"{half}\""));
                }
            }
            LitKind::Rational => {}
        }
        cands.dedup();
        for c in cands {
            if c != text {
                out.push(Change::term(n.term, Repl::text(c)));
            }
        }
    }
    out
}
