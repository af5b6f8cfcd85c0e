//! The driver: passes to a fixpoint, candidates checked in waves of `jobs`, the first
//! interesting one in list order confirmed and taken (see the module overview).

use super::passes::{self, materialize, measure, Ctx, PASSES};
use super::{Check, Judge, Options, ReduceError, Report};
use crate::mutate::scope::Scope;
use crate::smtlib::{self, check, Script};
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

struct State<'j> {
    best: Script,
    text: String,
    size: (usize, usize, usize, usize, usize, usize),
    baseline: usize,
    seen: HashSet<[u8; 32]>,
    report: Report,
    workers: Vec<Box<dyn Check + Send + 'j>>,
    deadline: Option<Instant>,
    /// How many declarations were unused when dropping them all at once was last refused.
    unused_refused: usize,
}

/// Reduces `input` while `judge` finds it interesting. The best text so far is written
/// atomically to `best_out` (with `header` prepended, e.g. a STORM witness line) after
/// every success. Returns the reduced text (without the header) and statistics.
pub fn reduce(
    input: &Script,
    judge: &dyn Judge,
    opts: &Options,
    best_out: Option<&Path>,
    header: &str,
) -> Result<(String, Report), ReduceError> {
    reduce_known(input.clone(), judge, opts, best_out, header, None)
}

