# A real Slurm cluster in network namespaces (issue 35), sourced by
# tests/lab/t_slurm.sh after lib.sh: Debian's slurm-wlm, one slurmctld in
# its own namespace and one slurmd per node namespace, each node with its
# own hostname (a UTS namespace), NodeName and spool directory, all on one
# bridge in a namespace of the lab's own (10.231.NET.0/24). munged runs
# once, outside the namespaces, on a socket in the lab's folder (a file,
# which every network namespace shares). Every daemon is stopped by its
# own process id in slurm_down, the lab's EXIT trap.

SLURM_T=""
SLURM_PIDS=""

# slurm_name I: sn01, sn02, ... (Slurm compresses them to sn[01-04])
slurm_name() {
	printf 'sn%02d' "$1"
}

# slurm_ns I: node I's namespace.
slurm_ns() {
	eval "printf '%s' \"\$SLURM_NS_$1\""
}

# slurm_install: Debian's slurmctld, slurmd, slurm-client (srun, sbatch,
# sinfo, scontrol) and munge from apt where missing (make deps installs
# them too, mk/slurm.mk); skips the lab when apt cannot.
slurm_install() {
	_missing=""
	for _c in slurmctld slurmd srun sbatch sinfo scontrol munged; do
		command -v "$_c" >/dev/null 2>&1 || _missing=yes
	done
	[ -z "$_missing" ] && return 0
	echo "# installing slurmctld slurmd slurm-client munge (apt-get)"
	DEBIAN_FRONTEND=noninteractive timeout 240 apt-get install -y -qq \
		-o DPkg::Lock::Timeout=300 slurmctld slurmd slurm-client munge \
		>/dev/null 2>&1 ||
		lab_skip "Slurm and munge are not installed and apt-get" \
			"could not install them (make deps)"
	for _c in slurmctld slurmd srun sbatch sinfo scontrol munged; do
		command -v "$_c" >/dev/null 2>&1 ||
			lab_skip "no $_c after installing Slurm"
	done
}

# slurm_munge: a munged of the lab's own, as the munge user, on a socket
# under $SLURM_T; waits (bounded) until a credential round-trips.
slurm_munge() {
	_m="$SLURM_T/munge"
	mkdir -p "$_m"
	chown munge:munge "$_m" || lab_skip "no munge user (munge package)"
	# munged refuses a socket folder others cannot search
	chmod 755 "$_m"
	setpriv --reuid munge --regid munge --init-groups munged -F \
		-S "$_m/munge.sock" --pid-file "$_m/munged.pid" \
		--seed-file "$_m/munged.seed" >"$_m/munged.log" 2>&1 &
	SLURM_PIDS="$SLURM_PIDS $!"
	lab_wait 100 sh -c "munge -S '$_m/munge.sock' -n |
		unmunge -S '$_m/munge.sock'" || {
		cat "$_m/munged.log" 2>/dev/null | sed 's/^/    # /' | tail -5
		lab_skip "munged did not start (log above)"
	}
}

# SLURM_CG: shell text run in each node's mount namespace before slurmd.
# ip netns exec made a fresh /sys there, with nothing on /sys/fs/cgroup,
# and slurmd stops on "No filesystem mounted on /sys/fs/cgroup"; its
# cgroup/v2 plugin refuses a v1/v2 hybrid host ("Hybrid mode is not
# supported"). With cgroup/v1 (cgroup.conf), proctrack/linuxproc and
# task/none, an empty tmpfs there is all slurmd needs (srun and --mpi=pmix
# run): no controller is mounted, nothing of the host's hierarchies is
# touched, and a host of cgroup v2 alone is served the same. Then the node
# gets a /tmp of its own, as a real node has (srun --mpi=pmix makes
# /tmp/spmix_appdir_UID_JOB.STEP on every node: in one shared /tmp the
# second node's step fails with "File exists").
SLURM_CG='mount -t tmpfs np_cgroup /sys/fs/cgroup || exit 3'

# slurm_conf N NET: slurm.conf (and cgroup.conf) for nodes 1..N on
# 10.231.NET.0/24, the controller at .254.
slurm_conf() {
	_c="$SLURM_T/slurm.conf"
	cat >"$_c" <<EOF
ClusterName=np$LAB_ID
SlurmctldHost=ctl(10.231.$2.254)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SLURM_T/munge/munge.sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$SLURM_T/state
SlurmdSpoolDir=$SLURM_T/spool/%n
SlurmctldPidFile=$SLURM_T/slurmctld.pid
SlurmdPidFile=$SLURM_T/spool/%n/slurmd.pid
SlurmctldLogFile=$SLURM_T/log/slurmctld.log
SlurmdLogFile=$SLURM_T/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/linear
SchedulerType=sched/builtin
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SlurmdTimeout=60
MinJobAge=600
# 8 CPUs a node whatever the machine has, so README's
# srun --ntasks-per-node=8 runs as written
SlurmdParameters=config_overrides
EOF
	_i=1
	while [ "$_i" -le "$1" ]; do
		echo "NodeName=$(slurm_name "$_i") NodeAddr=10.231.$2.$_i CPUs=8 State=UNKNOWN" >>"$_c"
		_i=$((_i + 1))
	done
	echo "PartitionName=lab Nodes=ALL Default=YES MaxTime=INFINITE State=UP" >>"$_c"
	echo "CgroupPlugin=cgroup/v1" >"$SLURM_T/cgroup.conf"
}

