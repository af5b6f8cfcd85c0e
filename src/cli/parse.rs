//! `smtstorm parse`.

use anyhow::Result;
use std::path::PathBuf;

/// Parse (and with --check, sort-check) every .smt2 file under PATHS; report acceptance,
/// round-trip fidelity, unknown symbols and throughput.
#[derive(clap::Args)]
pub(crate) struct ParseCmd {
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
    pub(crate) fn run(&self) -> Result<()> {
        let opts = smtstorm::smtlib::stats::ParseOptions { check: self.check, repeat: self.repeat };
        let report = smtstorm::smtlib::stats::run(&self.paths, &opts)?;
        if self.json {
            outln!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            out!("{}", report.summary());
        }
        Ok(())
    }
}
