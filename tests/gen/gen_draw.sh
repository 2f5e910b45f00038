# Generated clusters (gen.sh, which sources this file): the draw. The
# seed's random streams decide the nodes, the topology, the healthy noise
# and the faults with their ground truth (every later stream keeps the
# clusters of the seeds drawn before); GEN_DRY=1 prints the draw here.
# The seed's random numbers: a 31-bit LCG, so every shell draws alike.
RND=$SEED
rnd() { # rnd N: RV becomes 0..N-1 (no subshell: RND must advance)
	RND=$(((RND * 1103515245 + 12345) % 2147483648))
	RV=$(((RND / 65536) % $1))
}
rnd 2

rnd 13
N=$((4 + RV))
rnd 3
if [ "$RV" = 0 ]; then TOPO=routed; else TOPO=l2; fi
# A second stream draws what came later (the overlay, the NAT'd
# container), so the seeds drawn before keep their clusters.
RND2=$(((SEED * 69069 + 1013904223) % 2147483648))
rnd2() {
	RND2=$(((RND2 * 1103515245 + 12345) % 2147483648))
	RV=$(((RND2 / 65536) % $1))
}
rnd2 3
[ "$TOPO" = l2 ] && [ "$RV" = 0 ] && TOPO=overlay
[ -n "${GEN_TOPO:-}" ] && TOPO=$GEN_TOPO
rnd 4
NF=$RV
FAULTS=""
NOISE=""
FKINDS="fw-drop fw-reject ufw eph mtu-odd"
[ "$TOPO" = routed ] && FKINDS="$FKINDS hop"
[ "$TOPO" = overlay ] && FKINDS="fw-drop fw-reject ufw eph ovl-mtu ovl-all"

# Faults: kinds drawn, each on a distinct node (hop on the router).
FNODE_TAKEN=" "
i=0
while [ "$i" -lt "$NF" ]; do
	set -- $FKINDS
	rnd $#
	shift "$RV"
	kind=$1
	case " $FAULTS " in *" hop@"*) [ "$kind" = hop ] && kind=fw-drop ;; esac
	# every node's overlay at 1500 holds any one node's
	case " $FAULTS " in *" ovl-all@"*)
		case "$kind" in ovl-*) kind=fw-drop ;; esac ;;
	*" ovl-mtu@"*) [ "$kind" = ovl-all ] && kind=fw-drop ;;
	esac
	if [ "$kind" = hop ]; then
		FAULTS="$FAULTS hop@rt"
	elif [ "$kind" = ovl-all ]; then
		FAULTS="$FAULTS ovl-all@all"
	else
		for _t in 1 2 3 4 5 6 7 8; do
			rnd "$N"
			n=$((1 + RV))
			case "$FNODE_TAKEN" in *" $n "*) continue ;; esac
			break
		done
		case "$FNODE_TAKEN" in *" $n "*) i=$((i + 1)); continue ;; esac
		# The report takes the MTU most nodes run as the right one:
		# odd MTUs on half the nodes or more are a tie nobody can
		# resolve from inside (seed 251), or a majority that makes
		# the healthy nodes odd. A node's MTU fault only while the
		# odd ones stay a strict minority, else a drop (the draw's
		# random numbers are the same either way).
		case "$kind" in mtu-odd | ovl-mtu)
			_k=$(printf '%s\n' $FAULTS | grep -c '^\(mtu-odd\|ovl-mtu\)@')
			[ $((2 * (_k + 1))) -lt "$N" ] || kind=fw-drop ;;
		esac
		FNODE_TAKEN="$FNODE_TAKEN$n "
		FAULTS="$FAULTS $kind@$n"
	fi
	i=$((i + 1))
