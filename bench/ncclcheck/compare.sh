#!/bin/bash
# ncclcheck beside NVIDIA's nccl-tests on this host: the same call to
# both, alternating, REPS repetitions, for every collective both programs
# have and in both launch modes (mpirun -np N, one process driving -g N),
# then one table per mode and collective of the per-size ratios
# ncclcheck / nccl-tests of time and busbw (median over the repetitions).
#
#   NT_DIR=DIR [NCCLCHECK=build/ncclcheck] [N=2] [REPS=3] [OUT=DIR] \
#   [ARGS="-b 8 -e 512M -f 4 -w 5"] [ITERS="20 100"] [NC_ARGS=...] \
#   [COLLS="all_reduce ..."] [MODES="np g"] [LO=0.97] [HI=1.03] \
#   bash bench/ncclcheck/compare.sh
#
# ITERS: the -n values, each run in turn (20 is both programs' default);
# a table per mode, -n value and collective. NC_ARGS: extra options for
# ncclcheck alone (an A/B of one of its settings). Every table shows,
# per size, each launch's time ratio and who was faster in it ("c"
# ncclcheck, "t" nccl-tests, "=" within 0.5 %).
#
# AA=1 runs nccl-tests in ncclcheck's place (an A/A run: the same
# procedure, nccl-tests against itself), which measures the machine's own
# launch-to-launch spread: a band narrower than that spread cannot be
# shown by any program there (bench/ncclcheck/RESULTS.md).
#
# TABLE_ONLY=1 rebuilds $OUT/compare.md from an existing $OUT/rows.txt.
#
# Both programs run with the same launcher flags (MPIRUN: --bind-to none
# by default; G_PIN: a command put before each -g N run, such as
# "taskset -c 0,1", empty by default). On a VM the launch-to-launch spread
# of small-message latency is larger than any difference between the two
# programs (bench/ncclcheck/RESULTS.md): medians over REPS launches.
#
# NT_DIR holds nccl-tests' prebuilt *_perf binaries (built with MPI for
# the mpirun mode); this script builds nothing. Writes every run's output
# under $OUT/runs/, the rows under $OUT/rows.txt and the tables in
# $OUT/compare.md. Exit status: 0 when every median ratio lies within
# [LO, HI], 1 when one does not, 2 when a run failed or nothing ran.
set -u
TABLE_ONLY=${TABLE_ONLY:-0}
[ "$TABLE_ONLY" = 1 ] || NT_DIR=${NT_DIR:?set NT_DIR to the folder of nccl-tests binaries}
BIN=${NCCLCHECK:-build/ncclcheck}
N=${N:-2}
REPS=${REPS:-3}
OUT=${OUT:-/tmp/nc-compare}
ARGS=${ARGS:--b 8 -e 512M -f 4 -w 5}
ITERS=${ITERS:-20 100}
NC_ARGS=${NC_ARGS-}
AA=${AA:-0}
COLLS=${COLLS:-all_reduce all_gather reduce_scatter alltoall broadcast sendrecv}
MODES=${MODES:-np g}
LO=${LO:-0.97}
HI=${HI:-1.03}
MPIRUN=${MPIRUN:-mpirun --allow-run-as-root --bind-to none --mca btl self,vader,tcp -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH}
G_PIN=${G_PIN-}
export NCCL_NVLS_ENABLE=0 # NVLink multicast stays off on shared machines

