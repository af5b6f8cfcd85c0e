#!/usr/bin/env bash
# Chaos run (not in CI): a campaign on corpus/ plus hostile seeds (file options with bare
# and quoted absolute paths, 100,000-deep nesting, a name that is not UTF-8, `echo` of
# error text, a seed directory behind a symlink) against a real z3 behind the fault proxy
# (crash, second crash, hang, flood, garbage, memory exhaustion, each on its own BV
# operator that OpFuzz reaches) and real z3 4.8.7 and yices, killed again and again at
# random instants with SIGKILL, SIGHUP or SIGINT (twice when the first does not end it),
# resumed each time, some runs with writes failing (RLIMIT_FSIZE, SIGXFSZ ignored).
# At the end it checks, and prints as one line of counts:
#   lost   = findings the events reported as stored that are not in the store (merged
#            ones count as their survivor), or stored twice (same dedup key);
#   false  = findings that are a resource kill or an injected non-crash fault;
#   leaked = solver or proxy processes left after smtstorm died, and files the hostile
#            seeds named outside the store (or the victim file changed).
# Exit status 0 only when all three are 0.
#
#   scripts/chaos.sh [SECONDS] [--hostile-only]   default 600; --hostile-only: no corpus/,
#                                                 so every hostile seed is screened and fuzzed
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${1:-600}
hostile_only=0
[ "${2:-}" = --hostile-only ] && hostile_only=1
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/smtstorm/target}
cargo build --release --quiet
bin=$CARGO_TARGET_DIR/release/smtstorm
[ -x .solvers/z3-5.4.0/bin/z3 ] && [ -x .solvers/z3-4.8.7/bin/z3 ] || scripts/setup-solvers.sh --minimal

