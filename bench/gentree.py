# Realistic projects for bench/project.sh, generated, deterministic.
#
#   python3 gentree.py tree DIRS DEST   a JavaScript project whose
#       node_modules holds packages until the tree has DIRS directories:
#       each package a handful of directories (lib/, dist/, src/ with
#       subdirectories, sometimes test/ and a nested node_modules/) with
#       package.json, README.md, LICENSE and a few small .js files in each
#       directory (a real node_modules has 5-10 entries a directory).
#   python3 gentree.py git FILES COMMITS DEST   a git repository of FILES
#       files in directories of ~20, with COMMITS commits each changing a
#       few files, written with git fast-import, then checked out (what a
#       clone of a mid-sized project looks like: one pack, a work tree).
#
# DEST must not exist.  Prints the number of directories and files made.
import os
import random
import subprocess
import sys


def tree(dirs, dest):
    rng = random.Random(dirs)
    made = [0, 0]  # directories, files

    def d(path):
        os.mkdir(path)
        made[0] += 1

    def f(path, text=""):
        with open(path, "w") as fh:
            fh.write(text)
        made[1] += 1

    d(dest)
    f(os.path.join(dest, "package.json"), '{"name": "bench"}\n')
    d(os.path.join(dest, "src"))
    for i in range(20):
        f(os.path.join(dest, "src", f"m{i}.js"), "module.exports = 1;\n")
    nm = os.path.join(dest, "node_modules")
    d(nm)
    pkg = 0

    def package(parent, depth):
        nonlocal pkg
        pkg += 1
        p = os.path.join(parent, f"pkg-{pkg:06d}")
        d(p)
        f(os.path.join(p, "package.json"), '{"name": "p%d"}\n' % pkg)
        f(os.path.join(p, "README.md"))
        f(os.path.join(p, "LICENSE"))
        f(os.path.join(p, "index.js"))
        for top in ("lib", "dist", "src") + (("test",) if rng.random() < 0.3 else ()):
            t = os.path.join(p, top)
            d(t)
            for j in range(rng.randint(2, 6)):
                f(os.path.join(t, f"f{j}.js"))
            for k in range(rng.randint(0, 3)):
                s = os.path.join(t, f"sub{k}")
                d(s)
                for j in range(rng.randint(1, 8)):
                    f(os.path.join(s, f"g{j}.js"))
        if depth < 2 and rng.random() < 0.15:
            inner = os.path.join(p, "node_modules")
            d(inner)
            for _ in range(rng.randint(1, 3)):
                if made[0] < dirs:
                    package(inner, depth + 1)

    while made[0] < dirs:
        package(nm, 0)
    print(f"{made[0]} directories, {made[1]} files")


def git(files, commits, dest):
    rng = random.Random(files * 31 + commits)
    os.mkdir(dest)
    env = dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null",
               GIT_CONFIG_SYSTEM="/dev/null", GIT_AUTHOR_NAME="bench",
               GIT_AUTHOR_EMAIL="bench@bench.test", GIT_COMMITTER_NAME="bench",
               GIT_COMMITTER_EMAIL="bench@bench.test")
    subprocess.run(["git", "init", "-q", "-b", "main", dest], check=True, env=env)
    names = [f"d{i // 20 // 20:03d}/e{i // 20 % 20:02d}/f{i % 20:02d}.c"
             for i in range(files)]
    fi = subprocess.Popen(["git", "-C", dest, "fast-import", "--quiet"],
                          stdin=subprocess.PIPE, env=env)
    out = fi.stdin
    mark = 0

    def blob(text):
        nonlocal mark
        mark += 1
        data = text.encode()
        out.write(b"blob\nmark :%d\ndata %d\n%s\n" % (mark, len(data), data))
        return mark

    t = 1700000000
    for c in range(commits):
        changed = names if c == 0 else rng.sample(names, min(5, len(names)))
        marks = [(n, blob(f"/* {n} rev {c} */\nint x{c};\n")) for n in changed]
        msg = f"commit {c}".encode()
        out.write(b"commit refs/heads/main\n")
        out.write(b"committer bench <bench@bench.test> %d +0000\n" % (t + c * 60))
        out.write(b"data %d\n%s\n" % (len(msg), msg))
        for n, m in marks:
            out.write(b"M 100644 :%d %s\n" % (m, n.encode()))
    out.close()
    if fi.wait() != 0:
        sys.exit("gentree.py: git fast-import failed")
    subprocess.run(["git", "-C", dest, "checkout", "-q", "-f", "main"],
                   check=True, env=env)
    n_dirs = sum(1 for _ in os.walk(dest))
    print(f"{n_dirs} directories (with .git), {files} files, {commits} commits")


def main():
    a = sys.argv[1:]
    if len(a) == 3 and a[0] == "tree":
        tree(int(a[1]), a[2])
    elif len(a) == 4 and a[0] == "git":
        git(int(a[1]), int(a[2]), a[3])
    else:
        sys.exit("usage: gentree.py tree DIRS DEST | git FILES COMMITS DEST")


main()
