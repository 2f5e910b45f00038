# Blind cluster 11 (issue 48; truth.tsv row 11-healthy-routed-firewall): mosaicml/llm-foundry#733
# (collective timeouts while rank 0 saves a checkpoint; not the network).
# Subnets A (node01-02) and B (node03-04) behind router rt; every node
# has a management NIC on 10.231.90.0/24 and a default-deny input
# firewall that accepts both cluster subnets.
#   sh tests/gen/blind48/11-healthy-routed-firewall.sh validate|judge
B48_ID=11-healthy-routed-firewall
LAB_ID=${LAB_ID:-66b11-$$}
. "$(dirname "$0")/lib48.sh"

b48_build() {
	b48_switch swa
	b48_switch swb
	b48_switch swm
	b48_box rt
	b48_port swa rt a0 10.231.48.254/24
	b48_port swb rt b0 10.231.49.254/24
	ip netns exec "$(cl_ns rt)" sysctl -qw net.ipv4.ip_forward=1
	for i in 1 2 3 4; do
		_net=48
		_sw=swa
		[ "$i" -gt 2 ] && { _net=49; _sw=swb; }
		b48_box "node0$i"
		b48_port "$_sw" "node0$i" lan0 "10.231.$_net.$i/24" "10.231.$_net.254"
		b48_member "node0$i" "10.231.$_net.$i"
		b48_port swm "node0$i" mgmt0 "10.231.90.$i/24"
		ip netns exec "$(cl_ns "node0$i")" nft -f - <<'NFT'
table inet hostfw {
	chain input {
		type filter hook input priority filter; policy drop;
		ct state established,related accept
		iifname "lo" accept
		meta l4proto { icmp, ipv6-icmp } accept
		ip saddr { 10.231.48.0/24, 10.231.49.0/24 } accept
		tcp dport 22 accept
	}
}
NFT
	done
}

b48_fix() { :; }

b48_main "$@"
