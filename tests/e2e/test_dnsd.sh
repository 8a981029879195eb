# shellcheck shell=bash
# The DNS filter as a process of its own (ltd-dnsd, runtime/dnsproc.h):
# found beside the launcher or in ../libexec/ltd-native/ from it, needed
# only in allowlist mode, confined, and
# a run does not go on without it.  The filtering itself: test_dns.sh.

# A launcher alone in a directory: no ltd-dnsd beside it.
LONE=$STAGE/lone
mkdir -p "$LONE"
install -m 755 "$LTD" "$LONE/ltd-native"

OUT=$(cd "$PROJ" && as_user "$LONE/ltd-native" run --network none -- true 2>&1)
RC=$?
expect_rc "--network none needs no ltd-dnsd" 0

OUT=$(cd "$PROJ" && as_user "$LONE/ltd-native" run -- true 2>&1)
RC=$?
expect_rc "allowlist mode without ltd-dnsd beside the launcher stops (125)" 125
expect_out "and names both places it looked in" "helper is neither at '$LONE/ltd-dnsd' nor at '$STAGE/libexec/ltd-native/ltd-dnsd'"

# Found beside the resolved executable, not beside a link to it, nor on PATH.
ln -s "$LONE/ltd-native" "$STAGE/ltd-native-link"
OUT=$(cd "$PROJ" && as_user env PATH="$STAGE:/usr/bin:/bin" \
	"$STAGE/ltd-native-link" run -- true 2>&1)
RC=$?
expect_rc "a link to the launcher does not borrow the helper beside the link" 125
rm -f "$STAGE/ltd-native-link"
rm -rf "$LONE"

# The helper runs as the user with the cage's sockets: one that someone
# else could swap (a writable file or directory, another owner) refuses
# the run, naming the path.
PERM=$STAGE/perm
mkdir -p "$PERM"
chmod 755 "$PERM"
install -m 755 "$LTD" "$PERM/ltd-native"
install -m 755 "$(dirname "$LTD")/ltd-dnsd" "$PERM/ltd-dnsd"
OUT=$(cd "$PROJ" && as_user "$PERM/ltd-native" run --network none -- true 2>&1)
RC=$?
expect_rc "the copied launcher runs (--network none: no helper needed)" 0
chmod 777 "$PERM/ltd-dnsd"
OUT=$(cd "$PROJ" && as_user "$PERM/ltd-native" run --dns-upstream 127.0.0.1:9 -- true 2>&1)
RC=$?
expect_rc "a helper others may write refuses the run (125)" 125
expect_out "and names it" "helper '$PERM/ltd-dnsd'.*writ"
chmod 755 "$PERM/ltd-dnsd"
chmod 777 "$PERM"
OUT=$(cd "$PROJ" && as_user "$PERM/ltd-native" run --dns-upstream 127.0.0.1:9 -- true 2>&1)
RC=$?
expect_rc "a helper in a directory others may write refuses the run (125)" 125
expect_out "and names the directory" "'$PERM'.*writ"
chmod 755 "$PERM"
if [ "$AS_ROOT" = 1 ] && id nobody >/dev/null 2>&1; then
	chown nobody "$PERM/ltd-dnsd"
	OUT=$(cd "$PROJ" && as_user "$PERM/ltd-native" run --dns-upstream 127.0.0.1:9 -- true 2>&1)
	RC=$?
	expect_rc "a helper owned by another user refuses the run (125)" 125
	expect_out "and says whose it is" "helper '$PERM/ltd-dnsd'.*owned"
fi
rm -rf "$PERM"

# Installed (make install): the helper in PREFIX/libexec/ltd-native/, the
# launcher in PREFIX/bin/.  The first place that holds a helper is the
# one: a bad helper beside the launcher is not passed over.
INST=$STAGE/inst
install -d -m 755 "$INST/bin" "$INST/libexec/ltd-native"
install -m 755 "$LTD" "$INST/bin/ltd-native"
install -m 755 "$(dirname "$LTD")/ltd-dnsd" "$INST/libexec/ltd-native/ltd-dnsd"
OUT=$(cd "$PROJ" && as_user "$INST/bin/ltd-native" doctor 2>&1)
expect_out "an installed launcher finds the helper in ../libexec/ltd-native/" \
	"ltd-dnsd at $INST/libexec/ltd-native/ltd-dnsd"
