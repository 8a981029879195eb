#!/usr/bin/env bash
# Memory: what the sandbox's own processes hold while a command runs,
# measured as PSS (proportional set size: a page shared by N processes
# counts 1/N, so libc's pages count once across the system) and RSS, from
# /proc/PID/smaps_rollup.  The command (sleep) is not counted.  Each
# process is read twice: 0.2 s after the command started (the set-up's
# pages still held) and SETTLE seconds after (default 2: the launcher and
# init give back what only the set-up needed 1 s into the run, decision
# 0140; a long agent session lives in that state).  Rows:
#   bubblewrap, agent config: every bwrap process (the monitor and pid 1)
#   ltd-native run --network none: the launcher + the cage's init
#   ltd-native run (allowlist): launcher + init, and apart, pasta and
#       ltd-dnsd (the network's helpers)
#
# Usage: bash bench/memory.sh [PATH_TO_LTD_NATIVE]     (default build/ltd-native)
# Environment: RUNS=N samples a row (default 5), BENCH_USER, RAW=FILE
#              (CSV suite,row,kB: PSS, settled), SETTLE=SECONDS (default 2)
# Must run as root: init is not dumpable, so only root reads its smaps
# (the sandboxes themselves run as the bench user).  No network.
set -euo pipefail

RUNS=${RUNS:-5}
SETTLE=${SETTLE:-2}
BENCH_USER=${BENCH_USER:-ltd-bench}
BIN=${1:-build/ltd-native}

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
die() { echo "memory.sh: $*" >&2; exit 1; }
[[ $RUNS =~ ^[0-9]+$ && $RUNS -ge 1 ]] || die "RUNS must be a positive integer"
[[ $SETTLE =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "SETTLE must be a number of seconds"
[[ -x $BIN && -f $BIN ]] || die "no executable ltd-native at '$BIN'"
[[ $(id -u) -eq 0 ]] || die "must run as root (init is not dumpable: only root reads its smaps_rollup)"
for tool in bwrap python3 setpriv; do
	command -v "$tool" >/dev/null || die "$tool is not installed"
done
bench_python
bench_user

STAGE=$(mktemp -d /tmp/ltd-bench-memory.XXXXXX)
trap 'rm -rf "$STAGE"' EXIT
chmod 755 "$STAGE"
LTD=$(stage_binary "$BIN" ltd-native)
[[ ! -x $(dirname "$BIN")/ltd-dnsd ]] || stage_binary "$(dirname "$BIN")/ltd-dnsd" ltd-dnsd >/dev/null
PROJECT=$STAGE/project
mkdir "$PROJECT"
chown "$BENCH_USER": "$PROJECT"
bwrap_agent "$PROJECT"

# A unique sleep: the command, found by its argument, not counted.
SLEEP=(/bin/sleep 86398)
SEP=::row::
rows=("$SEP" "bubblewrap, agent config" "${bwrap_row[@]}" -- "${SLEEP[@]}"
	"$SEP" "ltd-native \`run --network none\`" "$LTD" run --quiet --network none
	--project "$PROJECT" -- "${SLEEP[@]}")
NET_WHY=
if ! command -v pasta >/dev/null; then
	NET_WHY="pasta (passt) is not installed"
elif ! "${as_user[@]}" test -r /dev/net/tun -a -w /dev/net/tun; then
	NET_WHY="/dev/net/tun is not usable by $BENCH_USER"
elif [[ ! -x $STAGE/bin/ltd-dnsd ]]; then
	NET_WHY="no ltd-dnsd beside '$BIN'"
else
	rows+=("$SEP" "ltd-native \`run\` (allowlist)" "$LTD" run --quiet
		--project "$PROJECT" -- "${SLEEP[@]}")
fi

cat >"$STAGE/mem.py" <<'EOF'
import os, signal, subprocess, sys, time
runs, raw, sep, settle = int(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4])
prefix, rows = [], []
args = sys.argv[5:]
i = args.index(sep)
prefix = args[:i]
for a in args[i:]:
    if a == sep:
        rows.append(None)
    elif rows[-1] is None:
        rows[-1] = (a, [])
    else:
        rows[-1][1].append(a)

def children():
    kids = {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open(f"/proc/{p}/stat") as f:
                s = f.read()
        except OSError:
            continue
        ppid = int(s[s.rindex(")") + 2:].split()[1])
        kids.setdefault(ppid, []).append(int(p))
    return kids

def tree(root):
    kids, out, todo = children(), [], [root]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += kids.get(p, [])
    return out

def comm(p):
    with open(f"/proc/{p}/cmdline", "rb") as f:
        return f.read().split(b"\0")

def rollup(p):
    v = {}
    with open(f"/proc/{p}/smaps_rollup") as f:
        for line in f:
            k, _, rest = line.partition(":")
            if k in ("Rss", "Pss"):
                v[k] = int(rest.split()[0])
    return v

def sample(root, cmd):
    own, helpers = {"Rss": 0, "Pss": 0}, {"Rss": 0, "Pss": 0}
    for p in tree(root):
        if p == cmd:
            continue
        a = comm(p)
        exe = os.path.basename(a[0]).decode()
        v = rollup(p)
        tgt = helpers if exe in ("pasta", "passt", "ltd-dnsd") else own
        for k in v:
            tgt[k] += v[k]
    return own, helpers

sleep_arg = b"86398"
res = {name: [] for name, _ in rows}
for _ in range(runs):
    for name, argv in rows:
        proc = subprocess.Popen(prefix + argv, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                restore_signals=True)
        deadline = time.monotonic() + 10
        cmd = None
        while time.monotonic() < deadline and cmd is None:
            for p in tree(proc.pid):
                try:
                    a = comm(p)
                except OSError:
                    continue
                if a[:2] == [b"/bin/sleep", sleep_arg]:
                    cmd = p
            time.sleep(0.02)
        if cmd is None:
            sys.exit(f"memory.sh: row '{name}' did not start its command")
        t0 = time.monotonic()
        time.sleep(0.2)  # started: the launcher waits in poll
        early, _ = sample(proc.pid, cmd)
        time.sleep(max(0, settle - (time.monotonic() - t0)))
        own, helpers = sample(proc.pid, cmd)
        res[name].append((own, helpers, early))
        os.kill(cmd, signal.SIGTERM)
        proc.wait()

def med(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]
ref = med([o["Pss"] for o, _, _ in res[rows[0][0]]])
print(f"| row | PSS kB | RSS kB | PSS vs bubblewrap | PSS kB at 0.2 s | RSS kB at 0.2 s | helpers: PSS kB | helpers: RSS kB |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for name, _ in rows:
    s = res[name]
    pss, rss = med([o["Pss"] for o, _, _ in s]), med([o["Rss"] for o, _, _ in s])
    epss, erss = med([e["Pss"] for _, _, e in s]), med([e["Rss"] for _, _, e in s])
    hp, hr = med([h["Pss"] for _, h, _ in s]), med([h["Rss"] for _, h, _ in s])
    print(f"| {name} | {pss} | {rss} | {pss / ref:.2f} | {epss} | {erss} | {hp or '–'} | {hr or '–'} |")
print()
print(f"Medians of {runs} samples a row, {settle:g} s after the command started "
      "(and at 0.2 s); helpers: pasta and ltd-dnsd (allowlist mode).")
if raw != "-":
    with open(raw, "a") as f:
        for name, _ in rows:
            for o, _, _ in res[name]:
                f.write(f"memory-pss,\"{name}\",{o['Pss']}\n")
EOF

bench_raw
{
	echo "# ltd-native memory benchmark"
	echo "# kernel $(uname -r), user $BENCH_USER, $(bwrap --version)"
	echo "# ltd-native: $(sha256sum "$BIN" | cut -c1-16) ($BIN)"
} >&2
cd "$PROJECT"
"$PY" -I -S "$STAGE/mem.py" "$RUNS" "$RAWTMP" "$SEP" "$SETTLE" "${as_user[@]}" "${rows[@]}"
[[ -z $NET_WHY ]] || echo "Not measured: the allowlist row: $NET_WHY."
if [[ $RAWTMP != - ]]; then
	cp "$RAWTMP" "$RAW"
fi
