# Helpers of the end-to-end suite (sourced by tests/e2e/s_*.sh after
# setting E2E_NAME). A scenario builds nodes (each a network namespace
# with a hostname of its own, in a UTS namespace, and an /etc/hosts of its
# own), runs the real frameworks across them (torch's Gloo backend and
# Open MPI over TCP), runs netprobe on every node and `netprobe report`
# over the documents, applies what they recommend, runs the frameworks
# again, and writes one row: what the frameworks did, what netprobe said,
# what the frameworks did after the fix, and whether they agree.
# The namespace rules are tests/lab/lib.sh's, which this file sources.
. "$(dirname "$0")/../lab/lib.sh"
. "$(dirname "$0")/../lab/closedloop.sh"

E2E_SRC=$(cd "$(dirname "$0")" && pwd)
E2E_TOP=$(cd "$E2E_SRC/../.." && pwd)
: "${E2E_NAME:?E2E_NAME is not set}"
: "${E2E_BUILD:=$E2E_TOP/build/e2e}"
E2E_OUT=$E2E_BUILD/$E2E_NAME
# torch's timeout for init_process_group and every collective, seconds;
# each framework run is cut E2E_CUT seconds after it starts.
: "${E2E_T:=15}"
: "${E2E_CUT:=$((E2E_T + 10))}"
E2E_MPI=$E2E_BUILD/mpi_allreduce
E2E_PY=/usr/bin/python3
E2E_NODES=$E2E_OUT/nodes
export E2E_NODES
E2E_RANKS=""
E2E_MASTER=""
E2E_PORT=29500
E2E_FIXES=""
E2E_SERVE_PIDS=""

