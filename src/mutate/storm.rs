//! STORM (Mansur, Christakis, Wüstholz, Zhang, "Detecting Critical Bugs in SMT Solvers
//! Using Blackbox Mutational Fuzzing", ESEC/FSE 2020): satisfiable-by-construction
//! instances.
//!
//! 1. A reference solver gives a model of the seed's assertions (of their negated
//!    conjunction when the seed is unsat, as the paper does) and, in the same call, the
//!    truth value of every *fragment*: each closed Boolean sub-formula reached from an
//!    assertion through `and`/`or`/`not`/`=>`/`xor`/Boolean `ite`/Boolean `=`/`let`
//!    bodies/`!`, down to connective depth `dmax`; quantified formulas and other atoms
//!    are leaves. A fragment whose value is not `true`/`false` is dropped, never guessed.
//! 2. Algorithm 1: a construction pool of `nc` formulas built with AND and NOT (OR, XOR
//!    and ITE with `extended`) over the initial pool, each with its derived value; an
//!    instance asserts up to `amax` formulas — picked 30 % from the initial pool and 70 %
//!    from the construction pool — each as itself when true under the model, negated when
//!    false. Every instance is therefore satisfied by the model: a solver that answers
//!    `unsat` is wrong, no second solver needed.
//! 3. The instance keeps the seed's logic, options, declarations and definitions; its
//!    assertions replace the seed's (one [`Edit::Recombine`], which replays exactly), and
//!    the model travels with it as the *witness*, a comment line solvers never see.

use super::choice::Choices;
use super::edit::{self, Edit};
use super::scope::Scope;
use crate::smtlib::ast::*;
use crate::smtlib::check;
use crate::smtlib::printer::term_to_string;
use crate::smtlib::sort::SortRef;
use crate::smtlib::Script;

/// Generator bounds (paper §4, best settings: depth 64, 64 assertions): the flags of
/// `smtstorm storm` (clap) and the `[storm]` table of a campaign file (serde), each
/// declared once here with its default.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, clap::Args)]
#[serde(default, deny_unknown_fields)]
#[group(id = "storm")]
pub struct Bounds {
    /// Connective depth down to which sub-formulas become fragments.
    #[arg(long, default_value_t = 64)]
    pub dmax: usize,
    /// Assertions per instance, at most.
    #[arg(long, default_value_t = 64)]
    pub amax: usize,
    /// Size of the construction pool.
    #[arg(long, default_value_t = 200)]
    pub nc: usize,
    /// Also combine with OR, XOR and ITE (not in the paper's AND/NOT baseline).
    #[arg(long)]
    pub extended: bool,
    /// Constructed formulas longer than this many bytes are not built further.
    #[arg(skip = 8192usize)]
    pub max_formula_bytes: usize,
    /// Make every other instance incremental: its assertions split into `(push 1)` ...
    /// `(check-sat)` `(pop 1)` blocks, each satisfiable by the same witness.
    #[arg(long)]
    pub incremental: bool,
    /// Make every other instance check with a z3 tactic, `(check-sat-using T)`; other
    /// solvers get a plain check-sat. `unknown` answers are never findings.
    ///
    /// Each tactic simplifies or solves equations first and ends in `smt` (STORM's
    /// artifact varies z3's configuration the same way). Off by default: only z3 reads
    /// it, and a tactic that gives up answers `unknown`.
    #[arg(long)]
    pub tactics: bool,
}

/// The declared defaults above (`smtstorm storm` with no bound given).
impl Default for Bounds {
    fn default() -> Self {
        static DEFAULT: std::sync::OnceLock<Bounds> = std::sync::OnceLock::new();
        DEFAULT.get_or_init(crate::util::flags::defaults).clone()
    }
}

