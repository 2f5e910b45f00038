# Smoke lab: two namespaces on a veth LAN can talk; proves the lab helpers.
. "$(dirname "$0")/lib.sh"
lab_require
lab_ns A a
lab_ns B b
lab_veth "$A" lan0 "$B" lan0
ip -n "$A" addr add 10.231.0.1/24 dev lan0
ip -n "$B" addr add 10.231.0.2/24 dev lan0
ip -n "$A" link set lan0 up
ip -n "$B" link set lan0 up
lab_rc 0 "netprobe runs" "$NETPROBE" --version
lab_grep "version printed" '^netprobe [0-9]'
lab_rc 2 "unknown command exits 2" "$NETPROBE" frobnicate
lab_grep "names the command" "unknown command 'frobnicate'"
lab_done
