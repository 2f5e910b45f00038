# Under a real Slurm (issue 35): Debian's slurm-wlm, one slurmctld and four
# slurmd, each node in its own network and UTS namespace (slurm_lib.sh).
# - `srun -N4 --ntasks-per-node=1 netprobe mesh`, README's line: healthy
#   it passes (exit 0, the HTML written); with sn03's ephemeral range
#   dropped it fails (exit 1) naming sn03, with the same causes and verdict
#   as the same mesh started by hand with --hosts; the membership came from
#   Slurm's compressed list (sn[01-04]) and node 0 is SLURM_NODEID 0; the
#   printed fix, run on sn03, makes the same srun pass (closed loop). Two
#   tasks on a node: the second says why and exits 2.
# - `sbatch` of contrib/slurm/netprobe-gate.sbatch: healthy, the training
#   step runs on every node; failing, it never starts and the job's output
#   names sn03 and the cause.
# - ncclcheck under srun and srun --mpi=pmix (where it was built; no GPU
#   here): each rank says which launcher and which rank of how many, and
#   exits 2 with "no GPU", no hang.
# - contrib/slurm/netprobe-healthcheck as HealthCheckProgram: sn03 with a
#   hostname on 127.0.1.1 (a fault) is drained with the code in its
#   reason; sn02 with an addressed interface down (a warning) is not, unless
#   asked; a job then avoids sn03 (a mesh over sn[01-02,04]); fixed, sn03
#   is resumed. The same script as Prolog (PrologFlags=Alloc) drains sn03
#   and the job given it is requeued before any step runs.
LAB_ID="${LAB_ID:-35-$$}"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/slurm_lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require nft jq unshare setpriv
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case $NETPROBE in
/*) ;;
*) NETPROBE=$(command -v "$NETPROBE") || lab_skip "no netprobe (set NETPROBE)" ;;
esac
# ncclcheck beside netprobe, where the build made it (CUDA and NCCL)
NCCLCHECK=${NCCLCHECK:-$(dirname "$NETPROBE")/ncclcheck}
trap 'slurm_down' EXIT
slurm_install

N=4
NET=35
# Slurm that cannot come up here is this machine's, not netprobe's: its
# daemons' last words, then a skip
slurm_up "$N" "$NET" || {
	slurm_logs
	lab_skip "slurmctld and $N slurmd did not show every node idle" \
		"within 60 s (their logs above)"
}
lab_ok "slurmctld and $N slurmd up, sinfo shows $N nodes idle"

# netprobe (and ncclcheck) on PATH, as README's lines name them
# - copies, not links, and the scripts the nodes run beside them: each node
# has a /tmp of its own, so a checkout under /tmp (CI's clone may be) is
# not there for slurmd and its steps
mkdir -p "$SLURM_T/bin" "$SLURM_T/work" "$SLURM_T/share"
cp "$NETPROBE" "$SLURM_T/bin/netprobe" || exit 1
[ -n "$NCCLCHECK" ] && [ -x "$NCCLCHECK" ] &&
	cp "$NCCLCHECK" "$SLURM_T/bin/ncclcheck"
cp -r "$ROOT/contrib/slurm" "$ROOT/examples" "$SLURM_T/share/" || exit 1
SHARE=$SLURM_T/share
NETPROBE=$SLURM_T/bin/netprobe
export PATH="$SLURM_T/bin:$PATH"
cd "$SLURM_T/work" || exit 1

# sctl SECONDS CMD...: CMD in the controller's namespace, bounded; its
# output in $LAB_OUT, its exit status in $RC.
sctl() {
	_s=$1
	shift
	LAB_OUT=$(slurm_ctl timeout -k 5 "$_s" "$@" 2>&1)
	RC=$?
}

# what each task sees from Slurm
sctl 60 srun -N"$N" --ntasks-per-node=1 sh -c \
	'echo "$SLURM_NODEID $(hostname) $SLURM_STEP_NODELIST $SLURM_JOB_NODELIST"'
lab_grep "srun: sn03 is SLURM_NODEID 2, the list compressed sn[01-04]" \
	'^2 sn03 sn\[01-04\] sn\[01-04\]$'

# --- the mesh under srun, README's line -----------------------------------
sctl 120 srun -N"$N" --ntasks-per-node=1 netprobe mesh --format html -o mesh.html
lab_check "srun -N4 netprobe mesh --format html -o mesh.html: exit 0 [$RC]" \
	test "$RC" = 0
lab_check "the HTML report written by node 0" \
	grep -q 'PASS' mesh.html
lab_grep "every other node names sn01 as node 0" \
	'report is on node 0 \(sn01\) \(this node: sn04'

# mesh_srun NAME: the same mesh, node 0 writing JSON to NAME.json and the
# documents to NAME/ (exit status in $RC).
mesh_srun() {
	sctl 120 srun -N"$N" --ntasks-per-node=1 netprobe mesh \
		--join-timeout 30s --format json -o "$1.json" --out "$1"
}
mesh_srun healthy
lab_check "healthy: exit 0 [$RC]" test "$RC" = 0
lab_check "healthy: membership from Slurm's SLURM_STEP_NODELIST and SLURM_NODEID, 4 joined, node 0 sn01" \
	test "$(jq -r '.mesh | "\(.source) \(.variables) \(.joined) \(.node0)"' healthy.json)" \
	= "Slurm SLURM_STEP_NODELIST, SLURM_NODEID 4 sn01"
lab_check "healthy: member i is sn0(i+1), SLURM_NODEID order" \
	test "$(jq -r '[.mesh.members[] | "\(.rank)=\(.name)"] | join(" ")' healthy.json)" \
	= "0=sn01 1=sn02 2=sn03 3=sn04"
LAB_OUT=$(netprobe report healthy 2>&1)
lab_grep "healthy: the report says PASS on 4 nodes" \
	'^verdict: PASS: 0 faults, 0 warnings on 4 nodes'
lab_grep "healthy: the membership came from Slurm" \
	'mesh: 4 nodes from Slurm'

# two tasks on a node: the second of each node says why and exits 2
sctl 60 srun -N2 --ntasks-per-node=2 netprobe mesh --join-timeout 10s -o two.txt
lab_check "srun --ntasks-per-node=2: exit 2 [$RC]" test "$RC" = 2
lab_grep "srun --ntasks-per-node=2: process 1 of a node is told to run one per node" \
	'this is process 1 of this node \(SLURM_STEP_NODELIST, SLURM_NODEID\): run one per node \(srun --ntasks-per-node=1'

# --- the gate: sbatch, healthy --------------------------------------------
GATE="$SHARE/slurm/netprobe-gate.sbatch"
mkdir -p "$SLURM_T/trained"
# sbatch_wait SCRIPT ARGS...: submits, waits (90 s at most) until the job
# ended; its id in $JOB, its state in $JSTATE, its output in $LAB_OUT.
sbatch_wait() {
	JOB=$(slurm_ctl sbatch --parsable -N"$N" -o "$SLURM_T/work/job-%j.out" \
		"$@" 2>&1)
	JSTATE=""
	case $JOB in
	*[!0-9]* | "")
		LAB_OUT="sbatch: $JOB"
		return 1
		;;
	esac
	_t=900
	while [ "$_t" -gt 0 ]; do
		JSTATE=$(slurm_ctl scontrol show job -o "$JOB" 2>/dev/null |
			sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
		case $JSTATE in
		COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL) break ;;
		esac
		sleep 0.1
		_t=$((_t - 1))
	done
	LAB_OUT=$(cat "$SLURM_T/work/job-$JOB.out" 2>/dev/null)
}
# shellcheck disable=SC2016 # expanded by the training step's shell
TRAIN='echo trained > "$0/$(hostname)"'
sbatch_wait "$GATE" sh -c "$TRAIN" "$SLURM_T/trained"
lab_check "gate, healthy: the job completed [$JOB $JSTATE]" \
	test "$JSTATE" = COMPLETED
lab_grep "gate, healthy: the mesh passed in the job's output" \
	'^verdict: PASS'
lab_check "gate, healthy: the training step ran on all 4 nodes" \
	test "$(ls "$SLURM_T/trained" | tr '\n' ' ')" = "sn01 sn02 sn03 sn04 "

# examples/mesh-slurm.sbatch as shipped: the report in its log, the HTML
# and every node's document beside it
sbatch_wait "$SHARE/examples/mesh-slurm.sbatch"
lab_check "examples/mesh-slurm.sbatch: the job completed [$JOB $JSTATE]" \
	test "$JSTATE" = COMPLETED
lab_grep "examples/mesh-slurm.sbatch: PASS on 4 nodes in its log" \
	'^verdict: PASS: 0 faults, 0 warnings on 4 nodes'
lab_check "examples/mesh-slurm.sbatch: report.html and the 4 nodes' documents" \
	test -s "netprobe-mesh-$JOB/report.html" -a \
	"$(cd "netprobe-mesh-$JOB/docs" && echo sn0?.json)" = \
	"sn01.json sn02.json sn03.json sn04.json"

# --- ncclcheck under srun --------------------------------------------------
# nc_ranks LAUNCH: from $LAB_OUT, "RANK HOST" of every rank's no-GPU line
# whose launch reads "launched by LAUNCH as rank RANK ..." (its own rank)
nc_ranks() {
	printf '%s\n' "$LAB_OUT" | sed -n "s/^ncclcheck: rank \([0-9]*\) on \([^:]*\): no GPU: .*; launched by $1 as rank \1 .*/\1 \2/p" |
		sort -n
}
# nc_blocks: the ranks of each node form one block of 8 (srun's block
# distribution), two nodes: 16 ranks 0-15, "0 HOSTA" and "1 HOSTB"
nc_blocks() {
	_r=$(nc_ranks "$1")
	[ "$(printf '%s\n' "$_r" | cut -d' ' -f1 | tr '\n' ' ')" = \
		"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 " ] || return 1
	_b=$(printf '%s\n' "$_r" | awk '{ print int($1 / 8), $2 }' | sort -u)
	[ "$(printf '%s\n' "$_b" | wc -l)" = 2 ] &&
		[ "$(printf '%s\n' "$_b" | cut -d' ' -f2 | sort -u | wc -l)" = 2 ]
}
if [ -e "$SLURM_T/bin/ncclcheck" ]; then
	# README's line
	sctl 120 srun -N2 --ntasks-per-node=8 ncclcheck
	lab_check "srun -N2 --ntasks-per-node=8 ncclcheck: exit 2, no hang [$RC]" \
		test "$RC" = 2
	lab_grep "ncclcheck under srun: rank 9 says no GPU, launched by slurm as rank 9 of 16" \
		'^ncclcheck: rank 9 on sn0[1-4]: no GPU: .*launched by slurm as rank 9 of 16 \(SLURM_PROCID/SLURM_NTASKS\)'
	lab_check "ncclcheck under srun: ranks 0-15, 0-7 on one node, 8-15 on the other" \
		nc_blocks slurm
	if slurm_ctl srun --mpi=list 2>&1 | grep -q pmix; then
		sctl 120 srun --mpi=pmix -N2 --ntasks-per-node=8 ncclcheck
		lab_check "ncclcheck under srun --mpi=pmix: exit 2, no hang [$RC]" \
			test "$RC" = 2
		lab_grep "ncclcheck under --mpi=pmix: rank 15, MPI (PMIx), no GPU" \
			'^ncclcheck: rank 15 on sn0[1-4]: no GPU: .*launched by mpi as rank 15 \(the size comes from MPI\)'
		lab_check "ncclcheck under --mpi=pmix: ranks 0-15 in two blocks of 8" \
			nc_blocks mpi
	else
		echo "# skip - srun --mpi=pmix: no pmix plugin here"
	fi
	if slurm_ctl srun --mpi=list 2>&1 | grep -q pmi2; then
		sctl 120 srun --mpi=pmi2 -N2 --ntasks-per-node=8 ncclcheck
		lab_check "ncclcheck under srun --mpi=pmi2: exit 2, no hang [$RC]" \
			test "$RC" = 2
		lab_grep "ncclcheck under --mpi=pmi2: rank 9, MPI (PMI), of 16" \
			'^ncclcheck: rank 9 on sn0[1-4]: no GPU: .*launched by mpi as rank 9 of 16 \(PMI_SIZE\)'
		lab_check "ncclcheck under --mpi=pmi2: ranks 0-15 in two blocks of 8" \
			nc_blocks mpi
	fi
