#!/bin/sh
# The wild corpus (tests/explain/wild, made by tools/explain_wild.py):
# logs shaped like real pastes, each NAME.expect saying what a right
# answer holds (framework F; want CODE and proof yes|no, or none). Scores
# recall (the wanted code decided or a candidate), decided (the wanted
# code decided, among the logs that hold the proof), precision (decided
# network causes that are the wanted code) and unknown lines per
# framework; fails below the issue's bar: recall 90 %, decided 60 %, no
# network cause on a log that is not a network failure. With
# RESULTS=FILE it writes the figures there as Markdown.
set -u
NETPROBE=${NETPROBE:?set NETPROBE to the netprobe binary}
dir=$(dirname "$0")/wild
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# codes that name no network fault: allowed on a non-network log
nonnet='nccl-version-mismatch'
: >"$tmp/rows"
mkdir "$tmp/out"
for log in "$dir"/*.log; do
	name=$(basename "$log" .log)
	"$NETPROBE" explain --no-probe --json "$log" >"$tmp/out/$name.json" \
		2>"$tmp/out/$name.err"
	echo $? >"$tmp/out/$name.rc"
done
# one jq for the whole corpus: name|decided|open|other|lines|matched
jq -r '[(input_filename | sub(".*/"; "") | sub("\\.json$"; "")),
	([.causes[].code] | join(" ")),
	([.undecided[].codes[]] | join(" ")),
	([.other_causes[].kind, .symptoms[].signature] | join(" ")),
	(.log.lines | tostring),
	([.log.matches[].line | tostring] | unique | join(" "))] | join("|")' \
	"$tmp"/out/*.json >"$tmp/all" 2>"$tmp/jqerr" || true