/// [`reduce`], where `known` is a text a worker already found interesting (not checked
/// again if the reduction starts from it).
// The input is taken, not borrowed: once a smaller script is found the input is dropped,
// not held beside it for the whole run (a 3 MB input is 24 MB parsed; issue 37).
pub(super) fn reduce_known(
    input: Script,
    judge: &dyn Judge,
    opts: &Options,
    best_out: Option<&Path>,
    header: &str,
    known: Option<String>,
) -> Result<(String, Report), ReduceError> {
    let t0 = Instant::now();
    let text = smtlib::print(&input);
    let jobs = opts.jobs.max(1);
    let mut st = State {
        baseline: check::check(&input).diagnostics.len(),
        size: measure(&input, &text),
        best: input,
        report: Report { original_bytes: text.len(), ..Report::default() },
        text,
        seen: HashSet::new(),
        workers: (0..jobs).map(|i| judge.worker(i)).collect(),
        deadline: opts.time.map(|t| t0 + t),
        unused_refused: 0,
    };
    st.report.checks += 1;
    if !judge.confirm(&st.text) {
        return Err(ReduceError::NotInteresting);
    }
    // Never worse than what is already there: an earlier result in the output file that is
    // smaller, sort-checks as well and still shows the bug is where this run starts (an
    // interrupted or time-limited reduction resumes; a rerun cannot overwrite it with the
    // unreduced input). One that does not show the bug belongs to another input and is
    // overwritten.
    // The input and its text while an earlier result stands in for them.
    let mut displaced: Option<(Script, String)> = None;
    if let Some(earlier) = best_out.and_then(|p| std::fs::read(p).ok()).and_then(|b| smtlib::parse_bytes(&b).ok()) {
        let text = smtlib::print(&earlier);
        if measure(&earlier, &text) < st.size && check::check(&earlier).diagnostics.len() <= st.baseline {
            st.report.checks += 1;
            if judge.confirm(&text) {
                st.report.resumed_from = Some(text.len());
                st.size = measure(&earlier, &text);
                displaced = Some((std::mem::replace(&mut st.best, earlier), std::mem::replace(&mut st.text, text)));
            }
        }
    }
    // (`known` was already checked by the caller.)
    let is_known = |t: &str| known.as_deref() == Some(t);
    if !is_known(&st.text) && !st.workers[0].interesting(&st.text) {
        if let Some((input, text)) = displaced.take().filter(|(_, text)| is_known(text)) {
            // An earlier output that the check the input passed rejects belongs to
            // another input (the judge confirms everything): start from the input.
            st.report.resumed_from = None;
            st.size = measure(&input, &text);
            st.text = text;
            st.best = input;
            st.report.checks += 1;
        } else if !judge.check_like_confirm() {
            return Err(ReduceError::NotInteresting);
        } else {
            // Screening disagrees with confirmation on the original itself (z3 4.8.7
            // validates models in a session but not on a file): screen the way
            // confirmation runs.
            st.workers = (0..jobs).map(|i| judge.worker(i)).collect();
        }
    }
    // Compared: not held through the reduction beside `st.text` (issue 37).
    drop(known);
    let write = |text: &str| -> Result<(), ReduceError> {
        if let Some(p) = best_out {
            crate::util::fs::write_atomic(p, format!("{header}{text}").as_bytes())
                .map_err(|e| ReduceError::Write { path: p.display().to_string(), source: e })?;
        }
        Ok(())
    };
    drop(displaced);
    write(&st.text)?;
    let cleanup = opts.passes.is_empty() || opts.passes.iter().any(|p| p == "unused");
    // Bookkeeping of a success of pass `name` (the text was `bytes` long before it).
    let record = |st: &mut State, name: &str, bytes: usize, t0: Instant| -> Result<(), ReduceError> {
        *st.report.bytes_by_pass.entry(name.to_string()).or_default() += bytes.saturating_sub(st.text.len()) as u64;
        st.report.successes += 1;
        *st.report.by_pass.entry(name.to_string()).or_default() += 1;
        write(&st.text)?;
        if opts.verbose {
            eprintln!(
                "[{:7.1}s] {name}: {} bytes ({} checks)",
                t0.elapsed().as_secs_f64(),
                st.text.len(),
                st.report.checks
            );
        }
        Ok(())
    };
    let mut round = 0;
    // Checks per pass in the current round: in the last one (a fixpoint) none succeeded,
    // which is what a reduction left above 1 KB reports ([`why_large`]).
    let mut this_round: Vec<(&str, u64)> = vec![];
    'rounds: loop {
        let mut progress = false;
        this_round.clear();
        let chosen = PASSES.iter().filter(|p| opts.passes.is_empty() || opts.passes.iter().any(|n| n == p.0));
        for &(name, pass) in chosen.filter(|p| round == 0 || !passes::ONCE.contains(&p.0)) {
            let mut at = 0;
            loop {
                let stopped = opts.stop.is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed));
                // Checked before every wave of at most `jobs` candidates, and inside a
                // wave between candidates that are prepared but refused (`wave`).
                if stopped || st.deadline.is_some_and(|d| Instant::now() >= d) {
                    st.report.timed_out = true;
                    break 'rounds;
                }
                let (checks, bytes) = (st.report.checks, st.text.len());
                let w = wave(&mut st, judge, pass, &mut at);
                if st.report.checks > checks {
                    *st.report.checks_by_pass.entry(name.to_string()).or_default() += st.report.checks - checks;
                    match this_round.iter_mut().find(|p| p.0 == name) {
                        Some(p) => p.1 += st.report.checks - checks,
                        None => this_round.push((name, st.report.checks - checks)),
                    }
                }
                match w {
                    Wave::Done => break,
                    Wave::Nothing => {}
                    Wave::Success => {
                        progress = true;
                        record(&mut st, name, bytes, t0)?;
                        // What the success left unused goes at once, in one check (else
                        // `commands` would go on dropping those declarations one by one,
                        // a check each). Tried again only when more are unused than at
                        // the last refusal.
                        let unused = passes::unused_commands(&st.best).len();
                        if cleanup && name != "unused" && unused > st.unused_refused {
                            let (checks, bytes) = (st.report.checks, st.text.len());
                            let w = wave(&mut st, judge, passes::unused_all, &mut 0);
                            *st.report.checks_by_pass.entry("unused".into()).or_default() += st.report.checks - checks;
                            if let Wave::Success = w {
                                st.unused_refused = 0;
                                record(&mut st, "unused", bytes, t0)?;
                            } else {
                                st.unused_refused = unused;
                            }
                        }
                    }
                }
            }
        }
        if !progress {
            break;
        }
        round += 1;
    }
    st.report.reduced_bytes = st.text.len();
    st.report.seconds = t0.elapsed().as_secs_f64();
    if st.report.reduced_bytes > LARGE {
        st.report.why_large = why_large(&st.best, &st.report, round, &this_round);
    }
    Ok((st.text, st.report))
}

