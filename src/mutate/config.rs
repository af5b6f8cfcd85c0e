//! The configuration engine (issue 23): mutates *how* a solver is asked, not only what.
//! Falcon (Li et al., ISSTA 2023) explored formula and configuration space together and
//! found hundreds of bugs in z3 and CVC4 that formula-only fuzzers missed.
//!
//! A mutant is the seed, or half the time an OpFuzz mutant of it, with one of its
//! `check-sat`s asked again through z3's `(check-sat-using PIPELINE)`: zero to three
//! transforming tactics, then a deciding one, each possibly under `using-params` with
//! parameters of its own. Tactics and parameters come from the solver's own table
//! ([`crate::solver::options`]), so every release reads what it is sent. The second
//! answer is to the same question as the first ([`crate::smtlib::framing`]): z3 answering
//! `sat` to one and `unsat` to the other contradicts itself, a finding with no vote
//! needed; other solvers get a plain `check-sat` and vote as usual.
//!
//! Parameters live inside the tactic expression, never in a `set-option`: z3 keeps
//! options across `(reset)`, so an option would leak into every later query of a session.
//!
//! Where a cvc5 or bitwuzla release is under test, half the mutants also set one to three
//! of their options at the start (`(set-option :NAME VALUE)`, [`Edit::SetOptions`]), from
//! the tables read from their own option lists; only the family whose table lists an
//! option reads it ([`crate::solver::options::owner`]), and its answer under them is
//! voted on with the other solvers' (Falcon's configuration space for CVC4).
//!
//! yices reads its options only from the command line (`--mcsat`; `(set-option
//! :yices-mcsat true)` is "unsupported"), which one session cannot vary per query: a
//! campaign asks [`VARIANTS`] configured variants of it besides the plain solver
//! ([`command_line_variants`]), each a solver of its own in the yices family.
//!
//! Half the time instead (always without a table), the check is framed incrementally
//! ([`Edit::PushSplit`]): its last assertions go into a pushed scope, and after the pop
//! they are asserted again and the check repeated. Every family reads that, and the two
//! checks ask about the same assertions ([`crate::smtlib::framing`]) through different
//! paths of the solver (z3 runs another engine under push/pop).

use super::choice::Choices;
use super::edit::{self, Edit};
use super::opfuzz;
use crate::smtlib::ast::Script;
use crate::solver::options::{Options, Param, Role};

/// A seed prepared for the configuration engine.
pub struct Prepared<'a> {
    pub script: &'a Script,
    /// Command indices of the seed's plain `check-sat`s.
    checks: Vec<usize>,
    options: &'a Options,
    /// The deciding tactic named after the seed's logic (`QF_NIA` → `qfnia`), if z3 has one.
    logic_tactic: Option<usize>,
    /// Incremental framing ([`Edit::PushSplit`]): per check-sat right after assertions,
    /// its command index and the command indices of those assertions.
    splits: Vec<(usize, Vec<usize>)>,
    inner: opfuzz::Prepared<'a>,
    /// What the campaign learned of this seed's logic: which tactics, parameters and
    /// options changed a solver's behaviour ([`Learning`]); `None`: uniform choice.
    weights: Option<std::collections::HashMap<String, f64>>,
}

/// Falcon's observation (Li et al., ISSTA 2023): an option matters for some formulas and
/// not others, so the options that made a solver behave differently on a logic's seeds
/// are tried more on that logic. Per (logic, option) the campaign counts the mutants that
/// used it and those on which the solver it addresses answered differently or took a
/// different time than on the unmutated seed ([`Learning::record`]); an option's weight
/// is `(1 + 2 effects) / (1 + uses)`, at least 0.1, so an untried option weighs 1, one
/// that always changes something about 2, one that never does falls to 0.1 but is still
/// drawn now and then.
#[derive(Debug, Default)]
pub struct Learning {
    counts: std::collections::HashMap<(String, String), (u32, u32)>,
}

