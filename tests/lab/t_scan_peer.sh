# scan --peer lab: hosts A, B, C on one LAN (a bridge in a switch
# namespace), a Docker-like "container" behind nftables masquerade on A,
# `netprobe serve` on B and C. From A: no NAT, inbound works, A's LAN
# interface recommended, the path result under each peer. From the
# container: nat-detected, inbound-blocked, no interface. With A's
# ephemeral range dropped: inbound-blocked, ephemeral-range-blocked and
# the range in ports_to_open with commands. A peer without a responder:
# an error naming `netprobe serve`, within the bound. `netprobe path`
# names the scan's recommended interface.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require nft jq ss unshare
CL=$(mktemp -d /tmp/np-scanpeer.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$CL"' EXIT

# Each scan runs with a hostname of its own, in a UTS namespace of its own
# (the machine's name is not touched), which /etc/hosts maps to the LAN
# address: `ip netns exec NS unshare --uts sh -c "$HN" NAME CMD...`.
HN='hostname "$0"; exec "$@"'

# lab_listening NS PORT: a TCP socket listens on PORT inside NS.
lab_listening() {
	ip netns exec "$1" ss -Hnlt "sport = :$2" | grep -q .
}

# drop_range NS LO-HI: NS drops new inbound TCP connections to LO-HI
# (replies to its own connections still pass); table inet np_fw.
drop_range() {
	ip netns exec "$1" nft -f - <<NFT
table inet np_fw {
	chain input {
		type filter hook input priority 0; policy accept;
		ct state established,related accept
		tcp dport $2 drop
	}
}
NFT
}

# jqv FILTER: FILTER applied to the JSON in $J.

lab_ns SW sw
lab_ns A a
lab_ns B b
lab_ns C c
lab_ns K ctr

ip -n "$SW" link add name br0 type bridge
ip -n "$SW" addr add 10.231.33.254/24 dev br0
ip -n "$SW" link set br0 up
n=1
for h in "$A" "$B" "$C"; do
	lab_veth "$h" lan0 "$SW" "p$n"
	ip -n "$SW" link set "p$n" master br0
	ip -n "$SW" link set "p$n" up
	ip -n "$h" addr add "10.231.33.$n/24" dev lan0
	ip -n "$h" link set lan0 up
	ip -n "$h" route add default via 10.231.33.254
	n=$((n + 1))
done

# the container on A: eth0 172.17.0.2/16 via 172.17.0.1, masqueraded
lab_veth "$K" eth0 "$A" veth0c
ip -n "$A" addr add 172.17.0.1/16 dev veth0c
ip -n "$A" link set veth0c up
ip -n "$K" addr add 172.17.0.2/16 dev eth0
ip -n "$K" link set eth0 up
ip -n "$K" route add default via 172.17.0.1
ip netns exec "$A" sysctl -qw net.ipv4.ip_forward=1
ip netns exec "$A" nft -f - <<'NFT'
table ip np_nat {
	chain postrouting {
		type nat hook postrouting priority srcnat; policy accept;
		ip saddr 172.17.0.0/16 oifname "lan0" masquerade
	}
}
NFT
lab_hosts "$A" "127.0.0.1 localhost" "10.231.33.1 nodea"
lab_hosts "$K" "127.0.0.1 localhost" "172.17.0.2 ctr"
# A's own ephemeral range, so the plan is seen to read it
ip netns exec "$A" sysctl -qw net.ipv4.ip_local_port_range="40000 40999"

for h in "$B" "$C"; do
	ip netns exec "$h" timeout 120 "$NETPROBE" serve >/dev/null 2>&1 &
done
lab_check "responder on B up" lab_wait 50 lab_listening "$B" 7470
lab_check "responder on C up" lab_wait 50 lab_listening "$C" 7470

# (1) from A: two peers, no NAT, inbound works
t0=$(date +%s)
lab_rc 0 "A: scan with two peers exits 0" \
	ip netns exec "$A" unshare --uts sh -c "$HN" nodea "$NETPROBE" scan --json \
	--peer 10.231.33.2 --peer 10.231.33.3:7470
t1=$(date +%s)
echo "# two full peers took $((t1 - t0)) s"
lab_check "A: two peers within the bound (2 x 8 s)" test $((t1 - t0)) -le 16
J=$LAB_OUT
LAB_OUT=$(jqv '.recommendation.interface')
lab_grep "A: lan0 recommended" '^lan0$'
LAB_OUT=$(jqv '.peers[] | "\(.peer) \(.responded) \(.nat) \(.inbound)"')
lab_grep "A: B responded, no NAT, inbound ok" '^10.231.33.2 true false true$'
lab_grep "A: C responded, no NAT, inbound ok" \
	'^10.231.33.3:7470 true false true$'
LAB_OUT=$(jqv '.peers[] | "\(.observed_addr) \(.local_ifname) \(.rtt_us > 0)"')
lab_grep "A: reflection shows A's own address" '^10.231.33.1 lan0 true$'
LAB_OUT=$(jqv '.peers[] | "\(.path.route.out_interface) \(.path_mtu)"')
lab_grep "A: path result under each peer" '^lan0 1500$'
LAB_OUT=$(jqv '.peers[0].path | "\(.recommended_iface) \(.on_recommended_iface)"')
lab_grep "A: the peer's path names the recommendation" '^lan0 true$'
LAB_OUT=$(jqv '[.peers[].ports[] | select(.state == "open")] | length')
lab_grep "A: connect-back ports listed, open" '^[1-9]'
LAB_OUT=$(jqv '"\(.ports_to_open | length) \(.commands.nftables | length)"')
lab_grep "A: nothing to open" '^0 0$'

# text form names the peers
lab_rc 0 "A: text scan with a peer" \
	ip netns exec "$A" unshare --uts sh -c "$HN" nodea "$NETPROBE" scan --quick --peer 10.231.33.2
lab_grep "A: text peer line" '10\.231\.33\.2 .* nat no, inbound ok'

# (2) from the container: NAT, inbound blocked, no interface
lab_rc 1 "container: scan exits 1" \
	ip netns exec "$K" unshare --uts sh -c "$HN" ctr "$NETPROBE" scan --json --peer 10.231.33.2
J=$LAB_OUT
LAB_OUT=$(jqv '.findings[].code')
lab_grep "container: nat-detected" '^nat-detected$'
lab_grep "container: inbound-blocked" '^inbound-blocked$'
LAB_OUT=$(jqv '.recommendation.interface')
lab_grep "container: no interface" '^null$'
LAB_OUT=$(jqv '.peers[0] | "\(.observed_addr) \(.local_addr) \(.nat)"')
lab_grep "container: B saw A's address" '^10.231.33.1 172.17.0.2 true$'

# (3) A drops its ephemeral range inbound (replies still pass), in a
# table of its own beside Debian's default (empty) `inet filter`: the
# fix must name np_fw, where `inet filter input` would run and change
# nothing
ip netns exec "$A" nft -f - <<'NFT'
table inet filter {
	chain input {
		type filter hook input priority 0; policy accept;
	}
}
NFT
drop_range "$A" 40000-40999
lab_rc 1 "A, ephemeral dropped: scan exits 1" \
	ip netns exec "$A" unshare --uts sh -c "$HN" nodea "$NETPROBE" scan --json --quick --peer 10.231.33.2
J=$LAB_OUT
LAB_OUT=$(jqv '.findings[].code')
lab_grep "ephemeral: inbound-blocked" '^inbound-blocked$'
lab_grep "ephemeral: ephemeral-range-blocked" '^ephemeral-range-blocked$'
LAB_OUT=$(jqv '.ports_to_open[] | "\(.port) \(.proto)"')
lab_grep "ephemeral: A's range to open" '^40000-40999 tcp$'
lab_nogrep "ephemeral: the working port is not listed" '^7470 '
LAB_OUT=$(jqv '.commands | .nftables[], .ufw[], .firewalld[]')
# written against the ruleset the scan read: the table, chain and rule
# that drop, not a guessed `inet filter input`; no ufw or firewalld
# line where neither runs
lab_grep "ephemeral: nft command against A's own table" \
	'^nft insert rule inet np_fw input position [0-9]+ tcp dport 40000-40999 accept$'
lab_nogrep "ephemeral: nothing written against the empty inet filter" 'inet filter'
lab_nogrep "ephemeral: no ufw command where ufw does not run" 'ufw allow'
lab_nogrep "ephemeral: no firewalld command where it does not run" 'firewall-cmd'
LAB_OUT=$(jqv '.peers[0].ports[] | "\(.port) \(.state)"')
# the low end is sampled unless this node's own connection holds it,
# then the next free port: any port of the dropped range will do
lab_grep "ephemeral: sample port filtered" '^40[0-9]{3} filtered$'
LAB_OUT=$(jqv '.findings[] | select(.code == "inbound-blocked") | .fix // ""')
lab_nogrep "ephemeral: inbound-blocked's fix guesses no table" 'inet filter'
lab_rc 1 "ephemeral, text: exits 1" \
	ip netns exec "$A" unshare --uts sh -c "$HN" nodea "$NETPROBE" scan --quick --peer 10.231.33.2
lab_grep "ephemeral, text: peer blocked" 'nat no, inbound blocked'
lab_grep "ephemeral, text: the range to open" '^  40000-40999/tcp  on this node: connect-back'
lab_grep "ephemeral, text: nft command against A's own table" \
	'^    nft insert rule inet np_fw input position [0-9]+ tcp dport 40000-40999 accept$'
lab_nogrep "ephemeral, text: no guessed inet filter" 'inet filter'
# the closed loop on the scan's own commands: each printed nft line run
# verbatim on A, then the same scan passes
jqv '.commands.nftables[]' >"$CL/scan-cmds"
n=0
while IFS= read -r cmd <&3; do
	n=$((n + 1))
	[ "$n" -le 8 ] || break
	case "$cmd" in
	'#'*) lab_notok "ephemeral: the scan's command is a comment: $cmd" ;;
	*) lab_rc 0 "ephemeral: the scan's command runs on A: $cmd" \
		ip netns exec "$A" sh -c "$cmd" ;;
	esac
