# The benchmarks' shared timer: rows interleaved round-robin in a freshly
# shuffled order each round (fixed seed), so drift in the machine's speed
# hits every row alike; a sample is the wall time from posix_spawn to
# waitpid, stdio on /dev/null.  Run as the bench user (bench/lib.sh).
#
#   python3 -I -S timer.py [OPTIONS] -- ::row:: NAME ARGV... ::row:: ...
#
# Options (each takes a value):
#   --runs N       timed samples per row (default 20)
#   --warmup N     untimed rounds first (default 2)
#   --ref NAME     ratios against this row (default: the first)
#   --suite S      the first column of the raw CSV (default "startup")
#   --raw FILE     append every sample as CSV "suite,row,ms" (- for none)
#   --cold FIFO    before each sample, write a line to FIFO and wait for a
#                  line on FIFO.ack (a root helper drops the page cache)
#   --ratio-of R   "NAME=REF": this row's ratio against REF, not --ref
#                  (repeatable)
#   --ref2 NAME    a second ratio column: each row against NAME
# Every row runs once, errors visible, before timing; a row that fails
# then or during timing ends the run with status 1.  SIGPIPE is at its
# default in every row (Python ignores it, and pasta refuses to start
# with it ignored).  Prints a markdown table: median, p90, ratio.
import gc
import os
import random
import signal
import sys
import time

SEP = "::row::"


def parse(argv):
    opts = {"runs": "20", "warmup": "2", "ref": None, "suite": "startup",
            "raw": "-", "cold": None, "ref2": None}
    ratio_of = {}
    i = 0
    while i < len(argv) and argv[i] != "--":
        k = argv[i][2:]
        v = argv[i + 1]
        if k == "ratio-of":
            name, ref = v.split("=", 1)
            ratio_of[name] = ref
        elif k in opts:
            opts[k] = v
        else:
            sys.exit(f"timer.py: unknown option {argv[i]}")
        i += 2
    return opts, ratio_of, split_rows(argv[i + 1:])


def split_rows(words):
    """The rows after "--": SEP NAME ARGV... each (bench/repeat.py too)."""
    rows = []
    for a in words:
        if a == SEP:
            rows.append(None)
        elif rows[-1] is None:
            rows[-1] = (a, [])
        else:
            rows[-1][1].append(a)
    return rows


def pct(xs, p):
    xs = sorted(xs)
    k = (len(xs) - 1) * p
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def main():
    opts, ratio_of, rows = parse(sys.argv[1:])
    runs, warmup = int(opts["runs"]), int(opts["warmup"])
    env = dict(os.environ)
    sd = (signal.SIGPIPE,)
    devnull = os.open(os.devnull, os.O_RDWR)
    fa = [(os.POSIX_SPAWN_DUP2, devnull, n) for n in (0, 1, 2)]
    cold = None
    if opts["cold"]:
        cold = (open(opts["cold"], "w"), open(opts["cold"] + ".ack"))

    def drop():
        cold[0].write("drop\n")
        cold[0].flush()
        cold[1].readline()

    failed = False
    for name, argv in rows:
        pid = os.posix_spawn(argv[0], argv, env, setsigdef=sd)
        rc = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        if rc != 0:
            print(f"timer.py: row '{name}' failed (exit {rc}): "
                  f"{' '.join(argv)}", file=sys.stderr)
            failed = True
    if failed:
        sys.exit(1)

    rng = random.Random(20261129)
    order = list(range(len(rows)))
    samples = [[] for _ in rows]
    gc.disable()
    t_start = time.monotonic()
    for rnd in range(warmup + runs):
        rng.shuffle(order)
        for i in order:
            argv = rows[i][1]
            if cold:
                drop()
            t0 = time.perf_counter_ns()
            pid = os.posix_spawn(argv[0], argv, env, file_actions=fa,
                                 setsigdef=sd)
            status = os.waitpid(pid, 0)[1]
            t1 = time.perf_counter_ns()
            if os.waitstatus_to_exitcode(status) != 0:
                print(f"timer.py: row '{rows[i][0]}' failed during timing",
                      file=sys.stderr)
                sys.exit(1)
            if rnd >= warmup:
                samples[i].append((t1 - t0) / 1e6)
    elapsed = time.monotonic() - t_start
    gc.enable()

    names = [r[0] for r in rows]
    med = {n: pct(s, 0.5) for n, s in zip(names, samples)}
    ref, ref2 = opts["ref"] or names[0], opts["ref2"]
    print("| row | median ms | p90 ms | ratio | against |"
          + (f" vs {ref2} |" if ref2 else ""))
    print("|---|---:|---:|---:|---|" + ("---:|" if ref2 else ""))
    for n, s in zip(names, samples):
        r = ratio_of.get(n, ref)
        print(f"| {n} | {med[n]:.2f} | {pct(s, 0.9):.2f} | "
              f"{med[n] / med[r]:.2f} | {r} |"
              + (f" {med[n] / med[ref2]:.2f} |" if ref2 else ""))
    print()
    print(f"{runs} timed runs per row after {warmup} warm-up rounds"
          f"{', page cache dropped before each' if cold else ''}, "
          f"interleaved in shuffled order; {elapsed:.0f} s in all.")
    if opts["raw"] != "-":
        with open(opts["raw"], "a") as f:
            for n, s in zip(names, samples):
                for ms in s:
                    f.write(f"{opts['suite']},\"{n}\",{ms:.4f}\n")


if __name__ == "__main__":
    main()
