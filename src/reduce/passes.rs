//! Reduction passes over the typed AST.
//!
//! A pass looks at the current script and lists candidate [`Change`]s, coarse ones first
//! (pre-order: a whole assertion before its sub-terms). A change is only a description;
//! [`materialize`] prints it, and the driver parses and sort-checks the text before any
//! solver sees it, so every candidate is well-sorted SMT-LIB (the checker refuses
//! 1-argument `distinct` and `=`, unbound names and arity errors). That is the difference
//! from ddSMT's untyped S-expression passes, which hand solvers text they must reject.
//!
//! The passes follow ddSMT 2 (Niemetz, Preiner, Barrett, "ddSMT 2.0", SMT 2021) and
//! C-Reduce's idea of many small transformations run to a fixpoint: drop commands (ddmin
//! chunks, Zeller & Hildebrandt 2002), split conjunctions (ddmin over conjuncts), replace a
//! term by a descendant or a
//! simple value of its sort, eliminate `let` bindings, inline `define-fun`s, eliminate
//! quantified variables, drop arguments of n-ary applications, turn `check-sat-assuming`
//! into `check-sat`, shrink literals, simplify the logic, rename symbols short.

use crate::mutate::edit::{children, command_terms};
use crate::mutate::scope::{Scope, NONE};
use crate::smtlib::ast::*;
use crate::smtlib::check::Checked;
use crate::smtlib::printer::{self, print_command_with, sort_to_string, term_to_string, term_with};
use crate::smtlib::sort::{SortKind, SortRef};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A term's replacement in a candidate.
#[derive(Clone, Debug)]
pub enum Repl {
    Text(String),
    /// Another term of the same script (printed when the candidate is materialised).
    Term(TermId),
}

/// One candidate, relative to the current script.
#[derive(Clone, Debug)]
pub enum Change {
    /// Remove commands (sorted indices), replace commands by text, replace terms. An
    /// argument replaced by empty text disappears from its application.
    Edit { drop: Vec<usize>, commands: Vec<(usize, String)>, terms: Vec<(TermId, Repl)> },
    /// Rename symbols everywhere (old → new; the new names are fresh in the script).
    Rename(Vec<(String, String)>),
}

impl Change {
    fn terms(terms: Vec<(TermId, Repl)>) -> Change {
        Change::Edit { drop: vec![], commands: vec![], terms }
    }
    fn term(t: TermId, r: Repl) -> Change {
        Change::terms(vec![(t, r)])
    }
    fn commands(commands: Vec<(usize, String)>) -> Change {
        Change::Edit { drop: vec![], commands, terms: vec![] }
    }
}

/// The current script with what the passes need to know about it.
pub struct Ctx<'a> {
    pub s: &'a Script,
    pub checked: &'a Checked,
    pub scope: &'a Scope,
}