/// z3 tactics for [`Bounds::tactics`]: each ends in `smt`, so it decides what it is given
/// (a tactic that cannot, e.g. a bare `simplify`, mostly answers `unknown` — 39 % of the
/// original STORM's calls went there). The preprocessing steps are where the tactic
/// framework's own soundness bugs live. All exist in every z3 since 4.8.5.
pub const TACTICS: &[&str] = &[
    "smt",
    "(then simplify smt)",
    "(then simplify solve-eqs smt)",
    "(then propagate-values simplify smt)",
    "(then simplify ctx-simplify smt)",
    "(then simplify elim-uncnstr smt)",
];

/// The comment line that carries a witness in a file (SMT-LIB comments are invisible to
/// solvers, and our parser drops them before anything is sent).
pub const WITNESS_PREFIX: &str = "; smtstorm-witness: ";

/// The fragments of a seed, as text, in pre-order: none longer than `max_bytes` (the
/// bound constructed formulas obey, [`Bounds::max_formula_bytes`]; a longer formula's own
/// fragments still count). Without it a deep formula gives `dmax` fragments of nearly its
/// whole size, and an instance up to `amax` copies of them: 2.3 GB for one turn on a
/// 3 MB, 100,000-deep `let` (issue 37).
pub fn fragments(s: &Script, dmax: usize, max_bytes: usize) -> Vec<String> {
    let checked = check::check(s);
    let scope = Scope::new(s, &checked);
    let mut out: Vec<String> = vec![];
    // Connective depth of each node below an assertion root (usize::MAX: not reached
    // through connectives only).
    let mut depth = vec![usize::MAX; scope.nodes.len()];
    for i in 0..scope.nodes.len() {
        let n = &scope.nodes[i];
        if !matches!(s.commands[n.cmd as usize].kind, CommandKind::Assert(_)) {
            continue;
        }
        if n.parent == edit::ROOT {
            depth[i] = 0;
        }
        let d = depth[i];
        if d == usize::MAX || d > dmax {
            continue;
        }
        // Every node prints as a byte at least: a larger subtree is not even printed.
        let small = n.size as usize <= max_bytes;
        if small && n.sort == SortRef::BOOL && !n.named() && scope.free_locals(s, i).is_empty() {
            let text = term_to_string(s, n.term);
            if text.len() <= max_bytes && !out.contains(&text) {
                out.push(text);
            }
        }
        // Children reached through a Boolean connective, `let` body or annotation.
        let through = match *s.term(n.term) {
            Term::App(q, args) if q.ident.indices.is_empty() => {
                let name = s.sym(q.ident.sym);
                let kids = s.term_list(args);
                let all_bool = kids.iter().all(|&k| checked.sort_of(k) == SortRef::BOOL);
                match name {
                    "and" | "or" | "not" | "=>" | "xor" => true,
                    "=" | "distinct" => all_bool,
                    "ite" => n.sort == SortRef::BOOL,
                    _ => false,
                }
            }
            Term::Let(..) | Term::Annot(..) => true,
            _ => false,
        };
        if !through {
            continue;
        }
        let mut c = i + 1;
        for _ in 0..edit::children(s, n.term).len() {
            if c >= scope.nodes.len() {
                break;
            }
            depth[c] = d + 1;
            c += scope.nodes[c].size as usize;
        }
    }
    out
}

/// A fragment or constructed formula with its value under the model.
#[derive(Clone, Debug)]
pub struct Formula {
    pub text: String,
    pub value: bool,
}

/// A seed ready for instance generation: its fragments valued under one model.
#[derive(Clone, Debug)]
pub struct Pools {
    pub initial: Vec<Formula>,
    pub constructed: Vec<Formula>,
    /// The model: `(name value)` pairs of the seed's constants.
    pub witness: Vec<(String, String)>,
}

