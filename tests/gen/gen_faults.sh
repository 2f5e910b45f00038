# Generated clusters (gen.sh, which sources this file after the build):
# the faults injected on their nodes, what the report must say of each
# (WANT), and the mesh runs over the cluster.
# --- faults, and what the report must say -----------------------------------
WANT=""
NOJOIN="" # the nodes that cannot join node 0 (rdvfw, ovludp-all)
GEN_RC2_OK="" # nodes that may exit 2 besides (addrclone)
GEN_WARN_OK=""
QUICK=--quick
for f in $FAULTS; do
	kind=${f%@*}
	n=${f#*@}
	ns=$(mesh_ns "$n" 2>/dev/null)
	case "$kind" in
	fw-drop | fw-reject | eph)
		case "$kind" in
		fw-drop) rule="tcp dport 29500 drop" ;;
		fw-reject) rule="tcp dport 29400 reject with tcp reset" ;;
		eph) rule="tcp dport 32768-60999 drop" ;;
		esac
		nft_input "$ns" np23_site "$rule"
		WANT="$WANT firewall:$(mesh_name "$n")"
		;;
	ufw)
		ip netns exec "$ns" nft -f - <<'NFT'
table ip filter {
	chain INPUT {
		type filter hook input priority 0; policy drop;
		jump ufw-before-input
		jump ufw-user-input
	}
	chain ufw-before-input {
		iifname "lo" accept
		ct state established,related accept
		ct state invalid drop
		meta l4proto icmp accept
		meta l4proto udp accept
	}
	chain ufw-user-input {
		tcp dport 22 accept
		tcp dport 7471 accept
	}
}
NFT
		WANT="$WANT firewall:$(mesh_name "$n")"
		;;
	mtu-odd)
		ip -n "$ns" link set lan0 mtu 1400
		WANT="$WANT mtu:$(mesh_name "$n")"
		QUICK= # an MTU shows only where a path is measured
		;;
	ovl-mtu)
		# the overlay made by hand without its underlay (no "dev
		# eth0"), so at 1500, the underlay's own MTU: what exceeds
		# 1450 leaves the node only as fragments, which the fabric
		# drops. (IPv6 noise on it goes with it.)
		ovl_byhand "$n"
		WANT="$WANT mtu:$(mesh_name "$n")"
		QUICK=
		;;
	ovl-all)
		# the same on every node: the whole overlay at 1500
		_k=1
		while [ "$_k" -le "$N" ]; do
			ovl_byhand "$_k"
			WANT="$WANT mtu:$(mesh_name "$_k")"
			_k=$((_k + 1))
		done
		QUICK=
		;;
	nat)
		# the node runs in a Docker-style container on host N:
		# docker0 (172.17.0.1/16), the container at 172.17.0.2
		# masqueraded, the mesh's ports published (docker run -p
		# 7471:7471 -p 29500:29500 -p 29400:29400), its hostname the
		# container's; --hosts still names host N
		# the report names the node by its --hosts entry (the host's)
		nat_ctr "$n"
		WANT="$WANT nat:$(printf 'node%02d' "$n")"
		;;
	loss3 | loss10)
		# loss on node N's link, both ways, at random, made on the
		# switch's port (a bridge table, nftables numgen; no netem
		# here), so the node's own sends see no error: a warning
		# naming the link at most, never a fault or a cause (issue 31)
		_p=${kind#loss}
		if [ "$(net_of "$n")" = 31 ]; then _sw=$SWB; else _sw=$SWA; fi
		ip netns exec "$_sw" nft -f - <<NFT
table bridge np31_loss {
	chain forward {
		type filter hook forward priority -10; policy accept;
		iifname "p$n" numgen random mod 100 < $_p drop
		oifname "p$n" numgen random mod 100 < $_p drop
	}
}
NFT
		GEN_WARN_OK="$GEN_WARN_OK heartbeat-loss link-lossy link-slow"
		QUICK= # loss shows only where the heartbeat runs
		;;
	srcdrop)
		# a drop limited to one peer's source address (issue 31):
		# node N drops 29500 from node P only
		_p=$(peer_of "$n")
		nft_input "$ns" np31_src "ip saddr $(addr_of "$_p") tcp dport 29500 drop"
		WANT="$WANT firewall:$(mesh_name "$n")"
		;;
	srcrej)
		# 29400 rejected with a reset for one peer's source only
		_p=$(peer_of "$n")
		nft_input "$ns" np31_srcrej "ip saddr $(addr_of "$_p") tcp dport 29400 reject with tcp reset"
		WANT="$WANT firewall:$(mesh_name "$n")"
		;;
	srceph)
		# the ephemeral range dropped from one peer's source only
		_p=$(peer_of "$n")
		nft_input "$ns" np31_srceph "ip saddr $(addr_of "$_p") tcp dport 32768-60999 drop"
		WANT="$WANT firewall:$(mesh_name "$n")"
		;;
	ovludp)
		# overlay only: node N drops VXLAN (UDP 4789) from peer P's
		# underlay address, so every connection between them dies
		# inside the overlay while both run (issue 31)
		_p=$(peer_of "$n")
		nft_input "$ns" np31_vxlan "ip saddr 10.231.40.$_p udp dport 4789 drop" stateless
		WANT="$WANT firewall:$(mesh_name "$n")"
		;;
	rtdev)
		# a tunnel device (a mesh-VPN agent's, here a veth pair
		# whose far end goes nowhere) that captures peer P's
		# address with a route of its own
		_p=$(peer_of "$n")
		ip -n "$ns" link add name wg0 type veth peer name wg0p
		# (a WireGuard device has no link-local IPv6, a veth would)
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.wg0.disable_ipv6=1
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.wg0p.disable_ipv6=1
		ip -n "$ns" addr add 10.231.77.$n/24 dev wg0
		ip -n "$ns" link set wg0 up
		ip -n "$ns" link set wg0p up
		ip -n "$ns" route add "$(addr_of "$_p")/32" dev wg0
		WANT="$WANT route:$(mesh_name "$n")"
		# the tunnel stays after the fix: Open MPI and NCCL would
		# try it, true warnings of their own
		GEN_WARN_OK="$GEN_WARN_OK mpi-btl-iface nccl-default-iface-unsafe"
		;;
	prulegw)
		# policy routing on node N: peer P's address looked up in a
		# table whose route sends it to a gateway that is not there
		_p=$(peer_of "$n")
		ip -n "$ns" route add "$(addr_of "$_p")/32" \
			via "10.231.$(gw_net_of "$n").253" dev "$DEV" table 132
		ip -n "$ns" rule add to "$(addr_of "$_p")/32" lookup 132 pref 132
		WANT="$WANT route:$(mesh_name "$n")"
		;;
	addrdup)
		# node N holds peer P's address beside its own (added by
		# hand, or a clone's): the report names N, with the command
		# that drops it, never a hosts file mapped to it (issue 31)
		_p=$(peer_of "$n")
		ip -n "$ns" addr add "$(addr_of "$_p")/24" dev "$DEV" nodad
		WANT="$WANT setting:$(mesh_name "$n")"
		;;
	duphost)
		# node N runs under peer P's hostname (a cloned image): a
		# warning on both, no fault (issue 31)
		_p=$(peer_of "$n")
		printf 'hostname %s\nexec "$@"\n' "$(mesh_name "$_p")" \
			>"$OUT/wrap-$n.sh"
		eval "WRAP_$n=\"sh \$OUT/wrap-$n.sh\""
		# the shared name is a warning on both; on N it resolves to
		# P's address, which N cannot bind (Gloo): N's hostname cause
		GEN_WARN_OK="$GEN_WARN_OK hostname-shared"
		WANT="$WANT hostname:$(mesh_name "$n")"
		;;
	rtgw)
		# a more specific route on node N that sends peer P's
		# address to a gateway that is not there (issue 31)
		_p=$(peer_of "$n")
		ip -n "$ns" route add "$(addr_of "$_p")/32" \
			via "10.231.$(gw_net_of "$n").253" dev "$DEV"
		WANT="$WANT route:$(mesh_name "$n")"
		;;
	prule)
		# policy routing on node N (a VPN agent's rule): peer P's
		# address looked up in a table that has it unreachable; N's
		# own unreachable route is named (route-type-drop, issue 48),
		# a setting cause whose command deletes it from table 131
		_p=$(peer_of "$n")
		ip -n "$ns" route add unreachable "$(addr_of "$_p")/32" table 131
		ip -n "$ns" rule add to "$(addr_of "$_p")/32" lookup 131 pref 131
		WANT="$WANT setting:$(mesh_name "$n")"
		;;
	rdvfw)
		# node 0's firewall drops member N's source to the mesh's
		# port (7471): N runs and retries, and never joins; node 0
		# probes it, and its own rule is the cause (issue 31)
		nft_input "$(mesh_ns 1)" np31_rdv "ip saddr $(addr_of "$n") tcp dport 7471 drop"
		WANT="$WANT firewall:$(mesh_name 1)"
		NOJOIN="$NOJOIN $n"
		;;
	rdvrt)
		# member N's route toward node 0 goes to a gateway that is
		# not there: N never joins, and node 0's probe of it gets
		# no answer (its replies take that route too). Node 0 has
		# no evidence: the pair is undecided, with the commands on
		# N that decide; N's own stderr names its route (issue 31)
		ip -n "$ns" route add "$(addr_of 1)/32" \
			via "10.231.$(gw_net_of "$n").253" dev "$DEV"
		WANT="$WANT undecided:$(mesh_name 1)<->$(mesh_name "$n")"
		NOJOIN="$NOJOIN $n"
		;;
	ovludp-all)
		# overlay: node N drops VXLAN (UDP 4789) from every peer.
		# Drawn on node 1, node 0 of the mesh, whose report holds
		# its ruleset: no member joins (on another node, that
		# node's document never reaches node 0: it says its route
		# on its own stderr, and node 0 cannot tell)
		nft_input "$ns" np31_vxlan_all "udp dport 4789 drop" stateless
		WANT="$WANT firewall:$(mesh_name "$n")"
		_k=1
		while [ "$_k" -le "$N" ]; do
			[ "$_k" = "$n" ] || NOJOIN="$NOJOIN $_k"
			_k=$((_k + 1))
		done
		;;
	mbox-*)
		# the router's forward path (the middleboxes' block)
		mbox_apply "$kind"
		WANT="$WANT path:10.231.30.254"
		;;
	hop)
		ip -n "$RT" link set b0 mtu 1000
		hop_drop_fragneeded "$RT"
		WANT="$WANT hop:10.231.30.254"
		QUICK=
		;;
	rtdrop)
		# (GEN_FAULTS only; issue 48, blind48c 04's sibling) node
		# N's own blackhole route over peer P's address, in front of
		# the route that holds P: route-type-drop, a setting cause
		# on N whose command deletes it (P is never node 0)
		_p=$(peer_of "$n")
		ip -n "$ns" route add blackhole "$(addr_of "$_p")/32"
		WANT="$WANT setting:$(mesh_name "$n")"
		# on node 0, P's joins get no reply: P exits 2
		[ "$n" = 1 ] && GEN_RC2_OK="$GEN_RC2_OK $_p"
		;;
	ecmp)
		# (GEN_FAULTS only, routed; blind48c 04) node N reaches the
		# other subnet by an ECMP route over the router (.254) and a
		# router switched off (.253, which never answers ARP): the
		# pairs N's kernel hashes onto .253 fail both ways. A fault
		# only where one does (as `ip route get` with N's source
		# says), else a healthy decoy; not where N's own joins to
		# node 0 would take .253 (N would never join: no document)
		[ "$TOPO" = routed ] || continue
		_net=$(net_of "$n")
		_o=$((61 - _net))
		ip -n "$ns" route add "10.231.$_o.0/24" \
			nexthop via "10.231.$_net.254" nexthop via "10.231.$_net.253"
		_dead="" _k=1
		while [ "$_k" -le "$N" ]; do
			if [ "$(net_of "$_k")" = "$_o" ] &&
				ip -n "$ns" route get "$(addr_of "$_k")" \
					from "$(addr_of "$n")" |
				grep -q "via 10.231.$_net.253 "; then
				[ "$_k" = 1 ] && _dead=join || _dead=${_dead:-yes}
				# on node 0, K's joins get no reply
				[ "$n" = 1 ] && GEN_RC2_OK="$GEN_RC2_OK $_k"
			fi
			_k=$((_k + 1))
		done
		case "$_dead" in
		join) ip -n "$ns" route del "10.231.$_o.0/24" ;;
		yes) WANT="$WANT setting:$(mesh_name "$n")" ;;
		esac
		;;
	*) gen48_fault "$kind" "$n" ;;
	esac
