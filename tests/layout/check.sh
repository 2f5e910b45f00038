#!/bin/sh
# The layout rules of lib/README.md, checked over every C file of the
# project (lib/, probes/, collectives/, reports/ and tests' own headers):
#  1. every library file lies in a known group, named in lib/README.md;
#  2. a library file includes only its own group or lower ones, by their
#     qualified names ("kernel/nl.h"), and no program's header;
#  3. reports/ include nothing that probes;
#  4. no header includes itself round a circle (read from #include lines);
#  5. no library file calls a function of a higher group or of a program
#     (read from the objects' symbols);
#  6. no two files call each other round a circle (symbols);
#  7. no two groups depend on each other round a circle (includes and
#     symbols together; a group is lib/<group>/ or a program's folder);
#  8. findings are raised by deciders only (collect, decide, emit): no
#     object but those of RAISERS calls doc_add_finding (symbols);
#  9. no two stages of a program depend on each other round a circle
#     (includes and symbols): a stage is a subfolder (probes/scan/,
#     collectives/results/, reports/decide/) or a file directly in the
#     program's folder (collectives/nc.h, probes/netprobe.c,
#     reports/report.h);
# 10. the staged folder (STAGED, reports/) holds only the stage folders
#     of STAGE_ORDER besides its top files, and a file of one stage
#     includes headers of, and calls functions of, only its own stage and
#     earlier ones (load < merge < decide < model < render); the top
#     files (report.c, report.h, util.c) are no stage, and rule 9 keeps
#     them out of any circle;
# 11. no source file (*.c, *.h, *.cu, *.py, *.sh; tests/fixtures/ aside)
#     is over MAXLINES lines: a longer one holds more than one job.
# Usage: check.sh OBJDIR...   (the build folders whose *.o files to read)
set -u
cd "$(dirname "$0")/../.." || exit 2

# Lowest first; a group may include its own headers and those to its left.
ORDER="base doc kernel layers wire probe decide"
# Program folders that read documents only: no probing groups.
NOPROBE_DIRS="reports"
NOPROBE_GROUPS="wire probe"
# The sources that may raise a finding (extended regular expressions over
# the path without .c): the deciders, and the two emitters of findings
# decided elsewhere (explain's NCCL RAS dump, ncclcheck's results).
RAISERS=${LAYOUT_RAISERS:-'^lib/decide/|^lib/layers/layers_findings$|^reports/decide|^probes/explain/explain_out$|^collectives/results/output$'}
# The program folder made of stage folders, and its stages in the order
# calls go (the Makefile's REPORT_STAGES).
STAGED=${LAYOUT_STAGED:-reports}
STAGE_ORDER=${LAYOUT_STAGE_ORDER:-load merge decide model render}
# The most lines a source file may have.
MAXLINES=${LAYOUT_MAXLINES:-900}
# The folders read, and where `#include "x.h"` is looked for after the
# including file's folder (the -I options of the Makefile, each stage
# folder among them, and of mk/ncclcheck.mk); the self-test names its own.
DIRS=${LAYOUT_DIRS:-lib probes collectives reports tests}
INCDIRS=${LAYOUT_INCDIRS:-lib probes reports collectives}
for s in $STAGE_ORDER; do INCDIRS="$INCDIRS $STAGED/$s"; done

fail=0
say() { printf 'layout: %s\n' "$*"; fail=1; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

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

# Every C file of the project; program folders may have subfolders.
# shellcheck disable=SC2086
find $DIRS \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) -type f 2>/dev/null |
	sed 's,^\./,,' | sort >"$tmp/files"
[ -s "$tmp/files" ] || { say "no C files found"; exit 1; }

