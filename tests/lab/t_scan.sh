# Scan lab: a two-host LAN (A and B) where A also runs a docker0-style
# bridge with a "container" behind nftables masquerade. The container must
# get no recommendation (exit 1, container-bridge-nat); A and B must get
# their LAN interface. Then the hostname, interface state, subnet and
# environment findings, --export, and bad input.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require nft python3 unshare jq
CL=$(mktemp -d /tmp/np-scan.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$CL"' EXIT

# jget EXPR: evaluates a Python expression over the JSON in $LAB_OUT (d).
jget() {
	printf '%s\n' "$LAB_OUT" | python3 -c \
		"import json,sys; d=json.load(sys.stdin); print($1)"
}

# jcheck DESC EXPR WANT: passes when jget EXPR prints WANT.
jcheck() {
	_got=$(jget "$2" 2>&1)
	if [ "$_got" = "$3" ]; then
		lab_ok "$1"
	else
		lab_notok "$1 (got '$_got', wanted '$3')"
	fi
}

# The scan runs with a hostname of its own, in a UTS namespace of its own
# so the machine's name is not touched: `ip netns exec NS unshare --uts
# sh -c "$HN" NAME "$NETPROBE" scan ARGS` (lab_rc needs a command, not a
# function); scan_in NS NAME ARGS... does the same for $(...).
HN='hostname "$0"; exec "$@"'
scan_in() {
	_ns=$1
	_name=$2
	shift 2
	ip netns exec "$_ns" unshare --uts sh -c "$HN" "$_name" \
		"$NETPROBE" scan "$@"
}

lab_ns A hosta
lab_ns B hostb
lab_ns C ctr

# the LAN
lab_veth "$A" lan0 "$B" lan0
ip -n "$A" addr add 10.231.20.1/24 dev lan0
ip -n "$B" addr add 10.231.20.2/24 dev lan0
ip -n "$A" link set lan0 up
ip -n "$B" link set lan0 up
ip -n "$A" route add default via 10.231.20.254 dev lan0
lab_hosts "$A" "127.0.0.1 localhost" "10.231.20.1 nodea"
lab_hosts "$B" "127.0.0.1 localhost" "10.231.20.2 nodeb" "10.231.20.1 nodea"

# A's docker0 and the container behind masquerade
ip -n "$A" link add name docker0 type bridge
ip -n "$A" addr add 172.17.0.1/16 dev docker0
ip -n "$A" link set docker0 up
lab_veth "$C" eth0 "$A" vethc0
ip -n "$A" link set vethc0 master docker0
ip -n "$A" link set vethc0 up
ip -n "$C" addr add 172.17.0.2/16 dev eth0
ip -n "$C" link set eth0 up
ip -n "$C" route add default via 172.17.0.1
ip netns exec "$A" sysctl -qw net.ipv4.ip_forward=1
ip netns exec "$A" nft -f - <<'NFT'
table ip np_scan_nat {
	chain postrouting {
		type nat hook postrouting priority srcnat; policy accept;
		ip saddr 172.17.0.0/16 oifname != "docker0" masquerade
	}
}
NFT
lab_hosts "$C" "127.0.0.1 localhost" "172.17.0.2 ctr"
lab_check "LAN link up" lab_wait 30 \
	ip netns exec "$B" sh -c 'ip -br link show lan0 | grep -q " UP "'
lab_check "container link up" lab_wait 30 \
	ip netns exec "$C" sh -c 'ip -br link show eth0 | grep -q " UP "'

# --- the container: no interface can work
lab_rc 1 "container: exits 1" ip netns exec "$C" unshare --uts \
	sh -c "$HN" ctr "$NETPROBE" scan
lab_grep "container: container-bridge-nat" 'container-bridge-nat'
lab_grep "container: no interface" '^  no interface$'
lab_grep "container: says what to change" -- '--network host'
LAB_OUT=$(scan_in "$C" ctr --json 2>/dev/null)
jcheck "container: json exit doc has the finding" \
	'any(f["code"] == "container-bridge-nat" for f in d["findings"])' True
jcheck "container: recommendation.interface null" \
	'd["recommendation"]["interface"]' None
jcheck "container: no settings" 'len(d["recommendation"]["env"])' 0
jcheck "container: eth0 rejected for NAT" \
	'[r["reason"] for r in d["recommendation"]["rejected"] if r["interface"] == "eth0"][0].find("NAT") >= 0' \
	True
out=$(scan_in "$C" ctr --export 2>"/tmp/np-scan-$LAB_ID.err")
err=$(cat "/tmp/np-scan-$LAB_ID.err")
rm -f "/tmp/np-scan-$LAB_ID.err"
lab_check "container: --export prints nothing on stdout" test -z "$out"
lab_check "container: --export prints one comment line on stderr" \
	sh -c 'test "$(printf "%s\n" "$1" | wc -l)" = 1 &&
		printf "%s\n" "$1" | grep -q "^# netprobe scan: no recommendation"' \
	sh "$err"

# --- host A: the LAN interface, not the bridge or the veth
lab_rc 0 "host A: exits 0" ip netns exec "$A" unshare --uts \
	sh -c "$HN" nodea "$NETPROBE" scan
LAB_OUT=$(scan_in "$A" nodea --json)
jcheck "host A: recommends lan0" 'd["recommendation"]["interface"]' lan0
jcheck "host A: address" 'd["recommendation"]["address"]' 10.231.20.1
jcheck "host A: exact NCCL form" \
	'd["recommendation"]["env"]["NCCL_SOCKET_IFNAME"]' =lan0
jcheck "host A: docker0 rejected as a container bridge" \
	'"container" in [r["reason"] for r in d["recommendation"]["rejected"] if r["interface"] == "docker0"][0]' \
	True
jcheck "host A: vethc0 rejected" \
	'any(r["interface"] == "vethc0" for r in d["recommendation"]["rejected"])' \
	True
jcheck "host A: no NAT finding" \
	'any(f["code"] == "container-bridge-nat" for f in d["findings"])' False
jcheck "host A: hostname resolves to the LAN" \
	'd["hostname"]["addresses"]' "['10.231.20.1']"
jcheck "host A: hostname bindable" 'd["hostname"]["bindable"]' True
jcheck "host A: NCCL's default rule" 'd["nccl_default"]["rule"]' \
	'^docker,lo,virbr'
jcheck "host A: bootstrap on lan0" 'd["nccl_default"]["bootstrap"]' lan0
jcheck "host A: NCCL alone would also use vethc0 (fe80::)" \
	'any(f["code"] == "nccl-default-iface-unsafe" for f in d["findings"])' True
jcheck "host A: ipv6-link-local-only" \
	'any(f["code"] == "ipv6-link-local-only" for f in d["findings"])' True
# lan0 has IPv4, which NCCL takes first (src/os/linux.cc): no
# NCCL_SOCKET_FAMILY needed
jcheck "host A: no NCCL_SOCKET_FAMILY recommended" \
	'"NCCL_SOCKET_FAMILY" in d["recommendation"]["env"]' False
jcheck "host A: mpi-btl-iface names docker0" \
	'"docker0" in [e["fact"] for f in d["findings"] if f["code"] == "mpi-btl-iface" for e in f["evidence"]][0]' \
	True
jcheck "host A: default route recorded" \
	'd["routes"]["defaults"][0]["out_interface"]' lan0
# the per-interface IPv4 settings (issue 48): lan0 set against ARP flux
ip netns exec "$A" sysctl -qw net.ipv4.conf.lan0.arp_ignore=1 \
	net.ipv4.conf.lan0.arp_announce=2 net.ipv4.conf.lan0.rp_filter=2
LAB_OUT=$(scan_in "$A" nodea --json)
jcheck "host A: lan0's arp_ignore, arp_announce and rp_filter recorded" \
	'[d["ipv4_conf"]["lan0"][k] for k in ("arp_ignore", "arp_announce", "rp_filter")]' \
	'[1, 2, 2]'
jcheck "host A: all's arp_ignore recorded" \
	'd["ipv4_conf"]["all"]["arp_ignore"]' 0
# the host's limits read live (issue 48): the namespace's own sysctls, its
# conntrack timeout (the masquerade loaded conntrack), the listen
# counters, and a listener's backlog through sock_diag
ip netns exec "$A" sysctl -qw net.core.somaxconn=64 \
	net.ipv4.ip_local_port_range="40000 40999" \
	net.netfilter.nf_conntrack_tcp_timeout_established=600
ip netns exec "$A" timeout 120 python3 -c 'import socket, time
s = socket.socket()
s.bind(("127.0.0.1", 29777))
s.listen(5)
time.sleep(120)' &
lpid=$!
lab_check "host A: a listener of backlog 5 on 29777" \
	lab_wait 50 sh -c "ip netns exec $A ss -Hnlt 'sport = :29777' | grep -q ."
LAB_OUT=$(scan_in "$A" nodea --json)
jcheck "host A: the listener's backlog recorded" \
	'[x["backlog"] for x in d["limits"]["listeners"] if x["port"] == 29777]' \
	'[5]'
jcheck "host A: somaxconn and the port range recorded" \
	'[d["limits"]["somaxconn"], d["limits"]["ip_local_port_range"]]' \
	'[64, [40000, 40999]]'
jcheck "host A: conntrack's established timeout recorded" \
	'd["limits"]["conntrack"]["tcp_timeout_established"]' 600
jcheck "host A: SYN cookies and the listen-drop counters recorded" \
	'all(isinstance(d["limits"][k], int) for k in ("tcp_syncookies", "listen_overflows", "listen_drops"))' \
	True
kill "$lpid" 2>/dev/null
wait "$lpid" 2>/dev/null
ip netns exec "$A" sysctl -qw net.core.somaxconn=4096 \
	net.ipv4.ip_local_port_range="32768 60999"

# --- host B: its LAN interface, exit 0
t0=$(date +%s%N)
lab_rc 0 "host B: exits 0" ip netns exec "$B" unshare --uts \
	sh -c "$HN" nodeb "$NETPROBE" scan
t1=$(date +%s%N)
lab_grep "host B: recommends lan0" '^  interface lan0, address 10\.231\.20\.2$'
lab_grep "host B: export line" "^  export NCCL_SOCKET_IFNAME='=lan0'$"
# the time is printed, not asserted: a loaded CI machine stretches it
# (1,128 ms once, at load 15 on 2 cores; tens of ms unloaded): speed is
# a benchmark's to hold, never a timed test's
echo "# host B: scan took $(((t1 - t0) / 1000000)) ms"
out=$(scan_in "$B" nodeb --export)
lab_check "host B: --export evals in sh" sh -c '
	MASTER_ADDR=10.231.20.1
	eval "$1" || exit 1
	test "$NCCL_SOCKET_IFNAME" = "=lan0" &&
	test "$GLOO_SOCKET_IFNAME" = lan0 &&
	test "$OMPI_MCA_btl_tcp_if_include" = lan0 &&
	test "$MASTER_ADDR" = 10.231.20.1 &&
	test -z "${RAY_NODE_IP_ADDRESS+set}"' sh "$out"
lab_check "host B: --export prints export lines and comments only" sh -c '
	printf "%s\n" "$1" | grep -v "^#" |
		grep -qv "^export [A-Za-z_][A-Za-z0-9_]*=" && exit 1; exit 0' \
	sh "$out"
LAB_OUT=$out
lab_grep "host B: MASTER_ADDR only as a comment" \
	"^# MASTER_ADDR is rank 0's address on every node; .*MASTER_ADDR='10\\.231\\.20\\.2'"
lab_grep "host B: the ray start command" \
	'^# Ray .*ray start --node-ip-address=10\.231\.20\.2$'
out=$(scan_in "$B" nodeb --export --rank0)
lab_check "host B: --export --rank0 exports MASTER_ADDR" sh -c '
	MASTER_ADDR=elsewhere
	eval "$1" || exit 1
	test "$MASTER_ADDR" = 10.231.20.2' sh "$out"
lab_rc 0 "host B: --peer host A" ip netns exec "$B" unshare --uts \
	sh -c "$HN" nodeb "$NETPROBE" scan --peer 10.231.20.1
lab_grep "host B: the route toward the peer decides" \
	'route toward peer 10\.231\.20\.1 .*leaves by lan0'

LAB_OUT=$(scan_in "$B" nodeb --json --peer nodea:7470)
jcheck "host B: a peer by name resolves" \
	'(d["peers"][0]["peer"], d["peers"][0]["peer_addr"], d["routes"]["lookup"]["out_interface"])' \
	"('nodea:7470', '10.231.20.1', 'lan0')"
lab_rc 2 "a peer that does not resolve exits 2" ip netns exec "$B" \
	"$NETPROBE" scan --peer no-such-node.invalid
lab_grep "one-line peer error" "^netprobe scan: invalid peer 'no-such-node\.invalid'"

# --- environment settings are checked
lab_rc 1 "NCCL_SOCKET_IFNAME=nope: exits 1" \
	env NCCL_SOCKET_IFNAME=nope ip netns exec "$B" "$NETPROBE" scan
lab_grep "nccl-ifname-nomatch" 'nccl-ifname-nomatch'
lab_rc 1 "GLOO_SOCKET_IFNAME=^lo: exits 1" \
	env GLOO_SOCKET_IFNAME='^lo' ip netns exec "$B" "$NETPROBE" scan
lab_grep "gloo-ifname-syntax" 'gloo-ifname-syntax'
lab_rc 0 "NCCL_SOCKET_IFNAME==lan0 is fine" \
	env NCCL_SOCKET_IFNAME='=lan0' GLOO_SOCKET_IFNAME=lan0 \
	ip netns exec "$B" unshare --uts sh -c \
	'hostname nodeb; exec "$0" scan' "$NETPROBE"
lab_nogrep "no ifname findings" 'ifname'

# --- hostname mapped to 127.0.1.1
lab_ns H hostl
lab_veth "$H" lan0 "$B" lanh
ip -n "$H" addr add 10.231.21.1/24 dev lan0
ip -n "$H" link set lan0 up
ip -n "$B" link set lanh up
lab_hosts "$H" "127.0.0.1 localhost" "127.0.1.1 testnode"
lab_rc 1 "127.0.1.1 hostname: exits 1" ip netns exec "$H" unshare --uts \
	sh -c "$HN" testnode "$NETPROBE" scan
lab_grep "hostname-loopback" 'hostname-loopback: hostname testnode resolves to 127\.0\.1\.1'
LAB_OUT=$(scan_in "$H" testnode --json)
jcheck "hostname json: loopback" 'd["hostname"]["loopback"]' True
jcheck "recommendation still lan0" 'd["recommendation"]["interface"]' lan0
# the closed loop: the hostname's fix is /etc/hosts or the settings the
# report prints (GLOO_SOCKET_IFNAME, MASTER_ADDR); the job sources those
# exactly as printed, and the same scan finds nothing
mkdir -p "$CL/before/docs" "$CL/after/docs"
printf '%s\n' "$LAB_OUT" >"$CL/before/docs/testnode.json"
cl_report "$CL/before"
cl_env "$CL/before/report.json" testnode >"$CL/settings"
LAB_OUT=$(cat "$CL/settings")
lab_grep "the report prints Gloo's interface" "^export GLOO_SOCKET_IFNAME='lan0'$"
lab_grep "and MASTER_ADDR" "^export MASTER_ADDR='10\.231\.21\.1'$"
ip netns exec "$H" unshare --uts sh -c 'hostname "$0"; . "$1"; shift;
	exec "$@"' testnode "$CL/settings" "$NETPROBE" scan --json \
	>"$CL/after/docs/testnode.json"
echo $? >"$CL/after/testnode.rc"
cl_report "$CL/after"
cl_clean "$CL/after/report.json" "$CL/after" "127.0.1.1 hostname: the printed settings"

# --- a hostname mapped to an address no interface has
lab_hosts "$H" "127.0.0.1 localhost" "10.231.88.8 farnode"
lab_rc 0 "unbindable hostname: a warning, exit 0" ip netns exec "$H" \
	unshare --uts sh -c "$HN" farnode "$NETPROBE" scan
lab_grep "hostname-unbindable" 'hostname-unbindable: hostname farnode resolves to 10\.231\.88\.8'
lab_grep "bind's error as evidence" 'bind 10\.231\.88\.8: Cannot assign requested address'

# --- an interface that is down, and overlapping subnets (on B)
lab_ns D peerd
lab_veth "$B" down0 "$D" x0
ip -n "$B" addr add 10.231.22.2/24 dev down0
lab_rc 0 "down interface: a warning, exit 0" ip netns exec "$B" unshare --uts \
	sh -c "$HN" nodeb "$NETPROBE" scan
lab_grep "interface-down" 'interface-down: down0 has an address but is down'
lab_nogrep "lanh (no address) not flagged" 'interface-down: lanh'
lab_veth "$B" ovl0 "$D" x1
ip -n "$B" addr add 10.231.99.2/16 dev ovl0
ip -n "$B" link set ovl0 up
ip -n "$D" link set x1 up
lab_check "overlap link up" lab_wait 30 \
	ip netns exec "$B" sh -c 'ip -br link show ovl0 | grep -q " UP "'
LAB_OUT=$(scan_in "$B" nodeb --json)
jcheck "overlapping-subnets raised" \
	'any(f["code"] == "overlapping-subnets" for f in d["findings"])' True
jcheck "overlap: cannot tell without a peer" \
	'd["recommendation"]["interface"]' None
jcheck "overlap: says run with --peer" \
	'"--peer" in d["recommendation"]["reasons"][0]' True
LAB_OUT=$(scan_in "$B" nodeb --json --peer 10.231.20.1)
jcheck "overlap with --peer: the route decides" \
	'd["recommendation"]["interface"]' lan0
jcheck "overlap with --peer: evidence names the route" \
	'[e["fact"] for f in d["findings"] if f["code"] == "overlapping-subnets" for e in f["evidence"]][-1]' \
	'the route toward the peers leaves by lan0'
jcheck "peers[] filled from the route" \
	'(d["peers"][0]["local_ifname"], d["peers"][0]["nat"])' \
	"('lan0', None)"

# --- nothing but loopback
lab_ns E lonely
lab_rc 1 "loopback only: exits 1" ip netns exec "$E" unshare --uts \
	sh -c "$HN" lonely "$NETPROBE" scan
lab_grep "no-usable-interface" 'no-usable-interface'

# --- recorded sysroots replay without live steps
fx="$(dirname "$0")/../fixtures/sysroot"
if [ -d "$fx/docker-bridge" ]; then
	lab_rc 1 "sysroot docker-bridge: exits 1" \
		"$NETPROBE" scan --sysroot "$fx/docker-bridge" --json
	jcheck "sysroot docker-bridge: interface null" \
		'd["recommendation"]["interface"]' None
	jcheck "sysroot: live steps reported skipped" \
		'any(e["step"] == "live" for e in d["errors"])' True
	lab_rc 0 "sysroot bare-metal: exits 0" \
		"$NETPROBE" scan --sysroot "$fx/bare-metal" --json
	jcheck "sysroot bare-metal: eno1" 'd["recommendation"]["interface"]' eno1
fi

# --- bad input: one line, exit 2
lab_rc 2 "unknown option exits 2" "$NETPROBE" scan --frobnicate
lab_grep "unknown option named" "^netprobe scan: unknown option '--frobnicate'"
lab_rc 2 "missing sysroot exits 2" "$NETPROBE" scan --sysroot /nonexistent-np
lab_grep "sysroot error line" \
	"^netprobe scan: cannot read sysroot '/nonexistent-np': No such file"
LAB_OUT=$("$NETPROBE" scan --json --sysroot /nonexistent-np 2>/dev/null)
jcheck "missing sysroot: error in json" 'd["errors"][0]["step"]' sysroot
lab_rc 2 "sysroot that is a file exits 2" "$NETPROBE" scan --sysroot /etc/hostname
empty=$(mktemp -d)
lab_rc 2 "sysroot with nothing recorded exits 2" "$NETPROBE" scan --sysroot "$empty"
lab_grep "names what failed" '^netprobe scan: cannot list interfaces'
rmdir "$empty"
lab_rc 2 "bad peer port exits 2" "$NETPROBE" scan --peer 10.231.20.1:99999
lab_rc 2 "--json with --export exits 2" "$NETPROBE" scan --json --export
lab_rc 2 "--rank0 without --export exits 2" "$NETPROBE" scan --rank0
lab_rc 2 "stray argument exits 2" "$NETPROBE" scan extra
lab_rc 0 "help exits 0" "$NETPROBE" scan --help
lab_grep "usage printed" '^usage: netprobe scan'
lab_done
