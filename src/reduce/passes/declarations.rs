//! Passes over what a script declares: declarations nothing uses, sorts that can be
//! simpler, and terms that can become a fresh constant.

use super::{drop_chunks, Change, Ctx, Renames, Repl};
use crate::mutate::scope::NONE;
use crate::smtlib::ast::*;
use crate::smtlib::printer::{print_command_with, sort_to_string, term_to_string};
use crate::smtlib::sort::SortRef;
use std::collections::HashSet;

/// The symbols a command declares (constants, functions, sorts, datatypes with their
/// constructors, selectors and testers); empty for commands that declare nothing.
fn declares(s: &Script, k: &CommandKind) -> Vec<String> {
    if let Some(n) = s.declared_name(k) {
        return vec![n.to_string()];
    }
    let mut out = vec![];
    let decl = |d: &DatatypeDecl, out: &mut Vec<String>| {
        if let Some(n) = d.legacy_name {
            out.push(s.sym(n).to_string());
        }
        for c in s.ctor_list(d.ctors) {
            out.push(s.sym(c.name).to_string());
            out.push(format!("is-{}", s.sym(c.name)));
            out.extend(s.var_list(c.fields).iter().map(|f| s.sym(f.name).to_string()));
        }
    };
    match *k {
        CommandKind::DeclareDatatype(n, ref d) => {
            out.push(s.sym(n).to_string());
            decl(d, &mut out);
        }
        CommandKind::DeclareDatatypes { form, decls, .. } => {
            if let DatatypesForm::Standard(sorts) = form {
                out.extend(s.sort_decl_list(sorts).iter().map(|d| s.sym(d.name).to_string()));
            }
            for d in s.decl_list(decls) {
                decl(d, &mut out);
            }
        }
        _ => {}
    }
    out
}

/// The symbols a printed command mentions (bars removed; string literals and keywords
/// are other tokens). A bound variable that shadows a global counts as a use: this only
/// keeps a declaration that could have gone. A printed command always lexes; were it not
/// to, the symbols before the error are what it mentions.
fn mentions(text: &str, out: &mut HashSet<String>) {
    use crate::smtlib::lexer::{Lexer, Tok};
    let mut lexer = Lexer::new(text.as_bytes());
    while let Ok(t) = lexer.next_token() {
        let w = &text[t.start as usize..t.end as usize];
        match t.kind {
            Tok::Symbol => {
                out.insert(w.to_string());
            }
            Tok::QuotedSymbol => {
                out.insert(w[1..w.len() - 1].to_string());
            }
            Tok::Eof => break,
            _ => {}
        }
    }
}

/// Declarations no other command mentions, to a fixpoint (a sort only an unused function
/// mentions goes with it): all at once first, then ddmin halves of them (ddSMT leaves
/// these to its generic command ddmin, which on a verification condition with hundreds of
/// declarations removes them a few at a time, one check each).
pub(super) fn unused(ctx: &Ctx) -> Vec<Change> {
    let r = unused_commands(ctx.s);
    drop_chunks(&r, r.len())
}

/// [`unused`]'s first candidate alone: every unused declaration at once (what the driver
/// tries after another pass's success has left declarations unused).
pub fn unused_all(ctx: &Ctx) -> Vec<Change> {
    let drop = unused_commands(ctx.s);
    if drop.is_empty() {
        return vec![];
    }
    vec![Change::Edit { drop: drop.into(), commands: Box::new([]), terms: Box::new([]) }]
}

/// The indices of the declaring commands nothing else mentions, to a fixpoint.
pub fn unused_commands(s: &Script) -> Vec<usize> {
    let n = s.commands.len();
    let decls: Vec<Vec<String>> = s.commands.iter().map(|c| declares(s, &c.kind)).collect();
    // Which commands mention each name (linear in the script, however many declarations).
    let mut users: std::collections::HashMap<String, Vec<usize>> = Default::default();
    for (j, c) in s.commands.iter().enumerate() {
        let mut m = HashSet::new();
        mentions(&print_command_with(s, &c.kind, &[]), &mut m);
        for name in m {
            users.entry(name).or_default().push(j);
        }
    }
    let mut gone = vec![false; n];
    loop {
        let mut more = false;
        for i in 0..n {
            if gone[i] || decls[i].is_empty() {
                continue;
            }
            let used = decls[i].iter().any(|d| users.get(d).is_some_and(|js| js.iter().any(|&j| j != i && !gone[j])));
            if !used {
                gone[i] = true;
                more = true;
            }
        }
        if !more {
            break;
        }
    }
    (0..n).filter(|&i| gone[i]).collect()
}