impl Learning {
    /// The keys of what a mutant's configuration edits chose: `tactic:NAME` and
    /// `param:NAME` of a pipeline, `option:NAME` of set options.
    pub fn keys(edits: &[Edit]) -> Vec<String> {
        let mut keys = vec![];
        for e in edits {
            match e {
                Edit::AskAgain { tactic, .. } => {
                    for w in tactic.split(|c: char| c == '(' || c == ')' || c.is_whitespace()).filter(|w| !w.is_empty())
                    {
                        match w.strip_prefix(':') {
                            Some(p) => keys.push(format!("param:{p}")),
                            None if w.starts_with(|c: char| c.is_ascii_alphabetic())
                                && !["then", "using-params", "or-else", "and-then", "true", "false"].contains(&w) =>
                            {
                                keys.push(format!("tactic:{w}"))
                            }
                            None => {}
                        }
                    }
                }
                Edit::SetOptions { options } => keys.extend(options.iter().map(|(n, _)| format!("option:{n}"))),
                _ => {}
            }
        }
        keys.sort();
        keys.dedup();
        keys
    }

    /// Counts one mutant on `logic` that used `keys`, and whether it changed behaviour.
    pub fn record(&mut self, logic: &str, keys: &[String], effect: bool) {
        for k in keys {
            let c = self.counts.entry((logic.to_string(), k.clone())).or_default();
            c.0 += 1;
            c.1 += effect as u32;
        }
    }

    /// The weights of everything tried on `logic` (untried keys weigh 1).
    pub fn weights(&self, logic: &str) -> std::collections::HashMap<String, f64> {
        self.counts
            .iter()
            .filter(|((l, _), _)| l == logic)
            .map(|((_, k), &(uses, effects))| {
                (k.clone(), ((1.0 + 2.0 * effects as f64) / (1.0 + uses as f64)).max(0.1))
            })
            .collect()
    }

    /// (keys tried, mutants counted, mutants with an effect) over all logics.
    pub fn totals(&self) -> (usize, u64, u64) {
        let (u, e) = self.counts.values().fold((0u64, 0u64), |a, c| (a.0 + c.0 as u64, a.1 + c.1 as u64));
        (self.counts.len(), u, e)
    }
}

impl<'a> Prepared<'a> {
    pub fn new(script: &'a Script, options: &'a Options) -> Prepared<'a> {
        use crate::smtlib::ast::{CommandKind, Nullary};
        let checks: Vec<usize> = (0..script.commands.len())
            .filter(|&i| matches!(script.commands[i].kind, CommandKind::Nullary(Nullary::CheckSat)))
            .collect();
        let logic = script.logic().map(|l| l.to_ascii_lowercase().replace('_', ""));
        let logic_tactic = logic.and_then(|l| {
            options.tactics.iter().position(|t| t.role == Role::Decides && t.name.replace(['_', '-'], "") == l)
        });
        let splits = (0..script.commands.len())
            .filter(|&i| script.is_check(&script.commands[i].kind))
            .filter_map(|i| {
                let run = script.commands[..i].iter().rev().take_while(|c| edit::scopable(&c.kind)).count();
                let asserts: Vec<usize> =
                    (i - run..i).filter(|&k| matches!(script.commands[k].kind, CommandKind::Assert(_))).collect();
                (!asserts.is_empty()).then_some((i, asserts))
            })
            .collect();
        Prepared { script, checks, options, logic_tactic, splits, inner: opfuzz::Prepared::new(script), weights: None }
    }

    /// Draws tactics, parameters and options by these weights ([`Learning::weights`])
    /// instead of uniformly (`None`).
    pub fn set_weights(&mut self, weights: Option<std::collections::HashMap<String, f64>>) {
        self.weights = weights;
    }

    /// One of `items` (non-empty), uniformly or by learned weight of `key(item)`.
    fn pick<T: Copy>(&self, items: &[T], key: impl Fn(T) -> String, c: &mut impl Choices) -> Option<T> {
        let Some(w) = &self.weights else { return items.get(c.below(items.len())?).copied() };
        let ws: Vec<f64> = items.iter().map(|&i| w.get(&key(i)).copied().unwrap_or(1.0)).collect();
        let total: f64 = ws.iter().sum();
        // A draw of 2^20 steps keeps the choice a function of the choice source.
        let mut x = c.below(1 << 20)? as f64 / (1u64 << 20) as f64 * total;
        for (i, wi) in ws.iter().enumerate() {
            if x < *wi {
                return Some(items[i]);
            }
            x -= wi;
        }
        items.last().copied()
    }

    /// Whether the solver's table has a tactic that decides (a pipeline ends in one).
    fn has_tactics(&self) -> bool {
        self.options.tactics.iter().any(|t| t.role == Role::Decides)
    }

    /// Places the engine can change: the check-sats it can ask again through a tactic
    /// (none when the solver gave no table), those it can frame incrementally, and the
    /// script's start where options are set (when a table has options).
    pub fn sites(&self) -> usize {
        let asked_again = if self.has_tactics() { self.checks.len() } else { 0 };
        let options = (!self.options.set_options.is_empty() && !self.checks.is_empty()) as usize;
        asked_again + self.splits.len() + options
    }
}