/// The query that asks the reference solver for a model and all fragment values at once.
/// `negate`: assert the negation of the assertions' conjunction (for an unsat seed).
pub fn model_query(s: &Script, frags: &[String], negate: bool) -> (String, Vec<String>) {
    let mut out = String::from("(set-option :produce-models true)\n");
    let mut asserts = vec![];
    let consts = constants(s);
    for c in &s.commands {
        match c.kind {
            CommandKind::Assert(t) => asserts.push(term_to_string(s, t)),
            k if s.is_status(&k) => {}
            k if edit::kept_by_recombine(&k) => {
                let mut p = crate::smtlib::printer::Printer::new(s);
                p.command(&k);
                out.push_str(&p.out);
                out.push('\n');
            }
            _ => {}
        }
    }
    if negate {
        out.push_str(&format!("(assert (not (and true {})))\n", asserts.join(" ")));
    } else {
        for a in &asserts {
            out.push_str(&format!("(assert {a})\n"));
        }
    }
    out.push_str("(check-sat)\n");
    let terms: Vec<String> = consts.iter().cloned().chain(frags.iter().cloned()).collect();
    if !terms.is_empty() {
        out.push_str(&format!("(get-value ({}))\n", terms.join(" ")));
    }
    (out, consts)
}

/// The seed's declared constants (0-ary `declare-fun`/`declare-const`), the witness's keys.
pub fn constants(s: &Script) -> Vec<String> {
    let mut v = vec![];
    for c in &s.commands {
        match c.kind {
            CommandKind::DeclareConst(n, _) => v.push(s.str(n).to_string()),
            CommandKind::DeclareFun(n, args, _) if args.is_empty() => v.push(s.str(n).to_string()),
            _ => {}
        }
    }
    v
}

impl Pools {
    /// Builds the pools from the reference solver's `get-value` answer to
    /// [`model_query`] (constants first, then fragments, in order) and the construction
    /// choices. `None` if no fragment has a Boolean value.
    pub fn build(
        frags: &[String],
        consts: &[String],
        values: &[(String, String)],
        b: &Bounds,
        c: &mut impl Choices,
    ) -> Option<Pools> {
        let witness: Vec<(String, String)> =
            consts.iter().cloned().zip(values.iter().map(|(_, v)| v.clone())).collect();
        let initial: Vec<Formula> = frags
            .iter()
            .zip(values.iter().skip(consts.len()))
            .filter_map(|(f, (_, v))| match v.trim() {
                "true" => Some(Formula { text: f.clone(), value: true }),
                "false" => Some(Formula { text: f.clone(), value: false }),
                _ => None,
            })
            .collect();
        Pools::construct(initial, witness, b, c)
    }

    /// Pools for an instance whose witness is known, without asking a solver: every
    /// assertion of an instance is true under its witness, and the values of sub-formulas
    /// follow from the Boolean structure above them — a true `and` has true conjuncts, a
    /// false `or` false disjuncts, a false `=>` a true premise and a false conclusion, and
    /// `not` flips. STORM instances are built from exactly these connectives, so their own
    /// recombinations (and, down the structure, the seed's fragments) come back valued.
    /// This is what lets a fuzzer re-mutate an instance at no solver cost; a wrong witness
    /// (a byte-mutated instance) can only make instances that the witness check rejects.
    pub fn from_instance(
        s: &Script,
        witness: Vec<(String, String)>,
        b: &Bounds,
        c: &mut impl Choices,
    ) -> Option<Pools> {
        let mut initial: Vec<Formula> = vec![];
        let mut stack: Vec<(crate::smtlib::ast::TermId, bool, usize)> = s
            .commands
            .iter()
            .filter_map(|c| match c.kind {
                CommandKind::Assert(t) => Some((t, true, 0)),
                _ => None,
            })
            .collect();
        stack.reverse();
        while let Some((t, v, depth)) = stack.pop() {
            if depth > b.dmax {
                continue;
            }
            // An annotation's term, not the annotation: a `:named` copied into a second
            // assertion would define its name twice.
            if let Term::Annot(x, _) = *s.term(t) {
                stack.push((x, v, depth + 1));
                continue;
            }
            let text = term_to_string(s, t);
            if !text.contains(":named") && !initial.iter().any(|f| f.text == text) {
                initial.push(Formula { text, value: v });
            }
            let (name, kids) = match *s.term(t) {
                Term::App(q, args) if q.ident.indices.is_empty() && q.sort.is_none() => {
                    (s.sym(q.ident.sym), s.term_list(args))
                }
                _ => continue,
            };
            match (name, v) {
                ("not", _) if kids.len() == 1 => stack.push((kids[0], !v, depth + 1)),
                ("and", true) | ("or", false) => kids.iter().rev().for_each(|&k| stack.push((k, v, depth + 1))),
                ("=>", false) if kids.len() >= 2 => {
                    let (last, premises) = kids.split_last()?;
                    stack.push((*last, false, depth + 1));
                    premises.iter().rev().for_each(|&k| stack.push((k, true, depth + 1)));
                }
                _ => {}
            }
        }
        Pools::construct(initial, witness, b, c)
    }

