//! What a solver answered, classified without guessing.
//!
//! Solver output is split into top-level responses by an S-expression scanner (strings,
//! quoted symbols and nesting respected), so a model containing the text `sat` is never
//! read as an answer. A query with any `(error ...)` response is invalid as a whole:
//! z3 keeps answering after an error and yices exits 0 on one, so answers next to an error
//! prove nothing.

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The result of one `check-sat` (or of a whole query, for errors and crashes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Outcome {
    Sat,
    Unsat,
    Unknown {
        reason: String,
    },
    Timeout,
    /// The process died: by a signal, or with an exit status, before answering.
    Crash {
        signal: Option<i32>,
        exit_code: Option<i32>,
        /// Normalised message: assertion text with file:line, `ASSERTION VIOLATION`,
        /// sanitizer summary, or the signal name; stable across runs for deduplication.
        message: String,
    },
    Error {
        message: String,
    },
    /// The solver ran out of a resource we limited: memory (the address-space rlimit,
    /// `out of memory`, `std::bad_alloc`), a kill by the kernel's OOM killer, or a CPU or
    /// file-size rlimit. Counted, never a finding: the limit, not the solver, ended it.
    Resource {
        message: String,
    },
    InvalidModel {
        message: String,
    },
    /// A self-check the query switched on ([`super::checks`]) reported that the answer's
    /// certificate (an unsat core, a proof, a theory lemma) is wrong: `NAME: TEXT`
    /// ([`super::checks::failure_in`]). Not a crash of the search, not a wrong answer.
    CheckFailed {
        message: String,
    },
}

impl Outcome {
    /// `sat` or `unsat`: an answer two solvers can disagree on.
    pub fn is_definite(&self) -> bool {
        matches!(self, Outcome::Sat | Outcome::Unsat)
    }
    /// Short name: `sat`, `unsat`, `unknown`, `timeout`, `crash`, `error`, `resource`,
    /// `invalid-model`, `check-failed`.
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Sat => "sat",
            Outcome::Unsat => "unsat",
            Outcome::Unknown { .. } => "unknown",
            Outcome::Timeout => "timeout",
            Outcome::Crash { .. } => "crash",
            Outcome::Error { .. } => "error",
            Outcome::Resource { .. } => "resource",
            Outcome::InvalidModel { .. } => "invalid-model",
            Outcome::CheckFailed { .. } => "check-failed",
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Unknown { reason } if !reason.is_empty() => write!(f, "unknown({reason})"),
            Outcome::Crash { message, .. } => write!(f, "crash({message})"),
            Outcome::Error { message } => write!(f, "error({message})"),
            Outcome::Resource { message } => write!(f, "resource({message})"),
            Outcome::InvalidModel { message } => write!(f, "invalid-model({message})"),
            Outcome::CheckFailed { message } => write!(f, "check-failed({message})"),
            o => f.write_str(o.name()),
        }
    }
}

/// Everything one query produced.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct QueryResult {
    /// One outcome per `check-sat` of the query, in order. For an error or crash before
    /// any answer, every entry carries it.
    pub outcomes: Vec<Outcome>,
    /// Set when the process died abnormally during the query — even after answering
    /// every check-sat (a crash on exit is still a crash bug).
    pub crash: Option<Outcome>,
    /// Responses that are not answers (models, values, statistics, echo), verbatim.
    pub data: Vec<String>,
    /// First bytes of stdout and stderr, for reports.
    pub stdout_excerpt: String,
    pub stderr_excerpt: String,
    #[serde(with = "duration_secs")]
    pub wall: Duration,
    /// CPU time of the solver process for this query, when the platform reports it.
    #[serde(with = "opt_duration_secs")]
    pub cpu: Option<Duration>,
}

impl QueryResult {
    /// The single outcome of a one-check-sat query (or the first one).
    pub fn outcome(&self) -> &Outcome {
        self.outcomes.first().unwrap_or(&Outcome::Timeout)
    }
}

