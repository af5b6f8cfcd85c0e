//! Every term of a script with what is in scope there: its parent link, sort, command, the
//! local names bound around it (`let`, quantifiers, `match`, function parameters), and
//! its subtree's extent. TypeFuzz uses it to find replacement terms that are in scope at
//! a position; ValFuzz to find closed Boolean sub-terms and constants.
//!
//! One iterative pre-order walk in the order of [`edit::walk`]: node `i`'s subtree is
//! `nodes[i..i + size]`. Nodes hold parent links, not paths, so a scope is linear in the
//! script's size at any depth; [`Scope::path`] builds a chosen node's path.

use super::edit::{self, Path, ROOT};
use crate::smtlib::ast::*;
use crate::smtlib::check::Checked;
use crate::smtlib::sort::SortRef;

/// No local binding.
pub const NONE: u32 = u32::MAX;

/// A local name in scope: one `let` binding, quantified variable, pattern variable or
/// function parameter. `parent` is the next-outer binding visible at the same place.
#[derive(Clone, Debug)]
pub struct Local {
    pub name: Str,
    pub parent: u32,
    /// The sort of the bound value (`let`) or of the first use (others); unknown until used.
    pub sort: SortRef,
}

/// What a symbol occurrence denotes: resolved as the sort checker resolves names (SMT-LIB
/// 2.6 §3.6: a local binding shadows a declaration, which shadows a theory symbol).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Meaning {
    /// A local binding (`let`, quantifier, `match`, function parameter).
    Local,
    /// The script's own declaration or definition at this command index (for a `:named`
    /// label, the command that names it).
    Declared(u32),
    /// A symbol of the theory signature table.
    Theory,
    /// Nothing the script declares and no theory symbol (a literal-like special name,
    /// or an undeclared symbol the checker reports).
    Unknown,
}

/// A term in context.
#[derive(Clone, Debug)]
pub struct Node {
    pub term: TermId,
    /// Index of the parent node ([`ROOT`] for a command's term) and this node's position
    /// among its children ([`edit::Visit`]).
    pub parent: u32,
    pub pos: u32,
    /// Child steps from the command's term (its path's length minus 2, [`Node::depth`]),
    /// and in the top bit whether the subtree holds a `:named` annotation
    /// ([`Node::named`]): a node is 40 bytes, not 44, and a scope of a 100,000-deep seed
    /// is held through a whole reduction wave (issue 37).
    depth_named: u32,
    pub sort: SortRef,
    pub cmd: u32,
    /// Innermost local in scope ([`NONE`] if none).
    pub env: u32,
    /// Number of locals created before this node: a variable inside the subtree bound to
    /// a local with a smaller id is free in the subtree.
    pub locals_before: u32,
    /// For a variable: the local it refers to ([`NONE`] for a global symbol).
    pub binding: u32,
    /// Number of nodes in the subtree (this one included).
    pub size: u32,
}

const NAMED: u32 = 1 << 31;
const _: () = assert!(std::mem::size_of::<Node>() == 40);

impl Node {
    /// Child steps from the command's term (its path's length minus 2).
    pub fn depth(&self) -> u32 {
        self.depth_named & !NAMED
    }
    /// The subtree contains a `:named` annotation (copying it would define a name twice).
    pub fn named(&self) -> bool {
        self.depth_named & NAMED != 0
    }
}

/// The nodes and locals of a script.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    pub nodes: Vec<Node>,
    pub locals: Vec<Local>,
}

enum Step {
    /// (parent node, position, term, environment)
    Enter(u32, u32, TermId, u32),
    Exit(usize, u32),
}

