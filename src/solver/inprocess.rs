//! z3 linked into the process (cargo feature `z3-inprocess`, issue 9): the fuzz targets'
//! way to see z3's own code as coverage. `scripts/build-instrumented-z3.sh` builds the
//! `z3-src` crate's z3 with `-fsanitize-coverage=inline-8bit-counters,pc-table`, so every
//! edge z3 takes is a libFuzzer counter (`cov:`), not only the statistics of the behaviour
//! shim ([`crate::harness::shim`]).
//!
//! Each query goes through `Z3_eval_smtlib2_string`, z3's own SMT-LIB command interpreter,
//! framed exactly like a session query: `(reset)` + options + script. Never one API
//! `Solver` with `from_string` across push/pop: it silently drops assertions (measured here:
//! 109 of 500 answers wrong). The output is classified by the same code as a session's
//! ([`super::outcome::classify_reply`]), and z3's error code is checked after every call
//! (the default error handler would `exit(1)`; it is replaced by none).
//!
//! No memory limit is set in process: z3's SMT-LIB parser answers its own out-of-memory
//! error (`memory_max_size`) with `exit()` (`smt2parser.cpp`, `catch (z3_error &)`), which
//! ends the fuzzer silently, where libFuzzer's `-rss_limit_mb` at least leaves an artifact.
//! One of the 200 sampled cvc5 seeds takes the in-process z3 past 2 GB within its 250 ms:
//! run it with `-rss_limit_mb=8192`.
//!
//! What this cannot do that a process can: survive a crash (a z3 crash ends the fuzzer,
//! which is what libFuzzer wants: the input becomes an artifact that `smtstorm triage`
//! re-runs against real binaries), or be killed by a watchdog (z3's own `:timeout`
//! applies). The context is replaced every [`InProcessZ3::RENEW_EVERY`] queries, because the
//! AST manager outlives `(reset)`.

use super::outcome::{classify_reply, split_responses, Outcome, QueryResult};
use std::ffi::{c_char, c_void, CStr, CString};
use std::time::{Duration, Instant};

type Ctx = *mut c_void;
type ErrorHandler = Option<unsafe extern "C" fn(Ctx, u32)>;

extern "C" {
    fn Z3_mk_config() -> *mut c_void;
    fn Z3_del_config(c: *mut c_void);
    fn Z3_mk_context(c: *mut c_void) -> Ctx;
    fn Z3_del_context(c: Ctx);
    fn Z3_set_error_handler(c: Ctx, h: ErrorHandler);
    fn Z3_eval_smtlib2_string(c: Ctx, s: *const c_char) -> *const c_char;
    fn Z3_get_error_code(c: Ctx) -> u32;
    fn Z3_get_full_version() -> *const c_char;
}

/// Outside a fuzzer (unit tests, `smtstorm` itself), nothing collects the counters z3 was
/// compiled with; these receive the registration calls of its instrumented modules. Under
/// cargo-fuzz (`--cfg fuzzing`) libFuzzer's own definitions take their place.
#[cfg(not(fuzzing))]
#[no_mangle]
pub extern "C" fn __sanitizer_cov_8bit_counters_init(_start: *mut u8, _stop: *mut u8) {}

#[cfg(not(fuzzing))]
#[no_mangle]
pub extern "C" fn __sanitizer_cov_pcs_init(_start: *const usize, _stop: *const usize) {}

/// z3's version string (e.g. `5.3.3.0`).
pub fn version() -> String {
    // SAFETY: z3 returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(Z3_get_full_version()) }.to_string_lossy().trim_start_matches("Z3 ").to_string()
}

/// One z3 context answering scripts one after another.
pub struct InProcessZ3 {
    ctx: Ctx,
    /// Options sent before every script (they survive `(reset)` in z3, like in a process).
    pub options: String,
    /// Per-query limit, as z3's `:timeout` option.
    pub time: Duration,
    queries: u32,
}

// SAFETY: a z3 context may be used from any thread as long as one thread at a time uses it;
// `InProcessZ3` is only reachable through `&mut`.
unsafe impl Send for InProcessZ3 {}

impl InProcessZ3 {
    /// Queries answered by one context before it is replaced.
    pub const RENEW_EVERY: u32 = 500;

    pub fn new(options: &str, time: Duration) -> InProcessZ3 {
        InProcessZ3 { ctx: new_context(), options: options.to_string(), time, queries: 0 }
    }

