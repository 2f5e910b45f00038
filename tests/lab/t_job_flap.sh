# netprobe explain --job on a hung job whose straggler's host loses its
# link for a second: host "here" (10.231.N.1) and the suspect "h5"
# (10.231.N.2) share a veth; a stand-in for NCCL's RAS port on h5 answers
# as NCCL 2.29 writes JSON (tests/explain/ras/gen_nccl_json.py): rank 3 on
# h5 stays at AllReduce #12 while three ranks launched #13. Run on h5 with
# --watch, the verdict names rank 3, stopped, and its timeline holds h5's
# carrier loss and return with their times. Run from "here", one look:
# the rank is behind, h5's links cannot be read from here, and h5 answers
# probes. An older NCCL's text answer names the straggler too. A RAS port
# that accepts and never answers costs a bounded time.
. "$(dirname "$0")/lib.sh"
lab_require jq python3

LAB=$(cd "$(dirname "$0")" && pwd)
GEN="$LAB/../explain/ras/gen_nccl_json.py"
T=$(mktemp -d)
PIDS=""
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; rm -rf "$T"; lab_cleanup' EXIT
N=$((LAB_ID % 200 + 20))
HA=10.231.$N.1
SA=10.231.$N.2

lab_ns H here
lab_ns S h5
lab_veth "$H" lan0 "$S" lan0
ip -n "$H" addr add "$HA/24" dev lan0
ip -n "$S" addr add "$SA/24" dev lan0
ip -n "$H" link set lan0 up
ip -n "$S" link set lan0 up
lab_wait 50 sh -c "ip -n $S link show lan0 | grep -q LOWER_UP" ||
	{ echo "not ok - the lab's LAN does not come up"; exit 1; }
python3 "$GEN" stopped-1 "$HA" "$SA" >"$T/stopped.json"
python3 "$GEN" monitor "$HA" "$SA" >"$T/monitor.json"

# fake PORT STATE ADDR ARGS...: the stand-in RAS service in h5.
fake() {
	_p=$1
	_s=$2
	_a=$3
	shift 3
	ip netns exec "$S" timeout 120 python3 "$LAB/ras_fake.py" --port "$_p" \
		--addr "$_a" --state "$_s" --life 100 "$@" &
	PIDS="$PIDS $!"
	lab_wait 50 test -s "$_s" || { echo "not ok - fake RAS on $_p"; exit 1; }
}
fake 28028 "$T/st1" 127.0.0.1 --answer "$T/stopped.json" \
	--events "$T/monitor.json"
ip netns exec "$S" timeout 200 "$NETPROBE" serve >"$T/serve.log" 2>&1 &
PIDS="$PIDS $!"

# 1. On h5, watched for 4 s, while its link goes down for one second.
ip netns exec "$S" env SLURMD_NODENAME=h5 timeout 60 "$NETPROBE" explain \
	--job --watch 4 --json \
	>"$T/h5.json" 2>"$T/h5.err" &
EX=$!
# the stream opens after the first look at h5's links
lab_wait 100 grep -q "looks 1 monitors 1" "$T/st1" ||
	lab_notok "explain never asked the RAS service"
T0=$(date +%s%3N)
ip -n "$H" link set lan0 down
lab_wait 50 sh -c "ip -n $S link show lan0 | grep -q NO-CARRIER" ||
	lab_notok "h5's lan0 kept its carrier"
sleep 1 # the flap this lab makes: one second without carrier
ip -n "$H" link set lan0 up
lab_wait 50 sh -c "! ip -n $S link show lan0 | grep -q NO-CARRIER" ||
	lab_notok "h5's lan0 did not get its carrier back"
T1=$(date +%s%3N)
wait "$EX"
RC=$?
lab_check "explain on h5 exits 1 (a fault found)" [ "$RC" = 1 ]
[ "$RC" = 1 ] || sed 's/^/    # /' "$T/h5.err" | head -20
J=$(cat "$T/h5.json")
lab_check "RAS answered in JSON" [ "$(jqv .job.format)" = json ]
lab_check "rank 3 on h5 is the straggler, stopped" \
	[ "$(jqv '.job.stragglers[0] | "\(.rank) \(.node) \(.state) \(.count) \(.ahead_count)"')" = "3 $SA stopped 12 13" ]
DOWN=$(jqv '[.job.verdict.timeline[] | select(.source=="host" and (.text|test("lan0 lost its carrier")))][0].at_ms')
UP=$(jqv '[.job.verdict.timeline[] | select(.source=="host" and (.text|test("lan0 carrier back")))][0].at_ms')
# within bounds: FROM <= AT <= TO, AT a number
within() {
	case "$2" in '' | *[!0-9]*) return 1 ;; esac
	[ "$1" -le "$2" ] && [ "$2" -le "$3" ]
}
lab_check "the timeline holds the carrier loss, timed within the flap" \
	within "$T0" "$DOWN" "$T1"
