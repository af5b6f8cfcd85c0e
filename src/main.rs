//! The `smtstorm` command line. Each subcommand is a small option struct whose `run`
//! calls one library function.

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "smtstorm", version, about = "Finds bugs in SMT solvers")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    Parse(ParseCmd),
    Dict(DictCmd),
}

/// Parse (and with --check, sort-check) every .smt2 file under PATHS; report acceptance,
/// round-trip fidelity, unknown symbols and throughput.
#[derive(clap::Args)]
struct ParseCmd {
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Also sort-check every accepted file.
    #[arg(long)]
    check: bool,
    /// Print one JSON object instead of a summary.
    #[arg(long)]
    json: bool,
    /// Time the parse this many times and report the median.
    #[arg(long, default_value_t = 1)]
    repeat: usize,
}

impl ParseCmd {
    fn run(&self) -> Result<()> {
        let opts = smtstorm::tools::parse_stats::ParseOptions { check: self.check, repeat: self.repeat };
        let report = smtstorm::tools::parse_stats::run(&self.paths, &opts)?;
        if self.json {
            println!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            print!("{}", report.summary());
        }
        Ok(())
    }
}

/// Print a libFuzzer/AFL++/honggfuzz dictionary derived from the theory tables.
#[derive(clap::Args)]
struct DictCmd {}

impl DictCmd {
    fn run(&self) -> Result<()> {
        print!("{}", smtstorm::smtlib::dict::dictionary());
        Ok(())
    }
}

fn main() {
    let cli = Cli::parse();
    let r = match &cli.cmd {
        Cmd::Parse(c) => c.run(),
        Cmd::Dict(c) => c.run(),
    };
    if let Err(e) = r {
        eprintln!("smtstorm: {e:#}");
        std::process::exit(2);
    }
}
