#!/usr/bin/env bash
# The exit walk's ingredients, measured on the projects of bench/project.sh:
# what one pass over every directory costs today (openat2 + getdents64 a
# directory, protect/repos.c), and what the index design would cost
# instead (docs/performance.md, "The exit walk"): one statx a directory,
# sequential, on two threads, through io_uring (one ring, two rings; and
# in inode order), and re-reading a changed directory; warm and cold (the
# page cache, dentries and inodes dropped before each sample: root only).
#
# Usage: bash bench/walk.sh [WALKCOST]     (default build/bench/walkcost)
# Environment: SIZES="20000 200000", TREES (as bench/project.sh: the trees
#              are made there when missing), RUNS=N warm samples (default
#              7), COLD_RUNS=N (default 3; 0: none), RAW=FILE (CSV
#              suite,row,ms), QUEUE=N statx in flight a ring (default 64),
#              RT=N (root: SCHED_FIFO priority N, as bench/lib.sh's timer)
# Prints one table a tree: median ms and ms per 1,000 directories.  The
# rows run as the bench user, interleaved in a shuffled order.  No
# pass/fail on timing; no network.
set -euo pipefail

SIZES=${SIZES:-20000 200000}
RUNS=${RUNS:-7}
COLD_RUNS=${COLD_RUNS:-3}
QUEUE=${QUEUE:-64}
TREES=${TREES:-/var/tmp/ltd-bench-trees}
BENCH_USER=${BENCH_USER:-ltd-bench}
WC=${1:-build/bench/walkcost}

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
die() { echo "walk.sh: $*" >&2; exit 1; }
for v in RUNS QUEUE; do
	[[ ${!v} =~ ^[0-9]+$ && ${!v} -ge 1 ]] || die "$v must be a positive integer"
done
[[ $COLD_RUNS =~ ^[0-9]+$ ]] || die "COLD_RUNS must be a non-negative integer"
[[ -x $WC ]] || die "no walkcost at '$WC' (make build/bench/walkcost)"
bench_python
bench_user

STAGE=$(mktemp -d /tmp/ltd-bench-walk.XXXXXX)
trap 'bench_cold_stop; rm -rf "$STAGE"' EXIT
chmod 755 "$STAGE"
install -m 644 "$(dirname "$0")/gentree.py" "$STAGE/"
WCS=$(stage_binary "$WC" walkcost)
# The indexes, written by the bench user.
mkdir -m 755 "$STAGE/index"
[[ $(id -u) -ne 0 ]] || chown "$BENCH_USER": "$STAGE/index"
mkdir -p "$TREES"
chmod 755 "$TREES"
[[ $(id -u) -ne 0 ]] || chown "$BENCH_USER": "$TREES"
bench_cold_start
[[ $COLD_RUNS -gt 0 ]] || COLD_WHY="COLD_RUNS=0"
bench_raw
{
	echo "# ltd-native exit-walk ingredients"
	echo "# kernel $(uname -r), $(nproc) CPUs, user $BENCH_USER, trees in $TREES ($(stat -f -c %T "$TREES"))"
	echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} >&2

# The timer: each row is "walkcost MODE ROOT INDEX ARGS"; it prints us=N.
cat >"$STAGE/wtimer.py" <<'EOF'
import os, random, re, subprocess, sys
runs, cold, raw, suite, n_dirs = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
rows = [r.split("\t") for r in sys.argv[6:]]
fifo = (open(cold, "w"), open(cold + ".ack")) if cold != "-" else None
rng = random.Random(20261201)
samples = {r[0]: [] for r in rows}
order = list(range(len(rows)))
for _ in range(runs):
    rng.shuffle(order)
    for i in order:
        if fifo:
            fifo[0].write("drop\n"); fifo[0].flush(); fifo[1].readline()
        out = subprocess.run(rows[i][1:], capture_output=True, text=True, check=True).stdout
        samples[rows[i][0]].append(int(re.search(r"us=(\d+)", out).group(1)) / 1000)
def med(xs):
    xs = sorted(xs); n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
ref = med(samples[rows[0][0]])
print("| pass | median ms | ms per 1,000 directories | vs today's walk |")
print("|---|---:|---:|---:|")
for r in rows:
    m = med(samples[r[0]])
    print(f"| {r[0]} | {m:.1f} | {m * 1000 / n_dirs:.2f} | {m / ref:.2f} |")
if raw != "-":
    with open(raw, "a") as f:
        for r in rows:
            for v in samples[r[0]]:
                f.write(f"{suite},\"{r[0]}\",{v:.4f}\n")
EOF
chmod 644 "$STAGE/wtimer.py"

for s in $SIZES; do
	[[ $s =~ ^[0-9]+$ && $s -ge 10 ]] || die "SIZES: '$s' is not a number of directories"
	dir=$TREES/tree-$s
	if [[ $(cat "$TREES/tree-$s.stamp" 2>/dev/null) != "gentree-v1 tree $s" ]]; then
		echo "# generating tree-$s in $TREES" >&2
		"${as_user[@]}" rm -rf "$dir"
		"${as_user[@]}" "$PY" "$STAGE/gentree.py" tree "$s" "$dir" >&2
		echo "gentree-v1 tree $s" | "${as_user[@]}" tee "$TREES/tree-$s.stamp" >/dev/null
	fi
	idx=$STAGE/index/$s
	"${as_user[@]}" "$WCS" index "$dir" "$idx" >/dev/null ||
		die "walkcost could not index $dir"
	n=$(wc -l <"$idx")
	rows=("today's walk: openat2 + getdents64 a directory	$WCS	walk	$dir"
		"statx a directory, one thread	$WCS	statx	$dir	$idx	1"
		"statx a directory, two threads	$WCS	statx	$dir	$idx	2"
		"statx through io_uring, one ring of $QUEUE	$WCS	uring	$dir	$idx	$QUEUE	1"
		"statx through io_uring, two rings of $QUEUE	$WCS	uring	$dir	$idx	$QUEUE	2"
		"the same, in inode order	$WCS	uring-ino	$dir	$idx	$QUEUE	2"
		"re-read every directory (open + getdents64)	$WCS	reread	$dir	$idx")
	for temp in warm cold; do
		runs=$RUNS fifo=-
		if [[ $temp == cold ]]; then
			[[ -n $COLD_FIFO && $COLD_RUNS -gt 0 ]] || continue
			runs=$COLD_RUNS fifo=$COLD_FIFO
		fi
		echo "### tree-$s ($n directories), $temp"
		echo
		rt=()
		[[ -z ${RT:-} ]] || rt=(chrt -f "$RT")
		"${rt[@]}" "${as_user[@]}" "$PY" -I -S "$STAGE/wtimer.py" "$runs" "$fifo" "$RAWTMP" \
			"walk-$temp-$s" "$n" "${rows[@]}"
		echo
	done
done
[[ -z $COLD_WHY ]] || echo "Not measured: cold rows: $COLD_WHY."
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
if [[ $RAWTMP != - ]]; then
	cp "$RAWTMP" "$RAW"
fi
