#!/usr/bin/env bash
# make bench-smoke: every benchmark in bench/ once, with tiny counts, and a
# check that each produced its figures (a table row with a number for each
# row it promises).  Benchmarks that nothing runs rot: a changed option or
# a new protection breaks them unnoticed (bench/dns.sh did).  Timing is
# never judged.  Runs as root, as CI does (the network benchmarks make test
# hosts); takes a minute or two.
#
# Usage: bash bench/smoke.sh BUILD_DIR
set -uo pipefail
B=${1:-build}
D=$(dirname "$0")
LOG=$(mktemp -d /tmp/ltd-bench-smoke.XXXXXX)
trap 'rm -rf "$LOG" "$TREES"' EXIT
TREES=$(mktemp -d /var/tmp/ltd-bench-smoke-trees.XXXXXX)
failed=0

# figures NAME FILE LABEL...: each LABEL begins a table row of FILE whose
# next cell is a number.
figures() {
	local name=$1 file=$2 label ok=1
	shift 2
	for label in "$@"; do
		if ! grep -F -- "| $label" "$file" | grep -Eq -- "^\| [^|]*\| *[0-9]+(\.[0-9]+)? *\|"; then
			echo "bench-smoke: $name: no figure for '$label'"
			ok=0
		fi
	done
	return $((1 - ok))
}

# smoke NAME CMD...: run CMD (output in LOG/NAME), then the checks that
# follow in the caller.
smoke() {
	local name=$1 t0=$SECONDS
	shift
	echo "== $name"
	if ! "$@" >"$LOG/$name" 2>"$LOG/$name.err"; then
		echo "bench-smoke: $name failed:"
		tail -n 20 "$LOG/$name.err" "$LOG/$name"
		failed=$((failed + 1))
		return 1
	fi
	echo "   done in $((SECONDS - t0)) s"
}

check() { # NAME LABEL...
	local name=$1
	shift
	if ! figures "$name" "$LOG/$name" "$@"; then
		cat "$LOG/$name"
		failed=$((failed + 1))
	fi
}

if [[ $(id -u) -ne 0 ]]; then
	echo "bench-smoke: must run as root (egress, dns and memory make test hosts or read init's smaps)" >&2
	exit 2
fi
[[ -c /dev/net/tun ]] && chmod 0666 /dev/net/tun

smoke startup env RAW="$LOG/startup.csv" RUNS=3 WARMUP=1 bash "$D/startup.sh" "$B/ltd-native" &&
	check startup "bare" "bubblewrap, agent config" "ltd-native \`run --network none\`" \
		"pasta alone, ltd-native's options" "ltd-native \`run\` (allowlist)"
smoke project env RAW="$LOG/project.csv" SIZES="300 600" RUNS=2 BIG_RUNS=1 COLD_RUNS=1 GIT_FILES=200 \
	GIT_COMMITS=20 TREES="$TREES" bash "$D/project.sh" "$B/ltd-native" &&
	check project "bubblewrap, agent config" "ltd-native \`run --network none\`" \
		"ltd-native \`run --network none --review NAME\`"
for t in empty tree-300 tree-600 git; do
	grep -q "^### $t .*warm" "$LOG/project" && grep -q "^### $t .*cold" "$LOG/project" ||
		{ echo "bench-smoke: project: no warm and cold table for $t"; failed=$((failed + 1)); }
	for temp in warm cold; do
		grep -Eq "^\| $t \| $temp \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|" "$LOG/project" ||
			{ echo "bench-smoke: project: no --review summary for $t, $temp"; failed=$((failed + 1)); }
	done
