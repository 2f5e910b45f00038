#!/bin/sh
# Scores netprobe explain on the blind set of issue 42: real failure logs
# pasted in public threads (NNN.log) and their ground truth (truth.tsv),
# written before explain was ever run on them.
#
#   NETPROBE=build/netprobe tests/explain/blind42/score.sh [TRUTH]
#
# TRUTH (default: truth.tsv beside this script) is tab-separated with a
# header: id url framework version network cause wanted proof. The log of
# row ID is ID.log in TRUTH's folder. wanted is the finding codes a right
# answer names (comma-separated; "none" on a log whose failure is not the
# network). Each log is explained from the log alone:
#
#   $NETPROBE explain --no-probe --json ID.log
#
# A decided cause is a code of .causes[] with the broader codes it
# refines (.refines[], e.g. name-unresolved refines host-unreachable): it
# is right when any of them is wanted. An open candidate is a code of
# .undecided[].codes or of its .refines[]. Printed:
#   - network logs right: the wanted code decided or among the candidates;
#   - of those with proof "proof" (the log alone proves the cause), how
#     many had the wanted code decided;
#   - wrong decided causes: a decided network code not among the wanted
#     codes, or any decided network code on a non-network log;
#   - non-network logs given any network candidate or cause;
#   - one line per case: id, network, wanted, got.
# Codes that name no network fault (NONNET below) never count as network
# candidates or causes; a row's own wanted codes are allowed on it too.
# It judges, it does not gate: the exit status is always 0.
set -u
here=$(cd "$(dirname "$0")" && pwd)
truth=${1:-$here/truth.tsv}
NETPROBE=${NETPROBE:-$here/../../../build/netprobe}
NONNET=${NONNET:-"nccl-version-mismatch shm-small gpu-slow pcie-link-degraded wrong-results collective-timeout nccl-rank-unresponsive nccl-ras-unavailable"}
if [ ! -r "$truth" ]; then
	echo "score.sh: no truth file $truth" >&2
	exit 0
fi
if [ ! -x "$NETPROBE" ]; then
	echo "score.sh: NETPROBE=$NETPROBE is not an executable (build it: make build/netprobe)" >&2
	exit 0
fi
if ! command -v jq >/dev/null 2>&1; then
	echo "score.sh: jq is needed to read explain's JSON" >&2
	exit 0
fi
dir=$(cd "$(dirname "$truth")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

isnonnet() {
	for n in $NONNET; do [ "$1" = "$n" ] && return 0; done
	return 1
}
# inlist CODE "A,B,C": CODE may be CODE+REFINED+... (a decided cause
# and the broader codes it refines): any of them in the list
inlist() {
	for one in $(echo "$1" | tr '+' ' '); do
		case ",$2," in *",$one,"*) return 0 ;; esac
	done
	return 1
}

: >"$tmp/cases"
tail -n +2 "$truth" | tr -d '\r' | while IFS='	' read -r id _ fw _ net _ wanted proof _; do
	[ -n "$id" ] || continue
	log="$dir/$id.log"
	if [ ! -r "$log" ]; then
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$net" "$wanted" "$proof" error error "no $id.log" "$fw" >>"$tmp/cases"
		continue
	fi
	"$NETPROBE" explain --no-probe --json "$log" >"$tmp/$id.json" 2>"$tmp/$id.err"
	rc=$?
	if [ "$rc" = 2 ] || ! jq -e . "$tmp/$id.json" >/dev/null 2>&1; then
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$net" "$wanted" "$proof" error error \
			"explain exited $rc: $(head -c 120 "$tmp/$id.err" | tr '\t\n' '  ')" "$fw" >>"$tmp/cases"
		continue
	fi
	# one token per decided cause: CODE+REFINED+...
	decided=$(jq -r '[.causes[]? | [.code] + (.refines // []) | join("+")] | unique | join(",")' "$tmp/$id.json")
	open=$(jq -r '[.undecided[]? | (.codes[]?, (.refines // [])[])] | unique | join(",")' "$tmp/$id.json")
	other=$(jq -r '[.other_causes[]?.kind] | unique | join(",")' "$tmp/$id.json")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$net" "$wanted" "$proof" \
		"${decided:--}" "${open:--}" "${other:--}" "$fw" >>"$tmp/cases"