# libnccl.so.2 and libcudart.so.13 where both programs find them
[ "$TABLE_ONLY" = 1 ] || for lib in libnccl.so.2 libcudart.so.13; do
	ldd "$BIN" "$NT_DIR/all_reduce_perf" 2>/dev/null |
		grep -q "$lib => /" && continue
	p=$(ls /usr/local/cuda/lib64/"$lib" \
		/usr/local/cuda/targets/*/lib/"$lib" 2>/dev/null | head -1)
	[ -n "$p" ] && export LD_LIBRARY_PATH=$(dirname "$p")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
done

mkdir -p "$OUT/runs"
[ "$TABLE_ONLY" = 1 ] || {
	date -u +%FT%TZ
	nproc
	lscpu | grep -E "Model name|NUMA|Socket|Thread|Core"
	nvidia-smi topo -m
} >"$OUT/env.txt" 2>&1
ROWS=$OUT/rows.txt
[ "$TABLE_ONLY" = 1 ] || : >"$ROWS"
FAILED=0

# rows PROG MODE COLL REP LOG: the table rows of one run's output as
# "mode coll rep prog size t_oop bw_oop t_ip bw_ip" (N/A kept).
rows() {
	awk -v p="$1" -v m="$2" -v c="$3" -v r="$4" '
		$1 ~ /^[0-9]+$/ && $1 > 0 && NF >= 13 {
			print m, c, r, p, $1, $6, $8, $10, $12
		}' "$5" >>"$ROWS"
}

# one PROG MODE COLL REP ITERS: runs one program once and keeps its rows
# (the mode recorded as MODE/nITERS).
one() {
	prog=$1 mode=$2 coll=$3 rep=$4 iters=$5
	log=$OUT/runs/$mode.n$iters.$coll.$rep.$prog.log
	if [ "$prog" = nt ] || [ "$AA" = 1 ]; then
		cmd="$NT_DIR/${coll}_perf $ARGS -n $iters"
	else
		cmd="$BIN -C $coll $ARGS -n $iters $NC_ARGS"
	fi
	if [ "$mode" = np ]; then
		cmd="$MPIRUN -np $N $cmd"
	else
		cmd="$G_PIN $cmd -g $N"
	fi
	echo "\$ $cmd" >"$log"
	timeout -k 5 300 $cmd >>"$log" 2>&1
	rc=$?
	if [ "$rc" != 0 ]; then
		echo "compare: exit $rc: $cmd (see $log)" >&2
		FAILED=1
	fi
	rows "$prog" "$mode/n$iters" "$coll" "$rep" "$log"
}

[ "$TABLE_ONLY" = 1 ] && REPS=0
for rep in $(seq 1 "$REPS"); do
	for coll in $COLLS; do
		[ -x "$NT_DIR/${coll}_perf" ] || {
			echo "compare: no $NT_DIR/${coll}_perf" >&2
			exit 2
		}
		for mode in $MODES; do
			for it in $ITERS; do
				# alternate who goes first, so drift favours
				# neither
				if [ $((rep % 2)) = 1 ]; then
					one nt "$mode" "$coll" "$rep" "$it"
					one nc "$mode" "$coll" "$rep" "$it"
				else
					one nc "$mode" "$coll" "$rep" "$it"
					one nt "$mode" "$coll" "$rep" "$it"
				fi
			done
		done
	done
done

# The tables: per mode, collective and size, the median over repetitions
# of each program's time and busbw and of the ratios nc/nt (time) and
# nc/nt (busbw); in-place columns where both programs ran in place. A
# busbw printed as 0.00 carries no digits: its ratio is nt/nc of time
# (the bytes are the same), marked *.
awk -v lo="$LO" -v hi="$HI" -v args="$ARGS" -v n="$N" -v aa="$AA" '
function med(s,    a, k, i, j, t) {
	k = split(s, a, " ")
	for (i = 2; i <= k; i++)
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return k == 0 ? "" : (k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2)
}
function add(key, v) { vals[key] = (key in vals ? vals[key] " " : "") v }
{
	m = $1; c = $2; r = $3; p = $4; s = $5
	k = m SUBSEP c SUBSEP s
	if (!(k in seen)) { seen[k] = 1; order[++no] = k }
	if (!((m SUBSEP c) in mc)) { mc[m SUBSEP c] = 1; mcs[++nmc] = m SUBSEP c }
	t[p, k, r, "o"] = $6; b[p, k, r, "o"] = $7
	t[p, k, r, "i"] = $8; b[p, k, r, "i"] = $9
	reps[r] = 1
	if (r + 0 > nrep) nrep = r + 0
}
END {
	bad = 0; total = 0
	printf "# %s / nccl-tests, %d GPUs, %s, median of the repetitions\n\n", aa == 1 ? "nccl-tests (A/A: nccl-tests in the nc columns)" : "ncclcheck", n, args
	printf "per launch: out-of-place time ratio of each launch, c: ncclcheck faster, t: nccl-tests faster, =: within 0.5 %%\n"
	for (q = 1; q <= nmc; q++) {
		split(mcs[q], x, SUBSEP)
		split(x[1], mn, "/")
		printf "\n## %s, %s, -n %s\n\n", x[2], mn[1] == "np" ? "mpirun -np " n : "one process, -g " n, substr(mn[2], 2)
		printf "| size B | nt us | nc us | time ratio | nt busbw | nc busbw | busbw ratio | in-place time ratio | in-place busbw ratio | per launch |\n"
		printf "|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---|\n"
		for (o = 1; o <= no; o++) {
			split(order[o], y, SUBSEP)
			if (y[1] != x[1] || y[2] != x[2]) continue
			k = order[o]
			delete vals
			per = ""
			for (r = 1; r <= nrep; r++) {
				if (!(r in reps) || !(("nt", k, r, "o") in t) || !(("nc", k, r, "o") in t)) continue
				a1 = t["nt", k, r, "o"]; a2 = t["nc", k, r, "o"]
				if (a1 == "N/A" || a2 == "N/A" || a1 + 0 <= 0) continue
				lr = a2 / a1
				per = per (per == "" ? "" : " ") sprintf("%.2f%s", lr, lr < 0.995 ? "c" : lr > 1.005 ? "t" : "=")
			}
			for (r in reps) for (pl = 1; pl <= 2; pl++) {
				w = pl == 1 ? "o" : "i"
				if (!(("nt", k, r, w) in t) || !(("nc", k, r, w) in t)) continue
				a1 = t["nt", k, r, w]; a2 = t["nc", k, r, w]
				if (a1 == "N/A" || a2 == "N/A" || a1 + 0 <= 0) continue
				add(w "tr", a2 / a1)
				add(w "nt", a1); add(w "nc", a2)
				b1 = b["nt", k, r, w]; b2 = b["nc", k, r, w]
				add(w "bn", b1); add(w "bc", b2)
				if (b1 + 0 >= 1 && b2 + 0 >= 1) add(w "br", b2 / b1)
				else { add(w "br", a1 / a2); star[w] = 1 }
			}
			line = sprintf("| %s | %s | %s | %s | %s | %s | %s%s |", y[3], med(vals["ont"]),
			    med(vals["onc"]), fmt(med(vals["otr"])), med(vals["obn"]),
			    med(vals["obc"]), fmt(med(vals["obr"])), star["o"] ? "*" : "")
			line = line sprintf(" %s | %s%s | %s |", ("itr" in vals) ? fmt(med(vals["itr"])) : "-",
			    ("ibr" in vals) ? fmt(med(vals["ibr"])) : "-", star["i"] ? "*" : "", per)
			delete star
			print line
			split("otr obr itr ibr", ks, " ")
			for (z = 1; z <= 4; z++) if (ks[z] in vals) {
				v = med(vals[ks[z]]); total++
				if (v < lo || v > hi) { bad++; outside = outside " " x[2] "/" x[1] "/" y[3] "/" ks[z] "=" fmt(v) }
			}
		}
	}
	printf "\n%d ratios, %d outside [%s, %s]%s\n", total, bad, lo, hi, bad ? ":" outside : ""
	exit bad ? 1 : 0
}
function fmt(v) { return v == "" ? "-" : sprintf("%.3f", v) }
' "$ROWS" >"$OUT/compare.md"
verdict=$?
cat "$OUT/compare.md"
[ -s "$ROWS" ] || exit 2
[ "$FAILED" = 1 ] && exit 2
exit $verdict
