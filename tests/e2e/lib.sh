# shellcheck shell=bash
# End-to-end test helpers.  Sourced by tests/e2e/run.sh.
#
# The tests drive the real ltd-native binary as an ordinary user.  Run as
# root (as CI does), the harness creates the user "ltd-e2e" and drops to it
# for every ltd-native invocation; run as an ordinary user, it runs as you.

E2E_USER=${E2E_USER:-ltd-e2e}
PASSED=0
FAILED=0
SKIPPED=0

e2e_setup() {
	local build=$1

	STAGE=$(mktemp -d /tmp/ltd-e2e.XXXXXX)
	chmod 755 "$STAGE"
	install -m 755 "$build/ltd-native" "$build/ltd-dnsd" "$build/probe" "$STAGE/"
	[ -x "$build/ltd-rootfs" ] && install -m 755 "$build/ltd-rootfs" "$STAGE/"
	LTD=$STAGE/ltd-native
	RFS=$STAGE/ltd-rootfs
	PROBE=$STAGE/probe
	if [ "$(id -u)" = 0 ]; then
		id "$E2E_USER" >/dev/null 2>&1 ||
			useradd --create-home --shell /bin/bash "$E2E_USER"
		U_HOME=$(getent passwd "$E2E_USER" | cut -d: -f6)
		U_UID=$(id -u "$E2E_USER")
		U_GID=$(id -g "$E2E_USER")
		AS_ROOT=1
	else
		U_HOME=$HOME
		U_UID=$(id -u)
		U_GID=$(id -g)
		AS_ROOT=0
	fi
	user_cmd_init
	# A project of the test user's, fresh for this run.
	PROJ=$(as_user mktemp -d "$U_HOME/e2e-project.XXXXXX")
	as_user chmod 755 "$PROJ"
}

e2e_teardown() {
	[ -n "${PROJ:-}" ] && as_user rm -rf "$PROJ"
	[ -n "${STAGE:-}" ] && rm -rf "$STAGE"
}

# The prefix that runs a command as the test user with a small clean
# environment; "${USER_CMD[@]}" cmd... & gives $! = the command's own pid.
user_cmd_init() {
	if [ "$AS_ROOT" = 1 ]; then
		USER_CMD=(setpriv --reuid="$U_UID" --regid="$U_GID" --init-groups
			env -i HOME="$U_HOME" USER="$E2E_USER" LOGNAME="$E2E_USER"
			PATH=/usr/local/bin:/usr/bin:/bin TERM=xterm-e2e)
	else
		USER_CMD=(env -u LTD_NATIVE_TEST_HOOKS TERM=xterm-e2e)
	fi
	# E2E_TRIM_MS=N: every run trims the launcher's and init's memory N
	# ms into its wait (0: at once), so that the whole suite runs what
	# comes after on trimmed processes (runtime/memtrim.h).  The tests
	# that the test hooks are refused without LTD_NATIVE_TEST_HOOKS=1
	# fail then: it is set for every call.
	if [ -n "${E2E_TRIM_MS:-}" ]; then
		USER_CMD+=(env LTD_NATIVE_TEST_HOOKS=1
			LTD_NATIVE_TEST_TRIM_MS="$E2E_TRIM_MS")
	fi
}

# with_test_hooks CMD...: CMD (ltd, net_probe...) with the test-only options
# (--test-*) available to ltd-native, as nowhere but in a test.
with_test_hooks() {
	local USER_CMD=("${USER_CMD[@]}" env LTD_NATIVE_TEST_HOOKS=1)
	"$@"
}

# Run a command as the test user.  Extra environment for one call:
# as_user env FOO=bar cmd...
as_user() {
	"${USER_CMD[@]}" "$@"
}

# ltd as the test user, in the project, stdout+stderr captured in $OUT and
# the exit status in $RC.
# "ltd run ..." also binds the staged probe in at its own path.
ltd() {
	if [ "${1:-}" = run ]; then
		shift
		set -- run --ro-bind "$STAGE" "$STAGE" "$@"
	fi
	OUT=$(cd "$PROJ" && as_user "$LTD" "$@" 2>&1)
	RC=$?
}

# The test user's live (non-zombie) processes whose command line matches
# the regex $1.
user_procs() {
	ps -u "$U_UID" -o pid=,stat=,args= | awk '$2 !~ /^Z/' | grep -E -- "$1" | grep -v grep
}

pass() {
	PASSED=$((PASSED + 1))
	printf 'ok   %s\n' "$1"
}

fail() {
	FAILED=$((FAILED + 1))
	printf 'FAIL %s\n' "$1"
	[ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/     | /'
	return 0
}

skip() {
	SKIPPED=$((SKIPPED + 1))
	printf 'skip %s: %s\n' "$1" "$2"
}

# expect_rc NAME WANT: the last ltd call exited WANT.
expect_rc() {
	if [ "$RC" = "$2" ]; then
		pass "$1"
	else
		fail "$1 (exit $RC, want $2)" "$OUT"
	fi
}

# expect_out NAME REGEX: the last ltd output matches REGEX (grep -E).
expect_out() {
	if printf '%s\n' "$OUT" | grep -Eq -- "$2"; then
		pass "$1"
	else
		fail "$1 (no line matches /$2/)" "$OUT"
	fi
}

# expect_no_out NAME REGEX: no line of the last ltd output matches REGEX.
expect_no_out() {
	if printf '%s\n' "$OUT" | grep -Eq -- "$2"; then
		fail "$1 (a line matches /$2/)" "$OUT"
	else
		pass "$1"
	fi
}

# expect_true NAME COMMAND...: pass NAME when COMMAND succeeds, else fail
# it with the last output.
expect_true() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name" "$OUT"; fi
}

# ltd_in PROJECT STATE ARGS...: ltd-native ARGS as the test user in
# PROJECT, with XDG_STATE_HOME=STATE (where reviews are kept); stdout and
# stderr in $OUT, the status in $RC.
ltd_in() {
	local proj=$1 state=$2
	shift 2
	OUT=$(cd "$proj" && as_user env XDG_STATE_HOME="$state" "$LTD" "$@" 2>&1)
	RC=$?
}

# can_userns: unprivileged user namespaces work for the test user.
can_userns() {
	as_user unshare --user --map-current-user true 2>/dev/null
}

# Wait until a test host's server at ADDR PORT answers the host itself
# (bounded: 10 s, then the tests that need it fail as they would).  It
# also resolves the host's neighbour entry for a veth just made: without
# it the first SYN pasta sends there waits for the neighbour and is sent
# again a second later, which a probe's 2 s budget may not cover on a
# loaded machine.
host_ready() {
	python3 - "$1" "$2" <<'PY' || echo "host_ready: $1 port $2 did not answer in 10 s" >&2
import socket, sys, time
h, p = sys.argv[1], int(sys.argv[2])
end = time.time() + 10
while True:
    try:
        socket.create_connection((h, p), timeout=1).close()
        sys.exit(0)
    except OSError:
        if time.time() > end:
            sys.exit(1)
        time.sleep(0.05)
PY
}
