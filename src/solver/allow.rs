//! Which `(set-option KEY VALUE)` of a seed may reach a solver: an allow-list built from
//! each solver's own option table, read from the solver (z3's `z3 -p`, the cvc5 and
//! bitwuzla drivers' `--smtstorm-options`, the types of their APIs' option infos), so
//! that an option no table lists, or one whose value is text (a file name: cvc5's
//! `filename`, bitwuzla's `write-aiger`, z3's string-typed parameters and symbol-typed
//! ones named for files), never reaches the solver, whatever the form of its value.
//! The kernel's confinement ([`super::sandbox`]) is the other layer; each holds alone.
//!
//! SMT-LIB's own options (SMT-LIB 2.6 §4.1.7) reach every family with a Boolean or
//! numeral value; its two output channels never do. A family without a table (yices, an
//! unknown command line, or a solver that could not be asked) keeps the deny-list of
//! [`super::sandbox::writes_files`].

use super::{Family, SolverSpec};
use std::collections::BTreeMap;

use super::family::AllowTable;
pub use super::family::ValueKind;

/// A key as the tables list it: no colon, lower case, `_` for `-` (z3 reads both).
pub(super) fn norm(key: &str) -> String {
    key.trim_start_matches(':').to_ascii_lowercase().replace('-', "_")
}

/// The allow-list of `spec`: its own table, read from the solver the first time it is
/// needed (a few milliseconds for z3, a few hundred for the Python drivers) and kept for
/// the spec and its clones; `None` for a family without one, or a solver that could not
/// be asked (said once on stderr: its seeds' options then meet the deny-list alone).
/// Specs of one command (a finding's solvers read back per finding) share one read
/// ([`read_once`]).
pub fn table(spec: &SolverSpec) -> Option<&AllowTable> {
    spec.allowed
        .0
        .get_or_init(|| {
            matches!(spec.family, Family::Z3 | Family::Cvc5 | Family::Bitwuzla).then(|| read_once(spec)).flatten()
        })
        .as_ref()
}

/// Reads the lists of `specs` at once, one thread per solver: a run primes them where it
/// resolves its solvers, before its clock starts, rather than in its first mutant.
pub fn prime(specs: &[SolverSpec]) {
    std::thread::scope(|sc| {
        for spec in specs {
            sc.spawn(|| table(spec));
        }
    });
}

/// The table of a solver command, read once per process and command: a cache of what the
/// solver prints about itself, the same for every spec of that command.
fn read_once(spec: &SolverSpec) -> Option<AllowTable> {
    type Cache = std::sync::Mutex<BTreeMap<Vec<String>, std::sync::Arc<std::sync::OnceLock<Option<AllowTable>>>>>;
    static READ: Cache = std::sync::Mutex::new(BTreeMap::new());
    let cell = READ.lock().unwrap_or_else(|e| e.into_inner()).entry(spec.command.clone()).or_default().clone();
    cell.get_or_init(|| match read_table(spec) {
        Ok(t) => Some(t),
        Err(e) => {
            eprintln!(
                "smtstorm: cannot read {}'s option table ({e}); the options of its seeds meet the deny-list alone",
                spec.name
            );
            None
        }
    })
    .clone()
}

/// Whether a seed's `(set-option key value)` may reach a solver whose allow-list is
/// `table` ([`table`]). `None` when it has none: the caller falls back to the deny-list.
pub fn allows(table: Option<&AllowTable>, key: &str, value: &str) -> Option<bool> {
    let k = norm(key);
    let v = value.trim();
    let boolean = matches!(v, "true" | "false");
    let number = v.parse::<f64>().is_ok();
    // SMT-LIB 2.6 §4.1.7's options, but for the output channels (their value is a file).
    let mut standard = super::family::STANDARD_OPTIONS.iter().filter(|s| !s.ends_with("-output-channel"));
    if standard.any(|s| norm(s) == k) {
        return Some(boolean || number);
    }
    let table = table?;
    // A mode may be written as a string or a quoted symbol (bitwuzla's modes are string
    // literals: `(set-option :bv-solver "prop")`): its content is what must be a word.
    let unquoted = ['"', '|'].iter().find_map(|q| v.strip_prefix(*q).and_then(|w| w.strip_suffix(*q))).unwrap_or(v);
    let word = !unquoted.is_empty() && unquoted.chars().all(|c| c.is_ascii_alphanumeric() || "_-.+".contains(c));
    Some(match table.get(&k) {
        Some(ValueKind::Bool) => boolean,
        Some(ValueKind::Number) => number,
        Some(ValueKind::Word) => word || boolean || number,
        Some(ValueKind::Text) | None => false,
    })
}

/// The solver's table: z3's `-p` listing (`name (type) ...` under `[module] m`), the
/// drivers' JSON (`{"name", "type"}`).
fn read_table(spec: &SolverSpec) -> std::io::Result<AllowTable> {
    // Listing takes milliseconds (z3) to a second (a Python driver on a loaded machine).
    let limits = super::Limits { time: std::time::Duration::from_secs(20), ..Default::default() };
    let mut argv = spec.command.clone();
    argv.push(if spec.family == Family::Z3 { "-p" } else { "--smtstorm-options" }.into());
    let run = super::run_argv(&argv, &limits)?;
    let table = match spec.family {
        Family::Z3 => parse_z3(&run.stdout),
        _ => parse_listed(&run.stdout),
    };
    if table.is_empty() {
        return Err(std::io::Error::other(format!("{} listed no options", spec.name)));
    }
    Ok(table)
}

