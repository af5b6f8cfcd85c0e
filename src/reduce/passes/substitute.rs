//! Passes that substitute across the whole script, where ddSMT 2 was smaller than the
//! term-local passes (issue 26): variables eliminated through asserted equalities,
//! variables of one sort merged, a repeated term replaced everywhere at once, and
//! rewrites that only simplify (`(/ 6 1)` → `6`, `(* 1 x)` → `x`, `(and true x)` → `x`).
//!
//! All four propose the whole set of their changes first and then ddmin halves of it
//! (Zeller & Hildebrandt 2002): most of these rewrites keep the formula equivalent, so
//! the first candidate usually wins and one check replaces dozens.

use super::terms::in_patterns;
use super::*;
use std::collections::HashSet;

/// The name of node `i` if it is a free occurrence of a global symbol (not bound by a
/// `let`, quantifier or parameter; not indexed or qualified).
fn global_var<'a>(ctx: &Ctx<'a>, i: usize) -> Option<&'a str> {
    let n = &ctx.scope.nodes[i];
    match *ctx.s.term(n.term) {
        Term::Var(q) if n.binding == NONE && q.ident.indices.is_empty() && q.sort.is_none() => {
            Some(ctx.s.sym(q.ident.sym))
        }
        _ => None,
    }
}

/// Constants declared exactly once (`declare-const`, nullary `declare-fun`), with the
/// index of the declaring command. A name declared twice (in two `push` levels) is left
/// alone: which declaration an occurrence means depends on where it is.
fn declared_constants(s: &Script) -> HashMap<&str, usize> {
    let mut out: HashMap<&str, Option<usize>> = HashMap::new();
    for (i, c) in s.commands.iter().enumerate() {
        let name = match c.kind {
            CommandKind::DeclareConst(n, _) => n,
            CommandKind::DeclareFun(n, args, _) if args.is_empty() => n,
            _ => continue,
        };
        out.entry(s.sym(name)).and_modify(|e| *e = None).or_insert(Some(i));
    }
    out.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))).collect()
}

/// What makes two closed terms equal for [`share`]: a leaf's text, or a head and the
/// classes of the children.
#[derive(PartialEq, Eq, Hash)]
enum ShareKey {
    Leaf(String),
    App(String, Vec<u32>),
    Annot(Vec<(String, String)>, Vec<u32>),
}

/// The node indices of node `i`'s children, in order.
fn child_nodes(sc: &Scope, i: usize) -> Vec<usize> {
    let end = i + sc.nodes[i].size as usize;
    let mut out = vec![];
    let mut j = i + 1;
    while j < end {
        out.push(j);
        j += sc.nodes[j].size as usize;
    }
    out
}

/// The operator of an unindexed application at node `i`, with its argument nodes.
fn app<'a>(ctx: &Ctx<'a>, i: usize) -> Option<(&'a str, Vec<usize>)> {
    match *ctx.s.term(ctx.scope.nodes[i].term) {
        Term::App(q, _) if q.ident.indices.is_empty() && q.sort.is_none() => {
            Some((ctx.s.sym(q.ident.sym), child_nodes(ctx.scope, i)))
        }
        _ => None,
    }
}

/// The text of a literal or of `true`/`false` at node `i`.
fn leaf<'a>(ctx: &Ctx<'a>, i: usize) -> Option<&'a str> {
    match *ctx.s.term(ctx.scope.nodes[i].term) {
        Term::Lit(_, x) => Some(ctx.s.str(x)),
        Term::Var(q) if q.ident.indices.is_empty() && q.sort.is_none() => {
            let n = ctx.s.sym(q.ident.sym);
            (ctx.scope.nodes[i].binding == NONE && (n == "true" || n == "false")).then_some(n)
        }
        _ => None,
    }
}

