#!/usr/bin/env bash
# Fails when a module of src/ imports a module on a higher floor, or another module of its
# own floor (layers.txt says which; test code is exempt). Each line it prints names the
# file, the line and the arrow that points up.
#
#   scripts/check-layers.sh [SRC_DIR] [LAYERS_FILE]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=${1:-$root/src}
layers=${2:-$root/layers.txt}
exec python3 - "$src" "$layers" <<'PY'
import pathlib, re, sys

src, layers_file = map(pathlib.Path, sys.argv[1:3])
# A floor is a non-empty line; its index counts the floors below it.
floor, k = {}, 0
for line in layers_file.read_text().splitlines():
    mods = line.split('#', 1)[0].split()
    if not mods:
        continue
    for m in mods:
        floor[m] = k
    k += 1

ref = re.compile(r'\b(?:crate|smtstorm)::([a-z_][a-z0-9_]*)')
bad, files, arrows = [], 0, 0
for f in sorted(src.rglob('*.rs')):
    rel = f.relative_to(src)
    top = rel.parts[0].removesuffix('.rs')
    if top in ('main', 'lib'):
        top = 'cli' if top == 'main' else None
    if top is None:
        continue
    if top not in floor:
        bad.append(f'{rel}: module {top!r} is on no floor of {layers_file.name}')
        continue
    files += 1
    if rel.name == 'tests.rs' or (len(rel.parts) > 1 and rel.parts[1] == 'tests'):
        continue
    depth = None  # brace depth at which a #[cfg(test)] item started
    level, pending_test = 0, False
    for n, line in enumerate(f.read_text().splitlines(), 1):
        code = line.split('//', 1)[0]
        if re.match(r'\s*#\[cfg\(test\)\]', code):
            pending_test = True
        in_test = depth is not None
        if pending_test and '{' in code and depth is None:
            depth, pending_test, in_test = level, False, True
        if not in_test:
            for m in ref.finditer(code):
                tgt = m.group(1)
                if tgt not in floor or tgt == top:
                    continue
                arrows += 1
                if floor[tgt] >= floor[top]:
                    how = 'up' if floor[tgt] > floor[top] else 'sideways'
                    bad.append(f'{rel}:{n}: {top} -> {tgt} points {how} ({line.strip()})')
        level += code.count('{') - code.count('}')
        if depth is not None and level <= depth:
            depth = None
print(f'check-layers: {files} files, {arrows} cross-module references, {len(bad)} against the floors')
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