impl Scope {
    pub fn new(s: &Script, checked: &Checked) -> Scope {
        // A node per term at most: sized once, not doubled (a doubling copy is the peak on
        // a large seed).
        let mut sc = Scope { nodes: Vec::with_capacity(s.terms.len()), locals: vec![] };
        let mut named_seen = 0u32;
        for c in 0..s.commands.len() {
            // Function parameters are locals of the body they belong to.
            let params: Vec<List<SortedVar>> = match s.commands[c].kind {
                CommandKind::DefineFun { decl, .. } => vec![decl.params],
                CommandKind::DefineFunsRec(decls, _) => s.fun_decl_list(decls).iter().map(|d| d.params).collect(),
                _ => vec![],
            };
            for (r, &root) in edit::command_terms(s, c).iter().enumerate() {
                let env = params.get(r).map_or(NONE, |&ps| sc.bind_sorted(s, NONE, ps));
                let mut stack = vec![Step::Enter(ROOT, r as u32, root, env)];
                while let Some(step) = stack.pop() {
                    match step {
                        Step::Exit(i, named_at) => {
                            sc.nodes[i].size = (sc.nodes.len() - i) as u32;
                            if named_seen > named_at {
                                sc.nodes[i].depth_named |= NAMED;
                            }
                        }
                        Step::Enter(parent, pos, t, env) => {
                            let i = sc.nodes.len();
                            let sort = checked.term_sorts.get(t.index()).copied().unwrap_or(SortRef::UNKNOWN);
                            let mut binding = NONE;
                            if let Term::Var(q) = *s.term(t) {
                                if q.ident.indices.is_empty() {
                                    binding = sc.lookup(s, env, s.sym(q.ident.sym));
                                    if binding != NONE && sc.locals[binding as usize].sort == SortRef::UNKNOWN {
                                        sc.locals[binding as usize].sort = sort;
                                    }
                                }
                            }
                            if let Term::Annot(_, attrs) = *s.term(t) {
                                if s.attr_list(attrs).iter().any(|a| s.str(a.key) == ":named") {
                                    named_seen += 1;
                                }
                            }
                            let locals_before = sc.locals.len() as u32;
                            stack.push(Step::Exit(i, named_seen));
                            let envs = sc.child_envs(s, t, env, checked);
                            for (k, (&ch, &e)) in edit::children(s, t).iter().zip(&envs).enumerate().rev() {
                                stack.push(Step::Enter(i as u32, k as u32, ch, e));
                            }
                            sc.nodes.push(Node {
                                term: t,
                                parent,
                                pos,
                                depth_named: sc.nodes.get(parent as usize).map_or(0, |p| p.depth() + 1),
                                sort,
                                cmd: c as u32,
                                env,
                                locals_before,
                                binding,
                                size: 1,
                            });
                        }
                    }
                }
            }
        }
        sc
    }

