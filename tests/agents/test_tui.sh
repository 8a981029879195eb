# shellcheck shell=bash
# Claude Code's interactive screen through the seam, in a terminal (tmux),
# as a user types it: `ltd-native run -- claude` in a project it has never
# seen shows the prompt straight away (no theme picker, no security notes,
# no folder-trust dialog, no "configuration file not found"), answers
# through the mock with the placeholder key, keeps working after the
# window is resized, ends on Ctrl-C Ctrl-C with its last lines (how to
# resume) still on the screen, and a second run asks nothing either.
# The waits are bounds, not timings: a screen that never comes fails.
# Then Codex's screen.

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

if [ "$HAVE_CLAUDE" != 1 ]; then
	skip "claude's interactive screen" "claude is not installed here"
elif ! command -v tmux >/dev/null; then
	skip "claude's interactive screen" "tmux is not installed"
else
	TUI_SOCK=ltd-agents-tui-$$
	# The dialogs a first start of Claude Code shows, and the complaint
	# of a missing configuration file (issue 14, item 3).
	TUI_ASKS='Welcome to Claude Code|Unable to connect|Choose the text style|Security notes|Do you trust the files|trust this folder|Claude configuration file not found|Select login method'
	TUI_PROJ=$(as_user mktemp -d "$U_HOME/tui-project.XXXXXX")
	as_user git -C "$TUI_PROJ" init -q
	# tui_start: claude in a new 120x40 window, in the project; the pane
	# then prints the run's status.
	tui_start() {
		tui -f /dev/null new-session -d -x 120 -y 40 -c "$TUI_PROJ" \
			"env PATH='$NPG/bin:/usr/local/bin:/usr/bin:/bin' '$LTD' run --proxy-url '$MOCK_URL' --no-default-domains -- claude; echo TUI-RC=\$?; sleep 600"
	}
	TUI_MARK=$(wc -l <"$MOCK_DIR/log.jsonl")
	tui_start
	if tui_wait '\? for shortcuts|TUI-RC=' 180 && ! tui_screen | grep -Eq "$TUI_ASKS|TUI-RC="; then
		pass "claude in a terminal: the prompt, with no onboarding or trust dialog"
	else
		fail "claude in a terminal: the prompt, with no onboarding or trust dialog" "$(tui_screen)"
	fi
	tui send-keys "say hello" Enter
	if tui_wait 'LTD-MOCK-REPLY from the anthropic mock'; then
		pass "... a question is answered through the mock"
	else
		fail "... a question is answered through the mock" "$(tui_screen)"
	fi
	tui resize-window -x 90 -y 30
	tui send-keys "after the resize" Enter
	if tui_wait 'LTD-MOCK-REPLY from the anthropic mock' 120 2; then
		pass "... and another after the window is resized"
	else
		fail "... and another after the window is resized" "$(tui_screen)"
	fi
	WHY=$(tail -n +"$((TUI_MARK + 1))" "$MOCK_DIR/log.jsonl" | python3 -c '
import json, sys
ph = "ltd-placeholder-not-a-key"
posts = bad = 0
for line in sys.stdin:
    e = json.loads(line)
    if e["method"] != "POST":
        continue
    posts += 1
    keys = [k for k in (e["authorization"], e["x_api_key"]) if k]
    if e["secret_seen"] or not keys or any(k not in (ph, "Bearer " + ph) for k in keys):
        bad += 1
if not posts or bad:
    print("%d model calls, %d not with the placeholder alone" % (posts, bad))')
	[ -z "$WHY" ] && pass "... every model call with the placeholder key" ||
		fail "... every model call with the placeholder key ($WHY)"
	tui send-keys C-c C-c
	if tui_wait 'TUI-RC=' 60; then
		SCREEN=$(tui_screen)
		echo "$SCREEN" | grep -q '^TUI-RC=0$' &&
			pass "... Ctrl-C twice ends it, status 0" ||
			fail "... Ctrl-C twice ends it, status 0" "$SCREEN"
		echo "$SCREEN" | grep -q 'claude --resume' &&
			pass "... its last lines (how to resume) stay on the screen" ||
			fail "... its last lines (how to resume) stay on the screen" "$SCREEN"
	else
		fail "... Ctrl-C twice ends it" "$(tui_screen)"
	fi
	tui kill-server 2>/dev/null
	tui_start
	if tui_wait '\? for shortcuts|TUI-RC=' 180 && ! tui_screen | grep -Eq "$TUI_ASKS|TUI-RC="; then
		pass "... a second run in the project asks nothing either"
	else
		fail "... a second run in the project asks nothing either" "$(tui_screen)"
	fi
	tui kill-server 2>/dev/null
	as_user rm -rf "$TUI_PROJ"
fi

# Codex's, the same way: no sign-in, trust or update screen; a question
# typed and sent (Enter a moment after the text: Codex reads a burst of
# keys with Enter in it as a paste) is answered through the mock; Ctrl-C
# ends it with its last lines on the screen.
if [ "$HAVE_CODEX" != 1 ]; then
	skip "codex's interactive screen" "codex is not installed here"
elif ! command -v tmux >/dev/null; then
	skip "codex's interactive screen" "tmux is not installed"
else
	TUI_SOCK=ltd-agents-tuix-$$
	TUI_ASKS='Sign in with ChatGPT|Welcome to Codex|trust the contents|Do you trust|Update available|Allow Codex to work'
	TUI_PROJ=$(as_user mktemp -d "$U_HOME/tui-project.XXXXXX")
	as_user git -C "$TUI_PROJ" init -q
	tui -f /dev/null new-session -d -x 120 -y 40 -c "$TUI_PROJ" \
		"env PATH='$NPG/bin:/usr/local/bin:/usr/bin:/bin' '$LTD' run --proxy-url '$MOCK_URL' --no-default-domains -- codex; echo TUI-RC=\$?; sleep 600"
	if tui_wait 'Ask Codex to do anything|TUI-RC=' 180 && ! tui_screen | grep -Eq "$TUI_ASKS|TUI-RC="; then
		pass "codex in a terminal: the prompt, with no sign-in or trust screen"
	else
		fail "codex in a terminal: the prompt, with no sign-in or trust screen" "$(tui_screen)"
	fi
	tui send-keys "say hello"
	sleep 1
	tui send-keys Enter
	if tui_wait 'LTD-MOCK-REPLY from the openai mock'; then
		pass "... a question is answered through the mock"
	else
		fail "... a question is answered through the mock" "$(tui_screen)"
	fi
	for _ in 1 2 3; do
		tui send-keys C-c
		tui_wait 'TUI-RC=' 10 && break
	done
	SCREEN=$(tui_screen)
	echo "$SCREEN" | grep -q '^TUI-RC=0$' &&
		pass "... Ctrl-C ends it, status 0" ||
		fail "... Ctrl-C ends it, status 0" "$SCREEN"
	echo "$SCREEN" | grep -q 'codex resume' &&
		pass "... its last lines (how to resume) stay on the screen" ||
		fail "... its last lines (how to resume) stay on the screen" "$SCREEN"
	tui kill-server 2>/dev/null
	as_user rm -rf "$TUI_PROJ"
fi
