//! Named solver configurations.
//!
//! A solver is a family (which decides how to talk to it) plus a command line. The
//! installed ones come from `.solvers/solvers.toml` (written by
//! `scripts/setup-solvers.sh`); `--solver 'NAME=command args'` adds any other.

use crate::util::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How to talk to a solver: session arguments, time-limit flags, restart policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    Z3,
    Cvc5,
    Yices,
    Bitwuzla,
    /// Unknown solver: one-shot mode only (file argument), no own time limit.
    Other,
}

impl Family {
    /// Guesses the family from an executable name.
    pub fn guess(exe: &str) -> Family {
        let b = exe.rsplit('/').next().unwrap_or(exe).to_ascii_lowercase();
        if b.starts_with("z3") {
            Family::Z3
        } else if b.starts_with("cvc5") || b.starts_with("cvc4") {
            Family::Cvc5
        } else if b.starts_with("yices") {
            Family::Yices
        } else if b.starts_with("bitwuzla") {
            Family::Bitwuzla
        } else {
            Family::Other
        }
    }

    /// Queries after which a session restarts its process. cvc5 slows ~2× over 500
    /// `(reset)`s (measured here), so it restarts every 50.
    pub fn default_restart_every(self) -> u32 {
        match self {
            Family::Cvc5 => 50,
            Family::Z3 | Family::Yices | Family::Bitwuzla => 1000,
            Family::Other => 1,
        }
    }
}

/// What a solver family reads and how to ask it for models, validation and statistics.
#[derive(Debug)]
pub struct Dialect {
    /// Commands it rejects (z3 extensions, mostly).
    pub rejected_commands: &'static [&'static str],
    /// Whether it reads z3's legacy `(declare-datatypes () ...)` form.
    pub legacy_datatypes: bool,
    /// Theories it has no support for, by logic fragment (`"DT"`, `"S"`, `"LIA"`...).
    pub unsupported_logic_parts: &'static [&'static str],
    /// Options that make it validate its own models.
    pub model_validation: &'static str,
    /// The command that prints statistics, if any.
    pub statistics: Option<&'static str>,
    /// Whether it supports push/pop sessions ([`crate::solver::Framing::PushPop`]).
    pub push_pop: bool,
    /// Whether it reads only standard logic names and needs one: a script without
    /// `set-logic`, or with a solver's own name (`QF_ALL`, `HO_ALL`), gets the logic
    /// inferred from its sorts ([`Family::logic_for`]). yices refuses scripts without a
    /// logic; bitwuzla and yices refuse cvc5's names.
    pub standard_logic_only: bool,
}

const Z3_EXTENSIONS: &[&str] = &[
    "check-sat-using",
    "define-const",
    "assert-soft",
    "minimize",
    "maximize",
    "simplify",
    "eval",
    "declare-rel",
    "declare-var",
    "rule",
    "query",
];

static DIALECTS: [(Family, Dialect); 5] = [
    (
        Family::Z3,
        Dialect {
            rejected_commands: &["get-abduct", "get-interpolant", "declare-heap", "get-qe", "block-model"],
            legacy_datatypes: true,
            unsupported_logic_parts: &[],
            model_validation: "(set-option :model_validate true)\n",
            statistics: Some("(get-info :all-statistics)"),
            push_pop: true,
            standard_logic_only: false,
        },
    ),
    (
        Family::Cvc5,
        Dialect {
            rejected_commands: Z3_EXTENSIONS,
            legacy_datatypes: false,
            unsupported_logic_parts: &[],
            model_validation: "(set-option :check-models true)\n",
            statistics: Some("(get-info :all-statistics)"),
            push_pop: true,
            standard_logic_only: false,
        },
    ),
    (
        Family::Yices,
        Dialect {
            rejected_commands: Z3_EXTENSIONS,
            legacy_datatypes: false,
            unsupported_logic_parts: &["DT", "S", "FP"],
            model_validation: "",
            // yices-smt2 has no statistics command (`show-stats` is its native language's).
            statistics: None,
            push_pop: true,
            standard_logic_only: true,
        },
    ),
    (
        Family::Bitwuzla,
        Dialect {
            rejected_commands: Z3_EXTENSIONS,
            legacy_datatypes: false,
            unsupported_logic_parts: &["DT", "S", "LIA", "LRA", "NIA", "NRA", "LIRA", "NIRA", "IDL", "RDL"],
            model_validation: "",
            statistics: None,
            push_pop: true,
            standard_logic_only: true,
        },
    ),
    (
        Family::Other,
        Dialect {
            rejected_commands: &[],
            legacy_datatypes: true,
            unsupported_logic_parts: &[],
            model_validation: "",
            statistics: None,
            push_pop: false,
            standard_logic_only: false,
        },
    ),
];

