//! `smtstorm mutate`.

use anyhow::Result;
use std::path::PathBuf;

/// Write mutants of a seed, each preceded by a comment line with its edit list (JSON).
#[derive(clap::Args)]
pub(crate) struct MutateCmd {
    file: PathBuf,
    /// Mutation engine: opfuzz, typefuzz or valfuzz.
    #[arg(long, default_value = "opfuzz")]
    engine: String,
    /// RNG seed: mutant i uses seed + i; the same seed gives the same mutants.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Number of mutants (for --bec: the number of solver rounds).
    #[arg(long, default_value_t = 1)]
    count: usize,
    /// ValFuzz by Boolean Expression Coercion: values come from the model of this solver
    /// (a name from .solvers/solvers.toml or NAME='command args').
    #[arg(long, value_name = "SOLVER")]
    bec: Option<String>,
    /// Write mutants as DIR/<stem>-<i>.smt2 instead of to stdout.
    #[arg(long)]
    out: Option<PathBuf>,
}

impl MutateCmd {
    pub(crate) fn run(&self) -> Result<()> {
        use smtstorm::mutate::file as m;
        // STORM needs a model from a solver: `smtstorm fuzz --engine storm`.
        let Some(engine) =
            smtstorm::mutate::Engine::from_name(&self.engine).filter(|e| *e != smtstorm::mutate::Engine::Storm)
        else {
            anyhow::bail!("unknown engine {:?}: available: opfuzz, typefuzz, valfuzz", self.engine);
        };
        let ms = match &self.bec {
            Some(solver) => {
                if engine != smtstorm::mutate::Engine::ValFuzz {
                    anyhow::bail!("--bec belongs to --engine valfuzz");
                }
                let reg = smtstorm::solver::check::default_registry()?;
                let spec = smtstorm::solver::check::resolve(&reg, std::slice::from_ref(solver))?.remove(0);
                m::bec_mutants(&self.file, &spec, self.seed, self.count)?
            }
            None => m::mutants(&self.file, engine, self.seed, self.count)?,
        };
        if ms.is_empty() {
            eprintln!("{}: no {} mutant", self.file.display(), self.engine);
        }
        match &self.out {
            None => {
                for x in &ms {
                    out!("{}", m::render(x));
                }
            }
            Some(dir) => {
                std::fs::create_dir_all(dir)?;
                let stem = self.file.file_stem().and_then(|s| s.to_str()).unwrap_or("mutant");
                for (i, x) in ms.iter().enumerate() {
                    std::fs::write(dir.join(format!("{stem}-{i}.smt2")), m::render(x))?;
                }
            }
        }
        Ok(())
    }
}
