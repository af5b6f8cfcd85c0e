#!/usr/bin/env python3
"""cvc5 or bitwuzla as an SMT-LIB command-line solver, over their official Python packages.

scripts/setup-solvers.sh installs the packages under .solvers/<solver>/py and this file as
.solvers/cvc5/cvc5-smt2 and .solvers/bitwuzla/bitwuzla-smt2; the backend comes from that
name (or --backend=cvc5|bitwuzla). It behaves like the solver binaries on what smtstorm
uses:
  NAME [--OPTION=VALUE ...] FILE     solve a file
  NAME [--OPTION=VALUE ...]          read commands from stdin (interactive session)
  NAME --version
  NAME --smtstorm-options            its options as JSON (smtstorm's configuration engine)
Options go to the solver (cvc5: any option, e.g. --tlimit-per=MS; bitwuzla:
--time-limit-per=MS, --produce-models); --lang=smt2 and --incremental are accepted. An
error is printed as `(error "...")` and, as the binaries do on parse errors, ends the
process with status 1. `(reset)` starts a fresh solver with the same options.
"""
import os, sys

here = os.path.dirname(os.path.abspath(__file__))
backend = os.path.basename(sys.argv[0]).split("-")[0]
opts, files = [], []
for a in sys.argv[1:]:
    if a.startswith("--backend="):
        backend = a.split("=", 1)[1]
    elif a.startswith("--"):
        k, _, v = a[2:].partition("=")
        if k not in ("lang", "input-language", "version", "smtstorm-options"):
            opts.append((k, v or "true"))
    else:
        files.append(a)
for p in (os.environ.get("SMTSTORM_%s_PY" % backend.upper()), os.path.join(here, "py")):
    if p and os.path.isdir(p):
        sys.path.insert(0, p)


class Cvc5:
    def __init__(self):
        import cvc5
        self.m = cvc5
        self.reset()

    def version(self):
        v = self.m.Solver().getVersion()
        return "cvc5 version %s" % (v.decode() if isinstance(v, bytes) else v)

    def option_table(self):
        """Every option cvc5 lists (aliases once), as smtstorm's configuration engine reads
        it (issue 23): name, category (cvc5's `--safe-options` allows common and regular
        ones), type, default and, for a mode, its values."""
        s, out = self.m.Solver(), []
        for n in s.getOptionNames():
            i = s.getOptionInfo(n)
            if i["name"] != n:
                continue
            t = i.get("type")
            t = {bool: "bool", int: "int", float: "double", str: "string"}.get(t, t if isinstance(t, str) else None)
            out.append({"name": n, "category": str(i["category"]).rsplit(".", 1)[-1].lower(), "type": t,
                        "default": None if i.get("default") is None else str(i["default"]).lower(),
                        "modes": [str(m) for m in i.get("modes", [])]})
        return out

    def reset(self):
        self.solver = self.m.Solver()
        for k, v in opts:
            if k != "incremental":
                self.solver.setOption(k, v)
        self.solver.setOption("incremental", "true")
        self.sm = self.m.SymbolManager(self.solver)

    def run(self, text):
        parser = self.m.InputParser(self.solver, self.sm)
        parser.setStringInput(self.m.InputLanguage.SMT_LIB_2_6, text, "input")
        while True:
            cmd = parser.nextCommand()
            if cmd.isNull():
                return
            out = cmd.invoke(self.solver, self.sm)
            if out:
                sys.stdout.write(out)
            if cmd.getCommandName() == "exit":
                sys.stdout.flush()
                sys.exit(0)


