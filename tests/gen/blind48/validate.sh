# The blind set of issue 48 proved with the real client alone: each cluster
# (NN-*.sh validate) fails with torch's Gloo as its thread's job failed
# (passes when healthy) and passes after the thread's fix. No netprobe.
#   sh tests/gen/blind48/validate.sh [NN ...]
# Exit 0 when every cluster behaved as its truth says, 1 otherwise.
# B48_SET: another set's folder (tests/gen/blind48b/judge.sh sets it)
dir=${B48_SET:-$(cd "$(dirname "$0")" && pwd)}
base=${LAB_ID:-66}
ok=0 bad=0
for f in "$dir"/[0-9][0-9]-*.sh; do
	nn=$(basename "$f" | cut -c1-2)
	if [ $# -gt 0 ]; then
		case " $* " in *" $nn "*) ;; *) continue ;; esac
	fi
	if LAB_ID="${base}v$nn" timeout 600 sh "$f" validate; then
		ok=$((ok + 1))
	else
		bad=$((bad + 1))
	fi
done
echo "$ok passed, $bad failed"
[ "$bad" = 0 ]