    /// The construction pool over valued `initial` formulas (paper §3.3: random `and`/`not`
    /// combinations, and `or`/`xor`/`ite` with `b.extended`).
    fn construct(
        initial: Vec<Formula>,
        witness: Vec<(String, String)>,
        b: &Bounds,
        c: &mut impl Choices,
    ) -> Option<Pools> {
        if initial.is_empty() {
            return None;
        }
        let mut constructed: Vec<Formula> = vec![];
        let mut tries = 0;
        while constructed.len() < b.nc && tries < b.nc * 4 {
            tries += 1;
            let pick = |c: &mut dyn FnMut(usize) -> Option<usize>, cons: &[Formula]| -> Option<Formula> {
                let n = initial.len() + cons.len();
                let k = c(n)?;
                Some(if k < initial.len() { initial[k].clone() } else { cons[k - initial.len()].clone() })
            };
            let mut below = |n: usize| c.below(n);
            let ops = if b.extended { 5 } else { 2 };
            let op = below(ops)?;
            let a = pick(&mut below, &constructed)?;
            let f = if op == 1 {
                Formula { text: format!("(not {})", a.text), value: !a.value }
            } else {
                let x = pick(&mut below, &constructed)?;
                match op {
                    0 => Formula { text: format!("(and {} {})", a.text, x.text), value: a.value && x.value },
                    2 => Formula { text: format!("(or {} {})", a.text, x.text), value: a.value || x.value },
                    3 => Formula { text: format!("(xor {} {})", a.text, x.text), value: a.value != x.value },
                    _ => {
                        let y = pick(&mut below, &constructed)?;
                        Formula {
                            text: format!("(ite {} {} {})", a.text, x.text, y.text),
                            value: if a.value { x.value } else { y.value },
                        }
                    }
                }
            };
            if f.text.len() <= b.max_formula_bytes {
                constructed.push(f);
            }
        }
        Some(Pools { initial, constructed, witness })
    }

    /// One instance's assertions (Algorithm 1): up to `amax`, each a formula true under
    /// the model — picked 30 % from the initial, 70 % from the construction pool.
    pub fn instance(&self, b: &Bounds, c: &mut impl Choices) -> Option<Vec<String>> {
        let n = 1 + c.below(b.amax.max(1))?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let from_initial = self.constructed.is_empty() || c.below(10)? < 3;
            let f = if from_initial {
                &self.initial[c.below(self.initial.len())?]
            } else {
                &self.constructed[c.below(self.constructed.len())?]
            };
            out.push(if f.value { f.text.clone() } else { format!("(not {})", f.text) });
        }
        Some(out)
    }

    /// The witness as a comment line.
    pub fn witness_line(&self) -> String {
        witness_line(&self.witness)
    }
}

/// A witness as a comment line: `; smtstorm-witness: ((x 2) (y "a"))`.
pub fn witness_line(witness: &[(String, String)]) -> String {
    let pairs: Vec<String> = witness.iter().map(|(k, v)| format!("({k} {v})")).collect();
    format!("{WITNESS_PREFIX}({})", pairs.join(" "))
}

