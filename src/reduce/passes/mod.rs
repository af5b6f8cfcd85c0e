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
//! into `check-sat`, simplify z3's `check-sat-using` tactics, shrink literals, simplify
//! the logic, rename symbols short.

use crate::mutate::edit::{children, command_terms};
use crate::mutate::scope::{Scope, NONE};
use crate::smtlib::ast::*;
use crate::smtlib::check::Checked;
use crate::smtlib::printer::{self, print_command_with, sort_to_string, term_to_string, term_with};
use crate::smtlib::sort::{SortKind, SortRef};
use std::collections::{BTreeMap, BTreeSet, HashMap};

mod binders;
mod declarations;
mod names;
mod structure;
mod substitute;
mod terms;

pub use binders::rename_let_bound;
use binders::{define_funs, lets, quant_vars};
use declarations::{fresh, retype, unused};
pub use declarations::{unused_all, unused_commands};
use names::rename;
use structure::{arity, checksat_assuming, commands, conjuncts, datatypes, logic, tactics, tail};
use substitute::{constants, eliminate, merge, relations, share, simplify};
use terms::{literals, terms};

/// A term's replacement in a candidate.
#[derive(Clone, Debug)]
pub enum Repl {
    /// Borrowed when it is a constant (`true`, `0`): a pass proposes a few per node, and
    /// as strings of their own they were 200,000 allocations on a 100,000-deep chain.
    Text(Text),
    /// Another term of the same script (printed when the candidate is materialised).
    Term(TermId),
    /// The `let` term itself with these of its bindings substituted and dropped (built
    /// when the candidate is materialised, [`binders::let_elim_text`]).
    LetElim(Box<[usize]>),
}

/// A replacement's text.
pub type Text = std::borrow::Cow<'static, str>;

impl Repl {
    fn text(t: impl Into<Text>) -> Repl {
        Repl::Text(t.into())
    }
}

/// One candidate, relative to the current script.
#[derive(Clone, Debug)]
pub enum Change {
    /// Remove commands (sorted indices), replace commands by text, replace terms. An
    /// argument replaced by empty text disappears from its application.
    Edit { drop: Box<[usize]>, commands: Box<[(usize, String)]>, terms: Box<[(TermId, Repl)]> },
    /// One term replaced: an [`Change::Edit`] of one term without its lists. Passes
    /// propose several per node, and on a 100,000-deep script the lists were what held a
    /// reduction's memory (issue 37).
    Term(TermId, Repl),
    /// Rename symbols everywhere (old → new; the new names are fresh in the script, or
    /// declared by another command when the old one's declarations go: `drop`, sorted
    /// command indices).
    Rename(Renames, Box<[usize]>),
    /// Free occurrences of global symbols replaced everywhere by the text of a term of the
    /// script (itself with the substitution applied), commands dropped (sorted indices),
    /// conjuncts removed from their `and`. Texts are built when the candidate is tried
    /// ([`substitute::subst_text`]): a ddmin list of them would copy the script per entry.
    Subst { vars: Box<[(String, TermId)]>, drop: Box<[usize]>, removed: Box<[TermId]> },
}

// Passes propose hundreds of thousands of changes on a 100,000-deep script (a renaming's
// ladder is two per name): lists are boxed slices, not vectors, so a change is 56 bytes
// (it was 80, and that ladder 21 MB of a reduction's peak, issue 37).
const _: () = assert!(std::mem::size_of::<Change>() <= 56);

/// Old → new symbol pairs, each with the pair its name's tester needs (`is-C` for a
/// constructor `C`): a slice of one shared list, so that a renaming's ddmin ladder (all,
/// halves, quarters, ..., one by one) holds the names once instead of once per rung. On a
/// script binding 100,000 names the copies were 110 MB of a reduction's peak (issue 37).
/// (The names are spans of one shared text: as two `String`s each they were 96 bytes and
/// two allocations a name, more than the parsed script's share of them.)
#[derive(Clone, Debug)]
pub struct Renames {
    all: std::sync::Arc<RenameList>,
    range: (u32, u32),
}

#[derive(Debug)]
struct RenameList {
    text: String,
    pairs: Vec<(Pair, Option<Pair>)>,
}

/// An old name and its new one: byte ranges in [`RenameList::text`].
type Pair = ((u32, u32), (u32, u32));
/// An old name and its new one, as a pass proposes them.
type Names = (String, String);