done
# A NAT'd container (l2, routed): one more fault, on a node of its own,
# node 1 too (node 0 in a container listed by its host's address goes
# by NODE_RANK, which run_mesh gives it as a launcher would).
rnd2 4
if [ "$TOPO" != overlay ] && [ "$RV" = 0 ]; then
	rnd2 "$N"
	n=$((1 + RV))
	case "$n $FNODE_TAKEN" in
	*" $n "*) ;;
	*) FNODE_TAKEN="$FNODE_TAKEN$n "; FAULTS="$FAULTS nat@$n" ;;
	esac
fi
# peer_of I: the peer a one-pair fault of node I is about (the next
# node, the one before for the last; never node 1, node 0 of the mesh)
peer_of() {
	if [ "$1" -lt "$N" ]; then echo $(($1 + 1)); else echo $(($1 - 1)); fi
}

# Issue 31's kinds, from a third stream (the seeds drawn before keep
# their clusters): one more fault on half the seeds, on a node of its
# own. A kind that cuts one pair (a route, the overlay's port) is never
# on node 1, node 0 of the mesh, and never toward it: a member that
# cannot reach node 0 does not join.
RND3=$(((SEED * 1664525 + 1013904223) % 2147483648))
rnd3() {
	RND3=$(((RND3 * 1103515245 + 12345) % 2147483648))
	RV=$(((RND3 / 65536) % $1))
}
rnd3 2
if [ "$RV" = 0 ]; then
	if [ "$TOPO" = overlay ]; then
		set -- loss3 loss10 srcdrop srceph ovludp rtgw prule prulegw \
			addrdup duphost srcrej
	else
		set -- loss3 loss10 srcdrop srceph rtgw prule prulegw rtdev \
			addrdup duphost srcrej
	fi
	rnd3 $#
	shift "$RV"
	kind=$1
	for _t in 1 2 3 4 5 6 7 8; do
		rnd3 "$N"
		n=$((1 + RV))
		case "$kind" in
		loss*) ;;
		srcdrop | srceph | srcrej)
			# the peer not in a NAT'd container (its source is
			# its host's then, a case of its own)
			case " $FAULTS " in *" nat@$(peer_of "$n") "*) continue ;; esac ;;
		*)
			[ "$n" = 1 ] && continue
			case " $FAULTS " in *" nat@$(peer_of "$n") "*) continue ;; esac
			# another subnet's address held on the LAN is a route
			# of its own (its fix changes the paths the hop's
			# fixes were measured on: seed 202): same subnet only
			if [ "$kind" = addrdup ] && [ "$TOPO" = routed ]; then
				_q=$(peer_of "$n")
				[ $((n > N / 2)) = $((_q > N / 2)) ] || continue
			fi ;;
		esac
		case "$FNODE_TAKEN" in *" $n "*) continue ;; esac
		FNODE_TAKEN="$FNODE_TAKEN$n "
		FAULTS="$FAULTS $kind@$n"
		break
	done