/// The options of SMT-LIB 2.6 §4.1.7, which every solver reads.
pub const STANDARD_OPTIONS: &[&str] = &[
    ":diagnostic-output-channel",
    ":global-declarations",
    ":interactive-mode",
    ":print-success",
    ":produce-assertions",
    ":produce-assignments",
    ":produce-models",
    ":produce-proofs",
    ":produce-unsat-assumptions",
    ":produce-unsat-cores",
    ":random-seed",
    ":regular-output-channel",
    ":reproducible-resource-limit",
    ":verbosity",
];

impl Family {
    /// Whether a `set-option` with this key is another solver's option that this family
    /// would reject with an error (z3 errors on cvc5's `:incremental`, yices and
    /// bitwuzla on anything non-standard). z3's own options are dotted or use `_`. A key
    /// an extracted option table lists ([`super::options::owner`]) goes to its family
    /// only: cvc5 errors on bitwuzla's `:pp-flatten-and`, which bitwuzla reads.
    pub fn rejects_option(self, key: &str) -> bool {
        if STANDARD_OPTIONS.contains(&key) {
            return false;
        }
        if let (Some(owner), false) = (super::options::owner(key), self == Family::Other) {
            return owner != self;
        }
        match self {
            Family::Z3 => !(key.contains('.') || key.contains('_') || key == ":timeout"),
            Family::Yices | Family::Bitwuzla => true,
            Family::Cvc5 | Family::Other => false,
        }
    }

    /// `s` without the `set-option`s this family rejects ([`Family::rejects_option`]) and
    /// the commands no solver is sent ([`super::sandbox::never_sent`]),
    /// and with z3's `(check-sat-using T)` as a plain `(check-sat)` where the family
    /// rejects that command (a tactic says how z3 should solve, not what; STORM's tactic
    /// instances ask every solver the same question), or `None` when nothing changes: a
    /// script tuned for one solver stays readable by others.
    pub fn without_foreign_options(self, s: &crate::smtlib::Script) -> Option<crate::smtlib::Script> {
        use crate::smtlib::ast::{CommandKind, Nullary};
        // Options that write files go for every family ([`super::sandbox`]).
        // And what this family's own option table does not allow ([`super::allow`]).
        // A `set-option` is printed once (this runs for every mutant and family).
        let foreign = |s: &crate::smtlib::Script, c: &crate::smtlib::ast::Command| {
            super::sandbox::prints_seed_text(s, c)
                || super::sandbox::set_option(s, c).is_some_and(|(k, v)| {
                    self.rejects_option(&k)
                        || super::sandbox::writes_files(&k, &v)
                        || super::allow::allows(self, &k, &v) == Some(false)
                })
        };
        let lower = !self.reads_check_sat_using();
        let tactic = |s: &crate::smtlib::Script, c: &crate::smtlib::ast::Command| {
            lower && matches!(c.kind, CommandKind::Other { name, .. } if s.str(name) == "check-sat-using")
        };
        let logic = self.logic_for(s);
        if logic.is_none() && !s.commands.iter().any(|c| foreign(s, c) || tactic(s, c)) {
            return None;
        }
        let mut out = s.clone();
        out.retain_commands(|s, c| !foreign(s, c));
        if let Some(l) = logic {
            let name = out.intern(&l);
            let own = out.commands.iter().filter(|c| matches!(c.kind, CommandKind::SetLogic(_))).count();
            if own > 1 {
                // A script that sets its logic again after a `(reset)` keeps each in place.
                for c in &mut out.commands {
                    if matches!(c.kind, CommandKind::SetLogic(_)) {
                        c.kind = CommandKind::SetLogic(name);
                    }
                }
            } else {
                // After the leading options and infos, wherever the script had its own:
                // some options (`:produce-models`) may only be set before the logic
                // (SMT-LIB 2.6 §4.1.7, start mode), and cvc5's suite sets them after
                // `(set-logic QF_ALL)`.
                out.retain_commands(|_, c| !matches!(c.kind, CommandKind::SetLogic(_)));
                let at = out
                    .commands
                    .iter()
                    .position(|c| {
                        !matches!(
                            c.kind,
                            CommandKind::SetOption(_)
                                | CommandKind::SetInfo(_)
                                | CommandKind::GetOption(_)
                                | CommandKind::Echo(_)
                                | CommandKind::Nullary(Nullary::Reset)
                        )
                    })
                    .unwrap_or(out.commands.len());
                out.insert_command(at, CommandKind::SetLogic(name));
            }
        }
        let at: Vec<usize> = (0..out.commands.len()).filter(|&i| tactic(&out, &out.commands[i])).collect();
        for i in at {
            out.commands[i].kind = CommandKind::Nullary(Nullary::CheckSat);
        }
        Some(out)
    }

