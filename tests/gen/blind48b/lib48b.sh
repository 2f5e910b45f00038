# Shared by the clusters of the second blind set (tests/gen/blind48b): the
# first set's harness (tests/gen/blind48/lib48.sh: switches, members, hosts
# files, the torch Gloo client, the judge) with this folder's truth.tsv, and
# one more check for validate: every ordered pair of members, a node to
# itself included, dialled with a plain socket (pairs.py) before and after
# the fix, so the truth's "which pairs fail" is shown apart from torch;
# and the layout clusters 06 and 08 share (b48b_macvlan_pair).
# A cluster script sets B48_ID and LAB_ID, then sources this file.
# this folder (pairs.py), whichever set sources this file
B48B_DIR=$(cd "$(dirname "$0")/../blind48b" && pwd)
B48_LIB=$(cd "$(dirname "$0")/../blind48" && pwd)
. "$B48_LIB/lib48.sh"

# b48b_matrix TAG PORT: each member serves on PORT (one per TAG: the servers
# end by their own time limit); each member dials every
# member's address (its own too) with 256 KiB; one line per source member
# in $B48_OUT/TAG.pairs ("node02: node01=ok node02=ok node03=timeout ...").
b48b_matrix() {
	_port=$2
	for _m in $B48_MEMBERS; do
		b48_in "$_m" timeout 120 "$B48_PY" "$B48B_DIR/pairs.py" serve \
			"$(b48_addr "$_m")" "$_port" 110 &
	done
	# a bounded wait until every server listens
	for _m in $B48_MEMBERS; do
		lab_wait 50 sh -c "ip netns exec '$(cl_ns "$_m")' ss -Hltn 'sport = :$_port' | grep -q LISTEN"
	done
	: >"$B48_OUT/$1.pairs"
	for _s in $B48_MEMBERS; do
		_line="$_s:"
		for _d in $B48_MEMBERS; do
			_r=$(b48_in "$_s" timeout 10 "$B48_PY" "$B48B_DIR/pairs.py" dial \
				"$(b48_addr "$_d")" "$_port" 262144)
			_line="$_line $_d=${_r:-killed}"
		done
		echo "$_line" >>"$B48_OUT/$1.pairs"
	done
	return 0
}

# b48b_macvlan_pair MODE: node01 and node02 on switch sw (10.231.62.1 and .2);
# node03 and node04 containers on host h3 (10.231.62.13 on its uplink eth0
# to sw), each with a macvlan lan0 of mode MODE (vepa, bridge) on eth0, at
# 10.231.62.3 and .4; every node routes by way of 10.231.62.254.
b48b_macvlan_pair() {
	b48_switch sw 10.231.62.254/24
	for i in 1 2; do
		b48_box "node0$i"
		b48_port sw "node0$i" lan0 "10.231.62.$i/24" 10.231.62.254
		b48_member "node0$i" "10.231.62.$i"
	done
	b48_box h3
	b48_port sw h3 eth0 10.231.62.13/24 10.231.62.254
	_h=$(cl_ns h3)
	for i in 3 4; do
		b48_box "node0$i"
		_n=$(cl_ns "node0$i")
		ip -n "$_h" link add link eth0 name "mv$i" type macvlan mode "$1"
		ip -n "$_h" link set "mv$i" netns "$_n"
		ip -n "$_n" link set "mv$i" name lan0
		ip -n "$_n" addr add "10.231.62.$i/24" dev lan0
		ip -n "$_n" link set lan0 up
		ip -n "$_n" route add default via 10.231.62.254
		b48_member "node0$i" "10.231.62.$i"
	done
}

# b48_validate (replaces lib48.sh's): the pair matrix and the torch client
# before the fix, the fix, both again after; the client must fail as the
# thread's job did (pass on a healthy cluster) and pass after the fix.
b48_validate() {
	_fault=$(b48_truth 4)
	b48b_matrix before 7562
	if b48_client before; then _b=pass; else _b=fail; fi
	_want=fail
	[ "$_fault" = healthy ] && _want=pass
	_a=-
	if [ "$_fault" != healthy ]; then
		b48_fix
		b48_settle
		b48b_matrix after 7563
		if b48_client after; then _a=pass; else _a=fail; fi
	fi
	_v=ok
	[ "$_b" = "$_want" ] || _v=FAIL
	[ "$_fault" = healthy ] || [ "$_a" = pass ] || _v=FAIL
	printf '%s\tvalidate %s\tclient before the fix: %s (want %s), after: %s\n' \
		"$B48_ID" "$_v" "$_b" "$_want" "$_a" >&3
	sed 's/^/  pairs before: /' "$B48_OUT/before.pairs" >&3
	sed 's/^/  client before: /' "$B48_OUT/before.client" >&3
	[ ! -f "$B48_OUT/after.pairs" ] || sed 's/^/  pairs after:  /' "$B48_OUT/after.pairs" >&3
	[ ! -f "$B48_OUT/after.client" ] || sed 's/^/  client after:  /' "$B48_OUT/after.client" >&3
	[ "$_v" = ok ]
}
