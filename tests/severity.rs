//! Severity and priority (issue 39) on findings real solvers produce: a finding that
//! needs a tactic z3's maintainers disown is stored, ranked last and marked with their
//! words, in the campaign's report and on its own page.

mod common;
use common::*;

/// Every tactic the caveats table names is a tactic the newest installed z3 lists: a
/// renamed tactic would silently stop being marked.
#[test]
fn every_marked_tactic_is_one_z3_has() {
    let z3 = solver_bin("z3-5.4.0/bin/z3");
    let listed = std::process::Command::new(&z3).arg("-tactics").output().unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout);
    let names: Vec<&str> =
        listed.lines().filter_map(|l| l.trim().strip_prefix("- ")?.split_whitespace().next()).collect();
    assert!(names.len() > 50, "z3 -tactics listed {} tactics", names.len());
    let mut checked = 0;
    for c in smtstorm::solver::caveats::CAVEATS {
        if let smtstorm::solver::caveats::Subject::Tactic(t) = c.subject {
            assert!(names.contains(&t), "z3 5.4.0 has no tactic {t}");
            checked += 1;
        }
    }
    assert!(checked >= 4, "{checked}");
}

/// The `smtfd` array crash (every z3 from 4.8.12 to 5.4.0 dies on it) triaged into a
/// store: its priority is P4, the report's row and the finding's page say why and cite
/// the maintainers.
#[test]
fn a_finding_under_a_disowned_tactic_is_ranked_last_and_says_why() {
    let dir = tempdir("severity-smtfd");
    let art = dir.join("art");
    std::fs::create_dir_all(&art).unwrap();
    std::fs::write(
        art.join("crash-smtfd"),
        "(declare-fun A () (Array Int Real))\n(assert (< (select A 1) (select A 0)))\n(check-sat-using smtfd)\n",
    )
    .unwrap();
    let out = dir.join("store");
    let (code, printed, err) = smtstorm(&[
        "triage",
        art.to_str().unwrap(),
        "--solver",
        "z3-5.4.0",
        "--solver",
        "cvc5",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 10, "{printed}{err}");
    let found = smtstorm::store::Store::list_in(&out);
    assert_eq!(found.len(), 1, "{printed}");
    let (meta, m) = &found[0];
    assert_eq!(m.kind.as_str(), "crash");
    let f = smtstorm::store::FindingDir::of_meta(meta).unwrap();
    let campaign = smtstorm::store::CampaignFile::read(&out).unwrap().unwrap();
    let sev = smtstorm::store::severity::of_finding(&f, m, &campaign.solvers);
    assert_eq!(sev.priority(), smtstorm::store::severity::Priority::P4, "{sev:?}");
    assert_eq!(sev.caveats.iter().map(|c| c.name()).collect::<Vec<_>>(), ["smtfd"]);
    let (code, printed, err) = smtstorm(&["report", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{printed}{err}");
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("| P4 · crash · tactics · `smtfd` is partial by its maintainers |"), "{report}");
    let page = std::fs::read_to_string(f.report_md_path()).unwrap();
    assert!(page.contains("Priority: P4") && page.contains("Z3Prover/z3#6002"), "{page}");
    let _ = std::fs::remove_dir_all(&dir);
}
