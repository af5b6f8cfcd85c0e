//! Crash states from stack frames (issue 24): a confirmed crash is run once more under
//! `gdb -batch`, and its identity becomes the top three frames in the solver's own code,
//! ClusterFuzz's convention (a "crash state" of three frames). A segfault says nothing
//! but its signal, so without frames every SIGSEGV of one solver was one bug.
//!
//! The PyPI z3 binaries keep their symbol tables, so gdb names z3's functions without
//! debug information; cvc5 and bitwuzla run inside Python, and their frames come from
//! their shared libraries. Frames of the C library, the C++ runtime, the dynamic loader
//! and the Python interpreter are not the solver's and are skipped.

use super::limits::Limits;
use super::oneshot::run_argv;
use super::registry::SolverSpec;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

/// How many frames make a crash state (ClusterFuzz uses three).
pub const STATE_FRAMES: usize = 3;

/// Debian's gdb, if installed (`scripts/setup-solvers.sh` installs it).
pub fn gdb() -> Option<&'static Path> {
    static GDB: OnceLock<Option<PathBuf>> = OnceLock::new();
    GDB.get_or_init(|| super::os::resolve(Path::new("gdb"))).as_deref()
}

/// The crash state of `spec` on `file`: the top [`STATE_FRAMES`] frames in the solver's
/// own code when it stops on a signal under gdb, or `None` (no gdb, no signal under gdb,
/// no frame of the solver's). The run has the query's limits with twice the time (gdb
/// starts slower) and no memory limit of gdb's own: a crash confirmed under the limit is
/// not a memory exhaustion (see `crash_survives_more_memory`).
pub fn crash_state(spec: &SolverSpec, file: &Path, limits: &Limits) -> Option<Vec<String>> {
    let gdb = gdb()?;
    let abs = std::path::absolute(file).ok()?;
    let mut argv: Vec<String> = vec![
        gdb.display().to_string(),
        "-batch".into(),
        "-nx".into(),
        // No shell between gdb and the solver (a seed's path is never shell text), no
        // questions, no debuginfod look-ups over the network.
        "-ex".into(),
        "set startup-with-shell off".into(),
        "-ex".into(),
        "set debuginfod enabled off".into(),
        "-ex".into(),
        "set pagination off".into(),
        "-ex".into(),
        "run".into(),
        "-ex".into(),
        "bt 64".into(),
        "--args".into(),
    ];
    argv.extend(spec.file_argv(&abs, limits.time));
    // gdb loads the solver's symbols first (seconds for a big library, more on a loaded
    // machine: a too-short limit here loses the crash state and refuses a real crash).
    let limits = Limits { time: limits.time * 3 + Duration::from_secs(30), memory: None, ..*limits };
    let run = run_argv(&argv, &limits).ok()?;
    if run.timed_out || !run.stdout.contains("received signal") {
        return None;
    }
    let frames = solver_frames(&run.stdout);
    (!frames.is_empty()).then_some(frames)
}

/// The first word of a stack overflow's crash state ([`solver_frames`]).
pub const STACK_OVERFLOW: &str = "stack overflow in";

/// The function names of the first [`STATE_FRAMES`] frames of gdb's `bt` output that are
/// in the solver's own code, innermost first, without addresses, arguments or lines. A
/// stack overflow is the exception: where it stops depends on how deep the input drove
/// the recursion, so its innermost frames differ from input to input (a judge saw one
/// unbounded `datatype_factory::get_fresh_value` recursion stored twice, topped once by
/// `array_util::array_util`, once by `struct_factory::get_value_set`). When one function
/// fills at least half of the 64 frames `bt 64` prints, the state is
/// [`STACK_OVERFLOW`] and the functions that recur in those frames, sorted: the
/// recursion, as ClusterFuzz names a stack overflow by its recursing frames.
pub fn solver_frames(bt: &str) -> Vec<String> {
    let all = own_frames(bt);
    let mut count: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for f in &all {
        *count.entry(f.as_str()).or_default() += 1;
    }
    if count.values().any(|&n| n >= 32) {
        let recurring = count.into_iter().filter(|&(_, n)| n >= 4).map(|(f, _)| f.to_string());
        return std::iter::once(STACK_OVERFLOW.to_string()).chain(recurring).collect();
    }
    all.into_iter().take(STATE_FRAMES).collect()
}

/// Every frame of gdb's `bt` output in the solver's own code, innermost first.
fn own_frames(bt: &str) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    for line in bt.lines() {
        let Some(rest) = line.strip_prefix('#') else { continue };
        // `#3  0x00005555 in ns::f(int) () from /lib/...` or `#0  ns::f (this=...) at f.cpp:3`.
        let Some((num, rest)) = rest.split_once(' ') else { continue };
        if num.parse::<u32>().is_err() {
            continue;
        }
        let rest = rest.trim_start();
        let rest = match rest.split_once(" in ") {
            Some((addr, f)) if addr.starts_with("0x") => f,
            _ => rest,
        };
        let from = rest.rsplit_once(" from ").map(|(_, lib)| lib.trim());
        let name = function_name(rest);
        if name.is_empty() || !own_code(name, from) {
            continue;
        }
        out.push(name.to_string());
    }
    out
}

