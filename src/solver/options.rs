//! How a solver can be asked, extracted from the installed solver itself (issue 23): for
//! z3, the tactics and their parameters that `(help-tactic)` lists, each with its type and
//! default. Never hand-kept: a release that drops or renames a parameter drops it from
//! its own table, so the configuration engine only writes what that release reads.
//!
//! The rules below only *classify* what the solver lists, by name and by its own
//! description: options that change only output or resources, or that run in parallel,
//! are never used; options and tactics that change what a formula means or drop part of
//! it (under-approximations, premise selection) are never used either, since an answer
//! under them may rightly differ from the others (a false report would cost users' trust
//! in every other finding). The parameters of [`crate::smtlib::framing::MEANING_PARAMS`]
//! are the same list the self-consistency oracle keeps apart.

use super::{Limits, SolverSpec};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// A parameter's type as the solver prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ParamKind {
    Bool,
    UInt,
    Double,
    /// One of the values the solver lists for it (cvc5's modes).
    Mode,
}

/// One tactic parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    pub name: String,
    pub kind: ParamKind,
    /// The default as printed (`true`, `2`, `0.5`), if the solver prints one.
    pub default: Option<String>,
    /// Values other than the default that the solver accepted when asked
    /// ([`extract`]); a parameter with none is never set.
    #[serde(default)]
    pub values: Vec<String>,
}

impl Param {
    /// Values to try: the flip of a Boolean; small, boundary and scaled numbers (values
    /// that change search without making the solver give up at once). [`extract`] keeps
    /// those the solver accepts.
    pub fn candidates(&self) -> Vec<String> {
        let mut v: Vec<String> = match self.kind {
            ParamKind::Bool => vec!["true".into(), "false".into()],
            ParamKind::UInt => {
                let d: u64 = self.default.as_deref().and_then(|d| d.parse().ok()).unwrap_or(1);
                [0, 1, 2, 3, 5, 10, 100, d.saturating_mul(2).min(1 << 20), d / 2].iter().map(u64::to_string).collect()
            }
            ParamKind::Double => ["0.0", "0.1", "0.5", "1.0", "2.0", "10.0"].iter().map(|s| s.to_string()).collect(),
            // A mode's values are the solver's own list ([`parse_listed_options`]).
            ParamKind::Mode => self.values.clone(),
        };
        v.retain(|x| Some(x.as_str()) != self.default.as_deref());
        v.sort();
        v.dedup();
        v
    }
}

/// What a tactic can be in a pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// It decides goals (`smt`, `qfnia`, `default`, `nlsat`, ...): a pipeline ends in one.
    Decides,
    /// It transforms goals into equisatisfiable ones (`simplify`, `solve-eqs`, ...).
    Transforms,
}

/// One tactic and the parameters the configuration engine may set on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tactic {
    pub name: String,
    pub role: Role,
    pub params: Vec<Param>,
}

/// A solver's configuration space: the usable tactics in the order the solver lists them
/// (z3), and the options a script may set with `(set-option :NAME VALUE)` (cvc5,
/// bitwuzla).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Options {
    pub tactics: Vec<Tactic>,
    /// Options set at a script's start, each with the values the solver accepted. They
    /// reach only the family they were read from ([`owner`],
    /// [`super::Family::without_foreign_options`]): z3 drops an undotted key without `_`,
    /// yices every non-standard one, and cvc5 and bitwuzla each other's.
    #[serde(default)]
    pub set_options: Vec<Param>,
    /// Command-line options (yices: `--mcsat`, `--mcsat-nra-nlsat`,
    /// `--ematch-cnstr-mode=random`), each with the values the solver ran with. A
    /// session cannot change them per query, so a campaign asks a few configured
    /// variants of the solver besides the plain one.
    #[serde(default)]
    pub command_line: Vec<Param>,
}

/// Why a tactic is not used, from its description (`None`: usable). `fail`, `skip` and
/// friends decide nothing; `horn` reads only Horn clauses (z3 4.8.5 throws on others).
fn tactic_excluded(name: &str, description: &str) -> Option<&'static str> {
    let d = description.to_ascii_lowercase();
    if ["fail", "fail-if-undecided", "skip", "collect-statistics"].contains(&name) {
        return Some("control");
    }
    if d.contains("approximation") || d.contains("premises") {
        return Some("changes the question");
    }
    if d.contains("parallel") {
        return Some("parallel");
    }
    if d.contains("testing") || d.contains("horn") || d.contains("statistics") {
        return Some("not a general tactic");
    }
    None
}

/// Whether a tactic decides goals (a pipeline ends in one).
fn decides(name: &str, description: &str) -> bool {
    let d = description.to_ascii_lowercase();
    name == "smt"
        || name == "default"
        || d.starts_with("builtin strategy for solving")
        || d.contains("solve goal using")
        || d.starts_with("(try to) solve")
        || d.starts_with("apply a qsat solver")
        || d.starts_with("apply a nl-qsat solver")
}

