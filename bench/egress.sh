#!/usr/bin/env bash
# Egress benchmark: what allowlist networking (pasta + the nftables
# firewall) costs.  Two parts, each with its rows interleaved round-robin in
# one run:
#
#  (a) TCP throughput (iperf3, RUNS runs of SECS s per row and direction)
#      from the sandbox to a test host in a network namespace this script
#      creates (veth link), up (cage sends) and down (-R, cage receives):
#        1. bare, from the host over the veth (reference)
#        2. pasta alone, no rules: pasta --config-net -- iperf3 -c ...
#        3. pasta alone with the options ltd-native gives it (no forwarding,
#           its addresses, --no-map-gw...)
#        4. ltd-native run --allow-cidr TESTHOST/32:5201 -- iperf3 -c ...
#  (b) start-up and teardown around /bin/true (wall time, STARTS rounds):
#        1. pasta --config-net -- /bin/true
#        2. pasta with ltd-native's options -- /bin/true
#        3. ltd-native run -- /bin/true             (allowlist, the default)
#        4. ltd-native run --network none -- /bin/true
#
# Usage: bash bench/egress.sh [PATH_TO_LTD_NATIVE]    (default build/ltd-native)
# Environment: RUNS=N     iperf3 runs per row and direction (default 3)
#              SECS=N     seconds per iperf3 run (default 3)
#              STARTS=N   timed start-up rounds (default 40)
#              WARMUP=N   untimed start-up rounds first (default 3)
#              RAW=FILE   also write every sample as CSV to FILE
#              BENCH_USER the user the rows run as (default ltd-bench)
#
# Must be started as root (it creates the test host); every measured
# command runs as the bench user, as in bench/startup.sh.  Needs pasta
# (passt), iperf3 and iproute2.  Markdown tables on
# stdout; no pass/fail on timing.
#
# Network: the only peers are the iperf3 server this script starts in the
# network namespace it creates (10.231.88.2, veth), removed on exit, also on
# failure.  Nothing else is contacted.
set -euo pipefail

RUNS=${RUNS:-3}
SECS=${SECS:-3}
STARTS=${STARTS:-40}
WARMUP=${WARMUP:-3}
BENCH_USER=${BENCH_USER:-ltd-bench}
BIN=${1:-build/ltd-native}

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
die() { echo "egress.sh: $*" >&2; exit 1; }

for v in RUNS SECS STARTS; do
	[[ ${!v} =~ ^[0-9]+$ && ${!v} -ge 1 ]] || die "$v must be a positive integer"
done
[[ $WARMUP =~ ^[0-9]+$ ]] || die "WARMUP must be a non-negative integer"
[[ -x $BIN && -f $BIN ]] || die "no executable ltd-native at '$BIN'"
[[ -x $(dirname "$BIN")/ltd-dnsd ]] || die "no ltd-dnsd beside '$BIN'"
[[ $(id -u) -eq 0 ]] || die "must run as root (it creates a test host in a network namespace)"
for tool in pasta iperf3 ip python3 setpriv; do
	command -v "$tool" >/dev/null || die "$tool is not installed"
done
bench_python
PASTA=$(command -v pasta)
IPERF=$(command -v iperf3)

# (egress.sh runs as root: it makes the test host.)
bench_user
"${as_user[@]}" test -r /dev/net/tun -a -w /dev/net/tun ||
	die "/dev/net/tun is not usable by $BENCH_USER (mode 0666 expected)"

