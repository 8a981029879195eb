# shellcheck shell=bash
# --publish (issue 14): a TCP server in the cage, served on the host's
# loopback at the published port and nowhere else; the cage still reaches
# no host service but the allowed host ports.  Servers and clients are
# this test's own, on loopback or in a network namespace it makes.

PUB_PORT=$((30000 + $$ % 10000)) # the published host port
PUB_HS_OK=$((PUB_PORT + 3))      # a host service the cage may reach
PUB_HS_NO=$((PUB_PORT + 4))      # one it may not
PUB_NS=ltd-e2e-pub$$
PUB_IF=ltdpub$$
PUB_PIDS=()

# The cage's side: a server on each ADDR/PORT given, then what it can
# reach on the host, then "ready" in the project; it stays until the
# host's side has written "done".
PUB_CAGE='import os, socket, sys, threading, time
ready, done, hs_ok, hs_no = sys.argv[1:5]
def serve(s, port):
    while True:
        c, _ = s.accept(); c.recv(64); c.sendall(b"cage %d\n" % port); c.close()
for ap in sys.argv[5:]:
    a, p = ap.rsplit("/", 1)
    fam, _, _, _, sa = socket.getaddrinfo(a, int(p), 0, socket.SOCK_STREAM)[0]
    s = socket.socket(fam)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(sa); s.listen(8)
    threading.Thread(target=serve, args=(s, int(p)), daemon=True).start()
for h, p in (("host.ltd.internal", hs_ok), ("host.ltd.internal", hs_no), ("198.18.93.1", hs_no), ("127.0.0.1", hs_ok)):
    try:
        c = socket.create_connection((h, int(p)), timeout=5); r = c.recv(16).decode().strip() or "empty"
    except OSError as e: r = "refused" if isinstance(e, ConnectionRefusedError) else "error"
    print("cage->%s:%s %s" % (h, "ok" if p == hs_ok else "no", r), flush=True)
open(ready, "w").close()
while not os.path.exists(done): time.sleep(0.1)'

# A client: "ADDR PORT -> what the server said, or refused".  It speaks
# first, as HTTP does (Debian 12's pasta holds a connection it brings in
# through its interface until the client has sent something).
PUB_CLIENT='import socket, sys
try:
    c = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=30)
    c.sendall(b"GET / HTTP/1.0\r\n\r\n")
    print(sys.argv[1], sys.argv[2], "->", c.recv(64).decode().strip() or "closed")
except ConnectionRefusedError: print(sys.argv[1], sys.argv[2], "-> refused")
except OSError as e: print(sys.argv[1], sys.argv[2], "-> error", e.errno)'

# A host service on 127.0.0.1:$1 that answers "host".
pub_host_server() {
	python3 -c 'import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(8)
while True:
    c, _ = s.accept(); c.sendall(b"host\n"); c.close()' "$1" &
	PUB_PIDS+=($!)
}

pub_cleanup() {
	for pid in "${PUB_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
	ip link del "$PUB_IF" 2>/dev/null
	ip netns del "$PUB_NS" 2>/dev/null
	return 0
}

# Start a cage that serves $PUB_CAGE's ports, with the run flags given
# before "--" and the cage's ports after it; waits (without a deadline of
# its own: the cage ends the wait by failing) until it is ready.
pub_start() {
	local flags=()
	while [ "$1" != -- ]; do flags+=("$1"); shift; done
	shift
	as_user rm -f "$PROJ/pub-ready" "$PROJ/pub-done" "$PROJ/pub-out" "$PROJ/pub-status"
	(cd "$PROJ" && as_user "$LTD" run --ro-bind "$STAGE" "$STAGE" "${flags[@]}" \
		--json-status-fd 3 -- python3 -c "$PUB_CAGE" "$PROJ/pub-ready" \
		"$PROJ/pub-done" "$PUB_HS_OK" "$PUB_HS_NO" "$@" \
		>"$PROJ/pub-out" 2>&1 3>"$PROJ/pub-status") &
	PUB_RUN=$!
	while [ ! -e "$PROJ/pub-ready" ] && kill -0 "$PUB_RUN" 2>/dev/null; do
		sleep 0.2
	done
}

pub_stop() {
	as_user touch "$PROJ/pub-done"
	wait "$PUB_RUN"
	PUB_RC=$?
	OUT=$(cat "$PROJ/pub-out")
}

