#!/bin/bash
# The reliability harness (make stress; issue 16): many runs, runs at once,
# the launcher SIGKILLed at every step of its set-up and at random moments,
# a kept cage serving many `exec`s; after each, nothing may be left.
#   bash tests/stress/run.sh BUILD_DIR
# Counts (defaults are CI's; make stress-long raises them):
#   STRESS_SEQ=500 STRESS_CONC=50 STRESS_RANDOM_KILLS=60 STRESS_EXECS=1000
#   STRESS_PHASES="seq conc steps random exec" (a subset, in that order)
#   STRESS_SEED (the random kills' moments; printed, to replay a run)
#   STRESS_STEPS="launcher:clone init:firewall" (the steps phase: only those)
#
# Allowlist mode throughout, against a test upstream resolver started here
# (dnsmasq on loopback, answering only stress.test); no address it returns
# is ever connected to.  Runs as root (as CI does) and drops to its own
# test user, ltd-stress, so that what is left behind is told apart from
# anything else on the machine: every process, file, namespace and
# registry entry of that user is the harness's.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
export E2E_USER=${STRESS_USER:-ltd-stress}
# shellcheck source=tests/e2e/lib.sh
. "$here/../e2e/lib.sh"
# shellcheck source=tests/stress/leftovers.sh
. "$here/leftovers.sh"
exec </dev/null

SEQ=${STRESS_SEQ:-500}
CONC=${STRESS_CONC:-50}
RANDOM_KILLS=${STRESS_RANDOM_KILLS:-60}
EXECS=${STRESS_EXECS:-1000}
PHASES=${STRESS_PHASES:-seq conc steps random exec}
SEED=${STRESS_SEED:-$(date +%s)}
# What a kept launcher may grow by between the 10th and the last tenth of
# its execs (KiB): page-granular noise, not a leak of bytes per exec.
RSS_SLACK_KB=${STRESS_RSS_SLACK_KB:-256}
# The bound on waiting for a killed cage to be gone (seconds, polled).
GONE_WAIT=${STRESS_GONE_WAIT:-30}

NAME=stress-cage
ADDR=10.232.90.2
DNS_PORT=$((20000 + ($$ + 7919) % 20000))
DNS_DIR=
DNS_PID=

phase_done() { # NAME RUNS FAILURES LEFTOVERS [EXTRA]
	printf 'stress %-7s runs %5d  failures %3d  leftovers %3d%s\n' \
		"$1" "$2" "$3" "$4" "${5:+  $5}"
	TOTAL_RUNS=$((TOTAL_RUNS + $2))
	TOTAL_FAIL=$((TOTAL_FAIL + $3))
	TOTAL_LEFT=$((TOTAL_LEFT + $4))
	[ "$3" -eq 0 ] && [ "$4" -eq 0 ] && pass "stress $1" ||
		fail "stress $1 ($3 failures, $4 leftovers)"
}

# The launcher in the background now, if any: a harness that is stopped
# takes it along (one stopped at a step would wait forever).
CUR_PID=
cleanup() {
	[ -n "$CUR_PID" ] && kill -KILL "$CUR_PID" 2>/dev/null
	[ -n "$DNS_PID" ] && kill "$DNS_PID" 2>/dev/null
	[ -n "$DNS_DIR" ] && rm -rf "$DNS_DIR"
	e2e_teardown
}

# The run every phase makes: a lookup through the DNS filter, then the
# descriptors the command got (0, 1 and 2 only), then $1 (sh).
run_args() {
	RUN=(run --quiet --ro-bind "$STAGE" "$STAGE"
		--dns-upstream "127.0.0.1:$DNS_PORT" --no-default-domains
		--allow-domain stress.test)
	CMD=(sh -c "getent hosts stress.test; $PROBE fds${1:+; $1}")
}
WANT_OUT=$(printf '%s     stress.test\nfd 0\nfd 1\nfd 2' "$ADDR")