work=$(mktemp -d /tmp/smtstorm-chaos.XXXXXX)
out=$work/out
proxy=$work/fault_proxy.py
cp tests/fixtures/fault_proxy.py "$proxy"
export FAULT_LOG=$work/injected.log
: >"$FAULT_LOG"
faults="crash-if:bvxor,crash7-if:bvsdiv,hang-if:bvnand,flood-if:bvnor,garbage-if:bvxnor,oom-if:bvsmod"
faulty="faulty=python3 $proxy $faults $root/.solvers/z3-5.4.0/bin/z3 -smt2"
# Hostile seeds: each names files under $work/outside (which must stay as it is).
seeds=$work/seeds
outside=$work/outside
mkdir -p "$seeds/hostile" "$outside"
echo "keep me" >"$outside/victim.txt"
[ $hostile_only = 1 ] || ln -s "$root/corpus" "$seeds/corpus"
body='(set-logic QF_BV)
(declare-const a (_ BitVec 8))
(declare-const b (_ BitVec 8))
(assert (= (bvxor a b) #x0f))
(check-sat)'
i=0
for opt in regular-output-channel diagnostic-output-channel err out sat.drat.file solver.smtlib2_log \
  trace_file_name dump_smt2 write-cnf write-aiger proof.log; do
  for v in "$outside/o$i" "|$outside/o$i|" "\"$outside/o$i\"" "$outside/victim.txt"; do
    printf '(set-option :%s %s)\n%s\n' "$opt" "$v" "$body" >"$seeds/hostile/opt$i.smt2"
    i=$((i + 1))
  done
done
printf '%s\n(echo "(error ""invalid model: fake"")")\n' "$body" >"$seeds/hostile/echo.smt2"
printf '%s\n' "$body" >"$seeds/hostile/$(printf 'not-utf8-\xff.smt2')"
python3 - "$seeds/hostile" <<'PY'
import sys
d = sys.argv[1]
n = 100_000
with open(f"{d}/deep-let.smt2", "w") as f:
    f.write("(set-logic QF_BV)\n(declare-const a (_ BitVec 8))\n(assert ")
    f.write("".join(f"(let ((x{i} a)) " for i in range(n)))
    f.write("(= a #x01)" + ")" * n + ")\n(check-sat)\n")
with open(f"{d}/deep-not.smt2", "w") as f:
    f.write("(set-logic QF_BV)\n(declare-const a (_ BitVec 8))\n(assert ")
    f.write("(not " * n + "(= a #x01)" + ")" * n + ")\n(check-sat)\n")
PY
cat >"$work/campaign.toml" <<EOF
seeds = ["$seeds"]
solvers = ["z3-4.8.7", "yices", "$faulty"]
engines = ["opfuzz", "typefuzz"]
workers = 2
timeout = 2.0
memory_mb = 1024
reduce = 5.0
EOF

# Processes of this chaos run: the proxy (by its path) and every solver, which runs in the
# store's scratch directory (other solvers on the machine are not ours to count).
mkdir -p "$out/scratch"
scratch=$(cd "$out/scratch" && pwd -P)
leftovers() {
  {
    pgrep -f "$proxy" || true
    for d in /proc/[0-9]*; do
      if [ "$(readlink "$d/cwd" 2>/dev/null)" = "$scratch" ]; then echo "${d#/proc/}"; fi
    done
  } | sort -u
}
declare -A kills=([KILL]=0 [HUP]=0 [INT]=0)
runs=0 fsize_runs=0 leaked=0 second_signals=0
deadline=$((SECONDS + seconds))
echo "chaos: ${seconds}s in $work"
while [ $SECONDS -lt $deadline ]; do
  runs=$((runs + 1))
  life=$((3 + RANDOM % 25))
  sig=$(printf 'KILL\nHUP\nINT\n' | shuf -n1)
  fsize=$((RANDOM % 4 == 0))
  (
    if [ $fsize = 1 ]; then
      trap '' XFSZ         # ignored signals stay ignored across exec: writes fail with EFBIG
      ulimit -f 4          # 4 KiB per file: events.jsonl and many meta.json writes fail
    fi
    exec "$bin" fuzz --config "$work/campaign.toml" --time 100000 --out "$out" --quiet
  ) >>"$work/runs.log" 2>&1 &
  pid=$!
  fsize_runs=$((fsize_runs + fsize))
  sleep "$life"
  kill -s "$sig" "$pid" 2>/dev/null || true
  kills[$sig]=$((kills[$sig] + 1))
  # A graceful stop may wait for a batch (2 s timeouts) and a reduction (5 s); then a
  # second signal ends it at once.
  for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    kill -s INT "$pid" 2>/dev/null || true
    second_signals=$((second_signals + 1))
  fi
  wait "$pid" 2>/dev/null || true
  # The store's lock must be free again and no solver may outlive smtstorm.
  for _ in $(seq 1 50); do [ -z "$(leftovers)" ] && break; sleep 0.1; done
  if [ -n "$(leftovers)" ]; then
    leaked=$((leaked + $(leftovers | wc -l)))
    { echo "after run $runs (SIG$sig):"; ps -o pid,ppid,etimes,args -p "$(leftovers | paste -sd,)"; } >>"$work/leaked.log" || true
    leftovers | xargs -r kill -9 2>/dev/null || true
  fi
done
# A last run that ends on its own, with its reductions.
"$bin" fuzz --config "$work/campaign.toml" --time 20 --out "$out" --quiet >>"$work/runs.log" 2>&1 || true
for _ in $(seq 1 50); do [ -z "$(leftovers)" ] && break; sleep 0.1; done
leaked=$((leaked + $(leftovers | wc -l)))
# Nothing the hostile seeds named may exist, and the victim keeps its content.
written=$(find "$outside" -type f ! -name victim.txt | wc -l)
if [ "$written" -gt 0 ] || [ "$(cat "$outside/victim.txt")" != "keep me" ]; then
  echo "files written outside the store:" >&2
  ls -la "$outside" >&2
  leaked=$((leaked + written + 1))
fi
[ -s "$work/leaked.log" ] && cat "$work/leaked.log" >&2

python3 - "$out" "$FAULT_LOG" "$runs" "$fsize_runs" "$second_signals" "$leaked" \
  "${kills[KILL]}" "${kills[HUP]}" "${kills[INT]}" <<'PY'
import collections, json, os, sys
out, log, runs, fsize, second, leaked, k9, hup, intr = sys.argv[1:]
events = []
for line in open(os.path.join(out, "events.jsonl"), errors="replace"):
    try:
        events.append(json.loads(line))
    except ValueError:
        pass  # a line torn by kill -9 or by the file-size limit
merged = {}
for e in events:
    if e.get("event") == "merged":
        merged[e["merged"]] = e["id"]
stored = {}
for top in ("bugs", "seed-findings"):
    for kind in os.listdir(os.path.join(out, top)) if os.path.isdir(os.path.join(out, top)) else []:
        for i in os.listdir(os.path.join(out, top, kind)):
            p = os.path.join(out, top, kind, i, "meta.json")
            if os.path.isfile(p):
                stored[i] = json.load(open(p))
lost = 0
for e in events:
    if e.get("event") != "finding":
        continue
    i = os.path.basename(e["dir"])
    while i not in stored and i in merged:
        i = merged[i]
    if i not in stored:
        lost += 1
        print("lost:", e["dir"], file=sys.stderr)
def key(m):
    top = "seed" if m["seed_finding"] else "fuzz"
    if m["kind"] == "crash":
        return (top, "crash", m["blamed"], m["signature"])
    return (top, m["kind"], m["blamed"], m["logic"], m["signature"], m.get("fixed_in"))
keys = collections.Counter(key(m) for m in stored.values())
lost += sum(n - 1 for n in keys.values() if n > 1)
false = 0
for i, m in stored.items():
    text = (m["signature"] + " " + " ".join(" ".join(a["outcomes"]) for a in m["answers"] if a["solver"] == m["blamed"])).lower()
    if any(w in text for w in ("memory", "resource", "s@t", "flood", "output exceeds", "sigkill", "sigxfsz")):
        false += 1
        print("false:", i, m["signature"], file=sys.stderr)
    if m["blamed"] == "faulty" and m["kind"] == "crash" and "core.cpp" not in m["signature"]:
        false += 1
        print("false (not an injected crash):", i, m["signature"], file=sys.stderr)
injected = collections.Counter(l.split()[0] for l in open(log) if l.strip())
not_stored = sum(1 for e in events if e.get("event") == "store-failed")
kinds = collections.Counter(m["kind"] + ("/seed" if m["seed_finding"] else "") for m in stored.values())
print(f"chaos: runs {runs} (kill -9 {k9}, SIGHUP {hup}, SIGINT {intr}, second signal {second}, "
      f"with failing writes {fsize}); injected {sum(injected.values())} ({dict(injected)}); "
      f"findings {len(stored)} ({dict(kinds)}), store-failed events {not_stored}; "
      f"lost {lost}, false {false}, leaked {leaked}")
sys.exit(0 if lost == 0 and false == 0 and int(leaked) == 0 else 1)
PY
