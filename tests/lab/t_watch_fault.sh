# Lab: the Prometheus rules against a real scrape with a fault (issue 44).
# Three nodes watch each other with --ports 29500, each serving /metrics
# on its LAN address and writing a textfile of its own; node03 drops its
# own connections to port 29500 (nftables, output), a fault its first
# mesh finds. Each member's scrape and textfile pass `promtool check
# metrics` and carry netprobe_build_info, the RTT histogram and the time
# they were written; the three scrapes, turned into promtool's input
# series (prom_scrape_test.py), fire NetprobeNodeFault for node03 and
# its code with severity "fault", and no alert of the rules for the
# healthy nodes. Then the watch ends three ways (node01 SIGTERM, node02
# SIGINT, node03 the end of --duration) and every textfile is gone.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
lab_require nft python3 unshare promtool
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RULES="$ROOT/contrib/prometheus/netprobe.rules.yml"
OUT=$(mktemp -d)
trap 'lab_cleanup; rm -rf "$OUT" "$MESH_HOSTS"' EXIT
GET="python3 $ROOT/tests/lab/http_get.py"

N=3
mesh_build $N 44 0
lab_check "links up" mesh_wait_links $N
ip netns exec "$(mesh_ns 3)" nft -f - <<'NFT'
table inet np44_out {
	chain out {
		type filter hook output priority 0; policy accept;
		tcp dport 29500 drop
	}
}
NFT

R="$OUT/r"
mkdir -p "$R" "$OUT/tf1" "$OUT/tf2" "$OUT/tf3"
for i in 1 2 3; do
	# node03's watch ends by itself, the others by a signal
	d=600s
	[ "$i" = 3 ] && d=40s
	mesh_run "$i" "$R" --hosts "$MESH_HOSTS" --join-timeout 30s --quick \
		--ports 29500 --watch 1s --duration "$d" \
		--metrics "10.231.44.$i:9470" --textfile "$OUT/tf$i"
done

# scrape I: node I's /metrics into $OUT/sI.txt, once it ran a round
scrape() {
	ip netns exec "$(mesh_ns "$1")" $GET "10.231.44.$1" 9470 GET \
		>"$OUT/s$1.raw" 2>&1 &&
		grep -Eq '^netprobe_mesh_watch_rounds_total\{[^}]*\} [1-9]' \
			"$OUT/s$1.raw" &&
		sed 1d "$OUT/s$1.raw" >"$OUT/s$1.txt"
}
for i in 1 2 3; do
	lab_check "node0$i watches: a round in its scrape" lab_wait 600 scrape "$i"
	lab_rc 0 "promtool check metrics accepts node0$i's scrape" \
		sh -c "promtool check metrics <'$OUT/s$i.txt'"
	lab_check "node0$i's textfile written" test -s "$OUT/tf$i/netprobe_mesh.prom"
	lab_rc 0 "promtool check metrics accepts node0$i's textfile" \
		sh -c "promtool check metrics <'$OUT/tf$i/netprobe_mesh.prom'"
done
LAB_OUT=$(cat "$OUT/s2.txt")
lab_grep "the build" '^netprobe_build_info\{version="[0-9][^"]*"\} 1$'
lab_grep "when written" \
	'^netprobe_mesh_watch_last_update_timestamp_seconds\{node="node02"\} 1[0-9]{9}'
lab_grep "an RTT histogram" '^# TYPE netprobe_mesh_peer_rtt_seconds histogram$'
lab_grep "its buckets per peer, 50 us to 1 s" \
	'^netprobe_mesh_peer_rtt_seconds_bucket\{node="node02",peer="node01",le="5e-05"\} [0-9]+$'
lab_grep "and +Inf" \
	'^netprobe_mesh_peer_rtt_seconds_bucket\{node="node02",peer="node01",le="\+Inf"\} [1-9]'
LAB_OUT=$(cat "$OUT/s1.txt" "$OUT/s2.txt" "$OUT/s3.txt")
lab_grep "node03's fault in its scrape" \
	'^netprobe_mesh_findings\{node="node03",code="[a-z-]+",severity="fault"\}'
lab_nogrep "no fault on node01 or node02" \
	'^netprobe_mesh_findings\{node="node0[12]",[^}]*severity="fault"\}'
FAULTS=$(sed -n 's/^netprobe_mesh_findings{node="node03",code="\([a-z-]*\)",severity="fault"} [1-9].*/node03:\1/p' \
	"$OUT/s3.txt")
lab_check "node03's fault is port-filtered (its own connects to 29500)" \
	test "$FAULTS" = node03:port-filtered

lab_rc 0 "the scrapes become promtool input series" python3 \
	"$ROOT/tests/lab/prom_scrape_test.py" "$RULES" "$OUT/scrape.test.yml" \
	10.231.44.1:9470="$OUT/s1.txt" 10.231.44.2:9470="$OUT/s2.txt" \
	10.231.44.3:9470="$OUT/s3.txt" -- $FAULTS
lab_rc 0 "promtool: NetprobeNodeFault fires for node03 with severity fault, nothing else fires" \
	promtool test rules "$OUT/scrape.test.yml"

# the end of the watch: SIGTERM on node01 (node 0), SIGINT on node02,
# --duration on node03; each removes its textfile
sig() {
	ip netns pids "$(mesh_ns "$1")" 2>/dev/null | while read -r p; do
		[ "$(cat /proc/"$p"/comm 2>/dev/null)" != netprobe ] ||
			kill -"$2" "$p"
	done
}
sig 2 INT
sig 1 TERM
lab_check "every member stopped" mesh_wait_all $N "$R" 60
lab_check "every exit status 0 or 1 [$(cat "$R"/*.rc | tr '\n' ' ')]" \
	test -z "$(cat "$R"/*.rc | grep -v '^[01]$')"
LAB_OUT=$(cat "$R/1.err" "$R/2.err" "$R/3.err")
lab_grep "node01 ended by SIGTERM" 'watch ended \(SIGTERM\)'
lab_grep "node02 ended by SIGINT" 'watch ended \(SIGINT\)'
lab_grep "node03 ended by its duration" 'watch ended \(duration\)'
for i in 1 2 3; do
	lab_check "node0$i's textfile is gone" \
		test ! -e "$OUT/tf$i/netprobe_mesh.prom"
done
lab_check "no temporary file left" test -z "$(find "$OUT"/tf? -type f)"
lab_done
