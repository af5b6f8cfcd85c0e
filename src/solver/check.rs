//! `smtstorm check`: run files on solvers, each file through a session or a fresh
//! process, and print what each answered. Which solvers ([`super::resolve`]) is not
//! this command's business.

use crate::smtlib;
use crate::solver::{self, run_file, Limits, Outcome, Session, SolverSpec};
use crate::util::error::{Error, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// One file × solver cell.
#[derive(Debug, Clone, Serialize)]
pub struct Cell {
    pub solver: String,
    pub outcomes: Vec<Outcome>,
    pub crash: Option<Outcome>,
    pub wall_s: f64,
    pub cpu_s: Option<f64>,
}

/// One file's row.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub file: String,
    /// `:status` of the file, if it states one.
    pub status: Option<String>,
    pub cells: Vec<Cell>,
}

/// Runs every file on every solver: through one persistent session per solver, or with
/// `oneshot`, in a fresh process per file.
pub fn run(files: &[PathBuf], solvers: &[SolverSpec], limits: &Limits, oneshot: bool) -> Result<Vec<Row>> {
    let files = crate::util::files::collect_smt2(files)?;
    let mut sessions: Vec<Option<Session>> =
        solvers.iter().map(|s| (!oneshot && s.has_session()).then(|| Session::new(s.clone(), *limits))).collect();
    let mut rows = vec![];
    // A fresh process reads the file as this solver is sent it, not the file itself
    // ([`SolverSpec::own_script`]: no option that names a file, no seed text printed).
    let tmp =
        tempfile::Builder::new().prefix("smtstorm-check-").tempdir().map_err(|e| Error::io(Path::new("TMPDIR"), e))?;
    let own_file = tmp.path().join("query.smt2");
    for f in &files {
        let text = crate::util::files::read_input_text(f)?;
        let script = smtlib::parse(&text).map_err(|e| e.in_file(f))?;
        let mut cells = vec![];
        for (spec, sess) in solvers.iter().zip(sessions.iter_mut()) {
            let own = spec.own_script(&script);
            let (query, checks) = solver::session_text(&own);
            let r = match sess {
                Some(s) => s.query(&query, checks),
                None => {
                    std::fs::write(&own_file, &query).map_err(|e| Error::io(&own_file, e))?;
                    run_file(spec, &own_file, checks, limits)
                }
            };
            cells.push(Cell {
                solver: spec.name.clone(),
                outcomes: r.outcomes,
                crash: r.crash,
                wall_s: r.wall.as_secs_f64(),
                cpu_s: r.cpu.map(|c| c.as_secs_f64()),
            });
        }
        rows.push(Row { file: f.display().to_string(), status: script.status().map(String::from), cells });
    }
    Ok(rows)
}

/// Text table of `rows`.
pub fn table(rows: &[Row]) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    for r in rows {
        let _ = writeln!(s, "{}{}", r.file, r.status.as_ref().map(|st| format!("  (status {st})")).unwrap_or_default());
        for c in &r.cells {
            let outs: Vec<String> = c.outcomes.iter().map(|o| o.to_string()).collect();
            let crash = c.crash.as_ref().map(|o| format!("  {o}")).unwrap_or_default();
            let _ = writeln!(s, "  {:<16} {:<24} {:>8.3}s{crash}", c.solver, outs.join(" "), c.wall_s);
        }
    }
    s
}
