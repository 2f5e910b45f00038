#!/bin/sh
# Runs a test command N times in a row while CPU hogs run beside it, to
# show the tests do not depend on an idle machine (the CI machine is
# loaded too). Default: `make check`, 10 times, two hogs.
#   sh tests/repeat-loaded.sh [-n N] [-j HOGS] [-t SECS] [-- COMMAND...]
#   -n N     runs (default 10)
#   -j HOGS  CPU hogs beside it (default 2): stress-ng --cpu when it is
#            installed, else busy shell loops
#   -t SECS  bound of one run (default 3600), killed past it
# Each run's output goes to $REPEAT_DIR (default build/repeat-loaded/);
# one line per run, then "N passed, M failed". Exit status 0 when every
# run passed, 1 when one failed, 2 on bad usage.
set -u
n=10 hogs=2 bound=3600
usage() {
	echo "usage: repeat-loaded.sh [-n N] [-j HOGS] [-t SECS] [-- COMMAND...]" >&2
	exit 2
}
num() {
	case $2 in
	'' | *[!0-9]*) echo "repeat-loaded: invalid $1 '$2': not a number" >&2
		exit 2 ;;
	esac
	[ "$2" -le "$3" ] || { echo "repeat-loaded: invalid $1 '$2': above $3" >&2; exit 2; }
}
while [ $# -gt 0 ]; do
	case $1 in
	-n) [ $# -ge 2 ] || usage; num -n "$2" 1000; n=$2; shift 2 ;;
	-j) [ $# -ge 2 ] || usage; num -j "$2" 64; hogs=$2; shift 2 ;;
	-t) [ $# -ge 2 ] || usage; num -t "$2" 86400; bound=$2; shift 2 ;;
	-h | --help)
		sed -n '2,12s/^# \{0,1\}//p' "$0"; exit 0 ;;
	--) shift; break ;;
	-*) echo "repeat-loaded: unknown option '$1'" >&2; usage ;;
	*) break ;;
	esac
done
[ "$n" -ge 1 ] && [ "$bound" -ge 1 ] || usage
[ $# -gt 0 ] || set -- make check
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${REPEAT_DIR:-$top/build/repeat-loaded}
mkdir -p "$dir" || exit 2

# The hogs live no longer than every run could take, and are ended by
# their own ids when the script ends, however it ends.
life=$((n * (bound + 10) + 60))
pids=""
stop_hogs() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	pids=""
}
trap stop_hogs EXIT
trap 'exit 130' INT TERM
i=0
while [ "$i" -lt "$hogs" ]; do
	if command -v stress-ng >/dev/null 2>&1; then
		stress-ng --quiet --cpu 1 --timeout "${life}s" >/dev/null 2>&1 &
	else
		timeout "$life" sh -c 'while :; do :; done' &
	fi
	pids="$pids $!"
	i=$((i + 1))
done
echo "repeat-loaded: $n runs of '$*' beside $hogs CPU hogs" \
	"(logs in $dir)"

pass=0 fail=0 i=1
while [ "$i" -le "$n" ]; do
	t0=$(date +%s)
	timeout -k 10 "$bound" "$@" >"$dir/run-$i.log" 2>&1
	rc=$?
	secs=$(($(date +%s) - t0))
	load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
	if [ "$rc" = 0 ]; then
		pass=$((pass + 1))
		echo "run $i/$n: pass, ${secs}s, load $load"
	else
		fail=$((fail + 1))
		echo "run $i/$n: FAIL (exit $rc), ${secs}s, load $load:" \
			"$dir/run-$i.log"
		grep -E '^not ok|FAIL|failed' "$dir/run-$i.log" | head -n 10 |
			sed 's/^/    /'
	fi
	i=$((i + 1))
done
stop_hogs
echo "repeat-loaded: $pass passed, $fail failed"
[ "$fail" = 0 ]