impl Renames {
    /// All of `pairs`, with no testers.
    pub fn new(pairs: Vec<(String, String)>) -> Renames {
        Renames::with_testers(pairs.into_iter().map(|p| (p, None)).collect())
    }
    fn with_testers(all: Vec<(Names, Option<Names>)>) -> Renames {
        let mut text = String::new();
        let mut span = |s: &str| {
            text.push_str(s);
            ((text.len() - s.len()) as u32, text.len() as u32)
        };
        let mut pair = |(a, b): &(String, String)| (span(a), span(b));
        let pairs = all.iter().map(|(p, t)| (pair(p), t.as_ref().map(&mut pair))).collect();
        Renames { all: std::sync::Arc::new(RenameList { text, pairs }), range: (0, all.len() as u32) }
    }
    /// The pairs `range` of the same list.
    fn slice(&self, range: std::ops::Range<usize>) -> Renames {
        Renames { all: self.all.clone(), range: (range.start as u32, range.end as u32) }
    }
    fn len(&self) -> usize {
        (self.range.1 - self.range.0) as usize
    }
    /// The pairs, testers after their names.
    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        let (text, chosen) = (&self.all.text, &self.all.pairs[self.range.0 as usize..self.range.1 as usize]);
        chosen
            .iter()
            .map(|(p, _)| p)
            .chain(chosen.iter().filter_map(|(_, t)| t.as_ref()))
            .map(|(a, b)| (&text[a.0 as usize..a.1 as usize], &text[b.0 as usize..b.1 as usize]))
    }
}

