#!/bin/sh
# Runs every namespace lab (tests/lab/t_*.sh), each bounded in time, and
# prints one closing line. A lab that cannot run here (not root, no netns)
# exits 77 and is counted as skipped.
dir=$(dirname "$0")
pass=0 fail=0 skip=0 failed=""
for t in "$dir"/t_*.sh; do
	[ -e "$t" ] || continue
	name=$(basename "$t" .sh)
	echo "=== $name"
	# a lab may ask for a longer bound: a "# lab-bound: SECONDS" line
	bound=$(sed -n 's/^# lab-bound: *\([0-9][0-9]*\)$/\1/p' "$t" | head -1)
	LAB_ID="$(echo "$name" | cksum | cut -c1-4)$$" \
		timeout -k 5 "${bound:-300}" sh "$t"
	rc=$?
	case $rc in
	0) pass=$((pass + 1)) ;;
	77) skip=$((skip + 1)) ;;
	*) fail=$((fail + 1)); failed="$failed $name" ;;
	esac
done
[ -n "$failed" ] && echo "lab: failed:$failed"
echo "lab: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
