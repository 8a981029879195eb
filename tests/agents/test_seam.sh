# shellcheck shell=bash
# The agents through the provider seam (issue 14), against the mock: they
# answer with the placeholder key, never with a key of the user's (in the
# caller's environment or in ~/.claude/settings.json); Claude Code's
# --continue and Codex's `exec resume --last` continue across runs;
# Codex runs a shell command in its default mode; git commits with the
# host's identity.  --no-default-domains: nothing but the mock's port is
# reachable (the tests contact only servers they start).

LOG=$MOCK_DIR/log.jsonl

# srun ARGS...: `run` through the seam, as the test user in the project,
# with the real key planted in the caller's environment.
srun() {
	MARK=$(wc -l <"$LOG" 2>/dev/null || echo 0)
	OUT=$(cd "$PROJ" && timeout 300 "${USER_CMD[@]}" \
		env PATH="$NPG/bin:/usr/local/bin:/usr/bin:/bin" \
		ANTHROPIC_API_KEY=$REAL ANTHROPIC_AUTH_TOKEN=$REAL \
		OPENAI_API_KEY=$REAL CODEX_API_KEY=$REAL GEMINI_API_KEY=$REAL \
		"$LTD" run --proxy-url "$MOCK_URL" --no-default-domains "$@" 2>&1)
	RC=$?
}

# The requests since the last srun: at least one model call, each with
# the placeholder and none carrying a planted key.  Prints a reason or
# nothing.
seam_held() {
	tail -n +"$((MARK + 1))" "$LOG" | python3 -c '
import json, sys
ph = "ltd-placeholder-not-a-key"
posts = bad = leaks = 0
for line in sys.stdin:
    e = json.loads(line)
    if e["secret_seen"]:
        leaks += 1
    if e["method"] != "POST":
        continue
    posts += 1
    keys = [k for k in (e["authorization"], e["x_api_key"], e["x_goog_api_key"]) if k]
    if not keys or any(k not in (ph, "Bearer " + ph) for k in keys):
        bad += 1
if not posts or bad or leaks:
    print("%d model calls, %d without the placeholder, %d carrying a planted key" % (posts, bad, leaks))'
}

expect_seam() { # NAME
	local why
	why=$(seam_held)
	if [ -z "$why" ]; then pass "$1"; else fail "$1 ($why)" "$OUT"; fi
}

# The body of the last request to PATH (regex) since the last srun.
last_body() {
	python3 - "$MOCK_DIR/dump" "$1" <<'EOF'
import json, os, re, sys
d, want = sys.argv[1], re.compile(sys.argv[2])
last = None
for f in sorted(os.listdir(d)):
    r = json.load(open(os.path.join(d, f)))
    if r["method"] == "POST" and want.search(r["path"]):
        last = r
print(json.dumps(last["body"]) if last else "")
EOF
}

expect_file() { # NAME FILE TEXT
	if [ "$(cat "$PROJ/$2" 2>/dev/null)" = "$3" ]; then pass "$1"; else fail "$1 ($2: $(cat "$PROJ/$2" 2>&1))" "$OUT"; fi
}

# The project is a git repository; the host's identity comes from the
# global config and an includeIf that matches the project, beside what
# must never come in.
as_user git -C "$PROJ" init -q
as_user sh -c "cat > '$U_HOME/.gitconfig'" <<EOF
[user]
	name = Agent Tester
	email = home@example.invalid
[includeIf "gitdir:$PROJ/"]
	path = ~/.gitconfig-work
[credential]
	helper = store
[alias]
	pwn = !echo pwned
[core]
	hooksPath = $U_HOME/hooks
EOF
as_user sh -c "printf '[user]\n\temail = work@example.invalid\n' > '$U_HOME/.gitconfig-work'"

