//! `smtstorm solvers`.

use anyhow::Result;

/// List the installed solvers (.solvers/solvers.toml) with the versions they report.
#[derive(clap::Args)]
pub(crate) struct SolversCmd {
    #[arg(long)]
    json: bool,
}

impl SolversCmd {
    pub(crate) fn run(&self) -> Result<()> {
        let reg = smtstorm::solver::resolve::default_registry()?;
        let found = smtstorm::solver::resolve::list(&reg);
        if self.json {
            outln!("{}", serde_json::to_string_pretty(&found)?);
        } else if found.is_empty() {
            outln!("no solvers installed: run scripts/setup-solvers.sh");
        } else {
            for f in found {
                outln!(
                    "{:<14} {:<9} {}",
                    f.name,
                    format!("{:?}", f.family).to_lowercase(),
                    f.reported_version.unwrap_or_else(|| "(no version)".into())
                );
            }
        }
        if !self.json {
            // What keeps solvers from writing files on this machine (`solver::sandbox`).
            outln!("sandbox: {}", smtstorm::solver::confinement());
        }
        Ok(())
    }
}