# check_run NAME RC OUTFILE ERRFILE: exit 0, the output as wanted, nothing
# on stderr but the host's cgroup warning.  Prints why not.
check_run() {
	local out err
	out=$(cat "$3")
	err=$(grep -v '^ltd-native: warning: no cgroup for the cage' "$4")
	if [ "$2" != 0 ] || [ "$out" != "$WANT_OUT" ] || [ -n "$err" ]; then
		printf 'FAIL %s: exit %s\n' "$1" "$2"
		printf '%s\n' "$out" "$err" | sed 's/^/     | /' | head -20
		return 1
	fi
	return 0
}

# --- sequential runs ---------------------------------------------------------
# Every 50th run waits for the harness, which reads the launcher's
# descriptors and peak RSS while the cage runs: the same each time.
phase_seq() {
	local fails=0 i rc pid sig pfds first_sig="" drift=0 t0 t1
	t0=$(date +%s%N)
	for i in $(seq 1 "$SEQ"); do
		if [ $((i % 50)) -eq 1 ]; then
			run_args "touch .stress-ready; while [ ! -e .stress-go ]; do sleep 0.01; done"
			(cd "$PROJ" && exec "${USER_CMD[@]}" "$LTD" "${RUN[@]}" -- "${CMD[@]}" \
				>"$WORK/out" 2>"$WORK/err") &
			pid=$! CUR_PID=$!
			wait_file "$PROJ/.stress-ready" "$pid"
			sig=$(fd_signature "$pid")
			pfds=$(pasta_fds "$pid")
			note_hwm "$pid"
			as_user touch "$PROJ/.stress-go"
			wait "$pid"
			rc=$?
			as_user rm -f "$PROJ/.stress-ready" "$PROJ/.stress-go"
			if [ -z "$first_sig" ]; then
				first_sig=$sig
				printf 'stress seq: descriptors while a cage runs: %s; pasta %s\n' \
					"$sig" "${pfds:-?} descriptors"
			elif [ "$sig" != "$first_sig" ]; then
				drift=$((drift + 1))
				printf 'FAIL seq run %d: the launcher holds %s (run 1: %s)\n' \
					"$i" "$sig" "$first_sig"
			fi
		else
			run_args
			(cd "$PROJ" && "${USER_CMD[@]}" "$LTD" "${RUN[@]}" -- "${CMD[@]}" \
				>"$WORK/out" 2>"$WORK/err")
			rc=$?
		fi
		check_run "seq run $i" "$rc" "$WORK/out" "$WORK/err" || fails=$((fails + 1))
	done
	t1=$(date +%s%N)
	leftovers_check seq
	phase_done seq "$SEQ" $((fails + drift)) "$LEFT" \
		"$(((t1 - t0) / 1000000 / SEQ)) ms/run, launcher peak RSS $HWM_MAX KiB"
}

# --- concurrent runs ---------------------------------------------------------
phase_conc() {
	local fails=0 i pids=()
	run_args
	for i in $(seq 1 "$CONC"); do
		(cd "$PROJ" && exec "${USER_CMD[@]}" "$LTD" "${RUN[@]}" -- "${CMD[@]}" \
			>"$WORK/c$i.out" 2>"$WORK/c$i.err") &
		pids+=($!)
	done
	for i in $(seq 1 "$CONC"); do
		wait "${pids[$((i - 1))]}"
		check_run "concurrent run $i" $? "$WORK/c$i.out" "$WORK/c$i.err" ||
			fails=$((fails + 1))
	done
	leftovers_check conc
	phase_done conc "$CONC" "$fails" "$LEFT"
}

# --- SIGKILL at every step ---------------------------------------------------
# The set-up's steps, as LTD_NATIVE_TEST_STOP_AT names them (runtime/
# testhooks.h; each stops before the step runs): the launcher's table
# (runtime/launch.c's ltd_launch_steps) and its points after it
# (supervise, started, report), the cage's init's (runtime/cage.c's
# ltd_init_steps; not its first, die-with-launcher: init stopped before
# it would wait forever, which no real run does) and the command's
# (ltd_command_steps).  A step the run never reaches fails: this list
# follows the code.
LAUNCHER_STEPS="limits state network firewall dns mount-plan environment landlock
say cgroup dns-helper register outputs channel snapshot clone supervise started
report"
INIT_STEPS="scrub-memory outputs close-fds id-maps non-dumpable rlimits
new-session hostname network-start loopback firewall dns-sockets
mount-private open-sources root-tmpfs mount-plan network-join pivot-root
handover"
COMMAND_STEPS="new-session terminal signals chdir close-fds drop-caps
no-new-privs landlock seccomp"

