#!/bin/sh
# Proves check.sh catches what it is for: a tree with one upward include
# and one circle between two files must fail with both named; the same tree
# without them must pass.
set -u
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/tests/layout" "$t/prog" "$t/obj/prog"
cp "$here/check.sh" "$t/tests/layout/"
for g in base doc kernel layers wire probe decide; do
	mkdir -p "$t/lib/$g"
	echo "| \`$g/\` | x | y |" >>"$t/lib/README.md"
done
echo 'int up(void);' >"$t/lib/decide/up.h"
printf '#include "decide/up.h"\nint low(void) { return 1; }\n' >"$t/lib/base/low.c"
printf 'int b(void);\nint a(void) { return b(); }\n' >"$t/prog/a.c"
printf 'int a(void);\nint b(void) { return a(); }\n' >"$t/prog/b.c"
cc -c -o "$t/obj/prog/a.o" "$t/prog/a.c" && cc -c -o "$t/obj/prog/b.o" "$t/prog/b.c" || exit 2
fail=0
out=$(sh "$t/tests/layout/check.sh" obj 2>&1)
case $out in *"base/ includes 'decide/up.h' of the higher group"*) echo "ok - upward include caught" ;;
*) echo "not ok - upward include missed: $out"; fail=1 ;; esac
case $out in *"circle: prog/a.c calls b() in prog/b.c"*) echo "ok - circle caught" ;;
*) echo "not ok - circle missed: $out"; fail=1 ;; esac
printf 'int low(void) { return 1; }\n' >"$t/lib/base/low.c"
printf 'int b(void) { return 2; }\n' >"$t/prog/b.c"
cc -c -o "$t/obj/prog/b.o" "$t/prog/b.c" || exit 2
if sh "$t/tests/layout/check.sh" obj >/dev/null 2>&1; then echo "ok - clean tree passes"
else echo "not ok - clean tree fails"; fail=1; fi
exit $fail
