# Lab: `netprobe ifaces` inside a namespace reports what the kernel built:
# a veth to another netns, a bridge with members, vxlan over the veth
# underlay, macvlan on the veth, addresses, routes, a down interface, and
# bad input exits 2 with one line.
. "$(dirname "$0")/lib.sh"
lab_require jq

lab_ns A host
lab_ns B peer
lab_veth "$A" lan0 "$B" lan0
ip -n "$A" addr add 10.231.7.1/24 dev lan0
ip -n "$B" addr add 10.231.7.2/24 dev lan0
ip -n "$A" link set lan0 up
ip -n "$B" link set lan0 up
# A bridge with two member veths whose other ends stay in A.
ip -n "$A" link add name br0 type bridge
lab_veth "$A" p1 "$A" p1b
lab_veth "$A" p2 "$A" p2b
ip -n "$A" link set p1 master br0
ip -n "$A" link set p2 master br0
ip -n "$A" addr add 10.231.8.1/24 dev br0
for i in br0 p1 p1b p2 p2b; do ip -n "$A" link set "$i" up; done
ip -n "$A" link add name vx42 type vxlan id 42 dev lan0 \
	local 10.231.7.1 remote 10.231.7.2 dstport 4789
ip -n "$A" link add link lan0 name mv0 type macvlan mode private
ip -n "$A" addr add 10.231.9.1/24 dev mv0
ip -n "$A" link set vx42 up
ip -n "$A" link set mv0 up
# An interface that is down, with its address kept.
lab_veth "$A" dn0 "$A" dn1
ip -n "$A" addr add 10.231.10.1/24 dev dn0
ip -n "$A" link set dn0 down

J=/tmp/np-ifaces-$LAB_ID.json
trap 'rm -f "$J"; lab_cleanup' EXIT
# lab_rc runs commands through timeout, so no shell function here.
np="ip netns exec $A $NETPROBE"
# jqt DESC FILTER: passes when FILTER on the last document prints true.
jqt() {
	if [ "$(jq -r "$2" "$J" 2>/dev/null)" = true ]; then
		lab_ok "$1"
	else
		lab_notok "$1 (jq: $2)"
	fi
}

lab_rc 0 "ifaces --json runs" $np ifaces --json
printf '%s\n' "$LAB_OUT" >"$J"
jqt "document is netprobe/1 ifaces" \
	'.schema == "netprobe/1" and .command == "ifaces" and .errors == []'
peer_idx=$(ip -n "$B" -o link show lan0 | cut -d: -f1)
jqt "lan0 is a veth with its peer in another netns" \
	".interfaces[] | select(.name == \"lan0\") | .kind == \"veth\" and
	 (.peer.netnsid | type) == \"number\" and .peer.ifindex == $peer_idx"
jqt "lan0 address, prefix and scope" \
	'.interfaces[] | select(.name == "lan0") | any(.addresses[];
	 .family == "inet" and .address == "10.231.7.1" and
	 .prefixlen == 24 and .scope == "global")'
jqt "br0 is a bridge with members p1 and p2" \
	'.interfaces[] | select(.name == "br0") | .kind == "bridge" and
	 (.slaves | sort) == ["p1", "p2"]'
jqt "p1 has master br0 and its local peer p1b" \
	'.interfaces[] | select(.name == "p1") | .master == "br0" and
	 .peer.name == "p1b" and .peer.netnsid == null'
jqt "vx42 is vxlan 42 over lan0" \
	'.interfaces[] | select(.name == "vx42") | .kind == "vxlan" and
	 .vxlan.id == 42 and .vxlan.underlay == "lan0"'
jqt "mv0 is macvlan, mode private, parent lan0" \
	'.interfaces[] | select(.name == "mv0") | .kind == "macvlan" and
	 .mode == "private" and .parent == "lan0"'
jqt "dn0 is shown down" \
	'.interfaces[] | select(.name == "dn0") | .oper_state == "down" and
	 (.flags | index("UP") | not) and
	 any(.addresses[]; .address == "10.231.10.1")'
jqt "loopback is loopback" \
	'.interfaces[] | select(.name == "lo") | .kind == "loopback"'
jqt "interfaces in ifindex order" \
	'[.interfaces[].index] == ([.interfaces[].index] | sort)'

