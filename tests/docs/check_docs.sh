#!/bin/bash
# The man pages and the shell completions against the built programs:
# every run option of the option table and every subcommand of the usage
# lines is in ltd-native(1), and the completions offer them.  They are
# generated from the program where they can be; this says they are.
#   bash tests/docs/check_docs.sh BUILD_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=$(cd "${1:-build}" && pwd)
comp=$repo/packaging/completions
PASSED=0 FAILED=0 SKIPPED=0

pass() { PASSED=$((PASSED + 1)); printf 'ok   %s\n' "$1"; }
fail() {
	FAILED=$((FAILED + 1)); printf 'FAIL %s\n' "$1"
	[ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/     | /'
	return 0
}
skip() { SKIPPED=$((SKIPPED + 1)); printf 'skip %s: %s\n' "$1" "$2"; }

# The programs as a user has them: on PATH, by their names.
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
ln -s "$build/ltd-native" "$build/ltd-rootfs" "$bin/"
export PATH=$bin:$PATH

options=$(ltd-native --complete-options | cut -f1)
subs=$(ltd-native --help | awk '/^usage: /{on=1; sub(/^usage: /,"")} on&&/^ *$/{exit}
	on{sub(/^ +/,""); if ($2 ~ /^[a-z]/) print $2}' | sort -u)
rfs_subs=$(ltd-rootfs --help | awk '/^usage: /{on=1; sub(/^usage: /,"")} on&&/^ *$/{exit}
	on{sub(/^ +/,""); if ($2 ~ /^[a-z]/) print $2}' | sort -u)
[ "$(echo "$options" | wc -l)" -gt 30 ] && [ -n "$subs" ] ||
	fail "the program lists its options and subcommands" "$options"

# --- the programs' own help ---------------------------------------------
# Every run option of the table is in `run --help` or `--help`, and the
# ones the table marks for the summary (the first a newcomer reaches for:
# --review among them) are in `ltd-native --help` itself.
help=$(ltd-native --help)
run_help=$(ltd-native run --help)
missing=
for o in $options; do
	printf '%s\n%s\n' "$help" "$run_help" | grep -q -- "^  $o\( \|\$\)" ||
		missing="$missing $o"
done
[ -z "$missing" ] && pass "every run option is in 'ltd-native --help' or 'ltd-native run --help'" ||
	fail "every run option is in 'ltd-native --help' or 'ltd-native run --help'" "missing:$missing"
summary=$(ltd-native --complete-options | awk -F '\t' '$4 ~ /(^|,)summary(,|$)/ {print $1}')
missing=
for o in $summary --review; do
	printf '%s\n' "$help" | grep -q -- "^  $o\( \|\$\)" || missing="$missing $o"
done
[ -n "$summary" ] && [ -z "$missing" ] &&
	pass "'ltd-native --help' names the summary's run options, --review among them" ||
	fail "'ltd-native --help' names the summary's run options, --review among them" "missing:$missing"

# --- man pages ---------------------------------------------------------
man1=$build/man/ltd-native.1
missing=
for o in $options; do
	grep -q "^\\\\fB$o\\\\fR" "$man1" || missing="$missing $o"
done
[ -z "$missing" ] && pass "every run option is in ltd-native(1)" ||
	fail "every run option is in ltd-native(1)" "missing:$missing"
missing=
commands=$(sed -n '/^\.SH COMMANDS/,/^\.SH /p' "$man1")
for s in $subs; do
	printf '%s\n' "$commands" | grep -q "^\\\\fB$s[\\\\ ]" || missing="$missing $s"
done
[ -z "$missing" ] && pass "every subcommand is described under COMMANDS in ltd-native(1)" ||
	fail "every subcommand is described under COMMANDS in ltd-native(1)" "missing:$missing"
missing=
commands=$(sed -n '/^\.SH COMMANDS/,/^\.SH /p' "$build/man/ltd-rootfs.1")
for s in $rfs_subs; do
	printf '%s\n' "$commands" | grep -q "^\\\\fB$s\\\\fR" || missing="$missing $s"
done
[ -z "$missing" ] && pass "every subcommand is described in ltd-rootfs(1)" ||
	fail "every subcommand is described in ltd-rootfs(1)" "missing:$missing"
for m in "$build"/man/*.[15]; do
	warn=$(MANWIDTH=80 man --warnings -l "$m" 2>&1 >/dev/null)
	[ -z "$warn" ] && pass "$(basename "$m") renders without a warning" ||
		fail "$(basename "$m") renders without a warning" "$warn"
done

# --- bash --------------------------------------------------------------
bash_complete() {
	bash -c '
		[ -r /usr/share/bash-completion/bash_completion ] &&
			. /usr/share/bash-completion/bash_completion
		. "$1"
		COMP_LINE=$2 COMP_POINT=${#2}
		read -ra COMP_WORDS <<<"$COMP_LINE"
		[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMPREPLY=()
		case ${COMP_WORDS[0]} in
		ltd-rootfs) _ltd_rootfs ;;
		*) _ltd_native ;;
		esac
		printf "%s\n" "${COMPREPLY[@]}"' _ "$comp/ltd-native.bash" "$1"
}
out=$(bash_complete "ltd-native run --net")
[ "$out" = --network ] && pass "bash: ltd-native run --net<TAB> gives --network" ||
	fail "bash: ltd-native run --net<TAB> gives --network" "$out"
out=$(bash_complete "ltd-native run --")
missing=
for o in $options; do
	printf '%s\n' "$out" | grep -qx -- "$o" || missing="$missing $o"
done
[ -z "$missing" ] && pass "bash: every run option is offered" ||
	fail "bash: every run option is offered" "missing:$missing"
out=$(bash_complete "ltd-native ")
missing=
for s in $subs; do
	printf '%s\n' "$out" | grep -qx -- "$s" || missing="$missing $s"
done
[ -z "$missing" ] && pass "bash: every subcommand is offered" ||
	fail "bash: every subcommand is offered" "missing:$missing"
out=$(bash_complete "ltd-native run --network " | sort | tr '\n' ' ')
[ "$out" = "allowlist host none " ] && pass "bash: --network's values are offered" ||
	fail "bash: --network's values are offered" "$out"
out=$(bash_complete "ltd-native policy " | sort | tr '\n' ' ')
[ "$out" = "allow show " ] && pass "bash: policy's subcommands are offered" ||
	fail "bash: policy's subcommands are offered" "$out"
out=$(bash_complete "ltd-native run --ro-bind /usr /us")
[ "$out" = /usr ] && pass "bash: a bind's second argument is a path" ||
	fail "bash: a bind's second argument is a path" "$out"
out=$(bash_complete "ltd-rootfs " | sort | tr '\n' ' ')
[ "$out" = "$(printf '%s\n' $rfs_subs --help | sort | tr '\n' ' ')" ] &&
	pass "bash: ltd-rootfs's subcommands are offered" ||
	fail "bash: ltd-rootfs's subcommands are offered" "$out"

# --- zsh: its completion functions stubbed, the script's logic run -------
if command -v zsh >/dev/null; then
	zsh_complete() {
		zsh -f -c '
			compadd() {
				local a arr=0
				for a in "$@"; do
					[[ $a == -a ]] && { arr=1; continue }
					[[ $a == -- || ( $a == -* && $a != --* ) ]] && continue
					if ((arr)); then print -rl -- ${(P)a}; else print -r -- $a; fi
				done
			}
			_describe() { local e; for e in ${(P)4}; do print -r -- ${e%%:*}; done }
			_files() { print _files }
			_command_names() { print _command_names }
			_message() { : }
			words=(${=2}); [[ $2 == *" " ]] && words+=("")
			CURRENT=${#words} service=$words[1]
			source $1' _ "$comp/_ltd-native" "$1"
	}
	if zsh -n "$comp/_ltd-native"; then
		pass "zsh: the completion parses"
	else
		fail "zsh: the completion parses"
	fi
	out=$(zsh_complete "ltd-native run --net")
	missing=
	for o in $options; do
		printf '%s\n' "$out" | grep -qx -- "$o" || missing="$missing $o"
	done
	[ -z "$missing" ] && pass "zsh: every run option is offered" ||
		fail "zsh: every run option is offered" "missing:$missing"
	out=$(zsh_complete "ltd-native run --network " | sort | tr '\n' ' ')
	[ "$out" = "allowlist host none " ] && pass "zsh: --network's values are offered" ||
		fail "zsh: --network's values are offered" "$out"
	out=$(zsh_complete "ltd-native " | sort)
	missing=
	for s in $subs; do
		printf '%s\n' "$out" | grep -qx -- "$s" || missing="$missing $s"
	done
	[ -z "$missing" ] && pass "zsh: every subcommand is offered" ||
		fail "zsh: every subcommand is offered" "missing:$missing"
else
	skip "zsh completion" "zsh is not installed"
fi

# --- fish: its own completer -------------------------------------------
if command -v fish >/dev/null; then
	fish_complete() {
		fish --no-config -c "source $comp/ltd-native.fish; source $comp/ltd-rootfs.fish
			complete -C '$1'" | cut -f1
	}
	out=$(fish_complete "ltd-native run --net")
	[ "$out" = --network ] && pass "fish: ltd-native run --net<TAB> gives --network" ||
		fail "fish: ltd-native run --net<TAB> gives --network" "$out"
	out=$(fish_complete "ltd-native run --")
	missing=
	for o in $options; do
		printf '%s\n' "$out" | grep -qx -- "$o" || missing="$missing $o"
	done
	[ -z "$missing" ] && pass "fish: every run option is offered" ||
		fail "fish: every run option is offered" "missing:$missing"
	out=$(fish_complete "ltd-native run --network " | sort | tr '\n' ' ')
	[ "$out" = "allowlist host none " ] && pass "fish: --network's values are offered" ||
		fail "fish: --network's values are offered" "$out"
	out=$(fish_complete "ltd-native ")
	missing=
	for s in $subs; do
		printf '%s\n' "$out" | grep -qx -- "$s" || missing="$missing $s"
	done
	[ -z "$missing" ] && pass "fish: every subcommand is offered" ||
		fail "fish: every subcommand is offered" "missing:$missing"
else
	skip "fish completion" "fish is not installed"
fi

# --- the README's install lines name every build dependency ------------
# A newcomer pastes them: a library debian/control builds with but the
# line lacks makes `make` fail on a fresh machine (libpsl-dev did).
deps=$(sed -n '/^Build-Depends:/,/^[A-Z]/{/^ /p}' "$repo/debian/control" |
	tr -d ' ,' | sed 's/(.*//' | grep -v '^debhelper-compat$')
[ "$(echo "$deps" | wc -l)" -gt 10 ] ||
	fail "debian/control's Build-Depends are read" "$deps"
n=0
while IFS= read -r line; do
	n=$((n + 1)) missing=
	for d in $deps; do
		case " $line " in *" $d "*) ;; *) missing="$missing $d" ;; esac
	done
	[ -z "$missing" ] && pass "README install line $n names every build dependency" ||
		fail "README install line $n names every build dependency" "missing:$missing"
done < <(grep -E '^    sudo apt-get install -y [a-z]' "$repo/README.md" | sed 's/&&.*//')
[ "$n" -ge 2 ] || fail "README has its two install lines" "found $n"

echo
echo "docs: $PASSED passed, $FAILED failed, $SKIPPED skipped"
[ "$FAILED" -eq 0 ]
