#!/usr/bin/env bash
# Seccomp filter cost: a syscall-heavy microbenchmark and a file-heavy
# workload, each bare, under ltd-native and under bubblewrap with and without
# the very same BPF program.  Rows, run round-robin in one run:
#
#   1. bare
#   2. bubblewrap, agent config (as bench/startup.sh), no filter
#   3. the same bubblewrap with ltd-native's enforce program (--seccomp FD)
#   4. ltd-native run --network none
#   5. ltd-native run --network none --unsafe-no-seccomp
#
# Workloads (they time themselves inside the sandbox, so sandbox start-up is
# not in the figures; see bench/syscall_loop.c):
#   loops:      ns per getppid (allowed without argument checks), per
#               ioctl(TIOCGWINSZ) (the profile checks ioctl's arguments), and
#               per openat+close
#   git status: ms per `git status` in a committed repository of FILES files
#
# Usage: bash bench/seccomp.sh [BUILD_DIR]     (default build)
#   BUILD_DIR holds ltd-native, and bench/syscall_loop and bench/export_bpf
#   (`make bench-seccomp` builds them).
# Environment: ROUNDS=N      rounds of the loops (default 15)
#              ITERS=N       getppid/ioctl calls per loop (default 1000000)
#              GIT_ROUNDS=N  rounds of git status (default 6)
#              GIT_RUNS=N    git status runs per row per round (default 3)
#              FILES=N       files in the repository (default 20000)
#              RAW=FILE      also write every sample as CSV to FILE
#              BENCH_USER    the user when started as root (default ltd-bench)
#
# Measured commands run as an ordinary user (started as root: ltd-bench, as
# bench/startup.sh).  Markdown tables on stdout.  Exits non-zero if a row
# fails; no pass/fail on timing.  Contacts no network.
set -euo pipefail

ROUNDS=${ROUNDS:-15}
ITERS=${ITERS:-1000000}
GIT_ROUNDS=${GIT_ROUNDS:-6}
GIT_RUNS=${GIT_RUNS:-3}
FILES=${FILES:-20000}
BENCH_USER=${BENCH_USER:-ltd-bench}
BUILD=${1:-build}

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
die() { echo "seccomp.sh: $*" >&2; exit 1; }

for v in ROUNDS ITERS GIT_ROUNDS GIT_RUNS FILES; do
	[[ ${!v} =~ ^[0-9]+$ && ${!v} -ge 1 ]] || die "$v must be a positive integer"
done
for f in ltd-native bench/syscall_loop bench/export_bpf; do
	[[ -x $BUILD/$f && -f $BUILD/$f ]] || die "no $BUILD/$f (run make bench-seccomp)"
done
for tool in bwrap git python3; do
	command -v "$tool" >/dev/null || die "$tool is not installed"
done
bench_python

# --- who runs the measured commands -------------------------------------------
bench_user

# --- staging ------------------------------------------------------------------
STAGE=$(mktemp -d /tmp/ltd-bench-seccomp.XXXXXX)
trap 'rm -rf "$STAGE"' EXIT
chmod 755 "$STAGE"
mkdir -m 755 "$STAGE/bin"
install -m 755 "$BUILD/ltd-native" "$BUILD/bench/syscall_loop" "$STAGE/bin/"
LTD=$STAGE/bin/ltd-native
SL=$STAGE/bin/syscall_loop
BPF=$STAGE/bin/enforce.bpf
"$BUILD/bench/export_bpf" "$BPF" 2>/dev/null || die "export_bpf failed"
chmod 644 "$BPF"
PROJECT=$STAGE/project
mkdir "$PROJECT"
[[ $(id -u) -eq 0 ]] && chown "$BENCH_USER": "$PROJECT"

