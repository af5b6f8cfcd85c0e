//! Edits: small serialisable values that describe a mutation, addressed by stable paths.
//!
//! A mutant is fully described by its seed's content and its edit list: [`apply`] replays
//! it byte for byte. Engines only *choose* edits; this module is the one place that
//! changes a script, and it re-checks sorts so no engine can produce an ill-sorted mutant.

use crate::smtlib::ast::*;
use crate::smtlib::check;
use serde::{Deserialize, Serialize};

/// Address of a term: the command's index, the index of the term among the command's
/// terms ([`command_terms`]), then child positions ([`children`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Path(pub Vec<u32>);

/// One mutation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "snake_case")]
pub enum Edit {
    /// Replace the operator of the application at `at` by `to` (indices kept), or the
    /// binder of the quantifier at `at` (`forall` ↔ `exists`).
    SwapOperator { at: Path, to: String },
    /// Replace the term at `at` by the term written `with` (TypeFuzz: a term of the same
    /// sort that is in scope there, or a fresh application over such terms).
    ReplaceSubterm { at: Path, with: String },
    /// Replace the term at `at` by a fresh subtree `with` rooted at operator `construct`
    /// (BanditFuzz's construct insertion, chosen by its construct agent).
    InsertConstruct { at: Path, construct: String, with: String },
    /// Replace the constant at `at` by the literal (or negated literal) `value` (ValFuzz).
    ReplaceConstant { at: Path, value: String },
    /// Replace the script's assertions and queries by these assertions and one
    /// `(check-sat)`, keeping logic, options, declarations and definitions (STORM). With
    /// `blocks`, the assertions are split into incremental blocks instead: each block is
    /// `(push 1)`, its assertions, `(check-sat)`, then `(pop 1)` if it says so. With
    /// `tactic`, every check is z3's `(check-sat-using TACTIC)` instead (STORM's solver
    /// variation; other solvers get a plain `check-sat`, see
    /// [`crate::solver::Family::without_foreign_options`]).
    Recombine {
        assertions: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        blocks: Vec<Block>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tactic: Option<String>,
    },
    /// Ask the `check-sat` at command `after` again, right after it, through z3's
    /// `(check-sat-using TACTIC)` (the configuration engine, [`crate::mutate::config`];
    /// other solvers get a plain `check-sat`). It inserts a command, so it comes after
    /// every edit that addresses terms by command index.
    AskAgain { after: usize, tactic: String },
    /// Ask the check at command `check` inside a scope, then again outside it (the
    /// configuration engine's incremental framing): `(push 1)` goes before the assertion
    /// at command `from` (every command from it up to the check is [`scopable`]); after
    /// the check and the commands that read its answer come `(pop 1)`, the same
    /// assertions again and the same check. Both checks ask about one assertion stack
    /// ([`crate::smtlib::framing`]), the first through the solver's incremental path. It
    /// inserts commands, so it comes after every edit that addresses terms by command
    /// index.
    PushSplit { check: usize, from: usize },
    /// Solver options set at the script's start, `(set-option :NAME VALUE)` each, from one
    /// family's table (the configuration engine; only that family reads them, the others
    /// drop them: [`crate::solver::Family::without_foreign_options`]). It inserts
    /// commands before all others, so it comes after every edit that addresses commands
    /// or terms by index.
    SetOptions { options: Vec<(String, String)> },
    /// Semantic Fusion ([`crate::mutate::fusion`]): the script fused with the seed
    /// `other` (its path as the campaign read it). It needs that second seed, so it
    /// replays through [`crate::mutate::fusion::build`], not [`apply`].
    Fuse {
        other: String,
        #[serde(flatten)]
        recipe: Recipe,
    },
    /// Metamorphic relations that keep every check-sat's answer
    /// ([`crate::mutate::equisat`]), recorded by name and key so that they replay on any
    /// script ([`crate::mutate::equisat::apply`]). It rewrites the whole script, so it
    /// comes after every edit that addresses commands or terms by index.
    Metamorphic { relations: Vec<super::equisat::Relation> },
}

