#!/usr/bin/env bash
# First run on a fresh machine: installs pinned solvers into .solvers/ (if missing),
# builds smtstorm, and runs it end to end on the bundled corpus/.
#
# Today this exercises the SMT-LIB front end (parse, round trip, sort check) on corpus/
# and on the shared cvc5 regression seeds when they are present, and runs corpus/ on an
# old z3, the current z3, yices and cvc5 through persistent sessions; the fuzzing campaign
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
echo "== corpus/ on z3 4.8.7, z3 5.4.0, yices and cvc5 (persistent sessions)"
"$bin" solvers
"$bin" check corpus --solver z3-4.8.7 --solver z3-5.4.0 --solver yices --solver cvc5 --timeout 20 --json \
  > "$out/corpus-check.json"
"$bin" check corpus --solver z3-4.8.7 --solver z3-5.4.0 --solver yices --solver cvc5 --timeout 20 \
  > "$out/corpus-check.txt"
python3 - "$out/corpus-check.json" <<'PY'
import json, sys, collections
rows = json.load(open(sys.argv[1]))
count = collections.Counter()
wrong = []
for r in rows:
    for c in r["cells"]:
        k = c["outcomes"][0]["kind"]
        count[(c["solver"], k)] += 1
        if r["status"] in ("sat", "unsat") and k in ("sat", "unsat") and k != r["status"]:
            wrong.append(f'{c["solver"]} says {k} on {r["file"]} (status {r["status"]})')
for s in sorted({s for s, _ in count}):
    print(f"  {s:<10}", ", ".join(f"{k} {n}" for (t, k), n in sorted(count.items()) if t == s))
print(f"  answers contradicting :status: {len(wrong)}")
for w in wrong:
    print("   ", w)
PY
echo
echo "reports written to $out (corpus-check.txt has every file x solver)"
