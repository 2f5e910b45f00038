# Blind cluster 02 (issue 48; truth.tsv row 02-firewalld-reject): the Intel MPI firewall article.
# Four nodes on one switch; node02 runs firewalld's default zone as
# nftables rules: ssh and ICMP in, every other new connection rejected
# with ICMP admin-prohibited ("No route to host").
#   sh tests/gen/blind48/02-firewalld-reject.sh validate|judge
B48_ID=02-firewalld-reject
LAB_ID=${LAB_ID:-66b02-$$}
. "$(dirname "$0")/lib48.sh"

b48_build() {
	b48_lan sw 48 4
	ip netns exec "$(cl_ns node02)" nft -f - <<'NFT'
table inet firewalld {
	chain filter_INPUT {
		type filter hook input priority filter + 10; policy accept;
		ct state { established, related } accept
		ct status dnat accept
		iifname "lo" accept
		ct state invalid drop
		meta l4proto { icmp, ipv6-icmp } accept
		tcp dport 22 accept
		reject with icmpx admin-prohibited
	}
}
NFT
}

# the thread's fix: trust the cluster's sources
# (firewall-cmd --zone=trusted --add-source=10.231.48.0/24)
b48_fix() {
	ip netns exec "$(cl_ns node02)" nft insert rule inet firewalld \
		filter_INPUT ip saddr 10.231.48.0/24 accept
}

b48_main "$@"