done

nnet=0 nright=0 nproof=0 nproofdec=0 wrong=0 wronglogs=0 nnon=0 nonhit=0 nerr=0
: >"$tmp/lines"
while IFS='	' read -r id net wanted proof decided open other fw; do
	if [ "$decided" = error ]; then
		nerr=$((nerr + 1))
		[ "$net" = yes ] && nnet=$((nnet + 1))
		[ "$net" = yes ] || nnon=$((nnon + 1))
		[ "$proof" = proof ] && nproof=$((nproof + 1))
		printf '%s\t%s\t%s\twant %s\tgot ERROR %s\n' "$id" "$fw" "$net" "$wanted" "$other" >>"$tmp/lines"
		continue
	fi
	dec=$(echo "$decided" | tr ',' ' ' | sed 's/^-$//')
	opn=$(echo "$open" | tr ',' ' ' | sed 's/^-$//')
	mark=""
	w=0
	for c in $dec; do
		isnonnet "${c%%+*}" && continue
		inlist "$c" "$wanted" || w=$((w + 1))
	done
	wrong=$((wrong + w))
	[ "$w" -gt 0 ] && wronglogs=$((wronglogs + 1)) && mark="$mark WRONG-CAUSE"
	if [ "$net" = yes ]; then
		nnet=$((nnet + 1))
		hit=0 hitdec=0
		for c in $dec; do inlist "$c" "$wanted" && hit=1 && hitdec=1; done
		for c in $opn; do inlist "$c" "$wanted" && hit=1; done
		nright=$((nright + hit))
		[ "$hit" = 1 ] && mark=" ok$mark" || mark=" MISS$mark"
		if [ "$proof" = proof ]; then
			nproof=$((nproof + 1))
			nproofdec=$((nproofdec + hitdec))
			[ "$hitdec" = 1 ] || [ "$hit" = 0 ] || mark="$mark undecided-proof"
		fi
	else
		nnon=$((nnon + 1))
		any=0
		for c in $dec $opn; do
			isnonnet "${c%%+*}" && continue
			inlist "$c" "$wanted" && continue
			any=1
		done
		nonhit=$((nonhit + any))
		[ "$any" = 1 ] && mark=" NETWORK-BLAMED$mark" || mark=" ok$mark"
	fi
	printf '%s\t%s\t%s\twant %s\tgot cause=%s open=%s other=%s\t%s\n' "$id" "$fw" "$net" "$wanted" \
		"$decided" "$open" "$other" "${mark# }" >>"$tmp/lines"
done <"$tmp/cases"

pct() { [ "$2" -gt 0 ] && echo "$(( ($1 * 1000 / $2 + 5) / 10 ))%" || echo "n/a"; }
echo "blind set: $(basename "$truth") in $dir"
echo "netprobe: $NETPROBE ($("$NETPROBE" --version 2>/dev/null | head -1))"
echo "cases: $((nnet + nnon)) ($nnet network, $nnon not network); explain errors: $nerr"
echo "network logs right (wanted code decided or open): $nright/$nnet = $(pct "$nright" "$nnet")"
echo "  of them proof logs decided right: $nproofdec/$nproof = $(pct "$nproofdec" "$nproof")"
echo "wrong decided causes: $wrong (on $wronglogs logs)"
echo "non-network logs given a network candidate or cause: $nonhit/$nnon = $(pct "$nonhit" "$nnon")"
echo "per framework (network logs right/network logs; non-network logs blamed/non-network logs):"
awk -F'\t' '{ f = $2; if ($3 == "yes") { n[f]++; if ($NF ~ /^ok/) r[f]++ } else { m[f]++; if ($NF ~ /NETWORK-BLAMED/) b[f]++ }; seen[f] = 1 }
	END { for (f in seen) printf "  %s: %d/%d; %d/%d\n", f, r[f], n[f], b[f], m[f] }' "$tmp/lines" | sort
echo "per case (id, framework, network, wanted, got, mark):"
cat "$tmp/lines"
exit 0