fi
# Node 0 that members cannot reach, from a fourth stream (the seeds drawn
# before keep their clusters), on one seed in five: rdvfw (node 0's
# firewall drops one member's source to the mesh's port; l2, routed,
# overlay), rdvrt (the member's route toward node 0 goes to a gateway
# that is not there: node 0 cannot tell, and names the pair and the
# commands that decide; the member's stderr names its route) or, on an
# overlay in place of the other faults, ovludp-all
# (node 0 drops the overlay's UDP port from every peer: no member joins,
# so node 0 would see none of the others). The
# member that cannot join is no node of another fault, nor the peer one
# is about (its document never reaches node 0), and the MTU faults stay
# a strict minority of the nodes that report.
RND4=$(((SEED * 22695477 + 1) % 2147483648))
rnd4() {
	RND4=$(((RND4 * 1103515245 + 12345) % 2147483648))
	RV=$(((RND4 / 65536) % $1))
}
rnd4 5
if [ "$RV" = 0 ]; then
	rnd4 2
	if [ "$TOPO" = overlay ] && [ "$RV" = 0 ]; then
		# in place of the seed's other faults: with no member
		# joined, node 0 sees none of theirs
		FAULTS=" ovludp-all@1"
	else
		_k=$(printf '%s\n' $FAULTS | grep -c '^\(mtu-odd\|ovl-mtu\|ovl-all\)@')
		for _t in 1 2 3 4 5 6 7 8; do
			rnd4 "$N"
			n=$((1 + RV))
			[ "$n" = 1 ] && continue
			[ $((2 * _k)) -lt $((N - 1)) ] || break
			case " $FAULTS " in *" nat@1 "*) break ;; esac
			case "$FNODE_TAKEN" in *" $n "*) continue ;; esac
			_peer=
			for f in $FAULTS; do
				case "$f" in *@rt | *@all) continue ;; esac
				[ "$(peer_of "${f#*@}")" = "$n" ] && _peer=1
			done
			[ -n "$_peer" ] && continue
			FNODE_TAKEN="$FNODE_TAKEN$n "
			rnd4 2
			if [ "$RV" = 0 ]; then
				FAULTS="$FAULTS rdvfw@$n"
			else
				FAULTS="$FAULTS rdvrt@$n"
			fi
			break
		done
	fi
fi
# --- middleboxes (issue 48) -------------------------------------------------
# A fifth stream (the seeds drawn before keep their clusters): on one
# routed seed in four, a box on the path between the subnets, on the
# router (fault node "rt"): mbox-reject (its forward path resets TCP to
# ports 20000-65535 between the subnets, after passing established
# traffic, as an ACL on a router does: every member still joins node 0
# on 7471) or mbox-idle (a stateful forward path whose connection
# tracking forgets a TCP connection idle for 3 s and drops what is not a
# new connection's SYN: the mesh runs with --idle 5s; GEN_IDLE=--idle 5s
# gives any seed the idle probe). The truth is the path, no node:
# "path:10.231.30.254", the router by its first leg. Never on a healthy
# seed (healthy seeds stay healthy; GEN_FAULTS=mbox-reject@rt gives one
# alone), nor beside a NAT'd node, a member that cannot join, or the
# hop's MTU fault (their own rounds). The fix names the box, and the
# closed loop runs it in the router's namespace.
RND5=$(((SEED * 214013 + 2531011) % 2147483648))
rnd5() {
	RND5=$(((RND5 * 1103515245 + 12345) % 2147483648))
	RV=$(((RND5 / 65536) % $1))
}
rnd5 4
if [ "$TOPO" = routed ] && [ "$RV" = 0 ] && [ -n "$FAULTS" ]; then
	case " $FAULTS " in
	*" nat@"* | *" rdv"* | *" hop@"*) ;;
	*)
		# (the stream's next draw runs in step with this one:
		# the seed's parity picks the kind)
		if [ $((SEED % 2)) = 0 ]; then
			FAULTS="$FAULTS mbox-reject@rt"
		else
			FAULTS="$FAULTS mbox-idle@rt"
		fi ;;
	esac
fi
# mbox_apply KIND: the middlebox fault KIND in the router's namespace.
# mbox-drop (GEN_FAULTS=mbox-drop@rt only, no seed draws it): the same
# ACL as mbox-reject that drops in silence, as most firewalls do; the
# mesh's retry probe tells it from loss (issue 48, mesh48b).
mbox_apply() {
	case "$1" in
	mbox-drop)
		ip netns exec "$RT" nft -f - <<'NFT'
table inet filter {
	chain forward {
		type filter hook forward priority filter; policy accept;
		ct state established,related accept
		ip saddr 10.231.30.0/24 ip daddr 10.231.31.0/24 tcp dport 20000-65535 drop
		ip saddr 10.231.31.0/24 ip daddr 10.231.30.0/24 tcp dport 20000-65535 drop
	}
}
NFT
		;;
	mbox-reject)
		ip netns exec "$RT" nft -f - <<'NFT'
