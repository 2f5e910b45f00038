# Shared by the blind clusters of issue 48 (tests/gen/blind48/NN-*.sh): a
# cluster script defines b48_build (the cluster with its fault, through the
# helpers below), b48_fix (the fix the public thread established) and
# B48_ID (its row of truth.tsv), then calls b48_main with its mode:
#
#   validate  the real client (torch Gloo, gloo_allreduce.py) on every
#             member: it must fail as the thread's job failed (pass on a
#             healthy cluster); then the thread's fix, and it must pass.
#   judge     netprobe mesh on every member ($NETPROBE), judged against
#             truth.tsv; a right diagnosis's printed fixes run verbatim on
#             the nodes they name (tests/lab/closedloop.sh) and the mesh
#             runs again. One line on stdout: ID, verdict, why.
#
# Members are named nodeNN; B48_MEMBERS lists them in rank order (node 0
# first). Boxes that run no member (a container's host, a router) are
# namespaces too, registered by name for the fixes that name them.
B48_DIR=$(cd "$(dirname "$0")" && pwd)
# the shared files (client, judge); a set elsewhere (blind48b) sets B48_LIB
# to this folder and keeps its own truth.tsv in B48_DIR
B48_LIB=${B48_LIB:-$B48_DIR}
. "$B48_DIR/../../lab/lib.sh"
. "$B48_DIR/../../lab/mesh_lib.sh"
. "$B48_DIR/../../lab/closedloop.sh"
B48_PY=${B48_PY:-/usr/bin/python3}
B48_MEMBERS=""
B48_OUT=$(mktemp -d /tmp/np48-blind.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$B48_OUT"' EXIT

# b48_box NAME: a namespace for NAME (member or not), registered for cl_ns.
b48_box() {
	lab_ns _b "$1"
	eval "B48_NS_$1=\$_b"
}

# cl_ns NAME: the namespace of a member or box (closedloop.sh calls it).
cl_ns() {
	case "$1" in *[!a-z0-9]*) return 0 ;; esac
	eval "printf '%s' \"\${B48_NS_$1:-}\""
}

# b48_switch SW [ADDR/LEN]: a switch, namespace SW with bridge br0
# (holding ADDR, the LAN's gateway as a ToR switch's SVI, where given).
# BR_MTU sets the bridge's MTU.
b48_switch() {
	b48_box "$1"
	_s=$(cl_ns "$1")
	ip -n "$_s" link add name br0 type bridge
	[ -z "${BR_MTU:-}" ] || ip -n "$_s" link set br0 mtu "$BR_MTU"
	[ -z "${2:-}" ] || ip -n "$_s" addr add "$2" dev br0
	ip -n "$_s" link set br0 up
}

# b48_port SW BOX IF ADDR/LEN [GW]: BOX's interface IF on switch SW (its
# switch side named p<n>), the address, up, and a default route via GW.
# PORT_MTU sets both ends' MTU (the switch port's too).
b48_port_n=0
b48_port() {
	b48_port_n=$((b48_port_n + 1))
	_p="p$b48_port_n"
	_s=$(cl_ns "$1")
	_b=$(cl_ns "$2")
	lab_veth "$_b" "$3" "$_s" "$_p"
	if [ -n "${PORT_MTU:-}" ]; then
		ip -n "$_b" link set "$3" mtu "$PORT_MTU"
		ip -n "$_s" link set "$_p" mtu "$PORT_MTU"
	fi
	ip -n "$_s" link set "$_p" master br0
	ip -n "$_s" link set "$_p" up
	ip -n "$_b" addr add "$4" dev "$3"
	ip -n "$_b" link set "$3" up
	[ -z "${5:-}" ] || ip -n "$_b" route add default via "$5"
}

# b48_lan SW NET N: switch SW with 10.231.NET.254/24, members node01..
# nodeN on it at 10.231.NET.I, default route via .254.
b48_lan() {
	b48_switch "$1" "10.231.$2.254/24"
	_i=1
	while [ "$_i" -le "$3" ]; do
		b48_box "node0$_i"
		b48_port "$1" "node0$_i" lan0 "10.231.$2.$_i/24" "10.231.$2.254"
		b48_member "node0$_i" "10.231.$2.$_i"
		_i=$((_i + 1))
	done
}

# b48_member NAME ADDR: member NAME (next rank) whose name resolves to ADDR
# on every member (b48_hosts writes the files).
b48_member() {
	B48_MEMBERS="$B48_MEMBERS $1"
	eval "B48_ADDR_$1=$2"
}

# b48_addr NAME: the address the hosts files give member NAME.
b48_addr() {
	eval "printf '%s' \"\$B48_ADDR_$1\""
}

# b48_hosts: /etc/hosts of every member, naming every member; a member's
# own first lines come from B48_HOSTS_TOP_<name> (a Debian-style 127.0.1.1
# line, say). Also the --hosts file of the mesh, $B48_OUT/hosts.
b48_hosts() {
	: >"$B48_OUT/hosts"
	_all=""
	for _m in $B48_MEMBERS; do
		_all="$_all
$(b48_addr "$_m") $_m"
		echo "$_m" >>"$B48_OUT/hosts"
	done
	for _m in $B48_MEMBERS; do
		_top=$(eval "printf '%s' \"\${B48_HOSTS_TOP_$_m:-}\"")
		printf '127.0.0.1 localhost\n%s%s\n' "${_top:+$_top
}" "$_all" | lab_hosts_stdin "$(cl_ns "$_m")"
	done
}

