# Shared by the clusters of the fifth blind set (tests/gen/blind48e): the
# third set's harness (tests/gen/blind48c/lib48c.sh, itself the second set's
# lib48b.sh: switches, members, hosts files, the torch Gloo client, the
# judge and the plain-socket pair matrix of validate; and b48c_vm, a guest
# bridged through a host) with this folder's truth.tsv, plus: a
# kubenet-style node with pods on its bridge cbr0, and a check that full
# 1500-byte frames pass every pair (df.py), which validate runs on the
# clusters the truth calls healthy. A cluster script sets B48_ID and LAB_ID,
# then sources this file. Namespaces are np<LAB_ID>-NAME; LAB_ID carries
# b48e.
. "$(dirname "$0")/../blind48c/lib48c.sh"
B48E_DIR=$(cd "$(dirname "$0")" && pwd)

# b48e_kubenet HOST SW ADDR/LEN BR/LEN: HOST (a namespace, registered) as a
# kubenet-style Kubernetes node: eth0 on switch SW with ADDR, the pods'
# bridge cbr0 with BR (its queue length 1000, as a physical NIC's),
# forwarding on.
b48e_kubenet() {
	b48_box "$1"
	b48_port "$2" "$1" eth0 "$3"
	_h=$(cl_ns "$1")
	ip -n "$_h" link add name cbr0 txqueuelen 1000 type bridge
	ip -n "$_h" addr add "$4" dev cbr0
	ip -n "$_h" link set cbr0 up
	ip netns exec "$_h" sysctl -qw net.ipv4.ip_forward=1
}

# b48e_pod HOST POD IF ADDR/LEN GW MAC: POD (a member's namespace) as a pod
# on HOST's cbr0 through HOST's port IF, default route via GW (cbr0).
b48e_pod() {
	b48c_vm "$1" cbr0 "$2" "$3" "$4" "$6"
	ip -n "$(cl_ns "$2")" route add default via "$5"
}

# b48e_dfmatrix TAG PORT: every member echoes UDP on PORT; every member
# sends each other member one 1472-byte datagram with DF set; one line per
# source member in $B48_OUT/TAG.df ("node02: node01=ok node03=ok ...").
b48e_dfmatrix() {
	for _m in $B48_MEMBERS; do
		b48_in "$_m" timeout 100 "$B48_PY" "$B48E_DIR/df.py" serve \
			"$(b48_addr "$_m")" "$2" 90 &
	done
	for _m in $B48_MEMBERS; do
		lab_wait 50 sh -c "ip netns exec '$(cl_ns "$_m")' ss -Hlun 'sport = :$2' | grep -q ."
	done
	: >"$B48_OUT/$1.df"
	for _s in $B48_MEMBERS; do
		_line="$_s:"
		for _d in $B48_MEMBERS; do
			[ "$_s" != "$_d" ] || continue
			_r=$(b48_in "$_s" timeout 10 "$B48_PY" "$B48E_DIR/df.py" dial \
				"$(b48_addr "$_d")" "$2")
			_line="$_line $_d=${_r:-killed}"
		done
		echo "$_line" >>"$B48_OUT/$1.df"
	done
	return 0
}

# b48_validate (replaces lib48b.sh's, which it repeats): the pair matrix and
# the torch client before the fix, the fix, both again after; on a healthy
# cluster also the 1500-byte DF matrix, every pair of which must pass.
b48_validate() {
	_fault=$(b48_truth 4)
	b48b_matrix before 7562
	if b48_client before; then _b=pass; else _b=fail; fi
	_want=fail
	[ "$_fault" = healthy ] && _want=pass
	_a=-
	_df=-
	if [ "$_fault" != healthy ]; then
		b48_fix
		b48_settle
		b48b_matrix after 7563
		if b48_client after; then _a=pass; else _a=fail; fi
	else
		b48e_dfmatrix before 7564
		if grep -Eq '=[^o ]|=o[^k]' "$B48_OUT/before.df"; then _df=fail; else _df=pass; fi
	fi
	_v=ok
	[ "$_b" = "$_want" ] || _v=FAIL
	[ "$_fault" = healthy ] || [ "$_a" = pass ] || _v=FAIL
	[ "$_fault" != healthy ] || [ "$_df" = pass ] || _v=FAIL
	printf '%s\tvalidate %s\tclient before the fix: %s (want %s), after: %s; 1500-byte DF frames: %s\n' \
		"$B48_ID" "$_v" "$_b" "$_want" "$_a" "$_df" >&3
	sed 's/^/  pairs before: /' "$B48_OUT/before.pairs" >&3
	[ ! -f "$B48_OUT/before.df" ] || sed 's/^/  df1472 before: /' "$B48_OUT/before.df" >&3
	sed 's/^/  client before: /' "$B48_OUT/before.client" >&3
	[ ! -f "$B48_OUT/after.pairs" ] || sed 's/^/  pairs after:  /' "$B48_OUT/after.pairs" >&3
	[ ! -f "$B48_OUT/after.client" ] || sed 's/^/  client after:  /' "$B48_OUT/after.client" >&3
	[ "$_v" = ok ]
}
