#!/usr/bin/env python3
"""The house's rule, checked: each folder uses only the folders that the
graph in docs/ARCHITECTURE.md allows (the fenced block marked `layout`).

Two checks, because either alone can be fooled:
- every `#include "DIR/..."` of a file in a folder of the graph names that
  folder or one it may use;
- every symbol an object of that folder needs (nm -u) and that one of our
  objects defines is defined in that folder or one it may use.  Link order
  alone does not enforce this: an object pulled in earlier satisfies a later
  upward reference.

Usage: check_layout.py BUILD_DIR   (after `make all`).  Exit 1 on a breach.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Generated objects belong to the folder whose code they serve.
GENERATED = {"gen": "confine"}


def graph():
    text = open(os.path.join(ROOT, "docs", "ARCHITECTURE.md")).read()
    m = re.search(r"```layout\n(.*?)```", text, re.S)
    if not m:
        sys.exit("check-layout: docs/ARCHITECTURE.md has no ```layout block")
    g = {}
    for line in m.group(1).splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        name, _, uses = line.partition(":")
        g[name.strip().rstrip("/")] = {u.rstrip("/") for u in uses.split()}
    for d, uses in g.items():
        for u in uses:
            if u not in g:
                sys.exit(f"check-layout: {d} uses {u}, which the graph does not name")
    return g


def closure(g):
    """What each folder may use: what it names (not transitively: a folder
    names every folder it uses, so the graph says it in one place)."""
    return {d: uses | {d} for d, uses in g.items()}


def check_includes(g, allowed):
    bad = []
    inc = re.compile(r'^\s*#\s*include\s+"([^"/]+)/[^"]+"', re.M)
    for d in g:
        top = os.path.join(ROOT, d)
        if not os.path.isdir(top):
            continue
        for f in sorted(os.listdir(top)):
            if not f.endswith((".c", ".h")):
                continue
            src = open(os.path.join(top, f), encoding="utf-8", errors="replace").read()
            for m in inc.finditer(src):
                u = m.group(1)
                if u not in allowed[d]:
                    line = src.count("\n", 0, m.start()) + 1
                    bad.append(f"{d}/{f}:{line}: includes {u}/ (the graph lets {d}/ use: "
                               f"{', '.join(sorted(allowed[d] - {d})) or 'nothing'})")
    return bad


def nm(obj, *flags):
    out = subprocess.run(["nm", *flags, obj], capture_output=True, text=True, check=True).stdout
    return out.splitlines()


def check_symbols(g, allowed, build):
    defined = {}  # symbol -> folder
    objs = {}
    for d in list(g) + list(GENERATED):
        top = os.path.join(build, d)
        if not os.path.isdir(top):
            continue
        owner = GENERATED.get(d, d)
        for f in sorted(os.listdir(top)):
            if not f.endswith(".o"):
                continue
            o = os.path.join(top, f)
            objs.setdefault(owner, []).append(o)
            for line in nm(o, "--defined-only"):
                parts = line.split()
                if len(parts) == 3 and parts[1] in "TDBRVW" or (len(parts) == 3 and parts[1].isupper()):
                    defined.setdefault(parts[2], owner)
    bad = []
    for d, olist in objs.items():
        for o in olist:
            for line in nm(o, "-u"):
                sym = line.split()[-1]
                owner = defined.get(sym)
                if owner and owner not in allowed.get(d, {d}):
                    bad.append(f"{os.path.relpath(o, build)}: uses {sym} from {owner}/ "
                               f"(the graph lets {d}/ use: {', '.join(sorted(allowed[d] - {d})) or 'nothing'})")
    return bad


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    g = graph()
    allowed = closure(g)
    bad = check_includes(g, allowed) + check_symbols(g, allowed, sys.argv[1])
    for b in bad:
        print("check-layout: " + b)
    if bad:
        print(f"check-layout: {len(bad)} breaches of the graph in docs/ARCHITECTURE.md")
        return 1
    print(f"check-layout: {len(g)} folders, every include and symbol as the graph allows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
