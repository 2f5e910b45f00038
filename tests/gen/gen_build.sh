# Generated clusters (gen.sh, which sources this file after the draw):
# the build. The namespaces, links, addresses and routes of the drawn
# topology, the overlay, NAT'd containers and the healthy noise.
# --- build -----------------------------------------------------------------
lab_ns SWA swa
ip -n "$SWA" link add name br0 type bridge
ip -n "$SWA" link set br0 up
# The overlay's underlay fabric (10.231.40.0/24) forwards no IPv4
# fragment, as many cloud fabrics do: an overlay packet that only fits
# fragmented is lost.
DEV=lan0
if [ "$TOPO" = overlay ]; then
	DEV=vxlan0
	ip netns exec "$SWA" nft -f - <<'NFT'
table bridge np23_fabric {
	chain forward {
		type filter hook forward priority 0; policy accept;
		ip frag-off & 0x3fff != 0 drop
	}
}
NFT
fi
if [ "$TOPO" = routed ]; then
	lab_ns SWB swb
	lab_ns RT rt
	ip -n "$SWB" link add name br0 type bridge
	ip -n "$SWB" link set br0 up
	lab_veth "$RT" a0 "$SWA" pr
	lab_veth "$RT" b0 "$SWB" pr
	for s in "$SWA" "$SWB"; do
		ip -n "$s" link set pr master br0
		ip -n "$s" link set pr up
	done
	ip -n "$RT" addr add 10.231.30.254/24 dev a0
	ip -n "$RT" addr add 10.231.31.254/24 dev b0
	ip -n "$RT" link set a0 up
	ip -n "$RT" link set b0 up
	ip netns exec "$RT" sysctl -qw net.ipv4.ip_forward=1
fi
HOSTS="$OUT/hosts"
: >"$HOSTS"
ETC="127.0.0.1 localhost"
i=1
while [ "$i" -le "$N" ]; do
	ETC="$ETC
10.231.$(net_of "$i").$i $(mesh_name "$i")"
	mesh_name "$i" >>"$HOSTS"
	echo >>"$HOSTS"
	i=$((i + 1))
done
i=1
while [ "$i" -le "$N" ]; do
	net=$(net_of "$i")
	if [ "$net" = 31 ]; then sw=$SWB; else sw=$SWA; fi
	lab_ns ns "n$i"
	eval "MESH_NS_$i=\$ns"
	if [ "$TOPO" = overlay ]; then
		# eth0 on the underlay; vxlan0 (VNI 42, unicast to every
		# peer's underlay address) carries the cluster's addresses,
		# at its default MTU: eth0's 1500 less VXLAN's 50
		lab_veth "$ns" eth0 "$sw" "p$i"
		ip -n "$sw" link set "p$i" master br0
		ip -n "$sw" link set "p$i" up
		ip -n "$ns" addr add "10.231.40.$i/24" dev eth0
		ip -n "$ns" link set eth0 up
		ip -n "$ns" route add default via 10.231.40.254
		ovl_vxlan "$ns" "$i" dev eth0
	else
		lab_veth "$ns" lan0 "$sw" "p$i"
		ip -n "$sw" link set "p$i" master br0
		ip -n "$sw" link set "p$i" up
		ip -n "$ns" addr add "10.231.$net.$i/24" dev lan0
		ip -n "$ns" link set lan0 up
		ip -n "$ns" route add default via "10.231.$net.254"
	fi
	printf '%s\n' "$ETC" | lab_hosts_stdin "$ns"
	# healthy noise
	rnd 4
	if [ "$RV" = 0 ]; then
		ip -n "$ns" link add name docker0 type bridge
		ip -n "$ns" addr add 172.17.0.1/16 dev docker0
		NOISE="$NOISE docker0@$i"
	fi
	rnd 4
	if [ "$RV" = 0 ]; then
		# (no dummy devices in this kernel: a veth pair, both down)
		ip -n "$ns" link add name eth1 type veth peer name eth1p
		NOISE="$NOISE nicdown@$i"
	fi
	rnd 3
	if [ "$RV" = 0 ]; then
		ip -n "$ns" addr add "fd23:$net::$i/64" dev "$DEV" nodad
		NOISE="$NOISE ipv6@$i"
	fi
	rnd 3
	if [ "$RV" = 0 ]; then
		ip netns exec "$ns" nft -f - <<'NFT'
