//! The untyped fallback: ddmin over the lines of an input that does not parse.

use super::{Judge, Options, ReduceError, Report};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The untyped fallback for an input that does not parse even as S-expressions (an
/// unbalanced parenthesis, a stray token; ddSMT stops at those too): ddmin over its lines
/// (Zeller and Hildebrandt, TSE 2002), chunks of half the lines down to single lines,
/// until no line can go. The first interesting candidate in line order wins, so the
/// result is deterministic; each success is written to `output` at once. The caller has
/// found `text` itself interesting.
pub(super) fn reduce_lines(
    text: &str,
    why: &str,
    judge: &dyn Judge,
    opts: &Options,
    output: &Path,
) -> Result<Report, ReduceError> {
    let t0 = Instant::now();
    let deadline = opts.time.map(|t| t0 + t);
    let mut w = judge.worker(0);
    let mut report =
        Report { original_bytes: text.len(), untyped: Some(why.to_string()), checks: 1, ..Report::default() };
    let mut lines: Vec<&str> = text.lines().collect();
    let join = |ls: &[&str]| ls.iter().map(|l| format!("{l}\n")).collect::<String>();
    let mut n = (lines.len() / 2).max(1);
    'outer: loop {
        let mut progress = false;
        let mut i = 0;
        while i < lines.len() {
            let stopped = opts.stop.is_some_and(|f| f.load(Ordering::Relaxed));
            if stopped || deadline.is_some_and(|d| Instant::now() >= d) {
                report.timed_out = true;
                break 'outer;
            }
            let cand: Vec<&str> = lines[..i].iter().chain(&lines[(i + n).min(lines.len())..]).copied().collect();
            let t = join(&cand);
            report.checks += 1;
            if w.interesting(&t) {
                crate::util::fs::write_atomic(output, t.as_bytes())
                    .map_err(|source| ReduceError::Write { path: output.display().to_string(), source })?;
                lines = cand;
                progress = true;
                report.successes += 1;
                *report.by_pass.entry("lines".into()).or_default() += 1;
            } else {
                i += n;
            }
        }
        if !progress {
            if n == 1 {
                break;
            }
            n = (n / 2).max(1);
        }
    }
    let best = join(&lines);
    if report.successes == 0 {
        crate::util::fs::write_atomic(output, best.as_bytes())
            .map_err(|source| ReduceError::Write { path: output.display().to_string(), source })?;
    }
    report.reduced_bytes = best.len();
    report.seconds = t0.elapsed().as_secs_f64();
    Ok(report)
}