# kill_at STEP: a named cage stopped at STEP, its launcher SIGKILLed.
kill_at() {
	local pid end
	run_args
	(cd "$PROJ" && exec "${USER_CMD[@]}" env LTD_NATIVE_TEST_HOOKS=1 \
		LTD_NATIVE_TEST_STOP_AT="$1" "$LTD" "${RUN[@]}" --name "$NAME" \
		-- "${CMD[@]}" >"$WORK/out" 2>"$WORK/err") &
	pid=$! CUR_PID=$!
	end=$((SECONDS + 60))
	until pgrep -r R,S,D,T,t -u "$U_UID" -x ltd-stopped >/dev/null; do
		if ! kill -0 "$pid" 2>/dev/null || [ "$SECONDS" -ge "$end" ]; then
			kill -KILL "$pid" 2>/dev/null
			wait "$pid"
			printf 'FAIL kill at %s: never reached (the run ended, exit %s)\n' "$1" "$?"
			sed 's/^/     | /' "$WORK/out" "$WORK/err" | head -10
			return 1
		fi
		sleep 0.01
	done
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	return 0
}

# After a killed launcher: the cage gone, its name free again.
after_kill() {
	local rc
	if ! cage_gone; then
		printf 'FAIL after a kill at %s: still running after %d s\n' "$1" "$GONE_WAIT"
		user_ps | sed 's/^/     | /'
		return 1
	fi
	run_args
	(cd "$PROJ" && "${USER_CMD[@]}" "$LTD" "${RUN[@]}" --name "$NAME" -- "${CMD[@]}" \
		>"$WORK/out" 2>"$WORK/err")
	rc=$?
	check_run "the name $NAME again after a kill at $1" "$rc" "$WORK/out" "$WORK/err"
}

phase_steps() {
	local fails=0 n=0 s
	for s in $LAUNCHER_STEPS; do set -- "$@" "launcher:$s"; done
	for s in $INIT_STEPS; do set -- "$@" "init:$s"; done
	for s in $COMMAND_STEPS; do set -- "$@" "command:$s"; done
	# STRESS_STEPS="init:firewall ...": only those.
	[ -n "${STRESS_STEPS:-}" ] && set -- $STRESS_STEPS
	for s in "$@"; do
		n=$((n + 1))
		{ kill_at "$s" && after_kill "$s"; } || fails=$((fails + 1))
	done
	leftovers_check steps
	phase_done steps "$n" "$fails" "$LEFT" "(each killed, then its name run again)"
}

# --- SIGKILL at random moments -----------------------------------------------
phase_random() {
	local fails=0 i pid ms max
	# Over the length of a run here, and a little past it.
	max=$((RUN_MS + RUN_MS / 4 + 1))
	RANDOM=$SEED
	run_args
	for i in $(seq 1 "$RANDOM_KILLS"); do
		ms=$((RANDOM % max))
		(cd "$PROJ" && exec "${USER_CMD[@]}" "$LTD" "${RUN[@]}" --name "$NAME" \
			-- "${CMD[@]}" >/dev/null 2>&1) &
		pid=$! CUR_PID=$!
		sleep "$(printf '0.%03d' "$ms")"
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		if ! cage_gone; then
			printf 'FAIL random kill %d (after %d ms): still running after %d s\n' \
				"$i" "$ms" "$GONE_WAIT"
			user_ps | sed 's/^/     | /'
			fails=$((fails + 1))
		fi
	done
	after_kill "random moments" || fails=$((fails + 1))
	leftovers_check random
	phase_done random "$RANDOM_KILLS" "$fails" "$LEFT" \
		"(seed $SEED, moments 0-$((max - 1)) ms)"
}

