# Healthy control: rank 0 in a container with a macvlan interface on its
# host's LAN NIC (`docker network create -d macvlan`), an address of the
# LAN itself, no NAT; rank 1 on another host of the LAN. Everything works;
# netprobe must not report a fault for the container.
E2E_NAME=macvlan
. "$(dirname "$0")/lib.sh"
e2e_require
lan=10.231.74

lab_ns SW sw
lab_ns H host
e2e_node K ctr 5b0e7c2d9f14
e2e_node B b gpu-b
e2e_lan "$SW" br0 $lan
e2e_plug "$H" eth0 "$SW" br0 $lan.1/24
e2e_plug "$B" eth0 "$SW" br0 $lan.2/24
ip -n "$H" link add link eth0 name mv0 type macvlan mode bridge
ip -n "$H" link set mv0 netns "$K"
ip -n "$K" link set mv0 name eth0
ip -n "$K" addr add $lan.10/24 dev eth0
ip -n "$K" link set eth0 up
ip -n "$K" route add default via $lan.254
lab_hosts "$K" "127.0.0.1 localhost" "$lan.10 5b0e7c2d9f14" "$lan.2 gpu-b"
lab_hosts "$B" "127.0.0.1 localhost" "$lan.10 5b0e7c2d9f14" "$lan.2 gpu-b"
e2e_ranks $lan.10 "$K" "$B"

e2e_frameworks before
e2e_serve "$K" "$B"
e2e_scans "$K=$lan.2" "$B=$lan.10"
e2e_report
e2e_fix_all
e2e_frameworks after
e2e_row "Rank 0 in a container on a macvlan of its host's NIC ($lan.10/24), rank 1 on gpu-b." 0
lab_done