lab_check "and its return, after the loss (the looks are 200 ms apart)" \
	within "$((DOWN + 1))" "$UP" "$((T1 + 400))"
LAB_OUT=$(jqv .job.verdict.headline)
lab_grep "the verdict names rank 3 on h5 and the flap" \
	"^rank 3 \\(host $SA, GPU 1\\) stopped at AllReduce #12 .*; its lan0 lost its carrier \\(link down\\) at "
lab_check "the action drains h5 by Slurm's name, or reseats the link" \
	[ "$(jqv .job.verdict.action)" = 'drain h5 (scontrol update nodename=h5 state=drain reason="link changed, netprobe") or reseat the link' ]
LAB_OUT=$(jqv '.findings[].code' | sort | tr '\n' ' ')
lab_grep "findings: job-link-changed and nccl-rank-stopped" \
	"job-link-changed nccl-rank-stopped"
LAB_OUT=$(jqv '.job.verdict.timeline[] | select(.source=="ras") | .text')
lab_grep "RAS's monitor stream is in the timeline" "PEER_DEAD \\(process 202\\)"

LAB_OUT=$("$NETPROBE" report --format markdown "$T/h5.json" 2>&1)
lab_grep "the report (Markdown) carries the verdict" \
	"job-link-changed.*rank 3 \\(host $SA, GPU 1\\) stopped"
lab_grep "and the flap's times" \
	"evidence: $SA: lan0 lost its carrier \\(link down\\) \\([0-9:.]+Z\\)"

# 2. From "here", one look: behind, h5's links unread, h5 probed.
fake 28029 "$T/st2" "$SA" --answer "$T/stopped.json" --no-monitor
lab_rc 0 "explain from here, one look: no alarm (exit 0)" ip netns exec \
	"$H" "$NETPROBE" explain --job --ras "$SA:28029" --json
J=$LAB_OUT
lab_check "one look: rank 3 is behind, not yet stopped" \
	[ "$(jqv '.job.stragglers[0].state')" = behind ]
lab_check "said as info, with the command that tells" [ "$(jqv \
	'.findings[] | select(.code=="nccl-rank-behind") | "\(.severity) \(.fix)"')" \
	= "info ask twice: netprobe explain --job --watch 10" ]
LAB_OUT=$(jqv '.job.verdict.sources[] | select(.name=="host") | .cannot_tell')
lab_grep "it says h5's links cannot be read from here" "run this command on their hosts"
LAB_OUT=$(jqv '.measured.notes[]')
lab_grep "h5 was probed from here" "probed $SA with the scan's peer checks"
LAB_OUT=$(jqv .job.verdict.headline)
lab_grep "the verdict says h5 answers probes, with loss and MTU" \
	"$SA answers probes from here \\(rtt [0-9]+ us, 0 of [0-9]+ echoes lost, path MTU 1500\\)"
LAB_OUT=$(jqv '.findings[].code' | tr '\n' ' ')
lab_nogrep "no link finding without h5's links" "job-link-changed"

# 3. NCCL 2.24 to 2.28.6: no JSON, no MONITOR; the text answer's
# MISMATCH lines (rasClientRunComms, VERBOSE) name the straggler.
printf '%s\n' "NCCL version 2.26.2+cuda12.8 compiled with CUDA 12.8" \
	"" "Warnings" "========" "" "#0-0 (f1e2d3c4b5a69788) MISMATCH" \
	"  Communicator ranks have different AllReduce operation counts" \
	"  3 ranks have launched up to operation 13" \
	"  Rank 3 has launched up to operation 12 -- GPU 1 managed by process 202 on node $SA" \
	"" >"$T/text.txt"
fake 28031 "$T/st4" 127.0.0.1 --answer "$T/text.txt" --text --no-monitor
lab_rc 1 "older NCCL, text: explain on h5 exits 1" ip netns exec "$S" \
	"$NETPROBE" explain --job --ras 127.0.0.1:28031 --watch 2 --json
J=$LAB_OUT
lab_check "it read text, polled, and found rank 3 stopped" [ "$(jqv \
	'"\(.job.format) \(.job.watched|startswith("polled")) \(.job.stragglers[0].rank) \(.job.stragglers[0].state)"')" \
	= "text true 3 stopped" ]

# 4. A RAS port that accepts and never answers: bounded, exit 2.
fake 28030 "$T/st3" 127.0.0.1 --silent
S0=$(date +%s)
lab_rc 2 "a silent RAS port: exit 2" ip netns exec "$S" "$NETPROBE" \
	explain --job --ras 127.0.0.1:28030 --watch 10 --no-probe
lab_check "within 60 s ($(($(date +%s) - S0)) s)" [ $(($(date +%s) - S0)) -lt 60 ]
lab_grep "it says why" "no answer to the handshake"
lab_done
