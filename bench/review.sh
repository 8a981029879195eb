#!/usr/bin/env bash
# Review mode (`run --review NAME`, issue 15 "Speed"): what the overlay
# costs against the plain bind of the project, side by side in one run,
# rows interleaved in shuffled rounds, medians and ratios:
#
#   a. start-up + exit of `-- /bin/true` in an empty project, `--network
#      none`, with and without `--review NAME`, bubblewrap's agent
#      configuration as the reference (as bench/startup.sh);
#   b. `git status --short` in a real git repository of GIT_FILES files: on the
#      host, in a cage through the plain bind and through the overlay,
#      timed inside the cage (`repeat.py run`: start-up not counted); and
#      the whole run (`run -- git status --short`, start to exit) beside
#      bubblewrap's;
#   c. `npm install --offline` of a local package tarball (made here with
#      `npm pack`, a `file:` dependency: no registry, no network) into the
#      project: on the host, through the plain bind, into the overlay;
#   d. a review of APPLY_FILES changed files: the review run that edits
#      them, `review NAME`, `diff NAME --stat`, `apply NAME`, beside the
#      same edit through the plain bind, `git status --short` and `git diff
#      --stat` over it on the host, and the edit made by the host itself.
#
# Usage: bash bench/review.sh [PATH_TO_LTD_NATIVE]   (default build/ltd-native)
# Environment: RUNS=N WARMUP=N   case a: timed runs per row, untimed rounds
#                              (default 200, 10)
#              GIT_FILES=N GIT_COMMITS=N   case b's repository (20000, 200)
#              GIT_ROUNDS=N GIT_RUNS=N     case b: rounds, `git status` runs
#                              per row per round (default 6, 3)
#              NPM_FILES=N     files in the package (default 200)
#              NPM_ROUNDS=N NPM_RUNS=N     case c (default 6, 3)
#              APPLY_FILES=N   files the review changes (default 1000)
#              APPLY_ROUNDS=N  case d's rounds (default 5)
#              CASES="a b c d" which cases to run
#              RAW=FILE        also write every sample as CSV (suite,row,ms)
#              RT=N            (root) every timer and its rows at SCHED_FIFO
#                              priority N (bench/lib.sh)
# Everything lives in a fresh directory under /tmp (on this machine's
# disk, not a tmpfs, as a project would be): the projects, the bench
# user's reviews (XDG_STATE_HOME points there), the staged binaries; the
# reviews are discarded and the directory removed at the end.  Rows run as
# the bench user (bench/lib.sh).  No pass/fail on timing; no network.
set -euo pipefail

RUNS=${RUNS:-200}
WARMUP=${WARMUP:-10}
GIT_FILES=${GIT_FILES:-20000}
GIT_COMMITS=${GIT_COMMITS:-200}
GIT_ROUNDS=${GIT_ROUNDS:-6}
GIT_RUNS=${GIT_RUNS:-3}
NPM_FILES=${NPM_FILES:-200}
NPM_ROUNDS=${NPM_ROUNDS:-6}
NPM_RUNS=${NPM_RUNS:-3}
APPLY_FILES=${APPLY_FILES:-1000}
APPLY_ROUNDS=${APPLY_ROUNDS:-5}
CASES=${CASES:-a b c d}
BENCH_USER=${BENCH_USER:-ltd-bench}
BIN=${1:-build/ltd-native}

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
die() { echo "review.sh: $*" >&2; exit 1; }

for v in RUNS GIT_FILES GIT_COMMITS GIT_ROUNDS GIT_RUNS NPM_FILES NPM_ROUNDS \
	NPM_RUNS APPLY_FILES APPLY_ROUNDS; do
	[[ ${!v} =~ ^[0-9]+$ && ${!v} -ge 1 ]] || die "$v must be a positive integer"
done
[[ $WARMUP =~ ^[0-9]+$ ]] || die "WARMUP must be a non-negative integer"
for c in $CASES; do
	[[ $c == [abcd] ]] || die "CASES: '$c' is not one of a b c d"
done
[[ -x $BIN && -f $BIN ]] || die "no executable ltd-native at '$BIN'"
for tool in bwrap python3 git; do
	command -v "$tool" >/dev/null || die "$tool is not installed"
done
has() { [[ " $CASES " == *" $1 "* ]]; }
bench_python
bench_user

STAGE=$(mktemp -d /tmp/ltd-bench-review.XXXXXX)
REVIEWS=()
cleanup() {
	bench_discard_reviews
	rm -rf "$STAGE"
}
trap cleanup EXIT
chmod 755 "$STAGE"
H=$STAGE/bin # the helpers, bound read-only into the cages
LTD=$(stage_binary "$BIN" ltd-native)
install -m 644 "$(dirname "$0")/timer.py" "$STAGE/"
install -m 644 "$(dirname "$0")/repeat.py" "$(dirname "$0")/timer.py" \
	"$(dirname "$0")/gentree.py" "$H/"
