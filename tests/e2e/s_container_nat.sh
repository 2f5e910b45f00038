# Rank 0 in a container on a NAT'd docker0-style bridge on host gpu-a
# (`docker run -p 29500:29500`, masquerade out, port 29500 published),
# rank 1 on host gpu-b of the same LAN. torch's store on 29500 is reached
# through the published port; Gloo's pair connections and Open MPI's
# connections use ephemeral ports that nobody published.
#   E2E_CTR=docker: the container is 172.17.0.2 (Docker's default)
#   E2E_CTR=podman: the container is 10.88.0.2 (podman's default)
# Of a Gloo pair the side with the higher address connects (gloo's
# transport/tcp/device.cc, Device::isInitiator): 172.17.0.2 connects out
# through the NAT and Gloo works; 10.88.0.2 waits for gpu-b, which cannot
# reach it. Open MPI fails either way (its daemon on gpu-b must reach
# mpirun in the container). No setting can fix it: netprobe must say so,
# and the job must fail again after its advice.
: "${E2E_CTR:=docker}"
E2E_NAME=${E2E_NAME:-container-nat-$E2E_CTR}
. "$(dirname "$0")/lib.sh"
e2e_require
if [ "$E2E_CTR" = podman ]; then
	cnet=10.88 cbr=cni-podman0 chn=8c1d52e07a3b
else
	cnet=172.17 cbr=docker0 chn=3f2a9c1b7d4e
fi
lan=10.231.72

lab_ns SW sw
e2e_node A a gpu-a
e2e_node B b gpu-b
e2e_node K ctr "$chn"
e2e_lan "$SW" br0 $lan
e2e_plug "$A" eth0 "$SW" br0 $lan.1/24
e2e_plug "$B" eth0 "$SW" br0 $lan.2/24

# the bridge on gpu-a, the container's veth on it, NAT and the published
# port
ip -n "$A" link add name "$cbr" type bridge
ip -n "$A" addr add $cnet.0.1/16 dev "$cbr"
ip -n "$A" link set "$cbr" up
lab_veth "$K" eth0 "$A" veth3f2a9c1
ip -n "$A" link set veth3f2a9c1 master "$cbr"
ip -n "$A" link set veth3f2a9c1 up
# the container reaches its own published port through the host (Docker
# with userland-proxy=false: hairpin on the bridge port, masquerade)
ip -n "$A" link set veth3f2a9c1 type bridge_slave hairpin on
ip -n "$K" addr add $cnet.0.2/16 dev eth0
ip -n "$K" link set eth0 up
ip -n "$K" route add default via $cnet.0.1
ip netns exec "$A" sysctl -qw net.ipv4.ip_forward=1
ip netns exec "$A" nft -f - <<NFT
table ip e2e_nat {
	chain prerouting {
		type nat hook prerouting priority dstnat;
		fib daddr type local tcp dport 29500 dnat to $cnet.0.2:29500
	}
	chain output {
		type nat hook output priority -100;
		fib daddr type local tcp dport 29500 dnat to $cnet.0.2:29500
	}
	chain postrouting {
		type nat hook postrouting priority srcnat;
		ip saddr $cnet.0.0/16 oifname != "$cbr" masquerade
		ip saddr $cnet.0.0/16 ip daddr $cnet.0.2 tcp dport 29500 masquerade
	}
}
NFT
lab_hosts "$A" "127.0.0.1 localhost" "$lan.1 gpu-a" "$lan.2 gpu-b"
lab_hosts "$B" "127.0.0.1 localhost" "$lan.1 gpu-a" "$lan.2 gpu-b"
lab_hosts "$K" "127.0.0.1 localhost" "$cnet.0.2 $chn" "$lan.2 gpu-b"
e2e_ranks $lan.1 "$K" "$B"

e2e_frameworks before
# responders on the hosts (host networking, as the README says)
e2e_serve "$A" "$B"
e2e_scans "$K=$lan.2" "$B=$lan.1"
e2e_report
# the NAT's fix is host networking, no command; the settings printed
# for the job still apply
E2E_NOCMD="nat:$chn"
e2e_fix_all 1
e2e_frameworks after
e2e_row "Rank 0 in a container ($cnet.0.2 on $cbr, NAT, port 29500 published) on gpu-a, rank 1 on gpu-b." 1
lab_done
