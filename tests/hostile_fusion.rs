//! Issue 37 ("a seed is untrusted input"): Semantic Fusion never captures a name. A symbol
//! one seed declares and the other uses as a theory symbol (or declares differently) is
//! renamed apart before fusing, so the fused script's satisfiability is the one it is
//! built to have, and a solver's answer against it is a finding only when it is one.

mod common;

use common::*;
use smtstorm::mutate::choice::Rng;
use smtstorm::mutate::fusion::{fuse, renamed_apart, Part, Recipe};
use smtstorm::mutate::scope::{Meaning, Scope};
use smtstorm::smtlib::ast::{AttrValue, Sexp, Term};
use smtstorm::smtlib::{self, check, Script};
use smtstorm::solver::{Family, Limits, Outcome};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

/// The shared cvc5 regression seeds, read in place (never copied into the repository).
fn shared(rel: &str) -> PathBuf {
    let p = repo().join("../shared/seeds/cvc5-regress").join(rel);
    assert!(p.is_file(), "{} is missing: the shared seeds belong beside the checkout", p.display());
    p
}

fn seed(rel: &str) -> Script {
    let mut s = smtlib::parse(&std::fs::read_to_string(shared(rel)).unwrap()).unwrap();
    smtstorm::mutate::edit::strip_status(&mut s);
    s
}

/// The pair of issue 37: `gauss_init_0030` declares `(declare-fun exp (Real) Real)`;
/// `issue8415-embed-arg` is unsatisfiable only because its `exp` is cvc5's built-in
/// exponential (`(= 0.0 (exp (exp 2.0)))`). Both are `unsat`, so their fusion is built to
/// be `unsat`; at 41afc40 the built-in was captured by the other seed's declaration and
/// cvc5 rightly answered `sat`. Every fusion of the pair, in both orders, over a range of
/// choice seeds, must be answered `unsat` or not at all by cvc5 and z3.
#[test]
fn the_exponential_of_one_seed_is_not_captured_by_the_others_declaration() {
    let gauss = seed("regress1/quantifiers/gauss_init_0030.fof.smt2");
    let embed = seed("regress0/nl/nta/issue8415-embed-arg.smt2");
    let z3 = real("z3-5.4.0/bin/z3", Family::Z3, &["-smt2"]);
    let cvc5 = py_solver("cvc5", Family::Cvc5);
    let limits = Limits { time: Duration::from_secs(3), grace: Duration::from_millis(500), ..Limits::default() };
    let work = tempdir("hostile-fusion-pair");
    let (mut fused, mut answered, mut wrong) = (0, 0, vec![]);
    for (a, b) in [(&gauss, &embed), (&embed, &gauss)] {
        let (pa, pb) = (Part::new(a).expect("fusable"), Part::new(b).expect("fusable"));
        for i in 0..6u64 {
            let Some((_, m)) = fuse(&pa, &pb, false, &mut Rng::new(i)) else { continue };
            fused += 1;
            for (spec, answer) in [&z3, &cvc5].iter().zip(ask_all(&[&z3, &cvc5], &m, &work, &limits)) {
                match answer {
                    Some(Outcome::Unsat) => answered += 1,
                    Some(Outcome::Sat) => {
                        wrong.push(format!("{}: sat where unsat is built:\n{}", spec.name, smtlib::print(&m)))
                    }
                    _ => {}
                }
            }
        }
    }
    eprintln!("{fused} fusions of the pair: {answered} unsat answers, {} sat", wrong.len());
    assert!(fused >= 6, "{fused} fusions");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let _ = std::fs::remove_dir_all(&work);
}

/// Where a non-local symbol occurrence of a fused script gets its meaning from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Source {
    Theory,
    Unknown,
    First,
    Second,
    Fusion,
}

/// Every symbol occurrence of `s` as (name, meaning), resolved by the sort checker's
/// scopes ([`Scope::meanings`]), in walk order.
fn meanings(s: &Script) -> Vec<(String, Meaning)> {
    let sc = Scope::new(s, &check::check(s));
    sc.meanings(s).into_iter().map(|(_, n, m)| (n.to_string(), m)).collect()
}

