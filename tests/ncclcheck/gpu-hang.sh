#!/bin/bash
# A rank stopped (SIGSTOP, what a suspended or swapped-out node looks like)
# or killed (SIGKILL) at moments spread over the whole run, from the
# launcher's wire-up to the last exit, under mpirun and under torchrun.
# Every run must end by itself within -T plus the margin the man page
# states, counted from the moment rank 1 stopped; the survivor (rank 0)
# must say the phase and name rank 1 where a rank can be known. Nobody
# ends a run from outside: the outer `timeout` is only a safety net and
# counts as a failure. A stopped rank is continued (SIGCONT: the node comes
# back) once rank 0 has ended, so the launcher can end too.
#
#   NCCLCHECK=path/to/ncclcheck [TORCHRUN=.../torchrun] [OUT=dir]
#   [HANG_T=10] [HANG_MARGIN=8] [HANG_ARGS="-b 1M -e 1G -f 2 -n 50"]
#   [SERIES="mpi torchrun"] [GPUS_MPI=0,1] [GPUS_TR=2,3] [PARALLEL=1]
#   [MOMENTS_MPI="..."] [MOMENTS_TR="..."] [HANG_BUDGET=seconds]
#   bash tests/ncclcheck/gpu-hang.sh
#
# Without MOMENTS_*, a healthy run of each launcher is timed first (D: from
# the launch to rank 1's exit) and the moments are 0, 0.05, 0.3, 0.8, 1.2 s
# and 9 fractions of D from 0.45 to 0.99 D under mpirun (14), and 0 and 6
# fractions from 0.6 to 0.99 D under torchrun (7), whose agent takes most
# of the first seconds; then "gate" in both: the moment rank 0 prints the
# gate's verdict (rank 1 is in its teardown). Each moment is run twice,
# SIGSTOP then SIGKILL. PARALLEL=1 runs
# the two series at once on their own GPUs (4 GPUs). Writes $OUT/hang.md
# (the table) and $OUT/hang/ (every run's outputs). Exit status 0 when every
# run ended in time by itself, 1 otherwise.
set -u
BIN=${NCCLCHECK:-build/ncclcheck}
TORCHRUN=${TORCHRUN:-/opt/torch/.venv/bin/torchrun}
OUT=${OUT:-/tmp/ncclcheck-hang}
T=${HANG_T:-10}
M=${HANG_MARGIN:-8}
ARGS="${HANG_ARGS:--b 1M -e 1G -f 2 -n 50} -T ${T}s"
SERIES=${SERIES:-mpi torchrun}
GPUS_MPI=${GPUS_MPI:-0,1}
GPUS_TR=${GPUS_TR:-2,3}
PARALLEL=${PARALLEL:-1}
NET=$((T + M + 25)) # the safety net: never reached by a good run
BUDGET=${HANG_BUDGET:-100000}
START=$(date +%s)
DIR=$OUT/hang
mkdir -p "$DIR"
export NCCL_NVLS_ENABLE=0
export TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac

# libnccl.so.2 and libcudart.so.13 where the binary finds them
for lib in libnccl.so.2 libcudart.so.13; do
	ldd "$BIN" 2>/dev/null | grep -q "$lib => /" && continue
	p=$(ldconfig -p 2>/dev/null | awk -v l="$lib" '$1 == l {print $NF; exit}')
	[ -z "$p" ] && p=$(ls /usr/local/cuda/lib64/"$lib" 2>/dev/null | head -1)
	[ -n "$p" ] && export LD_LIBRARY_PATH=$(dirname "$p")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
done

# One rank: its pid, its output and its exit status (with the time) under
# $HANG_RUN, so the survivor's own end is known even when the launcher
# reports something else.
cat >"$DIR/wrap.sh" <<'EOF'
#!/bin/sh
r=${OMPI_COMM_WORLD_RANK:-${RANK:-0}}
"$@" >"$HANG_RUN/out.$r" 2>&1 &
c=$!
echo "$c" >"$HANG_RUN/pid.$r"
wait "$c"
rc=$?
echo "$rc $(date +%s%N)" >"$HANG_RUN/end.$r"
exit "$rc"
EOF