# slurm_up N NET: the bridge, the controller and N nodes on
# 10.231.NET.0/24, each daemon started in its namespace; returns once
# sinfo shows every node idle (at most 60 s), else 1.
slurm_up() {
	_sn=$1 _snet=$2
	# not under /tmp: each node gets a /tmp of its own (below)
	SLURM_T=$(mktemp -d /var/tmp/np-slurm.XXXXXX)
	chmod 755 "$SLURM_T"
	mkdir -p "$SLURM_T/state" "$SLURM_T/log"
	slurm_munge
	slurm_conf "$@"
	export SLURM_CONF="$SLURM_T/slurm.conf"

	lab_ns SLURM_SW sw
	ip -n "$SLURM_SW" link add name br0 type bridge
	ip -n "$SLURM_SW" link set br0 up
	_hosts="127.0.0.1 localhost
10.231.$_snet.254 ctl"
	_i=1
	while [ "$_i" -le "$_sn" ]; do
		_hosts="$_hosts
10.231.$_snet.$_i $(slurm_name "$_i")"
		_i=$((_i + 1))
	done
	lab_ns SLURM_CTL ctl
	lab_veth "$SLURM_CTL" lan0 "$SLURM_SW" pctl
	ip -n "$SLURM_SW" link set pctl master br0
	ip -n "$SLURM_SW" link set pctl up
	ip -n "$SLURM_CTL" addr add "10.231.$_snet.254/24" dev lan0
	ip -n "$SLURM_CTL" link set lan0 up
	printf '%s\n' "$_hosts" | lab_hosts_stdin "$SLURM_CTL"
	_i=1
	while [ "$_i" -le "$_sn" ]; do
		_name=$(slurm_name "$_i")
		lab_ns _ns "$_name"
		eval "SLURM_NS_$_i=\$_ns"
		lab_veth "$_ns" lan0 "$SLURM_SW" "p$_i"
		ip -n "$SLURM_SW" link set "p$_i" master br0
		ip -n "$SLURM_SW" link set "p$_i" up
		ip -n "$_ns" addr add "10.231.$_snet.$_i/24" dev lan0
		ip -n "$_ns" link set lan0 up
		printf '%s\n' "$_hosts" | lab_hosts_stdin "$_ns"
		mkdir -p "$SLURM_T/spool/$_name" "$SLURM_T/tmp/$_name"
		chmod 1777 "$SLURM_T/tmp/$_name"
		_i=$((_i + 1))
	done

	ip netns exec "$SLURM_CTL" unshare --uts sh -c \
		'hostname ctl; exec slurmctld -D -f "$0"' "$SLURM_CONF" \
		>"$SLURM_T/log/slurmctld.out" 2>&1 &
	SLURM_PIDS="$SLURM_PIDS $!"
	_i=1
	while [ "$_i" -le "$_sn" ]; do
		_name=$(slurm_name "$_i")
		# shellcheck disable=SC2016 # expanded by the node's sh
		ip netns exec "$(slurm_ns "$_i")" unshare --uts sh -c \
			"hostname \"\$0\"; $SLURM_CG
mount --bind \"\$2\" /tmp || exit 3
exec slurmd -D -N \"\$0\" -f \"\$1\"" "$_name" "$SLURM_CONF" \
			"$SLURM_T/tmp/$_name" >"$SLURM_T/log/slurmd-$_name.out" 2>&1 &
		SLURM_PIDS="$SLURM_PIDS $!"
		_i=$((_i + 1))
	done
	lab_wait 600 slurm_all_idle "$_sn"
}

# slurm_ctl CMD...: CMD in the controller's namespace (srun, sbatch,
# sinfo and scontrol reach slurmctld there).
slurm_ctl() {
	ip netns exec "$SLURM_CTL" "$@"
}

# slurm_all_idle N: sinfo counts N nodes idle.
slurm_all_idle() {
	[ "$(slurm_ctl sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u |
		wc -l)" = "$1" ]
}

# slurm_node_state NAME: the node's state as sinfo prints it (idle,
# drain, ...), and its reason after a tab.
slurm_node_state() {
	slurm_ctl sinfo -h -N -n "$1" -o '%t	%E' 2>/dev/null | head -1
}

# slurm_logs: the daemons' logs, indented (on a failure).
slurm_logs() {
	for _f in "$SLURM_T"/log/*; do
		echo "    # --- $_f"
		tail -15 "$_f" | sed 's/^/    # /'
	done
}

# slurm_down: every daemon by its process id, then the namespaces and
# the folder (the EXIT trap).
slurm_down() {
	for _p in $SLURM_PIDS; do
		kill "$_p" 2>/dev/null
	done
	for _p in $SLURM_PIDS; do
		_t=50
		while [ "$_t" -gt 0 ] && kill -0 "$_p" 2>/dev/null; do
			sleep 0.1
			_t=$((_t - 1))
		done
		kill -9 "$_p" 2>/dev/null
	done
	SLURM_PIDS=""
	lab_cleanup
	[ -n "${KEEP:-}" ] || [ -z "$SLURM_T" ] || rm -rf "$SLURM_T"
}

# lab_hosts_stdin NS: /etc/hosts for NS from stdin.
lab_hosts_stdin() {
	mkdir -p "/etc/netns/$1"
	cat >"/etc/netns/$1/hosts"
}