/// A pass: a name (for statistics) and its candidate generator.
pub type Pass = (&'static str, fn(&Ctx) -> Vec<Change>);

/// The passes, coarse to fine. The driver runs them in this order until none succeeds.
pub const PASSES: &[Pass] = &[
    ("commands", commands),
    ("conjuncts", conjuncts),
    ("terms", terms),
    ("let", lets),
    ("define-fun", define_funs),
    ("quantifier-vars", quant_vars),
    ("arity", arity),
    ("check-sat-assuming", checksat_assuming),
    ("literals", literals),
    ("logic", logic),
    ("rename", rename),
];

/// The text of a change applied to the context's script.
pub fn materialize(ctx: &Ctx, c: &Change) -> String {
    match c {
        Change::Edit { drop, commands, terms } => {
            let texts: Vec<String> = terms
                .iter()
                .map(|(_, r)| match r {
                    Repl::Text(t) => t.clone(),
                    Repl::Term(t) => term_to_string(ctx.s, *t),
                })
                .collect();
            let ov: Vec<(TermId, &str)> = terms.iter().zip(&texts).map(|((t, _), x)| (*t, x.as_str())).collect();
            let mut out = String::with_capacity(ctx.s.text.len());
            for (i, cmd) in ctx.s.commands.iter().enumerate() {
                if drop.binary_search(&i).is_ok() {
                    continue;
                }
                match commands.iter().find(|(j, _)| *j == i) {
                    Some((_, t)) => out.push_str(t),
                    None => out.push_str(&print_command_with(ctx.s, &cmd.kind, &ov)),
                }
                out.push('\n');
            }
            out
        }
        Change::Rename(map) => {
            let mut s = ctx.s.clone();
            let map: HashMap<&str, &str> = map.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
            for i in 0..s.strs.len() {
                if let Some(new) = map.get(s.sym(Str(i as u32))) {
                    let a = s.text.len() as u32;
                    s.text.push_str(new);
                    s.strs[i] = (a, s.text.len() as u32);
                }
            }
            printer::print(&s)
        }
    }
}

/// How much is left of a script; a candidate must be strictly smaller. Lexicographic:
/// bytes (what a reader sees) outside the logic name, term nodes, "weight" of literals
/// (digits other than 0, string characters), then the logic (`ALL` heaviest). Strict
/// decrease makes the reduction terminate whatever the passes propose.
pub fn measure(s: &Script, text: &str) -> (usize, usize, usize, usize) {
    let logic = s.logic().unwrap_or("");
    let logic_rank = if logic.is_empty() || logic == "ALL" { 1000 } else { logic.len() };
    let weight = s
        .terms
        .iter()
        .map(|t| match *t {
            Term::Lit(_, x) => s.str(x).chars().filter(|c| !matches!(c, '0' | '.' | '#' | '"')).count(),
            _ => 0,
        })
        .sum();
    (text.len().saturating_sub(logic.len()), s.terms.len(), weight, logic_rank)
}

/// Short values of a sort, simplest first: what ddSMT calls "substitute by constant".
pub fn simple_values(ctx: &Ctx, sort: SortRef, globals: &BTreeMap<SortRef, String>) -> Vec<String> {
    let mut v: Vec<String> = match ctx.checked.sorts.kind(sort) {
        SortKind::Bool => vec!["false".into(), "true".into()],
        SortKind::Int => vec!["0".into(), "1".into()],
        SortKind::Real => vec!["0.0".into(), "1.0".into()],
        SortKind::String => vec!["\"\"".into()],
        SortKind::RoundingMode => vec!["RNE".into()],
        SortKind::RegLan => vec!["re.none".into(), "re.all".into()],
        SortKind::BitVec(w) => {
            let w = *w;
            let bin = (w <= 64).then(|| format!("#b{}", "0".repeat(w as usize)));
            let hex = (w % 4 == 0 && w <= 256).then(|| format!("#x{}", "0".repeat(w as usize / 4)));
            let idx = format!("(_ bv0 {w})");
            let best = [bin, hex, Some(idx)].into_iter().flatten().min_by_key(|x| x.len());
            best.into_iter().collect()
        }
        SortKind::Float(e, s) => vec![format!("(_ +zero {e} {s})")],
        _ => vec![],
    };
    if let Some(g) = globals.get(&sort) {
        v.push(g.clone());
    }
    v
}

/// The shortest declared constant or nullary constructor of each sort that occurs in the
/// script (a replacement for sorts without literals).
pub fn global_constants(ctx: &Ctx) -> BTreeMap<SortRef, String> {
    let s = ctx.s;
    // Declared constants, and nullary datatype constructors (`nil`, enumeration values).
    let mut declared: BTreeSet<&str> = BTreeSet::new();
    for c in &s.commands {
        match c.kind {
            CommandKind::DeclareConst(n, _) => {
                declared.insert(s.sym(n));
            }
            CommandKind::DeclareFun(n, args, _) if args.is_empty() => {
                declared.insert(s.sym(n));
            }
            CommandKind::DeclareDatatype(_, d) => {
                declared.extend(s.ctor_list(d.ctors).iter().filter(|k| k.fields.is_empty()).map(|k| s.sym(k.name)));
            }
            CommandKind::DeclareDatatypes { decls, .. } => {
                for d in s.decl_list(decls) {
                    declared.extend(s.ctor_list(d.ctors).iter().filter(|k| k.fields.is_empty()).map(|k| s.sym(k.name)));
                }
            }
            _ => {}
        }
    }
    let mut out: BTreeMap<SortRef, String> = BTreeMap::new();
    for n in &ctx.scope.nodes {
        if let Term::Var(q) = *s.term(n.term) {
            let name = s.str(q.ident.sym);
            if n.binding == NONE
                && q.ident.indices.is_empty()
                && q.sort.is_none()
                && declared.contains(s.sym(q.ident.sym))
            {
                let e = out.entry(n.sort).or_insert_with(|| name.to_string());
                if name.len() < e.len() {
                    *e = name.to_string();
                }
            }
        }
    }
    out
}

/// Removable commands: all but `exit`, and the check-sats only when there are several.
fn removable(s: &Script) -> Vec<usize> {
    let checks = s.commands.iter().filter(|c| s.is_check(&c.kind)).count();
    (0..s.commands.len())
        .filter(|&i| match s.commands[i].kind {
            CommandKind::Nullary(Nullary::Exit) => false,
            ref k if s.is_check(k) => checks > 1,
            _ => true,
        })
        .collect()
}

/// ddmin over commands: remove chunks of n/2, n/4, ..., 1 removable commands.
fn commands(ctx: &Ctx) -> Vec<Change> {
    let r = removable(ctx.s);
    let mut out = vec![];
    let mut size = r.len().div_ceil(2).max(1);
    loop {
        for chunk in r.chunks(size) {
            out.push(Change::Edit { drop: chunk.to_vec(), commands: vec![], terms: vec![] });
        }
        if size == 1 {
            break;
        }
        size = size.div_ceil(2);
    }
    out
}

/// Conjunctions split, ddmin-style: in `(assert (and c1 ... cn))`, chunks of n/2, n/4,
/// ..., 1 conjuncts are removed (what splitting into separate assertions and dropping
/// them achieves, without the bytes of the extra `assert` wrappers).
fn conjuncts(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let mut out = vec![];
    for c in &s.commands {
        let CommandKind::Assert(t) = c.kind else { continue };
        let Term::App(q, args) = *s.term(t) else { continue };
        if s.str(q.ident.sym) != "and" || !q.ident.indices.is_empty() || args.len < 2 {
            continue;
        }
        let xs = s.term_list(args);
        let mut size = xs.len().div_ceil(2);
        loop {
            for start in (0..xs.len()).step_by(size) {
                let kept: Vec<TermId> =
                    xs.iter().enumerate().filter(|(i, _)| *i < start || *i >= start + size).map(|(_, &x)| x).collect();
                let text = match kept.as_slice() {
                    [] => continue,
                    [one] => term_to_string(s, *one),
                    many => {
                        let parts: Vec<String> = many.iter().map(|&x| term_to_string(s, x)).collect();
                        format!("(and {})", parts.join(" "))
                    }
                };
                out.push(Change::term(t, Repl::Text(text)));
            }
            if size == 1 {
                break;
            }
            size = size.div_ceil(2);
        }
    }
    out
}

/// Terms under `:pattern`/`:no-pattern` (replacing them makes patterns solvers reject).
fn in_patterns(ctx: &Ctx) -> Vec<bool> {
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
fn terms(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let globals = global_constants(ctx);
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
                out.push(Change::term(n.term, Repl::Text(v)));
            }
        }
        if leaf.is_none() {
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

/// `let` elimination: substitute a binding's value for its uses and drop the binding
/// (all bindings of a `let` at once first, then one by one).
fn lets(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let sc = ctx.scope;
    let mut out = vec![];
    for (i, n) in sc.nodes.iter().enumerate() {
        let Term::Let(binds, body) = *s.term(n.term) else { continue };
        let bs = s.binding_list(binds);
        let first = n.locals_before;
        let values: Vec<String> = bs.iter().map(|b| term_to_string(s, b.value)).collect();
        let subtree = &sc.nodes[i + 1..i + n.size as usize];
        let mut variants: Vec<Vec<usize>> = vec![];
        if bs.len() > 1 {
            variants.push((0..bs.len()).collect());
        }
        variants.extend((0..bs.len()).map(|k| vec![k]));
        for elim in variants {
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
            let kept: Vec<String> = (0..bs.len())
                .filter(|k| !elim.contains(k))
                .map(|k| format!("({} {})", s.str(bs[k].name), values[k]))
                .collect();
            let text = if kept.is_empty() { new_body } else { format!("(let ({}) {new_body})", kept.join(" ")) };
            out.push(Change::term(n.term, Repl::Text(text)));
        }
    }
    out
}

/// Inlines a non-recursive `define-fun` (or z3's `define-const`) at every use and removes
/// the definition: arguments substituted for the parameters, or (second candidate, for
/// when substitution copies big arguments) a `let` of the parameters around the body.
fn define_funs(ctx: &Ctx) -> Vec<Change> {
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
            let terms = texts.into_iter().map(|(t, x)| (t, Repl::Text(x))).collect();
            out.push(Change::Edit { drop: vec![c], commands: vec![], terms });
            if params.is_empty() {
                break;
            }
        }
    }
    out
}

