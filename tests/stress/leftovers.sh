# shellcheck shell=bash
# What a cage may leave behind, and how the harness looks for it: every
# process, file, mount, namespace, cgroup and registry entry of the test
# user, against a baseline taken after a first run.  Sourced by run.sh.

# The test user's processes, but zombies: a killed launcher's children
# are reaped by whoever adopts them, which may take its time.
user_ps() {
	ps -u "$U_UID" -o pid=,ppid=,stat=,comm=,args= 2>/dev/null |
		awk '$3 !~ /^Z/'
}

# Poll (up to $GONE_WAIT s) until no process of the test user is left;
# then, within the same bound, until its zombies are reaped too: a zombie
# still holds its user and pid namespaces, which snap_ns would count (a
# killed launcher's init is reaped by whoever adopts it, at its pace).
# One that outlives the bound is counted, as it should be.
cage_gone() {
	local end=$((SECONDS + GONE_WAIT))
	while [ -n "$(user_ps)" ]; do
		[ "$SECONDS" -ge "$end" ] && return 1
		sleep 0.02
	done
	while [ -n "$(ps -u "$U_UID" -o pid= 2>/dev/null)" ]; do
		[ "$SECONDS" -ge "$end" ] && break
		sleep 0.02
	done
	return 0
}

# The places a cage or a launcher could leave something, one line each.
# Three levels of the shared directories (a long-lived machine's /tmp can
# hold trees that take minutes to walk): what the user made there shows
# at its top.
snap_files() {
	find /tmp /var/tmp /dev/shm /run -xdev -maxdepth 3 -user "$U_UID" \
		2>/dev/null | sort
	find "$U_HOME" 2>/dev/null | sort
	find /sys/fs/cgroup -type d -user "$U_UID" 2>/dev/null | sort
}
# The host's mounts (an unprivileged launcher cannot add one, but a
# mistake could leave one in a place of ours); named network namespaces are
# root's (ip netns), other tests' on a shared machine: not ours.
snap_mounts() {
	cut -d' ' -f4- /proc/self/mountinfo | grep -v ' /run/netns/' | sort
}
# Every namespace a process of the test user is in (and with no process
# left, none: a namespace lives on only through a process, an open
# descriptor or a bind mount, all of which the other checks see).
snap_ns() {
	lsns -n -r -o NS,TYPE,USER,PID 2>/dev/null |
		awk -v u="$E2E_USER" '$3 == u'
}
snap_registry() { as_user "$LTD" ps | sed 1d; }

leftovers_baseline() {
	BASE_FILES=$(snap_files)
	BASE_MOUNTS=$(snap_mounts)
}

# What is in $2 (lines) and not in $1.
new_lines() {
	comm -13 <(printf '%s\n' "$1" | sort) <(printf '%s\n' "$2" | sort) |
		sed '/^$/d'
}

# leftovers_check PHASE: LEFT = how many things are left; each is printed.
leftovers_check() {
	local what procs
	LEFT=0
	cage_gone
	procs=$(user_ps)
	for what in procs files mounts ns registry; do
		local got
		case $what in
		procs) got=$procs ;;
		files) got=$(new_lines "$BASE_FILES" "$(snap_files)") ;;
		mounts) got=$(new_lines "$BASE_MOUNTS" "$(snap_mounts)") ;;
		ns) got=$(snap_ns) ;;
		registry) got=$(snap_registry) ;;
		esac
		[ -z "$got" ] && continue
		LEFT=$((LEFT + $(printf '%s\n' "$got" | wc -l)))
		printf 'LEFT %s, %s:\n' "$1" "$what"
		printf '%s\n' "$got" | head -20 | sed 's/^/     | /'
	done
	# Reported once: the next phase starts from what is there now.
	[ "$LEFT" -gt 0 ] && leftovers_baseline
	return 0
}

# Wait until $1 exists (the cage's command made it) or $2 has ended.
wait_file() {
	local end=$((SECONDS + 60))
	until [ -e "$1" ]; do
		kill -0 "$2" 2>/dev/null || return 1
		[ "$SECONDS" -ge "$end" ] && return 1
		sleep 0.02
	done
}

# A process's descriptors, "NUM:WHAT" (socket and pipe inode numbers
# dropped: they differ from run to run, the kinds do not).
fds_of() {
	local f
	for f in /proc/"$1"/fd/*; do
		printf '%s:%s\n' "${f##*/}" "$(readlink "$f" 2>/dev/null)"
	done | sed -E 's/:(socket|pipe|anon_inode:[a-z_]+):?\[[0-9]+\]$/:\1/' |
		sort -n | tr '\n' ' '
}

# The launcher's descriptors, then those of each of its children (init,
# ltd-dnsd): what must be the same in every run.  pasta's are only
# counted (pasta_fds): it keeps pools of sockets and pipes of its own.
fd_signature() {
	local c comm
	printf 'launcher [%s]' "$(fds_of "$1")"
	for c in $(ps --ppid "$1" -o pid= 2>/dev/null); do
		comm=$(cat /proc/"$c"/comm 2>/dev/null)
		case $comm in
		passt* | pasta*) ;;
		*) printf '; %s [%s]' "$comm" "$(fds_of "$c")" ;;
		esac
	done
}
pasta_fds() {
	local c
	for c in $(ps --ppid "$1" -o pid=,comm= | awk '$2 ~ /^pas/ { print $1 }'); do
		ls /proc/"$c"/fd 2>/dev/null | wc -l
	done
}

status_kb() { awk -v k="$2:" '$1 == k { print $2 }' /proc/"$1"/status 2>/dev/null; }

HWM_MAX=0
note_hwm() {
	local h
	h=$(status_kb "$1" VmHWM)
	[ -n "$h" ] && [ "$h" -gt "$HWM_MAX" ] && HWM_MAX=$h
	return 0
}

# "VmRSS RssAnon VmHWM FDS" of a process, as words the reader can follow.
mem_fds() {
	printf 'VmRSS %s kB, RssAnon %s kB, VmHWM %s kB, %s fds' \
		"$(status_kb "$1" VmRSS)" "$(status_kb "$1" RssAnon)" \
		"$(status_kb "$1" VmHWM)" "$(ls /proc/"$1"/fd | wc -l)"
}

# Two mem_fds lines: the same descriptors, RSS grown by at most
# $RSS_SLACK_KB.
flat() {
	local r1 r2 f1 f2
	r1=$(echo "$1" | sed -E 's/^VmRSS ([0-9]+).*/\1/')
	r2=$(echo "$2" | sed -E 's/^VmRSS ([0-9]+).*/\1/')
	f1=$(echo "$1" | sed -E 's/.* ([0-9]+) fds$/\1/')
	f2=$(echo "$2" | sed -E 's/.* ([0-9]+) fds$/\1/')
	if [ "$f1" != "$f2" ]; then
		echo "FAIL exec: the kept launcher's descriptors went from $f1 to $f2"
		return 1
	fi
	if [ $((r2 - r1)) -gt "$RSS_SLACK_KB" ]; then
		echo "FAIL exec: the kept launcher's RSS grew by $((r2 - r1)) kB (slack $RSS_SLACK_KB kB)"
		return 1
	fi
	return 0
}
