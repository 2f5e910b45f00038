# Generated clusters (issue 23): one seed builds one namespace cluster,
# injects its faults, runs netprobe mesh on every node, and judges the
# report against the ground truth (the oracle), then closes the loop: the
# printed fixes run verbatim on the nodes they name and the mesh must
# pass. The seed alone decides the cluster, so a failing seed reruns as
# it failed.
#
#   sh tests/gen/gen.sh SEED     one line: "SEED<TAB>nodes<TAB>topology<TAB>
#                                noise<TAB>faults<TAB>verdict<TAB>why"
#
# Topologies: one L2 segment (l2), or two subnets behind a router
# (routed). Healthy noise, per node at random: an unused docker0-like
# bridge, a second NIC down, IPv6 addresses, Debian's default nftables
# ruleset, a service already listening on 29500 (a --ports port). Faults
# (0-3, on distinct nodes), each with its ground truth (cause kind and
# node): fw-drop (29500 dropped in its own table), fw-reject (29400
# rejected with a reset), ufw (a ufw-style policy-drop ruleset), eph
# (the ephemeral range dropped), mtu-odd (lan0 at MTU 1400), hop (routed
# only: the router's leg at MTU 1000, ICMP frag-needed dropped). Every
# report is also rendered in every format, whose counts must agree.
# Namespaces are named np23-g<SEED>-..., removed on exit.
SEED=${1:?usage: gen.sh SEED}
LAB_ID="23-g$SEED"
. "$(dirname "$0")/../lab/lib.sh"
. "$(dirname "$0")/../lab/mesh_lib.sh"
. "$(dirname "$0")/../lab/closedloop.sh"
lab_require nft jq unshare python3 >/dev/null

OUT=$(mktemp -d /tmp/np23-gen.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT"' EXIT
# a runner gone (its pipe closed) must not leave the namespaces behind
trap 'exit 129' HUP
trap 'exit 141' PIPE
exec 3>&1 >"$OUT/log" 2>&1

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
rnd 4
NF=$RV
FAULTS=""
NOISE=""
FKINDS="fw-drop fw-reject ufw eph mtu-odd"
[ "$TOPO" = routed ] && FKINDS="$FKINDS hop"

# Faults: kinds drawn, each on a distinct node (hop on the router).
FNODE_TAKEN=" "
i=0
while [ "$i" -lt "$NF" ]; do
	set -- $FKINDS
	rnd $#
	shift "$RV"
	kind=$1
	case " $FAULTS " in *" hop@"*) [ "$kind" = hop ] && kind=fw-drop ;; esac
	if [ "$kind" = hop ]; then
		FAULTS="$FAULTS hop@rt"
	else
		for _t in 1 2 3 4 5 6 7 8; do
			rnd "$N"
			n=$((1 + RV))
			case "$FNODE_TAKEN" in *" $n "*) continue ;; esac
			break
		done
		case "$FNODE_TAKEN" in *" $n "*) i=$((i + 1)); continue ;; esac
		FNODE_TAKEN="$FNODE_TAKEN$n "
		FAULTS="$FAULTS $kind@$n"
	fi
	i=$((i + 1))
done
FAULTS=${FAULTS# }

mesh_name() { printf 'node%02d' "$1"; }
net_of() { # the subnet's third byte of node I
	if [ "$TOPO" = routed ] && [ "$1" -gt $((N / 2)) ]; then echo 31; else echo 30; fi
}

# --- build -----------------------------------------------------------------
lab_ns SWA swa
ip -n "$SWA" link add name br0 type bridge
ip -n "$SWA" link set br0 up
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
	lab_veth "$ns" lan0 "$sw" "p$i"
	ip -n "$sw" link set "p$i" master br0
	ip -n "$sw" link set "p$i" up
	ip -n "$ns" addr add "10.231.$net.$i/24" dev lan0
	ip -n "$ns" link set lan0 up
	ip -n "$ns" route add default via "10.231.$net.254"
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
		ip -n "$ns" link add name eth1 type dummy
		NOISE="$NOISE nicdown@$i"
	fi
	rnd 3
	if [ "$RV" = 0 ]; then
		ip -n "$ns" addr add "fd23:$net::$i/64" dev lan0 nodad
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
	mesh_ns "$(echo "${1#node}" | sed 's/^0//')"
}

# --- faults, and what the report must say -----------------------------------
WANT=""
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
		ip netns exec "$ns" nft -f - <<NFT
table inet np23_site {
	chain input {
		type filter hook input priority 10; policy accept;
		ct state established,related accept
		$rule
	}
}
NFT
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
		tcp dport 7470 accept
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
	hop)
		ip -n "$RT" link set b0 mtu 1000
		hop_drop_fragneeded "$RT"
		WANT="$WANT hop:10.231.30.254"
		QUICK=
		;;
	esac
