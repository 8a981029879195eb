# shellcheck shell=bash
# The agents' interactive screens through the seam, in a terminal (tmux),
# as a user types them (issue 14): `ltd-native run -- AGENT` in a project
# it has never seen shows its prompt straight away (no onboarding, theme,
# sign-in or folder-trust screen, no "configuration file not found"),
# answers through the mock with the placeholder key, again after the
# window is resized, ends on Ctrl-C with status 0 and its last lines (how
# to resume) still on the screen after the exit reset; a second run asks
# nothing either.  The waits are bounds, not timings: a screen that never
# comes fails (a fresh home shows Claude Code's welcome screen, never its
# prompt).

tui() { as_user tmux -L "$TUI_SOCK" "$@"; }
tui_screen() { tui capture-pane -p -J 2>/dev/null; }
# tui_wait REGEX [SECONDS [N]]: until the screen shows N (default 1)
# lines matching REGEX; 0 or 1.
tui_wait() {
	local _
	for _ in $(seq $((${2:-120} * 5))); do
		[ "$(tui_screen | grep -Ec "$1")" -ge "${3:-1}" ] && return 0
		sleep 0.2
	done
	return 1
}
# tui_start AGENT: the agent in a new 120x40 window in $TUI_PROJ; the pane
# then prints the run's status, and stays when its shell ends (a Ctrl-C
# that comes after the agent has ended is the shell's).
tui_start() {
	tui -f /dev/null new-session -d -x 120 -y 40 -c "$TUI_PROJ" \
		"env PATH='$NPG/bin:/usr/local/bin:/usr/bin:/bin' '$LTD' run --proxy-url '$MOCK_URL' --no-default-domains -- $1; echo TUI-RC=\$?; sleep 600" \; \
		set-option remain-on-exit on
}
# tui_ready NAME READY ASKS: the prompt (READY) comes, none of ASKS shows.
tui_ready() {
	if tui_wait "$2|TUI-RC=" 180 && ! tui_screen | grep -Eq "$3|TUI-RC="; then
		pass "$1"
	else
		fail "$1" "$(tui_screen)"
	fi
}
# tui_ask TEXT REPLY N: TEXT typed, Enter a moment after it (Codex and
# Gemini take a burst of keys with Enter in it for a paste), until the
# screen shows N replies.
tui_ask() {
	tui send-keys "$1"
	sleep 1
	tui send-keys Enter
	tui_wait "$2" 120 "$3"
}
# The model calls since line $1 of the mock's log: each with the
# placeholder alone.  Prints a reason or nothing.
tui_placeholder() {
	tail -n +"$(($1 + 1))" "$MOCK_DIR/log.jsonl" | python3 -c '
import json, sys
ph = "ltd-placeholder-not-a-key"
posts = bad = 0
for line in sys.stdin:
    e = json.loads(line)
    if e["method"] != "POST":
        continue
    posts += 1
    keys = [k for k in (e["authorization"], e["x_api_key"], e["x_goog_api_key"]) if k]
    if e["secret_seen"] or not keys or any(k not in (ph, "Bearer " + ph) for k in keys):
        bad += 1
if not posts or bad:
    print("%d model calls, %d not with the placeholder alone" % (posts, bad))'
}

# tui_agent AGENT READY ASKS REPLY RESUME: the session above, for one agent.
tui_agent() {
	local agent=$1 ready=$2 asks=$3 reply=$4 resume=$5 mark why screen
	TUI_SOCK=ltd-agents-tui-$agent-$$
	TUI_PROJ=$(as_user mktemp -d "$U_HOME/tui-project.XXXXXX")
	as_user git -C "$TUI_PROJ" init -q
	mark=$(wc -l <"$MOCK_DIR/log.jsonl")
	tui_start "$agent"
	tui_ready "$agent in a terminal: its prompt, with no onboarding, sign-in or trust screen" "$ready" "$asks"
	tui_ask "say hello" "$reply" 1 &&
		pass "... a question is answered through the mock" ||
		fail "... a question is answered through the mock" "$(tui_screen)"
	tui resize-window -x 90 -y 30
	tui_ask "after the resize" "$reply" 2 &&
		pass "... and another after the window is resized" ||
		fail "... and another after the window is resized" "$(tui_screen)"
	why=$(tui_placeholder "$mark")
	[ -z "$why" ] && pass "... every model call with the placeholder key" ||
		fail "... every model call with the placeholder key ($why)"
	# Claude Code and Gemini end on a second Ctrl-C soon after the first,
	# Codex on the first.
	for _ in 1 2 3 4; do
		tui send-keys C-c
		sleep 0.3
		tui send-keys C-c
		tui_wait 'TUI-RC=' 10 && break
	done
	screen=$(tui_screen)
	if printf '%s\n' "$screen" | grep -q '^TUI-RC=0$'; then
		pass "... Ctrl-C ends it, status 0"
	else
		fail "... Ctrl-C ends it, status 0" "$screen"
	fi
	if printf '%s\n' "$screen" | grep -Eq "$resume"; then
		pass "... its last lines (how to resume) stay on the screen"
	else
		fail "... its last lines (how to resume) stay on the screen" "$screen"
	fi
	tui kill-server 2>/dev/null
	tui_start "$agent"
	tui_ready "... a second run in the project asks nothing either" "$ready" "$asks"
	tui kill-server 2>/dev/null
	as_user rm -rf "$TUI_PROJ"
}

if ! command -v tmux >/dev/null; then
	skip "the agents' interactive screens" "tmux is not installed"
else
	if [ "$HAVE_CLAUDE" = 1 ]; then
		# The complaint of a missing configuration file: issue 14, item 3.
		tui_agent claude '\? for shortcuts' \
			'Welcome to Claude Code|Unable to connect|Choose the text style|Security notes|Do you trust the files|trust this folder|Claude configuration file not found|Select login method' \
			'LTD-MOCK-REPLY from the anthropic mock' 'claude --resume'
	fi
	if [ "$HAVE_CODEX" = 1 ]; then
		tui_agent codex 'Ask Codex to do anything' \
			'Sign in with ChatGPT|Welcome to Codex|Do you trust|Allow Codex to work|Update available' \
			'LTD-MOCK-REPLY from the openai mock' 'codex resume'
	fi
	if [ "$HAVE_GEMINI" = 1 ]; then
		tui_agent gemini 'Type your message' \
			'Get started|How would you like to authenticate|Do you trust this folder|Select Theme|Waiting for auth' \
			'LTD-MOCK-REPLY from the gemini mock' 'gemini --resume'
	fi
fi
