# Lab: netprobe mesh --watch with Debian's prometheus scraping it. Three
# nodes on one bridge watch each other every second, each serving
# /metrics on its LAN address; Prometheus runs in node01's namespace
# (its loopback only), with contrib/prometheus/netprobe.rules.yml
# evaluated every second. A healthy watch of three minutes logs no
# change and fires nothing (issue 36: "several minutes"); then node03 drops everything from node02 (nftables) for about
# 8 s: the scraped series show node02 -> node03 unreachable and back, the
# flapping alert fires in Prometheus's own evaluation, and node 0's mesh
# document holds the four changes (both directions, down and up) with
# the right pair and about the right times, and none for node01's pairs;
# node 0 and netprobe report exit 1, the outage first (issue 44).
# promtool checks the rules, their unit tests and a scrape.
# lab-bound: 600
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
lab_require nft python3 unshare prometheus promtool
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RULES="$ROOT/contrib/prometheus/netprobe.rules.yml"
OUT=$(mktemp -d)
PROM_PID=""
trap 'kill $PROM_PID 2>/dev/null; lab_cleanup; rm -rf "$OUT" "$MESH_HOSTS"' EXIT

lab_rc 0 "promtool check rules" promtool check rules "$RULES"
lab_rc 0 "promtool test rules: the alert fires on a flapping series" \
	sh -c "cd '$ROOT/contrib/prometheus' && promtool test rules netprobe.rules.test.yml"

# every query of the Grafana dashboard parses (as recording rules)
python3 - "$ROOT/contrib/grafana/netprobe-dashboard.json" >"$OUT/dash.yml" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("groups:\n  - name: dashboard\n    rules:")
for i, p in enumerate(d["panels"]):
    for t in p["targets"]:
        e = t["expr"].replace("$node", ".*")
        print("      - record: dashboard:q%d_%s\n        expr: %s" % (i, t["refId"], json.dumps(e)))
PY
lab_rc 0 "the dashboard's queries parse (promtool check rules)" \
	promtool check rules "$OUT/dash.yml"

N=3
mesh_build $N 36 0
lab_check "links up" mesh_wait_links $N
NS1=$(mesh_ns 1)
NS3=$(mesh_ns 3)

# Prometheus on node01's loopback: its own config, storage and port
cat >"$OUT/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
  evaluation_interval: 1s
rule_files:
  - $RULES
scrape_configs:
  - job_name: netprobe
    static_configs:
      - targets: ['10.231.36.1:9470', '10.231.36.2:9470', '10.231.36.3:9470']
EOF
ip netns exec "$NS1" prometheus --config.file="$OUT/prometheus.yml" \
	--storage.tsdb.path="$OUT/tsdb" --web.listen-address=127.0.0.1:9090 \
	--storage.tsdb.retention.time=1h >"$OUT/prom.log" 2>&1 &
PROM_PID=$!

# q EXPR: the values of an instant query, one "node peer value" a line
q() {
	ip netns exec "$NS1" python3 - "$1" <<'PY'
import json, sys, urllib.parse, urllib.request
u = "http://127.0.0.1:9090/api/v1/query?query=" + urllib.parse.quote(sys.argv[1])
d = json.load(urllib.request.urlopen(u, timeout=5))
for r in d["data"]["result"]:
    m = r["metric"]
    print(m.get("node", "-"), m.get("peer", "-"), r["value"][1])
PY
}
# alerts: the alerts Prometheus holds, "name state node peer" a line
alerts() {
	ip netns exec "$NS1" python3 - <<'PY'
import json, urllib.request
d = json.load(urllib.request.urlopen("http://127.0.0.1:9090/api/v1/alerts", timeout=5))
for a in d["data"]["alerts"]:
    l = a["labels"]
    print(l["alertname"], a["state"], l.get("node", "-"), l.get("peer", "-"))
PY
}
lab_check "prometheus is ready" lab_wait 300 ip netns exec "$NS1" python3 -c \
	'import urllib.request; urllib.request.urlopen("http://127.0.0.1:9090/-/ready", timeout=2)'

R="$OUT/r"
mkdir -p "$R"
mesh_run 1 "$R" --hosts "$MESH_HOSTS" --join-timeout 30s --quick \
	--out "$OUT/docs" --watch 1s --duration 400s \
	--metrics 10.231.36.1:9470 --textfile "$OUT"
for i in 2 3; do
	mesh_run "$i" "$R" --hosts "$MESH_HOSTS" --join-timeout 30s --quick \
		--watch 1s --duration 400s --metrics "10.231.36.$i:9470"
done

# every pair scraped and reachable (each node probes both others)
all_up() {
	[ "$(q 'netprobe_mesh_peer_reachable == 1' | wc -l)" = 6 ]
}
lab_check "prometheus scrapes all six pairs up" lab_wait 600 all_up
lab_rc 0 "a member's scrape" ip netns exec "$NS1" python3 \
	"$ROOT/tests/lab/http_get.py" 10.231.36.2 9470 GET
printf '%s\n' "$LAB_OUT" | sed 1d >"$OUT/scrape.txt"
lab_rc 0 "promtool check metrics accepts a watching member's scrape" \
	sh -c "promtool check metrics <'$OUT/scrape.txt'"
lab_check "textfile of node01 written" test -s "$OUT/netprobe_mesh.prom"
lab_rc 0 "promtool check metrics accepts node01's textfile" \
	sh -c "promtool check metrics <'$OUT/netprobe_mesh.prom'"