/// ddmin over `items`: all of them, then halves, quarters, ..., single ones.
fn ddmin<T: Clone>(items: &[T], mut change: impl FnMut(Vec<T>) -> Change) -> Vec<Change> {
    let mut out = vec![];
    if items.is_empty() {
        return out;
    }
    let mut size = items.len();
    loop {
        for chunk in items.chunks(size) {
            out.push(change(chunk.to_vec()));
        }
        if size == 1 {
            break;
        }
        size = size.div_ceil(2);
    }
    out
}

/// One variable elimination: `name` replaced by the term at node `by`, the equality at
/// node `eq` gone (its assertion `cmd` dropped when `whole`, else the conjunct removed).
#[derive(Clone, Debug)]
struct Elim {
    name: String,
    by: usize,
    eq: usize,
    cmd: usize,
    whole: bool,
}

/// Variable elimination (ddSMT's "eliminate variables"): for an asserted `(= x t)` or
/// `(= t x)`, on its own or as a conjunct of a top-level `and`, where `x` is a declared
/// constant that does not occur in `t`, substitute `t` for `x` everywhere and drop the
/// declaration and the equality. A chain `(= b a) (= a c)` resolves transitively; a set
/// that would substitute a variable into itself is never built.
pub(super) fn eliminate(ctx: &Ctx) -> Vec<Change> {
    eliminations(ctx, false)
}

/// Constants asserted equal to a literal (`(declare-fun n () Real) (assert (= n 8.0))`):
/// the declaration, the equality and every use (replaced by the literal) in one candidate,
/// all of them first, then ddmin halves (issue 39: a 3.4 KB nonlinear disagreement kept
/// such constants where ddSMT substituted them). [`eliminate`] restricted to literals,
/// run early: `merge` would otherwise try them as other variables or as 0 first.
pub(super) fn constants(ctx: &Ctx) -> Vec<Change> {
    eliminations(ctx, true)
}

/// [`eliminate`]'s candidates; with `literals`, only eliminations by a literal or
/// `true`/`false`, and none of the one-at-a-time leftovers.
fn eliminations(ctx: &Ctx, literals: bool) -> Vec<Change> {
    let s = ctx.s;
    let sc = ctx.scope;
    let decls = declared_constants(s);
    if decls.is_empty() {
        return vec![];
    }
    // Assertion roots: the first node of each assert command.
    let mut eqs: Vec<(usize, usize, bool)> = vec![];
    let mut i = 0;
    while i < sc.nodes.len() {
        let n = &sc.nodes[i];
        let cmd = n.cmd as usize;
        if matches!(s.commands[cmd].kind, CommandKind::Assert(_)) && n.parent == crate::mutate::edit::ROOT {
            match app(ctx, i) {
                Some(("=", args)) if args.len() == 2 => eqs.push((i, cmd, true)),
                Some(("and", args)) => {
                    for a in args {
                        if matches!(app(ctx, a), Some(("=", ref xs)) if xs.len() == 2) {
                            eqs.push((a, cmd, false));
                        }
                    }
                }
                _ => {}
            }
        }
        i += n.size as usize;
    }
    let frees = |u: usize| -> BTreeSet<&str> {
        (u..u + sc.nodes[u].size as usize)
            .filter_map(|j| global_var(ctx, j))
            .filter(|n| decls.contains_key(n))
            .collect()
    };
    let mut all: Vec<Elim> = vec![];
    for &(eq, cmd, whole) in &eqs {
        let sides = child_nodes(sc, eq);
        for (x, by) in [(sides[0], sides[1]), (sides[1], sides[0])] {
            let Some(name) = global_var(ctx, x).filter(|n| decls.contains_key(n)) else { continue };
            if sc.nodes[x].named() || sc.nodes[by].named() || frees(by).contains(name) {
                continue;
            }
            if literals && leaf(ctx, by).is_none() {
                continue;
            }
            all.push(Elim { name: name.to_string(), by, eq, cmd, whole });
        }
    }
    // The largest consistent set: one elimination per variable and per equality, and no
    // variable that resolves through the chosen ones to a term containing itself.
    let mut chosen: Vec<Elim> = vec![];
    for e in &all {
        if chosen.iter().any(|c| c.name == e.name || c.eq == e.eq) {
            continue;
        }
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        let mut todo: Vec<usize> = vec![e.by];
        let mut cyclic = false;
        while let Some(u) = todo.pop() {
            for v in frees(u) {
                if v == e.name {
                    cyclic = true;
                }
                if seen.insert(v) {
                    if let Some(c) = chosen.iter().find(|c| c.name == v) {
                        todo.push(c.by);
                    }
                }
            }
        }
        if !cyclic {
            chosen.push(e.clone());
        }
    }
    let change = |set: Vec<Elim>| {
        let mut drop: Vec<usize> = set.iter().map(|e| decls[e.name.as_str()]).collect();
        drop.extend(set.iter().filter(|e| e.whole).map(|e| e.cmd));
        drop.sort_unstable();
        drop.dedup();
        Change::Subst {
            vars: set.iter().map(|e| (e.name.clone(), sc.nodes[e.by].term)).collect(),
            drop: drop.into(),
            removed: set.iter().filter(|e| !e.whole).map(|e| sc.nodes[e.eq].term).collect(),
        }
    };
    let mut out = ddmin(&chosen, change);
    if literals {
        return out;
    }
    // The eliminations left out of the consistent set (the other orientation of an
    // equality, a second equality of one variable), one at a time.
    for e in all {
        if !chosen.iter().any(|c| c.name == e.name && c.eq == e.eq) {
            out.push(change(vec![e]));
        }
    }
    out
}

