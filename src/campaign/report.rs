//! `smtstorm report DIR`: `report.md` and a self-contained `report.html` from a campaign's
//! output directory (bug store, stats log, campaign file).

use super::{CampaignFile, Stats};
use crate::store::{Meta, Store};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Everything a report shows, read from the output directory.
pub struct Data {
    pub campaign: Option<CampaignFile>,
    pub stats: Vec<Stats>,
    pub findings: Vec<(PathBuf, Meta)>,
    /// BanditFuzz benchmarks (`perf/<id>/`).
    pub perf: Vec<crate::store::perf::PerfMeta>,
}

pub fn load(out: &Path) -> std::io::Result<Data> {
    if !out.join("campaign.json").exists() && !out.join("bandit.json").exists() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "no campaign.json or bandit.json: not a campaign directory",
        ));
    }
    let campaign = std::fs::read(out.join("campaign.json")).ok().and_then(|b| serde_json::from_slice(&b).ok());
    let stats = std::fs::read_to_string(out.join("stats.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    Ok(Data { campaign, stats, findings: Store::list_in(out), perf: crate::store::perf::perf_in(out) })
}

/// Final stats of each run (the last line each run wrote).
fn runs(d: &Data) -> Vec<&Stats> {
    let mut by_run: BTreeMap<u32, &Stats> = BTreeMap::new();
    for s in &d.stats {
        by_run.insert(s.run, s);
    }
    by_run.into_values().collect()
}

/// A stored string (solver names, logics, crash messages, seed names: anything a seed or
/// a solver could put there) as the text of one Markdown table cell: no `|` ends the
/// cell, no `[`/`]` starts a link, no line break ends the row.
fn cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '|' | '[' | ']' | '\\' | '<' | '>' => {
                out.push('\\');
                out.push(ch);
            }
            '\n' | '\r' => out.push(' '),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A Markdown cell back to its text (the inverse of [`cell`]'s backslashes).
fn uncell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(ch) = it.next() {
        match ch {
            '\\' => out.extend(it.next()),
            c => out.push(c),
        }
    }
    out
}

fn rel(out: &Path, p: &Path) -> String {
    p.strip_prefix(out).unwrap_or(p).display().to_string()
}

/// The Markdown report.
pub fn markdown(out: &Path, d: &Data) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# smtstorm campaign report\n");
    if let Some(c) = &d.campaign {
        let names: Vec<String> =
            c.solvers.iter().map(|x| format!("{} ({})", x.name, x.version.as_deref().unwrap_or("?"))).collect();
        let _ = writeln!(
            s,
            "Solvers: {}. Engines: {}. Runs: {}.\n",
            names.join(", "),
            c.config.engines.iter().map(|e| e.name()).collect::<Vec<_>>().join(", "),
            c.runs
        );
    }
    let _ = writeln!(s, "## Throughput\n\n| run | seconds | mutants | mutants/s | solver calls/s | valid | candidates | unconfirmed | new bugs | duplicates | seed findings | smtstorm CPU % of wall |\n|---|---|---|---|---|---|---|---|---|---|---|---|");
    for r in runs(d) {
        let _ = writeln!(
            s,
            "| {} | {:.0} | {} | {:.1} | {:.1} | {:.1} % | {} | {} | {} | {} | {} | {:.2} % |",
            r.run,
            r.elapsed,
            r.mutants,
            r.mutants as f64 / r.elapsed.max(1e-9),
            r.solver_calls as f64 / r.elapsed.max(1e-9),
            100.0 * r.valid as f64 / (r.valid + r.invalid).max(1) as f64,
            r.candidates,
            r.unconfirmed,
            r.new_bugs,
            r.duplicates,
            r.seed_findings,
            100.0 * r.own_cpu / r.elapsed.max(1e-9)
        );
    }
    // What never became a finding, by design, and what should have but could not be stored.
    let (res, mism, lost) =
        runs(d).iter().fold((0, 0, 0), |(a, b, c), r| (a + r.resources, b + r.status_mismatches, c + r.store_errors));
    if res + mism + lost > 0 {
        let _ = writeln!(
            s,
            "\nMutants on which a solver ran out of memory or another limit (never findings): {res}. \
             Seeds whose `:status` every solver contradicts (notes, not findings): {mism}. \
             Confirmed findings that could NOT be stored (see `store-failed` in events.jsonl): {lost}."
        );
    }
    // How well the oracles decide (issue 22): voters per candidate, undecided ties, seeds fuzzed.
    let (cands, voters, undecided, ready, demoted, sliced) = runs(d).iter().fold((0, 0, 0, 0, 0, 0), |a, r| {
        (
            a.0 + r.candidates,
            a.1 + r.definite_families,
            a.2 + r.undecided,
            a.3 + r.seeds_ready,
            a.4 + r.seeds_demoted,
            a.5 + r.seeds_sliced,
        )
    });
    if cands > 0 {
        let _ = write!(
            s,
            "\nCandidates: {cands}, with {:.2} solver families answering definitely on average; \
             left undecided after confirmation: {undecided} ({:.1} % of candidates).",
            voters as f64 / cands as f64,
            100.0 * undecided as f64 / cands as f64
        );
    }
    if ready + demoted > 0 {
        let _ = writeln!(
            s,
            "{}Seeds in the fuzzing rotation at the end: {ready} ({demoted} demoted or skipped; \
             {sliced} too slow for every solver and fuzzed as a slice of their assertions).",
            if cands > 0 { " " } else { "\n" }
        );
    } else if cands > 0 {
        let _ = writeln!(s);
    }
    for (title, seed) in [("Bugs found by fuzzing", false), ("Seed findings (the unmutated seed already fails)", true)]
    {
        let rows: Vec<&(PathBuf, Meta)> = d.findings.iter().filter(|f| f.1.seed_finding == seed).collect();
        let _ = writeln!(s, "\n## {title}: {}\n", rows.len());
        if rows.is_empty() {
            continue;
        }
        let _ = writeln!(s, "| id | kind | solver | logic | what | fixed in | trigger bytes | reduced | duplicates | engine | seed | found at (s) |\n|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (p, m) in rows {
            let dir = p.parent().unwrap_or(p);
            let _ = writeln!(
                s,
                "| [{}]({}) | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.0} |",
                cell(&m.id),
                cell(&rel(out, &dir.join("trigger.smt2"))),
                m.kind,
                cell(&m.blamed),
                cell(&m.logic),
                cell(&m.signature),
                cell(m.fixed_in.as_deref().unwrap_or("not fixed in the installed releases")),
                m.trigger_bytes,
                match &m.reduction {
                    Some(r) => format!("[{} bytes]({})", r.reduced_bytes, cell(&rel(out, &dir.join("reduced.smt2")))),
                    None => "-".into(),
                },
                m.duplicates,
                cell(&m.engine),
                cell(m.seed.rsplit('/').next().unwrap_or(&m.seed)),
                m.found_at
            );
        }
    }
    if !d.perf.is_empty() {
        let _ = writeln!(
            s,
            "\n## Performance benchmarks (BanditFuzz): {}\n\nMargin: the best target's PAR-2 seconds minus the worst reference's; final = medians of the re-scoring runs. ![cactus plot](cactus.svg)\n\n| benchmark | logic | bytes | made by | margin when found | final margin | final PAR-2 per solver |\n|---|---|---|---|---|---|---|",
            d.perf.len()
        );
        let mut rows: Vec<&crate::store::perf::PerfMeta> = d.perf.iter().collect();
        rows.sort_by(|a, b| b.final_margin.unwrap_or(b.margin).total_cmp(&a.final_margin.unwrap_or(a.margin)));
        for m in rows {
            let per: Vec<String> = m.final_par2.iter().map(|(n, p)| format!("{} {p:.3}", cell(n))).collect();
            let _ = writeln!(
                s,
                "| [{}](perf/{}/bench.smt2) | {} | {} | {} | {:.3} | {} | {} |",
                cell(&m.id),
                cell(&m.id),
                cell(&m.logic),
                m.bytes,
                cell(&m.made_by),
                m.margin,
                m.final_margin.map_or("-".into(), |x| format!("{x:.3}")),
                if per.is_empty() { "-".into() } else { per.join(", ") }
            );
        }
    }
    let mut by: BTreeMap<(String, String, String), usize> = BTreeMap::new();
    for (_, m) in d.findings.iter().filter(|f| !f.1.seed_finding) {
        *by.entry((m.engine.clone(), m.kind.to_string(), m.blame_by.to_string())).or_default() += 1;
    }
    if !by.is_empty() {
        let _ = writeln!(
            s,
            "\n## Which engines and oracles found what\n\n| engine | kind | decided by | distinct bugs |\n|---|---|---|---|"
        );
        for ((e, k, b), n) in by {
            let _ = writeln!(s, "| {} | {k} | {b} | {n} |", cell(&e));
        }
    }
    s
}