# The include edges "FROM TO", each resolved as the compiler would: the
# including file's folder, then INCDIRS; an include of no project file (a
# generated one, a system one in quotes) is left out.
# shellcheck disable=SC2046
awk -v incdirs="$INCDIRS" '
NR == FNR { have[$0] = 1; next }
/^[ \t]*#[ \t]*include[ \t]*"/ {
	inc = $0
	sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
	dir = FILENAME; sub(/\/[^\/]*$/, "", dir)
	n = split(incdirs, extra, " ")
	cand[0] = dir "/" inc
	for (i = 1; i <= n; i++) cand[i] = extra[i] "/" inc
	for (i = 0; i <= n; i++) {
		p = norm(cand[i])
		if (p in have) { print FILENAME, p, FNR, inc; break }
	}
}
function norm(p,   k, i, o, part, m) {
	k = split(p, part, "/"); m = 0
	for (i = 1; i <= k; i++) {
		if (part[i] == "." || part[i] == "") continue
		if (part[i] == ".." && m > 0) { m--; continue }
		o[++m] = part[i]
	}
	p = ""
	for (i = 1; i <= m; i++) p = p (i > 1 ? "/" : "") o[i]
	return p
}' "$tmp/files" $(cat "$tmp/files") >"$tmp/incs"

# 2. Includes inside lib/: qualified, and never to a higher group nor to a
# program's header.
grep '^lib/[^/]*/' "$tmp/files" | xargs grep -n '^#include "' /dev/null |
	awk -v order="$ORDER" '
BEGIN { n = split(order, o, " "); for (i = 1; i <= n; i++) rk[o[i]] = i }
{
	f = $0; sub(/:.*/, "", f)
	line = $0; sub(/^[^:]*:/, "", line); n = line; sub(/:.*/, "", n)
	inc = line; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
	split(f, p, "/"); g = p[2]
	if (inc !~ /\//) {
		printf "layout: %s:%s: \047%s\047 is not qualified with its group\n", f, n, inc
		bad = 1; next
	}
	ig = inc; sub(/\/.*/, "", ig)
	if (!(ig in rk)) {
		printf "layout: %s:%s: \047%s\047 is not a library header\n", f, n, inc
		bad = 1
	} else if (rk[ig] > rk[g]) {
		printf "layout: %s:%s: %s/ includes \047%s\047 of the higher group %s/\n", f, n, g, inc, ig
		bad = 1
	}
}
END { exit bad }' || fail=1

# 3. Folders that only read documents include nothing that probes.
for d in $NOPROBE_DIRS; do
	[ -d "$d" ] || continue
	for g in $NOPROBE_GROUPS; do
		hits=$(grep -rn --include='*.[ch]' "^#include \"$g/" "$d" 2>/dev/null)
		[ -z "$hits" ] || say "$d/ must not probe: $hits"
	done
done

