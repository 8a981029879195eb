#!/bin/bash
# DNS lookup latency through the cage's filter against asking the test
# upstream directly, and connection set-up to a name just resolved.
#   bash bench/dns.sh [LTD_NATIVE] [QUERIES]
#
# Must run as root: it makes a test host, a network namespace behind a
# veth (10.231.90.2, host side 10.231.90.1) with a TCP server on port 8080,
# and a test upstream (dnsmasq on loopback) that answers the bench's names
# with the test host's address.  The filter never lets an answer open a
# special address (loopback, private ranges the cage's own plan uses...:
# docs/decisions/0088-dns-no-special-addresses.md), so the names point at
# a host of the bench's own, never at 127.0.0.x.  Nothing outside this
# machine is contacted; everything is removed on exit, also on failure.
# The cage runs as BENCH_USER (default ltd-bench), as in bench/startup.sh.
set -euo pipefail
BENCH_USER=${BENCH_USER:-ltd-bench}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
die() { echo "dns.sh: $*" >&2; exit 1; }

bin=${1:-build/ltd-native}
n=${2:-2000}
[[ $n =~ ^[0-9]+$ && $n -ge 1 ]] || die "QUERIES must be a positive integer"
[[ -x $bin && -f $bin ]] || die "no executable ltd-native at '$bin'"
[[ -x $(dirname "$bin")/ltd-dnsd ]] || die "no ltd-dnsd beside '$bin'"
[[ $(id -u) -eq 0 ]] || die "must run as root (it makes a test host in a network namespace)"
for tool in dnsmasq pasta ip python3 setpriv; do
	command -v "$tool" >/dev/null || die "$tool is not installed"
done
bench_python
bench_user
"${as_user[@]}" test -r /dev/net/tun -a -w /dev/net/tun ||
	die "/dev/net/tun is not usable by $BENCH_USER (mode 0666 expected)"

NS=ltd-bench-dns$$
IF=ltdbd$$
GW=10.231.90.1
HOST=10.231.90.2
TPORT=8080
port=$((30000 + $$ % 20000))
STAGE=$(mktemp -d /tmp/ltd-bench-dns.XXXXXX)
SERVER_PID=
cleanup() {
	set +e
	[[ -z $SERVER_PID ]] || kill "$SERVER_PID" 2>/dev/null
	[[ ! -f $STAGE/pid ]] || kill "$(cat "$STAGE/pid")" 2>/dev/null
	ip link del "$IF" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	rm -rf "$STAGE"
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM
chmod 755 "$STAGE"
ltd=$(stage_binary "$bin" ltd-native)
stage_binary "$(dirname "$bin")/ltd-dnsd" ltd-dnsd >/dev/null
PROJECT=$STAGE/project
mkdir "$PROJECT"
chown "$BENCH_USER": "$PROJECT"

# The test host: an accepting TCP server, so a connect measures a real
# handshake through pasta.
ip netns add "$NS"
ip link add "$IF" type veth peer name eth0 netns "$NS"
ip addr add "$GW/24" dev "$IF"
ip link set "$IF" up
ip netns exec "$NS" ip addr add "$HOST/24" dev eth0
ip netns exec "$NS" ip link set eth0 up
ip netns exec "$NS" ip link set lo up
ip netns exec "$NS" "$PY" -c 'import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], int(sys.argv[2])))
s.listen(128)
while True:
    s.accept()[0].close()' "$HOST" "$TPORT" &
SERVER_PID=$!

dnsmasq --no-resolv --no-hosts --bind-interfaces --listen-address=127.0.0.1 \
	--port="$port" --pid-file="$STAGE/pid" --local-ttl=300 \
	--address=/bench.test/"$HOST" --address=/refused.test/"$HOST" \
	--user=root --group=root
for _ in $(seq 50); do
	ip netns exec "$NS" ss -Hltn "sport = :$TPORT" | grep -q . && break
	sleep 0.1
done

# Sequential A queries for NAME to SERVER:PORT over one UDP socket:
# median and 90th percentile in microseconds.  The client is the same
# code on both sides, so its own cost cancels out in the difference.
cat >"$STAGE/q.py" <<'PY'
import socket, struct, sys, time, statistics
server, port, name, n = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
qn = b"".join(bytes([len(l)]) + l.encode() for l in name.split(".")) + b"\0"
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(2)
s.connect((server, port))
ts = []
for i in range(n):
    q = struct.pack(">HHHHHH", i & 0xffff, 0x0100, 1, 0, 0, 0) + qn + struct.pack(">HH", 1, 1)
    t = time.perf_counter_ns()
    s.send(q)
    r = s.recv(4096)
    ts.append((time.perf_counter_ns() - t) / 1000)
    assert r[:2] == q[:2]
ts.sort()
print("%s %.0f %.0f" % (name, statistics.median(ts), ts[int(len(ts) * 0.9)]))
PY
# Resolve, then connect to the address the name gave (the test host's
# server, through pasta and the firewall the answer opened): glibc's
# getaddrinfo + a TCP handshake.
cat >"$STAGE/c.py" <<'PY'
import socket, sys, time, statistics
name, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ts = []
for i in range(n):
    t = time.perf_counter_ns()
    a = socket.getaddrinfo(name, port, socket.AF_INET, socket.SOCK_STREAM)[0][4]
    c = socket.create_connection(a, timeout=2)
    c.close()
    ts.append((time.perf_counter_ns() - t) / 1000)
print("getaddrinfo+connect %.0f" % statistics.median(ts))
PY
chmod 644 "$STAGE"/*.py

conns=$(((n + 9) / 10))
echo "queries: $n each ($conns connections), medians (and p90) in microseconds"
direct=$("$PY" "$STAGE/q.py" 127.0.0.1 "$port" bench.test "$n")
cage=$(cd "$PROJECT" && "${as_user[@]}" "$ltd" run --project "$PROJECT" \
	--dns-upstream "127.0.0.1:$port" --no-default-domains --quiet \
	--allow-domain "bench.test:$TPORT" --ro-bind "$STAGE" "$STAGE" -- sh -c "
	python3 $STAGE/q.py 127.0.0.53 53 bench.test $n &&
	python3 $STAGE/q.py 127.0.0.53 53 refused.test $n &&
	python3 $STAGE/c.py bench.test $TPORT $conns")
field() { echo "$1" | awk -v k="$2" '$1 == k { print $2 (NF > 2 ? " (p90 " $3 ")" : "") }'; }
d=$(field "$direct" bench.test)
f=$(field "$cage" bench.test)
r=$(field "$cage" refused.test)
c=$(field "$cage" getaddrinfo+connect)
[[ -n $d && -n $f && -n $r && -n $c ]] || die "a row produced no figure: '$direct' '$cage'"
printf '%-38s %s\n' "direct to the upstream (A, allowed)" "$d"
printf '%-38s %s\n' "through the filter (A, allowed)" "$f"
printf '%-38s %s\n' "through the filter (refused name)" "$r"
printf '%-38s %s\n' "in the cage: resolve + connect" "$c"
echo "the filter adds $((${f%% *} - ${d%% *})) us per allowed lookup (median)"
