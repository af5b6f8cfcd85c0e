//! `smtstorm report DIR`: `report.md` and a self-contained `report.html` from a campaign's
//! output directory (bug store, stats log, campaign file), and a page per finding.

mod environment;
mod finding;
mod html;
mod plot;
mod rerun;
mod verdict;

pub use finding::finding_report;
pub use html::html;
use html::page;

use super::{stats, CampaignFile, Stats};
use crate::store::severity::{self, Severity};
use crate::store::{layout, FindingDir, Meta, Store};
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
    /// Finding directories whose `meta.json` does not read, still in place (a campaign
    /// held the store, so they were not moved): not in `findings`, said apart.
    pub unreadable: Vec<PathBuf>,
    /// Findings in `quarantine/`.
    pub quarantined: usize,
}

pub fn load(out: &Path) -> std::io::Result<Data> {
    if !layout::is_store(out) {
        let name = |p: PathBuf| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let why = format!(
            "no {}, {} or {}/: not a campaign directory or a fuzz target's store",
            name(layout::campaign(out)),
            name(layout::bandit(out)),
            layout::BUGS
        );
        return Err(std::io::Error::new(std::io::ErrorKind::NotFound, why));
    }
    let campaign = CampaignFile::read(out).ok().flatten();
    let stats = std::fs::read_to_string(layout::stats(out))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    Ok(Data {
        campaign,
        stats,
        findings: Store::list_in(out),
        perf: crate::store::perf::perf_in(out),
        unreadable: Store::unreadable_in(out).into_iter().map(|(_, d)| d).collect(),
        quarantined: Store::quarantine_count(out),
    })
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
    // Findings that do not read are never left out silently: the tables below cannot
    // show them, so they are counted first.
    if d.quarantined > 0 {
        let _ = writeln!(
            s,
            "\n**{} findings quarantined: see {}/** (their `{}` or trigger did not read; each is kept whole there).",
            d.quarantined,
            layout::QUARANTINE,
            layout::META
        );
    }
    if !d.unreadable.is_empty() {
        let dirs: Vec<String> = d.unreadable.iter().map(|p| format!("`{}`", cell(&rel(out, p)))).collect();
        let _ = writeln!(
            s,
            "\n**{} findings whose {} does not read**, not in the tables below: {}.",
            d.unreadable.len(),
            layout::META,
            dirs.join(", ")
        );
    }
    for (title, seed) in [("Bugs found by fuzzing", false), ("Seed findings (the unmutated seed already fails)", true)]
    {
        // Most important first (issue 39): what a maintainer would fix first is read first.
        let solvers = d.campaign.as_ref().map_or(&[][..], |c| &c.solvers[..]);
        let mut rows: Vec<(FindingDir, &Meta, Severity)> = d
            .findings
            .iter()
            .filter(|f| f.1.seed_finding == seed && f.1.known.is_none())
            .map(|(p, m)| {
                let f = FindingDir::of_meta(p).unwrap_or_else(|| FindingDir::new(p));
                let sev = severity::of_finding(&f, m, solvers);
                (f, m, sev)
            })
            .collect();
        rows.sort_by(|a, b| a.2.cmp_importance(&b.2));
        let tally = crate::store::identity::Tally::of(rows.iter().map(|r| r.1));
        let _ = writeln!(s, "\n## {title}: {}\n", tally.words());
        // Bugs in the mode users run first (issue 40): a plain `check-sat` (or SMT-LIB's
        // standard options, which most users set), then what needs the solver's own
        // options, flags or a tactic pipeline.
        let (default, configured): (Vec<_>, Vec<_>) =
            rows.into_iter().partition(|r| r.2.configuration <= severity::Configuration::StandardOptions);
        for (sub, rows) in [
            ("In the default configuration (plain `check-sat`, standard options)", default),
            ("Under the solver's own options, flags or tactics", configured),
        ] {
            if rows.is_empty() {
                continue;
            }
            let tally = crate::store::identity::Tally::of(rows.iter().map(|r| r.1));
            let _ = writeln!(s, "### {sub}: {}\n", tally.words());
            let _ = writeln!(s, "| id | priority | kind | oracle | solver | logic | what | fixed in | trigger bytes | reduced | duplicates | engine | seed | found at (s) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
            for (f, m, sev) in rows {
                let _ = writeln!(
                    s,
                    "| [{}]({}) | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.0} |",
                    cell(&m.id),
                    cell(&rel(out, &f.report_md_path())),
                    cell(&sev.summary()),
                    m.kind,
                    m.blame_by.oracle(),
                    cell(&m.blamed),
                    cell(&m.logic),
                    cell(&crate::oracle::signature_words(&m.signature)),
                    cell(&finding::fixed_words(m)),
                    m.trigger_bytes,
                    match &m.reduction {
                        Some(r) => format!("[{} bytes]({})", r.reduced_bytes, cell(&rel(out, &f.reduced_path()))),
                        None => "-".into(),
                    },
                    m.duplicates,
                    cell(&m.origin.name()),
                    cell(m.seed.rsplit('/').next().unwrap_or(&m.seed)),
                    m.found_at
                );
            }
            s.push('\n');
        }
    }
    // Causes a team listed as filed (`--known`), and under `--baseline` what is not the
    // build's regression (the baseline shares it): stored, never lost, but not news.
    let parts = [
        ("Known causes (listed by --known)", "listed at", false),
        ("Not regressions of the build (--baseline: the baseline fails too, or not a build under test)", "why", true),
    ];
    for (title, column, baseline) in parts {
        let of_part =
            |m: &Meta| m.known.as_deref().is_some_and(|k| crate::store::known::is_baseline_mark(k) == baseline);
        let known: Vec<&(PathBuf, Meta)> = d.findings.iter().filter(|f| of_part(&f.1)).collect();
        if known.is_empty() {
            continue;
        }
        let tally = crate::store::identity::Tally::of(known.iter().map(|f| &f.1));
        let _ = writeln!(s, "\n## {title}: {}\n", tally.words());
        let _ = writeln!(s, "| id | kind | solver | what | {column} |\n|---|---|---|---|---|");
        for (p, m) in known {
            let f = FindingDir::of_meta(p).unwrap_or_else(|| FindingDir::new(p));
            let mark = m.known.as_deref().unwrap_or("");
            let _ = writeln!(
                s,
                "| [{}]({}) | {} | {} | {} | {} |",
                cell(&m.id),
                cell(&rel(out, &f.report_md_path())),
                m.kind,
                cell(&m.blamed),
                cell(&crate::oracle::signature_words(&m.signature)),
                cell(mark.strip_prefix(crate::store::known::BASELINE_MARK).unwrap_or(mark))
            );
        }
    }
    // The findings come first (what a reader opened the report for); how the campaign
    // ran, and the plots in the HTML, below them.
    let _ = writeln!(s, "\n## Throughput\n\n| run | seconds | mutants | mutants/s | solver calls/s | valid | candidates | unconfirmed | new bugs | duplicates | seed findings | smtstorm CPU % of wall |\n|---|---|---|---|---|---|---|---|---|---|---|---|");
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
    // Where the workers' time went: on a large suite the pre-screen can take half of it.
    let (pre, fuzz) = runs(d).iter().fold((0.0, 0.0), |(a, b), r| (a + r.prescreen_seconds, b + r.fuzz_seconds));
    if pre + fuzz > 0.0 {
        let _ = writeln!(
            s,
            "\nWorkers' time: {pre:.0} s pre-screening seeds ({:.0} %), {fuzz:.0} s in fuzzing turns.",
            100.0 * pre / (pre + fuzz)
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
    let deferred: u64 = runs(d).iter().map(|r| r.seeds_deferred).sum();
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
             {sliced} too slow for every solver and fuzzed as a slice of their assertions; \
             {deferred} left by the quick pre-screen for a screen at the full limit, which the \
             run may not have reached).",
            if cands > 0 { " " } else { "\n" }
        );
    } else if cands > 0 {
        let _ = writeln!(s);
    }
    if !d.perf.is_empty() {
        let _ = writeln!(
            s,
            "\n## Performance benchmarks (BanditFuzz): {}\n\nMargin: the best target's PAR-2 seconds minus the worst reference's; final = medians of the re-scoring runs. ![cactus plot]({})\n\n| benchmark | logic | bytes | made by | margin when found | final margin | final PAR-2 per solver |\n|---|---|---|---|---|---|---|",
            d.perf.len(),
            rel(out, &layout::bandit_file(out, layout::BanditFile::Cactus))
        );
        let mut rows: Vec<&crate::store::perf::PerfMeta> = d.perf.iter().collect();
        rows.sort_by(|a, b| b.final_margin.unwrap_or(b.margin).total_cmp(&a.final_margin.unwrap_or(a.margin)));
        for m in rows {
            let per: Vec<String> = m.final_par2.iter().map(|(n, p)| format!("{} {p:.3}", cell(n))).collect();
            let _ = writeln!(
                s,
                "| [{}]({}) | {} | {} | {} | {:.3} | {} | {} |",
                cell(&m.id),
                cell(&rel(out, &layout::perf_dir(out, &m.id).join(layout::BENCH))),
                cell(&m.logic),
                m.bytes,
                cell(&m.made_by),
                m.margin,
                m.final_margin.map_or("-".into(), |x| format!("{x:.3}")),
                if per.is_empty() { "-".into() } else { per.join(", ") }
            );
        }
    }
    yields(&mut s, d);
    let mut by: BTreeMap<(String, String, String), usize> = BTreeMap::new();
    for (_, m) in d.findings.iter().filter(|f| !f.1.seed_finding) {
        *by.entry((m.origin.to_string(), m.kind.to_string(), format!("{} ({})", m.blame_by.oracle(), m.blame_by)))
            .or_default() += 1;
    }
    if !by.is_empty() {
        let _ = writeln!(
            s,
            "\n## Which engines and oracles found what\n\n| engine | kind | oracle (decided by) | distinct bugs |\n|---|---|---|---|"
        );
        for ((e, k, b), n) in by {
            let _ = writeln!(s, "| {} | {k} | {b} | {n} |", cell(&e));
        }
    }
    s
}