/// One incremental block of a [`Edit::Recombine`]: how many of the assertions it takes,
/// and whether its scope is popped after its check-sat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    pub len: usize,
    pub pop: bool,
}

impl Edit {
    /// The term the edit changes (`None` for whole-script edits).
    pub fn at(&self) -> Option<&Path> {
        match self {
            Edit::SwapOperator { at, .. }
            | Edit::ReplaceSubterm { at, .. }
            | Edit::ReplaceConstant { at, .. }
            | Edit::InsertConstruct { at, .. } => Some(at),
            Edit::Recombine { .. }
            | Edit::AskAgain { .. }
            | Edit::PushSplit { .. }
            | Edit::SetOptions { .. }
            | Edit::Fuse { .. }
            | Edit::Metamorphic { .. } => None,
        }
    }
}

/// Why an edit could not be applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("no term at path {0:?}")]
    NoSuchPath(Vec<u32>),
    #[error("the term at {0:?} is not an application or quantifier")]
    NotAnOperator(Vec<u32>),
    #[error("the mutant is ill-sorted: {0}")]
    IllSorted(String),
    #[error("replacement text is not one term: {0}")]
    BadText(String),
    #[error("command {0} is not a check-sat")]
    NotACheck(usize),
    #[error("commands {from} to {check} are not assertions followed by a check-sat")]
    NotAScope { from: usize, check: usize },
    #[error("a fusion replays from both of its seeds (mutate::fusion::build)")]
    NeedsSecondSeed,
    #[error("the seed cannot take part in a fusion")]
    NotFusable,
}

/// The terms a command holds, in order (the second step of a [`Path`]).
pub fn command_terms(s: &Script, c: usize) -> Vec<TermId> {
    match s.commands[c].kind {
        CommandKind::Assert(t) | CommandKind::DefineConst(_, _, t) => vec![t],
        CommandKind::DefineFun { body, .. } => vec![body],
        CommandKind::DefineFunsRec(_, bodies) => s.term_list(bodies).to_vec(),
        CommandKind::CheckSatAssuming(l) | CommandKind::GetValue(l) => s.term_list(l).to_vec(),
        CommandKind::TermCmd { term, .. } => vec![term],
        _ => vec![],
    }
}

/// The children of a term, in order: application arguments; `let` binding values then
/// the body; a binder's body (and a solver binder's bodies); `match` scrutinee then case
/// bodies; an annotation's body then its pattern terms.
pub fn children(s: &Script, t: TermId) -> Vec<TermId> {
    match *s.term(t) {
        Term::Lit(..) | Term::Var(_) => vec![],
        Term::App(_, args) => s.term_list(args).to_vec(),
        Term::Let(binds, body) => s.binding_list(binds).iter().map(|b| b.value).chain([body]).collect(),
        Term::Quant(_, _, body) => vec![body],
        Term::ExtBinder(_, _, bodies) => s.term_list(bodies).to_vec(),
        Term::Match(scrut, cases) => [scrut].into_iter().chain(s.case_list(cases).iter().map(|c| c.body)).collect(),
        Term::Annot(body, attrs) => {
            let mut v = vec![body];
            for a in s.attr_list(attrs) {
                if let AttrValue::Terms(ts) = a.value {
                    v.extend_from_slice(s.term_list(ts));
                }
            }
            v
        }
    }
}

/// The term at `path`.
pub fn resolve(s: &Script, path: &Path) -> Option<TermId> {
    let p = &path.0;
    let c = *p.first()? as usize;
    if c >= s.commands.len() {
        return None;
    }
    let mut t = *command_terms(s, c).get(*p.get(1)? as usize)?;
    for &i in &p[2..] {
        t = *children(s, t).get(i as usize)?;
    }
    Some(t)
}

/// The parent link of a command's term: it has no parent term.
pub const ROOT: u32 = u32::MAX;

/// One term of a [`Walk`]: its parent's index in the walk ([`ROOT`] for a command's
/// term) and its position among the parent's [`children`] (for a root: among the
/// command's terms, [`command_terms`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visit {
    pub term: TermId,
    pub cmd: u32,
    pub parent: u32,
    pub pos: u32,
}

