# Shared helpers for the namespace labs (sourced by tests/lab/t_*.sh).
# Rules (DEVELOPERS.md): never touch the root namespace's interfaces; create
# each veth end directly in its namespace; test LANs in 10.231.0.0/16,
# Docker-like 172.17.0.0/16 only inside namespaces; every namespace has a
# unique name and is removed by the EXIT trap; every wait is bounded.

set -u
LAB_ID="${LAB_ID:-$$}"
LAB_NS=""
LAB_PASS=0
LAB_FAIL=0
NETPROBE="${NETPROBE:-netprobe}"

lab_skip() {
	echo "skip - $*"
	exit 77
}

# Skips the script (exit 77) unless we are root with ip netns and nft.
lab_require() {
	[ "$(id -u)" = 0 ] || lab_skip "needs root for network namespaces"
	command -v ip >/dev/null 2>&1 || lab_skip "no ip command (iproute2)"
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || lab_skip "no $t"
	done
	ip netns add "np$LAB_ID-probe" 2>/dev/null ||
		lab_skip "cannot create network namespaces here"
	ip netns del "np$LAB_ID-probe"
}

lab_cleanup() {
	for ns in $LAB_NS; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null
		ip netns del "$ns" 2>/dev/null
		rm -rf "/etc/netns/$ns"
	done
}
trap lab_cleanup EXIT
trap 'exit 130' INT TERM

# lab_ns VAR SHORT: creates namespace "np<id>-SHORT", stores its name in VAR,
# brings its loopback up.
lab_ns() {
	_n="np$LAB_ID-$2"
	ip netns add "$_n" || { echo "not ok - ip netns add $_n"; exit 1; }
	LAB_NS="$LAB_NS $_n"
	ip -n "$_n" link set lo up
	eval "$1=\$_n"
}

# lab_veth NS1 IF1 NS2 IF2: a veth pair with each end created in its netns.
lab_veth() {
	ip link add name "$2" netns "$1" type veth peer name "$4" netns "$3"
}

# lab_docker_ctr HOST CT: CT as a Docker-style container of HOST: eth0 at
# 172.17.0.2 behind veth0 on HOST's docker0 (172.17.0.1/16, made where
# absent), its default route via the bridge, forwarding on in HOST. The
# NAT rules are the caller's.
lab_docker_ctr() {
	ip -n "$1" link show docker0 >/dev/null 2>&1 || {
		ip -n "$1" link add name docker0 type bridge
		ip -n "$1" addr add 172.17.0.1/16 dev docker0
	}
	ip -n "$1" link set docker0 up
	lab_veth "$2" eth0 "$1" veth0
	ip -n "$1" link set veth0 master docker0
	ip -n "$1" link set veth0 up
	ip -n "$2" addr add 172.17.0.2/16 dev eth0
	ip -n "$2" link set eth0 up
	ip -n "$2" route add default via 172.17.0.1
	ip netns exec "$1" sysctl -qw net.ipv4.ip_forward=1
}

# lab_hosts NS LINE...: an /etc/hosts seen only inside NS (ip netns exec
# bind-mounts /etc/netns/NS/hosts over /etc/hosts).
lab_hosts() {
	_ns=$1
	shift
	mkdir -p "/etc/netns/$_ns"
	printf '%s\n' "$@" >"/etc/netns/$_ns/hosts"
}

# jqv FILTER: jq -r FILTER over the JSON document a lab keeps in $J.
jqv() {
	printf '%s\n' "$J" | jq -r "$1"
}

# lab_wait TRIES CMD...: retries CMD every 0.1 s, at most TRIES times.
lab_wait() {
	_tries=$1
	shift
	while [ "$_tries" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		_tries=$((_tries - 1))
		sleep 0.1
	done
	return 1
}

lab_ok() {
	LAB_PASS=$((LAB_PASS + 1))
	echo "ok - $*"
}

lab_notok() {
	LAB_FAIL=$((LAB_FAIL + 1))
	echo "not ok - $*"
}

# lab_check DESC CMD...: passes when CMD exits 0.
lab_check() {
	_d=$1
	shift
	if "$@"; then lab_ok "$_d"; else lab_notok "$_d"; fi
}

# lab_rc WANT DESC CMD...: runs CMD (bounded by timeout 60), passes when
# its exit status is WANT; its output stays in $LAB_OUT.
lab_rc() {
	_want=$1
	_d=$2
	shift 2
	LAB_OUT=$(timeout 60 "$@" 2>&1)
	_rc=$?
	if [ "$_rc" = "$_want" ]; then
		lab_ok "$_d"
	else
		lab_notok "$_d (exit $_rc, wanted $_want)"
		printf '%s\n' "$LAB_OUT" | sed 's/^/    # /' | head -40
	fi
}

# lab_grep DESC PATTERN: passes when $LAB_OUT matches the extended regex.
lab_grep() {
	if printf '%s\n' "$LAB_OUT" | grep -Eq -- "$2"; then
		lab_ok "$1"
	else
		lab_notok "$1 (no match for '$2')"
		printf '%s\n' "$LAB_OUT" | sed 's/^/    # /' | head -40
	fi
}

# lab_nogrep DESC PATTERN: passes when $LAB_OUT does not match.
lab_nogrep() {
	if printf '%s\n' "$LAB_OUT" | grep -Eq -- "$2"; then
		lab_notok "$1 (unexpected match for '$2')"
		printf '%s\n' "$LAB_OUT" | sed 's/^/    # /' | head -40
	else
		lab_ok "$1"
	fi
}

# lab_done: the script's verdict line and exit status.
lab_done() {
	echo "# $LAB_PASS passed, $LAB_FAIL failed"
	[ "$LAB_FAIL" = 0 ]
}
