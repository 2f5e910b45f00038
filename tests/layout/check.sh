#!/bin/sh
# The layout rules of lib/README.md, checked: every library file lies in a
# known group, includes only its own group or lower ones by their qualified
# names ("kernel/nl.h"), reports/ include nothing that probes, and no two
# files call each other round a circle (read from the objects' symbols).
# Usage: check.sh OBJDIR...   (the build folders whose *.o files to read)
set -u
cd "$(dirname "$0")/../.." || exit 2

# Lowest first; a group may include its own headers and those to its left.
ORDER="base doc kernel layers wire probe decide"
# Program folders that read documents only: no probing groups.
NOPROBE_DIRS="reports"
NOPROBE_GROUPS="wire probe"

fail=0
say() { printf 'layout: %s\n' "$*"; fail=1; }

rank() {
	i=0
	for g in $ORDER; do
		[ "$g" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
	echo -1
}

# 1. The groups on disk are the groups of ORDER, each named in lib/README.md.
for d in lib/*/; do
	g=$(basename "$d")
	[ "$(rank "$g")" -ge 0 ] || say "lib/$g/ is no group of ORDER ($ORDER)"
done
for g in $ORDER; do
	[ -d "lib/$g" ] || say "group $g has no folder lib/$g/"
	grep -q "^| \`$g/\`" lib/README.md 2>/dev/null ||
		say "lib/README.md has no row for $g/"
done

# 2. Includes inside lib/: qualified, and never to a higher group.
for f in lib/*/*.c lib/*/*.h; do
	[ -e "$f" ] || continue
	g=$(basename "$(dirname "$f")")
	r=$(rank "$g")
	grep -n '^#include "' "$f" | while IFS= read -r line; do
		n=${line%%:*}
		inc=$(printf '%s' "$line" | sed 's/^[0-9]*:#include "\([^"]*\)".*/\1/')
		case $inc in
		*/*) ig=${inc%%/*} ;;
		*) echo "$f:$n: '$inc' is not qualified with its group"; continue ;;
		esac
		ir=$(rank "$ig")
		if [ "$ir" -lt 0 ]; then
			echo "$f:$n: '$inc' is not a library header"
		elif [ "$ir" -gt "$r" ]; then
			echo "$f:$n: $g/ includes '$inc' of the higher group $ig/"
		fi
	done
done >"${TMPDIR:-/tmp}/layout.$$"
if [ -s "${TMPDIR:-/tmp}/layout.$$" ]; then
	sed 's/^/layout: /' "${TMPDIR:-/tmp}/layout.$$"
	fail=1
fi
rm -f "${TMPDIR:-/tmp}/layout.$$"

# 3. Folders that only read documents include nothing that probes.
for d in $NOPROBE_DIRS; do
	for g in $NOPROBE_GROUPS; do
		hits=$(grep -n "^#include \"$g/" "$d"/*.c "$d"/*.h 2>/dev/null)
		[ -z "$hits" ] || say "$d/ must not probe: $hits"
	done
done

# 4. Circles between files: an edge A -> B when A's object uses a symbol
# B's object defines; a circle is two files that reach each other.
[ $# -gt 0 ] || { say "no object folders given"; exit 1; }
# an object left behind by a source since removed says nothing
objs=$(find "$@" -name '*.o' ! -path '*/tests/*' 2>/dev/null | sort |
	while read -r o; do
		s=$(printf '%s' "$o" | sed 's,^[^/]*/,,; s,^ncgpu/,,; s,^nccpu/,,; s,\.o$,,')
		if [ -e "$s.c" ] || [ -e "$s.cu" ]; then echo "$o"; fi
	done)
[ -n "$objs" ] || { say "no objects under $*: build first"; exit 1; }
for o in $objs; do
	src=$(printf '%s' "$o" | sed 's,^[^/]*/,,; s,^ncgpu/,,; s,^nccpu/,,; s,\.o$,,')
	nm -P --defined-only "$o" 2>/dev/null |
		awk -v f="$src" '$2 ~ /^[TDBRCV]$/ {print "D", $1, f}'
	nm -P -u "$o" 2>/dev/null | awk -v f="$src" '{print "U", $1, f}'
done | awk '
$1 == "D" { def[$2] = $3; next }
$1 == "U" { nu++; uf[nu] = $3; us[nu] = $2 }
END {
	for (i = 1; i <= nu; i++) {
		s = us[i]; a = uf[i]
		if (!(s in def) || def[s] == a) continue
		b = def[s]
		if (!((a, b) in why)) { why[a, b] = s; out[a] = out[a] " " b }
		node[a] = 1; node[b] = 1
	}
	for (n in node) {
		# breadth-first reach from n
		delete seen; q = 1; t = 1; que[1] = n; seen[n] = 1
		while (q <= t) {
			c = que[q++]; k = split(out[c], nx, " ")
			for (j = 1; j <= k; j++)
				if (!(nx[j] in seen)) { seen[nx[j]] = 1; que[++t] = nx[j] }
		}
		for (m in seen) reach[n, m] = 1
	}
	bad = 0
	for (a in node) for (b in node)
		if (a < b && ((a, b) in why) && reach[b, a]) {
			printf "layout: circle: %s.c calls %s() in %s.c, and %s.c reaches back\n", a, why[a, b], b, b
			bad = 1
		} else if (a > b && ((a, b) in why) && reach[b, a] && !((b, a) in why)) {
			printf "layout: circle: %s.c calls %s() in %s.c, and %s.c reaches back\n", a, why[a, b], b, b
			bad = 1
		}
	exit bad
}' || fail=1

if [ "$fail" = 0 ]; then
	echo "layout: ok: groups $ORDER; $(echo "$objs" | wc -l) objects, no circle"
fi
exit $fail