if ! command -v pasta >/dev/null || ! command -v python3 >/dev/null; then
	skip "--publish tests" "needs pasta (passt) and python3"
elif [ ! -r /dev/net/tun ] || ! as_user test -w /dev/net/tun; then
	skip "--publish tests" "/dev/net/tun is not usable by $E2E_USER"
else
	trap 'pub_cleanup; e2e_teardown' EXIT
	pub_host_server "$PUB_HS_OK"
	pub_host_server "$PUB_HS_NO"
	# Listening before anything relies on them (python starts slowly on
	# a loaded machine).
	while [ -z "$(ss -Hltn "sport = :$PUB_HS_NO")" ] || [ -z "$(ss -Hltn "sport = :$PUB_HS_OK")" ]; do
		sleep 0.2
	done

	# The refusals come first: they stop before any cage exists.
	ltd run --network none --publish "$PUB_PORT:8000" -- true
	expect_rc "--publish with --network none is refused" 125
	expect_out "... saying there is no network to forward through" "--publish: --network none has no network to forward through"
	ltd run --publish "0.0.0.0:$PUB_PORT:8000" -- true
	expect_rc "--publish on another address than loopback is refused" 125
	expect_out "... naming its --unsafe flag" "--publish 0.0.0.0:$PUB_PORT:8000: refusing a host address other than loopback.*--unsafe-publish-external"
	ltd run --publish "$PUB_HS_OK:8000" -- true
	expect_rc "a host port in use is refused before the cage starts" 125
	expect_out "... naming it" "--publish 127.0.0.1:$PUB_HS_OK:8000: host port $PUB_HS_OK is in use at 127.0.0.1"
	ltd run --publish "$PUB_PORT:8000" --publish "[::1]:$PUB_PORT:9000" -- true
	expect_rc "the same host port twice is refused (pasta forwards a port once)" 125
	ltd policy show --publish "$PUB_PORT:8000"
	expect_out "policy show lists it" "^publish $PUB_PORT:8000 +# command line\$"
	expect_out "... and what it means" "published: the cage's TCP port 8000 at 127.0.0.1:$PUB_PORT on the host \(loopback only\)"

	# The cage serves 8000 on "localhost" (as a dev server does: Node
	# would pick ::1 where localhost is both), 8002 on its ::1 (published
	# at the host's ::1), 8001 (not published).
	P1=$((PUB_PORT + 1))
	pub_start --publish "$PUB_PORT:8000" --publish "[::1]:$P1:8002" \
		--allow-host-port "$PUB_HS_OK" -- localhost/8000 ::1/8002 127.0.0.1/8001
	R1=$(python3 -c "$PUB_CLIENT" 127.0.0.1 "$PUB_PORT" 2>&1)
	R2=$(python3 -c "$PUB_CLIENT" 127.0.0.1 8001 2>&1)
	R3=$(python3 -c "$PUB_CLIENT" ::1 "$P1" 2>&1)
	R5=$(python3 -c "$PUB_CLIENT" ::1 "$PUB_PORT" 2>&1)
	LISTEN=$(ss -Hltn "( sport = :$PUB_PORT or sport = :$P1 )" | awk '{print $4}' | sort | tr '\n' ' ')
	UDP=$(ss -Hlun "( sport = :$PUB_PORT or sport = :$P1 )" 2>&1)
	pub_stop
	[ "$R1" = "127.0.0.1 $PUB_PORT -> cage 8000" ] && pass "a host client reaches the cage's server through --publish" ||
		fail "a host client reaches the cage's server through --publish" "$R1
