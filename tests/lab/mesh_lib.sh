# Shared by the mesh lab (t_mesh.sh) and its benchmark (bench/mesh/run.sh):
# a LAN of N namespace nodes on one bridge, optionally some behind a NAT
# router, each with its own hostname (a UTS namespace) and an /etc/hosts
# naming every node. Source tests/lab/lib.sh first.

# mesh_name I: node01, node02, ...
mesh_name() {
	printf 'node%02d' "$1"
}

# mesh_build N NET NATTED: nodes 1..N; the last NATTED of them sit behind a
# router namespace that masquerades them (nftables) and drops new inbound
# connections, as Docker does for a container without published ports.
# LAN 10.231.NET.0/24 (node I at .I, the router at .250, a gateway at
# .254), the private side 10.231.(NET+1).0/24. Sets MESH_HOSTS (the
# --hosts file) and MESH_NS_I for each node.
mesh_build() {
	_mn=$1 _net=$2 _nat=$3
	_priv=$((_net + 1))
	_first_nat=$((_mn - _nat + 1))
	lab_ns MESH_SW sw
	ip -n "$MESH_SW" link add name br0 type bridge
	ip -n "$MESH_SW" addr add "10.231.$_net.254/24" dev br0
	ip -n "$MESH_SW" link set br0 up
	if [ "$_nat" -gt 0 ]; then
		lab_ns MESH_RT rt
		lab_veth "$MESH_RT" lan0 "$MESH_SW" prt
		ip -n "$MESH_SW" link set prt master br0
		ip -n "$MESH_SW" link set prt up
		ip -n "$MESH_RT" addr add "10.231.$_net.250/24" dev lan0
		ip -n "$MESH_RT" link set lan0 up
		ip -n "$MESH_RT" link add name brp type bridge
		ip -n "$MESH_RT" addr add "10.231.$_priv.1/24" dev brp
		ip -n "$MESH_RT" link set brp up
		ip netns exec "$MESH_RT" sysctl -qw net.ipv4.ip_forward=1
		ip netns exec "$MESH_RT" nft -f - <<NFT
table ip np_nat {
	chain postrouting {
		type nat hook postrouting priority srcnat; policy accept;
		ip saddr 10.231.$_priv.0/24 oifname "lan0" masquerade
	}
	chain forward {
		type filter hook forward priority 0; policy accept;
		ct state established,related accept
		iifname "lan0" oifname "brp" drop
	}
}
NFT
	fi
	MESH_HOSTS=$(mktemp /tmp/np-mesh-hosts.XXXXXX)
	_etc="127.0.0.1 localhost"
	_i=1
	while [ "$_i" -le "$_mn" ]; do
		if [ "$_i" -ge "$_first_nat" ]; then
			_a="10.231.$_priv.$((_i - _first_nat + 2))"
		else
			_a="10.231.$_net.$_i"
		fi
		_etc="$_etc
$_a $(mesh_name "$_i")"
		mesh_name "$_i" >>"$MESH_HOSTS"
		echo >>"$MESH_HOSTS"
		_i=$((_i + 1))
	done
	_i=1
	while [ "$_i" -le "$_mn" ]; do
		lab_ns _ns "$(mesh_name "$_i")"
		eval "MESH_NS_$_i=\$_ns"
		if [ "$_i" -ge "$_first_nat" ]; then
			_k=$((_i - _first_nat + 2))
			lab_veth "$_ns" eth0 "$MESH_RT" "v$_k"
			ip -n "$MESH_RT" link set "v$_k" master brp
			ip -n "$MESH_RT" link set "v$_k" up
			ip -n "$_ns" addr add "10.231.$_priv.$_k/24" dev eth0
			ip -n "$_ns" link set eth0 up
			ip -n "$_ns" route add default via "10.231.$_priv.1"
		else
			lab_veth "$_ns" lan0 "$MESH_SW" "p$_i"
			ip -n "$MESH_SW" link set "p$_i" master br0
			ip -n "$MESH_SW" link set "p$_i" up
			ip -n "$_ns" addr add "10.231.$_net.$_i/24" dev lan0
			ip -n "$_ns" link set lan0 up
			ip -n "$_ns" route add default via "10.231.$_net.254"
			[ "$_nat" -gt 0 ] && ip -n "$_ns" route add \
				"10.231.$_priv.0/24" via "10.231.$_net.250"
		fi
		printf '%s\n' "$_etc" | lab_hosts_stdin "$_ns"
		_i=$((_i + 1))
	done
}