/// Why a parameter is not used (`None`: usable): it only changes output, resources or
/// threads, or it changes the meaning of the formula.
fn param_excluded(name: &str, description: &str) -> Option<&'static str> {
    let n = name.to_ascii_lowercase();
    let d = description.to_ascii_lowercase();
    if crate::smtlib::framing::MEANING_PARAMS.iter().any(|m| n.contains(m))
        || n.contains("hi_fp_unspecified")
        || d.contains("approximat")
        || d.contains("unsound")
    {
        return Some("changes the meaning");
    }
    const OUTPUT_OR_RESOURCE: &[&str] = &[
        "timeout",
        "memory",
        "rlimit",
        "max_",
        "verbose",
        "trace",
        "log",
        "dump",
        "file",
        "proof",
        "stats",
        "statistics",
        "print",
        "produce",
        "core",
        "model",
        "threads",
        "thread",
        "parallel",
        "debug",
        "check_",
        "validate",
    ];
    if OUTPUT_OR_RESOURCE.iter().any(|k| n.contains(k)) {
        return Some("output or resources");
    }
    None
}

/// Reads one parameter line of `(help-tactic)`: `    NAME (TYPE) DESCRIPTION (default: V)`.
fn param_line(line: &str) -> Option<(Param, &str)> {
    let line = line.trim();
    let (name, rest) = line.split_once(' ')?;
    let rest = rest.strip_prefix('(')?;
    let (ty, rest) = rest.split_once(')')?;
    let kind = match ty {
        "bool" => ParamKind::Bool,
        "unsigned int" => ParamKind::UInt,
        "double" => ParamKind::Double,
        _ => return None,
    };
    let default = rest.rfind("(default: ").map(|i| rest[i + 10..].trim_end_matches(')').trim().to_string());
    Some((Param { name: name.to_string(), kind, default, values: vec![] }, rest))
}

/// Parses z3's `(help-tactic)`: the tactics between `builtin tactics:` and `builtin
/// probes:`, each a `- NAME description` line followed by its indented parameters.
pub fn parse_z3_help_tactic(text: &str) -> Options {
    let mut out = Options::default();
    let mut inside = false;
    let mut current: Option<Tactic> = None;
    let mut skipping = false;
    for line in text.lines() {
        if line.starts_with("builtin tactics:") {
            inside = true;
            continue;
        }
        if line.starts_with("builtin probes:") {
            break;
        }
        if !inside {
            continue;
        }
        if let Some(rest) = line.strip_prefix("- ") {
            out.tactics.extend(current.take());
            let (name, description) = rest.split_once(' ').unwrap_or((rest, ""));
            skipping = tactic_excluded(name, description).is_some();
            if !skipping {
                let role = if decides(name, description) { Role::Decides } else { Role::Transforms };
                current = Some(Tactic { name: name.to_string(), role, params: vec![] });
            }
        } else if let (Some(t), false) = (current.as_mut(), skipping) {
            if let Some((p, description)) = param_line(line) {
                if param_excluded(&p.name, description).is_none() && !t.params.iter().any(|q| q.name == p.name) {
                    t.params.push(p);
                }
            }
        }
    }
    out.tactics.extend(current);
    out
}

/// Why an option a solver lists (cvc5's, bitwuzla's, yices') is not used (`None`: usable), from
/// its name and description: it only changes output, resources, proofs or what else is
/// produced; it reads or writes other inputs; it is a seed or a thread count; or it
/// changes what a script means (declarations kept across pops; a problem solved as
/// another one).
fn listed_option_excluded(name: &str, description: &str) -> Option<&'static str> {
    // Declarations kept across pops or shared between redeclarations; a problem solved
    // as another one.
    const MEANING: &[&str] =
        &["global-declarations", "fresh-declarations", "solve-bv-as-int", "solve-int-as-bv", "solve-real-as-int"];
    // yices' bounded MCSat search answers `unsat` where no model is within the bound:
    // `--mcsat --mcsat-nra-bound --mcsat-nra-bound-max=1` says `unsat` to `x*x > 1000`.
    if MEANING.contains(&name) || name.contains("unsound") || name.contains("approx") || name.contains("nra-bound") {
        return Some("changes the meaning");
    }
    const NOT_SEARCH: &[&str] = &[
        "print",
        "produce",
        "proof",
        "stats",
        "dump",
        "output",
        "verbos",
        "help",
        "version",
        "show-config",
        "interactive",
        "incremental",
        "lang",
        "parse-only",
        "preprocess-only",
        "strict-parsing",
        "quiet",
        "seed",
        "tlimit",
        "rlimit",
        "-limit",
        "timeout",
        "thread",
        "check-",
        "sygus",
        "interpolant",
        "abduct",
        "difficulty",
        "learned",
        "cores",
        "safe-options",
        "reproducible",
        "filename",
        "channel",
        "copyright",
        "err",
        "dag-thresh",
        "expr-depth",
        "flatten-ho-chains",
        "bv-print",
        "fp-print",
        "inst-format",
        "trace",
        "debug",
        "dbg",
        "log-level",
        "assertions",
        "function-value",
        "early-exit",
    ];
    // How models are printed or checked (`model-cores`, `model-u-print`); not
    // `finite-model-find`, a search. bitwuzla's `write-cnf` writes a file; its
    // propagation step counts say they are "used as a limit".
    let d = description.to_ascii_lowercase();
    // By description: limits, files, what is displayed, statistics, the session mode.
    const NOT_SEARCH_SAID: &[&str] =
        &["limit", "file", "display", "max number", "statistics", "push/pop", "interactive", "threads"];
    if ["in", "out"].contains(&name)
        || name.starts_with("model-")
        || name.starts_with("write-")
        || NOT_SEARCH_SAID.iter().any(|k| d.contains(k))
        || NOT_SEARCH.iter().any(|k| name.contains(k))
    {
        return Some("output, resources or inputs");
    }
    None
}