/// Variables merged: every occurrence of a declared constant replaced by another of the
/// same sort and its declaration dropped (ddSMT's "merge constants"): all of a sort into
/// its shortest one first, then each into one of the three shortest others.
pub(super) fn merge(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let sc = ctx.scope;
    let decls = declared_constants(s);
    // An occurrence of each declared constant, by sort, in order of first occurrence.
    let mut by_sort: BTreeMap<SortRef, Vec<(&str, TermId)>> = BTreeMap::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for i in 0..sc.nodes.len() {
        if let Some(n) = global_var(ctx, i).filter(|n| decls.contains_key(n)) {
            if sc.nodes[i].sort != SortRef::UNKNOWN && seen.insert(n) {
                by_sort.entry(sc.nodes[i].sort).or_default().push((n, sc.nodes[i].term));
            }
        }
    }
    let mut out = vec![];
    let subst = |pairs: &[(&str, TermId)]| Change::Subst {
        vars: pairs.iter().map(|(n, t)| (n.to_string(), *t)).collect(),
        drop: {
            let mut d: Vec<usize> = pairs.iter().map(|(n, _)| decls[n]).collect();
            d.sort_unstable();
            d.into()
        },
        removed: Box::new([]),
    };
    // A constant replaced by a value of its sort at every occurrence, its declaration
    // gone: all of them at once, then one by one (the term pass offers a value only where
    // it is shorter than the name, and cannot drop the declaration).
    let globals = global_constants(ctx);
    let mut valued: Vec<Change> = vec![];
    let mut all: (Vec<usize>, Vec<(TermId, Repl)>) = (vec![], vec![]);
    for (sort, vars) in &by_sort {
        let Some(v) = simple_values(ctx, *sort, &globals).into_iter().find(|v| !decls.contains_key(v.as_ref())) else {
            continue;
        };
        for (n, _) in vars {
            let occ: Vec<(TermId, Repl)> = (0..sc.nodes.len())
                .filter(|&i| global_var(ctx, i) == Some(*n))
                .map(|i| (sc.nodes[i].term, Repl::text(v.clone())))
                .collect();
            all.0.push(decls[n]);
            all.1.extend(occ.iter().cloned());
            valued.push(Change::Edit { drop: Box::new([decls[n]]), commands: Box::new([]), terms: occ.into() });
        }
    }
    if valued.len() > 1 {
        all.0.sort_unstable();
        out.push(Change::Edit { drop: all.0.into(), commands: Box::new([]), terms: all.1.into() });
    }
    out.extend(valued);
    for vars in by_sort.values().filter(|v| v.len() >= 2) {
        let mut targets = vars.clone();
        targets.sort_by_key(|(n, _)| (n.len(), *n));
        let (_, into) = targets[0];
        let rest: Vec<(&str, TermId)> =
            vars.iter().filter(|(n, _)| *n != targets[0].0).map(|(n, _)| (*n, into)).collect();
        if rest.len() > 1 {
            out.push(subst(&rest));
        }
        for (n, _) in vars.iter().rev() {
            for (_, t) in targets.iter().filter(|(m, _)| m != n).take(3) {
                out.push(subst(&[(n, *t)]));
            }
        }
    }
    // Uninterpreted functions of one signature merged: one renamed to the other at every
    // application, its declaration gone.
    let mut by_sig: BTreeMap<String, Vec<(&str, usize)>> = BTreeMap::new();
    for (i, c) in s.commands.iter().enumerate() {
        if let CommandKind::DeclareFun(n, args, ret) = c.kind {
            if !args.is_empty() {
                let sig: Vec<String> = s.sort_list(args).iter().chain([&ret]).map(|&x| sort_to_string(s, x)).collect();
                by_sig.entry(sig.join(" ")).or_default().push((s.sym(n), i));
            }
        }
    }
    let mut funs: Vec<&Vec<(&str, usize)>> = by_sig.values().filter(|v| v.len() >= 2).collect();
    funs.sort_by_key(|v| std::cmp::Reverse(v.len()));
    for fs in funs {
        let mut targets = fs.clone();
        targets.sort_by_key(|(n, _)| (n.len(), *n));
        let (into, _) = targets[0];
        let rest: Vec<&(&str, usize)> = fs.iter().filter(|(n, _)| *n != into).collect();
        if rest.len() > 1 {
            let mut drop: Vec<usize> = rest.iter().map(|(_, i)| *i).collect();
            drop.sort_unstable();
            out.push(Change::Rename(
                Renames::new(rest.iter().map(|(n, _)| (n.to_string(), into.to_string())).collect()),
                drop.into(),
            ));
        }
        for (n, i) in fs.iter().rev() {
            for (m, _) in targets.iter().filter(|(m, _)| m != n).take(2) {
                out.push(Change::Rename(Renames::new(vec![(n.to_string(), m.to_string())]), Box::new([*i])));
            }
        }
    }
    out
}