/// Every term of a script in pre-order (iterative, any depth), addressed by parent links:
/// 16 bytes a term whatever the depth. A [`Path`] per term would cost the depth per term,
/// so memory would grow with the square of the nesting (476 MB for a 10,000-deep `let`,
/// killed at 24 GB at 100,000: issue 37); engines pick an index and build only the chosen
/// term's path ([`Walk::path`]).
#[derive(Clone, Debug, Default)]
pub struct Walk {
    pub nodes: Vec<Visit>,
}

impl Walk {
    pub fn new(s: &Script) -> Walk {
        let mut nodes = Vec::with_capacity(s.terms.len());
        let mut stack: Vec<Visit> = vec![];
        for c in 0..s.commands.len() {
            for (r, &root) in command_terms(s, c).iter().enumerate().rev() {
                stack.push(Visit { term: root, cmd: c as u32, parent: ROOT, pos: r as u32 });
            }
            while let Some(v) = stack.pop() {
                let i = nodes.len() as u32;
                for (k, &ch) in children(s, v.term).iter().enumerate().rev() {
                    stack.push(Visit { term: ch, cmd: v.cmd, parent: i, pos: k as u32 });
                }
                nodes.push(v);
            }
        }
        Walk { nodes }
    }

    /// The path of node `i` (its length is the depth: built only for a chosen term).
    pub fn path(&self, i: usize) -> Path {
        path_by_links(i, |j| {
            let v = &self.nodes[j];
            (v.cmd, v.parent, v.pos)
        })
    }

    /// The number of child steps from node `i` up to its command's term (its path's
    /// length minus 2).
    pub fn depth(&self, i: usize) -> usize {
        let (mut d, mut j) = (0, self.nodes[i].parent);
        while j != ROOT {
            d += 1;
            j = self.nodes[j as usize].parent;
        }
        d
    }
}

/// The path of node `i` of a pre-order walk from its parent links: `link(j)` is node `j`'s
/// (command, parent index or [`ROOT`], position). One step per level of nesting.
pub fn path_by_links(i: usize, link: impl Fn(usize) -> (u32, u32, u32)) -> Path {
    let mut steps = vec![];
    let mut j = i;
    loop {
        let (cmd, parent, pos) = link(j);
        steps.push(pos);
        if parent == ROOT {
            steps.push(cmd);
            break;
        }
        j = parent as usize;
    }
    steps.reverse();
    Path(steps)
}

/// Every term of a script, in pre-order ([`Walk::new`]).
pub fn walk(s: &Script) -> Walk {
    Walk::new(s)
}