/// The instance script: the seed with its assertions replaced.
pub fn instance_script(seed: &Script, assertions: Vec<String>) -> Result<Script, edit::EditError> {
    edit::apply(seed, &[Edit::Recombine { assertions, blocks: vec![], tactic: None }])
}

/// The edit for one instance: plain, or — with `b.incremental`, for every other choice —
/// split into incremental blocks of random sizes, each popped or kept at random; with
/// `b.tactics`, every other choice also checks with a z3 tactic from [`TACTICS`]. The
/// tactic choice is drawn after the blocks and only when asked for, so the instances of
/// a run without tactics replay unchanged.
pub fn instance_edit(assertions: Vec<String>, b: &Bounds, c: &mut impl Choices) -> Option<Edit> {
    let mut blocks = vec![];
    if b.incremental && assertions.len() >= 2 && c.below(2)? == 1 {
        let mut left = assertions.len();
        while left > 0 {
            let len = 1 + c.below(left.min(8))?;
            blocks.push(edit::Block { len, pop: c.below(2)? == 1 });
            left -= len;
        }
    }
    let tactic = if b.tactics && c.below(2)? == 1 { Some(TACTICS[c.below(TACTICS.len())?].to_string()) } else { None };
    Some(Edit::Recombine { assertions, blocks, tactic })
}

/// The part of a session's text for the instance `e` that follows the seed's prefix, and
/// its number of checks, without building the instance as a script: with `prefix` =
/// [`edit::recombine_prefix`] of the seed (as the solver gets it), `prefix + body` is byte
/// for byte what `session_text` prints for the applied edit (`tests/storm.rs` checks it on
/// every corpus seed). The fragments are printed sub-terms of the checked seed, so
/// parsing, re-checking and re-printing each instance — most of smtstorm's own time in a
/// STORM campaign, instances being up to `amax` formulas of up to 8 KB — changes nothing.
/// `keep_tactic: false` gives the plain `check-sat` of solvers other than z3.
pub fn instance_body(e: &Edit, keep_tactic: bool) -> Option<(String, usize)> {
    let Edit::Recombine { assertions, blocks, tactic } = e else { return None };
    let body = edit::recombine_body(assertions, blocks, tactic.as_deref().filter(|_| keep_tactic)).ok()?;
    Some((body, blocks.len().max(1)))
}

/// Reads a witness line back from a file's text.
pub fn read_witness(text: &str) -> Option<Vec<(String, String)>> {
    let line = text.lines().find_map(|l| l.strip_prefix(WITNESS_PREFIX))?;
    crate::solver::model::parse_values(line).ok()
}