MPIRUN="mpirun --allow-run-as-root --oversubscribe --bind-to none --mca btl self,vader,tcp -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH -x HANG_RUN -x CUDA_VISIBLE_DEVICES"

# launch KIND: starts the launcher with two ranks in the background, its
# output in $HANG_RUN/launcher.out; sets LP.
launch() {
	if [ "$1" = mpi ]; then
		CUDA_VISIBLE_DEVICES=$GPUS_MPI timeout -k 2 "$NET" $MPIRUN -np 2 \
			sh "$DIR/wrap.sh" "$BIN" $ARGS >"$HANG_RUN/launcher.out" 2>&1 &
	else
		CUDA_VISIBLE_DEVICES=$GPUS_TR timeout -k 2 "$NET" "$TORCHRUN" \
			--nnodes 1 --nproc_per_node 2 \
			--master_port $((30000 + RANDOM % 20000)) --no_python \
			sh "$DIR/wrap.sh" "$BIN" $ARGS >"$HANG_RUN/launcher.out" 2>&1 &
	fi
	LP=$!
}

now_ns() { date +%s%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }

# healthy KIND: one undisturbed run; prints the seconds from the launch
# to rank 1's exit (the end of the moments), and to the launcher's.
healthy() {
	export HANG_RUN=$DIR/$1-healthy
	mkdir -p "$HANG_RUN"
	t0=$(now_ns)
	launch "$1"
	wait "$LP"
	rc=$?
	e1=$(cut -d' ' -f2 "$HANG_RUN/end.1" 2>/dev/null)
	echo "$rc $(secs "$t0" "${e1:-$t0}") $(secs "$t0" "$(now_ns)")" >"$HANG_RUN/result"
	cut -d' ' -f2,3 "$HANG_RUN/result"
	[ "$rc" = 0 ] && [ -n "$e1" ]
}

# The survivor's first line that says why it stopped (or the launcher's).
why() {
	m=$(grep -hE "collective-timeout|warning:|bootstrap:|pre-flight:|was lost|never connected|nccl-error|gate" \
		"$1/out.0" 2>/dev/null | grep -v "^#" | head -1)
	# mpirun: "Process name: [[15686,1],1]" and its "Exit code: 137"
	[ -z "$m" ] && grep -q "Process name:" "$1/launcher.out" 2>/dev/null &&
		m="launcher: first process to fail: $(grep -hE "Process name:|Exit code:|Signal:" \
			"$1/launcher.out" | head -2 | tr -s ' ' | tr '\n' ' ')"
	# torchrun: its "Root Cause" names the rank and the exit code
	[ -z "$m" ] && grep -q "Root Cause" "$1/launcher.out" 2>/dev/null &&
		m="launcher: root cause: $(sed -n '/Root Cause/,$p' "$1/launcher.out" |
			grep -E "^ *(rank|exitcode) *:" | head -2 | tr -s ' ' | tr '\n' ' ')"
	for pat in "noticed that process" "exited on signal|ChildFailedError" \
		"failed|killed"; do
		[ -n "$m" ] && break
		m=$(grep -hiE "$pat" "$1/launcher.out" 2>/dev/null | head -1 |
			sed 's/^/launcher: /')
	done
	echo "$m" | tr '|' '/' | cut -c1-330
}