/// A term that occurs several times replaced at all its occurrences at once: by a
/// simple value of its sort, a declared constant of its sort, or one of its own
/// sub-terms of the same sort (the term-local pass would need one success per
/// occurrence, and each alone may not keep the bug). Only terms without local names:
/// the same text under two binders can mean two things.
pub(super) fn share(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let sc = ctx.scope;
    let skip = in_patterns(ctx);
    let globals = global_constants(ctx);
    // Equal terms get one class, bottom-up (children follow their parent in pre-order, so
    // in reverse order they come first): a node's key is its head and its children's
    // classes, so nothing is printed per node (printing every sub-term is quadratic in
    // the depth: 23 GB on a 100,000-deep `not` chain, issue 37). Only closed terms get a
    // class: no local name, no binder below.
    let mut class: Vec<u32> = vec![NONE; sc.nodes.len()];
    let mut classes: HashMap<ShareKey, u32> = HashMap::new();
    for i in (0..sc.nodes.len()).rev() {
        let n = &sc.nodes[i];
        let kids = child_nodes(sc, i);
        if n.binding != NONE || kids.iter().any(|&c| class[c] == NONE) {
            continue;
        }
        let kids: Vec<u32> = kids.iter().map(|&c| class[c]).collect();
        let key = match *s.term(n.term) {
            Term::Lit(..) | Term::Var(_) => ShareKey::Leaf(term_to_string(s, n.term)),
            Term::App(q, _) => {
                // The head as written (strings are not interned: two `*` are two `Str`s).
                let mut head = s.str(q.ident.sym).to_string();
                for ix in s.index_list(q.ident.indices) {
                    let (Index::Num(x) | Index::Sym(x) | Index::Hex(x)) = *ix;
                    head.push(' ');
                    head.push_str(s.str(x));
                }
                if let Some(so) = q.sort {
                    head.push_str(" as ");
                    head.push_str(&printer::sort_to_string(s, so));
                }
                ShareKey::App(head, kids)
            }
            Term::Annot(_, attrs) => {
                // Pattern terms are children (their classes are in `kids`); a value is
                // printed, it is small.
                let value = |v: AttrValue| match v {
                    AttrValue::None => String::new(),
                    AttrValue::Terms(ts) => format!("{} terms", ts.len),
                    AttrValue::Sexp(x) => {
                        let mut p = printer::Printer::new(s);
                        p.sexp(x);
                        p.out
                    }
                };
                let attrs = s.attr_list(attrs).iter().map(|a| (s.str(a.key).to_string(), value(a.value))).collect();
                ShareKey::Annot(attrs, kids)
            }
            Term::Let(..) | Term::Quant(..) | Term::ExtBinder(..) | Term::Match(..) => continue,
        };
        let next = classes.len() as u32;
        class[i] = *classes.entry(key).or_insert(next);
    }
    let mut by_class: HashMap<u32, Vec<usize>> = HashMap::new();
    for (i, n) in sc.nodes.iter().enumerate() {
        if class[i] != NONE && !skip[i] && n.sort != SortRef::UNKNOWN && n.size >= 2 && !n.named() {
            by_class.entry(class[i]).or_default().push(i);
        }
    }
    // Only a repeated term is printed (once), for the order below.
    let mut groups: Vec<(String, Vec<usize>)> =
        by_class.into_values().filter(|v| v.len() >= 2).map(|v| (term_to_string(s, sc.nodes[v[0]].term), v)).collect();
    groups.sort_by(|(a, _), (b, _)| a.cmp(b));
    // Biggest saving first: what all occurrences together weigh (ties in text order).
    groups.sort_by_key(|(t, v)| std::cmp::Reverse(t.len() * v.len()));
    let mut out = vec![];
    for (_, occ) in groups {
        let first = occ[0];
        let sort = sc.nodes[first].sort;
        for v in simple_values(ctx, sort, &globals) {
            out.push(Change::terms(occ.iter().map(|&i| (sc.nodes[i].term, Repl::text(v.clone()))).collect()));
        }
        // The k-th child of every occurrence, where it has the sort.
        for (k, &c) in child_nodes(sc, first).iter().enumerate() {
            if sc.nodes[c].sort == sort {
                out.push(Change::terms(
                    occ.iter().map(|&i| (sc.nodes[i].term, Repl::Term(sc.nodes[child_nodes(sc, i)[k]].term))).collect(),
                ));
            }
        }
    }
    out
}