/// Drops a quantified variable, replacing its uses by a simple value of its sort (all of
/// a quantifier's variables at once first); no variables left, no quantifier.
fn quant_vars(ctx: &Ctx) -> Vec<Change> {
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
            simple_values(ctx, sort, &globals).into_iter().next()
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
            out.push(Change::term(n.term, Repl::Text(text)));
        }
    }
    out
}

/// Drops one argument of an application with at least two (n-ary operators, and the
/// assumptions of `check-sat-assuming`); the checker refuses what the signature forbids.
fn arity(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let mut out = vec![];
    for n in &ctx.scope.nodes {
        if let Term::App(_, args) = *s.term(n.term) {
            if args.len >= 2 {
                for &a in s.term_list(args) {
                    out.push(Change::term(a, Repl::Text(String::new())));
                }
            }
        }
    }
    for c in 0..s.commands.len() {
        if let CommandKind::CheckSatAssuming(_) = s.commands[c].kind {
            for t in command_terms(s, c) {
                out.push(Change::term(t, Repl::Text(String::new())));
            }
        }
    }
    out
}

/// `(check-sat-assuming (a b))` becomes `(check-sat)` with the assumptions asserted, or
/// without them.
fn checksat_assuming(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let mut out = vec![];
    for (i, c) in s.commands.iter().enumerate() {
        if let CommandKind::CheckSatAssuming(l) = c.kind {
            let asserts: Vec<String> =
                s.term_list(l).iter().map(|&t| format!("(assert {})\n", term_to_string(s, t))).collect();
            out.push(Change::commands(vec![(i, format!("{}(check-sat)", asserts.concat()))]));
            out.push(Change::commands(vec![(i, "(check-sat)".into())]));
        }
    }
    out
}