# The bench user's own corner: the projects, and its reviews.
W=$STAGE/work
mkdir -m 755 "$W"
[[ $(id -u) -ne 0 ]] || chown "$BENCH_USER": "$W"
"${as_user[@]}" mkdir -m 700 "$W/state"
if [[ ${#as_user[@]} -gt 0 ]]; then
	as_user+=(XDG_STATE_HOME="$W/state")
else
	export XDG_STATE_HOME=$W/state
fi
u() { "${as_user[@]}" "$@"; }
# rtu CMD...: CMD as the bench user, at SCHED_FIFO priority RT if set (as
# bench_timer runs bench/timer.py).
rtu() {
	local rt=()
	if [[ -n ${RT:-} ]]; then
		[[ $(id -u) -eq 0 ]] || die "RT needs root"
		rt=(chrt -f "$RT")
	fi
	"${rt[@]}" "${as_user[@]}" "$@"
}
bench_raw

{
	echo "# ltd-native review-mode benchmark"
	echo "# kernel $(uname -r), $(nproc) CPUs, user $BENCH_USER, $(bwrap --version), $(git --version)"
	echo "# ltd-native: $(sha256sum "$BIN" | cut -c1-16) ($BIN)"
	echo "# projects and reviews in $STAGE ($(stat -f -c %T "$STAGE"))"
	echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} >&2

BW="bubblewrap, agent config"
LN="ltd-native \`run --network none\`"
LR="ltd-native \`run --network none --review NAME\`"
SEP=::row::
NOT=()
# in_cage REVIEW PROJECT: cage=(...), a run in PROJECT (with --review
# REVIEW unless it is "-") that sees the helpers; append "--" and a command.
in_cage() {
	cage=("$LTD" run --network none --project "$2" --ro-bind "$H" "$H")
	if [[ $1 != - ]]; then
		cage+=(--review "$1")
		REVIEWS+=("$1")
	fi
}
# git_repo DIR FILES COMMITS: gentree.py's repository, its index refreshed
# once the files' times are in the past (git status then only reads).
git_repo() {
	u "$PY" "$H/gentree.py" git "$2" "$3" "$1" >&2
	(cd "$1" && u sh -c 'sleep 1.1 && git update-index -q --really-refresh && git status >/dev/null')
}

# --- a. start-up and exit --------------------------------------------------------
if has a; then
	P=$W/empty
	u mkdir "$P"
	echo "benchmark project" | u tee "$P/README" >/dev/null
	bwrap_agent "$P"
	REVIEWS+=(bench-startup)
	rows=("$SEP" "$BW" "${bwrap_row[@]}" -- /bin/true
		"$SEP" "$LN" "$LTD" run --network none --project "$P" -- /bin/true
		"$SEP" "$LR" "$LTD" run --network none --review bench-startup --project "$P" -- /bin/true)
	echo "### a. start-up and exit of \`/bin/true\`, an empty project"
	echo
	(cd "$P" && bench_timer --runs "$RUNS" --warmup "$WARMUP" --raw "$RAWTMP" \
		--suite review-startup --ref "$BW" --ref2 "$LN" -- "${rows[@]}")
	echo
fi

# --- b. git status ---------------------------------------------------------------
if has b; then
	P=$W/git
	echo "# generating a repository of $GIT_FILES files, $GIT_COMMITS commits" >&2
	git_repo "$P" "$GIT_FILES" "$GIT_COMMITS"
	GIT=$(command -v git)
	inner=("$PY" -I -S "$H/repeat.py" run "$GIT_RUNS" -- git status --short)
	rows=("$SEP" "host: \`git status --short\`" "${inner[@]}")
	in_cage - "$P"
	rows+=("$SEP" "$LN, plain bind" "${cage[@]}" -- "${inner[@]}")
	in_cage bench-git "$P"
	rows+=("$SEP" "$LR, overlay" "${cage[@]}" -- "${inner[@]}")
	echo "### b. \`git status --short\`, $GIT_FILES files ($(find "$P" -type d | wc -l) directories), timed inside the cage"
	echo
	(cd "$P" && rtu "$PY" -I -S "$H/repeat.py" rounds --rounds "$GIT_ROUNDS" \
		--raw "$RAWTMP" --suite review-git -- "${rows[@]}")
	echo
	bwrap_agent "$P"
	rows=("$SEP" "host: \`git status --short\`" "$GIT" status --short
		"$SEP" "$BW" "${bwrap_row[@]}" --chdir "$P" -- "$GIT" status --short
		"$SEP" "$LN" "$LTD" run --network none --project "$P" -- "$GIT" status --short
		"$SEP" "$LR" "$LTD" run --network none --review bench-git --project "$P" -- "$GIT" status --short)
	echo "### b. the whole run of \`git status --short\`, start to exit"
	echo
	(cd "$P" && bench_timer --runs $((GIT_ROUNDS * GIT_RUNS)) --warmup 1 --raw "$RAWTMP" \
		--suite review-git-run --ref "$BW" --ref2 "$LN" -- "${rows[@]}")
	echo
fi

# --- c. npm install ----------------------------------------------------------------
NPM=$(command -v npm || true)
if has c && [[ -z $NPM ]]; then
	NOT+=("c. npm install: npm is not installed")
elif has c && [[ $(readlink -f "$NPM") != /usr/* ]]; then
	NOT+=("c. npm install: npm ($(readlink -f "$NPM")) is not under /usr, which is all a cage sees of the host")
elif has c; then
	src=$W/pkgsrc/bench-pkg
	u mkdir -p "$src" "$W/npmcache"
	# The package: NPM_FILES small modules in directories of 20.
	(cd "$src" && u "$PY" -I -S -c '
import json, os, sys
n = int(sys.argv[1])
json.dump({"name": "bench-pkg", "version": "1.0.0", "main": "index.js",
           "license": "MIT"}, open("package.json", "w"))
open("index.js", "w").write("module.exports = require(\"./lib/d000/m00000.js\");\n")
for i in range(n):
    d = "lib/d%03d" % (i // 20)
    os.makedirs(d, exist_ok=True)
    open("%s/m%05d.js" % (d, i), "w").write("module.exports = %d;\n" % i)
' "$NPM_FILES")
	(cd "$src" && u "$NPM" pack --quiet --offline --no-update-notifier \
		--cache "$W/npmcache/pack" \
		--pack-destination "$W/pkgsrc" >/dev/null)
	P=$W/npm
	u mkdir "$P"
	u cp "$W/pkgsrc/bench-pkg-1.0.0.tgz" "$P/"
	echo '{"name": "app", "version": "1.0.0", "private": true, "dependencies": {"bench-pkg": "file:bench-pkg-1.0.0.tgz"}}' |
		u tee "$P/package.json" >/dev/null
	# Each row its own npm cache, emptied before every install, as are
	# node_modules and the lock file: every install does the same work.
	npm_in() { # CACHE
		inner=("$PY" -I -S "$H/repeat.py" run "$NPM_RUNS" node_modules package-lock.json "$1/"
			-- npm install --offline --no-audit --no-fund --ignore-scripts
			--no-update-notifier --cache "$1")
	}
	u mkdir "$W/npmcache/host" "$W/npmcache/plain" "$W/npmcache/review"
	npm_in "$W/npmcache/host"
	rows=("$SEP" "host: \`npm install\`" "${inner[@]}")
	in_cage - "$P"
	npm_in "$W/npmcache/plain"
	rows+=("$SEP" "$LN, plain bind" "${cage[@]}" --bind "$W/npmcache/plain" "$W/npmcache/plain" -- "${inner[@]}")
	in_cage bench-npm "$P"
	npm_in "$W/npmcache/review"
	rows+=("$SEP" "$LR, overlay" "${cage[@]}" --bind "$W/npmcache/review" "$W/npmcache/review" -- "${inner[@]}")
	echo "### c. \`npm install --offline\` of a local package of $NPM_FILES files, timed inside the cage"
	echo
	(cd "$P" && rtu "$PY" -I -S "$H/repeat.py" rounds --rounds "$NPM_ROUNDS" \
		--raw "$RAWTMP" --suite review-npm -- "${rows[@]}")
	echo
fi

# --- d. a review of APPLY_FILES changed files ---------------------------------------------
if has d; then
	echo "# generating two repositories of $APPLY_FILES files" >&2
	git_repo "$W/apply" "$APPLY_FILES" 10
	git_repo "$W/apply-twin" "$APPLY_FILES" 10
	REVIEWS+=(bench-apply)
	echo "### d. a review of $APPLY_FILES changed files"
	echo
	(cd "$W/apply" && rtu "$PY" -I -S "$H/repeat.py" apply --rounds "$APPLY_ROUNDS" \
		--files "$APPLY_FILES" --ltd "$LTD" --project "$W/apply" --twin "$W/apply-twin" \
		--name bench-apply --repeat "$H/repeat.py" --py "$PY" --raw "$RAWTMP" \
		--suite review-apply -- --ro-bind "$H" "$H")
	echo
fi

for n in "${NOT[@]}"; do echo "Not measured: $n."; done
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "Command lines (PROJECT = the case's project, owned by the bench user; H = the helpers):"
echo
echo '```'
bwrap_agent PROJECT
echo "${bwrap_row[*]} -- /bin/true"
echo "ltd-native run --network none --project PROJECT -- /bin/true"
echo "ltd-native run --network none --review NAME --project PROJECT -- /bin/true"
echo "ltd-native run --network none [--review NAME] --project PROJECT --ro-bind H H -- python3 H/repeat.py run N -- git status --short"
echo "ltd-native run --network none [--review NAME] --project PROJECT --ro-bind H H --bind CACHE CACHE -- python3 H/repeat.py run N node_modules package-lock.json CACHE/ -- npm install --offline --no-audit --no-fund --ignore-scripts --no-update-notifier --cache CACHE"
echo "ltd-native run --network none --review NAME --project PROJECT --ro-bind H H -- python3 H/repeat.py rewrite PROJECT $APPLY_FILES TAG"
echo "ltd-native review NAME; ltd-native diff NAME --stat --no-pager; ltd-native apply NAME"
echo '```'
if [[ $RAWTMP != - ]]; then
	cp "$RAWTMP" "$RAW"
fi