/// Above this many bytes a reduction says why it stopped (issue 39: a maintainer reads a
/// 3-line trigger, not a 1 KB one, and wants to know whether more time would help).
pub const LARGE: usize = 1024;

/// Why the reduction of `s` stopped where it did: the time limit (with the pass it was
/// in) or a fixpoint where every pass's candidates lost the finding (`last`: checks per
/// pass in the last round, none of which succeeded), and the largest commands left.
fn why_large(s: &Script, rep: &Report, round: usize, last: &[(&str, u64)]) -> Vec<String> {
    let mut why = vec![];
    if rep.timed_out {
        let pass = last.last().map_or(String::new(), |p| format!(", in pass `{}`", p.0));
        why.push(format!(
            "stopped by the time limit after {:.0}s, {} checks, round {}{pass}",
            rep.seconds,
            rep.checks,
            round + 1
        ));
    } else {
        let tried: Vec<String> = last.iter().map(|(p, n)| format!("{p} ({n})")).collect();
        why.push(format!(
            "fixpoint after {} rounds: {}",
            round + 1,
            if tried.is_empty() {
                "no pass had a candidate left".into()
            } else {
                format!(
                    "no candidate of these passes kept the finding (checks in the last round): {}",
                    tried.join(", ")
                )
            }
        ));
    }
    let mut sizes: Vec<(usize, String)> = s
        .commands
        .iter()
        .map(|c| {
            let text = crate::smtlib::printer::print_command_with(s, &c.kind, &[]);
            let head: String = text.trim_start_matches('(').split([' ', ')', '\n']).next().unwrap_or("").into();
            (text.len(), head)
        })
        .collect();
    sizes.sort_by_key(|s| std::cmp::Reverse(s.0));
    let big: Vec<String> = sizes.iter().take(3).map(|(n, h)| format!("{h} ({n} bytes)")).collect();
    why.push(format!("{} commands left; the largest: {}", s.commands.len(), big.join(", ")));
    why
}

/// What one check of a wave said.
#[derive(Clone, Copy, Debug, Default)]
struct Verdict {
    ok: bool,
    secs: f64,
    /// Cut at the limit per check.
    timed_out: bool,
    /// Stopped because an earlier candidate had won (the verdict is unknown).
    cut: bool,
}

enum Wave {
    /// The pass has no candidates left.
    Done,
    /// None of this wave's candidates was interesting.
    Nothing,
    Success,
}

