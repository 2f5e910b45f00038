#!/bin/sh
# bench/fuzz: long libFuzzer runs of binaries built elsewhere (`make
# fuzz-more-build` makes build/fuzz_*; issue 45). Builds nothing. Every
# BINDIR/fuzz_NAME runs SECONDS (default 600) at once, one process each,
# from its seeds (tests/fuzz/corpus-NAME, fuzz_proto's tests/fuzz/corpus,
# explain's also tests/explain, as mk/fuzz.mk names them) into a corpus
# of its own under WORKDIR, each bounded by timeout(1) at SECONDS + 120.
# As root, each runs in a network namespace of its own (unshare -n, lo
# brought up), since fuzz_serve's requests open real sockets. Writes one
# line a target to RESULTS (default WORKDIR/results.txt): executions,
# executions a second, coverage at the start and the end (edges), features,
# corpus size, peak RSS, the inputs saved as crashes, leaks, timeouts or
# out-of-memory, and the exit status (0 clean). Exit status 0 when every
# target ran clean, 1 otherwise, 2 on bad usage.
# Usage: longrun.sh [-t SECONDS] [-o RESULTS] [-w WORKDIR] BINDIR
usage() {
	echo "usage: longrun.sh [-t SECONDS] [-o RESULTS] [-w WORKDIR] BINDIR" >&2
	exit 2
}
secs=600 res='' work=''
while getopts t:o:w: opt; do
	case $opt in
	t) secs=$OPTARG ;;
	o) res=$OPTARG ;;
	w) work=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	usage
fi
case $secs in '' | *[!0-9]*) usage ;; esac
[ "$secs" -ge 1 ] || usage
bindir=$(cd "$1" && pwd) || exit 2
top=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
[ -n "$work" ] || work=$(mktemp -d /tmp/np-fuzz-longrun.XXXXXX) || exit 2
mkdir -p "$work" || exit 2
work=$(cd "$work" && pwd)
[ -n "$res" ] || res=$work/results.txt
netns=no
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null &&
	unshare -n true 2>/dev/null; then
	netns=yes
fi

# seeds NAME: the folders a target starts from
seeds() {
	case $1 in
	proto) echo "$top/tests/fuzz/corpus" ;;
	explain) echo "$top/tests/fuzz/corpus-explain $top/tests/explain" ;;
	frdump) echo "$top/tests/fuzz/corpus-frdump $top/tests/fixtures/frdump" ;;
	*) echo "$top/tests/fuzz/corpus-$1" ;;
	esac
}

names=
for b in "$bindir"/fuzz_*; do
	if [ ! -x "$b" ] || [ ! -f "$b" ]; then
		continue
	fi
	n=${b##*/fuzz_}
	names="$names $n"
	mkdir -p "$work/corpus-$n" || exit 2
	rm -f "$work/$n"-crash-* "$work/$n"-leak-* "$work/$n"-timeout-* \
		"$work/$n"-oom-*
	# shellcheck disable=SC2046 # the seed folders are words
	set -- "$b" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 \
		-artifact_prefix="$work/$n-" "$work/corpus-$n" $(seeds "$n")
	if [ $netns = yes ]; then
		timeout -k 10 $((secs + 120)) unshare -n sh -c \
			'ip link set lo up && exec "$@"' sh "$@" \
			>"$work/$n.log" 2>&1 &
	else
		timeout -k 10 $((secs + 120)) "$@" >"$work/$n.log" 2>&1 &
	fi
	echo $! >"$work/$n.pid"
done
[ -n "$names" ] || { echo "longrun: no fuzz_* in $bindir" >&2; exit 2; }
echo "longrun: $names for $secs s each, in $work" >&2

rc=0
{
	echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $secs s a target, $(nproc) CPUs, netns $netns, $bindir"
	printf '# %-9s %11s %7s %13s %7s %7s %8s %8s %3s\n' target execs \
		exec/s cov ft corpus rss_mb saved rc
	for n in $names; do
		wait "$(cat "$work/$n.pid")"
		st=$?
		log=$work/$n.log
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
		rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
		cov0=$(sed -n 's/^#[0-9]*[[:space:]]*INITED cov: \([0-9]*\).*/\1/p' \
			"$log" | head -n 1)
		last=$(grep -E '^#[0-9]+[[:space:]]+[A-Z]+ +cov: ' "$log" | tail -n 1)
		cov1=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
		ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
		corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
		saved=$(find "$work" -maxdepth 1 -type f \( -name "$n-crash-*" \
			-o -name "$n-leak-*" -o -name "$n-timeout-*" \
			-o -name "$n-oom-*" \) | wc -l)
		[ "$st" = 0 ] && [ "$saved" = 0 ] || rc=1
		printf '%-11s %11s %7s %13s %7s %7s %8s %8s %3s\n' "$n" \
			"${execs:-?}" "${eps:-?}" "${cov0:-?}->${cov1:-?}" \
			"${ft:-?}" "${corp:-?}" "${rss:-?}" "$saved" "$st"
	done
} >"$res"
cat "$res"
exit $rc