table inet filter {
	chain forward {
		type filter hook forward priority filter; policy accept;
		ct state established,related accept
		ip saddr 10.231.30.0/24 ip daddr 10.231.31.0/24 tcp dport 20000-65535 reject with tcp reset
		ip saddr 10.231.31.0/24 ip daddr 10.231.30.0/24 tcp dport 20000-65535 reject with tcp reset
	}
}
NFT
		;;
	mbox-idle)
		ip netns exec "$RT" sysctl -qw \
			net.netfilter.nf_conntrack_tcp_timeout_established=3
		ip netns exec "$RT" nft -f - <<'NFT'
table inet filter {
	chain forward {
		type filter hook forward priority filter; policy accept;
		meta l4proto != tcp accept
		ct state established,related accept
		tcp flags & (fin | syn | rst | ack) == syn accept
		drop
	}
}
NFT
		GEN_IDLE="--idle 5s"
		;;
	esac
}
# --- end of the middleboxes (issue 48) ---------------------------------------
# --- issue 48, host limits (hostlim48): draw ---------------------------------
# From a sixth stream (the seeds drawn before keep their clusters), on
# one seed in four, one more fault on a node of its own: portrange (its
# ip_local_port_range 40000-40015), somaxconn (net.core.somaxconn 2,
# below the node count) or ratelimit (new TCP connections rate-limited
# by an nftables rule, 2/second, the rest dropped) or portshort (its
# range 40000-40001: its own listeners hold both ports, so its connects
# fail with EADDRNOTAVAIL and it never joins node 0, which cannot tell
# why; the member's own stderr names its range and the fix, drawn as
# rdvrt is: not node 1, not a peer a fault is about, MTU faults a strict
# minority of the nodes that report). Not beside ovludp-all, whose
# members never join. GEN_FAULTS only (no seed draws them, audit48):
# ctcount (nft's ct count in a dynamic set, 1 connection at once from
# each peer, the SYNs over it dropped), hashlimit (iptables-nft's
# per-source hashlimit over 2/second, dropped), both a setting cause as
# ratelimit is, and synflood (iptables' SYN flood guard: new
# connections accepted under 2/second, the next rule drops every other
# SYN), a firewall cause: its drop is an ordinary rule; iifother, no
# fault (a drop of what arrives on eth9, a NIC the cluster does not use:
# never blamed, "iifother@5 mbox-reject@rt" on a routed seed too).
RND6=$(((SEED * 134775813 + 907633385) % 2147483648))
rnd6() {
	RND6=$(((RND6 * 1103515245 + 12345) % 2147483648))
	RV=$(((RND6 / 65536) % $1))
}
rnd6 7 # the first draw of close seeds is alike: skipped
rnd6 4
if [ "$RV" = 0 ]; then
	case " $FAULTS " in
	*" ovludp-all@"*) ;;
	*)
		set -- portrange somaxconn ratelimit portshort
		rnd6 $#
		shift "$RV"
		kind=$1
		if [ "$kind" = portshort ]; then
			_k=$(printf '%s\n' $FAULTS | grep -c '^\(mtu-odd\|ovl-mtu\|ovl-all\)@')
			[ $((2 * _k)) -lt $((N - 1)) ] || kind=portrange
			case " $FAULTS " in *" nat@1 "* | *" rdv"* | *" mbox-"*) kind=portrange ;; esac
		fi
		for _t in 1 2 3 4 5 6 7 8; do
			rnd6 "$N"
			n=$((1 + RV))
			case "$FNODE_TAKEN" in *" $n "*) continue ;; esac
			if [ "$kind" = portshort ]; then
				[ "$n" = 1 ] && continue
				_peer=
				for f in $FAULTS; do
					case "$f" in *@rt | *@all) continue ;; esac
					[ "$(peer_of "${f#*@}")" = "$n" ] && _peer=1
				done
				[ -n "$_peer" ] && continue
			fi
			FNODE_TAKEN="$FNODE_TAKEN$n "
			FAULTS="$FAULTS $kind@$n"
			break
		done ;;
	esac
fi
# --- end of issue 48, host limits: draw ---------------------------------------
FAULTS=${FAULTS# }
# --- issue 48, names and node settings: the draw (names48) -------------------
# With GEN48_DRAW=1, a stream of its own adds one of the kinds of the
# names48 block below on one seed in three (without it no seed changes):
# a job variable (v6-family, ifname-wrong, gloo-wrong, master-wrong) on a
# node no other fault has; a kind that cuts pairs (hosts-stale, macvlan,
# mask-narrow, pool-shadow) only on a seed with no other fault. Never
# beside a NAT'd node or a member that cannot join.
if [ -n "${GEN48_DRAW:-}" ]; then
	RND48=$(((SEED * 48271 + 11) % 2147483648))
	rnd48() {
		RND48=$(((RND48 * 1103515245 + 12345) % 2147483648))
		RV=$(((RND48 / 65536) % $1))
	}
	rnd48 3
	case " $FAULTS " in *" nat@"* | *" rdv"* | *" ovludp-all@"*) RV=1 ;; esac
	if [ "$RV" = 0 ]; then
		if [ -z "$FAULTS" ]; then
			set -- v6-family ifname-wrong gloo-wrong master-wrong hosts-stale macvlan
			[ "$TOPO" = overlay ] || set -- "$@" mask-narrow
			[ "$TOPO" = routed ] && set -- "$@" pool-shadow
		else
			set -- v6-family ifname-wrong gloo-wrong master-wrong
		fi
		rnd48 $#
		shift "$RV"
		_k48=$1
		for _t in 1 2 3 4 5 6 7 8; do
			rnd48 "$N"
			n=$((2 + RV % (N - 1)))
			case "$FNODE_TAKEN" in *" $n "*) continue ;; esac
			case "$_k48" in
			mask-narrow) n=2 ;;
			pool-shadow) [ "$n" -le $((N / 2)) ] || continue ;;
			macvlan) [ "$TOPO" != overlay ] || _k48=hosts-stale ;;
			esac
			FAULTS="${FAULTS:+$FAULTS }$_k48@$n"
			break
		done
	fi