# The repository: FILES small files in directories of 100, committed, and
# the index refreshed after the files' mtimes are in the past, so that
# `git status` only reads (no racily-clean entries to re-hash).
echo "seccomp.sh: creating a repository of $FILES files..." >&2
t0=$(date +%s.%N)
(cd "$PROJECT" && "${as_user[@]}" "$PY" -I -S -c '
import os, sys
n = int(sys.argv[1])
for i in range(n):
    d = "src/d%03d" % (i // 100)
    if i % 100 == 0:
        os.makedirs(d)
    with open("%s/f%05d.txt" % (d, i), "w") as f:
        f.write("file %d\n" % i)
' "$FILES")
(cd "$PROJECT" && "${as_user[@]}" sh -c '
git init -q . && git add -A &&
git -c user.name=bench -c user.email=bench@localhost commit -q -m tree &&
sleep 1.1 && git update-index -q --really-refresh && git status >/dev/null')
echo "seccomp.sh: ... in $(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)") s" >&2

# --- the rows -----------------------------------------------------------------
BWRAP=$(command -v bwrap)
root_links=()
for d in /bin /sbin /lib /lib32 /lib64 /libx32; do
	if [[ -L $d ]]; then
		root_links+=(--symlink "$(readlink "$d")" "$d")
	elif [[ -d $d ]]; then
		root_links+=(--ro-bind "$d" "$d")
	fi
done
bwrap_cage=("$BWRAP" --unshare-all --die-with-parent
	--ro-bind /usr /usr "${root_links[@]}"
	--proc /proc --dev /dev --tmpfs /tmp
	--ro-bind "$STAGE/bin" "$STAGE/bin"
	--bind "$PROJECT" "$PROJECT" --chdir "$PROJECT"
	--cap-drop ALL --new-session)
ltd_cage=("$LTD" run --network none --project "$PROJECT"
	--ro-bind "$STAGE/bin" "$STAGE/bin")

SEP=::row::      # each row: SEP, name, file to open as fd 9 ("-": none), argv prefix
rows_argv=(
	"$SEP" "bare" "-"
	"$SEP" "bubblewrap, no filter" "-" "${bwrap_cage[@]}" --
	"$SEP" "bubblewrap + ltd-native's filter" "$BPF" "${bwrap_cage[@]}" --seccomp 9 --
	"$SEP" "ltd-native \`run --network none\`" "-" "${ltd_cage[@]}" --
	"$SEP" "ltd-native, \`--unsafe-no-seccomp\`" "-" "${ltd_cage[@]}" --unsafe-no-seccomp --
)

# --- the timer ----------------------------------------------------------------
cat >"$STAGE/timer.py" <<'PYEOF'
import gc, os, random, sys, time

def main():
    (rounds, iters, grounds, gruns, raw, sl, sep) = sys.argv[1:8]
    rounds, grounds, gruns = int(rounds), int(grounds), int(gruns)
    rows, cur = [], None
    args = sys.argv[8:]
    i = 0
    while i < len(args):
        if args[i] == sep:
            rows.append([args[i + 1], args[i + 2], []])  # name, fd9 file, prefix
            i += 3
        else:
            rows[-1][2].append(args[i])
            i += 1
    env = dict(os.environ)
    devnull = os.open(os.devnull, os.O_RDWR)

    def run(row, cmd, check_only=False):
        name, fd9, prefix = row[:3]
        argv = prefix + cmd
        fa = [(os.POSIX_SPAWN_DUP2, devnull, 0)]
        if fd9 != "-":
            fa.append((os.POSIX_SPAWN_OPEN, 9, fd9, os.O_RDONLY, 0))
        r, w = os.pipe()
        fa.append((os.POSIX_SPAWN_DUP2, w, 1))
        if not check_only:
            fa.append((os.POSIX_SPAWN_DUP2, devnull, 2))
        pid = os.posix_spawn(argv[0], argv, env, file_actions=fa)
        os.close(w)
        out = b""
        while True:
            b = os.read(r, 65536)
            if not b:
                break
            out += b
        os.close(r)
        _, status = os.waitpid(pid, 0)
        rc = os.waitstatus_to_exitcode(status)
        if rc != 0:
            print(f"seccomp.sh: row '{name}' failed (exit {rc}): {' '.join(argv)}",
                  file=sys.stderr)
            sys.exit(1)
        res = {}
        for line in out.decode().splitlines():
            k, v = line.split()
            res.setdefault(k, []).append(float(v))
        return res

    loops_cmd = [sl, "loops", iters]
    git_cmd = [sl, "repeat", str(gruns), "git", "status"]
    # Check every row once, errors visible; and that the filter is on where
    # it should be.
    for row in rows:
        run(row, [sl, "loops", "1000"], check_only=True)
        run(row, [sl, "repeat", "1", "git", "status"], check_only=True)
    for row in rows:
        st = run(row, ["/bin/sh", "-c", "echo seccomp $(grep ^Seccomp: /proc/self/status | cut -f2)"])
        row.append(int(st["seccomp"][0]))

    rng = random.Random(20261129)
    order = list(range(len(rows)))
    metrics = ["getppid", "ioctl", "open_close", "run"]
    samples = {m: [[] for _ in rows] for m in metrics}
    gc.disable()
    t_start = time.monotonic()
    for _ in range(rounds):
        rng.shuffle(order)
        for i in order:
            for k, v in run(rows[i], loops_cmd).items():
                samples[k][i] += v
    for _ in range(grounds):
        rng.shuffle(order)
        for i in order:
            samples["run"][i] += run(rows[i], git_cmd)["run"]
    elapsed = time.monotonic() - t_start
    gc.enable()

    def pct(xs, p):
        xs = sorted(xs)
        k = (len(xs) - 1) * p
        lo = int(k)
        hi = min(lo + 1, len(xs) - 1)
        return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)

    med = {m: [pct(s, 0.5) for s in samples[m]] for m in metrics}
    p90 = {m: [pct(s, 0.9) for s in samples[m]] for m in metrics}
    titles = {"getppid": "getppid (no argument checks), ns per call",
              "ioctl": "ioctl(TIOCGWINSZ) (arguments checked), ns per call",
              "open_close": "openat + close, ns per pair",
              "run": "`git status`, ms per run"}
    for m in metrics:
        print(f"**{titles[m]}**")
        print()
        print("| row | Seccomp | median | p90 | vs bare |")
        print("|---|---:|---:|---:|---:|")
        for i, row in enumerate(rows):
            print(f"| {row[0]} | {row[3]} | {med[m][i]:.1f} | {p90[m][i]:.1f} | "
                  f"{med[m][i] / med[m][0]:.3f} |")
        print()
    print("**The filter's cost** (median with the filter / median without, same cage):")
    print()
    print("| workload | bubblewrap + filter / bubblewrap | ltd-native / ltd-native --unsafe-no-seccomp |")
    print("|---|---:|---:|")
    for m in metrics:
        print(f"| {titles[m]} | {med[m][2] / med[m][1]:.3f} | {med[m][3] / med[m][4]:.3f} |")
    print()
    print(f"Loops: {rounds} rounds of {iters} calls (open_close: {int(iters) // 10}); "
          f"git status: {grounds} rounds of {gruns} runs per row; rows interleaved "
          f"round-robin in shuffled order; {elapsed:.0f} s in all.")
    if raw != "-":
        with open(raw, "w") as f:
            f.write("row,metric,value\n")
            for m in metrics:
                for row, s in zip(rows, samples[m]):
                    for v in s:
                        f.write(f"\"{row[0]}\",{m},{v:.3f}\n")

main()
PYEOF
chmod 644 "$STAGE/timer.py"

bench_raw

{
	echo "# ltd-native seccomp benchmark"
	echo "# kernel $(uname -r), $(nproc) CPUs, user $BENCH_USER, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "# $("$BWRAP" --version), $(git --version), bpf_jit_enable $(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null || echo ?)"
	echo "# ltd-native: $(sha256sum "$BUILD/ltd-native" | cut -c1-16); filter: $(($(stat -c %s "$BPF") / 8)) instructions, sha256 $(sha256sum "$BPF" | cut -c1-16)"
} >&2

cd "$PROJECT"
"${as_user[@]}" "$PY" -I -S "$STAGE/timer.py" "$ROUNDS" "$ITERS" "$GIT_ROUNDS" \
	"$GIT_RUNS" "$RAWTMP" "$SL" "$SEP" "${rows_argv[@]}"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

echo
echo "Load average after the run: $load_after. Command lines (STAGE = a fresh directory under /tmp,"
echo "PROJECT = STAGE/project, a git repository of $FILES committed files owned by the bench user;"
echo "each row runs \`syscall_loop loops $ITERS\` and \`syscall_loop repeat $GIT_RUNS git status\`):"
echo
show() { local a out=""; for a in "$@"; do a=${a//$PROJECT/PROJECT}; out+="${a//$STAGE/STAGE} "; done; echo "${out% }"; }
echo '```'
echo "syscall_loop ..."
show "${bwrap_cage[@]}" -- syscall_loop ...
show "${bwrap_cage[@]}" --seccomp 9 -- syscall_loop ...  "9< enforce.bpf"
show "${ltd_cage[@]}" -- syscall_loop ...
show "${ltd_cage[@]}" --unsafe-no-seccomp -- syscall_loop ...
echo '```'

if [[ $RAWTMP != - ]]; then
	cp "$RAWTMP" "$RAW"
fi
