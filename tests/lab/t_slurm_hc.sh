# The Slurm health check fails closed, under a real Slurm (issue 44):
# contrib/slurm/netprobe-healthcheck as HealthCheckProgram on four nodes
# (slurm_lib.sh), each node failing its own way at once:
# - sn01: netprobe missing; sn02: a netprobe that hangs (a stub first in
#   PATH, sleeping 300 s); sn03: a misspelt setting (NETPROBE_HC_DRIAN);
#   sn04 healthy. Each of the three is drained with a reason naming why,
#   within the check's deadline (default 30 s), timed from the check's
#   start to Slurm's stamp on the reason; sn02's stub and its child are
#   killed; sn04 stays idle.
# - fixed, each is resumed by the check; a --dry-run's printed scontrol
#   line, pasted on the controller, drains with the same reason.
# - as Prolog (PrologFlags=Alloc), netprobe missing on sn02: the job given
#   sn02 runs no step, is requeued and held, sn02 is drained with the
#   check's reason; README's steps (fix, resume, release, start now) run
#   the job.
LAB_ID="${LAB_ID:-44-$$}"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/slurm_lib.sh"
lab_require jq unshare setpriv timeout
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case $NETPROBE in
/*) ;;
*) NETPROBE=$(command -v "$NETPROBE") || lab_skip "no netprobe (set NETPROBE)" ;;
esac
trap 'slurm_down' EXIT
slurm_install

N=4
NET=44
slurm_up "$N" "$NET" || {
	slurm_logs
	lab_skip "slurmctld and $N slurmd did not show every node idle" \
		"within 60 s (their logs above)"
}
lab_ok "slurmctld and $N slurmd up, sinfo shows $N nodes idle"

# the script and netprobe copied where every node sees them (each node has
# a /tmp of its own)
mkdir -p "$SLURM_T/bin" "$SLURM_T/share" "$SLURM_T/hang" "$SLURM_T/hc"
cp "$NETPROBE" "$SLURM_T/bin/netprobe" || exit 1
cp -r "$ROOT/contrib/slurm" "$SLURM_T/share/" || exit 1
NETPROBE=$SLURM_T/bin/netprobe
# the hanging netprobe: its id and its child's in hang.pids, its start in
# hang.start
cat >"$SLURM_T/hang/netprobe" <<EOF
#!/bin/sh
date +%s >>"$SLURM_T/hang.start"
sleep 300 &
echo "\$\$ \$!" >>"$SLURM_T/hang.pids"
wait
EOF
chmod 755 "$SLURM_T/hang/netprobe"
# the check as slurmd runs it: the lab's settings, then the node's own
# (hc/NODE.env, a fault of the lab's making); each start's time in
# hc/NODE.runs, the log file in hc/NODE.log, the lock hc/NODE.lock
HC="$SLURM_T/healthcheck"
cat >"$HC" <<EOF
#!/bin/sh
n=\$(hostname)
date +%s >>"$SLURM_T/hc/\$n.runs"
export NETPROBE="$NETPROBE" SLURM_CONF="$SLURM_CONF" PATH="$SLURM_T/bin:$PATH"
export NETPROBE_HC_LOG="$SLURM_T/hc/\$n.log"
export NETPROBE_HC_LOCK="$SLURM_T/hc/\$n.lock"
[ -r "$SLURM_T/hc/\$n.env" ] && . "$SLURM_T/hc/\$n.env"
exec sh "$SLURM_T/share/slurm/netprobe-healthcheck" "\$@"
EOF
chmod 755 "$HC"
echo "export NETPROBE=$SLURM_T/missing/netprobe" >"$SLURM_T/hc/sn01.env"
echo "export NETPROBE=netprobe PATH=$SLURM_T/hang:\$PATH" \
	>"$SLURM_T/hc/sn02.env"
echo "export NETPROBE_HC_DRIAN=warning" >"$SLURM_T/hc/sn03.env"
R01="netprobe-healthcheck: netprobe not found or not executable: '$SLURM_T/missing/netprobe'"
R02="netprobe-healthcheck: netprobe did not finish within 30 s"
R03="netprobe-healthcheck: unknown setting NETPROBE_HC_DRIAN (misspelt?)"

# reason NODE: the node's reason as Slurm holds it, its stamp left out.
reason() {
	slurm_ctl scontrol show node -o "$1" 2>/dev/null |
		sed -n 's/.* Reason=\(.*\) \[[^]]*@[^]]*\].*/\1/p'
}
# drained_for NODE REASON: the node is drained with exactly REASON.
drained_for() {
	slurm_node_state "$1" | grep -q '^drain' &&
		[ "$(reason "$1")" = "$2" ]
}
# took NODE: seconds from the node's first check to Slurm's stamp on its
# reason (the drain).
took() {
	_at=$(slurm_ctl scontrol show node -o "$1" 2>/dev/null |
		sed -n 's/.* Reason=.* \[[^]]*@\([^]]*\)\].*/\1/p')
	_at=$(date -d "$_at" +%s 2>/dev/null) || {
		echo "?"
		return 0
	}
	echo $((_at - $(head -1 "$SLURM_T/hc/$1.runs")))
}
# within NODE LOW HIGH: took NODE is from LOW to HIGH seconds.
within() {
	_s=$(took "$1")
	case $_s in
	*[!0-9-]* | "") return 1 ;;
	esac
	[ "$_s" -ge "$2" ] && [ "$_s" -le "$3" ]
}
alive() {
	for _p in $(cat "$SLURM_T/hang.pids" 2>/dev/null); do
		kill -0 "$_p" 2>/dev/null && return 0
	done
	return 1
}
# first_gone: the first hanging netprobe and its child are gone.
first_gone() {
	for _p in $(head -1 "$SLURM_T/hang.pids"); do
		kill -0 "$_p" 2>/dev/null && return 1
	done
	return 0
}

