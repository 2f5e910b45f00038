# Healthy control: two hosts on one flat LAN (a bridge), hostnames that
# resolve to their LAN addresses. Both frameworks work before and after
# netprobe's settings are applied; netprobe reports no fault.
E2E_NAME=flat-lan
. "$(dirname "$0")/lib.sh"
e2e_require

lab_ns SW sw
e2e_node A a gpu-a
e2e_node B b gpu-b
e2e_lan "$SW" br0 10.231.70
e2e_plug "$A" eth0 "$SW" br0 10.231.70.1/24
e2e_plug "$B" eth0 "$SW" br0 10.231.70.2/24
for n in "$A" "$B"; do
	lab_hosts "$n" "127.0.0.1 localhost" "10.231.70.1 gpu-a" \
		"10.231.70.2 gpu-b"
done
e2e_ranks 10.231.70.1 "$A" "$B"

e2e_frameworks before
e2e_serve "$A" "$B"
e2e_scans "$A=10.231.70.2" "$B=10.231.70.1"
e2e_report
e2e_fix_all
e2e_frameworks after
e2e_row "Two hosts on one LAN, hostnames resolving to LAN addresses." 0
lab_done