# tun and tap share IFLA_INFO_KIND "tun"; the tun type tells them apart.
if [ -c /dev/net/tun ] && ip -n "$A" tuntap add dev tap7 mode tap &&
	ip -n "$A" tuntap add dev tun7 mode tun; then
	lab_rc 0 "ifaces --json with tun and tap" $np ifaces --json
	printf '%s\n' "$LAB_OUT" >"$J"
	jqt "tap7 is a tap, tun7 a tun" \
		'([.interfaces[] | select(.name == "tap7" or .name == "tun7") |
		  .kind] | sort) == ["tap", "tun"]'
else
	echo "skip - no /dev/net/tun: tun and tap not checked"
fi

lab_rc 0 "text table" $np ifaces
lab_grep "table has a dn0 row marked down" '^ +[0-9]+ +dn0 +veth +admdown'
lab_grep "table shows the vxlan underlay" 'vx42 +vxlan .*vni 42 dev lan0'

lab_rc 0 "route to the peer" $np ifaces --json --route 10.231.7.2
printf '%s\n' "$LAB_OUT" >"$J"
jqt "route: out lan0, source 10.231.7.1, on-link" \
	'.routes.lookup | .out_interface == "lan0" and
	 .source == "10.231.7.1" and .gateway == null and
	 .destination == "10.231.7.2"'
lab_rc 0 "route into the bridge subnet" $np ifaces --json --route 10.231.8.20
printf '%s\n' "$LAB_OUT" >"$J"
jqt "route: out br0, source 10.231.8.1" \
	'.routes.lookup | .out_interface == "br0" and .source == "10.231.8.1"'

lab_rc 1 "no route: exit 1" $np ifaces --json --route 10.231.99.1
printf '%s\n' "$LAB_OUT" >"$J"
jqt "no route: host-unreachable finding, lookup null" \
	'.routes.lookup == null and .findings[0].code == "host-unreachable"'

ip -n "$A" route add default via 10.231.7.2
lab_rc 0 "with a default route" $np ifaces --json --route 10.231.99.1
printf '%s\n' "$LAB_OUT" >"$J"
jqt "default route via 10.231.7.2 on lan0" \
	'.routes.defaults[0] | .family == "inet" and
	 .gateway == "10.231.7.2" and .out_interface == "lan0" and
	 .destination == "default" and .table == 254'
jqt "route through the gateway" \
	'.routes.lookup.gateway == "10.231.7.2"'

# Bad input: exit 2 and exactly one line (a usage error: and where help is).
lab_rc 2 "unknown option exits 2" $np ifaces --frobnicate
lab_check "unknown option: the error, then where help is" \
	[ "$(printf '%s\n' "$LAB_OUT" | wc -l)" = 2 ]
lab_grep "unknown option named" "^netprobe ifaces: unknown option '--frobnicate'$"
lab_rc 2 "missing sysroot exits 2" $np ifaces --sysroot /nonexistent/np
lab_check "missing sysroot: one line" [ "$(printf '%s\n' "$LAB_OUT" | wc -l)" = 1 ]
lab_grep "missing sysroot named" "sysroot '/nonexistent/np'"
lab_rc 2 "unresolvable host exits 2" $np ifaces --route no-such-host.invalid
lab_check "unresolvable: one line" [ "$(printf '%s\n' "$LAB_OUT" | wc -l)" = 1 ]
lab_grep "unresolvable named" "cannot resolve 'no-such-host.invalid'"
lab_rc 2 "--json error goes into the document" \
	sh -c "ip netns exec $A $NETPROBE ifaces --json --sysroot /nonexistent/np 2>/dev/null"
printf '%s\n' "$LAB_OUT" >"$J"
jqt "errors[] names the sysroot" \
	'.errors | length == 1 and (.[0] | tostring | test("nonexistent"))'
lab_rc 0 "help exits 0" $np ifaces -h
lab_grep "help is the usage" '^usage: netprobe ifaces'

lab_rc 0 "replay of a recorded sysroot" \
	$np ifaces --json --sysroot "$(cd "$(dirname "$0")/../fixtures/ifaces/basic" && pwd)"
printf '%s\n' "$LAB_OUT" >"$J"
jqt "replay lists the recorded interfaces" \
	'[.interfaces[].name] | index("eth0.100") != null'
lab_done
