//! `smtstorm mutate`.

use anyhow::Result;
use smtstorm::mutate::Engine;
use smtstorm::util::flags::Named;
use std::path::PathBuf;

/// The engines `mutate` runs: those that need a seed alone, and fusion (given the second
/// seed). STORM needs a model from a solver (`smtstorm fuzz --engine storm`), BEC and the
/// configuration engine a solver's answers or tables.
const ON_A_SEED: [Engine; 4] = [Engine::OpFuzz, Engine::TypeFuzz, Engine::ValFuzz, Engine::Fusion];

/// Write mutants of a seed, each preceded by a comment line with its edit list (JSON).
#[derive(clap::Args)]
pub(crate) struct MutateCmd {
    file: PathBuf,
    /// Mutation engine (fusion with --with).
    #[arg(long, default_value = "opfuzz", value_parser = Named::among("engine", &ON_A_SEED))]
    engine: Engine,
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
    /// Semantic Fusion: the second seed, with the same `:status` as FILE.
    #[arg(long, value_name = "FILE")]
    with: Option<PathBuf>,
    /// Write mutants as DIR/<stem>-<i>.smt2 instead of to stdout.
    #[arg(long)]
    out: Option<PathBuf>,
}

impl MutateCmd {
    pub(crate) fn run(&self) -> Result<()> {
        use smtstorm::mutate::file as m;
        let engine = self.engine;
        if (engine == Engine::Fusion) != self.with.is_some() {
            anyhow::bail!("--with FILE and --engine fusion go together");
        }
        let ms = match (&self.bec, &self.with) {
            (_, Some(other)) => m::fusion_mutants(&self.file, other, self.seed, self.count)?,
            (Some(solver), None) => {
                if engine != Engine::ValFuzz {
                    anyhow::bail!("--bec belongs to --engine valfuzz");
                }
                let reg = smtstorm::solver::resolve::default_registry()?;
                let spec = smtstorm::solver::resolve::resolve(&reg, std::slice::from_ref(solver))?.remove(0);
                m::bec_mutants(&self.file, &spec, self.seed, self.count)?
            }
            (None, None) => m::mutants(&self.file, engine, self.seed, self.count)?,
        };
        if ms.is_empty() && self.with.is_some() {
            eprintln!("{}: no fusion mutant: the seeds share no constant of one sort (Int, Real, String, one bit-vector width)", self.file.display());
        } else if ms.is_empty() {
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
