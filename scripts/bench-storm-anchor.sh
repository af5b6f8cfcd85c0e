#!/usr/bin/env bash
# STORM's throughput beside smtstorm's, in one run (issue 6): the original STORM
# (github.com/Practical-Formal-Methods/storm, on z3py, a shell and a fresh solver process
# per instance) and `smtstorm storm`, one after the other, on the same QF_LIA seeds, the
# same solver (z3 4.8.12), 2 cores each, SECONDS each.
#
#   scripts/bench-storm-anchor.sh STORM_CHECKOUT OUT [SECONDS] [SEEDS_DIR]
#
# STORM_CHECKOUT is a clone (or bare mirror) of STORM's repository (this machine has no route to GitHub;
# the library's `fetch` mirrors it). Nothing of it is copied into this project: it runs
# from its own directory, in a virtualenv under OUT with termcolor, configparser and
# z3-solver 4.8.12 from PyPI. Both tools get STORM's default bounds (depth 20, 20
# assertions); smtstorm also runs with its own defaults (64/64).
#
# Counted: instances sent to z3 and answered (STORM prints one line per instance, with
# the answer; smtstorm's campaign summary counts the mutants tested).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
storm="$(cd "${1:?usage: bench-storm-anchor.sh STORM_CHECKOUT OUT [SECONDS] [SEEDS_DIR]}" && pwd)"
out="${2:?OUT}"
secs="${3:-300}"
seeds="${4:-$here/../shared/seeds/cvc5-regress}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/smtstorm/target}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
z3="$here/.solvers/z3-4.8.12/bin/z3"
[ -x "$z3" ] || "$here/scripts/setup-solvers.sh"
(cd "$here" && cargo build --release -q)
bin="$CARGO_TARGET_DIR/release/smtstorm"

# Ten QF_LIA seeds that z3 4.8.12 decides within a second (STORM needs one theory per
# folder, named after the logic it sets).
bench="$out/benchmarks/QF_LIA"
rm -rf "$out/benchmarks" && mkdir -p "$bench"
for f in regress0/unconstrained/mult1.smt2 regress0/dump-unsat-core-full.smt2 regress0/bug480.smt2 \
  regress0/simple-dump-model.smt2 regress0/bug365.smt2 regress0/proofs/RF-11-aci-norm-ndet.smt2 \
  regress0/proofs/proj-issue711-open-sat-proof.smt2 regress0/arith/arith-tighten-2.smt2 regress0/bug383.smt2 \
  regress0/proofs/issue9770-open-sat-proof.smt2; do
  cp "$seeds/$f" "$bench/$(echo "$f" | tr / _)"
done

venv="$out/venv"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q termcolor configparser "z3-solver==4.8.12.0"
fi
# STORM writes its temp files and findings under its "home" (config.py, written by its
# setup.py): point it at a scratch copy's directory, not at the checkout.
work="$out/storm-home"
rm -rf "$work" && mkdir -p "$work"
if [ -d "$storm/storm" ]; then
  cp -r "$storm/storm" "$work/storm"
else # a bare mirror: its tree at HEAD
  git --git-dir="$storm" archive HEAD storm | tar -x -C "$work"
fi
echo "config={\"home\":\"$work\"}" > "$work/storm/config.py"

echo "load before: $(uptime)"
# STORM: its own process pool (--cores 2); killed as a group after SECONDS.
# setsid in a background job execs in place: $! is the new group's leader.
TERM=dumb setsid bash -c 'cd "$1" && shift && exec "$@"' storm "$work" "$venv/bin/python" -c \
  'import sys; sys.argv[0]="storm"; from storm.__main__ import main; main()' \
  --benchmark="$out/benchmarks" --theory=QF_LIA --solverbin="$z3" --solver=z3 --cores=2 --seed=1 \
  > "$out/storm.log" 2>&1 < /dev/null &
spid=$!
sleep "$secs"
kill -9 -- "-$spid" 2>/dev/null || true
# Its pool workers and their shells are in the same group; a straggler outside it would
# still hold a core through the next run.
pkill -9 -f "$venv/bin/python" || true
pkill -9 -f "$work/temp" || true
wait "$spid" 2>/dev/null || true
storm_run=$(grep -ac "\[seed_file:" "$out/storm.log" || true)
storm_solved=$(grep -a "\[seed_file:" "$out/storm.log" | grep -acE "sat" || true)
echo "load after STORM: $(uptime)"

run_ours() { # NAME ARGS...
  local name="$1"; shift
  rm -rf "$out/$name"
  (cd "$here" && "$bin" storm "$bench" --solver z3-4.8.12 --reference z3-4.8.12 --workers 2 --time "$secs" \
    --seed 1 "$@" --out "$out/$name") > "$out/$name.log" 2>&1 || true
  tail -1 "$out/$name.log" | sed -E 's/^([0-9]+) mutants in.*/\1/'
}
ours_20=$(run_ours smtstorm-20 --dmax 20 --amax 20)
echo "load after smtstorm 20/20: $(uptime)"
ours_64=$(run_ours smtstorm-64)
echo "load after smtstorm 64/64: $(uptime)"

rate() { python3 -c "print(f'{$1/$secs:.1f}')"; }
ratio() { python3 -c "print(f'{$1/max($2,1):.1f}')"; }
cat <<EOF | tee "$out/table.md"
| tool | bounds (depth/assertions) | instances run in ${secs} s | per second | vs STORM |
|---|---|---|---|---|
| STORM (z3py 4.8.12, shell per call) | 20/20 | $storm_run ($storm_solved sat/unsat) | $(rate "$storm_run") | 1.0× |
| smtstorm storm | 20/20 | $ours_20 | $(rate "$ours_20") | $(ratio "$ours_20" "$storm_run")× |
| smtstorm storm | 64/64 (defaults) | $ours_64 | $(rate "$ours_64") | $(ratio "$ours_64" "$storm_run")× |
EOF