/// Prepares up to `jobs` candidates of `pass` from position `*at`, checks them in
/// parallel, and takes the first interesting one in list order. After a success the pass
/// resumes at the winner's position in the new script's list (ddSMT does the same: the
/// candidates before it were tried already).
fn wave(st: &mut State, judge: &dyn Judge, pass: fn(&Ctx) -> Vec<passes::Change>, at: &mut usize) -> Wave {
    let checked = check::check(&st.best);
    let scope = Scope::new(&st.best, &checked);
    let ctx = Ctx { s: &st.best, checked: &checked, scope: &scope };
    let mut changes = pass(&ctx);
    // Held while every candidate of the wave is parsed and checked: without the room its
    // growth left (a pass proposes 200,000 to 1.4 million changes on a 100,000-deep
    // script, issue 37).
    changes.shrink_to_fit();
    if *at >= changes.len() {
        return Wave::Done;
    }
    let jobs = st.workers.len();
    let mut batch: Vec<(usize, String, Script, [u8; 32])> = vec![];
    while *at < changes.len() && batch.len() < jobs {
        if st.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let i = *at;
        *at += 1;
        let parsed = smtlib::parse(&materialize(&ctx, &changes[i]));
        // (The candidate's text goes before it is printed again: on a 3 MB script, each
        // copy held across the check is 3 MB of the reduction's peak, issue 37.)
        let Ok(s) = parsed else {
            st.report.refused += 1;
            continue;
        };
        // Print what was parsed: the text a solver gets is always the canonical print.
        let text = smtlib::print(&s);
        if measure(&s, &text) >= st.size || check::check(&s).diagnostics.len() > st.baseline {
            st.report.refused += 1;
            continue;
        }
        let key: [u8; 32] = Sha256::digest(text.as_bytes()).into();
        if st.seen.contains(&key) || batch.iter().any(|b| b.3 == key) {
            st.report.cache_hits += 1;
            continue;
        }
        batch.push((i, text, s, key));
    }
    if batch.is_empty() {
        return if *at >= changes.len() { Wave::Done } else { Wave::Nothing };
    }
    st.report.checks += batch.len() as u64;
    // Verdicts arrive as checks finish. Once every candidate before an interesting one is
    // known to be boring, that one is confirmed at once (while the others still run); if
    // it is confirmed it wins whatever the later ones say, and they are stopped (`cancel`)
    // instead of being waited for. A cancelled verdict is unknown, not boring.
    let cancel = AtomicBool::new(false);
    let n = batch.len();
    // Per candidate: its verdict, and whether confirmation accepted it (`None`: not asked).
    let (timed, confirmed): (Vec<Verdict>, Vec<Option<bool>>) = std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut handles = vec![];
        for (k, (w, (_, text, _, _))) in st.workers.iter_mut().zip(&batch).enumerate() {
            let (tx, cancel) = (tx.clone(), &cancel);
            handles.push(scope.spawn(move || {
                let t = Instant::now();
                let ok = w.interesting_until(text, cancel);
                let v = Verdict {
                    ok,
                    secs: t.elapsed().as_secs_f64(),
                    timed_out: w.timed_out(),
                    cut: !ok && cancel.load(Ordering::Relaxed),
                };
                let _ = tx.send((k, v));
            }));
        }
        drop(tx);
        let mut got: Vec<Option<Verdict>> = vec![None; n];
        let mut confirmed: Vec<Option<bool>> = vec![None; n];
        for (k, v) in rx {
            got[k] = Some(v);
            for i in 0..n {
                match got[i] {
                    None => break,
                    Some(g) if !g.ok => continue,
                    Some(_) => {
                        let ok = *confirmed[i].get_or_insert_with(|| judge.confirm(&batch[i].1));
                        if ok {
                            cancel.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                }
            }
        }
        // A worker that panicked sent nothing: boring (joined here, so that its panic
        // does not end the scope, and the process, with it).
        for h in handles {
            let _ = h.join();
        }
        (got.into_iter().map(|g| g.unwrap_or_default()).collect(), confirmed)
    });
    for v in &timed {
        st.report.check_seconds += v.secs;
        if v.ok {
            judge.observe(crate::util::time::seconds(v.secs));
        } else {
            st.report.boring_seconds += v.secs;
        }
        st.report.timeouts += u64::from(v.timed_out);
        st.report.cancelled += u64::from(v.cut);
    }
    let winner = confirmed.iter().position(|c| *c == Some(true));
    st.report.unconfirmed += confirmed.iter().filter(|c| **c == Some(false)).count() as u64;
    for k in 0..n {
        // Cached as uninteresting: what was checked to the end and found boring, and what
        // confirmation refused (before the winner; after it, nothing was asked).
        let boring = !timed[k].ok && !timed[k].cut;
        if Some(k) != winner && (boring || confirmed[k] == Some(false)) {
            st.seen.insert(batch[k].3);
        }
    }
    match winner {
        Some(k) => {
            let (i, text, s, _) = batch.swap_remove(k);
            st.size = measure(&s, &text);
            st.best = s;
            st.text = text;
            *at = i;
            Wave::Success
        }
        None => Wave::Nothing,
    }
}
