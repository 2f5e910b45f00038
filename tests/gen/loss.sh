# Loss on one link, run after run (issue 31): the cluster of SEED with
# only loss PCT % on node NODE's switch port (both ways, nftables numgen),
# RUNS times. Each run must end with no fault and no cause (exit 0 on
# every node): loss alone is a warning at most. Prints per run the
# oracle's verdict, the causes, the faults and the link-lossy warnings
# that name NODE's link, then the tally. Exit 0 when every run passed.
#   sh tests/gen/loss.sh PCT RUNS [SEED] [NODE]
PCT=${1:?usage: loss.sh PCT RUNS [SEED] [NODE]}
RUNS=${2:?usage: loss.sh PCT RUNS [SEED] [NODE]}
SEED=${3:-9}
NODE=${4:-2}
dir=$(dirname "$0")
[ "$(id -u)" = 0 ] || { echo "skip - generated clusters need root"; exit 77; }
case "$PCT" in 3 | 10) ;; *) echo "loss.sh: PCT is 3 or 10" >&2; exit 2 ;; esac
ok=0 warned=0 r=1
while [ "$r" -le "$RUNS" ]; do
	keep=$(mktemp -d /tmp/np31-loss.XXXXXX)
	line=$(GEN_FAULTS="loss$PCT@$NODE" GEN_KEEP_REPORT="$keep" \
		timeout -k 5 600 sh "$dir/gen.sh" "$SEED")
	rep="$keep/report.json"
	causes=- faults=- lossy=0 errs=
	if [ -s "$rep" ]; then
		causes=$(jq -r '[.causes[].id] | join(",")' "$rep")
		faults=$(jq -r '[.findings[] | select(.severity == "fault") |
			"\(.node):\(.code)"] | unique | join(",")' "$rep")
		errs=$(jq -r '[.nodes[] | .name as $n | .errors[]? |
			select(.root_cause == null and .explained_by == null) |
			"\($n): \(.message)"] | join("; ")' "$rep")
		lossy=$(jq --arg n "$(printf 'node%02d' "$NODE")" '[.findings[] |
			select(.code == "link-lossy" and (.node == $n or
			(.summary | contains($n + " "))))] | length' "$rep")
	fi
	case "$line" in *"	ok	"*) v=ok; ok=$((ok + 1)) ;; *) v=FAIL ;; esac
	[ "$lossy" -gt 0 ] && warned=$((warned + 1))
	printf 'run %s\tloss %s%% on node%02d\t%s\tcauses [%s]\tfaults [%s]\tlink-lossy %s\t%s%s\n' \
		"$r" "$PCT" "$NODE" "$v" "${causes:--}" "${faults:--}" "$lossy" \
		"$(printf '%s' "$line" | cut -f7)" "${errs:+; parts not run: $errs}"
	rm -rf "$keep"
	r=$((r + 1))
done
echo "# loss $PCT % on node$NODE's link, seed $SEED: $ok of $RUNS runs passed (no fault, no cause), $warned of $RUNS warned link-lossy on that link"
[ "$ok" = "$RUNS" ]
