# Lab: netprobe heartbeat from host A to a responder in host B. The
# responder killed mid-run is detected by its close (within two intervals
# on an idle machine, within 1 s on a loaded one);
# an nftables rule that starts dropping the held connection is detected
# past the kernel's retransmissions, within 4 s, with the UDP echoes and a
# new connection as the evidence it is state, not loss; gates set the
# exit status; bad peers end with exit 2 within the timeout.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/serve_lib.sh"
lab_require nft python3 ss
serve_topology
T=$(mktemp -d)
trap 'kill $SV_PID $HB_PID $PY_PIDS 2>/dev/null; rm -rf "$T"; lab_cleanup' EXIT
PY_PIDS=""
HB_PID=""

# detect_ok FILE MS: the drop was declared within MS milliseconds of the
# last answer.
detect_ok() {
	python3 - "$1" "$2" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
f = [x for x in d["findings"] if x["code"] == "heartbeat-dropped"][0]
ev = " ".join(e["fact"] for e in f["evidence"])
m = re.search(r"declared dropped ([0-9.]+)(us|ms|s) after", ev)
v = float(m.group(1)) * {"us": 1e-3, "ms": 1, "s": 1e3}[m.group(2)]
print("detected %.1f ms after the last answer" % v)
sys.exit(0 if v <= float(sys.argv[2]) else 1)
PY
}

quiet() {
	"$@" >/dev/null 2>&1
}

# hb_connected PID: the heartbeat PID (started in A) holds its TCP
# connection to a responder: it runs, and its signal handlers are set.
hb_connected() {
	ip netns exec "$A" ss -tnpH state established '( dport = :7470 )' |
		grep -q "pid=$1,"
}

serve_start "$B" "$T/b.log"
lab_check "responder listens in B" test $? = 0
lab_check "B answers over the LAN" lab_wait 50 \
	ip netns exec "$A" "$NETPROBE" heartbeat -c 1 -i 0 -t 500ms $SV_B

lab_rc 0 "steady heartbeat passes" \
	ip netns exec "$A" "$NETPROBE" heartbeat -c 20 -i 20ms --json \
	-o "$T/ok.json" $SV_B
lab_check "20 tcp answers" test "$(sv_json "$T/ok.json" tcp.received)" = 20
lab_check "20 udp answers" test "$(sv_json "$T/ok.json" udp.received)" = 20
lab_check "no drop" test "$(sv_json "$T/ok.json" tcp.dropped_after_us)" = null
lab_check "samples kept" test "$(sv_json "$T/ok.json" samples_us.19)" -gt 0
lab_rc 0 "text summary" ip netns exec "$A" "$NETPROBE" heartbeat -c 3 -i 20ms $SV_B
lab_grep "table has a tcp row" '^tcp +3 +3 +0\.0%'
lab_rc 1 "--max-rtt 1us is a missed gate" \
	ip netns exec "$A" "$NETPROBE" heartbeat -c 3 -i 20ms --max-rtt 1us $SV_B
lab_grep "gate named" "above --max-rtt"

# The responder killed mid-run.
t_launch=$(date +%s%N)
ip netns exec "$A" "$NETPROBE" heartbeat -d 3s -i 100ms --json \
	-o "$T/kill.json" $SV_B >/dev/null 2>&1 &
HB_PID=$!
# the scenario: the responder dies 1.2 s into a connected heartbeat
lab_wait 50 hb_connected "$HB_PID" || lab_notok "heartbeat connected"
sleep 1.2
t_kill=$(date +%s%N)
kill -9 "$SV_PID"
wait "$HB_PID"
lab_check "killed responder: exit 1" test $? = 1
HB_PID=""
LAB_OUT=$(cat "$T/kill.json")
lab_grep "killed responder: heartbeat-dropped" '"code": "heartbeat-dropped"'
# a close is seen at once (two intervals, 200 ms, on an idle machine);
# 1 s leaves a loaded one room (it took 250 ms beside a CI run at load 16)
# and stays below what silence takes (past the retransmissions, below)
lab_check "killed responder: $(detect_ok "$T/kill.json" 1000)" quiet detect_ok "$T/kill.json" 1000
lab_check "killed responder: a close, not silence" \
	test "$(sv_json "$T/kill.json" tcp.drop)" = closed
# from the connection's opening to its last answer: at least the 1.2 s
# less an interval and a loaded machine's delay, at most what the lab saw
# pass from starting the heartbeat to the kill (the lab itself is late on
# a loaded machine: that once put it past a fixed 1.6 s)
lab_check "dropped_after_us: the kill's moment" python3 -c "
import json; v=json.load(open('$T/kill.json'))['tcp']['dropped_after_us']
hi = ($t_kill - $t_launch) // 1000 + 50000
exit(0 if 600000 <= v <= hi else 1)"

# A firewall rule that starts dropping the held connection.
serve_start "$B" "$T/b2.log"
ip netns exec "$A" "$NETPROBE" heartbeat -d 8s -i 100ms --json \
	-o "$T/nft.json" $SV_B >/dev/null 2>&1 &