done
# --- issue 48, host limits (hostlim48): faults -------------------------------
# Each is the node's own setting: its scan reads it and names the command
# that clears it, a setting cause on that node (never a firewall).
for f in $FAULTS; do
	kind=${f%@*}
	n=${f#*@}
	case "$kind" in portrange | somaxconn | ratelimit | portshort | ctcount | hashlimit | synflood | iifother | noarp | brstuck | qdisc | qdischtb | ovlvni | ovlproxy) ;; *) continue ;; esac
	ns=$(mesh_ns "$n")
	case "$kind" in
	portrange)
		ip netns exec "$ns" sysctl -qw \
			net.ipv4.ip_local_port_range="40000 40015" ;;
	portshort)
		ip netns exec "$ns" sysctl -qw \
			net.ipv4.ip_local_port_range="40000 40001"
		WANT="$WANT undecided:$(mesh_name 1)<->$(mesh_name "$n")"
		NOJOIN="$NOJOIN $n"
		continue ;;
	noarp)
		# (GEN_FAULTS only, decide48b) the NOARP flag on a member's
		# LAN interface (systemd/systemd#4644, blind48d 05): it
		# answers no ARP, so it never joins; node 0 cannot tell, the
		# member's stderr names nic-noarp and its fix, which the
		# oracle runs there. A member only: node 0's own NOARP (a
		# setting cause owning every missing member) is
		# tests/lab/t_noarp.sh's
		if [ "$n" = 1 ]; then
			echo "gen: noarp@1: node 0's NOARP is tests/lab/t_noarp.sh's" >&2
			exit 2
		fi
		_d=$(ip -n "$ns" -4 -o addr show scope global | awk 'NR == 1 { print $2 }')
		ip -n "$ns" link set dev "$_d" arp off
		WANT="$WANT undecided:$(mesh_name 1)<->$(mesh_name "$n")"
		NOJOIN="$NOJOIN $n"
		continue ;;
	ovlvni)
		# (GEN_FAULTS only, decide48g) the overlay topology with one
		# member's vxlan0 made again with VNI 4242 where the others
		# run 42 (k3s-io/k3s#9295, blind48d 01): the other kernels
		# drop its VXLAN packets and it drops theirs, so it never
		# joins; node 0 cannot tell (its scans all say 42), the
		# member's stderr names its device and ip -d link show, and
		# its left document merged with node 0's gives the
		# vxlan-vni-mismatch setting cause, whose command the oracle
		# runs there. A member only: node 0's own odd VNI leaves
		# every other member out, with no majority in its report.
		if [ "$TOPO" != overlay ] || [ "$n" = 1 ]; then
			echo "gen: ovlvni@$n: a member of the overlay topology (GEN_TOPO=overlay, not node 1)" >&2
			exit 2
		fi
		ip -n "$ns" link del vxlan0
		OVL_VNI=4242
		ovl_vxlan "$ns" "$n" dev eth0
		unset OVL_VNI
		case " $NOISE " in *" ipv6@$n "*)
			ip -n "$ns" addr add "fd23:30::$n/64" dev vxlan0 nodad ;;
		esac
		WANT="$WANT undecided:$(mesh_name 1)<->$(mesh_name "$n")"
		NOJOIN="$NOJOIN $n"
		continue ;;
	ovlproxy)
		# (GEN_FAULTS only, decide48h) the overlay topology with
		# every vxlan0 made again with proxy (the kernel answers ARP
		# on it from the device's neighbour table and swallows what
		# it holds no entry for) and a permanent entry for every
		# peer's overlay address at the peer's vxlan0 MAC, as
		# flannel's old vxlan backend ran (flannel-io/flannel#203,
		# blind48f 02), but member N's lacks the entry of the next
		# member M (neither node 1, so both join): N and M fail both
		# ways, every other pair passes; N's own scan makes its
		# vxlan-proxy-neigh-missing setting cause, whose ip neigh
		# replace the closed loop runs there
		_m=$((n + 1))
		[ "$_m" -le "$N" ] || _m=2
		if [ "$TOPO" != overlay ] || [ "$n" = 1 ] || [ "$_m" = "$n" ]; then
			echo "gen: ovlproxy@$n: a member of the overlay topology (GEN_TOPO=overlay, not node 1, 3 nodes or more)" >&2
			exit 2
		fi
		_k=1
		while [ "$_k" -le "$N" ]; do
			_kn=$(mesh_ns "$_k")
			ip -n "$_kn" link del vxlan0
			ovl_vxlan "$_kn" "$_k" dev eth0 proxy
			case " $NOISE " in *" ipv6@$_k "*)
				ip -n "$_kn" addr add "fd23:30::$_k/64" dev vxlan0 nodad ;;
			esac
			_k=$((_k + 1))
		done
		_k=1
		while [ "$_k" -le "$N" ]; do
			_j=1
			while [ "$_j" -le "$N" ]; do
				if [ "$_j" != "$_k" ] && { [ "$_k" != "$n" ] || [ "$_j" != "$_m" ]; }; then
					ip -n "$(mesh_ns "$_k")" neigh add "10.231.30.$_j" \
						lladdr "$(ip netns exec "$(mesh_ns "$_j")" cat /sys/class/net/vxlan0/address)" \
						dev vxlan0 nud permanent
				fi
				_j=$((_j + 1))
			done
			_k=$((_k + 1))
		done ;;
	brstuck)
		# (GEN_FAULTS only, decide48b) a member's NIC made the port
		# of its own bridge br0 (STP off), its IPv4 address and
		# routes moved to br0, and the port left in the learning
		# state (ipspace/netlab#2259, blind48d 04). It joins by the
		# mesh's tries on the port itself (seeds 99, 2), so its own
		# scan makes its setting cause, whose command the closed
		# loop runs. A member only (node 0's is
		# tests/lab/t_brstuck.sh's)
		if [ "$n" = 1 ]; then
			echo "gen: brstuck@1: node 0's is tests/lab/t_brstuck.sh's" >&2
			exit 2
		fi
		_d=$(ip -n "$ns" -4 -o addr show scope global | awk 'NR == 1 { print $2 }')
		_a=$(ip -n "$ns" -4 -o addr show dev "$_d" scope global | awk 'NR == 1 { print $4 }')
		_r=$(ip -n "$ns" -4 route show dev "$_d" | grep -v 'proto kernel')
		ip -n "$ns" link add br0 type bridge stp_state 0
		ip -n "$ns" addr del "$_a" dev "$_d"
		ip -n "$ns" link set "$_d" master br0
		ip -n "$ns" addr add "$_a" dev br0
		ip -n "$ns" link set br0 up
		printf '%s\n' "$_r" | while read -r _rt; do
			[ -n "$_rt" ] && ip -n "$ns" route add $_rt dev br0
		done
		ip netns exec "$ns" sysctl -qw "net.ipv6.conf.$_d.disable_ipv6=1"
		ip -n "$ns" link set dev "$_d" type bridge_slave state 2 ;;
	qdisc)
		# (GEN_FAULTS only, decide48f) a tbf shaper whose burst
		# (1000 bytes) is below a full frame on the member's LAN
		# interface (tohojo/sqm-scripts#73, blind48e 01): every
		# large frame it sends is dropped, MTUs all equal; its own
		# scan makes its setting cause (qdisc-drops-frames), whose
		# tc command the closed loop runs
		_d=$(ip -n "$ns" -4 -o addr show scope global | awk 'NR == 1 { print $2 }')
		ip netns exec "$ns" tc qdisc replace dev "$_d" root tbf \
			rate 1gbit burst 1000 latency 50ms ;;
	qdischtb)
		# (GEN_FAULTS only, decide48f) an htb with a direct queue of
		# 0 and no class on the member's LAN interface (kubernetes#
		# 25092, blind48e 03): every packet it sends is dropped, so
		# it never joins; node 0 cannot tell, the member's stderr
		# names qdisc-drops-frames and its fix, which the oracle
		# runs there (as noarp's)
		if [ "$n" = 1 ]; then
			echo "gen: qdischtb@1: a member only" >&2
			exit 2
		fi
		_d=$(ip -n "$ns" -4 -o addr show scope global | awk 'NR == 1 { print $2 }')
		ip netns exec "$ns" tc qdisc replace dev "$_d" root handle 1: \
			htb default 10 direct_qlen 0
		WANT="$WANT undecided:$(mesh_name 1)<->$(mesh_name "$n")"
		NOJOIN="$NOJOIN $n"
		continue ;;
	somaxconn)
		ip netns exec "$ns" sysctl -qw net.core.somaxconn=2 ;;
	ratelimit)
		# what exceeds is dropped, or on half the seeds rejected
		# with a reset (a reset from a held port: still the limit's)
		rnd6 2
		_v=drop
		[ "$RV" = 1 ] && _v="reject with tcp reset"
		nft_input "$ns" np48_rate \
			"tcp flags syn limit rate over 2/second burst 2 packets $_v" ;;
	ctcount)
		# (GEN_FAULTS only, audit48) a connection-count limit, nft's
		# ct count in a dynamic set keyed by the source: at most 1
		# connection at once from each peer, the SYNs over it dropped
		ip netns exec "$ns" nft -f - <<'NFT'
