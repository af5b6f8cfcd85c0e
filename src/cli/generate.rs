//! `smtstorm generate`.

use super::opts::GrammarArgs;
use anyhow::Result;
use std::path::PathBuf;

/// Random well-sorted scripts from the signature tables (BanditFuzz's generator). With
/// --accept N: run N scripts of every built-in theory combination on the solvers and
/// print how many each accepted (errors are generator bugs).
#[derive(clap::Args)]
pub(crate) struct GenerateCmd {
    #[command(flatten)]
    grammar: GrammarArgs,
    /// RNG seed: script i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[arg(long, default_value_t = 1)]
    count: usize,
    /// Write scripts as DIR/gen-<seed>.smt2 instead of to stdout.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Acceptance run: N scripts per built-in combination on each --solver.
    #[arg(long, value_name = "N")]
    accept: Option<usize>,
    /// Solvers for --accept (default: z3-5.4.0 and cvc5).
    #[arg(long)]
    solver: Vec<String>,
    /// Per-query limit in seconds for --accept.
    #[arg(long, default_value_t = 2.0)]
    timeout: f64,
}

impl GenerateCmd {
    pub(crate) fn run(&self) -> Result<i32> {
        use smtstorm::generate::{acceptance, scripts, Grammar};
        if let Some(n) = self.accept {
            let reg = smtstorm::solver::resolve::default_registry()?;
            let names =
                if self.solver.is_empty() { vec!["z3-5.4.0".into(), "cvc5".into()] } else { self.solver.clone() };
            let specs = smtstorm::solver::resolve::resolve(&reg, &names)?;
            let rows = acceptance::run(
                &acceptance::combinations(),
                &specs,
                n,
                self.seed,
                super::opts::timeout_seconds(self.timeout)?,
            );
            outln!("{}", acceptance::markdown(&rows));
            return Ok(if rows.iter().any(|r| r.error + r.crash > 0) { 1 } else { 0 });
        }
        let g = Grammar::new(self.grammar.config())?;
        if let Some(dir) = &self.out {
            std::fs::create_dir_all(dir)?;
        }
        for (seed, text) in scripts(&g, self.seed, self.count) {
            match &self.out {
                Some(dir) => smtstorm::util::fs::write_atomic(&dir.join(format!("gen-{seed}.smt2")), text.as_bytes())?,
                None => out!("{text}"),
            }
        }
        Ok(0)
    }
}