# lab_hosts_stdin NS: /etc/hosts for NS from stdin.
lab_hosts_stdin() {
	mkdir -p "/etc/netns/$1"
	cat >"/etc/netns/$1/hosts"
}

# mesh_ns I: the namespace of node I.
mesh_ns() {
	eval "printf '%s' \"\$MESH_NS_$1\""
}

# mesh_wait_links N: bounded wait until every node's link is up.
mesh_wait_links() {
	_i=1
	while [ "$_i" -le "$1" ]; do
		lab_wait 50 sh -c "ip -n '$(mesh_ns "$_i")' -o link show up |
			grep -q 'eth0\|lan0'" || return 1
		_i=$((_i + 1))
	done
}

# mesh_run I OUTDIR ARGS...: starts node I's netprobe mesh in the
# background under its own hostname, with the variables in MESH_ENV
# (NAME=value words) and behind the command in MESH_WRAP (words, e.g.
# /usr/bin/time -f %M -o FILE); stdout and stderr go to OUTDIR/I.out and
# OUTDIR/I.err, the exit status to OUTDIR/I.rc.
mesh_run() {
	_i=$1 _dir=$2
	shift 2
	(
		# shellcheck disable=SC2086 # MESH_ENV holds words
		ip netns exec "$(mesh_ns "$_i")" unshare --uts sh -c \
			'hostname "$0"; exec "$@"' "$(mesh_name "$_i")" \
			${MESH_WRAP:-} env ${MESH_ENV:-} "$NETPROBE" mesh "$@" \
			>"$_dir/$_i.out" 2>"$_dir/$_i.err"
		echo $? >"$_dir/$_i.rc"
	) &
}

# mesh_wait_all N OUTDIR SECONDS: waits until N exit statuses are there,
# at most SECONDS. Returns 1 on time out.
mesh_wait_all() {
	_tries=$(($3 * 10))
	while [ "$_tries" -gt 0 ]; do
		[ "$(ls "$2"/*.rc 2>/dev/null | wc -l)" -ge "$1" ] && return 0
		sleep 0.1
		_tries=$((_tries - 1))
	done
	return 1
}

# mesh_run_torch NAME: every node runs netprobe mesh --ports torch
# --quick; node 0's report as JSON in $OUT/NAME/report.json and its
# documents in .../docs, the others' left documents in .../left; R is
# $OUT/NAME. Checks that all N nodes end within 90 s.
mesh_run_torch() {
	R="$OUT/$1"
	mkdir -p "$R"
	mesh_run 1 "$R" --hosts "$MESH_HOSTS" --join-timeout 20s --quick \
		--ports torch --format json -o "$R/report.json" --out "$R/docs"
	_i=2
	while [ "$_i" -le "$N" ]; do
		mesh_run "$_i" "$R" --hosts "$MESH_HOSTS" --join-timeout 20s \
			--quick --ports torch --out "$R/left"
		_i=$((_i + 1))
	done
	lab_check "$1: $N nodes end within 90 s" mesh_wait_all "$N" "$R" 90
}

# mesh_flush_neigh: every node forgets the neighbour entries a fault
# taught it.
mesh_flush_neigh() {
	_i=1
	while [ "$_i" -le "$N" ]; do
		ip -n "$(mesh_ns "$_i")" neigh flush all 2>/dev/null
		_i=$((_i + 1))
	done
	return 0
}
