#!/usr/bin/env bash
# Start-up benchmark: how long does it take to start and tear down a cage
# around /bin/true?  Rows, timed round-robin in one run:
#
#   1. bare /bin/true
#   2. unshare -Urmpf --mount-proc /bin/true
#   3. bubblewrap with the agent configuration (docs/performance.md)
#   4. ltd-native run --network none --project PROJECT -- /bin/true
#
# Usage: bash bench/startup.sh [PATH_TO_LTD_NATIVE]     (default build/ltd-native)
# Environment: RUNS=N     timed runs per row (default 200)
#              WARMUP=N   untimed rounds first (default 10)
#              RAW=FILE   also write every sample (row,ms) as CSV to FILE
#              BASE=FILE  also time another ltd-native (e.g. the last
#                         release) as a fifth row, in the same rounds
#
# Everything measured runs as an ordinary user: started as root, the script
# creates (once) and uses the user ltd-bench.  Prints a markdown table to
# stdout.  Exits non-zero if a row's command fails; there is no pass/fail on
# timing.  Contacts no network.
set -euo pipefail

RUNS=${RUNS:-200}
WARMUP=${WARMUP:-10}
BENCH_USER=${BENCH_USER:-ltd-bench}
BIN=${1:-build/ltd-native}

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
die() { echo "startup.sh: $*" >&2; exit 1; }

[[ $RUNS =~ ^[0-9]+$ && $RUNS -ge 1 ]] || die "RUNS must be a positive integer"
[[ $WARMUP =~ ^[0-9]+$ ]] || die "WARMUP must be a non-negative integer"
[[ -x $BIN && -f $BIN ]] || die "no executable ltd-native at '$BIN'"
BASE=${BASE:-}
[[ -z $BASE || ( -x $BASE && -f $BASE ) ]] || die "no executable ltd-native at BASE='$BASE'"
for tool in bwrap unshare python3; do
	command -v "$tool" >/dev/null || die "$tool is not installed"
done
bench_python

# --- who runs the measured commands -------------------------------------------
bench_user

# --- staging: binaries in a world-readable dir, a project owned by the user ---
STAGE=$(mktemp -d /tmp/ltd-bench.XXXXXX)
trap 'rm -rf "$STAGE"' EXIT
chmod 755 "$STAGE"
install -m 755 "$BIN" "$STAGE/ltd-native"
if [[ -n $BASE ]]; then
	mkdir -m 755 "$STAGE/base"
	install -m 755 "$BASE" "$STAGE/base/ltd-native"
fi
PROJECT=$STAGE/project
mkdir "$PROJECT"
echo "benchmark project" >"$PROJECT/README"
[[ $(id -u) -eq 0 ]] && chown -R "$BENCH_USER": "$PROJECT"

# --- the rows -----------------------------------------------------------------
BWRAP=$(command -v bwrap)
UNSHARE=$(command -v unshare)

# The host's top-level links into /usr (merged /usr) as links; real
# directories (split /usr) read-only.
root_links=()
for d in /bin /sbin /lib /lib32 /lib64 /libx32; do
	if [[ -L $d ]]; then
		root_links+=(--symlink "$(readlink "$d")" "$d")
	elif [[ -d $d ]]; then
		root_links+=(--ro-bind "$d" "$d")
	fi
done

row_names=(
	"bare \`/bin/true\`"
	"\`unshare -Urmpf --mount-proc\`"
	"bubblewrap, agent config"
	"ltd-native \`run --network none\`"
)
row_bare=(/bin/true)
row_unshare=("$UNSHARE" -Urmpf --mount-proc /bin/true)
row_bwrap=("$BWRAP" --unshare-all --die-with-parent
	--ro-bind /usr /usr "${root_links[@]}"
	--proc /proc --dev /dev --tmpfs /tmp
	--bind "$PROJECT" "$PROJECT"
	--cap-drop ALL --new-session -- /bin/true)
row_ltd=("$STAGE/ltd-native" run --network none --project "$PROJECT" -- /bin/true)

SEP=::row::
rows_argv=("$SEP" "${row_names[0]}" "${row_bare[@]}"
	"$SEP" "${row_names[1]}" "${row_unshare[@]}"
	"$SEP" "${row_names[2]}" "${row_bwrap[@]}"
	"$SEP" "${row_names[3]}" "${row_ltd[@]}")
if [[ -n $BASE ]]; then
	row_base=("$STAGE/base/ltd-native" run --network none --project "$PROJECT" -- /bin/true)
	rows_argv+=("$SEP" "ltd-native \`run --network none\`, BASE" "${row_base[@]}")