install -m 755 "$(dirname "$LTD")/ltd-dnsd" "$INST/bin/ltd-dnsd"
OUT=$(cd "$PROJ" && as_user "$INST/bin/ltd-native" doctor 2>&1)
expect_out "a helper beside the launcher comes first" "ltd-dnsd at $INST/bin/ltd-dnsd"
chmod 777 "$INST/bin/ltd-dnsd"
OUT=$(cd "$PROJ" && as_user "$INST/bin/ltd-native" run --dns-upstream 127.0.0.1:9 -- true 2>&1)
RC=$?
expect_rc "a bad helper beside the launcher is not passed over for libexec's (125)" 125
expect_out "and is named" "helper '$INST/bin/ltd-dnsd'.*writ"
rm -f "$INST/bin/ltd-dnsd"
chmod 777 "$INST/libexec/ltd-native"
OUT=$(cd "$PROJ" && as_user "$INST/bin/ltd-native" run --dns-upstream 127.0.0.1:9 -- true 2>&1)
RC=$?
expect_rc "libexec's helper in a directory others may write refuses the run (125)" 125
expect_out "and names the directory" "'$INST/libexec/ltd-native'.*writ"
rm -rf "$INST"

if [ ! -r /dev/net/tun ] || ! as_user test -w /dev/net/tun ||
	! command -v pasta >/dev/null; then
	skip "ltd-dnsd process tests" "needs pasta and /dev/net/tun usable by $E2E_USER"
else
	# A run that waits; its helper is the launcher's child named ltd-dnsd.
	dnsd_start() {
		(cd "$PROJ" && exec "${USER_CMD[@]}" "$LTD" run --dns-upstream 127.0.0.1:9 \
			-- sleep 4245 >"$STAGE/dnsd.out" 2>&1) &
		lpid=$!
		hpid=
		for _ in $(seq 100); do
			hpid=$(pgrep -P "$lpid" -x ltd-dnsd)
			[ -n "$hpid" ] && user_procs 'sleep 4245' >/dev/null && break
			sleep 0.05
		done
	}
	dnsd_start
	if [ -z "$hpid" ]; then
		fail "the DNS filter runs as the launcher's child ltd-dnsd" "$(cat "$STAGE/dnsd.out")"
		kill "$lpid" 2>/dev/null
		wait "$lpid" 2>/dev/null
	else
		pass "the DNS filter runs as the launcher's child ltd-dnsd"
		st=/proc/$hpid/status
		if [ "$AS_ROOT" = 1 ]; then
			grep -q '^NoNewPrivs:[[:space:]]*1$' "$st" &&
				pass "ltd-dnsd has no_new_privs" ||
				fail "ltd-dnsd has no_new_privs" "$(cat "$st")"
			grep -q '^Seccomp:[[:space:]]*2$' "$st" &&
				pass "ltd-dnsd runs under a seccomp filter" ||
				fail "ltd-dnsd runs under a seccomp filter" "$(cat "$st")"
			fds=$(ls "/proc/$hpid/fd" | sort -n | tr '\n' ' ')
			[ "$fds" = "0 1 2 4 5 6 " ] &&
				pass "ltd-dnsd holds only its DNS sockets (no config, no audit log, no netfilter socket)" ||
				fail "ltd-dnsd holds only its DNS sockets (no config, no audit log, no netfilter socket)" "$fds"
			env=$(tr '\0' '\n' <"/proc/$hpid/environ")
			[ -z "$env" ] && pass "ltd-dnsd has an empty environment" ||
				fail "ltd-dnsd has an empty environment" "$env"
		fi
		# Not readable by the user that owns it: not dumpable.
		if as_user cat "/proc/$hpid/environ" >/dev/null 2>&1; then
			fail "ltd-dnsd is not dumpable (its /proc entries are root's)"
		else
			pass "ltd-dnsd is not dumpable (its /proc entries are root's)"
		fi
		# A filter that dies ends the run: lookups would go unanswered.
		kill -9 "$hpid"
		wait "$lpid"
		RC=$?
		OUT=$(cat "$STAGE/dnsd.out")
		expect_rc "a DNS filter that dies ends the run (125)" 125
		expect_out "and the launcher says so" "DNS filter \(ltd-dnsd\) ended unexpectedly \(killed by signal 9\)"
		sleep 0.5
		left=$(user_procs 'sleep 4245')
		[ -z "$left" ] && pass "and the cage is gone" || fail "and the cage is gone" "$left"
	fi

	# Ctrl-C where there is no pty: the terminal signals the launcher's
	# process group; the command handles it, and neither ltd-dnsd nor
	# pasta may die of it (the run would end 125).
	setsid -w bash -c 'echo $$ >"$0"; cd "$1" && shift && exec "$@"' \
		"$STAGE/pg" "$PROJ" "${USER_CMD[@]}" "$LTD" run --dns-upstream 127.0.0.1:9 -- \
		python3 -c 'import os,signal,time
