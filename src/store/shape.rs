//! A reduced trigger's normalised shape: what two triggers of one cause have in common
//! once the names, literals and noise a fuzzer or a reducer leaves are taken away
//! ([`super::identity`] makes a finding's identity from it).

use crate::smtlib::lexer::{Lexer, Tok};
use std::collections::{HashMap, HashSet};

/// Commands whose presence says nothing about a bug's cause: metadata, the logic (one
/// `euf-completion` invalid model was four keys under four logics), and the commands that
/// only print (the issue's `smtfd` model crash kept `(get-model)`, `(echo …)`, `(eval …)`).
const NOISE_COMMANDS: &[&str] = &[
    "set-info",
    "set-logic",
    "get-model",
    "get-value",
    "get-info",
    "get-option",
    "get-assignment",
    "get-proof",
    "get-unsat-core",
    "get-unsat-assumptions",
    "get-assertions",
    "echo",
    "eval",
    "exit",
    "display",
];

/// Options that only ask for output or seed randomness: their presence in a reduced
/// trigger is noise. Any other option that survived reduction is kept with its value:
/// the reducer would have dropped it if the bug did not need it (a config-engine finding's
/// decisive option).
const NOISE_OPTIONS: &[&str] = &[
    ":produce-models",
    ":produce-assignments",
    ":produce-unsat-cores",
    ":produce-unsat-assumptions",
    ":produce-assertions",
    ":produce-proofs",
    ":print-success",
    ":verbosity",
    ":diagnostic-output-channel",
    ":regular-output-channel",
    ":global-declarations",
    ":random-seed",
    ":smt.random_seed",
    ":sat.random_seed",
    ":model_validate",
    ":model.completion",
    ":check-models",
    ":timeout",
];

/// Tactics and combinators that any pipeline may carry around the one that matters:
/// preprocessing z3 runs by default anyway, the default solvers at the end of a
/// pipeline, and the combinators themselves. `(then simplify smtfd)` and `smtfd` are one
/// configuration; so are `(then fpa2bv smt)` and `(then simplify fpa2bv smt)`.
const GENERIC_TACTICS: &[&str] = &[
    "then",
    "and-then",
    "or-else",
    "par-or",
    "par-then",
    "try-for",
    "repeat",
    "using-params",
    "!",
    "when",
    "cond",
    "fail-if",
    "if",
    "skip",
    "fail",
    "simplify",
    "propagate-values",
    "ctx-simplify",
    "solve-eqs",
    "smt",
    "sat",
    "default",
];

/// The tactics of a `check-sat-using` pipeline (its tokens after the command word) that
/// decide its configuration: every tactic name not in [`GENERIC_TACTICS`], sorted, or
/// `smt` when only generic ones remain. Parameters (`:random-seed 3`) and numbers
/// (`try-for`'s milliseconds) are not tactics.
pub fn decisive_tactics(words: &[&str]) -> String {
    let mut t: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !w.starts_with(':') && !w.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .filter(|w| !GENERIC_TACTICS.contains(w) && !matches!(*w, "true" | "false"))
        .collect();
    t.sort_unstable();
    t.dedup();
    if t.is_empty() {
        "smt".into()
    } else {
        t.join(",")
    }
}

/// The sort a literal token stands for ([`shape`]'s abstraction).
fn literal_sort(kind: Tok, text: &str) -> Option<String> {
    Some(match kind {
        Tok::Numeral => "#Int".into(),
        Tok::Decimal | Tok::Rational => "#Real".into(),
        Tok::String => "#String".into(),
        Tok::Hex => format!("#BV{}", 4 * text.len().saturating_sub(2)),
        Tok::Binary => format!("#BV{}", text.len().saturating_sub(2)),
        _ => return None,
    })
}

/// Commands whose second word (and, for datatypes, every symbol inside) the script
/// declares: the symbols [`shape`] renames.
const DECLARING: &[&str] = &[
    "declare-fun",
    "declare-const",
    "define-fun",
    "define-fun-rec",
    "define-const",
    "declare-sort",
    "define-sort",
    "declare-datatype",
    "declare-datatypes",
    "define-funs-rec",
];

/// Binders whose first list names variables: `let`, quantifiers, `lambda`.
const BINDERS: &[&str] = &["let", "forall", "exists", "lambda"];

