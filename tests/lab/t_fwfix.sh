# Firewall fixes written against the ruleset found (issue 23), through
# the closed loop: four namespace nodes, node03's packet filter drops
# what the mesh needs, in one of several shapes a distribution leaves:
# a drop in its own table beside Debian's default `inet filter`, a
# ufw-style ruleset (policy drop, ufw-* chains), a firewalld-style zone
# ruleset (a catch-all reject after the zone jumps), and iptables-legacy
# where its binary is installed; ufw and firewalld themselves do not run
# here, so their commands are not printed. Each time node03 alone is blamed, its
# fix names the table and chain that drop, runs verbatim on node03, and
# the mesh passes again.
LAB_ID="${LAB_ID:-23-$$}"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require nft jq unshare

N=4
BAD=3
OUT=$(mktemp -d /tmp/np23-fwfix.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT" "$MESH_HOSTS"' EXIT
mesh_build "$N" 25 0
lab_check "every node's link is up" mesh_wait_links "$N"
NS3=$(mesh_ns "$BAD")

cl_ns() {
	mesh_ns "${1#node0}"
}

# run_mesh NAME: every node runs the mesh; node 0's JSON report in
# $OUT/NAME/report.json.
run_mesh() {
	R="$OUT/$1"
	mkdir -p "$R"
	mesh_run 1 "$R" --hosts "$MESH_HOSTS" --join-timeout 20s --quick \
		--ports 29500 --format json -o "$R/report.json" --out "$R/docs"
	_i=2
	while [ "$_i" -le "$N" ]; do
		mesh_run "$_i" "$R" --hosts "$MESH_HOSTS" --join-timeout 20s \
			--quick --ports 29500
		_i=$((_i + 1))
	done
	mesh_wait_all "$N" "$R" 60 || lab_notok "$1: the mesh ended within 60 s"
}

# loop NAME: the case's ruleset is on node03: blamed alone, fixed there,
# clean after.
loop() {
	run_mesh "$1"
	M="$R/report.json"
	cl_counts "$R/docs" "$1"
	lab_check "$1: node03 alone is a root cause [$(jq -r '[.causes[].node] | join(",")' "$M")]" \
		test "$(jq -r '[.causes[].node] | unique | join(",")' "$M")" = node03
	LAB_OUT=$(cl_fixes "$M")
	[ -n "${2:-}" ] && lab_grep "$1: the fix names the dropping table and chain" "$2"
	cl_apply "$M" node03
	lab_check "$1: at least one fix applied" test "$CL_APPLIED" -gt 0
	run_mesh "$1-after"
	cl_clean "$R/report.json" "$R" "$1"
}

# --- a drop in its own table beside Debian's default inet filter --------
ip netns exec "$NS3" nft -f - <<'NFT'
table inet filter {
	chain input {
		type filter hook input priority 0; policy accept;
	}
	chain forward {
		type filter hook forward priority 0; policy accept;
	}
	chain output {
		type filter hook output priority 0; policy accept;
	}
}
table inet np23_site {
	chain input {
		type filter hook input priority 10; policy accept;
		ct state established,related accept
		tcp dport 29500 drop
	}
}
NFT
loop owntable 'node03	nftables	nft insert rule inet np23_site input position [0-9]+ tcp dport 29500 accept'
LAB_OUT=$(cl_fixes "$M")
lab_nogrep "owntable: nothing written against the empty inet filter" 'inet filter'

# --- ufw-style: policy drop, the user's allows in ufw-user-input -------
ip netns exec "$NS3" nft flush ruleset
ip netns exec "$NS3" nft -f - <<'NFT'
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
	}
	chain ufw-user-input {
		tcp dport 22 accept
		tcp dport 7471 accept
	}
}
NFT
loop ufw 'node03	nftables	nft insert rule ip filter INPUT tcp dport 29500 accept'
# ufw's chains are loaded, but no /etc/ufw/ufw.conf says ENABLED=yes
lab_check "ufw: no ufw command where ufw is not enabled" \
	test -z "$(cl_fixes "$M" | grep 'ufw allow')"

# --- firewalld-style zones: a catch-all reject after the zone jumps ----
ip netns exec "$NS3" nft flush ruleset
ip netns exec "$NS3" nft -f - <<'NFT'
table inet firewalld {
	chain filter_INPUT {
		type filter hook input priority 10; policy accept;
		ct state established,related accept
		iifname "lo" accept
		jump filter_INPUT_ZONES
		reject with icmpx admin-prohibited
	}
	chain filter_INPUT_ZONES {
		goto filter_IN_public
	}
	chain filter_IN_public {
		jump filter_IN_public_allow
	}
	chain filter_IN_public_allow {
		tcp dport 22 accept
		tcp dport 7471 accept
	}
}
NFT
loop firewalld 'node03	nftables	nft insert rule inet firewalld filter_INPUT position [0-9]+ tcp dport 29500 accept'
# firewalld's table is loaded but no firewalld runs (no such process in
# /proc): its command would fail, so none is printed
lab_check "firewalld: no firewall-cmd where firewalld does not run" \
	test -z "$(cl_fixes "$M" | grep firewall-cmd)"
ip netns exec "$NS3" nft flush ruleset

# --- iptables-legacy, where its binary is installed ---------------------
if command -v iptables-legacy >/dev/null 2>&1; then
	ip netns exec "$NS3" iptables-legacy -A INPUT -p tcp --dport 29500 -j DROP
	loop legacy 'node03	iptables-legacy	iptables-legacy -I INPUT 1 -p tcp --dport 29500 -j ACCEPT'
	ip netns exec "$NS3" iptables-legacy -F INPUT
else
	echo "# skip: no iptables-legacy (apt-get install iptables)"
fi
lab_done
