#!/usr/bin/env bash
# Realistic projects: what a run of /bin/true costs, start to exit, in an
# empty project, in generated node_modules-like trees of SIZES directories,
# and in a real git repository, warm and cold, beside bubblewrap and the
# floor (minibox).  bubblewrap and minibox bind the project and never look
# into it; ltd-native reads it before (protected paths, git's
# configuration) and after the run (the planted-repository walk,
# docs/decisions/0092-planted-repositories-found-at-exit.md): this is the
# suite that shows what that costs as the project grows.  A row with
# `--review NAME` beside it: the project below an overlay, only the upper
# directory read at exit (issue 17: at most 1.5x bubblewrap, flat from
# 20,000 to 200,000 directories).
#
# Usage: bash bench/project.sh [PATH_TO_LTD_NATIVE]   (default build/ltd-native)
# Environment: SIZES="20000 200000"  tree sizes, in directories
#              RUNS=N        warm samples per row, trees under 50,000
#                            directories and the others (default 20)
#              BIG_RUNS=N    warm samples per row for bigger trees (default 5)
#              COLD_RUNS=N   cold samples per row (default 3; 0: no cold rows)
#              GIT_FILES=N GIT_COMMITS=N   the repository (default 10000, 1000)
#              TREES=DIR     where the projects are generated and kept for the
#                            next run (default /var/tmp/ltd-bench-trees; must
#                            be on a disk for cold figures to mean anything)
#              RAW=FILE      also write every sample as CSV (suite,row,ms)
#              BASE=FILE     also time another ltd-native (e.g. main's) in
#                            the same rounds, plain and --review
#              MINIBOX, MINIBOX_BPF: the floor's row (bench/lib.sh)
# Cold rows drop the page cache, dentries and inodes before every sample
# (root only; otherwise the output says they were not measured).  Rows run
# as the bench user (bench/lib.sh).  No pass/fail on timing; no network.
set -euo pipefail

SIZES=${SIZES:-20000 200000}
RUNS=${RUNS:-20}
BIG_RUNS=${BIG_RUNS:-5}
COLD_RUNS=${COLD_RUNS:-3}
GIT_FILES=${GIT_FILES:-10000}
GIT_COMMITS=${GIT_COMMITS:-1000}
TREES=${TREES:-/var/tmp/ltd-bench-trees}
BENCH_USER=${BENCH_USER:-ltd-bench}
BIN=${1:-build/ltd-native}
BASE=${BASE:-}

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
die() { echo "project.sh: $*" >&2; exit 1; }

for v in RUNS BIG_RUNS GIT_FILES GIT_COMMITS; do
	[[ ${!v} =~ ^[0-9]+$ && ${!v} -ge 1 ]] || die "$v must be a positive integer"
done
[[ $COLD_RUNS =~ ^[0-9]+$ ]] || die "COLD_RUNS must be a non-negative integer"
for s in $SIZES; do
	[[ $s =~ ^[0-9]+$ && $s -ge 10 ]] || die "SIZES: '$s' is not a number of directories (10 or more)"
done
[[ -x $BIN && -f $BIN ]] || die "no executable ltd-native at '$BIN'"
[[ -z $BASE || ( -x $BASE && -f $BASE ) ]] || die "no executable ltd-native at BASE='$BASE'"
for tool in bwrap python3 git; do
	command -v "$tool" >/dev/null || die "$tool is not installed"
done
bench_python
bench_user

STAGE=$(mktemp -d /tmp/ltd-bench-project.XXXXXX)
# The --review rows' reviews (one a project, in the bench user's state
# directory), discarded at the end.
REVIEWS=()
trap 'bench_cold_stop; bench_discard_reviews; rm -rf "$STAGE"' EXIT
chmod 755 "$STAGE"
install -m 644 "$(dirname "$0")/timer.py" "$(dirname "$0")/gentree.py" "$STAGE/"
LTD=$(stage_binary "$BIN" ltd-native)
[[ -z $BASE ]] || LTD_BASE=$(stage_binary "$BASE" ltd-native-base)

# --- the projects, generated once and kept -------------------------------------
# Each in TREES/NAME, made by the bench user; a stamp names what it holds,
# so a change of shape or size makes it again.
mkdir -p "$TREES"
chmod 755 "$TREES"
[[ $(id -u) -ne 0 ]] || chown "$BENCH_USER": "$TREES"
fstype=$(stat -f -c %T "$TREES")
project() { # NAME STAMP GENERATOR-ARGS...
	local name=$1 stamp=$2 dir=$TREES/$1
	shift 2
	if [[ $(cat "$TREES/$name.stamp" 2>/dev/null) != "$stamp" ]]; then
		echo "# generating $name ($stamp) in $TREES" >&2
		"${as_user[@]}" rm -rf "$dir" "$TREES/$name.stamp"
		"${as_user[@]}" "$PY" "$STAGE/gentree.py" "$@" "$dir" >&2
		echo "$stamp" | "${as_user[@]}" tee "$TREES/$name.stamp" >/dev/null
	fi
}
names=(empty)
if [[ ! -d $TREES/empty ]]; then
	"${as_user[@]}" mkdir "$TREES/empty"
	echo "benchmark project" | "${as_user[@]}" tee "$TREES/empty/README" >/dev/null
