//! A finding's own pages: `report.md`, ready to file upstream, and `report.html`, what a
//! person reads first (the reduced trigger, how each solver reproduces it, every answer,
//! the bisection and the crash state).

use super::environment::Environment;
use super::rerun::Shown;
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
/// ranges, and for a finding without a reduction). Each release's answer is to
/// `trigger.smt2`: shown only when the report shows that input (issue 42).
fn bisection_lines(r: &mut String, m: &Meta, shown_input: &str) {
    let on_shown = shown_input == layout::TRIGGER;
    let on = if on_shown {
        String::new()
    } else {
        format!(", on `{}`; its answers are in `{}`", layout::TRIGGER, layout::META)
    };
    if let Some(why) = m.not_bisected {
        let _ = writeln!(r, "- Not bisected over the installed releases: {}", why.words());
        return;
    }
    match &m.fixed_in {
        Some(f) => {
            // The bisection ran when the finding was stored, on the campaign's trigger: the
            // reduced input can have been fixed in an earlier release.
            let _ = writeln!(r, "- Not reproduced from release {f} on (bisected over the installed releases{on})");
        }
        None if !m.bisection.is_empty() => {
            let _ = writeln!(
                r,
                "- No newer installed release was found to answer correctly{on}{}",
                if on_shown { "; asked:" } else { "" }
            );
        }
        None => {}
    }
    for (release, answer) in m.bisection.iter().filter(|_| on_shown) {
        let _ = writeln!(r, "  - {release}: {answer}");
    }
}

/// The cause's lines of a finding's `report.md` (issue 39): whether it is a dialect
/// difference, its regression range on the reduced trigger with every release's answer,
/// and the other findings of the same cause. `None` without a range. A probe's answers
/// are shown only when the range was taken on `shown_input`, the input the page shows.
pub(super) fn cause_lines(m: &Meta, shown_input: &str) -> Option<Vec<String>> {
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
        match range.on == shown_input {
            true => v.push(format!("  - {}: {verdict} ({})", p.release, p.answers)),
            false => v.push(format!("  - {}: {verdict}", p.release)),
        }
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
        _ => match m.not_bisected {
            Some(why) => format!("not bisected: {}", why.words()),
            None => m.fixed_in.clone().unwrap_or_else(|| "not fixed in the installed releases".into()),
        },
    }
}

/// The largest input a finding's report shows inline (a larger one is linked).
const INLINE_INPUT: usize = 6000;

/// What a finding's pages are written from besides its `meta.json`: the campaign's
/// solvers and per-query limit, the machine and solvers as found once per report, and
/// the answers to the input the pages show.
pub(super) struct Context<'a> {
    pub solvers: &'a [crate::solver::SolverSpec],
    pub timeout: f64,
    pub env: &'a Environment,
    pub shown: &'a Shown,
}

/// A finding as a ready-to-file upstream report: title, versions, command line, the
/// reduced input (as the blamed solver reads it, with the model check a campaign asks
/// for), where it ran (OS, the solver's `--version`, how it was installed), expected
/// against actual on that input, and how smtstorm confirmed it. `solvers` are the
/// campaign's definitions and `timeout` its per-query limit in seconds (for the command
/// line). Answers to a reduction are the ones `smtstorm report` re-ran and kept; none
/// are run here.
pub fn finding_report(dir: &Path, m: &Meta, solvers: &[crate::solver::SolverSpec], timeout: f64) -> String {
    let f = FindingDir::new(dir);
    let shown = super::rerun::shown(&f, m, solvers, timeout, false);
    let asked: Vec<crate::solver::SolverSpec> = super::rerun::asked(m, solvers).into_iter().cloned().collect();
    let env = Environment::of(&asked);
    report_md(dir, m, &Context { solvers, timeout, env: &env, shown: &shown })
}

/// A seed's path as a report shows it: a path of this machine is cut to its last
/// directories (where in a benchmark suite it lies), never shown whole.
fn seed_words(seed: &str) -> String {
    match seed.starts_with('/') {
        true => {
            let parts: Vec<&str> = seed.split('/').filter(|p| !p.is_empty()).collect();
            format!("…/{}", parts[parts.len().saturating_sub(4)..].join("/"))
        }
        false => seed.to_string(),
    }
}

