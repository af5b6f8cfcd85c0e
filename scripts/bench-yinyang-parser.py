#!/usr/bin/env python3
"""Anchor for BENCHMARKS.md: yinyang's parser (PyPI `yinyang`) on the same seed files.

usage: scripts/bench-yinyang-parser.py DIR [--limit N] [--timeout S]
Prints files, accepted, MB and MB/s (parse time only, files read beforehand).
"""
import argparse, os, sys, time

ap = argparse.ArgumentParser()
ap.add_argument("dir")
ap.add_argument("--limit", type=int, default=0, help="only the first N files (sorted)")
ap.add_argument("--timeout", type=int, default=30, help="yinyang's own per-file limit, seconds")
a = ap.parse_args()
from yinyang.src.parsing.Parse import parse_str  # noqa: E402

files = sorted(os.path.join(d, f) for d, _, fs in os.walk(a.dir) for f in fs if f.endswith(".smt2"))
if a.limit:
    files = files[: a.limit]
texts = [open(f, encoding="utf-8", errors="replace").read() for f in files]
size = sum(len(t.encode()) for t in texts)
ok = 0
t0 = time.perf_counter()
for t in texts:
    try:
        script, _ = parse_str(t, timeout_limit=a.timeout, silent=True)
        ok += script is not None
    except Exception:
        pass
dt = time.perf_counter() - t0
print(f"yinyang {len(files)} files, {ok} accepted, {size/1e6:.3f} MB, {dt:.1f} s, {size/1e6/dt:.3f} MB/s")