/// The campaign's tallies (per solver, engine and logic) at its end: each run's last
/// stats line, added up over runs.
fn totals(d: &Data) -> stats::Tallies {
    let mut t = stats::Tallies::default();
    for r in runs(d) {
        add_tallies(&mut t, &r.tallies);
    }
    t
}

fn add_tallies(t: &mut stats::Tallies, r: &stats::Tallies) {
    for (solver, per) in &r.outcomes {
        let mine = t.outcomes.entry(solver.clone()).or_default();
        for (o, n) in per {
            *mine.entry(o.clone()).or_default() += n;
        }
    }
    for (mine, theirs) in [(&mut t.engines, &r.engines), (&mut t.logics, &r.logics)] {
        for (k, y) in theirs {
            let e = mine.entry(k.clone()).or_default();
            e.mutants += y.mutants;
            e.valid += y.valid;
            e.candidates += y.candidates;
        }
    }
}

/// Per-engine and per-logic yields: what each made, how much of it the solvers read, and
/// the distinct bugs (fuzzing findings in the store) it led to.
fn yields(s: &mut String, d: &Data) {
    let t = totals(d);
    let fuzzed: Vec<&Meta> = d.findings.iter().map(|f| &f.1).filter(|m| !m.seed_finding).collect();
    for (title, what, table, key) in [
        ("Yield by engine", "engine", &t.engines, (|m: &Meta| m.origin.to_string()) as fn(&Meta) -> String),
        ("Yield by seed logic", "logic", &t.logics, |m: &Meta| m.logic.clone()),
    ] {
        let mut names: Vec<&String> = table.keys().collect();
        let bugs = |n: &str| fuzzed.iter().filter(|m| key(m) == n).count();
        // A finding whose engine or logic the stats do not have (stats lines from before
        // issue 24, a merged store) still gets its row.
        let mut extra: Vec<String> = fuzzed.iter().map(|m| key(m)).filter(|k| !table.contains_key(k)).collect();
        extra.sort();
        extra.dedup();
        names.extend(extra.iter());
        if names.is_empty() {
            continue;
        }
        names.sort_by_key(|n| std::cmp::Reverse(bugs(n)));
        let _ = writeln!(
            s,
            "\n## {title}\n\n| {what} | mutants | read by every solver | candidates | distinct bugs | bugs per 10,000 mutants |\n|---|---|---|---|---|---|"
        );
        for n in names {
            let y = table.get(n).copied().unwrap_or_default();
            let b = bugs(n);
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {b} | {} |",
                cell(n),
                y.mutants,
                if y.mutants > 0 { format!("{:.1} %", 100.0 * y.valid as f64 / y.mutants as f64) } else { "-".into() },
                y.candidates,
                if y.mutants > 0 { format!("{:.2}", 1e4 * b as f64 / y.mutants as f64) } else { "-".into() },
            );
        }
    }
}

