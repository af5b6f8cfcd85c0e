//! Metamorphic relations with known satisfiability (issue 40, item 4): a mutant is the
//! seed rewritten by relations that cannot change the answer of any check-sat, so a
//! solver that answers the mutant `sat` and the seed `unsat` (or the reverse) contradicts
//! itself, with no second solver needed ([`crate::oracle::metamorphic`]). Mariposa
//! (Zhou et al., FMCAD 2023) used the same relations to measure *instability*: renaming
//! and shuffling changed z3's answers or times on 2.6 % of its queries.
//!
//! The relations ([`Relation`]), several composed per mutant:
//! - **rename** declared symbols (constants, functions, definitions, sorts), consistently,
//!   to fresh names ([`PREFIX`] then the old name) that clash with no symbol of the script;
//!   names the script also uses as theory symbols (a `declare-fun exp` beside the real
//!   `exp`) and datatypes (testers and selectors would need the same) are left alone;
//! - **shuffle** the assertions within each run of consecutive `assert`s, and the
//!   declarations within each run of consecutive `declare-const`/`declare-fun`s (they
//!   depend on sorts only, declared by other commands, so any order of a run is legal);
//! - **split** `(assert (and a b ...))` into `(assert a) (assert b) ...`, and **merge**
//!   adjacent plain asserts into one `(assert (and a b))` (annotated ones are kept whole:
//!   a `:named` label names the assertion);
//! - add a **tautology** (`(assert true)`, `(assert (= x x))`) and a **redundant
//!   definition** never used, both before the first check-sat;
//! - **re-seed** the solver's own random seed: `(set-option :random-seed N)` is standard
//!   (SMT-LIB 2.6 §4.1.7) and every family reads it (z3 as `smt.random_seed`; cvc5,
//!   yices 2.6.5 and bitwuzla 0.9.1 accept it), so it goes to all.
//!
//! Every relation is recorded by name and key, never by path, so it replays on *any*
//! script, the seed reduced included: a reduction of the seed side stays equisatisfiable
//! to its variant by construction (the reducer's judge rebuilds the variant from each
//! candidate, [`apply`]). Deterministic from the seed and the RNG seed, byte for byte.

use super::choice::{Choices, Rng};
use super::edit::Edit;
use crate::smtlib::ast::{CommandKind, Nullary, Script, Term};
use crate::smtlib::{self, printer};
use crate::util::hash::{fnv1a, mix};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};

/// What a renamed symbol's name starts with (the fault proxy's test fault keys on it).
pub const PREFIX: &str = "mr_";

/// Names renamed at most, per mutant: a seed with thousands of declarations would make
/// an edit list of their size.
const MAX_RENAMED: usize = 64;

/// One semantics-preserving rewrite, recorded so that it replays on any script.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "relation", rename_all = "snake_case")]
pub enum Relation {
    /// Declared names renamed, old to new (names the script does not declare are ignored).
    Rename { map: Vec<(String, String)> },
    /// Each run of consecutive assertions ordered by a keyed hash of its text.
    ShuffleAssertions { key: u64 },
    /// Each run of consecutive `declare-const`/`declare-fun`s ordered by a keyed hash.
    ShuffleDeclarations { key: u64 },
    /// Top-level conjunctions asserted one conjunct an assertion.
    SplitConjunctions,
    /// Adjacent plain assertions whose keyed hash is odd merged with the next one.
    MergeAssertions { key: u64 },
    /// `(assert (= of of))` (`(assert true)` without `of`, or where `of` is not declared
    /// by then) before the first check-sat.
    Tautology {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        of: Option<String>,
    },
    /// `(define-fun NAME () Bool true)`, never used, before the first check-sat.
    RedundantDefinition { name: String },
    /// `(set-option :random-seed VALUE)` first.
    RandomSeed { value: u32 },
}

impl Relation {
    /// The relation's name, as reports and tallies show it.
    pub fn name(&self) -> &'static str {
        match self {
            Relation::Rename { .. } => "rename",
            Relation::ShuffleAssertions { .. } => "shuffle-assertions",
            Relation::ShuffleDeclarations { .. } => "shuffle-declarations",
            Relation::SplitConjunctions => "split",
            Relation::MergeAssertions { .. } => "merge",
            Relation::Tautology { .. } => "tautology",
            Relation::RedundantDefinition { .. } => "redundant-definition",
            Relation::RandomSeed { .. } => "random-seed",
        }
    }
}

