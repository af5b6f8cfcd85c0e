//! Models, values and statistics in solver replies, read with the SMT-LIB front end.
//!
//! Ask for them by appending `(get-model)`, `(get-value (...))` or
//! `(get-info :all-statistics)` to a query; their responses arrive in
//! [`super::QueryResult::data`] and are parsed here.

use crate::smtlib::{self, ast::CommandKind, ast::Sexp, ast::SexpId, Script};

use std::collections::BTreeMap;

/// A model: constant values and function definitions, as SMT-LIB text (so they can be
/// asserted back into another solver).
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// `name → value` for every constant of the model.
    pub values: BTreeMap<String, String>,
    /// `define-fun`s with parameters (interpretations of functions), verbatim.
    pub functions: Vec<String>,
}

impl Model {
    /// `name → value` for every constant of the model.
    pub fn values(&self) -> BTreeMap<String, String> {
        self.values.clone()
    }
}

/// Why a solver's reply (model, values, statistics) could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplyError {
    #[error("reply does not parse: {0}")]
    Syntax(crate::smtlib::SyntaxError),
    #[error("empty reply")]
    Empty,
    #[error("expected a parenthesised list")]
    NotAList,
    #[error("unterminated string or quoted symbol")]
    Unterminated,
    #[error("unbalanced parentheses")]
    Unbalanced,
    #[error("{what}: unexpected {text}")]
    Unexpected { what: &'static str, text: String },
}

/// Parses a `get-model` response: `(model (define-fun ...) ...)` (cvc5),
/// `((define-fun ...) ...)` (z3) or `(model (= x 4) ...)` / `((= x 4) ...)` (yices).
pub fn parse_model(text: &str) -> Result<Model, ReplyError> {
    // yices prints its entries as separate top-level responses: read them as one list,
    // then unwrap the single `(model ...)` or `((define-fun ...) ...)` of the others.
    let (s, outer) = sexp_list(&format!("({text})"))?;
    let items = s.sexp_list(outer);
    let list = match items {
        [one] => match s.sexps[one.index()] {
            Sexp::List(l) => match s.sexp_list(l).first().map(|x| s.sexps[x.index()]) {
                Some(Sexp::List(_)) => l,
                Some(Sexp::Atom(_, a)) if s.str(a) == "model" => l,
                None => l,
                _ => outer,
            },
            _ => return Err(ReplyError::Unexpected { what: "model", text: text.trim().to_string() }),
        },
        _ => outer,
    };
    let mut m = Model::default();
    for &item in s.sexp_list(list) {
        let Sexp::List(l) = s.sexps[item.index()] else {
            if matches!(s.sexps[item.index()], Sexp::Atom(_, a) if s.str(a) == "model") {
                continue;
            }
            return Err(ReplyError::Unexpected { what: "model", text: sexp_text(&s, item) });
        };
        let xs = s.sexp_list(l);
        let head = match xs.first().map(|x| s.sexps[x.index()]) {
            Some(Sexp::Atom(_, h)) => s.str(h),
            _ => return Err(ReplyError::Unexpected { what: "model", text: sexp_text(&s, item) }),
        };
        match (head, xs.len()) {
            ("define-fun", 5) => {
                let no_params = matches!(s.sexps[xs[2].index()], Sexp::List(p) if p.len == 0);
                if no_params {
                    m.values.insert(sexp_text(&s, xs[1]), sexp_text(&s, xs[4]));
                } else {
                    m.functions.push(sexp_text(&s, item));
                }
            }
            ("=", 3) => {
                m.values.insert(sexp_text(&s, xs[1]), sexp_text(&s, xs[2]));
            }
            // Sort universes and other declarations (declare-sort, forall ...) are kept
            // out of `values`.
            _ => m.functions.push(sexp_text(&s, item)),
        }
    }
    Ok(m)
}

/// Parses a `get-value` response `((term value) ...)` into (term, value) text pairs.
pub fn parse_values(text: &str) -> Result<Vec<(String, String)>, ReplyError> {
    let (s, list) = sexp_list(text)?;
    let mut out = vec![];
    for &pair in s.sexp_list(list) {
        match s.sexps[pair.index()] {
            Sexp::List(l) if l.len == 2 => {
                let xs = s.sexp_list(l);
                out.push((sexp_text(&s, xs[0]), sexp_text(&s, xs[1])));
            }
            _ => return Err(ReplyError::Unexpected { what: "get-value pair", text: sexp_text(&s, pair) }),
        }
    }
    Ok(out)
}

/// Parses `get-info :all-statistics` (`(:name value ...)`) into numbers. Non-numeric
/// values are left out; statistics with units (`1.5s`) keep their number.
pub fn parse_statistics(text: &str) -> Result<BTreeMap<String, f64>, ReplyError> {
    let mut m = BTreeMap::new();
    for_each_statistic(text, |k, v| {
        m.insert(k.to_string(), v);
    })?;
    Ok(m)
}

