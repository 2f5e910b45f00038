# Healthy control: Kubernetes pods with a routable /32 and no NAT (Calico
# in BGP mode, as AWS VPC CNI and GKE VPC-native give routable pod
# addresses too): each pod's eth0 is a veth to its node (cali...), the pod
# routes everything to 169.254.1.1 which the node answers by proxy ARP,
# and each node routes the other node's pod block through it. One rank in
# a pod on each node. Everything works; netprobe must not report a fault.
E2E_NAME=k8s-pod
. "$(dirname "$0")/lib.sh"
e2e_require
lan=10.231.75

lab_ns SW sw
lab_ns N1 node1
lab_ns N2 node2
e2e_node P1 p1 trainer-0
e2e_node P2 p2 trainer-1
e2e_lan "$SW" br0 $lan
e2e_plug "$N1" eth0 "$SW" br0 $lan.1/24
e2e_plug "$N2" eth0 "$SW" br0 $lan.2/24
ip -n "$N1" route add default via $lan.254
ip -n "$N2" route add default via $lan.254
# pod i on node i: 10.231.20i.5/32 (block 10.231.20i.0/26 on node i)
i=1
for pair in "$N1 $P1" "$N2 $P2"; do
	set -- $pair
	lab_veth "$2" eth0 "$1" "cali7f3e2a0$i"
	ip -n "$2" addr add 10.231.20$i.5/32 dev eth0
	ip -n "$2" link set eth0 up
	ip -n "$2" route add 169.254.1.1 dev eth0 scope link
	ip -n "$2" route add default via 169.254.1.1 dev eth0
	ip -n "$1" link set "cali7f3e2a0$i" up
	ip netns exec "$1" sysctl -qw "net.ipv4.conf.cali7f3e2a0$i.proxy_arp=1"
	ip netns exec "$1" sysctl -qw net.ipv4.ip_forward=1
	ip -n "$1" route add 10.231.20$i.5/32 dev "cali7f3e2a0$i" scope link
	i=$((i + 1))
done
ip -n "$N1" route add 10.231.202.0/26 via $lan.2
ip -n "$N2" route add 10.231.201.0/26 via $lan.1
for p in "$P1" "$P2"; do
	lab_hosts "$p" "127.0.0.1 localhost" "10.231.201.5 trainer-0" \
		"10.231.202.5 trainer-1"
done
e2e_ranks 10.231.201.5 "$P1" "$P2"
# what the kubelet puts in every pod's environment
for p in "$P1" "$P2"; do
	e2e_env "$p" "export KUBERNETES_SERVICE_HOST=10.96.0.1" \
		"export KUBERNETES_SERVICE_PORT=443"
done

e2e_frameworks before
e2e_serve "$P1" "$P2"
e2e_scans "$P1=10.231.202.5" "$P2=10.231.201.5"
e2e_report
e2e_fix_all
e2e_frameworks after
e2e_row "One rank in a pod on each node: routable /32 pod addresses (Calico BGP style), no NAT." 0
lab_done
