# shellcheck shell=bash
# Seccomp (issue 3), end to end: the filter inside the real cage, and the
# workloads a coding agent runs still working under it.

ltd run -- "$PROBE" status
expect_out "the filter is loaded (Seccomp: 2)" "^Seccomp:[[:space:]]+2\$"

ltd run -- "$PROBE" syscalls
expect_rc "every denied syscall and socket family fails as it should" 0
expect_no_out "no case slips through" "^bad "
n=$(printf '%s\n' "$OUT" | grep -c '^ok ')
[ "$n" -ge 60 ] && pass "the probe checked $n cases" || fail "the probe checked only $n cases" "$OUT"

ltd run -- unshare -U true
expect_rc "unshare -U fails inside the cage" 1
ltd run -- unshare -r true
expect_out "unshare -r is refused" "Operation not permitted"

ltd run --unsafe-no-seccomp -- "$PROBE" status
expect_out "--unsafe-no-seccomp runs unfiltered" "^Seccomp:[[:space:]]+0\$"
expect_out "--unsafe-no-seccomp warns" "warning: --unsafe-no-seccomp"
# LOG mode refuses nothing: an opt-out like --unsafe-no-seccomp, named,
# warned and recorded as waived.
ltd run --unsafe-seccomp-log -- "$PROBE" status
expect_out "--unsafe-seccomp-log keeps a filter" "^Seccomp:[[:space:]]+2\$"
expect_out "--unsafe-seccomp-log warns" "warning: --unsafe-seccomp-log: .*refuses nothing"
ltd run --unsafe-seccomp-log -- sh -c 'unshare -U true && echo nested-ok'
expect_out "--unsafe-seccomp-log lets a denied call through" "^nested-ok\$"
ltd run --seccomp-log -- sh -c 'unshare -U true && echo nested-ok'
expect_rc "the old --seccomp-log is refused" 125
expect_out "... with the new name" "'--seccomp-log'.*--unsafe-seccomp-log"
expect_no_out "... before anything runs" "^nested-ok\$"
ltd policy show --unsafe-seccomp-log
expect_out "policy show lists --unsafe-seccomp-log as waived" "^#   --unsafe-seccomp-log: "
OUT=$(cd "$PROJ" && as_user "$LTD" run --ro-bind "$STAGE" "$STAGE" --network none \
	--unsafe-seccomp-log --json-status-fd 3 -- true 3>&1 >/dev/null 2>&1)
expect_out "the started event's waived names --unsafe-seccomp-log" \
	'"event":"started".*"waived":\[[^]]*--unsafe-seccomp-log'

# TIOCSTI: the command has no controlling terminal of ours, and the ioctl
# is refused by the filter anyway (also with the high bits set: see the
# probe's cases above).
ltd run -- sh -c 'python3 -c "
import fcntl, termios, os
fd = os.open(\"/dev/tty\", os.O_RDWR)
" 2>&1 || echo no-tty'
expect_out "the command has no controlling terminal" "no-tty|No such device"

# --- workloads ----------------------------------------------------------------
ltd run --setenv GIT_AUTHOR_NAME e2e --setenv GIT_AUTHOR_EMAIL e2e@example.invalid \
	--setenv GIT_COMMITTER_NAME e2e --setenv GIT_COMMITTER_EMAIL e2e@example.invalid \
	-- sh -c 'cd /tmp && git init -q repo && cd repo && echo x > f && git add f && git commit -qm first && git log --oneline | wc -l'
expect_rc "git init && git commit" 0
expect_out "the commit exists" "^1\$"

ltd run -- python3 -c '
import threading, subprocess
out = []
def work():
    out.append(subprocess.run(["echo", "sub"], capture_output=True, text=True).stdout.strip())
ts = [threading.Thread(target=work) for _ in range(4)]
[t.start() for t in ts]; [t.join() for t in ts]
print("python", len(out), out[0])'
expect_out "python3 with threads and subprocess" "^python 4 sub\$"

if command -v gcc >/dev/null; then
	ltd run -- sh -c 'cd /tmp && printf "#include <stdio.h>\nint main(void){puts(\"compiled\");return 0;}\n" > h.c && gcc -o h h.c && ./h'
	expect_out "gcc compiles and runs a program" "^compiled\$"
else
	skip "gcc" "not installed"
fi
if command -v make >/dev/null; then
	ltd run -- sh -c 'cd /tmp && printf "all:\n\t@echo made\n" > Makefile && make'
	expect_out "make" "^made\$"
else
	skip "make" "not installed"
fi
ltd run -- sh -c 'seq 1 100 | grep 7 | sort -r | head -n 1'
expect_out "sh pipelines" "^97\$"
if command -v ssh >/dev/null; then
	ltd run -- ssh -V
	expect_out "ssh -V" "OpenSSH"
else
	skip "ssh -V" "ssh is not installed"
fi
if command -v node >/dev/null && node -e 1 2>/dev/null; then
	ltd run -- node -e 'require("child_process").execSync("true"); console.log("node", 6*7)'
	expect_out "node -e" "^node 42\$"
else
	skip "node -e" "node is not installed"
fi