/// The function of a frame's text: up to its argument list (` (`), as gdb prints it with
/// or without debug information (`f(int) ()`, `f (x=1)`), without the compiler's clone
/// suffix (` [clone .isra.121]`: another build of the same source names it otherwise).
fn function_name(frame: &str) -> &str {
    let f = frame.split(" (").next().unwrap_or("").trim();
    if f.starts_with('<') {
        // `<signal handler called>`
        return "";
    }
    f.split(" [clone ").next().unwrap_or(f).trim()
}

/// Whether a frame is the solver's: not the C library, the C++ runtime, the loader,
/// Python, or an unknown address.
fn own_code(name: &str, from: Option<&str>) -> bool {
    const FOREIGN_LIBS: &[&str] =
        &["libc.so", "libm.so", "libstdc++", "libgcc_s", "ld-linux", "libpthread", "libpython", "libgmp", "/python"];
    const FOREIGN_FNS: &[&str] = &[
        "??",
        "raise",
        "abort",
        "__GI_",
        "__pthread_kill",
        "pthread_kill",
        "__restore_rt",
        "__libc_",
        "__assert_fail",
        "__cxa_",
        "__gnu_cxx::",
        "std::terminate",
        "std::__terminate",
        "_start",
        "_Py",
        "Py",
        "__sigaction",
        "__memcpy",
        "__memmove",
        "__memset",
        "__strlen",
        "malloc",
        "free",
        "_int_malloc",
        "_int_free",
        "operator new",
        "operator delete",
    ];
    if from.is_some_and(|lib| FOREIGN_LIBS.iter().any(|l| lib.contains(l))) {
        return false;
    }
    // The C++ standard library compiled into the solver (`std::operator<<` inlined
    // into z3): not the solver's logic, as ClusterFuzz skips it too. Only the function's
    // own name counts, not its parameter types.
    if name.split('(').next().is_some_and(|head| head.starts_with("std::")) {
        return false;
    }
    !FOREIGN_FNS.iter().any(|f| name.starts_with(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_of_the_solver_are_kept_and_the_runtime_skipped() {
        let bt = "\
Program received signal SIGSEGV, Segmentation fault.
0x00005555 in smt::theory_arith<smt::mi_ext>::get_value(smt::enode*) ()
#0  0x00005555 in smt::theory_arith<smt::mi_ext>::get_value(smt::enode*) ()
#1  0x00005556 in smt::context::mk_proto_model(lbool) ()
#2  <signal handler called>
#3  0x00007fff in __GI_raise (sig=6) at ../sysdeps/raise.c:50
#4  0x00007ff0 in ?? () from /lib/x86_64-linux-gnu/libstdc++.so.6
#5  0x00005557 in smt::kernel::check(unsigned int, expr* const*) ()
#6  0x00005558 in main ()
";
        let cloned = "#0  0x1 in std::basic_ostream<char>& std::operator<< <std::char_traits<char> >(std::basic_ostream<char>&, char const*) [clone .part.4] ()\n\
#1  0x2 in void rewriter_tpl<cfg>::process_var<false>(var*) [clone .isra.3] ()\n";
        assert_eq!(solver_frames(cloned), vec!["void rewriter_tpl<cfg>::process_var<false>(var*)"]);
        assert_eq!(
            solver_frames(bt),
            vec![
                "smt::theory_arith<smt::mi_ext>::get_value(smt::enode*)",
                "smt::context::mk_proto_model(lbool)",
                "smt::kernel::check(unsigned int, expr* const*)"
            ]
        );
        // With debug information: `name (args) at file:line`.
        let bt = "#0  cvc5::internal::Foo::bar (this=0x1, n=2) at foo.cpp:10\n#1  0x1 in PyEval_EvalCode () from /usr/lib/libpython3.11.so\n";
        assert_eq!(solver_frames(bt), vec!["cvc5::internal::Foo::bar"]);
        assert!(solver_frames("no frames here\n#x junk\n").is_empty());
    }

    /// One unbounded recursion reached from two inputs, stopped under different
    /// innermost frames, is one state; a short recursion is not a stack overflow.
    #[test]
    fn a_stack_overflow_is_its_recursion() {
        let bt = |top: &[&str], depth: usize| {
            let mut frames: Vec<String> = top.iter().map(|f| f.to_string()).collect();
            frames.extend(std::iter::repeat_n("datatype_factory::get_fresh_value(sort*)".to_string(), depth));
            frames.iter().enumerate().map(|(i, f)| format!("#{i}  0x{i:x} in {f} ()\n")).collect::<String>()
        };
        let a = solver_frames(&bt(
            &["array_util::array_util(ast_manager&)", "datatype::util::is_recursive_array(sort*)"],
            61,
        ));
        let b = solver_frames(&bt(&["struct_factory::get_value_set(sort*)"], 63));
        assert_eq!(a, vec![STACK_OVERFLOW, "datatype_factory::get_fresh_value(sort*)"]);
        assert_eq!(a, b);
        let shallow = solver_frames(&bt(&["smt::context::check(unsigned int)"], 5));
        assert_eq!(shallow[0], "smt::context::check(unsigned int)");
        assert_eq!(shallow.len(), STATE_FRAMES);
    }
}
