# A healthy IPv6-only cluster passes (issue 48): four namespace nodes on one
# bridge, each with only a ULA address (fd84:231::I/64, link-local beside
# it, no IPv4 but loopback), their names resolving to those addresses.
# `scan --peer` and `mesh` (with --ports) must run every part on IPv6 as on
# IPv4: exit 0 on every node, no part that could not run, no fault or
# warning, and the route toward each peer is recorded. Before the fix the
# route lookup toward each peer failed ("Invalid argument": the kernel's
# strict check refuses RTM_F_LOOKUP_TABLE for IPv6) and every node exited
# 1 with an INCOMPLETE report.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
lab_require jq unshare

N=4
OUT=$(mktemp -d /tmp/np48-v6.XXXXXX)
MESH_HOSTS=$(mktemp /tmp/np48-v6-hosts.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT" "$MESH_HOSTS"' EXIT

lab_ns SW sw
ip -n "$SW" link add name br0 type bridge
ip -n "$SW" link set br0 up
etc="127.0.0.1 localhost
::1 localhost"
i=1
while [ "$i" -le "$N" ]; do
	etc="$etc
fd84:231::$i $(mesh_name "$i")"
	echo "$(mesh_name "$i")" >>"$MESH_HOSTS"
	i=$((i + 1))
done
i=1
while [ "$i" -le "$N" ]; do
	lab_ns ns "$(mesh_name "$i")"
	eval "MESH_NS_$i=\$ns"
	lab_veth "$ns" lan0 "$SW" "p$i"
	ip -n "$SW" link set "p$i" master br0
	ip -n "$SW" link set "p$i" up
	ip -n "$ns" addr add "fd84:231::$i/64" dev lan0 nodad
	ip -n "$ns" link set lan0 up
	printf '%s\n' "$etc" | lab_hosts_stdin "$ns"
	i=$((i + 1))
done
lab_check "every node's link is up" mesh_wait_links "$N"
# v6_ready I: node I's address is usable (no longer tentative)
v6_ready() {
	ip -n "$(mesh_ns "$1")" -6 -o addr show dev lan0 scope global |
		grep "fd84:231::$1/64" | grep -qv tentative
}
i=1
while [ "$i" -le "$N" ]; do
	lab_check "node$i's address is ready" lab_wait 50 v6_ready "$i"
	i=$((i + 1))
done
lab_check "no node has an IPv4 address but loopback" test -z \
	"$(ip -n "$(mesh_ns 2)" -4 -o addr show | grep -v ' lo ')"

# scan --peer toward a responder over IPv6: the route is found
NS1=$(mesh_ns 1)
NS2=$(mesh_ns 2)
ip netns exec "$NS2" "$NETPROBE" serve --port 7471 >"$OUT/serve.log" 2>&1 &
SERVE=$!
lab_check "node02's responder listens on 7471" lab_wait 100 sh -c \
	"ip netns exec '$NS2' ss -ltn 'sport = :7471' | grep -q 7471"
J=$(ip netns exec "$NS1" unshare --uts sh -c 'hostname node01; exec "$@"' \
	sh "$NETPROBE" scan --json --peer '[fd84:231::2]:7471' 2>"$OUT/scan.err")
kill "$SERVE" 2>/dev/null
lab_check "scan --peer over IPv6: no part could not run [$(jqv '[.errors[]?.message] | join("; ")')]" \
	test "$(jqv '.errors | length')" = 0
lab_check "scan --peer over IPv6: the route leaves by lan0" \
	test "$(jqv '.peers[0].local_ifname')" = lan0
lab_check "scan --peer over IPv6: the peer connected back" \
	test "$(jqv '.peers[0].inbound')" = true

# the mesh, with the torch preset's ports, on every node
R="$OUT/mesh"
mkdir -p "$R"
mesh_run 1 "$R" --hosts "$MESH_HOSTS" --join-timeout 30s --quick \
	--ports torch --format json -o "$R/report.json" --out "$R/docs"
i=2
while [ "$i" -le "$N" ]; do
	mesh_run "$i" "$R" --hosts "$MESH_HOSTS" --join-timeout 30s --quick \
		--ports torch
	i=$((i + 1))
done
lab_check "$N nodes end within 90 s" mesh_wait_all "$N" "$R" 90
lab_check "every node exits 0 [$(cat "$R"/*.rc | tr '\n' ' ')]" \
	test "$(cat "$R"/*.rc | sort -u)" = 0
J=$(cat "$R/report.json")
lab_check "no part could not run [$(jqv '[.errors[]?.message] | join("; ")' | head -c 300)]" \
	test "$(jqv '[.errors[]?] | length')" = 0
lab_check "no fault or warning [$(jqv '[.findings[] | select(.severity != "info") | .code] | join(" ")')]" \
	test "$(jqv '[.findings[] | select(.severity != "info")] | length')" = 0
# RAY_ADDRESS for the IPv6 head in brackets, as Ray parses it (issue 48):
# its host part is node 0's address, which a socket connects to
ray=$(jqv '.recommendation.settings[] | select(.name == "RAY_ADDRESS") | .value')
lab_check "RAY_ADDRESS is [fd84:231::1]:6379 (got '$ray')" \
	test "$ray" = "[fd84:231::1]:6379"
# the value as a worker takes it: a head listening on node01's 6379 is
# reached from node02 at the host and port it names
ip netns exec "$NS1" timeout 60 python3 -c 'import socket, time
s = socket.socket(socket.AF_INET6)
s.bind(("::", 6379))
s.listen(4)
time.sleep(60)' &
HEAD=$!
lab_check "a stand-in Ray head listens on node01's 6379" lab_wait 50 sh -c \
	"ip netns exec '$NS1' ss -ltn 'sport = :6379' | grep -q 6379"
lab_check "node02 reaches the head at RAY_ADDRESS as printed" \
	ip netns exec "$NS2" python3 -c '
import socket, sys
h, p = sys.argv[1].rsplit(":", 1)
assert h.startswith("[") and h.endswith("]"), h
socket.create_connection((h[1:-1], int(p)), timeout=5).close()' "$ray"
kill "$HEAD" 2>/dev/null
wait "$HEAD" 2>/dev/null
lab_check "every member's document came in" \
	test "$(ls "$R"/docs/*.json | wc -l)" -ge "$N"
LAB_OUT=$("$NETPROBE" report "$R/docs" 2>&1)
lab_grep "the report says PASS" '^verdict: PASS'
lab_nogrep "the report says nothing of a part that could not run" \
	'could not run|INCOMPLETE'
lab_done