/// A reduced trigger's normalised shape, one command a line: symbols the script declares
/// or binds renamed `x0`, `x1`, ... in order of first appearance; numerals, decimals,
/// strings and bit-vector literals (`#x..`, `#b..`, `(_ bvN w)`) replaced by their sort;
/// [`NOISE_COMMANDS`], [`NOISE_OPTIONS`] and comments dropped; a `check-sat-using`
/// pipeline cut to its [`decisive_tactics`]. `None` when the text does not tokenise.
pub fn shape(text: &str) -> Option<String> {
    let src = text.as_bytes();
    let tape = Lexer::new(src).tape();
    if tape.last().is_some_and(|t| t.kind == Tok::Error) {
        return None;
    }
    let word = |i: usize| word_at(&tape, text, i);
    let is_sym = |i: usize| matches!(tape[i].kind, Tok::Symbol | Tok::QuotedSymbol);
    // Split into top-level commands (token index ranges).
    let mut commands: Vec<(usize, usize)> = vec![];
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, t) in tape.iter().enumerate() {
        match t.kind {
            Tok::LParen => {
                if depth == 0 {
                    start = i;
                }
                depth += 1;
            }
            // A stray `)` at the top level closes nothing: it is no command (taken as
            // one, each repeated the range since the last command, quadratic in them).
            Tok::RParen if depth == 0 => {}
            Tok::RParen => {
                depth -= 1;
                if depth == 0 {
                    commands.push((start, i + 1));
                }
            }
            _ => {}
        }
    }
    // Each group's end, found once: `skip` per item was quadratic in the nesting depth.
    let mut ends = vec![0usize; tape.len()];
    let mut open = vec![];
    for (i, t) in tape.iter().enumerate() {
        match t.kind {
            Tok::LParen => open.push(i),
            Tok::RParen => {
                if let Some(o) = open.pop() {
                    ends[o] = i + 1;
                }
            }
            _ => {}
        }
        ends[i] = ends[i].max(i + 1);
    }
    for o in open {
        ends[o] = tape.len();
    }
    // The script's own symbols: declared, defined, bound.
    let mut own: HashSet<&str> = HashSet::new();
    for &(a, b) in &commands {
        let head = if a + 1 < b { word(a + 1) } else { "" };
        if DECLARING.contains(&head) {
            if head.starts_with("declare-datatype") || head == "define-funs-rec" {
                // Every symbol in the declaration but sort words the theories define.
                for i in a + 2..b {
                    if is_sym(i) && !is_builtin_sort(word(i)) && word(i) != "par" {
                        own.insert(word(i));
                    }
                }
            } else if a + 2 < b && is_sym(a + 2) {
                own.insert(word(a + 2));
                // Parameters of a defined function: `((x Int) (y Int))`.
                if head.starts_with("define-fun") && tape.get(a + 3).is_some_and(|t| t.kind == Tok::LParen) {
                    let mut i = a + 4;
                    while i + 1 < b && tape[i].kind == Tok::LParen {
                        if is_sym(i + 1) {
                            own.insert(word(i + 1));
                        }
                        i = ends[i];
                    }
                }
            }
        }
        for i in a..b {
            // `(! t :named n)`: `n` is the script's own name for `t` (SMT-LIB 2.6, §3.6.5).
            if tape[i].kind == Tok::Keyword && word(i) == ":named" && i + 1 < b && is_sym(i + 1) {
                own.insert(word(i + 1));
            }
            if is_sym(i) && BINDERS.contains(&word(i)) && tape.get(i + 1).is_some_and(|t| t.kind == Tok::LParen) {
                let end = ends[i + 1];
                let mut j = i + 2;
                while j + 1 < end && tape[j].kind == Tok::LParen {
                    if is_sym(j + 1) {
                        own.insert(word(j + 1));
                    }
                    j = ends[j];
                }
            }
        }
    }
    let kept: Vec<(usize, usize)> = commands
        .iter()
        .copied()
        .filter(|&(a, b)| {
            let head = if a + 1 < b { word(a + 1) } else { "" };
            let noise_option = head == "set-option" && a + 2 < b && NOISE_OPTIONS.contains(&word(a + 2));
            !(NOISE_COMMANDS.contains(&head) || noise_option)
        })
        .collect();
    // A declaration nothing else names is what a reducer could not take out (a release
    // that refuses the trigger for it is kept refusing: `reduce::judge`), not the cause:
    // z3's `(check-sat-assuming (false))` bug came reduced beside four different unused
    // finite-field declarations, four keys. Dropped until none is left (a sort only an
    // unused declaration used goes too), in linear time: each symbol's uses are counted
    // once and a drop takes its own uses back. What the dropped ones name of the theories
    // (`FiniteField`, `Real`) stays, as one line: an unused `Real` constant and an unused
    // finite field are not one trigger.
    let decl_name = |k: usize| -> Option<&str> {
        let (a, b) = kept[k];
        let head = if a + 1 < b { word(a + 1) } else { "" };
        (UNUSED_DROPPED.contains(&head) && a + 2 < b && is_sym(a + 2)).then(|| word(a + 2))
    };
    let symbols = |k: usize| {
        let (a, b) = kept[k];
        let own_name = decl_name(k).map(|_| a + 2);
        (a..b).filter(move |&i| is_sym(i) && Some(i) != own_name)
    };
    let mut uses: HashMap<&str, usize> = HashMap::new();
    // Each name's declaration, and how many there are: a name declared twice (the
    // redeclaration a parser test is about) is never dropped.
    let mut declared: HashMap<&str, (usize, usize)> = HashMap::new();
    for k in 0..kept.len() {
        for i in symbols(k) {
            *uses.entry(word(i)).or_default() += 1;
        }
        if let Some(n) = decl_name(k) {
            declared.entry(n).or_insert((k, 0)).1 += 1;
        }
    }
    let once = |n: &str| declared.get(n).is_some_and(|d| d.1 == 1);
    let mut live = vec![true; kept.len()];
    let mut work: Vec<usize> =
        (0..kept.len()).filter(|&k| decl_name(k).is_some_and(|n| once(n) && !uses.contains_key(n))).collect();
    let mut dropped_theory: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    while let Some(k) = work.pop() {
        if !live[k] {
            continue;
        }
        live[k] = false;
        for i in symbols(k) {
            let w = word(i);
            // Only the theories' sorts: values and operators of a dropped definition
            // would make two triggers of one cause differ again.
            if !own.contains(w) && (is_builtin_sort(w) || THEORY_SORTS.contains(&w)) && w != "_" {
                dropped_theory.insert(w);
            }
            if let Some(u) = uses.get_mut(w) {
                *u -= 1;
                if *u == 0 && once(w) {
                    work.extend(declared.get(w).map(|d| d.0).filter(|&d| live[d]));
                }
            }
        }
    }
    let r = Render { tape: &tape, text, own: &own, ends: &ends };
    let mut names: HashMap<&str, usize> = HashMap::new();
    let mut out = String::new();
    for (_, &(a, b)) in kept.iter().enumerate().filter(|(k, _)| live[*k]) {
        let head = if a + 1 < b { word(a + 1) } else { "" };
        if head == "check-sat-using" {
            let words: Vec<&str> =
                (a + 2..b).filter(|&i| is_sym(i) || tape[i].kind == Tok::Keyword).map(word).collect();
            out.push_str(&format!("(check-sat-using {})\n", decisive_tactics(&words)));
            continue;
        }
        if head == "set-option" {
            // An option's value is its configuration, not a literal to abstract.
            out.push_str(&format!("(set-option {})\n", (a + 2..b - 1).map(word).collect::<Vec<_>>().join(" ")));
            continue;
        }
        let mut line: Vec<String> = vec![];
        r.render(a, b, &mut names, &mut line);
        // `(declare-const x S)` is `(declare-fun x () S)` (SMT-LIB 2.6, §4.2.3).
        if line.get(1).is_some_and(|w| w == "declare-const") && line.len() > 3 {
            line[1] = "declare-fun".into();
            line.insert(3, "()".into());
        }
        out.push_str(&line.join(" ").replace("( ", "(").replace(" )", ")"));
        out.push('\n');
    }
    if !dropped_theory.is_empty() {
        out.push_str(&format!("(unused {})\n", dropped_theory.into_iter().collect::<Vec<_>>().join(" ")));
    }
    Some(out)
}

