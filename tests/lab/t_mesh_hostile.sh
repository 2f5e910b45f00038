# Lab: a hostile member of a watching mesh (issue 45). Two nodes on one
# bridge: node01 runs netprobe mesh --watch (node 0, under peak_rss.py,
# which reads its VmHWM), node02 is no netprobe but a client of its own
# (mesh_hostile.py) that joins, sends a document that is none, and once
# node 0 watches sends 2,000 change frames of 59,000 bytes and 10,000 of
# 3,900. Node 0 refuses the large ones by name, keeps node02's 1 MiB
# share and counts the rest; its peak RSS stays under 64 MiB, SIGTERM
# ends it, and netprobe report reads its mesh document (under 64 MiB),
# saying what node 0 did not keep. Then a second watch, the member
# sending nothing: SIGHUP (a closed terminal) ends it as SIGTERM does,
# node 0 writes the report and exits with the first mesh's status.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
lab_require jq python3 unshare
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(mktemp -d /tmp/np-mesh-hostile.XXXXXX)
BIG=2000
SMALL=10000
PEAK_KB=65536 # node 0's bound, as docs/mesh.md states it
# an ASan build (make SANITIZE=1) adds its shadow memory and quarantine:
# 62 MB measured there against 11 MB; the bound doubles, which the
# unbounded node 0 (620 MB without ASan) is still far over
if grep -qa __asan_init "$NETPROBE"; then
	PEAK_KB=131072
fi

# jqm FILTER: FILTER over node 0's mesh document, raw.
jqm() {
	jq -r "$1" "$M"
}

trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT" "$MESH_HOSTS"' EXIT

mesh_build 2 52 0
lab_check "links up" mesh_wait_links 2
NS1=$(mesh_ns 1)
NS2=$(mesh_ns 2)

# run_mesh DIR SIGNAL BIG SMALL: node 0 watching (its pid in DIR/pid,
# its peak RSS in DIR/peak, its status in DIR/rc) and the hostile member,
# which floods BIG and SMALL changes once node 0 watches; then SIGNAL to
# node 0, and a bounded wait for its end.
run_mesh() {
	_rd=$1
	mkdir -p "$_rd"
	(
		ip netns exec "$NS1" unshare --uts sh -c \
			'hostname node01; exec "$@"' sh \
			python3 "$HERE/peak_rss.py" "$_rd/pid" "$_rd/peak" \
			"$NETPROBE" mesh --hosts "$MESH_HOSTS" \
			--join-timeout 30s --quick --watch 5s --format json \
			-o "$_rd/report.json" --out "$_rd/docs" \
			>"$_rd/0.out" 2>"$_rd/0.err"
		echo $? >"$_rd/0.rc"
	) &
	lab_check "node 0 started" lab_wait 100 test -s "$_rd/pid"
	ip netns exec "$NS2" python3 "$HERE/mesh_hostile.py" flood \
		10.231.52.1 7471 node02 2 "$_rd/go" "$3" "$4" \
		>"$_rd/h.out" 2>"$_rd/h.err" &
	_h=$!
	lab_check "node 0 watches after the first mesh" \
		lab_wait 600 grep -Eq 'watching [0-9]+ peers? every' \
		"$_rd/0.err"
	touch "$_rd/go"
	lab_check "the member sent its frames and node 0 read them all" \
		lab_wait 1200 grep -q '^sent ' "$_rd/h.out"
	wait "$_h"
	echo "# hostile member: $(cat "$_rd/h.out" "$_rd/h.err")"
	kill -"$2" "$(cat "$_rd/pid")"
	lab_check "$2 ends node 0's watch within 30 s" \
		lab_wait 300 test -s "$_rd/0.rc"
	RC=$(cat "$_rd/0.rc")
	FIRST=$(sed -n 's/.*first mesh: exit status \([0-9]\).*/\1/p' \
		"$_rd/0.err")
	echo "# node 0: exit $RC (first mesh $FIRST), peak RSS" \
		"$(cat "$_rd/peak") kB"
	M="$_rd/docs/mesh.json"
	LAB_OUT=$(cat "$_rd/0.err")
}

# --- the flood, ended by SIGTERM ------------------------------------------
run_mesh "$OUT/flood" TERM "$BIG" "$SMALL"
lab_grep "node 0 refuses a change over 4096 bytes by name" \
	"'node02' \(rank 1\) sent a change of [0-9]+ bytes, over 4096: refused"
lab_grep "node 0 says node02's share is full" \
	"keeps no more changes of 'node02' \(rank 1\): its share of the log"
lab_check "node 0's peak RSS is under $PEAK_KB kB" \
	test "$(cat "$OUT/flood/peak")" -lt "$PEAK_KB"
lab_check "node 0 wrote the mesh document" test -s "$M"
echo "# mesh.json: $(wc -c <"$M") bytes"
lab_check "the mesh document is under 64 MiB" \
	test "$(wc -c <"$M")" -lt 67108864
lab_check "node02's changes not kept are counted" \
	test "$(jqm '.mesh.watch.dropped_by[] | select(.name == "node02") |
		"\(.too_large) \(.dropped > 11000)" +
		" \(.kept_bytes <= 1048576)"')" = "$BIG true true"
lab_check "the change log keeps node02's share, no more" \
	test "$(jqm '[.mesh.watch.changes[] | select(.from == "node02")] |
		length | . > 200 and . < 300')" = true
lab_rc 1 "netprobe report reads the mesh document" \
	"$NETPROBE" report "$OUT/flood/docs"
lab_nogrep "nothing is left out of the report" 'left out|larger than'
lab_grep "the report says the change log lacks node02's changes" \
	"error in mesh.json: watch: node 0 did not keep [0-9]+ changes of .node02"

# --- a closed terminal: SIGHUP ends the watch as SIGTERM does -------------
run_mesh "$OUT/hup" HUP 0 0
lab_check "node 0 exits with the first mesh's status, as for SIGTERM" \
	test "$RC" = "$FIRST"
lab_grep "node 0 says the watch ended by SIGHUP" 'watch ended \(SIGHUP\)'
lab_check "node 0 wrote the report" test -s "$OUT/hup/report.json"
lab_check "the mesh document says SIGHUP stopped the watch" \
	test "$(jqm .mesh.watch.stopped_by)" = SIGHUP
lab_done