/// Every relation name ([`Relation::name`]), in the order [`apply`] applies them.
pub const RELATIONS: [&str; 8] = [
    "rename",
    "split",
    "merge",
    "shuffle-assertions",
    "shuffle-declarations",
    "tautology",
    "redundant-definition",
    "random-seed",
];

/// The names of the relations an edit list applies.
pub fn relation_names(edits: &[Edit]) -> Vec<&'static str> {
    edits
        .iter()
        .flat_map(|e| match e {
            Edit::Metamorphic { relations } => relations.iter().map(Relation::name).collect(),
            _ => vec![],
        })
        .collect()
}

/// The relations an edit list applies, in order.
pub fn relations(edits: &[Edit]) -> Vec<Relation> {
    edits
        .iter()
        .flat_map(|e| match e {
            Edit::Metamorphic { relations } => relations.clone(),
            _ => vec![],
        })
        .collect()
}

/// Why relations could not be applied: the rewritten text does not parse (a relation
/// that produced it is wrong; never expected).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a metamorphic variant does not parse: {0}")]
pub struct ApplyError(pub String);

fn printed(s: &Script, k: &CommandKind) -> String {
    printer::print_command_with(s, k, &[])
}

fn keyed(key: u64, text: &str) -> u64 {
    mix(&[key, fnv1a(text.as_bytes())])
}

/// Whether an assertion is annotated at its top (`(assert (! t :named n))`).
fn annotated(s: &Script, k: &CommandKind) -> bool {
    matches!(*k, CommandKind::Assert(t) if matches!(s.term(t), Term::Annot(..)))
}

/// The conjuncts of a top-level `and` of two or more, as text.
fn conjuncts(s: &Script, k: &CommandKind) -> Option<Vec<String>> {
    let CommandKind::Assert(t) = *k else { return None };
    let Term::App(q, args) = *s.term(t) else { return None };
    let args = s.term_list(args);
    (q.sort.is_none() && s.index_list(q.ident.indices).is_empty() && s.sym(q.ident.sym) == "and" && args.len() >= 2)
        .then(|| args.iter().map(|&a| printer::term_to_string(s, a)).collect())
}

fn is_decl(k: &CommandKind) -> bool {
    matches!(k, CommandKind::DeclareConst(..) | CommandKind::DeclareFun(..))
}

/// The command before which tautologies and definitions go: the first check-sat (or the
/// end).
fn insertion_point(s: &Script) -> usize {
    s.commands.iter().position(|c| s.is_check(&c.kind)).unwrap_or(s.commands.len())
}

/// Constants declared at the top level before the first `push` or check-sat: in scope at
/// [`insertion_point`].
fn early_constants(s: &Script) -> Vec<String> {
    let mut out = vec![];
    for c in &s.commands {
        match c.kind {
            CommandKind::Push(_) => break,
            ref k if s.is_check(k) => break,
            CommandKind::DeclareConst(n, _) => out.push(s.sym(n).to_string()),
            CommandKind::DeclareFun(n, args, _) if s.sort_list(args).is_empty() => out.push(s.sym(n).to_string()),
            _ => {}
        }
    }
    out
}

