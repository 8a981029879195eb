#!/usr/bin/env bash
# Start-up benchmark: how long does it take to start and tear down a cage
# around /bin/true?  Rows, timed round-robin in one run:
#
#   bare /bin/true; unshare -Urmpf --mount-proc
#   bubblewrap, the agent configuration (docs/performance.md)  <- the ratios
#   minibox: the same cage on raw syscalls + Landlock + seccomp (the floor;
#            needs MINIBOX, see bench/lib.sh; skipped, saying why, without)
#   ltd-native run --network none (an empty project)
#   pasta alone, with the options ltd-native gives it      <- allowlist ratio
#   ltd-native run (allowlist: pasta, the firewall, the DNS filter)
#   pasta alone, its AVX2 build exec'd directly as ltd-native does
#            (x86-64 with AVX2 and a pasta that has one)  <- second ratio
#
# Usage: bash bench/startup.sh [PATH_TO_LTD_NATIVE]     (default build/ltd-native)
# Environment: RUNS=N     timed runs per row (default 200)
#              WARMUP=N   untimed rounds first (default 10)
#              RAW=FILE   also write every sample (suite,row,ms) as CSV
#              BASE=FILE  also time another ltd-native (e.g. main's) in
#                         the same rounds, both modes
#              NET=0      leave out the allowlist rows (pasta)
#              MINIBOX, MINIBOX_BPF: the floor's row (bench/lib.sh)
#
# Everything measured runs as an ordinary user: started as root, the script
# creates (once) and uses the user ltd-bench.  Prints a markdown table to
# stdout.  Exits non-zero if a row's command fails; there is no pass/fail on
# timing.  Contacts no network: pasta's namespace reaches nothing here.
set -euo pipefail

RUNS=${RUNS:-200}
WARMUP=${WARMUP:-10}
BENCH_USER=${BENCH_USER:-ltd-bench}
BIN=${1:-build/ltd-native}
NET=${NET:-1}

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
bench_user

STAGE=$(mktemp -d /tmp/ltd-bench.XXXXXX)
trap 'rm -rf "$STAGE"' EXIT
chmod 755 "$STAGE"
install -m 644 "$(dirname "$0")/timer.py" "$STAGE/timer.py"
LTD=$(stage_binary "$BIN" ltd-native)
# Allowlist mode runs the DNS filter, ltd-dnsd, from beside the launcher.
[[ ! -x $(dirname "$BIN")/ltd-dnsd ]] || stage_binary "$(dirname "$BIN")/ltd-dnsd" ltd-dnsd >/dev/null
if [[ -n $BASE ]]; then
	mkdir -m 755 "$STAGE/base"
	install -m 755 "$BASE" "$STAGE/base/ltd-native"
	[[ ! -x $(dirname "$BASE")/ltd-dnsd ]] || install -m 755 "$(dirname "$BASE")/ltd-dnsd" "$STAGE/base/"
fi
PROJECT=$STAGE/project
mkdir "$PROJECT"
echo "benchmark project" >"$PROJECT/README"
[[ $(id -u) -ne 0 ]] || chown -R "$BENCH_USER": "$PROJECT"

# --- the rows -----------------------------------------------------------------
UNSHARE=$(command -v unshare)
bwrap_agent "$PROJECT"
bench_minibox "$PROJECT"
BW="bubblewrap, agent config"
MB="minibox (Landlock + seccomp): the floor"
NONE="ltd-native \`run --network none\`"
PASTA_ROW="pasta alone, ltd-native's options"
PASTA_AVX2_ROW="pasta alone, its AVX2 build as ltd-native starts it"
ALLOW="ltd-native \`run\` (allowlist)"
SEP=::row::
rows=("$SEP" "bare \`/bin/true\`" /bin/true
	"$SEP" "\`unshare -Urmpf --mount-proc\`" "$UNSHARE" -Urmpf --mount-proc /bin/true
	"$SEP" "$BW" "${bwrap_row[@]}" -- /bin/true)
