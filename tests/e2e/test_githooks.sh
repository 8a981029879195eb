# shellcheck shell=bash
# The hooks path the user's global git configuration names (core.hooksPath
# in ~/.gitconfig), and one another repository's configuration names: git
# on the host runs the hooks there in every repository (or in that one).
# A writable bind of such a place, or a project that is one, is refused.
# This file writes the test user's ~/.gitconfig and removes it at the end
# (the other files run as the same user).

GH_CFG="$U_HOME/.gitconfig"
GH_HK="$U_HOME/.githooks"
[ -e "$GH_CFG" ] && as_user mv "$GH_CFG" "$GH_CFG.e2e-saved"
as_user sh -c "mkdir -p '$GH_HK/sub' && printf '[core]\n\thooksPath = ~/.githooks\n' > '$GH_CFG'"
GH_P=$(as_user mktemp -d "$U_HOME/e2e-ghp.XXXXXX")
GH_R=$(as_user mktemp -d "$U_HOME/e2e-ghr.XXXXXX")
as_user sh -c "cd '$GH_R' && git init -q"
GHC=(git -c user.name=e2e -c user.email=e2e@example.invalid)
PLANT="printf '#!/bin/sh\ntouch $GH_R/hook-ran\n' > '$GH_HK/pre-commit' && chmod +x '$GH_HK/pre-commit'"

gh_run() {
	OUT=$(cd "$GH_P" && as_user "$LTD" run --network none "$@" 2>&1)
	RC=$?
}

# The threat, shown with the protection off: the planted hook runs at the
# next commit in any repository of the user's.
gh_run --unsafe-writable-git --bind "$GH_HK" "$GH_HK" -- sh -c "$PLANT"
expect_rc "with --unsafe-writable-git the cage writes the global hooks path" 0
(cd "$GH_R" && as_user "${GHC[@]}" commit -q --allow-empty -m x >/dev/null 2>&1)
[ -e "$GH_R/hook-ran" ] && pass "(the threat is real: git commit elsewhere runs the hook)" ||
	fail "(the threat is real: git commit elsewhere runs the hook)" "$(ls -la "$GH_HK" "$GH_R")"
as_user rm -f "$GH_HK/pre-commit" "$GH_R/hook-ran"

gh_run --bind "$GH_HK" "$GH_HK" -- sh -c "$PLANT"
expect_rc "a writable bind of the global hooks path is refused" 125
expect_out "naming the bind, the config and key, the ways out" "--bind $GH_HK: .*core\.hooksPath in $GH_CFG.*--ro-bind.*--unsafe-writable-git"
[ ! -e "$GH_HK/pre-commit" ] && pass "and no hook is planted" ||
	fail "and no hook is planted" "$(ls -la "$GH_HK")"
gh_run --bind "$GH_HK/sub" /x -- true
expect_rc "a writable bind inside it is refused" 125
gh_run --ro-bind "$GH_HK" "$GH_HK" -- true
expect_rc "bound read-only it runs" 0

OUT=$(cd "$GH_HK" && as_user "$LTD" run --network none -- sh -c "$PLANT" 2>&1)
RC=$?
expect_rc "the global hooks path as the project is refused" 125
expect_out "naming --project, the config and key" "--project: .*core\.hooksPath in $GH_CFG"
[ ! -e "$GH_HK/pre-commit" ] && pass "and no hook is planted from the project" ||
	fail "and no hook is planted from the project" "$(ls -la "$GH_HK")"

# Another repository's own hooks path, in a subdirectory of its work tree.
as_user rm -f "$GH_CFG"
as_user sh -c "cd '$GH_R' && git config core.hooksPath tools/hooks && mkdir -p tools/hooks"
gh_run --unsafe-writable-git --bind "$GH_R/tools" "$GH_R/tools" -- sh -c "printf '#!/bin/sh\ntouch $GH_R/hook-ran\n' > '$GH_R/tools/hooks/pre-commit' && chmod +x '$GH_R/tools/hooks/pre-commit'"
(cd "$GH_R" && as_user "${GHC[@]}" commit -q --allow-empty -m y >/dev/null 2>&1)
[ -e "$GH_R/hook-ran" ] && pass "(the threat is real: git commit there runs the hook)" ||
	fail "(the threat is real: git commit there runs the hook)" "$(ls -la "$GH_R/tools/hooks")"
