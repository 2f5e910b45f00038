# The master's firewall (Debian's nftables.conf: table inet filter, policy
# drop) lets in ssh, netprobe's port and 29500, the port users publish for
# torch, but not the ephemeral range that Gloo's pairs and Open MPI listen
# on. The store works; the pairs and mpirun's daemons time out. netprobe's
# scan on the master finds the range blocked from the peer and prints the
# nft command; run as printed, both frameworks work.
E2E_NAME=firewall-ephemeral
. "$(dirname "$0")/lib.sh"
e2e_require
lan=10.231.73

lab_ns SW sw
e2e_node A a gpu-a
e2e_node B b gpu-b
e2e_lan "$SW" br0 $lan
e2e_plug "$A" eth0 "$SW" br0 $lan.1/24
e2e_plug "$B" eth0 "$SW" br0 $lan.2/24
for n in "$A" "$B"; do
	lab_hosts "$n" "127.0.0.1 localhost" "$lan.1 gpu-a" "$lan.2 gpu-b"
done
ip netns exec "$A" nft -f - <<'NFT'
table inet filter {
	chain input {
		type filter hook input priority filter; policy drop;
		ct state established,related accept
		iif lo accept
		meta l4proto { icmp, ipv6-icmp } accept
		tcp dport { 22, 7470, 29500 } accept
		udp dport 7470 accept
	}
	chain forward {
		type filter hook forward priority filter; policy drop;
	}
	chain output {
		type filter hook output priority filter; policy accept;
	}
}
NFT
e2e_ranks $lan.1 "$A" "$B"

e2e_frameworks before
e2e_serve "$A" "$B"
e2e_scans "$A=$lan.2" "$B=$lan.1"
e2e_report
# the printed firewall fix is gpu-a's alone
E2E_FAULTY=gpu-a
e2e_fix_all
e2e_frameworks after
e2e_row "Rank 0's host drops new connections except to 22, 7470 and 29500 (nftables policy drop); rank 1 on the same LAN." 0
lab_done