/// Each stats line with the counts of earlier runs added (a run's counters start at 0),
/// in campaign time.
fn timeline(d: &Data) -> Vec<(f64, u32, u64, stats::Tallies)> {
    // Cumulative counts start at 0 when the campaign does.
    let mut line = vec![(0.0, d.stats.first().map_or(1, |s| s.run), 0, stats::Tallies::default())];
    let (mut base_m, mut base_t) = (0u64, stats::Tallies::default());
    let mut last: Option<&Stats> = None;
    for s in &d.stats {
        if let Some(l) = last.filter(|l| l.run != s.run) {
            base_m += l.mutants;
            add_tallies(&mut base_t, &l.tallies);
        }
        let mut t = base_t.clone();
        add_tallies(&mut t, &s.tallies);
        line.push((s.campaign_elapsed, s.run, base_m + s.mutants, t));
        last = Some(s);
    }
    line
}

/// The plots over campaign time: distinct bugs (by kind), mutants per second, and each
/// solver's answers by outcome.
pub fn plots(d: &Data) -> String {
    use plot::{chart, Series, PALETTE};
    let mut found: Vec<&Meta> = d.findings.iter().map(|f| &f.1).filter(|m| !m.seed_finding).collect();
    found.sort_by(|a, b| a.found_at.total_cmp(&b.found_at));
    let end = d.stats.iter().map(|s| s.campaign_elapsed).fold(found.last().map_or(0.0, |m| m.found_at), f64::max);
    let staircase = |ms: &[&Meta]| {
        let mut p = vec![(0.0, 0.0)];
        p.extend(ms.iter().enumerate().map(|(i, m)| (m.found_at, (i + 1) as f64)));
        p.push((end, ms.len() as f64));
        p
    };
    let mut bugs = vec![Series { name: "all".into(), color: PALETTE[0], points: staircase(&found) }];
    let kinds: std::collections::BTreeSet<String> = found.iter().map(|m| m.kind.to_string()).collect();
    if kinds.len() > 1 {
        for (i, k) in kinds.iter().enumerate() {
            let of: Vec<&Meta> = found.iter().copied().filter(|m| m.kind.to_string() == *k).collect();
            bugs.push(Series { name: k.clone(), color: PALETTE[(i + 1) % PALETTE.len()], points: staircase(&of) });
        }
    }
    let mut out = String::from("<div class=\"plots\">");
    out.push_str(&chart("Distinct bugs found", "bugs", &bugs, true, 560.0));
    let line = timeline(d);
    let rate: Vec<(f64, f64)> = line
        .windows(2)
        .filter(|w| w[0].1 == w[1].1 && w[1].0 > w[0].0)
        .map(|w| (w[1].0, (w[1].2 - w[0].2.min(w[1].2)) as f64 / (w[1].0 - w[0].0)))
        .collect();
    out.push_str(&chart(
        "Mutants per second",
        "mutants/s",
        &[Series { name: "mutants/s".into(), color: PALETTE[2], points: rate }],
        false,
        560.0,
    ));
    let solvers: std::collections::BTreeSet<&String> = line.iter().flat_map(|p| p.3.outcomes.keys()).collect();
    for solver in solvers {
        let names: std::collections::BTreeSet<&String> =
            line.iter().filter_map(|p| p.3.outcomes.get(solver)).flat_map(|o| o.keys()).collect();
        let series: Vec<Series> = names
            .into_iter()
            .map(|o| Series {
                name: o.clone(),
                color: plot::outcome_color(o),
                points: line
                    .iter()
                    .map(|p| (p.0, p.3.outcomes.get(solver).and_then(|x| x.get(o)).copied().unwrap_or(0) as f64))
                    .collect(),
            })
            .collect();
        out.push_str(&chart(&format!("{solver}: answers by outcome"), "check-sat answers", &series, false, 560.0));
    }
    out.push_str("</div>");
    out
}

