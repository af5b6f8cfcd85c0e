//! Asking a solver for its configuration space and keeping what it accepts: every
//! tactic, parameter value and option value is tried on the solver itself, since a
//! release may list what it then refuses.

use super::help::{command_line_args, parse_listed_options, parse_yices_help, parse_z3_help_tactic};
use super::{Options, Param};
use crate::solver::{Limits, SolverSpec};
use std::time::Duration;

/// yices' command-line options from its own help texts ([`parse_yices_help`]), each
/// value then run on a small script of three logics in the session's own mode
/// (`--incremental`): a value it refuses (a SAT solver it was not built with, one that
/// cannot run incrementally) or one under which it does not answer `sat` three times is
/// dropped.
fn extract_yices(spec: &SolverSpec) -> std::io::Result<Options> {
    let limits = Limits { time: Duration::from_secs(20), ..Limits::default() };
    let mut text = String::new();
    for help in ["--help", "--mcsat-help", "--ef-help"] {
        let mut argv = spec.command.clone();
        argv.push(help.into());
        text.push_str(&crate::solver::run_argv(&argv, &limits)?.stdout);
    }
    let mut listed = parse_yices_help(&text);
    if listed.is_empty() {
        return Err(std::io::Error::other(format!("{} listed no options for --help", spec.name)));
    }
    const PROBE: &str = "(set-logic QF_LIA)(declare-const x Int)(assert (> x 0))(check-sat)(reset)\n\
        (set-logic QF_BV)(declare-const y (_ BitVec 4))(assert (= (bvadd y y) #x2))(check-sat)(reset)\n\
        (set-logic QF_UF)(declare-fun f (Bool) Bool)(assert (f true))(check-sat)\n";
    for p in &mut listed {
        let mut kept = vec![];
        for v in &p.values {
            let run = run_script_with(spec, &command_line_args(&[(p.name.clone(), v.clone())]), PROBE)?;
            if run.status.is_some_and(|s| s.success()) && run.stdout.split_whitespace().eq(["sat"; 3]) {
                kept.push(v.clone());
            }
        }
        p.values = kept;
    }
    listed.retain(|p| !p.values.is_empty());
    Ok(Options { command_line: listed, ..Options::default() })
}

/// A driver's options (`--smtstorm-options`: cvc5's, bitwuzla's), each value then set on
/// a fresh solver that must still answer a `check-sat` ([`validate_set_options`]).
fn extract_listed(spec: &SolverSpec) -> std::io::Result<Options> {
    let mut argv = spec.command.clone();
    argv.push("--smtstorm-options".into());
    let limits = Limits { time: Duration::from_secs(60), ..Limits::default() };
    let run = crate::solver::run_argv(&argv, &limits)?;
    let listed = parse_listed_options(&run.stdout, spec.family).map_err(|e| {
        std::io::Error::other(format!(
            "{} listed no options (--smtstorm-options: {e}; {})",
            spec.name,
            run.stderr.lines().chain(run.stdout.lines()).next().unwrap_or("")
        ))
    })?;
    Ok(Options { set_options: validate_set_options(spec, listed)?, ..Options::default() })
}

/// Sets every (option, value) on a fresh solver (`(reset)` between probes) and asks a
/// `check-sat` on the empty stack: a value the solver refuses, or one it cannot solve
/// under, is dropped, and so is an option left with no value. A process that stops at a
/// probe (the cvc5 driver ends on an error) is restarted after it.
fn validate_set_options(spec: &SolverSpec, listed: Vec<Param>) -> std::io::Result<Vec<Param>> {
    let probes: Vec<(usize, String)> =
        listed.iter().enumerate().flat_map(|(k, p)| p.values.iter().map(move |v| (k, v.clone()))).collect();
    let mut ok = vec![false; probes.len()];
    let mut from = 0;
    while from < probes.len() {
        let mut text = String::new();
        for (i, (k, v)) in probes.iter().enumerate().skip(from) {
            text.push_str(&format!("(set-option :{} {v})\n(check-sat)\n(echo \"@{i}\")\n(reset)\n", listed[*k].name));
        }
        let run = run_script(spec, &text)?;
        let mut reply = String::new();
        let mut last = None;
        for line in run.stdout.lines() {
            if let Some(i) = line.trim().trim_matches('"').strip_prefix('@').and_then(|n| n.parse::<usize>().ok()) {
                if i < ok.len() {
                    ok[i] = reply.trim() == "sat";
                    last = Some(i);
                }
                reply.clear();
            } else {
                reply.push_str(line);
            }
        }
        from = last.map_or(from, |l| l + 1) + 1;
    }
    let mut out = listed;
    for (k, p) in out.iter_mut().enumerate() {
        p.values = probes.iter().zip(&ok).filter(|((j, _), ok)| *j == k && **ok).map(|((_, v), _)| v.clone()).collect();
    }
    out.retain(|p| !p.values.is_empty());
    Ok(out)
}

/// Asks the solver for its configuration space: the tactics `(help-tactic)` lists, then
/// every tactic and every candidate value of every parameter tried on an empty goal
/// ([`validate`]), keeping what the solver reads. cvc5's and bitwuzla's options come from
/// their own Python packages' lists ([`extract_listed`]); yices' command-line options from
/// its help texts ([`extract_yices`]). Whoever reads tables for a run gathers which
/// family reads which `set-option` ([`Options::add_owners`]).
pub fn extract(spec: &SolverSpec) -> std::io::Result<Options> {
    let out = match spec.family {
        crate::solver::Family::Z3 => extract_z3(spec)?,
        crate::solver::Family::Cvc5 | crate::solver::Family::Bitwuzla => extract_listed(spec)?,
        crate::solver::Family::Yices => extract_yices(spec)?,
        crate::solver::Family::Other => Options::default(),
    };
    Ok(out)
}

