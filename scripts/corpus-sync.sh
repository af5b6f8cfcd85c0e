#!/usr/bin/env bash
# One corpus for libFuzzer, AFL++ and honggfuzz.
#
#   scripts/corpus-sync.sh [--minimize TARGET] OUT DIR...
#
# Copies every input found under the DIRs — libFuzzer corpus directories, AFL++ output
# directories (`<out>/*/queue/`, `crashes/`, `hangs/`), honggfuzz corpus and `--output`
# directories — into OUT as `<sha256>.smt2`, so identical inputs from different fuzzers are
# stored once and every fuzzer can read OUT as a seed directory. Fuzzer bookkeeping
# (AFL++'s `.state/`, `README.txt`, `fuzzer_stats`, `plot_data`, `cmdline`; honggfuzz's
# `HONGGFUZZ.REPORT.TXT`; libFuzzer's `-merge` control files) is skipped.
#
# With `--minimize TARGET`, the result is then minimised with libFuzzer's `-merge=1`
# using the cargo-fuzz build of TARGET (inputs that add no coverage are dropped).
# Prints how many inputs it saw, how many were new, and the corpus size.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
minimize=""
if [ "${1:-}" = "--minimize" ]; then
  minimize="${2:?--minimize needs a target name}"
  shift 2
fi
out="${1:?usage: corpus-sync.sh [--minimize TARGET] OUT DIR...}"
shift
mkdir -p "$out"
seen=0
new=0
while IFS= read -r -d '' f; do
  name="$(basename "$f")"
  case "$name" in
    README*|fuzzer_stats|plot_data|cmdline|fuzz_bitmap|HONGGFUZZ.REPORT.TXT|*.json|*.log|.*) continue ;;
  esac
  case "$f" in
    */.state/*|*/.synced/*) continue ;;
  esac
  seen=$((seen + 1))
  h="$(sha256sum "$f" | cut -d' ' -f1)"
  if [ ! -e "$out/$h.smt2" ]; then
    cp "$f" "$out/.$h.tmp" && mv "$out/.$h.tmp" "$out/$h.smt2"
    new=$((new + 1))
  fi
done < <(find "$@" -type f -print0)
echo "corpus-sync: $seen inputs seen, $new new, $(find "$out" -maxdepth 1 -name '*.smt2' | wc -l) in $out"

if [ -n "$minimize" ]; then
  bin="${SMTSTORM_FUZZ_TARGET_DIR:-$HOME/.cache/smtstorm/fuzz-target}/x86_64-unknown-linux-gnu/release/$minimize"
  if [ ! -x "$bin" ]; then
    (cd "$here/fuzz" && CARGO_TARGET_DIR="${SMTSTORM_FUZZ_TARGET_DIR:-$HOME/.cache/smtstorm/fuzz-target}" cargo fuzz build -s none "$minimize")
  fi
  min="$(mktemp -d)"
  "$bin" -merge=1 "$min" "$out" >/dev/null 2>&1
  # The merged inputs keep their names only if they are our hashes; rename to be sure.
  kept=0
  tmp="$(mktemp -d)"
  for f in "$min"/*; do
    [ -f "$f" ] || continue
    h="$(sha256sum "$f" | cut -d' ' -f1)"
    cp "$f" "$tmp/$h.smt2"
    kept=$((kept + 1))
  done
  rm -rf "${out:?}"/*.smt2
  mv "$tmp"/*.smt2 "$out"/ 2>/dev/null || true
  rm -rf "$min" "$tmp"
  echo "corpus-sync: minimised with $minimize -merge=1: $kept inputs kept"
fi
