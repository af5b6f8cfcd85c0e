//! Mutation engines on the shared seeds: sites, mutants per second per engine on one core,
//! and the share of mutants solvers accept without `(error`, per engine and theory; then
//! Boolean Expression Coercion against random value mutation on 20 seeds.
//!
//! `cargo bench --bench mutate -- [DIR] [SAMPLE_EVERY]` (default ../shared/seeds/cvc5-regress,
//! every 8th seed's first mutant per engine is sent to a solver). A mutant counts against
//! z3 5.4 when z3 reads its unmutated seed, else against cvc5 when cvc5 does (cvc5-only
//! syntax); seeds neither accepts are left out.

use smtstorm::mutate::{bec, choice::Rng, edit::strip_status, valfuzz, Engine, Prepared};
use smtstorm::smtlib::{ast::*, check, printer::term_to_string, theory, Script};
use smtstorm::solver::{session_text, Family, Limits, Outcome, Session, SolverSpec};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::{Duration, Instant};

/// The theory a seed is counted under: the most specific one it uses.
fn theory_of(s: &Script) -> &'static str {
    static ORDER: [(&str, &str); 10] = [
        ("FloatingPoint", "FP"),
        ("Strings", "Strings"),
        ("Seq", "Seq"),
        ("Sets", "Sets/Bags"),
        ("Bags", "Sets/Bags"),
        ("BitVectors", "BV"),
        ("ArraysEx", "Arrays"),
        ("Reals", "Reals"),
        ("RealsInts", "Reals"),
        ("Ints", "Ints"),
    ];
    let by_name: HashMap<&str, String> =
        theory::table().sigs.iter().map(|o| (o.name, format!("{:?}", o.theory))).collect();
    let mut used = BTreeSet::new();
    for t in &s.terms {
        if let Term::App(q, _) = t {
            if let Some(th) = by_name.get(s.sym(q.ident.sym)) {
                used.insert(th.clone());
            }
        }
    }
    for (th, label) in ORDER {
        if used.contains(th) {
            return label;
        }
    }
    if s.commands
        .iter()
        .any(|c| matches!(c.kind, CommandKind::DeclareDatatype(..) | CommandKind::DeclareDatatypes { .. }))
    {
        return "Datatypes";
    }
    "Core/UF"
}