done 3<"$CL/scan-cmds"
lab_check "ephemeral: the scan printed a command" test "$n" -ge 1
lab_rc 0 "ephemeral: after the scan's fix, the same scan passes" \
	ip netns exec "$A" unshare --uts sh -c "$HN" nodea "$NETPROBE" scan --json --quick --peer 10.231.33.2
J=$LAB_OUT
LAB_OUT=$(jqv '"\(.ports_to_open | length) \([.findings[] | select(.severity == "fault")] | length)"')
lab_grep "ephemeral: nothing left to open, no fault" '^0 0$'
# the drop again, for the report's loop
ip netns exec "$A" nft delete table inet np_fw
drop_range "$A" 40000-40999
# the closed loop: the report over A's scan, its fix run verbatim on A
# (the one node it may touch), the same scan again passes
cl_ns() {
	[ "$1" = nodea ] && printf '%s' "$A"
}
# scan_a DIR: A's scan of (3), its document and exit status in DIR,
# with the settings in $CL/settings sourced first (the job's exports)
scan_a() {
	mkdir -p "$1/docs"
	ip netns exec "$A" unshare --uts sh -c \
		'hostname "$0"; . "$1"; shift; exec "$@"' nodea "$CL/settings" \
		"$NETPROBE" scan --json --quick --peer 10.231.33.2 \
		>"$1/docs/nodea.json"
	echo $? >"$1/nodea.rc"
	cl_report "$1"
}
: >"$CL/settings"
scan_a "$CL/before"
LAB_OUT=$(cl_fixes "$CL/before/report.json")
lab_grep "ephemeral: the report's fix is written against A's table" \
	'^nodea	nftables	nft insert rule inet np_fw input position [0-9]+ tcp dport 40000-40999 accept$'
