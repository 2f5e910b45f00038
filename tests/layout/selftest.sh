#!/bin/sh
# Proves check.sh catches what it is for: a tree with an upward include, a
# circle between two files, a circle between headers, a library file that
# calls a higher group, a circle between two groups made of files that
# are no circle themselves, the same between two subfolders of a program
# and between two stage folders of the staged folder (a decide file that
# includes a render header, and a render file that calls decide), a call
# into a later stage, a folder that is no stage, a file over the line
# limit, and a finding raised outside a decider must fail with each
# named; the same tree without them must pass.
set -u
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/tests/layout" "$t/prog/s1" "$t/prog/s2" "$t/other" \
	"$t/obj/prog/s1" "$t/obj/prog/s2" "$t/obj/other" \
	"$t/obj/lib/base" "$t/obj/lib/doc" "$t/obj/lib/decide"
for s in decide render merge model extra; do
	mkdir -p "$t/other/$s" "$t/obj/other/$s"
done
cp "$here/check.sh" "$t/tests/layout/"
for g in base doc kernel layers wire probe decide; do
	mkdir -p "$t/lib/$g"
	echo "| \`$g/\` | x | y |" >>"$t/lib/README.md"
done
cc_all() {
	for f in "$t"/prog/*.c "$t"/prog/*/*.c "$t"/other/*.c "$t"/other/*/*.c \
		"$t"/lib/base/*.c \
		"$t"/lib/doc/*.c "$t"/lib/decide/*.c; do
		[ -e "$f" ] || continue
		s=${f#"$t"/}
		cc -c -I"$t/lib" -I"$t/other/render" -o "$t/obj/${s%.c}.o" "$f" ||
			exit 2
	done
}
# an upward include
echo 'int up(void);' >"$t/lib/decide/up.h"
printf '#include "decide/up.h"\nint low(void) { return 1; }\n' >"$t/lib/base/low.c"
# a library call upward, declared by hand so no include says so
printf 'int high(void) { return 3; }\n' >"$t/lib/decide/high.c"
printf 'int high(void);\nint low2(void);\nint low2(void) { return high(); }\n' \
	>"$t/lib/base/low2.c"
# a circle between two files
printf 'int b(void);\nint a(void) { return b(); }\n' >"$t/prog/a.c"
printf 'int a(void);\nint b(void) { return a(); }\n' >"$t/prog/b.c"
# a circle between headers
printf '#include "h2.h"\n' >"$t/prog/h1.h"
printf '#include "h1.h"\n' >"$t/prog/h2.h"
# a circle between groups: prog/c.c calls other/d.c, other/e.c calls
# prog/f.c; no two files reach each other
printf 'int d(void);\nint c(void) { return d(); }\n' >"$t/prog/c.c"
printf 'int d(void) { return 4; }\n' >"$t/other/d.c"
printf 'int f(void);\nint e(void) { return f(); }\n' >"$t/other/e.c"
printf 'int f(void) { return 6; }\n' >"$t/prog/f.c"
# a circle between two subfolders of one program: prog/s1/x.c calls
# prog/s2/y.c, prog/s2/z.c calls prog/s1/w.c; no two files reach each
# other, and both are the group prog/
printf 'int y(void);\nint x(void) { return y(); }\n' >"$t/prog/s1/x.c"
printf 'int y(void) { return 8; }\n' >"$t/prog/s2/y.c"
printf 'int w(void);\nint z(void) { return w(); }\n' >"$t/prog/s2/z.c"
printf 'int w(void) { return 9; }\n' >"$t/prog/s1/w.c"
# a circle between two stage folders of the staged folder other/, through
# a later stage's header: other/decide/da.c includes render_b.h of
# other/render/, other/render/rc.c calls other/decide/dd.c
printf 'int rb(void);\n' >"$t/other/render/render_b.h"
printf '#include "render_b.h"\nint da(void) { return 1; }\n' >"$t/other/decide/da.c"
printf 'int dd(void);\nint rc(void) { return dd(); }\n' >"$t/other/render/rc.c"
printf 'int dd(void) { return 2; }\n' >"$t/other/decide/dd.c"
# a call into a later stage, declared by hand so no include says so, and
# a folder of other/ that is no stage
printf 'int mo(void);\nint mc(void) { return mo(); }\n' >"$t/other/merge/mc.c"
printf 'int mo(void) { return 3; }\n' >"$t/other/model/mo.c"
printf 'int ex(void) { return 4; }\n' >"$t/other/extra/ex.c"
# a script of 901 lines
seq 901 | sed 's/^/: /' >"$t/other/long.sh"
# a finding raised by a program's file; a decider's is allowed
printf 'int doc_add_finding(void);\nint doc_add_finding(void) { return 0; }\n' \
	>"$t/lib/doc/doc.c"
printf 'int doc_add_finding(void);\nint g(void) { return doc_add_finding(); }\n' \
	>"$t/prog/g.c"
printf 'int doc_add_finding(void);\nint r(void) { return doc_add_finding(); }\n' \
	>"$t/lib/decide/raise.c"
rm -f "$t"/obj/*/*.o "$t"/obj/*/*/*.o
cc_all
fail=0
export LAYOUT_DIRS="lib prog other tests" LAYOUT_INCDIRS="lib prog other" \
	LAYOUT_STAGED="other" LAYOUT_STAGE_ORDER="load merge decide model render" \
	LAYOUT_MAXLINES=900
out=$(sh "$t/tests/layout/check.sh" obj 2>&1)
# expect WHAT PATTERN: one line per catch
expect() {
	case $out in
	*"$2"*) echo "ok - $1 caught" ;;
	*) echo "not ok - $1 missed: $out"; fail=1 ;;
	esac
}
expect "upward include" "base/ includes 'decide/up.h' of the higher group"
expect "upward call" "lib/base/low2.c calls high() in lib/decide/high.c of the higher group decide/"
expect "file circle" "circle: prog/a.c calls b() in prog/b.c"
expect "header circle" "header circle: prog/h"
expect "group circle" "group circle: other/ and prog/ depend on each other (other/e.c calls f() in prog/f.c; prog/c.c calls d() in other/d.c)"
expect "subfolder circle" "stage circle: prog/s1/ and prog/s2/ depend on each other (prog/s1/x.c calls y() in prog/s2/y.c; prog/s2/z.c calls w() in prog/s1/w.c)"
expect "circle between stage folders" "stage circle: other/decide/ and other/render/ depend on each other (other/decide/da.c includes \"render_b.h\"; other/render/rc.c calls dd() in other/decide/dd.c)"
expect "include of a later stage" "layout: other/decide/da.c includes \"render_b.h\" of the later stage other/render/"
expect "call into a later stage" "layout: other/merge/mc.c calls mo() in other/model/mo.c of the later stage other/model/"
expect "folder that is no stage" "layout: other/extra/ is no stage of other/"
expect "file over the line limit" "layout: other/long.sh is 901 lines, over 900"
expect "finding outside a decider" "layout: prog/g.c raises a finding (doc_add_finding)"
case $out in
*"raise.c raises"*)
	echo "not ok - a decider's finding was refused: $out"; fail=1 ;;