/// Applies `relations` to `s` in the order of [`RELATIONS`] (so a list replays the same
/// whatever order it was recorded in); the result is parsed back.
pub fn apply(s: &Script, relations: &[Relation]) -> Result<Script, ApplyError> {
    let parse = |text: &str| smtlib::parse(text).map_err(|e| ApplyError(e.to_string()));
    let mut cur = std::borrow::Cow::Borrowed(s);
    for name in RELATIONS {
        for r in relations.iter().filter(|r| r.name() == name) {
            let text = match r {
                Relation::Rename { map } => {
                    let declared: BTreeSet<&str> =
                        cur.commands.iter().filter_map(|c| cur.declared_name(&c.kind)).collect();
                    let m: HashMap<&str, &str> = map
                        .iter()
                        .filter(|(o, _)| declared.contains(o.as_str()))
                        .map(|(o, n)| (o.as_str(), n.as_str()))
                        .collect();
                    let mut out = cur.into_owned();
                    crate::smtlib::ast::rename_symbols(&mut out, &m);
                    cur = std::borrow::Cow::Owned(out);
                    continue;
                }
                Relation::SplitConjunctions => {
                    let mut t = String::new();
                    for c in &cur.commands {
                        match conjuncts(&cur, &c.kind) {
                            Some(cs) => cs.iter().for_each(|a| t.push_str(&format!("(assert {a})\n"))),
                            None => t.push_str(&(printed(&cur, &c.kind) + "\n")),
                        }
                    }
                    t
                }
                Relation::MergeAssertions { key } => {
                    let mut t = String::new();
                    let cs = &cur.commands;
                    let mut i = 0;
                    while i < cs.len() {
                        let (k, p) = (&cs[i].kind, printed(&cur, &cs[i].kind));
                        let plain = |k: &CommandKind| matches!(k, CommandKind::Assert(_)) && !annotated(&cur, k);
                        if plain(k) && keyed(*key, &p) % 2 == 1 && cs.get(i + 1).is_some_and(|n| plain(&n.kind)) {
                            let (CommandKind::Assert(a), CommandKind::Assert(b)) = (*k, cs[i + 1].kind) else {
                                unreachable!("both plain assertions")
                            };
                            let (a, b) = (printer::term_to_string(&cur, a), printer::term_to_string(&cur, b));
                            t.push_str(&format!("(assert (and {a} {b}))\n"));
                            i += 2;
                        } else {
                            t.push_str(&(p + "\n"));
                            i += 1;
                        }
                    }
                    t
                }
                Relation::ShuffleAssertions { key } | Relation::ShuffleDeclarations { key } => {
                    let assertions = matches!(r, Relation::ShuffleAssertions { .. });
                    let member =
                        |k: &CommandKind| if assertions { matches!(k, CommandKind::Assert(_)) } else { is_decl(k) };
                    let mut t = String::new();
                    let mut run: Vec<String> = vec![];
                    let flush = |run: &mut Vec<String>, t: &mut String| {
                        run.sort_by_key(|p| keyed(*key, p));
                        for p in run.drain(..) {
                            t.push_str(&p);
                            t.push('\n');
                        }
                    };
                    for c in &cur.commands {
                        let p = printed(&cur, &c.kind);
                        if member(&c.kind) {
                            run.push(p);
                        } else {
                            flush(&mut run, &mut t);
                            t.push_str(&p);
                            t.push('\n');
                        }
                    }
                    flush(&mut run, &mut t);
                    t
                }
                Relation::Tautology { .. } | Relation::RedundantDefinition { .. } => {
                    let at = insertion_point(&cur);
                    let added = match r {
                        Relation::Tautology { of: Some(x) } if early_constants(&cur).contains(x) => {
                            format!("(assert (= {0} {0}))\n", crate::smtlib::ast::symbol_text(x))
                        }
                        Relation::Tautology { .. } => "(assert true)\n".to_string(),
                        Relation::RedundantDefinition { name } => {
                            format!("(define-fun {} () Bool true)\n", crate::smtlib::ast::symbol_text(name))
                        }
                        _ => unreachable!("tautology or definition"),
                    };
                    let mut t = String::new();
                    for (i, c) in cur.commands.iter().enumerate() {
                        if i == at {
                            t.push_str(&added);
                        }
                        t.push_str(&(printed(&cur, &c.kind) + "\n"));
                    }
                    if at == cur.commands.len() {
                        t.push_str(&added);
                    }
                    t
                }
                Relation::RandomSeed { value } => {
                    format!("(set-option :random-seed {value})\n{}", smtlib::print(&cur))
                }
            };
            cur = std::borrow::Cow::Owned(parse(&text)?);
        }
    }
    Ok(cur.into_owned())
}

