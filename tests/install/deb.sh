#!/bin/sh
# Installs the packages built by `make deb` as a user would
# (apt-get install ./*.deb), checks what they put where, runs `netprobe
# scan` and `ncclcheck --help` from the installed files, and purges the
# packages it installed. Usage: deb.sh DIR (root).
set -u
dir=${1:?usage: deb.sh DIR}
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

pkgs="" keep=""
for f in "$dir"/*.deb; do
	[ -e "$f" ] || { echo "deb: no package in $dir"; exit 2; }
	p=$(dpkg-deb -f "$f" Package)
	pkgs="$pkgs $p"
	# a package that was installed before the test stays installed
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' &&
		keep="$keep $p"
done
cleanup() {
	for p in $pkgs; do
		case " $keep " in *" $p "*) continue ;; esac
		apt-get purge -y -qq "$p" >/dev/null 2>&1
	done
}
trap cleanup EXIT INT TERM

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
		echo "  note    libnccl.so.2 through" \
			"/etc/ld.so.conf.d/ncclcheck-nccl.conf:" \
			"$(grep -v '^#' /etc/ld.so.conf.d/ncclcheck-nccl.conf)"
	else
		echo "  note    libnccl.so.2 through the package's Depends:" \
			"$(dpkg-query -W -f='${Depends}' ncclcheck)"
	fi
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

cleanup
trap - EXIT INT TERM
for p in $pkgs; do
	case " $keep " in *" $p "*) continue ;; esac
	check "$p: purged" sh -c "! dpkg-query -W -f='\${Status}' $p 2>/dev/null | grep -q 'ok installed'"
done
check "purge removed /usr/bin/netprobe" sh -c \
	"echo ' $keep ' | grep -q ' netprobe ' || ! test -e /usr/bin/netprobe"
echo "deb: $pass passed, $fail failed"
[ $fail = 0 ]
