//! A finding's own pages: `report.md`, ready to file upstream, and `report.html`, what a
//! person reads first (the reduced trigger, how each solver reproduces it, every answer,
//! the bisection and the crash state).

use crate::store::{layout, FindingDir, Meta};
use std::fmt::Write;
use std::path::Path;

/// Who is blamed, in words (`z3 4.8.12`), and what went wrong (the report's title).
fn title(m: &Meta, spec: Option<&crate::solver::SolverSpec>) -> (String, String) {
    use crate::oracle::{BlameBy, BugKind};
    let version = m.blamed_version.clone().or_else(|| spec.and_then(|s| s.version.clone()));
    let who = match (&version, spec) {
        (Some(v), Some(s)) => {
            let family = serde_json::to_value(s.family).ok().and_then(|f| f.as_str().map(String::from));
            format!("{} {v}", family.filter(|f| f != "other").unwrap_or_else(|| s.name.clone()))
        }
        (Some(v), None) => format!("{} {v}", m.blamed),
        (None, _) => m.blamed.clone(),
    };
    let words = crate::oracle::signature_words(&m.signature);
    let what = match m.kind {
        BugKind::Crash => format!("crash ({})", words.lines().next().unwrap_or("")),
        BugKind::InvalidModel => "`sat` with a model that fails the solver's own model check".to_string(),
        BugKind::CheckFailed => format!("its own self-check fails: {words}"),
        BugKind::Soundness if m.blame_by == BlameBy::SelfContradiction => {
            format!("contradicts itself on one assertion stack: {words}")
        }
        BugKind::Soundness if m.blame_by == BlameBy::Metamorphic => {
            let relations = crate::mutate::equisat::relation_names(&m.edits).join(", ");
            format!("answers an equisatisfiable variant otherwise: {words} (relations: {relations})")
        }
        BugKind::Soundness => format!("wrong answer: {words}"),
        BugKind::Regression => format!("regression (incompleteness, not a wrong answer): {words}"),
    };
    (who, what)
}

/// How the trigger as found was bisected when the finding was stored (before issue 39's
/// ranges, and for a finding without a reduction).
fn bisection_lines(r: &mut String, m: &Meta) {
    match &m.fixed_in {
        Some(f) => {
            // The bisection ran when the finding was stored, on the campaign's trigger: the
            // reduced input can have been fixed in an earlier release.
            let on = if m.reduction.is_some() { format!(", on `{}`", layout::TRIGGER) } else { String::new() };
            let _ = writeln!(r, "- Not reproduced from release {f} on (bisected over the installed releases{on})");
        }
        None if !m.bisection.is_empty() => {
            let _ = writeln!(r, "- No newer installed release was found to answer correctly; asked:");
        }
        None => {}
    }
    for (release, answer) in &m.bisection {
        let _ = writeln!(r, "  - {release}: {answer}");
    }
}

/// The cause's lines of a finding's `report.md` (issue 39): whether it is a dialect
/// difference, its regression range on the reduced trigger with every release's answer,
/// and the other findings of the same cause. `None` without a range.
pub(super) fn cause_lines(m: &Meta) -> Option<Vec<String>> {
    let range = m.cause.range.as_ref()?;
    let mut v = vec![];
    if let Some(c) = m.cause.dialect.as_deref().and_then(crate::oracle::semantics::change) {
        v.push(format!(
            "- **A dialect difference, not a bug**: only releases before {} {} show it, and the input uses what changed. {} (Evidence: {}.)",
            c.since, c.family_name(), c.what, c.evidence
        ));
    }
    let family = m.cause.family.as_deref().unwrap_or("the solver");
    v.push(format!("- Regression range of `{}` over the installed releases of {family}: {}", range.on, range.words()));
    for p in &range.probes {
        let verdict = match p.verdict {
            crate::store::identity::ProbeVerdict::Fails => "fails",
            crate::store::identity::ProbeVerdict::Passes => "passes",
            crate::store::identity::ProbeVerdict::Inconclusive => "inconclusive",
        };
        v.push(format!("  - {}: {verdict} ({})", p.release, p.answers));
    }
    if !m.cause.instances.is_empty() {
        v.push(format!(
            "- The same cause was also found as {} other finding(s), kept under `{}/`:",
            m.cause.instances.len(),
            layout::INSTANCES
        ));
        for i in &m.cause.instances {
            let size =
                i.reduced_bytes.map_or(format!("{} bytes", i.trigger_bytes), |b| format!("reduced to {b} bytes"));
            v.push(format!(
                "  - `{}`: {} ({}), logic {}, {size}, found {} time(s)",
                i.id,
                i.blamed,
                i.blamed_version.as_deref().unwrap_or("?"),
                i.logic,
                i.found
            ));
        }
    }
    Some(v)
}

