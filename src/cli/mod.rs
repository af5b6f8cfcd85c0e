//! The `smtstorm` command line: one file per subcommand (cargo-fuzz's `options/*.rs`),
//! each a small option struct (clap derive) whose `run` turns the flags into the
//! library's arguments (solvers resolved, limits and durations checked), calls into the
//! library and prints what it returns; the work itself is the library's. Options that
//! several subcommands share are in `opts.rs`.

/// `print!` that never panics: a closed stdout (output piped into `head`) is not an
/// error worth dying for; the work's results are in files anyway.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($t)*);
    }};
}

/// `out!` with a newline.
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

mod bandit;
mod bench_solvers;
mod cactus;
mod check;
mod completions;
mod dict;
mod fuzz;
mod generate;
mod merge;
mod mutate;
mod opts;
mod parse;
mod recheck;
mod reduce;
mod report;
mod solvers;
mod storm;
mod storm_check;
mod storm_minimize;
mod triage;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "smtstorm", version, about = "Finds bugs in SMT solvers")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    Parse(parse::ParseCmd),
    Dict(dict::DictCmd),
    Solvers(solvers::SolversCmd),
    Check(check::CheckCmd),
    BenchSolvers(bench_solvers::BenchSolversCmd),
    Mutate(mutate::MutateCmd),
    Fuzz(fuzz::FuzzCmd),
    Report(report::ReportCmd),
    Merge(merge::MergeCmd),
    Recheck(recheck::RecheckCmd),
    StormCheck(storm_check::StormCheckCmd),
    Storm(storm::StormCmd),
    Reduce(reduce::ReduceCmd),
    Triage(triage::TriageCmd),
    StormMinimize(storm_minimize::StormMinimizeCmd),
    Generate(generate::GenerateCmd),
    Bandit(bandit::BanditCmd),
    Cactus(cactus::CactusCmd),
    Completions(completions::CompletionsCmd),
}

/// Exit status when the command itself failed (bad flags, unreadable input).
const EXIT_USAGE: i32 = 2;

/// Parses the command line, runs the subcommand and returns the process's exit status:
/// the subcommand's own (0; 10 when a campaign or triage stored findings, or a recheck
/// finds a finding still failing; 1 when a
/// check found violations), or [`EXIT_USAGE`] with the error on stderr.
pub fn main() -> i32 {
    smtstorm::util::alloc::return_large_frees();
    let cli = Cli::parse();
    let done = |r: anyhow::Result<()>| r.map(|()| 0);
    let r = match &cli.cmd {
        Cmd::Parse(c) => done(c.run()),
        Cmd::Dict(c) => done(c.run()),
        Cmd::Solvers(c) => done(c.run()),
        Cmd::Check(c) => done(c.run()),
        Cmd::BenchSolvers(c) => done(c.run()),
        Cmd::Mutate(c) => done(c.run()),
        Cmd::Bandit(c) => done(c.run()),
        Cmd::Cactus(c) => done(c.run()),
        Cmd::Completions(c) => done(c.run()),
        Cmd::Report(c) => done(c.run()),
        Cmd::Merge(c) => done(c.run()),
        Cmd::Recheck(c) => c.run(),
        Cmd::Reduce(c) => done(c.run()),
        Cmd::StormMinimize(c) => done(c.run()),
        Cmd::Generate(c) => c.run(),
        Cmd::Triage(c) => c.run(),
        Cmd::Storm(c) => c.run(),
        Cmd::StormCheck(c) => c.run(),
        Cmd::Fuzz(c) => c.run(),
    };
    r.unwrap_or_else(|e| {
        eprintln!("smtstorm: {e:#}");
        EXIT_USAGE
    })
}
