# Blind cluster 08 of the second set (issue 48; truth.tsv row
# 08-healthy-macvlan-notrack): pytorch/pytorch#32162 (not the network).
# node01 and node02 on switch sw; node03 and node04 are containers on host
# h3 with macvlans in bridge mode; every node exempts the cluster subnet
# from connection tracking both ways and accepts it untracked; node01 runs
# kube-proxy in IPVS mode (a ClusterIP on kube-ipvs0, no node's address).
#   sh tests/gen/blind48b/08-healthy-macvlan-notrack.sh validate|judge
B48_ID=08-healthy-macvlan-notrack
LAB_ID=${LAB_ID:-62b08-$$}
. "$(dirname "$0")/lib48b.sh"

b48_build() {
	b48b_macvlan_pair bridge
	for i in 1 2 3 4; do
		ip netns exec "$(cl_ns "node0$i")" nft -f - <<'NFT'
table ip raw {
	chain prerouting {
		type filter hook prerouting priority raw; policy accept;
		ip saddr 10.231.62.0/24 notrack
	}
	chain output {
		type filter hook output priority raw; policy accept;
		ip daddr 10.231.62.0/24 notrack
	}
}
table inet filter {
	chain input {
		type filter hook input priority filter; policy drop;
		ct state established,related accept
		ct state invalid drop
		iifname "lo" accept
		ct state untracked ip saddr 10.231.62.0/24 accept
		tcp dport 22 accept
	}
}
NFT
	done
	_n=$(cl_ns node01)
	ip -n "$_n" link add name kube-ipvs0 type bridge
	ip -n "$_n" link set kube-ipvs0 arp off
	ip -n "$_n" addr add 10.231.96.10/32 dev kube-ipvs0
}

b48_fix() { :; }

b48_main "$@"
