# Blind cluster 05 (issue 48; truth.tsv row 05-docker-forward-drop): moby/moby#30338 (Docker on a router).
# Four members; node03 runs in a routed (not NAT'd) container on host h3
# (bridge docker0, 10.231.47.0/24, which the LAN routes via h3), and h3's
# forward chain is Docker's: policy drop, the container's own traffic out
# and its replies in accepted, an empty DOCKER-USER chain.
#   sh tests/gen/blind48/05-docker-forward-drop.sh validate|judge
B48_ID=05-docker-forward-drop
LAB_ID=${LAB_ID:-66b05-$$}
. "$(dirname "$0")/lib48.sh"

b48_build() {
	b48_switch sw 10.231.48.254/24
	for i in 1 2; do
		b48_box "node0$i"
		b48_port sw "node0$i" lan0 "10.231.48.$i/24" 10.231.48.254
		b48_member "node0$i" "10.231.48.$i"
	done
	b48_box h3
	b48_port sw h3 lan0 10.231.48.3/24 10.231.48.254
	_h=$(cl_ns h3)
	ip -n "$_h" link add name docker0 type bridge
	ip -n "$_h" addr add 10.231.47.1/24 dev docker0
	ip -n "$_h" link set docker0 up
	ip netns exec "$_h" sysctl -qw net.ipv4.ip_forward=1
	b48_box node03
	lab_veth "$(cl_ns node03)" eth0 "$_h" vethc3
	ip -n "$_h" link set vethc3 master docker0
	ip -n "$_h" link set vethc3 up
	ip -n "$(cl_ns node03)" addr add 10.231.47.2/24 dev eth0
	ip -n "$(cl_ns node03)" link set eth0 up
	ip -n "$(cl_ns node03)" route add default via 10.231.47.1
	b48_member node03 10.231.47.2
	b48_box node04
	b48_port sw node04 lan0 10.231.48.4/24 10.231.48.254
	b48_member node04 10.231.48.4
	for n in node01 node02 node04; do
		ip -n "$(cl_ns "$n")" route add 10.231.47.0/24 via 10.231.48.3
	done
	ip netns exec "$_h" nft -f - <<'NFT'
table ip filter {
	chain DOCKER-USER {
	}
	chain FORWARD {
		type filter hook forward priority filter; policy drop;
		jump DOCKER-USER
		oifname "docker0" ct state related,established accept
		iifname "docker0" oifname != "docker0" accept
		iifname "docker0" oifname "docker0" accept
	}
}
NFT
}

# the fix of Docker's docs (iptables -I DOCKER-USER -i lan0 -o docker0
# -j ACCEPT), on the host
b48_fix() {
	ip netns exec "$(cl_ns h3)" nft add rule ip filter DOCKER-USER \
		iifname lan0 oifname docker0 accept
}

b48_main "$@"
