//! Links the instrumented z3 for the `z3-inprocess` feature (issue 9); does nothing
//! otherwise. The library comes from `scripts/build-instrumented-z3.sh`, built once outside
//! cargo: building it here would tie a 40-minute C++ build to cargo's rebuild rules.

fn main() {
    println!("cargo:rerun-if-env-changed=SMTSTORM_Z3_INSTRUMENTED");
    if std::env::var_os("CARGO_FEATURE_Z3_INPROCESS").is_none() {
        return;
    }
    let dir = std::env::var_os("SMTSTORM_Z3_INSTRUMENTED").map(std::path::PathBuf::from).unwrap_or_else(|| {
        std::path::PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/smtstorm/z3-instrumented")
    });
    let lib = dir.join("lib");
    if !lib.join("libz3.a").exists() {
        panic!("feature z3-inprocess: no {}/libz3.a; run scripts/build-instrumented-z3.sh first", lib.display());
    }
    println!("cargo:rerun-if-changed={}", lib.join("libz3.a").display());
    println!("cargo:rustc-link-search=native={}", lib.display());
    println!("cargo:rustc-link-lib=static=z3");
    // z3 was compiled against libc++ 16 (see the script); link it statically so the
    // fuzzer binary runs without LD_LIBRARY_PATH. Unwinding comes from libgcc_s, which
    // Rust's std links anyway.
    println!("cargo:rustc-link-search=native=/usr/lib/llvm-16/lib");
    for l in ["c++", "c++experimental", "c++abi"] {
        println!("cargo:rustc-link-lib=static={l}");
    }
}
