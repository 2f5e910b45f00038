# netprobe explain measures only the node a log is about (issue 42): a
# support engineer pastes a customer's TCPStore timeout that names gpu-b,
# trainer-0 and 10.231.62.2. On host "sup" (hostname support-1, address
# 10.231.62.9) nothing is measured and no packet leaves: the log is said
# to be from elsewhere, the hosts it names listed, the command to run
# there printed. The same log on a host it names is measured: "sup" under
# the hostname gpu-b (unshare --uts), and "gpub" (hostname support-2)
# whose address 10.231.62.2 the log names; --here measures anywhere. A
# log that names no host, or only an address every Docker host has, is
# not measured.
# "trn" (10.231.62.1, trainer-0 in every namespace's hosts file) runs the
# responder.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/explain_lib.sh"
lab_require jq unshare

explain_lab_init
lab_ns S sup
lab_ns B gpub
lab_ns R trn
explain_lan "$S" "$B" "$R"
for ns in "$S" "$B" "$R"; do
	lab_hosts "$ns" "127.0.0.1 localhost" "10.231.62.1 trainer-0"
done
ip -n "$S" addr add 10.231.62.9/24 dev lan0
ip -n "$B" addr add 10.231.62.2/24 dev lan0
ip -n "$R" addr add 10.231.62.1/24 dev lan0
explain_serve "$R" trn trainer-0

# the customer's log: torchrun on gpu-b, its store on trainer-0
cat >"$T/store.log" <<'LOG'
[2026-11-30 08:12:01,551] torch.distributed.run: [WARNING] MASTER_ADDR=trainer-0 MASTER_PORT=29500
gpu-b:2231:2231 [0] NCCL INFO Bootstrap : Using lan0:10.231.62.2<0>
[E socket.cpp:957] [c10d] The client socket has timed out after 1800s while trying to connect to (trainer-0, 29500).
LOG

# $T/explain NS HOSTNAME ARGS...: explain --json under that hostname
# (a file, so that lab_rc's timeout can run it)
cat >"$T/explain" <<'SH'
ns=$1 h=$2
shift 2
exec ip netns exec "$ns" unshare --uts sh -c 'hostname "$1"; shift; exec "$@"' \
	sh "$h" "$NETPROBE" explain --json "$@"
SH
export NETPROBE

# 1. the support engineer's host: not measured, said to be elsewhere
lab_rc 0 "elsewhere: exits 0 (nothing decided)" sh "$T/explain" "$S" support-1 \
	"$T/store.log"
J=$LAB_OUT
LAB_OUT=$(jqv '.measured.ran')
lab_grep "elsewhere: nothing measured" '^false$'
LAB_OUT=$(jqv '.measured.origin.verdict')
lab_grep "elsewhere: the verdict" '^elsewhere$'
LAB_OUT=$(jqv '.measured.notes[]')
lab_grep "elsewhere: the hosts the log names are said" \
	'from elsewhere \(it names .*trainer-0.*gpu-b.*10\.231\.62\.2.*this host is support-1\)'
lab_grep "elsewhere: the command to run there" 'netprobe explain --here'
lab_nogrep "elsewhere: no peer probed" 'probed '
LAB_OUT=$(jqv '[.causes[] | select(.state == "proved here")] | length')
lab_grep "elsewhere: nothing proved here" '^0$'
LAB_OUT=$(ip netns exec "$R" ss -Htn state established '( sport = :7470 )' | wc -l)
lab_grep "elsewhere: nothing connected to trainer-0's responder" '^0$'

# 2. the same log on the host it names: gpu-b is this host's name
lab_rc 0 "named host: exits 0" sh "$T/explain" "$S" gpu-b "$T/store.log"
J=$LAB_OUT
LAB_OUT=$(jqv '.measured.ran')
lab_grep "named host: measured" '^true$'
LAB_OUT=$(jqv '.measured.origin.why')
lab_grep "named host: matched by its name" 'names gpu-b, this host'

# 3. a host whose address the log names
lab_rc 0 "named address: exits 0" sh "$T/explain" "$B" support-2 "$T/store.log"
J=$LAB_OUT
LAB_OUT=$(jqv '.measured.ran')
lab_grep "named address: measured" '^true$'
LAB_OUT=$(jqv '.measured.origin.why')
lab_grep "named address: matched by its address" \
	'names 10\.231\.62\.2, an address of this host'

# 4. --here: the user says the log is this host's
lab_rc 0 "--here: exits 0" sh "$T/explain" "$S" support-1 --here "$T/store.log"
J=$LAB_OUT
LAB_OUT=$(jqv '.measured.ran')
lab_grep "--here: measured" '^true$'

# 5. a log that names no host at all is not measured without --here
printf '%s\n' "RuntimeError: NCCL error: unhandled system error" >"$T/bare.log"
lab_rc 0 "unnamed: exits 0" sh "$T/explain" "$S" support-1 "$T/bare.log"
J=$LAB_OUT
LAB_OUT=$(jqv '.measured.origin.verdict + " " + (.measured.ran | tostring)')
lab_grep "unnamed: not measured" '^unnamed false$'
# 6. docker0's 172.17.0.1 is on every Docker host: a log that names only
# it is not taken for this host's, though this host has it too
ip -n "$S" addr add 172.17.0.1/16 dev lan0
printf '%s\n' "NCCL INFO Bootstrap : Using docker0:172.17.0.1<0>" \
	"RuntimeError: NCCL error: unhandled system error" >"$T/pool.log"
lab_rc 0 "pool address: exits 0" sh "$T/explain" "$S" support-1 "$T/pool.log"
J=$LAB_OUT
LAB_OUT=$(jqv '.measured.origin.verdict + " " + (.measured.ran | tostring)')
lab_grep "pool address: not measured" '^unnamed false$'
lab_done
