//! Passes over the script's structure: drop commands and conjuncts (ddmin), drop
//! arguments of n-ary applications, plain `check-sat`, a smaller logic.

use super::*;

/// Removable commands: all but `exit`, and the check-sats only when there are several.
pub(super) fn removable(s: &Script) -> Vec<usize> {
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
pub(super) fn commands(ctx: &Ctx) -> Vec<Change> {
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
pub(super) fn conjuncts(ctx: &Ctx) -> Vec<Change> {
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

/// Drops one argument of an application with at least two (n-ary operators, and the
/// assumptions of `check-sat-assuming`); the checker refuses what the signature forbids.
pub(super) fn arity(ctx: &Ctx) -> Vec<Change> {
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
pub(super) fn checksat_assuming(ctx: &Ctx) -> Vec<Change> {
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

/// The smallest standard logic name that covers what the script uses.
pub(super) fn logic(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let Some(at) = s.commands.iter().position(|c| matches!(c.kind, CommandKind::SetLogic(_))) else { return vec![] };
    let Some(name) = crate::smtlib::logic::infer(s, ctx.checked) else { return vec![] };
    if s.logic() == Some(name.as_str()) {
        return vec![];
    }
    vec![Change::commands(vec![(at, format!("(set-logic {name})"))])]
}