cl_apply "$CL/before/report.json" nodea
# and the settings it prints (the docker-style bridge on A: Open MPI and
# NCCL told to keep to lan0)
cl_env "$CL/before/report.json" nodea >"$CL/settings"
scan_a "$CL/after"
cl_clean "$CL/after/report.json" "$CL/after" "ephemeral: A's printed fix"
ip netns exec "$A" nft delete table inet np_fw
ip netns exec "$A" nft delete table inet filter

# (3b) B drops its own ephemeral range inbound: the outbound check fails
drop_range "$B" 32768-60999
lab_rc 1 "B's ephemeral dropped: scan exits 1" \
	ip netns exec "$A" unshare --uts sh -c "$HN" nodea "$NETPROBE" scan --json --peer 10.231.33.2
J=$LAB_OUT
LAB_OUT=$(jqv '.peers[0].ports[] | "\(.direction) \(.port) \(.state)"')
lab_grep "outbound: B's sample port filtered" \
	'^outbound (3276[89]|327[7-9][0-9]|32[89][0-9]{2}|3[3-9][0-9]{3}|[45][0-9]{4}|60[0-9]{3}) filtered$'
lab_grep "outbound: connect-back to A still open" '^inbound 7470 open$'
LAB_OUT=$(jqv '.ports_to_open[] | "\(.port) \(.proto) \(.nodes)"')
lab_grep "outbound: B's range to open on B" \
	'^32768-60999 tcp \["10.231.33.2"\]$'
LAB_OUT=$(jqv '.commands.ufw[]')
lab_grep "outbound: ufw command marked for B" \
	'^# on 10.231.33.2: ufw allow 32768:60999/tcp$'
# B's ruleset is not read from A: no guessed nft line, the reason and
# how to find out
LAB_OUT=$(jqv '.commands.nftables[]')
lab_grep "outbound: cannot tell B's table, from A" \
	"^# cannot tell which table drops 32768-60999/tcp, because 10.231.33.2's ruleset is read only on 10.231.33.2: run \`nft -a list ruleset\` on 10.231.33.2"
lab_nogrep "outbound: no guessed inet filter for B" 'inet filter'
ip netns exec "$B" nft delete table inet np_fw

