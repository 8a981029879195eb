#!/usr/bin/env bash
# `exec` into a named cage against nsenter into the same namespaces: the
# latency of running /bin/true in a cage that is already up.  Rows,
# interleaved:
#   nsenter -t PID -U -m -p -n -i -u -C -r -w --preserve-credentials
#       (PID: the cage's command, a process of the bench user's)   <- ratios
#   ltd-native exec NAME -- /bin/true   (joins the same namespaces through
#       the launcher's control socket, then the command's own steps: caps,
#       no_new_privs, Landlock, seccomp; relays output and status)
#   ltd-native run --network none -- /bin/true   (a fresh cage, for scale)
#
# Usage: bash bench/exec.sh [PATH_TO_LTD_NATIVE]     (default build/ltd-native)
# Environment: RUNS=N (default 100), WARMUP=N (default 5), RAW=FILE
# Rows run as the bench user (bench/lib.sh).  No pass/fail on timing; no
# network.
set -euo pipefail

RUNS=${RUNS:-100}
WARMUP=${WARMUP:-5}
BENCH_USER=${BENCH_USER:-ltd-bench}
BIN=${1:-build/ltd-native}

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
die() { echo "exec.sh: $*" >&2; exit 1; }
[[ $RUNS =~ ^[0-9]+$ && $RUNS -ge 1 ]] || die "RUNS must be a positive integer"
[[ $WARMUP =~ ^[0-9]+$ ]] || die "WARMUP must be a non-negative integer"
[[ -x $BIN && -f $BIN ]] || die "no executable ltd-native at '$BIN'"
for tool in nsenter python3; do
	command -v "$tool" >/dev/null || die "$tool is not installed"
done
bench_python
bench_user

NAME=ltd-bench-exec-$$
CAGE_PID=
STAGE=$(mktemp -d /tmp/ltd-bench-exec.XXXXXX)
cleanup() {
	set +e
	if [[ -n $CAGE_PID ]]; then
		"${as_user[@]}" "$LTD" kill "$NAME" >/dev/null 2>&1
		wait "$CAGE_PID" 2>/dev/null
	fi
	rm -rf "$STAGE"
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM
chmod 755 "$STAGE"
install -m 644 "$(dirname "$0")/timer.py" "$STAGE/timer.py"
LTD=$(stage_binary "$BIN" ltd-native)
PROJECT=$STAGE/project
mkdir "$PROJECT"
[[ $(id -u) -ne 0 ]] || chown "$BENCH_USER": "$PROJECT"

# The named cage: its command sleeps until killed.
(cd "$PROJECT" && exec "${as_user[@]}" "$LTD" run --quiet --name "$NAME" \
	--network none --project "$PROJECT" -- sleep 86400 </dev/null >/dev/null 2>&1) &
CAGE_PID=$!
pid=
for _ in $(seq 100); do
	pid=$("${as_user[@]}" "$LTD" ps --json 2>/dev/null | "$PY" -c '
import json, sys
for c in json.load(sys.stdin):
    if c["name"] == sys.argv[1] and c.get("command_pid", 0) > 0:
        print(c["command_pid"])' "$NAME" 2>/dev/null || true)
	[[ -z $pid ]] || break
	sleep 0.1
done
[[ -n $pid ]] || die "the named cage $NAME did not come up"

NS="nsenter into the cage's namespaces"
EX="ltd-native \`exec\`"
SEP=::row::
rows=("$SEP" "$NS" "$(command -v nsenter)" -t "$pid" -U -m -p -n -i -u -C -r -w
	--preserve-credentials -- /bin/true
	"$SEP" "$EX" "$LTD" exec "$NAME" -- /bin/true
	"$SEP" "ltd-native \`run --network none\` (a fresh cage)" "$LTD" run --network none
	--project "$PROJECT" -- /bin/true)
bench_raw
{
	echo "# ltd-native exec benchmark"
	echo "# kernel $(uname -r), $(nproc) CPUs, user $BENCH_USER, runs $RUNS, $(nsenter --version)"
	echo "# ltd-native: $(sha256sum "$BIN" | cut -c1-16) ($BIN)"
	echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} >&2
cd "$PROJECT"
bench_timer --runs "$RUNS" --warmup "$WARMUP" --raw "$RAWTMP" --suite exec \
	--ref "$NS" -- "${rows[@]}"
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "Command lines (PID = the named cage's command, NAME its name):"
echo
echo '```'
echo "nsenter -t PID -U -m -p -n -i -u -C -r -w --preserve-credentials -- /bin/true"
echo "ltd-native exec NAME -- /bin/true"
echo "ltd-native run --network none --project PROJECT -- /bin/true"
echo '```'
if [[ $RAWTMP != - ]]; then
	cp "$RAWTMP" "$RAW"
fi
