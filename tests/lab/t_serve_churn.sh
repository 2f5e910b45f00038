# Lab (issue 34): a full table never pushes out a client being served.
# In a namespace of its own (loopback only), a responder with 64 places;
# from 8 addresses, 16 connections each that say HELLO, stay silent and
# reconnect at once when closed (tests/fixtures/serve/churn.py). Two
# honest heartbeats, at 1 s and at 100 ms, must run their 25 s with every
# echo answered and no reconnect; a ports run that finds the table full
# says the responder turned it away (exit 2), not a network fault; a
# responder that drops the held connection with a reason (dropper.py)
# makes heartbeat say so and exit 2, with no heartbeat-dropped.
. "$(dirname "$0")/lib.sh"
lab_require python3 jq
lab_ns NS churn
T=$(mktemp -d)
CHURN=$(dirname "$0")/../fixtures/serve/churn.py
SV=127.0.0.80
trap 'kill $SV_PID $CH_PID 2>/dev/null; rm -rf "$T"; lab_cleanup' EXIT

ip netns exec "$NS" "$NETPROBE" serve --bind $SV --port 7470 \
	--max-clients 64 2>"$T/serve.log" &
SV_PID=$!
lab_wait 100 grep -q listening "$T/serve.log"
lab_check "responder with 64 places listens" grep -q listening "$T/serve.log"

ip netns exec "$NS" timeout 60 python3 "$CHURN" $SV 7470 127.0.0.11 8 16 \
	45 0 >"$T/churn.out" 2>&1 &
CH_PID=$!
# the table is full once refusals start; the silent ones are fair game
# 2 s after their hello (SERVE_REQUEST_S)
lab_wait 200 grep -q "too many clients" "$T/serve.log"
lab_check "the churn filled the table" grep -q "too many clients" \
	"$T/serve.log"
sleep 3
for iv in 1s 100ms; do
	ip netns exec "$NS" timeout 60 "$NETPROBE" heartbeat --no-udp \
		--interval $iv -d 25s --json -o "$T/hb-$iv.json" $SV:7470 \
		>"$T/hb-$iv.out" 2>&1 &
	eval "HB_$(echo $iv | tr -d s)=\$!"
done
wait "$HB_1"
rc1=$?
wait "$HB_100m"
rc100=$?
for iv in 1s 100ms; do
	rc=$rc1
	[ $iv = 100ms ] && rc=$rc100
	sent=$(jq -r .tcp.sent "$T/hb-$iv.json" 2>/dev/null)
	recv=$(jq -r .tcp.received "$T/hb-$iv.json" 2>/dev/null)
	rec=$(jq -r .tcp.reconnects "$T/hb-$iv.json" 2>/dev/null)
	printf '    # heartbeat -i %s: exit %s, %s/%s answered, %s reconnects\n' \
		"$iv" "$rc" "$recv" "$sent" "$rec"
	lab_check "heartbeat -i $iv beside the churn: exit 0" test "$rc" = 0
	lab_check "heartbeat -i $iv: no reconnect" test "$rec" = 0
	lab_check "heartbeat -i $iv: every echo answered" \
		test -n "$sent" -a "$sent" = "$recv" -a "$sent" != 0
	[ "$rc" = 0 ] || sed 's/^/    # /' "$T/hb-$iv.out" | tail -8
done
# from a churning address (it holds as many as any other, so nobody
# gives way to it): the table is full for it
ip -n "$NS" route add local $SV/32 dev lo src 127.0.0.11 table local
lab_rc 2 "heartbeat turned away by a full table: exit 2" \
	ip netns exec "$NS" "$NETPROBE" heartbeat --no-udp -c 3 $SV:7470
lab_grep "heartbeat says the table is full" \
	"refused: too many clients: the table is full"
lab_rc 2 "ports with the table full: exit 2 (could not run)" \
	ip netns exec "$NS" "$NETPROBE" ports $SV 7470,4789/udp
lab_grep "ports says the responder turned it away" \
	"responder at $SV port 7470 turned us away .*too many clients"
lab_nogrep "ports blames no firewall" "fault port-|filtered"
ip -n "$NS" route del local $SV/32 dev lo src 127.0.0.11 table local
wait "$CH_PID"
LAB_OUT=$(cat "$T/churn.out")
printf '%s\n' "$LAB_OUT" | sed 's/^/    # /'
lab_grep "the churn was refused with the reason" \
	"[0-9]+ x too many clients: the table is full"
lab_grep "every silent client closed was told why" \
	"closed without a word 0,"
kill "$SV_PID" 2>/dev/null
wait "$SV_PID" 2>/dev/null
ev=$(grep -c "evicted" "$T/serve.log")
printf '    # serve log: %s lines, %s evictions\n' \
	"$(wc -l <"$T/serve.log")" "$ev"
lab_check "the silent ones stopped pushing each other out (<= 200 evictions, got $ev)" \
	test "$ev" -le 200
LAB_OUT=$(cat "$T/serve.log")
lab_nogrep "no heartbeat was evicted" "closed 127\.0\.0\.1:.*evicted"

# a responder that drops the held connection and says why: heartbeat
# says so, stops, exits 2, and raises no heartbeat-dropped
DROPPER=$(dirname "$0")/../fixtures/serve/dropper.py
ip netns exec "$NS" timeout 40 python3 "$DROPPER" 127.0.0.81 7470 3 \
	"its table is full and this connection was idle" >"$T/drop.out" 2>&1 &
lab_wait 100 grep -q listening "$T/drop.out"
lab_rc 2 "heartbeat dropped by its responder: exit 2" \
	ip netns exec "$NS" "$NETPROBE" heartbeat --no-udp -c 10 -i 50ms \
	127.0.0.81:7470
lab_grep "heartbeat says the responder dropped it, and why" \
	"the responder at 127\.0\.0\.81:7470 dropped us: its table is full"
lab_nogrep "no heartbeat-dropped for it" "heartbeat-dropped"
lab_done
