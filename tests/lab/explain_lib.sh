# Shared by the explain labs (t_explain*.sh; sourced after lib.sh): a
# scratch folder $T and the responder's pid $SV, both gone on exit; a LAN
# (bridge lanbr in namespace $W) with each host's lan0 on it; the
# responder on one host.

# explain_lab_init: $T, $SV, the EXIT trap, and the LAN's bridge.
explain_lab_init() {
	T=$(mktemp -d)
	SV=""
	trap 'kill $SV 2>/dev/null; rm -rf "$T"; lab_cleanup' EXIT
	lab_ns W lan
	ip -n "$W" link add name lanbr type bridge
	ip -n "$W" link set lanbr up
}

# explain_lan NS...: each namespace's lan0 on the LAN's bridge, up (its
# bridge port swpN, N its place in the list).
explain_lan() {
	_el_n=1
	for _el_ns in "$@"; do
		lab_veth "$_el_ns" lan0 "$W" "swp$_el_n"
		ip -n "$W" link set "swp$_el_n" master lanbr
		ip -n "$W" link set "swp$_el_n" up
		ip -n "$_el_ns" link set lan0 up
		_el_n=$((_el_n + 1))
	done
}

# explain_serve NS LOG NAME: the responder in NS (its output in $T/LOG.log,
# its pid in $SV), listening before the lab goes on; NAME is the host as
# the check says it.
explain_serve() {
	ip netns exec "$1" timeout 200 "$NETPROBE" serve >"$T/$2.log" 2>&1 &
	SV=$!
	lab_check "responder on $3 up" lab_wait 50 \
		sh -c "ip netns exec $1 ss -Hnlt 'sport = :7470' | grep -q ."
}