/// Applies `edits` without the sort re-check: only for an engine that has checked its
/// edit itself (OpFuzz's same-sort swaps, [`crate::smtlib::check::theory_app_sort`]).
pub fn apply_unchecked(seed: &Script, edits: &[Edit]) -> Result<Script, EditError> {
    // The seed is copied only when an edit changes it in place: a replacement prints the
    // seed itself, so a megabyte seed is not held twice while its mutant is parsed
    // (issue 37: memory on a 100,000-deep seed).
    let mut s: std::borrow::Cow<Script> = std::borrow::Cow::Borrowed(seed);
    // Text edits are applied by printing with the replaced terms overridden and parsing
    // back. Consecutive text edits at unrelated paths go in one print (a replacement
    // changes nothing outside its own subtree, so their paths stay valid).
    let mut pending: Vec<(TermId, &str)> = vec![];
    let mut pending_paths: Vec<&Path> = vec![];
    for e in edits {
        let related = |p: &&Path| e.at().is_some_and(|at| p.0.starts_with(&at.0) || at.0.starts_with(&p.0));
        let flush =
            !matches!(e, Edit::ReplaceSubterm { .. } | Edit::ReplaceConstant { .. } | Edit::InsertConstruct { .. });
        if !pending.is_empty() && (flush || pending_paths.iter().any(related)) {
            s = std::borrow::Cow::Owned(reprint(s, &pending)?);
            pending.clear();
            pending_paths.clear();
        }
        if let Edit::Recombine { assertions, blocks, tactic } = e {
            s = std::borrow::Cow::Owned(recombine(&s, assertions, blocks, tactic.as_deref())?);
            continue;
        }
        if let Edit::AskAgain { after, tactic } = e {
            s = std::borrow::Cow::Owned(ask_again(&s, *after, tactic)?);
            continue;
        }
        if let Edit::PushSplit { check, from } = e {
            s = std::borrow::Cow::Owned(push_split(&s, *check, *from)?);
            continue;
        }
        if let Edit::SetOptions { options } = e {
            s = std::borrow::Cow::Owned(set_options(&s, options)?);
            continue;
        }
        if let Edit::Fuse { .. } = e {
            return Err(EditError::NeedsSecondSeed);
        }
        if let Edit::Metamorphic { relations } = e {
            let m = super::equisat::apply(&s, relations).map_err(|e| EditError::BadText(e.0))?;
            s = std::borrow::Cow::Owned(m);
            continue;
        }
        let at = e.at().expect("path edits");
        let t = resolve(&s, at).ok_or_else(|| EditError::NoSuchPath(at.0.clone()))?;
        match e {
            Edit::SwapOperator { to, .. } => match *s.term(t) {
                Term::App(q, args) => {
                    let s = s.to_mut();
                    let sym = s.intern(to);
                    let q = QualIdent { ident: Ident { sym, indices: q.ident.indices }, sort: q.sort };
                    s.terms[t.index()] = Term::App(q, args);
                }
                Term::Quant(b, vars, body) if b != Binder::Lambda => {
                    let nb = match to.as_str() {
                        "forall" => Binder::Forall,
                        "exists" => Binder::Exists,
                        _ => return Err(EditError::NotAnOperator(at.0.clone())),
                    };
                    s.to_mut().terms[t.index()] = Term::Quant(nb, vars, body);
                }
                _ => return Err(EditError::NotAnOperator(at.0.clone())),
            },
            Edit::ReplaceSubterm { with: text, .. }
            | Edit::ReplaceConstant { value: text, .. }
            | Edit::InsertConstruct { with: text, .. } => {
                pending.push((t, text));
                pending_paths.push(at);
            }
            Edit::Recombine { .. }
            | Edit::AskAgain { .. }
            | Edit::PushSplit { .. }
            | Edit::SetOptions { .. }
            | Edit::Fuse { .. }
            | Edit::Metamorphic { .. } => {
                unreachable!("handled above")
            }
        }
    }
    if !pending.is_empty() {
        return reprint(s, &pending);
    }
    Ok(s.into_owned())
}

/// One tactic expression for `check-sat-using`: a symbol or one balanced list, nothing
/// after it.
fn check_sat_using(t: &str) -> Result<String, EditError> {
    let probe =
        crate::smtlib::parse(&format!("(check-sat-using {t})")).map_err(|e| EditError::BadText(e.to_string()))?;
    if probe.commands.len() != 1 {
        return Err(EditError::BadText(t.to_string()));
    }
    Ok(format!("(check-sat-using {t})\n"))
}

/// Commands that read the last answer (a model, a core, values, an `eval`): a second
/// check-sat goes after them, so that they still read the first answer (z3 says "model
/// is not available" after a tactic that gave up).
fn reads_answer(s: &Script, c: &CommandKind) -> bool {
    match *c {
        CommandKind::Nullary(n) => {
            !matches!(n, Nullary::CheckSat | Nullary::Exit | Nullary::Reset | Nullary::ResetAssertions)
        }
        CommandKind::GetValue(_) | CommandKind::GetInfo(_) | CommandKind::GetOption(_) | CommandKind::Echo(_) => true,
        CommandKind::TermCmd { name, .. } => s.str(name) == "eval",
        CommandKind::Other { name, .. } => s.str(name).starts_with("get-"),
        _ => false,
    }
}

