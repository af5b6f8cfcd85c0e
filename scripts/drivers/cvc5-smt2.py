#!/usr/bin/env python3
"""cvc5 as an SMT-LIB command-line solver, over cvc5's official Python package.

Installed by scripts/setup-solvers.sh (the package goes to .solvers/cvc5/py). Behaves like
the cvc5 binary on what smtstorm uses:
  cvc5-smt2.py [--OPTION=VALUE ...] FILE     solve a file
  cvc5-smt2.py [--OPTION=VALUE ...]          read commands from stdin (interactive session)
Options are passed to Solver.setOption (`--tlimit-per=MS`, `--incremental`, ...);
`--lang=smt2` is accepted and ignored. An error is printed as `(error "...")` and, as the
cvc5 binary does on parse errors, ends the process with status 1.
"""
import os, sys

here = os.path.dirname(os.path.abspath(__file__))
for p in (os.environ.get("SMTSTORM_CVC5_PY"), os.path.join(here, "py")):
    if p and os.path.isdir(p):
        sys.path.insert(0, p)
import cvc5  # noqa: E402

opts, files = [], []
for a in sys.argv[1:]:
    if a.startswith("--"):
        k, _, v = a[2:].partition("=")
        if k in ("lang", "input-language"):
            continue
        opts.append((k, v or "true"))
    elif a == "--version":
        pass
    else:
        files.append(a)
if "--version" in sys.argv[1:]:
    print("cvc5 version", cvc5.Solver().getVersion().decode() if isinstance(cvc5.Solver().getVersion(), bytes) else cvc5.Solver().getVersion(), "(python driver)")
    sys.exit(0)


def new_solver():
    s = cvc5.Solver()
    for k, v in opts:
        s.setOption(k, v)
    return s, cvc5.SymbolManager(s)


def commands(text):
    """Yields complete top-level commands of `text`; the incomplete tail is returned last
    as (None, tail)."""
    i, n, start, depth = 0, len(text), None, 0
    while i < n:
        c = text[i]
        if c == ";" and depth == 0 and start is None:
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
            continue
        if c == '"':
            j = i + 1
            while True:
                j = text.find('"', j)
                if j < 0:
                    j = n
                    break
                if j + 1 < n and text[j + 1] == '"':
                    j += 2
                    continue
                break
            i = j + 1
            continue
        if c == "|":
            j = text.find("|", i + 1)
            i = n if j < 0 else j + 1
            continue
        if c == ";":
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
            continue
        if c == "(":
            if depth == 0:
                start = i
            depth += 1
        elif c == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                yield text[start:i + 1]
                start = None
        i += 1
    yield (None, text[start:] if start is not None else "")


solver, sm = new_solver()


def run(cmd_text):
    global solver, sm
    parser = cvc5.InputParser(solver, sm)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, cmd_text, "input")
    try:
        while True:
            cmd = parser.nextCommand()
            if cmd.isNull():
                break
            if cmd.getCommandName() == "reset":
                # A fresh solver: the options are set again, as cvc5's CLI does on reset.
                solver, sm = new_solver()
                continue
            out = cmd.invoke(solver, sm)
            if out:
                sys.stdout.write(out)
            if cmd.getCommandName() == "exit":
                sys.stdout.flush()
                sys.exit(0)
    except Exception as e:  # cvc5 raises on parse and type errors
        msg = str(e).replace('"', '""')
        sys.stdout.write('(error "%s")\n' % msg)
        sys.stdout.flush()
        sys.exit(1)
    sys.stdout.flush()


if files:
    with open(files[0]) as f:
        for c in commands(f.read()):
            if isinstance(c, tuple):
                if c[1].strip():
                    sys.stdout.write('(error "unexpected end of input")\n')
                    sys.exit(1)
                break
            run(c)
else:
    pending = ""
    for line in sys.stdin:
        pending += line
        rest = ""
        for c in commands(pending):
            if isinstance(c, tuple):
                rest = c[1]
            else:
                run(c)
        pending = rest