[[ ${#minibox_row[@]} -eq 0 ]] || rows+=("$SEP" "$MB" "${minibox_row[@]}" -- /bin/true)
rows+=("$SEP" "$NONE" "$LTD" run --network none --project "$PROJECT" -- /bin/true)
[[ -z $BASE ]] || rows+=("$SEP" "$NONE, BASE" "$STAGE/base/ltd-native" run --network none --project "$PROJECT" -- /bin/true)

# pasta as ltd-native starts it (netfilter/pasta.c's fixed arguments: no
# port forwarding, its address plan, no DNS, no DHCP/RA, no gateway
# mapping, in the foreground), minus the readiness pipe and the namespaces
# it is handed (-P, --userns, --netns, --no-netns-quit): pasta's own
# start-up, making its namespaces and running the command itself.
NET_WHY=
ratios=()
if [[ $NET == 1 ]]; then
	if ! command -v pasta >/dev/null; then
		NET_WHY="pasta (passt) is not installed"
	elif ! "${as_user[@]}" test -r /dev/net/tun -a -w /dev/net/tun; then
		NET_WHY="/dev/net/tun is not usable by $BENCH_USER (mode 0666 expected)"
	elif [[ ! -x $STAGE/bin/ltd-dnsd ]]; then
		NET_WHY="no ltd-dnsd beside '$BIN'"
	else
		pasta_ltd=("$(command -v pasta)" -f -q --config-net -t none -u none -T none -U none
			-a 198.18.93.2 -n 24 -g 198.18.93.1 -a fd4c:7464:6e61::2 -g fd4c:7464:6e61::1
			-D none --no-dhcp --no-dhcpv6 --no-ra --no-map-gw)
		rows+=("$SEP" "$PASTA_ROW" "${pasta_ltd[@]}" -- /bin/true
			"$SEP" "$ALLOW" "$LTD" run --project "$PROJECT" -- /bin/true)
		ratios+=(--ratio-of "$PASTA_ROW=$PASTA_ROW" --ratio-of "$ALLOW=$PASTA_ROW")
		# ltd-native execs the AVX2 build pasta would exec itself
		# (decision 0152), saving pasta's second exec; the same row
		# started that way (a "pasta.avx2" link: argv[0] names pasta)
		# is the second ratio column, the comparison without it.
		pasta_real=$(readlink -f "$(command -v pasta)")
		if grep -qw avx2 /proc/cpuinfo && [[ -x $pasta_real.avx2 ]]; then
			ln -s "$pasta_real.avx2" "$STAGE/pasta.avx2"
			rows+=("$SEP" "$PASTA_AVX2_ROW" "$STAGE/pasta.avx2" "${pasta_ltd[@]:1}" -- /bin/true)
			ratios+=(--ratio-of "$PASTA_AVX2_ROW=$PASTA_ROW" --ref2 "$PASTA_AVX2_ROW")
		fi
		if [[ -n $BASE && -x $STAGE/base/ltd-dnsd ]]; then
			rows+=("$SEP" "$ALLOW, BASE" "$STAGE/base/ltd-native" run --project "$PROJECT" -- /bin/true)
			ratios+=(--ratio-of "$ALLOW, BASE=$PASTA_ROW")
		fi
	fi
fi

bench_raw
{
	echo "# ltd-native start-up benchmark"
	echo "# kernel $(uname -r), $(nproc) CPUs, user $BENCH_USER, runs $RUNS, warmup $WARMUP"
	echo "# $(bwrap --version 2>/dev/null || echo bwrap), $("$UNSHARE" --version 2>/dev/null | head -1), passt $(dpkg-query -W -f '${Version}' passt 2>/dev/null || echo ?)"
	echo "# ltd-native: $(sha256sum "$BIN" | cut -c1-16) ($BIN)"
	[[ -z $BASE ]] || echo "# BASE: $(sha256sum "$BASE" | cut -c1-16) ($BASE)"
	echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} >&2

cd "$PROJECT"
bench_timer --runs "$RUNS" --warmup "$WARMUP" --raw "$RAWTMP" --suite startup \
	--ref "$BW" "${ratios[@]}" -- "${rows[@]}"

echo
[[ -z $MINIBOX_WHY ]] || echo "Not measured: the floor (minibox): $MINIBOX_WHY."
[[ -z $NET_WHY ]] || echo "Not measured: the allowlist rows: $NET_WHY."
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "Command lines (PROJECT = a fresh directory owned by the bench user):"
echo
show() {
	local a out=""
	for a in "$@"; do
		a=${a//$PROJECT/PROJECT}
		a=${a//$STAGE\/base\//BASE\/}
		a=${a//$STAGE\/bin\//}
		out+="${a//$STAGE\//} "
	done
	echo "${out% }"
}
echo '```'
i=0
while ((i < ${#rows[@]})); do
	i=$((i + 2))
	cmd=()
	while ((i < ${#rows[@]})) && [[ ${rows[i]} != "$SEP" ]]; do
		cmd+=("${rows[i]}")
		i=$((i + 1))
	done
	show "${cmd[@]}"
done
echo '```'

if [[ $RAWTMP != - ]]; then
	cp "$RAWTMP" "$RAW"
fi
