# shellcheck shell=bash
# Git repositories the cage plants in the project: git on the host obeys a
# repository's configuration and hooks wherever the user enters it (a
# shell prompt that shows git's status runs git at each `cd`).  The run
# says, at exit, each one the command created or changed that runs
# something; a plain `git init` (cargo new, create-react-app) says nothing.

RP=$(as_user mktemp -d "$U_HOME/e2e-repos.XXXXXX")
as_user chmod 755 "$RP"
GITC=(git -c user.name=e2e -c user.email=e2e@example.invalid)

# ltd-native run in $RP (the project), output in $OUT, status in $RC.
lr() {
	OUT=$(cd "$RP" && as_user "$LTD" run --ro-bind "$STAGE" "$STAGE" -- "$@" 2>&1)
	RC=$?
}

# The threat a test guards against, shown real: the host's git, run as the
# user in @1 (the command after @3), makes the file @2 the planted
# configuration or hook makes; @3 says what ran.
threat_real() {
	local at=$1 made=$2 what=$3
	shift 3
	(cd "$at" && as_user "$@" >/dev/null 2>&1)
	if [ -e "$made" ]; then
		pass "(the threat is real: $what)"
	else
		fail "(the threat is real: $what)" "$(ls -la "$RP")"
	fi
}

# The attack: a nested repository whose core.fsmonitor is the agent's
# command.  The host's `git status` there runs it (shown first, on the
# host, so the test proves the threat it guards against).
lr sh -c "mkdir evil && cd evil && git init -q && git config core.fsmonitor 'touch ../fsmonitor-ran; false'"
expect_rc "the cage plants a repository with a core.fsmonitor" 0
expect_out "at exit the run names its configuration" "warning: $RP/evil/\.git/config: .*\(core\.fsmonitor\)"
expect_out "and says git run there on the host would run it" "review it before you run git there on the host"
threat_real "$RP/evil" "$RP/fsmonitor-ran" "the host's git status there runs it" git status
as_user rm -rf "$RP/evil" "$RP/fsmonitor-ran"

# A linked worktree of the user's: git there reads the configuration and
# hooks of the main repository's git directory (its commondir), which
# git does not need to hold a HEAD.  The cage moves HEAD away (no git
# directory to a walk that looks for one) and writes the config there.
as_user sh -c "cd '$RP' && mkdir vendor && cd vendor && git init -q lib && cd lib && ${GITC[*]} commit -q --allow-empty -m i && git worktree add -q ../lib-wt 2>/dev/null"
lr sh -c "mv vendor/lib/.git/HEAD vendor/lib/.git/HEAD.orig && printf '[core]\\n\\tfsmonitor = touch ../../wt-fsmonitor-ran; false\\n' >> vendor/lib/.git/config"
expect_rc "the cage writes the common git directory of a worktree, its HEAD moved away" 0
expect_out "at exit the run names that configuration" "warning: $RP/vendor/lib/\.git/config: .*\(core\.fsmonitor\)"
threat_real "$RP/vendor/lib-wt" "$RP/wt-fsmonitor-ran" "the host's git status in the worktree runs it" git status
as_user rm -rf "$RP/vendor" "$RP/wt-fsmonitor-ran"

# The same worktree, husky's way: core.hooksPath .husky/_ set long before
# the run, relative, so git takes it from the work tree it runs in.  The
# cage plants a pre-commit in the linked worktree's .husky/_.
as_user sh -c "cd '$RP' && mkdir vendor && cd vendor && git init -q lib && cd lib && mkdir -p .husky/_ && echo .husky/_ > .gitignore && git add .gitignore && ${GITC[*]} commit -qm i && git config core.hooksPath .husky/_ && git worktree add -q ../lib-wt 2>/dev/null"
lr sh -c "mkdir -p vendor/lib-wt/.husky/_ && printf '#!/bin/sh\\ntouch ../../wt-hook-ran\\n' > vendor/lib-wt/.husky/_/pre-commit && chmod +x vendor/lib-wt/.husky/_/pre-commit"
expect_rc "the cage plants a hook in a linked worktree's relative hooks path" 0
expect_out "at exit the run names the hook" "warning: $RP/vendor/lib-wt/\.husky/_/pre-commit: "
threat_real "$RP/vendor/lib-wt" "$RP/wt-hook-ran" "git commit in the worktree runs it" "${GITC[@]}" commit -q --allow-empty -m x
as_user rm -rf "$RP/vendor" "$RP/wt-hook-ran"