/// One option as a driver's `--smtstorm-options` lists it (cvc5's `getOptionInfo`,
/// bitwuzla's `Options`).
#[derive(Deserialize)]
struct ListedOption {
    name: String,
    /// cvc5's category (`common`, `regular`, `expert`); bitwuzla has none.
    #[serde(default)]
    category: String,
    #[serde(rename = "type")]
    kind: Option<String>,
    default: Option<String>,
    #[serde(default)]
    modes: Vec<String>,
    #[serde(default)]
    description: String,
}

/// Reads a driver's option list (JSON): options whose names are the family's own (no
/// `.` or `_`, so z3 drops them, and not a standard SMT-LIB option, which every solver
/// would read), minus [`listed_option_excluded`]. Values: the flip of a Boolean, the
/// other modes of a mode, and for bitwuzla also [`Param::candidates`] of a number.
/// - cvc5: Boolean and mode options of the categories cvc5's own `--safe-options`
///   allows (common and regular; expert options may be experimental or unsound).
/// - bitwuzla: Boolean, mode and numeric options; a mode's value is a string literal
///   (`(set-option :bv-solver "prop")`: bitwuzla refuses a symbol there).
pub fn parse_listed_options(json: &str, family: super::Family) -> Result<Vec<Param>, serde_json::Error> {
    let listed: Vec<ListedOption> = serde_json::from_str(json)?;
    let bitwuzla = family == super::Family::Bitwuzla;
    let mut out = vec![];
    for o in listed {
        let safe = bitwuzla || o.category == "common" || o.category == "regular";
        let own = !o.name.contains(['.', '_'])
            && !super::registry::STANDARD_OPTIONS.contains(&format!(":{}", o.name).as_str());
        if !safe || !own || listed_option_excluded(&o.name, &o.description).is_some() {
            continue;
        }
        let quote = |m: &str| if bitwuzla { format!("\"{m}\"") } else { m.to_string() };
        let (kind, default, modes) = match o.kind.as_deref() {
            Some("bool") => (ParamKind::Bool, o.default, vec![]),
            Some("mode") if o.modes.len() > 1 => {
                (ParamKind::Mode, o.default.as_deref().map(quote), o.modes.iter().map(|m| quote(m)).collect())
            }
            Some("int") if bitwuzla => (ParamKind::UInt, o.default, vec![]),
            _ => continue,
        };
        let mut p = Param { name: o.name, kind, default, values: modes };
        p.values = p.candidates();
        out.push(p);
    }
    Ok(out)
}

/// Reads yices-smt2's `--help`, `--mcsat-help` and `--ef-help`: each `--NAME` flag and
/// `--NAME=<ARG>` option with its description, minus [`listed_option_excluded`]. A flag
/// is a Boolean that is off unless given; an option's values are those its description
/// lists (`(can be epsilongreedy, random, all)`), else a number's
/// [`Param::candidates`] around its `(default: N)`.
pub fn parse_yices_help(text: &str) -> Vec<Param> {
    let mut out: Vec<Param> = vec![];
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("--") else { continue };
        let (head, description) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let head = head.trim_end_matches(',');
        let (name, arg) = match head.split_once('=') {
            Some((n, a)) => (n, Some(a)),
            None => (head, None),
        };
        if name.is_empty()
            || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            || out.iter().any(|p| p.name == name)
            || listed_option_excluded(name, description).is_some()
        {
            continue;
        }
        let default = description.rfind("(default: ").map(|i| {
            let d = &description[i + 10..];
            d[..d.find(')').unwrap_or(d.len())].trim().to_string()
        });
        let listed = description.find("(can be ").map(|i| {
            let d = &description[i + 8..];
            d[..d.find(')').unwrap_or(d.len())]
                .split([',', ' '])
                .filter(|w| !w.is_empty() && *w != "or")
                .map(str::to_string)
                .collect::<Vec<_>>()
        });
        let (kind, default, values) = match (arg, listed) {
            (None, _) => (ParamKind::Bool, Some("false".to_string()), vec![]),
            (Some(_), Some(modes)) => (ParamKind::Mode, default, modes),
            (Some(_), None) if default.as_deref().is_some_and(|d| d.contains('.')) => {
                (ParamKind::Double, default, vec![])
            }
            (Some(_), None) => (ParamKind::UInt, default, vec![]),
        };
        let mut p = Param { name: name.to_string(), kind, default, values };
        p.values = p.candidates();
        out.push(p);
    }
    out
}

