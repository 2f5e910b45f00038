# Blind cluster 03 (issue 48; truth.tsv row 03-masterport-only): pytorch/pytorch#44544 (NVIDIA/nccl#388).
# Four nodes on one switch; node02's input chain (policy drop, as
# iptables-nft writes it) lets in ssh and MASTER_PORT 29500 only.
#   sh tests/gen/blind48/03-masterport-only.sh validate|judge
B48_ID=03-masterport-only
LAB_ID=${LAB_ID:-66b03-$$}
. "$(dirname "$0")/lib48.sh"

b48_build() {
	b48_lan sw 48 4
	ip netns exec "$(cl_ns node02)" nft -f - <<'NFT'
table ip filter {
	chain INPUT {
		type filter hook input priority filter; policy drop;
		ct state related,established accept
		iifname "lo" accept
		icmp type echo-request accept
		tcp dport 22 accept
		tcp dport 29500 accept
	}
}
NFT
}

# the thread's fix: let the cluster's traffic in on every port
b48_fix() {
	ip netns exec "$(cl_ns node02)" nft insert rule ip filter INPUT \
		ip saddr 10.231.48.0/24 accept
}

b48_main "$@"
