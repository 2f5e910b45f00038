#!/bin/sh
# Runs namespace labs several times in a row to show they do not flap:
# `sh tests/lab/repeat.sh N LAB...` (LAB as t_lossy or
# tests/lab/t_lossy.sh). Each run gets a LAB_ID of its own and the same
# bound as run.sh; one line per run with the figures the lab printed,
# then one line per lab.
# Exit status 0 only when every run passed.
dir=$(dirname "$0")
n=${1:-10}
shift
case $n in
'' | *[!0-9]*) echo "repeat: invalid count '$n': not a number" >&2; exit 2 ;;
esac
[ "$#" -gt 0 ] || { echo "repeat: no lab named" >&2; exit 2; }
total_fail=0
summary=""
log=$(mktemp) || exit 2
trap 'rm -f "$log"' EXIT
for lab in "$@"; do
	name=$(basename "$lab" .sh)
	t="$dir/$name.sh"
	[ -f "$t" ] || { echo "repeat: no lab '$name' in $dir" >&2; exit 2; }
	pass=0 fail=0 skip=0 i=1
	# the lab's own bound, as run.sh reads it ("# lab-bound: SECONDS")
	bound=$(sed -n 's/^# lab-bound: *\([0-9][0-9]*\)$/\1/p' "$t" | head -1)
	while [ "$i" -le "$n" ]; do
		t0=$(date +%s)
		LAB_ID="r$(echo "$name" | cksum | cut -c1-3)$$$i" \
			timeout -k 5 "${bound:-300}" sh "$t" >"$log" 2>&1
		rc=$?
		secs=$(($(date +%s) - t0))
		case $rc in
		0) pass=$((pass + 1)); verdict=pass ;;
		77) skip=$((skip + 1)); verdict=skip ;;
		*) fail=$((fail + 1)); verdict="FAIL (exit $rc)"
		   grep '^not ok' "$log" | sed 's/^/    /' ;;
		esac
		echo "$name run $i/$n: $verdict, $(tail -1 "$log" |
			sed 's/^# //'), ${secs}s"
		# the figures a lab reports on its own "# " lines
		sed -n '$!s/^# /    /p' "$log"
		i=$((i + 1))
	done
	summary="$summary
$name: $pass of $n passed, $fail failed, $skip skipped"
	total_fail=$((total_fail + fail))
done
echo "$summary" | sed '/^$/d'
[ "$total_fail" = 0 ]
