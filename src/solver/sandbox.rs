//! A seed cannot make a solver write files, by two layers that each suffice alone:
//!
//! 1. **The kernel.** Every solver process is started from a spawner thread confined by
//!    Landlock ([`confine_writes`]: Linux 5.13 and later): it and everything it starts may
//!    create, write, truncate, rename or remove files only beneath the scratch directory
//!    ([`use_scratch_dir`]), and write to `/dev/null`; with no scratch directory, nowhere.
//!    Reading and executing stay as they were. Where the kernel has no Landlock (or it is
//!    turned off), the next layer is what remains, and [`super::confinement`] says so.
//! 2. **The text.** Options that name an output file or channel are removed from every
//!    script a solver is sent, whatever the form of their value (a string, a quoted or a
//!    bare symbol: z3 and cvc5 read `(set-option :err /tmp/x)` as a file name), and solver
//!    processes run in the scratch directory, so a relative path that slips through lands
//!    there and nowhere else.
//!
//! What writes files, by family: SMT-LIB's own `:regular-output-channel` and
//! `:diagnostic-output-channel` (SMT-LIB 2.6 §4.1.7: a file name); z3's `*.file`,
//! `*_log`/`*.log` (`solver.smtlib2_log`, `sat.drat.file`, `proof.log`),
//! `trace_file_name`, `dump_smt2`, `inprocess.out`; cvc5's `--out`/`--err`, `--dump-to`;
//! any other option whose value looks like a path ([`writes_files`]).

use crate::smtlib::ast::CommandKind;
use crate::smtlib::Script;
use std::path::Path;

/// Whether `(set-option KEY VALUE)` could make a solver write a file named by the seed:
/// an output channel (its value may be any file name); a file-ish option (`*file*`,
/// `*log`, `dump*`, `trace*`, `replay*`, `record*`, `*out`, cvc5's `out`/`err`/`in`)
/// whose value is not a Boolean or a number — a string, a quoted symbol *or a bare one*
/// (z3 reads `:sat.drat.file /tmp/p` as a file name); or any option whose value looks
/// like a path. A Boolean or numeric `dump`/`trace` switch stays: it prints to the output
/// channel or writes a fixed name into the working directory, which is the scratch
/// directory (cvc5's `:dump-proofs true` and `:dump-difficulty true` in its regression
/// suite). `key` keeps its colon; `value` is the value's text.
pub fn writes_files(key: &str, value: &str) -> bool {
    let k = key.trim_start_matches(':').to_ascii_lowercase().replace('-', "_");
    let v = value.trim();
    let switch = matches!(v, "true" | "false") || v.parse::<f64>().is_ok();
    let filish = k.contains("file")
        || k.ends_with("log")
        || k.contains("dump")
        || k.contains("trace")
        || k.contains("replay")
        || k.contains("record")
        || k.ends_with(".out")
        || k.contains("prefix")
        || matches!(k.as_str(), "out" | "err" | "in");
    let bare = v.trim_matches(['"', '|']);
    let pathlike = bare.contains('/') || bare.contains('\\') || has_extension(bare);
    k.contains("output_channel") || (filish && !switch) || (!switch && pathlike)
}

/// `name.ext` with a short extension that starts with a letter (`x.smt2`, `log.txt`; not
/// `1.5`, z3's `:RESTART_FACTOR |1.5|` in cvc5's suite).
fn has_extension(v: &str) -> bool {
    v.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=5).contains(&ext.len())
            && ext.starts_with(|c: char| c.is_ascii_alphabetic())
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
    })
}

/// `s` without its file-writing `set-option`s ([`writes_files`]), or `None` when it has
/// none. A seed is loaded so (the commands a finding's edits address); what is sent to a
/// solver also goes without the other commands it is never sent ([`never_sent`]).
pub fn without_file_writers(s: &Script) -> Option<Script> {
    without(s, writes_file_command)
}

/// `s` without the commands a solver is never sent ([`never_sent`]), or `None` when it
/// has none.
pub fn without_never_sent(s: &Script) -> Option<Script> {
    without(s, never_sent)
}

fn without(s: &Script, drop: fn(&Script, &crate::smtlib::ast::Command) -> bool) -> Option<Script> {
    if !s.commands.iter().any(|c| drop(s, c)) {
        return None;
    }
    let mut out = s.clone();
    out.retain_commands(|s, c| !drop(s, c));
    Some(out)
}