/// A seed prepared for the relations: what each can act on.
pub struct Prepared<'s> {
    pub script: &'s Script,
    /// Declared names that may be renamed, and every symbol of the script (fresh names
    /// avoid them all).
    renamable: Vec<String>,
    used: BTreeSet<String>,
    shuffle_assertions: bool,
    shuffle_declarations: bool,
    split: bool,
    merge: bool,
    constants: Vec<String>,
}

impl<'s> Prepared<'s> {
    pub fn new(s: &'s Script) -> Prepared<'s> {
        let used: BTreeSet<String> =
            (0..s.strs.len() as u32).map(|i| s.sym(crate::smtlib::ast::Str(i)).to_string()).collect();
        // A name also used as a theory symbol (or one the checker does not know) keeps
        // its name: renaming its uses would rename the theory's too.
        let theory = super::fusion::undeclared_uses(s);
        let logic = s.logic().unwrap_or("");
        let mut renamable: Vec<String> = vec![];
        for c in &s.commands {
            if let Some(n) = s.declared_name(&c.kind) {
                if !theory.contains(n) && n != logic && !renamable.iter().any(|r| r == n) {
                    renamable.push(n.to_string());
                }
            }
        }
        let runs = |member: &dyn Fn(&CommandKind) -> bool| {
            s.commands.windows(2).any(|w| member(&w[0].kind) && member(&w[1].kind))
        };
        let plain = |k: &CommandKind| matches!(k, CommandKind::Assert(_)) && !annotated(s, k);
        Prepared {
            script: s,
            renamable,
            used,
            shuffle_assertions: runs(&|k| matches!(k, CommandKind::Assert(_))),
            shuffle_declarations: runs(&is_decl),
            split: s.commands.iter().any(|c| conjuncts(s, &c.kind).is_some()),
            merge: runs(&plain),
            constants: early_constants(s),
        }
    }

    /// A name not used by the script: `mr_BASE`, then `mr_BASE_1`, ...
    fn fresh(&self, base: &str, taken: &mut BTreeSet<String>) -> String {
        let n = (0..)
            .map(|i| if i == 0 { format!("{PREFIX}{base}") } else { format!("{PREFIX}{base}_{i}") })
            .find(|n| !self.used.contains(n) && !taken.contains(n))
            .expect("an unbounded range has a fresh name");
        taken.insert(n.clone());
        n
    }

    /// The relations that can act on this seed, by [`Relation::name`].
    pub fn applicable(&self) -> Vec<&'static str> {
        let has_check = self.script.commands.iter().any(|c| self.script.is_check(&c.kind));
        let flags = [
            !self.renamable.is_empty(),
            self.split,
            self.merge,
            self.shuffle_assertions,
            self.shuffle_declarations,
            has_check,
            has_check,
            has_check,
        ];
        RELATIONS.iter().zip(flags).filter(|(_, f)| *f).map(|(n, _)| *n).collect()
    }

    fn relation(&self, name: &str, c: &mut impl Choices, taken: &mut BTreeSet<String>) -> Option<Relation> {
        let key = || -> Option<u64> { Some(c.below(1 << 30)? as u64) };
        let mut key = key;
        Some(match name {
            "rename" => {
                let mut map = vec![];
                let keep_all = self.renamable.len() <= 2;
                for n in &self.renamable {
                    if map.len() < MAX_RENAMED && (keep_all || c.below(2)? == 0) {
                        map.push((n.clone(), self.fresh(n, taken)));
                    }
                }
                if map.is_empty() {
                    let n = &self.renamable[c.below(self.renamable.len())?];
                    map.push((n.clone(), self.fresh(n, taken)));
                }
                Relation::Rename { map }
            }
            "split" => Relation::SplitConjunctions,
            "merge" => Relation::MergeAssertions { key: key()? },
            "shuffle-assertions" => Relation::ShuffleAssertions { key: key()? },
            "shuffle-declarations" => Relation::ShuffleDeclarations { key: key()? },
            "tautology" => {
                let k = c.below(self.constants.len() + 1)?;
                Relation::Tautology { of: self.constants.get(k).cloned() }
            }
            "redundant-definition" => Relation::RedundantDefinition { name: self.fresh("unused", taken) },
            "random-seed" => Relation::RandomSeed { value: c.below(1 << 16)? as u32 + 1 },
            _ => return None,
        })
    }

