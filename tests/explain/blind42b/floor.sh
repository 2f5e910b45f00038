#!/bin/sh
# A blind set of issue 42 as a regression test (make
# check-explain): it scores the set with ../blind42/score.sh and fails
# when any case does worse than floor.tsv records, the per-case results
# after the fixes of the classes its one blind measurement found
# (tests/explain/RESULTS.md). A case's mark ranks ok < "ok
# undecided-proof" (a proof log only left open) < MISS < a wrong decided
# cause, a non-network log blamed or an explain error; a case may rise,
# never fall. The set is no longer blind: these are regression figures,
# not a measurement.
#
#   NETPROBE=build/netprobe sh tests/explain/blind42b/floor.sh [SET]
#
# SET: the set's folder, with its truth.tsv and floor.tsv (default this
# one, blind42b; blind42c to blind42z are held the same way).
set -u
here=$(cd "${1:-$(dirname "$0")}" && pwd)
name=$(basename "$here")
NETPROBE=${NETPROBE:?set NETPROBE to the netprobe binary}
for t in jq awk; do
	command -v "$t" >/dev/null 2>&1 || { echo "floor.sh: $t is needed" >&2; exit 1; }
done
out=$(NETPROBE=$NETPROBE sh "$here/../blind42/score.sh" "$here/truth.tsv") || exit 1
cases=$(echo "$out" | awk -F'\t' '/^[0-9a-z][0-9][0-9]\t/ { print $1 "\t" $NF }')
if [ -z "$cases" ]; then
	echo "FAIL $name: score.sh printed no cases"
	echo "$out" | head -5
	exit 1
fi
# rank of a mark: 0 ok, 1 ok but a proof log left open, 2 missed, 3 a
# network candidate on a non-network log, 4 a wrong decided cause
res=$(printf '%s\n' "$cases" | awk -v name="$name" -F'\t' '
function rank(m) {
	if (m ~ /WRONG-CAUSE|ERROR/) return 4
	if (m ~ /NETWORK-BLAMED/) return 3
	if (m ~ /^MISS/) return 2
	if (m ~ /undecided-proof/) return 1
	if (m ~ /^ok/) return 0
	return 4
}
NR == FNR { if ($1 !~ /^#/ && NF >= 2) want[$1] = $2; next }
{
	got[$1] = $2
	if (!($1 in want)) { printf "FAIL " name " %s: no floor row\n", $1; bad++; next }
	if (rank($2) > rank(want[$1])) {
		printf "FAIL " name " %s: %s, floor %s\n", $1, $2, want[$1]; bad++
	} else if (rank($2) < rank(want[$1]))
		printf "note " name " %s: %s, better than floor %s (raise floor.tsv)\n", $1, $2, want[$1]
}
END {
	for (i in want) if (!(i in got)) { printf "FAIL " name " %s: case gone\n", i; bad++ }
	exit bad > 0
}' "$here/floor.tsv" -)
rc=$?
[ -n "$res" ] && echo "$res"
[ "$rc" = 0 ] || exit 1
echo "$name (regression): every case at or above floor.tsv; $(echo "$out" | sed -n 's/^network logs right[^:]*: //p') network logs right, $(echo "$out" | sed -n 's/^wrong decided causes: \([0-9]*\) .*/\1/p') wrong decided causes, $(echo "$out" | sed -n 's/^non-network logs given a network candidate or cause: \([0-9]*\/[0-9]*\).*/\1/p') non-network logs blamed"
