#!/bin/bash
# DNS lookup latency through the cage's filter against asking the test
# upstream directly, and connection set-up to a name just resolved.
#   bash bench/dns.sh [LTD_NATIVE] [QUERIES]
# Starts its own upstream (dnsmasq on loopback, a test name only) and
# never contacts anything outside this machine.  Run as an ordinary user
# (as root: BENCH_USER=name runs the cage as that user).
set -euo pipefail
ltd=$(realpath "${1:-build/ltd-native}")
n=${2:-2000}
port=$((30000 + $$ % 20000))
dir=$(mktemp -d /tmp/ltd-bench-dns.XXXXXX)
chmod 755 "$dir"
cp "$ltd" "$dir/ltd-native"
# The DNS filter runs as ltd-dnsd, found beside the launcher.
cp "$(dirname "$ltd")/ltd-dnsd" "$dir/ltd-dnsd"
trap 'kill $(cat "$dir/pid" 2>/dev/null) 2>/dev/null; rm -rf "$dir"' EXIT

dnsmasq --no-resolv --no-hosts --bind-interfaces --listen-address=127.0.0.1 \
	--port="$port" --pid-file="$dir/pid" --local-ttl=300 \
	--address=/bench.test/127.0.0.9 --address=/other.test/127.0.0.9 \
	$( [ "$(id -u)" = 0 ] && echo --user=root --group=root )
sleep 0.3

# Sequential A queries for NAME to SERVER:PORT over one UDP socket:
# median and 90th percentile in microseconds.  The client is the same
# code on both sides, so its own cost cancels out in the difference.
cat > "$dir/q.py" <<'PY'
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
# Resolve then connect (to a closed port on the cage's own loopback
# address the name maps to): glibc's getaddrinfo + the first SYN.
cat > "$dir/c.py" <<'PY'
import socket, sys, time, statistics
name, n = sys.argv[1], int(sys.argv[2])
ts = []
for i in range(n):
    t = time.perf_counter_ns()
    a = socket.getaddrinfo(name, 80, socket.AF_INET, socket.SOCK_STREAM)[0][4]
    c = socket.socket(); c.settimeout(2)
    try: c.connect(a)
    except OSError: pass
    c.close()
    ts.append((time.perf_counter_ns() - t) / 1000)
print("getaddrinfo+connect %.0f" % statistics.median(ts))
PY

as_user() {
	if [ "$(id -u)" = 0 ] && [ -n "${BENCH_USER:-}" ]; then
		setpriv --reuid="$BENCH_USER" --regid="$BENCH_USER" --init-groups \
			env -i HOME="$(getent passwd "$BENCH_USER" | cut -d: -f6)" \
			PATH=/usr/bin:/bin "$@"
	else
		"$@"
	fi
}

echo "queries: $n each, medians (and p90) in microseconds"
direct=$(python3 "$dir/q.py" 127.0.0.1 "$port" bench.test "$n")
cage=$(cd "$dir" && as_user "$dir/ltd-native" run --project "$dir" \
	--dns-upstream "127.0.0.1:$port" --no-default-domains --quiet \
	--allow-domain bench.test -- sh -c "
	python3 $dir/q.py 127.0.0.53 53 bench.test $n
	python3 $dir/q.py 127.0.0.53 53 refused.test $n
	python3 $dir/c.py bench.test 200")
printf '%-38s %s\n' "direct to the upstream (A, allowed)" "$(echo "$direct" | awk '{print $2" (p90 "$3")"}')"
printf '%-38s %s\n' "through the filter (A, allowed)" "$(echo "$cage" | awk '/^bench.test/{print $2" (p90 "$3")"}')"
printf '%-38s %s\n' "through the filter (refused name)" "$(echo "$cage" | awk '/^refused.test/{print $2" (p90 "$3")"}')"
printf '%-38s %s\n' "in the cage: resolve + connect" "$(echo "$cage" | awk '/^getaddrinfo/{print $2}')"
d=$(echo "$direct" | awk '{print $2}')
f=$(echo "$cage" | awk '/^bench.test/{print $2}')
echo "the filter adds $((f - d)) us per allowed lookup (median)"