class Bitwuzla:
    def __init__(self):
        import bitwuzla
        self.m = bitwuzla
        self.reset()

    def version(self):
        return "bitwuzla %s" % self.m.version()

    def option_table(self):
        """Every option bitwuzla lists, as smtstorm's configuration engine reads it (issue
        23): long name (what `(set-option :NAME VALUE)` takes), type, default, for a
        mode its values, and the description. bitwuzla has no categories; smtstorm
        classifies by name and description."""
        o, out = self.m.Options(), []
        for opt in self.m.Option:
            t = "bool" if o.is_bool(opt) else "int" if o.is_numeric(opt) else "mode" if o.is_mode(opt) else "string"
            d = o.get(opt)
            out.append({"name": o.lng(opt), "category": "", "type": t,
                        "default": None if d is None else str(d).lower(),
                        "modes": [str(m) for m in o.modes(opt)] if t == "mode" else [],
                        "description": o.description(opt)})
        return out

    def reset(self):
        b = self.m
        self.tm = b.TermManager()
        o = b.Options()
        for k, v in opts:
            if k == "time-limit-per":
                o.set(b.Option.TIME_LIMIT_PER, int(v))
            elif k == "produce-models":
                o.set(b.Option.PRODUCE_MODELS, v == "true")
            elif k == "memory-limit":
                o.set(b.Option.MEMORY_LIMIT, int(v))
        self.options = o
        self.parser = b.Parser(self.tm, o)
        # The commands that built the assertion stack, per level (a level starts with its
        # push). bitwuzla 0.9.1's parser counts pushes per parse() call, so a (pop) in a
        # later call than its (push) is refused ("attempting to pop '1' but only '1'
        # have been pushed previously"); a pop is done instead by a fresh parser that
        # replays the levels that remain, in one call.
        self.levels = [[]]
        # Start-mode commands not yet parsed. bitwuzla 0.9.1 drops a
        # `(set-option :produce-models true)` given in a later parse() call than another
        # set-option ("model production not enabled"); in one call it reads both, as its
        # binary does. They are parsed together with the next other command.
        self.pending = []

    def run(self, text):
        word = text.strip().lstrip("(").split(None, 1)
        name = word[0].rstrip(")") if word else ""
        if name == "exit":
            sys.exit(0)
        if name in ("set-option", "set-info", "set-logic"):
            self.pending.append(text)
            return
        own = text
        if self.pending:
            start, self.pending = self.pending, []
            if name == "pop":
                self.parser.parse("".join(start), False, False)
            else:
                text = "".join(start) + text
            self.levels[-1].extend(start)
        if name == "pop":
            n = int(word[1].strip(" )\t\n") or 1) if len(word) > 1 else 1
            if n >= len(self.levels):
                raise RuntimeError("attempting to pop %d levels, %d pushed" % (n, len(self.levels) - 1))
            kept = self.levels[:-n]
            self.parser = self.m.Parser(self.tm, self.options)
            self.parser.parse("".join(c for level in kept for c in level), False, False)
            self.levels = kept
            return
        self.parser.parse(text, False, False)
        if name == "push":
            n = int(word[1].strip(" )\t\n") or 1) if len(word) > 1 else 1
            self.levels.extend([[own]] + [[] for _ in range(n - 1)])
        elif not (name.startswith("check-sat") or name.startswith("get-") or name == "echo"):
            self.levels[-1].append(own)


def commands(text):
    """Yields the complete top-level commands of `text`, then (None, incomplete tail)."""
    i, n, start, depth = 0, len(text), None, 0
    while i < n:
        c = text[i]
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


solver = {"cvc5": Cvc5, "bitwuzla": Bitwuzla}[backend]()
if "--version" in sys.argv[1:]:
    print(solver.version(), "(python driver)")
    sys.exit(0)
if "--smtstorm-options" in sys.argv[1:]:
    if not hasattr(solver, "option_table"):
        sys.stdout.write('(error "no option table for %s")\n' % backend)
        sys.exit(1)
    import json
    print(json.dumps(solver.option_table()))
    sys.exit(0)


def run(cmd):
    if cmd.lstrip("( \t\n").startswith("reset") and cmd.strip("() \t\n") == "reset":
        solver.reset()
        return
    try:
        solver.run(cmd)
    except SystemExit:
        raise
    except Exception as e:  # both packages raise on parse and type errors
        sys.stdout.flush()
        sys.stdout.write('(error "%s")\n' % str(e).replace('"', '""'))
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
