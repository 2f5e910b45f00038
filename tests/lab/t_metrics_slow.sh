# Lab: one address's slow or silent clients never keep a scrape of
# /metrics out (issue 45). The responder in B serves --metrics on B's
# address. From A, 200 clients each sending a request head a byte a
# second (each reopened half a second after the server closes it), then
# 10,000 connections opened at once that never send a byte. Meanwhile C
# scrapes, each scrape bounded by 5 s, 30 times during the slow clients
# (at least 29 must get 200) and 20 times during the burst (every one),
# and heartbeats B all along: no TCP or UDP echo may be lost.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/serve_lib.sh"
lab_require nft python3 ss
serve_topology
T=$(mktemp -d)
SLOW="python3 $(dirname "$0")/metrics_slow.py"
GET="python3 $(dirname "$0")/http_get.py"
FL=""
HB=""
trap 'kill $SV_PID $FL $HB 2>/dev/null; rm -rf "$T"; lab_cleanup' EXIT

serve_start "$B" "$T/b.log" --metrics $SV_B:9470
lab_check "responder listens in B" test $? = 0
lab_check "C scrapes B" lab_wait 100 ip netns exec "$C" $GET $SV_B 9470 GET

# scrapes N: N scrapes from C, 0.3 s apart, each bounded by 5 s; prints
# how many got 200
scrapes() {
	_ok=0
	for _i in $(seq "$1"); do
		_s=$(ip netns exec "$C" timeout 5 $GET $SV_B 9470 GET \
			2>/dev/null | head -1)
		[ "$_s" = 200 ] && _ok=$((_ok + 1))
		sleep 0.3
	done
	echo "$_ok"
}
# held_from_a N: B holds at least N connections from A on port 9470
held_from_a() {
	[ "$(ip netns exec "$B" ss -tnH state established '( sport = :9470 )' |
		grep -c " $SV_A:")" -ge "$1" ]
}

ip netns exec "$C" timeout 90 "$NETPROBE" heartbeat -i 100ms -d 45 \
	--max-loss 0 --json -o "$T/hb.json" $SV_B >"$T/hb.out" 2>&1 &
HB=$!

ip netns exec "$A" timeout 60 $SLOW $SV_B 9470 slow 200 25 \
	>"$T/slow.out" 2>&1 &
FL=$!
lab_check "the slow clients hold slots of B's endpoint" lab_wait 100 \
	held_from_a 4
LAB_OUT=$(scrapes 30)
printf '    # %s of 30 scrapes got 200 beside 200 slow clients\n' "$LAB_OUT"
lab_check "at least 29 of 30 scrapes beside 200 slow clients" \
	test "$LAB_OUT" -ge 29
wait "$FL"
FL=""
LAB_OUT=$(cat "$T/slow.out")
printf '    # %s\n' "$LAB_OUT"
lab_grep "the slow clients ran from A" "slow: opened [0-9]+"

ip netns exec "$A" sh -c "ulimit -n 20000 && exec timeout 40 $SLOW \
	$SV_B 9470 burst 10000 15" >"$T/burst.out" 2>&1 &
FL=$!
lab_check "the burst holds slots of B's endpoint" lab_wait 100 held_from_a 4
LAB_OUT=$(scrapes 20)
printf '    # %s of 20 scrapes got 200 beside 10,000 connections\n' \
	"$LAB_OUT"
lab_check "every scrape beside 10,000 connections opened at once" \
	test "$LAB_OUT" -ge 20
wait "$FL"
FL=""
LAB_OUT=$(cat "$T/burst.out")
printf '    # %s\n' "$LAB_OUT"
lab_grep "the burst ran from A" "burst: opened [0-9]+"

wait "$HB"
rc=$?
HB=""
printf '    # heartbeat exit %s, tcp lost %s, udp lost %s\n' "$rc" \
	"$(sv_json "$T/hb.json" tcp.lost)" "$(sv_json "$T/hb.json" udp.lost)"
lab_check "C's heartbeat ran to its end with no loss (exit $rc)" \
	test "$rc" = 0
lab_check "C lost no TCP echo" test "$(sv_json "$T/hb.json" tcp.lost)" = 0
lab_check "C lost no UDP echo" test "$(sv_json "$T/hb.json" udp.lost)" = 0
lab_done
