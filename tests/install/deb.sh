#!/bin/sh
# Installs the packages built by `make deb` as a user would
# (apt-get install ./*.deb), checks what they put where (contrib/ and
# docs/findings.md included, and every path the man pages' FILES name),
# runs `netprobe scan` and `ncclcheck --help` from the installed files,
# then removes the packages it installed and purges them: after each, no
# path a package put there is left, nor NCCL's folder in the loader's path.
# Usage: deb.sh DIR (root).
set -u
dir=${1:?usage: deb.sh DIR}
top=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
# Two make checks on one machine (two checkouts, a CI job beside a
# developer) would install and purge the same packages under each other:
# one at a time, the second waiting up to 15 minutes for the first.
if [ -z "${NP_DEB_LOCKED:-}" ] && command -v flock >/dev/null 2>&1; then
	NP_DEB_LOCKED=1 flock -w 900 -E 75 /run/lock/netprobe-check-deb.lock \
		sh "$0" "$@"
	rc=$?
	[ "$rc" != 75 ] ||
		echo "deb: another make check held /run/lock/netprobe-check-deb.lock for 15 minutes"
	exit "$rc"
fi
export DEBIAN_FRONTEND=noninteractive
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "  ok      $*"; }
bad() { fail=$((fail + 1)); echo "  FAIL    $*"; }
check() { # check DESCRIPTION COMMAND...
	d=$1; shift
	if "$@" >/dev/null 2>&1; then ok "$d"; else bad "$d"; fi
}

tmp=$(mktemp -d) || exit 2
pkgs="" keep=""
for f in "$dir"/*.deb; do
	if [ ! -e "$f" ]; then
		echo "deb: no package in $dir"
		rm -rf "$tmp"
		exit 2
	fi
	p=$(dpkg-deb -f "$f" Package)
	pkgs="$pkgs $p"
	# a package that was installed before the test stays installed
	if dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'ok installed'; then
		keep="$keep $p"
		continue
	fi
	# the paths the package would add: those that are not there yet
	dpkg-deb --fsys-tarfile "$f" | tar -tf - |
		sed -e 's|^\./|/|' -e 's|/$||' | grep . >"$tmp/$p.all" || {
		echo "deb: cannot list $f"; rm -rf "$tmp"; exit 2; }
	while read -r path; do
		[ -e "$path" ] || [ -L "$path" ] || echo "$path"
	done <"$tmp/$p.all" >"$tmp/$p.new"
done
kept() { case " $keep " in *" $1 "*) return 0 ;; esac; return 1; }
cleanup() {
	for p in $pkgs; do
		kept "$p" || apt-get purge -y -qq "$p" >/dev/null 2>&1
	done
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
# left_behind PKG: the paths the package added that are still there
left_behind() {
	while read -r path; do
		if [ -e "$path" ] || [ -L "$path" ]; then echo "$path"; fi
	done <"$tmp/$1.new"
}
# files_paths PAGE.gz: the absolute paths the page's FILES section names
files_paths() {
	zcat "$1" | sed -n '/^\.Sh FILES/,/^\.Sh /s/^\.It Pa \(\/[^ ]*\).*/\1/p'
}
# check_files_section PAGE.gz: each path FILES names is installed (but the
# run's own files, and the ld.so.conf.d file where the package has none)
check_files_section() {
	n=0
	for path in $(files_paths "$1"); do
		n=$((n + 1))
		case $path in
		/tmp/*) continue ;;
		*/ncclcheck-nccl.conf)
			dpkg -L ncclcheck | grep -qx "$path" || continue ;;
		esac
		check "${1##*/} FILES: $path" test -e "$path"
	done
	check "${1##*/}: FILES names paths" test "$n" -gt 0
}