# healthy: three minutes of rounds (a window watched, not a wait for a
# state) with no change and no link alert
sleep 180
LAB_OUT=$(q 'sum(netprobe_mesh_peer_state_changes_total)' 2>&1)
lab_grep "healthy: no state change on any pair" ' 0$'
LAB_OUT=$(alerts 2>&1)
lab_nogrep "healthy: no link alert" '^Netprobe(LinkFlapping|PeerDown|PeerLossy) '
# every tenth round one peer's path MTU: by now each node measured both
LAB_OUT=$(q 'netprobe_mesh_peer_path_mtu_bytes' 2>&1)
lab_check "the path MTU of all six pairs scraped: 1500" \
	test "$(printf '%s\n' "$LAB_OUT" | grep -c ' 1500$')" = 6

# the flap: node03 drops everything from and to node02 for about 8 s
t_drop=$(date +%s.%N)
ip netns exec "$NS3" nft -f - <<'NFT'
table inet np_flap {
	chain in {
		type filter hook input priority 0; policy accept;
		ip saddr 10.231.36.2 drop
	}
	chain out {
		type filter hook output priority 0; policy accept;
		ip daddr 10.231.36.2 drop
	}
}
NFT
down_seen() {
	q 'netprobe_mesh_peer_reachable{node="node02",peer="node03"} == 0' |
		grep -q node02
}
lab_check "the scraped series show node02 -> node03 unreachable" \
	lab_wait 200 down_seen
sleep 5 # the fault held this long past its first scrape
t_up=$(date +%s.%N)
ip netns exec "$NS3" nft delete table inet np_flap
up_seen() {
	q 'netprobe_mesh_peer_reachable{node="node02",peer="node03"} == 1' |
		grep -q node02
}
lab_check "and reachable again" lab_wait 200 up_seen
firing() {
	alerts | grep -q '^NetprobeLinkFlapping firing node02 node03$'
}
lab_check "prometheus fires NetprobeLinkFlapping for node02 -> node03" \
	lab_wait 200 firing
LAB_OUT=$(alerts 2>&1)
lab_nogrep "no alert for node01's pairs" \
	'^Netprobe(LinkFlapping|PeerDown|PeerLossy) [a-z]+ (node01 |[a-z0-9]+ node01$)'
LAB_OUT=$(q 'netprobe_mesh_peer_state_changes_total' 2>&1)
lab_grep "node02 -> node03: 2 changes" '^node02 node03 2$'
lab_grep "node03 -> node02: 2 changes" '^node03 node02 2$'

# SIGTERM ends the watch cleanly; node 0 writes the change log
for i in 1 2 3; do
	ip netns pids "$(mesh_ns "$i")" 2>/dev/null | while read -r p; do
		[ "$p" = "$PROM_PID" ] || [ "$(cat /proc/"$p"/comm 2>/dev/null)" != netprobe ] ||
			kill -TERM "$p"
	done
done
lab_check "every member stopped" mesh_wait_all $N "$R" 30
lab_check "node 0 exits 1: the outage is the report's (issue 44)" \
	test "$(cat "$R/1.rc")" = 1
lab_check "members exit 0 or 1" \
	sh -c "[ \"\$(cat '$R/2.rc')\" -le 1 ] && [ \"\$(cat '$R/3.rc')\" -le 1 ]"
lab_rc 0 "the change log in node 0's mesh document" python3 - \
	"$OUT/docs/mesh.json" "$t_drop" "$t_up" <<'PY'
import datetime, json, sys
d = json.load(open(sys.argv[1]))
w = d["mesh"]["watch"]
t_drop, t_up = float(sys.argv[2]), float(sys.argv[3])
print("stopped by", w["stopped_by"], "after", w["rounds"], "rounds")
ok = True
for c in w["changes"]:
    at = datetime.datetime.strptime(c["at"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(
        tzinfo=datetime.timezone.utc).timestamp()
    ref = t_drop if c["now"] != "up" else t_up
    print("%s %s -> %s: %s -> %s, %+.1f s from the fault, lasted %.1f s: %s"
          % (c["at"], c["from"], c["to"], c["was"], c["now"], at - ref,
             c["lasted_ms"] / 1e3, c["evidence"]))
    if not -1.5 <= at - ref <= 3.5:
        ok = False
pairs = sorted((c["from"], c["to"], c["was"], c["now"]) for c in w["changes"])
want = sorted([("node02", "node03", "up", "down"), ("node02", "node03", "down", "up"),
               ("node03", "node02", "up", "down"), ("node03", "node02", "down", "up")])
print("pairs ok" if pairs == want else "pairs differ: %s" % pairs)
print("times ok" if ok else "times off")
down = [c for c in w["changes"] if c["now"] == "up"]
print("down lasted", ", ".join("%.1f s" % (c["lasted_ms"] / 1e3) for c in down))
sys.exit(0 if pairs == want and ok and w["stopped_by"] == "SIGTERM" else 1)
PY
printf '%s\n' "$LAB_OUT" | sed 's/^/    # /'
lab_rc 1 "netprobe report renders the timeline, exit 1" "$NETPROBE" report \
	"$OUT/docs"
lab_grep "timeline in the text" 'node02 -> node03.*down'
lab_grep "the first line names the outage" \
	'^verdict: FAULT: .*; link node02 -> node03 was down [0-9.]+ s during'
lab_rc 1 "and a plot in HTML" "$NETPROBE" report --format html \
	-o "$OUT/r.html" "$OUT/docs"
lab_check "the HTML has the timeline plot" grep -q 'class="watch-plot"' "$OUT/r.html"
lab_done
