# Runs generated clusters (tests/gen/gen.sh) for seeds FIRST..FIRST+N-1,
# one after another, each bounded; appends each seed's line to RESULTS
# (a TSV) and prints the tally. Exit 0 when every seed passed, 1 when one
# failed, 2 when it could not run.
#   sh tests/gen/run.sh N [FIRST] [RESULTS]
N=${1:?usage: run.sh N [FIRST] [RESULTS]}
FIRST=${2:-1}
RES=${3:-/tmp/np23-gen-results.tsv}
dir=$(dirname "$0")
[ "$(id -u)" = 0 ] || { echo "skip - generated clusters need root"; exit 77; }
fails=0
runs=0
s=$FIRST
while [ "$s" -lt $((FIRST + N)) ]; do
	line=$(timeout -k 5 600 sh "$dir/gen.sh" "$s")
	rc=$?
	[ -n "$line" ] || line=$(printf '%s\t?\t?\t?\t?\tFAIL\tgen.sh ended with status %s' "$s" "$rc")
	printf '%s\n' "$line" | tee -a "$RES"
	case "$line" in *"	ok	"*) ;; *) fails=$((fails + 1)) ;; esac
	runs=$((runs + 1))
	s=$((s + 1))
done
echo "# generated clusters: $runs seeds, $((runs - fails)) passed, $fails failed"
[ "$fails" = 0 ]
