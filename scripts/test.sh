#!/usr/bin/env bash
# The project's test suite, as CI runs it (.ci/run calls this). Installs what it needs:
# pinned solvers into .solvers/ (scripts/setup-solvers.sh --minimal) and cargo-fuzz.
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

step "layers: no import points up (layers.txt)"
scripts/check-layers.sh

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

step "fuzz targets build on stable (-s none) and run ${fuzz_seconds}s each"
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
(cd fuzz && CARGO_TARGET_DIR=$fuzz_target_dir cargo fuzz build -s none)
# The engine targets talk to solvers (default: newest z3 and yices). A confirmed solver
# finding is what they are for, not a failure; any other crash is a bug of ours.
export SMTSTORM_SOLVERS_DIR=${SMTSTORM_SOLVERS_DIR:-$root/.solvers}
for target in parse_target opfuzz_target valfuzz_target storm_target; do
  mkdir -p "$work/$target/corpus" "$work/$target/artifacts"
  cp corpus/*.smt2 "$work/$target/corpus/"
  if ! "$fuzz_target_dir/x86_64-unknown-linux-gnu/release/$target" "$work/$target/corpus" \
    -dict=dictionaries/smtlib.dict -max_total_time="$fuzz_seconds" -timeout=60 \
    -artifact_prefix="$work/$target/artifacts/" -print_final_stats=1 >"$work/$target.log" 2>&1; then
    if grep -q "smtstorm: confirmed" "$work/$target.log"; then
      grep -m1 "smtstorm: confirmed" "$work/$target.log" | sed "s/^/  $target found a solver bug: /"
    else
      tail -40 "$work/$target.log"
      echo "$target crashed in smtstorm's own code" >&2
      exit 1
    fi
  fi
  grep -E 'stat::(number_of_executed_units|average_exec_per_sec)|DONE' "$work/$target.log" | sed "s/^/  $target /"
done

step "no solver process left behind"
if pgrep -f "$root/.solvers/" >/dev/null; then
  pgrep -af "$root/.solvers/" >&2
  echo "solver processes started by the tests are still running" >&2
  exit 1
fi
echo "all checks passed"
echo "tests: $passed passed, $failed failed"
