//! Each option is declared once, with its default (issue 38): what `--help` of the real
//! binary shows as a default is what the library's config struct holds, an unknown name
//! gets one text on every command, and every `--time` goes through one check.

mod common;

use clap::ValueEnum;
use smtstorm::generate::Feature;
use smtstorm::mutate::Engine;
use std::process::Command;

/// Runs the binary under test from the repository root: (exit status, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(common::bin()).args(args).current_dir(common::repo()).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// The help of `flag` in a command's `--help`: from its line to the next option's.
fn block<'a>(help: &'a str, flag: &str) -> &'a str {
    // `--flag` or `-h, --help` begins an option; `- value: ...` in a value list does not.
    let opens = |i: &usize| {
        let line = help[*i..].trim_start_matches(' ').as_bytes();
        line.first() == Some(&b'-') && line.get(1).is_some_and(|c| *c == b'-' || c.is_ascii_alphabetic())
    };
    let starts: Vec<usize> = help.match_indices('\n').map(|(i, _)| i + 1).filter(opens).collect();
    let named = |&i: &usize| {
        let line = help[i..].trim_start_matches(' ');
        let line = line.split_once(", ").filter(|(s, _)| s.len() == 2).map_or(line, |(_, l)| l);
        line.split([' ', '=']).next() == Some(flag)
    };
    let start = *starts.iter().find(|i| named(i)).unwrap_or_else(|| panic!("{flag} not in help:\n{help}"));
    let end = starts.iter().copied().find(|&i| i > start).unwrap_or(help.len());
    &help[start..end]
}

/// Asserts that `smtstorm CMD --help` shows each (flag, default) pair; returns how many.
fn shows_defaults(cmd: &str, defaults: &[(&str, String)]) -> usize {
    let (code, help, err) = run(&[cmd, "--help"]);
    assert_eq!(code, 0, "{err}");
    for (flag, value) in defaults {
        let b = block(&help, flag);
        assert!(b.contains(&format!("[default: {value}]")), "{cmd} {flag}: the library's default is {value}:\n{b}");
    }
    defaults.len()
}

fn joined<T>(xs: &[T], f: impl Fn(&T) -> String) -> String {
    xs.iter().map(f).collect::<Vec<_>>().join(",")
}

#[test]
fn help_shows_the_library_defaults() {
    let g = smtstorm::generate::Config::default();
    let features: Vec<Feature> = g.features.iter().copied().collect();
    let grammar = vec![
        ("--theories", joined(&features, |f| f.name().to_string())),
        ("--asserts", g.asserts.to_string()),
        ("--depth", g.depth.to_string()),
        ("--vars", g.vars.to_string()),
        ("--width", joined(&g.widths, u64::to_string)),
        ("--fp", joined(&g.formats, |(e, s)| format!("{e}:{s}"))),
    ];
    let b = smtstorm::bandit::Config::default();
    let mut bandit = grammar.clone();
    bandit.extend([
        ("--strategy", b.strategy.name().to_string()),
        ("--seed", b.seed.to_string()),
        ("--timeout", b.timeout.to_string()),
        ("--memory-mb", (b.memory.expect("a default memory limit") >> 20).to_string()),
        ("--time", b.time.expect("a default budget").to_string()),
        ("--decay", b.decay.to_string()),
        ("--keep", b.keep.to_string()),
        ("--repeats", b.repeats.to_string()),
    ]);
    let s = smtstorm::mutate::storm::Bounds::default();
    let bounds = vec![("--dmax", s.dmax.to_string()), ("--amax", s.amax.to_string()), ("--nc", s.nc.to_string())];
    let c = smtstorm::campaign::Config::default();
    let campaign = vec![
        ("--workers", c.workers.to_string()),
        ("--seed", c.seed.to_string()),
        ("--timeout", c.timeout.to_string()),
        ("--reduce", c.reduce.to_string()),
    ];
    let mut storm = bounds.clone();
    storm.extend(campaign.clone());
    let shown = shows_defaults("generate", &grammar)
        + shows_defaults("bandit", &bandit)
        + shows_defaults("storm", &storm)
        + shows_defaults("storm-check", &bounds)
        + shows_defaults("fuzz", &campaign);
    assert_eq!(shown, 6 + 14 + 7 + 3 + 4);
}

/// `[possible values: a, b]` of `flag` in `smtstorm CMD --help`, as `a, b`.
fn possible_values(cmd: &str, flag: &str) -> String {
    let (_, help, _) = run(&[cmd, "--help"]);
    let b = block(&help, flag);
    let from = b.find("[possible values: ").unwrap_or_else(|| panic!("{cmd} {flag}: no values listed:\n{b}"));
    let rest = &b[from + "[possible values: ".len()..];
    rest[..rest.find(']').unwrap()].to_string()
}

