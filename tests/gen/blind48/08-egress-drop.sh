# Blind cluster 08 (issue 48; truth.tsv row 08-egress-drop): moby/libnetwork#2156.
# Four nodes on one switch; node03 filters what it sends (output policy
# drop): ssh, DNS, HTTPS and MASTER_PORT 29500 out, replies of accepted
# connections, nothing else.
#   sh tests/gen/blind48/08-egress-drop.sh validate|judge
B48_ID=08-egress-drop
LAB_ID=${LAB_ID:-66b08-$$}
. "$(dirname "$0")/lib48.sh"

b48_build() {
	b48_lan sw 48 4
	ip netns exec "$(cl_ns node03)" nft -f - <<'NFT'
table ip filter {
	chain OUTPUT {
		type filter hook output priority filter; policy drop;
		ct state related,established accept
		oifname "lo" accept
		icmp type echo-request accept
		tcp dport { 22, 53, 443, 29500 } accept
		udp dport 53 accept
	}
}
NFT
}

# the thread's fix: an output accept for the cluster's traffic
b48_fix() {
	ip netns exec "$(cl_ns node03)" nft insert rule ip filter OUTPUT \
		ip daddr 10.231.48.0/24 accept
}

b48_main "$@"
