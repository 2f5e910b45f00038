# notrack-untracked-drop lab (issue 48; firewalld/firewalld#380): four
# namespace nodes on one LAN. Healthy first: every node exempts the LAN
# from connection tracking both ways and accepts it untracked (blind48b
# 08's ruleset): the mesh passes with no warning. Then node03 alone
# exempts the job's ports (29400, 29500) from tracking in front of an
# input chain (policy drop) that accepts ct states new, established and
# related, never untracked: peers' connections to those ports die on
# node03. The report blames node03 alone with notrack-untracked-drop;
# its command, run verbatim there (the closed loop), makes the mesh pass.
LAB_ID="${LAB_ID:-48nt-$$}"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require nft jq unshare

N=4
OUT=$(mktemp -d /tmp/np48-notrack.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT" "$MESH_HOSTS"' EXIT

mesh_build "$N" 68 0
lab_check "every node's link is up" mesh_wait_links "$N"

# run_mesh NAME: every node runs netprobe mesh --ports torch; node 0's
# report as JSON in $OUT/NAME/report.json, its documents in .../docs.
run_mesh() {
	R="$OUT/$1"
	mkdir -p "$R"
	mesh_run 1 "$R" --hosts "$MESH_HOSTS" --join-timeout 20s --quick \
		--ports torch --format json -o "$R/report.json" --out "$R/docs"
	_i=2
	while [ "$_i" -le "$N" ]; do
		mesh_run "$_i" "$R" --hosts "$MESH_HOSTS" --join-timeout 20s \
			--quick --ports torch
		_i=$((_i + 1))
	done
	lab_check "$1: $N nodes end within 90 s" mesh_wait_all "$N" "$R" 90
}

# healthy: the symmetric exemption, accepted untracked, on every node
_i=1
while [ "$_i" -le "$N" ]; do
	ip netns exec "$(mesh_ns "$_i")" nft -f - <<'NFT'
table ip np48_raw {
	chain prerouting {
		type filter hook prerouting priority raw; policy accept;
		ip saddr 10.231.68.0/24 notrack
	}
	chain output {
		type filter hook output priority raw; policy accept;
		ip daddr 10.231.68.0/24 notrack
	}
}
table inet np48_filter {
	chain input {
		type filter hook input priority filter; policy drop;
		ct state established,related accept
		ct state invalid drop
		iifname "lo" accept
		ct state untracked ip saddr 10.231.68.0/24 accept
	}
}
NFT
	_i=$((_i + 1))
done
run_mesh healthy
lab_check "healthy (exempted and accepted untracked): every node exits 0 [$(cat "$R"/*.rc | tr '\n' ' ')]" \
	test "$(cat "$R"/*.rc | sort -u)" = 0
lab_check "healthy: no fault or warning" \
	test "$(jq '[.findings[] | select(.severity != "info")] | length' "$R/report.json")" = 0
lab_check "healthy: node03's scan read its exemption" \
	test "$(jq '.firewall.notrack | length' "$R/docs/node03.json")" = 1
_i=1
while [ "$_i" -le "$N" ]; do
	ip netns exec "$(mesh_ns "$_i")" nft flush ruleset
	_i=$((_i + 1))
done

# node03: the job's ports exempted, accepted as new only
ip netns exec "$(mesh_ns 3)" nft -f - <<'NFT'
table inet np48_raw {
	chain prerouting {
		type filter hook prerouting priority raw; policy accept;
		tcp dport { 29400, 29500 } notrack
	}
}
table inet np48_filter {
	chain input {
		type filter hook input priority filter; policy drop;
		ct state established,related accept
		ct state invalid drop
		iifname "lo" accept
		ct state new accept
	}
}
NFT
run_mesh fault
lab_check "fault: node 0 exits 1" test "$(cat "$R/1.rc")" = 1
LAB_OUT=$(jq -r '.causes[] | "\(.node // "?") \([.findings[]? | if type == "object" then .code else . end] | join(","))"' "$R/report.json")
lab_grep "node03 is a cause with notrack-untracked-drop" \
	'^node03 .*notrack-untracked-drop'
lab_nogrep "no healthy node blamed" '^node0[124] '
LAB_OUT=$(cl_fixes "$R/report.json")
lab_grep "its command accepts the exempted ports untracked" \
	'^node03	shell	nft insert rule inet np48_filter input ct state untracked tcp dport \{ 29400, 29500 \} accept$'
cl_ns() {
	mesh_ns "${1#node0}"
}
cl_apply "$R/report.json" node03
lab_check "fault: the fix applied" test "$CL_APPLIED" -ge 1
run_mesh fixed
cl_clean "$R/report.json" "$R" "notrack"
lab_done
