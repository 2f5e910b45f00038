# Blind cluster 01 (issue 48; truth.tsv row 01-rpfilter-multihomed): dev-sec/puppet-os-hardening#163.
# Subnet A (node01-03) and subnet B (node04-05) behind router rt, which
# also routes the management subnet; node03 is multi-homed (lan0 on A,
# mgmt0 on the management subnet, its default route) with the hardening's
# strict reverse-path filter.
#   sh tests/gen/blind48/01-rpfilter-multihomed.sh validate|judge
B48_ID=01-rpfilter-multihomed
LAB_ID=${LAB_ID:-66b01-$$}
. "$(dirname "$0")/lib48.sh"

b48_build() {
	b48_switch swa
	b48_switch swb
	b48_switch swm
	b48_box rt
	b48_port swa rt a0 10.231.48.254/24
	b48_port swb rt b0 10.231.49.254/24
	b48_port swm rt m0 10.231.9.254/24
	ip netns exec "$(cl_ns rt)" sysctl -qw net.ipv4.ip_forward=1
	for i in 1 2 3; do
		b48_box "node0$i"
		# the hardening profile, before the interfaces exist
		[ "$i" = 3 ] && ip netns exec "$(cl_ns node03)" sysctl -qw \
			net.ipv4.conf.all.rp_filter=1 net.ipv4.conf.default.rp_filter=1
		_gw=10.231.48.254
		[ "$i" = 3 ] && _gw=
		b48_port swa "node0$i" lan0 "10.231.48.$i/24" $_gw
		b48_member "node0$i" "10.231.48.$i"
	done
	b48_port swm node03 mgmt0 10.231.9.3/24 10.231.9.254
	for i in 4 5; do
		b48_box "node0$i"
		b48_port swb "node0$i" lan0 "10.231.49.$i/24" 10.231.49.254
		b48_member "node0$i" "10.231.49.$i"
	done
}

# the thread's fix: loose reverse-path filtering
b48_fix() {
	ip netns exec "$(cl_ns node03)" sysctl -qw net.ipv4.conf.all.rp_filter=2
}

b48_main "$@"