else
	echo "# skip - ncclcheck under srun: no $NCCLCHECK (built only with CUDA and NCCL)"
fi

# --- a fault: sn03 drops new connections to its ephemeral range ----------
NS3=$(slurm_ns 3)
ip netns exec "$NS3" sysctl -qw net.ipv4.ip_local_port_range="40000 40999"
ip netns exec "$NS3" nft -f - <<'NFT'
table inet np35_fw {
	chain input {
		type filter hook input priority 0; policy accept;
		ct state established,related accept
		tcp dport 40000-40999 drop
	}
}
NFT
mesh_srun faulty
lab_check "faulty: srun exits 1 [$RC]" test "$RC" = 1
LAB_OUT=$(jq -r '.causes[] | "\(.node // "?"): \(.title // .summary // "")"' faulty.json)
lab_grep "faulty: sn03's firewall is named" \
	"^sn03: sn03's firewall drops connections peers need: 40000-40999/tcp"
lab_nogrep "faulty: no healthy node blamed" '^sn0[124]: '

# the same mesh started by hand on every node (--hosts), against the
# same fault: the same verdict, causes and exit statuses
mkdir -p hand
_i=1
while [ "$_i" -le "$N" ]; do
	(
		ip netns exec "$(slurm_ns "$_i")" unshare --uts sh -c \
			'hostname "$0"; exec "$@"' "$(slurm_name "$_i")" \
			"$NETPROBE" mesh --hosts "sn[01-04]" --join-timeout 30s \
			--format json -o "$SLURM_T/work/hand.json" \
			--out "$SLURM_T/work/hand" >"hand/$_i.out" 2>&1
		echo $? >"hand/$_i.rc"
	) &
	_i=$((_i + 1))
