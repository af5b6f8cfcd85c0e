//! `smtstorm completions SHELL`.

use anyhow::Result;

/// Print a shell completion script (bash, zsh, fish, elvish, powershell) for every
/// subcommand and flag, e.g. `smtstorm completions bash > ~/.local/share/bash-completion/completions/smtstorm`.
#[derive(clap::Args)]
pub(crate) struct CompletionsCmd {
    /// The shell to complete in.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

impl CompletionsCmd {
    pub(crate) fn run(&self) -> Result<()> {
        // Generated from the one definition of the command line, so no subcommand or flag
        // can be missing from it.
        let mut cmd = <super::Cli as clap::CommandFactory>::command();
        let mut script = Vec::new();
        clap_complete::generate(self.shell, &mut cmd, "smtstorm", &mut script);
        out!("{}", String::from_utf8_lossy(&script));
        Ok(())
    }
}