fi
# --- end of issue 48, the draw -------------------------------------------------
[ -n "${GEN_FAULTS+x}" ] && FAULTS=$GEN_FAULTS

mesh_name() { # nodeNN, or the container's name (a nat fault)
	eval "_c=\${CTR_$1:-}"
	if [ -n "$_c" ]; then echo "$_c"; else printf 'node%02d' "$1"; fi
}
net_of() { # the subnet's third byte of node I
	if [ "$TOPO" = routed ] && [ "$1" -gt $((N / 2)) ]; then echo 31; else echo 30; fi
}

[ -n "${GEN_DRY:-}" ] && { printf '%s\t%s\t%s\t%s\n' "$SEED" "$N" "$TOPO" "${FAULTS:--}" >&3; exit 0; }

# ovl_vxlan NS I [dev eth0]: node I's vxlan0 (VNI 42, or $OVL_VNI; unicast to every
# peer's underlay address, the cluster's address on it). Bound to its
# underlay (dev eth0) the kernel gives it eth0's MTU less VXLAN's 50 and
# refuses more; created without it, as by hand, it gets 1500.
ovl_vxlan() {
	_ns=$1 _i=$2
	shift 2
	ip -n "$_ns" link add vxlan0 type vxlan id "${OVL_VNI:-42}" dstport 4789 \
		local "10.231.40.$_i" "$@" nolearning
	_j=1
	while [ "$_j" -le "$N" ]; do
		[ "$_j" = "$_i" ] ||
			echo "fdb append 00:00:00:00:00:00 dev vxlan0 dst 10.231.40.$_j"
		_j=$((_j + 1))
	done | bridge -n "$_ns" -batch -
	ip -n "$_ns" addr add "10.231.30.$_i/24" dev vxlan0
	ip -n "$_ns" link set vxlan0 up
}