done
smoke review env RAW="$LOG/review.csv" RUNS=3 WARMUP=1 GIT_FILES=300 GIT_COMMITS=5 GIT_ROUNDS=1 \
	GIT_RUNS=1 NPM_FILES=20 NPM_ROUNDS=1 NPM_RUNS=1 APPLY_FILES=30 APPLY_ROUNDS=1 \
	bash "$D/review.sh" "$B/ltd-native" &&
	check review "bubblewrap, agent config" "ltd-native \`run --network none --review NAME\`" \
		"ltd-native \`run --network none\`, plain bind" \
		"ltd-native \`run --network none --review NAME\`, overlay" \
		"host: \`npm install\`" "ltd-native \`review NAME\`" "ltd-native \`diff NAME --stat\`" \
		"ltd-native \`apply NAME\`"
smoke reviewstat env RAW="$LOG/reviewstat.csv" FILES=20 RUNS=1 WARMUP=0 BASE="$B/ltd-native" \
	bash "$D/reviewstat.sh" "$B/ltd-native" &&
	check reviewstat "ltd-native \`diff NAME --stat\`" "ltd-native \`diff NAME --stat\`, BASE"
smoke walk env RAW="$LOG/walk.csv" SIZES="300 600" RUNS=1 COLD_RUNS=1 TREES="$TREES" bash "$D/walk.sh" "$B/bench/walkcost" &&
	check walk "today's walk" "statx a directory, one thread" "statx through io_uring, two rings"
smoke exec env RUNS=3 WARMUP=1 bash "$D/exec.sh" "$B/ltd-native" &&
	check exec "nsenter into the cage's namespaces" "ltd-native \`exec\`"
smoke memory env RUNS=1 bash "$D/memory.sh" "$B/ltd-native" &&
	check memory "bubblewrap, agent config" "ltd-native \`run --network none\`" \
		"ltd-native \`run\` (allowlist)"
smoke seccomp env ROUNDS=1 ITERS=2000 GIT_ROUNDS=1 GIT_RUNS=1 FILES=50 \
	bash "$D/seccomp.sh" "$B" &&
	check seccomp "bare" "bubblewrap, no filter" "ltd-native \`run --network none\`"
smoke landlock env ROUNDS=1 ITERS=2000 PROBE="$B/probe" \
	bash "$D/landlock.sh" "$B/bench/syscall_loop" "$B/ltd-native" &&
	check landlock "bare" "1: landlock only" "1: landlock + seccomp"
smoke egress env RUNS=1 SECS=1 STARTS=2 WARMUP=0 bash "$D/egress.sh" "$B/ltd-native" &&
	check egress "pasta alone, no rules" "ltd-native, allowlist + firewall" \
		"ltd-native \`run -- /bin/true\` (allowlist)"
# The plots, from what the three above wrote.
if smoke plot bash "$D/plot.sh" "$LOG/svg" "$LOG/startup.csv" "$LOG/project.csv" "$LOG/walk.csv"; then
	for f in startup project-size walk-size; do
		grep -q '<svg' "$LOG/svg/$f.svg" 2>/dev/null ||
			{ echo "bench-smoke: plot: no $f.svg"; failed=$((failed + 1)); }
	done
fi
# dns.sh prints lines, not a table: each must carry its number.
if smoke dns bash "$D/dns.sh" "$B/ltd-native" 50; then
	for l in "direct to the upstream" "through the filter (A, allowed)" \
		"through the filter (refused name)" "in the cage: resolve + connect"; do
		grep -F -- "$l" "$LOG/dns" | grep -Eq '[0-9]+' ||
			{ echo "bench-smoke: dns: no figure for '$l'"; failed=$((failed + 1)); }
	done
fi

# Every script in bench/ is run above: a new one must be added here.
for s in "$D"/*.sh; do
	case $(basename "$s") in
	lib.sh | smoke.sh) ;;
	*) [[ -e $LOG/$(basename "$s" .sh) ]] ||
		{ echo "bench-smoke: $(basename "$s") is not run by bench/smoke.sh"; failed=$((failed + 1)); } ;;
	esac
done
if [[ $failed -ne 0 ]]; then
	echo "bench-smoke: $failed failed"
	exit 1
fi
echo "bench-smoke: every benchmark produced its figures"
