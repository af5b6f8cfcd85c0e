#!/usr/bin/env bash
# Executions per second of a fuzz target under libFuzzer on the small seeds of corpus/
# (files under 400 bytes), with where the time went (SMTSTORM_STATS). Issue 9's figure.
#
#   scripts/bench-fuzz-execs.sh [TARGET=storm_target] [SECS=60] [FRAMING=pushpop|reset] [SOLVERS]
#
# SOLVERS defaults to z3-4.15.4,z3-5.4.0 (no known bug found within a minute, so the run
# is not cut short by an artifact). Extra libFuzzer flags: LIBFUZZER_FLAGS. Prints the
# libFuzzer final stats, the harness's accounting, and the uptime before and after.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
target=${1:-storm_target}
secs=${2:-60}
framing=${3:-pushpop}
solvers=${4:-z3-4.15.4,z3-5.4.0}
fuzz_target_dir=${SMTSTORM_FUZZ_TARGET_DIR:-$HOME/.cache/smtstorm/fuzz-target}
(cd "$root/fuzz" && CARGO_TARGET_DIR=$fuzz_target_dir cargo fuzz build -s none "$target" >&2)
bin=$fuzz_target_dir/x86_64-unknown-linux-gnu/release/$target
work=$(mktemp -d /tmp/smtstorm-execs.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus"
find "$root/corpus" -name '*.smt2' -size -400c -exec cp {} "$work/corpus/" \;
echo "target $target, $secs s, framing $framing, solvers $solvers, $(ls "$work/corpus" | wc -l) seeds < 400 B"
echo "uptime before: $(uptime)"
(cd "$work" && SMTSTORM_SOLVERS_DIR=$root/.solvers SMTSTORM_SOLVERS=$solvers SMTSTORM_FRAMING=$framing \
  SMTSTORM_STATS=${SMTSTORM_STATS:-1000} "$bin" corpus -max_total_time="$secs" -seed=1 -timeout=30 \
  -print_final_stats=1 ${LIBFUZZER_FLAGS:-} >log 2>&1) || true
grep -E '^#smtstorm' "$work/log" | tail -1
grep -E 'INITED|DONE|stat::(number_of_executed_units|average_exec_per_sec|new_units_added)|panicked' "$work/log" | tail -6
echo "uptime after: $(uptime)"