/// Cumulative distinct findings over campaign time, as an inline SVG.
pub fn svg(d: &Data) -> String {
    let pts: Vec<f64> = d.findings.iter().filter(|f| !f.1.seed_finding).map(|f| f.1.found_at).collect();
    let end = d.stats.iter().map(|s| s.campaign_elapsed).fold(pts.last().copied().unwrap_or(1.0), f64::max).max(1.0);
    let (w, h, pad) = (640.0, 240.0, 40.0);
    let ymax = (pts.len().max(1)) as f64;
    let x = |t: f64| pad + (w - 2.0 * pad) * t / end;
    let y = |n: f64| h - pad - (h - 2.0 * pad) * n / ymax;
    let mut path = format!("M{:.1},{:.1}", x(0.0), y(0.0));
    for (i, t) in pts.iter().enumerate() {
        let _ = write!(path, " L{:.1},{:.1} L{:.1},{:.1}", x(*t), y(i as f64), x(*t), y(i as f64 + 1.0));
    }
    let _ = write!(path, " L{:.1},{:.1}", x(end), y(pts.len() as f64));
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"11\">\
<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\
<line x1=\"{pad}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\" stroke=\"black\"/><line x1=\"{pad}\" y1=\"{pad}\" x2=\"{pad}\" y2=\"{b}\" stroke=\"black\"/>\
<path d=\"{path}\" fill=\"none\" stroke=\"#c0392b\" stroke-width=\"2\"/>\
<text x=\"{pad}\" y=\"{ty}\">0</text><text x=\"{r}\" y=\"{ty}\" text-anchor=\"end\">{end:.0} s</text>\
<text x=\"{lx}\" y=\"{pad}\" text-anchor=\"end\">{n}</text><text x=\"{cx}\" y=\"16\" text-anchor=\"middle\">distinct bugs found over campaign time</text></svg>",
        b = h - pad,
        r = w - pad,
        ty = h - pad + 14.0,
        lx = pad - 4.0,
        n = pts.len(),
        cx = w / 2.0
    )
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

