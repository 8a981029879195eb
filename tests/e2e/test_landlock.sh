# shellcheck shell=bash
# Landlock as the second wall (issue 9): rules derived from the mount plan,
# shown where the mounts alone would not stop the command -- through
# descriptors that lead into the host, whose mounts are the host's own.

ll_abi=$("$LTD" doctor 2>/dev/null | sed -n 's/^ok *Landlock *ABI \([0-9]*\).*/\1/p')
ll_abi=${ll_abi:-0}

# As the test user, in the project: ltd-native run ARGS with stdin from
# $LL_IN, opened by the host's shell (a file read-write, as a launcher
# could; a directory read-only).
ll_stdin() {
	local redir='0<>'

	[ -d "$LL_IN" ] && redir='0<'
	OUT=$(cd "$PROJ" && as_user sh -c 'in=$1; shift; exec "$@" '"$redir"'"$in"' sh "$LL_IN" \
		"$LTD" run --ro-bind "$STAGE" "$STAGE" "$@" 2>&1)
	RC=$?
}

if [ "$ll_abi" -lt 3 ]; then
	skip "Landlock rules" "this kernel's Landlock ABI is $ll_abi (3 needed)"
else
	RW=$(as_user mktemp -d "$U_HOME/e2e-ll-rw.XXXXXX")
	RO=$(as_user mktemp -d "$U_HOME/e2e-ll-ro.XXXXXX")
	OUTSIDE=$(as_user mktemp -d "$U_HOME/e2e-ll-out.XXXXXX")
	for d in "$RW" "$RO" "$OUTSIDE"; do as_user sh -c "echo original > '$d/f'"; done
	BINDS=(--bind "$RW" "$RW" --ro-bind "$RO" "$RO")

	# --- through the cage's own mounts ----------------------------------------
	ltd run "${BINDS[@]}" -- "$PROBE" write "$RW/new" x
	expect_out "a --bind directory is writable" "^write ok"
	ltd run "${BINDS[@]}" -- "$PROBE" write "$RO/new" x
	expect_out "a --ro-bind directory is not (its mount)" "^write err (EROFS|EACCES)"

	# --- through a descriptor on the host's own, writable mount ----------------
	# /proc/self/fd/0 leads to the host's mount of the file, which is
	# read-write: only Landlock's rule for the --ro-bind decides.
	LL_IN=$RW/f ll_stdin "${BINDS[@]}" -- sh -c 'echo AGENT > /proc/self/fd/0'
	expect_rc "a --bind file on stdin re-opened for writing" 0
	[ "$(cat "$RW/f")" = AGENT ] && pass "... and written" || fail "... and written" "$(cat "$RW/f")"
	LL_IN=$RO/f ll_stdin "${BINDS[@]}" -- "$PROBE" write /proc/self/fd/0 AGENT
	expect_out "a --ro-bind file on stdin cannot be re-opened for writing (EACCES: Landlock, not the mount)" "^write err EACCES"
	[ "$(cat "$RO/f")" = original ] && pass "... and is unchanged" || fail "... and is unchanged" "$(cat "$RO/f")"
	LL_IN=$RO/f ll_stdin "${BINDS[@]}" -- "$PROBE" read /proc/self/fd/0
	expect_out "... but can be re-opened for reading" "^read ok"
	# A directory on stdin: creating in it goes through the host's mount.
	LL_IN=$RO ll_stdin "${BINDS[@]}" -- "$PROBE" write /proc/self/fd/0/planted x
	expect_out "nothing can be created through a --ro-bind directory on stdin" "^write err EACCES"
	[ -e "$RO/planted" ] && fail "... and nothing was" || pass "... and nothing was"
	LL_IN=$RW ll_stdin "${BINDS[@]}" -- "$PROBE" write /proc/self/fd/0/made x
	expect_out "a --bind directory on stdin can be written through" "^write ok"
	[ -e "$RW/made" ] && pass "... and the file is on the host" || fail "... and the file is on the host"
	# Outside every rule: not even read.
	LL_IN=$OUTSIDE/f ll_stdin "${BINDS[@]}" -- "$PROBE" read /proc/self/fd/0
	expect_out "a host file outside the plan cannot be re-opened, even to read" "^read err EACCES"
	LL_IN=$OUTSIDE ll_stdin "${BINDS[@]}" -- "$PROBE" write /proc/self/fd/0/planted x
	expect_out "a host directory outside the plan cannot be written through" "^write err EACCES"
	[ -e "$OUTSIDE/planted" ] && fail "... and nothing was created" || pass "... and nothing was created"

	# --- what the plan makes writable still is ---------------------------------
	ltd run -- sh -c 'echo a > /tmp/a && echo b > ~/b && echo c > /dev/shm/c && echo d > "$PWD/e2e-ll" &&
		: > /dev/null && mkdir /tmp/d && mv /tmp/a /tmp/d/ && ln -s a /tmp/l && mkfifo /tmp/f && echo WROTE'
	expect_out "/tmp, \$HOME, /dev/shm, the project, /dev/null writable; rename, link, fifo" "^WROTE\$"
	as_user rm -f "$PROJ/e2e-ll"
	ltd run -- sh -c 'ls / /etc /dev /proc/self >/dev/null && cat /etc/passwd /proc/self/status >/dev/null && echo READ'
	expect_out "the rest of the cage is readable" "^READ\$"
	as_user rm -rf "$RW" "$RO" "$OUTSIDE"