/// Rewrites that simplify without changing what a term means, where the result keeps the
/// sort (integer and real literals kept apart, as the checker decides): `(/ 6 1)` → `6`,
/// `(- 0 x)` → `(- x)`, `(* 1 x)` → `x`, `(+ x)` → `x`, `(+ 0 x)` → `x`, `(ite true a b)`
/// → `a`, `(ite c a a)` → `a`, and Boolean connectives with a literal argument.
pub(super) fn simplify(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let sc = ctx.scope;
    let skip = in_patterns(ctx);
    let text = |i: usize| term_to_string(s, sc.nodes[i].term);
    let is = |i: usize, vals: &[&str]| leaf(ctx, i).is_some_and(|l| vals.contains(&l));
    let mut rewrites: Vec<(TermId, Repl)> = vec![];
    let mut i = 0;
    while i < sc.nodes.len() {
        let n = &sc.nodes[i];
        let Some((op, args)) = app(ctx, i).filter(|_| !skip[i] && n.sort != SortRef::UNKNOWN) else {
            i += 1;
            continue;
        };
        let same_sort = |j: usize| sc.nodes[j].sort == n.sort;
        // A kept argument list: the application with these arguments, or the one argument
        // itself when one is left and has the sort.
        let keep = |kept: &[usize], empty: &str| -> Option<Repl> {
            match kept {
                [] => Some(Repl::text(empty.to_string())),
                [one] if same_sort(*one) => Some(Repl::Term(sc.nodes[*one].term)),
                [_] => None,
                many => {
                    Some(Repl::text(format!("({op} {})", many.iter().map(|&j| text(j)).collect::<Vec<_>>().join(" "))))
                }
            }
        };
        let zero = ["0", "0.0"];
        let one = ["1", "1.0"];
        let unit: &[&str] = if op == "*" { &one } else { &zero };
        let r: Option<Repl> = match (op, args.as_slice()) {
            ("/", [a, d]) if is(*d, &one) => match leaf(ctx, *a) {
                _ if same_sort(*a) => Some(Repl::Term(sc.nodes[*a].term)),
                Some(l) if l.bytes().all(|b| b.is_ascii_digit()) => Some(Repl::text(format!("{l}.0"))),
                _ => None,
            },
            ("-", [a, b]) if is(*a, &zero) => Some(Repl::text(format!("(- {})", text(*b)))),
            ("-", [a, b]) if is(*b, &zero) && same_sort(*a) => Some(Repl::Term(sc.nodes[*a].term)),
            // Units go: `1` of `*`, `0` of `+` (all of them: the first argument stays).
            ("*" | "+", xs) if xs.len() >= 2 && xs.iter().any(|&x| is(x, unit)) => {
                let kept: Vec<usize> = xs.iter().copied().filter(|&x| !is(x, unit)).collect();
                if kept.is_empty() {
                    Some(Repl::Term(sc.nodes[xs[0]].term))
                } else {
                    keep(&kept, "")
                }
            }
            ("+", [x]) | ("*", [x]) if same_sort(*x) => Some(Repl::Term(sc.nodes[*x].term)),
            ("ite", [c, a, _]) if is(*c, &["true"]) => Some(Repl::Term(sc.nodes[*a].term)),
            ("ite", [c, _, b]) if is(*c, &["false"]) => Some(Repl::Term(sc.nodes[*b].term)),
            ("ite", [_, a, b]) if text(*a) == text(*b) => Some(Repl::Term(sc.nodes[*a].term)),
            // A negated order is the opposite order (for Ints, Reals and bit-vectors).
            ("not", [x]) if app(ctx, *x).is_some_and(|(o, ys)| ys.len() == 2 && negated_order(o).is_some()) => {
                app(ctx, *x).and_then(|(o, ys)| {
                    negated_order(o).map(|neg| Repl::text(format!("({neg} {} {})", text(ys[0]), text(ys[1]))))
                })
            }
            ("not", [x]) if is(*x, &["true"]) => Some(Repl::text("false")),
            ("not", [x]) if is(*x, &["false"]) => Some(Repl::text("true")),
            ("and", xs) if xs.iter().any(|&x| is(x, &["false"])) => Some(Repl::text("false")),
            ("or", xs) if xs.iter().any(|&x| is(x, &["true"])) => Some(Repl::text("true")),
            ("and" | "or", xs) => {
                let unit = if op == "and" { "true" } else { "false" };
                let mut seen: BTreeSet<String> = BTreeSet::new();
                let kept: Vec<usize> =
                    xs.iter().copied().filter(|&x| !is(x, &[unit]) && seen.insert(text(x))).collect();
                (kept.len() < xs.len() || xs.len() == 1).then(|| keep(&kept, unit)).flatten()
            }
            // `(xor a a)` is false and false is xor's unit: pairs cancel, `false` goes.
            ("xor", xs) => {
                let texts: Vec<String> = xs.iter().map(|&x| text(x)).collect();
                // Positions in `xs` still standing.
                let mut kept: Vec<usize> = vec![];
                for k in 0..xs.len() {
                    if is(xs[k], &["false"]) {
                        continue;
                    }
                    match kept.iter().position(|&j| texts[j] == texts[k]) {
                        Some(p) => {
                            kept.remove(p);
                        }
                        None => kept.push(k),
                    }
                }
                let kept: Vec<usize> = kept.into_iter().map(|k| xs[k]).collect();
                (kept.len() < xs.len()).then(|| keep(&kept, "false")).flatten()
            }
            ("=>", [a, b]) if is(*a, &["true"]) => Some(Repl::Term(sc.nodes[*b].term)),
            ("=>", [a, b]) if is(*a, &["false"]) || is(*b, &["true"]) => Some(Repl::text("true")),
            ("=", [a, b]) if sc.nodes[*a].sort != SortRef::UNKNOWN && text(*a) == text(*b) => Some(Repl::text("true")),
            _ => None,
        };
        // Otherwise, commutative arguments in order.
        let r = r.or_else(|| {
            if args.len() < 2 || s.terms.len() > SORT_LIMIT || !COMMUTATIVE.contains(&op) {
                return None;
            }
            let mut texts: Vec<String> = args.iter().map(|&x| text(x)).collect();
            if !texts.windows(2).any(|w| arg_order(&w[0], &w[1]) == std::cmp::Ordering::Greater) {
                return None;
            }
            texts.sort_by(|a, b| arg_order(a, b));
            Some(Repl::text(format!("({op} {})", texts.join(" "))))
        });
        match r {
            // An outer rewrite hides the inner ones (they are found on the next round).
            Some(r) => {
                rewrites.push((n.term, r));
                i += n.size as usize;
            }
            None => i += 1,
        }
    }
    ddmin(&rewrites, Change::terms)
}