/// The instance with the witness pinned: `(assert (= x v))` for every constant. A
/// reference solver must answer `sat` for the witness to be valid.
pub fn pinned(instance: &Script, witness: &[(String, String)]) -> String {
    // Only constants the instance still declares (a reduced instance may have dropped some).
    let declared: std::collections::BTreeSet<&str> = instance
        .commands
        .iter()
        .filter_map(|c| match c.kind {
            CommandKind::DeclareConst(n, _) => Some(instance.sym(n)),
            CommandKind::DeclareFun(n, args, _) if args.is_empty() => Some(instance.sym(n)),
            _ => None,
        })
        .collect();
    let mut text = String::new();
    for c in &instance.commands {
        if instance.is_check(&c.kind) {
            // Values that are not closed SMT-LIB terms — z3's `Hole!val!0` elements of an
            // uninterpreted sort, `(_ as-array k!0)`, cvc5's `@uc_...` — cannot be pinned;
            // the others still make a check the instance must pass.
            for (k, v) in witness.iter().filter(|(k, v)| {
                declared.contains(crate::smtlib::ast::unquote(k))
                    && !(v.contains("!val!") || v.contains("as-array") || v.contains('@') || v.contains("k!"))
            }) {
                text.push_str(&format!("(assert (= {k} {v}))\n"));
            }
        }
        if matches!(c.kind, CommandKind::Other { name, .. } if instance.str(name) == "check-sat-using") {
            // The witness is a property of the formula, not of a tactic: a tactic that
            // gives up (`unknown`) must not make a valid witness look invalid.
            text.push_str("(check-sat)\n");
            continue;
        }
        let mut p = crate::smtlib::printer::Printer::new(instance);
        // Pins go before every check-sat: push/pop blocks keep them in scope.
        p.command(&c.kind);
        text.push_str(&p.out);
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutate::choice::Rng;
    use crate::smtlib::{parse, print};

    #[test]
    fn fragments_follow_connectives_and_stay_closed() {
        let s = parse(
            "(declare-const x Int)(declare-const p Bool)\n\
             (assert (and (> x 0) (or p (not (= x 3)))))\n\
             (assert (forall ((y Int)) (> (+ y x) y)))\n\
             (assert (let ((z (+ x 1))) (and (> z 2) p)))\n(check-sat)",
        )
        .unwrap();
        let f = fragments(&s, 64, usize::MAX);
        assert_eq!(
            f,
            vec![
                "(and (> x 0) (or p (not (= x 3))))",
                "(> x 0)",
                "(or p (not (= x 3)))",
                "p",
                "(not (= x 3))",
                "(= x 3)",
                "(forall ((y Int)) (> (+ y x) y))",
                "(let ((z (+ x 1))) (and (> z 2) p))",
            ]
        );
        assert_eq!(fragments(&s, 1, usize::MAX).len(), 5, "depth bound");
        let small = fragments(&s, 64, "(not (= x 3))".len());
        assert_eq!(small, vec!["(> x 0)", "p", "(not (= x 3))", "(= x 3)"], "size bound");
    }

    #[test]
    fn instances_assert_true_formulas_and_replay() {
        let s =
            parse("(set-logic QF_LIA)(declare-const x Int)\n(assert (> x 0))\n(assert (< x 5))\n(check-sat)").unwrap();
        let frags = fragments(&s, 64, usize::MAX);
        let (q, consts) = model_query(&s, &frags, false);
        assert!(q.contains("(get-value (x (> x 0) (< x 5)))"), "{q}");
        let values =
            vec![("x".into(), "2".into()), ("(> x 0)".into(), "true".into()), ("(< x 5)".into(), "true".into())];
        let b = Bounds { amax: 4, nc: 20, ..Bounds::default() };
        let pools = Pools::build(&frags, &consts, &values, &b, &mut Rng::new(1)).unwrap();
        assert_eq!(pools.witness_line(), "; smtstorm-witness: ((x 2))");
        for f in pools.initial.iter().chain(&pools.constructed) {
            // Evaluate under x = 2 by brute force over the two atoms.
            let v = eval(&f.text);
            assert_eq!(v, f.value, "{}", f.text);
        }
        for seed in 0..20 {
            let a = pools.instance(&b, &mut Rng::new(seed)).unwrap();
            assert!(!a.is_empty() && a.len() <= 4);
            let m = instance_script(&s, a.clone()).unwrap();
            let text = print(&m);
            assert_eq!(text.matches("(assert").count(), a.len());
            assert!(text.starts_with("(set-logic QF_LIA)\n(declare-const x Int)\n"));
            assert!(text.ends_with("(check-sat)\n"));
        }
        assert_eq!(
            read_witness(&format!("{}\n(check-sat)", pools.witness_line())).unwrap(),
            vec![("x".into(), "2".into())]
        );
    }

    /// A tiny evaluator for formulas over the atoms `(> x 0)` and `(< x 5)` (both true).
    fn eval(t: &str) -> bool {
        let s = parse(&format!("(declare-const x Int)(assert {t})")).unwrap();
        let CommandKind::Assert(root) = s.commands[1].kind else { unreachable!() };
        fn go(s: &Script, t: TermId) -> bool {
            match *s.term(t) {
                Term::App(q, args) => {
                    let a: Vec<TermId> = s.term_list(args).to_vec();
                    match s.sym(q.ident.sym) {
                        "and" => a.iter().all(|&x| go(s, x)),
                        "or" => a.iter().any(|&x| go(s, x)),
                        "not" => !go(s, a[0]),
                        "xor" => go(s, a[0]) != go(s, a[1]),
                        "ite" => {
                            if go(s, a[0]) {
                                go(s, a[1])
                            } else {
                                go(s, a[2])
                            }
                        }
                        ">" | "<" => true,
                        o => panic!("{o}"),
                    }
                }
                _ => panic!(),
            }
        }
        go(&s, root)
    }
}

/// STORM as a [`super::Mutator`]: the pools come from the reference
/// ([`super::Reference::pools`]); per solver, the text every instance starts with and
/// whether it reads z3's tactics are built once. Instances are sent as text
/// ([`instance_body`] after the solver's prefix); only a candidate is built as a script
/// ([`super::Mutator::rebuild`]).
#[derive(Default)]
pub struct Storm<'s> {
    pools: Option<std::sync::Arc<Pools>>,
    prefixes: Vec<String>,
    tactics: Vec<bool>,
    seed_diagnostics: usize,
    bounds: Bounds,
    solvers: &'s [crate::solver::SolverSpec],
}