case $NETPROBE in
/*) ;;
*) NETPROBE=$(command -v "$NETPROBE") ;;
esac

# e2e_require: skips (77) unless root, namespaces, nft, jq, torch with
# Gloo, mpirun and the suite's MPI program are here.
e2e_require() {
	lab_require nft jq unshare mpirun timeout
	"$E2E_PY" -c 'import torch.distributed as d; assert d.is_available()' \
		2>/dev/null || lab_skip "no torch with distributed in $E2E_PY"
	[ -x "$E2E_MPI" ] || lab_skip "no $E2E_MPI (make e2e builds it)"
	[ -x "$NETPROBE" ] || lab_skip "no netprobe at '$NETPROBE'"
	rm -rf "$E2E_OUT"
	mkdir -p "$E2E_OUT" || exit 2
	: >"$E2E_NODES"
}

# e2e_node VAR SHORT HOSTNAME: a node: namespace np<id>-SHORT (in VAR)
# whose processes see HOSTNAME as their hostname, with an empty job
# environment file ($E2E_OUT/env.NS).
e2e_node() {
	lab_ns "$1" "$2"
	eval "_n=\$$1"
	echo "$_n $3" >>"$E2E_NODES"
	: >"$E2E_OUT/env.$_n"
}

# e2e_hn NS: the hostname of node NS.
e2e_hn() {
	awk -v n="$1" '$1 == n { print $2; exit }' "$E2E_NODES"
}

# e2e_env NS LINE...: adds lines to node NS's job environment, what its
# job script exports before it starts the framework (sourced by every
# command e2e_on runs there).
e2e_env() {
	_ns=$1
	shift
	printf '%s\n' "$@" >>"$E2E_OUT/env.$_ns"
}

# e2e_on NS CMD...: runs CMD on node NS: in its namespace, under its
# hostname, with its job environment.
e2e_on() {
	_ns=$1
	shift
	env E2E_ENVF="$E2E_OUT/env.$_ns" ip netns exec "$_ns" unshare --uts \
		sh -c 'hostname "$0"; . "$E2E_ENVF"; exec "$@"' \
		"$(e2e_hn "$_ns")" "$@"
}

# e2e_cut SECONDS NS CMD...: e2e_on, cut (TERM, then KILL 3 s later)
# SECONDS after it starts.
e2e_cut() {
	_s=$1
	_ns=$2
	shift 2
	timeout -k 3 "$_s" env E2E_ENVF="$E2E_OUT/env.$_ns" \
		ip netns exec "$_ns" unshare --uts \
		sh -c 'hostname "$0"; . "$E2E_ENVF"; exec "$@"' \
		"$(e2e_hn "$_ns")" "$@"
}

# e2e_lan SW BR NET: a bridge BR in switch namespace SW for the /24 NET
# (10.231.N), the switch itself at NET.254.
e2e_lan() {
	ip -n "$1" link add name "$2" type bridge
	ip -n "$1" addr add "$3.254/24" dev "$2"
	ip -n "$1" link set "$2" up
}

# e2e_plug NS IF SW BR ADDR/LEN: NS's interface IF on bridge BR of SW,
# waited for (bounded) until IF is up and running and the switch forwards
# on its port, so that no framework or probe starts on a link that does
# not pass traffic yet.
e2e_plug() {
	_p="p$(printf '%s' "$1$2" | cksum | cut -c1-7)"
	lab_veth "$1" "$2" "$3" "$_p"
	ip -n "$3" link set "$_p" master "$4"
	ip -n "$3" link set "$_p" up
	ip -n "$1" addr add "$5" dev "$2"
	ip -n "$1" link set "$2" up
	lab_wait 50 sh -c "ip -n $1 -o link show dev $2 | grep -q 'state UP' &&
		ip -n $3 -d -o link show dev $_p | grep -q 'state forwarding'" ||
		echo "#   $2 on $1 is not up and forwarding after 5 s"
}

# e2e_ranks MASTER_ADDR NS...: the job: one rank per node, rank 0 first,
# rendezvous at MASTER_ADDR:29500 (set in every node's job environment).
e2e_ranks() {
	E2E_MASTER=$1
	shift
	E2E_RANKS="$*"
	for _ns in "$@"; do
		e2e_env "$_ns" "export MASTER_ADDR=$E2E_MASTER" \
			"export MASTER_PORT=$E2E_PORT"
	done
}

# e2e_reap: kills what a framework run left in the nodes (by pid, only
# the frameworks' own processes; the responders stay).
e2e_reap() {
	for _ns in $LAB_NS; do
		for _p in $(ip netns pids "$_ns" 2>/dev/null); do
			case $(cat "/proc/$_p/comm" 2>/dev/null) in
			python3 | mpirun | orted | mpi_allreduce | timeout)
				kill -9 "$_p" 2>/dev/null ;;
			esac
		done
	done
}

# e2e_outcome LOG RC OK_LINE WHO: one line for a rank or a run: "ok", the
# framework's own error text, or the hang cut by the timeout with the last
# step that ended.
e2e_outcome() {
	if [ "$2" = 0 ] && grep -q "$3" "$1"; then
		echo ok
		return
	fi
	_err=$(grep -m1 -E '^(\[[ 0-9.]+ s\] )?(gloo|nccl|mpi): error' "$1" |
		sed -E 's/^\[[ 0-9.]+ s\] //; s/^(gloo|nccl|mpi): //')
	_last=$(grep 'step ok:' "$1" | tail -n 1 | sed 's/.*step ok: //')
	_in=$(grep 'step: ' "$1" | tail -n 1 | sed 's/.*step: //')
	if [ "$2" = 124 ] || [ "$2" = 137 ]; then
		echo "$4: hang in '${_in:-launch}', cut at ${E2E_CUT} s"
	elif [ -n "$_err" ]; then
		echo "$4: $_err"
	else
		_err=$(grep -v -E '^\[[ 0-9.]+ s\]|^ *$|^-----' "$1" |
			grep -m1 -iE 'error|fail|refused|unreach|timed out|abort|unable' |
			sed 's/^ *//')
		echo "$4: exit $2 in '${_in:-launch}': ${_err:-no message}"
	fi
}

# e2e_gloo_start PHASE: starts the Gloo job, one rank per node of the job,
# all at once; their pids go to GLOO_PIDS. The job cuts its own hangs
# E2E_CUT seconds after its import; timeout(1) only backs that up.
e2e_gloo_start() {
	_r=0
	GLOO_PIDS=""
	_n=$(echo $E2E_RANKS | wc -w)
	for _ns in $E2E_RANKS; do
		e2e_cut $((E2E_CUT + 60)) "$_ns" env RANK=$_r WORLD_SIZE=$_n \
			E2E_TIMEOUT="$E2E_T" E2E_CUT="$E2E_CUT" \
			"$E2E_PY" -u "$E2E_SRC/torch_job.py" \
			>"$E2E_OUT/gloo.$1.$_r.log" 2>&1 &
		GLOO_PIDS="$GLOO_PIDS $!"
		_r=$((_r + 1))
	done
}

