#!/bin/sh
# A man page's scdoc source from its template, with what is generated from
# the program filled in, so that the page cannot drift from the program:
#   @VERSION@   the version (VERSION)
#   @SYNOPSIS@  the usage lines of `PROGRAM --help`
#   @OPTIONS@   ltd-native's run options, from the option table
#               (`ltd-native --complete-options`, policy/optdump.c)
#
#   sh tools/mkman.sh TEMPLATE VERSION_FILE LTD_NATIVE PROGRAM > OUT.scd
set -eu
template=$1 version=$(cat "$2") ltd=$3 prog=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# scdoc's markup in text from the program: * and _ stand for themselves.
esc() { sed -e 's/\\/\\\\/g' -e 's/\*/\\*/g' -e 's/_/\\_/g'; }

# The usage lines ("usage: P ..." and the "       P ..." under it), each
# a line of the synopsis with a hard line break.
"$prog" --help | awk '
	/^usage: / { on = 1; sub(/^usage: /, "") }
	on && /^ *$/ { exit }
	on { sub(/^ +/, ""); print }' | esc | sed -e 's/^\([a-z-]*\) /*\1* /' -e '$!s/$/++/' >"$tmp/synopsis"

# One entry per option: the flag and its arguments, then the help text
# and what the flags say, indented.
"$ltd" --complete-options | awk -F '\t' '
	function esc(s) {
		gsub(/\\/, "\\\\", s); gsub(/\*/, "\\*", s); gsub(/_/, "\\_", s)
		return s
	}
	{
		head = "*" esc($1) "*"
		if ($3 != "-")
			head = head " _" esc($3) "_"
		text = esc($5) "."
		if ($4 ~ /list/)
			text = text " May be given more than once."
		if ($4 ~ /cli-only/)
			text = text " Only on the command line."
		else if ($4 ~ /not-project/)
			text = text " Not in a project'"'"'s policy file."
		print head
		print "\t" text
		print ""
	}' >"$tmp/options"

awk -v version="$version" -v syn="$tmp/synopsis" -v opts="$tmp/options" '
	function cat(f,   l) { while ((getline l < f) > 0) print l; close(f) }
	/^@SYNOPSIS@$/ { cat(syn); next }
	/^@OPTIONS@$/ { cat(opts); next }
	{ gsub(/@VERSION@/, version); print }' "$template"