# The phase the message names.
phase_of() {
	case $1 in
	*"warning: teardown"*) echo teardown ;;
	*"warning: result exchange"*) echo "result exchange" ;;
	*"collective-timeout: rank "*" during "*)
		echo "$1" | sed -E 's/.* during ([^(;,]+).*/\1/' | sed 's/ $//' ;;
	*"collective-timeout: "*)
		echo "$1" | sed -E 's/.*collective-timeout: ([^:;]+)(:| did not).*/\1/' |
			sed 's/ did not.*//' ;;
	*"bootstrap:"*) echo bootstrap ;;
	*"pre-flight:"*) echo pre-flight ;;
	*"gate: passed"*) echo "(ran to the end)" ;;
	launcher:*) echo "(launcher)" ;;
	*) echo "-" ;;
	esac
}

# one KIND SIG MOMENT: one run; appends a table row to $DIR/KIND.rows.
one() {
	kind=$1 sig=$2 at=$3
	export HANG_RUN=$DIR/$kind-$sig-$at
	rm -rf "$HANG_RUN"
	mkdir -p "$HANG_RUN"
	t0=$(now_ns)
	launch "$kind"
	# the moment, counted from the launch; "gate": as soon as rank 0 has
	# printed the gate's verdict (rank 1 is then in its teardown)
	target=$((t0 + $(awk -v a="$at" 'BEGIN { printf "%d", a * 1e9 }')))
	for _ in $(seq 1 20000); do
		if [ "$at" = gate ]; then
			grep -q "gate:" "$HANG_RUN/out.0" 2>/dev/null &&
				[ -s "$HANG_RUN/pid.1" ] && break
		else
			[ "$(now_ns)" -ge "$target" ] && [ -s "$HANG_RUN/pid.1" ] && break
		fi
		kill -0 "$LP" 2>/dev/null || break
		sleep 0.002
	done
	v=$(cat "$HANG_RUN/pid.1" 2>/dev/null)
	tf=$(now_ns)
	state=gone
	if [ -n "$v" ] && kill -0 "$v" 2>/dev/null; then
		kill -"$sig" "$v"
		state=$(awk '{print $3}' "/proc/$v/stat" 2>/dev/null)
		[ -z "$state" ] && state=gone
	fi
	# rank 0's end (its wrapper writes end.0; a wrapper the launcher
	# killed does not: then its pid vanishing is the end)
	p0=""
	for _ in $(seq 1 $((NET * 50))); do
		[ -z "$p0" ] && p0=$(cat "$HANG_RUN/pid.0" 2>/dev/null)
		[ -s "$HANG_RUN/end.0" ] && break
		[ -n "$p0" ] && ! kill -0 "$p0" 2>/dev/null && break
		kill -0 "$LP" 2>/dev/null || { [ -z "$p0" ] && break; }
		sleep 0.02
	done
	te=$(now_ns)
	[ -s "$HANG_RUN/end.0" ] && te=$(cut -d' ' -f2 "$HANG_RUN/end.0")
	rc0=$(cut -d' ' -f1 "$HANG_RUN/end.0" 2>/dev/null)
	[ -z "$rc0" ] && rc0="(launcher ended it)"
	[ "$sig" = STOP ] && [ -n "$v" ] && kill -CONT "$v" 2>/dev/null
	wait "$LP"
	lrc=$?
	tl=$(now_ns)
	m=$(why "$HANG_RUN")
	ph=$(phase_of "$m")
	after=$(secs "$tf" "$te")
	ok=ok
	# the safety net's timeout returns 124, or 137 when it had to kill;
	# a launcher may return 137 for a rank killed: tell them by the time
	if awk -v a="$(secs "$t0" "$tl")" -v n="$NET" 'BEGIN { exit !(a >= n - 0.5) }'; then
		ok="FAIL (safety net)"
	elif awk -v a="$after" -v l=$((T + M)) 'BEGIN { exit !(a > l) }'; then
		ok="FAIL (late)"
	fi
	[ -z "$p0" ] && ok="FAIL (rank 0 never started)"
	named=no
	case $m in
	launcher:*"],1]"* | launcher:*"rank : 1 "*) named="yes (launcher)" ;;
	*"rank 1 "* | *"ranks 1 "*) named=yes ;;
	*"no rank can be named"*) named="cannot (wire-up)" ;;
	esac
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
		"$kind" "$at" "$sig" "$state" "$ph" "$(secs "$t0" "$te")" \
		"$after" "$rc0" "$lrc" "$named $ok" "$m" >>"$DIR/$kind.rows"
	echo "$kind $sig at $at: $ok, rank 0 ended $after s after, rc $rc0, launcher $lrc: $m"
}