/// The command-line flags of one yices option value: `--NAME` for a flag that is on,
/// `--NAME=VALUE` otherwise. MCSat's own options take effect only with `--mcsat`,
/// which is added before them.
pub fn command_line_args(options: &[(String, String)]) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    if options.iter().any(|(n, _)| n.starts_with("mcsat-")) && !options.iter().any(|(n, _)| n == "mcsat") {
        out.push("--mcsat".into());
    }
    for (n, v) in options {
        out.push(if v == "true" { format!("--{n}") } else { format!("--{n}={v}") });
    }
    out
}

/// yices' command-line options from its own help texts ([`parse_yices_help`]), each
/// value then run on a small script of three logics in the session's own mode
/// (`--incremental`): a value it refuses (a SAT solver it was not built with, one that
/// cannot run incrementally) or one under which it does not answer `sat` three times is
/// dropped.
fn extract_yices(spec: &SolverSpec) -> std::io::Result<Options> {
    let limits = Limits { time: Duration::from_secs(20), ..Limits::default() };
    let mut text = String::new();
    for help in ["--help", "--mcsat-help", "--ef-help"] {
        let mut argv = spec.command.clone();
        argv.push(help.into());
        text.push_str(&super::run_argv(&argv, &limits)?.stdout);
    }
    let mut listed = parse_yices_help(&text);
    if listed.is_empty() {
        return Err(std::io::Error::other(format!("{} listed no options for --help", spec.name)));
    }
    const PROBE: &str = "(set-logic QF_LIA)(declare-const x Int)(assert (> x 0))(check-sat)(reset)\n\
        (set-logic QF_BV)(declare-const y (_ BitVec 4))(assert (= (bvadd y y) #x2))(check-sat)(reset)\n\
        (set-logic QF_UF)(declare-fun f (Bool) Bool)(assert (f true))(check-sat)\n";
    for p in &mut listed {
        let mut kept = vec![];
        for v in &p.values {
            let run = run_script_with(spec, &command_line_args(&[(p.name.clone(), v.clone())]), PROBE)?;
            if run.status.is_some_and(|s| s.success()) && run.stdout.split_whitespace().eq(["sat"; 3]) {
                kept.push(v.clone());
            }
        }
        p.values = kept;
    }
    listed.retain(|p| !p.values.is_empty());
    Ok(Options { command_line: listed, ..Options::default() })
}

/// A driver's options (`--smtstorm-options`: cvc5's, bitwuzla's), each value then set on
/// a fresh solver that must still answer a `check-sat` ([`validate_set_options`]).
fn extract_listed(spec: &SolverSpec) -> std::io::Result<Options> {
    let mut argv = spec.command.clone();
    argv.push("--smtstorm-options".into());
    let limits = Limits { time: Duration::from_secs(60), ..Limits::default() };
    let run = super::run_argv(&argv, &limits)?;
    let listed = parse_listed_options(&run.stdout, spec.family).map_err(|e| {
        std::io::Error::other(format!(
            "{} listed no options (--smtstorm-options: {e}; {})",
            spec.name,
            run.stderr.lines().chain(run.stdout.lines()).next().unwrap_or("")
        ))
    })?;
    Ok(Options { set_options: validate_set_options(spec, listed)?, ..Options::default() })
}

/// Sets every (option, value) on a fresh solver (`(reset)` between probes) and asks a
/// `check-sat` on the empty stack: a value the solver refuses, or one it cannot solve
/// under, is dropped, and so is an option left with no value. A process that stops at a
/// probe (the cvc5 driver ends on an error) is restarted after it.
fn validate_set_options(spec: &SolverSpec, listed: Vec<Param>) -> std::io::Result<Vec<Param>> {
    let probes: Vec<(usize, String)> =
        listed.iter().enumerate().flat_map(|(k, p)| p.values.iter().map(move |v| (k, v.clone()))).collect();
    let mut ok = vec![false; probes.len()];
    let mut from = 0;
    while from < probes.len() {
        let mut text = String::new();
        for (i, (k, v)) in probes.iter().enumerate().skip(from) {
            text.push_str(&format!("(set-option :{} {v})\n(check-sat)\n(echo \"@{i}\")\n(reset)\n", listed[*k].name));
        }
        let run = run_script(spec, &text)?;
        let mut reply = String::new();
        let mut last = None;
        for line in run.stdout.lines() {
            if let Some(i) = line.trim().trim_matches('"').strip_prefix('@').and_then(|n| n.parse::<usize>().ok()) {
                if i < ok.len() {
                    ok[i] = reply.trim() == "sat";
                    last = Some(i);
                }
                reply.clear();
            } else {
                reply.push_str(line);
            }
        }
        from = last.map_or(from, |l| l + 1) + 1;
    }
    let mut out = listed;
    for (k, p) in out.iter_mut().enumerate() {
        p.values = probes.iter().zip(&ok).filter(|((j, _), ok)| *j == k && **ok).map(|((_, v), _)| v.clone()).collect();
    }
    out.retain(|p| !p.values.is_empty());
    Ok(out)
}