    /// Every variable and applied symbol among the nodes, with what it denotes there:
    /// (node index, name, meaning). Fusion uses it to tell a seed's theory symbols from
    /// its declared ones; its property test to show that no occurrence changes meaning.
    pub fn meanings<'s>(&self, s: &'s Script) -> Vec<(usize, &'s str, Meaning)> {
        // Declarations by name, in command order; a `:named` label from its command on.
        let mut decls: std::collections::HashMap<&str, Vec<u32>> = std::collections::HashMap::new();
        for (i, c) in s.commands.iter().enumerate() {
            if let Some(n) = s.term_declared_name(&c.kind) {
                decls.entry(n).or_default().push(i as u32);
            }
        }
        for n in &self.nodes {
            if let Term::Annot(_, attrs) = *s.term(n.term) {
                for a in s.attr_list(attrs) {
                    if let (":named", AttrValue::Sexp(v)) = (s.str(a.key), a.value) {
                        if let Sexp::Atom(_, v) = s.sexps[v.index()] {
                            decls.entry(s.sym(v)).or_default().push(n.cmd);
                        }
                    }
                }
            }
        }
        for v in decls.values_mut() {
            v.sort_unstable();
        }
        let theory = crate::smtlib::theory::table();
        let mut out = vec![];
        for (i, n) in self.nodes.iter().enumerate() {
            let (q, applied) = match *s.term(n.term) {
                Term::Var(q) => (q, false),
                Term::App(q, _) => (q, true),
                _ => continue,
            };
            let name = s.sym(q.ident.sym);
            let local = if applied { self.lookup(s, n.env, name) } else { n.binding };
            // A declaration is in force after its command (a definition's body cannot
            // name itself: recursive definitions are `define-fun-rec`).
            let declared = decls.get(name).and_then(|v| v.iter().rev().find(|&&c| c < n.cmd));
            let meaning = if local != NONE && q.ident.indices.is_empty() {
                Meaning::Local
            } else if let Some(&c) = declared {
                Meaning::Declared(c)
            } else if !theory.lookup(name).is_empty() {
                Meaning::Theory
            } else {
                Meaning::Unknown
            };
            out.push((i, name, meaning));
        }
        out
    }

    /// The path of node `i` (built only for a chosen node: its length is the depth).
    pub fn path(&self, i: usize) -> Path {
        edit::path_by_links(i, |j| {
            let n = &self.nodes[j];
            (n.cmd, n.parent, n.pos)
        })
    }

    fn bind(&mut self, name: Str, parent: u32, sort: SortRef) -> u32 {
        self.locals.push(Local { name, parent, sort });
        self.locals.len() as u32 - 1
    }

    /// The environment of each child of `t` (same order as [`edit::children`]).
    fn child_envs(&mut self, s: &Script, t: TermId, env: u32, checked: &Checked) -> Vec<u32> {
        let sort_of = |t: TermId| checked.term_sorts.get(t.index()).copied().unwrap_or(SortRef::UNKNOWN);
        match *s.term(t) {
            Term::Lit(..) | Term::Var(_) => vec![],
            Term::App(_, args) => vec![env; args.len as usize],
            Term::Let(binds, _) => {
                let bs = s.binding_list(binds);
                let mut inner = env;
                for b in bs {
                    inner = self.bind(b.name, inner, sort_of(b.value));
                }
                let mut v = vec![env; bs.len()];
                v.push(inner);
                v
            }
            Term::Quant(_, vars, _) => vec![self.bind_sorted(s, env, vars)],
            Term::ExtBinder(_, vars, bodies) => vec![self.bind_sorted(s, env, vars); bodies.len as usize],
            Term::Match(_, cases) => {
                let mut v = vec![env];
                for c in s.case_list(cases) {
                    let mut inner = env;
                    if let Some(vs) = c.vars {
                        for &n in s.str_list(vs) {
                            inner = self.bind(n, inner, SortRef::UNKNOWN);
                        }
                    }
                    v.push(inner);
                }
                v
            }
            Term::Annot(..) => vec![env; edit::children(s, t).len()],
        }
    }

    fn bind_sorted(&mut self, s: &Script, mut env: u32, vars: List<SortedVar>) -> u32 {
        for v in s.var_list(vars) {
            env = self.bind(v.name, env, SortRef::UNKNOWN);
        }
        env
    }

    /// The local `name` refers to in `env`, or [`NONE`].
    pub fn lookup(&self, s: &Script, mut env: u32, name: &str) -> u32 {
        while env != NONE {
            let l = &self.locals[env as usize];
            if s.sym(l.name) == name {
                return env;
            }
            env = l.parent;
        }
        NONE
    }

    /// The locals node `i` uses but does not bind, as (name, sort of the use).
    pub fn free_locals<'s>(&self, s: &'s Script, i: usize) -> Vec<(&'s str, SortRef)> {
        let n = &self.nodes[i];
        let mut out: Vec<(&str, SortRef)> = vec![];
        for m in &self.nodes[i..i + n.size as usize] {
            if m.binding != NONE && m.binding < n.locals_before {
                let name = s.sym(self.locals[m.binding as usize].name);
                if !out.iter().any(|(x, _)| *x == name) {
                    out.push((name, m.sort));
                }
            }
        }
        out
    }

    /// Whether node `i` can be copied to the position of node `at`: every local it uses is
    /// bound there too, to a value of the same sort (as far as known).
    pub fn fits_at(&self, s: &Script, i: usize, at: usize) -> bool {
        self.free_locals(s, i).iter().all(|&(name, sort)| {
            let b = self.lookup(s, self.nodes[at].env, name);
            b != NONE && {
                let have = self.locals[b as usize].sort;
                have == sort || have == SortRef::UNKNOWN
            }
        })
    }
}