table inet filter {
	chain input {
		type filter hook input priority filter; policy accept;
	}
	chain forward {
		type filter hook forward priority filter; policy accept;
	}
	chain output {
		type filter hook output priority filter; policy accept;
	}
}
NFT
		NOISE="$NOISE debnft@$i"
	fi
	rnd 6
	if [ "$RV" = 0 ]; then
		ip netns exec "$ns" python3 -m http.server 29500 \
			>/dev/null 2>&1 &
		lab_wait 100 sh -c "ip netns exec '$ns' ss -ltn | grep -q ':29500 '"
		NOISE="$NOISE listen29500@$i"
	fi
	i=$((i + 1))
done
NOISE=${NOISE# }
cl_ns() {
	# the router, by either leg's address (a middlebox's fix)
	case "$1" in 10.231.30.254 | 10.231.31.254) echo "$RT"; return ;; esac
	_k=1
	while [ "$_k" -le "$N" ]; do
		[ "$(mesh_name "$_k")" = "$1" ] && { mesh_ns "$_k"; return; }
		_k=$((_k + 1))
	done
}

# nat_ctr I: node I moves into a NAT'd container on its host's
# namespace (the nat fault).
nat_ctr() {
	_h=$(mesh_ns "$1")
	lab_ns _ct "c$1"
	eval "CTR_$1=ctr-$(printf '%06x' $(((SEED * 7919 + $1) % 16777216)))"
	eval "HOSTNS_$1=\$_h"
	lab_docker_ctr "$_h" "$_ct"
	printf '%s\n172.17.0.2 %s\n' "$ETC" "$(mesh_name "$1")" |
		lab_hosts_stdin "$_ct"
	ip netns exec "$_h" nft -f - <<'NFT'
table ip np23_docker {
	chain prerouting {
		type nat hook prerouting priority dstnat; policy accept;
		iifname "lan0" tcp dport { 7471, 29400, 29500 } dnat to 172.17.0.2
	}
	chain postrouting {
		type nat hook postrouting priority srcnat; policy accept;
		ip saddr 172.17.0.0/16 oifname "lan0" masquerade
	}
}
NFT
	eval "MESH_NS_$1=\$_ct"
}

# nat_hostnet I: the NAT fault's fix, "run the container with --network
# host", as a lab can apply it: the container goes (its veth, its
# published ports) and the node runs in its host's namespace under the
# host's name; docker0 stays, as on any Docker host.
nat_hostnet() {
	_h=$(eval "printf '%s' \"\$HOSTNS_$1\"")
	ip -n "$_h" link del veth0
	ip netns exec "$_h" nft delete table ip np23_docker
	eval "MESH_NS_$1=\$_h"
	eval "CTR_$1="
}

# ovl_byhand I: node I's vxlan0 made again as by hand, without its
# underlay, so at 1500 (the ovl-mtu and ovl-all faults); its IPv6 noise
# with it.
ovl_byhand() {
	_ns=$(mesh_ns "$1")
	ip -n "$_ns" link del vxlan0
	ovl_vxlan "$_ns" "$1"
	case " $NOISE " in *" ipv6@$1 "*)
		ip -n "$_ns" addr add "fd23:30::$1/64" dev vxlan0 nodad ;;
	esac
}

# addr_of I: node I's cluster address; gw_net_of I: the third byte of
# node I's own subnet.
addr_of() {
	echo "10.231.$(net_of "$1").$1"
}
gw_net_of() {
	net_of "$1"
}

# nft_input NS TABLE RULE [stateless]: an inet table of NS whose input
# chain (priority 10, policy accept) runs RULE, after accepting
# established traffic unless "stateless": every fault of one rule.
nft_input() {
	_est="ct state established,related accept"
	[ "${4:-}" = stateless ] && _est=
	ip netns exec "$1" nft -f - <<NFT
table inet $2 {
	chain input {
		type filter hook input priority 10; policy accept;
		$_est
		$3
	}
}
NFT
}