HB_PID=$!
lab_wait 30 sh -c "ip netns exec $B ss -tnH state established '( sport = :7470 )' | grep -q $SV_A"
# the scenario: three seconds of a steady heartbeat, then the drop
sleep 3
CPORT=$(ip netns exec "$B" ss -tnH state established '( sport = :7470 )' |
	awk '{print $4}' | sed 's/.*://' | head -1)
ip netns exec "$B" nft -f - <<NFT
table inet hbdrop {
	chain in {
		type filter hook input priority 0;
		ip saddr $SV_A tcp sport $CPORT tcp dport 7470 drop
	}
}
NFT
wait "$HB_PID"
lab_check "dropped flow (port $CPORT): exit 1" test $? = 1
HB_PID=""
LAB_OUT=$(cat "$T/nft.json")
lab_grep "dropped flow: heartbeat-dropped" '"code": "heartbeat-dropped"'
lab_check "dropped flow: $(detect_ok "$T/nft.json" 4000)" quiet detect_ok "$T/nft.json" 4000
lab_check "dropped flow: silent past the retransmissions" \
	test "$(sv_json "$T/nft.json" tcp.drop)" = silent
lab_grep "dropped flow: the kernel's retransmissions as evidence" \
	'retransmitted the oldest unanswered segment [1-4] times'
lab_grep "dropped flow: UDP still answered" 'UDP echoes sent after the last TCP answer were answered'
lab_check "dropped flow: its echoes and retransmissions are not loss" \
	python3 -c "
import json, re, sys
d = json.load(open('$T/nft.json'))
s = [f['summary'] for f in d['findings'] if f['code'] == 'heartbeat-loss']
sys.exit(1 if any(re.search(r'[1-9][0-9.]*% (lost|of segments)', x)
                  for x in s) else 0)" 
lab_check "a new connection got through" \
	test "$(sv_json "$T/nft.json" tcp.reconnects)" -ge 1

# SIGINT prints the one summary.
ip netns exec "$A" "$NETPROBE" heartbeat -d 20s -i 50ms $SV_B >"$T/int.txt" 2>&1 &
HB_PID=$!
lab_wait 50 hb_connected "$HB_PID" || lab_notok "heartbeat connected"
kill -INT "$HB_PID"
wait "$HB_PID"
lab_check "SIGINT: exit 0" test $? = 0
HB_PID=""
LAB_OUT=$(cat "$T/int.txt")
lab_grep "SIGINT: summary printed" '^tcp +[0-9]+'

# Peers that are not responders: exit 2 within the timeout.
ip netns exec "$C" python3 -m http.server 8080 --bind $SV_C >/dev/null 2>&1 &
PY_PIDS="$PY_PIDS $!"
ip netns exec "$C" python3 -c '
import socket, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 9001)); s.listen(8)
end = time.time() + 120
while time.time() < end:
    c, _ = s.accept(); c.send(b"\x16\x03\x01garbage\xff\xfe"); time.sleep(0.5); c.close()
' &
PY_PIDS="$PY_PIDS $!"
ip netns exec "$C" python3 -c '
import socket, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 9002)); s.listen(8)
held = []
end = time.time() + 120
while time.time() < end:
    c, _ = s.accept(); held.append(c)
' &
PY_PIDS="$PY_PIDS $!"
for p in 8080 9001 9002; do
	lab_wait 100 sh -c "ip netns exec $C ss -ltnH | grep -q ':$p '"
done

t_rc() {
	_want=$1 _d=$2 _max=$3
	shift 3
	_t0=$(date +%s%N)
	lab_rc "$_want" "$_d" ip netns exec "$A" "$NETPROBE" heartbeat "$@"
	_ms=$(( ($(date +%s%N) - _t0) / 1000000 ))
	lab_check "$_d: ended in ${_ms} ms (limit ${_max} ms)" test "$_ms" -le "$_max"
}
t_rc 2 "http server" 5000 -c 2 -t 2s $SV_C:8080
lab_grep "http: clear error" "not a netprobe responder|does not speak netprobe"
t_rc 2 "garbage peer" 3000 -c 2 -t 1s $SV_C:9001
lab_grep "garbage: clear error" "does not speak netprobe protocol \(got '"
t_rc 2 "silent peer" 3000 -c 2 -t 1s $SV_C:9002
lab_grep "silent: clear error" "sent no hello within 1s"
t_rc 2 "peer probe of a silent peer" 3000 --peer -t 1s $SV_C:9002
t_rc 2 "closed port" 3000 -c 2 -t 1s $SV_C:9
lab_grep "closed: connection refused" "cannot connect to $SV_C:9: Connection refused"
t_rc 2 "unresolvable host" 3000 -c 2 no-such-host.invalid
lab_grep "unresolvable: named" "cannot resolve 'no-such-host.invalid'"
t_rc 2 "port out of range" 1000 $SV_B:99999
lab_grep "port named" "invalid port '99999'"
t_rc 2 "bad interval" 1000 -i 5x $SV_B
lab_grep "interval named" "invalid duration '5x'"
t_rc 2 "count and duration" 1000 -c 2 -d 1s $SV_B
t_rc 2 "no host" 1000 -c 2
t_rc 2 "bad loss" 1000 --max-loss 101 $SV_B
t_rc 2 "json error on a bad peer" 3000 -c 2 -t 1s --json $SV_C:9
lab_grep "json carries the error" '"step": "connect"'
lab_done
