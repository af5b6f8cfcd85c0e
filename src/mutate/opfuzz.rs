//! OpFuzz: type-aware operator mutation (Winterer, Zhang, Su, "On the Unusual
//! Effectiveness of Type-Aware Operator Mutations for Testing SMT Solvers", OOPSLA 2020).
//!
//! Operator classes are derived from the signature table: two operators are in one class
//! when some line of each has the same number of indices, the same argument patterns and
//! the same result pattern (`bvadd`/`bvxor`/`bvudiv`, `<`/`>=`, `=`/`distinct`,
//! `and`/`or`/`xor`/`=>`, `str.prefixof`/`str.contains`, `rotate_left`/`rotate_right`...).
//! Quantifiers swap `forall` ↔ `exists`. Arity shapes are respected by re-checking:
//! [`edit::apply`] refuses an ill-sorted mutant and the engine tries another candidate.

use super::choice::Choices;
use super::edit::{self, Edit, Walk};
use crate::smtlib::ast::*;
use crate::smtlib::check;
use crate::smtlib::sort::{SortRef, Sorts};
use crate::smtlib::theory;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::OnceLock;

/// `name → other operators of its classes`, from the signature table.
pub fn classes() -> &'static BTreeMap<&'static str, Vec<&'static str>> {
    static C: OnceLock<BTreeMap<&'static str, Vec<&'static str>>> = OnceLock::new();
    C.get_or_init(|| {
        let mut groups: BTreeMap<String, Vec<&theory::OpSig>> = BTreeMap::new();
        for s in &theory::table().sigs {
            let key = format!("{}|{:?}|{:?}", s.indices, s.params, s.result);
            groups.entry(key).or_default().push(s);
        }
        // An operator may become any other member of its class that is SMT-LIB 2.6, or of
        // its own dialect (the seed already uses that solver's extensions); anything else
        // would make other solvers reject the mutant.
        let mut by_name: BTreeMap<&'static str, BTreeSet<&'static str>> = BTreeMap::new();
        for members in groups.values() {
            for m in members {
                let to = members
                    .iter()
                    .filter(|o| o.name != m.name && (o.dialect.is_none() || o.dialect == m.dialect))
                    .map(|o| o.name);
                by_name.entry(m.name).or_default().extend(to);
            }
        }
        by_name.into_iter().filter(|(_, v)| !v.is_empty()).map(|(k, v)| (k, v.into_iter().collect())).collect()
    })
}

/// Operators that make linear arithmetic nonlinear.
pub use crate::smtlib::logic::NONLINEAR;

/// A place OpFuzz can mutate: the term, its index in the seed's [`Walk`] (its path is
/// built only when chosen) and the operators it may become.
#[derive(Clone, Debug)]
pub struct Site {
    pub node: usize,
    pub term: TermId,
    pub from: &'static str,
    /// Shared by every site of one operator (a 100,000-deep seed has as many sites:
    /// a list each was 13 MB, issue 37).
    pub candidates: &'static [&'static str],
}

/// Names the script declares or defines (they shadow theory operators).
pub fn declared(s: &Script) -> HashSet<&str> {
    let mut d = HashSet::new();
    for c in &s.commands {
        match c.kind {
            CommandKind::DeclareFun(n, ..) | CommandKind::DeclareConst(n, _) | CommandKind::DefineConst(n, ..) => {
                d.insert(s.sym(n));
            }
            CommandKind::DefineFun { decl, .. } => {
                d.insert(s.sym(decl.name));
            }
            CommandKind::DefineFunsRec(decls, _) => d.extend(s.fun_decl_list(decls).iter().map(|f| s.sym(f.name))),
            CommandKind::DeclareDatatype(_, dd) => {
                for c in s.ctor_list(dd.ctors) {
                    d.insert(s.sym(c.name));
                    d.extend(s.var_list(c.fields).iter().map(|f| s.sym(f.name)));
                }
            }
            CommandKind::DeclareDatatypes { decls, .. } => {
                for dd in s.decl_list(decls) {
                    for c in s.ctor_list(dd.ctors) {
                        d.insert(s.sym(c.name));
                        d.extend(s.var_list(c.fields).iter().map(|f| s.sym(f.name)));
                    }
                }
            }
            _ => {}
        }
    }
    d
}

