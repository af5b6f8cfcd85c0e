//! `scripts/check-layers.sh` must be able to fail: on a copy of `src/` with one upward
//! import planted in a module of the lowest floor, as a path and as `use` groups (one
//! line, several lines, nested), it exits non-zero and names the file, the line and the
//! arrow; on the tree as it is, it passes.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Copies `from` into `to`, recursively.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).unwrap();
        }
    }
}

/// Runs the script on `src`: (exit code, stdout).
fn check(src: &Path) -> (i32, String) {
    let out = Command::new(root().join("scripts/check-layers.sh"))
        .arg(src)
        .arg(root().join("layers.txt"))
        .output()
        .expect("bash and python3 run scripts/check-layers.sh");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The tree copied with `planted` appended to `src/util/hash.rs`: the script's code and
/// output, and the line the plant starts on.
fn planted(planted: &str) -> (i32, String, usize) {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("src"), &tmp.path().join("src"));
    let file = tmp.path().join("src/util/hash.rs");
    let mut text = std::fs::read_to_string(&file).unwrap();
    let line = text.lines().count() + 1;
    text.push_str(planted);
    std::fs::write(&file, text).unwrap();
    let (code, out) = check(&tmp.path().join("src"));
    (code, out, line)
}

#[test]
fn the_tree_passes() {
    let (code, out) = check(&root().join("src"));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(" 0 against the floors"), "{out}");
}

#[test]
fn a_grouped_upward_import_is_caught() {
    let (code, out, line) = planted("use crate::{campaign};\n");
    assert_ne!(code, 0, "{out}");
    assert!(out.contains(&format!("util/hash.rs:{line}: util -> campaign points up")), "{out}");
}

#[test]
fn groups_over_several_lines_and_nested_groups_are_caught() {
    let (code, out, line) =
        planted("pub use crate::{\n    smtlib::{self, ast},\n    oracle as o,\n    reduce::{x, y},\n};\n");
    assert_ne!(code, 0, "{out}");
    assert!(out.contains(&format!("util/hash.rs:{}: util -> smtlib points up", line + 1)), "{out}");
    assert!(out.contains(&format!("util/hash.rs:{}: util -> oracle points up", line + 2)), "{out}");
    assert!(out.contains(&format!("util/hash.rs:{}: util -> reduce points up", line + 3)), "{out}");
    assert!(out.contains(" 3 against the floors"), "{out}");
}

#[test]
fn a_plain_path_is_still_caught_and_test_code_is_not() {
    let (code, out, line) = planted("fn _up() { let _ = crate::campaign::run; }\n");
    assert_ne!(code, 0, "{out}");
    assert!(out.contains(&format!("util/hash.rs:{line}: util -> campaign points up")), "{out}");
    let (code, out, _) = planted("#[cfg(test)]\nmod up {\n    use crate::{campaign};\n}\n");
    assert_eq!(code, 0, "{out}");
}
