# The review-mode benchmark's helpers (bench/review.sh); run as the bench
# user, and the first two inside the cage as well as on the host.
#
#   python3 -I -S repeat.py run N [CLEAN...] -- CMD [ARGS...]
#       Runs CMD N+1 times in the current directory, stdio on /dev/null;
#       before each run removes the CLEAN paths (untimed; so every
#       `npm install` starts from nothing; "DIR/": what DIR holds, not DIR,
#       which may be a mount point).  The first run is untimed;
#       prints "run MS" for each other.  Exits 1 if CMD fails.  A run
#       that has not ended after HANG_S seconds (env REPEAT_HANG_S,
#       default 300) is killed, said on stderr and run again, twice at
#       most: `npm install --offline` of a local tarball once sat idle
#       in epoll with no socket for 12 minutes (CI, 2026-12-03).
#   python3 -I -S repeat.py rewrite DIR COUNT TAG
#       Appends the line "// TAG" to each of the first COUNT regular files
#       under DIR (sorted, .git left out): an edit of COUNT files.
#   python3 -I -S repeat.py rounds [OPTIONS] -- ::row:: NAME ARGV... ...
#       The rows (each an ARGV that prints "run MS" lines: `repeat.py run`,
#       on the host or in a cage) run once with their errors visible, then
#       ROUNDS rounds, each row once a round in a freshly shuffled order
#       (fixed seed); every "run" line is a sample.  Options: --rounds N,
#       --ref NAME (ratios against it; default the first row), --ratio-of
#       NAME=REF (this row against REF instead), --raw FILE, --suite S.
#   python3 -I -S repeat.py apply [OPTIONS]
#       The apply case; see apply_case() below.
# Tables as bench/timer.py prints them: median, p90, ratio, against.
import gc
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import time

# timer.py beside it (installed with it): the rows read and the
# percentiles computed as the other benches do.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timer import SEP, pct, split_rows  # noqa: E402
SD = (signal.SIGPIPE,)


def spawn_ms(argv, env=None, cwd_fd=None, hang_s=None):
    """Wall time of ARGV from posix_spawn to waitpid, stdio on /dev/null;
    None if it failed; "hung" if it had not ended after HANG_S seconds
    (then it is killed, with its process group)."""
    devnull = os.open(os.devnull, os.O_RDWR)
    fa = [(os.POSIX_SPAWN_DUP2, devnull, n) for n in (0, 1, 2)]
    group = {"setpgroup": 0} if hang_s else {}
    t0 = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, env if env else dict(os.environ),
                         file_actions=fa, setsigdef=SD, **group)
    if hang_s:
        pfd = os.pidfd_open(pid)
        ready = select.select([pfd], [], [], hang_s)[0]
        os.close(pfd)
        if not ready:
            os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(devnull)
            return "hung"
    status = os.waitpid(pid, 0)[1]
    t1 = time.perf_counter_ns()
    os.close(devnull)
    if os.waitstatus_to_exitcode(status) != 0:
        return None
    return (t1 - t0) / 1e6


def remove(path):
    if path.endswith("/"):
        for e in os.listdir(path):
            remove(os.path.join(path, e))
    elif os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.unlink(path)


def run_mode(a):
    n = int(a[0])
    i = a.index("--")
    clean, cmd = a[1:i], a[i + 1:]
    cmd[0] = shutil.which(cmd[0]) or cmd[0]
    hang_s = float(os.environ.get("REPEAT_HANG_S", "300"))
    gc.disable()
    for k in range(n + 1):
        for tries in range(3):
            for p in clean:
                remove(p)
            ms = spawn_ms(cmd, hang_s=hang_s)
            if ms != "hung":
                break
            print(f"repeat.py: {' '.join(cmd)} had not ended after "
                  f"{hang_s:.0f} s: killed, run again", file=sys.stderr)
        if ms is None or ms == "hung":
            sys.exit(f"repeat.py: {' '.join(cmd)} failed")
        if k:
            print(f"run {ms:.3f}")


def files_of(top, count):
    out = []
    for d, dirs, files in os.walk(top):
        dirs[:] = sorted(x for x in dirs if x != ".git")
        out += [os.path.join(d, f) for f in sorted(files)
                if os.path.isfile(os.path.join(d, f))]
        if len(out) >= count:
            break
    if len(out) < count:
        sys.exit(f"repeat.py: {top} holds {len(out)} files, not {count}")
    return out[:count]


def rewrite_mode(a):
    top, count, tag = a[0], int(a[1]), a[2]
    for f in files_of(top, count):
        with open(f, "a") as fh:
            fh.write(f"// {tag}\n")


def parse_rows(a):
    opts, ratio_of, i = {}, {}, 0
    while a[i] != "--":
        if a[i] == "--ratio-of":
            k, v = a[i + 1].split("=", 1)
            ratio_of[k] = v
        else:
            opts[a[i][2:]] = a[i + 1]
        i += 2
    return opts, ratio_of, split_rows(a[i + 1:])


def table(names, samples, ref, ratio_of, raw, suite):
    med = {n: pct(samples[n], 0.5) for n in names}
    print("| row | median ms | p90 ms | ratio | against |")
    print("|---|---:|---:|---:|---|")
    for n in names:
        r = ratio_of.get(n, ref)
        print(f"| {n} | {med[n]:.2f} | {pct(samples[n], 0.9):.2f} | "
              f"{med[n] / med[r]:.2f} | {r} |")
    print()
    if raw and raw != "-":
        with open(raw, "a") as f:
            for n in names:
                for ms in samples[n]:
                    f.write(f"{suite},\"{n}\",{ms:.4f}\n")


