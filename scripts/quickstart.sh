#!/usr/bin/env bash
# First run on a fresh machine: installs pinned solvers into .solvers/ (if missing),
# builds smtstorm, and runs it end to end on the bundled corpus/.
#
# Today this exercises the SMT-LIB front end (parse, round trip, sort check) on corpus/
# and on the shared cvc5 regression seeds when they are present; the fuzzing campaign
# (`smtstorm fuzz`) joins this script when it lands (see README, "Status").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/smtstorm/target}

scripts/setup-solvers.sh
cargo build --release
bin="$CARGO_TARGET_DIR/release/smtstorm"
out=${1:-$root/quickstart-out}
mkdir -p "$out"

echo "== corpus/: parse, round trip, sort check"
"$bin" parse corpus --check | tee "$out/corpus-parse.txt"
seeds="$root/../shared/seeds/cvc5-regress"
if [ -d "$seeds" ]; then
  echo "== $seeds"
  "$bin" parse "$seeds" --check --json > "$out/cvc5-regress-parse.json"
  "$bin" parse "$seeds" --check | grep -vE '^  unknown symbol' | tee "$out/cvc5-regress-parse.txt"
fi
echo
echo "reports written to $out"
