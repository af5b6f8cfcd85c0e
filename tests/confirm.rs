//! One confirmation, one verdict (issue 38): the same candidates go through the three
//! paths that confirm a bug — a campaign (`smtstorm triage`, which replays each file
//! through the campaign's oracles and `confirm_and_store`), the fuzz harness
//! (`harness::runner`) and the reducer's judge (`reduce::judge::FindingJudge::confirm`) —
//! and every path must give the same verdict: a real disagreement, a crash, a STORM
//! `unsat` with a valid witness confirmed; a non-bug (`unknown`), a dialect error and a
//! STORM instance whose witness is wrong refused by all three. Real solvers: z3 4.8.7
//! (known bugs; the installed z3 releases are its bisection ladder), cvc5 and yices.

mod common;

use common::tempdir;
use smtstorm::oracle::BugKind;
use smtstorm::reduce::judge::{FindingJudge, Symptom};
use smtstorm::reduce::Judge;
use smtstorm::solver::{Limits, Outcome, Registry};
use std::collections::BTreeSet;
use std::time::Duration;

const SOLVERS: [&str; 3] = ["z3-4.8.7", "cvc5", "yices"];

/// The STORM instance of `corpus/str_escapes_disjunct.smt2` that z3 4.8.7 answers `unsat`
/// (its pre-2.6 reading of `\u{41}`), with `witness` on its first line.
fn storm_instance(witness: &str) -> String {
    format!(
        "; smtstorm-witness: {witness}\n(set-logic QF_SLIA)\n(declare-const x Int)\n(declare-const s String)\n\
         (assert (= (str.len \"\\u{{41}}\") 1))\n(assert (or (= s \"\\u{{42}}\") (< x 10)))\n(check-sat)\n"
    )
}

/// (file name, text, the verdict every path must give: kind and blamed solver).
/// A candidate: file name, text, expected verdict.
type Candidate = (&'static str, String, Option<(BugKind, &'static str)>);

fn candidates() -> Vec<Candidate> {
    vec![
        // yices 2.6.5's let shadowing: z3 and cvc5 (two families) against yices.
        (
            "disagreement.smt2",
            "(set-logic QF_UF)\n(declare-const x Bool)\n(assert (let ((y (not (let ((y (not x))) (let ((x y) (y x)) (and x (not y))))))) (let ((x y) (y x)) (and x (not y)))))\n(check-sat)\n".into(),
            Some((BugKind::Soundness, "yices")),
        ),
        // z3's smtfd tactic segfaults (4.8.7 to 5.4.0); cvc5 reads a plain check-sat.
        (
            "crash.smt2",
            "(declare-fun A () (Array Int Real))\n(assert (< (select A 1) (select A 0)))\n(check-sat-using smtfd)\n".into(),
            Some((BugKind::Crash, "z3-4.8.7")),
        ),
        ("storm.smt2", storm_instance("((x 1) (s \"B\"))"), Some((BugKind::Soundness, "z3-4.8.7"))),
        // The same instance with a witness that does not satisfy it (x = 20, s = "C"):
        // z3 4.8.7 still answers unsat, but the generator, not z3, would be wrong.
        ("storm-bad-witness.smt2", storm_instance("((x 20) (s \"C\"))"), None),
        // z3's `fail` tactic answers `unknown` (never a bug); cvc5 answers sat.
        ("unknown.smt2", "(declare-const x Int)\n(assert (> x 0))\n(check-sat-using fail)\n".into(), None),
        // z3 4.8.7 does not know `str.to_int` (an error, a dialect matter); cvc5 does.
        (
            "dialect.smt2",
            "(set-logic QF_SLIA)\n(declare-const x Int)\n(assert (= (str.to_int \"12\") x))\n(check-sat)\n".into(),
            None,
        ),
    ]
}

type Verdicts = BTreeSet<(String, String)>;

fn named(v: Option<(BugKind, &str)>) -> Verdicts {
    v.into_iter().map(|(k, b)| (k.as_str().to_string(), b.to_string())).collect()
}

