# rp-filter-strict lab: node H has two interfaces in one subnet (lan0 and
# lan1, both to a bridge in P). With net.ipv4.conf.all.rp_filter=1 in H's
# namespace the scan must warn; loose (2) through all, or one interface,
# must not; nor must P, single-homed, whatever its setting.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require jq unshare
CL=$(mktemp -d /tmp/np-rpf.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$CL"' EXIT

lab_ns H rph
lab_ns P rpp

ip -n "$P" link add name br0 type bridge
ip -n "$P" addr add 10.231.30.254/24 dev br0
ip -n "$P" link set br0 up
lab_veth "$H" lan0 "$P" p0
lab_veth "$H" lan1 "$P" p1
for i in 0 1; do
	ip -n "$P" link set "p$i" master br0
	ip -n "$P" link set "p$i" up
	ip -n "$H" link set "lan$i" up
done
ip -n "$H" addr add 10.231.30.1/24 dev lan0
ip -n "$H" addr add 10.231.30.2/24 dev lan1
lab_check "lan0 and lan1 have carrier" lab_wait 50 sh -c \
	"ip -n $H -o link show lan0 | grep -q LOWER_UP &&
	 ip -n $H -o link show lan1 | grep -q LOWER_UP"

# scan NS: the scan's JSON into $J and its rp-filter-strict findings
# counted into $n (the scan's exit status is not what this lab judges)
scan() {
	J=$(ip netns exec "$1" timeout 60 "$NETPROBE" scan --json 2>/dev/null)
	n=$(jqv '[.findings[] | select(.code == "rp-filter-strict")] | length')
}

ip netns exec "$H" sysctl -qw net.ipv4.conf.all.rp_filter=1
ip netns exec "$H" sysctl -qw net.ipv4.conf.lan0.rp_filter=0
ip netns exec "$H" sysctl -qw net.ipv4.conf.lan1.rp_filter=0
scan "$H"
lab_check "strict through all: one rp-filter-strict ($n)" test "$n" = 1
LAB_OUT=$(jqv '.findings[] | select(.code == "rp-filter-strict") | .fix')
lab_grep "its fix sets all to loose" 'net\.ipv4\.conf\.all\.rp_filter=2'
LAB_OUT=$(jqv '.findings[] | select(.code == "rp-filter-strict") | .summary')
lab_grep "its summary names both and the subnet" \
	'lan0 and lan1 are both in 10\.231\.30\.[0-9]+/24'

# the closed loop: the report over H's scan (hostname rph) makes the
# strict rp_filter a cause on rph whose command runs there verbatim; the
# same scan again has no rp-filter-strict. What stays is the two NICs in
# one subnet without a peer (overlapping-subnets, and the interface to pin
# for Open MPI and NCCL): which NIC, the tool cannot tell, and says so
lab_hosts "$H" "127.0.0.1 localhost" "10.231.30.1 rph"
# rpscan DIR: H's scan as rph, into DIR
rpscan() {
	mkdir -p "$1/docs"
	ip netns exec "$H" unshare --uts sh -c 'hostname "$0"; exec "$@"' rph \
		"$NETPROBE" scan --json >"$1/docs/rph.json"
	echo $? >"$1/rph.rc"
	cl_report "$1"
}
cl_ns() {
	[ "$1" = rph ] && printf '%s' "$H"
}
rpscan "$CL/before"
LAB_OUT=$(cl_fixes "$CL/before/report.json")
lab_grep "the report's command for rph" \
	'^rph	shell	sysctl -w net\.ipv4\.conf\.all\.rp_filter=2$'
cl_apply "$CL/before/report.json" rph
rpscan "$CL/after"
CL_ALLOW="overlapping-subnets mpi-btl-iface nccl-default-iface-unsafe" \
	cl_clean "$CL/after/report.json" "$CL/after" "the printed sysctl"


ip netns exec "$H" sysctl -qw net.ipv4.conf.all.rp_filter=0
ip netns exec "$H" sysctl -qw net.ipv4.conf.lan0.rp_filter=1
ip netns exec "$H" sysctl -qw net.ipv4.conf.lan1.rp_filter=1
scan "$H"
lab_check "strict on each interface: one rp-filter-strict ($n)" \
	test "$n" = 1

ip netns exec "$H" sysctl -qw net.ipv4.conf.all.rp_filter=2
scan "$H"
lab_check "loose through all (the larger wins): none ($n)" test "$n" = 0

ip netns exec "$H" sysctl -qw net.ipv4.conf.all.rp_filter=0
ip netns exec "$H" sysctl -qw net.ipv4.conf.lan1.rp_filter=2
scan "$H"
lab_check "lan1 loose: none ($n)" test "$n" = 0

ip netns exec "$P" sysctl -qw net.ipv4.conf.all.rp_filter=1
scan "$P"
lab_check "single-homed and strict: none ($n)" test "$n" = 0

lab_done
