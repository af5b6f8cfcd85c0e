//! Option tables cached beside each installed release, so a campaign or a reduction asks
//! a release once (a few seconds each) while smtstorm's rules and the binary stay the same.

use super::{extract, Options};
use crate::solver::{Family, OptionOwners, SolverSpec};
use serde::{Deserialize, Serialize};

/// The rules' fingerprint: the text of this module's files (the types and candidate
/// values, the exclusions, the help parsers, the probes and this cache) and the
/// meaning-changing parameters' ([`crate::smtlib::framing::MEANING_PARAMS`]), so that a
/// table cached by an smtstorm whose rules differ is never read back.
const RULES: u64 = {
    use crate::util::hash::{fnv1a, fnv1a_from};
    let h = fnv1a(include_bytes!("mod.rs"));
    let h = fnv1a_from(h, include_bytes!("exclude.rs"));
    let h = fnv1a_from(h, include_bytes!("help.rs"));
    let h = fnv1a_from(h, include_bytes!("extract.rs"));
    let h = fnv1a_from(h, include_bytes!("cache.rs"));
    fnv1a_from(h, include_bytes!("../../smtlib/framing.rs"))
};

/// A table as cached beside its release.
#[derive(Serialize, Deserialize)]
struct Cached {
    key: String,
    options: Options,
}

/// Where a release's table is cached, and the key it must carry: beside the release as
/// `scripts/setup-solvers.sh` installs it (`.solvers/z3-4.8.12/bin/z3`, with
/// `.solvers/solvers.toml`), as `.solvers/z3-4.8.12/smtstorm-options.json`, keyed by the
/// rules, the binary's size and modification time and the command's arguments. `None` for
/// any other command (a binary elsewhere, a wrapper, a fault proxy): it is asked every
/// time, and nothing is written outside an install.
fn cache_of(spec: &SolverSpec) -> Option<(std::path::PathBuf, String)> {
    // The binary (`.solvers/z3-4.8.12/bin/z3`), or the driver a Python interpreter runs
    // (`.solvers/cvc5/cvc5-smt2`, its package beside it in `py/`); any other wrapper is
    // asked every time.
    let python = spec
        .command
        .first()
        .and_then(|c| std::path::Path::new(c).file_name())
        .is_some_and(|n| n.to_str().is_some_and(|n| n.starts_with("python")));
    let (k, bin, release) = spec.command.iter().take(1 + python as usize).enumerate().find_map(|(k, c)| {
        let bin = std::path::Path::new(c);
        let dir = bin.parent()?;
        let release = if dir.file_name()? == "bin" { dir.parent()? } else { dir };
        release.parent()?.join("solvers.toml").is_file().then_some((k, bin, release))
    })?;
    let meta = std::fs::metadata(bin).ok()?;
    if !meta.is_file() {
        return None;
    }
    let mtime = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?.as_nanos();
    let key = format!("{RULES:016x} {} {mtime} {:?} {:?}", meta.len(), &spec.command[k + 1..], spec.version);
    Some((release.join("smtstorm-options.json"), key))
}

/// [`extract`], read from the release's cache when it was extracted before by the same
/// rules from the same binary (a few seconds a release otherwise), written there after.
/// Returns whether it came from the cache. A cache that does not read or does not match
/// is extracted again; one that cannot be written (a read-only install) is only not kept.
pub fn extract_cached(spec: &SolverSpec) -> std::io::Result<(Options, bool)> {
    let cache = cache_of(spec);
    if let Some((path, key)) = &cache {
        let hit = std::fs::read(path).ok().and_then(|b| serde_json::from_slice::<Cached>(&b).ok());
        if let Some(c) = hit.filter(|c| c.key == *key) {
            return Ok((c.options, true));
        }
    }
    let options = extract(spec)?;
    if let Some((path, key)) = cache {
        let c = Cached { key, options };
        let _ = crate::util::fs::write_atomic(&path, &serde_json::to_vec(&c).unwrap_or_default());
        return Ok((c.options, false));
    }
    Ok((options, false))
}

/// Which family reads which option, from the option tables (from the cache beside each
/// release, else from the solver) of the solvers among `specs` whose families set
/// options in scripts: a finding whose trigger sets bitwuzla's options reaches bitwuzla
/// with them in a process that never ran the configuration engine. A solver that cannot
/// be asked is skipped: its options then go nowhere, and a finding that needs them no
/// longer reproduces, which is said where it is confirmed.
pub fn installed_owners(specs: &[SolverSpec]) -> OptionOwners {
    let mut owners = OptionOwners::default();
    for spec in specs {
        if matches!(spec.family, Family::Cvc5 | Family::Bitwuzla) {
            if let Ok((table, _)) = extract_cached(spec) {
                table.add_owners(spec.family, &mut owners);
            }
        }
    }
    owners
}