signal.signal(signal.SIGINT, lambda *a: os.write(1, b"cmd got INT\n"))
signal.signal(signal.SIGQUIT, lambda *a: os.write(1, b"cmd got QUIT\n"))
time.sleep(3); print("cmd done", flush=True)' >"$STAGE/int.out" 2>&1 &
	lpid=$!
	for _ in $(seq 100); do
		user_procs 'signal.SIGINT' | grep -qv ltd-native && break
		sleep 0.05
	done
	sleep 0.5
	kill -INT -- -"$(cat "$STAGE/pg")"
	kill -QUIT -- -"$(cat "$STAGE/pg")"
	wait "$lpid"
	RC=$?
	OUT=$(cat "$STAGE/int.out")
	expect_rc "SIGINT and SIGQUIT to the launcher's process group (no pty) leave the run going" 0
	expect_out "and the command ends as it chose" "cmd done"
	expect_no_out "without the DNS filter dying of it" "ended unexpectedly"

	# A terminal on the launcher's stderr does not reach ltd-dnsd at all:
	# a helper taken over can neither read what the user types nor write
	# escape sequences to it (its stderr is /dev/null).
	rm -f "$STAGE/pty.rc"
	python3 -c 'import os,pty,sys,time,select
pid,fd=pty.fork()
if pid==0:
    os.chdir(sys.argv[1]); os.execvp(sys.argv[2],sys.argv[2:])
end=time.time()+30
while time.time()<end:
    r,_,_=select.select([fd],[],[],0.2)
    if r:
        try:
            if not os.read(fd,4096): break
        except OSError: break
    if os.waitpid(pid,os.WNOHANG)[0]: break
' "$PROJ" "${USER_CMD[@]}" "$LTD" run --dns-upstream 127.0.0.1:9 -- sleep 4247 &
	ppid=$!
	hpid=
	for _ in $(seq 100); do
		hpid=$(pgrep -u "$U_UID" -x ltd-dnsd | while read -r h; do
			tr '\0' ' ' <"/proc/$(ps -o ppid= -p "$h" | tr -d ' ')/cmdline" 2>/dev/null |
				grep -q 'sleep 4247' && echo "$h"
		done | head -1)
		[ -n "$hpid" ] && break
		sleep 0.05
	done
	if [ -z "$hpid" ]; then
		fail "ltd-dnsd started under a terminal"
	elif [ "$AS_ROOT" = 1 ]; then
		if [ "$(readlink "/proc/$hpid/fd/2")" = /dev/null ]; then
			pass "ltd-dnsd's stderr is /dev/null, not the launcher's terminal"
		else
			fail "ltd-dnsd's stderr is /dev/null, not the launcher's terminal" "$(ls -l "/proc/$hpid/fd/2")"
		fi
	fi
	pkill -u "$U_UID" -f 'sleep 4247'
	wait "$ppid" 2>/dev/null

	# DNS over TCP: idle clients cannot hold every slot.  With all 16
	# taken by idle connections a new client is still answered (the
	# oldest idle one gives way), and an idle connection is closed after
	# about 10 s.
	ltd run --dns-upstream 127.0.0.1:9 -- python3 -c 'import socket,struct,time
def q(s):
    m=struct.pack(">HHHHHH",0x1234,0x0100,1,0,0,0)+b"\x01x\x07invalid\x00"+struct.pack(">HH",1,1)
    s.sendall(struct.pack(">H",len(m))+m)
    h=b""
    while len(h)<2:
        d=s.recv(2-len(h))
        if not d: return "closed"
        h+=d
    n=struct.unpack(">H",h)[0]; a=b""
    while len(a)<n:
        d=s.recv(n-len(a))
        if not d: return "closed"
        a+=d
    return "rcode %d" % (a[3]&15)