    /// The logic this family gets in place of `s`'s: `Some` for a family that reads only
    /// standard logic names ([`Dialect::standard_logic_only`]) when `s` has none or a
    /// solver's own (`QF_ALL`), inferred from the sorts `s` uses. More families then vote
    /// on seeds written for one solver.
    pub fn logic_for(self, s: &crate::smtlib::Script) -> Option<String> {
        if !self.dialect().standard_logic_only || s.logic().is_some_and(crate::smtlib::logic::is_standard) {
            return None;
        }
        let l = crate::smtlib::logic::infer(s, &crate::smtlib::check::check(s))?;
        (s.logic() != Some(l.as_str())).then_some(l)
    }

    /// Whether it reads z3's `(check-sat-using TACTIC)`; the others get a plain
    /// `check-sat` from [`Family::without_foreign_options`].
    pub fn reads_check_sat_using(self) -> bool {
        !self.dialect().rejected_commands.contains(&"check-sat-using")
    }

    /// This family's dialect.
    pub fn dialect(self) -> &'static Dialect {
        &DIALECTS.iter().find(|(f, _)| *f == self).expect("every family has a dialect").1
    }

    /// Why a solver of this family cannot read `script`, or `None` if it can: a seed in
    /// another solver's dialect is only sent to solvers that read it.
    pub fn cannot_read(self, s: &crate::smtlib::Script) -> Option<String> {
        use crate::smtlib::ast::{CommandKind, DatatypesForm};
        let d = self.dialect();
        for c in &s.commands {
            let name = match c.kind {
                CommandKind::Other { name, .. } | CommandKind::TermCmd { name, .. } => s.str(name),
                CommandKind::DefineConst(..) => "define-const",
                CommandKind::DeclareDatatypes { form: DatatypesForm::Legacy(_), .. } if !d.legacy_datatypes => {
                    return Some("z3's legacy declare-datatypes".into())
                }
                _ => continue,
            };
            if d.rejected_commands.contains(&name) {
                return Some(format!("command {name}"));
            }
        }
        let inferred = self.logic_for(s);
        let logic = inferred.as_deref().or(s.logic()).unwrap_or("ALL");
        let parts = logic.trim_start_matches("QF_");
        // Logic names concatenate fragments: QF_AUFLIA = A + UF + LIA, QF_SLIA = S + LIA.
        d.unsupported_logic_parts.iter().find(|p| parts.contains(*p)).map(|p| format!("logic {logic} ({p})"))
    }
}

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
}

impl SolverSpec {
    /// A spec from `NAME=command args` or a bare command line.
    pub fn from_command_line(name: &str, cmd: &str) -> Result<SolverSpec> {
        let command: Vec<String> = cmd.split_whitespace().map(String::from).collect();
        let exe = command.first().ok_or_else(|| Error::EmptyCommand { solver: name.into() })?;
        Ok(SolverSpec { name: name.into(), family: Family::guess(exe), command, version: None, restart_every: None })
    }

    pub fn restart_every(&self) -> u32 {
        self.restart_every.unwrap_or_else(|| self.family.default_restart_every())
    }

    /// Whether the solver can run a persistent session over stdin.
    pub fn has_session(&self) -> bool {
        self.family != Family::Other
    }

