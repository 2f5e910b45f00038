# Blind cluster 05 of the second set (issue 48; truth.tsv row
# 05-notrack-untracked-drop): firewalld/firewalld#380, projectcalico/calico#471.
# Four nodes on one switch; node03 exempts the cluster subnet from
# connection tracking in the raw table, in front of a firewalld-style input
# chain (policy drop) whose accepts match ct states new, established and
# related, never untracked.
#   sh tests/gen/blind48b/05-notrack-untracked-drop.sh validate|judge
B48_ID=05-notrack-untracked-drop
LAB_ID=${LAB_ID:-62b05-$$}
. "$(dirname "$0")/lib48b.sh"

b48_build() {
	b48_lan sw 62 4
	ip netns exec "$(cl_ns node03)" nft -f - <<'NFT'
table ip raw {
	chain prerouting {
		type filter hook prerouting priority raw; policy accept;
		ip saddr 10.231.62.0/24 notrack
	}
}
table inet filter {
	chain input {
		type filter hook input priority filter; policy drop;
		ct state established,related accept
		ct state invalid drop
		iifname "lo" accept
		ct state new tcp dport 22 accept
		ct state new ip saddr 10.231.62.0/24 accept
	}
}
NFT
}

# the thread's fix: untracked packets accepted as firewalld now does
b48_fix() {
	ip netns exec "$(cl_ns node03)" nft insert rule inet filter input \
		ct state untracked ip saddr 10.231.62.0/24 accept
}

b48_main "$@"
