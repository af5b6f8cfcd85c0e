#!/usr/bin/env bash
# Fails when a module of src/ imports a module on a higher floor, or another module of its
# own floor (layers.txt says which; test code is exempt). It reads paths (`crate::x`) and
# `use` groups (`use crate::{x, y::{z}};`, over several lines too). Each line it prints
# names the file, the line and the arrow that points up.
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

# A path into the crate: `crate::name` (or `smtstorm::name`, the binary's view of it),
# or a group `crate::{a, b::{c, d}, e as f}` whose top-level items each name a module.
ref = re.compile(r'\b(?:crate|smtstorm)\s*::\s*(?:([a-z_][a-z0-9_]*)|(\{))')
ident = re.compile(r'\s*(?:r#)?([A-Za-z_][A-Za-z0-9_]*)')


def group_items(text, at):
    """The first identifiers of the top-level items of the `{...}` group opening at
    `at`, with their offsets: `{a, b::{c}, self}` gives a, b and self."""
    out, depth, i, start = [], 0, at, at + 1
    while i < len(text):
        ch = text[i]
        if ch == '{':
            depth += 1
        elif ch == '}':
            depth -= 1
        if (ch == ',' and depth == 1) or depth == 0:
            m = ident.match(text, start, i)
            if m:
                out.append((m.group(1), m.start(1)))
            start = i + 1
            if depth == 0:
                break
        i += 1
    return out


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
    lines = f.read_text().splitlines()
    kept = []  # the file without comments and test items, one entry a line
    for n, line in enumerate(lines, 1):
        code = line.split('//', 1)[0]
        if re.match(r'\s*#\[cfg\(test\)\]', code):
            pending_test = True
        in_test = depth is not None
        if pending_test and '{' in code and depth is None:
            depth, pending_test, in_test = level, False, True
        kept.append('' if in_test else code)
        level += code.count('{') - code.count('}')
        if depth is not None and level <= depth:
            depth = None
    # Joined, so that a `use` group spread over lines is read whole.
    text = '\n'.join(kept)
    targets = []
    for m in ref.finditer(text):
        if m.group(1):
            targets.append((m.group(1), m.start(1)))
        else:
            targets.extend(group_items(text, m.start(2)))
    for tgt, at in targets:
        if tgt not in floor or tgt == top:
            continue
        arrows += 1
        if floor[tgt] >= floor[top]:
            n = text.count('\n', 0, at) + 1
            how = 'up' if floor[tgt] > floor[top] else 'sideways'
            bad.append(f'{rel}:{n}: {top} -> {tgt} points {how} ({lines[n - 1].strip()})')
print(f'check-layers: {files} files, {arrows} cross-module references, {len(bad)} against the floors')
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
