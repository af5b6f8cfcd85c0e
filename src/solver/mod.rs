//! Solvers: installed configurations, persistent sessions, one-shot runs, and the
//! classification of what they answer.
//!
//! Every solver process runs in its own process group, so a watchdog can kill it with
//! everything it started; a memory limit is set on the child with `prlimit` as it starts
//! ([`os`]). Sessions drive their pipes with poll(2) ([`pipes`], [`session`]) and one-shot
//! runs read on helper threads ([`oneshot`]), so a solver that hangs, floods its output or
//! never reads its input cannot block the caller past the deadline. Dropping a
//! [`Session`] kills and reaps its process: nothing is left behind.

pub mod allow;
pub mod backtrace;
pub mod behaviour;
pub mod bench;
pub mod caveats;
pub mod check;
pub mod checks;
pub mod family;
mod foreign;
#[cfg(feature = "z3-inprocess")]
pub mod inprocess;
pub mod install;
pub mod limits;
pub mod model;
pub mod oneshot;
pub mod options;
mod os;
pub mod outcome;
mod pipes;
pub mod registry;
pub mod resolve;
pub mod sandbox;
pub mod seed;
pub mod session;

pub use family::{AllowList, Family, OptionOwners};
pub use limits::{Limits, DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_S};
pub use oneshot::{run_argv, run_argv_until, run_file, RawRun};
pub use os::confinement;
pub use outcome::{Outcome, QueryResult};
pub use registry::{Registry, SolverSpec};
pub use session::{failed, query_batches, BatchJob, Framing, Session};

use crate::smtlib::ast::{CommandKind, Nullary, Script};

/// The text a session sends for a script, and its number of check-sats. `(exit)` is left
/// out: it would end the persistent process.
pub fn session_text(s: &Script) -> (String, usize) {
    script_text(s, false)
}

/// The text of a script for a push/pop session ([`Framing::PushPop`]): without
/// `set-logic`, `set-option` and `(exit)`, which belong to the session's prelude. Neither
/// this nor [`session_text`] sends `:status`, which would outlive the query.
pub fn incremental_text(s: &Script) -> (String, usize) {
    script_text(s, true)
}

/// [`session_text`] with the offsets of the heads of its applications and quantifiers
/// ([`crate::smtlib::printer::Printer::heads`]).
pub fn session_text_with_heads(s: &Script) -> (String, usize, rustc_hash::FxHashMap<crate::smtlib::ast::TermId, u32>) {
    let mut p = crate::smtlib::printer::Printer::new(s);
    p.heads = Some(Default::default());
    let checks = print_script(&mut p, s, false);
    let heads = p.heads.take().unwrap_or_default();
    (p.out, checks, heads)
}

fn script_text(s: &Script, incremental: bool) -> (String, usize) {
    let mut p = crate::smtlib::printer::Printer::new(s);
    let checks = print_script(&mut p, s, incremental);
    (p.out, checks)
}

fn print_script(p: &mut crate::smtlib::printer::Printer, s: &Script, incremental: bool) -> usize {
    let mut checks = 0;
    for c in &s.commands {
        match c.kind {
            CommandKind::Nullary(Nullary::Exit) => continue,
            CommandKind::SetLogic(_) | CommandKind::SetOption(_) if incremental => continue,
            // A seed cannot make a solver write files, nor print words that would read as
            // the solver's own (`sandbox`).
            _ if sandbox::never_sent(s, c) => continue,
            // z3 keeps `(set-info :status ...)` across `(pop)` and `(reset)` (4.15.4 and
            // 5.4.0 alike): one stale `unsat` status turns every later `sat` of the session
            // into "check annotation that says unsat", until the process restarts.
            ref k if s.is_status(k) => continue,
            ref k if s.is_check(k) => checks += 1,
            _ => {}
        }
        p.command(&c.kind);
        p.newline();
    }
    checks
}