/// A name that says it names a file or a stream.
fn names_a_file(name: &str) -> bool {
    ["file", "log", "dump", "trace", "out", "prefix", "write", "path", "dir", "channel"]
        .iter()
        .any(|w| name.contains(w))
}

/// z3's `z3 -p`: global parameters first, then `[module] NAME, ...` headers with their
/// parameters indented, each `name (type) ...`. A module's parameter is set as
/// `:module.name`.
pub fn parse_z3(text: &str) -> AllowTable {
    let mut out = BTreeMap::new();
    let mut module: Option<String> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("[module] ") {
            module = rest.split([',', ' ']).next().map(str::to_string);
            continue;
        }
        let Some(p) = line.strip_prefix("    ") else { continue };
        let Some((name, rest)) = p.split_once(" (") else { continue };
        let ty = rest.split(')').next().unwrap_or("");
        let kind = match ty {
            "bool" => ValueKind::Bool,
            "unsigned int" | "double" | "int" | "uint" => ValueKind::Number,
            "symbol" if !names_a_file(&name.to_ascii_lowercase()) => ValueKind::Word,
            _ => ValueKind::Text,
        };
        let key = match &module {
            Some(m) => format!("{m}.{name}"),
            None => name.to_string(),
        };
        out.insert(norm(&key), kind);
    }
    out
}

/// The drivers' `--smtstorm-options` JSON: a list of `{"name", "type", "modes"}`.
pub fn parse_listed(text: &str) -> AllowTable {
    #[derive(serde::Deserialize)]
    struct Listed {
        name: String,
        #[serde(rename = "type")]
        ty: Option<String>,
    }
    let listed: Vec<Listed> = serde_json::from_str(text.trim()).unwrap_or_default();
    listed
        .into_iter()
        .map(|l| {
            let kind = match l.ty.as_deref() {
                Some("bool") => ValueKind::Bool,
                Some("int" | "double") => ValueKind::Number,
                // A mode takes one of the values the solver lists, never a file name,
                // whatever its name says (bitwuzla's `prop-path-sel` selects a path of
                // propagation).
                Some("mode") => ValueKind::Word,
                _ => ValueKind::Text,
            };
            (norm(&l.name), kind)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_allow_typed_values_and_refuse_text() {
        let z3 = parse_z3(
            "Global parameters\n    timeout (unsigned int) (default: 4294967295)\n    trace_file_name (string) (default: z3.log)\n\
             [module] sat, description: propositional SAT solver\n    drat.file (symbol) file to dump DRAT proofs\n    \
             phase (symbol) phase selection strategy (default: caching)\n    euf (bool) (default: false)\n",
        );
        assert_eq!(z3.get("timeout"), Some(&ValueKind::Number));
        assert_eq!(z3.get("trace_file_name"), Some(&ValueKind::Text));
        assert_eq!(z3.get("sat.drat.file"), Some(&ValueKind::Text));
        assert_eq!(z3.get("sat.phase"), Some(&ValueKind::Word));
        assert_eq!(z3.get("sat.euf"), Some(&ValueKind::Bool));
        let cvc5 = parse_listed(
            r#"[{"name":"filename","type":"string"},{"name":"strings-exp","type":"bool"},{"name":"simplification","type":"mode","modes":["none","batch"]},{"name":"write-cnf","type":"string"},{"name":"prop-path-sel","type":"mode","modes":["random","essential"]}]"#,
        );
        let a = |k, v| allows(Some(&cvc5), k, v);
        assert_eq!(a(":strings-exp", "true"), Some(true));
        assert_eq!(a(":strings-exp", "/tmp/x"), Some(false));
        assert_eq!(a(":simplification", "none"), Some(true));
        assert_eq!(a(":simplification", "/tmp/x"), Some(false));
        // A mode written as a string (bitwuzla's) is still a word; a quoted path is not.
        assert_eq!(a(":simplification", "\"batch\""), Some(true));
        assert_eq!(a(":simplification", "|batch|"), Some(true));
        assert_eq!(a(":simplification", "\"/tmp/x\""), Some(false));
        assert_eq!(a(":simplification", "\"\""), Some(false));
        assert_eq!(a(":prop-path-sel", "\"random\""), Some(true));
        assert_eq!(a(":filename", "x"), Some(false));
        assert_eq!(a(":write-cnf", "x"), Some(false));
        assert_eq!(a(":not-listed", "true"), Some(false));
        assert_eq!(a(":produce-models", "true"), Some(true));
        assert_eq!(a(":regular-output-channel", "x"), Some(false));
        assert_eq!(allows(None, ":produce-models", "true"), Some(true));
        assert_eq!(allows(None, ":x", "true"), None);
        // A family without a list is never asked for one.
        let yices = SolverSpec::new("yices", Family::Yices, vec!["/nonexistent/yices-smt2".into()]);
        assert_eq!(table(&yices), None);
    }
}
