# netprobe mesh --ports before training (issue 23): nothing listens yet
# on the job's ports, so each node's responder holds the free ones and a
# healthy cluster passes. Five namespace nodes on one LAN: healthy with
# --ports 29500 and with the torch preset (exit 0, PASS); a service
# already on 29500 on one node is named with its process and is no fault;
# an nftables drop of 29500 on one node blames exactly that node, and a
# reject with reset on another blames that one (a reset from a held port
# is a firewall's); their fixes, run verbatim there (the closed loop),
# make the mesh pass again.
LAB_ID="${LAB_ID:-23-$$}"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require nft jq unshare python3

N=5
OUT=$(mktemp -d /tmp/np23-ports.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT" "$MESH_HOSTS"' EXIT

mesh_build "$N" 23 0
lab_check "every node's link is up" mesh_wait_links "$N"

# run_mesh NAME ARGS...: every node runs netprobe mesh ARGS; node 0's
# report as JSON in $OUT/NAME/report.json, its documents in .../docs.
run_mesh() {
	R="$OUT/$1"
	shift
	mkdir -p "$R"
	mesh_run 1 "$R" --hosts "$MESH_HOSTS" --join-timeout 20s --quick \
		--format json -o "$R/report.json" --out "$R/docs" "$@"
	_i=2
	while [ "$_i" -le "$N" ]; do
		mesh_run "$_i" "$R" --hosts "$MESH_HOSTS" --join-timeout 20s \
			--quick "$@"
		_i=$((_i + 1))
	done
	lab_check "$(basename "$R"): $N nodes end within 60 s" \
		mesh_wait_all "$N" "$R" 60
}

# causes FILE: the root causes' titles, one a line, sorted
causes() {
	jq -r '.causes[]? | .title // .summary // .cause' "$1" | sort
}

run_mesh p29500 --ports 29500
lab_check "healthy, --ports 29500: every node exits 0 [$(cat "$R"/*.rc | tr '\n' ' ')]" \
	test "$(cat "$R"/*.rc | sort -u)" = 0
lab_check "healthy, --ports 29500: no finding but info" \
	test "$(jq '[.findings[] | select(.severity != "info")] | length' "$R/report.json")" = 0
lab_check "healthy: every node held 29500" \
	test "$(cat "$R"/docs/*.json | jq -s '[.[] | select(.mesh.ports.held == [29500])] | length')" = "$N"
LAB_OUT=$("$NETPROBE" report "$R/docs" 2>&1)
lab_grep "healthy: the text report says PASS" '^verdict: PASS'
cl_counts "$R/docs" healthy

# a service already on 29500 on node02, on every address
NS2=$(mesh_ns 2)
ip netns exec "$NS2" python3 -m http.server 29500 >/dev/null 2>&1 &
lab_check "node02's service listens on 29500" lab_wait 100 sh -c \
	"ip netns exec '$NS2' ss -ltn 'sport = :29500' | grep -q 29500"
run_mesh torch --ports torch
lab_check "healthy, torch preset, a service on node02: every node exits 0 [$(cat "$R"/*.rc | tr '\n' ' ')]" \
	test "$(cat "$R"/*.rc | sort -u)" = 0
LAB_OUT=$(jq -r '.findings[] | "\(.node) \(.code) \(.severity) \(.summary)"' "$R/report.json")
lab_grep "node02's service named with its process (port-in-use, info)" \
	'^node02 port-in-use info port 29500/tcp is already held by python3 \(pid [0-9]+\)'
lab_nogrep "no fault or warning anywhere" ' (fault|warning) '
lab_check "node02 held 29400 and names 29500's process" test \
	"$(jq -r '"\(.mesh.ports.held) \(.mesh.ports.taken[0].port) \(.mesh.ports.taken[0].process)"' "$R/docs/node02.json")" \
	= "[29400] 29500 python3"

# node03 drops 29500 in its own table, node04 rejects 29400 with a reset
ip netns exec "$(mesh_ns 3)" nft -f - <<'NFT'
table inet np23_drop {
	chain input {
		type filter hook input priority 0; policy accept;
		tcp dport 29500 drop
	}
}
NFT
ip netns exec "$(mesh_ns 4)" nft -f - <<'NFT'
table inet np23_rej {
	chain input {
		type filter hook input priority 0; policy accept;
		tcp dport 29400 reject with tcp reset
	}
}
NFT
run_mesh faults --ports torch
lab_check "faults: every node exits 1" test "$(cat "$R"/*.rc | sort -u)" = 1
LAB_OUT=$(jq -r '.causes[] | "\(.node // "?"): \(.title // .summary // "")"' "$R/report.json")
lab_check "faults: exactly two root causes" \
	test "$(jq '.causes | length' "$R/report.json")" = 2
lab_grep "node03 blamed for 29500/tcp" 'node03.*29500/tcp'
lab_grep "node04 blamed for 29400/tcp" 'node04.*29400/tcp'
lab_nogrep "no healthy node blamed" '^node0[125]'
cl_counts "$R/docs" faults
# direction words, both ways: node03's evidence is traffic into node03
# from the others' addresses, never "outbound" or from itself
LAB_OUT=$(jq -r '.causes[] | select(.node == "node03") | .evidence[].fact' "$R/report.json")
lab_grep "node03's evidence: inbound from a peer's address" \
	'^inbound from 10\.231\.23\.[1245] to port 29500/tcp: filtered'
lab_nogrep "node03's evidence: never outbound, never from itself" \
	'outbound|from 10\.231\.23\.3 '
LAB_OUT=$(jq -r '.findings[] | select(.code == "port-closed") | .summary' "$R/report.json")
lab_grep "a reset from a held port reads as a firewall's reject" \
	'rejected with a reset \(its responder holds them, so a firewall rejects them\) on 10\.231\.23\.4: 29400/tcp'
cl_ns() {
	mesh_ns "${1#node0}"
}
cl_apply "$R/report.json" node03 node04
lab_check "faults: both fixes applied" test "$CL_APPLIED" = 2
run_mesh fixed --ports torch
cl_clean "$R/report.json" "$R" "faults"
lab_done
