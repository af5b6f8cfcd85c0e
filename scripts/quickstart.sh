#!/usr/bin/env bash
# First run on a fresh machine: installs pinned solvers into .solvers/ (if missing),
# builds smtstorm, and runs a real fuzzing campaign on the bundled corpus/ against an old
# z3 release (4.8.7, with known soundness bugs), the current z3, yices and cvc5, for a
# couple of minutes. Prints where the bugs and the report are.
#
#   scripts/quickstart.sh [OUT=quickstart-out] [SECONDS=120]
#
# Rerunning with the same OUT resumes the campaign (no finding is lost or stored twice).
# With SMTSTORM_CARGO_FUZZ=1 it also installs the nightly toolchain and cargo-fuzz (a few
# minutes, once), so that `cd fuzz && cargo fuzz run storm_target` works right after it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/smtstorm/target}
out=${1:-$root/quickstart-out}
secs=${2:-120}

scripts/setup-solvers.sh
cargo build --release
if [ "${SMTSTORM_CARGO_FUZZ:-0}" = 1 ]; then
  echo "== cargo-fuzz and the nightly toolchain (for fuzz/)"
  rustup toolchain install nightly --profile minimal
  command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --locked
fi
bin="$CARGO_TARGET_DIR/release/smtstorm"
mkdir -p "$out"

echo "== installed solvers"
"$bin" solvers
echo "== corpus/: parse, round trip, sort check"
"$bin" parse corpus --check | tail -n 6
echo "== fuzzing corpus/ for $secs s: z3 4.8.7, z3 5.4.0, yices, cvc5; engines opfuzz, typefuzz, valfuzz, storm, bec, config, fusion;"
echo "   then each new finding is reduced (at most 20 s each)"
status=0
"$bin" fuzz corpus --solver z3-4.8.7 --solver z3-5.4.0 --solver yices --solver cvc5 \
  --time "$secs" --timeout 5 --reduce 20 --out "$out/campaign" || status=$?
case $status in
  0) echo "no new findings in this run (a rerun resumes the same store: earlier ones are in its report)" ;;
  10) ;;
  *) echo "smtstorm fuzz failed (exit $status)" >&2; exit "$status" ;;
esac
echo
sed -n '/^## Bugs found/,$p' "$out/campaign/report.md" | head -n 40
echo
echo "bugs:          $out/campaign/bugs/<kind>/<id>/{trigger.smt2,reduced.smt2,meta.json,report.md,report.html}"
echo "seed findings: $out/campaign/seed-findings/ (the unmodified seed already fails)"
echo "report:        $out/campaign/report.md and $out/campaign/report.html"
echo "events:        $out/campaign/events.jsonl (JSON lines), stats: $out/campaign/stats.jsonl"
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  echo "cargo-fuzz:    not installed; for fuzz/: rustup toolchain install nightly && cargo install cargo-fuzz --locked"
fi
