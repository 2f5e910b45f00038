#!/bin/sh
# `make install` into a scratch DESTDIR with PREFIX=/opt/np: every file in
# place (contrib/'s Slurm, Prometheus and Grafana files and
# docs/findings.md included, as in the tree), the unit and the man pages'
# FILES naming that PREFIX, stripped programs, no RUNPATH in ncclcheck;
# then `make uninstall` leaves no file and no folder of netprobe's behind.
# Usage: make.sh MAKE BUILD
set -u
make=${1:?usage: make.sh MAKE BUILD} build=${2:?usage: make.sh MAKE BUILD}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
root=$tmp/opt/np
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "  ok      $*"; }
bad() { fail=$((fail + 1)); echo "  FAIL    $*"; }
check() { # check DESCRIPTION COMMAND...
	d=$1; shift
	if "$@" >/dev/null 2>&1; then ok "$d"; else bad "$d"; fi
}
stripped() { ! readelf -S "$1" | grep -q '\.symtab'; }
# check_files_section PAGE: each path the page's FILES names is installed
# under PREFIX (the run's own files in /tmp aside); none is left at /usr
check_files_section() {
	n=0
	for path in $(sed -n \
		'/^\.Sh FILES/,/^\.Sh /s/^\.It Pa \(\/[^ ]*\).*/\1/p' "$1"); do
		n=$((n + 1))
		case $path in
		/tmp/*) continue ;;
		/etc/ld.so.conf.d/*) continue ;; # the package's, see deb.sh
		esac
		check "${1##*/} FILES: $path" test -e "$tmp$path"
	done
	check "${1##*/}: FILES names paths" test "$n" -gt 0
	check "${1##*/}: names no /usr/share/netprobe or doc/netprobe" sh -c \
		"! grep -Eq '/usr/share/(doc/)?netprobe' '$1'"
}

if ! $make --no-print-directory install DESTDIR="$tmp" PREFIX=/opt/np \
	>"$tmp.log" 2>&1; then
	cat "$tmp.log"; rm -f "$tmp.log"
	echo "install: make install failed"
	exit 1
fi
rm -f "$tmp.log"
for f in bin/netprobe share/man/man1/netprobe.1 \
	share/man/man5/netprobe-json.5 \
	lib/systemd/system/netprobe-serve.service \
	share/bash-completion/completions/netprobe; do
	check "netprobe: /opt/np/$f" test -s "$root/$f"
done
check "netprobe: stripped" stripped "$root/bin/netprobe"
check "netprobe: the unit runs /opt/np/bin/netprobe" grep -q \
	'^ExecStart=/opt/np/bin/netprobe serve' \
	"$root/lib/systemd/system/netprobe-serve.service"
check "netprobe: the unit names no other path" sh -c \
	"! grep -E '(/usr/local|@BINDIR@)' '$root/lib/systemd/system/netprobe-serve.service'"
check "netprobe: completion parses" bash -n \
	"$root/share/bash-completion/completions/netprobe"
# contrib/ and docs/findings.md as in the tree, the scripts executable
for f in $(find contrib/slurm contrib/prometheus contrib/grafana -type f |
	sort); do
	check "netprobe: /opt/np/share/netprobe/$f is the tree's" \
		cmp "$f" "$root/share/netprobe/$f"
	if [ -x "$f" ]; then
		check "netprobe: /opt/np/share/netprobe/$f executable" \
			test -x "$root/share/netprobe/$f"
	else
		check "netprobe: /opt/np/share/netprobe/$f not executable" \
			test ! -x "$root/share/netprobe/$f"
	fi
done
check "netprobe: /opt/np/share/doc/netprobe/findings.md is the tree's" \
	cmp docs/findings.md "$root/share/doc/netprobe/findings.md"
check_files_section "$root/share/man/man1/netprobe.1"
if [ -x "$build/dist/ncclcheck" ]; then
	for f in bin/ncclcheck share/man/man1/ncclcheck.1 \
		share/bash-completion/completions/ncclcheck; do
		check "ncclcheck: /opt/np/$f" test -s "$root/$f"
	done
	check "ncclcheck: stripped" stripped "$root/bin/ncclcheck"
	check "ncclcheck: no RUNPATH or RPATH" sh -c \
		"! readelf -d '$root/bin/ncclcheck' | grep -Eq 'RUNPATH|RPATH'"
	check "ncclcheck: completion parses" bash -n \
		"$root/share/bash-completion/completions/ncclcheck"
	check_files_section "$root/share/man/man1/ncclcheck.1"
else
	echo "  note    ncclcheck not built here (no CUDA/NCCL): not installed"
	check "ncclcheck: nothing installed for it" sh -c \
		"! find '$tmp' -name 'ncclcheck*' | grep -q ."
fi

check "make uninstall" $make --no-print-directory uninstall DESTDIR="$tmp" \
	PREFIX=/opt/np
left=$(find "$tmp" -type f)
if [ -z "$left" ]; then
	ok "make uninstall removed every file"
else
	bad "make uninstall left: $left"
fi
# the folders that are netprobe's alone go too; bin, share/man stay
left=$(find "$tmp" -name '*netprobe*' -o -name '*ncclcheck*')
if [ -z "$left" ]; then
	ok "make uninstall removed netprobe's folders"
else
	bad "make uninstall left: $left"
fi
echo "install: $pass passed, $fail failed"
[ $fail = 0 ]
