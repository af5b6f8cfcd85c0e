#!/usr/bin/env bash
# Build z3 (the source of the `z3-src` crate) as a static library whose own code carries
# libFuzzer's coverage instrumentation (`-fsanitize-coverage=inline-8bit-counters,pc-table`),
# for the `z3-inprocess` feature of the fuzz targets (issue 9): libFuzzer then sees z3's edges
# as `cov:`, not only smtstorm's.
#
# Why this exact toolchain: z3 5.3 needs C++20 library parts that Debian 12's gcc 12 lacks;
# it builds with clang-16 + libc++ 16 (with -fexperimental-library for std::jthread & co.)
# and CMake >= 3.26 (from PyPI; Debian 12 has 3.25). The build takes ~40 minutes on 2 cores,
# so everything that decides its output is pinned here and recorded in a stamp: the library is
# rebuilt only when one of them changes, never because some unrelated variable did.
#
# Not part of .ci/run. Usage: scripts/build-instrumented-z3.sh [--force]
# Output: $SMTSTORM_Z3_INSTRUMENTED (default ~/.cache/smtstorm/z3-instrumented)/{lib/libz3.a,include/}
set -euo pipefail

Z3_SRC_VERSION=503.3.0
CMAKE_VERSION=3.31.6
NINJA_VERSION=1.11.1.4
CLANG=clang-16
CLANGXX=clang++-16
SANCOV="-fsanitize-coverage=inline-8bit-counters,pc-table"
CXXFLAGS_PINNED="-stdlib=libc++ -fexperimental-library"

cache=${SMTSTORM_CACHE:-$HOME/.cache/smtstorm}
out=${SMTSTORM_Z3_INSTRUMENTED:-$cache/z3-instrumented}
work=$cache/z3-instrumented-build
tools=$cache/z3-build-tools
force=0
[[ ${1:-} == --force ]] && force=1

say() { printf '[build-instrumented-z3] %s\n' "$*" >&2; }

# 1. Compiler and C++ library (Debian packages; the only step that needs root).
if ! command -v "$CLANGXX" >/dev/null || [[ ! -e /usr/lib/llvm-16/lib/libc++.so ]]; then
    say "installing clang-16, libc++-16 from Debian"
    sudo=""
    [[ $(id -u) -ne 0 ]] && sudo=sudo
    $sudo apt-get install -y clang-16 libc++-16-dev libc++abi-16-dev >&2
fi

# 2. CMake and ninja from PyPI, in a venv of their own.
if [[ ! -x $tools/bin/cmake ]] || ! "$tools/bin/cmake" --version | grep -q "$CMAKE_VERSION"; then
    say "installing cmake $CMAKE_VERSION and ninja $NINJA_VERSION into $tools"
    python3 -m venv "$tools"
    "$tools/bin/pip" install --quiet "cmake==$CMAKE_VERSION" "ninja==$NINJA_VERSION"
fi

# 3. z3's source: the z3-src crate at a pinned version, through cargo's own registry cache.
probe=$cache/z3-src-fetch
mkdir -p "$probe/src"
cat >"$probe/Cargo.toml" <<EOF
[package]
name = "z3-src-fetch"
version = "0.0.0"
edition = "2021"
publish = false
[dependencies]
z3-src = "=$Z3_SRC_VERSION"
[workspace]
EOF
echo 'fn main() {}' >"$probe/src/main.rs"
(cd "$probe" && cargo fetch --quiet)
src=$(cd "$probe" && cargo metadata --format-version 1 --quiet |
    python3 -c 'import json,sys; m=json.load(sys.stdin); print([p for p in m["packages"] if p["name"]=="z3-src"][0]["manifest_path"])')
src=$(dirname "$src")/z3
[[ -f $src/CMakeLists.txt ]] || { say "no z3 source in $src"; exit 1; }

stamp="z3-src=$Z3_SRC_VERSION cmake=$CMAKE_VERSION ninja=$NINJA_VERSION cxx=$($CLANGXX --version | head -1) flags=$CXXFLAGS_PINNED $SANCOV"
if [[ $force -eq 0 && -f $out/lib/libz3.a && -f $out/STAMP && $(cat "$out/STAMP") == "$stamp" ]]; then
    say "up to date: $out/lib/libz3.a"
    exit 0
fi

# 4. A compiler launcher that instruments z3's own translation units only. CMake's
#    configure-time test programs also pass through the launcher; instrumenting them would
#    leave __sanitizer_cov_* undefined at their link and fail the configuration.
mkdir -p "$work"
launcher=$work/sancov-launcher
cat >"$launcher" <<EOF
#!/usr/bin/env bash
for a in "\$@"; do
    case \$a in
        $src/src/*.cpp) exec "\$@" $SANCOV ;;
    esac
done
exec "\$@"
EOF
chmod +x "$launcher"

say "configuring z3 $(cat "$src/scripts/VERSION.txt") from $src"
start=$(date +%s)
rm -rf "$work/build"
# A pinned environment: nothing from the caller's CFLAGS/CXXFLAGS/CC/CXX reaches the build.
env -i PATH="$tools/bin:/usr/bin:/bin" HOME="$HOME" \
    "$tools/bin/cmake" -S "$src" -B "$work/build" -G Ninja \
    -DCMAKE_MAKE_PROGRAM="$tools/bin/ninja" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$CLANG" -DCMAKE_CXX_COMPILER="$CLANGXX" \
    -DCMAKE_CXX_FLAGS="$CXXFLAGS_PINNED" \
    -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" \
    -DCMAKE_INSTALL_PREFIX="$out" \
    -DZ3_BUILD_LIBZ3_SHARED=false -DZ3_BUILD_EXECUTABLE=false \
    -DZ3_BUILD_TEST_EXECUTABLES=false -DZ3_ENABLE_EXAMPLE_TARGETS=false \
    -DZ3_BUILD_PYTHON_BINDINGS=false >&2
say "building (about 40 minutes on 2 cores)"
env -i PATH="$tools/bin:/usr/bin:/bin" HOME="$HOME" \
    "$tools/bin/cmake" --build "$work/build" --parallel "$(nproc)" >&2
rm -rf "$out"
env -i PATH="$tools/bin:/usr/bin:/bin" HOME="$HOME" "$tools/bin/cmake" --install "$work/build" >&2
[[ -d $out/lib64 && ! -d $out/lib ]] && mv "$out/lib64" "$out/lib"
echo "$stamp" >"$out/STAMP"
counters=$(llvm-nm-16 "$out/lib/libz3.a" 2>/dev/null | grep -c 'sancov.module_ctor_8bit_counters' || true)
say "done in $(($(date +%s) - start)) s: $out/lib/libz3.a ($counters instrumented modules)"