/// The text of a [`Change::Subst`] applied to the context's script.
pub(super) fn subst_text(ctx: &Ctx, vars: &[(String, TermId)], drop: &[usize], removed: &[TermId]) -> String {
    let s = ctx.s;
    let sc = ctx.scope;
    let index: HashMap<TermId, usize> = sc.nodes.iter().enumerate().map(|(i, n)| (n.term, i)).collect();
    let map: HashMap<&str, TermId> = vars.iter().map(|(n, t)| (n.as_str(), *t)).collect();
    let mut memo: HashMap<&str, String> = HashMap::new();
    // Resolved texts, innermost first: a variable's term with the variables in it
    // substituted. The passes never build a cycle; the depth bound keeps a hand-made one
    // from recursing without end (it then prints a symbol that no longer exists, and the
    // checker refuses the candidate).
    fn resolve<'a>(
        ctx: &Ctx<'a>,
        index: &HashMap<TermId, usize>,
        map: &HashMap<&'a str, TermId>,
        memo: &mut HashMap<&'a str, String>,
        name: &'a str,
        depth: usize,
    ) -> String {
        if let Some(t) = memo.get(name) {
            return t.clone();
        }
        let u = map[name];
        let Some(&i) = index.get(&u) else { return term_to_string(ctx.s, u) };
        let mut texts: Vec<(TermId, String)> = vec![];
        for j in i..i + ctx.scope.nodes[i].size as usize {
            if let Some(y) = global_var(ctx, j).filter(|y| map.contains_key(y) && depth < 64) {
                texts.push((ctx.scope.nodes[j].term, resolve(ctx, index, map, memo, y, depth + 1)));
            }
        }
        let ov: Vec<(TermId, &str)> = texts.iter().map(|(t, x)| (*t, x.as_str())).collect();
        let t = term_with(ctx.s, u, &ov);
        memo.insert(name, t.clone());
        t
    }
    let mut var_ov: Vec<(TermId, String)> = vec![];
    let mut gone = vec![false; sc.nodes.len()];
    for t in removed {
        if let Some(&i) = index.get(t) {
            gone[i..i + sc.nodes[i].size as usize].iter_mut().for_each(|g| *g = true);
        }
    }
    for (j, &g) in gone.iter().enumerate() {
        if g || drop.binary_search(&(sc.nodes[j].cmd as usize)).is_ok() {
            continue;
        }
        if let Some(y) = global_var(ctx, j).filter(|y| map.contains_key(y)) {
            var_ov.push((sc.nodes[j].term, resolve(ctx, &index, &map, &mut memo, y, 0)));
        }
    }
    let ov: Vec<(TermId, &str)> = var_ov.iter().map(|(t, x)| (*t, x.as_str())).collect();
    // The `and`s that lose conjuncts, printed with what is left.
    let mut and_ov: Vec<(TermId, String)> = vec![];
    let removed: HashSet<TermId> = removed.iter().copied().collect();
    for i in 0..sc.nodes.len() {
        let Some(("and", args)) = app(ctx, i) else { continue };
        if !args.iter().any(|a| removed.contains(&sc.nodes[*a].term)) {
            continue;
        }
        let kept: Vec<String> = args
            .iter()
            .filter(|a| !removed.contains(&sc.nodes[**a].term))
            .map(|a| term_with(s, sc.nodes[*a].term, &ov))
            .collect();
        let text = match kept.len() {
            0 => "true".to_string(),
            1 => kept[0].clone(),
            _ => format!("(and {})", kept.join(" ")),
        };
        and_ov.push((sc.nodes[i].term, text));
    }
    let all: Vec<(TermId, &str)> = and_ov.iter().map(|(t, x)| (*t, x.as_str())).chain(ov.iter().copied()).collect();
    let mut out = String::with_capacity(s.text.len());
    for (i, cmd) in s.commands.iter().enumerate() {
        if drop.binary_search(&i).is_ok() {
            continue;
        }
        out.push_str(&print_command_with(s, &cmd.kind, &all));
        out.push('\n');
    }
    out
}

