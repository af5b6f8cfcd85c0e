#!/usr/bin/env bash
# Performs the OSS-Fuzz / ClusterFuzzLite build (.clusterfuzzlite/build.sh) without Docker,
# in a temporary $SRC and $OUT, and checks the result the way the infrastructure uses it:
# every target binary, its seed corpus zip, dictionary and options are in $OUT; the
# solvers travel in $OUT/solvers with relative paths; each target runs from another
# directory (after $OUT is moved) on its unzipped seed corpus and finds its solvers.
#
#   scripts/check-oss-fuzz-build.sh [--asan]
#
# Default: `-s none` on stable (what CI can build); --asan: the infrastructure's default
# AddressSanitizer build on nightly.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
args="-s none"
toolchain=""
if [ "${1:-}" = "--asan" ]; then args=""; toolchain="+nightly"; fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export SRC="$tmp/src" OUT="$tmp/out"
mkdir -p "$SRC/smtstorm" "$OUT"
(cd "$here" && git ls-files -z | xargs -0 -I{} cp --parents {} "$SRC/smtstorm/")
export CARGO_TARGET_DIR="${SMTSTORM_OSS_FUZZ_TARGET_DIR:-$HOME/.cache/smtstorm/oss-fuzz-target}"
export SMTSTORM_FUZZ_BUILD_ARGS="$args"
# build.sh calls `cargo fuzz build`; a toolchain override goes through RUSTUP_TOOLCHAIN.
if [ -n "$toolchain" ]; then export RUSTUP_TOOLCHAIN=nightly; fi
bash "$SRC/smtstorm/.clusterfuzzlite/build.sh" > "$tmp/build.log" 2>&1 || { tail -30 "$tmp/build.log"; exit 1; }
fail=0
for t in parse_target opfuzz_target valfuzz_target storm_target; do
  for f in "$t" "${t}_seed_corpus.zip" "$t.dict" "$t.options"; do
    [ -s "$OUT/$f" ] || { echo "missing \$OUT/$f" >&2; fail=1; }
  done
done
[ -s "$OUT/solvers/solvers.toml" ] || { echo "missing \$OUT/solvers/solvers.toml" >&2; fail=1; }
if grep -q "\"$OUT" "$OUT/solvers/solvers.toml"; then echo "solvers.toml has absolute paths" >&2; fail=1; fi
# The infrastructure copies $OUT elsewhere before running.
moved="$tmp/moved-out"
mv "$OUT" "$moved"
for t in parse_target opfuzz_target valfuzz_target storm_target; do
  c="$tmp/corpus-$t"
  mkdir -p "$c"
  unzip -q "$moved/${t}_seed_corpus.zip" -d "$c"
  log="$tmp/$t.log"
  if (cd / && env -u SMTSTORM_SOLVERS_DIR "$moved/$t" "$c" -runs=300 -dict="$moved/$t.dict" -timeout=60 >"$log" 2>&1); then
    echo "$t: ok ($(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$log" || grep -m1 DONE "$log"))"
  elif grep -q "smtstorm: confirmed" "$log"; then
    echo "$t: ok (found a solver bug: $(grep -m1 -o 'smtstorm: confirmed.*' "$log"))"
  else
    tail -20 "$log" >&2
    echo "$t: FAILED" >&2
    fail=1
  fi
done
ls "$moved" | sed 's/^/  $OUT\//'
exit $fail