# e2e_gloo_wait PHASE: waits for the ranks; RES_GLOO says what happened
# ("ok" or the first failure).
e2e_gloo_wait() {
	_r=0
	RES_GLOO=""
	for _p in $GLOO_PIDS; do
		wait "$_p"
		_o=$(e2e_outcome "$E2E_OUT/gloo.$1.$_r.log" $? \
			'gloo: ok' "rank $_r")
		echo "#   gloo $1 rank $_r: $_o"
		# the framework's own error says more than another rank's hang
		case $_o in
		ok) ;;
		*": hang in "*) [ -n "$RES_GLOO" ] || RES_GLOO=$_o ;;
		*) case $RES_GLOO in "" | *": hang in "*) RES_GLOO=$_o ;; esac ;;
		esac
		_r=$((_r + 1))
	done
	: "${RES_GLOO:=ok}"
}

# e2e_mpi_start PHASE: starts mpirun on rank 0's node, one rank per node
# of the job, the remote ones through tests/e2e/nsrsh, TCP BTL only; its
# pid goes to MPI_PID.
e2e_mpi_start() {
	_ph=$1
	_n=$(echo $E2E_RANKS | wc -w)
	: >"$E2E_OUT/hostfile"
	for _ns in $E2E_RANKS; do
		echo "$(e2e_hn "$_ns") slots=1" >>"$E2E_OUT/hostfile"
	done
	set -- $E2E_RANKS
	e2e_cut "$E2E_CUT" "$1" mpirun --allow-run-as-root \
		-np "$_n" --hostfile "$E2E_OUT/hostfile" --map-by node \
		--mca plm_rsh_agent "$E2E_SRC/nsrsh" \
		--mca pml ob1 --mca btl tcp,self \
		"$E2E_MPI" >"$E2E_OUT/mpi.$_ph.log" 2>&1 &
	MPI_PID=$!
}

# e2e_mpi_wait PHASE: waits for mpirun; RES_MPI says what happened.
e2e_mpi_wait() {
	wait "$MPI_PID"
	RES_MPI=$(e2e_outcome "$E2E_OUT/mpi.$1.log" $? '^mpi: ok' mpi)
	echo "#   mpi $1: $RES_MPI"
}

# e2e_frameworks PHASE: both frameworks at once (they share no port);
# FW_<PHASE> is one cell of the table, FAIL_<PHASE> says whether either
# failed, GLOO_<PHASE> and MPI_<PHASE> what each did.
e2e_frameworks() {
	e2e_gloo_start "$1"
	e2e_mpi_start "$1"
	e2e_gloo_wait "$1"
	e2e_mpi_wait "$1"
	e2e_reap
	_cell="gloo: $(e2e_short "$RES_GLOO"); mpi: $(e2e_short "$RES_MPI")"
	_f=0
	[ "$RES_GLOO" = ok ] && [ "$RES_MPI" = ok ] || _f=1
	eval "FW_$1=\$_cell FAIL_$1=\$_f GLOO_$1=\$RES_GLOO MPI_$1=\$RES_MPI"
}

# e2e_short TEXT: TEXT cut to 110 characters for a table cell.
e2e_short() {
	printf '%s' "$1" | tr '|' '/' | cut -c1-110
}

# e2e_serve NS...: a responder on each node, waited for (bounded).
e2e_serve() {
	for _ns in "$@"; do
		e2e_on "$_ns" timeout 600 "$NETPROBE" serve \
			>"$E2E_OUT/serve.$_ns.log" 2>&1 &
		E2E_SERVE_PIDS="$E2E_SERVE_PIDS $!"
		lab_wait 50 sh -c "ip netns exec $_ns ss -Hlnt 'sport = :7470' |
			grep -q ." || echo "#   responder on $_ns did not start"
	done
}

# e2e_scan NS PEER...: `netprobe scan --json --peer PEER...` on node NS,
# its document kept as scan.<hostname>.json for the report and its exit
# status as scan.<hostname>.rc, in E2E_SCANDIR ($E2E_OUT unless set).
e2e_scan() {
	_ns=$1
	shift
	_a=""
	for _p in "$@"; do
		_a="$_a --peer $_p"
	done
	_h=$(e2e_hn "$_ns")
	_sd=${E2E_SCANDIR:-$E2E_OUT}
	e2e_on "$_ns" timeout 60 "$NETPROBE" scan --json $_a \
		>"$_sd/scan.$_h.json" 2>"$_sd/scan.$_h.err"
	_rc=$?
	echo "$_rc" >"$_sd/scan.$_h.rc"
	echo "#   scan on $_h (exit $_rc): $(jq -r '[.findings[] |
		"\(.code)/\(.severity)"] | join(" ")' "$_sd/scan.$_h.json")"
}