/// One to three distinct options of the table, each with a value other than its default.
fn option_values(p: &Prepared, c: &mut impl Choices) -> Option<Vec<(String, String)>> {
    let table = &p.options.set_options;
    let mut out: Vec<(String, String)> = vec![];
    for _ in 0..=c.below(3)? {
        let ks: Vec<usize> = (0..table.len()).collect();
        let o = &table[p.pick(&ks, |k| format!("option:{}", table[k].name), c)?];
        if !out.iter().any(|(n, _)| *n == o.name) {
            out.push((o.name.clone(), value(o, c)?));
        }
    }
    Some(out)
}

/// A value for `p` other than its default, from those the solver accepted.
fn value(p: &Param, c: &mut impl Choices) -> Option<String> {
    p.values.get(c.below(p.values.len().max(1))?).cloned()
}

/// A tactic, under `using-params` with one to three of its parameters half the time.
fn tactic(p: &Prepared, t: usize, c: &mut impl Choices) -> Option<String> {
    let tac = &p.options.tactics[t];
    if tac.params.is_empty() || c.below(2)? == 0 {
        return Some(tac.name.clone());
    }
    let mut out = format!("(using-params {}", tac.name);
    let mut used: Vec<usize> = vec![];
    for _ in 0..=c.below(3)? {
        let ks: Vec<usize> = (0..tac.params.len()).collect();
        let k = p.pick(&ks, |k| format!("param:{}", tac.params[k].name), c)?;
        if used.contains(&k) {
            continue;
        }
        used.push(k);
        let param = &tac.params[k];
        out.push_str(&format!(" :{} {}", param.name, value(param, c)?));
    }
    out.push(')');
    Some(out)
}

/// A pipeline: zero to three distinct transforming tactics, then a deciding one (`smt`
/// half the time, the logic's own strategy a quarter, any other a quarter).
pub fn pipeline(p: &Prepared, c: &mut impl Choices) -> Option<String> {
    let tactics = &p.options.tactics;
    let transforms: Vec<usize> = (0..tactics.len()).filter(|&i| tactics[i].role == Role::Transforms).collect();
    let decides: Vec<usize> = (0..tactics.len()).filter(|&i| tactics[i].role == Role::Decides).collect();
    if decides.is_empty() {
        return None;
    }
    let mut steps = vec![];
    if !transforms.is_empty() {
        let mut picked: Vec<usize> = vec![];
        for _ in 0..c.below(4)? {
            let t = p.pick(&transforms, |t| format!("tactic:{}", tactics[t].name), c)?;
            if !picked.contains(&t) {
                picked.push(t);
                steps.push(tactic(p, t, c)?);
            }
        }
    }
    let smt = tactics.iter().position(|t| t.name == "smt");
    let end = match c.below(4)? {
        0 | 1 if smt.is_some() => smt,
        2 if p.logic_tactic.is_some() => p.logic_tactic,
        _ => None,
    }
    .map_or_else(|| p.pick(&decides, |t| format!("tactic:{}", tactics[t].name), c), Some)?;
    steps.push(tactic(p, end, c)?);
    Some(if steps.len() == 1 { steps.pop()? } else { format!("(then {})", steps.join(" ")) })
}