done
hand_done() {
	[ "$(ls hand/*.rc 2>/dev/null | wc -l)" = "$N" ]
}
lab_check "by hand: 4 nodes end within 90 s" lab_wait 900 hand_done
lab_check "by hand: every node exits 1, as under srun" \
	test "$(cat hand/*.rc | sort -u)" = 1
causes() {
	jq -r '.verdict, (.causes[] |
		"\(.node // "?"): \(.title // .summary // "")")' "$1" | sort
}
lab_check "srun and by hand: the same verdict and causes" \
	test "$(causes faulty.json)" = "$(causes hand.json)"
LAB_OUT=$(netprobe report faulty 2>&1)
lab_grep "faulty: the membership came from Slurm" 'mesh: 4 nodes from Slurm'

# --- the gate: sbatch, failing ---------------------------------------------
rm -f "$SLURM_T/trained"/*
sbatch_wait "$GATE" sh -c "$TRAIN" "$SLURM_T/trained"
lab_check "gate, failing: the job failed [$JOB $JSTATE]" test "$JSTATE" = FAILED
lab_grep "gate, failing: the mesh's verdict in the job's output" \
	'^verdict: FAULT: 1 root cause'
lab_grep "gate, failing: the output names the cause on sn03" \
	"^ +firewall on sn03: sn03's firewall drops connections peers need: 40000-40999/tcp"
lab_grep "gate, failing: the training step was not started" \
	'the training step was not started'
lab_check "gate, failing: no node trained" \
	test -z "$(ls "$SLURM_T/trained")"

# the closed loop: sn03's printed fix, run verbatim there; the same srun
# mesh then passes
cl_ns() {
	slurm_ns "${1#sn0}"
}
cl_apply faulty.json sn03
lab_check "closed loop: sn03's fix applied" test "$CL_APPLIED" -ge 1
mesh_srun fixed
mkdir -p fixed.rc
echo "$RC" >fixed.rc/srun.rc
cl_clean fixed.json fixed.rc "srun mesh after sn03's fix"

# --- node health: HealthCheckProgram ---------------------------------------
# sn03's hostname on 127.0.1.1 (Debian's line; a fault); sn02 with an
# addressed interface left down (a warning)
lab_veth "$(slurm_ns 2)" train0 "$SLURM_SW" t2
ip -n "$(slurm_ns 2)" addr add "10.231.$((NET + 1)).2/24" dev train0
HOSTS3="/etc/netns/$NS3/hosts"
cp "$HOSTS3" "$SLURM_T/hosts3"
{ echo "127.0.1.1 sn03"; cat "$SLURM_T/hosts3"; } >"$HOSTS3.new"
cat "$HOSTS3.new" >"$HOSTS3" # same inode: the bind mount sees it
HC="$SLURM_T/healthcheck"
cat >"$HC" <<EOF
#!/bin/sh
# the lab's settings for the shipped script
export NETPROBE="$NETPROBE" SLURM_CONF="$SLURM_CONF" PATH="$PATH"
export NETPROBE_HC_LOG="$SLURM_T/healthcheck.log"
export NETPROBE_HC_LOCK="$SLURM_T/healthcheck-\$(hostname).lock"
exec sh "$SHARE/slurm/netprobe-healthcheck"
EOF
chmod 755 "$HC"
# by hand first, dry run: what sn02 would do only when asked
LAB_OUT=$(ip netns exec "$(slurm_ns 2)" unshare --uts sh -c \
	'hostname sn02; exec "$0"' "$HC" 2>&1)
lab_check "sn02 (a warning): the check passes, drains nothing" \
	test -z "$LAB_OUT"
LAB_OUT=$(ip netns exec "$(slurm_ns 2)" unshare --uts sh -c \
	'hostname sn02; exec env NETPROBE_HC_DRAIN=warning NETPROBE_HC_DRY_RUN=1 "$0"' \
	"$HC" 2>&1)
lab_grep "sn02, NETPROBE_HC_DRAIN=warning: would drain with interface-down" \
	"^scontrol update nodename=sn02 state=drain reason='netprobe: interface-down "
# where no jq is, the check cannot read the scan (its text may hold a
# summary's newline): it fails closed, naming jq
mkdir -p "$SLURM_T/nojq"
for c in sh hostname cut head wc grep sed cat awk tr date mktemp rm \
	timeout; do
	ln -s "$(command -v "$c")" "$SLURM_T/nojq/$c"
done
LAB_OUT=$(ip netns exec "$(slurm_ns 2)" unshare --uts sh -c \
	'hostname sn02; exec "$@"' sh env PATH="$SLURM_T/nojq" \
	NETPROBE="$NETPROBE" SCONTROL=/bin/true NETPROBE_HC_DRAIN=warning \
	NETPROBE_HC_LOG= NETPROBE_HC_DRY_RUN=1 \
	/bin/sh "$SHARE/slurm/netprobe-healthcheck" 2>&1)
lab_grep "sn02, no jq: would drain naming jq (fails closed)" \
	"^/bin/true update nodename=sn02 state=drain reason='netprobe-healthcheck: jq is not installed "

printf 'HealthCheckProgram=%s\nHealthCheckInterval=5\nHealthCheckNodeState=ANY\n' \
	"$HC" >>"$SLURM_CONF"
slurm_ctl scontrol reconfigure
sn03_drained() {
	slurm_node_state sn03 | grep -q '^drain.*netprobe: hostname-loopback'
}
lab_check "sn03 drained by the health check within 60 s" \
	lab_wait 600 sn03_drained
LAB_OUT=$(slurm_ctl sinfo -h -N -o '%N %t %E')
lab_grep "sn03's reason: netprobe: hostname-loopback ..." \
	'^sn03 drain netprobe: hostname-loopback hostname sn03 resolves to 127\.0\.1\.1'
# (bounded: a node may still be completing the last job)
only_sn03_drained() {
	[ "$(slurm_ctl sinfo -h -N -o '%N %t' | tr '\n' ' ')" = \
		"sn01 idle sn02 idle sn03 drain sn04 idle " ]
}
lab_check "sn01, sn02 (a warning), sn04 stay idle" \
	lab_wait 300 only_sn03_drained
# a 3-node job avoids sn03: Slurm's list now has a gap, sn[01-02,04]
sctl 60 srun -N3 --ntasks-per-node=1 printenv SLURM_STEP_NODELIST
lab_grep "a 3-node job's list: sn[01-02,04]" '^sn\[01-02,04\]$'
sctl 120 srun -N3 --ntasks-per-node=1 netprobe mesh --join-timeout 30s \
	--format json -o three.json
lab_check "a 3-node mesh avoids sn03, passes (sn02's warning is no fault) [$RC]" \
	test "$RC" = 0
lab_check "its members from sn[01-02,04]: 0=sn01 1=sn02 2=sn04" \
	test "$(jq -r '[.mesh.members[] | "\(.rank)=\(.name)"] | join(" ")' three.json)" \
	= "0=sn01 1=sn02 2=sn04"
# fixed: the hosts file as it was; the check resumes the node it drained
cat "$SLURM_T/hosts3" >"$HOSTS3"
sn03_idle() {
	slurm_node_state sn03 | grep -q '^idle'
}
lab_check "sn03 fixed: resumed by the health check within 60 s" \
	lab_wait 600 sn03_idle

# --- node health: the same script as Prolog (PrologFlags=Alloc) ----------
# no health check now: the prolog alone finds sn03's fault when a job is
# given sn03, drains it with the code, and the job does not run
sed -i '/^HealthCheck/d' "$SLURM_CONF"
printf 'Prolog=%s\nPrologFlags=Alloc\n' "$HC" >>"$SLURM_CONF"
slurm_ctl scontrol reconfigure
cat "$HOSTS3.new" >"$HOSTS3"
mkdir -p "$SLURM_T/prolog"
JOB=$(slurm_ctl sbatch --parsable -N"$N" -o /dev/null "$GATE" sh -c "$TRAIN" \
	"$SLURM_T/prolog" 2>&1)
lab_check "as Prolog: sn03 drained within 60 s" lab_wait 600 sn03_drained
job_held() {
	slurm_ctl scontrol show job -o "$JOB" 2>/dev/null |
		grep -q 'JobState=PENDING'
}
lab_check "as Prolog: the job is back in the queue (requeued) [$JOB]" \
	lab_wait 300 job_held
lab_check "as Prolog: no step trained on any node" \
	test -z "$(ls "$SLURM_T/prolog")"
LAB_OUT=$(slurm_ctl sinfo -h -N -o '%N %t %E')
lab_grep "as Prolog: sn03's reason is netprobe's, the others not drained" \
	'sn03 drain netprobe: hostname-loopback '
lab_nogrep "as Prolog: no other node drained" '^sn0[124] drain'
slurm_ctl scancel "$JOB"

[ "$LAB_FAIL" = 0 ] || slurm_logs
lab_done
