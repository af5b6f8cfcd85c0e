//! A seed file as campaigns fuzz it. Campaigns, the reducer's STORM bound minimisation and
//! anything else that replays a finding's edits on its seed read the seed through
//! [`load`], so that the edits land on the same commands they were made on.

use crate::smtlib::{self, Script};

/// A seed as loaded, and what loading changed.
pub struct Loaded {
    pub script: Script,
    /// Commands removed because they would make a solver write files ([`super::sandbox`]).
    pub sanitized: usize,
    /// A `(check-sat)` was added after the last assertion of a seed that asks nothing
    /// ([`smtlib::slice::with_check_sat`]).
    pub check_sat_added: bool,
}

/// Parses a seed file's bytes, drops the options that would make solvers write files, and
/// adds a check-sat where the seed asserts but never asks.
pub fn load(bytes: &[u8]) -> Result<Loaded, smtlib::SyntaxError> {
    let mut script = smtlib::parse_bytes(bytes)?;
    let mut sanitized = 0;
    if let Some(clean) = super::sandbox::without_file_writers(&script) {
        sanitized = script.commands.len() - clean.commands.len();
        script = clean;
    }
    let asked = smtlib::slice::with_check_sat(&script);
    let check_sat_added = asked.is_some();
    if let Some(a) = asked {
        script = a;
    }
    Ok(Loaded { script, sanitized, check_sat_added })
}

/// The script a finding's edits were made on: the loaded seed, cut to the commands of its
/// slice when the campaign fuzzed a slice of it (`meta.json`'s `seed_slice`).
pub fn as_fuzzed(bytes: &[u8], slice: Option<&[usize]>) -> Result<Script, smtlib::SyntaxError> {
    let s = load(bytes)?.script;
    Ok(match slice {
        Some(keep) => smtlib::slice::keep_commands(&s, keep),
        None => s,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reducer replays a finding's edits on the seed as the campaign fuzzed it: the
    /// file-writing option gone, the check-sat added, then the slice kept.
    #[test]
    fn a_seed_is_replayed_as_the_campaign_fuzzed_it() {
        let text = "(set-option :regular-output-channel \"x.txt\")(declare-const x Int)(assert (> x 1))(assert (< x 0))(simplify x)";
        let l = load(text.as_bytes()).unwrap();
        assert_eq!((l.sanitized, l.check_sat_added), (1, true));
        assert_eq!(
            smtlib::print(&l.script),
            "(declare-const x Int)\n(assert (> x 1))\n(assert (< x 0))\n(check-sat)\n(simplify x)\n"
        );
        let sliced = as_fuzzed(text.as_bytes(), Some(&[0, 1, 3])).unwrap();
        assert_eq!(smtlib::print(&sliced), "(declare-const x Int)\n(assert (> x 1))\n(check-sat)\n");
    }
}