# 4. Header circles: a header that reaches itself through #include lines.
awk '$1 ~ /\.h$/ && $2 ~ /\.h$/ { print $1, $2 }' "$tmp/incs" | awk '
{ out[$1] = out[$1] " " $2; node[$1] = 1; node[$2] = 1 }
END {
	bad = 0
	for (n in node) {
		# depth-first from n, keeping the path, to name one circle
		delete seen; top = 1; stk[1] = n; idx[1] = 0; path[1] = n
		seen[n] = 1
		while (top > 0) {
			c = stk[top]; k = split(out[c], nx, " ")
			if (idx[top] >= k) { top--; continue }
			m = nx[++idx[top]]
			if (m == n) {
				s = ""
				for (i = 1; i <= top; i++) s = s path[i] " -> "
				key = circle_key(s)
				if (!(key in said)) {
					said[key] = 1
					printf "layout: header circle: %s%s\n", s, n
					bad = 1
				}
				continue
			}
			if (m in seen) continue
			seen[m] = 1; top++; stk[top] = m; idx[top] = 0; path[top] = m
		}
	}
	exit bad
}
# the same circle found from each of its headers is named once
function circle_key(s,   k, p, i, a, j, t) {
	k = split(s, p, " -> ")
	for (i = 1; i < k; i++) a[i] = p[i]
	for (i = 1; i < k; i++) for (j = i + 1; j < k; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	t = ""
	for (i = 1; i < k; i++) t = t " " a[i]
	return t
}' || fail=1

# The symbol edges, from the objects: "S FROM TO SYMBOL" when FROM's object
# uses a symbol TO's object defines (sources without their extension).
[ $# -gt 0 ] || { say "no object folders given"; exit 1; }
# an object left behind by a source since removed says nothing
objs=$(find "$@" -name '*.o' ! -path '*/tests/*' 2>/dev/null | sort | awk '
function there(f,   l) { if ((getline l < f) >= 0) { close(f); return 1 } return 0 }
{
	s = $0; sub(/^[^\/]*\//, "", s); sub(/^ncgpu[^\/]*\//, "", s)
	sub(/^nccpu\//, "", s); sub(/\.o$/, "", s)
	if (there(s ".c") || there(s ".cu")) print
}')
[ -n "$objs" ] || { say "no objects under $*: build first"; exit 1; }
# one nm for all objects: "OBJECT: SYMBOL TYPE ..." lines
# shellcheck disable=SC2086
{
	nm -A -P --defined-only $objs 2>/dev/null |
		awk '$3 ~ /^[TDBRCV]$/ { o = $1; sub(/:$/, "", o); print "D", $2, o }'
	nm -A -P -u $objs 2>/dev/null |
		awk '{ o = $1; sub(/:$/, "", o); print "U", $2, o }'
} | sed 's,^\([DU] [^ ]* \)[^/]*/,\1,; s,^\([DU] [^ ]* \)ncgpu[^/]*/,\1,;
	s,^\([DU] [^ ]* \)nccpu/,\1,; s,\.o$,,' | awk '
$1 == "D" { def[$2] = $3; next }
$1 == "U" { nu++; uf[nu] = $3; us[nu] = $2 }
END {
	for (i = 1; i <= nu; i++)
		if ((us[i] in def) && def[us[i]] != uf[i])
			print "S", uf[i], def[us[i]], us[i]
}' | sort -u >"$tmp/syms"

# 5. Library files call only their own group and lower ones.
awk -v order="$ORDER" '
BEGIN { n = split(order, o, " "); for (i = 1; i <= n; i++) rk[o[i]] = i }
function grp(f,   p) {
	if (f ~ /^lib\/[^\/]+\//) { split(f, p, "/"); return p[2] }
	split(f, p, "/"); return p[1]
}
{
	a = grp($2); b = grp($3)
	if ($2 !~ /^lib\// || a == b) next
	if (!(b in rk))
		printf "layout: %s.c calls %s() in %s.c: the library calls into the program %s/\n", $2, $4, $3, b
	else if (rk[b] > rk[a])
		printf "layout: %s.c calls %s() in %s.c of the higher group %s/\n", $2, $4, $3, b
	else next
	bad = 1
}
END { exit bad }' "$tmp/syms" || fail=1

# 6. Circles between files: an edge A -> B when A's object uses a symbol
# B's object defines; a circle is two files that reach each other.
awk '
{ a = $2; b = $3
  if (!((a, b) in why)) { why[a, b] = $4; out[a] = out[a] " " b }
  node[a] = 1; node[b] = 1 }
END {
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
}' "$tmp/syms" || fail=1

# The edges and circles of 7 and 9, one awk text: the caller's awk
# defines node_of(file) (its node, "" for none) and joined(a, b) (an
# edge between two nodes counts), and passes what (the word printed).
CIRCLES='
{
	a = node_of($2); b = node_of($3)
	if (a == "" || b == "" || a == b || !joined(a, b)) next
	if (!((a, b) in why))
		why[a, b] = ($1 == "I" ? $2 " includes \"" $4 "\"" \
		                       : $2 ".c calls " $4 "() in " $3 ".c")
	if (!((a, b) in edge)) { edge[a, b] = 1; out[a] = out[a] " " b }
	node[a] = 1; node[b] = 1
}
END {
	for (n in node) {
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
		if (a < b && reach[a, b] && reach[b, a]) {
			printf "layout: " what " circle: %s and %s depend on each other", a, b
			if ((a, b) in why) printf " (%s", why[a, b]
			else printf " (%s reaches %s", a, b
			if ((b, a) in why) printf "; %s)\n", why[b, a]
			else printf "; %s reaches %s)\n", b, a
			bad = 1
		}
	exit bad
}'

# 7. Circles between groups, from includes and symbols together: group A
# depends on B when one of A's files includes a header of B or calls a
# function B defines. Tests are no group: they may use anything.
{
	awk '{ print "I", $1, $2, $4 }' "$tmp/incs"
	cat "$tmp/syms"
} | awk -v what=group '
function node_of(f,   p) {
	if (f ~ /^tests\//) return ""
	if (f ~ /^lib\/[^\/]+\//) { split(f, p, "/"); return p[2] "/" }
	split(f, p, "/"); return p[1] "/"
}
function joined(a, b) { return 1 }
'"$CIRCLES" || fail=1

# 8. Only deciders raise findings: a probe collects, a decider judges.
awk -v ok="$RAISERS" '
$4 == "doc_add_finding" && $2 !~ ok {
	printf "layout: %s.c raises a finding (doc_add_finding): a probe collects facts, a decider of lib/decide/ raises it\n", $2
	bad = 1
}
END { exit bad }' "$tmp/syms" || fail=1

# 9. Circles between a program's stages, as 7 between groups: stage A
# depends on B when one of A's files includes a header of B or calls a
# function B defines. The library and tests are no stage.
{
	awk '{ print "I", $1, $2, $4 }' "$tmp/incs"
	cat "$tmp/syms"
} | awk -v what=stage '
function node_of(f,   p, k, s) {
	if (f ~ /^(tests|lib)\//) return ""
	k = split(f, p, "/")
	if (k >= 3) return p[1] "/" p[2] "/"
	if (k != 2) return ""
	# a header directly in the folder (nc.h, report.h) holds the types
	# every stage shares: a node of its own
	s = p[2]
	return s ~ /\.h$/ ? f : p[1] "/" substr(s, 1, index(s ".", ".") - 1)
}
# stages of one program only: probes/ and collectives/ never meet
function joined(a, b,   pa, pb) {
	split(a, pa, "/"); split(b, pb, "/")
	return pa[1] == pb[1]
}
'"$CIRCLES" || fail=1

# 10. The staged folder's stages, in their order: no folder but theirs,
# and no include of, nor call into, a later stage.
if [ -d "$STAGED" ]; then
	for d in "$STAGED"/*/; do
		[ -d "$d" ] || continue
		s=$(basename "$d")
		case " $STAGE_ORDER " in
		*" $s "*) ;;
		*) say "$STAGED/$s/ is no stage of $STAGED/ ($STAGE_ORDER)" ;;
		esac
	done
fi
{
	awk '{ print "I", $1, $2, $4 }' "$tmp/incs"
	cat "$tmp/syms"
} | awk -v staged="$STAGED" -v order="$STAGE_ORDER" '
BEGIN { n = split(order, o, " "); for (i = 1; i <= n; i++) rk[o[i]] = i }
# the stage of a file of the staged folder, "" for a top file or another
function stage(f,   p, k) {
	k = split(f, p, "/")
	return (k >= 3 && p[1] == staged && (p[2] in rk)) ? p[2] : ""
}
{
	a = stage($2); b = stage($3)
	if (a == "" || b == "" || rk[b] <= rk[a]) next
	if ($1 == "I")
		printf "layout: %s includes \"%s\" of the later stage %s/%s/ (stages in order: %s)\n", $2, $4, staged, b, order
	else
		printf "layout: %s.c calls %s() in %s.c of the later stage %s/%s/ (stages in order: %s)\n", $2, $4, $3, staged, b, order
	bad = 1
}
END { exit bad }' || fail=1

# 11. No source file over MAXLINES lines: the tracked ones in a checkout
# (nothing generated or left over), every one found elsewhere (the
# self-test's tree).
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -- '*.c' '*.h' '*.cu' '*.py' '*.sh'
else
	find . \( -name .git -o -name 'build*' \) -prune -o -type f \
		\( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.py' \
		-o -name '*.sh' \) -print | sed 's,^\./,,'
fi | grep -v '^tests/fixtures/' | while IFS= read -r f; do
	[ -f "$f" ] || continue
	n=$(wc -l <"$f")
	[ "$n" -le "$MAXLINES" ] ||
		echo "layout: $f is $n lines, over $MAXLINES: split it by job"
done >"$tmp/long"
[ ! -s "$tmp/long" ] || { cat "$tmp/long"; fail=1; }

if [ "$fail" = 0 ]; then
	echo "layout: ok: groups $ORDER; stages $STAGED/{$(echo $STAGE_ORDER | tr ' ' ',')};" \
		"$(wc -l <"$tmp/files") files," \
		"$(wc -l <"$tmp/incs") includes, $(echo "$objs" | wc -l) objects," \
		"no circle between headers, files, groups or stages," \
		"no file over $MAXLINES lines"
fi
exit $fail
