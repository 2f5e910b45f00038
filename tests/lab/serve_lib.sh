# Topology shared by t_serve.sh and t_heartbeat.sh (sourced after lib.sh):
# hosts A, B and C on one LAN (a bridge in namespace L), 10.231.10.0/24,
# and a "container" K behind nftables masquerade on A (K eth0 172.17.0.2/16
# via A's docker0 172.17.0.1/16, masqueraded out of A's eth0).
SV_A=10.231.10.1
SV_B=10.231.10.2
SV_C=10.231.10.3

serve_topology() {
	lab_ns A a
	lab_ns B b
	lab_ns C c
	lab_ns L lan
	lab_ns K k
	ip -n "$L" link add br0 type bridge
	ip -n "$L" link set br0 up
	for h in A B C; do
		eval "_ns=\$$h"
		_p=port$(echo "$h" | tr A-Z a-z)
		lab_veth "$_ns" eth0 "$L" "$_p"
		ip -n "$L" link set dev "$_p" master br0
		ip -n "$L" link set dev "$_p" up
		ip -n "$_ns" link set eth0 up
	done
	ip -n "$A" addr add $SV_A/24 dev eth0
	ip -n "$B" addr add $SV_B/24 dev eth0
	ip -n "$C" addr add $SV_C/24 dev eth0
	lab_veth "$K" eth0 "$A" docker0
	ip -n "$K" addr add 172.17.0.2/16 dev eth0
	ip -n "$A" addr add 172.17.0.1/16 dev docker0
	ip -n "$K" link set eth0 up
	ip -n "$A" link set docker0 up
	ip -n "$K" route add default via 172.17.0.1
	ip netns exec "$A" sysctl -qw net.ipv4.ip_forward=1
	ip netns exec "$A" nft -f - <<NFT
table ip labnat {
	chain post {
		type nat hook postrouting priority 100;
		ip saddr 172.17.0.0/16 oifname "eth0" masquerade
	}
}
NFT
	lab_hosts "$A" "$SV_B hostb" "$SV_C hostc"
	lab_hosts "$K" "$SV_B hostb"
}

# serve_start NS LOG [ARGS...]: starts a responder in NS, output to LOG,
# and waits (bounded) until it listens. Its pid goes to SV_PID.
serve_start() {
	_ns=$1
	_log=$2
	shift 2
	ip netns exec "$_ns" "$NETPROBE" serve "$@" >"$_log" 2>&1 &
	SV_PID=$!
	lab_wait 50 sh -c "ip netns exec $_ns ss -ltnH | grep -q ':7470 '"
}

# sv_json_num FILE KEY.PATH: one value out of a JSON document.
sv_json() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    d=d[int(k)] if isinstance(d,list) else d[k]
print(json.dumps(d) if not isinstance(d,str) else d)' "$1" "$2"
}
