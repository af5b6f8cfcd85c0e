//! Named solver configurations.
//!
//! A solver is a family (which decides how to talk to it) plus a command line. The
//! installed ones come from `.solvers/solvers.toml` (written by
//! `scripts/setup-solvers.sh`); `--solver 'NAME=command args'` adds any other. The
//! families themselves are [`super::family`]; what a solver is sent, [`super::foreign`].

use super::family::{AllowList, Family, OptionOwners};
use crate::util::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Why a `solvers.toml` does not read.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    #[error(transparent)]
    Toml(toml::de::Error),
    #[error("[solver.{solver}]: empty command")]
    EmptyCommand { solver: String },
}

/// One named solver configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolverSpec {
    pub name: String,
    pub family: Family,
    /// Executable and fixed arguments, without the input (stdin or file).
    pub command: Vec<String>,
    #[serde(default)]
    pub version: Option<String>,
    /// Restart a session's process after this many queries (0: never).
    #[serde(default)]
    pub restart_every: Option<u32>,
    /// Which family reads each option the run's extracted tables list, so that what
    /// this solver is sent ([`SolverSpec::own_script`]) keeps its own and drops the
    /// others' options. Empty as read from a file or a command line: the run that reads
    /// the tables hands them on ([`OptionOwners`]).
    #[serde(skip)]
    pub option_owners: OptionOwners,
    /// The options this solver's own table lets through ([`super::allow`]), read from it
    /// when first needed.
    #[serde(skip)]
    pub allowed: AllowList,
}

impl SolverSpec {
    /// A spec of `family` run as `command`, with no version, restarts or option tables.
    pub fn new(name: &str, family: Family, command: Vec<String>) -> SolverSpec {
        SolverSpec {
            name: name.into(),
            family,
            command,
            version: None,
            restart_every: None,
            option_owners: Default::default(),
            allowed: Default::default(),
        }
    }

    /// A spec from `NAME=command args` or a bare command line.
    pub fn from_command_line(name: &str, cmd: &str) -> Result<SolverSpec> {
        let command: Vec<String> = cmd.split_whitespace().map(String::from).collect();
        let exe = command.first().ok_or_else(|| Error::EmptyCommand { solver: name.into() })?;
        Ok(SolverSpec {
            name: name.into(),
            family: Family::guess(exe),
            command,
            version: None,
            restart_every: None,
            option_owners: OptionOwners::default(),
            allowed: Default::default(),
        })
    }

    pub fn restart_every(&self) -> u32 {
        self.restart_every.unwrap_or_else(|| self.family.default_restart_every())
    }

    /// Whether the solver can run a persistent session over stdin.
    pub fn has_session(&self) -> bool {
        self.family != Family::Other
    }

    /// See [`Family::cannot_read`].
    pub fn cannot_read(&self, s: &crate::smtlib::Script) -> Option<String> {
        self.family.cannot_read(s)
    }

    /// The solver's own per-query time limit, as arguments. The external watchdog stays
    /// in force: a limit the solver ignores must not hang a worker.
    fn limit_args(&self, limit: Duration) -> Vec<String> {
        let ms = limit.as_millis().max(1);
        match self.family {
            Family::Z3 => vec![format!("-t:{ms}")],
            Family::Cvc5 => vec![format!("--tlimit-per={ms}")],
            // yices takes whole seconds.
            Family::Yices => vec![format!("--timeout={}", limit.as_secs().max(1))],
            Family::Bitwuzla => vec![format!("--time-limit-per={ms}")],
            Family::Other => vec![],
        }
    }

    /// Command line of a persistent session reading stdin.
    pub fn session_argv(&self, limit: Duration) -> Vec<String> {
        let mut v = self.command.clone();
        match self.family {
            Family::Z3 => v.push("-in".into()),
            Family::Cvc5 => v.extend(["--lang=smt2".to_string(), "--incremental".to_string()]),
            _ => {}
        }
        v.extend(self.limit_args(limit));
        v
    }

    /// Command line of a one-shot run on a file.
    pub fn file_argv(&self, file: &Path, limit: Duration) -> Vec<String> {
        let mut v = self.command.clone();
        v.extend(self.limit_args(limit));
        v.push(file.display().to_string());
        v
    }
}

#[derive(Deserialize)]
struct TomlFile {
    #[serde(default)]
    solver: BTreeMap<String, TomlSolver>,
}

#[derive(Deserialize)]
struct TomlSolver {
    family: Option<Family>,
    command: Vec<String>,
    version: Option<String>,
    restart_every: Option<u32>,
}

/// The solvers known to this run.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    pub solvers: Vec<SolverSpec>,
}

