#!/bin/sh
# make e2e: every end-to-end scenario (tests/e2e/s_*.sh, some in several
# variants), one after another, each bounded in time; then the table
#   scenario | framework before | netprobe verdict | framework after fix | agrees
# on stdout and in $E2E_BUILD/RESULTS.md with each scenario's details.
# Exit status: 0 every scenario agrees, 1 one does not (or failed to run),
# 77 the suite cannot run here (not root, no namespaces, no torch...).
# E2E_ONLY="name..." runs only the scenarios named.
dir=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$dir/../.." && pwd)
: "${E2E_BUILD:=$top/build/e2e}"
: "${NETPROBE:=$top/build/netprobe}"
export E2E_BUILD NETPROBE

# name script [VAR=value...]; a name in KNOWN (name=reason) may disagree
# and is counted apart, its reason printed in the table.
KNOWN=""
SCENARIOS="
flat-lan s_flat_lan.sh
macvlan s_macvlan.sh
k8s-pod s_k8s_pod.sh
hostname-loopback-all s_hostname_loopback.sh E2E_VARIANT=all
hostname-loopback-master s_hostname_loopback.sh E2E_VARIANT=master
hostname-loopback-master-high s_hostname_loopback.sh E2E_VARIANT=master-high
container-nat-docker s_container_nat.sh E2E_CTR=docker
container-nat-podman s_container_nat.sh E2E_CTR=podman
firewall-ephemeral s_firewall_ephemeral.sh
two-nics-env s_two_nics.sh E2E_VARIANT=env
two-nics-dns s_two_nics.sh E2E_VARIANT=dns
mtu-blackhole s_mtu_blackhole.sh
"

skip() {
	echo "e2e: skipped: $*"
	exit 77
}
[ "$(id -u)" = 0 ] || skip "needs root (network and UTS namespaces)"
for t in ip nft jq unshare mpirun mpicc timeout; do
	command -v "$t" >/dev/null 2>&1 || skip "no $t (make deps installs it)"
done
/usr/bin/python3 -c 'import torch.distributed as d; assert d.is_available()' \
	2>/dev/null || skip "no torch with torch.distributed in /usr/bin/python3 (Debian's python3-torch)"
[ -x "$E2E_BUILD/mpi_allreduce" ] || skip "no $E2E_BUILD/mpi_allreduce (make e2e builds it)"
[ -x "$NETPROBE" ] || skip "no netprobe at $NETPROBE"
ip netns add "e2e$$-probe" 2>/dev/null || skip "cannot create network namespaces here"
ip netns del "e2e$$-probe"

t0=$(date +%s)
rows="" fail=0 known=0 n=0
for name in $(echo "$SCENARIOS" | awk 'NF { print $1 }'); do
	if [ -n "${E2E_ONLY:-}" ]; then
		case " $E2E_ONLY " in *" $name "*) ;; *) continue ;; esac
	fi
	set -- $(echo "$SCENARIOS" | awk -v n="$name" '$1 == n')
	shift
	script=$1
	shift
	n=$((n + 1))
	echo "=== $name"
	s0=$(date +%s)
	rm -f "$E2E_BUILD/$name/row.md" "$E2E_BUILD/$name/detail.md"
	env "$@" E2E_NAME="$name" LAB_ID="e$(echo "$name" | cksum | cut -c1-3)$$" \
		timeout -k 5 300 sh "$dir/$script"
	rc=$?
	echo "# $name: exit $rc, $(($(date +%s) - s0)) s"
	if [ -s "$E2E_BUILD/$name/row.md" ]; then
		rows="$rows $name"
	else
		mkdir -p "$E2E_BUILD/$name"
		echo "| $name | (did not finish: exit $rc) | | | NO |" \
			>"$E2E_BUILD/$name/row.md"
		rows="$rows $name"
	fi
	why=$(printf '%s\n' "$KNOWN" | sed -n "s/^$name=//p")
	if [ "$rc" != 0 ] && [ -n "$why" ] &&
		grep -q '| NO: ' "$E2E_BUILD/$name/row.md"; then
		awk -v why="$why" '{ sub(/\| NO: /, "| known (" why "); ") } 1' \
			"$E2E_BUILD/$name/row.md" >"$E2E_BUILD/$name/row.tmp" &&
			mv "$E2E_BUILD/$name/row.tmp" "$E2E_BUILD/$name/row.md"
		known=$((known + 1))
	elif [ "$rc" != 0 ]; then
		fail=$((fail + 1))
	fi
done
secs=$(($(date +%s) - t0))

res=$E2E_BUILD/RESULTS.md
{
	echo "# End-to-end results"
	echo
	echo "The latest run of \`make e2e\` (tests/e2e/run.sh): each scenario runs"
	echo "torch $(/usr/bin/python3 -c 'import torch; print(torch.__version__)' 2>/dev/null) (Gloo) and"
	echo "$(mpirun --version 2>/dev/null | head -n 1) across network namespaces, then"
	echo "netprobe on every node, applies its advice and runs them again."
	echo
	echo "- run: $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores, $secs s for $n scenarios"
	echo "- agreement: a fault reported exactly when a framework failed; nothing that"
	echo "  worked before netprobe's advice fails after it; after the fix everything"
	echo "  works, or where no fix exists (NAT) what failed fails again; a"
	echo "  known disagreement says why it remains"
	echo
	echo "| scenario | framework before | netprobe verdict | framework after fix | agrees |"
	echo "|---|---|---|---|---|"
	for r in $rows; do
		cat "$E2E_BUILD/$r/row.md"
	done
	echo
	sh "$top/tests/e2e/gpu/table.sh" "$top/bench/e2e/gpu"
	echo "## Details"
	echo
	for r in $rows; do
		[ -s "$E2E_BUILD/$r/detail.md" ] && cat "$E2E_BUILD/$r/detail.md"
	done
} >"$res"
echo
sed -n '/^| scenario | framework/,/^$/p' "$res"
echo "e2e: $n scenarios, $fail disagree or failed, $known known disagreement(s), $secs s; table in $res"
[ "$fail" = 0 ]