fi

# --- TCP connect, --restrict-tcp-ports -----------------------------------------
# A server of the cage's own on two loopback ports; the firewall admits
# loopback, so only Landlock can refuse.
LL_TCP='
import errno, socket, sys
srv = []
for port in map(int, sys.argv[1:]):
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", port)); s.listen(); srv.append(s)
for port in map(int, sys.argv[1:]):
    c = socket.socket()
    try:
        c.connect(("127.0.0.1", port)); print("connect", port, "ok")
    except OSError as e:
        print("connect", port, "err", errno.errorcode[e.errno])
'
if ! command -v python3 >/dev/null || ! command -v pasta >/dev/null; then
	skip "--restrict-tcp-ports" "needs python3 and pasta"
elif [ "$ll_abi" -lt 4 ]; then
	skip "--restrict-tcp-ports" "this kernel's Landlock ABI is $ll_abi (4 needed)"
else
	ltd run --allow-host-port 18081 -- python3 -c "$LL_TCP" 18081 18082
	expect_out "by default a loopback server on any port is reachable" "^connect 18082 ok"
	ltd run --restrict-tcp-ports --allow-host-port 18081 -- python3 -c "$LL_TCP" 18081 18082
	expect_out "--restrict-tcp-ports: an allowed port connects" "^connect 18081 ok"
	expect_out "--restrict-tcp-ports: another port is refused by Landlock (EACCES), loopback too" "^connect 18082 err EACCES"
	ltd run --network none -- python3 -c "$LL_TCP" 18082
	expect_out "--network none: loopback servers on any port" "^connect 18082 ok"
	ltd run --restrict-tcp-ports --allow-cidr 192.0.2.0/24 -- true
	expect_rc "--restrict-tcp-ports with a block open on every port" 125
	expect_out "... says which" "allow-cidr 192.0.2.0/24 allows every port"
fi

# --- a kernel without Landlock (simulated: landlock_create_ruleset -> ENOSYS) --
nolandlock() {
	OUT=$(cd "$PROJ" && as_user "$PROBE" no-landlock "$LTD" run --network none \
		--ro-bind "$STAGE" "$STAGE" "$@" 2>&1)
	RC=$?
}
nolandlock -- "$PROBE" write "$PROJ/e2e-nol" x
expect_rc "without Landlock the run goes on" 0
expect_out "... with a warning" "warning: this kernel has no Landlock"
as_user rm -f "$PROJ/e2e-nol"
nolandlock --require-landlock -- "$PROBE" write "$PROJ/e2e-nol" x
expect_rc "--require-landlock without Landlock stops the run" 125
expect_out "... naming the flag and the doctor" "--require-landlock: this kernel has no Landlock.*doctor"
[ -e "$PROJ/e2e-nol" ] && fail "... before the command runs" || pass "... before the command runs"
nolandlock --restrict-tcp-ports -- true
expect_rc "--restrict-tcp-ports without Landlock stops the run" 125
ltd run --require-landlock -- "$PROBE" status
expect_rc "--require-landlock on this kernel" 0
expect_no_out "... without a warning" "warning: .*Landlock"

# --- Landlock holds on its own -------------------------------------------------------
# A host directory bound read-write, but given no Landlock rule: the mounts
# would let the command write there; Landlock alone must not.
HOLE=$(as_user mktemp -d "$U_HOME/e2e-hole.XXXXXX")
with_test_hooks ltd run --test-landlock-hole "$HOLE" /opt/hole -- "$PROBE" write /opt/hole/f x
expect_out "a bind without a Landlock rule is not writable (Landlock alone)" "^write err EACCES"
expect_out "... and the test hook is said" "warning: --test-landlock-hole: "
[ ! -e "$HOLE/f" ] && pass "nothing was written to the host directory" ||
	fail "nothing was written to the host directory"