# A relative core.hooksPath in the user's global config holds for every
# repository that sets none: the cage plants a hook under it in a nested
# repository of the user's.  Then the same with an includeIf after it
# that sets an absolute hooks path for repositories elsewhere: git here
# still takes the relative one (the condition does not hold), and so must
# the walk, which follows every include whatever its condition.
ABS_CFG=$U_HOME/e2e-abs-hooks.cfg
for cond in "" "git config --global includeIf.gitdir:/nowhere/.path '$ABS_CFG' && printf '[core]\\n\\thooksPath = /nowhere/hooks\\n' > '$ABS_CFG'"; do
	as_user sh -c "cd '$RP' && git init -q nest && cd nest && ${GITC[*]} commit -q --allow-empty -m i && git config --global core.hooksPath .githooks${cond:+ && $cond}"
	lr sh -c "mkdir -p nest/.githooks && printf '#!/bin/sh\\ntouch ../global-hook-ran\\n' > nest/.githooks/pre-commit && chmod +x nest/.githooks/pre-commit"
	expect_rc "the cage plants a hook under the global relative hooks path${cond:+, a conditional absolute one after it}" 0
	expect_out "at exit the run names the hook" "warning: $RP/nest/\.githooks/pre-commit: "
	threat_real "$RP/nest" "$RP/global-hook-ran" "git commit there runs it" "${GITC[@]}" commit -q --allow-empty -m x
	as_user git config --global --unset core.hooksPath
	[ -z "$cond" ] || as_user git config --global --remove-section includeIf.gitdir:/nowhere/
	as_user rm -rf "$RP/nest" "$RP/global-hook-ran" "$ABS_CFG"
done

# A nested repository of the user's, made before the run, its
# configuration unchanged: core.fsmonitor names a script in its work
# tree.  The cage rewrites the script, nothing else; git status there on
# the host runs it.  The walk reads the configuration of every repository
# it meets and says each file it names that the command changed.
as_user sh -c "cd '$RP' && mkdir vendor && git init -q vendor/lib && cd vendor/lib && printf '#!/bin/sh\\nexit 1\\n' > tool.sh && chmod +x tool.sh && git config core.fsmonitor ./tool.sh && mkdir scripts && echo cat > scripts/smudge.sh && git config filter.x.smudge 'sh scripts/smudge.sh'"
sleep 0.1 # the run begins after the repository was made
lr sh -c "printf '#!/bin/sh\\ntouch ../../named-ran\\nexit 1\\n' > vendor/lib/tool.sh && echo 'touch ../../named-ran; cat' > vendor/lib/scripts/smudge.sh"
expect_rc "the cage rewrites a script an unchanged nested repository's configuration names" 0
expect_out "at exit the run names the fsmonitor's script" "warning: $RP/vendor/lib/tool\.sh: .*\(core\.fsmonitor\)"
expect_out "and the filter's" "warning: $RP/vendor/lib/scripts/smudge\.sh: .*\(filter\.x\.smudge\)"
expect_no_out "not the configuration itself (unchanged)" "warning: $RP/vendor/lib/\.git/config:"
threat_real "$RP/vendor/lib" "$RP/named-ran" "the host's git status there runs it" git status
as_user rm -rf "$RP/vendor" "$RP/named-ran"

