# Blind cluster 06 (issue 48; truth.tsv row 06-ip-forward-off): Azure/acs-engine#3394.
# Four hosts h1-h4 on one switch (10.231.48.11-14), each with a pod
# bridge cni0 and one pod, the member nodeNN (10.231.5N.2); the pod
# subnets are routed host to host (host-gw); h2 forwards nothing.
#   sh tests/gen/blind48/06-ip-forward-off.sh validate|judge
B48_ID=06-ip-forward-off
LAB_ID=${LAB_ID:-66b06-$$}
. "$(dirname "$0")/lib48.sh"

b48_build() {
	b48_switch sw 10.231.48.254/24
	for i in 1 2 3 4; do
		b48_box "h$i"
		b48_port sw "h$i" lan0 "10.231.48.1$i/24" 10.231.48.254
	done
	for i in 1 2 3 4; do
		_h=$(cl_ns "h$i")
		ip -n "$_h" link add name cni0 type bridge
		ip -n "$_h" addr add "10.231.5$i.1/24" dev cni0
		ip -n "$_h" link set cni0 up
		_f=1
		[ "$i" = 2 ] && _f=0
		ip netns exec "$_h" sysctl -qw "net.ipv4.ip_forward=$_f"
		for j in 1 2 3 4; do
			[ "$j" = "$i" ] ||
				ip -n "$_h" route add "10.231.5$j.0/24" via "10.231.48.1$j"
		done
		b48_box "node0$i"
		_p=$(cl_ns "node0$i")
		lab_veth "$_p" eth0 "$_h" "vethp$i"
		ip -n "$_h" link set "vethp$i" master cni0
		ip -n "$_h" link set "vethp$i" up
		ip -n "$_p" addr add "10.231.5$i.2/24" dev eth0
		ip -n "$_p" link set eth0 up
		ip -n "$_p" route add default via "10.231.5$i.1"
		b48_member "node0$i" "10.231.5$i.2"
	done
}

# the thread's fix
b48_fix() {
	ip netns exec "$(cl_ns h2)" sysctl -qw net.ipv4.ip_forward=1
}

b48_main "$@"