/// What the campaign's table says in its "fixed in" column: the range on the reduced
/// trigger where there is one (and that a dialect difference is no bug), else the
/// bisection of the trigger as found.
pub(super) fn fixed_words(m: &Meta) -> String {
    match (&m.cause.range, &m.cause.dialect) {
        (Some(r), Some(d)) => format!("dialect difference ({d}): {}", r.words()),
        (Some(r), None) => r.words(),
        _ => m.fixed_in.clone().unwrap_or_else(|| "not fixed in the installed releases".into()),
    }
}

/// The largest input a finding's report shows inline (a larger one is linked).
const INLINE_INPUT: usize = 6000;

/// A finding as a ready-to-file upstream report: title, versions, command line, the
/// reduced input (as the blamed solver reads it, with the model check a campaign asks
/// for), expected against actual, and how smtstorm confirmed it. `solvers` are the
/// campaign's definitions and `timeout` its per-query limit in seconds (for the command
/// line).
pub fn finding_report(dir: &Path, m: &Meta, solvers: &[crate::solver::SolverSpec], timeout: f64) -> String {
    use crate::oracle::{BlameBy, BugKind};
    let spec = solvers.iter().find(|s| s.name == m.blamed);
    let (who, what) = title(m, spec);
    let (input_name, input) = FindingDir::new(dir).best_input();
    // As the blamed solver was asked: its own dialect of the text, its model check first.
    let validation = spec.map_or("", |s| s.family.dialect().model_validation);
    let file = spec.map_or_else(|| input.clone(), |spec| crate::oracle::confirm::fresh_text_of(spec, &input));
    let mut r = String::new();
    let _ = writeln!(r, "# {who}: {what}\n");
    let _ = writeln!(r, "Found by smtstorm ({} engine, logic {}). Finding `{}`.\n", m.origin, m.logic, m.id);
    let sev = crate::store::severity::of_finding(&FindingDir::new(dir), m, solvers);
    let _ = writeln!(r, "Priority: {}.\n", sev.summary());
    for c in &sev.caveats {
        let _ = writeln!(r, "- `{}`: {}\n", c.name(), c.evidence);
    }
    let _ = writeln!(r, "## Versions\n");
    let _ = writeln!(r, "- Affected: {who}{}", if m.seed_finding { " (the unmutated seed already fails)" } else { "" });
    match cause_lines(m) {
        Some(lines) => {
            for l in lines {
                let _ = writeln!(r, "{l}");
            }
        }
        None => bisection_lines(&mut r, m),
    }
    let _ = writeln!(r, "\n## Command line\n");
    // As it was confirmed: with the solver's own per-query limit, which some findings
    // need (z3 answers `unknown` to a first check at its limit and crashes on the
    // second; without the limit the first check runs on).
    let command = spec.map_or(m.blamed.clone(), |s| {
        let limit = crate::util::time::seconds(timeout.clamp(0.001, 1e6));
        let argv = s.file_argv(Path::new("bug.smt2"), limit);
        argv.iter().map(|a| a.rsplit('/').next().unwrap_or(a)).collect::<Vec<_>>().join(" ")
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
    let actual = blamed.map_or(String::new(), |a| a.outcomes_text());
    if m.reduction.is_some() {
        let _ = writeln!(r, "Answers below are to the campaign's trigger (`{}`); the input above is its reduction, which keeps the same symptom.\n", layout::TRIGGER);
    }
    match m.kind {
        BugKind::Crash => {
            let _ = writeln!(r, "- Expected: an answer (`sat`, `unsat` or `unknown`), or an error message");
            let _ = writeln!(r, "- Actual: {}", crate::oracle::signature_words(&m.signature));
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
        BugKind::CheckFailed => {
            // The check options in the trigger never change the answer: the solver's own
            // re-check of its answer (core, proof, lemma) is what failed.
            let _ = writeln!(r, "- Expected: the answer, with the self-check the input switches on passing");
            let _ = writeln!(r, "- Actual: {actual} ({})", crate::oracle::signature_words(&m.signature));
        }
        BugKind::Regression => {
            let older = crate::oracle::regress::older_in(&m.signature).unwrap_or("an older release");
            let said = m.answers.iter().find(|a| a.solver == older);
            let (was, secs) = said.map_or((String::new(), 0.0), |a| (a.outcomes_text(), a.seconds));
            let _ = writeln!(r, "- Expected: the answer {older} gives (`{was}`, in {secs:.2} s, median of {} fresh runs), within 10× its time", crate::oracle::regress::REPEATS);
            let secs = blamed.map_or(0.0, |a| a.seconds);
            let _ =
                writeln!(r, "- Actual: {actual} after {secs:.2} s ({})", crate::oracle::signature_words(&m.signature));
            let _ = writeln!(r, "- Incompleteness, not a wrong answer: no answer given is contradicted");
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
                BlameBy::Metamorphic => {
                    "its own answer to the trigger (the seed side) at the variant its edits build from it \
                     (metamorphic relations that keep every answer)"
                }
                _ => "the majority of the other solvers' answers",
            };
            let _ = writeln!(r, "- Expected: {why}");
            let _ = writeln!(r, "- Actual: {actual} ({})", crate::oracle::signature_words(&m.signature));
        }
    }
    if let Some(a) = blamed.filter(|a| !a.stderr_excerpt.trim().is_empty() || !a.stdout_excerpt.trim().is_empty()) {
        let out = format!("{}\n{}", a.stdout_excerpt.trim(), a.stderr_excerpt.trim());
        let _ = writeln!(r, "\nOutput:\n\n```\n{}\n```", out.trim());
    }
    let _ = writeln!(r, "\n## How it was confirmed\n");
    let _ = writeln!(
        r,
        "- Oracle: {}; judged {} and confirmed by running the trigger again in fresh processes.",
        m.blame_by.oracle(),
        m.blame_by
    );
    let others: Vec<String> = m
        .answers
        .iter()
        .filter(|a| a.solver != m.blamed)
        .map(|a| format!("{} {}: {}", a.solver, a.version.as_deref().unwrap_or(""), a.outcomes_text()))
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
        // A reduction left above 1 KB says why, so that a reader knows whether more time
        // would help (issue 39).
        if !red.why_large.is_empty() {
            let _ = writeln!(r, "- Why it is still this large: {}.", red.why_large.join("; "));
        }
        if let Some(l) = red.check_limit {
            let _ = writeln!(
                r,
                "- Each reduction step ran under a {l} s limit per query (the first query runs to its limit)."
            );
        }
    }
    let _ = writeln!(r, "- Seed: `{}`.", m.seed);
    r
}

/// One shell word: left bare when it is plainly safe, otherwise single-quoted.
fn sh_word(w: &str) -> String {
    if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:+,@%".contains(c)) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// Writes the finding's `report.html` and, for each solver that answered it, the input as
/// that solver is asked (`repro/SOLVER.smt2`: its own dialect, the inferred logic where
/// it needs one, its model check) so the page's command reproduces it as it stands.
/// `out` is the campaign directory (for the way back), `timeout` the campaign's limit.
pub(super) fn write_page(
    out: &Path,
    f: &FindingDir,
    m: &Meta,
    solvers: &[crate::solver::SolverSpec],
    timeout: f64,
) -> std::io::Result<()> {
    use crate::util::markup::escape as esc;
    let spec = solvers.iter().find(|s| s.name == m.blamed);
    let (who, what) = title(m, spec);
    let (input_name, input) = f.best_input();
    let depth = f.path().strip_prefix(out).map_or(3, |r| r.components().count());
    let back = "../".repeat(depth);
    let mut b = String::new();
    let _ = writeln!(b, "<p><a href=\"{back}{}\">← campaign report</a></p>", layout::REPORT_HTML);
    let _ = writeln!(b, "<h1>{}: {}</h1>", esc(&who), esc(&what.replace('`', "")));
    let mut facts: Vec<(&str, String)> = vec![
        ("finding", m.id.clone()),
        ("kind", m.kind.to_string()),
        ("solver", who.clone()),
        ("what", crate::oracle::signature_words(&m.signature)),
        ("oracle", m.blame_by.oracle().to_string()),
        ("decided by", m.blame_by.to_string()),
        ("logic", m.logic.clone()),
        ("engine", m.origin.to_string()),
        ("fixed in", fixed_words(m)),
        ("found", format!("{:.0} s into the campaign (run {})", m.found_at, m.run)),
        ("duplicates", m.duplicates.to_string()),
        ("seed", m.seed.clone()),
    ];
    if m.seed_finding {
        facts.push(("note", "the unmutated seed already fails".into()));
    }
    let _ = writeln!(b, "<table>");
    for (k, v) in facts {
        let _ = writeln!(b, "<tr><th>{k}</th><td>{}</td></tr>", esc(&v));
    }
    let _ = writeln!(b, "</table>");
    if !m.frames.is_empty() {
        let _ = writeln!(b, "<h2>Crash state</h2>\n<p>The top frames in the solver's own code, from gdb:</p><ol>");
        for f in &m.frames {
            let _ = writeln!(b, "<li><code>{}</code></li>", esc(f));
        }
        let _ = writeln!(b, "</ol>");
    }
    let size = match &m.reduction {
        Some(r) => format!("reduced from {} to {} bytes", m.trigger_bytes, r.reduced_bytes),
        None => format!("{} bytes, not reduced", m.trigger_bytes),
    };
    let _ = writeln!(
        b,
        "<h2>Input</h2>\n<p><a href=\"{input_name}\">{input_name}</a> ({size}); the campaign's trigger: <a href=\"{t}\">{t}</a>; everything recorded: <a href=\"{meta}\">{meta}</a>.</p>",
        t = layout::TRIGGER,
        meta = layout::META,
    );
    if input.len() <= INLINE_INPUT {
        let _ = writeln!(b, "<pre>{}</pre>", esc(input.trim_end()));
    } else {
        let _ = writeln!(b, "<p>{} bytes: too long to show here.</p>", input.len());
    }
    // Each solver that answered, with the exact file and command it was asked with.
    let asked: Vec<&crate::solver::SolverSpec> =
        solvers.iter().filter(|s| m.answers.iter().any(|a| a.solver == s.name)).collect();
    if !asked.is_empty() {
        let _ = writeln!(b, "<h2>Reproduce</h2>\n<p>From this directory; each file is the input as that solver was asked (its dialect, a logic where it needs one, its model check first).</p>");
        for s in asked {
            let text = crate::oracle::confirm::fresh_text_of(s, &input);
            let name = f.write_repro(&s.name, &text)?;
            let argv = s.file_argv(Path::new(&name), crate::util::time::seconds(timeout.max(0.001)));
            let cmd: Vec<String> = argv.iter().map(|w| sh_word(w)).collect();
            let _ = writeln!(
                b,
                "<h3>{}</h3>\n<pre>{}</pre><p><a href=\"{name}\">{name}</a></p>",
                esc(&s.name),
                esc(&cmd.join(" "))
            );
        }
    }
    let _ = writeln!(b, "<h2>Every solver's answer</h2>");
    if m.reduction.is_some() {
        let _ = writeln!(
            b,
            "<p>To the campaign's trigger, confirmed in fresh processes; the reduction keeps the symptom.</p>"
        );
    }
    let _ =
        writeln!(b, "<table><tr><th>solver</th><th>version</th><th>answers</th><th>seconds</th><th>output</th></tr>");
    for a in &m.answers {
        let said = format!("{}\n{}", a.stdout_excerpt.trim(), a.stderr_excerpt.trim());
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.2}</td><td><pre>{}</pre></td></tr>",
            esc(&a.solver),
            esc(a.version.as_deref().unwrap_or("")),
            esc(&a.outcomes_text()),
            a.seconds,
            esc(said.trim())
        );
    }
    let _ = writeln!(b, "</table>");
    if let Some(lines) = cause_lines(m) {
        let _ = writeln!(b, "<h2>Regression range</h2>\n<pre>{}</pre>", esc(&lines.join("\n")));
    }
    let _ = writeln!(b, "<h2>Bisection</h2>\n<p>Of the trigger as found, when the finding was stored.</p>");
    match &m.fixed_in {
        Some(f) => {
            let _ = writeln!(b, "<p>Not reproduced from release {} on. Releases asked:</p>", esc(f));
        }
        None if m.bisection.is_empty() => {
            let _ = writeln!(b, "<p>No newer release of this solver was installed to ask.</p>");
        }
        None => {
            let _ = writeln!(b, "<p>No newer installed release answered correctly. Releases asked:</p>");
        }
    }
    if !m.bisection.is_empty() {
        let _ = writeln!(b, "<table><tr><th>release</th><th>answer</th></tr>");
        for (rel, ans) in &m.bisection {
            let _ = writeln!(b, "<tr><td>{}</td><td>{}</td></tr>", esc(rel), esc(ans));
        }
        let _ = writeln!(b, "</table>");
    }
    if let Some(r) = &m.reduction {
        let _ = writeln!(
            b,
            "<h2>Reduction</h2>\n<p>{} → {} bytes in {} checks and {:.1} s by <code>smtstorm reduce</code>.</p>",
            m.trigger_bytes, r.reduced_bytes, r.checks, r.seconds
        );
    }
    let _ = writeln!(b, "<p>Ready to file upstream: <a href=\"{md}\">{md}</a>.</p>", md = layout::REPORT_MD);
    f.write_report_html(&super::page(&format!("{who}: {}", m.id), &b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 23: a finding's own `report.md` is ready to file: title with the family and
    /// release, the command line, the reduced input as the blamed solver reads it (with
    /// the model check the campaign asked for), expected against actual, the bisection,
    /// and how it was confirmed.
    #[test]
    fn a_finding_report_is_ready_to_file_upstream() {
        let dir = std::env::temp_dir().join(format!("smtstorm-finding-report-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let f = FindingDir::new(&dir);
        f.write_trigger(
            "(declare-const c Int)(declare-const g Int)(assert (distinct g c))(assert true)(check-sat-using smtfd)\n",
        )
        .unwrap();
        f.write_reduced(b"(declare-const c Int)(declare-const g Int)(assert (distinct g c))(check-sat-using smtfd)\n")
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
            option_owners: Default::default(),
        };
        let r = finding_report(&dir, &m, &[z3], 10.0);
        assert!(r.starts_with("# z3 4.8.12: `sat` with a model that fails the solver's own model check\n"), "{r}");
        assert!(r.contains("```sh\nz3 -smt2 -t:10000 bug.smt2\n```"), "{r}");
        assert!(r.contains("(set-option :model_validate true)\n(declare-const c Int)"), "{r}");
        assert!(!r.contains("(assert true)"), "the reduced input, not the trigger: {r}");
        assert!(r.contains("Not reproduced from release 4.8.17 on") && r.contains("  - 4.8.17: sat"), "{r}");
        let on = format!("installed releases, on `{}`)", layout::TRIGGER);
        assert!(r.contains(&on), "the bisected input is named: {r}");
        assert!(r.contains("- Expected: `sat` with a model that satisfies every assertion"), "{r}");
        assert!(r.contains("- Actual: invalid-model(an invalid model was generated)"), "{r}");
        assert!(r.contains("cvc5 1.4.2: sat") && r.contains("Reduced from 110 to 96 bytes"), "{r}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