/// Asks the solver for its configuration space: the tactics `(help-tactic)` lists, then
/// every tactic and every candidate value of every parameter tried on an empty goal
/// ([`validate`]), keeping what the solver reads. cvc5's and bitwuzla's options come from
/// their own Python packages' lists ([`extract_listed`]); yices' command-line options from
/// its help texts ([`extract_yices`]). The names of a table's `set-option`s are
/// registered as its family's ([`owner`]).
pub fn extract(spec: &SolverSpec) -> std::io::Result<Options> {
    let out = match spec.family {
        super::Family::Z3 => extract_z3(spec)?,
        super::Family::Cvc5 | super::Family::Bitwuzla => extract_listed(spec)?,
        super::Family::Yices => extract_yices(spec)?,
        super::Family::Other => Options::default(),
    };
    register(spec.family, &out);
    Ok(out)
}

/// Which family reads each option name (`:NAME`) the tables extracted in this process
/// list; `None` for a name two families list (cvc5 and bitwuzla both have `:sat-solver`,
/// with other values), which the configuration engine never sets.
static OWNERS: std::sync::RwLock<std::collections::BTreeMap<String, Option<super::Family>>> =
    std::sync::RwLock::new(std::collections::BTreeMap::new());

/// Registers `options`' names as `family`'s ([`owner`]).
fn register(family: super::Family, options: &Options) {
    let mut owners = OWNERS.write().unwrap_or_else(|e| e.into_inner());
    for p in &options.set_options {
        let e = owners.entry(format!(":{}", p.name)).or_insert(Some(family));
        if *e != Some(family) {
            *e = None;
        }
    }
}

/// The family whose extracted table lists the option `key` (`:NAME`), if exactly one
/// does: only that family is sent a `set-option` of it
/// ([`super::Family::rejects_option`]). The tables are read in this process by
/// [`extract`] (the campaign's configuration space) or [`register_installed`] (a stored
/// finding reduced or confirmed again).
pub fn owner(key: &str) -> Option<super::Family> {
    OWNERS.read().unwrap_or_else(|e| e.into_inner()).get(key).copied().flatten()
}

/// Reads (from the cache beside each release, else from the solver) the option tables of
/// the solvers among `specs` whose families set options in scripts, so that [`owner`]
/// knows their names: a finding whose trigger sets bitwuzla's options reaches bitwuzla
/// with them in a process that never ran the configuration engine. A solver that cannot
/// be asked is skipped: its options then go nowhere, and a finding that needs them no
/// longer reproduces, which is said where it is confirmed.
pub fn register_installed(specs: &[SolverSpec]) {
    for spec in specs {
        if matches!(spec.family, super::Family::Cvc5 | super::Family::Bitwuzla) {
            let _ = extract_cached(spec);
        }
    }
}

/// z3's tactics and their parameters from `(help-tactic)`, validated ([`validate`]).
fn extract_z3(spec: &SolverSpec) -> std::io::Result<Options> {
    let run = run_script(spec, "(help-tactic)\n")?;
    let listed = parse_z3_help_tactic(&run.stdout);
    if listed.tactics.is_empty() {
        return Err(std::io::Error::other(format!(
            "{} listed no tactics for (help-tactic): {}",
            spec.name,
            run.stderr.lines().next().unwrap_or("")
        )));
    }
    validate(spec, listed)
}

/// The rules' fingerprint: this file's own text and the meaning-changing parameters'
/// ([`crate::smtlib::framing::MEANING_PARAMS`]), so that a table cached by an smtstorm
/// whose rules (exclusions, candidate values, probes) differ is never read back.
const RULES: u64 = crate::util::hash::fnv1a_from(
    crate::util::hash::fnv1a(include_bytes!("options.rs")),
    include_bytes!("../smtlib/framing.rs"),
);

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
            register(spec.family, &c.options);
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

/// Runs a script file through the solver once (its own process, the usual limits).
fn run_script(spec: &SolverSpec, text: &str) -> std::io::Result<super::RawRun> {
    run_script_with(spec, &[], text)
}

/// [`run_script`] with command-line arguments after the solver's own (yices' options).
fn run_script_with(spec: &SolverSpec, args: &[String], text: &str) -> std::io::Result<super::RawRun> {
    let dir = tempfile::Builder::new().prefix("smtstorm-options-").tempdir()?;
    let file = dir.path().join("probe.smt2");
    std::fs::write(&file, text)?;
    let mut argv = spec.command.clone();
    argv.extend_from_slice(args);
    argv.push(file.display().to_string());
    let limits = Limits { time: Duration::from_secs(60), ..Limits::default() };
    super::run_argv(&argv, &limits)
}

/// One probe of [`validate`]: the tactic, the parameter and value (`None`: the tactic
/// alone), whether it is the name's full value probe, and the command.
type Probe = (usize, Option<(usize, String)>, bool, String);

