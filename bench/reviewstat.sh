#!/usr/bin/env bash
# `diff NAME --stat` of a review of FILES changed files (decision 0163):
# this ltd-native beside another (BASE, e.g. main's, which ran one diff(1)
# a file), on the same review, rows interleaved in shuffled rounds,
# medians and ratios (bench/timer.py).  Each file of the project (60 lines
# and a few blank ones, directories of 50) has a line changed, one deleted
# and one added by the review run.
#
# Usage: bash bench/reviewstat.sh [PATH_TO_LTD_NATIVE]   (default build/ltd-native)
# Environment: FILES=N      changed files (default 1000)
#              RUNS=N       timed runs per row (default 10)
#              WARMUP=N     untimed rounds first (default 1)
#              BASE=FILE    another ltd-native timed beside it
#              RAW=FILE     also write every sample as CSV (suite,row,ms)
#              RT=N         (root) the timer and its rows at SCHED_FIFO
#                           priority N (bench/lib.sh)
# Everything lives in a fresh directory under /tmp, removed at the end
# with the review.  Rows run as the bench user (bench/lib.sh).
set -euo pipefail

FILES=${FILES:-1000}
RUNS=${RUNS:-10}
WARMUP=${WARMUP:-1}
BASE=${BASE:-}
BENCH_USER=${BENCH_USER:-ltd-bench}
BIN=${1:-build/ltd-native}

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
die() { echo "reviewstat.sh: $*" >&2; exit 1; }

for v in FILES RUNS; do
	[[ ${!v} =~ ^[0-9]+$ && ${!v} -ge 1 ]] || die "$v must be a positive integer"
done
[[ $WARMUP =~ ^[0-9]+$ ]] || die "WARMUP must be a non-negative integer"
[[ -x $BIN && -f $BIN ]] || die "no executable ltd-native at '$BIN'"
[[ -z $BASE || (-x $BASE && -f $BASE) ]] || die "no executable ltd-native at BASE='$BASE'"
bench_python
bench_user

STAGE=$(mktemp -d /tmp/ltd-bench-reviewstat.XXXXXX)
REVIEWS=(bench-stat)
cleanup() {
	bench_discard_reviews
	rm -rf "$STAGE"
}
trap cleanup EXIT
chmod 755 "$STAGE"
LTD=$(stage_binary "$BIN" ltd-native)
[[ -z $BASE ]] || OLD=$(stage_binary "$BASE" ltd-native-base)
install -m 644 "$(dirname "$0")/timer.py" "$STAGE/"
W=$STAGE/work
mkdir -m 755 "$W"
[[ $(id -u) -ne 0 ]] || chown "$BENCH_USER": "$W"
"${as_user[@]}" mkdir -m 700 "$W/state" "$W/p"
as_user+=(XDG_STATE_HOME="$W/state")
[[ $(id -u) -eq 0 ]] || export XDG_STATE_HOME=$W/state
bench_raw

{
	echo "# ltd-native diff --stat benchmark"
	echo "# kernel $(uname -r), $(nproc) CPUs, user $BENCH_USER, $(diff --version | head -1)"
	echo "# ltd-native: $(sha256sum "$BIN" | cut -c1-16) ($BIN)"
	[[ -z $BASE ]] || echo "# BASE: $(sha256sum "$BASE" | cut -c1-16) ($BASE)"
	echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} >&2

(cd "$W/p" && "${as_user[@]}" "$PY" -I -S -c '
import os, sys
for i in range(int(sys.argv[1])):
    d = "src/d%03d" % (i // 50)
    os.makedirs(d, exist_ok=True)
    with open("%s/f%05d.c" % (d, i), "w") as f:
        for j in range(60):
            f.write("int v%d_%d = %d;\n%s" % (i, j, j * 7 % 100, "\n" if j % 7 == 0 else ""))
' "$FILES")
(cd "$W/p" && "${as_user[@]}" "$LTD" run --network none --review bench-stat -- \
	sh -c 'find src -type f -exec sed -i "3s/.*/changed/;20d;\$a tail" {} +' >/dev/null 2>&1) ||
	die "the review run failed"
S="ltd-native \`diff NAME --stat\`"
SEP=::row::
rows=("$SEP" "$S" "$LTD" diff bench-stat --stat --no-pager)
[[ -z $BASE ]] || rows+=("$SEP" "$S, BASE" "$OLD" diff bench-stat --stat --no-pager)
echo "### \`diff NAME --stat\` of a review of $FILES changed files"
echo
(cd "$W/p" && bench_timer --runs "$RUNS" --warmup "$WARMUP" --raw "$RAWTMP" \
	--suite review-stat --ref "$S" -- "${rows[@]}")
echo
"${as_user[@]}" "$LTD" diff bench-stat --stat --no-pager | tail -n 1 | sed 's/^ */Totals: /'
if [[ -n $BASE ]]; then
	cmp -s <(cd "$W/p" && "${as_user[@]}" "$LTD" diff bench-stat --stat --no-pager) \
		<(cd "$W/p" && "${as_user[@]}" "$OLD" diff bench-stat --stat --no-pager) &&
		echo "The two outputs are the same, byte for byte." ||
		echo "The two outputs differ."
fi
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
if [[ $RAWTMP != - ]]; then
	cp "$RAWTMP" "$RAW"
fi
