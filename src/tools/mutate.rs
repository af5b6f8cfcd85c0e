//! `smtstorm mutate`: mutants of one seed, each with the edits that made it.

use crate::error::{Error, Result};
use crate::mutate::{choice::Rng, edit::Edit, opfuzz};

use crate::smtlib;
use std::path::Path;

/// A mutant and its description.
pub struct Mutant {
    pub edits: Vec<Edit>,
    pub text: String,
}

/// Up to `count` OpFuzz mutants of the seed at `path`; mutant `i` uses RNG seed `seed + i`,
/// so each one replays on its own.
pub fn opfuzz_mutants(path: &Path, seed: u64, count: usize) -> Result<Vec<Mutant>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let script = smtlib::parse(&text).map_err(|e| Error::syntax(path, e))?;
    let prepared = opfuzz::Prepared::new(&script);
    let mut out = vec![];
    for i in 0..count as u64 {
        if let Some((edits, mut m)) = opfuzz::mutate_prepared(&prepared, &mut Rng::new(seed.wrapping_add(i))) {
            crate::mutate::edit::strip_status(&mut m);
            out.push(Mutant { edits, text: smtlib::print(&m) });
        }
    }
    Ok(out)
}

/// A mutant as a file: one comment line with the edits (JSON), then the script.
pub fn render(m: &Mutant) -> String {
    format!("; smtstorm-edits: {}\n{}", serde_json::to_string(&m.edits).unwrap_or_default(), m.text)
}
