# shellcheck shell=bash
# A writable bind that holds the project's protected paths under another
# name (decision 0161, amended): the project is a host bind mount of
# WS/proj at ~/...; `--bind WS` holds WS/proj/.git, which the cage sees
# read-only in the project.  Judged "above by name", WS is not above the
# project's name, so the bind went through and the command wrote a hook
# git on the host runs (the attacker's review of session 7).  Needs root
# for the host's bind mount.

if [ "$AS_ROOT" != 1 ]; then
	skip "a bind holding the project under another name" "needs root to make a bind mount on the host"
else
	BA=$(mktemp -d /tmp/e2e-bindalias.XXXXXX)
	chmod 755 "$BA"
	mkdir -p "$BA/srv/ws/proj" "$BA/srv/ws/other"
	chown -R "$U_UID:$U_GID" "$BA/srv"
	as_user sh -c "cd '$BA/srv/ws/proj' && git init -q && echo a > a"
	AP=$(as_user mktemp -d "$U_HOME/e2e-aliasproj.XXXXXX")
	mount --bind "$BA/srv/ws/proj" "$AP"
	HOOK=$BA/srv/ws/proj/.git/hooks/pre-commit
	# ltd-native run in the aliased project: output in $OUT, status in $RC.
	la() {
		OUT=$(cd "$AP" && as_user "$LTD" run --network none "$@" 2>&1)
		RC=$?
	}

	la --bind "$BA/srv/ws" "$BA/srv/ws" -- sh -c "printf '#!/bin/sh\ntouch /tmp/pwned\n' > '$HOOK'"
	expect_rc "a writable bind of the directory that holds the project's own under another name is refused" 125
	expect_out "... said as what it holds, and how" "--bind $BA/srv/ws: holds $AP/\.git under another name \(the project is a bind mount on the host of a directory this one holds\)"
	expect_out "... and the way out that fits" "bind the directories beside the project that the command needs one by one"
	[ ! -e "$HOOK" ] && pass "... and no hook was written" || fail "... and no hook was written" "$(ls -la "$(dirname "$HOOK")")"

	la --bind "$BA/srv" /mnt/s -- true
	expect_rc "... and of the one above it, bound elsewhere" 125
	expect_out "... said too" "--bind $BA/srv: holds $AP/"

	# A namespace file bound on the host, as `ip netns add`, docker and
	# snapd make them: its line in the mount table has no path for a
	# root ("net:[N]"); the table was refused whole for it, and the bind
	# went through (the attacker's review).
	touch "$BA/nsfile"
	mount --bind /proc/self/ns/net "$BA/nsfile"
	la --bind "$BA/srv" "$BA/srv" -- sh -c "echo x >> '$BA/srv/ws/proj/a'"
	expect_rc "... with a namespace file bound on the host too" 125
	expect_out "... said the same" "--bind $BA/srv: holds $AP/"
	grep -qx x "$BA/srv/ws/proj/a" && fail "... and nothing was written" "$(cat "$BA/srv/ws/proj/a")" ||
		pass "... and nothing was written"
	umount "$BA/nsfile"

	la --bind "$BA/srv/ws/other" "$BA/srv/ws/other" -- sh -c "echo b > '$BA/srv/ws/other/b'"
	expect_rc "a writable bind beside the project's real place still works" 0
	[ -f "$BA/srv/ws/other/b" ] && pass "... and it is written" || fail "... and it is written" "$OUT"

	la --ro-bind "$BA/srv/ws" "$BA/srv/ws" -- true
	expect_rc "... and the same directory read-only" 0

	umount "$AP"
	as_user rmdir "$AP"
	rm -rf "$BA"
fi