#[test]
fn an_unknown_name_gets_one_text_listing_the_valid_ones() {
    let nope = |args: &[&str]| {
        let (code, _, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        err.lines().next().unwrap_or_default().to_string()
    };
    // Every command that takes engines: the same text, listing that command's engines,
    // which are its `--help`'s.
    let fuzz = nope(&["fuzz", "corpus", "--engine", "opfuzz,nope", "--out", "/tmp/smtstorm-never"]);
    let mutate = nope(&["mutate", "corpus/bv_arith.smt2", "--engine", "nope"]);
    let text = "error: invalid value 'nope' for '--engine <ENGINE>': unknown engine \"nope\": available: ";
    assert_eq!(fuzz, format!("{text}{}", possible_values("fuzz", "--engine")));
    assert_eq!(mutate, format!("{text}{}", possible_values("mutate", "--engine")));
    let all: Vec<&str> = Engine::ALL.iter().map(|e| e.name()).collect();
    assert_eq!(possible_values("fuzz", "--engine"), all.join(", "));
    // STORM needs a solver's model: `mutate` does not run it, and says which it runs.
    let storm = nope(&["mutate", "corpus/bv_arith.smt2", "--engine", "storm"]);
    assert_eq!(storm, mutate.replace("nope", "storm"));
    // Strategies and theories: the same text.
    let strategy = nope(&["bandit", "--target", "z3", "--reference", "cvc5", "--out", "/tmp/x", "--strategy", "no"]);
    let names: Vec<String> = smtstorm::bandit::Strategy::value_variants()
        .iter()
        .filter_map(|s| s.to_possible_value())
        .map(|p| p.get_name().to_string())
        .collect();
    assert!(strategy.ends_with(&format!("unknown strategy \"no\": available: {}", names.join(", "))), "{strategy}");
    let theory = nope(&["generate", "--theories", "ints,no"]);
    assert!(
        theory.ends_with(&format!("unknown theory \"no\": available: {}", possible_values("generate", "--theories")))
    );
    let features = Feature::value_variants().len();
    assert_eq!(possible_values("generate", "--theories").split(", ").count(), features + 1, "and `all`");
}

#[test]
fn a_bad_duration_is_refused_with_one_message() {
    let never = common::tempdir("options-once-time").join("never");
    let out = never.to_str().unwrap();
    let mut refused = 0;
    for bad in ["-1", "1e400", "abc", "0"] {
        let fuzz = run(&["fuzz", "corpus", "--out", out, "--time", bad]);
        let storm = run(&["storm", "--solver", "z3", "--reference", "z3", "--out", out, "--time", bad]);
        let bandit = run(&["bandit", "--target", "z3", "--reference", "cvc5", "--out", out, "--time", bad]);
        assert_eq!(fuzz.0, 2, "fuzz --time {bad}: {}", fuzz.2);
        assert!(fuzz.2.contains(&format!("invalid value '{bad}' for '--time <SECONDS>': expected ")), "{}", fuzz.2);
        assert_eq!(fuzz, bandit, "--time {bad}");
        assert_eq!(fuzz, storm, "--time {bad}");
        refused += 1;
    }
    assert_eq!(refused, 4);
    // A per-query limit: bandit refuses what a campaign and `check` refuse, in the same words.
    let (code, _, bandit) = run(&["bandit", "--target", "z3", "--reference", "cvc5", "--out", out, "--timeout", "0.1"]);
    assert_eq!(code, 2);
    let (code, _, check) = run(&["check", "corpus/lia_bounds.smt2", "--solver", "z3-5.4.0", "--timeout", "0.1"]);
    assert_eq!(code, 2);
    let words = "expected seconds between 0.5 and 86400";
    assert!(bandit.contains(words) && check.contains(words), "{bandit}\n{check}");
    assert!(!never.exists(), "nothing ran");
}

/// The campaign file reads the same keys and names as before the flags moved into the
/// library's structs: engines by name, STORM's bounds in `[storm]`, unknown keys refused.
#[test]
fn the_campaign_file_keeps_its_keys() {
    let d = common::tempdir("options-once");
    let f = d.join("c.toml");
    std::fs::write(
        &f,
        "engines = [\"opfuzz\", \"storm\", \"fusion\"]\n[storm]\ndmax = 3\namax = 2\nnc = 5\nextended = true\n\
         max_formula_bytes = 100\nincremental = true\ntactics = true\n",
    )
    .unwrap();
    let c = smtstorm::campaign::Config::load(&f).unwrap();
    assert_eq!(c.engines, [Engine::OpFuzz, Engine::Storm, Engine::Fusion]);
    let s = c.storm;
    assert_eq!((s.dmax, s.amax, s.nc, s.max_formula_bytes), (3, 2, 5, 100));
    assert!(s.extended && s.incremental && s.tactics);
    std::fs::write(&f, "[storm]\ndmax = 3\n").unwrap();
    let s = smtstorm::campaign::Config::load(&f).unwrap().storm;
    assert_eq!(s, smtstorm::mutate::storm::Bounds { dmax: 3, ..Default::default() }, "unset keys: the defaults");
    std::fs::write(&f, "[storm]\nno_such_key = 1\n").unwrap();
    assert!(smtstorm::campaign::Config::load(&f).unwrap_err().to_string().contains("no_such_key"));
    let _ = std::fs::remove_dir_all(&d);
}
