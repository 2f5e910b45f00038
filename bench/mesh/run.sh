#!/bin/sh
# bench/mesh: netprobe mesh over 64 network-namespace nodes on one LAN
# (tests/lab/mesh_lib.sh), all on this machine: the wall time of the whole
# mesh, from the first process started to the last one ended, at 4, 16 and
# 64 nodes (SIZES), REPEAT runs each, and the largest memory of node 0
# (max RSS, /usr/bin/time). At 64 nodes also every pair (--all-pairs 64)
# for comparison. Needs root; run by `make bench-mesh`. Prints one line
# per run and a table for bench/mesh/RESULTS.md.
. "$(dirname "$0")/../../tests/lab/lib.sh"
. "$(dirname "$0")/../../tests/lab/mesh_lib.sh"
lab_require unshare jq
SIZES=${SIZES:-4 16 64}
REPEAT=${REPEAT:-3}
MAXN=64
OUT=$(mktemp -d /tmp/np-mesh-bench.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT" "$MESH_HOSTS"' EXIT

mesh_build "$MAXN" 50 0
mesh_wait_links "$MAXN" || { echo "bench-mesh: links not up"; exit 2; }

# one N ARGS...: a mesh of the first N nodes, every node under
# /usr/bin/time. Prints: the wall time from the first process started to
# the last ended; from node 0's mesh document the time until the last
# node joined (the launch, which this script does one node after
# another) and from then until the last document was in (the mesh
# itself); the CPU time of all nodes and per node; node 0's max RSS in
# KiB; the exit statuses.
one() {
	_n=$1
	shift
	_r=$(mktemp -d "$OUT/run.XXXXXX")
	head -n "$_n" "$MESH_HOSTS" >"$_r/hosts"
	_ov0=$(overflows)
	_t0=$(date +%s%N)
	MESH_WRAP="/usr/bin/time -f %e,%U,%S,%M -o $_r/1.time" mesh_run 1 \
		"$_r" --hosts "$_r/hosts" --join-timeout 60s -o "$_r/report.txt" \
		--out "$_r/docs" "$@"
	_i=2
	while [ "$_i" -le "$_n" ]; do
		MESH_WRAP="/usr/bin/time -f %e,%U,%S,%M -o $_r/$_i.time" \
			mesh_run "$_i" "$_r" --hosts "$_r/hosts" \
			--join-timeout 60s "$@"
		_i=$((_i + 1))
	done
	mesh_wait_all "$_n" "$_r" 300 || echo "bench-mesh: $_n nodes timed out" >&2
	_t1=$(date +%s%N)
	_ms=$(((_t1 - _t0) / 1000000))
	_cpu=$(cat "$_r"/*.time | awk -F, 'NF == 4 {c += $2 + $3} END {printf "%.1f", c}')
	_join=$(jq '[.mesh.members[].join_ms // 0] | max' "$_r/docs/mesh.json")
	_done=$(jq '[.mesh.members[].result_ms // 0] | max' "$_r/docs/mesh.json")
	printf '%6d %6d %6d %7s %6d %8s  %s %s\n' "$_ms" "$_join" \
		$((_done - _join)) "$_cpu" \
		"$(echo "$_cpu $_n" | awk '{printf "%d", $1 * 1000 / $2}')" \
		"$(awk -F, 'NF == 4 {print $4}' "$_r/1.time")" \
		"$(cat "$_r"/*.rc | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
		"$(($(overflows) - _ov0))"
}

# overflows: how many "neighbor table overflow" lines the kernel has
# logged. The neighbour table's limit (gc_thresh3) is one for every
# namespace together: past it no new neighbour is resolved, and probes
# fail for a reason that is this machine's, not the mesh's.
overflows() {
	dmesg 2>/dev/null | grep -c 'neighbor table overflow'
}

echo "# netprobe mesh, $(nproc) cores, $(uname -r), $(date -u +%Y-%m-%d)"
thr=$(cat /proc/sys/net/ipv4/neigh/default/gc_thresh3 2>/dev/null || echo 0)
echo "# neighbour table: $thr entries for all namespaces together (gc_thresh3);"
echo "# every pair at $MAXN nodes needs about $((MAXN * (MAXN - 1))): past the limit"
echo "# probes fail for this machine's reason (last column: overflows logged)"
echo "# nodes plan      run wall_ms launch_ms mesh_ms cpu_s cpu_ms/node node0_rss_kb exits overflows"
for n in $SIZES; do
	k=1
	while [ "$k" -le "$REPEAT" ]; do
		printf '%5d default   %d  %s\n' "$n" "$k" "$(one "$n")"
		k=$((k + 1))
	done
done
k=1
while [ "$k" -le "$REPEAT" ]; do
	printf '%5d all-pairs %d  %s\n' 64 "$k" "$(one 64 --all-pairs 64)"
	k=$((k + 1))
done
