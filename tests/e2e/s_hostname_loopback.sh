# Hostnames that resolve to 127.0.1.1 (Debian's and Ubuntu's installer
# writes "127.0.1.1 HOSTNAME" into /etc/hosts). Without GLOO_SOCKET_IFNAME,
# Gloo binds what the hostname resolves to and advertises it. Of a Gloo
# pair the side with the higher address connects (gloo's
# transport/tcp/device.cc, Device::isInitiator), so whether it fails
# depends on the addresses:
#   E2E_VARIANT=all: every node resolves its own name to 127.0.1.1; one
#     side of each pair connects to 127.0.1.1, its own loopback: refused
#   E2E_VARIANT=master: only the master does, on 10.231.71.0/24: the
#     master's 127.0.1.1 sorts above 10.x, so the master connects out and
#     Gloo works (a latent fault)
#   E2E_VARIANT=master-high: only the master does, on a LAN above 127
#     (172.17.71.0/24 here; 172.16/12 and 192.168/16 clusters alike): the
#     peer connects to 127.0.1.1 and is refused
# Open MPI does not use the hostname's address.
: "${E2E_VARIANT:=all}"
E2E_NAME=${E2E_NAME:-hostname-loopback-$E2E_VARIANT}
. "$(dirname "$0")/lib.sh"
e2e_require
net=10.231.71
[ "$E2E_VARIANT" = master-high ] && net=172.17.71

lab_ns SW sw
e2e_node A a gpu-a
e2e_node B b gpu-b
e2e_lan "$SW" br0 "$net"
e2e_plug "$A" eth0 "$SW" br0 "$net.1/24"
e2e_plug "$B" eth0 "$SW" br0 "$net.2/24"
lab_hosts "$A" "127.0.0.1 localhost" "127.0.1.1 gpu-a" "$net.2 gpu-b"
if [ "$E2E_VARIANT" = all ]; then
	lab_hosts "$B" "127.0.0.1 localhost" "127.0.1.1 gpu-b" "$net.1 gpu-a"
else
	lab_hosts "$B" "127.0.0.1 localhost" "$net.1 gpu-a" "$net.2 gpu-b"
fi
e2e_ranks "$net.1" "$A" "$B"

e2e_frameworks before
e2e_serve "$A" "$B"
e2e_scans "$A=$net.2" "$B=$net.1"
e2e_report
# the hostname's fix: /etc/hosts, or the settings the report prints
# (GLOO_SOCKET_IFNAME, MASTER_ADDR), which the job sources
E2E_NOCMD="hostname:gpu-a hostname:gpu-b"
e2e_fix_all
e2e_frameworks after
e2e_row "Hostname resolving to 127.0.1.1 on $( [ "$E2E_VARIANT" = all ] && echo 'every node' || echo 'the master only'), LAN $net.0/24." 0
lab_done
