#!/bin/sh
# Every file, folder and function that a contributor's page names in
# backquotes exists in the tree, so the house style never points at
# examples that are not there (issue 37). Usage: docrefs.sh [PAGE...]
# (default CONTRIBUTING.md), run from the repository root; exit 1 names
# each missing reference with its line.
set -u
[ $# -gt 0 ] || set -- CONTRIBUTING.md
files=$(git ls-files 2>/dev/null) || { echo "docrefs: not a git checkout" >&2; exit 2; }
[ -n "$files" ] || { echo "docrefs: no tracked files" >&2; exit 2; }
bad=0
for page in "$@"; do
	[ -r "$page" ] || { echo "docrefs: cannot read '$page'" >&2; exit 2; }
	# One reference a line: LINE<TAB>TOKEN, from every `...` span. Fenced
	# blocks are examples of what to write, not references.
	refs=$(awk '
		/^[ \t]*```/ { fence = !fence; next }
		fence { next }
		{
			s = $0
			while (match(s, /`[^`]+`/)) {
				printf "%d\t%s\n", NR, substr(s, RSTART + 1, RLENGTH - 2)
				s = substr(s, RSTART + RLENGTH)
			}
		}' "$page")
	while IFS='	' read -r line tok; do
		[ -n "$tok" ] || continue
		case $tok in
		*" "* | -* | /* | *'$'* | *'*'* | *=* | *'<'* ) continue ;;
		# Names of other projects' files, given for comparison.
		git.c) continue ;;
		esac
		# A schema name (`netprobe-report/1`) is no path.
		printf '%s\n' "$tok" | grep -Eq '^[a-z-]+/[0-9]+$' && continue
		kind=
		case $tok in
		*.c | *.h | *.sh | *.md | *.def | *.mk | *.cu | *.py | */*) kind=path ;;
		esac
		if [ -z "$kind" ] &&
			printf '%s\n' "$tok" | grep -Eq '^[a-z][a-z0-9]*_[a-z0-9_]+(\(\))?$'; then
			kind=func
		fi
		case $kind in
		path)
			p=${tok%/}
			# A path from the root, or the tail of a tracked path
			# (`scan/` for probes/scan/, `pf_decide.c`).
			if printf '%s\n' "$files" | grep -Eq "(^|/)$(printf '%s' "$p" | sed 's/[.[\]/\\&/g')(/|\$)"; then
				continue
			fi ;;
		func)
			name=${tok%()}
			if git grep -qw -e "$name" -- '*.c' '*.h' '*.cu' 2>/dev/null; then
				continue
			fi ;;
		*) continue ;;
		esac
		echo "$page:$line: '$tok' names no $kind in the tree"
		bad=1
	done <<EOT
$refs
EOT
done
[ $bad -eq 0 ] && echo "docrefs: every reference of $* exists"
exit $bad