cs=[socket.create_connection(("127.0.0.53",53)) for i in range(16)]
time.sleep(0.3)
n=socket.create_connection(("127.0.0.53",53)); n.settimeout(3)
try: print("17th client:", q(n), flush=True)
except OSError as e: print("17th client:", e, flush=True)
n.close()
s=cs[-1]; s.settimeout(15); t=time.time()
try: d=s.recv(1); print("idle client:", "closed" if not d else "data", "after %d s" % round(time.time()-t), flush=True)
except OSError as e: print("idle client:", e, flush=True)'
	expect_out "a 17th TCP client is answered while 16 idle ones are connected" "^17th client: rcode 3"
	expect_out "an idle TCP client is closed after about 10 s" "^idle client: closed after (9|10|11|12) s"
	# The summary comes back whole from the helper, however long: 33
	# refused names of ~250 bytes (the summary lists 32, then "...").
	ltd run --dns-upstream 127.0.0.1:9 -- python3 -c 'import socket
for i in range(33):
    n=".".join([c*60 for c in "abcd"])+".n%02d.test"%i
    try: socket.getaddrinfo(n,80,socket.AF_INET)
    except OSError: pass'
	expect_out "a long summary of refused names arrives whole" "refused [0-9]+ queries .*n31\.test( \(x[0-9]+\))?, \.\.\.\$"
	expect_out "down to its last line" "allow a name with --allow-domain NAME"

	# A name the cage makes up with an escape sequence and a bidi override
	# in a label: refused, and nothing of it reaches the terminal (the
	# summary is shown as ltd_fput_shown() shows text).
	ltd run --dns-upstream 127.0.0.1:9 -- python3 -c 'import socket, struct
ns = [l.split()[1] for l in open("/etc/resolv.conf") if l.startswith("nameserver")][0]
lab = b"\x1b]0;dns-title\x07\xe2\x80\xaex\x1b[2J"
q = struct.pack(">HHHHHH", 0x4242, 0x0100, 1, 0, 0, 0)
q += bytes([len(lab)]) + lab + b"\x04test\x00" + struct.pack(">HH", 1, 1)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(5)
s.sendto(q, (ns, 53))
r = s.recv(512)
print("rcode", r[3] & 15)'
	expect_out "a query for a name with an escape sequence is refused (NXDOMAIN)" "^rcode 3\$"
	expect_out "the summary names it as no host name" "refused 1 query for names outside the allowlist: \\(not a host name\\)\$"
	if printf '%s' "$OUT" | tr -d '\n' | LC_ALL=C grep -q '[[:cntrl:]]' ||
		printf '%s' "$OUT" | grep -q "$(printf '\342\200\256')"; then
		fail "no control byte or bidi override of a cage's query name reaches the terminal" \
			"$(printf '%s' "$OUT" | od -c | tail -8)"
	else
		pass "no control byte or bidi override of a cage's query name reaches the terminal"
	fi

	# A helper that cannot serve (here: a script, which execveat of a
	# close-on-exec descriptor refuses) ends the run at once.
	FAKE=$STAGE/fake
	mkdir -p "$FAKE"
	install -m 755 "$LTD" "$FAKE/ltd-native"
	printf '#!/bin/sh\nexit 3\n' >"$FAKE/ltd-dnsd"
	chmod 755 "$FAKE/ltd-dnsd"
	OUT=$(cd "$PROJ" && as_user timeout 20 "$FAKE/ltd-native" run \
		--dns-upstream 127.0.0.1:9 -- sleep 15 2>&1)
	RC=$?
	expect_rc "a DNS filter that cannot start ends the run (125)" 125
	expect_out "and the launcher says why" "DNS filter \(ltd-dnsd\) ended unexpectedly"
	rm -rf "$FAKE"

	# The helper dies with a SIGKILLed launcher.
	dnsd_start
	if [ -n "$hpid" ]; then
		kill -9 "$lpid"
		wait "$lpid" 2>/dev/null
		sleep 0.5
		if [ -e "/proc/$hpid" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$hpid/status"; then
			fail "ltd-dnsd dies with a SIGKILLed launcher" "$(ps -o pid,args -p "$hpid")"
			kill -9 "$hpid"
		else
			pass "ltd-dnsd dies with a SIGKILLed launcher"
		fi
	else
		fail "the DNS filter started (second run)" "$(cat "$STAGE/dnsd.out")"
		kill "$lpid" 2>/dev/null
		wait "$lpid" 2>/dev/null
	fi
fi