# --- HealthCheckProgram: three failures, one healthy node -----------------
printf 'HealthCheckProgram=%s\nHealthCheckInterval=5\nHealthCheckNodeState=ANY\n' \
	"$HC" >>"$SLURM_CONF"
slurm_ctl scontrol reconfigure
lab_check "sn01, netprobe missing: drained naming it within 60 s" \
	lab_wait 600 drained_for sn01 "$R01"
lab_check "sn03, NETPROBE_HC_DRIAN set: drained naming it" \
	lab_wait 300 drained_for sn03 "$R03"
lab_check "sn02, netprobe hanging: drained at the deadline, naming it" \
	lab_wait 600 drained_for sn02 "$R02"
lab_check "sn01: drained within 5 s of its check's start [$(took sn01) s]" \
	within sn01 0 5
lab_check "sn03: drained within 5 s of its check's start [$(took sn03) s]" \
	within sn03 0 5
lab_check "sn02: drained 30-35 s after its check started, the deadline [$(took sn02) s]" \
	within sn02 30 35
lab_check "sn02: the hanging netprobe was started once or more" \
	test -s "$SLURM_T/hang.pids"
lab_check "sn02: the first hanging netprobe and its child killed" \
	lab_wait 100 first_gone
lab_check "sn02: the log file has the drain" \
	grep -q "sn02: draining: $R02" "$SLURM_T/hc/sn02.log"
lab_check "sn02: the checks slurmd started meanwhile left it the verdict" \
	grep -q "sn02: a check is still running" "$SLURM_T/hc/sn02.log"
sn04_idle() {
	slurm_node_state sn04 | grep -q '^idle'
}
lab_check "sn04 (healthy) stays idle" sn04_idle
LAB_OUT=$(slurm_ctl sinfo -h -N -o '%N %t %E')
printf '%s\n' "$LAB_OUT" | sed 's/^/    # /'

# --- fixed: each node resumed by the check --------------------------------
rm -f "$SLURM_T"/hc/sn0?.env
# all_idle: every node idle and none drained (sinfo -t idle also counts
# a drained node that runs nothing)
all_idle() {
	[ "$(slurm_ctl sinfo -h -N -o '%N %t' | tr '\n' ' ')" = \
		"sn01 idle sn02 idle sn03 idle sn04 idle " ]
}
# sn02: a check that took the lock before the fix may hang its 30 s first
lab_check "fixed: sn01, sn02, sn03 resumed by the check within 90 s" \
	lab_wait 900 all_idle
none_alive() {
	! alive
}
lab_check "fixed: no hanging netprobe left" lab_wait 100 none_alive

