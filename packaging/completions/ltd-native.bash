# bash completion for ltd-native and ltd-rootfs                -*- sh -*-
#
# Nothing here lists ltd-native's options or subcommands: they are asked
# of the program being completed, so that they cannot drift from it.
#   ltd-native --complete-options   the run options (policy/optdump.c)
#   ltd-native --help               the usage lines: the subcommands
#   ltd-native ps --json            running named cages
#   ltd-native review --json        pending reviews (where it exists)
#   ltd-rootfs list                 pinned root filesystems

# The program in the command line, as a path bash can run; empty if none.
_ltd_native_prog()
{
	local p=$1
	[[ $p == "~/"* ]] && p=$HOME/${p#"~/"}
	[[ $p == */* ]] || p=$(type -P -- "$p" 2>/dev/null)
	[[ -n $p && -x $p ]] && printf '%s\n' "$p"
}

# Names from a JSON listing: every "name":"..." value made only of the
# characters ltd-native allows in a name.
_ltd_native_json_names()
{
	"$@" 2>/dev/null | grep -o '"name": *"[A-Za-z0-9_.-]*"' |
		sed 's/.*"\([^"]*\)"$/\1/'
}

_ltd_native_cages()
{
	_ltd_native_json_names "$1" ps --json
}

_ltd_native_reviews()
{
	_ltd_native_json_names "$1" review --json
}

# Pin names and digests, from `ltd-rootfs list` (next to ltd-native, or
# on PATH).
_ltd_native_pins()
{
	local rfs=${1%/*}/ltd-rootfs
	[[ -x $rfs ]] || rfs=$(type -P ltd-rootfs 2>/dev/null) || return
	"$rfs" list 2>/dev/null | awk -F '\t' '
		$1 != "-" { print $1 } { print $2 }'
}

# The subcommands (second words of the usage lines), or with $2 the words
# that may follow subcommand $2 (`policy show`).
_ltd_native_subcommands()
{
	"$1" --help 2>/dev/null | awk -v want="${2:-}" '
		/^usage: / { on = 1; sub(/^usage: /, "") }
		on && /^ *$/ { exit }
		on {
			sub(/^ +/, "")
			w = (want == "") ? $2 : ($2 == want ? $3 : "")
			if (w ~ /^[a-z][a-z-]*$/) print w
		}' | sort -u
}

# A colon splits words for bash: sha256:HEX is offered past it.
_ltd_native_colons()
{
	declare -F __ltrim_colon_completions >/dev/null &&
		__ltrim_colon_completions "$1"
	return 0
}

_ltd_native_values()
{
	local prog=$1 opt=$2 metavar=$3 cur=$4
	case $opt in
	--network)
		COMPREPLY=($(compgen -W 'allowlist none host' -- "$cur"))
		return ;;
	--rootfs)
		COMPREPLY=($(compgen -W "$(_ltd_native_pins "$prog")" -- "$cur"))
		_ltd_native_colons "$cur"
		return ;;
	--review)
		COMPREPLY=($(compgen -W "$(_ltd_native_reviews "$prog")" -- "$cur"))
		return ;;
	esac
	case $metavar in
	DIR)
		COMPREPLY=($(compgen -d -- "$cur")) ;;
	*FILE* | SRC* | DST | PATH*)
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	*)
		COMPREPLY=() ;;
	esac
}

# The run options: "--" then a word, or values after an option that takes
# some.  Sets COMPREPLY.
_ltd_native_run()
{
	local prog=$1 cur=$2 prev=$3 prev2=$4 name nargs metavar rest opts=
	while IFS=$'\t' read -r name nargs metavar rest; do
		if [[ $prev == "$name" && $nargs -ge 1 ]]; then
			[[ $metavar == "SRC DST" ]] && metavar=SRC
			_ltd_native_values "$prog" "$name" "$metavar" "$cur"
			return
		fi
		if [[ $prev2 == "$name" && $nargs -eq 2 ]]; then
			_ltd_native_values "$prog" "$name" "${metavar#* }" "$cur"
			return
		fi
		opts+=" $name"
	done < <("$prog" --complete-options 2>/dev/null)
	COMPREPLY=($(compgen -W "$opts --help --" -- "$cur"))
}

_ltd_native()
{
	local cur prev words cword
	if declare -F _init_completion >/dev/null; then
		_init_completion -n : || return
	else
		words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
		cur=${words[cword]} prev=${words[cword - 1]}
	fi
	local prog sub= i arg=0
	prog=$(_ltd_native_prog "${words[0]}") || return

	# The subcommand, and after "--" the command to run.
	for ((i = 1; i < cword; i++)); do
		if [[ ${words[i]} == -- && -n $sub ]]; then
			if ((i == cword - 1)); then
				COMPREPLY=($(compgen -c -- "$cur"))
			else
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
			return
		fi
		if [[ -z $sub && ${words[i]} != -* ]]; then
			sub=${words[i]}
		elif [[ -n $sub && ${words[i]} != -* ]]; then
			((arg++))
		fi
	done

	case $sub in
	'')
		COMPREPLY=($(compgen -W "$(_ltd_native_subcommands "$prog") --help --version" -- "$cur")) ;;
	run)
		_ltd_native_run "$prog" "$cur" "$prev" "${words[cword - 2]}" ;;
	policy)
		if ((arg == 0)); then
			COMPREPLY=($(compgen -W "$(_ltd_native_subcommands "$prog" policy)" -- "$cur"))
		else
			_ltd_native_run "$prog" "$cur" "$prev" "${words[cword - 2]}"
		fi ;;
	exec | kill)
		if ((arg == 0)); then
			COMPREPLY=($(compgen -W "$(_ltd_native_cages "$prog")" -- "$cur"))
		elif [[ $sub == kill ]]; then
			COMPREPLY=($(compgen -W 'INT TERM HUP QUIT USR1 USR2 WINCH KILL' -- "$cur"))
		else
			COMPREPLY=($(compgen -W '--' -- "$cur"))
		fi ;;
	review | diff | apply | discard)
		if ((arg == 0)); then
			COMPREPLY=($(compgen -W "$(_ltd_native_reviews "$prog") --json" -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi ;;
	ps | doctor)
		COMPREPLY=($(compgen -W '--json' -- "$cur")) ;;
	esac
}

_ltd_rootfs()
{
	local cur prev words cword
	if declare -F _init_completion >/dev/null; then
		_init_completion -n : || return
	else
		words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
		cur=${words[cword]} prev=${words[cword - 1]}
	fi
	local prog sub=${words[1]:-}
	prog=$(_ltd_native_prog "${words[0]}") || return
	if ((cword == 1)); then
		COMPREPLY=($(compgen -W "$(_ltd_native_subcommands "$prog") --help" -- "$cur"))
		return
	fi
	case $sub:$prev in
	import:--* | build:--*)
		COMPREPLY=() ;;
	import:*)
		if ((cword == 3)); then
			COMPREPLY=($(compgen -f -- "$cur"))
		else
			COMPREPLY=($(compgen -W '--digest --max-bytes --max-file-bytes --max-entries --max-layers --max-depth' -- "$cur"))
		fi ;;
	build:*)
		((cword > 2)) &&
			COMPREPLY=($(compgen -W '--suite --packages --mirror --source-date-epoch' -- "$cur")) ;;
	verify:* | rm:*)
		((cword == 2)) &&
			COMPREPLY=($(compgen -W "$(_ltd_native_pins "$prog")" -- "$cur")) &&
			_ltd_native_colons "$cur" ;;
	esac
}

complete -F _ltd_native ltd-native
complete -F _ltd_rootfs ltd-rootfs