$OUT"
	[ "$R2" = "127.0.0.1 8001 -> refused" ] && pass "a port the cage serves but did not publish is not reachable" ||
		fail "a port the cage serves but did not publish is not reachable" "$R2"
	[ "$R3" = "::1 $P1 -> cage 8002" ] && pass "published at [::1], a server on the cage's ::1 is reached" ||
		fail "published at [::1], a server on the cage's ::1 is reached" "$R3"
	[ "$R5" = "::1 $PUB_PORT -> refused" ] && pass "published at 127.0.0.1, the port is not on the host's ::1" ||
		fail "published at 127.0.0.1, the port is not on the host's ::1" "$R5"
	[ "$LISTEN" = "127.0.0.1:$PUB_PORT [::1]:$P1 " ] &&
		pass "pasta listens on the host's loopback only, at the address published" ||
		fail "pasta listens on the host's loopback only, at the address published" "$LISTEN"
	[ -z "$UDP" ] && pass "no UDP port is opened on the host for it" ||
		fail "no UDP port is opened on the host for it" "$UDP"
	expect_out "the cage reaches the allowed host port" "^cage->host.ltd.internal:ok host\$"
	expect_out "... and no other host port by name" "^cage->host.ltd.internal:no refused\$"
	expect_out "... nor by the gateway's address" "^cage->198.18.93.1:no refused\$"
	expect_out "the cage's 127.0.0.1 is its own, not the host's" "^cage->127.0.0.1:ok refused\$"
	[ "$PUB_RC" = 0 ] && pass "the run ends with the command's status" || fail "the run ends with the command's status ($PUB_RC)" "$OUT"
	if python3 -c 'import json, sys
e = json.loads(open(sys.argv[1]).readline())
p = int(sys.argv[2])
assert e["event"] == "started" and e["published"] == [{"address": "127.0.0.1", "host_port": p, "cage_port": 8000}, {"address": "::1", "host_port": p + 1, "cage_port": 8002}], e' \
		"$PROJ/pub-status" "$PUB_PORT" 2>/dev/null; then
		pass "the started event lists the published port"
	else
		fail "the started event lists the published port" "$(cat "$PROJ/pub-status")"
	fi
	R4=$(python3 -c "$PUB_CLIENT" 127.0.0.1 "$PUB_PORT" 2>&1)
	[ "$R4" = "127.0.0.1 $PUB_PORT -> refused" ] && pass "after the run the port is closed" ||
		fail "after the run the port is closed" "$R4"

	# Beyond loopback, with the opt-in: a host in a network namespace
	# reaches the cage through the host's address on its link (pasta's
	# tap: the firewall's input chain admits the published port).
	if [ "$AS_ROOT" = 1 ] && command -v ip >/dev/null; then
		ip netns add "$PUB_NS"
		ip link add "$PUB_IF" type veth peer name eth0 netns "$PUB_NS"
		ip addr add 10.232.91.1/24 dev "$PUB_IF"
		ip link set "$PUB_IF" up
		ip netns exec "$PUB_NS" ip addr add 10.232.91.2/24 dev eth0
		ip netns exec "$PUB_NS" ip link set eth0 up
		ip netns exec "$PUB_NS" ip link set lo up
		# (A server must listen beyond its own loopback to be reached
		# from there: pasta brings these in through its interface.)
		pub_start --publish "10.232.91.1:$PUB_PORT:8000" --unsafe-publish-external -- 0.0.0.0/8000 0.0.0.0/8001
		# The first connection from outside into a fresh cage is now and
		# then reset (error 104, about one run in three here, on main
		# before this change too): asked again, a few times, it must
		# connect; the reset itself is not understood yet (pasta's tap
		# before the cage has sent a frame?) and is in the closing note.
		for _ in 1 2 3 4 5; do
			R1=$(ip netns exec "$PUB_NS" python3 -c "$PUB_CLIENT" 10.232.91.1 "$PUB_PORT" 2>&1)
			[ "$R1" = "10.232.91.1 $PUB_PORT -> error 104" ] || break
			sleep 0.5
		done
		R2=$(ip netns exec "$PUB_NS" python3 -c "$PUB_CLIENT" 10.232.91.1 8001 2>&1)
		pub_stop
		[ "$R1" = "10.232.91.1 $PUB_PORT -> cage 8000" ] &&
			pass "--unsafe-publish-external: another machine reaches the cage's server" ||
			fail "--unsafe-publish-external: another machine reaches the cage's server" "$R1
$OUT"
		[ "$R2" = "10.232.91.1 8001 -> refused" ] &&
			pass "... and no port it did not publish" ||
			fail "... and no port it did not publish" "$R2"
		expect_out "the waived risk is said" "warning: --unsafe-publish-external: the cage's port 8000 is served at 10.232.91.1:$PUB_PORT, beyond"
	else
		skip "--publish beyond loopback" "the harness must run as root to make a test host"
	fi
	pub_cleanup
	PUB_PIDS=()
	trap e2e_teardown EXIT
fi
