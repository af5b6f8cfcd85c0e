#!/usr/bin/env bash
# OpFuzz throughput, smtstorm vs yinyang's opfuzz (PyPI `yinyang`), side by side in one
# run: the same 200 seeds of ../shared/seeds/cvc5-regress (every 20th file, sorted), the
# same two solvers (z3 4.8.12 and z3 5.4.0), the same per-query timeout, SECS each.
#
#   scripts/bench-yinyang-opfuzz.sh [SECS=300] [WORKERS=1]
#
# yinyang runs in a venv under ~/.cache/smtstorm/yinyang (created if missing). Prints
# mutants tested per second for both, the ratio, and smtstorm's own CPU share of wall.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-300}
workers=${2:-1}
seeds_src=${SEEDS:-$root/../shared/seeds/cvc5-regress}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/smtstorm/target}
work=$(mktemp -d /tmp/smtstorm-bench-yinyang.XXXXXX)
trap 'rm -rf "$work"' EXIT

venv=$HOME/.cache/smtstorm/yinyang
[ -x "$venv/bin/opfuzz" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q yinyang; }
z3old=$root/.solvers/z3-4.8.12/bin/z3
z3new=$root/.solvers/z3-5.4.0/bin/z3
[ -x "$z3old" ] && [ -x "$z3new" ] || { echo "run scripts/setup-solvers.sh first" >&2; exit 2; }
(cd "$root" && cargo build --release -q)

mkdir -p "$work/seeds"
find "$seeds_src" -name '*.smt2' | sort | awk 'NR % 20 == 1' | head -200 | while read -r f; do
  ln -s "$f" "$work/seeds/$(echo "${f#$seeds_src/}" | tr / _)"
done
echo "seeds: $(ls "$work/seeds" | wc -l); $secs s each; uptime: $(uptime)"

# yinyang: one process; its status line reports solver calls and mutants/s.
(cd "$work" && timeout -s INT "$secs" "$venv/bin/opfuzz" -t 2 "$z3old -smt2;$z3new -smt2" "$work"/seeds/*.smt2 \
  > "$work/yinyang.log" 2>&1 || true)
yy_calls=$(grep -o 'Performed [0-9]* solver calls' "$work/yinyang.log" | tail -1 | awk '{print $2}')
# yinyang's own figure over its own running time (it stops early once every seed is done).
yy_rate=$(grep -o '[0-9.]* mutants/s' "$work/yinyang.log" | tail -1 | awk '{print $1}')
echo "yinyang opfuzz: ${yy_calls:-0} solver calls = $(( ${yy_calls:-0} / 2 )) mutants: ${yy_rate:-0} mutants/s (its own status line)"
tail -3 "$work/yinyang.log" | sed 's/^/  yinyang: /'

"$CARGO_TARGET_DIR/release/smtstorm" fuzz "$work/seeds" --solver "old=$z3old -smt2" --solver "new=$z3new -smt2" \
  --engine opfuzz --workers "$workers" --time "$secs" --timeout 2 --no-bisect --out "$work/out" --quiet || true
python3 - "$work/out/stats.jsonl" "$yy_rate" <<'PY'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
rate = s["mutants"] / s["elapsed"]
yy = float(sys.argv[2])
print(f"smtstorm opfuzz: {s['mutants']} mutants in {s['elapsed']:.0f} s: {rate:.1f} mutants/s "
      f"(valid {100*s['valid']/max(1,s['valid']+s['invalid']):.1f} %, {s['solver_calls']} solver calls)")
print(f"ratio smtstorm / yinyang: {rate / yy if yy else float('inf'):.2f}x")
print(f"smtstorm's own CPU: {s['own_cpu']:.2f} s = {100*s['own_cpu']/s['elapsed']:.2f} % of wall")
PY
echo "uptime after: $(uptime)"
