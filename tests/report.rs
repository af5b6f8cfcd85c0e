//! The HTML report as a person sees it (issue 24): a real small campaign's `report.html`
//! and one finding's page, rendered by headless Chromium. The screenshots must show a
//! page, not a blank, and the pages' scripts must run without an error.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Debian's `chromium`, or another name it goes by; `None` where none is installed.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
        .iter()
        .flat_map(|n| std::env::split_paths(&path).map(move |d| d.join(n)))
        .find(|p| p.is_file())
}

fn headless(chrome: &Path, profile: &Path, args: &[&str], page: &Path) -> std::process::Output {
    let url = format!("file://{}", page.display());
    Command::new(chrome)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(&url)
        .output()
        .unwrap()
}

/// (pixels, pixels that are not the background, distinct colours) of a PNG screenshot.
fn ink(png_file: &Path) -> (usize, usize, usize) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(png_file).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let step = info.color_type.samples();
    assert!(step >= 3, "an RGB screenshot: {:?}", info.color_type);
    let px: Vec<[u8; 3]> = buf[..info.buffer_size()].chunks(step).map(|c| [c[0], c[1], c[2]]).collect();
    let background = px[0];
    let inked = px.iter().filter(|p| **p != background).count();
    let colours: std::collections::HashSet<[u8; 3]> = px.iter().copied().collect();
    (px.len(), inked, colours.len())
}

/// Renders one page: the screenshot has ink and colour (charts, tables, links), and the
/// DOM after load says the scripts ran (`data-ready`) with no error (`data-script-errors`).
fn check_page(chrome: &Path, profile: &Path, page: &Path, shot: &Path) {
    let o = headless(chrome, profile, &["--window-size=1280,1600", &format!("--screenshot={}", shot.display())], page);
    assert!(shot.is_file(), "no screenshot of {}: {}", page.display(), String::from_utf8_lossy(&o.stderr));
    let (all, inked, colours) = ink(shot);
    assert!(inked * 50 > all, "{}: only {inked} of {all} pixels differ from the background", page.display());
    assert!(colours >= 16, "{}: {colours} colours, a blank or one-colour page", page.display());
    let dom = headless(chrome, profile, &["--dump-dom"], page);
    let dom = String::from_utf8_lossy(&dom.stdout);
    // The root element's own attributes (the scripts' text names them too).
    let root = dom.find("<html").map_or("", |i| &dom[i..i + dom[i..].find('>').unwrap_or(0)]);
    assert!(root.contains("data-ready=\"1\""), "{}: the page's script did not finish: {root}", page.display());
    assert!(!root.contains("data-script-errors"), "{}: script errors on the page: {root}", page.display());
}