    /// `s` as this solver is sent it: without the options and commands its family
    /// rejects ([`Family::without_foreign_options`]), borrowed when nothing changes.
    pub fn own_script<'a>(&self, s: &'a crate::smtlib::Script) -> std::borrow::Cow<'a, crate::smtlib::Script> {
        match self.family.without_foreign_options(s) {
            Some(own) => std::borrow::Cow::Owned(own),
            None => std::borrow::Cow::Borrowed(s),
        }
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
    fn dialects_route_seeds_to_solvers_that_read_them() {
        let parse = |t: &str| crate::smtlib::parse(t).unwrap();
        let z3ish = parse("(declare-const x Int)\n(define-const y Int 1)\n(check-sat)");
        assert_eq!(Family::Z3.cannot_read(&z3ish), None);
        assert_eq!(Family::Cvc5.cannot_read(&z3ish).as_deref(), Some("command define-const"));
        // z3's tactic checks reach other solvers as plain check-sats; z3 keeps them.
        let tactic = parse("(set-option :smt.arith.solver 2)(declare-const x Int)(assert (> x 0))(check-sat-using (then simplify smt))");
        assert_eq!(Family::Z3.without_foreign_options(&tactic), None);
        let lowered = Family::Yices.without_foreign_options(&tactic).unwrap();
        // ... and yices, which needs a logic, gets one inferred from the sorts.
        assert_eq!(
            crate::smtlib::print(&lowered),
            "(set-logic QF_LIA)\n(declare-const x Int)\n(assert (> x 0))\n(check-sat)\n"
        );
        assert_eq!(Family::Cvc5.without_foreign_options(&tactic).unwrap().logic(), None);
        assert_eq!(crate::smtlib::checks(&lowered), 1);
        assert_eq!(crate::smtlib::checks(&tactic), 1);
        let legacy = parse("(declare-datatypes () ((C r g)))");
        assert_eq!(Family::Yices.cannot_read(&legacy).as_deref(), Some("z3's legacy declare-datatypes"));
        let strings = parse("(set-logic QF_SLIA)");
        assert_eq!(Family::Yices.cannot_read(&strings).as_deref(), Some("logic QF_SLIA (S)"));
        assert_eq!(Family::Bitwuzla.cannot_read(&parse("(set-logic QF_ALIA)")).as_deref(), Some("logic QF_ALIA (LIA)"));
        assert_eq!(Family::Bitwuzla.cannot_read(&parse("(set-logic QF_ABV)")), None);
        assert_eq!(Family::Cvc5.cannot_read(&parse("(get-abduct A true)")), None);
        // Issue 22, item 3: cvc5's own logic names become standard ones, after the options
        // that must come first; nothing standard names higher-order terms or sets.
        let qf_all = parse("(set-logic QF_ALL)(set-option :produce-models true)(declare-fun f (Int) Real)(assert (> (f 1) (* (f 2) (f 3))))(check-sat)");
        assert_eq!(Family::Yices.logic_for(&qf_all).as_deref(), Some("QF_UFNIRA"));
        let own = crate::smtlib::print(&Family::Bitwuzla.without_foreign_options(&qf_all).unwrap());
        assert!(own.starts_with("(set-option :produce-models true)\n(set-logic QF_UFNIRA)\n"), "{own}");
        assert_eq!(Family::Bitwuzla.cannot_read(&qf_all).as_deref(), Some("logic QF_UFNIRA (NIRA)"));
        assert_eq!(Family::Z3.logic_for(&qf_all), None);
        assert_eq!(Family::Yices.logic_for(&parse("(set-logic QF_LIA)(declare-const x Int)")), None);
        let sets = parse("(set-logic QF_ALL)(declare-const A (Set Int))(assert (set.member 1 A))(check-sat)");
        assert_eq!(Family::Yices.logic_for(&sets), None);
        let ho =
            parse("(set-logic HO_ALL)(declare-fun f (Int) Int)(declare-fun g (Int) Int)(assert (= f g))(check-sat)");
        assert_eq!(Family::Yices.logic_for(&ho), None);
        let twice = parse("(set-logic QF_ALL)(declare-const x Int)(assert (> x 0))(check-sat)(reset)(set-logic QF_ALL)(declare-const y Int)(assert (> y x))(check-sat)");
        let own = crate::smtlib::print(&Family::Yices.without_foreign_options(&twice).unwrap());
        assert_eq!(own.matches("(set-logic QF_LIA)").count(), 2, "{own}");
        assert!(own.find("(reset)") < own.rfind("(set-logic"), "{own}");
        let div0 = parse("(declare-const x Int)(assert (= x (mod 3 0)))(check-sat)");
        assert_eq!(Family::Yices.logic_for(&div0).as_deref(), Some("QF_NIA"));
        assert!(Family::Z3.cannot_read(&parse("(get-abduct A true)")).is_some());
    }

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