/// Relations made stricter, one at a time (ddSMT's "strengthen relation" and "eliminate
/// distinct"): `<`, `<=`, `>`, `>=` and the bit-vector comparisons by `=`, `<=` by `<`,
/// `>=` by `>`, a binary `distinct` by `(not (= a b))`. Not equivalences: each is a
/// candidate of its own, and the measure counts the weaker relations, so a same-size
/// replacement is still progress.
pub(super) fn relations(ctx: &Ctx) -> Vec<Change> {
    let sc = ctx.scope;
    let skip = in_patterns(ctx);
    let text = |i: usize| term_to_string(ctx.s, sc.nodes[i].term);
    let mut out = vec![];
    for (i, &skipped) in skip.iter().enumerate() {
        let Some((op, args)) = app(ctx, i).filter(|_| !skipped) else { continue };
        let [a, b] = args[..] else { continue };
        let to: &[&str] = match op {
            "<=" => &["<", "="],
            ">=" => &[">", "="],
            "bvule" => &["bvult", "="],
            "bvuge" => &["bvugt", "="],
            "bvsle" => &["bvslt", "="],
            "bvsge" => &["bvsgt", "="],
            "distinct" => {
                out.push(Change::term(sc.nodes[i].term, Repl::text(format!("(not (= {} {}))", text(a), text(b)))));
                &[]
            }
            _ if relation_weakness(op) > 0 => &["="],
            _ => &[],
        };
        for r in to {
            out.push(Change::term(sc.nodes[i].term, Repl::text(format!("({r} {} {})", text(a), text(b)))));
        }
    }
    out
}

/// The order that holds exactly when `op` does not (total orders only).
fn negated_order(op: &str) -> Option<&'static str> {
    Some(match op {
        "<" => ">=",
        "<=" => ">",
        ">" => "<=",
        ">=" => "<",
        "bvult" => "bvuge",
        "bvule" => "bvugt",
        "bvugt" => "bvule",
        "bvuge" => "bvult",
        "bvslt" => "bvsge",
        "bvsle" => "bvsgt",
        "bvsgt" => "bvsle",
        "bvsge" => "bvslt",
        _ => return None,
    })
}