/// Whether the script's logic is linear arithmetic (QF_LIA, QF_AUFLRA, ...): solvers
/// reject nonlinear terms there, so engines keep such seeds linear.
pub fn is_linear(s: &Script) -> bool {
    let logic = s.logic().unwrap_or("ALL");
    ["LIA", "LRA", "LIRA", "IDL", "RDL"].iter().any(|l| logic.ends_with(l))
        && !["NIA", "NRA", "NIRA"].iter().any(|l| logic.ends_with(l))
}

/// Every OpFuzz site of a script, in pre-order (`w` is its walk): inside assertions, `let`
/// bindings, function bodies, quantifier bodies and named terms alike.
pub fn sites(s: &Script, w: &Walk) -> Vec<Site> {
    let cls = if is_linear(s) { linear_classes() } else { classes() };
    let decl = declared(s);
    let mut out = vec![];
    for (node, v) in w.nodes.iter().enumerate() {
        let t = v.term;
        match *s.term(t) {
            Term::App(q, _) if q.sort.is_none() => {
                let name = s.sym(q.ident.sym);
                if decl.contains(name) {
                    continue;
                }
                if let Some((&from, candidates)) = cls.get_key_value(name) {
                    out.push(Site { node, term: t, from, candidates });
                }
            }
            Term::Quant(b @ (Binder::Forall | Binder::Exists), ..) => {
                let to: &'static [&'static str] = if b == Binder::Forall { &["exists"] } else { &["forall"] };
                out.push(Site { node, term: t, from: b.keyword(), candidates: to });
            }
            _ => {}
        }
    }
    out.shrink_to_fit();
    out
}

/// [`classes`] without the operators that would make a linear script nonlinear
/// ([`NONLINEAR`]); operators left with none are not sites.
fn linear_classes() -> &'static BTreeMap<&'static str, Vec<&'static str>> {
    static C: OnceLock<BTreeMap<&'static str, Vec<&'static str>>> = OnceLock::new();
    C.get_or_init(|| {
        classes()
            .iter()
            .map(|(&k, v)| (k, v.iter().copied().filter(|c| !NONLINEAR.contains(c)).collect::<Vec<_>>()))
            .filter(|(_, v)| !v.is_empty())
            .collect()
    })
}

/// A seed prepared once for many mutants: its walk, its sites, its sorts and its
/// diagnostic baseline.
pub struct Prepared<'a> {
    pub script: &'a Script,
    pub walk: Walk,
    pub sites: Vec<Site>,
    baseline: usize,
    term_sorts: Vec<SortRef>,
    sorts: std::cell::RefCell<Sorts>,
}

