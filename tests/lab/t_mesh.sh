# netprobe mesh lab: 16 nodes in network namespaces on one LAN, node15
# and node16 behind a NAT router (nftables masquerade, new inbound
# connections dropped), node08 with its ephemeral port range filtered.
# One `netprobe mesh --hosts` per node: every node exits 1, node 0 writes
# a report whose matrix names exactly those, in both directions, within
# the run's bound. Then bad input on a small mesh: an entry listed twice,
# a node not in the list, a token mismatch, a node that joins and dies, a
# node that never comes: each named, nothing hangs, the others' results
# still reported. Then the launchers' forms: Slurm, torchrun-style and
# Open MPI variables.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require nft jq unshare

N=16
EPH=8        # the node whose ephemeral range is filtered
BOUND=60     # seconds the whole 16-node mesh may take here
OUT=$(mktemp -d /tmp/np-mesh-lab.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT" "$MESH_HOSTS"' EXIT

# jqr FILTER FILE: FILTER applied to FILE, raw.
jqr() {
	jq -r "$1" "$2"
}

mesh_build "$N" 40 2
lab_check "every node's link is up" mesh_wait_links "$N"
ENS=$(mesh_ns "$EPH")
ip netns exec "$ENS" sysctl -qw net.ipv4.ip_local_port_range="40000 40999"
ip netns exec "$ENS" nft -f - <<'NFT'
table inet np_fw {
	chain input {
		type filter hook input priority 0; policy accept;
		ct state established,related accept
		tcp dport 40000-40999 drop
	}
}
NFT

# --- the 16-node mesh -----------------------------------------------------
R="$OUT/main"
mkdir -p "$R"
t0=$(date +%s)
mesh_run 1 "$R" --hosts "$MESH_HOSTS" --join-timeout 30s --format json \
	-o "$R/report.json" --out "$R/docs"
i=2
while [ "$i" -le "$N" ]; do
	mesh_run "$i" "$R" --hosts "$MESH_HOSTS" --join-timeout 30s
	i=$((i + 1))
done
lab_check "16 nodes end within ${BOUND}s" mesh_wait_all "$N" "$R" "$BOUND"
t1=$(date +%s)
echo "# 16-node mesh: $((t1 - t0)) s"
rcs=$(cat "$R"/*.rc | sort | uniq -c | tr -s ' ' | tr '\n' ';')
lab_check "every node exits 1 (faults found) [$rcs]" \
	test "$(cat "$R"/*.rc | sort -u)" = 1
LAB_OUT=$(cat "$R/2.err")
lab_grep "a member prints node 0's verdict" \
	'mesh of 16 nodes \(16 joined\): exit status 1; the report is on node 0 \(node01\)'
lab_check "node 0 wrote the report" test -s "$R/report.json"
lab_check "--out keeps 16 documents and the mesh's" \
	test "$(ls "$R/docs" | wc -l)" = 17
M="$R/report.json"
lab_check "the report's mesh: 16 joined, 16 documents" \
	test "$(jqr '"\(.mesh.joined) \(.mesh.documents)"' "$M")" = "16 16"
lab_check "the mesh says the membership came from --hosts" \
	test "$(jqr '.mesh.source' "$M")" = "--hosts"
lab_check "every pair was probed: 240 probes" \
	test "$(jqr '.mesh.probes' "$M")" = 240
lab_check "the matrix has all 240 cells" \
	test "$(jqr '.matrix.cells | length' "$M")" = 240
# every cell that is not reachable, as from>to:state
BAD=$(jqr '.matrix.cells[] | select(.state != "reachable") |
	"\(.from)>\(.to):\(.state)"' "$M" | sort)
WANT=$(
	for a in 01 02 03 04 05 06 07 08 09 10 11 12 13 14; do
		for b in 15 16; do
			echo "node$a>node$b:unreachable"
			echo "node$b>node$a:nat"
		done
		[ "$a" != 08 ] && echo "node$a>node08:ports-filtered"
	done | sort
)
if [ "$BAD" = "$WANT" ]; then
	lab_ok "the matrix names exactly node15, node16 (NAT, both ways) and node08's ephemeral ports"
else
	lab_notok "the matrix names exactly node15, node16 and node08"
	printf '%s\n' "$WANT" >"$OUT/want.txt"
	printf '%s\n' "$BAD" >"$OUT/got.txt"
	diff "$OUT/want.txt" "$OUT/got.txt" | head -20 | sed 's/^/    # /'
fi
lab_check "node15 and node16 reach each other behind the router" \
	test "$(jqr '[.matrix.cells[] | select((.from == "node15" and .to == "node16") or (.from == "node16" and .to == "node15")) | .state] | unique | join(",")' "$M")" = reachable
lab_check "cells carry RTT and path MTU" \
	test "$(jqr '[.matrix.cells[] | select(.state == "reachable") | select(.rtt_us != null and .path_mtu == 1500)] | length' "$M")" -ge 100
codes() {
	jqr "[.findings[] | select(.node == \"$1\") | .code] | unique |
		join(\",\")" "$M"
}
LAB_OUT=$(codes node15)
lab_grep "node15: nat-detected" 'nat-detected'
lab_grep "node15: inbound-blocked" 'inbound-blocked'
LAB_OUT=$(codes node08)
lab_grep "node08: ephemeral-range-blocked" 'ephemeral-range-blocked'
LAB_OUT=$(codes node01)
lab_grep "node01 cannot reach node15's responder (port-filtered)" \
	'port-filtered'
# a healthy node's findings all concern node15, node16 or node08
LAB_OUT=$(jqr '.findings[] | select(.node | test("node(0[2-79]|1[0-4])")) |
	select(.summary | test("10\\.231\\.41\\.|10\\.231\\.40\\.8\\b|node1[56]|node08") | not) |
	"\(.node): \(.code): \(.summary)"' "$M")
lab_check "healthy nodes' findings all concern node15, node16 or node08" \
	test -z "$LAB_OUT"
[ -n "$LAB_OUT" ] && printf '%s\n' "$LAB_OUT" | head | sed 's/^/    # /'
lab_rc 1 "netprobe report over the kept documents" \
	"$NETPROBE" report --format json "$R/docs"
lab_check "the same matrix from the kept documents" test "$(printf '%s\n' \
	"$LAB_OUT" | jq -r '.matrix.cells[] | select(.state != "reachable") |
	"\(.from)>\(.to):\(.state)"' | sort)" = "$BAD"
lab_rc 1 "the report renders as HTML" "$NETPROBE" report --format html \
	-o "$OUT/mesh.html" "$R/docs"
lab_check "the HTML report has the mesh section" \
	grep -q '<h2>Mesh</h2>' "$OUT/mesh.html"

# --- the closed loop: node08's printed fix run there, the mesh again -----
# node15 and node16's NAT has no command fix (host networking, which
# t_mesh_natjoin applies); node08's firewall has one, run verbatim on
# node08, the one node it may touch. The re-run: node08's cause gone,
# the NAT's two stay, nothing new.
cl_ns() {
	mesh_ns "$(echo "${1#node}" | sed 's/^0//')"
}
CL_NOCMD="nat:node15 nat:node16" cl_apply "$M" node08
lab_check "node08's fix applied" test "$CL_APPLIED" -gt 0
R="$OUT/fixed"
mkdir -p "$R"
mesh_run 1 "$R" --hosts "$MESH_HOSTS" --join-timeout 30s --format json \
	-o "$R/report.json"
i=2
while [ "$i" -le "$N" ]; do
	mesh_run "$i" "$R" --hosts "$MESH_HOSTS" --join-timeout 30s
	i=$((i + 1))
done
lab_check "after the fix: 16 nodes end within ${BOUND}s" \
	mesh_wait_all "$N" "$R" "$BOUND"
cl_same "$M" "$R/report.json" "node08's fix" nat:node15 nat:node16

# --- bad input: listed twice, not in the list, wrong token, dies, missing --
# entries: node01 node02 node03 node02 node04 node06; node05 is not in
# the list but joins; node03 proves another token; node04 is killed once
# the mesh started; node06 never comes.
R="$OUT/bad"
mkdir -p "$R"
H2="$OUT/hosts2"
printf 'node01\nnode02\nnode03\nnode02\nnode04\nnode06\n' >"$H2"
printf 'the-right-token-123\n' >"$OUT/tok"
printf 'another-token-4567\n' >"$OUT/tok2"
t0=$(date +%s)
mesh_run 1 "$R" --hosts "$H2" -k "$OUT/tok" --join-timeout 8s -v \
	--format json -o "$R/report.json"
for i in 2 4 5; do
	mesh_run "$i" "$R" --hosts "$H2" -k "$OUT/tok" --join-timeout 8s
done
mesh_run 3 "$R" --hosts "$H2" -k "$OUT/tok2" --join-timeout 8s
# node04 dies as soon as node 0 started the mesh
lab_check "node 0 starts the mesh after the join timeout" \
	lab_wait 150 grep -q 'members joined after' "$R/1.err"
for p in $(ip netns pids "$(mesh_ns 4)"); do kill -9 "$p"; done
echo 137 >"$R/4.rc"
lab_check "the bad-input mesh ends within 40 s" mesh_wait_all 5 "$R" 40
echo "# bad-input mesh: $(($(date +%s) - t0)) s"
M="$R/report.json"
lab_check "node 0 exits 1" test "$(cat "$R/1.rc")" = 1
lab_check "node02 exits 1 (the mesh's verdict)" test "$(cat "$R/2.rc")" = 1
lab_check "node03 (wrong token) exits 2" test "$(cat "$R/3.rc")" = 2
LAB_OUT=$(cat "$R/3.err")
lab_grep "node03 is told why" 'turned this node away.*different token'
lab_check "node05 (not in the list) exits 2" test "$(cat "$R/5.rc")" = 2
LAB_OUT=$(cat "$R/5.err")
lab_grep "node05 is told why" 'not in the host list'
LAB_OUT=$(jqr '.findings[] | "\(.code): \(.summary)"' "$M")
lab_grep "listed twice: named" "mesh-node-duplicate: node02.*entry 4 repeats entry 2"
lab_grep "token mismatch: named" "mesh-token-mismatch: 'node03'.*different token"
lab_grep "not in the list: named" "mesh-node-unknown: 'node05'.*not in the host list"
# killed with node 0's START unread or read: the kernel ends the
# connection with a reset or a close, which is timing, not the verdict
lab_grep "joined and died: named" "mesh-node-died: node04 joined, then its connection to node 0 (closed|was reset)"
lab_grep "never came: named" "mesh-node-missing: node06 did not join"
lab_check "the mesh: 6 entries, 3 joined, 2 documents" \
	test "$(jqr '"\(.mesh.size) \(.mesh.joined) \(.mesh.documents)"' "$M")" = "6 3 2"
lab_check "the others' results still reported: node01 <-> node02 reachable" \
	test "$(jqr '[.matrix.cells[] | select((.from == "node01" and .to == "node02") or (.from == "node02" and .to == "node01")) | .state] | unique | join(",")' "$M")" = reachable

# --- the launchers' forms: Slurm, torchrun-style, Open MPI ----------------
# run_pair NAME ENV0 ENV1 ARGS...: a two-node mesh with per-node variables
run_pair() {
	_name=$1 _e0=$2 _e1=$3
	shift 3
	R="$OUT/$_name"
	mkdir -p "$R"
	MESH_ENV="$_e0" mesh_run 1 "$R" --join-timeout 15s --quick "$@"
	MESH_ENV="$_e1" mesh_run 2 "$R" --join-timeout 15s --quick "$@"
	lab_check "$_name: two nodes end within 30 s" mesh_wait_all 2 "$R" 30
}
run_pair slurm "SLURM_JOB_NODELIST=node[01-02] SLURM_NODEID=0 SLURM_LOCALID=0" \
	"SLURM_JOB_NODELIST=node[01-02] SLURM_NODEID=1 SLURM_LOCALID=0"
lab_check "slurm: both exit 0 (healthy)" test "$(cat "$R"/*.rc | sort -u)" = 0
LAB_OUT=$(cat "$R/1.out")
lab_grep "slurm: the report says the members came from Slurm" \
	'mesh: 2 nodes from Slurm; 2 joined, 2 documents'
run_pair torchrun "MASTER_ADDR=node01 MASTER_PORT=7471 RANK=0 WORLD_SIZE=2" \
	"MASTER_ADDR=node01 MASTER_PORT=7471 RANK=1 WORLD_SIZE=2" --format json
lab_check "torchrun: both exit 0" test "$(cat "$R"/*.rc | sort -u)" = 0
lab_check "torchrun: source and MASTER_PORT used" test \
	"$(jqr '"\(.mesh.source) \(.mesh.port)"' "$R/1.out")" = \
	"torchrun-style variables 7471"
run_pair ompi "OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2" \
	"OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2" --rendezvous node01
lab_check "ompi: both exit 0" test "$(cat "$R"/*.rc | sort -u)" = 0
LAB_OUT=$(cat "$R/1.out")
lab_grep "ompi: the report says Open MPI" 'mesh: 2 nodes from Open MPI'
lab_rc 2 "no membership: exit 2" ip netns exec "$(mesh_ns 1)" env -i \
	"$NETPROBE" mesh
lab_grep "no membership: says what is needed" 'pass --hosts FILE\|LIST'
lab_rc 2 "Open MPI without node 0's address: exit 2" \
	ip netns exec "$(mesh_ns 1)" env -i OMPI_COMM_WORLD_RANK=1 \
	OMPI_COMM_WORLD_SIZE=2 "$NETPROBE" mesh
lab_grep "Open MPI: says what is needed" '--rendezvous HOST\[:PORT\]'
lab_rc 2 "a second process on a node: exit 2" ip netns exec "$(mesh_ns 1)" \
	env -i SLURM_JOB_NODELIST=node01 SLURM_NODEID=0 SLURM_LOCALID=1 \
	"$NETPROBE" mesh
lab_grep "a second process: says run one per node" 'run one per node'
# node 0's outputs are checked before anything is measured
R="$OUT/badout"
mkdir -p "$R"
: >"$R/afile"
mesh_run 1 "$R" --hosts node01,node02 -o "$R/none/r.txt"
lab_check "-o in a missing directory: node 0 ends at once" \
	mesh_wait_all 1 "$R" 10
lab_check "-o in a missing directory: exit 2" test "$(cat "$R/1.rc")" = 2
LAB_OUT=$(cat "$R/1.err")
lab_grep "-o in a missing directory: names it" \
	"cannot write the report to '$R/none/r.txt'"
rm -f "$R"/*.rc
mesh_run 1 "$R" --hosts node01,node02 --out "$R/afile"
lab_check "--out on a file: node 0 ends at once" mesh_wait_all 1 "$R" 10
lab_check "--out on a file: exit 2" test "$(cat "$R/1.rc")" = 2
LAB_OUT=$(cat "$R/1.err")
lab_grep "--out on a file: names it" \
	"cannot keep the documents in '$R/afile': not a directory"
lab_done