/// Where installed solvers are described: `$SMTSTORM_SOLVERS_DIR/solvers.toml`, else
/// `.solvers/solvers.toml` in the current directory or its nearest ancestor that has one,
/// else `solvers/solvers.toml` beside the running executable.
pub fn default_toml() -> PathBuf {
    if let Some(d) = std::env::var_os("SMTSTORM_SOLVERS_DIR") {
        return PathBuf::from(d).join("solvers.toml");
    }
    // `.solvers/` of the current directory or the nearest parent that has one, so the
    // tool also works from a subdirectory of the checkout.
    let here = PathBuf::from(".solvers").join("solvers.toml");
    let from_cwd =
        std::env::current_dir().ok().and_then(|cwd| cwd.ancestors().map(|a| a.join(&here)).find(|p| p.is_file()));
    // Fuzz targets shipped with their solvers (OSS-Fuzz: `$OUT/solvers/solvers.toml` next
    // to the binaries) find them wherever they are run from.
    let beside_exe = || {
        let exe = std::env::current_exe().ok()?;
        let p = exe.parent()?.join("solvers").join("solvers.toml");
        p.is_file().then_some(p)
    };
    from_cwd.or_else(beside_exe).unwrap_or(here)
}

impl Registry {
    /// Reads a `solvers.toml`; a missing file gives an empty registry.
    pub fn load(path: &Path) -> Result<Registry> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Registry::default()),
            Err(e) => return Err(Error::io(path, e)),
        };
        let mut reg = Registry::parse(&text).map_err(|m| Error::config(path, m))?;
        // Relative paths (`z3-5.4.0/bin/z3`) are relative to the file's directory, so a
        // solver directory can move with the fuzz targets (OSS-Fuzz's `$OUT/solvers/`).
        let base = path.parent().unwrap_or(Path::new("."));
        for s in &mut reg.solvers {
            for (i, a) in s.command.iter_mut().enumerate() {
                let p = Path::new(a.as_str());
                if p.is_relative() && a.contains('/') && (i == 0 || base.join(p).exists()) {
                    *a = base.join(p).display().to_string();
                }
            }
        }
        Ok(reg)
    }

    /// Parses `solvers.toml` text.
    pub fn parse(text: &str) -> std::result::Result<Registry, RegistryError> {
        let f: TomlFile = toml::from_str(text).map_err(RegistryError::Toml)?;
        let mut solvers = vec![];
        for (name, s) in f.solver {
            if s.command.is_empty() {
                return Err(RegistryError::EmptyCommand { solver: name });
            }
            let family = s.family.unwrap_or_else(|| Family::guess(&s.command[0]));
            solvers.push(SolverSpec {
                name,
                family,
                command: s.command,
                version: s.version,
                restart_every: s.restart_every,
                option_owners: OptionOwners::default(),
                allowed: AllowList::default(),
            });
        }
        Ok(Registry { solvers })
    }

    pub fn get(&self, name: &str) -> Option<&SolverSpec> {
        self.solvers.iter().find(|s| s.name == name)
    }

    /// Resolves a `--solver` argument: `NAME` from the registry, or `NAME=command args`.
    pub fn resolve(&self, arg: &str) -> Result<SolverSpec> {
        if let Some((name, cmd)) = arg.split_once('=') {
            return SolverSpec::from_command_line(name.trim(), cmd);
        }
        self.get(arg).cloned().ok_or_else(|| Error::UnknownSolver {
            name: arg.into(),
            known: self.solvers.iter().map(|s| s.name.clone()).collect(),
        })
    }
}

/// Compares two dotted release numbers (`4.8.10` > `4.8.9`).
pub fn version_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    let parse = |s: &str| s.split(['.', '-', '+']).map(|x| x.parse::<u64>().unwrap_or(0)).collect::<Vec<_>>();
    parse(a).cmp(&parse(b))
}

/// The solver STORM takes models from: the configured one, else the newest z3 among
/// `solvers`, else the first. `None` when the configured name is not among them.
pub fn reference_index(solvers: &[SolverSpec], configured: Option<&str>) -> Option<usize> {
    match configured {
        Some(r) => solvers.iter().position(|s| s.name == r),
        None => Some(
            solvers
                .iter()
                .enumerate()
                .filter(|(_, s)| s.family == Family::Z3)
                .max_by(|a, b| version_cmp(a.1.version.as_deref().unwrap_or(""), b.1.version.as_deref().unwrap_or("")))
                .map_or(0, |(i, _)| i),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_and_command_lines_resolve() {
        let r = Registry::parse(
            "[solver.\"z3-4.8.7\"]\nfamily = \"z3\"\nversion = \"4.8.7\"\ncommand = [\"/s/z3\", \"-smt2\"]\n\n[solver.y]\ncommand = [\"/s/yices-smt2\", \"--incremental\"]\n",
        )
        .unwrap();
        let z = r.resolve("z3-4.8.7").unwrap();
        assert_eq!(z.session_argv(Duration::from_millis(1500)), vec!["/s/z3", "-smt2", "-in", "-t:1500"]);
        assert_eq!(
            z.file_argv(Path::new("a.smt2"), Duration::from_secs(2)),
            vec!["/s/z3", "-smt2", "-t:2000", "a.smt2"]
        );
        let y = r.resolve("y").unwrap();
        assert_eq!(y.family, Family::Yices);
        assert_eq!(y.session_argv(Duration::from_millis(200)), vec!["/s/yices-smt2", "--incremental", "--timeout=1"]);
        let c = r.resolve("mine=/opt/cvc5 --strings-exp").unwrap();
        assert_eq!((c.family, c.restart_every()), (Family::Cvc5, 50));
        assert!(r.resolve("nope").unwrap_err().to_string().contains("known: y, z3-4.8.7"));
    }
}