/// Smaller literals: numerals to 0, 1 and a digit shorter; decimals to their integer part;
/// bit-vector literals to zeros; strings to empty and to their first half.
fn literals(ctx: &Ctx) -> Vec<Change> {
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
                out.push(Change::term(n.term, Repl::Text(c)));
            }
        }
    }
    out
}

/// The smallest standard logic name that covers what the script uses.
fn logic(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let Some(at) = s.commands.iter().position(|c| matches!(c.kind, CommandKind::SetLogic(_))) else { return vec![] };
    let kinds: Vec<&SortKind> = ctx.checked.term_sorts.iter().map(|&r| ctx.checked.sorts.kind(r)).collect();
    let has = |f: &dyn Fn(&SortKind) -> bool| kinds.iter().any(|k| f(k));
    let quant = s.terms.iter().any(|t| matches!(t, Term::Quant(b, ..) if *b != Binder::Lambda));
    let arrays = has(&|k| matches!(k, SortKind::Con(n, a) if &**n == "Array" && a.len() == 2));
    let uf = s.commands.iter().any(|c| match c.kind {
        CommandKind::DeclareFun(_, args, _) => !args.is_empty(),
        CommandKind::DeclareSort(..) => true,
        _ => false,
    });
    let dt = s
        .commands
        .iter()
        .any(|c| matches!(c.kind, CommandKind::DeclareDatatype(..) | CommandKind::DeclareDatatypes { .. }));
    let bv = has(&|k| matches!(k, SortKind::BitVec(_)));
    let fp = has(&|k| matches!(k, SortKind::Float(..) | SortKind::RoundingMode));
    let strings = has(&|k| matches!(k, SortKind::String | SortKind::RegLan));
    let int = has(&|k| matches!(k, SortKind::Int));
    let real = has(&|k| matches!(k, SortKind::Real));
    let nonlinear = s.terms.iter().any(|t| match *t {
        Term::App(q, args) => {
            let op = s.str(q.ident.sym);
            crate::mutate::opfuzz::NONLINEAR.contains(&op)
                && s.term_list(args).iter().filter(|&&a| !matches!(s.term(a), Term::Lit(..))).count() >= 2
        }
        _ => false,
    });
    let name = crate::smtlib::logic::name(&crate::smtlib::logic::Features {
        quantifiers: quant,
        arrays,
        uf,
        datatypes: dt,
        bv,
        fp,
        strings,
        ints: int,
        reals: real,
        nonlinear,
    });
    if s.logic() == Some(name.as_str()) {
        return vec![];
    }
    vec![Change::commands(vec![(at, format!("(set-logic {name})"))])]
}