done
WANT=$(printf '%s\n' $WANT | sort -u | tr '\n' ' ')
WANT=${WANT% }

run_mesh() {
	R="$OUT/$1"
	mkdir -p "$R"
	mesh_run 1 "$R" --hosts "$HOSTS" --join-timeout 30s $QUICK \
		--ports torch --format json -o "$R/report.json" --out "$R/docs"
	_i=2
	while [ "$_i" -le "$N" ]; do
		mesh_run "$_i" "$R" --hosts "$HOSTS" --join-timeout 30s \
			$QUICK --ports torch
		_i=$((_i + 1))
	done
	mesh_wait_all "$N" "$R" 150
}

# --- the oracle ---------------------------------------------------------------
WHY=""
fail() {
	WHY="${WHY:+$WHY; }$*"
}
lab_check "links up" mesh_wait_links "$N"
if ! run_mesh run; then
	fail "the mesh did not end within 150 s"
fi
M="$R/report.json"
if [ -s "$M" ]; then
	want_rc=0
	[ -n "$FAULTS" ] && want_rc=1
	[ "$(cat "$R"/*.rc | sort -u | tr '\n' ' ')" = "$want_rc " ] ||
		fail "exit statuses $(cat "$R"/*.rc | sort | uniq -c | tr -s ' ' | tr '\n' ' ') (wanted all $want_rc)"
	GOT=$(jq -r '.causes[] | "\(.kind):\(.node)"' "$M" | sort -u | tr '\n' ' ')
	GOT=${GOT% }
	[ "$GOT" = "$WANT" ] || fail "causes [$GOT], truth [$WANT]"
	LAB_FAIL=0
	cl_counts "$R/docs" counts
	[ "$LAB_FAIL" = 0 ] || fail "$(grep '^not ok - counts' "$OUT/log" | sed 's/^not ok - //')"
	UNEXPL=$(jq -r '[.findings[] | select((.severity == "fault" or
		.severity == "warning") and .root_cause == null) |
		"\(.node):\(.code)"] | unique | join(",")' "$M")
	[ -z "$UNEXPL" ] || fail "findings no cause explains: $UNEXPL"
	if [ -n "$FAULTS" ] && [ -z "$WHY" ]; then
		# the closed loop: the fixes, on the nodes they name
		ALLOWED=$(for f in $FAULTS; do
			case "$f" in
			hop@*) i=1; while [ "$i" -le "$N" ]; do mesh_name "$i"; echo; i=$((i + 1)); done ;;
			*) mesh_name "${f#*@}"; echo ;;
			esac
		done | tr '\n' ' ')
		cl_apply "$M" $ALLOWED
		[ "$LAB_FAIL" = 0 ] || fail "closed loop: $(grep '^not ok - closed loop' "$OUT/log" | head -3 | sed 's/^not ok - closed loop: //' | tr '\n' ';')"
		if [ -z "$WHY" ]; then
			run_mesh after || fail "the re-run did not end"
			LAB_FAIL=0
			cl_clean "$R/report.json" "$R" "after" >/dev/null
			[ "$LAB_FAIL" = 0 ] || fail "not clean after the fixes: $(jq -r '[.findings[] | select(.severity != "info") | "\(.node):\(.code)"] | unique | join(",")' "$R/report.json")"
		fi
	fi
else
	fail "no report"
fi
VERDICT=ok
[ -n "$WHY" ] && VERDICT=FAIL
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$SEED" "$N" "$TOPO" \
	"${NOISE:--}" "${FAULTS:--}" "$VERDICT" "${WHY:--}" >&3
[ "$VERDICT" = ok ]
