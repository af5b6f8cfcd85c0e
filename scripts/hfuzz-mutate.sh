#!/usr/bin/env bash
# honggfuzz external mutator (--mutate_cmd): rewrites the input file in place with one
# structured mutant from `smtstorm mutate` (engine: $SMTSTORM_ENGINE, default opfuzz). An
# input without a structured mutant is left as it is.
set -u
f="$1"
bin="${SMTSTORM_BIN:-${CARGO_TARGET_DIR:-$HOME/.cache/smtstorm/target}/release/smtstorm}"
tmp="$f.smtstorm-$$"
if "$bin" mutate --engine "${SMTSTORM_ENGINE:-opfuzz}" --seed "$RANDOM$RANDOM" "$f" > "$tmp" 2>/dev/null && [ -s "$tmp" ]; then
  mv "$tmp" "$f"
else
  rm -f "$tmp"
fi
exit 0
