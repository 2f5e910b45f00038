#!/bin/sh
# The explain corpus: every tests/explain/NAME.log explained from the log
# alone (--no-probe) must give exactly the causes NAME.expect lists
# ("cause CODE" decided, "open CODE,CODE" left open, "other KIND" a cause
# that is not the network): a missed cause or a wrong one fails.
set -u
NETPROBE=${NETPROBE:?set NETPROBE to the netprobe binary}
dir=$(dirname "$0")
pass=0 fail=0
for log in "$dir"/*.log; do
	name=$(basename "$log" .log)
	want="$dir/$name.expect"
	if [ ! -f "$want" ]; then
		echo "FAIL $name: no $name.expect"
		fail=$((fail + 1))
		continue
	fi
	got=$("$NETPROBE" explain --no-probe --json "$log" | jq -r \
		'(.causes[] | "cause " + .code),
		 (.undecided[] | "open " + (.codes | join(","))),
		 (.other_causes[] | "other " + .kind)' | sort)
	exp=$(sort "$want")
	if [ "$got" = "$exp" ]; then
		pass=$((pass + 1))
	else
		echo "FAIL $name"
		echo "  expected: $(echo "$exp" | tr '\n' ';')"
		echo "  got:      $(echo "$got" | tr '\n' ';')"
		fail=$((fail + 1))
	fi
done
# netprobe report reads an explain document as it reads a scan
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$NETPROBE" explain --no-probe --json "$dir/gloo-127011.log" >"$tmp/e.json"
"$NETPROBE" report --format json "$tmp/e.json" >"$tmp/r.json" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q hostname-loopback "$tmp/r.json"; then
	pass=$((pass + 1))
else
	echo "FAIL report of an explain document (exit $rc)"
	fail=$((fail + 1))
fi
# the text leads with the answer, a fault before a warning, and the fix
# names the interface the log shows, in scan's exact form (issue 42)
"$NETPROBE" explain --no-probe "$dir/order-fault-warning.log" >"$tmp/t.txt"
first=$(sed -n '2p' "$tmp/t.txt")
case $first in
"  fault port-closed:"*)
	if grep -q 'fix: pin the interface peers reach: NCCL_SOCKET_IFNAME==eth0 ' \
		"$tmp/t.txt"; then
		pass=$((pass + 1))
	else
		echo "FAIL text: no NCCL_SOCKET_IFNAME==eth0 fix"
		fail=$((fail + 1))
	fi ;;
*)
	echo "FAIL text: the answer does not lead with the fault: $first"
	fail=$((fail + 1)) ;;
esac
# a symptom alone says what would tell (issue 42)
collect() { # LOG PATTERN
	c=$("$NETPROBE" explain --no-probe --json "$dir/$1.log" |
		jq -r '[.symptoms[].collect // empty] | join(" | ")')
	if printf '%s\n' "$c" | grep -q -- "$2"; then
		pass=$((pass + 1))
	else
		echo "FAIL $1: the symptom's collect ('$c') lacks '$2'"
		fail=$((fail + 1))
	fi
}
collect watchdog-slow-compile "dmesg -T"
collect watchdog-slow-compile "netprobe explain --job"
collect nccl-system-error "NCCL_DEBUG=WARN"
collect nccl-system-error "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET"
collect nccl-remote-error "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET"
collect watchdog-nccl-version-bug "NCCL_DEBUG_SUBSYS=INIT,NET"
collect torch-dump-signal "rank 13 timed out first"
collect torch-dump-signal-old "this torch does not say which"
collect deepspeed-host-ssh-alone "ssh -v worker-3.job"
collect torch-store-wait-clients-alone "1 of 2 ranks reached the store"
collect ucx-ep-timeout-alone "a peer that exited or was killed"
collect tf-createsession-alone "getent hosts HOST"
collect impi-bstrap-nosshd "I_MPI_HYDRA_BOOTSTRAP=fork"
collect impi-bstrap-nosshd "ssh -v localhost true"
collect impi-bstrap-k8s "ssh -v mpi-test-worker-0.mpi-test true"
collect impi-bstrap-exit1 "I_MPI_HYDRA_DEBUG=1"
collect slurm-launch-munge "munge -n | ssh ubuntu4 unmunge"
collect slurm-launch-scale "netprobe ports compute-od-gpu-st-p4d-24xlarge-33 6818"
collect nccl-write-reset-old "the first rank to fail holds the cause"
collect torch-store-wait-input "the store at 33.148.62.162 answered nothing"
collect horovod-tasks-start "run it by hand on one host"
collect horovod-tasks-start-ray "run it by hand on one host"
collect nccl-bootstrap-closed-early "before 2.27.3"
collect nccl-bootstrap-reset-type "so it was reached"
collect vllm-ray-driver-no-gpu "set VLLM_HOST_IP to that same address"
collect vllm-ray-node-ip "takes for this node (192.168.50.192"
collect nccl-family-unset "whether NCCL_SOCKET_IFNAME matched one"
# the fix names the device the log names (issue 42)
if "$NETPROBE" explain --no-probe "$dir/ucx-cm-device-disabled.log" |
	grep -q 'fix: add br-vsw-1 to UCX_NET_DEVICES'; then
	pass=$((pass + 1))
else
	echo "FAIL ucx-cm-device-disabled: the fix does not name br-vsw-1"
	fail=$((fail + 1))
fi
# name-unresolved refines host-unreachable: the JSON lists the broader
# code, so a consumer that asks for host-unreachable finds it (issue 42)
ref=$("$NETPROBE" explain --no-probe --json "$dir/deepspeed-host-ssh-resolve.log" |
	jq -r '.causes[] | select(.code == "name-unresolved") | .refines | join(",")')
if [ "$ref" = host-unreachable ]; then
	pass=$((pass + 1))
else
	echo "FAIL name-unresolved refines '$ref', not host-unreachable"
	fail=$((fail + 1))
fi
# a launcher's HOST:SLOTS reached ssh: says to check the launcher's
# version, and blames no network (issue 42)
"$NETPROBE" explain --no-probe "$dir/launcher-hostslots-torchpack.log" >"$tmp/l.txt"
if grep -q "not the network: launcher-syntax" "$tmp/l.txt" &&
	grep -q "check: 'localhost:1' is HOST:SLOTS.*launcher's version" "$tmp/l.txt"; then
	pass=$((pass + 1))
else
	echo "FAIL launcher-syntax: no check of the host list and the launcher's version"
	fail=$((fail + 1))
fi
echo "explain corpus: $pass passed, $fail failed"
[ "$fail" = 0 ]