/// [`Edit::AskAgain`]: the script printed with the new command after the check-sat at
/// `after` and the commands that read its answer, parsed back.
fn ask_again(s: &Script, after: usize, tactic: &str) -> Result<Script, EditError> {
    if !s.commands.get(after).is_some_and(|c| s.is_check(&c.kind)) {
        return Err(EditError::NotACheck(after));
    }
    let again = check_sat_using(tactic)?;
    let mut after = after;
    while s.commands.get(after + 1).is_some_and(|c| reads_answer(s, &c.kind)) {
        after += 1;
    }
    let mut p = crate::smtlib::printer::Printer::new(s);
    for (i, c) in s.commands.iter().enumerate() {
        p.command(&c.kind);
        p.newline();
        if i == after {
            p.out.push_str(&again);
        }
    }
    crate::smtlib::parse(&p.out).map_err(|e| EditError::BadText(e.to_string()))
}

/// [`Edit::SetOptions`]: `(set-option :NAME VALUE)` for each option, then the script.
/// A name is a keyword's letters, digits and dashes; a value one symbol or numeral, or
/// such a word in quotes (bitwuzla's modes are string literals).
fn set_options(s: &Script, options: &[(String, String)]) -> Result<Script, EditError> {
    let word = |w: &str, extra: &str| {
        !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || extra.contains(c))
    };
    let mut text = String::new();
    for (name, value) in options {
        let unquoted = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(value);
        if !word(name, "") || !word(unquoted, "._") {
            return Err(EditError::BadText(format!(":{name} {value}")));
        }
        text.push_str(&format!("(set-option :{name} {value})\n"));
    }
    text.push_str(&crate::smtlib::print(s));
    crate::smtlib::parse(&text).map_err(|e| EditError::BadText(e.to_string()))
}

/// What an [`Edit::PushSplit`] scope may hold: assertions, and commands that change
/// nothing on the stack (a `set-info :status` between the assertions and the check is
/// common in regression suites).
pub fn scopable(k: &CommandKind) -> bool {
    matches!(k, CommandKind::Assert(_) | CommandKind::SetInfo(_) | CommandKind::Echo(_))
}

/// [`Edit::PushSplit`]: the script printed with `(push 1)` before command `from`, and
/// `(pop 1)`, the assertions `from..check` and the check again after the check at `check`
/// and the commands that read its answer; parsed back.
fn push_split(s: &Script, check: usize, from: usize) -> Result<Script, EditError> {
    let scoped = from < check
        && s.commands.get(check).is_some_and(|c| s.is_check(&c.kind))
        && matches!(s.commands[from].kind, CommandKind::Assert(_))
        && s.commands[from..check].iter().all(|c| scopable(&c.kind));
    if !scoped {
        return Err(EditError::NotAScope { from, check });
    }
    let mut end = check;
    while s.commands.get(end + 1).is_some_and(|c| reads_answer(s, &c.kind)) {
        end += 1;
    }
    let mut p = crate::smtlib::printer::Printer::new(s);
    for (i, c) in s.commands.iter().enumerate() {
        if i == from {
            p.out.push_str("(push 1)\n");
        }
        p.command(&c.kind);
        p.newline();
        if i == end {
            p.out.push_str("(pop 1)\n");
            for again in &s.commands[from..=check] {
                p.command(&again.kind);
                p.newline();
            }
        }
    }
    crate::smtlib::parse(&p.out).map_err(|e| EditError::BadText(e.to_string()))
}

/// Applies `edits` to a copy of `seed` and checks that the result is no less well-sorted
/// than the seed (a seed with unknown symbols stays usable; a mutant may not add errors).
pub fn apply(seed: &Script, edits: &[Edit]) -> Result<Script, EditError> {
    apply_with_baseline(seed, edits, check::check(seed).diagnostics.len())
}

/// [`apply`] with the seed's diagnostic count already known (engines check a seed once).
pub fn apply_with_baseline(seed: &Script, edits: &[Edit], before: usize) -> Result<Script, EditError> {
    let s = apply_unchecked(seed, edits)?;
    let after = check::check(&s);
    if after.diagnostics.len() > before {
        return Err(EditError::IllSorted(after.diagnostics.last().map(|d| d.to_string()).unwrap_or_default()));
    }
    Ok(s)
}

