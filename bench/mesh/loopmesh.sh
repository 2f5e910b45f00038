#!/bin/sh
# bench/mesh: the whole `netprobe mesh` with N members on one host. In a
# fresh network namespace (unshare -n; lo brought up by loopmesh_util, no
# ip(8) needed), member i runs `netprobe mesh --bind 127.0.X.Y` on its
# own loopback address, the list of those addresses as --hosts; node 0
# (the first) runs under loopmesh_util rusage and keeps the documents.
# Every process is bounded by timeout(1). Prints one line: N, node 0's
# time to the verdict, its CPU and peak RSS, the members' CPU, the peer
# pairs probed (from the documents), members not joined or without a
# document, and how many members exited 0/1/2/other. Needs root.
# Usage: loopmesh.sh NETPROBE LOOPMESH_UTIL N [BOUND_S]
np=$1 util=$2 n=${3:-16} bound=${4:-180}
[ "$(id -u)" = 0 ] || { echo "loopmesh: needs root"; exit 77; }
case $n in '' | *[!0-9]*) echo "loopmesh: bad N '$n'"; exit 2 ;; esac
[ "$n" -ge 2 ] && [ "$n" -le 4000 ] || { echo "loopmesh: N 2..4000"; exit 2; }
out=$(mktemp -d /tmp/np-loopmesh.XXXXXX)
trap 'rm -rf "$out"' EXIT
i=0
while [ "$i" -lt "$n" ]; do
	echo "127.0.$((1 + i / 250)).$((1 + i % 250))"
	i=$((i + 1))
done >"$out/hosts"
export np util n bound out
timeout $((bound + 30)) unshare -n sh -c '
	"$util" lo-up || exit 2
	port=7470
	t0=$(date +%s%N)
	set -- $(cat "$out/hosts")
	node0=$1
	shift
	timeout "$bound" "$util" rusage "$out/node0.time" "$np" mesh \
		--hosts "$out/hosts" --bind "$node0" -p $port \
		--join-timeout 60s --out "$out/docs" -o "$out/report.txt" \
		2>"$out/node0.err" &
	pid0=$!
	mkdir "$out/m"
	for a in "$@"; do
		( timeout "$bound" "$util" rusage "$out/m/$a.time" "$np" mesh \
			--hosts "$out/hosts" --bind "$a" -p $port \
			--join-timeout 60s >/dev/null 2>"$out/m/$a.err"
		  echo $? >"$out/m/$a.rc" ) &
	done
	t1=$(date +%s%N)
	wait "$pid0"
	echo $? >"$out/node0.rc"
	t2=$(date +%s%N)
	wait
	echo "$(( (t1 - t0) / 1000000 )) $(( (t2 - t0) / 1000000 ))" \
		>"$out/times"
'
read -r launch_ms verdict_ms <"$out/times" 2>/dev/null
IFS=, read -r _ u0 s0 rss0 <"$out/node0.time" 2>/dev/null
mcpu=$(cat "$out"/m/*.time 2>/dev/null |
	awk -F, '{c += $2 + $3} END {printf "%.1f", c}')
rcs=$(cat "$out"/m/*.rc 2>/dev/null | awk '
	{ if ($1 == 0) a++; else if ($1 == 1) b++; else if ($1 == 2) c++;
	  else d++ } END { printf "%d/%d/%d/%d", a, b, c, d }')
pairs=- notjoined=- nodoc=-
if [ -f "$out/docs/mesh.json" ]; then
	notjoined=$(jq '[.mesh.members[] | select(.state != "joined")] |
		length' "$out/docs/mesh.json")
	nodoc=$(jq '[.mesh.members[] | select(.result_ms == null)] |
		length' "$out/docs/mesh.json")
	pairs=$(for f in "$out"/docs/*.json; do
		[ "$(basename "$f")" = mesh.json ] && continue
		jq '[.peers[]?] | length' "$f"
	done | awk '{s += $1} END {print s + 0}')
fi
printf '%5s %9s %9s %8s %9s %10s %7s %9s %7s %s\n' N launch_ms \
	verdict_ms node0_cpu node0_rss members_cpu pairs notjoined nodoc \
	"exits(0/1/2/other)"
printf '%5d %9s %9s %7.2fs %6sKiB %9ss %7s %9s %7s %s node0:%s\n' "$n" \
	"$launch_ms" "$verdict_ms" "$(echo "$u0 $s0" | awk '{print $1 + $2}')" \
	"$rss0" "$mcpu" "$pairs" "$notjoined" "$nodoc" "$rcs" \
	"$(cat "$out/node0.rc" 2>/dev/null)"
[ -n "$KEEP" ] && cp -r "$out" "$KEEP"
tail -n 3 "$out/node0.err"
exit 0
