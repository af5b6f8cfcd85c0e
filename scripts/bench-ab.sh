#!/usr/bin/env bash
# A/B of this checkout against an earlier commit, interleaved in one run: the front-end
# bench (benches/frontend.rs) and a 60-second OpFuzz campaign, three pairs each, so that
# a restructuring can show it kept the speed (issue 20). Prints every run and the
# medians; the machine's load before and after.
#
#   scripts/bench-ab.sh REV [CAMPAIGN_SECS=60] [PAIRS=3]
#
# REV is built once in a worktree under ~/.cache/smtstorm/ab/REV (same toolchain and
# profile). Seeds: every 20th file of ../shared/seeds/cvc5-regress (200 files, as
# scripts/bench-yinyang-opfuzz.sh); solvers z3 4.8.12 and z3 5.4.0.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:?usage: scripts/bench-ab.sh REV [CAMPAIGN_SECS] [PAIRS]}
secs=${2:-60}
pairs=${3:-3}
seeds_src=$(realpath "${SEEDS:-$root/../shared/seeds/cvc5-regress}")
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/smtstorm/target}
ab=$HOME/.cache/smtstorm/ab/$rev
if [ ! -d "$ab/src" ]; then
  git -C "$root" worktree add -f --detach "$ab/src" "$rev" >&2
fi
(cd "$ab/src" && CARGO_TARGET_DIR=$ab/target cargo build --release -q --bins --benches >&2)
(cd "$root" && cargo build --release -q --bins --benches >&2)
bench_of() { # TARGET_DIR -> path of the frontend bench binary
  find "$1/release/deps" -maxdepth 1 -type f -executable -name 'frontend-*' -printf '%T@ %p\n' | sort -n | tail -1 | cut -d' ' -f2
}
old_bench=$(bench_of "$ab/target")
new_bench=$(bench_of "$CARGO_TARGET_DIR")
work=$(mktemp -d /tmp/smtstorm-ab.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/seeds"
find "$seeds_src" -name '*.smt2' | sort | awk 'NR % 20 == 1' | head -200 | while read -r f; do
  ln -s "$f" "$work/seeds/$(echo "${f#"$seeds_src"/}" | tr / _)"
done
echo "A/B $rev vs $(git -C "$root" rev-parse --short HEAD); $(grep -m1 'model name' /proc/cpuinfo); uptime before: $(uptime)"

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
for i in $(seq "$pairs"); do
  for v in old new; do
    b=$new_bench; [ $v = old ] && b=$old_bench
    (cd "$root" && "$b" --bench "$seeds_src" 15) >"$work/fe-$v-$i" 2>&1
    awk -v v=$v '/smtstorm parse  /{p=$3} /parse \+ check/{c=$5} END {print "frontend", v, "parse", p, "check", c}' "$work/fe-$v-$i"
  done
done | tee "$work/fe"
for v in old new; do
  for what in parse check; do
    col=4; [ $what = check ] && col=6
    echo "frontend $v $what median: $(awk -v v=$v -v c=$col '$2 == v {print $c}' "$work/fe" | median) MB/s"
  done
done

for i in $(seq "$pairs"); do
  for v in old new; do
    bin=$CARGO_TARGET_DIR/release/smtstorm; [ $v = old ] && bin=$ab/target/release/smtstorm
    out=$work/camp-$v-$i
    (cd "$root" && "$bin" fuzz "$work/seeds" --engine opfuzz --solver z3-4.8.12 --solver z3-5.4.0 --workers 2 \
      --time "$secs" --seed 1 --timeout 2 --no-bisect --reduce 0 --quiet --out "$out" >/dev/null 2>&1) || true
    python3 - "$v" "$out" <<'PY'
import json, sys
v, out = sys.argv[1:]
s = [json.loads(l) for l in open(out + "/stats.jsonl") if l.strip()][-1]
print(f"campaign {v} mutants/s {s['mutants'] / s['elapsed']:.1f} own_cpu% {100 * s.get('own_cpu', 0) / s['elapsed']:.2f}")
PY
  done
done | tee "$work/camp"
for v in old new; do
  echo "campaign $v median: $(awk -v v=$v '$2 == v {print $4}' "$work/camp" | median) mutants/s, own CPU $(awk -v v=$v '$2 == v {print $6}' "$work/camp" | median) % of wall"
done
echo "uptime after: $(uptime)"
