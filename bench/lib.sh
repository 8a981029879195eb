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