# --- the test host and cleanup -------------------------------------------------
NS=ltd-bench-host$$
IF=ltdb$$
GW=10.231.88.1
HOST=10.231.88.2
PORT=5201
SERVER_PID=
STAGE=
cleanup() {
	set +e
	if [[ -n $SERVER_PID ]]; then
		kill "$SERVER_PID" 2>/dev/null
		wait "$SERVER_PID" 2>/dev/null
	fi
	ip link del "$IF" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	if [[ -n $STAGE ]]; then rm -rf "$STAGE"; fi
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ip netns add "$NS"
ip link add "$IF" type veth peer name eth0 netns "$NS"
ip addr add "$GW/24" dev "$IF"
ip link set "$IF" up
ip netns exec "$NS" ip addr add "$HOST/24" dev eth0
ip netns exec "$NS" ip link set eth0 up
ip netns exec "$NS" ip link set lo up
ip netns exec "$NS" "$IPERF" -s -B "$HOST" -p "$PORT" >/dev/null 2>&1 &
SERVER_PID=$!
for _ in $(seq 50); do
	ip netns exec "$NS" ss -Hltn "sport = :$PORT" | grep -q . && break
	sleep 0.1
done
ip netns exec "$NS" ss -Hltn "sport = :$PORT" | grep -q . || die "iperf3 server did not start"

# --- staging --------------------------------------------------------------------
STAGE=$(mktemp -d /tmp/ltd-bench-egress.XXXXXX)
chmod 755 "$STAGE"
install -m 755 "$BIN" "$STAGE/ltd-native"
# Allowlist mode runs the DNS filter, ltd-dnsd, from beside the launcher.
install -m 755 "$(dirname "$BIN")/ltd-dnsd" "$STAGE/ltd-dnsd"
LTD=$STAGE/ltd-native
PROJECT=$STAGE/project
mkdir "$PROJECT"
echo "benchmark project" >"$PROJECT/README"
chown -R "$BENCH_USER": "$PROJECT"

iperf=("$IPERF" -c "$HOST" -p "$PORT" -t "$SECS" -J)
# pasta with the options ltd-native gives it (netfilter/pasta.c's fixed
# arguments: no port forwarding, its address plan, no DNS, no DHCP/RA, no
# gateway mapping), minus the readiness pipe and the namespaces it is
# handed: separates pasta's configuration from the firewall's cost.
pasta_ltd=("$PASTA" -f -q --config-net -t none -u none -T none -U none
	-a 198.18.93.2 -n 24 -g 198.18.93.1 -a fd4c:7464:6e61::2 -g fd4c:7464:6e61::1
	-D none --no-dhcp --no-dhcpv6 --no-ra --no-map-gw)
SEP=::row::
tput_rows=(
	"$SEP" "bare (host → veth)"
	"$SEP" "pasta alone, no rules" "$PASTA" --config-net --
	"$SEP" "pasta alone, ltd-native's options" "${pasta_ltd[@]}" --
	"$SEP" "ltd-native, allowlist + firewall" "$LTD" run --project "$PROJECT"
		--allow-cidr "$HOST/32:$PORT" --
)
start_rows=(
	"$SEP" "\`pasta --config-net -- /bin/true\`" "$PASTA" --config-net -- /bin/true
	"$SEP" "pasta alone, ltd-native's options" "${pasta_ltd[@]}" -- /bin/true
	"$SEP" "ltd-native \`run -- /bin/true\` (allowlist)" "$LTD" run --project "$PROJECT" -- /bin/true
	"$SEP" "ltd-native \`run --network none -- /bin/true\`" "$LTD" run --network none --project "$PROJECT" -- /bin/true
)

cat >"$STAGE/timer.py" <<'PYEOF'
import gc, json, os, random, signal, sys, time

def parse_rows(args, sep):
    rows = []
    for a in args:
        if a == sep:
            rows.append(None)
        elif rows[-1] is None:
            rows[-1] = (a, [])
        else:
            rows[-1][1].append(a)
    return rows

def pct(xs, p):
    xs = sorted(xs)
    k = (len(xs) - 1) * p
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)

