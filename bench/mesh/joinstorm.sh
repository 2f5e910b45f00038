#!/bin/sh
# bench/mesh: node 0 under a join storm. In a private network namespace
# (loopback only), node 0 runs `netprobe mesh --hosts` over N + 1 entries
# (itself at 127.0.0.1, the members at 127.0.X.Y) under /usr/bin/time,
# and joinstorm (bench/mesh/joinstorm.c) starts N light members, each on
# its own loopback address, within about a second: JOIN, the plan, a small
# document, the verdict. Prints joinstorm's line, node 0's wall, CPU and
# max RSS, its exit status, and from its mesh document the time the last
# member joined and how many joined. Needs root (unshare). Usage:
# joinstorm.sh NETPROBE JOINSTORM [N]
np=$1 js=$2 n=${3:-1000}
[ "$(id -u)" = 0 ] || { echo "joinstorm: needs root"; exit 77; }
out=$(mktemp -d /tmp/np-joinstorm.XXXXXX)
trap 'rm -rf "$out"' EXIT
{
	hostname # node 0 finds itself by name; it resolves to 127.0.0.1
	i=1
	while [ "$i" -le "$n" ]; do
		echo "127.0.$((1 + i / 250)).$((2 + i % 250))"
		i=$((i + 1))
	done
} >"$out/hosts"
export np js n out
unshare -n sh -c '
	ip link set lo up || exit 2
	/usr/bin/time -f "%e,%U,%S,%M" -o "$out/time" "$np" mesh \
		--hosts "$out/hosts" --join-timeout 60s -p 7470 \
		--out "$out/docs" -o "$out/report.txt" 2>"$out/node0.err" &
	pid=$!
	t=0
	until ss -ltnH 2>/dev/null | grep -q ":7470 "; do
		t=$((t + 1)); [ "$t" -lt 100 ] || exit 2; sleep 0.1
	done

	"$js" "$n" 7470 120
	wait "$pid"
	echo "node0 exit $?"
'
# shellcheck disable=SC2046
set -- $(tail -n 1 "$out/time" | tr , ' ')
wall=$1 user=$2 sys=$3 rss=$4
echo "node0 wall ${wall}s cpu $(echo "$user $sys" | awk "{print \$1 + \$2}")s (user $user, sys $sys) max_rss ${rss} KiB"
if [ -f "$out/docs/mesh.json" ]; then
	jq -r '"node0 document: joined \([.mesh.members[] | select(.state == "joined")] | length) of \(.mesh.members | length), last join \([.mesh.members[].join_ms // 0] | max) ms, last document \([.mesh.members[].result_ms // 0] | max) ms"' "$out/docs/mesh.json"
fi
tail -n 3 "$out/node0.err"
