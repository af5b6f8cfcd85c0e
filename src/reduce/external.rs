//! The user's interestingness command as the judge (`smtstorm reduce FILE OUT -- CMD`):
//! exit status 0, or with `--match-output` ddSMT's convention (status and output as the
//! original run's); see [`judge::External`].

use super::{judge, tempdir_in, Options, ReduceError, Report};
use crate::smtlib;
use std::path::Path;
use std::time::{Duration, Instant};

/// The user's interestingness command for [`reduce_external`].
pub struct ExternalCheck {
    pub argv: Vec<String>,
    /// Interesting only if stdout / stderr contains this text.
    pub match_out: Option<String>,
    pub match_err: Option<String>,
    /// `--match-output`: status, stdout and stderr as the original's run (ddSMT's
    /// default); otherwise exit status 0 ([`judge::External`]).
    pub match_output: bool,
    /// Limit per check; `None`: three times what the command took on the original (at
    /// least one second).
    pub timeout: Option<Duration>,
    /// Address-space limit of the command in bytes; `None`: no limit.
    pub memory: Option<u64>,
}

/// The lowest limit per check the adaptive limit goes down to: the shell and solver
/// start-up of a checker script (10–30 ms) many times over, so that a loaded machine does
/// not turn an interesting check into a timeout.
pub const ADAPTIVE_FLOOR: Duration = Duration::from_millis(250);

/// Reduces `input` to `output` while the external ddSMT-style checker `cmd` finds it
/// interesting (see [`judge::External`]). Without `timeout`, the limit per check is three
/// times the command's time on the input (at least a second) and then follows the time of
/// recent interesting checks down as the script shrinks (at least [`ADAPTIVE_FLOOR`]): a
/// 300-byte candidate that runs a second where its 300-byte predecessors crashed in 20 ms
/// is not going to crash, and waiting for it was most of a big trigger's time.
pub fn reduce_external(input: &Path, output: &Path, cmd: ExternalCheck, opts: &Options) -> Result<Report, ReduceError> {
    let t0 = Instant::now();
    let ExternalCheck { argv, match_out, match_err, match_output, timeout, memory } = cmd;
    let text = crate::util::files::read_input_text(input)?;
    let parsed = smtlib::parse(&text);
    let scratch = tempdir_in(&std::env::temp_dir())?;
    let file_name = input.file_name().map_or("input.smt2".into(), |n| n.to_string_lossy().into_owned());
    let mut judge = judge::External {
        argv,
        match_out,
        match_err,
        match_output,
        golden: Default::default(),
        // The user's command gets no memory limit unless one is asked for: it may be a
        // script that starts several solvers, or a solver that needs more than ours.
        // No grace after the limit: the grace is for a solver that enforces its own
        // limit and needs a moment to say so; a user's command is simply stopped (with
        // two seconds of grace, every slow candidate cost its limit plus two seconds).
        limits: crate::solver::Limits {
            time: timeout.unwrap_or(Duration::from_secs(60)),
            grace: Duration::ZERO,
            memory,
            ..Default::default()
        },
        dir: scratch.path().to_path_buf(),
        file_name,
        adaptive_floor: timeout.is_none().then_some(ADAPTIVE_FLOOR),
        recent: Default::default(),
        deadline: opts.time.map(|t| t0 + t),
        stop: opts.stop,
    };
    let original = parsed.as_ref().map_or(text.clone(), smtlib::print);
    // The run that times the original also says whether it is interesting, and if not,
    // why not: the reduction need not ask again (on a large trigger the original is the
    // slowest check of all).
    let took = judge.check_input(&original)?;
    if timeout.is_none() {
        judge.limits.time = (took * 3).max(Duration::from_secs(1));
    }
    let opts = Options { time: opts.time.map(|t| t.saturating_sub(t0.elapsed())), ..opts.clone() };
    match parsed {
        Ok(script) => {
            // The input's text goes: the reduction holds its own print (`original`, the
            // same text once printed, is dropped once compared; issue 37).
            drop(text);
            Ok(super::driver::reduce_known(script, &judge, &opts, Some(output), "", Some(original))?.1)
        }
        Err(e) => super::lines::reduce_lines(&text, &e.to_string(), &judge, &opts, output),
    }
}