/// A solver's output as a report shows it: a word that is an absolute path (a file the
/// solver names in a message, a driver's traceback) is cut to its file name.
pub(super) fn scrub_paths(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut first = true;
        for word in line.split(' ') {
            if !first {
                out.push(' ');
            }
            first = false;
            let start = word.find(|c: char| c != '"' && c != '\'' && c != '(').unwrap_or(0);
            let (lead, path) = word.split_at(start);
            match path.starts_with('/') && path[1..].contains('/') {
                true => {
                    out.push_str(lead);
                    out.push_str(path.rsplit('/').next().unwrap_or(path));
                }
                false => out.push_str(word),
            }
        }
    }
    out
}

/// The command a person runs, from the finding's directory: the program by name
/// ([`crate::solver::install::cli_argv`]), never this machine's paths.
fn command_line(s: &crate::solver::SolverSpec, file: &str, timeout: f64) -> String {
    let limit = crate::util::time::seconds(timeout.clamp(0.001, 1e6));
    crate::solver::install::cli_argv(s, file, limit).iter().map(|w| sh_word(w)).collect::<Vec<_>>().join(" ")
}

pub(super) fn report_md(dir: &Path, m: &Meta, c: &Context) -> String {
    let spec = c.solvers.iter().find(|s| s.name == m.blamed);
    let (who, what) = title(m, spec);
    let (input_name, input) = FindingDir::new(dir).best_input();
    // As the blamed solver was asked: its own dialect of the text, its model check first.
    let validation = spec.map_or("", |s| s.family.dialect().model_validation);
    let file = spec.map_or_else(|| input.clone(), |spec| crate::oracle::confirm::fresh_text_of(spec, &input));
    let mut r = String::new();
    let _ = writeln!(r, "# {who}: {what}\n");
    let _ = writeln!(r, "Found by smtstorm ({} engine, logic {}). Finding `{}`.\n", m.origin, m.logic, m.id);
    let sev = crate::store::severity::of_finding(&FindingDir::new(dir), m, c.solvers);
    let _ = writeln!(r, "Priority: {}.\n", sev.summary());
    for cv in &sev.caveats {
        let _ = writeln!(r, "- `{}`: {}\n", cv.name(), cv.evidence);
    }
    let _ = writeln!(r, "## Versions\n");
    let _ = writeln!(r, "- Affected: {who}{}", if m.seed_finding { " (the unmutated seed already fails)" } else { "" });
    match cause_lines(m, input_name) {
        Some(lines) => {
            for l in lines {
                let _ = writeln!(r, "{l}");
            }
        }
        None => bisection_lines(&mut r, m, input_name),
    }
    environment_lines(&mut r, m, c);
    let _ = writeln!(r, "\n## Command line\n");
    // As it was confirmed: with the solver's own per-query limit, which some findings
    // need (z3 answers `unknown` to a first check at its limit and crashes on the
    // second; without the limit the first check runs on).
    let command = spec.map_or(m.blamed.clone(), |s| command_line(s, "bug.smt2", c.timeout));
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
    match (c.shown.rerun, c.shown.answers.is_empty()) {
        (true, false) => {
            let _ = writeln!(r, "Answers are to the input above (`{input_name}`, as each solver is asked), re-run in fresh processes when this report was written.\n");
        }
        (true, true) => {
            let _ = writeln!(r, "The input above (`{input_name}`) was not re-run yet: `smtstorm report` runs it and shows the answers.\n");
        }
        (false, _) => {}
    }
    super::verdict::lines(&mut r, m, c.shown);
    let _ = writeln!(r, "\n## How it was confirmed\n");
    let _ = writeln!(
        r,
        "- Oracle: {}; judged {} and confirmed by running the trigger again in fresh processes.",
        m.blame_by.oracle(),
        m.blame_by
    );
    let others: Vec<String> = c
        .shown
        .answers
        .iter()
        .filter(|a| a.solver != m.blamed)
        .map(|a| format!("{} {}: {}", a.solver, a.version.as_deref().unwrap_or(""), a.outcomes_text()))
        .collect();
    if !others.is_empty() {
        let _ = writeln!(r, "- Other solvers on the input above: {}.", others.join("; "));
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
    let _ = writeln!(r, "- Seed: `{}`.", seed_words(&m.seed));
    r
}

/// The "Environment" part of `report.md`: the OS, the blamed solver's whole `--version`
/// text and how it was installed, then the other solvers in a line each.
fn environment_lines(r: &mut String, m: &Meta, c: &Context) {
    let _ = writeln!(r, "\n## Environment\n");
    let _ = writeln!(r, "- OS: {}", c.env.os);
    if let Some(facts) = c.env.solvers.get(&m.blamed) {
        let _ = writeln!(r, "- {} installed as: {}", m.blamed, facts.installed);
        match &facts.version_text {
            Some(v) => {
                let _ = writeln!(r, "- `--version`:\n\n```\n{}\n```", scrub_paths(v));
            }
            None => {
                let _ = writeln!(r, "- `--version`: printed nothing");
            }
        }
    }
    let others: Vec<String> = c
        .shown
        .answers
        .iter()
        .filter(|a| a.solver != m.blamed)
        .filter_map(|a| c.env.solvers.get(&a.solver).map(|f| (a, f)))
        .map(|(a, f)| {
            let first = f.version_text.as_deref().and_then(|v| v.lines().next()).unwrap_or("no --version text");
            format!("  - {}: `{}`; {}", a.solver, scrub_paths(first), f.installed)
        })
        .collect();
    if !others.is_empty() {
        let _ = writeln!(r, "{}- The other solvers:", if c.env.solvers.contains_key(&m.blamed) { "\n" } else { "" });
        for l in others {
            let _ = writeln!(r, "{l}");
        }
    }
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
/// `out` is the campaign directory (for the way back). Every answer on the page is to
/// the input it shows ([`super::rerun`]).
pub(super) fn write_page(out: &Path, f: &FindingDir, m: &Meta, c: &Context) -> std::io::Result<()> {
    use crate::util::markup::escape as esc;
    let spec = c.solvers.iter().find(|s| s.name == m.blamed);
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
        ("seed", seed_words(&m.seed)),
        ("OS", c.env.os.clone()),
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
        let _ = writeln!(b, "<h2>Crash state</h2>\n<p>The top frames in the solver's own code, from gdb, when the campaign's trigger crashed it:</p><ol>");
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
    // Each solver that answered, with the file and command it is asked with, by the
    // program's own name (a maintainer runs their own build), and what it is here.
    let asked = super::rerun::asked(m, c.solvers);
    if !asked.is_empty() {
        let _ = writeln!(b, "<h2>Reproduce</h2>\n<p>From this directory; each file is <code>{input_name}</code> as that solver is asked (its dialect, a logic where it needs one, its model check first).</p>");
        for s in asked {
            let text = crate::oracle::confirm::fresh_text_of(s, &input);
            let name = f.write_repro(&s.name, &text)?;
            let facts = c.env.solvers.get(&s.name);
            let version = facts.and_then(|x| x.version_text.as_deref()).unwrap_or("no --version text");
            let installed = facts.map_or("", |x| x.installed.as_str());
            let _ = writeln!(
                b,
                "<h3>{}</h3>\n<pre>{}</pre><p><a href=\"{name}\">{name}</a>; installed as: {}</p><pre>{}</pre>",
                esc(&s.name),
                esc(&command_line(s, &name, c.timeout)),
                esc(installed),
                esc(&scrub_paths(version))
            );
        }
    }
    let _ = writeln!(b, "<h2>Every solver's answer</h2>");
    let note = match (c.shown.rerun, c.shown.answers.is_empty()) {
        (true, false) => format!("To <code>{input_name}</code> as each solver is asked above, re-run in fresh processes when this page was written."),
        (true, true) => format!("<code>{input_name}</code> was not re-run yet: <code>smtstorm report</code> runs it."),
        (false, _) => format!("To <code>{input_name}</code>, confirmed in fresh processes."),
    };
    let _ = writeln!(b, "<p>{note}</p>");
    let _ =
        writeln!(b, "<table><tr><th>solver</th><th>version</th><th>answers</th><th>seconds</th><th>output</th></tr>");
    for a in &c.shown.answers {
        let said = format!("{}\n{}", a.stdout_excerpt.trim(), a.stderr_excerpt.trim());
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.2}</td><td><pre>{}</pre></td></tr>",
            esc(&a.solver),
            esc(a.version.as_deref().unwrap_or("")),
            esc(&a.outcomes_text()),
            a.seconds,
            esc(&scrub_paths(said.trim()))
        );
    }
    let _ = writeln!(b, "</table>");
    if let Some(lines) = cause_lines(m, input_name) {
        let _ = writeln!(b, "<h2>Regression range</h2>\n<pre>{}</pre>", esc(&lines.join("\n")));
    }
    let mut bisection = String::new();
    bisection_lines(&mut bisection, m, input_name);
    if bisection.is_empty() {
        bisection = "- No newer release of this solver was installed to ask.".into();
    }
    let _ = writeln!(
        b,
        "<h2>Bisection</h2>\n<p>Of <code>{}</code>, when the finding was stored.</p>\n<pre>{}</pre>",
        layout::TRIGGER,
        esc(bisection.trim_end())
    );
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
        let mut z3 = crate::solver::SolverSpec::new(
            "z3-4.8.12",
            crate::solver::Family::Z3,
            vec!["/x/.solvers/z3-4.8.12/bin/z3".into(), "-smt2".into()],
        );
        z3.version = Some("4.8.12".into());
        let r = finding_report(&dir, &m, &[z3], 10.0);
        assert!(r.starts_with("# z3 4.8.12: `sat` with a model that fails the solver's own model check\n"), "{r}");
        assert!(r.contains("```sh\nz3 -smt2 -t:10000 bug.smt2\n```"), "{r}");
        assert!(r.contains("(set-option :model_validate true)\n(declare-const c Int)"), "{r}");
        assert!(!r.contains("(assert true)"), "the reduced input, not the trigger: {r}");
        assert!(r.contains("Not reproduced from release 4.8.17 on"), "{r}");
        // The bisection's answers are to the trigger, not to the reduced input shown.
        assert!(!r.contains("  - 4.8.17: sat"), "{r}");
        let on = format!("installed releases, on `{}`; its answers are in `{}`)", layout::TRIGGER, layout::META);
        assert!(r.contains(&on), "the bisected input is named: {r}");
        assert!(r.contains("- Expected: `sat` with a model that satisfies every assertion"), "{r}");
        // Nothing ran: the trigger's answers are not passed off as the reduced input's.
        assert!(r.contains("(`reduced.smt2`) was not re-run yet") && r.contains("- Actual: not re-run"), "{r}");
        assert!(!r.contains("cvc5 1.4.2: sat") && r.contains("Reduced from 110 to 96 bytes"), "{r}");
        assert!(r.contains("- OS: ") && !r.contains("/x/.solvers"), "{r}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A bisection the run's `--time` cut names no fix: neither the table nor the page
    /// says "not fixed in the installed releases", which a search that never reached the
    /// newest release does not know.
    #[test]
    fn a_cut_bisection_says_so_and_claims_no_fix() {
        let m = |not_bisected: Option<&str>| -> Meta {
            serde_json::from_value(serde_json::json!({
                "id": "1", "kind": "regression", "blamed": "z3-5.4.0", "blamed_version": "5.4.0",
                "blame_by": "ladder", "logic": "QF_S", "signature": "timeout where z3-4.8.7 decides", "fixed_in": null,
                "bisection": [["4.12.6", "timeout"]], "not_bisected": not_bisected, "answers": [], "seed": "", "seed_hash": "",
                "engine": "opfuzz", "edits": [], "rng_seed": 0, "found_at": 1.0, "found_unix": 0, "run": 1,
                "trigger_bytes": 10, "duplicates": 0, "seed_finding": false
            }))
            .unwrap()
        };
        let lines = |m: &Meta| {
            let mut r = String::new();
            bisection_lines(&mut r, m, layout::TRIGGER);
            r
        };
        let cut = m(Some("time-up"));
        assert_eq!(cut.not_bisected, Some(crate::store::NotBisected::TimeUp));
        assert_eq!(fixed_words(&cut), "not bisected: the run's `--time` was up before the search ended");
        let r = lines(&cut);
        assert!(r.contains("Not bisected over the installed releases") && !r.contains("No newer"), "{r}");
        assert!(!r.contains("4.12.6"), "a cut search's probes are no answer: {r}");
        let full = m(None);
        assert_eq!(fixed_words(&full), "not fixed in the installed releases");
        assert!(lines(&full).contains("No newer installed release was found to answer correctly"));
    }
}
