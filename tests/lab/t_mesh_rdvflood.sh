# Lab: node 0's rendezvous under 1,000 idle joins (issue 45). A mesh of
# two nodes with a token; node 0 runs with 1,024 descriptors (soft and
# hard). An intruder (mesh_hostile.py, a client of its own, from 200
# addresses of a third namespace not in the list) makes 1,024 JOINs that
# hold a token, as many as node 0 has descriptors, and never answers a
# challenge. Node 0 keeps at most 64 waiting (the oldest dropped first),
# drops the last of them at their 5 s deadline, does not spin, and the
# real member, started after them, joins: the mesh of two runs, node 0's
# CPU time stays small, and its mesh document counts the joins it
# dropped. (Before issue 45, node 0 held 1,010, ran out of descriptors,
# spun on accept and blamed the member, which could not join.) Then the
# same with 80 descriptors, fewer than node 0 needs for 64 waiting
# joins: it runs out, says so, drops the joins that waited a second, and
# still does not spin; the member joins.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
lab_require jq python3 unshare ss
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(mktemp -d /tmp/np-mesh-rdvflood.XXXXXX)
CONNS=1024 # as many as node 0 has descriptors
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT" "$MESH_HOSTS"' EXIT

mesh_build 3 54 0
lab_check "links up" mesh_wait_links 3
NS1=$(mesh_ns 1)
NS3=$(mesh_ns 3)
head -n 2 "$MESH_HOSTS" >"$OUT/hosts"
printf 'the-right-token-123\n' >"$OUT/tok"
# the intruder's 200 addresses, 10.231.54.10 to .209: five joins each,
# under the responder's cap of connections from one address
i=10
while [ "$i" -lt 210 ]; do
	ip -n "$NS3" addr add "10.231.54.$i/24" dev lan0 || break
	i=$((i + 1))
done

# run_rdv DIR NOFILE: node 0 with NOFILE descriptors (its pid in DIR/pid,
# its CPU time in DIR/peak.cpu from peak_rss.py, its status in DIR/1.rc),
# the intruder's joins, then the real member; M is node 0's mesh
# document.
run_rdv() {
	_rd=$1
	mkdir -p "$_rd"
	(
		ulimit -n "$2"
		ip netns exec "$NS1" unshare --uts sh -c \
			'hostname node01; exec "$@"' sh \
			python3 "$HERE/peak_rss.py" "$_rd/pid" "$_rd/peak" \
			"$NETPROBE" mesh --hosts "$OUT/hosts" -k "$OUT/tok" \
			--join-timeout 60s --quick --format json \
			-o "$_rd/report.json" --out "$_rd/docs" \
			>"$_rd/1.out" 2>"$_rd/1.err"
		echo $? >"$_rd/1.rc"
	) &
	lab_check "node 0 started" lab_wait 100 test -s "$_rd/pid"
	lab_check "node 0's rendezvous listens" lab_wait 300 \
		ip netns exec "$NS1" sh -c 'ss -Htln | grep -q ":7471 "'
	(
		ulimit -n 4096
		ip netns exec "$NS3" python3 "$HERE/mesh_hostile.py" idle \
			10.231.54.1 7471 "$CONNS" 2 30 10.231.54.10 200 \
			>"$_rd/i.out" 2>"$_rd/i.err"
	) &
	_i=$!
	lab_check "the intruder's $CONNS joins came" \
		lab_wait 600 grep -q "^challenged" "$_rd/i.out"
	echo "# intruder: $(head -n 1 "$_rd/i.out")"
	lab_check "node 0 closes the joins it holds (5 s deadline)" \
		lab_wait 150 grep -q "^still open" "$_rd/i.out"
	wait "$_i"
	lab_check "no idle join is left open" \
		test "$(tail -n 1 "$_rd/i.out")" = "still open 0"
	# the real member joins after them
	mesh_run 2 "$_rd" --hosts "$OUT/hosts" -k "$OUT/tok" \
		--join-timeout 60s --quick
	lab_check "both nodes end within 90 s" mesh_wait_all 2 "$_rd" 90
	LAB_OUT=$(cat "$_rd/2.err")
	lab_grep "the member joined and got node 0's verdict" \
		'mesh of 2 nodes \(2 joined\): exit status [01]'
	lab_check "node 0 exits 0 or 1, not 2" \
		test "$(cat "$_rd/1.rc")" -lt 2
	_cpu=$(cat "$_rd/peak.cpu")
	echo "# node 0: $_cpu s of CPU"
	lab_check "node 0 did not spin (under 3 s of CPU)" \
		awk -v c="$_cpu" 'BEGIN { exit !(c < 3) }'
	M="$_rd/docs/mesh.json"
	echo "# rendezvous: $(jq -c .mesh.rendezvous "$M")"
	lab_check "the mesh document: 2 joined" \
		test "$(jq -r .mesh.joined "$M")" = 2
	LAB_OUT=$(jq -r '.mesh.members[] | select(.name == "node02") |
		.state' "$M")
	lab_grep "node02 is a member that joined" '^joined$'
	lab_check "node 0 counts every idle join it dropped" \
		test "$(jq -r '.mesh.rendezvous | .unauthenticated_late +
			.unauthenticated_over + .unauthenticated_fds' "$M")" = \
		"$CONNS"
	LAB_OUT=$(cat "$_rd/1.err")
}

# --- 1,024 descriptors ------------------------------------------------------
run_rdv "$OUT/1024" 1024
lab_check "node 0 dropped the last of them at their deadline" \
	test "$(jq -r '.mesh.rendezvous.unauthenticated_late' "$M")" -gt 0
lab_check "node 0 never ran short of descriptors" \
	test "$(jq -r '.mesh.rendezvous.fds_short' "$M")" = 0

# --- 80 descriptors: node 0 runs short --------------------------------------
run_rdv "$OUT/80" 80
lab_grep "node 0 says it is short of descriptors" \
	'node 0 is short of file descriptors \(limit 80\)'
lab_check "node 0 dropped joins for want of descriptors" \
	test "$(jq -r '.mesh.rendezvous.unauthenticated_fds' "$M")" -gt 0
lab_done