# A gateway setup in the user's Claude Code settings: its key and a base
# URL at the host's loopback.
as_user mkdir -p "$U_HOME/.claude"
as_user sh -c "cat > '$U_HOME/.claude/settings.json'" <<EOF
{"env": {"ANTHROPIC_AUTH_TOKEN": "$REAL2", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9/"},
 "apiKeyHelper": "echo $REAL2"}
EOF

if [ "$HAVE_CLAUDE" = 1 ]; then
	srun -- claude -p --dangerously-skip-permissions 'run: echo claude-ran > claude.txt'
	expect_out "claude -p answers through the seam" "LTD-MOCK-REPLY tool-done: "
	expect_file "... and ran its Bash tool in the cage" claude.txt claude-ran
	expect_seam "... with the placeholder, no planted key reaching the mock (caller's env, settings env)"
	expect_out "the run names the keys it left out of the settings copy" "env\.ANTHROPIC_AUTH_TOKEN, apiKeyHelper"
	expect_no_out "... never their values" "$REAL2"

	srun -- claude -p --continue 'again'
	expect_out "claude -p --continue answers in a second run" "LTD-MOCK-REPLY"
	case $(last_body '/v1/messages') in
	*claude-ran*) pass "... continuing the first run's conversation" ;;
	*) fail "... continuing the first run's conversation" "$OUT" ;;
	esac
	expect_seam "... through the seam"

	srun --agent claude -- sh -c 'cat ~/.claude/settings.json /etc/claude-code/managed-settings.json; echo x >> /etc/claude-code/managed-settings.json && echo wrote-managed'
	expect_no_out "the cage's settings copy holds no planted key" "$REAL2"
	expect_no_out "the managed settings cannot be changed in the cage" "^wrote-managed$"

	# --trusted: ~/.claude live, its .claude.json kept inside it (a
	# rename there works), seeded from ~/.claude.json when missing; the
	# seam still wins over the live settings (a key and a key helper,
	# as a user of a gateway has them), and the run names what it
	# overrides.  The backup Claude Code keeps of ~/.claude.json in
	# ~/.claude/backups is there, as on any host where it ran.
	as_user sh -c "echo '{\"env\": {\"ANTHROPIC_API_KEY\": \"$REAL2\"}, \"apiKeyHelper\": \"echo $REAL2\"}' > '$U_HOME/.claude/settings.json'"
	as_user mkdir -p "$U_HOME/.claude/backups"
	as_user sh -c "echo '{\"hasCompletedOnboarding\": true}' > '$U_HOME/.claude/backups/.claude.json.backup.1700000000000'"
	as_user sh -c "echo '{\"theme\": \"light-daltonized\", \"oauthAccount\": {\"emailAddress\": \"me@example.invalid\"}}' > '$U_HOME/.claude.json'"
	srun --trusted -- claude -p 'trusted run'
	expect_out "--trusted: claude -p answers through the seam" "LTD-MOCK-REPLY"
	expect_seam "... with the placeholder: the live settings' key and key helper never reach the mock"
	expect_out "... naming what of the live settings it overrides" "sets env\.ANTHROPIC_API_KEY, apiKeyHelper: the cage's managed settings override them"
	expect_no_out "... never its value" "$REAL2"
	if grep -q light-daltonized "$U_HOME/.claude/.claude.json" 2>/dev/null &&
		! grep -q oauthAccount "$U_HOME/.claude/.claude.json"; then
		pass "... its .claude.json is seeded in the live ~/.claude (the theme, no login)"
	else
		fail "... its .claude.json is seeded in the live ~/.claude (the theme, no login)" "$OUT"
	fi
	expect_no_out "... without Claude Code's 'configuration file not found' complaint" "onfiguration file not found"
	srun --trusted -- claude -p --continue 'trusted again'
	expect_out "--trusted: claude --continue answers in a second run" "LTD-MOCK-REPLY"
	expect_no_out "... still without the complaint" "onfiguration file not found"
	as_user rm -rf "$U_HOME/.claude/.claude.json" "$U_HOME/.claude/settings.json" \
		"$U_HOME/.claude/backups" "$U_HOME/.claude.json"
fi

# Without the seam, a base URL at the host's loopback copied in from the
# settings is explained at start (in the cage it is the cage's own).
as_user mkdir -p "$U_HOME/.claude"
as_user sh -c "echo '{\"env\": {\"ANTHROPIC_BASE_URL\": \"http://127.0.0.1:4000\"}}' > '$U_HOME/.claude/settings.json'"
OUT=$(cd "$PROJ" && "${USER_CMD[@]}" env PATH="$NPG/bin:/usr/bin:/bin" "$LTD" run --network none --agent claude -- true 2>&1)
expect_out "without the seam, a loopback base URL in the settings is explained" "ANTHROPIC_BASE_URL to http://127\.0\.0\.1:4000.*--proxy-url"
as_user rm -f "$U_HOME/.claude/settings.json"