table inet np48_ctc {
	set perpeer {
		type ipv4_addr
		size 256
		flags dynamic
	}
	chain input {
		type filter hook input priority 10; policy accept;
		ct state established,related accept
		tcp flags syn add @perpeer { ip saddr ct count over 1 } drop
	}
}
NFT
		;;
	hashlimit)
		# (GEN_FAULTS only, audit48) iptables' per-source hashlimit
		# on new connections, as a hardening guide writes it (nft
		# lists it only as an opaque xt match): over 2/second a peer
		ip netns exec "$ns" iptables-nft -A INPUT -p tcp --syn \
			-m hashlimit --hashlimit-above 2/sec --hashlimit-burst 2 \
			--hashlimit-mode srcip --hashlimit-name np48 -j DROP ;;
	iifother)
		# (GEN_FAULTS only, audit48) healthy: a drop of everything
		# arriving on another interface (eth9, which carries nothing
		# of the cluster), as a host hardens an untrusted NIC: no
		# fault, and never blamed for another fault's pair
		nft_input "$ns" np48_iif 'iifname "eth9" drop'
		continue ;;
	synflood)
		# (GEN_FAULTS only, audit48) the "SYN flood protection" of
		# many iptables guides: new connections accepted under a
		# limit, and every other SYN dropped by the next rule
		ip netns exec "$ns" iptables-nft -A INPUT -p tcp --syn \
			-m limit --limit 2/sec --limit-burst 2 -j ACCEPT
		ip netns exec "$ns" iptables-nft -A INPUT -p tcp --syn -j DROP
		# the drop is a rule of its firewall: the firewall's cause,
		# whose fix opens the job's ports ahead of it
		WANT="$WANT firewall:$(mesh_name "$n")"
		continue ;;
	esac
	WANT="$WANT setting:$(mesh_name "$n")"