def collect(name, argv):
    p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        sys.exit(f"repeat.py: row '{name}' failed (exit {p.returncode}): "
                 f"{' '.join(argv)}")
    return [float(x.split()[1]) for x in p.stdout.splitlines()
            if x.startswith("run ")]


def rounds_mode(a):
    opts, ratio_of, rows = parse_rows(a)
    rounds = int(opts.get("rounds", "6"))
    names = [r[0] for r in rows]
    for name, argv in rows:  # errors visible, untimed
        collect(name, argv)
    rng = random.Random(20261202)
    order = list(range(len(rows)))
    samples = {n: [] for n in names}
    t0 = time.monotonic()
    for _ in range(rounds):
        rng.shuffle(order)
        for i in order:
            samples[names[i]] += collect(*rows[i])
    table(names, samples, opts.get("ref", names[0]), ratio_of,
          opts.get("raw"), opts.get("suite", "review"))
    per = len(samples[names[0]]) // max(rounds, 1)
    print(f"{rounds} rounds of {per} timed runs per row (after one untimed "
          f"run per cage), rows interleaved in shuffled order; "
          f"{time.monotonic() - t0:.0f} s in all.")


def apply_case(a):
    """--rounds N --files COUNT --ltd LTD --project P --twin T --name NAME
    --repeat REPEAT.PY --py PYTHON [--raw FILE --suite S] [-- EXTRA...]

    Each round, in a shuffled order, two groups of steps, each timed:
      review: `run --review NAME -- rewrite P COUNT` (the cage edits COUNT
              files of P: its review then holds COUNT changed files),
              `review NAME`, `diff NAME --stat`, `apply NAME` (lands them:
              the next round's review is a new one);
      plain:  `git reset --hard` of the twin (a copy of P; untimed), `run
              -- rewrite T COUNT` (the same edit straight into the
              project), `git status --short` and `git diff --stat` on the
              host over it, another reset (untimed), and the same edit by
              the host itself (what apply's writes cost at least).
    EXTRA: options for both runs (--ro-bind of the helpers)."""
    opts, i = {}, 0
    while i < len(a) and a[i] != "--":
        opts[a[i][2:]] = a[i + 1]
        i += 2
    extra = a[i + 1:]
    rounds, count = int(opts["rounds"]), opts["files"]
    ltd, proj, twin, name = opts["ltd"], opts["project"], opts["twin"], opts["name"]
    rw = [opts["py"], "-I", "-S", opts["repeat"], "rewrite"]
    git = shutil.which("git")
    base = [ltd, "run", "--network", "none"] + extra
    H = "host: "
    rows = {
        "rewrite": f"{H}the edit of {count} files, in place",
        "plain": f"ltd-native `run --network none -- EDIT`",
        "review": f"ltd-native `run --network none --review NAME -- EDIT`",
        "status": f"{H}`git status --short` over the edit",
        "list": "ltd-native `review NAME`",
        "gdiff": f"{H}`git diff --stat` over the edit",
        "diff": "ltd-native `diff NAME --stat`",
        "apply": "ltd-native `apply NAME`",
    }
    ratio_of = {rows["review"]: rows["plain"], rows["list"]: rows["status"],
                rows["diff"]: rows["gdiff"], rows["apply"]: rows["rewrite"],
                rows["plain"]: rows["plain"], rows["status"]: rows["status"],
                rows["gdiff"]: rows["gdiff"]}
    samples = {v: [] for v in rows.values()}

    def step(key, argv, cwd, timed=True):
        os.chdir(cwd)
        ms = spawn_ms(argv)
        if ms is None:
            # Once more with its output visible, to say why.
            subprocess.run(argv)
            sys.exit(f"repeat.py: apply case: '{' '.join(argv)}' failed")
        if timed and key:
            samples[rows[key]].append(ms)

    def reset():
        step(None, [git, "-c", "core.hooksPath=/dev/null", "reset", "-q",
                    "--hard"], twin, timed=False)

    def review_group(tag, timed):
        step("review", base + ["--review", name, "--project", proj, "--"] +
             rw + [proj, count, tag], proj, timed)
        step("list", [ltd, "review", name], proj, timed)
        step("diff", [ltd, "diff", name, "--stat", "--no-pager"], proj, timed)
        step("apply", [ltd, "apply", name], proj, timed)

    def plain_group(tag, timed):
        reset()
        step("plain", base + ["--project", twin, "--"] + rw +
             [twin, count, tag], twin, timed)
        step("status", [git, "status", "--short"], twin, timed)
        step("gdiff", [git, "--no-pager", "diff", "--stat"], twin, timed)
        reset()
        step("rewrite", rw + [twin, count, tag], twin, timed)

    review_group("warm-up", False)
    plain_group("warm-up", False)
    rng = random.Random(20261202)
    t0 = time.monotonic()
    gc.disable()
    for r in range(rounds):
        groups = [review_group, plain_group]
        rng.shuffle(groups)
        for g in groups:
            g(f"round {r}", True)
    gc.enable()
    reset()
    table(list(rows.values()), samples, rows["rewrite"], ratio_of,
          opts.get("raw"), opts.get("suite", "review-apply"))
    print(f"{rounds} rounds; each round the review steps (in this order) and "
          f"the plain steps (in this order), the two groups in shuffled "
          f"order; EDIT = {' '.join(os.path.basename(x) for x in rw)} "
          f"PROJECT {count} TAG; {time.monotonic() - t0:.0f} s in all.")


def main():
    a = sys.argv[1:]
    modes = {"run": run_mode, "rewrite": rewrite_mode, "rounds": rounds_mode,
             "apply": apply_case}
    if not a or a[0] not in modes:
        sys.exit("usage: repeat.py run|rewrite|rounds|apply ...")
    modes[a[0]](a[1:])


main()
