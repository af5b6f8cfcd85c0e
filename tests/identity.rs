//! Issue 39: one finding per cause. After reduction a finding's identity is its family,
//! its crash state or the reduced trigger's normalised shape; findings whose identities
//! meet are one finding (the others kept as instances), with a regression range computed
//! on the reduced trigger over the family's installed releases, and a finding that only
//! old releases show because they read the text under another meaning is a dialect
//! difference. Every test runs the real solvers through `smtstorm triage`.

mod common;

use common::{repo, smtstorm, solver_bin, tempdir};
use smtstorm::store::identity::ProbeVerdict;
use smtstorm::store::{Meta, Store};
use std::path::{Path, PathBuf};

/// `smtstorm triage FILE --solver ... --out OUT --quiet [--reduce S]`: its exit status
/// must be 10 (solver findings stored).
fn triage(art: &Path, solvers: &[&str], out: &Path, reduce: &str) {
    let mut args = vec!["triage", art.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet", "--reduce", reduce];
    for s in solvers {
        args.extend(["--solver", s]);
    }
    let (code, printed, err) = smtstorm(&args);
    assert_eq!(code, 10, "{printed}{err}");
}

fn findings(out: &Path) -> Vec<(PathBuf, Meta)> {
    Store::list_in(out)
}

/// The smtfd array crash (every z3 from 4.8.7 to 5.4.0; 4.8.5 has no `smtfd`) found on
/// 4.8.12 and on 5.4.0 is stored twice (dedup keys hold the release, and gdb's frames
/// differ between the two builds); reduced and regrouped by `smtstorm report --regroup`,
/// it is one finding of z3 with its range, the other an instance, and the report says
/// the range.
#[test]
fn one_crash_on_two_releases_is_one_finding_with_its_range() {
    solver_bin("z3-4.8.12/bin/z3");
    solver_bin("z3-5.4.0/bin/z3");
    let dir = tempdir("identity-smtfd");
    let art = dir.join("crash-smtfd.smt2");
    std::fs::write(
        &art,
        "(declare-fun A () (Array Int Real))\n(assert (< (select A 1) (select A 0)))\n(check-sat-using smtfd)\n",
    )
    .unwrap();
    let out = dir.join("store");
    triage(&art, &["z3-4.8.12", "z3-5.4.0"], &out, "0");
    let before = findings(&out);
    let blamed: Vec<&str> = before.iter().map(|(_, m)| m.blamed.as_str()).collect();
    assert_eq!(before.len(), 2, "stored under each release: {blamed:?}");
    for (p, _) in &before {
        let (code, o, e) = smtstorm(&["reduce", p.parent().unwrap().to_str().unwrap(), "--time", "30"]);
        assert_eq!(code, 0, "{o}{e}");
    }
    let (code, o, e) = smtstorm(&["report", out.to_str().unwrap(), "--regroup"]);
    assert_eq!(code, 0, "{o}{e}");
    let after = findings(&out);
    assert_eq!(after.len(), 1, "{e}");
    let (p, m) = &after[0];
    assert_eq!(m.cause.family.as_deref(), Some("z3"));
    assert_eq!(m.cause.instances.len(), 1);
    let other = &m.cause.instances[0];
    assert!(p.parent().unwrap().join("instances").join(&other.id).join("trigger.smt2").is_file());
    let range = m.cause.range.as_ref().expect("a range");
    assert_eq!(range.on, "reduced.smt2");
    let verdict = |v: &str| range.probes.iter().find(|p| p.release == v).map(|p| p.verdict);
    assert_eq!(verdict("4.8.5"), Some(ProbeVerdict::Inconclusive), "4.8.5 has no smtfd: {range:?}");
    for v in ["4.8.7", "4.8.12", "4.15.4", "5.4.0"] {
        assert_eq!(verdict(v), Some(ProbeVerdict::Fails), "{v}: {range:?}");
    }
    assert!(range.newest_fails && range.fixed_in.is_none() && range.introduced_in.is_none(), "{range:?}");
    assert!(!range.state.is_empty(), "the crash state on 5.4.0");
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("still failing in the newest, 5.4.0"), "{report}");
    let own = std::fs::read_to_string(p.parent().unwrap().join("report.md")).unwrap();
    assert!(own.contains("still failing in the newest, 5.4.0") && own.contains(&other.id), "{own}");
    // Regrouping again changes nothing.
    let (code, o, e) = smtstorm(&["report", out.to_str().unwrap(), "--regroup"]);
    assert_eq!((code, findings(&out).len()), (0, 1), "{o}{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// z3 5.4.0 keeps a datatype declaration it has just refused half-declared: what follows
/// gets an invalid model in one input ("datatype is not co-variant") and a SIGSEGV in
/// another (a parameter named twice). Two kinds, one cause: reduced, each is a bug after
/// z3's own error on its `declare-datatypes`, and the store has one finding with the other
/// as its instance. The two errors' words differ: the command refused, not the message,
/// is what makes them one (the judges' call). (A test that fails if the rule goes: the
/// kinds alone would keep two.)
#[test]
fn bugs_after_the_solvers_own_error_on_one_command_are_one_finding() {
    use smtstorm::store::reduction::OwnError;
    solver_bin("z3-5.4.0/bin/z3");
    solver_bin("cvc5/cvc5-smt2");
    let dir = tempdir("identity-own-error");
    let art = dir.join("art");
    std::fs::create_dir_all(&art).unwrap();
    std::fs::write(
        art.join("model.smt2"),
        "(declare-datatypes ((K 0) (W 0)) (((k)) ((w (sel (Array K K))) (v) (u))))\n(declare-fun p () W)\n(declare-fun q () W)\n(assert (not (= p q)))\n(assert (= (select (sel p) k) (select (sel q) k)))\n(check-sat)\n",
    )
    .unwrap();
    std::fs::write(
        art.join("crash.smt2"),
        "(declare-datatypes ((D 1) (P 2)) ((par (e) ((n))) (par (e e) ((m (g (D e)))))))\n(declare-datatypes ((B 0) (F 0)) (((n) (o (h (P Int Int)))) ((m))))\n(declare-const y B)\n(assert ((_ is o) y))\n(check-sat)\n",
    )
    .unwrap();
    let out = dir.join("store");
    triage(&art, &["z3-5.4.0", "cvc5"], &out, "60");
    let events = std::fs::read_to_string(out.join("events.jsonl")).unwrap();
    let kinds: Vec<&str> =
        ["\"kind\":\"crash\"", "\"kind\":\"invalid-model\""].into_iter().filter(|k| events.contains(k)).collect();
    assert_eq!(kinds.len(), 2, "a crash and an invalid model confirmed: {events}");
    let after = findings(&out);
    assert_eq!(after.len(), 1, "{events}");
    let m = &after[0].1;
    assert_eq!(m.cause.instances.len(), 1, "{:?}", m.cause);
    let key = m.cause.key.as_deref().unwrap_or_default();
    assert!(key.contains("after-own-error|z3|declare-datatypes"), "{key}");
    assert!(
        matches!(m.reduction.as_ref().and_then(|r| r.own_error.as_ref()),
            Some(OwnError::Refused { keyword, .. }) if keyword == "declare-datatypes"),
        "{:?}",
        m.reduction
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// yices 2.6.5's let-shadowing bug under the plain solver and two configured variants:
/// three findings as confirmed (blamed solver in the dedup key), one after the
/// campaign's reductions.
#[test]
fn configured_variants_of_one_family_are_one_finding() {
    let yices = solver_bin("yices/bin/yices-smt2");
    solver_bin("z3-5.4.0/bin/z3");
    let dir = tempdir("identity-yices");
    let art = dir.join("crash-let.smt2");
    std::fs::write(
        &art,
        "(set-logic QF_UF)\n(declare-const x Bool)\n(assert (let ((y (not (let ((y (not x))) (let ((x y) (y x)) (and x (not y))))))) (let ((x y) (y x)) (and x (not y)))))\n(check-sat)\n",
    )
    .unwrap();
    let out = dir.join("store");
    let mcsat = format!("yices+mcsat={} --incremental --mcsat", yices.display());
    let ematch = format!("yices+ematch={} --incremental --ematch", yices.display());
    triage(&art, &["z3-5.4.0", "cvc5", "yices", &mcsat, &ematch], &out, "60");
    let events = std::fs::read_to_string(out.join("events.jsonl")).unwrap();
    let stored = events.lines().filter(|l| l.contains("\"finding\"")).count();
    assert_eq!(stored, 3, "one finding per variant before reduction: {events}");
    let after = findings(&out);
    assert_eq!(after.len(), 1, "{events}");
    let m = &after[0].1;
    assert_eq!(m.cause.family.as_deref(), Some("yices"));
    let mut blamed: Vec<&str> =
        m.cause.instances.iter().map(|i| i.blamed.as_str()).chain([m.blamed.as_str()]).collect();
    blamed.sort();
    assert_eq!(blamed, ["yices", "yices+ematch", "yices+mcsat"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// yices 2.6.5's leaking `let` found in two shapes that no reduction makes one (under
/// push/pop, and one assertion asked twice; both runs of one day stored them apart): the
/// same formulas with the `let` expanded are answered right, so each reduction needs the
/// notation, and they are one finding — here stored unreduced first, as a fuzz target
/// stores its findings, and reduced by `smtstorm report --regroup --reduce`.
#[test]
fn two_shapes_of_one_let_bug_are_one_finding() {
    use smtstorm::store::reduction::Notation;
    solver_bin("yices/bin/yices-smt2");
    solver_bin("z3-5.4.0/bin/z3");
    solver_bin("cvc5/cvc5-smt2");
    let dir = tempdir("identity-let");
    let art = dir.join("art");
    std::fs::create_dir_all(&art).unwrap();
    let bind = "(let ((x false) (y x))";
    std::fs::write(
        art.join("pushed.smt2"),
        format!("(set-logic QF_UF)\n(declare-fun x () Bool)\n(assert x)\n(push 1)\n(assert {bind} (= x y)))\n(check-sat)\n(pop 1)\n(assert {bind} (= x y)))\n(check-sat)\n"),
    )
    .unwrap();
    std::fs::write(
        art.join("twice.smt2"),
        format!("(set-logic QF_UF)\n(declare-fun x () Bool)\n(assert {bind} (distinct x y)))\n(check-sat)\n(assert {bind} (distinct x y)))\n(check-sat)\n"),
    )
    .unwrap();
    // Stored unreduced, as a fuzz target stores its findings; `report --regroup --reduce`
    // reduces, ranges and merges them.
    let out = dir.join("store");
    triage(&art, &["z3-5.4.0", "cvc5", "yices"], &out, "0");
    let events = std::fs::read_to_string(out.join("events.jsonl")).unwrap();
    let stored = events.lines().filter(|l| l.contains("\"finding\"")).count();
    assert_eq!(stored, 2, "two findings as confirmed: {events}");
    assert!(findings(&out).iter().all(|(_, m)| m.reduction.is_none()), "triage --reduce 0 reduces nothing");
    let (code, printed, err) = smtstorm(&["report", "--regroup", "--reduce", "60", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{printed}{err}");
    assert_eq!(err.lines().filter(|l| l.starts_with("reduced soundness")).count(), 2, "{err}");
    let after = findings(&out);
    assert_eq!(after.len(), 1, "{events}");
    let m = &after[0].1;
    assert_eq!(m.cause.instances.len(), 1, "{:?}", m.cause);
    assert_eq!(m.reduction.as_ref().and_then(|r| r.notation), Some(Notation::Let), "{:?}", m.reduction);
    let key = m.cause.key.as_deref().unwrap_or_default();
    assert!(key.contains("yices|notation|let"), "{key}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A trigger with two string literals: `"\u{41}"`, read as six characters before z3
/// 4.8.9 (SMT-LIB 2.6 escapes came in 4.8.9), and `"\x41"`, read as one character until
/// 4.8.10. z3 4.8.7 answers `unsat` where z3 5.4.0 and cvc5 answer `sat`. The bisection
/// on the trigger says fixed in 4.8.12 (4.8.9 and 4.8.10 trip over the `\x` part); the
/// reduction keeps only the `\u` part, whose range says fixed in 4.8.9 — which the
/// finding shows — and since only releases before that change fail, on a trigger that
/// uses it, it is a dialect difference, not a bug, and says so.
#[test]
fn the_reduced_trigger_s_range_is_shown_and_an_old_escape_is_a_dialect_difference() {
    for v in ["4.8.7", "4.8.9", "4.8.10", "4.8.12", "5.4.0"] {
        solver_bin(&format!("z3-{v}/bin/z3"));
    }
    let dir = tempdir("identity-escapes");
    let art = dir.join("crash-escapes.smt2");
    std::fs::write(
        &art,
        "(set-logic QF_SLIA)\n(declare-const x Int)\n(assert (= (str.len \"\\u{41}\") 1))\n(assert (= (str.len \"\\x41\") 4))\n(assert (< x 10))\n(check-sat)\n",
    )
    .unwrap();
    let out = dir.join("store");
    triage(&art, &["z3-4.8.7", "z3-5.4.0", "cvc5"], &out, "60");
    let found = findings(&out);
    assert_eq!(found.len(), 1);
    let (p, m) = &found[0];
    assert_eq!((m.blamed.as_str(), m.fixed_in.as_deref()), ("z3-4.8.7", Some("4.8.12")), "the trigger's bisection");
    let reduced = std::fs::read_to_string(p.parent().unwrap().join("reduced.smt2")).unwrap();
    assert!(!reduced.contains("\\x41"), "{reduced}");
    let range = m.cause.range.as_ref().expect("a range");
    assert_eq!(range.fixed_in.as_deref(), Some("4.8.9"), "{range:?}");
    assert!(!range.newest_fails);
    assert_eq!(m.cause.dialect.as_deref(), Some("z3-string-escapes-2.6"));
    let own = std::fs::read_to_string(p.parent().unwrap().join("report.md")).unwrap();
    assert!(own.contains("fixed in 4.8.9") && own.contains("dialect difference"), "{own}");
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("dialect difference"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The old store (`tests/fixtures/store-0957fee`, no `cause` in its meta.json) reads and
/// regroups: a reduced finding gets its identity and family, nothing else changes.
#[test]
fn an_old_store_regroups() {
    let out = tempdir("identity-old-store");
    let rel = "bugs/soundness/5c1d0e7f3a2b";
    let (from, to) = (repo().join("tests/fixtures/store-0957fee").join(rel), out.join(rel));
    std::fs::create_dir_all(&to).unwrap();
    for e in std::fs::read_dir(&from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
    std::fs::write(to.join("reduced.smt2"), "(declare-const x Int)\n(assert (> x 0))\n(check-sat)\n").unwrap();
    let mut st = Store::open(&out).unwrap();
    assert!(st.regroup(&[]).is_empty());
    let (_, m) = &findings(&out)[0];
    assert_eq!((m.id.as_str(), m.cause.family.as_deref()), ("5c1d0e7f3a2b", Some("z3")));
    assert!(m.cause.key.as_deref().is_some_and(|k| k.starts_with("fuzz|soundness|witness|z3|shape|")));
    assert_eq!(m.fixed_in.as_deref(), Some("4.8.9"));
    let _ = std::fs::remove_dir_all(&out);
}

/// Two shards that found one cause under two dedup keys (blamed on two releases) merge
/// into one finding with the other as its instance; merging both again counts nothing
/// twice.
#[test]
fn merging_shards_counts_causes_and_nothing_twice() {
    let dir = tempdir("identity-merge-shards");
    let rel = "bugs/soundness/5c1d0e7f3a2b";
    let from = repo().join("tests/fixtures/store-0957fee").join(rel);
    let mut shards = vec![];
    for (name, blamed, id) in [("a", "z3-4.8.7", "5c1d0e7f3a2b"), ("b", "z3-4.8.8", "6d2e1f8a4b3c")] {
        let to = dir.join(name).join(format!("bugs/soundness/{id}"));
        std::fs::create_dir_all(&to).unwrap();
        std::fs::copy(from.join("trigger.smt2"), to.join("trigger.smt2")).unwrap();
        let mut m: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(from.join("meta.json")).unwrap()).unwrap();
        m["id"] = id.into();
        m["blamed"] = blamed.into();
        m["duplicates"] = 0.into();
        std::fs::write(to.join("meta.json"), m.to_string()).unwrap();
        std::fs::write(to.join("reduced.smt2"), "(declare-const x Int)\n(assert (> x 0))\n(check-sat)\n").unwrap();
        shards.push(dir.join(name));
    }
    let out = dir.join("merged");
    let args = |out: &Path| {
        let mut a = vec!["merge".to_string(), out.display().to_string()];
        a.extend(shards.iter().map(|s| s.display().to_string()));
        a
    };
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        smtstorm(&a)
    };
    let (code, o, e) = run(args(&out));
    assert_eq!(code, 0, "{o}{e}");
    assert!(o.contains("1 distinct bugs"), "one cause after the merge: {o}");
    let found = findings(&out);
    assert_eq!(found.len(), 1, "{o}");
    let m = &found[0].1;
    assert_eq!((m.duplicates, m.cause.instances.len()), (1, 1), "{m:?}");
    let (code, o, e) = run(args(&out));
    assert_eq!(code, 0, "{o}{e}");
    assert!(o.contains("0 new, 0 duplicates, 1 merged before"), "{o}");
    assert_eq!(findings(&out)[0].1.duplicates, 1, "{o}");
    let _ = std::fs::remove_dir_all(&dir);
}
