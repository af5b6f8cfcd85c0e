#!/usr/bin/env bash
# BanditFuzz against its baselines (issue 8's experiment): the same budget for each
# strategy, runs interleaved (seed 1: bandit, single, random; seed 2: ...) so that drift
# in machine load hits all three alike.
#
#   scripts/bench-bandit.sh OUT SETTING RUNS SECONDS
#
# SETTING is `bv` (target z3 4.8.7, reference z3 5.4.0, QF_BV) or `lia` (target cvc5,
# reference yices, QF_LIA). Each run is `smtstorm bandit --time SECONDS` into
# OUT/<setting>/<strategy>-<seed>/; then OUT/<setting>/table.md has per strategy the
# median, min and max over runs of the best final margin and of the cumulative margin
# (sum of the positive re-scored margins of the 5 best benchmarks), and
# OUT/<setting>/cactus-<strategy>.svg plots targets against references over all the
# benchmarks the strategy kept.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: bench-bandit.sh OUT SETTING RUNS SECONDS}"
setting="${2:?bv or lia}"
runs="${3:-5}"
secs="${4:-180}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/smtstorm/target}"
(cd "$here" && cargo build --release -q)
# A copy: rebuilding the tree during a long experiment must not change the binary.
mkdir -p "$out"
bin="$out/smtstorm-$setting"
cp "$CARGO_TARGET_DIR/release/smtstorm" "$bin"
case "$setting" in
  bv) args=(--target z3-4.8.7 --reference z3-5.4.0 --theories bv --width 16,32 --depth 3) ;;
  lia) args=(--target cvc5 --reference yices --theories ints --linear --depth 4 --vars 3) ;;
  *) echo "unknown setting $setting" >&2; exit 2 ;;
esac
dir="$out/$setting"
mkdir -p "$dir"
uptime > "$dir/uptime-start.txt"
for seed in $(seq 1 "$runs"); do
  for strategy in bandit single random; do
    run="$dir/$strategy-$seed"
    rm -rf "$run"
    (cd "$here" && "$bin" bandit "${args[@]}" --strategy "$strategy" --seed "$seed" --time "$secs" \
      --timeout 2 --keep 5 --repeats 3 --out "$run" --json) > "$run.json"
    echo "$setting $strategy seed $seed: $(tr -d '\n ' < "$run.json")"
  done
done
uptime > "$dir/uptime-end.txt"
for strategy in bandit single random; do
  "$bin" cactus "$dir/$strategy"-*/ -o "$dir/cactus-$strategy.svg" >/dev/null
done
python3 - "$dir" "$runs" <<'PY'
import json, statistics, sys, os
d, runs = sys.argv[1], int(sys.argv[2])
rows = ["| strategy | runs | best margin s (median [min, max]) | cumulative margin s (median [min, max]) | iterations (median) | kept (median) | findings |",
        "|---|---|---|---|---|---|---|"]
for s in ["bandit", "single", "random"]:
    sums = [json.load(open(os.path.join(d, f"{s}-{i}.json"))) for i in range(1, runs + 1)]
    best = [x["best_margin"] if x["best_margin"] is not None else 0.0 for x in sums]
    cum = [x["cumulative_margin"] for x in sums]
    f = lambda v: f"{statistics.median(v):.3f} [{min(v):.3f}, {max(v):.3f}]"
    rows.append(f"| {s} | {len(sums)} | {f(best)} | {f(cum)} | {statistics.median([x['iterations'] for x in sums]):.0f} | "
                f"{statistics.median([x['kept'] for x in sums]):.0f} | {sum(x['findings'] for x in sums)} |")
open(os.path.join(d, "table.md"), "w").write("\n".join(rows) + "\n")
print("\n".join(rows))
PY