    /// One mutant: a random non-empty composition of the applicable relations (each
    /// with probability 1/2), applied. `None` when no relation applies.
    pub fn mutate(&self, c: &mut impl Choices) -> Option<(Vec<Edit>, Script)> {
        let names = self.applicable();
        if names.is_empty() {
            return None;
        }
        let mut chosen: Vec<&str> = vec![];
        for &n in &names {
            if c.below(2)? == 0 {
                chosen.push(n);
            }
        }
        if chosen.is_empty() {
            chosen.push(names[c.below(names.len())?]);
        }
        // The renamed names first: the redundant definition's fresh name avoids them.
        let mut taken = BTreeSet::new();
        let mut relations = vec![];
        for n in chosen {
            relations.push(self.relation(n, c, &mut taken)?);
        }
        let m = apply(self.script, &relations).ok()?;
        Some((vec![Edit::Metamorphic { relations }], m))
    }
}

/// The engine ([`super::Engine::Equisat`]) as a [`super::Mutator`]: every mutant is
/// equisatisfiable to its seed, so each solver's answers are judged against its own
/// answers to the seed ([`super::Construction::OwnAnswers`]).
#[derive(Default)]
pub struct Equisat<'s> {
    prepared: Option<Prepared<'s>>,
    solvers: &'s [crate::solver::SolverSpec],
}

impl<'s> super::Mutator<'s> for Equisat<'s> {
    fn prepare(&mut self, seed: &'s Script, ctx: &mut super::Ctx<'s, '_>) -> Result<(), super::Skip> {
        self.solvers = ctx.solvers;
        if self.prepared.is_none() {
            self.prepared = Some(Prepared::new(seed));
        }
        Ok(())
    }
    fn mutate(&mut self, rng_seed: u64) -> Option<super::Mutant> {
        let (edits, m) = self.prepared.as_ref()?.mutate(&mut Rng::new(rng_seed))?;
        Some(super::Mutant::of_script(self.solvers, rng_seed, edits, m, true))
    }
    fn construction(&self) -> super::Construction<'_> {
        super::Construction::OwnAnswers
    }
}

