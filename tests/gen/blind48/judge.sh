# The blind set of issue 48, judged: each cluster (NN-*.sh) is built, netprobe
# mesh runs on every member ($NETPROBE), and its report is judged against
# truth.tsv (judge_lib.sh says how). One line per cluster, then a total. It
# judges, it does not gate: the exit status is 0 whatever the verdicts (2 on
# bad usage).
#
#   NETPROBE=$PWD/build/netprobe sh tests/gen/blind48/judge.sh [NN ...]
#
# With NNs (01 12 ...) only those clusters run. Each runs as root in network
# namespaces of its own (np<LAB_ID>-...), removed when it ends; LAB_ID's
# digits are the caller's (default 66), each cluster adds its number.
# B48_SET: another set's folder (tests/gen/blind48b/judge.sh sets it)
dir=${B48_SET:-$(cd "$(dirname "$0")" && pwd)}
: "${NETPROBE:?set NETPROBE to the netprobe binary}"
case "$NETPROBE" in /*) ;; *) NETPROBE=$PWD/$NETPROBE ;; esac
[ -x "$NETPROBE" ] || { echo "judge.sh: '$NETPROBE' is not executable" >&2; exit 2; }
export NETPROBE
base=${LAB_ID:-66}
right=0 tell=0 wrong=0 n=0
for f in "$dir"/[0-9][0-9]-*.sh; do
	nn=$(basename "$f" | cut -c1-2)
	if [ $# -gt 0 ]; then
		case " $* " in *" $nn "*) ;; *) continue ;; esac
	fi
	line=$(LAB_ID="${base}j$nn" timeout 900 sh "$f" judge)
	[ -n "$line" ] || line="$(basename "$f" .sh)	wrong	the cluster script printed no verdict"
	printf '%s\n' "$line"
	n=$((n + 1))
	case "$(printf '%s' "$line" | cut -f2)" in
	right) right=$((right + 1)) ;;
	cannot-tell) tell=$((tell + 1)) ;;
	*) wrong=$((wrong + 1)) ;;
	esac
done
echo "total: $n clusters, $right right, $tell cannot tell, $wrong wrong"
exit 0