fi
for s in $SIZES; do
	project "tree-$s" "gentree-v1 tree $s" tree "$s"
	names+=("tree-$s")
done
project git "gentree-v1 git $GIT_FILES $GIT_COMMITS" git "$GIT_FILES" "$GIT_COMMITS"
names+=(git)

dirs_of() { find "$TREES/$1" -xdev -type d 2>/dev/null | wc -l; }

bench_minibox "$TREES/empty"
bench_cold_start
[[ $COLD_RUNS -gt 0 ]] || COLD_WHY="COLD_RUNS=0"
bench_raw
{
	echo "# ltd-native realistic-project benchmark"
	echo "# kernel $(uname -r), $(nproc) CPUs, user $BENCH_USER, $(bwrap --version), $(git --version)"
	echo "# ltd-native: $(sha256sum "$BIN" | cut -c1-16) ($BIN)"
	[[ -z $BASE ]] || echo "# BASE: $(sha256sum "$BASE" | cut -c1-16) ($BASE)"
	echo "# projects in $TREES ($fstype)"
	echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} >&2
[[ $fstype != tmpfs ]] || echo "Note: $TREES is a tmpfs: the cold rows measure nothing more than the warm ones."

BW="bubblewrap, agent config"
MB="minibox (Landlock + seccomp)"
LN="ltd-native \`run --network none\`"
LR="ltd-native \`run --network none --review NAME\`"
SEP=::row::
# suite WARM|COLD NAME RUNS: one table, the rows interleaved.
suite() {
	local temp=$1 name=$2 runs=$3 dir=$TREES/$2 cold=() rows
	local review=bench-project-$$-$2
	bwrap_agent "$dir"
	rows=("$SEP" "$BW" "${bwrap_row[@]}" -- /bin/true)
	if [[ ${#minibox_row[@]} -gt 0 ]]; then
		bench_minibox "$dir"
		rows+=("$SEP" "$MB" "${minibox_row[@]}" -- /bin/true)
	fi
	rows+=("$SEP" "$LN" "$LTD" run --network none --project "$dir" -- /bin/true)
	# One review a project, continued by every sample (/bin/true writes
	# nothing: its upper stays empty, as an agent's first run's does).
	rows+=("$SEP" "$LR" "$LTD" run --network none --review "$review" --project "$dir" -- /bin/true)
	if [[ -n $BASE ]]; then
		rows+=("$SEP" "$LN, BASE" "$LTD_BASE" run --network none --project "$dir" -- /bin/true)
		rows+=("$SEP" "$LR, BASE" "$LTD_BASE" run --network none --review "$review-base" --project "$dir" -- /bin/true)
	fi
	[[ $temp == warm ]] || cold=(--cold "$COLD_FIFO")
	echo "### $name ($(dirs_of "$name") directories), $temp"
	echo
	(cd "$dir" && bench_timer --runs "$runs" --warmup "$([[ $temp == warm ]] && echo 2 || echo 0)" \
		--raw "$RAWTMP" --suite "project-$temp-$name" --ref "$BW" --ref2 "$LN" "${cold[@]}" -- "${rows[@]}")
	echo
}

for name in "${names[@]}"; do
	REVIEWS+=("bench-project-$$-$name" "bench-project-$$-$name-base")
done
for name in "${names[@]}"; do
	runs=$RUNS
	if [[ $name == tree-* && ${name#tree-} -ge 50000 ]]; then runs=$BIG_RUNS; fi
	suite warm "$name" "$runs" | tee -a "$STAGE/tables"
	if [[ -n $COLD_FIFO && $COLD_RUNS -gt 0 ]]; then
		suite cold "$name" "$COLD_RUNS" | tee -a "$STAGE/tables"
	fi
done
# The --review row across the projects (issue 17: at most 1.5x
# bubblewrap, flat in the project's size).
echo "### \`--review\` across the projects"
echo
echo "| project | temperature | bubblewrap ms | --review ms | ratio | plain run ms |"
echo "|---|---|---:|---:|---:|---:|"
awk -F' *[|] *' -v bw="$BW" -v ln="$LN" -v lr="$LR" '
	/^### / { split($0, h, " "); proj = h[2]; temp = $0; sub(/.*, /, "", temp) }
	$2 == bw { b = $3 }
	$2 == ln { p = $3 }
	$2 == lr { printf "| %s | %s | %s | %s | %.2f | %s |\n", proj, temp, b, $3, $3 / b, p }
' "$STAGE/tables"
echo
[[ -z $MINIBOX_WHY ]] || echo "Not measured: the floor (minibox): $MINIBOX_WHY."
[[ -z $COLD_WHY ]] || echo "Not measured: cold rows: $COLD_WHY."
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "Command lines (PROJECT = one of the projects above):"
echo
bwrap_agent PROJECT
echo '```'
echo "${bwrap_row[*]} -- /bin/true"
[[ ${#minibox_row[@]} -eq 0 ]] || echo "minibox -p PROJECT -L -s allow300.bpf -- /bin/true"
echo "ltd-native run --network none --project PROJECT -- /bin/true"
echo "ltd-native run --network none --review NAME --project PROJECT -- /bin/true"
echo '```'
if [[ $RAWTMP != - ]]; then
	cp "$RAWTMP" "$RAW"
fi