impl<'a> Prepared<'a> {
    pub fn new(script: &'a Script) -> Prepared<'a> {
        let checked = crate::smtlib::check::check(script);
        let walk = edit::walk(script);
        Prepared {
            script,
            sites: sites(script, &walk),
            walk,
            baseline: checked.diagnostics.len(),
            term_sorts: checked.term_sorts,
            sorts: std::cell::RefCell::new(checked.sorts),
        }
    }

    /// Whether swapping the operator of application `t` to `to` keeps it well-sorted with
    /// the same result sort: its arguments are unchanged, so then nothing else changes
    /// either, and the script need not be re-checked (the swap is checked against the
    /// signature table exactly as the checker would). `None`: cannot tell here.
    fn swap_keeps_sort(&self, t: TermId, to: &str) -> Option<bool> {
        let s = self.script;
        let Term::App(q, args) = *s.term(t) else { return None };
        let old = *self.term_sorts.get(t.index())?;
        if old == SortRef::UNKNOWN {
            return None;
        }
        let arg_sorts: Vec<SortRef> = s
            .term_list(args)
            .iter()
            .map(|a| self.term_sorts.get(a.index()).copied().unwrap_or(SortRef::UNKNOWN))
            .collect();
        let mut sorts = self.sorts.try_borrow_mut().ok()?;
        let new = check::theory_app_sort(s, &mut sorts, to, s.index_list(q.ident.indices), &arg_sorts);
        Some(new == Some(old))
    }
}

/// Chooses and applies one OpFuzz edit. `None` when the script has no site, the choice
/// source ran out, or no candidate at the chosen sites gives a well-sorted mutant.
pub fn mutate(seed: &Script, choices: &mut impl Choices) -> Option<(Vec<Edit>, Script)> {
    mutate_prepared(&Prepared::new(seed), choices)
}

/// [`mutate`] on a prepared seed.
pub fn mutate_prepared(p: &Prepared, choices: &mut impl Choices) -> Option<(Vec<Edit>, Script)> {
    match choose(p, choices)? {
        Choice::Swap { edits, .. } => edit::apply_unchecked(p.script, &edits).ok().map(|m| (edits, m)),
        Choice::Checked(edits, m) => Some((edits, *m)),
    }
}

/// One OpFuzz mutant, as [`choose`] found it.
pub enum Choice {
    /// The operator of application `term` becomes `to`, with the same result sort for the
    /// same arguments: nothing else in the script changes, so the mutant's text is the
    /// seed's with one symbol replaced ([`SeedText::swapped`]).
    Swap { edits: Vec<Edit>, term: TermId, to: &'static str },
    /// A mutant the full sort check accepted (a quantifier, or a result sort that changed
    /// and still fits its context), built as a script.
    Checked(Vec<Edit>, Box<Script>),
}

/// A seed's session text with the offset of every operator, printed once: the text of a
/// [`Choice::Swap`] mutant is a copy with one symbol replaced — no script clone, no
/// re-print (most of smtstorm's own CPU per OpFuzz mutant otherwise).
pub struct SeedText {
    pub text: String,
    pub checks: usize,
    heads: rustc_hash::FxHashMap<TermId, u32>,
}

impl SeedText {
    /// `s` as a session gets it ([`crate::solver::session_text`]).
    pub fn new(s: &Script) -> SeedText {
        let (text, checks, heads) = crate::solver::session_text_with_heads(s);
        SeedText { text, checks, heads }
    }