/// Sort constructors beyond [`is_builtin_sort`]'s standard ones that a dropped
/// declaration's `(unused …)` line keeps (cvc5's and z3's theories).
const THEORY_SORTS: &[&str] = &["FiniteField", "Set", "Bag", "Relation", "Tuple", "UnitTuple", "Table", "Seq"];

/// Declarations dropped from a shape when nothing else in it names what they declare.
const UNUSED_DROPPED: &[&str] =
    &["declare-fun", "declare-const", "define-fun", "define-const", "declare-sort", "define-sort"];

/// Comparisons and their mirror images: `(> a b)` is `(< b a)` (SMT-LIB's theories define
/// `>` so, and a chained `(> a b c)` is `(< c b a)`). OpFuzz swaps one for the other, and
/// a reducer keeps whichever the mutant had: one cvc5 unsat-core bug came reduced as
/// `(> 0.0 0)` and as `(< 0 0.0)`.
const MIRRORED: &[(&str, &str)] = &[
    (">", "<"),
    (">=", "<="),
    ("bvugt", "bvult"),
    ("bvuge", "bvule"),
    ("bvsgt", "bvslt"),
    ("bvsge", "bvsle"),
    ("fp.gt", "fp.lt"),
    ("fp.geq", "fp.leq"),
];

/// The token-level renderer of [`shape`].
struct Render<'a> {
    tape: &'a [crate::smtlib::lexer::Token],
    text: &'a str,
    own: &'a HashSet<&'a str>,
    /// The index after the item that starts at each index (a group's closing parenthesis).
    ends: &'a [usize],
}