/// Calls `f(name, value)` for every top-level `:name value` pair of a statistics reply
/// whose value starts with a number, in order, without building a tree or a map: the
/// fuzz harness reads one after every query (the behaviour shim), and parsing it as a
/// script cost ~11 % of the harness's CPU. A value that is a list, string or keyword is
/// skipped (as is a keyword standing in value position). Errors: the reply is not one
/// balanced parenthesised list (`sat`, an error message cut short).
pub fn for_each_statistic(text: &str, mut f: impl FnMut(&str, f64)) -> Result<(), ReplyError> {
    let text = text.trim();
    let b = text.as_bytes();
    if b.first() != Some(&b'(') {
        return Err(ReplyError::NotAList);
    }
    let is_delim = |c: u8| c.is_ascii_whitespace() || matches!(c, b'(' | b')' | b'"' | b'|' | b';');
    let (mut depth, mut i) = (0usize, 0usize);
    // A keyword at depth 1 waiting for its value.
    let mut key: Option<&str> = None;
    while i < b.len() {
        match b[i] {
            b'(' => {
                depth += 1;
                key = key.filter(|_| depth == 1);
                i += 1;
            }
            b')' => {
                depth -= 1;
                key = None;
                i += 1;
                if depth == 0 {
                    return Ok(());
                }
            }
            // Strings (SMT-LIB 2.6 §3.1: `""` is an escaped quote) and quoted symbols.
            q @ (b'"' | b'|') => {
                i += 1;
                loop {
                    match b[i..].iter().position(|&c| c == q) {
                        None => return Err(ReplyError::Unterminated),
                        Some(p) if q == b'"' && b.get(i + p + 1) == Some(&b'"') => i += p + 2,
                        Some(p) => {
                            i += p + 1;
                            break;
                        }
                    }
                }
                key = None;
            }
            b';' => i += b[i..].iter().position(|&c| c == b'\n').unwrap_or(b.len() - i),
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                let j = i + b[i..].iter().position(|&c| is_delim(c)).unwrap_or(b.len() - i);
                let tok = &text[i..j];
                if depth == 1 {
                    if let Some(k) = key.take() {
                        let n = tok.bytes().take_while(|c| c.is_ascii_digit() || *c == b'.' || *c == b'-').count();
                        if let Ok(x) = tok[..n].parse::<f64>() {
                            f(k, x);
                        }
                    } else if let Some(k) = tok.strip_prefix(':') {
                        key = Some(k.trim_start_matches(':'));
                    }
                }
                i = j;
            }
        }
    }
    Err(ReplyError::Unbalanced)
}

/// Parses one parenthesised S-expression by wrapping it as an unknown command.
fn sexp_list(text: &str) -> Result<(Script, crate::smtlib::ast::List<SexpId>), ReplyError> {
    let s = smtlib::parse(&format!("(smtstorm-reply {})", text.trim())).map_err(ReplyError::Syntax)?;
    let CommandKind::Other { args, .. } = s.commands.first().ok_or(ReplyError::Empty)?.kind else {
        return Err(ReplyError::NotAList);
    };
    let first = *s.sexp_list(args).first().ok_or(ReplyError::Empty)?;
    match s.sexps[first.index()] {
        Sexp::List(l) => Ok((s, l)),
        _ => Err(ReplyError::NotAList),
    }
}

fn sexp_text(s: &Script, x: SexpId) -> String {
    let mut p = smtlib::printer::Printer::new(s);
    p.sexp(x);
    p.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_values_and_statistics_parse() {
        let z3 = "(\n  (define-fun y () Int\n    (- 3))\n  (define-fun f ((x!0 Int)) Int 0)\n  (define-fun x () Int\n    4)\n)";
        let m = parse_model(z3).unwrap();
        assert_eq!(m.values(), BTreeMap::from([("x".into(), "4".into()), ("y".into(), "(- 3)".into())]));
        assert_eq!(parse_model(z3).unwrap().functions, vec!["(define-fun f ((x!0 Int)) Int 0)".to_string()]);
        let cvc5 = "(model\n(define-fun s () String \"a\"\"b\")\n)";
        assert_eq!(parse_model(cvc5).unwrap().values()["s"], "\"a\"\"b\"");
        let yices = "(= x 4)\n(= y (- 3))";
        assert_eq!(parse_model(yices).unwrap().values()["y"], "(- 3)");
        assert_eq!(parse_model("(= x 4)").unwrap().values()["x"], "4");
        assert_eq!(
            parse_values("((x 1) ((+ x 1) 2))").unwrap(),
            vec![("x".to_string(), "1".to_string()), ("(+ x 1)".to_string(), "2".to_string())]
        );
        let st = parse_statistics("(:added-eqs 12\n :time 0.01\n :memory 19.33 :reason-unknown \"x\")").unwrap();
        assert_eq!(st.get("added-eqs"), Some(&12.0));
        assert_eq!(st.get("memory"), Some(&19.33));
        assert!(!st.contains_key("reason-unknown"));
        assert!(parse_model("sat").is_err());
    }

    #[test]
    fn statistics_take_top_level_numeric_pairs_only() {
        let text = "(:a 1 :b \"x)\"\" :c\" :c 2.5s ; :d 9\n :e (:f 3) :g |:h 4| :i :j 5 :k -2 :l)";
        let mut seen = vec![];
        for_each_statistic(text, |k, v| seen.push((k.to_string(), v))).unwrap();
        assert_eq!(seen, vec![("a".into(), 1.0), ("c".into(), 2.5), ("k".into(), -2.0)]);
        assert!(for_each_statistic("sat", |_, _| ()).is_err());
        assert!(for_each_statistic("(:a 1 (:b 2)", |_, _| ()).is_err());
        assert!(for_each_statistic("(:a \"1)", |_, _| ()).is_err());
    }
}