/// z3's tactics and their parameters from `(help-tactic)`, validated ([`validate`]).
fn extract_z3(spec: &SolverSpec) -> std::io::Result<Options> {
    let run = run_script(spec, "(help-tactic)\n")?;
    let listed = parse_z3_help_tactic(&run.stdout);
    if listed.tactics.is_empty() {
        return Err(std::io::Error::other(format!(
            "{} listed no tactics for (help-tactic): {}",
            spec.name,
            run.stderr.lines().next().unwrap_or("")
        )));
    }
    validate(spec, listed)
}

/// Runs a script file through the solver once (its own process, the usual limits).
fn run_script(spec: &SolverSpec, text: &str) -> std::io::Result<crate::solver::RawRun> {
    run_script_with(spec, &[], text)
}

/// [`run_script`] with command-line arguments after the solver's own (yices' options).
fn run_script_with(spec: &SolverSpec, args: &[String], text: &str) -> std::io::Result<crate::solver::RawRun> {
    let dir = tempfile::Builder::new().prefix("smtstorm-options-").tempdir()?;
    let file = dir.path().join("probe.smt2");
    std::fs::write(&file, text)?;
    let mut argv = spec.command.clone();
    argv.extend_from_slice(args);
    argv.push(file.display().to_string());
    let limits = Limits { time: Duration::from_secs(60), ..Limits::default() };
    crate::solver::run_argv(&argv, &limits)
}

/// One probe of [`validate`]: the tactic, the parameter and value (`None`: the tactic
/// alone), whether it is the name's full value probe, and the command.
type Probe = (usize, Option<(usize, String)>, bool, String);

/// Tries every tactic alone and every (parameter, value) under `using-params` on an empty
/// goal, where each costs well under a millisecond: a tactic or parameter the solver
/// refuses (z3 4.12+ lists `propagate_eq` and refuses it; 4.8.8 refuses
/// `phase_selection 100`) answers with an error and is dropped. Values are tried once per
/// parameter name (at the first tactic that lists it), names at every tactic. A process
/// that dies on a probe (it happens) is restarted after it; the probe it died on counts
/// as refused.
fn validate(spec: &SolverSpec, listed: Options) -> std::io::Result<Options> {
    // (tactic, param and value, whether it is the name's full value probe); `None`: the
    // tactic alone.
    let mut probes: Vec<Probe> = vec![];
    let mut valued = std::collections::HashSet::new();
    for (t, tac) in listed.tactics.iter().enumerate() {
        probes.push((t, None, false, format!("(check-sat-using {})", tac.name)));
        for (k, p) in tac.params.iter().enumerate() {
            let full = valued.insert(p.name.clone());
            for v in p.candidates().into_iter().take(if full { usize::MAX } else { 1 }) {
                let text = format!("(check-sat-using (using-params {} :{} {v}))", tac.name, p.name);
                probes.push((t, Some((k, v)), full, text));
            }
        }
    }
    let mut ok = vec![None::<bool>; probes.len()];
    let mut from = 0;
    while from < probes.len() {
        let mut text = String::from("(set-option :timeout 1000)\n");
        for (i, (_, _, _, c)) in probes.iter().enumerate().skip(from) {
            text.push_str(&format!("{c}\n(echo \"@{i}\")\n"));
        }
        let run = run_script(spec, &text)?;
        let mut reply = String::new();
        let mut last = None;
        for line in run.stdout.lines() {
            if let Some(i) = line.strip_prefix('@').and_then(|n| n.parse::<usize>().ok()) {
                if i < ok.len() {
                    ok[i] = Some(!reply.contains("(error"));
                    last = Some(i);
                }
                reply.clear();
            } else {
                reply.push_str(line);
            }
        }
        // Restart after the probe the process stopped at (or give up if it answered none).
        let next = last.map_or(from, |l| l + 1);
        if next < probes.len() {
            ok[next] = Some(false);
        }
        from = next + 1;
    }
    // Values of a name tried in full at one tactic hold at every tactic that accepts
    // the name.
    let mut full: std::collections::HashMap<&str, Vec<String>> = Default::default();
    for ((t, pv, is_full, _), ok) in probes.iter().zip(&ok) {
        if let (Some((k, v)), true, Some(true)) = (pv, is_full, ok) {
            full.entry(listed.tactics[*t].params[*k].name.as_str()).or_default().push(v.clone());
        }
    }
    let mut out = listed.clone();
    let mut keep = vec![false; out.tactics.len()];
    for ((t, pv, _, _), ok) in probes.iter().zip(&ok) {
        if *ok != Some(true) {
            continue;
        }
        match pv {
            None => keep[*t] = true,
            Some((k, v)) => {
                let p = &mut out.tactics[*t].params[*k];
                p.values.push(v.clone());
                p.values.extend(full.get(p.name.as_str()).into_iter().flatten().cloned());
                p.values.sort();
                p.values.dedup();
            }
        }
    }
    let mut t = 0;
    out.tactics.retain_mut(|tac| {
        t += 1;
        tac.params.retain(|p| !p.values.is_empty());
        keep[t - 1]
    });
    Ok(out)
}
