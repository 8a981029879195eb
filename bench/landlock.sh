#!/usr/bin/env bash
# Landlock's cost on the path walk: openat+close of a file in the project,
# bare and inside ltd-native, for one or more ltd-native binaries (e.g. the
# build before and after a change to confine/landlock.c).  Seccomp is off in
# the ltd-native rows (--unsafe-no-seccomp) so that what differs is the
# Landlock domain; a row with seccomp on shows the whole.
#
# Usage: bash bench/landlock.sh SYSCALL_LOOP LTD_NATIVE [LTD_NATIVE...]
# With PROBE=build/probe, a row for the last binary without Landlock
# (`probe no-landlock` makes landlock_create_ruleset fail with ENOSYS, as on
# a kernel without it): the cage's own cost, Landlock's apart.
# Environment: ROUNDS=N (default 15), ITERS=N (default 1000000: open_close
#              does ITERS/10), DEPTH=N directories between the project and
#              / (default 4: /tmp/STAGE/a/b/project), BENCH_USER (as root:
#              ltd-bench).
# Markdown on stdout; no pass/fail on timing.  Contacts no network.
set -euo pipefail

ROUNDS=${ROUNDS:-15}
ITERS=${ITERS:-1000000}
DEPTH=${DEPTH:-4}
BENCH_USER=${BENCH_USER:-ltd-bench}
[[ $# -ge 2 ]] || { echo "usage: $0 SYSCALL_LOOP LTD_NATIVE..." >&2; exit 2; }
SL_SRC=$1
shift

as_user=()
if [[ $(id -u) -eq 0 ]]; then
	id "$BENCH_USER" >/dev/null 2>&1 || useradd -m "$BENCH_USER"
	bhome=$(getent passwd "$BENCH_USER" | cut -d: -f6)
	as_user=(setpriv --reuid="$BENCH_USER" --regid="$BENCH_USER" --init-groups
		env -i HOME="$bhome" USER="$BENCH_USER" PATH=/usr/bin:/bin)
fi

STAGE=$(mktemp -d /tmp/ltd-bench-ll.XXXXXX)
trap 'rm -rf "$STAGE"' EXIT
chmod 755 "$STAGE"
mkdir -m 755 "$STAGE/bin"
install -m 755 "$SL_SRC" "$STAGE/bin/syscall_loop"
names=()
for i in $(seq 1 $#); do
	install -m 755 "${!i}" "$STAGE/bin/ltd-native.$i"
	names+=("${!i}")
done
PROJECT=$STAGE
for d in $(seq 3 "$DEPTH"); do PROJECT=$PROJECT/d$d; done
PROJECT=$PROJECT/project
mkdir -p "$PROJECT"
[[ $(id -u) -eq 0 ]] && chown -R "$BENCH_USER": "$STAGE"
chmod -R go+rx "$STAGE"

SL=$STAGE/bin/syscall_loop
declare -a rows=("bare")
declare -A argv=([bare]="")
for i in $(seq 1 $#); do
	base="$STAGE/bin/ltd-native.$i run --network none --project $PROJECT --ro-bind $STAGE/bin $STAGE/bin"
	rows+=("$i: landlock only" "$i: landlock + seccomp")
	argv["$i: landlock only"]="$base --unsafe-no-seccomp --"
	argv["$i: landlock + seccomp"]="$base --"
done
if [[ -n ${PROBE:-} ]]; then
	install -m 755 "$PROBE" "$STAGE/bin/probe"
	rows+=("$#: no landlock")
	argv["$#: no landlock"]="$STAGE/bin/probe no-landlock $base --unsafe-no-seccomp --"
fi

declare -A samples
for r in $(seq 1 "$ROUNDS"); do
	for row in "${rows[@]}"; do
		# shellcheck disable=SC2086
		v=$(cd "$PROJECT" && "${as_user[@]}" ${argv[$row]} "$SL" loops "$ITERS" 2>/dev/null |
			awk '$1 == "open_close" { print $2 }')
		[[ -n $v ]] || { echo "landlock.sh: row '$row' failed" >&2; exit 1; }
		samples[$row]+="$v "
	done
done

echo "# kernel $(uname -r), $(nproc) CPUs; project at depth $DEPTH ($PROJECT)"
for i in $(seq 1 ${#names[@]}); do echo "# $i = ${names[$((i - 1))]} ($(sha256sum "${names[$((i - 1))]}" | cut -c1-12))"; done
echo
echo "**openat + close of a file in the project, ns per pair** ($ROUNDS rounds of $((ITERS / 10)))"
echo
echo "| row | median | p90 | vs bare |"
echo "|---|---:|---:|---:|"
bare_med=
for row in "${rows[@]}"; do
	read -r med p90 < <(tr ' ' '\n' <<<"${samples[$row]}" | grep . | sort -g |
		awk '{ v[NR] = $1 } END { m = (NR + 1) / 2; p = int(NR * 0.9 + 0.5); if (p < 1) p = 1;
			printf "%.1f %.1f\n", (v[int(m)] + v[int(m + 0.5)]) / 2, v[p] }')
	[[ -z $bare_med ]] && bare_med=$med
	printf '| %s | %s | %s | %.3f |\n' "$row" "$med" "$p90" "$(echo "$med / $bare_med" | bc -l)"
done
