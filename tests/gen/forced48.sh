# Runs issue 48's kinds that no seed draws often enough to count (the
# names48 block of gen_build.sh, mbox-drop, and the host limits
# ctcount, hashlimit and synflood of gen_faults.sh): each forced alone with
# GEN_FAULTS on PER seeds whose drawn topology fits it, JOBS at once,
# every seed bounded as run.sh bounds it; one line per run in RESULTS
# (gen.sh's TSV line; the faults column is the forced one), then the
# tally. A kind that cuts pairs needs a subnet that holds its node and
# that node's peer (node 2 and node 3 then), so such a kind goes only on
# a seed of six nodes or more, and pool-shadow and mbox-drop only on a
# routed one. The kinds of the blind sets' member-side classes (ecmp,
# rtdrop, noarp, brstuck, qdisc, qdischtb, ovlvni, ovlproxy) follow. FORCED48_KINDS (a
# space-separated list of kinds) runs only those. Exit 0 when every run
# passed.
#   [FORCED48_KINDS="k1 k2"] sh tests/gen/forced48.sh PER JOBS RESULTS
per=${1:?usage: forced48.sh PER JOBS RESULTS}
jobs=${2:?usage: forced48.sh PER JOBS RESULTS}
res=${3:?usage: forced48.sh PER JOBS RESULTS}
dir=$(cd "$(dirname "$0")" && pwd)
for v in "$per" "$jobs"; do
	case $v in '' | *[!0-9]*) echo "forced48: bad number '$v'"; exit 2 ;; esac
done
[ "$(id -u)" = 0 ] || { echo "skip - generated clusters need root"; exit 77; }
list=$(mktemp /tmp/np23-forced48.XXXXXX) || exit 2
trap 'rm -f "$list" "$list.out"' EXIT
# KIND:TOPOLOGIES:NODE (NODE "n": node 2, or the last node for the
# variables, so that both ends of the mesh carry them)
start=1
for spec in hosts-stale:l2,routed,overlay:n mask-narrow:l2,routed:2 \
	pool-shadow:routed:2 macvlan:l2,routed:2 addrclone:l2,routed:2 \
	mbox-drop:routed:rt v6-family:l2,routed,overlay:n \
	ifname-wrong:l2,routed,overlay:n gloo-wrong:l2,routed,overlay:n \
	master-wrong:l2,routed,overlay:n ctcount:l2,routed,overlay:n \
	hashlimit:l2,routed,overlay:n synflood:l2,routed,overlay:n \
	hosts-order:l2,routed,overlay:3 iifother:l2,routed,overlay:n \
	ecmp:routed:n rtdrop:l2,routed,overlay:n noarp:l2,routed:n \
	brstuck:l2,routed:n qdisc:l2,routed,overlay:n qdischtb:l2,routed:n \
	ovlvni:overlay:n ovlproxy:overlay:n; do
	kind=${spec%%:*}
	case " ${FORCED48_KINDS:-$kind} " in *" $kind "*) ;; *) continue ;; esac
	rest=${spec#*:}
	topos=${rest%%:*}
	node=${rest#*:}
	got=0
	s=$start
	while [ "$got" -lt "$per" ] && [ "$s" -le 300 ]; do
		d=$(GEN_DRY=1 sh "$dir/gen.sh" "$s" 2>/dev/null)
		n=$(printf '%s' "$d" | cut -f2)
		t=$(printf '%s' "$d" | cut -f3)
		case ",$topos," in *",$t,"*) ;; *) s=$((s + 1)); continue ;; esac
		[ -n "$n" ] && [ "$n" -ge 6 ] || { s=$((s + 1)); continue; }
		case $node in
		n) at=$((2 + s % (n - 1))) ;;
		*) at=$node ;;
		esac
		printf '%s %s@%s\n' "$s" "$kind" "$at" >>"$list"
		got=$((got + 1))
		s=$((s + 1))
	done
	# the next kind starts further on: other clusters (past seed
	# 300, from the start again: the 11th kind on would find none)
	start=$((start + 29))
	[ "$start" -le 300 ] || start=$((start - 299))
done
echo "# forced48: $(wc -l <"$list") runs, $jobs at once" >&2
# shellcheck disable=SC2016
xargs -P "$jobs" -L 1 sh -c 'GEN_FAULTS="$2" timeout -k 5 600 sh "$0/gen.sh" "$1" ||
	:' "$dir" <"$list" >"$list.out"
cat "$list.out" >>"$res"
runs=$(wc -l <"$list")
ok=$(grep -c '	ok	' "$list.out")
rm -f "$list.out"
echo "# forced48: $runs runs, $ok passed"
[ "$ok" -ge "$runs" ]
