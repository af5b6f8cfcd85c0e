//! The `smtstorm` binary as a user runs it: output, JSON fields, exit codes, errors.

mod common;

use common::repo;
use std::process::Command;

fn smtstorm(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_smtstorm")).args(args).current_dir(repo()).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn parse_json_reports_what_the_issue_promises() {
    let (code, out, _) = smtstorm(&["parse", "corpus", "--check", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for k in [
        "files",
        "accepted",
        "rejected",
        "bytes",
        "seconds",
        "mb_per_s",
        "roundtrip_mismatches",
        "checked_clean",
        "unknown_symbols",
    ] {
        assert!(v.get(k).is_some(), "missing {k}");
    }
    assert_eq!(v["files"], v["accepted"]);
    assert_eq!(v["checked_clean"], v["accepted"]);
    assert_eq!(v["roundtrip_mismatches"].as_array().unwrap().len(), 0);
}

#[test]
fn malformed_input_is_reported_with_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("smtstorm-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.smt2");
    std::fs::write(&bad, "(set-logic QF_LIA)\n(assert (< x 1)\n").unwrap();
    let (code, out, _) = smtstorm(&["parse", bad.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["rejected"][0]["line"], 3);
    assert_eq!(v["rejected"][0]["column"], 1);
    assert_eq!(v["rejected"][0]["reason"], "expected ')', found end of input");
    let (code, _, err) = smtstorm(&["check", bad.to_str().unwrap(), "--solver", "z3-5.4.0"]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.smt2:3:1: expected ')', found end of input"), "{err}");
    let (code, _, err) = smtstorm(&["check", "corpus/bv_arith.smt2", "--solver", "nosuch"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown solver \"nosuch\""), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_runs_real_solvers_and_agrees_with_status() {
    let (code, out, err) = smtstorm(&[
        "check",
        "corpus/lia_pushpop.smt2",
        "corpus/str_contains.smt2",
        "--solver",
        "z3-5.4.0",
        "--solver",
        "cvc5",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    for row in rows.as_array().unwrap() {
        for cell in row["cells"].as_array().unwrap() {
            let first = &cell["outcomes"][0]["kind"];
            assert_eq!(first, &row["status"], "{}: {}", row["file"], cell["solver"]);
        }
    }
    // One-shot mode and NAME=command solvers give the same table.
    let z3 = repo().join(".solvers/z3-5.4.0/bin/z3");
    let spec = format!("mine={} -smt2", z3.display());
    let (code, out, _) = smtstorm(&["check", "corpus/lia_pushpop.smt2", "--solver", &spec, "--oneshot"]);
    assert_eq!(code, 0);
    assert!(out.contains("mine") && out.contains("unsat sat sat"), "{out}");
}

#[test]
fn solvers_lists_what_setup_installed() {
    let (code, out, _) = smtstorm(&["solvers"]);
    assert_eq!(code, 0);
    for want in ["z3-5.4.0", "Z3 version 5.4.0", "yices", "cvc5", "bitwuzla"] {
        assert!(out.contains(want), "missing {want} in:\n{out}");
    }
}

#[test]
fn mutate_runs_every_engine_and_bec_and_fuzz_rejects_bad_usage_with_status_2() {
    for engine in ["opfuzz", "typefuzz", "valfuzz"] {
        let (code, out, err) =
            smtstorm(&["mutate", "corpus/bv_arith.smt2", "--engine", engine, "--count", "3", "--seed", "5"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.matches("; smtstorm-edits: [").count(), 3, "{engine}: {out}");
        let (_, again, _) =
            smtstorm(&["mutate", "corpus/bv_arith.smt2", "--engine", engine, "--count", "3", "--seed", "5"]);
        assert_eq!(out, again, "{engine}: same seed, same mutants");
    }
    let (code, out, err) =
        smtstorm(&["mutate", "corpus/lia_bounds.smt2", "--engine", "valfuzz", "--bec", "z3-5.4.0", "--count", "6"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"edit\":\"replace_constant\""), "{out}");
    // Fusion with a second seed of the same :status: deterministic, and its edit names
    // the partner it replays with.
    let fuse =
        ["mutate", "corpus/bv_arith.smt2", "--engine", "fusion", "--with", "corpus/bv_signed.smt2", "--count", "4"];
    let (code, out, err) = smtstorm(&fuse);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.matches("; smtstorm-edits: [{\"edit\":\"fuse\",\"other\":\"corpus/bv_signed.smt2\"").count(),
        4,
        "{out}"
    );
    assert_eq!(smtstorm(&fuse).1, out, "same seed, same fusions");
    let (code, _, err) =
        smtstorm(&["mutate", "corpus/bv_arith.smt2", "--engine", "fusion", "--with", "corpus/bv_rotate.smt2"]);
    assert_eq!(code, 2);
    assert!(err.contains("corpus/bv_rotate.smt2: fusion needs a :status"), "{err}");
    let (code, _, err) = smtstorm(&["mutate", "corpus/bv_arith.smt2", "--engine", "fusion"]);
    assert_eq!(code, 2);
    assert!(err.contains("--with FILE and --engine fusion go together"), "{err}");
    // `fuzz --help` names every engine a campaign runs.
    let (_, help, _) = smtstorm(&["fuzz", "--help"]);
    for e in smtstorm::mutate::Engine::ALL {
        assert!(help.contains(e.name()), "fuzz --help does not name {e}: {help}");
    }
    let (code, _, err) = smtstorm(&["mutate", "corpus/bv_arith.smt2", "--engine", "storm"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown engine"), "{err}");
    let (code, _, err) = smtstorm(&["fuzz", "corpus", "--engine", "nope", "--out", "/tmp/smtstorm-never"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown engine \"nope\""), "{err}");
    let (code, _, err) = smtstorm(&["fuzz", "corpus", "--solver", "no-such-solver", "--out", "/tmp/smtstorm-never"]);
    assert_eq!(code, 2);
    assert!(err.contains("no-such-solver"), "{err}");
}

/// Every out-of-range setting is refused before anything runs, with exit status 2 and a
/// message naming the flag or the campaign-file key; none panics (a 0.3 s timeout made a
/// worker panic in `clamp`; `--time inf`, a negative `reduce --time` panicked in
/// `Duration::from_secs_f64`; `memory_mb` of 2^44 wrapped to a limit of 0 bytes).
#[test]
fn out_of_range_settings_are_refused_by_name_with_status_2() {
    let out = std::env::temp_dir().join(format!("smtstorm-cli-range-{}", std::process::id()));
    let o = out.join("camp").display().to_string();
    let fuzz = |extra: &[&str], names: &[&str]| {
        let mut args = vec!["fuzz", "corpus", "--solver", "z3-5.4.0", "--quiet", "--out", o.as_str()];
        args.extend_from_slice(extra);
        let (code, _, err) = smtstorm(&args);
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(!err.contains("panicked"), "{extra:?}: {err}");
        for n in names {
            assert!(err.contains(n), "{extra:?} should name {n}: {err}");
        }
    };
    let mut refused = 0;
    for (extra, names) in [
        (&["--timeout", "0.3"][..], &["--timeout", "`timeout`"][..]),
        (&["--timeout", "0"], &["--timeout"]),
        (&["--timeout", "inf"], &["--timeout"]),
        (&["--time", "inf"], &["--time"]),
        (&["--time=-5"], &["--time"]),
        (&["--reduce=-1"], &["--reduce"]),
        (&["--workers", "100000"], &["--workers"]),
    ] {
        fuzz(extra, names);
        refused += 1;
    }
    // Keys without a flag come from the campaign file and are named by their key.
    std::fs::create_dir_all(&out).unwrap();
    for (key, value) in [("memory_mb", "17592186044416"), ("batch", "0"), ("memory_mb", "1")] {
        let f = out.join(format!("{key}.toml"));
        std::fs::write(&f, format!("{key} = {value}\n")).unwrap();
        let fp = f.display().to_string();
        fuzz(&["--config", fp.as_str()], &[&format!("{key} = {value}")]);
        refused += 1;
    }
    for args in [
        &["reduce", "corpus/lia_bounds.smt2", "/tmp/smtstorm-never.smt2", "--time=-1", "--", "true"][..],
        &["reduce", "corpus/lia_bounds.smt2", "/tmp/smtstorm-never.smt2", "--timeout", "nan", "--", "true"],
        &["check", "corpus/lia_bounds.smt2", "--solver", "z3-5.4.0", "--timeout", "inf"],
        &["check", "corpus/lia_bounds.smt2", "--solver", "z3-5.4.0", "--memory-mb", "17592186044416"],
        &["report", "--regroup", "--reduce=-1", o.as_str()],
        &["report", "--regroup", "--reduce", "0", o.as_str()],
    ] {
        let (code, _, err) = smtstorm(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(!err.contains("panicked") && err.contains("expected"), "{args:?}: {err}");
        refused += 1;
    }
    // `--reduce` says what it needs.
    let (code, _, err) = smtstorm(&["report", "--reduce", "10", o.as_str()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--regroup"), "{err}");
    assert_eq!(refused, 16);
    assert!(!std::path::Path::new("/tmp/smtstorm-never.smt2").exists());
    let _ = std::fs::remove_dir_all(&out);
}

/// A FIFO named `.smt2` is refused by name instead of blocking the reader forever, and
/// a campaign skips it as a rejected seed and goes on (issue 21, item 13).
#[test]
fn a_fifo_seed_is_refused_not_waited_on() {
    let d = common::tempdir("fifo");
    let fifo = d.join("hang.smt2");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    std::fs::copy(repo().join("corpus/lia_bounds.smt2"), d.join("lia_bounds.smt2")).unwrap();
    let run = |args: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_smtstorm"))
            .args(args)
            .current_dir(repo())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let t0 = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if t0.elapsed() > std::time::Duration::from_secs(30) {
                let _ = child.kill();
                panic!("{args:?} blocked on the FIFO");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let o = child.wait_with_output().unwrap();
        (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stderr).into_owned())
    };
    let (code, err) = run(&["parse", fifo.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("hang.smt2") && err.contains("FIFO"), "{err}");
    let out = d.join("out");
    let (code, err) = run(&[
        "fuzz",
        d.to_str().unwrap(),
        "--solver",
        "z3-5.4.0",
        "--mutants",
        "10",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(code == 0 || code == 10, "{err}");
    let events = std::fs::read_to_string(out.join("events.jsonl")).unwrap();
    assert!(events.lines().any(|l| l.contains("seed-rejected") && l.contains("FIFO")), "{events}");
    let _ = std::fs::remove_dir_all(&d);
}

/// A campaign.json that does not read is an error naming it, not run 1 of a new campaign
/// over the stored findings (issue 21, item 7).
#[test]
fn a_corrupt_campaign_file_is_an_error_not_a_fresh_start() {
    let d = common::tempdir("corrupt-campaign");
    let out = d.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("campaign.json"), "{\"config\": {\"seeds\": [\"corp").unwrap();
    let (code, _, err) = smtstorm(&[
        "fuzz",
        "corpus/lia_bounds.smt2",
        "--solver",
        "z3-5.4.0",
        "--mutants",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("campaign.json") && err.contains("unreadable"), "{err}");
    assert_eq!(std::fs::read_to_string(out.join("campaign.json")).unwrap(), "{\"config\": {\"seeds\": [\"corp");
    let _ = std::fs::remove_dir_all(&d);
}

/// `smtstorm completions bash` completes every subcommand `smtstorm --help` lists (and
/// their flags: `reduce --match-output`); the other shells get a script too, and an
/// unknown shell is a usage error.
#[test]
fn completions_name_every_subcommand() {
    let (code, help, _) = smtstorm(&["--help"]);
    assert_eq!(code, 0);
    let subcommands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(subcommands.len() >= 19 && subcommands.contains(&"completions"), "{subcommands:?}");
    let (code, bash, err) = smtstorm(&["completions", "bash"]);
    assert_eq!(code, 0, "{err}");
    // The words offered after `smtstorm `: the first non-empty `opts="..."` of the script.
    let top: Vec<&str> = bash
        .lines()
        .filter_map(|l| l.trim().strip_prefix("opts=\"")?.strip_suffix('"'))
        .find(|o| !o.is_empty())
        .unwrap_or_default()
        .split(' ')
        .collect();
    for c in &subcommands {
        assert!(top.contains(c), "bash completion does not offer {c}: {top:?}");
    }
    assert!(bash.contains("--match-output"));
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let (code, out, err) = smtstorm(&["completions", shell]);
        assert!(code == 0 && out.contains("storm-minimize"), "{shell}: {err}");
    }
    assert_eq!(smtstorm(&["completions", "tcsh"]).0, 2);
}