#[test]
fn campaign_harness_and_reducer_give_the_same_verdicts() {
    let dir = tempdir("one-confirmation");
    let art = dir.join("artifacts");
    std::fs::create_dir_all(&art).unwrap();
    let cands = candidates();
    for (name, text, _) in &cands {
        std::fs::write(art.join(name), text).unwrap();
    }
    let reg = Registry::load(&smtstorm::solver::registry::default_toml()).unwrap();
    let names: Vec<String> = SOLVERS.iter().map(|s| s.to_string()).collect();
    let specs = smtstorm::solver::resolve::resolve(&reg, &names).expect("run scripts/setup-solvers.sh");

    // The campaign path: triage replays each file through the campaign's oracles.
    let out = dir.join("store");
    let rep =
        smtstorm::campaign::triage::triage(std::slice::from_ref(&art), &names, &reg, &out, 0.0, 5.0, true).unwrap();
    assert_eq!(rep.artifacts, cands.len(), "{rep:?}");
    let stored = smtstorm::store::Store::list_in(&out);
    let campaign_of = |file: &str| -> Verdicts {
        stored
            .iter()
            .filter(|(_, m)| m.seed.ends_with(&format!("/{file}")))
            .map(|(_, m)| (m.kind.as_str().to_string(), m.blamed.clone()))
            .collect()
    };

    // The harness path: the fuzz targets' oracles on the same bytes.
    let mut h = smtstorm::harness::runner::Harness::new(specs.clone(), 1, Duration::from_secs(2), false).unwrap();
    let harness_of = |h: &mut smtstorm::harness::runner::Harness, text: &str| -> Verdicts {
        let found = if text.starts_with("; smtstorm-witness") {
            smtstorm::harness::runner::storm_input(h, text.as_bytes())
        } else {
            smtstorm::harness::runner::differential_input(h, text.as_bytes())
        };
        match found {
            smtstorm::harness::runner::Found::Finding { kind, solver, .. } => {
                [(kind.as_str().to_string(), solver)].into_iter().collect()
            }
            _ => Verdicts::new(),
        }
    };

    // The reducer path: a stored finding's judge confirms the candidate it came from; a
    // candidate with no finding is put to judges that claim the bug a session could have
    // suspected (z3 4.8.7 wrong against cvc5, or crashing), which must refuse it.
    let scratch = dir.join("judge");
    let reducer_of = |file: &str, text: &str| -> Verdicts {
        let mut v = Verdicts::new();
        for (path, m) in stored.iter().filter(|(_, m)| m.seed.ends_with(&format!("/{file}"))) {
            let (judge, _) =
                FindingJudge::for_finding(path.parent().unwrap(), &specs, Duration::from_secs(10), &scratch).unwrap();
            if judge.confirm(text) {
                v.insert((m.kind.as_str().to_string(), m.blamed.clone()));
            }
        }
        let z3_cvc5: Vec<_> = specs.iter().filter(|s| s.name != "yices").cloned().collect();
        let limits = Limits { time: Duration::from_secs(10), grace: Duration::from_millis(500), ..Limits::default() };
        let witness = smtstorm::mutate::storm::read_witness(text);
        let claims = [
            (Symptom::Answers { want: vec![Some(Outcome::Unsat), Some(Outcome::Sat)] }, witness.clone()),
            (Symptom::Crash { signature: "SIGSEGV".into(), frames: vec![] }, None),
        ];
        for (symptom, witness) in claims {
            let j = FindingJudge {
                solvers: z3_cvc5.clone(),
                symptom: symptom.clone(),
                witness,
                limits,
                dir: scratch.clone(),
                fresh_only: true.into(),
                keeps_logic: false,
                keep_passing: vec![],
            };
            if j.confirm(text) && !v.iter().any(|(_, b)| b == "z3-4.8.7") {
                let kind = if matches!(symptom, Symptom::Crash { .. }) { "crash" } else { "soundness" };
                v.insert((kind.into(), "z3-4.8.7".into()));
            }
        }
        v
    };

    let mut judged = 0;
    let mut refused = 0;
    for (name, text, want) in &cands {
        let want = named(*want);
        let campaign = campaign_of(name);
        let harness = harness_of(&mut h, text);
        let reducer = reducer_of(name, text);
        assert_eq!(
            (&campaign, &harness, &reducer),
            (&want, &want, &want),
            "{name}: campaign, harness and reducer against the expected verdict"
        );
        judged += 1;
        refused += want.is_empty() as usize;
    }
    assert_eq!(judged, cands.len());
    assert!(refused >= 3 && judged > refused, "{judged} judged, {refused} refused");
    // Triage's own account agrees: three files reproduce, three do not.
    assert_eq!((rep.reproduced, rep.not_reproduced.len()), (3, 3), "{rep:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