/// Term-level names `s` declares, `:named` labels included.
fn declared_names(s: &Script) -> BTreeSet<String> {
    let mut out: BTreeSet<String> =
        s.commands.iter().filter_map(|c| s.term_declared_name(&c.kind)).map(String::from).collect();
    for t in &s.terms {
        if let Term::Annot(_, attrs) = *t {
            for a in s.attr_list(attrs) {
                if let (":named", AttrValue::Sexp(v)) = (s.str(a.key), a.value) {
                    if let Sexp::Atom(_, v) = s.sexps[v.index()] {
                        out.insert(s.sym(v).to_string());
                    }
                }
            }
        }
    }
    out
}

/// How often each (name, source) occurs among the non-local occurrences of `s`; a
/// declared name's source is `own(name)`.
fn counts(s: &Script, own: &dyn Fn(&str) -> Option<Source>) -> Result<BTreeMap<(String, Source), usize>, String> {
    let mut out = BTreeMap::new();
    for (n, m) in meanings(s) {
        let src = match m {
            Meaning::Local => continue,
            Meaning::Theory => Source::Theory,
            Meaning::Unknown => Source::Unknown,
            Meaning::Declared(_) => own(&n).ok_or_else(|| format!("{n} is declared by neither seed"))?,
        };
        *out.entry((n, src)).or_insert(0) += 1;
    }
    Ok(out)
}

/// No symbol of the fusion of `a` and `b` changes meaning: renaming apart keeps every
/// occurrence of each seed denoting what it did (a theory symbol stays that symbol, a
/// declared one the same declaration), the seeds declare no name alike after it, and in
/// the fused script every name the seeds use denotes what it did in its seed: exactly as
/// many occurrences of each declared and unknown name (besides the fused `x`, `y`, `z`),
/// and no fewer of each theory symbol (the fusion adds its own).
fn no_symbol_changes_meaning(a: &Script, b: &Script, fused: &Script, r: &Recipe) -> Result<(), String> {
    let (a2, b2) = renamed_apart(a, b);
    for (s, s2) in [(a, &a2), (b, &b2)] {
        let (m, m2) = (meanings(s), meanings(s2));
        if m.len() != m2.len() {
            return Err(format!("renaming apart changed the number of occurrences: {} to {}", m.len(), m2.len()));
        }
        for ((n, x), (n2, y)) in m.iter().zip(&m2) {
            let same = match (x, y) {
                (Meaning::Declared(c), Meaning::Declared(d)) => c == d,
                (Meaning::Local, Meaning::Local) => true,
                _ => x == y && n == n2,
            };
            if !same {
                return Err(format!("renaming apart made {n} ({x:?}) into {n2} ({y:?})"));
            }
        }
    }
    let (da, db) = (declared_names(&a2), declared_names(&b2));
    let zs: BTreeSet<String> = r.pairs.iter().map(|p| p.z.clone()).collect();
    if let Some(n) = da.intersection(&db).next().or_else(|| da.union(&db).find(|n| zs.contains(*n))) {
        return Err(format!("{n} is declared twice after renaming apart"));
    }
    let source = |n: &str, side: Source| (da.contains(n) || db.contains(n)).then_some(side);
    let first = counts(&a2, &|n| source(n, Source::First))?;
    let second = counts(&b2, &|n| source(n, Source::Second))?;
    let own = |n: &str| {
        if da.contains(n) {
            Some(Source::First)
        } else if db.contains(n) {
            Some(Source::Second)
        } else {
            zs.contains(n).then_some(Source::Fusion)
        }
    };
    let fused_counts = counts(fused, &own)?;
    let fused_names: BTreeSet<&str> = r.pairs.iter().flat_map(|p| [&p.x, &p.y, &p.z]).map(String::as_str).collect();
    let mut seeds: BTreeMap<(String, Source), usize> = first;
    for (k, v) in second {
        *seeds.entry(k).or_insert(0) += v;
    }
    let keys: BTreeSet<&(String, Source)> = seeds.keys().chain(fused_counts.keys()).collect();
    for k in keys {
        if fused_names.contains(k.0.as_str()) {
            continue;
        }
        let (want, have) = (seeds.get(k).copied().unwrap_or(0), fused_counts.get(k).copied().unwrap_or(0));
        let ok = if k.1 == Source::Theory { have >= want } else { have == want };
        if !ok {
            return Err(format!("{} as {:?}: {want} occurrences in the seeds, {have} in the fusion", k.0, k.1));
        }
    }
    Ok(())
}