impl Change {
    fn terms(terms: Vec<(TermId, Repl)>) -> Change {
        Change::Edit { drop: Box::new([]), commands: Box::new([]), terms: terms.into() }
    }
    fn term(t: TermId, r: Repl) -> Change {
        Change::Term(t, r)
    }
    fn commands(commands: Vec<(usize, String)>) -> Change {
        Change::Edit { drop: Box::new([]), commands: commands.into(), terms: Box::new([]) }
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

/// The passes, in the order of what each bought per check on eleven real findings
/// (BENCHMARKS.md, issue 26): whole commands, short names (every later candidate is
/// smaller), constants equal to a literal substituted, merged constants and functions, shared terms, argument lists by ddmin, then
/// term by term; equivalence-preserving rewrites and relation strengthening last. Before
/// them all, what no finding needs after its query (`tail`, issue 39). The
/// driver runs them in this order until none succeeds.
pub const PASSES: &[Pass] = &[
    ("tail", tail),
    ("unused", unused),
    ("commands", commands),
    ("rename", rename),
    ("constants", constants),
    ("merge", merge),
    ("share", share),
    ("conjuncts", conjuncts),
    ("arity", arity),
    ("terms", terms),
    ("fresh", fresh),
    ("define-fun", define_funs),
    ("datatypes", datatypes),
    ("retype", retype),
    ("let", lets),
    ("eliminate", eliminate),
    ("simplify", simplify),
    ("tactics", tactics),
    ("quantifier-vars", quant_vars),
    ("check-sat-assuming", checksat_assuming),
    ("relations", relations),
    ("literals", literals),
    ("logic", logic),
];

/// Passes run in the first round only (see [`structure::tail`]).
pub const ONCE: &[&str] = &["tail"];

/// ddmin over commands: drop the commands `r` (ascending indices) in chunks of `first`,
/// then half that, ..., down to one at a time.
fn drop_chunks(r: &[usize], first: usize) -> Vec<Change> {
    let mut out = vec![];
    let mut size = first.max(1);
    while !r.is_empty() {
        out.extend(r.chunks(size).map(|c| Change::Edit {
            drop: c.into(),
            commands: Box::new([]),
            terms: Box::new([]),
        }));
        if size == 1 {
            break;
        }
        size = size.div_ceil(2);
    }
    out
}

/// The text of a change applied to the context's script.
pub fn materialize(ctx: &Ctx, c: &Change) -> String {
    match c {
        Change::Term(t, r) => edit_text(ctx, &[], &[], &[(*t, r.clone())]),
        Change::Edit { drop, commands, terms } => edit_text(ctx, drop, commands, terms),
        Change::Subst { vars, drop, removed } => substitute::subst_text(ctx, vars, drop, removed),
        Change::Rename(map, drop) => {
            let map: HashMap<&str, &str> = map.pairs().collect();
            printer::print_renamed(ctx.s, &map, drop)
        }
    }
}

/// The text of the context's script with commands dropped (sorted indices), commands
/// replaced by text and terms replaced.
fn edit_text(ctx: &Ctx, drop: &[usize], commands: &[(usize, String)], terms: &[(TermId, Repl)]) -> String {
    let texts: Vec<String> = terms
        .iter()
        .map(|(at, r)| match r {
            Repl::Text(t) => t.to_string(),
            Repl::Term(t) => term_to_string(ctx.s, *t),
            Repl::LetElim(elim) => binders::let_elim_text(ctx, *at, elim),
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

/// How much is left of a script; a candidate must be strictly smaller. Lexicographic:
/// bytes (what a reader sees) outside the logic name, term nodes, "weight" of literals
/// (digits other than 0, string characters), the logic (`ALL` heaviest), then relations
/// weaker than equality. Strict
/// decrease makes the reduction terminate whatever the passes propose.
pub fn measure(s: &Script, text: &str) -> (usize, usize, usize, usize, usize, usize) {
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
    // Last, relations weaker than `=` (ddSMT's "strengthen relation"): `(< a b)` to
    // `(= a b)` keeps the size and is still progress, as the relation is more specific.
    let weak: usize = s
        .terms
        .iter()
        .map(|t| match t {
            Term::App(q, _) if q.ident.indices.is_empty() => relation_weakness(s.str(q.ident.sym)),
            _ => 0,
        })
        .sum();
    // And commutative applications whose arguments are out of order (ddSMT's "sort
    // children"): ordering them is progress, and makes equal terms equal text.
    // (Not counted on huge scripts, where printing every argument would be quadratic in
    // the nesting; `simplify` does not sort there either.)
    let unsorted = s
        .terms
        .iter()
        .take(if s.terms.len() > SORT_LIMIT { 0 } else { usize::MAX })
        .filter(|t| match t {
            Term::App(q, xs) if q.ident.indices.is_empty() && COMMUTATIVE.contains(&s.str(q.ident.sym)) => {
                let texts: Vec<String> = s.term_list(*xs).iter().map(|&x| term_to_string(s, x)).collect();
                texts.windows(2).any(|w| arg_order(&w[0], &w[1]) == std::cmp::Ordering::Greater)
            }
            _ => false,
        })
        .count();
    (text.len().saturating_sub(logic.len()), s.terms.len(), weight, logic_rank, weak, unsorted)
}

/// Term count above which commutative arguments are left in their order.
pub const SORT_LIMIT: usize = 20_000;

/// Operators whose arguments may be put in any order.
pub const COMMUTATIVE: &[&str] =
    &["=", "distinct", "and", "or", "xor", "+", "*", "bvadd", "bvmul", "bvand", "bvor", "bvxor", "bvnand", "bvnor"];

/// The order `simplify` puts commutative arguments in: shorter first, then by text.
pub fn arg_order(a: &str, b: &str) -> std::cmp::Ordering {
    (a.len(), a).cmp(&(b.len(), b))
}

/// How far a relation is from `=`: 2 for the non-strict orders and `distinct`, 1 for the
/// strict orders, 0 for anything else (each step of `relations` lowers it).
pub fn relation_weakness(op: &str) -> usize {
    match op {
        "<=" | ">=" | "distinct" | "bvule" | "bvuge" | "bvsle" | "bvsge" => 2,
        "<" | ">" | "bvult" | "bvugt" | "bvslt" | "bvsgt" => 1,
        _ => 0,
    }
}

/// Short values of a sort, simplest first: what ddSMT calls "substitute by constant".
pub fn simple_values(ctx: &Ctx, sort: SortRef, globals: &BTreeMap<SortRef, String>) -> Vec<Text> {
    let mut v: Vec<Text> = match ctx.checked.sorts.kind(sort) {
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
            best.into_iter().map(Text::from).collect()
        }
        SortKind::Float(e, s) => vec![format!("(_ +zero {e} {s})").into()],
        _ => vec![],
    };
    if let Some(g) = globals.get(&sort) {
        v.push(g.clone().into());
    }
    v
}

/// The shortest declared constant or nullary constructor of each sort that occurs in the
/// script (a replacement for sorts without literals).
pub fn global_constants(ctx: &Ctx) -> BTreeMap<SortRef, String> {
    constants_by_sort(ctx, 1).into_iter().filter_map(|(k, mut v)| v.pop().map(|c| (k, c))).collect()
}

/// Up to `n` declared constants or nullary constructors of each sort that occurs in the
/// script, shortest first (ddSMT's "replace by variable": a term by a variable of its
/// sort, not only by the shortest one).
pub fn constants_by_sort(ctx: &Ctx, n: usize) -> BTreeMap<SortRef, Vec<String>> {
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
    let mut all: BTreeMap<SortRef, BTreeSet<(usize, &str)>> = BTreeMap::new();
    for m in &ctx.scope.nodes {
        if let Term::Var(q) = *s.term(m.term) {
            let name = s.str(q.ident.sym);
            if m.binding == NONE
                && q.ident.indices.is_empty()
                && q.sort.is_none()
                && declared.contains(s.sym(q.ident.sym))
            {
                all.entry(m.sort).or_default().insert((name.len(), name));
            }
        }
    }
    all.into_iter().map(|(k, v)| (k, v.into_iter().take(n).map(|(_, c)| c.to_string()).collect())).collect()
}