/// The commands a recombined script keeps: logic, options, infos, declarations and
/// definitions.
pub fn kept_by_recombine(k: &CommandKind) -> bool {
    matches!(
        k,
        CommandKind::SetLogic(_)
            | CommandKind::SetOption(_)
            | CommandKind::SetInfo(_)
            | CommandKind::DeclareConst(..)
            | CommandKind::DeclareFun(..)
            | CommandKind::DeclareSort(..)
            | CommandKind::DefineSort(..)
            | CommandKind::DefineFun { .. }
            | CommandKind::DefineFunsRec(..)
            | CommandKind::DefineConst(..)
            | CommandKind::DeclareDatatype(..)
            | CommandKind::DeclareDatatypes { .. }
    )
}

fn recombine(s: &Script, assertions: &[String], blocks: &[Block], tactic: Option<&str>) -> Result<Script, EditError> {
    for a in assertions {
        let one = crate::smtlib::parse(&format!("(assert {a})")).map_err(|e| EditError::BadText(e.to_string()))?;
        if one.commands.len() != 1 {
            return Err(EditError::BadText(a.clone()));
        }
    }
    let text = recombine_prefix(s) + &recombine_body(assertions, blocks, tactic)?;
    crate::smtlib::parse(&text).map_err(|e| EditError::BadText(e.to_string()))
}

/// What a [`Edit::Recombine`] keeps of `s`, printed one command a line: logic, options,
/// infos (but a stale `:status`, which would contradict the new assertions — z3 rejects
/// the answer), declarations and definitions.
pub fn recombine_prefix(s: &Script) -> String {
    let mut text = String::new();
    for c in &s.commands {
        if kept_by_recombine(&c.kind) && !s.is_status(&c.kind) {
            let mut p = crate::smtlib::printer::Printer::new(s);
            p.command(&c.kind);
            text.push_str(&p.out);
            text.push('\n');
        }
    }
    text
}

/// The rest of a [`Edit::Recombine`]'s script: the assertions and checks, one command a
/// line. The assertions are taken as given (callers that did not print them from a
/// parsed term check them first).
pub fn recombine_body(assertions: &[String], blocks: &[Block], tactic: Option<&str>) -> Result<String, EditError> {
    let check = match tactic {
        Some(t) => check_sat_using(t)?,
        None => "(check-sat)\n".to_string(),
    };
    let mut text = String::with_capacity(assertions.iter().map(|a| a.len() + 10).sum::<usize>() + 64);
    if blocks.is_empty() {
        for a in assertions {
            text.push_str("(assert ");
            text.push_str(a);
            text.push_str(")\n");
        }
        text.push_str(&check);
    } else {
        if blocks.iter().map(|b| b.len).sum::<usize>() != assertions.len() {
            return Err(EditError::BadText("blocks do not cover the assertions".into()));
        }
        let mut rest = assertions;
        for b in blocks {
            let (mine, more) = rest.split_at(b.len);
            rest = more;
            text.push_str("(push 1)\n");
            for a in mine {
                text.push_str("(assert ");
                text.push_str(a);
                text.push_str(")\n");
            }
            text.push_str(&check);
            if b.pop {
                text.push_str("(pop 1)\n");
            }
        }
    }
    Ok(text)
}

/// Prints `s` with the overrides and parses the result back. Each replacement must be
/// exactly one term: text that closes the command early and opens another is refused.
fn reprint(s: std::borrow::Cow<Script>, overrides: &[(TermId, &str)]) -> Result<Script, EditError> {
    for (_, text) in overrides {
        let one = crate::smtlib::parse(&format!("(assert {text})")).map_err(|e| EditError::BadText(e.to_string()))?;
        if one.commands.len() != 1 {
            return Err(EditError::BadText(text.to_string()));
        }
    }
    let text = crate::smtlib::printer::print_with(&s, overrides);
    // The old script goes before the new one is built: only one is held at a time.
    drop(s);
    crate::smtlib::parse(&text).map_err(|e| EditError::BadText(e.to_string()))
}

