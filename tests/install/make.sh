#!/bin/sh
# `make install` into a scratch DESTDIR with PREFIX=/opt/np: every file in
# place, the unit naming that PREFIX, stripped programs, no RUNPATH in
# ncclcheck; then `make uninstall` leaves no file behind.
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
else
	echo "  note    ncclcheck not built here (no CUDA/NCCL): not installed"
	check "ncclcheck: nothing installed for it" sh -c \
		"! find '$tmp' -name 'ncclcheck*' | grep -q ."
fi

$make --no-print-directory uninstall DESTDIR="$tmp" PREFIX=/opt/np \
	>/dev/null 2>&1
left=$(find "$tmp" -type f)
if [ -z "$left" ]; then
	ok "make uninstall removed every file"
else
	bad "make uninstall left: $left"
fi
echo "install: $pass passed, $fail failed"
[ $fail = 0 ]
