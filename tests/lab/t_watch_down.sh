# Lab: an outage during netprobe mesh --watch is the verdict (issue 44).
# Three nodes on one bridge pass their first mesh and watch each other
# every second; node03 then drops everything from and to node02
# (nftables) until both ends have logged the pair down, and lets it
# through again until both have logged it up; SIGTERM ends the watch.
# Node 0 exits 1 and its report's first line names the link and how long
# it was down, which is about as long as the drop held; netprobe report
# over the --out documents says the same, with the finding on the nodes
# that saw it (node02 and node03) and none on node01.
# lab-bound: 240
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
lab_require nft jq unshare
OUT=$(mktemp -d)
trap 'lab_cleanup; rm -rf "$OUT" "$MESH_HOSTS"' EXIT

N=3
mesh_build $N 44 0
lab_check "links up" mesh_wait_links $N
NS3=$(mesh_ns 3)
R="$OUT/r"
mkdir -p "$R"
# the duration only bounds the lab: SIGTERM ends the watch
mesh_run 1 "$R" --hosts "$MESH_HOSTS" --join-timeout 30s --quick \
	--out "$OUT/docs" --watch 1s --duration 150s
for i in 2 3; do
	mesh_run "$i" "$R" --hosts "$MESH_HOSTS" --join-timeout 30s --quick \
		--watch 1s --duration 150s
done

# logged I PATTERN: node I's standard error has a line matching PATTERN
logged() {
	grep -Eq -- "$2" "$R/$1.err"
}
lab_check "every node passed its first mesh and watches" lab_wait 600 \
	sh -c "grep -q 'watching 2 peers' '$R/1.err' &&
		grep -q 'watching 2 peers' '$R/2.err' &&
		grep -q 'watching 2 peers' '$R/3.err'"
lab_check "node 0's first mesh passed" \
	logged 1 'first mesh: exit status 0'

# the outage: node03 drops everything from and to node02
t_drop=$(date +%s.%N)
ip netns exec "$NS3" nft -f - <<'NFT'
table inet np_down {
	chain in {
		type filter hook input priority 0; policy accept;
		ip saddr 10.231.44.2 drop
	}
	chain out {
		type filter hook output priority 0; policy accept;
		ip daddr 10.231.44.2 drop
	}
}
NFT
lab_check "node02 logs node02 -> node03 down" lab_wait 300 \
	logged 2 'node02 -> node03: up -> down'
lab_check "node03 logs node03 -> node02 down" lab_wait 300 \
	logged 3 'node03 -> node02: up -> down'
t_up=$(date +%s.%N)
ip netns exec "$NS3" nft delete table inet np_down
lab_check "node02 logs node02 -> node03 up again" lab_wait 300 \
	logged 2 'node02 -> node03: down -> up'
lab_check "node03 logs node03 -> node02 up again" lab_wait 300 \
	logged 3 'node03 -> node02: down -> up'
held=$(awk "BEGIN { printf \"%.1f\", $t_up - $t_drop }")
echo "# the drop held $held s"

for i in 1 2 3; do
	ip netns pids "$(mesh_ns "$i")" 2>/dev/null | while read -r p; do
		[ "$(cat /proc/"$p"/comm 2>/dev/null)" != netprobe ] ||
			kill -TERM "$p"
	done
done
lab_check "every node stopped" mesh_wait_all $N "$R" 30
lab_check "node 0 exits 1: the outage" test "$(cat "$R/1.rc")" = 1
# exit 1 is also a sanitizer's: none may have spoken
lab_check "no sanitizer report on any node" \
	sh -c "! grep -q Sanitizer '$R/1.err' '$R/2.err' '$R/3.err'"
lab_check "members exit 0: their first mesh passed" \
	sh -c "[ \"\$(cat '$R/2.rc')\" = 0 ] && [ \"\$(cat '$R/3.rc')\" = 0 ]"

FIRST='^verdict: FAULT: .* on 3 nodes; link node02 -> node03 was down [0-9]+\.[0-9] s during the watch, from 20[0-9-]+T[0-9:.]+Z to 20[0-9-]+T[0-9:.]+Z'
LAB_OUT=$(head -1 "$R/1.out")
echo "# node 0: $LAB_OUT"
lab_grep "node 0's first line names the link and its down time" "$FIRST"
# close_to LINE: the seconds down it names are the drop's, give or take
# the rounds that date each end (2.5 s)
close_to() {
	s=$(printf '%s\n' "$1" | sed -n 's/.* was down \([0-9.]*\) s during.*/\1/p')
	[ -n "$s" ] && echo "$s $held" |
		awk '{d = $1 - $2; exit !(d > -2.5 && d < 2.5)}'
}
lab_check "the down time is the drop's ($held s), within 2.5 s" \
	close_to "$LAB_OUT"
node0_first=$LAB_OUT

lab_rc 1 "netprobe report over the --out documents exits 1" \
	"$NETPROBE" report "$OUT/docs"
LAB_OUT=$(printf '%s\n' "$LAB_OUT" | head -1)
lab_check "and its first line is node 0's" test "$LAB_OUT" = "$node0_first"
lab_rc 1 "the JSON report" "$NETPROBE" report --format json "$OUT/docs"
J=$LAB_OUT
lab_check "link-down-during-watch faults on node02 and node03 only" test \
	"$(jqv '[.findings[] | select(.code == "link-down-during-watch")
		| "\(.node):\(.link.from)->\(.link.to):\(.severity)"]
		| sort | join(" ")')" = \
	"node02:node02->node03:fault node03:node03->node02:fault"
lab_check "each came back: up_at set, not still down" test \
	"$(jqv '[.findings[] | select(.code == "link-down-during-watch")
		| select(.link.up_at != null and .link.still_down == false)]
		| length')" = 2
lab_rc 1 "the HTML report" "$NETPROBE" report --format html \
	-o "$OUT/r.html" "$OUT/docs"
lab_check "the HTML banner names the link, before the root causes" \
	sh -c "sed -n '/class=\"verdict/,/<main>/p' '$OUT/r.html' |
		grep -q 'link node02 -&gt; node03 was down'"
lab_done