#[test]
fn the_html_report_of_a_real_campaign_renders_in_a_browser() {
    solver_bin("z3-4.8.7/bin/z3");
    let Some(chrome) = chromium() else {
        eprintln!("SKIPPED: no chromium on PATH (scripts/test.sh installs Debian's); the report is not rendered");
        return;
    };
    let dir = tempdir("report-html");
    let out = dir.join("out");
    // corpus/ against z3 4.8.7 (a release with known bugs) and yices, with z3 5.4.0 as a
    // second voter: a short campaign that finds bugs of more than one kind.
    let args = [
        "fuzz",
        "corpus",
        "--solver",
        "z3-4.8.7",
        "--solver",
        "z3-5.4.0",
        "--solver",
        "yices",
        "--workers",
        "2",
        "--time",
        "30",
        "--seed",
        "3",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ];
    let (code, _, err) = smtstorm(&args);
    assert!(code == 0 || code == 10, "fuzz: {code} {err}");
    ensure_reduced(&out);
    let (code, _, err) = smtstorm(&["report", out.to_str().unwrap()]);
    assert_eq!(code, 0, "report: {err}");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    // What the page must carry: the three kinds of plot over time, and the yields.
    for part in
        ["Distinct bugs found", "Mutants per second", "answers by outcome", "Yield by engine", "Yield by seed logic"]
    {
        assert!(html.contains(part), "report.html lacks {part}");
    }
    assert!(!html.contains("line column"), "signatures read as words");
    // A finding's page, a mutant's first: a 30 s run on a loaded machine can end with its
    // seed finding only (a regression whose confirmation could not end within `--time`
    // is left unconfirmed, as it should be), and a seed finding's page is the same page.
    let page = smtstorm::store::layout::TOPS
        .iter()
        .filter_map(|top| std::fs::read_dir(out.join(top)).ok())
        .flat_map(|kinds| kinds.flatten())
        .flat_map(|k| std::fs::read_dir(k.path()).unwrap().flatten())
        .map(|f| f.path().join("report.html"))
        .find(|p| p.is_file())
        .expect("the campaign stored a finding with its page");
    let bug = std::fs::read_to_string(&page).unwrap();
    for part in [
        "<h2>Input</h2>",
        "<h2>Reproduce</h2>",
        "<h2>Every solver's answer</h2>",
        "<h2>Bisection</h2>",
        "repro/z3-4.8.7.smt2",
    ] {
        assert!(bug.contains(part), "{} lacks {part}", page.display());
    }
    assert!(
        html.contains(&format!("{}\">", page.strip_prefix(&out).unwrap().display())),
        "the overview links the page"
    );
    findings_read_as_filed(&out, false);
    let profile = dir.join("chromium-profile");
    check_page(&chrome, &profile, &out.join("report.html"), &dir.join("overview.png"));
    check_page(&chrome, &profile, &page, &dir.join("bug.png"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A campaign on a loaded machine can end before its reducer reaches a finding: then a
/// finding is reduced here, so that a reduced page is always checked. A timing finding (a
/// release that got slower, or stopped deciding within the limit) depends on which answers
/// came in time on this machine, and the reducer rightly refuses one that no longer shows:
/// the answer findings are tried first, smallest first, and the first that reduces is kept.
fn ensure_reduced(out: &Path) {
    let mut found = smtstorm::store::Store::list_in(out);
    if found.iter().any(|(_, m)| m.reduction.is_some()) {
        return;
    }
    assert!(!found.is_empty(), "the campaign stored a finding");
    found.sort_by_key(|(_, m)| (m.kind == smtstorm::oracle::BugKind::Regression, m.trigger_bytes));
    let mut refused = Vec::new();
    for (meta, _) in &found {
        let f = meta.parent().unwrap().to_str().unwrap().to_string();
        let (code, printed, err) = smtstorm(&["reduce", &f, "-j", "1"]);
        if code == 0 {
            return;
        }
        refused.push(format!("reduce {f}: exit {code}: {printed}{err}"));
    }
    panic!("no stored finding reduces:\n{}", refused.join("\n"));
}

/// Words of `text` that are absolute paths of a machine (`/work/x/y`, `/root/.pyenv/...`).
fn absolute_paths(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || "\"'<>()`;,=".contains(c))
        .filter(|w| {
            w.starts_with('/')
                && w[1..].contains('/')
                && w.chars().nth(1).is_some_and(|c| c.is_alphanumeric() || c == '.')
        })
        .map(String::from)
        .collect()
}

/// A solver's own `--version` text, asked here: the command words up to the first
/// option (an interpreter and its driver script, or the binary) and `--version`.
fn version_text(command: &[String]) -> String {
    let program: Vec<&String> = command.iter().take_while(|w| !w.starts_with('-')).collect();
    let o = Command::new(program[0]).args(&program[1..]).arg("--version").output().unwrap();
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// Issue 42: every finding of a real store reads as an upstream report would. No path of
/// this machine in `report.md` or the page; the program named as a person types it
/// (`cvc5`, not the Python driver); the OS, the blamed solver's whole `--version` and how
/// it was installed; a wrong answer's expected answer named with who agrees; and every
/// answer on a reduced finding's page is to the reduced input (re-run: no position past
/// its last line, as z3's "line 6 column 10" beside a 2-line input was).
fn findings_read_as_filed(out: &Path, with_cvc5: bool) {
    let campaign: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("campaign.json")).unwrap()).unwrap();
    let command = |name: &str| -> Option<Vec<String>> {
        let s = campaign["solvers"].as_array().unwrap().iter().find(|s| s["name"] == name)?;
        Some(s["command"].as_array().unwrap().iter().map(|w| w.as_str().unwrap().to_string()).collect())
    };
    let uname = Command::new("uname").arg("-srm").output().unwrap();
    let uname = String::from_utf8_lossy(&uname.stdout).trim().to_string();
    let (mut reduced, mut wrong_answers, mut cvc5_pages) = (0, 0, 0);
    let found = smtstorm::store::Store::list_in(out);
    assert!(!found.is_empty(), "the campaign stored findings");
    for (meta, m) in &found {
        let f = smtstorm::store::FindingDir::of_meta(meta).unwrap();
        let md = std::fs::read_to_string(f.report_md_path()).unwrap();
        let page = std::fs::read_to_string(f.report_html_path()).unwrap();
        let at = f.path().display();
        for (name, text) in [("report.md", &md), ("report.html", &page)] {
            let paths = absolute_paths(text);
            assert!(paths.is_empty(), "{at}/{name} names this machine's paths: {paths:?}");
        }
        assert!(md.contains(&format!("- OS: {uname}")), "{at}: no OS: {md}");
        // A tie the model cross-check could not settle blames no solver: nothing to name.
        let Some(blamed) = command(&m.blamed) else {
            assert_eq!(m.blamed, "undecided", "{at}: blamed on a solver the campaign does not define");
            continue;
        };
        let version = version_text(&blamed);
        assert!(!version.is_empty() && md.contains(&version), "{at}: not the whole `--version` ({version}): {md}");
        assert!(md.contains(&format!("- {} installed as: ", m.blamed)), "{at}: {md}");
        if m.blamed.starts_with("z3-") {
            assert!(md.contains("z3-solver wheel from PyPI"), "{at}: {md}");
        }
        assert!(!md.contains("majority of the other solvers"), "{at}: {md}");
        if m.kind == smtstorm::oracle::BugKind::Soundness && m.signature.contains(" is expected") {
            let expected = m.signature.split(" where ").nth(1).unwrap().trim_end_matches(" is expected");
            let line = md.lines().find(|l| l.starts_with("- Expected: ")).unwrap();
            assert!(line.starts_with(&format!("- Expected: `{expected}` (")), "{at}: {line}");
            wrong_answers += 1;
        }
        if page.contains("<h3>cvc5</h3>") {
            assert!(page.contains("<pre>cvc5 --tlimit-per=10000 repro/cvc5.smt2</pre>"), "{at}: {page}");
            assert!(page.contains("cvc5 1.4.2 wheel from PyPI"), "{at}: {page}");
            cvc5_pages += 1;
        }
        if f.reduced_path().is_file() {
            reduced += 1;
            assert!(page.contains("re-run in fresh processes") && md.contains("re-run in fresh processes"), "{at}");
            let cached = std::fs::read_to_string(f.path().join("repro/answers.json")).unwrap();
            let cached: Vec<serde_json::Value> = serde_json::from_str(&cached).unwrap();
            let asked = m
                .answers
                .iter()
                .filter(|a| campaign["solvers"].as_array().unwrap().iter().any(|s| s["name"] == a.solver.as_str()));
            // One answer per solver asked, but for a timeout, an `unknown` or a resource
            // kill: those may be the load of the moment and are asked again next time.
            assert!(cached.len() <= asked.count(), "{at}: at most one answer per solver asked");
            for c in &cached {
                let outcomes = c["answer"]["outcomes"].as_array().cloned().unwrap_or_default();
                let passing = |o: &serde_json::Value| {
                    let o = o.as_str().unwrap_or("");
                    ["timeout", "unknown", "resource"].iter().any(|w| o.starts_with(w))
                };
                assert!(!outcomes.iter().any(passing), "{at}: {outcomes:?} cached");
            }
            // The longest repro file bounds every position a solver can name in it.
            let lines = std::fs::read_dir(f.path().join("repro"))
                .unwrap()
                .flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "smt2"))
                .map(|e| std::fs::read_to_string(e.path()).unwrap().lines().count())
                .max()
                .unwrap();
            let answers = &page[page.find("<h2>Every solver's answer</h2>").unwrap()..];
            let answers = &answers[..answers.find("</table>").unwrap()];
            let words: Vec<&str> = answers.split_whitespace().collect();
            for w in words.windows(2).filter(|w| w[0].ends_with("line")) {
                let n: usize = w[1].trim_end_matches(':').parse().unwrap_or(0);
                assert!(n <= lines, "{at}: an answer names line {n} of a {lines}-line input: {answers}");
            }
        }
    }
    assert!(reduced > 0 && wrong_answers > 0, "{reduced} reduced, {wrong_answers} wrong answers");
    assert!(!with_cvc5 || cvc5_pages > 0, "no finding's page shows cvc5");
}

