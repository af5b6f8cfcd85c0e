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
    let page = std::fs::read_dir(out.join("bugs"))
        .unwrap()
        .flatten()
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
    let profile = dir.join("chromium-profile");
    check_page(&chrome, &profile, &out.join("report.html"), &dir.join("overview.png"));
    check_page(&chrome, &profile, &page, &dir.join("bug.png"));
    let _ = std::fs::remove_dir_all(&dir);
}