/// Splits a Markdown table row into its cells, honouring `\|` (written by [`cell`]).
fn split_row(line: &str) -> Vec<&str> {
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').filter(|r| !r.ends_with('\\')).unwrap_or(inner);
    let (mut cells, mut start, mut escaped) = (vec![], 0, false);
    for (i, ch) in inner.char_indices() {
        match ch {
            '\\' if !escaped => escaped = true,
            '|' if !escaped => {
                cells.push(&inner[start..i]);
                start = i + 1;
            }
            _ => escaped = false,
        }
    }
    cells.push(&inner[start..]);
    cells
}

/// One Markdown cell as HTML: a whole-cell `[text](target)` link becomes `<a>`, anything
/// else is text. Never slices outside the cell, whatever it holds.
fn html_cell(c: &str) -> String {
    if let Some(rest) = c.strip_prefix('[') {
        // The first `](` not escaped by a backslash, and a closing `)` at the end.
        let bytes = rest.as_bytes();
        let k = (0..bytes.len().saturating_sub(1))
            .find(|&i| bytes[i] == b']' && bytes[i + 1] == b'(' && (i == 0 || bytes[i - 1] != b'\\'));
        if let (Some(k), Some(target)) = (k, rest.strip_suffix(')')) {
            if k + 2 <= target.len() {
                return format!(
                    "<a href=\"{}\">{}</a>",
                    html_escape(&uncell(&target[k + 2..])),
                    html_escape(&uncell(&rest[..k]))
                );
            }
        }
    }
    html_escape(&uncell(c))
}