done
# Healthy noise beside Debian's default ruleset (debnft): the ordinary
# limits of a hardened host, a rate on ICMP and on new SSH connections,
# which must raise nothing (no port the job uses).
for f in $NOISE; do
	case "$f" in debnft@*) ;; *) continue ;; esac
	# a NAT'd node's noise is its host's
	_h=$(eval "printf '%s' \"\${HOSTNS_${f#*@}:-}\"")
	[ -n "$_h" ] || _h=$(mesh_ns "${f#*@}")
	ip netns exec "$_h" nft -f - <<'NFT'
table inet np48_hardening {
	chain input {
		type filter hook input priority 5; policy accept;
		meta l4proto { icmp, ipv6-icmp } limit rate 10/second accept
		tcp dport 22 ct state new limit rate over 3/minute drop
	}
}
NFT
done
# --- end of issue 48, host limits: faults -------------------------------------
WANT=$(printf '%s\n' $WANT | sort -u | tr '\n' ' ')
# A member that cannot join has no document in the first round: no
# cause of its own can be named from it (seed 186: the overlay at 1500
# everywhere, and node 0 dropping node05's joins: mtu on every node but
# node05). Those causes come in the round after the join's fix, checked
# against the whole truth (WANT_ALL).
WANT_ALL=$WANT
for _k in $NOJOIN; do
	WANT=$(printf '%s\n' $WANT | grep -v ":$(mesh_name "$_k")\$" | tr '\n' ' ')