# b48_in NAME CMD...: CMD in member NAME's namespace under its hostname.
b48_in() {
	_n=$1
	shift
	ip netns exec "$(cl_ns "$_n")" unshare --uts sh -c \
		'hostname "$0"; exec "$@"' "$_n" "$@"
}

# b48_wait_links: bounded wait until every member has a link up beside lo.
b48_wait_links() {
	for _m in $B48_MEMBERS; do
		lab_wait 50 sh -c "ip -n '$(cl_ns "$_m")' -o link show up |
			grep -qv ' lo:'" || return 1
	done
}

# b48_client TAG: the torch Gloo job on every member at once (rank = the
# member's place in B48_MEMBERS, node 0's address the master); 0 when
# every rank's all_reduce was right. Output in $B48_OUT/TAG.client.
b48_client() {
	_d="$B48_OUT/client-$1"
	mkdir -p "$_d"
	_w=$(echo $B48_MEMBERS | wc -w)
	_r=0
	_pids=""
	_m0=$(echo $B48_MEMBERS | cut -d' ' -f1)
	for _m in $B48_MEMBERS; do
		(
			b48_in "$_m" timeout 40 "$B48_PY" "$B48_LIB/gloo_allreduce.py" \
				"$_r" "$_w" "$(b48_addr "$_m0")" >"$_d/$_m.out" 2>&1
			echo $? >"$_d/$_m.rc"
		) &
		_pids="$_pids $!"
		_r=$((_r + 1))
	done
	# the ranks only: a cluster's own services run in the background too
	wait $_pids
	_bad=0
	for _m in $B48_MEMBERS; do
		[ "$(cat "$_d/$_m.rc")" = 0 ] || _bad=1
	done
	for _m in $B48_MEMBERS; do
		printf '%s rc=%s %s\n' "$_m" "$(cat "$_d/$_m.rc")" \
			"$(grep -m1 '^rank' "$_d/$_m.out" || tail -1 "$_d/$_m.out")"
	done >"$B48_OUT/$1.client"
	return "$_bad"
}

# b48_mesh TAG: netprobe mesh on every member, as gen.sh runs it (node 0
# writes the report, JSON, and the documents); waits at most 150 s. The
# report is $B48_OUT/TAG/report.json, the exit statuses TAG/NAME.rc.
b48_mesh() {
	_d="$B48_OUT/$1"
	mkdir -p "$_d"
	_first=1
	for _m in $B48_MEMBERS; do
		if [ "$_first" = 1 ]; then
			set -- --format json -o "$_d/report.json" --out "$_d/docs"
			_first=0
		else
			set --
		fi
		(
			b48_in "$_m" env ${B48_ENV:-} "$NETPROBE" mesh \
				--hosts "$B48_OUT/hosts" --join-timeout 30s \
				--ports torch "$@" >"$_d/$_m.out" 2>"$_d/$_m.err"
			echo $? >"$_d/$_m.rc"
		) &
	done
	_n=$(echo $B48_MEMBERS | wc -w)
	_t=1500
	while [ "$_t" -gt 0 ]; do
		[ "$(ls "$_d"/*.rc 2>/dev/null | wc -l)" -ge "$_n" ] && return 0
		sleep 0.1
		_t=$((_t - 1))
	done
	return 1
}

# b48_settle: every member forgets its neighbour entries. After a fix the
# caches still hold what the fault taught them (a clone's ARP answers)
# for up to a minute; an operator's fix is not judged on that timing.
b48_settle() {
	for _m in $B48_MEMBERS; do
		ip -n "$(cl_ns "$_m")" neigh flush all 2>/dev/null
	done
	return 0
}

# b48_truth COLUMN: the cluster's truth.tsv field (1-based).
b48_truth() {
	awk -F'\t' -v id="$B48_ID" -v c="$1" '$1 == id { print $c }' \
		"$B48_DIR/truth.tsv"
}

# b48_main MODE: see the head of this file.
b48_main() {
	lab_require nft jq unshare >/dev/null
	exec 3>&1 >"$B48_OUT/log" 2>&1
	b48_build
	b48_hosts
	! command -v b48_after_hosts >/dev/null || b48_after_hosts
	b48_wait_links || { echo "$B48_ID	ERROR	links not up" >&3; exit 1; }
	case "${1:-validate}" in
	validate) b48_validate ;;
	judge) . "$B48_LIB/judge_lib.sh"; b48_judge ;;
	*) echo "usage: $0 validate|judge" >&3; exit 2 ;;
	esac
}

# b48_validate: the client fails as the thread's job did (passes when the
# truth says healthy), then passes after the thread's fix.
b48_validate() {
	_fault=$(b48_truth 4)
	if b48_client before; then _b=pass; else _b=fail; fi
	_want=fail
	[ "$_fault" = healthy ] && _want=pass
	_a=-
	if [ "$_fault" != healthy ]; then
		b48_fix
		if b48_client after; then _a=pass; else _a=fail; fi
	fi
	_v=ok
	[ "$_b" = "$_want" ] || _v=FAIL
	[ "$_fault" = healthy ] || [ "$_a" = pass ] || _v=FAIL
	printf '%s\tvalidate %s\tclient before the fix: %s (want %s), after: %s\n' \
		"$B48_ID" "$_v" "$_b" "$_want" "$_a" >&3
	sed 's/^/  before: /' "$B48_OUT/before.client" >&3
	[ ! -f "$B48_OUT/after.client" ] || sed 's/^/  after:  /' "$B48_OUT/after.client" >&3
	[ "$_v" = ok ]
}