/// One mutant: the seed or an OpFuzz mutant of it, with one check-sat asked again:
/// through a tactic pipeline, or (half the time when both can be done) inside a scope
/// and again after it (every solver family reads that).
pub fn mutate_prepared(p: &Prepared, c: &mut impl Choices) -> Option<(Vec<Edit>, Script)> {
    if p.sites() == 0 {
        return None;
    }
    // Options (cvc5's, bitwuzla's) half the time when there are any, and always when
    // nothing can be asked again. A check is asked again whenever one can be: options
    // ride along with it rather than take its place, since the self-contradictions of z3
    // under a tactic were most of what this engine found (BENCHMARKS.md, sessions 14 and
    // 18: its share of tactic mutants fell from all to three in eight when options came,
    // and with it the z3 findings). The framing takes one check in four when z3's
    // tactics are there, every one when they are not.
    let can_ask = (p.has_tactics() && !p.checks.is_empty()) || !p.splits.is_empty();
    let set = !p.options.set_options.is_empty() && !p.checks.is_empty() && (!can_ask || c.below(2)? == 0);
    let again = if !can_ask {
        None
    } else if !p.splits.is_empty() && (!p.has_tactics() || p.checks.is_empty() || c.below(4)? == 0) {
        // The scope takes the last k assertions before the check, at least one.
        let (check, asserts) = &p.splits[c.below(p.splits.len())?];
        Some(Edit::PushSplit { check: *check, from: asserts[c.below(asserts.len())?] })
    } else {
        let after = p.checks[c.below(p.checks.len())?];
        Some(Edit::AskAgain { after, tactic: pipeline(p, c)? })
    };
    let mut edits = if c.below(2)? == 0 {
        opfuzz::mutate_prepared(&p.inner, c).map(|(e, _)| e).unwrap_or_default()
    } else {
        vec![]
    };
    // Formula edits first: they address terms by command index, which the inserted
    // commands after them do not shift; options last, before every command.
    edits.extend(again);
    if set {
        edits.push(Edit::SetOptions { options: option_values(p, c)? });
    }
    let m = edit::apply_unchecked(p.script, &edits).ok()?;
    Some((edits, m))
}

/// How many configured variants of a solver whose options are command-line ones (yices)
/// a campaign asks besides the plain solver: each is a session of its own answering
/// every mutant, so each costs about what the plain solver costs.
pub const VARIANTS: usize = 2;