/// Writes `report.md` and `report.html` into `out`, and each finding's own `report.md`
/// ([`finding_report`]); returns the campaign's two paths.
pub fn write(out: &Path) -> std::io::Result<(PathBuf, PathBuf)> {
    write_with(out, true)
}

/// [`write`]; `rerun`: a reduction's answers not yet cached are asked of the solvers
/// now ([`rerun::shown`]), else a page shows only those cached.
pub fn write_with(out: &Path, rerun: bool) -> std::io::Result<(PathBuf, PathBuf)> {
    let d = load(out)?;
    let (md, html_path) = (layout::report_md(out), layout::report_html(out));
    crate::util::fs::write_atomic(&md, markdown(out, &d).as_bytes())?;
    crate::util::fs::write_atomic(&html_path, html(out, &d).as_bytes())?;
    let mut solvers = d.campaign.as_ref().map_or(vec![], |c| c.solvers.clone());
    // campaign.json carries no option tables: a repro keeps cvc5's and bitwuzla's own
    // options (a configuration finding's trigger) only with their installed tables.
    if !d.findings.is_empty() {
        let owners = crate::solver::options::installed_owners(&solvers);
        solvers.iter_mut().for_each(|s| s.option_owners.merge(&owners));
    }
    let solvers = &solvers[..];
    let timeout = d.campaign.as_ref().map_or(10.0, |c| c.config.timeout);
    // The machine and the solvers are asked once per report, not per finding.
    let env = environment::Environment::of(if d.findings.is_empty() { &[] } else { solvers });
    for (meta, m) in &d.findings {
        let f = FindingDir::of_meta(meta).unwrap_or_else(|| FindingDir::new(out));
        let shown = rerun::shown(&f, m, solvers, timeout, rerun);
        let c = finding::Context { solvers, timeout, env: &env, shown: &shown };
        f.write_report_md(&finding::report_md(f.path(), m, &c))?;
        finding::write_page(out, &f, m, &c)?;
    }
    Ok((md, html_path))
}