/// The HTML report: the Markdown tables rendered as HTML tables, plus the plot.
pub fn html(out: &Path, d: &Data) -> String {
    let md = markdown(out, d);
    let mut body = String::new();
    let mut in_table = false;
    for line in md.lines() {
        if line.starts_with('|') {
            if line.starts_with("|---") {
                continue;
            }
            let cells = split_row(line);
            if !in_table {
                body.push_str("<table><tr>");
                for c in &cells {
                    let _ = write!(body, "<th>{}</th>", html_escape(&uncell(c.trim())));
                }
                body.push_str("</tr>\n");
                in_table = true;
            } else {
                body.push_str("<tr>");
                for c in &cells {
                    let _ = write!(body, "<td>{}</td>", html_cell(c.trim()));
                }
                body.push_str("</tr>\n");
            }
            continue;
        }
        if in_table {
            body.push_str("</table>\n");
            in_table = false;
        }
        if let Some(h) = line.strip_prefix("## ") {
            let _ = writeln!(body, "<h2>{}</h2>", html_escape(h));
        } else if let Some(h) = line.strip_prefix("# ") {
            let _ = writeln!(body, "<h1>{}</h1>\n{}", html_escape(h), svg(d));
        } else if !line.is_empty() {
            let _ = writeln!(body, "<p>{}</p>", html_escape(line));
        }
    }
    if in_table {
        body.push_str("</table>\n");
    }
    format!("<!doctype html><html><head><meta charset=\"utf-8\"><title>smtstorm report</title><style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:2px 6px;font-size:13px}}</style></head><body>\n{body}</body></html>\n")
}

/// Writes `report.md` and `report.html` into `out`, and each finding's own `report.md`
/// ([`finding_report`]); returns the campaign's two paths.
pub fn write(out: &Path) -> std::io::Result<(PathBuf, PathBuf)> {
    let d = load(out)?;
    let (md, html_path) = (out.join("report.md"), out.join("report.html"));
    crate::util::fs::write_atomic(&md, markdown(out, &d).as_bytes())?;
    crate::util::fs::write_atomic(&html_path, html(out, &d).as_bytes())?;
    let solvers = d.campaign.as_ref().map_or(&[][..], |c| &c.solvers[..]);
    for (meta, m) in &d.findings {
        let dir = meta.parent().unwrap_or(out);
        crate::util::fs::write_atomic(&dir.join("report.md"), finding_report(dir, m, solvers).as_bytes())?;
    }
    Ok((md, html_path))
}

/// The largest input a finding's report shows inline (a larger one is linked).
const INLINE_INPUT: usize = 6000;