/// Configured variants of `spec` from its command-line table (yices; empty for others):
/// the first under `--mcsat` (yices' second decision procedure, the option that changes
/// the most) with one of MCSat's own options half the time, the others with one or two
/// options drawn from the whole table. Each is a solver of its own, named by its flags
/// (`yices+mcsat+mcsat-nra-nlsat`), of the same family and release: it votes with the
/// plain solver, and where the two disagree with another family backing one side the
/// other is blamed, with its command line in the report. Deterministic from `c`.
pub fn command_line_variants(
    spec: &crate::solver::SolverSpec,
    t: &[Param],
    c: &mut impl Choices,
) -> Vec<crate::solver::SolverSpec> {
    let mut out: Vec<crate::solver::SolverSpec> = vec![];
    for i in 0..VARIANTS * 3 {
        if out.len() == VARIANTS || t.is_empty() {
            break;
        }
        let mut chosen: Vec<(String, String)> = vec![];
        let mcsat = t.iter().find(|p| p.name == "mcsat");
        let own: Vec<&Param> = t.iter().filter(|p| p.name.starts_with("mcsat-")).collect();
        if let (0, Some(m)) = (i, mcsat) {
            chosen.push((m.name.clone(), "true".into()));
            if !own.is_empty() && c.below(2) == Some(0) {
                let Some(o) = c.below(own.len()).map(|k| own[k]) else { break };
                let Some(v) = value(o, c) else { break };
                chosen.push((o.name.clone(), v));
            }
        } else {
            let Some(n) = c.below(2) else { break };
            for _ in 0..=n {
                let Some(o) = c.below(t.len()).map(|k| &t[k]) else { break };
                let Some(v) = value(o, c) else { break };
                if !chosen.iter().any(|(m, _)| *m == o.name) {
                    chosen.push((o.name.clone(), v));
                }
            }
        }
        let args = crate::solver::options::command_line_args(&chosen);
        let name = std::iter::once(spec.name.clone())
            .chain(args.iter().map(|a| a.trim_start_matches('-').to_string()))
            .collect::<Vec<_>>()
            .join("+");
        if args.is_empty() || out.iter().any(|v| v.name == name) {
            continue;
        }
        let mut v = spec.clone();
        v.name = name;
        v.command.extend(args);
        out.push(v);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutate::choice::Rng;
    use crate::solver::options::{ParamKind, Tactic};

    fn options() -> Options {
        let t = |name: &str, role, params: Vec<Param>| Tactic { name: name.into(), role, params };
        let p = |name: &str, kind, d: &str| {
            let mut p = Param { name: name.into(), kind, default: Some(d.into()), values: vec![] };
            p.values = p.candidates();
            p
        };
        Options {
            tactics: vec![
                t("simplify", Role::Transforms, vec![p("som", ParamKind::Bool, "false")]),
                t("solve-eqs", Role::Transforms, vec![]),
                t("qflia", Role::Decides, vec![]),
                t(
                    "smt",
                    Role::Decides,
                    vec![p("arith.solver", ParamKind::UInt, "6"), p("random_seed", ParamKind::UInt, "0")],
                ),
            ],
            ..Options::default()
        }
    }

    /// Deterministic from the seed, replays from its edit list, every mutant parses and
    /// sort-checks with the seed's check-sat asked again right after it.
    #[test]
    fn mutants_ask_the_same_question_again_and_replay() {
        let seed = crate::smtlib::parse(
            "(set-logic QF_LIA)(declare-const x Int)(assert (> x (+ 1 2)))(check-sat)(get-model)(get-value (x))(push 1)(assert (< x 9))(check-sat)(pop 1)",
        )
        .unwrap();
        let o = options();
        let p = Prepared::new(&seed, &o);
        assert_eq!(p.sites(), 4);
        assert_eq!(p.logic_tactic, Some(2));
        let mut made = 0;
        let mut split = 0;
        let mut tactics = std::collections::BTreeSet::new();
        for i in 0..400u64 {
            let (edits, m) = mutate_prepared(&p, &mut Rng::new(i)).unwrap();
            let again = mutate_prepared(&p, &mut Rng::new(i)).unwrap();
            assert_eq!(edits, again.0);
            assert_eq!(crate::smtlib::print(&m), crate::smtlib::print(&edit::apply(&seed, &edits).unwrap()));
            if let Some(Edit::PushSplit { check, from }) = edits.last() {
                // The check inside the new scope and the one after it ask one question.
                assert!((*check, *from) == (3, 2) || (*check, *from) == (8, 7), "{edits:?}");
                let text = crate::smtlib::print(&m);
                assert_eq!(crate::smtlib::checks(&m), 3, "{text}");
                let f = crate::smtlib::framing::framing(&m);
                let asked = if *check == 3 { [0, 1] } else { [1, 2] };
                assert_eq!(f.epochs[asked[0]], f.epochs[asked[1]], "{text}");
                assert_eq!(m.commands.len(), seed.commands.len() + 4, "{text}");
                split += 1;
                continue;
            }
            let Some(Edit::AskAgain { after, tactic }) = edits.last() else { panic!("{edits:?}") };
            assert!(*after == 3 || *after == 8);
            assert_eq!(m.commands.len(), seed.commands.len() + 1);
            // After the commands that read the first answer (the model, the values).
            let at = if *after == 3 { 6 } else { 9 };
            assert!(m.is_check(&m.commands[at].kind), "{}", crate::smtlib::print(&m));
            assert_eq!(crate::smtlib::checks(&m), 3);
            let text = crate::smtlib::print(&m);
            assert!(text.contains(&format!("(check-sat-using {tactic})")), "{text}");
            tactics.insert(tactic.clone());
            made += 1;
        }
        assert_eq!(made + split, 400);
        // A tactic three times in four, the framing once: z3 asked again through a tactic
        // is what found most (BENCHMARKS.md, session 14).
        assert!((70..130).contains(&split) && made > 270, "{split} incremental, {made} through tactics");
        // Pipelines vary: bare deciders, using-params, then-chains.
        assert!(tactics.len() > 30, "{tactics:?}");
        assert!(tactics.iter().any(|t| t.starts_with("(then ")));
        assert!(tactics.iter().any(|t| t.contains(":arith.solver ")));
        assert!(tactics.iter().any(|t| t == "qflia"));
        // No table: incremental framing only; and nothing without an assertion to scope.
        let empty = Options::default();
        assert_eq!(Prepared::new(&seed, &empty).sites(), 2);
        let (e, _) = mutate_prepared(&Prepared::new(&seed, &empty), &mut Rng::new(1)).unwrap();
        assert!(matches!(e.last(), Some(Edit::PushSplit { .. })), "{e:?}");
        let bare = crate::smtlib::parse("(declare-const x Int)(check-sat)").unwrap();
        assert!(mutate_prepared(&Prepared::new(&bare, &empty), &mut Rng::new(1)).is_none());
    }

    /// With a cvc5 table, half the mutants set one to three of its options (before every
    /// command, values from the table), with a check asked again whenever one can be and
    /// alone when none can; deterministic and replayed from the edit list like the others.
    #[test]
    fn mutants_set_options_from_the_table_and_replay() {
        let seed = crate::smtlib::parse("(set-logic QF_LIA)(declare-const x Int)(assert (> x 3))(check-sat)").unwrap();
        let mut o = options();
        let mode = |name: &str, values: &[&str]| Param {
            name: name.into(),
            kind: ParamKind::Mode,
            default: None,
            values: values.iter().map(|v| v.to_string()).collect(),
        };
        o.set_options = vec![mode("simplification", &["none"]), mode("decision", &["justification", "stoponly"])];
        let p = Prepared::new(&seed, &o);
        assert_eq!(p.sites(), 3);
        let (mut set, mut alone) = (0, 0);
        for i in 0..300u64 {
            let (edits, m) = mutate_prepared(&p, &mut Rng::new(i)).unwrap();
            assert_eq!(edits, mutate_prepared(&p, &mut Rng::new(i)).unwrap().0);
            let text = crate::smtlib::print(&m);
            assert_eq!(text, crate::smtlib::print(&edit::apply(&seed, &edits).unwrap()));
            let Some(Edit::SetOptions { options }) = edits.last() else { continue };
            set += 1;
            alone += (edits.len() == 1) as usize;
            assert!((1..=2).contains(&options.len()), "{options:?}");
            let lines: Vec<&str> = text.lines().collect();
            for (k, (n, v)) in options.iter().enumerate() {
                assert_eq!(lines[k], format!("(set-option :{n} {v})"), "{text}");
                assert!(o.set_options.iter().any(|p| p.name == *n && p.values.contains(v)));
            }
        }
        assert!(set > 100 && set < 200 && alone == 0, "{set} with options, {alone} with options alone");
        // Nothing to ask again (no tactics, no assertion to scope): options alone, always.
        let bare = crate::smtlib::parse("(set-logic QF_LIA)(declare-const x Int)(check-sat)").unwrap();
        let only = Options { set_options: o.set_options.clone(), ..Options::default() };
        let p = Prepared::new(&bare, &only);
        for i in 0..50u64 {
            let (edits, _) = mutate_prepared(&p, &mut Rng::new(i)).unwrap();
            assert!(matches!(edits.last(), Some(Edit::SetOptions { .. })), "{edits:?}");
            alone += (edits.len() == 1) as usize;
        }
        assert!(alone > 15, "{alone} of 50 with options alone");
        // A bad name or value is refused, not printed.
        let bad = Edit::SetOptions { options: vec![("a b".into(), "x".into())] };
        assert!(edit::apply(&seed, &[bad]).is_err());
    }

    /// What the campaign learns: the keys of a mutant's configuration, counted per logic;
    /// an option that changed behaviour weighs more than an untried one, one that never
    /// did less (never 0), and a learned choice prefers the heavy ones, deterministically.
    #[test]
    fn learning_weights_what_changed_behaviour() {
        let edits = vec![
            Edit::AskAgain {
                after: 3,
                tactic: "(then simplify (using-params smt :arith.solver 2 :relevancy 0))".into(),
            },
            Edit::SetOptions { options: vec![("decision".into(), "justification".into())] },
        ];
        assert_eq!(
            Learning::keys(&edits),
            ["option:decision", "param:arith.solver", "param:relevancy", "tactic:simplify", "tactic:smt"]
        );
        let mut l = Learning::default();
        for i in 0..10 {
            l.record("QF_LIA", &["tactic:simplify".into()], i < 8);
            l.record("QF_LIA", &["tactic:solve-eqs".into()], false);
        }
        let w = l.weights("QF_LIA");
        assert!(w["tactic:simplify"] > 1.4 && (w["tactic:solve-eqs"] - 0.1).abs() < 1e-9, "{w:?}");
        assert!(l.weights("QF_BV").is_empty());
        assert_eq!(l.totals(), (2, 20, 8));
        let seed = crate::smtlib::parse("(set-logic QF_LIA)(declare-const x Int)(assert (> x 3))(check-sat)").unwrap();
        let o = options();
        let mut p = Prepared::new(&seed, &o);
        p.set_weights(Some(w));
        let transforms = [0usize, 1];
        let (mut simplify, mut solve_eqs) = (0, 0);
        for i in 0..400u64 {
            let t = p.pick(&transforms, |t| format!("tactic:{}", o.tactics[t].name), &mut Rng::new(i)).unwrap();
            assert_eq!(Some(t), p.pick(&transforms, |t| format!("tactic:{}", o.tactics[t].name), &mut Rng::new(i)));
            if t == 0 {
                simplify += 1
            } else {
                solve_eqs += 1
            }
        }
        assert!(simplify > 8 * solve_eqs && solve_eqs > 0, "{simplify} against {solve_eqs}");
    }
}

/// The configuration engine as a [`super::Mutator`]: the campaign's learned weights come
/// in through [`super::Ctx::weights`], and [`super::Mutator::post_exec`] says what each
/// mutant taught ([`Learning`]).
#[derive(Default)]
pub struct ConfigEngine<'s> {
    seed: Option<Prepared<'s>>,
    solvers: &'s [crate::solver::SolverSpec],
    baseline: Vec<Option<(Vec<&'static str>, std::time::Duration)>>,
}

impl<'s> super::Mutator<'s> for ConfigEngine<'s> {
    fn prepare(&mut self, seed: &'s Script, ctx: &mut super::Ctx<'s, '_>) -> Result<(), super::Skip> {
        self.solvers = ctx.solvers;
        self.baseline = std::mem::take(&mut ctx.baseline);
        let p = self.seed.get_or_insert_with(|| Prepared::new(seed, ctx.options));
        if let Some((learning, logic)) = ctx.learning {
            // What the campaign has learned so far of this logic's configurations.
            p.set_weights(Some(learning.lock().unwrap_or_else(|e| e.into_inner()).weights(logic)));
        }
        Ok(())
    }
    fn mutate(&mut self, rng_seed: u64) -> Option<super::Mutant> {
        let (edits, m) = mutate_prepared(self.seed.as_ref()?, &mut super::choice::Rng::new(rng_seed))?;
        Some(super::Mutant::of_script(self.solvers, rng_seed, edits, m, true))
    }
    /// Counts a configuration mutant for the engine's learning: only one whose edits are
    /// all configuration (a formula edit would change behaviour by itself), and only the
    /// solvers its edits address (z3 for a tactic, cvc5 for options). It had an effect
    /// when one of them answered a check-sat with an outcome the seed never got, or took
    /// over twice or under half the seed's time (where either is over 20 ms: below that,
    /// time is noise).
    fn post_exec(&mut self, m: &super::Mutant, rs: &[Option<&crate::solver::QueryResult>]) -> Option<super::Learned> {
        use crate::solver::Family;
        let edits = &m.edits;
        if !edits.iter().all(|e| matches!(e, Edit::AskAgain { .. } | Edit::SetOptions { .. } | Edit::PushSplit { .. }))
        {
            return None;
        }
        let keys = Learning::keys(edits);
        if keys.is_empty() {
            return None;
        }
        // Every solver of the campaign carries its option tables' owners.
        let owners = self.solvers.first().map(|s| s.option_owners.clone()).unwrap_or_default();
        let families: Vec<Family> = edits
            .iter()
            .flat_map(|e| match e {
                Edit::AskAgain { .. } => vec![Family::Z3],
                Edit::SetOptions { options } => {
                    options.iter().filter_map(|(n, _)| owners.owner(&format!(":{n}"))).collect()
                }
                _ => vec![],
            })
            .collect();
        let mut seen = false;
        let mut effect = false;
        for (k, r) in rs.iter().enumerate() {
            let (Some(r), Some(Some((names, wall)))) = (r, self.baseline.get(k)) else { continue };
            if !families.contains(&self.solvers[k].family) {
                continue;
            }
            seen = true;
            let new_outcome = r.outcomes.iter().any(|o| !names.contains(&o.name()));
            let (a, b) = (r.wall.as_secs_f64(), wall.as_secs_f64());
            let new_time = a.max(b) > 0.020 && (a > 2.0 * b || 2.0 * a < b);
            effect |= new_outcome || new_time;
        }
        seen.then_some(super::Learned { keys, effect })
    }
}
