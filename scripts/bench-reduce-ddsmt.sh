#!/usr/bin/env bash
# Side-by-side reduction benchmark: ddSMT 2.0.6 (PyPI, default settings) against
# `smtstorm reduce` on the same findings, with the same checker script, on the same
# machine, one run each.
#
#   scripts/bench-reduce-ddsmt.sh OUT FINDING_DIR...
#
# Each FINDING_DIR is a stored finding (bugs/<kind>/<id> with meta.json, inside a campaign
# directory with campaign.json). For each, a checker script is written from meta.json that
# accepts exactly the same symptom (soundness: every solver with a definite answer gives
# the same answer; crash: the same signal or assertion text; invalid model: the blamed
# solver's validation still fails), then:
#   ddsmt trigger.smt2 out.ddsmt.smt2 ./check.sh
#   smtstorm reduce trigger.smt2 out.smtstorm.smt2 -- ./check.sh
#   smtstorm reduce FINDING_DIR            (built-in judge from meta.json; BENCH_NO_BUILTIN=1
#                                           skips it)
# and every output is re-checked with the checker (symptom slippage = a result the
# checker rejects, or for a crash a different top three frames under gdb). A table goes to OUT/table.md and the raw numbers to OUT/results.jsonl.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: bench-reduce-ddsmt.sh OUT FINDING_DIR...}"
shift
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/smtstorm/target}"
venv="$HOME/.cache/smtstorm/ddsmt"
if [ ! -x "$venv/bin/ddsmt" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q ddsmt==2.0.6
fi
(cd "$here" && cargo build --release -q)
bin="$CARGO_TARGET_DIR/release/smtstorm"
mkdir -p "$out"
: > "$out/results.jsonl"
{
  echo "| finding | kind | logic | original B | ddSMT s | ddSMT B | smtstorm (same checker) s | B | smtstorm built-in s | B | slippage |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
} > "$out/table.md"

for dir in "$@"; do
  dir="$(cd "$dir" && pwd)"
  id="$(basename "$dir")"
  case="$out/$id"
  rm -rf "$case"
  mkdir -p "$case"
  # The trigger without the STORM witness comment (ddSMT drops comments anyway).
  grep -v '^; smtstorm-witness: ' "$dir/trigger.smt2" > "$case/input.smt2"
  python3 - "$dir" "$case/check.sh" <<'PY'
import json, os, shlex, sys
d, dst = sys.argv[1], sys.argv[2]
m = json.load(open(os.path.join(d, "meta.json")))
camp = json.load(open(os.path.join(d, "..", "..", "..", "campaign.json")))
cmds = {s["name"]: s["command"] for s in camp["solvers"]}
fam = {s["name"]: s["family"] for s in camp["solvers"]}
def run(name, extra=()):
    c = cmds[name]
    return "timeout 10 " + " ".join(shlex.quote(x) for x in list(c) + list(extra)) + ' "$1"'
lines = ["#!/usr/bin/env bash", "# Interesting iff finding %s (%s) still shows: %s" % (m["id"], m["kind"], m["signature"]),
         "exec 2>/dev/null  # silent: the verdict is the exit status alone"]
first = lambda out: '$(%s 2>/dev/null | grep -E "^(sat|unsat|unknown)$" | head -1)' % out
if m["kind"] == "soundness":
    for a in m["answers"]:
        o = a["outcomes"][0] if a["outcomes"] else ""
        if o in ("sat", "unsat"):
            lines.append('[ "%s" = %s ] || exit 1' % (first(run(a["solver"])), o))
    lines.append("exit 0")
elif m["kind"] == "crash":
    sig = m["signature"]
    b = m["blamed"]
    # The campaign confirms with model validation on (some crashes need it).
    extra = ["model_validate=true"] if fam[b] == "z3" else []
    # Crash messages go to either stream (z3 prints assertion violations on stdout).
    lines.append("%s >\"$1.err\" 2>&1; code=$?" % run(b, extra))
    # The blamed solver's command, for comparing crash states (gdb frames) afterwards.
    open(os.path.join(os.path.dirname(dst), "crash-argv"), "w").write(" ".join(shlex.quote(x) for x in list(cmds[b]) + extra))
    import re
    av = re.match(r"ASSERTION VIOLATION (\S+):(\d+)$", sig.split("\n")[0])
    if av:
        # Normalised from z3's "ASSERTION VIOLATION / File: ..../F / Line: L".
        lines.append("grep -q 'ASSERTION VIOLATION' \"$1.err\" || exit 1")
        lines.append("grep -q 'File: .*%s$' \"$1.err\" || exit 1" % re.escape(av.group(1)))
        lines.append("grep -q '^Line: %s$' \"$1.err\" || exit 1" % av.group(2))
    elif sig.startswith("SIG"):
        import signal
        num = getattr(signal, sig.split()[0].rstrip(":"), None)
        lines.append("[ $code -eq %d ] || exit 1" % (128 + int(num)))
    else:
        lines.append("grep -qF %s \"$1.err\" || exit 1" % shlex.quote(sig.split("\n")[0][:60]))
    lines.append("exit 0")
elif m["kind"] == "invalid-model":
    b = m["blamed"]
    opt = ["model_validate=true"] if fam[b] == "z3" else ["--check-models"]
    lines.append("%s 2>&1 | grep -q 'invalid model' || exit 1" % run(b, opt))
    lines.append("exit 0")
open(dst, "w").write("\n".join(lines) + "\n")
os.chmod(dst, 0o755)
PY
  kind="$(python3 -c "import json;print(json.load(open('$dir/meta.json'))['kind'])")"
  logic="$(python3 -c "import json;print(json.load(open('$dir/meta.json'))['logic'])")"
  if ! "$case/check.sh" "$case/input.smt2"; then
    echo "$id: the checker rejects the original; skipped" >&2
    continue
  fi
  orig=$(stat -c %s "$case/input.smt2")
  t0=$(date +%s.%N)
  "$venv/bin/ddsmt" --ignore-output "$case/input.smt2" "$case/out.ddsmt.smt2" "$case/check.sh" > "$case/ddsmt.log" 2>&1 || true
  t1=$(date +%s.%N)
  "$bin" reduce --verbose "$case/input.smt2" "$case/out.smtstorm.smt2" -- "$case/check.sh" > "$case/smtstorm.log" 2>&1 || true
  t2=$(date +%s.%N)
  runs="ddsmt smtstorm"
  if [ "${BENCH_NO_BUILTIN:-0}" != 1 ]; then
    runs="$runs builtin"
    # The built-in judge works on a copy of the finding (it writes reduced.smt2 and meta.json).
    cp -r "$dir" "$case/finding"
    mkdir -p "$case/camp/bugs/$kind"
    cp "$dir/../../../campaign.json" "$case/camp/"
    mv "$case/finding" "$case/camp/bugs/$kind/$id"
    "$bin" reduce "$case/camp/bugs/$kind/$id" > "$case/builtin.log" 2>&1 || true
    cp "$case/camp/bugs/$kind/$id/reduced.smt2" "$case/out.builtin.smt2" 2>/dev/null || true
  fi
  t3=$(date +%s.%N)
  slip=""
  # A crash without a message (a bare SIGSEGV) can slip to another crash that the checker
  # cannot tell apart: the top three frames gdb shows must be the input's.
  frames() { gdb -q -batch -ex run -ex bt --args $(cat "$case/crash-argv") "$1" 2>/dev/null | grep '^#' | head -3 \
    | sed -E 's/^#[0-9]+ +(0x[0-9a-f]+ in )?//; s/ \(.*//' || true; }
  want=""
  if [ -f "$case/crash-argv" ] && command -v gdb > /dev/null; then want="$(frames "$case/input.smt2")"; fi
  for r in $runs; do
    f="$case/out.$r.smt2"
    if [ ! -s "$f" ]; then slip="$slip $r:missing"; continue; fi
    g="$case/recheck.$r.smt2"
    grep -v '^; smtstorm-witness: ' "$f" > "$g" || true
    "$case/check.sh" "$g" || slip="$slip $r"
    if [ -n "$want" ] && [ "$(frames "$g")" != "$want" ]; then
      slip="$slip $r:frames"
      frames "$g" > "$case/frames.$r.txt"
    fi
  done
  [ -z "$want" ] || echo "$want" > "$case/frames.input.txt"
  size() { if [ -s "$1" ]; then grep -v '^; smtstorm-witness: ' "$1" | wc -c || true; else echo 0; fi; }
  sd=$(size "$case/out.ddsmt.smt2"); ss=$(size "$case/out.smtstorm.smt2"); sb=$(size "$case/out.builtin.smt2")
  # printf gives the leading zero bc leaves out (".4" is no JSON number).
  td=$(printf %.3f "$(echo "$t1 - $t0" | bc)"); ts=$(printf %.3f "$(echo "$t2 - $t1" | bc)"); tb=$(printf %.3f "$(echo "$t3 - $t2" | bc)")
  printf '| %s | %s | %s | %d | %.1f | %d | %.1f | %d | %.1f | %d | %s |\n' \
    "$id" "$kind" "$logic" "$orig" "$td" "$sd" "$ts" "$ss" "$tb" "$sb" "${slip:-none}" >> "$out/table.md"
  printf '{"id":"%s","kind":"%s","logic":"%s","original":%d,"ddsmt_s":%s,"ddsmt_bytes":%d,"smtstorm_s":%s,"smtstorm_bytes":%d,"builtin_s":%s,"builtin_bytes":%d,"slippage":"%s"}\n' \
    "$id" "$kind" "$logic" "$orig" "$td" "$sd" "$ts" "$ss" "$tb" "$sb" "${slip:-none}" >> "$out/results.jsonl"
  tail -1 "$out/table.md"
done
cat "$out/table.md"