/// Hand-made seeds whose names clash with the other seed's theory symbols, with the
/// fusion's own symbols, or with the other seed's declarations of another sort.
const CLASHING: &[&str] = &[
    "(declare-fun exp (Real) Real)(declare-const r Real)(assert (= (exp r) 1.0))(check-sat)",
    "(set-logic ALL)(declare-const r Real)(assert (= 0.0 (exp (exp 2.0))))(assert (> r 0.0))(check-sat)",
    "(declare-fun div (Int Int) Int)(declare-const x Int)(assert (= (div x 2) 7))(check-sat)",
    "(declare-fun str.len (String) Int)(declare-const s String)(assert (= (str.len s) 9))(check-sat)",
    "(declare-const s String)(declare-const n Int)(assert (= (str.len s) n))(assert (= (div n 3) 1))(check-sat)",
    "(declare-sort U 0)(declare-fun f (U) Int)(declare-const x Int)(declare-const u U)(assert (= (f u) x))(check-sat)",
    "(declare-sort U 1)(declare-fun x () Int)(declare-fun g ((U Int)) Bool)(declare-const s String)(assert (> x 0))(check-sat)",
    "(declare-const x Int)(declare-const s String)(assert (! (> x 2) :named exp))(assert (= (str.len s) x))(check-sat)",
];

/// The property over every ordered pair of a deterministic sample of the shared seeds
/// (the first by content hash, the two of issue 37, and [`CLASHING`]), each pair fused
/// in both directions with a fixed choice seed. No solver: deterministic.
#[test]
fn fusion_never_changes_what_a_symbol_means() {
    const SAMPLE: usize = 45;
    let all = fusable_shared_seeds();
    let mut sample: Vec<(String, Script)> =
        all.iter().take(SAMPLE).map(|(f, s, _, _)| (f.display().to_string(), s.clone())).collect();
    for rel in ["regress1/quantifiers/gauss_init_0030.fof.smt2", "regress0/nl/nta/issue8415-embed-arg.smt2"] {
        sample.push((rel.into(), seed(rel)));
    }
    for (i, text) in CLASHING.iter().enumerate() {
        sample.push((format!("CLASHING[{i}]"), smtlib::parse(text).unwrap()));
    }
    let (mut checked, mut renamed, mut failures) = (0, 0, vec![]);
    for (i, (na, a)) in sample.iter().enumerate() {
        let pa = Part::new(a).unwrap_or_else(|| panic!("{na} is not fusable"));
        for (j, (nb, b)) in sample.iter().enumerate() {
            let pb = Part::new(b).unwrap();
            let sat = (i + j) % 2 == 0;
            let Some((r, m)) = fuse(&pa, &pb, sat, &mut Rng::new((i * sample.len() + j) as u64)) else { continue };
            checked += 1;
            let (a2, b2) = renamed_apart(a, b);
            renamed += usize::from(smtlib::print(&a2) != smtlib::print(a) || smtlib::print(&b2) != smtlib::print(b));
            if let Err(e) = no_symbol_changes_meaning(a, b, &m, &r) {
                failures.push(format!("{na} with {nb} (choice seed {}, sat {sat}): {e}", i * sample.len() + j));
            }
        }
    }
    eprintln!("{checked} fusions of {} seeds checked, {renamed} with names renamed apart", sample.len());
    assert!(checked >= 300 && renamed >= 20, "{checked} fusions checked, {renamed} renamed");
    assert!(failures.is_empty(), "{} of {checked} fusions change a meaning:\n{}", failures.len(), failures.join("\n"));
}
