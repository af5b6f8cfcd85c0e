//! `smtstorm dict`.

use anyhow::Result;

/// Print a libFuzzer/AFL++/honggfuzz dictionary derived from the theory tables.
#[derive(clap::Args)]
pub(crate) struct DictCmd {}

impl DictCmd {
    pub(crate) fn run(&self) -> Result<()> {
        out!("{}", smtstorm::smtlib::dict::dictionary());
        Ok(())
    }
}
