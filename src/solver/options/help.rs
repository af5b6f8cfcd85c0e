//! Reading what a solver prints about itself: z3's `(help-tactic)`, the cvc5 and bitwuzla
//! drivers' option lists (`--smtstorm-options`, JSON) and yices' `--help` texts.

use super::exclude::{decides, listed_option_excluded, param_excluded, tactic_excluded};
use super::{Options, Param, ParamKind, Role, Tactic};
use crate::solver::Family;
use serde::Deserialize;

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
pub fn parse_listed_options(json: &str, family: Family) -> Result<Vec<Param>, serde_json::Error> {
    let listed: Vec<ListedOption> = serde_json::from_str(json)?;
    let bitwuzla = family == Family::Bitwuzla;
    let mut out = vec![];
    for o in listed {
        let safe = bitwuzla || o.category == "common" || o.category == "regular";
        let own = !o.name.contains(['.', '_'])
            && !crate::solver::family::STANDARD_OPTIONS.contains(&format!(":{}", o.name).as_str());
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

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::solver::options) const SAMPLE: &str =
        "\"combinators:\n- (then <tactic>+) executes ...\nbuiltin tactics:\n\
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
}
