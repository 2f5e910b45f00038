# Two NICs per node: mgmt0 on the management network, which has the
# default route (10.231.80.254) but isolates the nodes from each other
# (bridge ports isolated, as a private VLAN or a cloud security group
# does), and train0 on the training network (10.231.81.0/24, no gateway),
# where MASTER_ADDR and the peers are.
#   E2E_VARIANT=env: the job environment pins the wrong NIC:
#     GLOO_SOCKET_IFNAME=mgmt0, OMPI_MCA_btl_tcp_if_include=mgmt0
#   E2E_VARIANT=dns: nothing set, but the hostnames resolve to the
#     management addresses (what DNS gives out)
# netprobe's scan with the peers must name train0 and flag what is wrong;
# its exports then make both frameworks work.
: "${E2E_VARIANT:=env}"
E2E_NAME=${E2E_NAME:-two-nics-$E2E_VARIANT}
. "$(dirname "$0")/lib.sh"
e2e_require
mg=10.231.80 tr=10.231.81

lab_ns MG mgmt
lab_ns SW sw
e2e_node A a gpu-a
e2e_node B b gpu-b
e2e_lan "$MG" br0 $mg
e2e_lan "$SW" br0 $tr
n=1
for h in "$A" "$B"; do
	e2e_plug "$h" mgmt0 "$MG" br0 $mg.$n/24
	e2e_plug "$h" train0 "$SW" br0 $tr.$n/24
	ip -n "$h" route add default via $mg.254
	n=$((n + 1))
done
for p in $(ip -n "$MG" -o link show master br0 | awk -F': ' '{print $2}' |
	cut -d@ -f1); do
	ip -n "$MG" link set dev "$p" type bridge_slave isolated on
done
if [ "$E2E_VARIANT" = dns ]; then
	ha=$mg.1 hb=$mg.2
else
	ha=$tr.1 hb=$tr.2
fi
for h in "$A" "$B"; do
	lab_hosts "$h" "127.0.0.1 localhost" "$ha gpu-a" "$hb gpu-b"
done
e2e_ranks $tr.1 "$A" "$B"
if [ "$E2E_VARIANT" = env ]; then
	for h in "$A" "$B"; do
		e2e_env "$h" "export GLOO_SOCKET_IFNAME=mgmt0" \
			"export OMPI_MCA_btl_tcp_if_include=mgmt0"
	done
fi

e2e_frameworks before
e2e_serve "$A" "$B"
e2e_scans "$A=$tr.2" "$B=$tr.1"
e2e_report
e2e_fix_all
e2e_frameworks after
e2e_row "Two NICs: default route on mgmt0 (nodes isolated there), peers and MASTER_ADDR on train0; $E2E_VARIANT." 0
lab_done