    /// The text of `s` (the script this was made from) with the operator of application
    /// `t` replaced by `to`; byte for byte what printing the edited script gives.
    pub fn swapped(&self, s: &Script, t: TermId, to: &str) -> Option<String> {
        let Term::App(q, _) = *s.term(t) else { return None };
        // `(_ op i ...)`: the symbol follows "(_ ".
        let at = *self.heads.get(&t)? as usize + if q.ident.indices.is_empty() { 0 } else { 3 };
        let from = s.str(q.ident.sym);
        if self.text.get(at..at + from.len())? != from {
            return None;
        }
        let mut out = String::with_capacity(self.text.len() + to.len());
        out.push_str(&self.text[..at]);
        out.push_str(to);
        out.push_str(&self.text[at + from.len()..]);
        Some(out)
    }
}

/// Chooses one OpFuzz edit; the same choices as [`mutate_prepared`], which applies it.
pub fn choose(p: &Prepared, choices: &mut impl Choices) -> Option<Choice> {
    let (seed, sites) = (p.script, &p.sites);
    if sites.is_empty() {
        return None;
    }
    for _ in 0..8 {
        let site = &sites[choices.below(sites.len())?];
        let t = site.term;
        let at = p.walk.path(site.node);
        let mut cands = site.candidates.to_vec();
        while !cands.is_empty() {
            let to = cands.remove(choices.below(cands.len())?);
            let edits = vec![Edit::SwapOperator { at: at.clone(), to: to.to_string() }];
            // Fast path: an application whose new operator gives the same sort to the same
            // arguments is applied without re-checking the whole script.
            match p.swap_keeps_sort(t, to) {
                Some(true) | None if matches!(seed.term(t), Term::Quant(..)) => {}
                Some(true) => return Some(Choice::Swap { edits, term: t, to }),
                // A different result sort may still fit its parent (mixed arithmetic):
                // the full check decides.
                Some(false) | None => {}
            }
            if let Ok(m) = edit::apply_with_baseline(seed, &edits, p.baseline) {
                return Some(Choice::Checked(edits, Box::new(m)));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutate::choice::Rng;
    use crate::smtlib::{parse, print};

    fn class(name: &str) -> Vec<&'static str> {
        classes().get(name).cloned().unwrap_or_default()
    }

    /// The text fast path is exact: for every corpus seed and 40 choices each, a swap's
    /// spliced text is byte for byte the session text of the applied, status-stripped
    /// mutant (what the campaign would otherwise print), and `choose` makes the same
    /// mutants as `mutate_prepared`.
    #[test]
    fn swapped_seed_text_is_the_printed_mutant() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        let (mut swaps, mut indexed, mut checked) = (0, 0, 0);
        for path in paths {
            let seed = crate::smtlib::parse_bytes(&std::fs::read(&path).unwrap()).unwrap();
            let mut plain = seed.clone();
            edit::strip_status(&mut plain);
            let st = SeedText::new(&plain);
            let p = Prepared::new(&seed);
            for i in 0..40 {
                let via_mutate = mutate_prepared(&p, &mut Rng::new(i));
                match choose(&p, &mut Rng::new(i)) {
                    Some(Choice::Swap { edits, term, to }) => {
                        let mut m = edit::apply_unchecked(&seed, &edits).unwrap();
                        edit::strip_status(&mut m);
                        let want = crate::solver::session_text(&m).0;
                        assert_eq!(st.swapped(&seed, term, to).as_deref(), Some(want.as_str()), "{}", path.display());
                        assert_eq!(via_mutate.map(|x| x.0), Some(edits));
                        swaps += 1;
                        if let Term::App(q, _) = *seed.term(term) {
                            indexed += !q.ident.indices.is_empty() as usize;
                        }
                    }
                    Some(Choice::Checked(edits, m)) => {
                        assert_eq!(via_mutate, Some((edits, *m)));
                        checked += 1;
                    }
                    None => assert!(via_mutate.is_none()),
                }
            }
        }
        assert!(swaps > 1500 && indexed > 20 && checked > 50, "{swaps} swaps ({indexed} indexed), {checked} checked");
    }

    #[test]
    fn classes_come_from_signatures() {
        for (op, want) in [
            ("bvadd", "bvxor"),
            ("bvult", "bvsge"),
            ("<", ">="),
            ("=", "distinct"),
            ("and", "=>"),
            ("xor", "or"),
            ("str.prefixof", "str.suffixof"),
            ("rotate_left", "rotate_right"),
            ("fp.add", "fp.mul"),
            ("fp.isNaN", "fp.isZero"),
            ("re.union", "re.inter"),
            ("div", "mod"),
            ("abs", "-"),
        ] {
            assert!(class(op).contains(&want), "{op} should swap with {want}: {:?}", class(op));
        }
        assert!(!class("bvadd").contains(&"bvult"), "result sorts differ");
        assert!(!class("extract").contains(&"zero_extend"), "different indices");
        assert!(!class("bvshl").contains(&"ext_rotate_left"), "z3 extension");
        assert!(!class("bvadd").iter().any(|o| o.starts_with("bvite")), "cvc5 extension");
        assert!(class("str.to.int").contains(&"str.len"), "legacy names still mutate into 2.6 ones");
        assert!(class("sin").contains(&"cos"), "an extension may become one of its own dialect");
        let lia = parse("(set-logic QF_LIA)(declare-const x Int)(assert (> (+ x 1) 2))").unwrap();
        assert!(
            !sites(&lia, &edit::walk(&lia)).iter().any(|s| s.candidates.contains(&"*")),
            "linear logics stay linear"
        );
        let nia = parse("(set-logic QF_NIA)(declare-const x Int)(assert (> (+ x 1) 2))").unwrap();
        assert!(sites(&nia, &edit::walk(&nia)).iter().any(|s| s.candidates.contains(&"*")));
    }

    #[test]
    fn every_position_is_a_site_and_mutants_are_well_sorted_and_deterministic() {
        let src = "(declare-fun f (Int) Int)\n(define-fun g ((a Int)) Bool (< a 3))\n(assert (forall ((x Int)) (! (=> (> x 0) (> (f x) x)) :named q)))\n(assert (let ((y (+ 1 2))) (and (g y) (= y 3))))\n(check-sat)";
        let s = parse(src).unwrap();
        let froms: Vec<&str> = sites(&s, &edit::walk(&s)).iter().map(|x| x.from).collect();
        // Pre-order; a `let` visits its binding values before its body.
        assert_eq!(froms, vec!["<", "forall", "=>", ">", ">", "+", "and", "="]);
        // forall ↔ exists really changes the output (a no-op in yinyang).
        let m = edit::apply(&s, &[Edit::SwapOperator { at: edit::Path(vec![2, 0]), to: "exists".into() }]).unwrap();
        assert!(print(&m).contains("(assert (exists ((x Int))"));
        for seed in 0..200 {
            let (edits, m) = mutate(&s, &mut Rng::new(seed)).unwrap();
            let text = print(&m);
            assert_ne!(text, print(&s));
            let again = parse(&text).unwrap();
            assert!(crate::smtlib::check::check(&again).is_clean(), "seed {seed}: {edits:?}\n{text}");
            assert_eq!(print(&again), text);
            let (e2, m2) = mutate(&s, &mut Rng::new(seed)).unwrap();
            assert_eq!((e2, print(&m2)), (edits, text), "seed {seed} is not deterministic");
        }
    }

    #[test]
    fn the_fast_sort_check_agrees_with_the_full_one_on_every_corpus_swap() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        let (mut fast, mut agree) = (0, 0);
        for f in std::fs::read_dir(dir).unwrap() {
            let s = parse(&std::fs::read_to_string(f.unwrap().path()).unwrap()).unwrap();
            let p = Prepared::new(&s);
            for site in &p.sites {
                let at = p.walk.path(site.node);
                let t = edit::resolve(&s, &at).unwrap();
                assert_eq!(t, site.term);
                for to in site.candidates {
                    let Some(keeps) = p.swap_keeps_sort(t, to) else { continue };
                    fast += 1;
                    let edits = [Edit::SwapOperator { at: at.clone(), to: to.to_string() }];
                    let full = edit::apply_with_baseline(&s, &edits, p.baseline).is_ok();
                    // The fast path may only accept what the full check accepts.
                    assert!(!keeps || full, "{to} at {:?} in\n{}", at, print(&s));
                    agree += (keeps == full) as usize;
                }
            }
        }
        assert!(fast > 500, "{fast}");
        assert!(agree * 100 >= fast * 95, "{agree} of {fast}");
    }
}

/// OpFuzz as a [`super::Mutator`]. Its common case, an operator swap that keeps the sort,
/// is sent as the seed's text with one symbol replaced ([`SeedText`]) when every solver
/// reads the same text; the script is only built for a candidate.
#[derive(Default)]
pub struct OpFuzz<'s> {
    seed: Option<(Prepared<'s>, Option<SeedText>)>,
    solvers: &'s [crate::solver::SolverSpec],
}

impl<'s> super::Mutator<'s> for OpFuzz<'s> {
    fn prepare(&mut self, seed: &'s Script, ctx: &mut super::Ctx<'s, '_>) -> Result<(), super::Skip> {
        self.solvers = ctx.solvers;
        if self.seed.is_none() {
            let text = ctx.solvers.iter().all(|spec| spec.without_foreign_options(seed).is_none()).then(|| {
                let mut plain = seed.clone();
                edit::strip_status(&mut plain);
                SeedText::new(&plain)
            });
            self.seed = Some((Prepared::new(seed), text));
        }
        Ok(())
    }
    fn mutate(&mut self, rng_seed: u64) -> Option<super::Mutant> {
        let (p, text) = self.seed.as_ref()?;
        let mut rng = super::choice::Rng::new(rng_seed);
        let (edits, m) = match (text, choose(p, &mut rng)?) {
            (Some(st), Choice::Swap { edits, term, to }) => {
                let t = st.swapped(p.script, term, to)?;
                let texts = vec![t; self.solvers.len()];
                return Some(super::Mutant { rng_seed, edits, script: None, texts, checks: st.checks, framing: None });
            }
            (None, Choice::Swap { edits, .. }) => {
                let m = edit::apply_unchecked(p.script, &edits).ok()?;
                (edits, m)
            }
            (_, Choice::Checked(edits, m)) => (edits, *m),
        };
        Some(super::Mutant::of_script(self.solvers, rng_seed, edits, m, true))
    }
}
