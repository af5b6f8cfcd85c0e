//! BanditFuzz and its generator end to end with real solvers: generated scripts are
//! accepted by z3 and cvc5; a run keeps benchmarks whose margins only grow, re-scores
//! them, plots them and replays its decisions exactly from its recorded timings; a
//! target crash on the way is stored as a finding with the script that crashed; the
//! baselines behave as baselines.

mod common;

use common::{repo, smtstorm, solver_bin, tempdir};
use smtstorm::bandit::{Decision, PerfMeta, Summary};
use smtstorm::generate::acceptance;
use smtstorm::solver::Registry;
use std::path::Path;
use std::time::Duration;

fn decisions(out: &Path) -> Vec<Decision> {
    std::fs::read_to_string(out.join("decisions.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn summary(out: &Path) -> Summary {
    serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap()
}

const BV: &[&str] = &["--theories", "bv", "--width", "8,16", "--timeout", "1", "--keep", "3", "--repeats", "3"];

fn bandit(out: &Path, extra: &[&str]) -> (i32, String, String) {
    let o = out.display().to_string();
    let mut args = vec!["bandit", "--target", "z3-4.8.7", "--reference", "z3-5.4.0", "--out", &o];
    args.extend_from_slice(BV);
    args.extend_from_slice(extra);
    smtstorm(&args)
}

#[test]
fn generated_scripts_are_accepted_by_z3_and_cvc5() {
    solver_bin("z3-5.4.0/bin/z3");
    let reg = Registry::load(&repo().join(".solvers/solvers.toml")).unwrap();
    let specs = vec![reg.get("z3-5.4.0").unwrap().clone(), reg.get("cvc5").unwrap().clone()];
    let rows = acceptance::run(&acceptance::combinations(), &specs, 12, 7, Duration::from_secs(1));
    assert_eq!(rows.len(), 2 * acceptance::combinations().len());
    for r in &rows {
        assert_eq!(r.scripts, 12);
        assert_eq!(r.error + r.crash, 0, "{}", acceptance::markdown(std::slice::from_ref(r)));
    }
    // Both answers occur: the generator is not writing trivial formulas only.
    assert!(rows.iter().map(|r| r.sat).sum::<usize>() > 0 && rows.iter().map(|r| r.unsat).sum::<usize>() > 0);
}

#[test]
fn a_run_keeps_improving_benchmarks_and_replays_its_decisions() {
    solver_bin("z3-4.8.7/bin/z3");
    let dir = tempdir("bandit-run");
    let live = dir.join("live");
    let (code, out, err) = bandit(&live, &["--iterations", "30", "--seed", "4"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("30 iterations"), "{out}");
    let d = decisions(&live);
    assert_eq!(d.len(), 30);
    assert_eq!(d[0].action, "sample", "nothing to mutate yet");
    // Kept benchmarks are exactly the improvements, with strictly growing margins.
    let improved: Vec<&Decision> = d.iter().filter(|x| x.improved).collect();
    assert!(!improved.is_empty());
    for w in improved.windows(2) {
        assert!(w[1].margin.unwrap() > w[0].margin.unwrap(), "{w:?}");
    }
    let perf = smtstorm::store::perf::perf_in(&live);
    assert_eq!(perf.len(), improved.len());
    for m in &perf {
        let text = std::fs::read_to_string(live.join("perf").join(&m.id).join("bench.smt2")).unwrap();
        assert_eq!(smtstorm::bandit::sha(&text)[..12], m.id, "bench.smt2 is the scored script");
        let s = smtstorm::smtlib::parse(&text).unwrap();
        assert!(smtstorm::smtlib::check::check(&s).is_clean());
        assert_eq!(m.timings.len(), 2, "one target and one reference run when found");
    }
    let rescored: Vec<&PerfMeta> = perf.iter().filter(|m| m.final_margin.is_some()).collect();
    assert_eq!(rescored.len(), perf.len().min(3));
    for m in &rescored {
        assert_eq!(m.final_par2.len(), 2);
    }
    // Action agent: updated once per decision made with a best in hand (all but the first).
    let agents: serde_json::Value = serde_json::from_slice(&std::fs::read(live.join("agents.json")).unwrap()).unwrap();
    let pulls: u64 = agents["actions"].as_array().unwrap().iter().map(|a| a["pulls"].as_u64().unwrap()).sum();
    assert_eq!(pulls, 29);
    let mutated = d.iter().filter(|x| x.action == "mutate").count() as u64;
    let cpulls: u64 = agents["constructs"].as_array().unwrap().iter().map(|a| a["pulls"].as_u64().unwrap()).sum();
    assert!(cpulls >= mutated, "every insertion (and failed attempt) updates the construct agent");
    assert!(std::fs::read_to_string(live.join("cactus.svg")).unwrap().contains("<polyline"));
    let (code, _, err) = smtstorm(&["report", &live.display().to_string()]);
    assert_eq!(code, 0, "{err}");
    let report = std::fs::read_to_string(live.join("report.md")).unwrap();
    assert!(report.contains(&format!("## Performance benchmarks (BanditFuzz): {}", perf.len())), "{report}");

    // Replaying the recorded timings with the same seed makes the same decisions and
    // keeps the same benchmarks with the same final scores, without running a solver.
    let replay = dir.join("replay");
    let timings = live.join("timings.jsonl").display().to_string();
    let (code, out, err) = bandit(&replay, &["--iterations", "30", "--seed", "4", "--replay", &timings]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(decisions(&replay), d);
    let (a, b) = (summary(&live), summary(&replay));
    assert_eq!((a.best_margin, a.cumulative_margin, a.kept), (b.best_margin, b.cumulative_margin, b.kept));
    // Another seed makes other decisions; the recorded timings then run out quickly.
    let other = dir.join("other");
    let (code, _, _) = bandit(&other, &["--iterations", "30", "--seed", "5", "--replay", &timings]);
    assert_eq!(code, 0);
    assert_ne!(decisions(&other), d);
}

#[test]
fn a_target_crash_is_a_finding_with_the_script_that_crashed() {
    let dir = tempdir("bandit-crash");
    let proxy = dir.join("fault_proxy.py");
    std::fs::copy(repo().join("tests/fixtures/fault_proxy.py"), &proxy).unwrap();
    // The generator's choices follow measured CPU times, which vary with the machine's
    // load: one operator alone was missing from all 25 scripts of a loaded CI run. Any of
    // these crashes the target, with one message each time: still one bug.
    let needles = ["bvudiv", "bvurem", "bvsdiv", "bvsrem", "bvsmod", "bvshl", "bvlshr", "bvashr"];
    let faults: Vec<String> = needles.iter().map(|n| format!("crash-if:{n}")).collect();
    let target = format!(
        "faulty=python3 {} {} {} -smt2",
        proxy.display(),
        faults.join(","),
        solver_bin("z3-5.4.0/bin/z3").display()
    );
    let out = dir.join("out");
    let o = out.display().to_string();
    let (code, stdout, err) = smtstorm(&[
        "bandit",
        "--target",
        &target,
        "--reference",
        "z3-5.4.0",
        "--out",
        &o,
        "--theories",
        "bv",
        "--iterations",
        "25",
        "--timeout",
        "2",
        "--seed",
        "1",
        "--keep",
        "1",
        "--repeats",
        "1",
    ]);
    assert_eq!(code, 0, "{stdout}{err}");
    let findings = smtstorm::store::Store::list_in(&out);
    assert_eq!(findings.len(), 1, "one crash bug however often it crashed: {stdout}");
    let (meta_path, meta) = &findings[0];
    assert_eq!((meta.kind.as_str(), meta.blamed.as_str()), ("crash", "faulty"));
    assert!(matches!(meta.origin, smtstorm::store::Origin::Bandit(_)), "{}", meta.origin);
    let trigger = std::fs::read_to_string(meta_path.parent().unwrap().join("trigger.smt2")).unwrap();
    assert!(needles.iter().any(|n| trigger.contains(n)), "the stored trigger is the script that crashed:\n{trigger}");
    // The generated script is the seed: hashed as campaigns hash theirs (issue 38).
    assert_eq!(meta.seed_hash, smtstorm::store::seed_hash(&trigger));
    let s: Summary = summary(&out);
    assert_eq!(s.findings, 1);
}

#[test]
fn baselines_use_only_their_own_agents() {
    solver_bin("z3-4.8.7/bin/z3");
    let dir = tempdir("bandit-baselines");
    let random = dir.join("random");
    let (code, _, err) = bandit(&random, &["--iterations", "12", "--strategy", "random"]);
    assert_eq!(code, 0, "{err}");
    assert!(decisions(&random).iter().all(|d| d.action == "sample" && d.construct.is_none()));
    let single = dir.join("single");
    let (code, _, err) = bandit(&single, &["--iterations", "16", "--strategy", "single"]);
    assert_eq!(code, 0, "{err}");
    let d = decisions(&single);
    assert!(d.iter().any(|d| d.action == "mutate") && d.iter().any(|d| d.action == "sample" && d.iteration > 0));
    let agents: serde_json::Value =
        serde_json::from_slice(&std::fs::read(single.join("agents.json")).unwrap()).unwrap();
    assert!(agents["actions"].as_array().unwrap().iter().all(|a| a["pulls"] == 0), "no action agent in single");
    let (code, _, err) = bandit(&dir.join("bad"), &["--strategy", "greedy"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unknown strategy"), "{err}");
}