for log in "$dir"/*.log; do
	name=$(basename "$log" .log)
	exp="$dir/$name.expect"
	fw=$(sed -n 's/^framework //p' "$exp")
	want=$(sed -n 's/^want //p' "$exp")
	proof=$(sed -n 's/^proof //p' "$exp")
	rc=$(cat "$tmp/out/$name.rc")
	row=$(grep "^$name|" "$tmp/all")
	if [ "$rc" = 2 ] || [ -z "$row" ]; then
		echo "FAIL $name: explain exited $rc: $(head -c 200 "$tmp/out/$name.err")"
		echo "$name|$fw|error|0|0|0|0|0|0|" >>"$tmp/rows"
		continue
	fi
	decided=$(echo "$row" | cut -d'|' -f2)
	open=$(echo "$row" | cut -d'|' -f3)
	other=$(echo "$row" | cut -d'|' -f4)
	lines=$(echo "$row" | cut -d'|' -f5)
	echo "$row" | cut -d'|' -f6 | tr ' ' '\n' >"$tmp/m"
	# unknown lines, by the framework the line belongs to
	unk=$(tr -d '\r' <"$log" | awk '
		NR == FNR { m[$1] = 1; next }
		!(FNR in m) && $0 != "" {
			f = "other"
			if ($0 ~ /NCCL/) f = "NCCL"
			else if ($0 ~ /gloo/) f = "Gloo"
			else if ($0 ~ /torch|c10d|socket\.cpp|ProcessGroup/) f = "torch"
			else if ($0 ~ /raylet|[Rr]ay|gcs|GCS|grpc/) f = "Ray"
			else if ($0 ~ /btl|ORTE|PRTE|mca|Open MPI|orte/) f = "Open MPI"
			else if ($0 ~ /[Hh]orovod/) f = "Horovod"
			else if ($0 ~ /jax|xla|coordinat/) f = "JAX"
			else if ($0 ~ /UCX|ucx/) f = "UCX"
			else if ($0 ~ /deepspeed|launch\.py|runner\.py/) f = "DeepSpeed"
			else if ($0 ~ /pdsh|ssh/) f = "pdsh"
			else if ($0 ~ /NVRM|nf_conntrack|neighbour|mlx5_core|Out of memory/) f = "kernel"
			n[f]++
		}
		END { for (f in n) printf "%s=%d;", f, n[f] }' "$tmp/m" -)
	if [ -n "$want" ]; then
		hit=0 dec=0 wrong=0
		for c in $decided $open; do [ "$c" = "$want" ] && hit=1; done
		for c in $decided; do
			if [ "$c" = "$want" ]; then dec=1; else wrong=$((wrong + 1)); fi
		done
		nd=$(echo $decided | wc -w)
		echo "$name|$fw|net|$hit|$dec|$proof|$nd|$wrong|$lines|$unk" >>"$tmp/rows"
		[ "$hit" = 1 ] || echo "MISS $name: want $want; decided '$decided' open '$open'"
		[ "$proof" = yes ] && [ "$dec" = 0 ] && [ "$hit" = 1 ] &&
			echo "OPEN $name: $want not decided; decided '$decided'"
	else
		bad=""
		for c in $decided $open; do
			case " $nonnet " in *" $c "*) ;; *) bad="$bad $c" ;; esac
		done
		echo "$name|$fw|nonnet|${bad:+1}|0|-|0|0|$lines|$unk|$other" >>"$tmp/rows"
		[ -z "$bad" ] || echo "FAIL $name: not a network failure, got$bad"
		[ -n "$other$decided$open" ] ||
			echo "NOTE $name: no cause named at all"
	fi
done
awk -F'|' -v out="${RESULTS:-}" -v tmp="$tmp" '
function pct(a, b) { return b ? sprintf("%.1f %%", 100 * a / b) : "-" }
{
	fw = $2; F[fw] = 1
	if ($3 == "net") {
		nn++; N[fw]++; h += $4; H[fw] += $4
		if ($6 == "yes") { np++; P[fw]++; d += $5; D[fw] += $5 }
		nd += $7; wr += $8; ND[fw] += $7; WR[fw] += $8
	} else if ($3 == "nonnet") {
		no++; O[fw]++; if ($4 == 1) { bad++; B[fw]++ }
	} else err++
	L[fw] += $9; T += $9
	split($10, u, ";")
	for (i in u) if (u[i] != "") {
		split(u[i], kv, "="); U[kv[1]] += kv[2]; UT += kv[2]
	}
}
END {
	printf "wild corpus: %d network logs: recall %s (%d), decided %s (%d of %d that hold the proof), precision of decided causes %s (%d of %d); %d non-network logs: %d given a network cause; %d errors\n", nn, pct(h, nn), h, pct(d, np), d, np, pct(nd - wr, nd), nd - wr, nd, no, bad, err
	if (out != "") {
		print "# netprobe explain on the wild corpus\n" > out
		print "`make check-explain` runs tests/explain/wild.sh on the " \
		      "logs of tests/explain/wild (written by " \
		      "tools/explain_wild.py, shaped like real pastes: noise, " \
		      "rank prefixes, colours, cut lines, CRLF), each explained " \
		      "with `--no-probe --json`. Recall: the wanted code decided " \
		      "or a candidate. Decided: the wanted code decided, of the " \
		      "logs that hold the proof. Precision: decided network " \
		      "causes that are the wanted one. Non-network: logs of OOM, " \
		      "driver, NCCL version, fabric-manager, Xid, code bugs, ssh " \
		      "logins, which must get no network cause. The logs and " \
		      "the table were written by the same hands: these " \
		      "figures say the forms written are covered, not how " \
		      "held-out real logs fare.\n" > out
		print "| framework | network logs | recall | decided (of proof logs) | precision of decided | non-network logs | given a network cause | lines |" > out
		print "|---|---|---|---|---|---|---|---|" > out
		for (f in F)
			printf "| %s | %d | %s | %s (%d/%d) | %s (%d/%d) | %d | %d | %d |\n", f, N[f], pct(H[f], N[f]), pct(D[f], P[f]), D[f], P[f], pct(ND[f] - WR[f], ND[f]), ND[f] - WR[f], ND[f], O[f], B[f], L[f] | "sort > \"" tmp "/fw\""
		close("sort > \"" tmp "/fw\"")
		while ((getline row < (tmp "/fw")) > 0)
			print row > out
		printf "| **all** | %d | %s | %s (%d/%d) | %s (%d/%d) | %d | %d | %d |\n\n", nn, pct(h, nn), pct(d, np), d, np, pct(nd - wr, nd), nd - wr, nd, no, bad, T > out
		printf "Unknown lines (%d of %d) are lines no signature row " \
		      "matched, counted by the framework the line itself " \
		      "names (the framework column above is the one whose " \
		      "lines carry the failure; other: training output, " \
		      "tracebacks and noise):\n\n", UT, T > out
		print "| lines of | unknown |" > out
		print "|---|---|" > out
		for (q in U)
			printf "| %s | %d |\n", q, U[q] | "sort > \"" tmp "/un\""
		close("sort > \"" tmp "/un\"")
		while ((getline row < (tmp "/un")) > 0)
			print row > out
	}
	fail = (nn && h * 100 < 90 * nn) || (np && d * 100 < 60 * np) || bad || err
	exit fail
}' "$tmp/rows"