# --- the dry run: the printed line, pasted, drains sn01 -------------------
LAB_OUT=$(ip netns exec "$(slurm_ns 1)" unshare --uts sh -c \
	'hostname sn01; exec env NETPROBE_HC_DRIAN=warning "$0" --dry-run' \
	"$HC" 2>/dev/null)
lab_grep "--dry-run on sn01: one scontrol line to paste" \
	"^scontrol update nodename=sn01 state=drain reason='netprobe-healthcheck: unknown setting NETPROBE_HC_DRIAN \(misspelt\?\)'$"
sn01_idle() {
	slurm_node_state sn01 | grep -q '^idle'
}
lab_check "--dry-run: sn01 still idle" sn01_idle
slurm_ctl sh -c "$LAB_OUT"
lab_check "--dry-run: the line pasted on the controller drains sn01 with that reason" \
	drained_for sn01 "$R03"
slurm_ctl scontrol update nodename=sn01 state=resume

# --- as Prolog: netprobe missing on sn02 ----------------------------------
sed -i '/^HealthCheck/d' "$SLURM_CONF"
printf 'Prolog=%s\nPrologFlags=Alloc\n' "$HC" >>"$SLURM_CONF"
slurm_ctl scontrol reconfigure
lab_check "as Prolog: every node idle first" lab_wait 300 all_idle
echo "export NETPROBE=$SLURM_T/missing/netprobe" >"$SLURM_T/hc/sn02.env"
R02P="netprobe-healthcheck: netprobe not found or not executable: '$SLURM_T/missing/netprobe'"
mkdir -p "$SLURM_T/ran"
JOB=$(slurm_ctl sbatch --parsable -N"$N" -o /dev/null --wrap \
	"srun sh -c 'touch $SLURM_T/ran/\$(hostname)'" 2>&1)
lab_check "as Prolog: sbatch -N4 accepted [$JOB]" \
	sh -c 'case $0 in "" | *[!0-9]*) exit 1 ;; esac' "$JOB"
lab_check "as Prolog: sn02 drained with the check's reason within 60 s" \
	lab_wait 600 drained_for sn02 "$R02P"
job_held() {
	slurm_ctl scontrol show job -o "$JOB" 2>/dev/null |
		grep 'JobState=PENDING' | grep -q 'Priority=0 '
}
lab_check "as Prolog: the job is requeued and held (PENDING, priority 0) [$JOB]" \
	lab_wait 300 job_held
LAB_OUT=$(slurm_ctl scontrol show job -o "$JOB" 2>&1)
printf '%s\n' "$LAB_OUT" | grep -o 'JobState=[^ ]* Reason=[^ ]*' |
	sed 's/^/    # /'
lab_check "as Prolog: no step ran on any node" \
	test -z "$(ls "$SLURM_T/ran")"
LAB_OUT=$(slurm_ctl sinfo -h -N -o '%N %t %E')
lab_nogrep "as Prolog: no other node drained" '^sn0[134] drain'
# README's steps: fix the node, resume it, release the job
rm -f "$SLURM_T/hc/sn02.env"
slurm_ctl scontrol update nodename=sn02 state=resume
slurm_ctl scontrol release "$JOB"
# Slurm holds a requeued job back 2 minutes (BeginTime); README says so
# eligible_later: the job's EligibleTime a minute or more from now.
eligible_later() {
	_e=$(slurm_ctl scontrol show job -o "$JOB" 2>/dev/null |
		sed -n 's/.* EligibleTime=\([^ ]*\) .*/\1/p')
	_e=$(date -d "$_e" +%s 2>/dev/null) || return 1
	[ "$_e" -ge $(($(date +%s) + 60)) ]
}
lab_check "as Prolog: the released job is eligible only a minute or more later" \
	lab_wait 50 eligible_later
slurm_ctl scontrol update jobid="$JOB" starttime=now
job_done() {
	slurm_ctl scontrol show job -o "$JOB" 2>/dev/null |
		grep -q 'JobState=COMPLETED'
}
lab_check "as Prolog, fixed, resumed and released: the job completed" \
	lab_wait 600 job_done
lab_check "as Prolog: its step ran on all 4 nodes" \
	test "$(ls "$SLURM_T/ran" | tr '\n' ' ')" = "sn01 sn02 sn03 sn04 "

[ "$LAB_FAIL" = 0 ] || slurm_logs
lab_done
