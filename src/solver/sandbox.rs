//! A seed cannot make a solver write files: options that name an output file or channel
//! are removed from every script a solver is sent, and solver processes run in a scratch
//! directory, so a relative path that slips through lands there and nowhere else.
//!
//! What writes files, by family: SMT-LIB's own `:regular-output-channel` and
//! `:diagnostic-output-channel` (SMT-LIB 2.6 §4.1.7: a file name); z3's `*.file`,
//! `*_log`/`*.log` (`solver.smtlib2_log`, `sat.drat.file`, `proof_log`),
//! `trace_file_name`; cvc5's `--out`/`--err`, `--dump-to`; any other option whose value
//! is a string or quoted symbol that looks like a path ([`writes_files`]).

use crate::smtlib::ast::CommandKind;
use crate::smtlib::Script;
use std::path::Path;

/// Whether `(set-option KEY VALUE)` could make a solver write a file named by the seed:
/// an output channel (its value may be any file name), a file-ish option (`*file*`,
/// `*log`, `dump*`, `trace*`, `replay*`, `record*`, cvc5's `out`/`err`/`in`) whose value
/// is a string or a quoted symbol, or any option whose value looks like a path. A
/// Boolean or numeric `dump`/`trace` switch stays: it prints to the output channel or
/// writes a fixed name into the working directory, which is the scratch directory
/// (cvc5's `:dump-proofs true` and `:dump-difficulty true` in its regression suite).
/// `key` keeps its colon; `value` is the value's text.
pub fn writes_files(key: &str, value: &str) -> bool {
    let k = key.trim_start_matches(':').to_ascii_lowercase().replace('-', "_");
    let v = value.trim();
    let quoted = v.starts_with('"') || v.starts_with('|');
    let filish = k.contains("file")
        || k.ends_with("log")
        || k.contains("dump")
        || k.contains("trace")
        || k.contains("replay")
        || k.contains("record")
        || matches!(k.as_str(), "out" | "err" | "in");
    let pathlike = quoted && (v.contains('/') || v.contains('\\') || has_extension(v.trim_matches(['"', '|'])));
    k.contains("output_channel") || (filish && quoted) || pathlike
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
/// none.
pub fn without_file_writers(s: &Script) -> Option<Script> {
    let writes = writes_file_command;
    if !s.commands.iter().any(|c| writes(s, c)) {
        return None;
    }
    let mut out = s.clone();
    out.retain_commands(|s, c| !writes(s, c));
    Some(out)
}

/// Whether command `c` of `s` is a file-writing `set-option` ([`writes_files`]).
pub fn writes_file_command(s: &Script, c: &crate::smtlib::ast::Command) -> bool {
    match c.kind {
        CommandKind::SetOption(a) => {
            let text = crate::smtlib::printer::print_command_with(s, &c.kind, &[]);
            let key = s.str(a.key);
            let value = text.split_once(key).map_or("", |(_, v)| v.trim_end().trim_end_matches(')'));
            writes_files(key, value)
        }
        _ => false,
    }
}

static SCRATCH: std::sync::RwLock<Option<&'static Path>> = std::sync::RwLock::new(None);

/// Makes `dir` (created) the working directory of every solver process this process
/// starts from now on: a store's `scratch/` for a campaign, a triage, a BanditFuzz run or
/// the reduction of a finding. Its absolute path is kept for the rest of the process.
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
    }
}
