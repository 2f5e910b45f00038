#!/bin/sh
# bench/mesh: what `netprobe mesh --watch` costs a node. N members on
# their own loopback addresses in a fresh network namespace (as
# loopmesh.sh), each running the first mesh (--quick) and then watching
# every second for D seconds, under loopmesh_util rusage. Prints one
# line: N, D, the members' mean and largest CPU seconds, node 0's CPU and
# peak RSS, the rounds node 0 ran, and the changes in node 0's log (0 on
# this healthy loopback). Run it at two durations: the difference is the
# watch's own cost (bench/mesh/RESULTS.md). Needs root.
# Usage: watchcost.sh NETPROBE LOOPMESH_UTIL N D
np=$1 util=$2 n=${3:-8} d=${4:-30}
[ "$(id -u)" = 0 ] || { echo "watchcost: needs root"; exit 77; }
case $n$d in '' | *[!0-9]*) echo "watchcost: bad N or D"; exit 2 ;; esac
out=$(mktemp -d /tmp/np-watchcost.XXXXXX)
trap 'rm -rf "$out"' EXIT
i=0
while [ "$i" -lt "$n" ]; do
	echo "127.0.$((1 + i / 250)).$((1 + i % 250))"
	i=$((i + 1))
done >"$out/hosts"
bound=$((d + 120))
export np util n d bound out
timeout $((bound + 30)) unshare -n sh -c '
	"$util" lo-up || exit 2
	set -- $(cat "$out/hosts")
	mkdir "$out/m"
	for a in "$@"; do
		( timeout "$bound" "$util" rusage "$out/m/$a.time" "$np" mesh \
			--hosts "$out/hosts" --bind "$a" -p 7470 --quick \
			--join-timeout 60s --watch 1s --duration "${d}s" \
			--out "$out/docs" >/dev/null 2>"$out/m/$a.err" ) &
	done
	wait
'
node0=$(head -n 1 "$out/hosts")
IFS=, read -r _ u0 s0 rss0 <"$out/m/$node0.time"
cat "$out"/m/*.time | awk -F, -v n="$n" -v d="$d" -v u0="$u0" -v s0="$s0" \
	-v rss="$rss0" -v rounds="$(jq '.mesh.watch.rounds' "$out/docs/mesh.json")" \
	-v ch="$(jq '.mesh.watch.changes | length' "$out/docs/mesh.json")" '
	{ c = $2 + $3; t += c; if (c > m) m = c }
	END { printf "watch n=%d d=%ds: members cpu mean %.2f s max %.2f s; " \
		"node0 cpu %.2f s rss %d KB; rounds %s; changes %s\n", n, d,
		t / NR, m, u0 + s0, rss, rounds, ch }'
# the changes, when a healthy loopback logged any
jq -r '.mesh.watch.changes[] | "  \(.at) \(.from) -> \(.to): \(.was) -> \(.now) (\(.evidence))"' \
	"$out/docs/mesh.json"