# The same under --review: the worktree (its .git file, the common
# config's hooksPath) is the project's, unchanged; only the hook is in the
# review's upper.  It is said, and apply holds it back (before, neither:
# apply landed it, and git commit in the worktree ran it).
RS=$(as_user mktemp -d "$U_HOME/e2e-repos-state.XXXXXX")
ltd_in "$RP" "$RS" doctor
if printf '%s\n' "$OUT" | grep -q '^ok  *review mode'; then
	hook=$RP/vendor/lib-wt/.husky/_/pre-commit
	as_user sh -c "cd '$RP' && mkdir vendor && cd vendor && git init -q lib && cd lib && mkdir -p .husky/_ && echo .husky/_ > .gitignore && git add .gitignore && ${GITC[*]} commit -qm i && git config core.hooksPath .husky/_ && git worktree add -q ../lib-wt 2>/dev/null"
	sleep 0.1 # the review begins after the worktree was made
	ltd_in "$RP" "$RS" run --ro-bind "$STAGE" "$STAGE" --network none --review hk -- sh -c "mkdir -p vendor/lib-wt/.husky/_ && printf '#!/bin/sh\\ntouch ../../rv-hook-ran\\n' > vendor/lib-wt/.husky/_/pre-commit && chmod +x vendor/lib-wt/.husky/_/pre-commit"
	expect_rc "under --review the cage plants a hook in a linked worktree's hooks path" 0
	expect_out "at exit the review run names the hook" "warning: $RP/vendor/lib-wt/\.husky/_/pre-commit: "
	ltd_in "$RP" "$RS" review hk
	expect_out "review marks it held back, as a git hook" "^A! vendor/lib-wt/\.husky/_/pre-commit  \[held back: a git hook"
	ltd_in "$RP" "$RS" apply hk
	expect_true "apply does not land it" test ! -e "$hook"
	[ -e "$hook" ] || ltd_in "$RP" "$RS" apply hk --include-protected
	threat_real "$RP/vendor/lib-wt" "$RP/rv-hook-ran" "landed, git commit in the worktree runs it" "${GITC[@]}" commit -q --allow-empty -m x
	as_user rm -rf "$RP/vendor" "$RP/rv-hook-ran"
	# A script an unchanged nested repository's core.fsmonitor names,
	# rewritten in the review's upper: said, and held back.
	tool=$RP/vendor/lib/tool.sh
	as_user sh -c "cd '$RP' && mkdir vendor && git init -q vendor/lib && cd vendor/lib && printf '#!/bin/sh\\nexit 1\\n' > tool.sh && chmod +x tool.sh && git config core.fsmonitor ./tool.sh"
	sleep 0.1
	ltd_in "$RP" "$RS" run --ro-bind "$STAGE" "$STAGE" --network none --review fm -- sh -c "printf '#!/bin/sh\\ntouch ../../rv-fsmonitor-ran\\nexit 1\\n' > vendor/lib/tool.sh"
	expect_rc "under --review the cage rewrites a script a nested repository's core.fsmonitor names" 0
	expect_out "at exit the review run names it" "warning: $RP/vendor/lib/tool\.sh: .*\(core\.fsmonitor\)"
	ltd_in "$RP" "$RS" review fm
	expect_out "review marks it held back" "^M! vendor/lib/tool\.sh  \[held back: a git hook or a file git's configuration runs"
	ltd_in "$RP" "$RS" apply fm
	expect_true "apply does not land it" test -z "$(grep rv-fsmonitor-ran "$tool")"
	grep -q rv-fsmonitor-ran "$tool" || ltd_in "$RP" "$RS" apply fm --include-protected
	threat_real "$RP/vendor/lib" "$RP/rv-fsmonitor-ran" "landed, git status there runs it" git status
	as_user rm -rf "$RP/vendor" "$RP/rv-fsmonitor-ran"
else
	skip "--review: a hook in a worktree of the project's" "doctor says review mode does not work here"
fi
as_user rm -rf "$RS"

lr sh -c "mkdir app && cd app && git init -q && echo x > f && git add f && ${GITC[*]} commit -qm one"
expect_rc "a plain git init and commit in the cage" 0
expect_no_out "say nothing of repositories" "git (configuration|hook|repositor)"

# Repositories of the user's from before the run, with a hooks path and
# an alias of their own.  One the command works in is named with what its
# configuration runs (the command could have made it a repository in this
# run); one it did not touch is not.
for r in mine theirs; do
	as_user sh -c "mkdir '$RP/$r' && cd '$RP/$r' && git init -q && git config core.hooksPath .husky && git config core.fsmonitor false && git config alias.st '!git status'"
done
sleep 0.1 # past the coarse clock's tick: the run starts after this
lr sh -c "cd mine && echo y > g && git add g && ${GITC[*]} commit -qm two && git st >/dev/null"
expect_rc "the command commits in a repository of the user's" 0
expect_out "what the one it worked in runs is named" "warning: $RP/mine/\.git/config: the command worked in .*\(core\.hooksPath\)"
expect_no_out "the one it did not touch is not" "$RP/theirs"

# The same repository: a hook planted in it is said.
lr sh -c "printf '#!/bin/sh\ntouch /tmp/x\n' > mine/.git/hooks/post-checkout && chmod +x mine/.git/hooks/post-checkout"
expect_out "a hook planted in the user's repository is said" "warning: $RP/mine/\.git/hooks/post-checkout: .*git hook"
as_user rm -f "$RP/mine/.git/hooks/post-checkout"

# Hidden in the project's own .git, reached from a .git file elsewhere.
as_user sh -c "cd '$RP' && git init -q"
sleep 0.1
lr sh -c "git init -q --bare .git/evil && git --git-dir=.git/evil config alias.x '!touch /tmp/y' && mkdir -p sub && echo 'gitdir: ../.git/evil' > sub/.git"
expect_out "a bare repository hidden in the project's .git is said" "warning: $RP/\.git/evil/config: .*\(alias\.x\)"
expect_no_out "the .git file pointing there is covered by it" "warning: $RP/sub/\.git:"
as_user rm -rf "$RP/.git/evil" "$RP/sub"