/// Splits solver output into top-level responses (atoms and balanced S-expressions).
/// An unterminated last response is returned as is.
pub fn split_responses(out: &str) -> Vec<&str> {
    let b = out.as_bytes();
    let mut v = vec![];
    let mut i = 0;
    // Skips a string literal or quoted symbol starting at `i` (its opening delimiter).
    let skip_quoted = |mut i: usize| -> usize {
        let close = b[i];
        i += 1;
        while i < b.len() {
            if b[i] == close {
                // `""` is an escaped quote inside a string literal.
                if close == b'"' && i + 1 < b.len() && b[i + 1] == b'"' {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i += 1;
        }
        b.len()
    };
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        match b[i] {
            b'(' => {
                let mut depth = 0usize;
                while i < b.len() {
                    match b[i] {
                        b'"' | b'|' => {
                            i = skip_quoted(i);
                            continue;
                        }
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                i += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            b'"' | b'|' => i = skip_quoted(i),
            _ => {
                while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'(' && b[i] != b')' {
                    i += 1;
                }
                if i == start {
                    i += 1; // a stray ')'
                }
            }
        }
        v.push(&out[start..i]);
    }
    v
}

/// The message of an `(error "...")` response, or `None` if `r` is not one. The shape is
/// the one SMT-LIB 2.6 gives (§4.2.1, `general_response`: `( error ⟨string⟩ )`): one
/// string literal and nothing else, so a list a solver prints for a query (a core of
/// names, a model) is never taken for an error.
pub fn error_message(r: &str) -> Option<String> {
    let inner = r.strip_prefix('(')?.strip_suffix(')')?.trim();
    let rest = inner.strip_prefix("error")?;
    if !rest.starts_with(|c: char| c.is_whitespace() || c == '"') {
        return None;
    }
    let msg = rest.trim();
    let body = msg.strip_prefix('"')?.strip_suffix('"')?;
    // One literal: every inner quote is doubled (`""`).
    if body.replace("\"\"", "").contains('"') {
        return None;
    }
    Some(body.replace("\"\"", "\""))
}

/// Whether an error message reports a failed model validation.
pub fn is_invalid_model_message(m: &str) -> bool {
    let m = m.to_ascii_lowercase();
    // A refusal to set the option is a dialect error, not a model check that failed: cvc5
    // says "invalid call to 'setOption' for option 'check-models', solver is already
    // fully initialized" when a script sets it after an error (a false finding, issue 41).
    // So is cvc5 refusing a combination of options ("Fatal error in option parsing: Cannot
    // use sort-inference with model generation (check-models)", also a false finding).
    // Matched at the start: a failed check quotes the assertion, whose text may say anything.
    if m.starts_with("invalid call to 'setoption'") || m.starts_with("fatal error in option parsing") {
        return false;
    }
    [
        "invalid model",
        "check-models",
        "model check",
        "error in model",
        "model doesn't satisfy",
        "model does not satisfy",
    ]
    .iter()
    .any(|p| m.contains(p))
}

/// Classifies a complete reply (all responses before the end marker) for a query with
/// `expected` check-sats.
pub fn classify_reply(responses: &[&str], expected: usize) -> (Vec<Outcome>, Vec<String>) {
    let mut answers = vec![];
    let mut data = vec![];
    let mut errors = vec![];
    for r in responses {
        match *r {
            "sat" => answers.push(Outcome::Sat),
            "unsat" => answers.push(Outcome::Unsat),
            "unknown" => answers.push(Outcome::Unknown { reason: String::new() }),
            _ => match error_message(r) {
                Some(m) => errors.push(m),
                None => data.push(r.to_string()),
            },
        }
    }
    // A model the solver's own validation rejected (z3 `model_validate`, cvc5
    // `check-models`) is an invalid-model outcome, not an error about the input.
    if let Some(m) = errors.iter().find(|m| is_invalid_model_message(m)) {
        return (vec![Outcome::InvalidModel { message: m.clone() }; expected.max(1)], data);
    }
    // A self-check that failed and said so as an error (z3's `smt.core.validate`).
    if let Some(message) = errors.iter().find_map(|m| super::checks::failure_in(m)) {
        return (vec![Outcome::CheckFailed { message }; expected.max(1)], data);
    }
    // z3 answers `(error "out of memory")` when an allocation fails under the rlimit.
    if let Some(m) = errors.iter().find(|m| memory_exhausted(m)) {
        return (vec![Outcome::Resource { message: m.clone() }; expected.max(1)], data);
    }
    if let Some(m) = errors.into_iter().next() {
        return (vec![Outcome::Error { message: m }; expected.max(1)], data);
    }
    if answers.len() != expected {
        let message = format!("expected {expected} answers, got {}", answers.len());
        return (vec![Outcome::Error { message }; expected.max(1)], data);
    }
    (answers, data)
}

/// Whether solver output reports an exhausted memory limit: z3's `out of memory`, a
/// C++ `std::bad_alloc` (cvc5, bitwuzla), glibc's and the loader's allocation failures,
/// yices' `Out of memory`, and a thread that could not be created (`std::system_error`:
/// `Resource temporarily unavailable`, EAGAIN: z3 4.8.7 under 16-32 MiB cannot map a
/// thread's stack), and Python's `MemoryError` (the solvers' Python drivers).
pub fn memory_exhausted(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    [
        "out of memory",
        "memory exhausted",
        "bad_alloc",
        "cannot allocate memory",
        "failed to map segment",
        "memory limit",
        "resource temporarily unavailable",
        "memoryerror",
    ]
    .iter()
    .any(|p| t.contains(p))
}

/// Why a process that died abnormally ran out of a limited resource, if it did: its
/// output says memory was exhausted, or the kernel killed it (`SIGKILL` that our watchdog
/// did not send: the OOM killer), or a CPU or file-size rlimit fired.
pub fn resource_exhaustion(stderr: &str, stdout: &str, signal: Option<i32>) -> Option<String> {
    if memory_exhausted(stderr) || memory_exhausted(stdout) {
        return Some("memory exhausted".into());
    }
    match signal {
        Some(libc::SIGKILL) => Some("killed by the kernel (SIGKILL: out of memory)".into()),
        Some(libc::SIGXCPU) => Some("CPU time limit (SIGXCPU)".into()),
        Some(libc::SIGXFSZ) => Some("file size limit (SIGXFSZ)".into()),
        _ => None,
    }
}

/// The crash evidence in a solver's output, normalised to be stable across runs: z3 and
/// cvc5 assertion locations, sanitizer summaries, failed C assertions. File paths are cut
/// to their base name and hexadecimal addresses are removed. `None` when the output holds
/// no such evidence.
pub fn crash_evidence(stderr: &str, stdout: &str) -> Option<String> {
    let text = format!("{stderr}\n{stdout}");
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    // z3: "ASSERTION VIOLATION\nFile: ../src/x/y.cpp\nLine: 123\n<condition>", and in
    // release builds "UNREACHABLE CODE WAS REACHED." with the same File:/Line: lines.
    for (banner, name) in
        [("ASSERTION VIOLATION", "ASSERTION VIOLATION"), ("UNREACHABLE CODE WAS REACHED", "UNREACHABLE")]
    {
        if let Some(i) = lines.iter().position(|l| l.contains(banner)) {
            let file = lines[i..].iter().find_map(|l| l.strip_prefix("File:")).map(|f| base(f.trim()));
            let line = lines[i..].iter().find_map(|l| l.strip_prefix("Line:")).map(|l| l.trim().to_string());
            return Some(match (file, line) {
                (Some(f), Some(l)) => format!("{name} {f}:{l}"),
                _ => name.into(),
            });
        }
    }
    // cvc5: "Fatal failure within <function> at <file>:<line>"
    if let Some(l) = lines.iter().find(|l| l.starts_with("Fatal failure") || l.contains("Check failure")) {
        let loc = l.rsplit(" at ").next().map(base).unwrap_or_default();
        return Some(format!("Fatal failure at {loc}"));
    }
    // Sanitizers: "SUMMARY: AddressSanitizer: heap-use-after-free /p/file.cpp:12:3 in f"
    if let Some(l) = lines.iter().find(|l| l.starts_with("SUMMARY:")) {
        return Some(
            l.split_whitespace()
                .map(|w| if w.contains('/') { base(w) } else { w.to_string() })
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    if let Some(l) = lines.iter().find(|l| l.contains("Assertion") && l.contains("failed")) {
        return Some(strip_addresses(l));
    }
    // An uncaught C++ exception: "terminate called after throwing an instance of 'T'"
    // and its "what():" line tell two aborts apart.
    if let Some(i) = lines.iter().position(|l| l.starts_with("terminate called")) {
        let what = lines[i..].iter().find_map(|l| l.strip_prefix("what():")).map(|w| format!(": {}", strip_numbers(w)));
        return Some(format!("{}{}", lines[i], what.unwrap_or_default()));
    }
    None
}

/// A crash message that is stable across runs: the crash evidence ([`crash_evidence`]),
/// or the signal or exit status — with the first line the solver wrote to stderr, numbers
/// and paths removed, so that two crashes on one signal that say different things stay
/// two bugs.
pub fn normalise_crash(stderr: &str, stdout: &str, signal: Option<i32>, exit_code: Option<i32>) -> String {
    if let Some(m) = crash_evidence(stderr, stdout) {
        return m;
    }
    let said = stderr.lines().map(str::trim).find(|l| !l.is_empty()).map(|l| {
        let words = strip_numbers(&strip_addresses(l));
        let mut end = words.len().min(100);
        while !words.is_char_boundary(end) {
            end -= 1;
        }
        words[..end].to_string()
    });
    match (signal, exit_code, said) {
        (Some(s), _, Some(said)) => format!("{}: {said}", signal_name(s)),
        (Some(s), _, None) => signal_name(s).to_string(),
        (None, Some(c), _) => format!("exit status {c}"),
        _ => "no answer".into(),
    }
}

/// `s` with every word holding a digit replaced by `#` (sizes, ids and addresses differ
/// between runs of one bug).
fn strip_numbers(s: &str) -> String {
    s.split_whitespace()
        .map(|w| if w.chars().any(|c| c.is_ascii_digit()) { "#" } else { w })
        .collect::<Vec<_>>()
        .join(" ")
}

fn base(path: &str) -> String {
    path.rsplit('/').next().unwrap_or(path).to_string()
}

fn strip_addresses(s: &str) -> String {
    s.split_whitespace()
        .filter(|w| !w.starts_with("0x"))
        .map(|w| if w.contains('/') { base(w) } else { w.into() })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Name of a POSIX signal.
pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        _ => "signal",
    }
}

mod duration_secs {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;
    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_secs_f64())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        Ok(crate::util::time::seconds(f64::deserialize(d)?.max(0.0)))
    }
}

mod opt_duration_secs {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;
    pub fn serialize<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        match d {
            Some(d) => s.serialize_some(&d.as_secs_f64()),
            None => s.serialize_none(),
        }
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.map(|x| crate::util::time::seconds(x.max(0.0))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_option_is_not_a_failed_model_check() {
        let refused = "invalid call to 'setOption' for option 'check-models', solver is already fully initialized";
        assert!(!is_invalid_model_message(refused));
        assert!(!is_invalid_model_message(
            "Fatal error in option parsing: Cannot use sort-inference with model generation (check-models)."
        ));
        let r = format!("(error \"{refused}\")");
        let (outcomes, _) = classify_reply(&[&r, "sat"], 1);
        assert!(matches!(outcomes[0], Outcome::Error { .. }), "{outcomes:?}");
        assert!(is_invalid_model_message("check-models: produced model does not satisfy assertion"));
        assert!(is_invalid_model_message("invalid model: (> x 0) evaluates to false"));
        // The assertion a failed check quotes may hold the refusal's words.
        assert!(is_invalid_model_message(
            "check-models: model does not satisfy assertion (= s \"invalid call to 'setOption' for option\")"
        ));
    }

    #[test]
    fn responses_respect_nesting_strings_and_quoted_symbols() {
        let out = "sat\n(model\n  (define-fun s () String \"sat ) (\")\n  (define-fun |a b)| () Int 1)\n)\nunsat\n(error \"line 3: \"\"x\"\" unknown\")\nunknown\n";
        assert_eq!(
            split_responses(out),
            vec![
                "sat",
                "(model\n  (define-fun s () String \"sat ) (\")\n  (define-fun |a b)| () Int 1)\n)",
                "unsat",
                "(error \"line 3: \"\"x\"\" unknown\")",
                "unknown"
            ]
        );
    }

    #[test]
    fn any_error_invalidates_the_whole_query() {
        let (o, _) = classify_reply(&["sat", "(error \"line 4: unknown constant x\")", "unsat"], 2);
        assert_eq!(o, vec![Outcome::Error { message: "line 4: unknown constant x".into() }; 2]);
        let (o, data) = classify_reply(&["sat", "((x 1))", "unsat"], 2);
        assert_eq!(o, vec![Outcome::Sat, Outcome::Unsat]);
        assert_eq!(data, vec!["((x 1))".to_string()]);
        let (o, _) = classify_reply(&["sat"], 2);
        assert!(matches!(&o[0], Outcome::Error { message } if message == "expected 2 answers, got 1"));
        assert_eq!(error_message("(errors)"), None);
        // Only `( error <string> )`: a core or a model that starts with a seed's own
        // symbol `error` is data.
        assert_eq!(error_message("(error \"a \"\"b\"\"\")").as_deref(), Some("a \"b\""));
        assert_eq!(error_message("(error |\"invalid model\"|)"), None);
        assert_eq!(error_message("(error a b)"), None);
        assert_eq!(error_message("(error \"x\" \"invalid model\")"), None);
        assert_eq!(error_message("((error \"x\") false)"), None);
    }

    #[test]
    fn crash_messages_are_normalised() {
        let z3 =
            "ASSERTION VIOLATION\nFile: /home/build/z3/src/smt/theory_lra.cpp\nLine: 2617\nfalse\n(C)ontinue, (A)bort";
        assert_eq!(normalise_crash(z3, "", None, Some(1)), "ASSERTION VIOLATION theory_lra.cpp:2617");
        let cvc5 = "Fatal failure within void cvc5::internal::Foo::bar() at /src/theory/foo.cpp:77\n  Check failure";
        assert_eq!(normalise_crash(cvc5, "", Some(libc::SIGABRT), None), "Fatal failure at foo.cpp:77");
        let asan = "==1234==ERROR: AddressSanitizer: SEGV on unknown address 0x000\nSUMMARY: AddressSanitizer: SEGV /a/b/c.cpp:12:3 in f";
        assert_eq!(normalise_crash(asan, "", None, Some(1)), "SUMMARY: AddressSanitizer: SEGV c.cpp:12:3 in f");
        assert_eq!(normalise_crash("", "", Some(libc::SIGSEGV), None), "SIGSEGV");
        assert_eq!(normalise_crash("boom", "", None, Some(3)), "exit status 3");
        // Issue 21, item 7: one signal, different words on stderr: two bugs; the same
        // words with other numbers: one.
        let a = normalise_crash(
            "Fatal Python error: Segmentation fault\nThread 0x7f12 (most recent call first):",
            "",
            Some(libc::SIGSEGV),
            None,
        );
        let b = normalise_crash("double free or corruption (out)", "", Some(libc::SIGABRT), None);
        let c = normalise_crash("free(): invalid pointer", "", Some(libc::SIGABRT), None);
        assert_eq!(a, "SIGSEGV: Fatal Python error: Segmentation fault");
        assert_ne!(b, c);
        assert_eq!(
            normalise_crash("stack overflow at depth 1234", "", Some(libc::SIGSEGV), None),
            normalise_crash("stack overflow at depth 99", "", Some(libc::SIGSEGV), None)
        );
        let e = "terminate called after throwing an instance of 'z3::exception'\n  what():  bad sort 42";
        assert_eq!(
            normalise_crash(e, "", Some(libc::SIGABRT), None),
            "terminate called after throwing an instance of 'z3::exception': bad sort #"
        );
    }
}
