# Shared by the clusters of the sixth blind set (tests/gen/blind48f): the
# fifth set's harness (tests/gen/blind48e/lib48e.sh, itself blind48c's
# lib48c.sh over lib48b.sh and lib48.sh: switches, members, hosts files,
# the torch Gloo client, the judge, the plain-socket pair matrix, the
# kubenet node and its pods, and the 1500-byte DF check of validate on the
# healthy rows) with this folder's truth.tsv, plus: a VXLAN overlay whose
# VTEPs are the members themselves (jumbo underlay, 1500-byte vx0), a
# Calico-style pod that must ARP for its gateway, and a hypervisor's port
# security as an nftables bridge filter. A cluster script sets B48_ID and
# LAB_ID, then sources this file. Namespaces are np<LAB_ID>-NAME; LAB_ID
# carries b48f.
. "$(dirname "$0")/../blind48e/lib48e.sh"
# df.py stays in the fifth set's folder
B48E_DIR=$(cd "$(dirname "$0")/../blind48e" && pwd)

# b48f_mac OVL I: the MAC of member I's vx0 on overlay 10.231.OVL.0/24
# (0a:58:0a:e7:<OVL in hex>:0I), so that a fix can name it.
b48f_mac() {
	printf '0a:58:0a:e7:%02x:%02x' "$1" "$2"
}

# b48f_underlay NET N: switch sw (a Linux bridge, MTU 9000, no address) and
# members node01..nodeN with lan0 at 10.231.NET.I/24, MTU 9000 (both ends).
b48f_underlay() {
	BR_MTU=9000
	b48_switch sw
	BR_MTU=
	_i=1
	while [ "$_i" -le "$2" ]; do
		b48_box "node0$_i"
		PORT_MTU=9000
		b48_port sw "node0$_i" lan0 "10.231.$1.$_i/24"
		PORT_MTU=
		_i=$((_i + 1))
	done
}

# b48f_vtep I NET OVL N PORT PROXY [SKIP]: member nodeI's VTEP vx0 (VNI 42,
# UDP PORT, local 10.231.NET.I on lan0, no learning, MTU 1500 set
# explicitly, MAC b48f_mac OVL I, address 10.231.OVL.I/24), a flood entry
# and a static fdb entry for every other VTEP of N; PROXY "proxy": the
# device answers ARP itself, and holds a permanent neighbour entry for
# every peer but member SKIP. Used by the builds and by the fixes.
b48f_vtep() {
	_n=$(cl_ns "node0$1")
	_px=""
	[ "$6" != proxy ] || _px=proxy
	ip -n "$_n" link add vx0 type vxlan id 42 dstport "$5" \
		local "10.231.$2.$1" dev lan0 nolearning $_px
	ip -n "$_n" link set vx0 address "$(b48f_mac "$3" "$1")" mtu 1500
	ip -n "$_n" addr add "10.231.$3.$1/24" dev vx0
	_j=1
	while [ "$_j" -le "$4" ]; do
		if [ "$_j" != "$1" ]; then
			bridge -n "$_n" fdb append 00:00:00:00:00:00 dev vx0 \
				dst "10.231.$2.$_j"
			bridge -n "$_n" fdb add "$(b48f_mac "$3" "$_j")" dev vx0 \
				dst "10.231.$2.$_j"
			if [ -n "$_px" ] && [ "$_j" != "${7:-0}" ]; then
				ip -n "$_n" neigh add "10.231.$3.$_j" \
					lladdr "$(b48f_mac "$3" "$_j")" dev vx0 nud permanent
			fi
		fi
		_j=$((_j + 1))
	done
	ip -n "$_n" link set vx0 up
}

# b48f_calico_pod HOST POD ADDR: POD (a namespace, registered) as a Calico
# pod of HOST, as lib48c.sh's b48c_pod but with no static neighbour entry:
# the pod resolves 169.254.1.1 by ARP, which HOST's proxy ARP must answer
# (proxy_delay 0, as Felix sets it). HOST forwards.
b48f_calico_pod() {
	b48_box "$2"
	_h=$(cl_ns "$1")
	_p=$(cl_ns "$2")
	lab_veth "$_h" "cali$2" "$_p" eth0
	ip netns exec "$_h" sysctl -qw net.ipv4.ip_forward=1
	ip netns exec "$_h" sysctl -qw "net.ipv4.conf.cali$2.proxy_arp=1"
	ip netns exec "$_h" sysctl -qw "net.ipv4.neigh.cali$2.proxy_delay=0"
	ip -n "$_h" link set "cali$2" up
	ip -n "$_h" route add "$3/32" dev "cali$2" scope link
	ip -n "$_p" addr add "$3/32" dev eth0
	ip -n "$_p" link set eth0 up
	ip -n "$_p" route add 169.254.1.1 dev eth0 scope link
	ip -n "$_p" route add default via 169.254.1.1 dev eth0 onlink
}

# b48f_calico LAN POD SWADDR HOSTGW: the layout of rows 03 and 07: switch sw
# (holding SWADDR where given), node01/node02 at 10.231.LAN.1/.2 with a
# route to 10.231.POD.0/24 via h3 (10.231.LAN.13, default route via HOSTGW
# where given), pods node03/node04 at 10.231.POD.3/.4.
b48f_calico() {
	b48_switch sw $3
	for i in 1 2; do
		b48_box "node0$i"
		b48_port sw "node0$i" lan0 "10.231.$1.$i/24"
		ip -n "$(cl_ns "node0$i")" route add "10.231.$2.0/24" via "10.231.$1.13"
		b48_member "node0$i" "10.231.$1.$i"
	done
	b48_box h3
	b48_port sw h3 eth0 "10.231.$1.13/24" $4
	for i in 3 4; do
		b48f_calico_pod h3 "node0$i" "10.231.$2.$i"
		b48_member "node0$i" "10.231.$2.$i"
	done
}