# A .git link out of the project.
lr sh -c "mkdir -p out && ln -s /home/elsewhere/.git out/.git"
expect_out "a .git link leading out of the project is said" "warning: $RP/out/\.git: .*\(/home/elsewhere/\.git\)"
as_user rm -rf "$RP/out"

# Hiding places: a directory made unreadable, a tree deeper than the walk.
lr sh -c "mkdir -p hide/r && git init -q hide/r && git -C hide/r config core.pager 'sh ./p' && chmod 000 hide"
expect_out "a directory the command made unreadable is said" "warning: $RP/hide: .*cannot look in"
as_user chmod 755 "$RP/hide"
as_user rm -rf "$RP/hide"
lr sh -c 'd=deep; for i in $(seq 140); do d=$d/d; done; mkdir -p $d && git init -q $d && git -C $d config core.editor "sh ./e"'
expect_out "a tree deeper than the walk is said, not skipped" "warning: $RP/deep/.*did not look below it"
as_user rm -rf "$RP/deep"

# A review's attacks (each silent before it was fixed; the host's git then
# ran the payload).
lr sh -c "git init -q A && cd A/.git && mv objects o && ln -s o objects && mv refs r && ln -s r refs && git config core.fsmonitor 'touch ../ran; false'"
expect_out "objects and refs as links still make a repository" "warning: $RP/A/\.git/config: .*\(core\.fsmonitor\)"
lr sh -c "git init -q B && git -C B config core.fsmonitor 'touch ../ran; false' && mv B/.git/HEAD B/.git/HEAD.off"
sleep 0.1
lr mv B/.git/HEAD.off B/.git/HEAD
expect_out "planted over two runs: the run that completes it says so" "warning: $RP/B/\.git/config: .*\(core\.fsmonitor\)"
lr sh -c "mkdir -p C/sub && chmod 300 C"
sleep 0.1
lr sh -c "git init -q C/sub && git -C C/sub config core.fsmonitor 'touch ../ran; false'"
expect_out "a directory the walk cannot read is said on every run" "warning: $RP/C: ltd-native cannot look in"
as_user chmod 755 "$RP/C"
lr sh -c "git init -q E && git -C E config credential.helper h/run && mkdir -p E/git-credential-h && printf '#!/bin/sh\ntouch ran\n' > E/git-credential-h/run"
expect_out "a credential helper given as a relative path" "warning: $RP/E/\.git/config: .*\(credential\.helper\)"
as_user sh -c "cd '$RP' && git init -q Y && git -C Y config include.path ../../shared.cfg && echo '[user]' > shared.cfg && mkdir -p scripts && git init -q I && printf '#!/bin/sh\n' > scripts/post-checkout && ln -s ../../../scripts/post-checkout I/.git/hooks/post-checkout"
sleep 0.1
lr sh -c "printf '[core]\n\tpager = sh ./p\n' >> shared.cfg && echo 'touch ran' >> scripts/post-checkout"
expect_out "a file an old repository includes, changed" "warning: $RP/shared\.cfg: .*\(core\.pager\)"
expect_out "a hook's target, changed" "warning: $RP/I/\.git/hooks/post-checkout: "
if [ ! -e "$RP/ran" ] && [ ! -e "$RP/A/ran" ]; then
	pass "(no payload ran during the tests)"
else
	fail "(no payload ran during the tests)" "$(ls "$RP")"
fi
as_user rm -rf "$RP/A" "$RP/B" "$RP/C" "$RP/E" "$RP/Y" "$RP/I" "$RP/scripts" "$RP/shared.cfg"

# The second review's: what git follows through links the user set up.
as_user sh -c "cd '$RP' && for r in t1 t2 t3 t4 t5; do git init -q \$r; done &&
	rm -rf t1/.git/hooks && ln -s ../githooks t1/.git/hooks && mkdir t1/githooks && echo '#!/bin/sh' > t1/githooks/pre-commit &&
	mkdir t2/scripts t2/evil && echo '#!/bin/sh' > t2/scripts/pre-commit && ln -s ../../scripts/pre-commit t2/.git/hooks/pre-commit &&
	git -C t3 config core.hooksPath .githooks && mkdir t3/.githooks t3/evil &&
	echo '[user]' > t4/shared.gitconfig && git -C t4 config include.path ../shared.gitconfig &&
	git -C t5 config core.hooksPath .husky/_ && mkdir -p t5/.husky/_ && echo 'npm test' > t5/.husky/pre-commit"