# --- a kept cage serving execs -----------------------------------------------
phase_exec() {
	local fails=0 i pid rc at10 atend end
	run_args
	(cd "$PROJ" && exec "${USER_CMD[@]}" "$LTD" "${RUN[@]}" --name "$NAME" \
		--keep-running -- true >"$WORK/kept.out" 2>&1) &
	pid=$! CUR_PID=$!
	end=$((SECONDS + 60))
	until as_user "$LTD" ps | grep -q "^$NAME "; do
		[ "$SECONDS" -ge "$end" ] && break
		sleep 0.02
	done
	for i in $(seq 1 "$EXECS"); do
		OUT=$(cd "$PROJ" && as_user "$LTD" exec "$NAME" -- getent hosts stress.test 2>&1)
		rc=$?
		if [ "$rc" != 0 ] || [ "$OUT" != "$ADDR     stress.test" ]; then
			fails=$((fails + 1))
			[ "$fails" -le 5 ] && printf 'FAIL exec %d: exit %s\n%s\n' "$i" "$rc" "$OUT"
		fi
		[ "$i" -eq $((EXECS / 10)) ] && at10=$(mem_fds "$pid")
	done
	atend=$(mem_fds "$pid")
	printf 'stress exec: the kept launcher after %d execs: %s\n' $((EXECS / 10)) "$at10"
	printf 'stress exec: the kept launcher after %d execs: %s\n' "$EXECS" "$atend"
	flat "$at10" "$atend" || fails=$((fails + 1))
	as_user "$LTD" kill "$NAME" >/dev/null 2>&1
	wait "$pid"
	leftovers_check exec
	phase_done exec "$EXECS" "$fails" "$LEFT"
}

# --- main ----------------------------------------------------------------------
if [ "$(id -u)" != 0 ]; then
	echo "stress: run as root (it makes its own test user, and reads every process's descriptors)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
for c in pasta dnsmasq pgrep lsns getent; do
	command -v "$c" >/dev/null || {
		echo "stress: $c is missing (see .ci/packages)"
		exit 1
	}
done

e2e_setup "$build"
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ -n "$(user_ps)" ]; then
	echo "stress: $E2E_USER already has processes (an earlier run's leftovers?); nothing is tried:"
	user_ps
	echo "0 passed, 1 failed"
	exit 1
fi
WORK=$(mktemp -d /tmp/ltd-stress.XXXXXX)
DNS_DIR=$WORK
chmod 755 "$WORK"
if ! can_userns; then
	skip "stress" "unprivileged user namespaces are not available to $E2E_USER"
	echo "0 passed, 0 failed, $SKIPPED skipped"
	exit 0
fi
# The test upstream: stress.test only, nothing forwarded anywhere.
dnsmasq --no-resolv --no-hosts --bind-interfaces --listen-address=127.0.0.1 \
	--port="$DNS_PORT" --user=root --group=root --pid-file="$WORK/dnsmasq.pid" \
	--address=/stress.test/"$ADDR"
for _ in $(seq 1 100); do [ -s "$WORK/dnsmasq.pid" ] && break; sleep 0.02; done
DNS_PID=$(cat "$WORK/dnsmasq.pid")

TOTAL_RUNS=0 TOTAL_FAIL=0 TOTAL_LEFT=0
# A first run creates what lasts by design (the registry directory, the
# persistent state a default run binds): the baseline is taken after it.
run_args
t0=$(date +%s%N)
(cd "$PROJ" && "${USER_CMD[@]}" "$LTD" "${RUN[@]}" --name "$NAME" -- "${CMD[@]}" \
	>"$WORK/out" 2>"$WORK/err")
rc=$?
RUN_MS=$((($(date +%s%N) - t0) / 1000000))
if ! check_run "a first run" "$rc" "$WORK/out" "$WORK/err"; then
	echo "stress: a single run fails; nothing else is tried"
	echo "0 passed, 1 failed"
	exit 1
fi
leftovers_baseline
echo "stress: user $E2E_USER, upstream 127.0.0.1:$DNS_PORT, a run ~${RUN_MS} ms, seed $SEED"

for ph in $PHASES; do
	case $ph in
	seq | conc | steps | random | exec) "phase_$ph" ;;
	*) echo "stress: unknown phase '$ph'" && exit 2 ;;
	esac
done

echo
echo "stress: $TOTAL_RUNS runs, $TOTAL_FAIL failures, $TOTAL_LEFT leftovers"
echo "stress: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