echo "deb: apt-get install ./*.deb in $dir:$pkgs"
if ! (cd "$dir" && apt-get install -y -qq ./*.deb) >"$dir/install.log" 2>&1
then
	tail -20 "$dir/install.log"
	echo "deb: apt-get install failed"
	exit 1
fi

# netprobe: program, man pages, unit, completion
check "netprobe: /usr/bin/netprobe from the package" \
	sh -c 'dpkg -S /usr/bin/netprobe | grep -q "^netprobe:"'
for f in /usr/share/man/man1/netprobe.1.gz \
	/usr/share/man/man5/netprobe-json.5.gz \
	/lib/systemd/system/netprobe-serve.service \
	/usr/share/bash-completion/completions/netprobe; do
	check "netprobe: $f" test -s "$f"
done
check "netprobe: the unit runs /usr/bin/netprobe serve" grep -q \
	'^ExecStart=/usr/bin/netprobe serve' \
	/lib/systemd/system/netprobe-serve.service
check "netprobe: the responder is not enabled on install" sh -c \
	'! test -e /etc/systemd/system/multi-user.target.wants/netprobe-serve.service'
check "netprobe: stripped" sh -c \
	'! readelf -S /usr/bin/netprobe | grep -q "\.symtab"'
check "netprobe --version" sh -c '/usr/bin/netprobe --version | grep -q "^netprobe "'
out=$(/usr/bin/netprobe scan 2>&1)
rc=$?
if [ $rc -le 1 ] && echo "$out" | grep -q .; then
	ok "netprobe scan (exit $rc)"
else
	echo "$out" | tail -5
	bad "netprobe scan (exit $rc)"
fi
if [ -r /usr/share/bash-completion/bash_completion ]; then
	words=$(bash -c '. /usr/share/bash-completion/bash_completion
		. /usr/share/bash-completion/completions/netprobe
		COMP_WORDS=(netprobe sc); COMP_CWORD=1
		COMP_LINE="netprobe sc"; COMP_POINT=${#COMP_LINE}
		_netprobe netprobe sc netprobe; echo "${COMPREPLY[*]}"
		COMP_WORDS=(netprobe ports node2 --js); COMP_CWORD=3
		COMP_LINE="netprobe ports node2 --js"; COMP_POINT=${#COMP_LINE}
		_netprobe netprobe --js node2; echo "${COMPREPLY[*]}"' 2>&1)
	check "netprobe: completion of 'netprobe sc', 'ports node2 --js'" \
		test "$(echo $words)" = "scan --json"
fi

# contrib/ and docs/findings.md, as they are in the tree, the scripts
# executable
for f in $(cd "$top" && find contrib/slurm contrib/prometheus \
	contrib/grafana -type f | sort); do
	path=/usr/share/netprobe/$f
	check "netprobe: dpkg -L lists $path" sh -c \
		"dpkg -L netprobe | grep -qx '$path'"
	check "netprobe: $path is the tree's" cmp "$top/$f" "$path"
	if [ -x "$top/$f" ]; then
		check "netprobe: $path executable" test -x "$path"
	else
		check "netprobe: $path not executable" test ! -x "$path"
	fi
done
check "netprobe: dpkg -L lists /usr/share/doc/netprobe/findings.md" sh -c \
	'dpkg -L netprobe | grep -qx /usr/share/doc/netprobe/findings.md'
check "netprobe: /usr/share/doc/netprobe/findings.md is the tree's" \
	cmp "$top/docs/findings.md" /usr/share/doc/netprobe/findings.md
check_files_section /usr/share/man/man1/netprobe.1.gz

# ncclcheck, where the toolkit let it be built
if echo "$pkgs" | grep -qw ncclcheck; then
	check "ncclcheck: /usr/bin/ncclcheck from the package" \
		sh -c 'dpkg -S /usr/bin/ncclcheck | grep -q "^ncclcheck:"'
	for f in /usr/share/man/man1/ncclcheck.1.gz \
		/usr/share/bash-completion/completions/ncclcheck; do
		check "ncclcheck: $f" test -s "$f"
	done
	check "ncclcheck: no RUNPATH or RPATH" sh -c \
		'! readelf -d /usr/bin/ncclcheck | grep -Eq "RUNPATH|RPATH"'
	check "ncclcheck: stripped" sh -c \
		'! readelf -S /usr/bin/ncclcheck | grep -q "\.symtab"'
	check "ncclcheck: the loader finds libnccl.so.2" sh -c \
		'ldd /usr/bin/ncclcheck | grep "libnccl.so.2 => /"'
	if [ -e /etc/ld.so.conf.d/ncclcheck-nccl.conf ]; then
		grep -v '^#' /etc/ld.so.conf.d/ncclcheck-nccl.conf \
			>"$tmp/nccl.dir"
		echo "  note    libnccl.so.2 through" \
			"/etc/ld.so.conf.d/ncclcheck-nccl.conf:" \
			"$(cat "$tmp/nccl.dir")"
	else
		echo "  note    libnccl.so.2 through the package's Depends:" \
			"$(dpkg-query -W -f='${Depends}' ncclcheck)"
	fi
	check_files_section /usr/share/man/man1/ncclcheck.1.gz
	out=$(/usr/bin/ncclcheck --help 2>&1)
	rc=$?
	if [ $rc = 0 ] && echo "$out" | grep -q '^usage: ncclcheck'; then
		ok "ncclcheck --help"
	else
		echo "$out" | tail -5
		bad "ncclcheck --help (exit $rc)"
	fi
else
	echo "  note    no ncclcheck package here (built without CUDA/NCCL)"
fi

# after_removal WHAT: nothing of a removed package is left, nor the
# ld.so.conf.d file, nor NCCL's folder in the loader's cache
after_removal() {
	for p in $pkgs; do
		kept "$p" && continue
		check "$p: $1" sh -c "! dpkg-query -W -f='\${Status}' $p \
			2>/dev/null | grep -q 'ok installed'"
		left=$(left_behind "$p")
		if [ -z "$left" ]; then
			ok "$p: $1 left no path it installed"
		else
			bad "$p: $1 left: $(echo "$left" | tr "\n" " ")"
		fi
	done
	echo "$pkgs" | grep -qw ncclcheck && ! kept ncclcheck || return 0
	conf=/etc/ld.so.conf.d/ncclcheck-nccl.conf
	check "ncclcheck: $1 took $conf" \
		sh -c "! test -e $conf && ! test -L $conf"
	# the ldconfig trigger ran: the cache holds nothing from the folder the
	# package's file named (unless another file of the loader names it)
	[ -s "$tmp/nccl.dir" ] || return 0
	d=$(cat "$tmp/nccl.dir")
	if grep -rqsx --exclude=ncclcheck-nccl.conf "$d/*" /etc/ld.so.conf \
		/etc/ld.so.conf.d; then
		echo "  note    $d is in another file of /etc/ld.so.conf.d"
	else
		check "ncclcheck: $1: the loader's cache has nothing of $d" \
			sh -c "! /sbin/ldconfig -p | grep -qF ' => $d/'"
	fi
}

for p in $pkgs; do
	kept "$p" || apt-get remove -y -qq "$p" >>"$dir/install.log" 2>&1 ||
		bad "apt-get remove $p (log: $dir/install.log)"
done
after_removal removed
for p in $pkgs; do
	kept "$p" || apt-get purge -y -qq "$p" >>"$dir/install.log" 2>&1 ||
		bad "apt-get purge $p (log: $dir/install.log)"
done
after_removal purged
check "purge removed /usr/bin/netprobe" sh -c \
	"echo ' $keep ' | grep -q ' netprobe ' || ! test -e /usr/bin/netprobe"
cleanup
trap - EXIT INT TERM
echo "deb: $pass passed, $fail failed"
[ $fail = 0 ]