sleep 0.1
lr sh -c "echo 'touch ran' >> t1/githooks/pre-commit &&
	echo 'touch ran' > t2/evil/pre-commit && mv t2/scripts t2/scripts.old && ln -s evil t2/scripts &&
	echo 'touch ran' > t3/evil/pre-commit && rmdir t3/.githooks && ln -s evil t3/.githooks &&
	printf '[core]\n\tfsmonitor = touch ran\n' > t4/evil.cfg && rm t4/shared.gitconfig && ln -s evil.cfg t4/shared.gitconfig &&
	echo 'touch ran' >> t5/.husky/pre-commit"
expect_out "a hook behind a linked hooks directory" "warning: $RP/t1/githooks/pre-commit: "
expect_out "a hook whose target now goes through a link" "warning: $RP/t2/\.git/hooks/pre-commit: git follows this hook through a symbolic link"
expect_out "a hooks path that is now a link" "warning: $RP/t3/\.githooks: git follows this repository's core.hooksPath through a symbolic link"
expect_out "an include that is now a link" "warning: $RP/t4/\.git/config: .*\(include\.path\)"
expect_out "husky's scripts beside its stubs" "warning: $RP/t5/\.husky/pre-commit: "
as_user rm -rf "$RP/t1" "$RP/t2" "$RP/t3" "$RP/t4" "$RP/t5"

# The project itself made a repository (it was none when the run began).
RB=$(as_user mktemp -d "$U_HOME/e2e-bare.XXXXXX")
OUT=$(cd "$RB" && as_user "$LTD" run --network none -- sh -c "git init -q --bare . && git config core.bare false && git config core.worktree . && git config core.fsmonitor 'touch ran; false'" 2>&1)
expect_out "a project made a git directory is judged" "warning: $RB/config: .*\(core\.fsmonitor\)"
as_user rm -rf "$RB"

# A second repository bound read-write: the command would plant its hook
# where git on the host runs it (shown with the protection off).
OR=$(as_user mktemp -d "$U_HOME/e2e-other.XXXXXX")
as_user sh -c "cd '$OR' && git init -q"
OUT=$(cd "$RP" && as_user "$LTD" run --bind "$OR" "$OR" -- sh -c "echo 'touch /tmp/x' > '$OR/.git/hooks/pre-commit'" 2>&1)
RC=$?
expect_rc "a writable bind of another repository is refused" 125
expect_out "naming the bind and the ways out" "--bind $OR: .*--ro-bind.*--unsafe-writable-git"
[ ! -e "$OR/.git/hooks/pre-commit" ] && pass "and no hook is planted in it" ||
	fail "and no hook is planted in it" "$(ls -la "$OR/.git/hooks")"
OUT=$(cd "$RP" && as_user "$LTD" run --bind "$OR/.git/hooks" /h -- true 2>&1)
RC=$?
expect_rc "a writable bind inside its git directory is refused" 125
OUT=$(cd "$RP" && as_user "$LTD" run --ro-bind "$OR" "$OR" -- cat "$OR/.git/HEAD" 2>&1)
RC=$?
expect_rc "bound read-only it runs" 0
OUT=$(cd "$RP" && as_user "$LTD" run --unsafe-writable-git --bind "$OR" "$OR" -- sh -c "echo 'touch /tmp/x' > '$OR/.git/hooks/pre-commit'" 2>&1)
RC=$?
expect_rc "with --unsafe-writable-git it runs" 0
[ -e "$OR/.git/hooks/pre-commit" ] && pass "(and the hook is planted: what the refusal prevents)" ||
	fail "(and the hook is planted: what the refusal prevents)" "$OUT"

# A directory bound writable that holds repositories deeper down is not
# refused; what the command plants in them is said at exit.
as_user rm -rf "$OR"
OR=$(as_user mktemp -d "$U_HOME/e2e-src.XXXXXX")
as_user sh -c "cd '$OR' && mkdir a && git -C a init -q"
sleep 0.1
OUT=$(cd "$RP" && as_user "$LTD" run --bind "$OR" "$OR" -- sh -c "echo 'touch /tmp/x' > '$OR/a/.git/hooks/pre-commit' && git init -q '$OR' && git -C '$OR' config core.pager 'sh ./p'" 2>&1)
RC=$?
expect_rc "a writable bind holding repositories deeper down runs" 0
expect_out "a hook planted in one of them is said" "warning: $OR/a/\.git/hooks/pre-commit: "
expect_out "and a repository made at the bind's top" "warning: $OR/\.git/config: .*\(core\.pager\)"
as_user rm -rf "$OR" "$RP"