fi

# --- the timer ----------------------------------------------------------------
# Round-robin: every round runs each row once, in a freshly shuffled order, so
# drift in the machine's speed hits all rows alike.  Each sample is wall time
# from posix_spawn to waitpid; stdio goes to /dev/null.
cat >"$STAGE/timer.py" <<'EOF'
import gc, os, random, sys, time

def main():
    runs, warmup, raw, sep = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    rows, cur = [], None
    for a in sys.argv[5:]:
        if a == sep:
            cur = None
            continue
        if cur is None:
            cur = (a, [])
            rows.append(cur)
        else:
            cur[1].append(a)
    devnull = os.open(os.devnull, os.O_RDWR)
    fa = [(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, devnull, 1),
          (os.POSIX_SPAWN_DUP2, devnull, 2)]
    env = dict(os.environ)

    def once(argv):
        t0 = time.perf_counter_ns()
        pid = os.posix_spawn(argv[0], argv, env, file_actions=fa)
        _, status = os.waitpid(pid, 0)
        t1 = time.perf_counter_ns()
        return (t1 - t0) / 1e6, os.waitstatus_to_exitcode(status)

    # Check every row once, with its errors visible.
    failed = False
    for name, argv in rows:
        pid = os.posix_spawn(argv[0], argv, env)
        _, status = os.waitpid(pid, 0)
        rc = os.waitstatus_to_exitcode(status)
        if rc != 0:
            print(f"startup.sh: row '{name}' failed (exit {rc}): {' '.join(argv)}", file=sys.stderr)
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
            ms, rc = once(rows[i][1])
            if rc != 0:
                print(f"startup.sh: row '{rows[i][0]}' failed (exit {rc}) during timing", file=sys.stderr)
                sys.exit(1)
            if rnd >= warmup:
                samples[i].append(ms)
    elapsed = time.monotonic() - t_start
    gc.enable()

    def pct(xs, p):
        xs = sorted(xs)
        k = (len(xs) - 1) * p
        lo = int(k)
        hi = min(lo + 1, len(xs) - 1)
        return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)

    med = [pct(s, 0.5) for s in samples]
    p90 = [pct(s, 0.9) for s in samples]
    ref = med[2]  # bubblewrap
    print(f"| row | median ms | p90 ms | vs bubblewrap (median) |")
    print(f"|---|---:|---:|---:|")
    for (name, _), m, q in zip(rows, med, p90):
        print(f"| {name} | {m:.2f} | {q:.2f} | {m / ref:.2f} |")
    print()
    print(f"{runs} timed runs per row after {warmup} warm-up rounds, interleaved "
          f"round-robin in shuffled order; {elapsed:.0f} s in all.")
    if raw != "-":
        with open(raw, "w") as f:
            f.write("row,ms\n")
            for (name, _), s in zip(rows, samples):
                for ms in s:
                    f.write(f"\"{name}\",{ms:.4f}\n")

main()
EOF
chmod 644 "$STAGE/timer.py"

bench_raw

{
	echo "# ltd-native start-up benchmark"
	echo "# kernel $(uname -r), $(nproc) CPUs, user $BENCH_USER, runs $RUNS, warmup $WARMUP"
	echo "# $("$BWRAP" --version 2>/dev/null || echo bwrap), $("$UNSHARE" --version 2>/dev/null | head -1)"
	echo "# ltd-native: $(sha256sum "$BIN" | cut -c1-16) ($BIN)"
	[[ -z $BASE ]] || echo "# BASE: $(sha256sum "$BASE" | cut -c1-16) ($BASE)"
	echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} >&2

cd "$PROJECT"
"${as_user[@]}" "$PY" -I -S "$STAGE/timer.py" "$RUNS" "$WARMUP" "$RAWTMP" "${rows_argv[@]}"

echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "Command lines (PROJECT = a fresh directory owned by the bench user):"
echo
show() { local a out=""; for a in "$@"; do out+="${a//$PROJECT/PROJECT} "; done; echo "${out% }"; }
echo '```'
show "${row_bare[@]}"
show "${row_unshare[@]}"
show "${row_bwrap[@]}"
show "${row_ltd[@]//$STAGE\/ltd-native/ltd-native}"
[[ -z $BASE ]] || show "${row_base[@]//$STAGE\/base\/ltd-native/BASE}"
echo '```'

if [[ $RAWTMP != - ]]; then
	cp "$RAWTMP" "$RAW"
fi