/// cvc5 as installed from its wheel (run through smtstorm's Python driver) is shown as
/// `cvc5` with its own options: a campaign on one corpus seed that z3 4.8.7 answers
/// wrongly (`str_escapes.smt2`, a seed finding every run makes), cvc5 voting.
#[test]
fn a_seed_finding_with_cvc5_reads_as_filed() {
    solver_bin("z3-4.8.7/bin/z3");
    let dir = tempdir("report-cvc5");
    let (seeds, out) = (dir.join("seeds"), dir.join("out"));
    std::fs::create_dir_all(&seeds).unwrap();
    std::fs::copy(repo().join("corpus/str_escapes.smt2"), seeds.join("str_escapes.smt2")).unwrap();
    let (s, o) = (seeds.to_str().unwrap(), out.to_str().unwrap());
    let args = [
        "fuzz", s, "--solver", "z3-4.8.7", "--solver", "z3-5.4.0", "--solver", "cvc5", "--time", "10", "--out", o,
        "--quiet",
    ];
    let (code, _, err) = smtstorm(&args);
    assert!(code == 0 || code == 10, "fuzz: {code} {err}");
    ensure_reduced(&out);
    let (code, _, err) = smtstorm(&["report", o]);
    assert_eq!(code, 0, "report: {err}");
    findings_read_as_filed(&out, true);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The old store's findings (no `campaign.json`, no `cause`) still render as reports:
/// the stored answers (to the trigger they show), the expected answer named.
#[test]
fn the_old_store_fixture_still_renders_its_reports() {
    let fixture = repo().join("tests/fixtures/store-0957fee");
    let found = smtstorm::store::Store::list_in(&fixture);
    assert_eq!(found.len(), 2);
    for (meta, m) in &found {
        let f = smtstorm::store::FindingDir::of_meta(meta).unwrap();
        let md = smtstorm::campaign::report::finding_report(f.path(), m, &[], 10.0);
        assert!(md.contains("## Environment") && md.contains("## Expected and actual"), "{md}");
        if m.id == "5c1d0e7f3a2b" {
            assert!(md.contains("- Expected: `sat` (") && md.contains("z3-5.4.0 agrees"), "{md}");
        }
    }
}