impl<'s> super::Mutator<'s> for Storm<'s> {
    fn prepare(&mut self, seed: &'s Script, ctx: &mut super::Ctx<'s, '_>) -> Result<(), super::Skip> {
        if self.pools.is_none() {
            let rng_seed = (ctx.seed_draw)(0x5708);
            let r = ctx.reference.as_mut().ok_or(super::Skip::Nothing)?;
            let pools = r.pools(seed, ctx.storm, rng_seed).ok_or(super::Skip::Nothing)?;
            self.pools = Some(pools);
            self.prefixes = ctx.solvers.iter().map(|spec| edit::recombine_prefix(&spec.own_script(seed))).collect();
            self.tactics = ctx.solvers.iter().map(|spec| spec.family.reads_check_sat_using()).collect();
            self.seed_diagnostics = check::check(seed).diagnostics.len();
        }
        self.bounds = ctx.storm.clone();
        self.solvers = ctx.solvers;
        Ok(())
    }
    fn mutate(&mut self, rng_seed: u64) -> Option<super::Mutant> {
        let p = self.pools.as_ref()?;
        let mut rng = super::choice::Rng::new(rng_seed);
        let a = p.instance(&self.bounds, &mut rng)?;
        let e = instance_edit(a, &self.bounds, &mut rng)?;
        // At most two bodies (with and without the z3 tactic), each built once; without
        // solvers (the fuzz harness prints the script) the plain one counts the checks.
        let with = if self.tactics.contains(&true) { Some(instance_body(&e, true)?) } else { None };
        let plain = self.tactics.contains(&false) || self.tactics.is_empty();
        let without = if plain { Some(instance_body(&e, false)?) } else { None };
        let checks = with.as_ref().or(without.as_ref())?.1;
        let texts = (0..self.solvers.len())
            .map(|k| {
                let body = if self.tactics[k] { &with } else { &without };
                format!("{}{}", self.prefixes[k], body.as_ref().map_or("", |b| b.0.as_str()))
            })
            .collect();
        Some(super::Mutant { rng_seed, edits: vec![e], script: None, texts, checks, framing: None })
    }
    fn construction(&self) -> super::Construction<'_> {
        match &self.pools {
            Some(p) => super::Construction::Witness(&p.witness),
            None => super::Construction::None,
        }
    }
    /// The instance as a script, sort-checked against the seed's own diagnostics: the
    /// text was sent without the re-check, and an instance the check refuses is the
    /// generator's doing, not a finding.
    fn rebuild<'m>(&self, seed: &Script, m: &'m super::Mutant) -> Result<std::borrow::Cow<'m, Script>, Option<String>> {
        edit::apply_with_baseline(seed, &m.edits, self.seed_diagnostics)
            .map(std::borrow::Cow::Owned)
            .map_err(|e| Some(e.to_string()))
    }
}
