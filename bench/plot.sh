#!/usr/bin/env bash
# The plots of docs/performance.md, as SVG, from the benchmarks' raw
# samples (RAW=FILE of bench/startup.sh, bench/project.sh and
# bench/walk.sh; one CSV or several, lines "suite,row,ms"):
#   startup.svg        start-up and teardown of /bin/true, median per row
#   project-size.svg   a run's cost against the project's size, warm and
#                      cold, per tool (log-log)
#   walk-size.svg      the exit walk's passes against the tree's size
# Usage: bash bench/plot.sh OUTDIR CSV...     (needs gnuplot and python3)
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 OUTDIR CSV..." >&2; exit 2; }
OUT=$1
shift
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot is not installed" >&2; exit 1; }
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/ltd-plot.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

python3 - "$WORK" "$@" <<'EOF'
import collections, csv, re, statistics, sys
work, files = sys.argv[1], sys.argv[2:]
s = collections.defaultdict(list)
for fn in files:
    for row in csv.reader(open(fn)):
        if len(row) == 3 and row[0] != "suite" and row[0] != "row":
            try:
                s[(row[0], row[1])].append(float(row[2]))
            except ValueError:
                pass
med = {k: statistics.median(v) for k, v in s.items()}
clean = lambda n: n.replace("`", "").replace('"', "'")
# start-up: one bar per row of the startup suite, in the order met
with open(f"{work}/startup.dat", "w") as f:
    for (suite, row), m in med.items():
        if suite == "startup":
            f.write(f"\"{clean(row)}\" {m:.3f}\n")
# project size: suite project-(warm|cold)-(empty|tree-N)
pts = collections.defaultdict(list)
for (suite, row), m in med.items():
    g = re.fullmatch(r"project-(warm|cold)-(empty|tree-(\d+))", suite)
    if g:
        size = int(g.group(3)) if g.group(3) else 1
        pts[(clean(row), g.group(1))].append((size, m))
with open(f"{work}/project.idx", "w") as idx:
    for i, (key, v) in enumerate(sorted(pts.items())):
        with open(f"{work}/project{i}.dat", "w") as f:
            for size, m in sorted(v):
                f.write(f"{size} {m:.3f}\n")
        idx.write(f"{i}\t{key[0]}, {key[1]}\n")
# walk: suite walk-(warm|cold)-N
pts = collections.defaultdict(list)
for (suite, row), m in med.items():
    g = re.fullmatch(r"walk-(warm|cold)-(\d+)", suite)
    if g:
        pts[(clean(row).split(":")[0].split(" (")[0], g.group(1))].append((int(g.group(2)), m))
with open(f"{work}/walk.idx", "w") as idx:
    for i, (key, v) in enumerate(sorted(pts.items())):
        with open(f"{work}/walk{i}.dat", "w") as f:
            for size, m in sorted(v):
                f.write(f"{size} {m:.3f}\n")
        idx.write(f"{i}\t{key[0]}, {key[1]}\n")
EOF

common='set terminal svg size 900,520 dynamic font "sans,12" background "white"
set grid ytics lc rgb "#dddddd"
set key top left'
if [[ -s $WORK/startup.dat ]]; then
	gnuplot <<EOF
$common
set output "$OUT/startup.svg"
set title "Start-up and teardown of /bin/true (median ms)"
set style fill solid 0.6 border -1
set boxwidth 0.6
set xtics rotate by -30 left font ",10"
set yrange [0:*]
set bmargin 9
set rmargin 12
unset key
plot "$WORK/startup.dat" using 0:2:xtic(1) with boxes lc rgb "#4477aa", \
     "" using 0:2:(sprintf("%.2f", \$2)) with labels offset 0,0.8 notitle
EOF
	echo "plot.sh: $OUT/startup.svg"
fi
plot_lines() { # NAME TITLE YLABEL
	local name=$1 cmd="" i label
	[[ -s $WORK/$name.idx ]] || return 0
	while IFS=$'\t' read -r i label; do
		local dt=1
		[[ $label == *", cold" ]] && dt=2
		cmd+="${cmd:+, }\"$WORK/$name$i.dat\" using 1:2 with linespoints dt $dt lw 2 title \"$label\""
	done <"$WORK/$name.idx"
	gnuplot <<EOF
$common
set output "$OUT/$name-size.svg"
set title "$2"
set logscale xy
set xlabel "directories in the project"
set ylabel "$3"
set key outside right
plot $cmd
EOF
	echo "plot.sh: $OUT/$name-size.svg"
}
plot_lines project "A run of /bin/true against the project's size (median ms)" "ms, start to exit"
plot_lines walk "One pass over every directory (median ms)" "ms"