ltd run --bind "$HOLE" /opt/hole -- "$PROBE" write /opt/hole/f x
expect_out "the same bind with its rule is writable (the control)" "^write ok"
# The test hooks are not for users: refused without the variable that
# says a test runs, never from a policy file, not in --help.
as_user rm -f "$HOLE/f"
ltd run --test-landlock-hole "$HOLE" /opt/hole -- "$PROBE" write /opt/hole/f x
expect_rc "--test-landlock-hole without LTD_NATIVE_TEST_HOOKS=1 is refused" 125
expect_out "... naming the variable" "--test-landlock-hole: .*LTD_NATIVE_TEST_HOOKS=1"
[ ! -e "$HOLE/f" ] && pass "... before anything runs" || fail "... before anything runs"
ltd run --test-firewall-hole 192.0.2.1/32:9090 -- true
expect_rc "--test-firewall-hole without LTD_NATIVE_TEST_HOOKS=1 is refused" 125
expect_out "... naming the variable" "--test-firewall-hole: .*LTD_NATIVE_TEST_HOOKS=1"
HOOKPOL=$(as_user mktemp "$U_HOME/e2e-hookpol.XXXXXX")
as_user sh -c "echo 'test-landlock-hole $HOLE /opt/hole' > '$HOOKPOL'"
with_test_hooks ltd run --policy "$HOOKPOL" -- true
expect_rc "a test hook in a policy file is refused, the variable set or not" 125
expect_out "... naming the file" "$HOOKPOL:1: 'test-landlock-hole'"
as_user rm -f "$HOOKPOL"
ltd run --help
expect_no_out "run --help lists no test hook" "test-|test only"
with_test_hooks ltd policy show --test-firewall-hole 192.0.2.1/32:9090
expect_out "policy show lists a test hook as waived" "^#   --test-firewall-hole: "
as_user rm -rf "$HOLE"

# --- abstract unix sockets and signals stay in the cage -------------------------
# A host process of the test user's own listens on an abstract unix socket.
# The cage's network namespace has abstract names of its own and its pid
# namespace no number for the host process; with the host's network
# (--network host) Landlock's scope (ABI 6) refuses the connect.  The same
# probe outside the cage is the control: there it reaches both.
SCOPE_PROBE='import errno, os, socket, sys
s = socket.socket(socket.AF_UNIX)
try:
    s.connect("\0" + sys.argv[1]); print("abstract connected", s.recv(2).decode())
except OSError as e:
    print("abstract", errno.errorcode[e.errno])
try:
    os.kill(int(sys.argv[2]), 0); print("signal reached")
except OSError as e:
    print("signal", errno.errorcode[e.errno])'
if ! command -v python3 >/dev/null; then
	skip "abstract sockets and signals" "needs python3"
else
	ABS=ltd-e2e-abstract-$$
	as_user rm -f "$PROJ/abs-ready"
	"${USER_CMD[@]}" python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX); s.bind("\0" + sys.argv[1]); s.listen()
open(sys.argv[2], "w").close()
while True:
    c, _ = s.accept(); c.sendall(b"hi"); c.close()' "$ABS" "$PROJ/abs-ready" &
	abs_pid=$!
	for _ in $(seq 100); do [ -e "$PROJ/abs-ready" ] && break; sleep 0.1; done
	OUT=$(as_user python3 -c "$SCOPE_PROBE" "$ABS" "$abs_pid" 2>&1)
	expect_out "outside the cage the probe reaches the socket (the control)" "^abstract connected hi\$"
	expect_out "outside the cage the probe can signal the process (the control)" "^signal reached\$"
	ltd run -- python3 -c "$SCOPE_PROBE" "$ABS" "$abs_pid"
	expect_out "the cage cannot reach a host abstract socket" "^abstract ECONNREFUSED\$"
	expect_out "the cage cannot signal a host process" "^signal ESRCH\$"
	ltd run --network none -- python3 -c "$SCOPE_PROBE" "$ABS" "$abs_pid"
	expect_out "--network none: no host abstract socket" "^abstract ECONNREFUSED\$"
	if [ "$ll_abi" -lt 6 ]; then
		skip "--network host: abstract sockets scoped" "this kernel's Landlock ABI is $ll_abi (6 needed)"
	else
		ltd run --network host --unsafe-host-network -- python3 -c "$SCOPE_PROBE" "$ABS" "$abs_pid"
		expect_out "--network host: Landlock refuses the host's abstract socket" "^abstract EPERM\$"
		expect_out "--network host: still no signal to a host process" "^signal ESRCH\$"
	fi
	kill "$abs_pid" 2>/dev/null
	wait "$abs_pid" 2>/dev/null
	as_user rm -f "$PROJ/abs-ready"
fi
