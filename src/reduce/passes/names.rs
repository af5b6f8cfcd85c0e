//! Renaming every declared symbol to a short fresh name.

use super::*;

/// Names the script declares or binds (not datatypes: their testers derive from names).
pub(super) fn declared_names(s: &Script) -> Vec<String> {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut out = vec![];
    let mut add = |n: &str| {
        if seen.insert(n.to_string()) {
            out.push(n.to_string());
        }
    };
    for c in &s.commands {
        if let Some(n) = s.declared_name(&c.kind) {
            add(n);
        }
        match c.kind {
            CommandKind::DefineFun { decl, .. } => s.var_list(decl.params).iter().for_each(|v| add(s.sym(v.name))),
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
pub(super) fn fresh_names<'a>(used: &'a BTreeSet<&'a str>) -> impl Iterator<Item = String> + 'a {
    (0..)
        .flat_map(|round: u32| {
            (b'a'..=b'z')
                .map(move |c| if round == 0 { (c as char).to_string() } else { format!("{}{}", c as char, round - 1) })
        })
        .filter(|n| !used.contains(n.as_str()) && crate::smtlib::theory::table().lookup(n).is_empty())
}

/// Renames declared and bound symbols to short fresh names: all at once, then one by one
/// (longest first).
pub(super) fn rename(ctx: &Ctx) -> Vec<Change> {
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