/// Names the script declares or binds (not datatypes: their testers derive from names).
fn declared_names(s: &Script) -> Vec<String> {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut out = vec![];
    let mut add = |n: &str| {
        if seen.insert(n.to_string()) {
            out.push(n.to_string());
        }
    };
    for c in &s.commands {
        match c.kind {
            CommandKind::DeclareConst(n, _)
            | CommandKind::DeclareFun(n, ..)
            | CommandKind::DeclareSort(n, _)
            | CommandKind::DefineSort(n, ..)
            | CommandKind::DefineConst(n, ..) => add(s.sym(n)),
            CommandKind::DefineFun { decl, .. } => {
                add(s.sym(decl.name));
                s.var_list(decl.params).iter().for_each(|v| add(s.sym(v.name)));
            }
            CommandKind::DefineFunsRec(decls, _) => {
                for d in s.fun_decl_list(decls) {
                    add(s.sym(d.name));
                    s.var_list(d.params).iter().for_each(|v| add(s.sym(v.name)));
                }
            }
            _ => {}
        }
    }
    for t in &s.terms {
        match *t {
            Term::Let(bs, _) => s.binding_list(bs).iter().for_each(|b| add(s.sym(b.name))),
            Term::Quant(_, vs, _) | Term::ExtBinder(_, vs, _) => s.var_list(vs).iter().for_each(|v| add(s.sym(v.name))),
            _ => {}
        }
    }
    out
}

/// Short fresh names: a..z, then a0, b0, ...; never a name the script already uses or
/// one the theory table knows.
fn fresh_names<'a>(used: &'a BTreeSet<&'a str>) -> impl Iterator<Item = String> + 'a {
    (0..)
        .flat_map(|round: u32| {
            (b'a'..=b'z')
                .map(move |c| if round == 0 { (c as char).to_string() } else { format!("{}{}", c as char, round - 1) })
        })
        .filter(|n| !used.contains(n.as_str()) && crate::smtlib::theory::table().lookup(n).is_empty())
}

/// Renames declared and bound symbols to short fresh names: all at once, then one by one
/// (longest first).
fn rename(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let names = declared_names(s);
    let used: BTreeSet<&str> = (0..s.strs.len() as u32).map(|i| s.sym(Str(i))).collect();
    let mut fresh = fresh_names(&used);
    let mut map: Vec<(String, String)> = vec![];
    for n in names {
        let Some(new) = fresh.next() else { break };
        if new.len() < n.len() {
            map.push((n, new));
        }
    }
    if map.is_empty() {
        return vec![];
    }
    let mut out = vec![Change::Rename(map.clone())];
    if map.len() > 1 {
        map.sort_by_key(|(old, _)| std::cmp::Reverse(old.len()));
        out.extend(map.into_iter().map(|p| Change::Rename(vec![p])));
    }
    out
}