#[cfg(test)]
mod tests {
    use super::html::split_row;
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
        cf.write(&out).unwrap();
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
            let f = FindingDir::new(&dir);
            f.write_meta(&m).unwrap();
            f.write_trigger("(check-sat)\n").unwrap();
            written += 1;
        }
        let (md, html) = write(&out).unwrap();
        let md = std::fs::read_to_string(md).unwrap();
        let html = std::fs::read_to_string(html).unwrap();
        let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| [")).collect();
        assert_eq!(rows.len(), written, "{md}");
        for r in &rows {
            assert_eq!(split_row(r).len(), 14, "a cell leaked into another column: {r}");
        }
        assert!(!html.contains("<script>alert") && html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{html}");
        assert!(html.contains("&quot;q&quot; &#39;q&#39;"));
        let link = format!("/{}\">", layout::REPORT_HTML);
        assert_eq!(html.matches(&link).count(), written, "one linked row per finding: {html}");
        for i in 0..written {
            let f = FindingDir::new(out.join(format!("bugs/crash/d{i}")));
            assert!(f.report_md_path().is_file(), "finding d{i} has its own report");
            let page = std::fs::read_to_string(f.report_html_path()).unwrap();
            let back = format!("../../../{}", layout::REPORT_HTML);
            assert!(!page.contains("<script>alert") && page.contains(&back), "{page}");
        }
        let _ = std::fs::remove_dir_all(&out);
    }

    /// The report puts findings a plain `check-sat` shows apart from those that need a
    /// solver's own options or a tactic, each under its own count, and names the oracle.
    #[test]
    fn default_configuration_findings_come_apart_with_their_oracle() {
        let out = std::env::temp_dir().join(format!("smtstorm-report-split-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).unwrap();
        let cf = CampaignFile {
            config: Default::default(),
            solvers: vec![],
            runs: 1,
            first_start_unix: 0,
            elapsed_before: 0.0,
        };
        cf.write(&out).unwrap();
        let plain = "(declare-const x Int)\n(assert (> x 0))\n(check-sat)\n";
        let tactic = "(declare-const x Int)\n(assert (> x 0))\n(check-sat-using (then simplify smt))\n";
        let std_opt = "(set-option :produce-models true)\n(declare-const x Int)\n(assert (> x 0))\n(check-sat)\n";
        for (id, by, trigger) in
            [("aplain", "majority", plain), ("btactic", "self-contradiction", tactic), ("cstd", "witness", std_opt)]
        {
            let m: Meta = serde_json::from_value(serde_json::json!({
                "id": id, "kind": "soundness", "blamed": "z3-5.4.0", "blamed_version": "5.4.0",
                "blame_by": by, "logic": "QF_LIA", "signature": "unsat", "fixed_in": null, "bisection": [],
                "answers": [], "seed": "s.smt2", "seed_hash": "", "engine": "opfuzz", "edits": null,
                "rng_seed": 0, "found_at": 1.0, "found_unix": 0, "run": 1, "trigger_bytes": trigger.len(),
                "duplicates": 0, "seed_finding": false
            }))
            .unwrap();
            let f = FindingDir::new(out.join("bugs/soundness").join(id));
            std::fs::create_dir_all(f.path()).unwrap();
            f.write_meta(&m).unwrap();
            f.write_trigger(trigger).unwrap();
        }
        let (md, _) = write(&out).unwrap();
        let md = std::fs::read_to_string(md).unwrap();
        let default = md.find("### In the default configuration").expect("a default-configuration part");
        let configured = md.find("### Under the solver's own options").expect("an options part");
        assert!(default < configured, "{md}");
        let at = |id: &str| md.find(&format!("| [{id}]")).unwrap();
        assert!(at("aplain") > default && at("aplain") < configured, "{md}");
        assert!(at("cstd") > default && at("cstd") < configured, "standard options are the default mode: {md}");
        assert!(at("btactic") > configured, "{md}");
        assert!(
            md.contains("### In the default configuration (plain `check-sat`, standard options): 2 causes"),
            "{md}"
        );
        let row = |id: &str| md.lines().find(|l| l.starts_with(&format!("| [{id}]"))).unwrap().to_string();
        assert_eq!(split_row(&row("aplain"))[3].trim(), "differential");
        assert_eq!(split_row(&row("btactic"))[3].trim(), "self-consistency");
        assert_eq!(split_row(&row("cstd"))[3].trim(), "witness");
        let _ = std::fs::remove_dir_all(&out);
    }
}