# e2e_scans NS=PEER[,PEER]...: e2e_scan on every node named, all at once
# (each node's operator runs its own); the peers are kept for the export.
e2e_scans() {
	_pids=""
	for _spec in "$@"; do
		_ns=${_spec%%=*}
		_peers=$(echo "${_spec#*=}" | tr ',' ' ')
		[ -n "${E2E_SCANDIR:-}" ] ||
			echo "$_ns $_peers" >>"$E2E_OUT/scans"
		# shellcheck disable=SC2086 # one word per peer
		e2e_scan "$_ns" $_peers &
		_pids="$_pids $!"
	done
	for _p in $_pids; do
		wait "$_p"
	done
}

# e2e_report: `netprobe report` over every scan; VERDICT is the table
# cell (fault codes by node, or the verdict word), FAULT whether the
# report found a fault.
e2e_report() {
	mkdir -p "$E2E_OUT/docs"
	cp "$E2E_OUT"/scan.*.json "$E2E_OUT/docs/"
	timeout 60 "$NETPROBE" report "$E2E_OUT/docs" \
		>"$E2E_OUT/report.txt" 2>&1
	timeout 60 "$NETPROBE" report --format json "$E2E_OUT/docs" \
		>"$E2E_OUT/report.json" 2>/dev/null
	_codes=$(jq -r '[.findings[] | select(.severity == "fault") |
		"\(.code)@\(.node)"] | unique | join(", ")' "$E2E_OUT/report.json")
	FAULT=0
	if [ -n "$_codes" ]; then
		FAULT=1
		VERDICT="fault: $_codes"
	else
		VERDICT="no fault ($(jq -r '.verdict | if type == "object"
			then .status // .word // tostring else . end' \
			"$E2E_OUT/report.json"))"
	fi
	_errs=$(cat "$E2E_OUT"/scan.*.json | jq -s '[.[].errors[]?] | length')
	[ "$_errs" = 0 ] || VERDICT="$VERDICT; $_errs scan errors"
	echo "#   report: $VERDICT"
}

# cl_ns HOSTNAME: the namespace of the node the report calls HOSTNAME
# (the closed loop's name for a node).
cl_ns() {
	awk -v h="$1" '$2 == h { print $1; exit }' "$E2E_NODES"
}

# e2e_master_move: the printed MASTER_ADDR names rank 0's node; where it
# is another node of the job's address, rank 0 moves there (the job's
# settings say where rank 0 runs, as a launcher's would).
e2e_master_move() {
	_m=$(jq -r '[.recommendation.settings[]? | select(.name ==
		"MASTER_ADDR" and .node == null and .disputed != true) |
		.value][0] // empty' "$E2E_OUT/report.json")
	[ -n "$_m" ] && [ "$_m" != "$E2E_MASTER" ] || return 0
	_h=$(jq -r --arg a "$_m" '[.recommendation.interface.per_node[]? |
		select(.address == $a) | .node][0] // empty' \
		"$E2E_OUT/report.json")
	_to=$(cl_ns "$_h")
	case " $E2E_RANKS " in *" $_to "*) ;; *) return 0 ;; esac
	_r=$_to
	for _ns in $E2E_RANKS; do
		[ "$_ns" = "$_to" ] || _r="$_r $_ns"
	done
	echo "#   MASTER_ADDR printed as $_m: rank 0 moves to $_h"
	E2E_RANKS=$_r
	E2E_MASTER=$_m
}