/// Whether command `c` of `s` is never sent to a solver: a file-writing `set-option`
/// ([`writes_file_command`]) or a command that prints seed-chosen text ([`prints_seed_text`]).
pub fn never_sent(s: &Script, c: &crate::smtlib::ast::Command) -> bool {
    writes_file_command(s, c) || prints_seed_text(s, c)
}

/// The key and the value's text of a `set-option` command.
pub fn set_option(s: &Script, c: &crate::smtlib::ast::Command) -> Option<(String, String)> {
    match c.kind {
        CommandKind::SetOption(a) => {
            let text = crate::smtlib::printer::print_command_with(s, &c.kind, &[]);
            let key = s.str(a.key);
            let value = text.split_once(key).map_or("", |(_, v)| v.trim_end().trim_end_matches(')'));
            Some((key.to_string(), value.trim().to_string()))
        }
        _ => None,
    }
}

/// Whether command `c` of `s` is a file-writing `set-option` ([`writes_files`]).
pub fn writes_file_command(s: &Script, c: &crate::smtlib::ast::Command) -> bool {
    set_option(s, c).is_some_and(|(k, v)| writes_files(&k, &v))
}

/// Whether command `c` makes a solver print text the seed chose, bare, where it could be
/// read as the solver's own verdict or error: `echo` (z3 and yices print its string
/// unquoted: `(echo "(error ""invalid model"")")` prints `(error "invalid model")`),
/// z3's `simplify`, `eval` and `display` (a term, which may apply the seed's own function
/// `error` to a string: `(simplify (error "invalid model"))` prints exactly that), and
/// `get-option` (a value the seed set). No oracle needs their output, so they are never
/// sent; what a solver answers to what is sent cannot carry a seed's words at top level.
pub fn prints_seed_text(s: &Script, c: &crate::smtlib::ast::Command) -> bool {
    match c.kind {
        CommandKind::Echo(_) | CommandKind::GetOption(_) => true,
        CommandKind::TermCmd { name, .. } | CommandKind::Other { name, .. } => {
            matches!(s.str(name), "simplify" | "eval" | "display")
        }
        _ => false,
    }
}

static SCRATCH: std::sync::RwLock<Option<&'static Path>> = std::sync::RwLock::new(None);

/// Makes `dir` (created) the working directory of every solver process this process
/// starts from now on, and the only place they may write ([`confine_writes`]): a store's
/// `scratch/` for a campaign, a triage, a BanditFuzz run or the reduction of a finding.
/// Its absolute path is kept for the rest of the process.
pub fn use_scratch_dir(dir: &Path) -> std::io::Result<&'static Path> {
    std::fs::create_dir_all(dir)?;
    let d: &'static Path = Box::leak(std::fs::canonicalize(dir)?.into_boxed_path());
    *SCRATCH.write().unwrap_or_else(|e| e.into_inner()) = Some(d);
    Ok(d)
}

/// The working directory for solver processes, if a scratch directory was set; the
/// caller's otherwise.
pub(super) fn workdir() -> Option<&'static Path> {
    *SCRATCH.read().unwrap_or_else(|e| e.into_inner())
}

/// How solver processes are kept from writing files on this machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Confinement {
    /// Landlock confines every write to the scratch directory (and `/dev/null`).
    Landlock,
    /// The kernel enforces part of the write rights it was asked for (an older Landlock
    /// ABI: before 6.2 a solver may still truncate, before 5.19 rename across
    /// directories).
    LandlockPartial,
    /// The kernel has no Landlock, or `SMTSTORM_NO_LANDLOCK=1`: only the text layer and
    /// the scratch working directory remain.
    TextOnly,
}

impl std::fmt::Display for Confinement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Confinement::Landlock => "Landlock: solvers write only in the scratch directory",
            Confinement::LandlockPartial => {
                "Landlock (partial, older kernel): solvers write only in the scratch directory"
            }
            Confinement::TextOnly => {
                "no Landlock: file options are removed from scripts, solvers run in the scratch directory"
            }
        })
    }
}