/// Whether a script has a check-sat (the relations keep their number: every variant has
/// as many as its seed, so answers compare check by check).
pub fn checks_kept(seed: &Script, variant: &Script) -> bool {
    let n =
        |s: &Script| s.commands.iter().filter(|c| matches!(c.kind, CommandKind::Nullary(Nullary::CheckSat))).count();
    n(seed) == n(variant)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variant(text: &str, relations: &[Relation]) -> String {
        smtlib::print(&apply(&smtlib::parse(text).unwrap(), relations).unwrap())
    }

    /// (before, relation, after) triples, as wasm-mutate's `match_mutation`.
    #[test]
    fn each_relation_rewrites_as_documented() {
        let seed = "(declare-const x Int)\n(declare-const y Int)\n(assert (and (> x 0) (< y 0)))\n(assert (= s \"x\"))\n(check-sat)\n";
        let seed = seed.replace("(assert (= s \"x\"))", "(declare-const s String)\n(assert (= s \"x\"))");
        let r = variant(&seed, &[Relation::Rename { map: vec![("x".into(), "mr_x".into())] }]);
        assert!(r.contains("(declare-const mr_x Int)") && r.contains("(> mr_x 0)"), "{r}");
        assert!(r.contains("\"x\""), "a string literal is not a symbol: {r}");
        let r = variant(&seed, &[Relation::SplitConjunctions]);
        assert!(r.contains("(assert (> x 0))\n(assert (< y 0))"), "{r}");
        let r = variant(&seed, &[Relation::Tautology { of: Some("y".into()) }]);
        assert!(r.contains("(assert (= y y))\n(check-sat)"), "{r}");
        let r = variant(&seed, &[Relation::Tautology { of: Some("gone".into()) }]);
        assert!(r.contains("(assert true)\n(check-sat)"), "{r}");
        let r = variant(&seed, &[Relation::RedundantDefinition { name: "mr_unused".into() }]);
        assert!(r.contains("(define-fun mr_unused () Bool true)\n(check-sat)"), "{r}");
        let r = variant(&seed, &[Relation::RandomSeed { value: 7 }]);
        assert!(r.starts_with("(set-option :random-seed 7)\n"), "{r}");
        // Merging and shuffling keep the multiset of assertions' meaning; some key merges.
        let two = "(declare-const x Int)\n(assert (> x 0))\n(assert (< x 5))\n(check-sat)\n";
        let merged = (0..16u64).map(|k| variant(two, &[Relation::MergeAssertions { key: k }])).collect::<Vec<_>>();
        assert!(merged.iter().any(|m| m.contains("(assert (and (> x 0) (< x 5)))")), "{merged:?}");
        let shuffled = (0..16u64).map(|k| variant(two, &[Relation::ShuffleAssertions { key: k }])).collect::<Vec<_>>();
        assert!(shuffled.iter().any(|m| m.contains("(assert (< x 5))\n(assert (> x 0))")), "{shuffled:?}");
        // Annotated assertions are never merged, and only runs of assertions are shuffled.
        let named =
            "(declare-const x Int)\n(assert (! (> x 0) :named a))\n(assert (< x 5))\n(check-sat)\n(assert (> x 9))\n";
        for k in 0..16u64 {
            assert!(!variant(named, &[Relation::MergeAssertions { key: k }]).contains("(and"));
            assert!(
                variant(named, &[Relation::ShuffleAssertions { key: k }]).ends_with("(check-sat)\n(assert (> x 9))\n")
            );
        }
    }

    /// The engine over many seeds of the shared corpus (our own `corpus/` on a machine
    /// without it, more mutants per seed): deterministic, every mutant parses with as many
    /// check-sats as its seed, and every relation is applied.
    #[test]
    fn mutants_replay_and_every_relation_is_used() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let shared = root.join("../shared/seeds/cvc5-regress");
        let (dir, step, rounds) = if shared.is_dir() { (shared, 13, 4u64) } else { (root.join("corpus"), 1, 12) };
        let (mut files, mut dirs) = (vec![], vec![dir]);
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "smt2") {
                    files.push(p);
                }
            }
        }
        files.sort();
        // Every 13th file of the suite: all of its directories, 300 seeds.
        let files: Vec<_> = files.into_iter().step_by(step).collect();
        let mut counts: HashMap<&str, usize> = HashMap::new();
        let mut made = 0;
        // A conjunction to split: `corpus/`'s seeds assert none at the top.
        let conj = std::path::PathBuf::from("inline-conjunction.smt2");
        let inline = "(set-logic QF_LIA)(declare-const x Int)(declare-const y Int)\
                      (assert (and (> x 0) (< y 5) (= (+ x y) 3)))(assert (and (< x 9) (> y (- 9))))(check-sat)";
        let seeds = files.iter().take(300).map(|f| (f, std::fs::read_to_string(f).ok(), rounds));
        for (f, text, rounds) in seeds.chain([(&conj, Some(inline.to_string()), 48)]) {
            let Some(text) = text else { continue };
            let Ok(seed) = smtlib::parse(&text) else { continue };
            let p = Prepared::new(&seed);
            for r in 0..rounds {
                let Some((edits, m)) = p.mutate(&mut Rng::new(r)) else { continue };
                made += 1;
                for n in relation_names(&edits) {
                    *counts.entry(n).or_default() += 1;
                }
                let again = p.mutate(&mut Rng::new(r)).unwrap();
                assert_eq!(smtlib::print(&again.1), smtlib::print(&m), "{}: not deterministic", f.display());
                let replay = super::super::edit::apply_unchecked(&seed, &edits).unwrap();
                assert_eq!(smtlib::print(&replay), smtlib::print(&m), "{}: edits do not replay", f.display());
                assert!(checks_kept(&seed, &m), "{}", f.display());
                // The printed variant parses back to itself.
                assert!(smtlib::parse(&smtlib::print(&m)).is_ok(), "{}", f.display());
            }
        }
        assert!(made > 500, "{made}");
        for n in RELATIONS {
            assert!(counts.get(n).copied().unwrap_or(0) > 10, "{n} applied {counts:?}");
        }
    }
}
