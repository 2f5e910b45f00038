#!/bin/sh
# Flight Recorder dumps from real Gloo jobs (tests/fixtures/frdump, issue
# 43): `netprobe explain --fr-dumps DIR` on every recorded job, pickle and
# JSON form, must name rank 1 with the job's verdict and exit as it says,
# each in under 10 s: stall -> fr-rank-not-arrived at #6 (exit 1), desync
# -> fr-desync at #6 (1), kill -> fr-rank-no-dump (1), slow ->
# fr-rank-late and no fault (0), the NCCL job -> no finding (0); and
# with --job, the dumps' suspect heading the job's one verdict.
set -u
NETPROBE=${NETPROBE:?set NETPROBE to the netprobe binary}
fx=$(dirname "$0")/../fixtures/frdump
pass=0 fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT INT TERM
for job in "$fx"/*-*-*; do
	name=$(basename "$job")
	case $name in
	stall-*) want="fr-rank-not-arrived 1 6" rc=1 ;;
	desync-*) want="fr-desync 1 6" rc=1 ;;
	kill-*) want="fr-rank-no-dump 1 6" rc=1 ;;
	slow-*) want="fr-rank-late 1 6" rc=0 ;;
	*) want="" rc=0 ;;
	esac
	for form in pickle json; do
		t0=$(date +%s%N)
		"$NETPROBE" explain --no-probe --json \
			--fr-dumps "$job/$form" >"$out" 2>/dev/null
		got_rc=$?
		ms=$((($(date +%s%N) - t0) / 1000000))
		# the finding of the verdict, its rank and collective number
		got=$(jq -r '.findings[] | select(.code | startswith("fr-")) |
			select(.code != "fr-end-unknown") | .code + " " +
			(.summary | capture("rank (?<r>[0-9]+)").r) + " " +
			(.summary | capture("#(?<s>[0-9]+)").s // "?")' \
			"$out" 2>/dev/null | head -1)
		faults=$(jq '[.findings[] | select(.code | startswith("fr-"))
			| select(.severity != "info")] | length' "$out")
		if [ "$got_rc" = "$rc" ] && [ "$got" = "$want" ] &&
			[ "$ms" -lt 10000 ] &&
			{ [ "$rc" = 1 ] || [ "$faults" = 0 ]; }; then
			pass=$((pass + 1))
		else
			echo "FAIL $name/$form: exit $got_rc (want $rc)," \
				"'$got' (want '$want'), $ms ms"
			fail=$((fail + 1))
		fi
	done
done
# with --job the dumps join the job's verdict (RAS unreachable here): the
# stalled rank heads it, by rank, and a desync is said to be code
for case in "stall-2-1 rank 1 (host" "desync-2-1 a desync, a code bug"; do
	job=${case%% *} words=${case#* }
	"$NETPROBE" explain --job --ras 127.0.0.1:9 --no-probe --json \
		--fr-dumps "$fx/$job/pickle" >"$out" 2>/dev/null
	head=$(jq -r '.job.verdict.headline' "$out" 2>/dev/null)
	case $head in
	*"$words"*) pass=$((pass + 1)) ;;
	*) echo "FAIL $job with --job: headline '$head'"
		fail=$((fail + 1)) ;;
	esac
done
echo "frdump: $pass passed, $fail failed"
[ "$fail" = 0 ]
