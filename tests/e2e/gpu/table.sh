#!/bin/sh
# The GPU scenarios' section of tests/e2e/RESULTS.md, from the newest run
# kept under bench/e2e/gpu/<date>/ (the device machine's summary.txt):
# one row per command with its exit status, what was wanted and whether
# they agree. Prints nothing when no run is kept.
#   sh tests/e2e/gpu/table.sh [bench/e2e/gpu]
set -u
dir=${1:-$(dirname "$0")/../../../bench/e2e/gpu}
last=$(ls -d "$dir"/*/ 2>/dev/null | sort | tail -n 1)
[ -n "$last" ] && [ -s "$last/summary.txt" ] || exit 0
sum=$last/summary.txt
env=$last/env.txt
echo "## GPU scenarios (torch's NCCL and ncclcheck, on the device machine)"
echo
echo "Kept from tests/e2e/gpu/run.sh in $(basename "$last") (bench/e2e/gpu/$(basename "$last")/):"
[ -s "$env" ] && sed -n '1,3s/^/    /p' "$env"
echo
echo "| scenario | command | exit | wanted | time | agrees |"
echo "|---|---|---|---|---|---|"
awk '$3 ~ /^rc=/ && $4 ~ /^want=/ {
	sub("rc=", "", $3); sub("want=", "", $4)
	printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5,
	    $6 == "as-expected" ? "yes" : "NO"
}' "$sum"
echo
n=$(awk '$3 ~ /^rc=/ && $4 ~ /^want=/' "$sum" | wc -l)
ok=$(awk '$3 ~ /^rc=/ && $4 ~ /^want=/ && $6 == "as-expected"' "$sum" | wc -l)
echo "$ok of $n results as expected."