# (3c) B drops its ephemeral range with no rule for replies (a stateless
# filter): its connect-backs to A come in and A answers, the answers are
# dropped at B. reply-blocked, not inbound-blocked: A has nothing to open.
# B's fix as its words say (replies first), and the connect-back works.
ip netns exec "$B" nft -f - <<'NFT'
table inet np_fw {
	chain input {
		type filter hook input priority 0; policy accept;
		tcp dport 32768-60999 drop
	}
}
NFT
lab_rc 1 "replies dropped at B: scan exits 1" \
	ip netns exec "$A" unshare --uts sh -c "$HN" nodea "$NETPROBE" scan --json --peer 10.231.33.2
J=$LAB_OUT
LAB_OUT=$(jqv '.findings[].code')
lab_grep "replies: reply-blocked" '^reply-blocked$'
lab_nogrep "replies: no inbound-blocked" '^inbound-blocked$'
LAB_OUT=$(jqv '.peers[0].ports[] | select(.direction == "inbound") |
	"\(.port) \(.state) \(.reason)"')
lab_grep "replies: connect-back to 7470 answered here in vain" \
	'^7470 filtered syn-ack unanswered$'
LAB_OUT=$(jqv '.ports_to_open[] | select((.nodes | length) == 0) | .port')
lab_check "replies: nothing to open on A (got '$LAB_OUT')" test -z "$LAB_OUT"
LAB_OUT=$(jqv '.commands.nftables[]')
lab_nogrep "replies: no command to run on A" '^nft '
LAB_OUT=$(jqv '.findings[] | select(.code == "reply-blocked") | .fix')
lab_grep "replies: the fix is B's, replies first" \
	'ct state established,related accept'
lab_rc 1 "replies: text" ip netns exec "$A" unshare --uts sh -c "$HN" \
	nodea "$NETPROBE" scan --peer 10.231.33.2
lab_grep "replies, text: peer line" 'nat no, inbound replies lost'
ip netns exec "$B" nft insert rule inet np_fw input \
	ct state established,related accept
lab_rc 1 "replies: after B's fix (B's range still closed to new)" \
	ip netns exec "$A" unshare --uts sh -c "$HN" nodea "$NETPROBE" scan --json --peer 10.231.33.2
J=$LAB_OUT
LAB_OUT=$(jqv '"\(.peers[0].inbound) \([.findings[].code] | index("reply-blocked"))"')
lab_grep "replies: after B's fix the connect-back works" '^true null$'
ip netns exec "$B" nft delete table inet np_fw

# (4) peers without a responder: refused (the switch) and silent (no host)
t0=$(date +%s)
lab_rc 0 "no responder: the scan completes" \
	ip netns exec "$A" unshare --uts sh -c "$HN" nodea "$NETPROBE" scan --json --peer 10.231.33.254 \
	--peer 10.231.33.99 --peer 10.231.33.2
t1=$(date +%s)
J=$LAB_OUT
lab_check "no responder: within the bound (3 peers x 8 s)" \
	test $((t1 - t0)) -le 24
LAB_OUT=$(jqv '.errors[].message')
lab_grep "no responder: error names netprobe serve" \
	'10\.231\.33\.254.*`netprobe serve`'
lab_grep "no responder: silent peer named too" '10\.231\.33\.99.*`netprobe serve`'
LAB_OUT=$(jqv '.peers[] | "\(.peer) \(.responded) \(.local_ifname)"')
lab_grep "no responder: route-only verdict kept" '^10.231.33.254 false lan0$'
lab_grep "no responder: the other peer probed" '^10.231.33.2 true lan0$'
LAB_OUT=$(jqv '.recommendation.interface')
lab_grep "no responder: lan0 still recommended" '^lan0$'

# (5) path names the scan's recommendation
lab_rc 0 "path from A" ip netns exec "$A" unshare --uts sh -c "$HN" nodea "$NETPROBE" path --json 10.231.33.2
J=$LAB_OUT
LAB_OUT=$(jqv '.recommended_iface')
lab_grep "path: recommended_iface is A's LAN interface" '^lan0$'
lab_rc 0 "path text" ip netns exec "$A" unshare --uts sh -c "$HN" nodea "$NETPROBE" path 10.231.33.2
lab_grep "path text: the route uses it" '^recommended +lan0 \(the route uses it\)'

# (6) bad input
lab_rc 2 "--quick without --peer exits 2" "$NETPROBE" scan --quick
lab_rc 2 "bad peer port exits 2" "$NETPROBE" scan --peer 10.231.33.2:99999
lab_rc 0 "help exits 0" "$NETPROBE" scan --help
lab_grep "help names --token-file" '--token-file'

lab_done