# --- issue 48, names and node settings (names48) ----------------------------
# Kinds of their own, forced with GEN_FAULTS (KIND@NODE):
# hosts-stale (node N's /etc/hosts maps peer P's name to an address no
# member holds, 10.231.x.(100+P): N's hosts file is the cause, never P),
# mask-narrow (l2, routed; node 2 whatever N says: it holds 10.231.30.2
# as a /30 on the LAN's /24, its default route kept, so node 0 stays
# inside and node03, on the /30's broadcast address, and every later
# node are cut off from it alone), pool-shadow (routed: node N, 2 or
# more, of the first subnet has a Docker network's bridge, br-np48, that
# holds 10.231.31.1/24, the second subnet: its peers there are cut off
# from it alone; elsewhere it holds no peer and must raise nothing),
# v6-family (node N runs with NCCL_SOCKET_FAMILY=AF_INET6
# and no IPv6 address but link-local), ifname-wrong and gloo-wrong (node
# N has a second NIC, eth9, up on 10.231.60.0/24, which no peer has, and
# runs with NCCL_SOCKET_IFNAME=eth9 or GLOO_SOCKET_IFNAME=eth9 while its
# scan recommends the LAN's), master-wrong (every node runs with
# MASTER_ADDR naming node 0 but node N, whose names its peer P), macvlan
# (node N, not node 0, runs as a macvlan container on node P, its host,
# when P is on its subnet and not node 0: the fix runs on P). Each is
# a setting cause on N whose command the closed loop runs there (an
# environment's, the lab applies: gen48_applied). addrclone (node N, not
# node 0, holds peer P's address in place of its own: a clone; P on its
# subnet and not node 0) is one too, decided from node 0's joins.
# notrack (node N exempts the job's ports, 29400 and 29500, from
# connection tracking in a raw prerouting chain, in front of an input
# chain, policy drop, that accepts ct states new, established and
# related, never untracked: peers' connections to those ports die on N)
# and vepa (l2, routed: node N and its peer P, neither node 0, on one
# subnet, become containers of one new host hN with macvlans in VEPA
# mode; the switch does not hairpin, so N and P cannot reach each other:
# a cause on each) are issue 48's blind48b classes.
GEN48_FIX="" GEN48_ALL="" GEN48_HOSTS=""
gen48_fault() { # gen48_fault KIND N: 0 when KIND is one of these
	_ns=$(mesh_ns "$2")
	case "$1" in
	hosts-stale)
		_p=$(peer_of "$2")
		printf '%s\n' "$ETC" |
			sed "s/^$(addr_of "$_p") /10.231.$(net_of "$_p").$((100 + _p)) /" |
			lab_hosts_stdin "$_ns"
		WANT="$WANT setting:$(mesh_name "$2")" ;;
	mask-narrow)
		set -- mask-narrow 2
		_ns=$(mesh_ns 2)
		_a=$(addr_of 2)
		ip -n "$_ns" addr add "$_a/30" dev "$DEV"
		ip -n "$_ns" addr del "$_a/24" dev "$DEV"
		# routed with node03 in the other subnet: the /30 cuts
		# nobody off (the gateway stays), no fault to find
		[ "$(net_of 3)" = "$(net_of 2)" ] &&
			WANT="$WANT setting:$(mesh_name "$2")" ;;
	ifname-wrong | gloo-wrong)
		# a second NIC, up, on a subnet no peer has (its far end in
		# the node itself), named by the job's variable
		ip -n "$_ns" link add name eth9 type veth peer name eth9p
		ip -n "$_ns" addr add "10.231.60.$2/24" dev eth9
		ip -n "$_ns" link set eth9 up
		ip -n "$_ns" link set eth9p up
		if [ "$1" = ifname-wrong ]; then _v=NCCL_SOCKET_IFNAME; else _v=GLOO_SOCKET_IFNAME; fi
		eval "GEN48_ENV_$2=' $_v=eth9'"
		GEN48_FIX="$GEN48_FIX $2:$_v="
		# the NIC stays after the fix: Open MPI and NCCL's defaults
		# would try it, true warnings of their own
		GEN_WARN_OK="$GEN_WARN_OK mpi-btl-iface nccl-default-iface-unsafe ipv6-link-local-only nccl-ifname-overmatch"
		WANT="$WANT setting:$(mesh_name "$2")" ;;
	pool-shadow)
		ip -n "$_ns" link add name br-np48 type bridge
		ip -n "$_ns" addr add 10.231.31.1/24 dev br-np48
		ip -n "$_ns" link set br-np48 up
		# elsewhere the pool holds no peer: no fault (a check that
		# none is raised); NCCL and Open MPI would still try the up
		# bridge, true warnings of their own
		if [ "$TOPO" = routed ] && [ "$(net_of "$2")" = 30 ]; then
			WANT="$WANT setting:$(mesh_name "$2")"
		else
			GEN_WARN_OK="$GEN_WARN_OK mpi-btl-iface nccl-default-iface-unsafe"
		fi ;;
	v6-family)
		# NCCL_SOCKET_FAMILY=AF_INET6 where the only IPv6 is
		# link-local (its ULA noise goes)
		ip -n "$_ns" -6 addr flush dev "$DEV" scope global
		eval "GEN48_ENV_$2=' NCCL_SOCKET_FAMILY=AF_INET6'"
		GEN48_FIX="$GEN48_FIX $2:NCCL_SOCKET_FAMILY=AF_INET"
		WANT="$WANT setting:$(mesh_name "$2")" ;;
	master-wrong)
		# every node's MASTER_ADDR names node 0 (rank 0), but node
		# N's names its peer P
		GEN48_ALL=" MASTER_ADDR=$(mesh_name 1)"
		eval "GEN48_ENV_$2=' MASTER_ADDR=$(mesh_name "$(peer_of "$2")")'"
		GEN48_FIX="$GEN48_FIX $2:MASTER_ADDR="
		WANT="$WANT setting:$(mesh_name "$2")" ;;
	macvlan)
		# node N runs in a macvlan container on node P, its host:
		# its lan0 becomes a macvlan child of P's (bridge mode),
		# with its address; P cannot reach it, nor it P. Node 0 is
		# neither (no member could join); P on N's subnet.
		_p=$(peer_of "$2")
		[ "$2" != 1 ] && [ "$_p" != 1 ] &&
			[ "$(net_of "$2")" = "$(net_of "$_p")" ] || return 0
		_hn=$(mesh_ns "$_p")
		ip -n "$_ns" link del lan0
		ip -n "$_hn" link add "mv$2" link lan0 type macvlan mode bridge
		ip -n "$_hn" link set "mv$2" netns "$_ns"
		ip -n "$_ns" link set "mv$2" name lan0
		ip -n "$_ns" addr add "$(addr_of "$2")/24" dev lan0
		ip -n "$_ns" link set lan0 up
		ip -n "$_ns" route add default via "10.231.$(net_of "$2").254"
		GEN48_HOSTS="$GEN48_HOSTS $(mesh_name "$_p")"
		WANT="$WANT setting:$(mesh_name "$2")" ;;
	addrclone)
		# node N, not node 0, comes up holding peer P's address in
		# place of its own (a clone of P's image with its static
		# address; issue 48, mesh48b): its hosts file and every
		# other still name N at its own. P is not node 0 and is on
		# N's subnet; the default route comes back with the address
		_p=$(peer_of "$2")
		[ "$2" != 1 ] && [ "$_p" != 1 ] &&
			[ "$(net_of "$2")" = "$(net_of "$_p")" ] || return 0
		ip -n "$_ns" addr del "$(addr_of "$2")/24" dev "$DEV"
		ip -n "$_ns" addr add "$(addr_of "$_p")/24" dev "$DEV" nodad
		ip -n "$_ns" route replace default via "10.231.$(net_of "$2").254"
		GEN_RC2_OK="${GEN_RC2_OK:-} $2 $_p"
		WANT="$WANT setting:$(mesh_name "$2")" ;;
	notrack)
		ip netns exec "$_ns" nft -f - <<'NFT'
