#!/bin/sh
# The directories `make install` makes, and `make uninstall` takes away:
# uninstall removes exactly what install put there, directories included,
# and no directory that was there before (/usr/local/share/man/man1 may be
# the administrator's, empty or not).  So install records the directories
# it had to make, each missing ancestor too, in RECORD (a file in
# LIBEXECDIR, ltd-native's own directory), and uninstall removes those it
# finds empty, deepest first, and then LIBEXECDIR itself when empty.  A
# directory another program has since put a file in stays.
#   sh tools/installdirs.sh make DESTDIR RECORD DIR...
#   sh tools/installdirs.sh remove DESTDIR RECORD LIBEXECDIR
# RECORD and the DIRs are paths without DESTDIR; the record names them so.
set -eu
action=$1 destdir=$2 record=$3
shift 3

case $action in
make)
	new=
	for d in "$@"; do
		while [ -n "$d" ] && [ ! -d "$destdir$d" ]; do
			new="$new$d
"
			d=${d%/*}
		done
	done
	for d in "$@"; do
		install -d -m 755 "$destdir$d"
	done
	# A second install keeps what the first one made.
	old=
	[ -f "$destdir$record" ] && old=$(cat "$destdir$record")
	printf '%s\n%s' "$old" "$new" | grep -v '^$' | LC_ALL=C sort -r -u \
		>"$destdir$record.tmp" || true
	chmod 644 "$destdir$record.tmp"
	mv "$destdir$record.tmp" "$destdir$record"
	;;
remove)
	libexecdir=$1
	dirs=
	if [ -f "$destdir$record" ]; then
		dirs=$(cat "$destdir$record")
		rm -f "$destdir$record"
	fi
	# Deepest first (the record is sorted so): a parent after its children.
	printf '%s\n%s\n' "$libexecdir" "$dirs" | LC_ALL=C sort -r -u |
		while IFS= read -r d; do
			[ -n "$d" ] && [ -d "$destdir$d" ] &&
				rmdir "$destdir$d" 2>/dev/null || true
		done
	;;
*)
	echo "usage: installdirs.sh make|remove DESTDIR RECORD ..." >&2
	exit 2
	;;
esac