/// Tries every tactic alone and every (parameter, value) under `using-params` on an empty
/// goal, where each costs well under a millisecond: a tactic or parameter the solver
/// refuses (z3 4.12+ lists `propagate_eq` and refuses it; 4.8.8 refuses
/// `phase_selection 100`) answers with an error and is dropped. Values are tried once per
/// parameter name (at the first tactic that lists it), names at every tactic. A process
/// that dies on a probe (it happens) is restarted after it; the probe it died on counts
/// as refused.
fn validate(spec: &SolverSpec, listed: Options) -> std::io::Result<Options> {
    // (tactic, param and value, whether it is the name's full value probe); `None`: the
    // tactic alone.
    let mut probes: Vec<Probe> = vec![];
    let mut valued = std::collections::HashSet::new();
    for (t, tac) in listed.tactics.iter().enumerate() {
        probes.push((t, None, false, format!("(check-sat-using {})", tac.name)));
        for (k, p) in tac.params.iter().enumerate() {
            let full = valued.insert(p.name.clone());
            for v in p.candidates().into_iter().take(if full { usize::MAX } else { 1 }) {
                let text = format!("(check-sat-using (using-params {} :{} {v}))", tac.name, p.name);
                probes.push((t, Some((k, v)), full, text));
            }
        }
    }
    let mut ok = vec![None::<bool>; probes.len()];
    let mut from = 0;
    while from < probes.len() {
        let mut text = String::from("(set-option :timeout 1000)\n");
        for (i, (_, _, _, c)) in probes.iter().enumerate().skip(from) {
            text.push_str(&format!("{c}\n(echo \"@{i}\")\n"));
        }
        let run = run_script(spec, &text)?;
        let mut reply = String::new();
        let mut last = None;
        for line in run.stdout.lines() {
            if let Some(i) = line.strip_prefix('@').and_then(|n| n.parse::<usize>().ok()) {
                if i < ok.len() {
                    ok[i] = Some(!reply.contains("(error"));
                    last = Some(i);
                }
                reply.clear();
            } else {
                reply.push_str(line);
            }
        }
        // Restart after the probe the process stopped at (or give up if it answered none).
        let next = last.map_or(from, |l| l + 1);
        if next < probes.len() {
            ok[next] = Some(false);
        }
        from = next + 1;
    }
    // Values of a name tried in full at one tactic hold at every tactic that accepts
    // the name.
    let mut full: std::collections::HashMap<&str, Vec<String>> = Default::default();
    for ((t, pv, is_full, _), ok) in probes.iter().zip(&ok) {
        if let (Some((k, v)), true, Some(true)) = (pv, is_full, ok) {
            full.entry(listed.tactics[*t].params[*k].name.as_str()).or_default().push(v.clone());
        }
    }
    let mut out = listed.clone();
    let mut keep = vec![false; out.tactics.len()];
    for ((t, pv, _, _), ok) in probes.iter().zip(&ok) {
        if *ok != Some(true) {
            continue;
        }
        match pv {
            None => keep[*t] = true,
            Some((k, v)) => {
                let p = &mut out.tactics[*t].params[*k];
                p.values.push(v.clone());
                p.values.extend(full.get(p.name.as_str()).into_iter().flatten().cloned());
                p.values.sort();
                p.values.dedup();
            }
        }
    }
    let mut t = 0;
    out.tactics.retain_mut(|tac| {
        t += 1;
        tac.params.retain(|p| !p.values.is_empty());
        keep[t - 1]
    });
    Ok(out)
}