table inet np48_raw {
	chain prerouting {
		type filter hook prerouting priority raw; policy accept;
		tcp dport { 29400, 29500 } notrack
	}
}
table inet np48_filter {
	chain input {
		type filter hook input priority filter; policy drop;
		ct state established,related accept
		iifname "lo" accept
		meta l4proto { icmp, ipv6-icmp } accept
		ct state new accept
	}
}
NFT
		WANT="$WANT setting:$(mesh_name "$2")" ;;
	vepa)
		# one host hN on N's switch; N and P become its containers,
		# each a macvlan of its eth0 in VEPA mode
		_p=$(peer_of "$2")
		[ "$TOPO" != overlay ] && [ "$2" != 1 ] && [ "$_p" != 1 ] &&
			[ "$(net_of "$2")" = "$(net_of "$_p")" ] || return 0
		if [ "$(net_of "$2")" = 31 ]; then _sw=$SWB; else _sw=$SWA; fi
		lab_ns _hn "h$2"
		lab_veth "$_hn" eth0 "$_sw" "ph$2"
		ip -n "$_sw" link set "ph$2" master br0
		ip -n "$_sw" link set "ph$2" up
		ip -n "$_hn" link set eth0 up
		for _m in "$2" "$_p"; do
			_mn=$(mesh_ns "$_m")
			ip -n "$_mn" link del lan0
			ip -n "$_hn" link add "mv$_m" link eth0 type macvlan mode vepa
			ip -n "$_hn" link set "mv$_m" netns "$_mn"
			ip -n "$_mn" link set "mv$_m" name lan0
			ip -n "$_mn" addr add "$(addr_of "$_m")/24" dev lan0
			ip -n "$_mn" link set lan0 up
			ip -n "$_mn" route add default via "10.231.$(net_of "$_m").254"
		done
		# P's fix is its own: the fixes may touch it
		GEN48_HOSTS="$GEN48_HOSTS $(mesh_name "$_p")"
		WANT="$WANT setting:$(mesh_name "$2") setting:$(mesh_name "$_p")" ;;
	hosts-order)
		# (GEN_FAULTS only, audit48; N 3 or more) node N's --hosts
		# lists node02 before node01: it takes node02, a member, for
		# node 0 and never joins. Node 0 cannot tell; N's stderr says
		# a member answered there and to give every node the same
		# --hosts, which the closed loop does (gen_oracle.sh)
		{ mesh_name 2; echo; mesh_name 1; echo; sed '1,2d' "$HOSTS"; } >"$OUT/hosts-$2"
		eval "GEN48_HOSTSF_$2=\$OUT/hosts-$2"
		NOJOIN="$NOJOIN $2"
		WANT="$WANT undecided:$(mesh_name 1)<->$(mesh_name "$2")" ;;
	*) return 1 ;;
	esac
}
# gen48_env I: node I's variables of these kinds (" NAME=VALUE"...)
gen48_env() {
	eval "printf '%s%s' \"\$GEN48_ALL\" \"\${GEN48_ENV_$1:-}\""
}
# gen48_applied REPORT: an environment's fix is a line of the job's
# script (export NAME=VALUE), which the closed loop ran in a shell of its
# own, where it changes nothing: its words are checked, and the lab
# applies it (the variable leaves that node's environment).
gen48_applied() {
	for _e in $GEN48_FIX; do
		_n=${_e%%:*}
		_fx=$(jq -r --arg n "$(mesh_name "$_n")" '[.causes[] |
			select(.kind == "setting" and .node == $n) |
			.fix.commands.shell[]?] | join(" ")' "$1")
		# the line as printed becomes the node's variable
		_set=$(printf '%s\n' "$_fx" | grep -o "export ${_e#*:}[^ ]*" | head -1)
		if [ -n "$_set" ]; then
			eval "GEN48_ENV_$_n=' ${_set#export }'"
		else
			fail "node $_n's setting cause gives no export ${_e#*:}: $_fx"
		fi
	done
}
# --- end of issue 48, names and node settings ---------------------------------