def main():
    runs, starts, warmup, raw, sep, split = sys.argv[1:7]
    runs, starts, warmup = int(runs), int(starts), int(warmup)
    args = sys.argv[7:]
    k = args.index(split)
    iperf = args[:args.index(sep)]
    tput = parse_rows(args[len(iperf):k], sep)
    start = parse_rows(args[k + 1:], sep)
    env = dict(os.environ)
    # Python ignores SIGPIPE, and an ignored signal stays ignored across
    # exec; pasta (passt 2023-03) then fails with "Couldn't install signal
    # handlers".  Every row starts with the default, as from a shell.
    sd = (signal.SIGPIPE,)
    devnull = os.open(os.devnull, os.O_RDWR)
    rng = random.Random(20261129)
    rawrows = []

    def capture(argv, quiet=True):
        r, w = os.pipe()
        fa = [(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, w, 1)]
        if quiet:
            fa.append((os.POSIX_SPAWN_DUP2, devnull, 2))
        pid = os.posix_spawn(argv[0], argv, env, file_actions=fa, setsigdef=sd)
        os.close(w)
        out = b""
        while True:
            b = os.read(r, 65536)
            if not b:
                break
            out += b
        os.close(r)
        _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status), out

    def gbits(name, argv):
        rc, out = capture(argv)
        try:
            j = json.loads(out)
        except ValueError:
            j = {}
        if rc != 0 or "error" in j or "end" not in j:
            print(f"egress.sh: row '{name}' failed (exit {rc}): {' '.join(argv)}\n"
                  f"{j.get('error', out.decode(errors='replace')[-500:])}", file=sys.stderr)
            sys.exit(1)
        return (j["end"]["sum_received"]["bits_per_second"] / 1e9,
                j["end"].get("sum_sent", {}).get("retransmits", -1))

    # (a) throughput
    for name, prefix in tput:   # one short check per row, errors visible
        rc, _ = capture(prefix + iperf[:-3] + ["-t", "1"], quiet=False)
        if rc != 0:
            print(f"egress.sh: row '{name}' failed (exit {rc})", file=sys.stderr)
            sys.exit(1)
    dirs = [("up", []), ("down", ["-R"])]
    cells = [(i, d) for i in range(len(tput)) for d in range(len(dirs))]
    tp = {c: [] for c in cells}
    rx = {c: [] for c in cells}
    t0 = time.monotonic()
    for _ in range(runs):
        rng.shuffle(cells)
        for c in cells:
            name, prefix = tput[c[0]]
            v, re = gbits(name, prefix + iperf + dirs[c[1]][1])
            tp[c].append(v)
            rx[c].append(re)
            rawrows.append(("throughput-" + dirs[c[1]][0], name, v))
            rawrows.append(("retransmits-" + dirs[c[1]][0], name, re))
    t_tput = time.monotonic() - t0

    # (b) start-up
    fa = [(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, devnull, 1),
          (os.POSIX_SPAWN_DUP2, devnull, 2)]
    for name, argv in start:
        pid = os.posix_spawn(argv[0], argv, env, setsigdef=sd)
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            print(f"egress.sh: row '{name}' failed: {' '.join(argv)}", file=sys.stderr)
            sys.exit(1)
    order = list(range(len(start)))
    su = [[] for _ in start]
    gc.disable()
    t0 = time.monotonic()
    for rnd in range(warmup + starts):
        rng.shuffle(order)
        for i in order:
            argv = start[i][1]
            a = time.perf_counter_ns()
            pid = os.posix_spawn(argv[0], argv, env, file_actions=fa, setsigdef=sd)
            _, status = os.waitpid(pid, 0)
            b = time.perf_counter_ns()
            if os.waitstatus_to_exitcode(status) != 0:
                print(f"egress.sh: row '{start[i][0]}' failed during timing", file=sys.stderr)
                sys.exit(1)
            if rnd >= warmup:
                su[i].append((b - a) / 1e6)
                rawrows.append(("startup-ms", start[i][0], (b - a) / 1e6))
    t_start = time.monotonic() - t0
    gc.enable()

    print("**TCP throughput to the test host, Gbit/s (iperf3, receiver side)**")
    print()
    print("| row | up: median | up: min–max | up: vs pasta | up: retransmits | "
          "down: median | down: min–max | down: vs pasta | down: retransmits |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    med = {c: pct(v, 0.5) for c, v in tp.items()}
    for i, (name, _) in enumerate(tput):
        cols = []
        for d in range(len(dirs)):
            v = tp[(i, d)]
            cols += [f"{med[(i, d)]:.2f}", f"{min(v):.2f}–{max(v):.2f}",
                     f"{med[(i, d)] / med[(1, d)]:.2f}",
                     f"{pct(rx[(i, d)], 0.5):.0f}"]
        print(f"| {name} | " + " | ".join(cols) + " |")
    print()
    print(f"{runs} runs of {iperf[iperf.index('-t') + 1]} s per row and direction "
          f"(retransmits: median per run, sender side), interleaved in shuffled order; {t_tput:.0f} s in all.")
    print()
    print("**Start-up and teardown around `/bin/true`, ms (wall time)**")
    print()
    print("| row | median | p90 | vs pasta alone (median) |")
    print("|---|---:|---:|---:|")
    sm = [pct(s, 0.5) for s in su]
    for (name, _), s, m in zip(start, su, sm):
        print(f"| {name} | {m:.1f} | {pct(s, 0.9):.1f} | {m / sm[0]:.2f} |")
    print()
    print(f"{starts} timed rounds after {warmup} warm-up rounds, interleaved round-robin "
          f"in shuffled order; {t_start:.0f} s in all.")
    if raw != "-":
        with open(raw, "w") as f:
            f.write("part,row,value\n")
            for part, name, v in rawrows:
                f.write(f"{part},\"{name}\",{v:.4f}\n")

main()
PYEOF
chmod 644 "$STAGE/timer.py"

bench_raw

{
	echo "# ltd-native egress benchmark"
	echo "# kernel $(uname -r), $(nproc) CPUs, user $BENCH_USER, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "# passt $(dpkg-query -W -f '${Version}' passt 2>/dev/null || echo ?), $("$IPERF" --version | head -1)"
	echo "# ltd-native: $(sha256sum "$BIN" | cut -c1-16) ($BIN)"
	echo "# test host: $HOST in netns $NS (veth $IF, host side $GW)"
} >&2

cd "$PROJECT"
"${as_user[@]}" "$PY" -I -S "$STAGE/timer.py" "$RUNS" "$STARTS" "$WARMUP" "$RAWTMP" \
	"$SEP" ::split:: "${iperf[@]}" "${tput_rows[@]}" ::split:: "${start_rows[@]}"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

echo
echo "Load average after the run: $load_after. Command lines (PROJECT = a fresh directory owned by the"
echo "bench user; TESTHOST = $HOST, an iperf3 server in a network namespace behind a veth):"
echo
show() { local a out=""; for a in "$@"; do a=${a//$PROJECT/PROJECT}; a=${a//$STAGE\//}; out+="${a//$HOST/TESTHOST} "; done; echo "${out% }"; }
echo '```'
show "${iperf[@]}" "[-R]"
show "$PASTA" --config-net -- "${iperf[@]}" "[-R]"
show "${pasta_ltd[@]}" -- "${iperf[@]}" "[-R]"
show "$LTD" run --project "$PROJECT" --allow-cidr "$HOST/32:$PORT" -- "${iperf[@]}" "[-R]"
show "$PASTA" --config-net -- /bin/true
show "${pasta_ltd[@]}" -- /bin/true
show "$LTD" run --project "$PROJECT" -- /bin/true
show "$LTD" run --network none --project "$PROJECT" -- /bin/true
echo '```'

if [[ $RAWTMP != - ]]; then
	cp "$RAWTMP" "$RAW"
fi