/// What every table allows: the tactics all of them list, with the parameters all of
/// them list for it (one mutant is sent to every release under test).
pub fn intersect(tables: &[Options]) -> Options {
    let Some((first, rest)) = tables.split_first() else { return Options::default() };
    let mut out = first.clone();
    out.set_options.retain_mut(|p| {
        for o in rest {
            match o.set_options.iter().find(|q| q.name == p.name && q.kind == p.kind) {
                Some(q) => p.values.retain(|v| q.values.contains(v)),
                None => return false,
            }
        }
        !p.values.is_empty()
    });
    out.tactics.retain_mut(|t| {
        rest.iter().all(|o| o.tactics.iter().any(|u| u.name == t.name && u.role == t.role)) && {
            t.params.retain(|p| {
                rest.iter().all(|o| {
                    o.tactics
                        .iter()
                        .any(|u| u.name == t.name && u.params.iter().any(|q| q.name == p.name && q.kind == p.kind))
                })
            });
            true
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\"combinators:\n- (then <tactic>+) executes ...\nbuiltin tactics:\n\
- add-bounds add bounds to unbounded variables (under approximation).\n\
    add_bound_lower (rational) lower bound (default: -2)\n\
- simplify apply simplification rules.\n\
    som (bool) put polynomials in sum-of-monomials form (default: false)\n\
    hi_div0 (bool) use the 'hardware interpretation' for division by zero (default: true)\n\
    max_steps (unsigned int) maximum number of steps (default: 4294967295)\n\
- qfnia builtin strategy for solving QF_NIA problems.\n\
- smt apply a SAT based SMT solver.\n\
    arith.solver (unsigned int) arithmetic solver (default: 6)\n\
    arith.ignore_int (bool) treat integer variables as real (default: false)\n\
    random_seed (unsigned int) random seed (default: 0)\n\
    dump_models (bool) dump models (default: false)\n\
    string_solver (symbol) solver for strings (default: seq)\n\
- psmt builtin strategy for SMT tactic in parallel.\n\
- fail always fail tactic.\n\
builtin probes:\n- is-qfbv true if ...\n";

    #[test]
    fn help_tactic_is_read_and_classified() {
        let o = parse_z3_help_tactic(SAMPLE);
        let names: Vec<&str> = o.tactics.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["simplify", "qfnia", "smt"]);
        assert_eq!(o.tactics[0].role, Role::Transforms);
        assert_eq!(o.tactics[1].role, Role::Decides);
        assert_eq!(o.tactics[2].role, Role::Decides);
        // hi_div0 changes the meaning, max_steps is a resource, dump_models output, and a
        // symbol's values are not listed: none of them is used.
        assert_eq!(
            o.tactics[0].params,
            [Param { name: "som".into(), kind: ParamKind::Bool, default: Some("false".into()), values: vec![] }]
        );
        assert_eq!(o.tactics[0].params[0].candidates(), ["true"]);
        assert_eq!(o.tactics[2].params[0].candidates(), ["0", "1", "10", "100", "12", "2", "3", "5"]);
        let smt: Vec<&str> = o.tactics[2].params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(smt, ["arith.solver", "random_seed"]);
        assert_eq!(o.tactics[2].params[0].default.as_deref(), Some("6"));
    }

    /// cvc5's list as the driver prints it: only common and regular Boolean and mode
    /// options that change the search, never output, resources, standard options or
    /// options that change what a script means.
    #[test]
    fn cvc5_options_are_read_and_classified() {
        let json = r#"[
            {"name": "simplification", "category": "regular", "type": "mode", "default": "batch", "modes": ["batch", "none"]},
            {"name": "decision", "category": "common", "type": "mode", "default": "internal", "modes": ["internal", "justification", "stoponly"]},
            {"name": "ackermann", "category": "expert", "type": "bool", "default": "false", "modes": []},
            {"name": "finite-model-find", "category": "regular", "type": "bool", "default": "false", "modes": []},
            {"name": "global-declarations", "category": "regular", "type": "bool", "default": "false", "modes": []},
            {"name": "produce-models", "category": "common", "type": "bool", "default": "false", "modes": []},
            {"name": "print-success", "category": "common", "type": "bool", "default": "false", "modes": []},
            {"name": "tlimit-per", "category": "common", "type": "int", "default": "0", "modes": []},
            {"name": "random-seed", "category": "common", "type": "int", "default": "0", "modes": []},
            {"name": "sygus-enum", "category": "regular", "type": "mode", "default": "auto", "modes": ["auto", "fast"]},
            {"name": "output", "category": "common", "type": null, "default": null, "modes": []}
        ]"#;
        let o = parse_listed_options(json, crate::solver::Family::Cvc5).unwrap();
        let got: Vec<(&str, Vec<&str>)> =
            o.iter().map(|p| (p.name.as_str(), p.values.iter().map(String::as_str).collect())).collect();
        assert_eq!(
            got,
            [
                ("simplification", vec!["none"]),
                ("decision", vec!["justification", "stoponly"]),
                ("finite-model-find", vec!["true"])
            ]
        );
        assert!(parse_listed_options("not json", crate::solver::Family::Cvc5).is_err());
    }

    /// bitwuzla's list as the driver prints it: Boolean, mode and numeric options that
    /// change the search; modes as string literals; no resource, output or debug options.
    #[test]
    fn bitwuzla_options_are_read_and_classified() {
        let json = r#"[
            {"name": "bv-solver", "category": "", "type": "mode", "default": "bitblast", "modes": ["preprop", "prop", "bitblast"], "description": "bv solver engine"},
            {"name": "rewrite-level", "category": "", "type": "int", "default": "2", "modes": [], "description": "rewrite level"},
            {"name": "pp-flatten-and", "category": "", "type": "bool", "default": "true", "modes": [], "description": "enable AND flattening"},
            {"name": "prop-nprops", "category": "", "type": "int", "default": "0", "modes": [], "description": "number of propagation steps used as a limit"},
            {"name": "time-limit-per", "category": "", "type": "int", "default": "0", "modes": [], "description": "time limit in milliseconds"},
            {"name": "nthreads", "category": "", "type": "int", "default": "1", "modes": [], "description": "set number of threads"},
            {"name": "write-cnf", "category": "", "type": "string", "default": null, "modes": [], "description": "write bv abstraction as CNF to filename"},
            {"name": "dbg-pp-node-thresh", "category": "", "type": "int", "default": "0", "modes": [], "description": "warn threshold"},
            {"name": "produce-models", "category": "", "type": "bool", "default": "false", "modes": [], "description": "model production"},
            {"name": "seed", "category": "", "type": "int", "default": "27644437", "modes": [], "description": "seed"}
        ]"#;
        let o = parse_listed_options(json, crate::solver::Family::Bitwuzla).unwrap();
        let got: Vec<(&str, Vec<&str>)> =
            o.iter().map(|p| (p.name.as_str(), p.values.iter().map(String::as_str).collect())).collect();
        assert_eq!(
            got,
            [
                ("bv-solver", vec!["\"preprop\"", "\"prop\""]),
                ("rewrite-level", vec!["0", "1", "10", "100", "3", "4", "5"]),
                ("pp-flatten-and", vec!["false"])
            ]
        );
        // The same list read as cvc5's: no category, so nothing is safe.
        assert!(parse_listed_options(json, crate::solver::Family::Cvc5).unwrap().is_empty());
    }

    /// yices' help texts: search flags and options with their values; output, files,
    /// limits, threads and the session's own mode are never used.
    #[test]
    fn yices_help_is_read_and_classified() {
        let help = "Option summary:
    --version, -V             Show version and exit
    --verbosity=<level>       Set verbosity level (default = 0)
             -v <level>
    --timeout=<timeout>       Set a timeout in seconds (default = no timeout)
    --stats, -s               Print statistics once all commands have been processed
    --incremental             Enable support for push/pop
    --smt2-model-format       Display models in the SMT-LIB 2 format (default = false)
    --delegate=<satsolver>    Use an external SAT solver (can be cadical, cryptominisat, kissat, or y2sat)
    --dimacs=<filename>       Bitblast and export to a file (in DIMACS format)
    --mcsat                   Use the MCSat solver
    --nthreads=<number of threads>  Specify the number of threads (default = 0 = main thread only)
    --mcsat-bv-var-size=<B>   Set size of bit-vector variables in MCSAT search
    --ematch-cnstr-mode=<M>         Set the ematching constraint mode (can be epsilongreedy, random, all) (default: epsilongreedy)
    --ematch-cnstr-alpha=<M>        Set the learning rate (between 0-1) (default: 0.20)
    --mbqi-max-iter=<M>             Set the max number of mbqi iterations (default: 10000)
";
        let o = parse_yices_help(help);
        let got: Vec<(&str, ParamKind, Vec<&str>)> =
            o.iter().map(|p| (p.name.as_str(), p.kind, p.values.iter().map(String::as_str).collect())).collect();
        assert_eq!(
            got,
            [
                ("delegate", ParamKind::Mode, vec!["cadical", "cryptominisat", "kissat", "y2sat"]),
                ("mcsat", ParamKind::Bool, vec!["true"]),
                ("mcsat-bv-var-size", ParamKind::UInt, vec!["0", "1", "10", "100", "2", "3", "5"]),
                ("ematch-cnstr-mode", ParamKind::Mode, vec!["all", "random"]),
                ("ematch-cnstr-alpha", ParamKind::Double, vec!["0.0", "0.1", "0.5", "1.0", "10.0", "2.0"]),
            ]
        );
        let args = command_line_args(&[("mcsat-bv-var-size".into(), "3".into()), ("ematch".into(), "true".into())]);
        assert_eq!(args, ["--mcsat", "--mcsat-bv-var-size=3", "--ematch"]);
        assert!(parse_yices_help("no options here").is_empty());
    }

    /// An option goes to the one family whose table lists it; a name two tables list
    /// goes by the families' fixed rules (cvc5 reads it, bitwuzla does not).
    #[test]
    fn options_go_to_the_family_whose_table_lists_them() {
        use crate::solver::Family;
        let table = |name: &str| Options {
            set_options: vec![Param { name: name.into(), kind: ParamKind::Bool, default: None, values: vec![] }],
            ..Options::default()
        };
        let (own, both) = (":smtstorm-unit-test-own", ":smtstorm-unit-test-both");
        for f in [Family::Z3, Family::Cvc5, Family::Yices, Family::Bitwuzla] {
            assert_eq!(f.rejects_option(own), f != Family::Cvc5, "{f:?} before");
        }
        register(Family::Bitwuzla, &table(&own[1..]));
        register(Family::Bitwuzla, &table(&both[1..]));
        register(Family::Cvc5, &table(&both[1..]));
        assert_eq!(owner(own), Some(Family::Bitwuzla));
        assert_eq!(owner(both), None);
        for f in [Family::Z3, Family::Cvc5, Family::Yices, Family::Bitwuzla] {
            assert_eq!(f.rejects_option(own), f != Family::Bitwuzla, "{f:?}");
            assert_eq!(f.rejects_option(both), f != Family::Cvc5, "{f:?}");
        }
        assert!(!Family::Other.rejects_option(own));
    }

    #[test]
    fn the_intersection_keeps_what_every_release_reads() {
        let a = parse_z3_help_tactic(SAMPLE);
        let mut b = a.clone();
        b.tactics.retain(|t| t.name != "qfnia");
        b.tactics[1].params.retain(|p| p.name != "random_seed");
        let both = intersect(&[a.clone(), b]);
        let names: Vec<&str> = both.tactics.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["simplify", "smt"]);
        assert_eq!(both.tactics[1].params.len(), 1);
        assert_eq!(intersect(std::slice::from_ref(&a)), a);
        assert_eq!(intersect(&[]), Options::default());
    }
}