/// Simpler sorts for what is declared or bound: a quantified variable, a constant, a
/// function's argument or result becomes `Int` (or `Bool`); the sort checker refuses the
/// candidates where that does not fit. Then the datatype or sort it had may go (`unused`).
/// ddSMT 2.0.6 has no mutator that changes a sort: it leaves `(forall ((g D)) ...)` and
/// `D`'s declaration in place.
pub(super) fn retype(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let simpler = |old: &str| -> Vec<&'static str> {
        match old {
            "Bool" | "Int" => vec![],
            _ => vec!["Int", "Bool"],
        }
    };
    let mut out = vec![];
    // A declared sort (or a datatype alone in its command) replaced everywhere, its
    // declaration dropped: `(declare-datatypes ((D 0)) (((c)))) (assert (forall ((g D)) p))`
    // becomes `(assert (forall ((g Int)) p))` in one step (retyping one variable alone
    // would be longer while `D` is still declared).
    for (i, c) in s.commands.iter().enumerate() {
        let sort = match c.kind {
            CommandKind::DeclareSort(n, _) => n,
            CommandKind::DeclareDatatype(n, d) if d.params.is_empty() => n,
            CommandKind::DeclareDatatypes { form: DatatypesForm::Standard(sorts), decls, .. }
                if sorts.len == 1 && s.decl_list(decls).iter().all(|d| d.params.is_empty()) =>
            {
                s.sort_decl_list(sorts)[0].name
            }
            _ => continue,
        };
        for new in ["Int", "Bool"] {
            out.push(Change::Rename(Renames::new(vec![(s.sym(sort).to_string(), new.to_string())]), Box::new([i])));
        }
    }
    for n in &ctx.scope.nodes {
        let Term::Quant(b, vars, body) = *s.term(n.term) else { continue };
        if b == Binder::Lambda {
            continue;
        }
        let vs = s.var_list(vars);
        let sorts: Vec<String> = vs.iter().map(|v| sort_to_string(s, v.sort)).collect();
        for k in 0..vs.len() {
            for new in simpler(&sorts[k]) {
                let list: Vec<String> = (0..vs.len())
                    .map(|j| format!("({} {})", symbol_text(s.str(vs[j].name)), if j == k { new } else { &sorts[j] }))
                    .collect();
                let text = format!("({} ({}) {})", b.keyword(), list.join(" "), term_to_string(s, body));
                out.push(Change::term(n.term, Repl::text(text)));
            }
        }
    }
    for (i, c) in s.commands.iter().enumerate() {
        let (name, args, ret): (Str, Vec<SortId>, SortId) = match c.kind {
            CommandKind::DeclareConst(n, r) => (n, vec![], r),
            CommandKind::DeclareFun(n, args, r) => (n, s.sort_list(args).to_vec(), r),
            _ => continue,
        };
        let sorts: Vec<String> = args.iter().chain([&ret]).map(|&x| sort_to_string(s, x)).collect();
        for k in 0..sorts.len() {
            for new in simpler(&sorts[k]) {
                let at = |j: usize| if j == k { new } else { sorts[j].as_str() };
                let text = if matches!(c.kind, CommandKind::DeclareConst(..)) {
                    format!("(declare-const {} {new})", symbol_text(s.sym(name)))
                } else {
                    let a: Vec<&str> = (0..args.len()).map(at).collect();
                    format!("(declare-fun {} ({}) {})", symbol_text(s.sym(name)), a.join(" "), at(args.len()))
                };
                out.push(Change::commands(vec![(i, text)]));
            }
        }
    }
    out
}

/// A term replaced by a fresh constant of its sort, declared just before the command it is
/// in (ddSMT's "introduce fresh variable"): what is left of a subterm whose structure does
/// not matter, once no subterm or simple value of it reproduces. Only where the constant
/// and its declaration are shorter than the term.
pub(super) fn fresh(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let taken: HashSet<&str> = (0..s.strs.len()).map(|i| s.str(Str(i as u32))).collect();
    let Some(name) = ["x", "y", "z", "v", "w"]
        .into_iter()
        .map(String::from)
        .chain((0..).map(|i| format!("x{i}")))
        .find(|n| !taken.contains(n.as_str()))
    else {
        return vec![];
    };
    let mut out = vec![];
    for n in &ctx.scope.nodes {
        if n.sort == SortRef::UNKNOWN || n.named() || n.size < 2 || n.binding != NONE {
            continue;
        }
        if !matches!(s.term(n.term), Term::App(..) | Term::Quant(..) | Term::Let(..) | Term::Match(..)) {
            continue;
        }
        let sort = ctx.checked.sorts.display(n.sort);
        if sort.contains('?') {
            continue;
        }
        let decl = format!("(declare-const {name} {sort})");
        if term_to_string(s, n.term).len() <= decl.len() + 2 + name.len() {
            continue;
        }
        let cmd = n.cmd as usize;
        let text = format!("{decl}\n{}", print_command_with(s, &s.commands[cmd].kind, &[(n.term, name.as_str())]));
        out.push(Change::commands(vec![(cmd, text)]));
    }
    out
}
