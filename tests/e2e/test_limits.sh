# shellcheck shell=bash
# Resource limits (issue 9): a cgroup of the cage's own where the host
# delegates one, rlimits otherwise.  Every stress here is bounded and ends
# by itself: the fork bomb stops at its first refused fork (or at 200) and
# kills its children; the allocation is 128 MiB at most.

ltd run --network none -- true
if printf '%s\n' "$OUT" | grep -q "warning: no cgroup for the cage"; then
	LIMITS_MODE=rlimit
	pass "no delegated cgroup here: one warning says so"
	n=$(printf '%s\n' "$OUT" | grep -c warning)
	[ "$n" = 1 ] && pass "the limits warning is one line" ||
		fail "the limits warning is one line ($n)" "$OUT"
	expect_out "the warning names what is not enforced" "CPU not at all.*ltd-native doctor"
else
	LIMITS_MODE=cgroup
	pass "a delegated cgroup: no limits warning"
fi

if [ "$LIMITS_MODE" = rlimit ]; then
	ltd run --network none -- cat /proc/self/limits
	expect_out "pids: RLIMIT_NPROC is the default 512" "^Max processes +512 +512 "
	expect_out "memory: RLIMIT_DATA is the default 4g" "^Max data size +4294967296 +4294967296 "

	# The user's own processes outside do not count against the cage,
	# nor does the cage's limit touch them: RLIMIT_NPROC is counted per
	# user namespace.  30 sleepers of the test user's run meanwhile.
	(cd / && exec "${USER_CMD[@]}" sh -c 'for i in $(seq 30); do sleep 60 & done; wait') &
	sleepers=$! # the shell's own pid: its sleeps are its children
	sleep 0.3
	ltd run --network none --pids-limit 20 -- "$PROBE" forks 200
	expect_out "a fork bomb stops at --pids-limit (init and the probe count)" "^forks 18 err EAGAIN\$"
	host_forks=$(as_user "$PROBE" forks 40 2>&1)
	[ "$host_forks" = "forks 40 ok" ] && pass "the user's host processes are not bounded by the cage's limit" ||
		fail "the user's host processes are not bounded by the cage's limit" "$host_forks"
	pkill -KILL -P "$sleepers" sleep 2>/dev/null
	kill "$sleepers" 2>/dev/null
	wait "$sleepers" 2>/dev/null

	ltd run --network none --pids-limit 20 -- "$PROBE" pids
	expect_rc "--pids-limit alone needs no opt-in (it holds per cage)" 0

	# The smallest limit: init and the command.  Nothing of ltd-native's
	# own (the network namespace's helper) may still count when the
	# command starts.
	bad=0
	for _ in 1 2 3 4 5; do
		ltd run --network none --pids-limit 2 -- /bin/true
		[ "$RC" = 0 ] || bad=$((bad + 1))
	done
	[ "$bad" = 0 ] && pass "--pids-limit 2 runs a command that forks nothing" ||
		fail "--pids-limit 2 runs a command that forks nothing ($bad of 5 failed)" "$OUT"

	ltd run --network none --memory 64m -- true
	expect_rc "an explicit --memory that cannot be enforced is refused" 125
	expect_out "the refusal names --memory and the opt-in" "^ltd-native: --memory: .*--allow-unenforced-limits"
	ltd run --network none --cpus 1 -- true
	expect_out "an explicit --cpus that cannot be enforced is refused" "^ltd-native: --cpus: "

	ltd run --network none --memory 64m --allow-unenforced-limits -- \
		sh -c "'$PROBE' alloc 16; '$PROBE' alloc 128"
	expect_out "under RLIMIT_DATA 64m, 16m can be allocated" "^alloc ok 16\$"
	expect_out "under RLIMIT_DATA 64m, 128m cannot" "^alloc err ENOMEM\$"
else
	skip "rlimit fallback" "this host delegates a cgroup"
	ltd run --network none --pids-limit 20 -- "$PROBE" forks 200
	expect_out "a fork bomb stops at pids.max" "^forks [0-9]+ err EAGAIN\$"
	ltd run --network none -- cat /proc/self/cgroup
	expect_out "the cage sees its own cgroup as the root" "^0::/\$"
fi

# --- tmpfs sizes ----------------------------------------------------------------
ltd run --network none --memory 64m --allow-unenforced-limits -- \
	sh -c 'for d in /tmp ~ /dev/shm; do df -k "$d" | tail -1; done'
n=$(printf '%s\n' "$OUT" | grep -Ec '^[^ ]+ +65536 ')
[ "$n" = 3 ] && pass "/tmp, \$HOME and /dev/shm are capped at --memory" ||
	fail "/tmp, \$HOME and /dev/shm are capped at --memory ($n of 3)" "$OUT"
ltd run --network none --memory 32m --allow-unenforced-limits -- \
	sh -c 'head -c 48M /dev/zero > /tmp/fill; echo "rc=$?"'
expect_out "filling /tmp past --memory fails" "No space left on device"
# One cap for them all (decision 0105): what /tmp holds counts against
# $HOME and /dev/shm too, so the cage cannot take N x --memory of RAM.
ltd run --network none --memory 32m --allow-unenforced-limits -- \
	sh -c 'head -c 20M /dev/zero > /tmp/a && echo tmp-ok;
		head -c 20M /dev/zero > ~/b && echo home-ok;
		head -c 20M /dev/zero > /dev/shm/c && echo shm-ok; true'
expect_out "20 MB fit in /tmp under --memory 32m" "^tmp-ok\$"
expect_no_out "20 MB more do not fit in \$HOME then: one cap for /tmp and \$HOME" "^home-ok\$"
expect_no_out "nor in /dev/shm" "^shm-ok\$"