*) echo "ok - a decider raises findings" ;;
esac
case $out in
*"circle: prog/c.c"* | *"circle: other/"*"reaches back"* | \
	*"circle: prog/s"*"reaches back"*)
	echo "not ok - the group circle's files called a file circle: $out"; fail=1 ;;
*) echo "ok - a group circle is not a file circle" ;;
esac
# the same tree without them passes
printf 'int low(void) { return 1; }\n' >"$t/lib/base/low.c"
printf 'int low2(void);\nint low2(void) { return 2; }\n' >"$t/lib/base/low2.c"
printf 'int b(void) { return 2; }\n' >"$t/prog/b.c"
printf 'int e(void) { return 5; }\n' >"$t/other/e.c"
printf '/* no include */\n' >"$t/prog/h2.h"
printf 'int g(void) { return 7; }\n' >"$t/prog/g.c"
printf 'int z(void) { return 10; }\n' >"$t/prog/s2/z.c"
printf 'int da(void) { return 1; }\n' >"$t/other/decide/da.c"
printf 'int mc(void) { return 12; }\n' >"$t/other/merge/mc.c"
rm -rf "$t/other/extra" "$t/obj/other/extra"
seq 900 | sed 's/^/: /' >"$t/other/long.sh"
rm -f "$t"/obj/*/*.o "$t"/obj/*/*/*.o
cc_all
if out=$(sh "$t/tests/layout/check.sh" obj 2>&1); then echo "ok - clean tree passes"
else echo "not ok - clean tree fails: $out"; fail=1; fi
# docrefs.sh: a page naming a file and a function that do not exist fails,
# naming both; the same page naming real ones passes.
here_root=$(cd "$(dirname "$0")/../.." && pwd)
printf 'See `lib/base/nosuch.c` and `nosuch_function`.\n' >"$t/refs.md"
printf 'See `lib/base/parse.h` and `pmtu_search`; `git.c` is git'"'"'s.\n' >"$t/ok.md"
if out=$(cd "$here_root" && sh tests/layout/docrefs.sh "$t/refs.md" 2>&1); then
	echo "not ok - docrefs passed a missing file: $out"; fail=1
else
	case $out in
	*"'lib/base/nosuch.c' names no path"*"'nosuch_function' names no func"*)
		echo "ok - docrefs names a missing file and function" ;;
	*) echo "not ok - docrefs said: $out"; fail=1 ;;
	esac
fi
if out=$(cd "$here_root" && sh tests/layout/docrefs.sh "$t/ok.md" 2>&1); then
	echo "ok - docrefs passes real references"
else echo "not ok - docrefs refused real references: $out"; fail=1; fi
exit $fail
