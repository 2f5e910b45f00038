# "No host answers": netprobe ports toward an unused address of a LAN
# (10.231.78.99) says host-unreachable "no host answers (ARP failed)" with
# a short timeout (the neighbour entry still incomplete) and a long one
# (the kernel already gave up), never "filtered" and never a firewall
# fix; a host that exists behind a dropping firewall stays filtered.
. "$(dirname "$0")/lib.sh"
lab_require nft

lab_ns A nha
lab_ns B nhb
lab_veth "$A" va "$B" vb
ip -n "$A" addr add 10.231.78.1/24 dev va
ip -n "$B" addr add 10.231.78.2/24 dev vb
ip -n "$A" link set va up
ip -n "$B" link set vb up
# lower_up: the veth carries packets (bounded wait, 5 s)
lower_up() {
	ip -n "$1" link show "$2" | grep -q LOWER_UP
}
lab_check "link up" lab_wait 50 lower_up "$A" va
ip netns exec "$B" nft -f - <<'NFT'
table inet nhlab {
	chain input {
		type filter hook input priority 0;
		tcp dport 29500 drop
	}
}
NFT

for t in 1s 5s; do
	lab_rc 1 "ports toward an unused address, timeout $t" \
		ip netns exec "$A" "$NETPROBE" ports --json --timeout "$t" \
		10.231.78.99 29500
	lab_grep "timeout $t: no host answers (ARP failed)" \
		'"reason": "no host answers \(ARP failed\)"'
	lab_grep "timeout $t: host-unreachable" '"code": "host-unreachable"'
	lab_nogrep "timeout $t: not filtered" '"state": "filtered"'
	lab_nogrep "timeout $t: no firewall fix" 'nft |ufw |firewall-cmd'
done

lab_rc 1 "ports toward a host that drops" \
	ip netns exec "$A" "$NETPROBE" ports --json --timeout 1s \
	10.231.78.2 29500
lab_grep "a dropping host stays filtered" '"state": "filtered"'
lab_nogrep "a dropping host is not 'no host'" 'no host answers'
lab_done