/// Removes `(set-info :status ...)`: a mutant's status is unknown, and a stale one would
/// mislead every tool that reads it. Apply edits first: paths address the seed's commands.
pub fn strip_status(s: &mut Script) {
    s.retain_commands(|s, c| !s.is_status(&c.kind));
}

// What a Semantic Fusion records ([`Edit::Fuse`]); [`crate::mutate::fusion`] builds it.

/// A fusion function `z = f(x, y)` with its inversions (PLDI 2020, Table 2;
/// their texts are [`crate::mutate::fusion`]'s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Function {
    /// `x + y` (Int, Real).
    Add,
    /// `x + c + y` (Int, Real).
    AddConst,
    /// `c * x + y`, `c ≠ 0` (Int: `r_x = (z - y) div c`, exact since `z - y = c * x`; Real).
    ScaleAdd,
    /// `bvadd x y`.
    BvAdd,
    /// `bvsub x y`.
    BvSub,
    /// `bvxor x y`.
    BvXor,
    /// `str.++ x y`, inverted by `str.substr` with the lengths.
    Concat,
}

/// One fused pair: `x` of the first seed, `y` of the second (as renamed apart), the fresh
/// `z`, the function, and which occurrences (indices among the free occurrences in the
/// assertions, in [`crate::mutate::edit::walk`] order) are replaced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pair {
    pub x: String,
    pub y: String,
    pub z: String,
    pub sort: String,
    pub function: Function,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub constant: String,
    pub x_at: Vec<u32>,
    pub y_at: Vec<u32>,
}

/// A fusion as [`crate::mutate::edit::Edit::Fuse`] records it: enough to rebuild the
/// mutant from the two seeds ([`crate::mutate::fusion::build`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recipe {
    /// Both seeds are satisfiable (else both unsatisfiable).
    pub sat: bool,
    pub pairs: Vec<Pair>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smtlib::{parse, print};

    #[test]
    fn paths_address_terms_stably_and_edits_replay() {
        let s = parse("(declare-const x Int)\n(assert (let ((y (+ x 1))) (< y (* 2 x))))\n(check-sat)").unwrap();
        let w = walk(&s);
        let all: Vec<String> = (0..w.nodes.len())
            .map(|i| format!("{:?}={}", w.path(i).0, crate::smtlib::printer::term_to_string(&s, w.nodes[i].term)))
            .collect();
        assert_eq!(all[0], "[1, 0]=(let ((y (+ x 1))) (< y (* 2 x)))");
        assert!(all.contains(&"[1, 0, 1, 1]=(* 2 x)".to_string()), "{all:?}");
        // Parent links give every term's path, and its depth.
        for i in 0..w.nodes.len() {
            assert_eq!(resolve(&s, &w.path(i)), Some(w.nodes[i].term), "{i}");
            assert_eq!(w.depth(i), w.path(i).0.len() - 2, "{i}");
        }
        let e = vec![Edit::SwapOperator { at: Path(vec![1, 0, 1, 1]), to: "+".into() }];
        let m = apply(&s, &e).unwrap();
        assert_eq!(print(&m).lines().nth(1).unwrap(), "(assert (let ((y (+ x 1))) (< y (+ 2 x))))");
        // Serialisable, and the same edits replay to the same text.
        let json = serde_json::to_string(&e).unwrap();
        assert_eq!(json, r#"[{"edit":"swap_operator","at":[1,0,1,1],"to":"+"}]"#);
        let back: Vec<Edit> = serde_json::from_str(&json).unwrap();
        assert_eq!(print(&apply(&s, &back).unwrap()), print(&m));
        // An ill-sorted result is refused, not produced.
        let bad = vec![Edit::SwapOperator { at: Path(vec![1, 0, 1, 1]), to: "and".into() }];
        assert!(matches!(apply(&s, &bad), Err(EditError::IllSorted(_))));
        assert!(matches!(
            apply(&s, &[Edit::SwapOperator { at: Path(vec![9]), to: "+".into() }]),
            Err(EditError::NoSuchPath(_))
        ));
    }
}