fn spec(name: &str, family: Family, cmd: Vec<String>) -> SolverSpec {
    SolverSpec::new(name, family, cmd)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let dir = args.first().cloned().unwrap_or_else(|| "../shared/seeds/cvc5-regress".into());
    let every: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(8);
    let files = smtstorm::util::files::collect_smt2(&[dir.clone().into()]).expect("seed directory");
    let scripts: Vec<Script> =
        files.iter().filter_map(|f| smtstorm::smtlib::parse_bytes(&std::fs::read(f).unwrap()).ok()).collect();
    let checked: Vec<&Script> = scripts.iter().filter(|s| check::check(s).unknown_symbols.is_empty()).collect();
    println!("{dir}: {} sort-checked seeds", checked.len());

    let bec_only = args.get(2).is_some_and(|a| a == "bec");
    let mut samples: Vec<(Engine, usize, Script)> = vec![];
    for engine in Engine::SEED_ONLY {
        let prepared: Vec<Prepared> = checked.iter().map(|s| Prepared::new(engine, s)).collect();
        let with_site = prepared.iter().filter(|p| p.sites() > 0).count();
        let t0 = Instant::now();
        let mut n = 0usize;
        for (i, p) in prepared.iter().enumerate() {
            for k in 0..3 {
                if let Some((_, m)) = p.mutate(&mut Rng::new((i * 3 + k) as u64)) {
                    n += 1;
                    if k == 0 && i % every == 0 {
                        samples.push((engine, i, m));
                    }
                }
            }
        }
        let dt = t0.elapsed().as_secs_f64();
        println!(
            "{engine}: {with_site} / {} seeds with a site ({:.1}%); {n} mutants in {dt:.2} s = {:.0} mutants/s on one core",
            checked.len(),
            100.0 * with_site as f64 / checked.len() as f64,
            n as f64 / dt
        );
    }

    let z3 = std::path::Path::new(".solvers/z3-5.4.0/bin/z3");
    let cvc5 = std::path::Path::new(".solvers/cvc5/cvc5-smt2");
    if !z3.exists() || !cvc5.exists() {
        println!("z3 5.4.0 or cvc5 not installed (scripts/setup-solvers.sh): acceptance not measured");
        return;
    }
    let limits = Limits { time: Duration::from_secs(2), ..Limits::default() };
    let mut zs = Session::new(spec("z3-5.4.0", Family::Z3, vec![z3.display().to_string(), "-smt2".into()]), limits);
    let mut cs = Session::new(spec("cvc5", Family::Cvc5, vec![cvc5.display().to_string()]), limits);
    let rejects = |s: &mut Session, sc: &Script| -> Option<String> {
        let mut sc = sc.clone();
        strip_status(&mut sc);
        let (q, c) = session_text(&sc);
        match s.query(&q, c).outcome() {
            Outcome::Error { message } => Some(message.clone()),
            _ => None,
        }
    };
    // (engine, theory, solver) -> (accepted, rejected)
    let mut table: BTreeMap<(Engine, &str, &str), (u32, u32)> = BTreeMap::new();
    let mut seed_ok: HashMap<usize, Option<&str>> = HashMap::new();
    let mut rejected_examples: Vec<String> = vec![];
    for (engine, i, m) in samples.iter().filter(|_| !bec_only) {
        let seed = checked[*i];
        let who = *seed_ok.entry(*i).or_insert_with(|| {
            if Family::Z3.cannot_read(seed).is_none() && rejects(&mut zs, seed).is_none() {
                Some("z3-5.4.0")
            } else if rejects(&mut cs, seed).is_none() {
                Some("cvc5")
            } else {
                None
            }
        });
        let Some(who) = who else { continue };
        let sess = if who == "cvc5" { &mut cs } else { &mut zs };
        let e = table.entry((*engine, theory_of(seed), who)).or_default();
        match rejects(sess, m) {
            None => e.0 += 1,
            Some(msg) => {
                e.1 += 1;
                if rejected_examples.len() < 40 {
                    rejected_examples.push(format!("{engine} {who}: {msg}"));
                }
            }
        }
    }
    println!("\n| engine | theory | solver | accepted | share |\n|---|---|---|---|---|");
    let mut totals: BTreeMap<(Engine, &str), (u32, u32)> = BTreeMap::new();
    for ((engine, th, who), (ok, bad)) in &table {
        println!("| {engine} | {th} | {who} | {ok} / {} | {:.1} % |", ok + bad, 100.0 * *ok as f64 / (ok + bad) as f64);
        let t = totals.entry((*engine, who)).or_default();
        t.0 += ok;
        t.1 += bad;
    }
    println!("\n| engine | solver | accepted | share |\n|---|---|---|---|");
    for ((engine, who), (ok, bad)) in &totals {
        println!("| {engine} | {who} | {ok} / {} | {:.2} % |", ok + bad, 100.0 * *ok as f64 / (ok + bad) as f64);
    }
    println!("\nrejected (first 40):");
    for r in &rejected_examples {
        println!("  {r}");
    }

    // BEC vs random value mutation: distinct constant vectors over the same number of
    // attempts, on the first 20 seeds z3 reads that have ≥ 2 holes and a monitor.
    println!("\nBEC vs random value mutation (20 rounds each, z3 5.4 as the reference):");
    println!("| seed | holes | monitors | BEC: distinct vectors / mutants | random: distinct / mutants | monitors forceable both ways |");
    println!("|---|---|---|---|---|---|");
    let (mut bec_sum, mut rnd_sum, mut used, mut bec_made, mut bec_distinct) = (0.0, 0.0, 0, 0, 0);
    for (i, seed) in checked.iter().enumerate() {
        if used == 20 {
            break;
        }
        if seed_ok.get(&i).copied().flatten() != Some("z3-5.4.0")
            && !(Family::Z3.cannot_read(seed).is_none() && rejects(&mut zs, seed).is_none())
        {
            continue;
        }
        let p = valfuzz::Prepared::new(seed);
        let mut rng = Rng::new(i as u64);
        let Some(plan) = bec::bec_plan(&p, 16, &mut rng) else { continue };
        if plan.holes.len() < 2 {
            continue;
        }
        used += 1;
        let vector = |m: &Script| -> Vec<String> {
            // Constants of the hole sites, read back from the mutant at the same paths.
            plan.holes
                .iter()
                .map(|(k, _, _)| {
                    let path = p.scope.path(p.sites[*k].node);
                    smtstorm::mutate::edit::resolve(m, &path).map(|t| term_to_string(m, t)).unwrap_or_default()
                })
                .collect()
        };
        let rounds = 20;
        let mut seen_true_false = 0;
        let bec = bec::bec(&p, &plan, rounds, &mut rng, &mut |q| smtstorm::mutate::file::bec_answer(&mut zs, q));
        let bec_vecs: BTreeSet<Vec<String>> = bec.iter().map(|(_, m)| vector(m)).collect();
        // Coverage: ask once more for each monitor's value under each BEC mutant is costly;
        // count monitors whose both polarities were forced successfully instead.
        for (mi, _) in plan.monitors.iter().enumerate() {
            let both = [true, false].iter().all(|&pol| {
                matches!(
                    smtstorm::mutate::file::bec_answer(&mut zs, &plan.query(&p, &[(mi, pol)])),
                    bec::BecAnswer::Values(_)
                )
            });
            seen_true_false += both as usize;
        }
        let rnd_all: Vec<Vec<String>> = (0..rounds as u64)
            .filter_map(|k| valfuzz::mutate_prepared(&p, &mut Rng::new(1000 + k)))
            .map(|(_, m)| vector(&m))
            .collect();
        let rnd: BTreeSet<Vec<String>> = rnd_all.iter().cloned().collect();
        let path = files.iter().find(|f| {
            std::fs::read(f).ok().and_then(|b| smtstorm::smtlib::parse_bytes(&b).ok()).as_ref() == Some(*seed)
        });
        let name = path.map(|p| p.display().to_string()).unwrap_or_default();
        let name = name.rsplit("cvc5-regress/").next().unwrap_or(&name).to_string();
        println!(
            "| {name} | {} | {} | {} / {} | {} / {} | {seen_true_false} / {} |",
            plan.holes.len(),
            plan.monitors.len(),
            bec_vecs.len(),
            bec.len(),
            rnd.len(),
            rnd_all.len(),
            plan.monitors.len()
        );
        bec_sum += bec_vecs.len() as f64 / rounds as f64;
        rnd_sum += rnd.len() as f64 / rounds as f64;
        bec_made += bec.len();
        bec_distinct += bec_vecs.len();
    }
    println!(
        "distinct constant vectors per attempt (20 each): BEC {:.1} %, random {:.1} % ({used} seeds); BEC: {bec_distinct} distinct of {bec_made} mutants",
        100.0 * bec_sum / used.max(1) as f64,
        100.0 * rnd_sum / used.max(1) as f64
    );
}
