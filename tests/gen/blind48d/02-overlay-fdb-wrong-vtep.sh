# Blind cluster 02 of the fourth set (issue 48; truth.tsv row
# 02-overlay-fdb-wrong-vtep): moby/moby#31588, #33789, #35401.
# Docker-style overlay hosts h1..h4 on switch sw (underlay 10.231.102.0/24);
# each holds the overlay bridge br0 with its container's veth and vxlan0
# (VNI 4097, UDP 4789, nolearning, a flood entry toward every other host, a
# permanent entry per remote container MAC). The members are the
# containers node01..node04 (10.231.103.N/24, MAC 02:42:0a:e7:67:0N). On
# h2 the entry for node04's MAC names h3, where node04 ran before it moved.
#   sh tests/gen/blind48d/02-overlay-fdb-wrong-vtep.sh validate|judge
B48_ID=02-overlay-fdb-wrong-vtep
LAB_ID=${LAB_ID:-812b48d02-$$}
. "$(dirname "$0")/lib48d.sh"

b48_build() {
	b48_switch sw
	for i in 1 2 3 4; do
		b48_box "h$i"
		# the underlay carries the overlay's full frames (see lib48d.sh)
		PORT_MTU=9000
		b48_port sw "h$i" eth0 "10.231.102.$i/24"
		PORT_MTU=
		_h=$(cl_ns "h$i")
		ip -n "$_h" link add name br0 type bridge
		ip -n "$_h" link set br0 up
		ip -n "$_h" link add vxlan0 type vxlan id 4097 dstport 4789 \
			local "10.231.102.$i" dev eth0 nolearning
		ip -n "$_h" link set vxlan0 mtu 1500
		ip -n "$_h" link set vxlan0 master br0
		ip -n "$_h" link set vxlan0 up
		b48_box "node0$i"
		_c=$(cl_ns "node0$i")
		lab_veth "$_c" eth0 "$_h" "veth$i"
		ip -n "$_c" link set eth0 address "02:42:0a:e7:67:0$i"
		ip -n "$_c" addr add "10.231.103.$i/24" dev eth0
		ip -n "$_c" link set eth0 up
		ip -n "$_h" link set "veth$i" master br0
		ip -n "$_h" link set "veth$i" up
	done
	for i in 1 2 3 4; do
		_h=$(cl_ns "h$i")
		for j in 1 2 3 4; do
			[ "$i" != "$j" ] || continue
			bridge -n "$_h" fdb append 00:00:00:00:00:00 dev vxlan0 \
				dst "10.231.102.$j" self permanent
			_dst=10.231.102.$j
			# h2's entry for node04 from before node04 moved to h4
			[ "$i$j" != 24 ] || _dst=10.231.102.3
			bridge -n "$_h" fdb add "02:42:0a:e7:67:0$j" dev vxlan0 \
				dst "$_dst" self permanent
		done
	done
	for i in 1 2 3 4; do
		b48_member "node0$i" "10.231.103.$i"
	done
}

# h2's entry for node04's MAC names node04's host again
b48_fix() {
	bridge -n "$(cl_ns h2)" fdb replace 02:42:0a:e7:67:04 dev vxlan0 \
		dst 10.231.102.4 self permanent
}

b48_main "$@"