# series KIND MOMENTS...: SIGSTOP and SIGKILL at every moment; past
# HANG_BUDGET seconds of the whole script no new moment starts.
series() {
	kind=$1
	shift
	: >"$DIR/$kind.rows"
	for at in "$@"; do
		if [ $(($(date +%s) - START)) -gt "$BUDGET" ]; then
			echo "| $kind | $at | - | - | not run: HANG_BUDGET ${BUDGET} s spent | | | | | FAIL (not run) | |" >>"$DIR/$kind.rows"
			continue
		fi
		one "$kind" STOP "$at"
		one "$kind" KILL "$at"
	done
}

# the moments: fixed early ones, then fractions of a healthy run
moments() {
	d=$1
	shift
	early=$1
	shift
	for a in $early; do echo "$a"; done
	for f in "$@"; do awk -v d="$d" -v f="$f" 'BEGIN { printf "%.2f\n", d * f }'; done
}
# the moments in order, then "gate" (rank 1 in its teardown)
ordered() { sort -n | uniq; echo gate; }

{
	echo "# $(hostname), $(date -u +%FT%TZ), -T ${T}s, margin ${M} s, args: $ARGS"
	nvidia-smi -L
	mpirun --version 2>&1 | head -1
	"$(dirname "$TORCHRUN")/python3" -c 'import torch; print("torch", torch.__version__)' 2>&1
	ldd "$BIN" | grep -E 'nccl|mpi|cudart|not found'
} >"$DIR/env.txt" 2>&1

pids=""
for kind in $SERIES; do
	if ! hd=$(healthy "$kind"); then
		echo "$kind: the healthy run failed ($hd s):"
		cat "$DIR/$kind-healthy"/*.out* | tail -40
		exit 1
	fi
	d=${hd%% *}
	if [ "$kind" = mpi ]; then
		ms=${MOMENTS_MPI:-$(moments "$d" "0 0.05 0.3 0.8 1.2" 0.45 0.55 0.65 0.75 0.85 0.9 0.94 0.97 0.99 | ordered)}
	else
		ms=${MOMENTS_TR:-$(moments "$d" "0" 0.6 0.75 0.85 0.93 0.97 0.99 | ordered)}
	fi
	echo "$kind: healthy run: rank 1 exits at $d s, the launcher at ${hd#* } s; moments: $(echo $ms)"
	echo "$kind healthy: rank 1 exits at $d s, the launcher at ${hd#* } s" >>"$DIR/healthy.txt"
	if [ "$PARALLEL" = 1 ]; then
		series "$kind" $ms >"$DIR/$kind.log" 2>&1 &
		pids="$pids $!"
	else
		series "$kind" $ms | tee "$DIR/$kind.log"
	fi
done
for p in $pids; do wait "$p"; done
[ "$PARALLEL" = 1 ] && cat "$DIR"/*.log

{
	echo "-T ${T}s, margin ${M} s, \`$ARGS\`; $(cat "$DIR/healthy.txt" | tr '\n' ';')"
	echo
	echo "| launcher | moment (s) | signal | rank 1 state | phase named | rank 0 ended (s) | after the signal (s) | rank 0 status | launcher status | rank 1 named, in time | rank 0's message |"
	echo "|---|---:|---|---|---|---:|---:|---|---|---|---|"
	for kind in $SERIES; do cat "$DIR/$kind.rows"; done
} >"$OUT/hang.md"
cat "$OUT/hang.md"
! grep -q "FAIL" "$OUT/hang.md"