as_user rm -f "$GH_R/tools/hooks/pre-commit" "$GH_R/hook-ran"
gh_run --bind "$GH_R/tools" "$GH_R/tools" -- true
expect_rc "a writable bind of a work tree's directory holding its hooks path is refused" 125
expect_out "naming the bind and that repository's config" "--bind $GH_R/tools: .*core\.hooksPath in $GH_R/\.git/config"
as_user mkdir -p "$GH_R/src"
gh_run --bind "$GH_R/src" "$GH_R/src" -- true
expect_rc "a writable bind of another directory of that work tree runs" 0

# The project's own repository names a hooks path outside it, which a
# --bind would make writable (a review's D): refused, though no repository
# lies above the bind itself.
GH_M=$(as_user mktemp -d "$U_HOME/e2e-ghm.XXXXXX")
as_user sh -c "cd '$GH_M' && mkdir app shared-hooks && git -C app init -q && git -C app config core.hooksPath ../shared-hooks"
OUT=$(cd "$GH_M/app" && as_user "$LTD" run --network none --bind "$GH_M/shared-hooks" "$GH_M/shared-hooks" -- true 2>&1)
RC=$?
expect_rc "a bind of the hooks path the project's own repository names is refused" 125
expect_out "naming the bind" "--bind $GH_M/shared-hooks"
OUT=$(cd "$GH_M/app" && as_user "$LTD" run --network none --unsafe-writable-git --bind "$GH_M/shared-hooks" "$GH_M/shared-hooks" -- sh -c "printf '#!/bin/sh\ntouch $GH_M/ran\n' > '$GH_M/shared-hooks/pre-commit' && chmod +x '$GH_M/shared-hooks/pre-commit'" 2>&1)
(cd "$GH_M/app" && as_user "${GHC[@]}" commit -q --allow-empty -m z >/dev/null 2>&1)
[ -e "$GH_M/ran" ] && pass "(the threat is real: the project's commit runs it)" ||
	fail "(the threat is real: the project's commit runs it)" "$OUT"
as_user rm -rf "$GH_M"

# The very file an include names, bound alone (a review: the cage added a
# core.fsmonitor to it).
as_user sh -c "mkdir -p '$U_HOME/e2e-dot' && echo '[user]' > '$U_HOME/e2e-dot/extra.gitconfig' && printf '[include]\n\tpath = ~/e2e-dot/extra.gitconfig\n' >> '$GH_CFG'"
gh_run --bind "$U_HOME/e2e-dot/extra.gitconfig" "$U_HOME/e2e-dot/extra.gitconfig" -- true
expect_rc "a writable bind of the file the global config includes is refused" 125
as_user rm -rf "$U_HOME/e2e-dot"

# A global config the user may not read (a root-owned 0600 one, left by
# `sudo git config --global`): git ignores it, and so does a run.
if [ "$AS_ROOT" = 1 ]; then
	as_user rm -f "$GH_CFG"
	printf '[user]\n\tname = root\n' > "$GH_CFG"
	chown root:root "$GH_CFG"
	chmod 600 "$GH_CFG"
	gh_run -- true
	expect_rc "an unreadable ~/.gitconfig does not stop the run" 0
	expect_out "and the run says it was not read" "warning: $GH_CFG: not readable"
	rm -f "$GH_CFG"
fi

as_user rm -rf "$GH_HK" "$GH_P" "$GH_R" "$GH_CFG"
[ -e "$GH_CFG.e2e-saved" ] && as_user mv "$GH_CFG.e2e-saved" "$GH_CFG"
