#!/usr/bin/env bash
# The project's test suite, as CI runs it (.ci/run calls this). Installs what it needs:
# pinned solvers into .solvers/ (scripts/setup-solvers.sh --minimal), cargo-fuzz and, as
# root, Debian's chromium (the HTML report's rendering test).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# Keep build products outside the clone so repeated CI runs reuse them.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/smtstorm/target}
fuzz_target_dir=${SMTSTORM_FUZZ_TARGET_DIR:-$HOME/.cache/smtstorm/fuzz-target}
fuzz_seconds=${SMTSTORM_FUZZ_SECONDS:-30}

step() { printf '\n== %s\n' "$*"; }

step "solvers"
scripts/setup-solvers.sh --minimal

step "headless Chromium for the report's rendering test (tests/report.rs)"
# Debian's package, where this runs as root with apt-get; without it that test says it
# skipped and why.
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  (apt-get install -y -q chromium fonts-dejavu-core >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium fonts-dejavu-core >/dev/null 2>&1; }) \
    || echo "note: could not install chromium: the report's rendering test will skip" >&2
fi
command -v chromium >/dev/null 2>&1 && chromium --version 2>/dev/null || true

step "layers: no import points up (layers.txt)"
scripts/check-layers.sh
# The check must be able to fail: the same tree with one upward import added must not pass.
up=$(mktemp -d)
cp -r src "$up/src"
echo 'fn _up() { let _ = crate::campaign::run; }' >>"$up/src/util/hash.rs"
if scripts/check-layers.sh "$up/src" layers.txt >"$up/out" 2>&1 || ! grep -q "util -> campaign points up" "$up/out"; then
  cat "$up/out" >&2
  echo "check-layers.sh did not catch an upward import" >&2
  exit 1
fi
rm -rf "$up"

step "deployment files: ClusterFuzzLite workflows (actionlint), Kubernetes manifests (kubernetes-validate), Slurm script"
scripts/check-deploy.sh

step "format and lints"
cargo fmt --check
(cd fuzz && cargo fmt --check)
cargo clippy --release --all-targets -- -D warnings

step "tests"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo test --release 2>&1 | tee "$work/cargo-test.log"
passed=$(grep -oE 'test result: [a-z]+\. [0-9]+ passed' "$work/cargo-test.log" | awk '{s+=$4} END {print s+0}')
failed=$(grep -oE '[0-9]+ failed;' "$work/cargo-test.log" | awk '{s+=$1} END {print s+0}')

step "dictionary is current"
"$CARGO_TARGET_DIR/release/smtstorm" dict | diff -u dictionaries/smtlib.dict - >/dev/null

step "fuzz targets build on stable (-s none), as OSS-Fuzz-style builds without a sanitizer do"
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
(cd fuzz && CARGO_TARGET_DIR=$fuzz_target_dir cargo +stable fuzz build -s none)

step "the OSS-Fuzz / ClusterFuzzLite build (.clusterfuzzlite/build.sh) without Docker"
scripts/check-oss-fuzz-build.sh

step "the bare \`cargo fuzz run TARGET\` (nightly from fuzz/rust-toolchain.toml) fuzzes from the seeds, ${fuzz_seconds}s each"
# Exactly the command a new user types, from fuzz/, with a fresh corpus directory: the
# target must copy the seeds into it, add the dictionary, and reach the solvers. The
# engine targets talk to solvers (default: newest z3 and yices). A confirmed solver
# finding is what they are for, not a failure; any other crash is a bug of ours.
export SMTSTORM_SOLVERS_DIR=${SMTSTORM_SOLVERS_DIR:-$root/.solvers}
seeds=$(ls corpus/*.smt2 | wc -l)
for target in parse_target opfuzz_target valfuzz_target storm_target; do
  rm -rf "fuzz/corpus/$target" "fuzz/artifacts/$target"
  bug=0
  if ! (cd fuzz && CARGO_TARGET_DIR=$fuzz_target_dir cargo fuzz run "$target" -- -max_total_time="$fuzz_seconds" \
    -print_final_stats=1 >"$work/$target.log" 2>&1); then
    if grep -q "smtstorm: confirmed" "$work/$target.log"; then
      bug=1
      grep -m1 "smtstorm: confirmed" "$work/$target.log" | sed "s/^/  $target found a solver bug: /"
    else
      tail -40 "$work/$target.log"
      echo "$target crashed in smtstorm's own code" >&2
      exit 1
    fi
  fi
  grep -E "smtstorm: $target|stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|#smtstorm" "$work/$target.log" | sed "s/^/  /"
  # The corpus started from the seeds (libFuzzer counts what it read) ...
  found=$(grep -oE 'INFO: +[0-9]+ files found in' "$work/$target.log" | head -1 | grep -oE '[0-9]+' || echo 0)
  if [ "${found:-0}" -lt "$seeds" ]; then
    echo "$target started from $found inputs, not from the $seeds seeds" >&2
    exit 1
  fi
  grep -q "smtstorm: $target: adding -dict=" "$work/$target.log" || {
    echo "$target did not add the dictionary" >&2
    exit 1
  }
  # ... and the solvers were asked (the harness's own count, printed at exit; a confirmed
  # finding ends the run by abort, and is itself the proof that they were).
  if [ "$target" != parse_target ] && [ "$bug" -eq 0 ]; then
    queried=$(grep -oE '#smtstorm execs [0-9]+ queried [0-9]+' "$work/$target.log" | tail -1 | awk '{print $5}')
    if [ "${queried:-0}" -eq 0 ]; then
      echo "$target made no solver query" >&2
      exit 1
    fi
  fi
done

step "no solver process left behind"
if pgrep -f "$root/.solvers/" >/dev/null; then
  pgrep -af "$root/.solvers/" >&2
  echo "solver processes started by the tests are still running" >&2
  exit 1
fi
echo "all checks passed"
echo "tests: $passed passed, $failed failed"
