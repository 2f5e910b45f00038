# Blind cluster 01 of the third set (issue 48; truth.tsv row
# 01-calico-stale-blackhole): projectcalico/calico#3246, #2612,
# projectcalico/node#1032.
# Four Calico hosts h1..h4 on switch sw (underlay 10.231.80.0/24, pod
# routes host to host, no encapsulation); the members are their pods.
# Block 10.231.81.64/26 is h2's (blackholed there); node04 on h4 borrowed
# 10.231.81.70 from it; h1 and h3 route the /32 to h4, h2 does not.
#   sh tests/gen/blind48c/01-calico-stale-blackhole.sh validate|judge
B48_ID=01-calico-stale-blackhole
LAB_ID=${LAB_ID:-811b48c01-$$}
. "$(dirname "$0")/lib48c.sh"

b48_build() {
	b48_switch sw
	for i in 1 2 3 4; do
		b48_box "h$i"
		b48_port sw "h$i" eth0 "10.231.80.$i/24"
	done
	# each host's block (h4's own block is full: node04 borrowed from h2's)
	b48c_pod h1 node01 10.231.81.1
	b48c_pod h2 node02 10.231.81.65
	b48c_pod h3 node03 10.231.81.129
	b48c_pod h4 node04 10.231.81.70
	for i in 1 2 3 4; do
		_h=$(cl_ns "h$i")
		for j in 1 2 3 4; do
			_blk="10.231.81.$(((j - 1) * 64))/26"
			if [ "$i" = "$j" ]; then
				ip -n "$_h" route add blackhole "$_blk" proto bird
			else
				ip -n "$_h" route add "$_blk" via "10.231.80.$j" dev eth0 proto bird
			fi
		done
	done
	# the borrowed address, advertised as a /32 by h4; h2's BIRD does not
	# import a route inside its own block
	for i in 1 3; do
		ip -n "$(cl_ns "h$i")" route add 10.231.81.70/32 via 10.231.80.4 \
			dev eth0 proto bird
	done
	b48_member node01 10.231.81.1
	b48_member node02 10.231.81.65
	b48_member node03 10.231.81.129
	b48_member node04 10.231.81.70
}

# the /32 route the borrowed address needs on the block's own host
b48_fix() {
	ip -n "$(cl_ns h2)" route add 10.231.81.70/32 via 10.231.80.4 dev eth0
}

b48_main "$@"