if [ "$HAVE_CODEX" = 1 ]; then
	# The host's own Codex sessions never go in.
	as_user mkdir -p "$U_HOME/.codex/sessions/2026/01/01"
	as_user sh -c "echo HOST-SESSION > '$U_HOME/.codex/sessions/2026/01/01/rollout-host.jsonl'"

	# --model: for its default model Codex sends its tools as a
	# JavaScript "code mode" the mock does not speak; a named model gets
	# plain function tools (exec_command), as a proxy's models do.
	srun --model mock-model -- codex exec 'run: echo codex-ran > codex.txt'
	expect_out "codex exec answers through the seam" "LTD-MOCK-REPLY tool-done: "
	expect_file "... and runs a shell command in its default mode" codex.txt codex-ran
	expect_seam "... with the placeholder, no planted key reaching the mock"

	srun --model mock-model -- codex exec resume --last 'again'
	expect_out "codex exec resume --last answers in a second run" "LTD-MOCK-REPLY"
	case $(last_body '/responses') in
	*codex-ran*) pass "... continuing the first run's session" ;;
	*) fail "... continuing the first run's session" "$OUT" ;;
	esac

	# CODEX_HOME moved to the auth directory (where a login is kept), a
	# config.toml there naming another provider, its sandbox on: the
	# managed config still wins (the seam, its sandbox off).
	AUTHC=$U_HOME/.cache/lamp-the-djinn/auth/codex
	as_user mkdir -p "$AUTHC"
	as_user sh -c "printf 'model_provider = \"openai\"\nsandbox_mode = \"read-only\"\n' > '$AUTHC/config.toml'"
	srun --model mock-model --setenv CODEX_HOME "$U_HOME/.config/ltd-auth/codex" -- \
		codex exec --skip-git-repo-check 'run: echo codex-moved > codex2.txt'
	expect_file "CODEX_HOME moved, a config.toml of the user's there: codex still runs its shell command" codex2.txt codex-moved
	expect_seam "... through the seam, with the placeholder"
	as_user rm -rf "$AUTHC"

	srun --agent codex -- sh -c 'find ~/.codex/sessions -type f'
	expect_out "this project's Codex sessions are kept" "rollout-.*\.jsonl"
	expect_no_out "... and the host's other sessions never go in" "rollout-host"
	as_user rm -rf "$U_HOME/.codex"
fi

if [ "$HAVE_GEMINI" = 1 ]; then
	srun -- gemini --yolo -p 'run: echo gemini-ran > gemini.txt'
	expect_out "gemini -p answers through the seam" "LTD-MOCK-REPLY tool-done: "
	expect_file "... and runs its shell tool in the cage" gemini.txt gemini-ran
	expect_seam "... with the placeholder, no planted key reaching the mock"
	srun -- gemini --resume latest -p 'again'
	expect_out "gemini --resume latest answers in a second run" "LTD-MOCK-REPLY"
	case $(last_body 'streamGenerateContent') in
	*gemini-ran*) pass "... continuing the first run's chat" ;;
	*) fail "... continuing the first run's chat" "$OUT" ;;
	esac
fi

# git in the cage: a commit works and carries the host's identity as git
# resolves it for this project; nothing git would run comes in.
srun -- sh -c 'git add -A && git commit -qm agent-commit && git log -1 --format=%an/%ae; cat ~/.gitconfig'
expect_out "git commit works in the cage" "^Agent Tester/work@example\.invalid$"
expect_no_out "the cage's ~/.gitconfig has no helper, alias, hooks path or include" "helper|pwn|hooksPath|include"
if [ "$(as_user git -C "$PROJ" log -1 --format=%an/%ae 2>/dev/null)" = "Agent Tester/work@example.invalid" ]; then
	pass "... and the host sees the commit with the host's identity"
else
	fail "... and the host sees the commit with the host's identity"
fi
as_user rm -f "$U_HOME/.gitconfig" "$U_HOME/.gitconfig-work"

leaked=$(grep -c '"secret_seen": true' "$LOG" 2>/dev/null)
if [ "${leaked:-0}" = 0 ]; then
	pass "no request to the mock ever carried a planted key ($(wc -l <"$LOG") requests)"
else
	fail "$leaked requests carried a planted key"
fi
