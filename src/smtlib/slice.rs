//! Scripts cut down from a script: slices of its assertions for a seed too slow to fuzz
//! whole, a chosen subset of its commands, and a check-sat added where it asks none.

use super::ast::{checks, CommandKind, Nullary, Script, Term, TermId};

/// Slices of a script's assertions for a seed that every solver times out on: the
/// commands to keep (indices into `s.commands`) for each half, then each quarter, of its
/// unnamed assertions, in that order (the first two levels of ddmin, Zeller and
/// Hildebrandt, TSE 2002). Every other command stays, named assertions included (a
/// `check-sat-assuming` or an unsat core may refer to them by name), except the
/// `(set-info :status ...)`s, which no longer describe a slice. Empty when there are
/// fewer than two unnamed assertions to split.
pub fn assertion_slices(s: &Script) -> Vec<Vec<usize>> {
    let named = |t: TermId| match s.term(t) {
        Term::Annot(_, attrs) => s.attr_list(*attrs).iter().any(|a| s.str(a.key) == ":named"),
        _ => false,
    };
    let asserts: Vec<usize> =
        (0..s.commands.len()).filter(|&i| matches!(s.commands[i].kind, CommandKind::Assert(t) if !named(t))).collect();
    if asserts.len() < 2 {
        return vec![];
    }
    let mut out = vec![];
    for parts in [2usize, 4] {
        let n = asserts.len();
        if parts > n {
            break;
        }
        for p in 0..parts {
            let part = p * n / parts..(p + 1) * n / parts;
            let keep = (0..s.commands.len())
                .filter(|&i| match asserts.binary_search(&i) {
                    Ok(j) => part.contains(&j),
                    Err(_) => !s.is_status(&s.commands[i].kind),
                })
                .collect();
            out.push(keep);
        }
    }
    out
}

/// `s` with only the commands at `keep` (ascending indices, as [`assertion_slices`]
/// gives them), source offsets kept.
pub fn keep_commands(s: &Script, keep: &[usize]) -> Script {
    let mut out = s.clone();
    let mut i = 0;
    out.retain_commands(|_, _| {
        i += 1;
        keep.binary_search(&(i - 1)).is_ok()
    });
    out
}

/// A script with assertions but no check-sat (regression suites check `simplify`,
/// `eval` or `get-value` output instead) with a `(check-sat)` after its last assertion,
/// so that solvers have something to decide: `None` when it has a check-sat already or
/// asserts nothing (then a check-sat would ask nothing of interest).
pub fn with_check_sat(s: &Script) -> Option<Script> {
    if checks(s) > 0 {
        return None;
    }
    let last = s.commands.iter().rposition(|c| matches!(c.kind, CommandKind::Assert(_)))?;
    let mut out = s.clone();
    out.insert_command(last + 1, CommandKind::Nullary(Nullary::CheckSat));
    Some(out)
}