# e2e_fix_all: netprobe's printed fixes, through the closed loop
# (tests/lab/closedloop.sh): every command of the report's root causes
# runs verbatim on the node it names (E2E_FAULTY, hostnames: the nodes
# the scenario's ground truth lets a fix touch; E2E_NOCMD, cause ids:
# those it says have no command fix), and every node of the job sources
# the settings the report prints for it, values exactly as printed
# (cl_env; the job's own exports come first, so these win). Then every
# node scans again, with the same peers and those settings, and the
# report over the new scans must hold no fault or warning and every scan
# exit 0; with NOFIX (a NAT), the same causes and nothing new. The
# frameworks' run after uses this state.
e2e_fix_all() {
	_l0=$LAB_FAIL
	# shellcheck disable=SC2086 # one word per node
	CL_NOCMD=${E2E_NOCMD:-} cl_apply "$E2E_OUT/report.json" ${E2E_FAULTY:-}
	for _h in $(cl_fixes "$E2E_OUT/report.json" | cut -f1 | sort -u); do
		E2E_FIXES="$E2E_FIXES fix@$_h"
	done
	for _ns in $E2E_RANKS; do
		_h=$(e2e_hn "$_ns")
		cl_env "$E2E_OUT/report.json" "$_h" >"$E2E_OUT/settings.$_ns"
		echo "#   settings printed for $_h: $(tr '\n' ' ' \
			<"$E2E_OUT/settings.$_ns")"
		[ -s "$E2E_OUT/settings.$_ns" ] || continue
		echo "# the settings netprobe report printed for $_h" \
			>>"$E2E_OUT/env.$_ns"
		cat "$E2E_OUT/settings.$_ns" >>"$E2E_OUT/env.$_ns"
		E2E_FIXES="$E2E_FIXES env@$_h"
	done
	e2e_master_move
	mkdir -p "$E2E_OUT/after/docs"
	_pids=""
	while read -r _ns _peers; do
		# shellcheck disable=SC2086 # one word per peer
		E2E_SCANDIR=$E2E_OUT/after e2e_scan "$_ns" $_peers &
		_pids="$_pids $!"
	done <"$E2E_OUT/scans"
	for _p in $_pids; do
		wait "$_p"
	done
	cp "$E2E_OUT"/after/scan.*.json "$E2E_OUT/after/docs/"
	timeout 60 "$NETPROBE" report --format json "$E2E_OUT/after/docs" \
		>"$E2E_OUT/after/report.json" 2>/dev/null
	if [ "${1:-0}" = 1 ]; then
		cl_same "$E2E_OUT/report.json" "$E2E_OUT/after/report.json" \
			"$E2E_NAME: re-scan"
	else
		cl_clean "$E2E_OUT/after/report.json" "$E2E_OUT/after" \
			"$E2E_NAME: re-scan"
	fi
	E2E_LOOP=ok
	[ "$LAB_FAIL" = "$_l0" ] || E2E_LOOP="the printed fixes did not close the loop"
}

# e2e_row WHAT NOFIX: judges the scenario and writes its row. NOFIX is 1
# when the report says no setting can make it work (NAT). Agreement: a
# fault reported exactly when a framework failed; nothing that worked
# before netprobe's advice fails after it; after the fix everything works,
# or, with NOFIX, what failed fails again.
e2e_row() {
	_why=""
	if [ "$FAULT" != "$FAIL_before" ]; then
		_why="netprobe fault=$FAULT but framework failed=$FAIL_before"
	fi
	for _fw in GLOO MPI; do
		eval "_b=\$${_fw}_before _a=\$${_fw}_after"
		if [ "$_b" = ok ] && [ "$_a" != ok ]; then
			_why="${_why:+$_why; }$_fw worked before netprobe's advice, fails after it"
		elif [ "$_b" != ok ] && [ "$_a" = ok ] && [ "$2" = 1 ]; then
			_why="${_why:+$_why; }no fix was possible, yet $_fw worked after"
		elif [ "$_a" != ok ] && [ "$2" != 1 ]; then
			_why="${_why:+$_why; }$_fw still fails after netprobe's fix"
		fi
	done
	[ "${E2E_LOOP:-ok}" = ok ] || _why="${_why:+$_why; }$E2E_LOOP"
	AGREES=yes
	[ -z "$_why" ] || AGREES="NO: $_why"
	_fx=$(echo $E2E_FIXES | tr ' ' '\n' | sort -u | tr '\n' ' ')
	if [ "$2" = 1 ]; then
		_nofix=$(jq -r '[.recommendation.blocked[]? | .node] |
			unique | join(", ")' "$E2E_OUT/report.json")
		_fx="no fix possible on ${_nofix:-?} $_fx"
	fi
	printf '| %s | %s | %s | %s | %s |\n' "$E2E_NAME" "$FW_before" \
		"$(e2e_short "$VERDICT")" "${_fx:+[$_fx] }$FW_after" \
		"$AGREES" >"$E2E_OUT/row.md"
	{
		echo "### $E2E_NAME"
		echo
		echo "$1"
		echo
		for _ph in before after; do
			eval "_g=\$GLOO_$_ph _m=\$MPI_$_ph"
			echo "- gloo $_ph: $_g"
			echo "- mpi $_ph: $_m"
		done
		echo "- netprobe: $VERDICT"
		echo "- applied: ${_fx:-nothing}"
		echo "- agrees: $AGREES"
		echo
	} >"$E2E_OUT/detail.md"
	lab_check "$E2E_NAME: netprobe and the frameworks agree" \
		test "$AGREES" = yes
}