/// Confines the calling thread, and every process it starts from now on, so that they
/// may write only beneath `scratch` (all write rights there) and to `/dev/null` (nothing
/// at all without a scratch directory). Landlock restricts the calling thread only
/// (`landlock_restrict_self(2)`), with `no_new_privs` set on it; the solver floor calls
/// this on the threads that do nothing but spawn solvers ([`super::os`]), so smtstorm's
/// own threads keep writing the store. Exec keeps the domain: a solver, the shell of a
/// wrapper and whatever they start are all confined.
pub(super) fn confine_writes(scratch: Option<&Path>) -> Confinement {
    use landlock::{
        path_beneath_rules, Access, AccessFs, CompatLevel, Compatible, Ruleset, RulesetAttr, RulesetCreatedAttr,
        RulesetStatus, ABI,
    };
    if std::env::var_os("SMTSTORM_NO_LANDLOCK").is_some_and(|v| v == "1") {
        return Confinement::TextOnly;
    }
    // The newest ABI this crate knows, best effort: what the kernel lacks is dropped and
    // reported as partial, never an error.
    let abi = ABI::V5;
    let write = AccessFs::from_write(abi);
    let file_write = AccessFs::WriteFile | AccessFs::Truncate;
    let status = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(write)
        .and_then(|r| r.create())
        .and_then(|r| r.add_rules(path_beneath_rules(scratch, AccessFs::from_all(abi))))
        .and_then(|r| r.add_rules(path_beneath_rules(["/dev/null"], file_write)))
        .and_then(|r| r.restrict_self());
    match status {
        Ok(s) if s.ruleset == RulesetStatus::FullyEnforced => Confinement::Landlock,
        Ok(s) if s.ruleset == RulesetStatus::PartiallyEnforced => Confinement::LandlockPartial,
        _ => Confinement::TextOnly,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_that_name_files_are_recognised_and_others_kept() {
        for (k, v) in [
            (":regular-output-channel", "\"/tmp/x\""),
            (":diagnostic-output-channel", "\"err.txt\""),
            (":solver.smtlib2_log", "\"x.smt2\""),
            (":sat.drat.file", "\"p\""),
            (":proof_log", "\"p\""),
            (":dump-to", "\"x\""),
            (":out", "\"x\""),
            (":in", "\"stdin\""),
            (":trace_file_name", "|t|"),
            // Bare symbols are file names too (z3 and cvc5 read them so).
            (":err", "/tmp/victim.txt"),
            (":sat.drat.file", "/tmp/pwned-drat"),
            (":sat.drat.file", "pwned"),
            (":solver.smtlib2_log", "log"),
            (":trace_file_name", "t"),
            (":dump_smt2", "x"),
            (":inprocess.out", "x"),
            (":solution_prefix", "x"),
            (":some-new-option", "/home/u/x"),
            (":some-new-option", "\"/home/u/x\""),
            (":other", "|a.smt2|"),
        ] {
            assert!(writes_files(k, v), "{k} {v}");
        }
        for (k, v) in [
            (":produce-models", "true"),
            (":timeout", "100"),
            (":smt.arith.solver", "2"),
            (":produce-proofs", "true"),
            (":dump-proofs", "true"),
            (":trace", "true"),
            (":replay-early-close-depth", "0"),
            (":smt.string_solver", "seq"),
            (":smt.logic", "QF_LIA"),
            (":sat.phase", "caching"),
            (":RESTART_FACTOR", "|1.5|"),
        ] {
            assert!(!writes_files(k, v), "{k} {v}");
        }
        let s = crate::smtlib::parse(
            "(set-option :produce-models true)\n(set-option :regular-output-channel \"/tmp/x\")\n(check-sat)\n",
        )
        .unwrap();
        let t = crate::smtlib::print(&without_file_writers(&s).unwrap());
        assert_eq!(t, "(set-option :produce-models true)\n(check-sat)\n");
        assert!(without_file_writers(&crate::smtlib::parse("(check-sat)").unwrap()).is_none());
        // Commands whose output is the seed's own text are never sent.
        let s = crate::smtlib::parse(
            "(declare-fun error (String) Bool)(echo \"(error \"\"invalid model\"\")\")(simplify (error \"x\"))\n\
             (check-sat)(eval (error \"y\"))(display x)(get-option :smt.logic)(get-value ((error \"z\")))",
        )
        .unwrap();
        assert!(without_file_writers(&s).is_none());
        let t = crate::smtlib::print(&without_never_sent(&s).unwrap());
        assert_eq!(t, "(declare-fun error (String) Bool)\n(check-sat)\n(get-value ((error \"z\")))\n");
    }
}