impl<'a> Render<'a> {
    fn word(&self, i: usize) -> &'a str {
        word_at(self.tape, self.text, i)
    }

    /// Renders the tokens `[i, b)` into `line`, item by item, with an explicit stack of
    /// what is left to do rather than recursion: a seed nests terms as deep as it likes
    /// (issue 37's deep seeds), and a recursion per level overflowed the stack at 10,000.
    fn render(&self, i: usize, b: usize, names: &mut HashMap<&'a str, usize>, line: &mut Vec<String>) {
        enum Task {
            Items(usize, usize),
            Text(String),
        }
        let tape = self.tape;
        let mut todo = vec![Task::Items(i, b)];
        while let Some(task) = todo.pop() {
            let (i, b) = match task {
                Task::Text(t) => {
                    line.push(t);
                    continue;
                }
                Task::Items(i, b) if i < b => (i, b),
                Task::Items(..) => continue,
            };
            // The item at `i`; the rest of the range after it.
            let end = self.ends[i].min(b);
            todo.push(Task::Items(end, b));
            let t = tape[i];
            if t.kind != Tok::LParen {
                line.push(self.token(i, names));
                continue;
            }
            // `(_ bvN w)`: a bit-vector literal.
            if end == i + 5
                && self.word(i + 1) == "_"
                && self
                    .word(i + 2)
                    .strip_prefix("bv")
                    .is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
                && tape[i + 3].kind == Tok::Numeral
            {
                line.push(format!("#BV{}", self.word(i + 3)));
                continue;
            }
            // Any other indexed identifier (`(_ BitVec 8)`, `(_ extract 3 0)`) as written:
            // its indices are part of the sort or operator, not literals.
            if i + 1 < end && self.word(i + 1) == "_" {
                let inner: Vec<&str> = (i + 2..end.saturating_sub(1)).map(|k| self.word(k)).collect();
                line.push(format!("(_ {})", inner.join(" ")));
                continue;
            }
            let closed = end > i + 1 && tape[end - 1].kind == Tok::RParen;
            let inner_end = if closed { end - 1 } else { end };
            line.push("(".into());
            if closed {
                todo.push(Task::Text(")".into()));
            }
            // A mirrored comparison: its arguments in reverse, under the other operator,
            // rendered (and so numbered) in that order.
            let mirror = (i + 1 < inner_end && tape[i + 1].kind == Tok::Symbol)
                .then(|| MIRRORED.iter().find(|(from, _)| *from == self.word(i + 1)))
                .flatten();
            match mirror {
                Some((_, to)) => {
                    line.push(to.to_string());
                    let mut k = i + 2;
                    // Pushed first to last: the last argument is rendered first.
                    while k < inner_end {
                        let next = self.ends[k].min(inner_end);
                        todo.push(Task::Items(k, next));
                        k = next;
                    }
                }
                None => todo.push(Task::Items(i + 1, inner_end)),
            }
        }
    }

    /// One token (not a parenthesis group) as its shape has it.
    fn token(&self, i: usize, names: &mut HashMap<&'a str, usize>) -> String {
        let t = self.tape[i];
        let w = self.word(i);
        match t.kind {
            Tok::RParen => ")".into(),
            Tok::Symbol | Tok::QuotedSymbol if self.own.contains(w) => {
                let n = names.len();
                format!("x{}", *names.entry(w).or_insert(n))
            }
            // A finite-field literal `#f<value>m<modulus>` (cvc5, z3 5): its field stays.
            k => match (k, finite_field_literal(w)) {
                (Tok::Symbol, Some(field)) => format!("#FF{field}"),
                _ => literal_sort(k, w).unwrap_or_else(|| w.to_string()),
            },
        }
    }
}

/// The text of token `i` (a quoted symbol without its bars: `|x|` is `x`).
fn word_at<'a>(tape: &[crate::smtlib::lexer::Token], text: &'a str, i: usize) -> &'a str {
    let t = &tape[i];
    let w = text.get(t.start as usize..t.end as usize).unwrap_or("");
    if t.kind == Tok::QuotedSymbol {
        w.trim_matches('|')
    } else {
        w
    }
}

/// The modulus of a finite-field literal `#f<value>m<modulus>`.
fn finite_field_literal(w: &str) -> Option<&str> {
    let (v, m) = w.strip_prefix("#f")?.split_once('m')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    (digits(v) && digits(m)).then_some(m)
}

/// Sort names the theories define (not the script's own in a datatype declaration).
fn is_builtin_sort(w: &str) -> bool {
    matches!(
        w,
        "Int"
            | "Real"
            | "Bool"
            | "String"
            | "RegLan"
            | "Array"
            | "BitVec"
            | "FloatingPoint"
            | "RoundingMode"
            | "Float16"
            | "Float32"
            | "Float64"
            | "Float128"
            | "Seq"
            | "_"
    )
}