    /// Runs `script` (text with `checks` check-sats) after `(reset)` and the options.
    pub fn query(&mut self, script: &str, checks: usize) -> QueryResult {
        if self.queries >= Self::RENEW_EVERY {
            // SAFETY: the context is ours and no string it returned is still borrowed.
            unsafe { Z3_del_context(self.ctx) };
            self.ctx = new_context();
            self.queries = 0;
        }
        self.queries += 1;
        let t0 = Instant::now();
        let text = format!("(reset)\n(set-option :timeout {})\n{}{script}", self.time.as_millis().max(1), self.options);
        let Ok(c) = CString::new(text) else {
            let message = "script contains a NUL byte".to_string();
            return super::session::failed(vec![Outcome::Error { message }; checks.max(1)], t0);
        };
        // SAFETY: `c` outlives the call; the returned string is copied before the next call
        // on this context (z3 owns it until then).
        let (out, code) = unsafe {
            let p = Z3_eval_smtlib2_string(self.ctx, c.as_ptr());
            let out = if p.is_null() { String::new() } else { CStr::from_ptr(p).to_string_lossy().into_owned() };
            (out, Z3_get_error_code(self.ctx))
        };
        let responses = split_responses(&out);
        let (mut outcomes, data) = classify_reply(&responses, checks);
        // A parser error code without an `(error ...)` line (an exception's text only):
        // the query is invalid as a whole, as after any error.
        if code != 0 && !outcomes.iter().any(|o| matches!(o, Outcome::Error { .. } | Outcome::InvalidModel { .. })) {
            let message = format!("z3 error code {code}: {}", out.trim());
            outcomes = vec![Outcome::Error { message }; checks.max(1)];
        }
        // z3's `:timeout` answers `unknown` with reason `timeout` only under
        // `get-info :reason-unknown`; a query that ran to the limit is a timeout.
        let wall = t0.elapsed();
        if wall >= self.time {
            for o in outcomes.iter_mut().filter(|o| matches!(o, Outcome::Unknown { .. })) {
                *o = Outcome::Timeout;
            }
        }
        QueryResult {
            outcomes,
            crash: None,
            data,
            stdout_excerpt: out.chars().take(2000).collect(),
            stderr_excerpt: String::new(),
            wall,
            cpu: None,
        }
    }
}

impl Drop for InProcessZ3 {
    fn drop(&mut self) {
        // SAFETY: the context is ours.
        unsafe { Z3_del_context(self.ctx) }
    }
}

fn new_context() -> Ctx {
    // SAFETY: plain z3 C API calls; the config is released after use, and the error
    // handler is set to none so that an error sets a code instead of calling `exit(1)`.
    unsafe {
        let cfg = Z3_mk_config();
        let ctx = Z3_mk_context(cfg);
        Z3_del_config(cfg);
        Z3_set_error_handler(ctx, None);
        ctx
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_like_a_session_and_survives_errors() {
        let mut z = InProcessZ3::new("(set-option :model_validate true)\n", Duration::from_secs(5));
        let sat = "(declare-const x Int)\n(assert (> x 2))\n(check-sat)\n";
        assert_eq!(z.query(sat, 1).outcomes, vec![Outcome::Sat]);
        // Declarations do not leak across queries: `x` is declared again without error.
        let unsat = "(declare-const x Int)\n(assert (and (> x 2) (< x 1)))\n(check-sat)\n";
        assert_eq!(z.query(unsat, 1).outcomes, vec![Outcome::Unsat]);
        let bad = "(declare-const x Int)\n(assert (> x undeclared))\n(check-sat)\n";
        let r = z.query(bad, 1);
        assert!(matches!(r.outcomes[0], Outcome::Error { .. }), "{r:?}");
        assert_eq!(z.query(sat, 1).outcomes, vec![Outcome::Sat]);
        assert!(version().starts_with('5'), "{}", version());
    }

    /// The same answers as the z3 5.4.0 binary in a session on the 500 benchmark queries
    /// of `smtstorm bench-solvers` (half QF_LIA, half QF_BV), across several context
    /// renewals; prints both rates (`--nocapture`).
    #[test]
    fn agrees_with_the_z3_binary_on_the_benchmark_queries() {
        let reg = crate::solver::Registry::load(&crate::solver::registry::default_toml()).unwrap();
        let spec = reg.get("z3-5.4.0").expect("scripts/setup-solvers.sh --minimal").clone();
        let mut sess = crate::solver::Session::new(spec, crate::solver::Limits::default());
        let mut z = InProcessZ3::new("", Duration::from_secs(10));
        let qs: Vec<(String, usize)> = (0..500)
            .map(|i| crate::solver::session_text(&crate::smtlib::parse(&crate::solver::bench::query(5, i)).unwrap()))
            .collect();
        let t = Instant::now();
        let ours: Vec<Vec<Outcome>> = qs.iter().map(|(q, n)| z.query(q, *n).outcomes).collect();
        let t_in = t.elapsed();
        let t = Instant::now();
        let theirs: Vec<Vec<Outcome>> = qs.iter().map(|(q, n)| sess.query(q, *n).outcomes).collect();
        let t_bin = t.elapsed();
        eprintln!(
            "in-process z3 {}: {:.0} q/s; z3 5.4.0 session: {:.0} q/s",
            version(),
            500.0 / t_in.as_secs_f64(),
            500.0 / t_bin.as_secs_f64()
        );
        let differ = ours.iter().zip(&theirs).filter(|(a, b)| a != b).count();
        assert_eq!(differ, 0);
        assert!(ours.iter().all(|o| o.len() == 1 && o[0].is_definite()));
    }
}
