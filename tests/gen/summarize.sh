# Turns tests/gen/run.sh's TSV into the Markdown tables of
# tests/gen/RESULTS.md: seeds, healthy seeds with no false fault or
# warning, injected faults found at the right place with the right cause
# and closed by their printed fix (a fault counts as found only in a
# seed that passed whole: its cause matched the truth and the loop
# closed), per fault kind, and every failing seed with why.
#   sh tests/gen/summarize.sh RESULTS.tsv
awk -F'\t' '
function kind(f) { sub(/@.*/, "", f); return f }
{
	seeds++
	nf = ($5 == "-") ? 0 : split($5, fs, " ")
	topo[$3]++
	if (nf == 0) { healthy++; if ($6 == "ok") healthy_ok++ }
	for (i = 1; i <= nf; i++) {
		k = kind(fs[i]); inj[k]++; injected++
		if ($6 == "ok") { found[k]++; nfound++ }
	}
	if ($6 == "ok") ok++; else fails[++nfail] = $1 " | " $2 " | " $3 " | " $5 " | " $7
	nodes += $2
}
END {
	printf "| seeds | passed | failed | nodes (total) | l2 | routed | overlay |\n"
	printf "|---|---|---|---|---|---|---|\n"
	printf "| %d | %d | %d | %d | %d | %d | %d |\n\n", seeds, ok, seeds - ok, nodes, topo["l2"], topo["routed"], topo["overlay"]
	printf "| | count | right (place, cause, fix closes) | share |\n|---|---|---|---|\n"
	printf "| healthy seeds (no fault injected): no false fault or warning | %d | %d | %.1f %% |\n", healthy, healthy_ok, healthy ? 100 * healthy_ok / healthy : 0
	for (k in inj)
		printf "| fault %s | %d | %d | %.1f %% |\n", k, inj[k], found[k], 100 * found[k] / inj[k]
	printf "| all injected faults | %d | %d | %.1f %% |\n\n", injected, nfound, injected ? 100 * nfound / injected : 0
	if (nfail) {
		printf "Failing seeds (`sh tests/gen/gen.sh SEED` reruns one):\n\n"
		printf "| seed | nodes | topology | faults | why |\n|---|---|---|---|---|\n"
		for (i = 1; i <= nfail; i++) printf "| %s |\n", fails[i]
	}
}' "$1"