# b48f_portsec LAN POD EXTRA: the layout of rows 04 and 08: hypervisor hv
# (a bridge br0 with the VMs' ports p1, p2, p3) carrying node01 and node02
# (10.231.LAN.1/.2, a route to 10.231.POD.0/24 via vm3) and vm3
# (10.231.LAN.13, a kubenet-style node: cbr0 10.231.POD.1/24, pods node03
# and node04 at .3/.4); hv's port security: table bridge portsec, each port
# pN sends only from its VM's MAC and from the addresses of set allow_pN
# (the port's fixed IP; EXTRA, an allowed address pair, added to p3's).
b48f_portsec() {
	b48_switch hv
	for i in 1 2; do
		b48_box "node0$i"
		b48_port hv "node0$i" lan0 "10.231.$1.$i/24"
		ip -n "$(cl_ns "node0$i")" route add "10.231.$2.0/24" via "10.231.$1.13"
		b48_member "node0$i" "10.231.$1.$i"
	done
	b48e_kubenet vm3 hv "10.231.$1.13/24" "10.231.$2.1/24"
	for i in 3 4; do
		b48e_pod vm3 "node0$i" "veth$i" "10.231.$2.$i/24" "10.231.$2.1" \
			"$(b48f_mac "$2" "$i")"
		b48_member "node0$i" "10.231.$2.$i"
	done
	_m1=$(ip netns exec "$(cl_ns node01)" cat /sys/class/net/lan0/address)
	_m2=$(ip netns exec "$(cl_ns node02)" cat /sys/class/net/lan0/address)
	_m3=$(ip netns exec "$(cl_ns vm3)" cat /sys/class/net/eth0/address)
	ip netns exec "$(cl_ns hv)" nft -f - <<EOF
table bridge portsec {
	set allow_p1 { type ipv4_addr; flags interval; elements = { 10.231.$1.1 } }
	set allow_p2 { type ipv4_addr; flags interval; elements = { 10.231.$1.2 } }
	set allow_p3 { type ipv4_addr; flags interval; elements = { 10.231.$1.13${3:+, $3} } }
	chain forward {
		type filter hook forward priority 0; policy accept;
		iifname "p1" ether saddr != $_m1 drop
		iifname "p2" ether saddr != $_m2 drop
		iifname "p3" ether saddr != $_m3 drop
		iifname "p1" ip saddr != @allow_p1 drop
		iifname "p2" ip saddr != @allow_p2 drop
		iifname "p3" ip saddr != @allow_p3 drop
		iifname "p1" arp saddr ip != @allow_p1 drop
		iifname "p2" arp saddr ip != @allow_p2 drop
		iifname "p3" arp saddr ip != @allow_p3 drop
	}
}
EOF
}

# b48f_df_agrees: every ordered pair of different members that the pair
# matrix before the fix passed also passed the 1500-byte DF check (no MTU
# blackhole hides behind a fault); 0 when so.
b48f_df_agrees() {
	awk '
		FNR == NR { s = $1; for (i = 2; i <= NF; i++) p[s " " $i] = 1; next }
		{ s = $1; for (i = 2; i <= NF; i++) {
			split($i, kv, "="); k = s " " kv[1] "=ok"
			if ((k in p) && kv[2] != "ok") bad = 1 } }
		END { exit bad }
	' "$B48_OUT/before.pairs" "$B48_OUT/before.df"
}

# b48_validate (replaces lib48e.sh's, which it repeats): the pair matrix,
# the 1500-byte DF matrix and the torch client before the fix; on a faulty
# cluster the fix, then the pair matrix and the client again. A healthy
# cluster must pass all three; a faulty one must fail the client before
# the fix and pass it after, and every pair that passed the matrix must
# pass the DF check too.
b48_validate() {
	_fault=$(b48_truth 4)
	b48b_matrix before 7562
	b48e_dfmatrix before 7564
	if b48_client before; then _b=pass; else _b=fail; fi
	_want=fail
	[ "$_fault" = healthy ] && _want=pass
	if [ "$_fault" = healthy ]; then
		if grep -Eq '=[^o ]|=o[^k]' "$B48_OUT/before.df"; then _df=fail; else _df=pass; fi
	else
		if b48f_df_agrees; then _df=agrees; else _df=fail; fi
	fi
	_a=-
	if [ "$_fault" != healthy ]; then
		b48_fix
		b48_settle
		b48b_matrix after 7563
		if b48_client after; then _a=pass; else _a=fail; fi
	fi
	_v=ok
	[ "$_b" = "$_want" ] || _v=FAIL
	[ "$_fault" = healthy ] || [ "$_a" = pass ] || _v=FAIL
	[ "$_df" != fail ] || _v=FAIL
	printf '%s\tvalidate %s\tclient before the fix: %s (want %s), after: %s; 1500-byte DF frames: %s\n' \
		"$B48_ID" "$_v" "$_b" "$_want" "$_a" "$_df" >&3
	sed 's/^/  pairs before: /' "$B48_OUT/before.pairs" >&3
	sed 's/^/  df1472 before: /' "$B48_OUT/before.df" >&3
	sed 's/^/  client before: /' "$B48_OUT/before.client" >&3
	[ ! -f "$B48_OUT/after.pairs" ] || sed 's/^/  pairs after:  /' "$B48_OUT/after.pairs" >&3
	[ ! -f "$B48_OUT/after.client" ] || sed 's/^/  client after:  /' "$B48_OUT/after.client" >&3
	[ "$_v" = ok ]
}
