# shellcheck shell=bash
# Shared by the benchmarks: who runs the measured commands, and with which
# python.  Sourced; expects die() and BENCH_USER to be defined.

# A system python3: pyenv-style shims live under the invoker's home, which
# the bench user cannot read.
bench_python() {
	PY=$(command -v python3)
	[[ -x /usr/bin/python3 ]] && PY=/usr/bin/python3
	return 0
}

# as_user=(...): the prefix that runs a command as an ordinary user.  As
# root, the user BENCH_USER is created once and used; otherwise, you.
bench_user() {
	as_user=()
	if [[ $(id -u) -eq 0 ]]; then
		command -v setpriv >/dev/null ||
			die "setpriv (util-linux) is needed to drop root"
		if ! id "$BENCH_USER" >/dev/null 2>&1; then
			useradd -m "$BENCH_USER" ||
				die "cannot create user $BENCH_USER"
		fi
		bhome=$(getent passwd "$BENCH_USER" | cut -d: -f6)
		as_user=(setpriv --reuid="$BENCH_USER" --regid="$BENCH_USER"
			--init-groups env -i HOME="$bhome" USER="$BENCH_USER"
			LOGNAME="$BENCH_USER" PATH=/usr/local/bin:/usr/bin:/bin
			LANG=C.UTF-8)
	else
		BENCH_USER=$(id -un)
	fi
}

# RAWTMP: where the timer writes every sample when RAW is set (a file in
# STAGE the bench user may write), else "-".
bench_raw() {
	RAWTMP=-
	[[ -n ${RAW:-} ]] || return 0
	RAWTMP=$STAGE/raw.csv
	if [[ $(id -u) -eq 0 ]]; then
		touch "$RAWTMP"
		chown "$BENCH_USER": "$RAWTMP"
	fi
}


# stage_binary SRC NAME: SRC copied into STAGE/bin (world-readable, so a
# rebuild during the run does not matter); prints the copy's path.
stage_binary() {
	mkdir -p -m 755 "$STAGE/bin"
	install -m 755 "$1" "$STAGE/bin/$2"
	echo "$STAGE/bin/$2"
}

# bwrap_agent PROJECT: bwrap_row=(...), bubblewrap in the agent
# configuration (docs/performance.md) around nothing yet: append "--" and
# the command.  The host's top-level links into /usr (merged /usr) as
# links; real directories (split /usr) read-only.
bwrap_agent() {
	local d
	bwrap_row=("$(command -v bwrap)" --unshare-all --die-with-parent
		--ro-bind /usr /usr)
	for d in /bin /sbin /lib /lib32 /lib64 /libx32; do
		if [[ -L $d ]]; then
			bwrap_row+=(--symlink "$(readlink "$d")" "$d")
		elif [[ -d $d ]]; then
			bwrap_row+=(--ro-bind "$d" "$d")
		fi
	done
	bwrap_row+=(--proc /proc --dev /dev --tmpfs /tmp --bind "$1" "$1"
		--cap-drop ALL --new-session)
}

# bench_minibox PROJECT: minibox_row=(...) (append "--" and the command),
# the floor: the same cage as bubblewrap's on raw syscalls, with Landlock
# and a ~300-syscall seccomp allowlist (../shared/bench/README.md).  It is
# not part of this repository: the row needs MINIBOX=path/to/minibox and
# its filter (MINIBOX_BPF, default allow300.bpf beside it, written by
# `mkbpf allow300 FILE`).  Without them minibox_row is empty and
# MINIBOX_WHY says why.
bench_minibox() {
	local bpf=${MINIBOX_BPF:-}
	minibox_row=()
	MINIBOX_WHY=
	if [[ -z ${MINIBOX:-} ]]; then
		MINIBOX_WHY="MINIBOX is not set (build ../shared/bench/minibox.c with cc -O2 and point MINIBOX at it)"
		return 0
	fi
	[[ -n $bpf ]] || bpf=$(dirname "$MINIBOX")/allow300.bpf
	if [[ ! -x $MINIBOX ]]; then
		MINIBOX_WHY="no executable minibox at MINIBOX='$MINIBOX'"
	elif [[ ! -r $bpf ]]; then
		MINIBOX_WHY="no seccomp program at '$bpf' (mkbpf allow300 FILE; or MINIBOX_BPF)"
	else
		install -m 644 "$bpf" "$STAGE/allow300.bpf"
		minibox_row=("$(stage_binary "$MINIBOX" minibox)" -p "$1" -L
			-s "$STAGE/allow300.bpf")
	fi
}

# bench_cold_start: COLD_FIFO, a FIFO the timer (as the bench user)
# writes a line to before each cold sample; a root helper then syncs and
# drops the page cache, dentries and inodes, and answers on
# COLD_FIFO.ack.  Empty, with COLD_WHY, when this is not root or the
# kernel refuses.  bench_cold_stop ends the helper.
COLD_PID=
bench_cold_start() {
	COLD_FIFO=
	COLD_WHY=
	if [[ $(id -u) -ne 0 ]]; then
		COLD_WHY="dropping the page cache needs root (echo 3 > /proc/sys/vm/drop_caches)"
		return 0
	fi
	if ! sync || ! { echo 3 >/proc/sys/vm/drop_caches; } 2>/dev/null; then
		COLD_WHY="this kernel refused echo 3 > /proc/sys/vm/drop_caches"
		return 0
	fi
	COLD_FIFO=$STAGE/cold
	mkfifo -m 622 "$COLD_FIFO" "$COLD_FIFO.ack"
	chmod 644 "$COLD_FIFO.ack"
	# Each timer opens the FIFOs once; the next one opens them again.
	while :; do
		while read -r _; do
			sync
			echo 3 >/proc/sys/vm/drop_caches
			echo done >&3
		done <"$COLD_FIFO" 3>"$COLD_FIFO.ack"
	done &
	COLD_PID=$!
}

bench_cold_stop() {
	if [[ -n $COLD_PID ]]; then
		kill "$COLD_PID" 2>/dev/null || true
		wait "$COLD_PID" 2>/dev/null || true
		COLD_PID=
	fi
}

# bench_timer ARGS...: bench/timer.py as the bench user.  With RT=N (root
# only), the timer and so every row run at SCHED_FIFO priority N: on a
# machine shared with other work, the rows then wait for nothing of it
# (docs/performance.md says when figures were taken so).
bench_timer() {
	local rt=()
	if [[ -n ${RT:-} ]]; then
		[[ $(id -u) -eq 0 ]] || die "RT needs root"
		rt=(chrt -f "$RT")
	fi
	"${rt[@]}" "${as_user[@]}" "$PY" -I -S "$STAGE/timer.py" "$@"
}

# Discard the reviews named in REVIEWS, as the bench user, with $LTD (the
# benches that make --review runs, at their exit).
bench_discard_reviews() {
	local n
	for n in "${REVIEWS[@]}"; do
		"${as_user[@]}" "$LTD" discard "$n" >/dev/null 2>&1 || true
	done
}
