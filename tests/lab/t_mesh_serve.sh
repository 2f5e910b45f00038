# netprobe mesh beside netprobe serve (issue 44): four namespace nodes
# each run the responder as the README installs it (`netprobe serve
# --port 7470`, contrib/netprobe-serve.service.in's ExecStart), then
# `netprobe mesh` with no port given on every node: the mesh takes its own
# default port (7471), every node exits 0, PASS, and every responder
# still answers. Then the errors, each naming the other command: a mesh
# told to use serve's port exits 2 at once naming netprobe serve and its
# pid; a member sent to a node 0 that runs only serve says so long before
# its join timeout; serve started on a running mesh's port names the mesh.
LAB_ID="${LAB_ID:-44-$$}"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
lab_require jq unshare ss

N=4
OUT=$(mktemp -d /tmp/np44-mesh-serve.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT" "$MESH_HOSTS"' EXIT

mesh_build "$N" 144 0
lab_check "every node's link is up" mesh_wait_links "$N"

# listening NS PORT: true when something listens on TCP PORT in NS.
listening() {
	ip netns exec "$1" ss -Hltn "sport = :$2" | grep -q .
}

# every node's responder, as the systemd unit starts it
i=1
while [ "$i" -le "$N" ]; do
	ip netns exec "$(mesh_ns "$i")" "$NETPROBE" serve --port 7470 \
		>"$OUT/serve$i.out" 2>"$OUT/serve$i.err" &
	i=$((i + 1))
done
i=1
while [ "$i" -le "$N" ]; do
	lab_check "node $i: netprobe serve listens on 7470" \
		lab_wait 50 listening "$(mesh_ns "$i")" 7470
	i=$((i + 1))
done

# --- the mesh with no port given, beside serve ---------------------------
R="$OUT/pass"
mkdir -p "$R"
mesh_run 1 "$R" --hosts "$MESH_HOSTS" --join-timeout 30s --quick \
	-o "$R/report.txt"
i=2
while [ "$i" -le "$N" ]; do
	mesh_run "$i" "$R" --hosts "$MESH_HOSTS" --join-timeout 30s --quick
	i=$((i + 1))
done
lab_check "no port given: $N nodes end within 60 s" mesh_wait_all "$N" "$R" 60
lab_check "no port given: every node exits 0 [$(cat "$R"/*.rc | tr '\n' ' ')]" \
	test "$(cat "$R"/*.rc | sort -u)" = 0
LAB_OUT=$(cat "$R/report.txt" 2>/dev/null)
lab_grep "no port given: the report says PASS" '^verdict: PASS'
LAB_OUT=$(cat "$R"/*.err)
lab_nogrep "no port given: no node names a port in use" 'in use'
i=1
while [ "$i" -le "$N" ]; do
	lab_check "node $i: serve still listens on 7470 after the mesh" \
		listening "$(mesh_ns "$i")" 7470
	i=$((i + 1))
done
LAB_OUT=$(cat "$OUT"/serve*.err)
lab_nogrep "no serve stopped or failed" 'cannot|error'

# --- a mesh told to use serve's port: named at once ----------------------
R="$OUT/held"
mkdir -p "$R"
mesh_run 1 "$R" --hosts "$MESH_HOSTS" --join-timeout 30s --quick -p 7470
lab_check "mesh -p 7470 beside serve: ends within 5 s" \
	lab_wait 50 test -s "$R/1.rc"
lab_check "mesh -p 7470 beside serve: exits 2" test "$(cat "$R/1.rc")" = 2
pid=$(ip netns exec "$(mesh_ns 1)" ss -Hltnp "sport = :7470" |
	sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)
LAB_OUT=$(cat "$R/1.err")
lab_grep "mesh -p 7470: names netprobe serve, its pid and the mesh's default" \
	"port '7470': Address already in use: netprobe serve \(pid $pid\) holds it, this node's responder; the mesh needs a port of its own: pass another --port, or none \\(the mesh's default is 7471\\)"

# --- a member sent to a node 0 that runs only serve ----------------------
# (its own responder on a free port: the join alone is tested)
R="$OUT/join"
mkdir -p "$R"
t0=$(date +%s%N)
mesh_run 2 "$R" --hosts "$MESH_HOSTS" --rendezvous node01:7470 -p 7472 \
	--join-timeout 60s --quick
lab_check "member sent to serve: ends within 15 s (join timeout 60 s)" \
	lab_wait 150 test -s "$R/2.rc"
echo "# the member ended after $((($(date +%s%N) - t0) / 1000000)) ms"
lab_check "member sent to serve: exits 2" test "$(cat "$R/2.rc")" = 2
LAB_OUT=$(cat "$R/2.err")
lab_grep "member sent to serve: says node 0's port answers as serve" \
	'node 0 at 10\.231\.144\.1:7470 answers as netprobe serve .*not as a mesh: is node 0.s mesh on another port\? the mesh.s default is 7471'

# --- serve started on a running mesh's port: names the mesh --------------
R="$OUT/serve"
mkdir -p "$R"
mesh_run 1 "$R" --hosts "$MESH_HOSTS" --join-timeout 8s --quick
lab_check "a lone node 0 listens on the mesh's default port 7471" \
	lab_wait 50 listening "$(mesh_ns 1)" 7471
pid=$(ip netns exec "$(mesh_ns 1)" ss -Hltnp "sport = :7471" |
	sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)
lab_rc 2 "serve on the mesh's port: exits 2" \
	ip netns exec "$(mesh_ns 1)" timeout 5 "$NETPROBE" serve --port 7471
lab_grep "serve on the mesh's port: names netprobe mesh and its pid" \
	"port '7471': Address already in use: netprobe mesh \(pid $pid\) holds it, a mesh's own responder"
lab_check "the lone node 0 ends at its join timeout" mesh_wait_all 1 "$R" 30

lab_done
