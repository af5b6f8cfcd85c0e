//! Where a finding's answers were obtained, as an upstream bug report states it: the
//! operating system (`uname -srm` and the distribution), each solver's own `--version`
//! text and how it was installed ([`crate::solver::install`]).

use crate::solver::SolverSpec;
use std::collections::BTreeMap;

/// What one solver is, for a report.
pub(super) struct SolverFacts {
    /// Its whole `--version` text, if it printed one.
    pub version_text: Option<String>,
    pub installed: String,
}

/// The machine and the solvers of a report, found once per report.
pub(super) struct Environment {
    /// `uname -srm`, then the distribution's name (`Linux 6.1.0 x86_64, Debian GNU/Linux
    /// 12 (bookworm)`).
    pub os: String,
    pub solvers: BTreeMap<String, SolverFacts>,
}

impl Environment {
    /// Asks the machine and each solver (one `--version` run per solver).
    pub fn of(solvers: &[SolverSpec]) -> Environment {
        let solvers = std::thread::scope(|sc| {
            let hs: Vec<_> = solvers
                .iter()
                .map(|s| {
                    sc.spawn(move || {
                        let facts = SolverFacts {
                            version_text: crate::solver::install::version_text(s),
                            installed: crate::solver::install::installed(s),
                        };
                        (s.name.clone(), facts)
                    })
                })
                .collect();
            hs.into_iter().filter_map(|h| h.join().ok()).collect()
        });
        Environment { os: os(), solvers }
    }
}

/// `uname -srm` and `PRETTY_NAME` of `/etc/os-release` (the freedesktop.org os-release
/// format), each left out when it cannot be read.
fn os() -> String {
    let uname = std::process::Command::new("uname")
        .arg("-srm")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| format!("{} {}", std::env::consts::OS, std::env::consts::ARCH));
    let distro = std::fs::read_to_string("/etc/os-release").ok().and_then(|t| {
        t.lines()
            .find_map(|l| l.strip_prefix("PRETTY_NAME="))
            .map(|v| v.trim().trim_matches('"').trim_matches('\'').to_string())
    });
    match distro {
        Some(d) if !d.is_empty() => format!("{uname}, {d}"),
        _ => uname,
    }
}
