//! Renaming every declared symbol to a short fresh name.

use super::*;

/// Names the script declares or binds: symbols, sorts, datatypes with their
/// constructors and selectors (a constructor's tester `is-C` is renamed with it, see
/// [`rename`]).
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
            CommandKind::DeclareDatatype(n, d) => {
                add(s.sym(n));
                datatype_names(s, &d, &mut add);
            }
            CommandKind::DeclareDatatypes { form, decls, .. } => {
                match form {
                    DatatypesForm::Standard(sorts) => s.sort_decl_list(sorts).iter().for_each(|d| add(s.sym(d.name))),
                    DatatypesForm::Legacy(_) => {}
                }
                for d in s.decl_list(decls) {
                    if let Some(n) = d.legacy_name {
                        add(s.sym(n));
                    }
                    datatype_names(s, d, &mut add);
                }
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

/// A datatype's constructors and selectors.
fn datatype_names(s: &Script, d: &DatatypeDecl, add: &mut impl FnMut(&str)) {
    for c in s.ctor_list(d.ctors) {
        add(s.sym(c.name));
        s.var_list(c.fields).iter().for_each(|f| add(s.sym(f.name)));
    }
}

/// The constructors the script declares (their testers are `is-C` and `(_ is C)`).
fn constructors(s: &Script) -> BTreeSet<&str> {
    let mut out = BTreeSet::new();
    for c in &s.commands {
        let decls: &[DatatypeDecl] = match &c.kind {
            CommandKind::DeclareDatatype(_, d) => std::slice::from_ref(d),
            CommandKind::DeclareDatatypes { decls, .. } => s.decl_list(*decls),
            _ => continue,
        };
        for d in decls {
            out.extend(s.ctor_list(d.ctors).iter().map(|k| s.sym(k.name)));
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

/// Renames declared and bound symbols to short fresh names: all at once, then in halves,
/// quarters, ... and one by one (longest first).
pub(super) fn rename(ctx: &Ctx) -> Vec<Change> {
    let s = ctx.s;
    let names = declared_names(s);
    let used: BTreeSet<&str> = (0..s.strs.len() as u32).map(|i| s.sym(Str(i))).collect();
    let mut fresh = fresh_names(&used).peekable();
    let mut map: Vec<(String, String)> = vec![];
    for n in names {
        let Some(new) = fresh.peek() else { break };
        // A name as short as the next fresh one keeps it for a longer name.
        if new.len() < n.len() {
            map.push((n, fresh.next().unwrap_or_default()));
        }
    }
    if map.is_empty() {
        return vec![];
    }
    // Halves, quarters, ... before single names (ddmin): z3 orders and hashes by name,
    // so a crash may need a few names kept, and renaming the hundreds of others one
    // check each is what took the time on a 31 KB trigger (BENCHMARKS.md, issue 26).
    map.sort_by_key(|(old, _)| std::cmp::Reverse(old.len()));
    // A renamed constructor takes its `is-C` tester along (z3's and cvc5's spelling of
    // `(_ is C)`, whose index the renaming reaches by itself).
    let ctors = constructors(s);
    let all = Renames::with_testers(
        map.into_iter()
            .map(|(old, new)| {
                let tester = ctors
                    .contains(old.as_str())
                    .then(|| (format!("is-{old}"), format!("is-{new}")))
                    .filter(|(t, _)| used.contains(t.as_str()));
                ((old, new), tester)
            })
            .collect(),
    );
    let n = all.len();
    // Sized once: all, the halving rungs (under n in all) and the n single names.
    let mut out = Vec::with_capacity(2 * n + 2 * n.ilog2() as usize + 2);
    out.push(Change::Rename(all.clone(), Box::new([])));
    if n > 1 {
        let mut size = n.div_ceil(2);
        while size >= 2 && size < n {
            out.extend((0..n).step_by(size).map(|a| Change::Rename(all.slice(a..(a + size).min(n)), Box::new([]))));
            size = size.div_ceil(2).min(size - 1);
        }
        out.extend((0..n).map(|a| Change::Rename(all.slice(a..a + 1), Box::new([]))));
    }
    out
}