/// A finding as a ready-to-file upstream report: title, versions, command line, the
/// reduced input (as the blamed solver reads it, with the model check a campaign asks
/// for), expected against actual, and how smtstorm confirmed it. `solvers` are the
/// campaign's definitions (for the command line).
pub fn finding_report(dir: &Path, m: &Meta, solvers: &[crate::solver::SolverSpec]) -> String {
    use crate::oracle::{BlameBy, BugKind};
    let spec = solvers.iter().find(|s| s.name == m.blamed);
    let version = m.blamed_version.clone().or_else(|| spec.and_then(|s| s.version.clone()));
    let who = match (&version, spec) {
        (Some(v), Some(s)) => {
            let family = serde_json::to_value(s.family).ok().and_then(|f| f.as_str().map(String::from));
            format!("{} {v}", family.filter(|f| f != "other").unwrap_or_else(|| s.name.clone()))
        }
        (Some(v), None) => format!("{} {v}", m.blamed),
        (None, _) => m.blamed.clone(),
    };
    let what = match m.kind {
        BugKind::Crash => format!("crash ({})", m.signature.lines().next().unwrap_or("")),
        BugKind::InvalidModel => "`sat` with a model that fails the solver's own model check".to_string(),
        BugKind::Soundness if m.blame_by == BlameBy::SelfContradiction => {
            format!("contradicts itself on one assertion stack: {}", m.signature)
        }
        BugKind::Soundness => format!("wrong answer: {}", m.signature),
    };
    let (input_name, input) = match std::fs::read_to_string(dir.join("reduced.smt2")) {
        Ok(t) => ("reduced.smt2", t),
        Err(_) => ("trigger.smt2", std::fs::read_to_string(dir.join("trigger.smt2")).unwrap_or_default()),
    };
    // As the blamed solver was asked: its own dialect of the text, its model check first.
    let own = crate::smtlib::parse(&input)
        .ok()
        .and_then(|s| spec.map(|spec| crate::smtlib::print(&spec.own_script(&s))))
        .unwrap_or_else(|| input.clone());
    let validation = spec.map_or("", |s| s.family.dialect().model_validation);
    let file = format!("{validation}{own}");
    let mut r = String::new();
    let _ = writeln!(r, "# {who}: {what}\n");
    let _ = writeln!(r, "Found by smtstorm ({} engine, logic {}). Finding `{}`.\n", m.engine, m.logic, m.id);
    let _ = writeln!(r, "## Versions\n");
    let _ = writeln!(r, "- Affected: {who}{}", if m.seed_finding { " (the unmutated seed already fails)" } else { "" });
    match &m.fixed_in {
        Some(f) => {
            let _ = writeln!(r, "- Not reproduced from release {f} on (bisected over the installed releases)");
        }
        None if !m.bisection.is_empty() => {
            let _ = writeln!(r, "- No newer installed release was found to answer correctly; asked:");
        }
        None => {}
    }
    for (release, answer) in &m.bisection {
        let _ = writeln!(r, "  - {release}: {answer}");
    }
    let _ = writeln!(r, "\n## Command line\n");
    let command = spec.map_or(m.blamed.clone(), |s| {
        let mut argv: Vec<&str> = s.command.iter().map(|a| a.rsplit('/').next().unwrap_or(a)).collect();
        argv.push("bug.smt2");
        argv.join(" ")
    });
    let _ = writeln!(r, "```sh\n{command}\n```\n");
    let _ = writeln!(r, "## Input (`bug.smt2`, {} bytes)\n", file.len());
    if file.len() <= INLINE_INPUT {
        let _ = writeln!(r, "```smt2\n{}\n```\n", file.trim_end());
    } else {
        let _ = writeln!(
            r,
            "Too long to show here: `{input_name}` in this directory, after the line `{}`.\n",
            validation.trim()
        );
    }
    let _ = writeln!(r, "## Expected and actual\n");
    let blamed = m.answers.iter().find(|a| a.solver == m.blamed);
    let actual = blamed.map_or(String::new(), |a| a.outcomes.join(", "));
    if m.reduction.is_some() {
        let _ = writeln!(r, "Answers below are to the campaign's trigger (`trigger.smt2`); the input above is its reduction, which keeps the same symptom.\n");
    }
    match m.kind {
        BugKind::Crash => {
            let _ = writeln!(r, "- Expected: an answer (`sat`, `unsat` or `unknown`), or an error message");
            let _ = writeln!(r, "- Actual: {}", m.signature);
            if !m.frames.is_empty() {
                // The crash state: what tells this crash from the solver's other ones.
                let _ = writeln!(r, "- Crash state (top frames in the solver's code, from gdb):");
                for f in &m.frames {
                    let _ = writeln!(r, "  - `{f}`");
                }
            }
        }
        BugKind::InvalidModel => {
            let _ = writeln!(r, "- Expected: `sat` with a model that satisfies every assertion, or another answer");
            let _ = writeln!(r, "- Actual: {actual}");
        }
        BugKind::Soundness => {
            let why = match m.blame_by {
                BlameBy::SelfContradiction => "the same answer to every check of the same assertions",
                BlameBy::Construction => {
                    "the answer the input has by construction (Semantic Fusion of two seeds with that answer)"
                }
                BlameBy::Witness => "`sat`: the input is satisfied by the model it was generated from",
                BlameBy::Status => "the seed's `:status`",
                BlameBy::ModelCheck => "the answer a model check settled",
                _ => "the majority of the other solvers' answers",
            };
            let _ = writeln!(r, "- Expected: {why}");
            let _ = writeln!(r, "- Actual: {actual} ({})", m.signature);
        }
    }
    if let Some(a) = blamed.filter(|a| !a.stderr_excerpt.trim().is_empty() || !a.stdout_excerpt.trim().is_empty()) {
        let out = format!("{}\n{}", a.stdout_excerpt.trim(), a.stderr_excerpt.trim());
        let _ = writeln!(r, "\nOutput:\n\n```\n{}\n```", out.trim());
    }
    let _ = writeln!(r, "\n## How it was confirmed\n");
    let _ = writeln!(r, "- Judged {} and confirmed by running the trigger again in fresh processes.", m.blame_by);
    let others: Vec<String> = m
        .answers
        .iter()
        .filter(|a| a.solver != m.blamed)
        .map(|a| format!("{} {}: {}", a.solver, a.version.as_deref().unwrap_or(""), a.outcomes.join(", ")))
        .collect();
    if !others.is_empty() {
        let _ = writeln!(r, "- Other solvers on the same input: {}.", others.join("; "));
    }
    if let Some(red) = &m.reduction {
        let _ = writeln!(
            r,
            "- Reduced from {} to {} bytes by `smtstorm reduce`, each step checked the same way.",
            m.trigger_bytes, red.reduced_bytes
        );
    }
    let _ = writeln!(r, "- Seed: `{}`.", m.seed);
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{BlameBy, BugKind};

    /// Whatever a seed or a solver put into `meta.json` (brackets, quotes, pipes, HTML,
    /// line breaks), the report is written, its tables keep their columns, and the HTML
    /// carries it as text. Before, `"blamed":"[a]("` made the HTML step slice out of
    /// bounds and panic, and so did every `fuzz` that wrote its report.
    #[test]
    fn odd_strings_in_meta_json_are_escaped_not_panicked_on() {
        let out = std::env::temp_dir().join(format!("smtstorm-report-odd-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let odd = ["[a](", "[x](y)", "a|b", "<script>alert(1)</script>", "\"q\" 'q'", "line\nbreak", "\\|]("];
        std::fs::create_dir_all(&out).unwrap();
        let cf = CampaignFile {
            config: Default::default(),
            solvers: vec![],
            runs: 1,
            first_start_unix: 0,
            elapsed_before: 0.0,
        };
        std::fs::write(out.join("campaign.json"), serde_json::to_vec(&cf).unwrap()).unwrap();
        let mut written = 0;
        for (i, s) in odd.iter().enumerate() {
            let m: Meta = serde_json::from_value(serde_json::json!({
                "id": format!("id{i}{s}"), "kind": "crash", "blamed": s, "blamed_version": null,
                "blame_by": "crash", "logic": s, "signature": s, "fixed_in": s, "bisection": [],
                "answers": [], "seed": format!("dir/{s}"), "seed_hash": "", "engine": s, "edits": null,
                "rng_seed": 0, "found_at": i as f64, "found_unix": 0, "run": 1, "trigger_bytes": 1,
                "duplicates": 0, "seed_finding": false
            }))
            .unwrap();
            assert_eq!((m.kind, m.blame_by), (BugKind::Crash, BlameBy::Crash));
            let dir = out.join("bugs/crash").join(format!("d{i}"));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("meta.json"), serde_json::to_vec(&m).unwrap()).unwrap();
            std::fs::write(dir.join("trigger.smt2"), "(check-sat)\n").unwrap();
            written += 1;
        }
        let (md, html) = write(&out).unwrap();
        let md = std::fs::read_to_string(md).unwrap();
        let html = std::fs::read_to_string(html).unwrap();
        let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| [")).collect();
        assert_eq!(rows.len(), written, "{md}");
        for r in &rows {
            assert_eq!(split_row(r).len(), 12, "a cell leaked into another column: {r}");
        }
        assert!(!html.contains("<script>") && html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{html}");
        assert!(html.contains("&quot;q&quot; &#39;q&#39;"));
        assert_eq!(html.matches("/trigger.smt2\">").count(), written, "one linked row per finding: {html}");
        for i in 0..written {
            assert!(out.join(format!("bugs/crash/d{i}/report.md")).is_file(), "finding d{i} has its own report");
        }
        let _ = std::fs::remove_dir_all(&out);
    }

    /// Issue 23: a finding's own `report.md` is ready to file: title with the family and
    /// release, the command line, the reduced input as the blamed solver reads it (with
    /// the model check the campaign asked for), expected against actual, the bisection,
    /// and how it was confirmed.
    #[test]
    fn a_finding_report_is_ready_to_file_upstream() {
        let dir = std::env::temp_dir().join(format!("smtstorm-finding-report-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("trigger.smt2"),
            "(declare-const c Int)(declare-const g Int)(assert (distinct g c))(assert true)(check-sat-using smtfd)\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("reduced.smt2"),
            "(declare-const c Int)(declare-const g Int)(assert (distinct g c))(check-sat-using smtfd)\n",
        )
        .unwrap();
        let m: Meta = serde_json::from_value(serde_json::json!({
            "id": "83aaec6299b0", "kind": "invalid-model", "blamed": "z3-4.8.12", "blamed_version": "4.8.12",
            "blame_by": "validation", "logic": "ALL", "signature": "line column an invalid model was generated",
            "fixed_in": "4.8.17", "bisection": [["4.8.17", "sat"]],
            "answers": [
                {"solver": "z3-4.8.12", "version": "4.8.12", "outcomes": ["invalid-model(an invalid model was generated)"],
                 "stdout_excerpt": "sat", "stderr_excerpt": "", "seconds": 0.1},
                {"solver": "cvc5", "version": "1.4.2", "outcomes": ["sat"], "stdout_excerpt": "sat", "stderr_excerpt": "", "seconds": 0.2}
            ],
            "seed": "seeds/a.smt2", "seed_hash": "", "engine": "config", "edits": [], "rng_seed": 0, "found_at": 1.0,
            "found_unix": 0, "run": 1, "trigger_bytes": 110, "duplicates": 0, "seed_finding": false,
            "reduction": {"original_bytes": 110, "reduced_bytes": 96, "checks": 10, "cache_hits": 0, "refused": 0,
                "successes": 1, "unconfirmed": 0, "seconds": 1.0, "timed_out": false, "by_pass": {}}
        }))
        .unwrap();
        let z3 = crate::solver::SolverSpec {
            name: "z3-4.8.12".into(),
            family: crate::solver::Family::Z3,
            command: vec!["/x/.solvers/z3-4.8.12/bin/z3".into(), "-smt2".into()],
            version: Some("4.8.12".into()),
            restart_every: None,
        };
        let r = finding_report(&dir, &m, &[z3]);
        assert!(r.starts_with("# z3 4.8.12: `sat` with a model that fails the solver's own model check\n"), "{r}");
        assert!(r.contains("```sh\nz3 -smt2 bug.smt2\n```"), "{r}");
        assert!(r.contains("(set-option :model_validate true)\n(declare-const c Int)"), "{r}");
        assert!(!r.contains("(assert true)"), "the reduced input, not the trigger: {r}");
        assert!(r.contains("Not reproduced from release 4.8.17 on") && r.contains("  - 4.8.17: sat"), "{r}");
        assert!(r.contains("- Expected: `sat` with a model that satisfies every assertion"), "{r}");
        assert!(r.contains("- Actual: invalid-model(an invalid model was generated)"), "{r}");
        assert!(r.contains("cvc5 1.4.2: sat") && r.contains("Reduced from 110 to 96 bytes"), "{r}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