done
WANT=${WANT% }

# On the overlay, the jobs pin their interface to it, as such a cluster
# must (else NCCL and Open MPI would take eth0, the underlay: the
# warnings nccl-default-iface-unsafe and mpi-btl-iface, true ones).
[ "$TOPO" = overlay ] &&
	MESH_ENV="NCCL_SOCKET_IFNAME==vxlan0 OMPI_MCA_btl_tcp_if_include=vxlan0"
# node_env I: node I's variables: a NAT'd container's node also its rank,
# NODE_RANK, as a launcher gives every node (it cannot find itself in
# --hosts, which names its host; node 0 so has no other way to know it).
node_env() {
	if [ -n "$(eval "printf '%s' \"\${CTR_$1:-}\"")" ]; then
		echo "$GEN_ENV NODE_RANK=$(($1 - 1))$(gen48_env "$1")"
	else
		echo "$GEN_ENV$(gen48_env "$1")"
	fi
}
GEN_ENV=${MESH_ENV:-}
run_mesh() {
	R="$OUT/$1"
	mkdir -p "$R"
	MESH_WRAP=${WRAP_1:-} MESH_ENV=$(node_env 1) mesh_run 1 "$R" --hosts "$HOSTS" \
		--join-timeout 30s $QUICK ${GEN_IDLE:-} \
		--ports torch --format json -o "$R/report.json" --out "$R/docs"
	_i=2
	while [ "$_i" -le "$N" ]; do
		eval "_w=\${WRAP_$_i:-}"
		eval "_hf=\${GEN48_HOSTSF_$_i:-\$HOSTS}"
		MESH_WRAP=$_w MESH_ENV=$(node_env "$_i") mesh_run "$_i" "$R" \
			--hosts "$_hf" --join-timeout 30s $QUICK ${GEN_IDLE:-} --ports torch \
			--out "$R/left"
		_i=$((_i + 1))
	done
	MESH_ENV=$GEN_ENV
	mesh_wait_all "$N" "$R" 150
}
