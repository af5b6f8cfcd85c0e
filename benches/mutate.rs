//! OpFuzz on the shared seeds: share of sort-checked seeds with a site, mutants per second
//! on one core, and the share of mutants z3 5.4 accepts without `(error`.
//!
//! `cargo bench --bench mutate -- [DIR] [SAMPLE_EVERY]` (default ../shared/seeds/cvc5-regress,
//! every 4th seed's first mutant is sent to z3). Seeds z3 rejects unmutated, or written in
//! cvc5-only syntax, are left out of the acceptance figure (they count against cvc5).

use smtstorm::mutate::{choice::Rng, edit::strip_status, opfuzz};
use smtstorm::solver::{session_text, Family, Limits, Outcome, Session, SolverSpec};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let dir = args.first().cloned().unwrap_or_else(|| "../shared/seeds/cvc5-regress".into());
    let every: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let files = smtstorm::tools::files::collect_smt2(&[dir.clone().into()]).expect("seed directory");
    let scripts: Vec<_> =
        files.iter().filter_map(|f| smtstorm::smtlib::parse_bytes(&std::fs::read(f).unwrap()).ok()).collect();
    let checked: Vec<_> =
        scripts.iter().filter(|s| smtstorm::smtlib::check::check(s).unknown_symbols.is_empty()).collect();
    let prepared: Vec<_> = checked.iter().map(|s| opfuzz::Prepared::new(s)).collect();
    let with_site = prepared.iter().filter(|p| !p.sites.is_empty()).count();
    println!(
        "{}: {} sort-checked seeds, {} with an OpFuzz site ({:.1}%)",
        dir,
        checked.len(),
        with_site,
        100.0 * with_site as f64 / checked.len() as f64
    );
    let t0 = Instant::now();
    let (mut n, mut sample) = (0usize, vec![]);
    for (i, p) in prepared.iter().enumerate() {
        for k in 0..3 {
            if let Some((_, m)) = opfuzz::mutate_prepared(p, &mut Rng::new((i * 3 + k) as u64)) {
                n += 1;
                if k == 0 && i % every == 0 {
                    sample.push((p.script, m));
                }
            }
        }
    }
    let dt = t0.elapsed().as_secs_f64();
    println!("{n} mutants in {dt:.2} s: {:.0} mutants/s on one core (seeds prepared once)", n as f64 / dt);

    let z3 = std::path::Path::new(".solvers/z3-5.4.0/bin/z3");
    if !z3.exists() {
        println!("z3 5.4.0 not installed (scripts/setup-solvers.sh): acceptance not measured");
        return;
    }
    let spec = SolverSpec {
        name: "z3-5.4.0".into(),
        family: Family::Z3,
        command: vec![z3.display().to_string(), "-smt2".into()],
        version: None,
        restart_every: None,
    };
    let mut s = Session::new(spec, Limits { time: Duration::from_secs(2), ..Limits::default() });
    let (mut ok, mut err, mut dialect, mut seed_rejected) = (0, 0, 0, 0);
    for (seed, m) in &sample {
        if Family::Z3.cannot_read(m).is_some() {
            dialect += 1;
            continue;
        }
        let mut seed = (*seed).clone();
        strip_status(&mut seed);
        let (q, c) = session_text(&seed);
        if matches!(s.query(&q, c).outcome(), Outcome::Error { .. }) {
            seed_rejected += 1;
            continue;
        }
        let mut m = m.clone();
        strip_status(&mut m);
        let (q, c) = session_text(&m);
        match s.query(&q, c).outcome() {
            Outcome::Error { message } => {
                err += 1;
                println!("  rejected: {message}");
            }
            _ => ok += 1,
        }
    }
    println!(
        "z3 5.4 accepts {ok} of {} sampled mutants ({:.2}%); left out: {dialect} in cvc5-only syntax, {seed_rejected} whose seed z3 rejects",
        ok + err,
        100.0 * ok as f64 / (ok + err).max(1) as f64
    );
}
