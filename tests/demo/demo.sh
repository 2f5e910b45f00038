#!/bin/sh
# make demo: a small simulated cluster in network namespaces, probed with
# every netprobe command this build has, then `netprobe report` in every
# format. Three nodes on one LAN (10.231.60.0/24): gpu-a and gpu-b run on
# the host network, gpu-c trains inside a Docker-style container on
# 172.17.0.2 behind nftables masquerade on its host; gpu-b's firewall
# drops new connections to the ephemeral port range and its NIC has a
# smaller MTU than the rest of the LAN. Needs root.
#
# usage: tests/demo/demo.sh [DIR]     (default build/demo)
# Documents go to DIR/docs/, reports to DIR/report.{txt,md,html,json,xml},
# what could not run to DIR/NOTES.txt.
LAB_ID="demo$$"
. "$(dirname "$0")/../lab/lib.sh"
out=${1:-build/demo}
if [ "$(id -u)" != 0 ]; then
	echo "demo: needs root for network namespaces" >&2
	exit 2
fi
for t in ip nft unshare python3; do
	command -v "$t" >/dev/null 2>&1 || {
		echo "demo: needs $t" >&2
		exit 2
	}
done
case $NETPROBE in
/*) ;;
*) NETPROBE=$(command -v "$NETPROBE") || exit 2 ;;
esac
mkdir -p "$out/docs" || exit 2
rm -f "$out"/docs/*.json "$out/NOTES.txt"
notes="$out/NOTES.txt"
: >"$notes"

note() {
	echo "demo: $*"
	echo "$*" >>"$notes"
}

# Each node has its own hostname (a UTS namespace) so documents name it.
HN='hostname "$0"; exec "$@"'

# doc NS NODE FILE COMMAND ARGS...: runs netprobe COMMAND --json on NODE,
# bounded in time, and keeps the document when one came out. A command
# this build does not have yet is noted and skipped.
doc() {
	_ns=$1 _node=$2 _file=$3 _cmd=$4
	shift 4
	ip netns exec "$_ns" unshare --uts sh -c "$HN" "$_node" \
		timeout 60 "$NETPROBE" "$_cmd" --json "$@" \
		>"$out/docs/$_file.tmp" 2>"$out/docs/$_file.err" </dev/null
	_rc=$?
	if grep -q "not implemented yet" "$out/docs/$_file.err"; then
		note "skipped: netprobe $_cmd is not implemented in this build"
	elif python3 -c 'import json,sys; json.load(open(sys.argv[1]))' \
		"$out/docs/$_file.tmp" 2>/dev/null; then
		mv "$out/docs/$_file.tmp" "$out/docs/$_file.json"
		echo "demo: $_node: netprobe $_cmd (exit $_rc) -> docs/$_file.json"
	else
		note "failed: $_node: netprobe $_cmd $* (exit $_rc): $(head -n 1 "$out/docs/$_file.err")"
	fi
	rm -f "$out/docs/$_file.tmp" "$out/docs/$_file.err"
}

# has COMMAND: true when this build implements it.
has() {
	! "$NETPROBE" "$1" --help 2>&1 | grep -q "not implemented yet"
}

# --- the LAN: a bridge in its own namespace, one port per node
lab_ns SW sw
lab_ns A gpua
lab_ns B gpub
lab_ns H gpuchost
lab_ns C gpuc
ip -n "$SW" link add name br0 type bridge
ip -n "$SW" link set br0 up
i=0
for ns in "$A" "$B" "$H"; do
	i=$((i + 1))
	lab_veth "$ns" eth0 "$SW" "p$i"
	ip -n "$SW" link set "p$i" master br0
	ip -n "$SW" link set "p$i" up
	ip -n "$ns" addr add "10.231.60.1$i/24" dev eth0
	ip -n "$ns" link set eth0 up
	ip -n "$ns" route add default via 10.231.60.254 dev eth0
done

# --- gpu-c: a container on the host's docker0, masqueraded to the LAN
ip -n "$H" link add name docker0 type bridge
ip -n "$H" addr add 172.17.0.1/16 dev docker0
ip -n "$H" link set docker0 up
lab_veth "$C" eth0 "$H" vethc0
ip -n "$H" link set vethc0 master docker0
ip -n "$H" link set vethc0 up
ip -n "$C" addr add 172.17.0.2/16 dev eth0
ip -n "$C" link set eth0 up
ip -n "$C" route add default via 172.17.0.1 dev eth0
ip netns exec "$H" sysctl -qw net.ipv4.ip_forward=1
ip netns exec "$H" nft -f - <<'NFT'
table ip demo_nat {
	chain post {
		type nat hook postrouting priority 100;
		ip saddr 172.17.0.0/16 oifname "eth0" masquerade
	}
}
NFT

# --- gpu-b: a firewall that lets fixed ports in but not the ephemeral range
ip netns exec "$B" nft -f - <<'NFT'
table inet demo_filter {
	chain input {
		type filter hook input priority 0;
		ct state established,related accept
		tcp dport 32768-60999 drop
	}
}
NFT

# --- gpu-b: its NIC was left at MTU 1400 while the LAN runs 1500
ip -n "$B" link set eth0 mtu 1400

hosts="10.231.60.11 gpu-a
10.231.60.12 gpu-b
172.17.0.2 gpu-c"
for ns in "$A" "$B" "$C"; do
	# shellcheck disable=SC2086
	lab_hosts "$ns" "127.0.0.1 localhost" "$hosts"
done

# --- responders on every node, when this build has them
if has serve; then
	for pair in "$A:gpu-a" "$B:gpu-b" "$C:gpu-c"; do
		ns=${pair%%:*} node=${pair##*:}
		ip netns exec "$ns" unshare --uts sh -c "$HN" "$node" \
			timeout 300 "$NETPROBE" serve -p 7470 \
			>/dev/null 2>&1 </dev/null &
	done
	# bounded wait for the responders' TCP listeners
	for ns in "$A" "$B" "$C"; do
		lab_wait 50 sh -c "ip netns exec $ns ss -ltn | grep -q ':7470 '" ||
			note "failed: a responder did not start in $ns"
	done
else
	note "skipped: netprobe serve is not implemented in this build (no peer tests)"
fi

# --- each node's own view
for pair in "$A:gpu-a:gpu-b:gpu-c" "$B:gpu-b:gpu-a:gpu-c" \
	"$C:gpu-c:gpu-a:gpu-b"; do
	ns=${pair%%:*}
	rest=${pair#*:}
	node=${rest%%:*}
	rest=${rest#*:}
	p1=${rest%%:*} p2=${rest##*:}
	if has scan; then
		if has serve; then
			doc "$ns" "$node" "$node-scan" scan --peer "$p1" \
				--peer "$p2"
		else
			doc "$ns" "$node" "$node-scan" scan
		fi
	else
		doc "$ns" "$node" "$node-ifaces" ifaces
		doc "$ns" "$node" "$node-layers" layers
	fi
done

# --- between nodes
if has serve; then
	has ports && doc "$A" gpu-a gpu-a-ports-gpu-b ports --both-ways \
		gpu-b 7470,torch,ephemeral
	has ports && doc "$A" gpu-a gpu-a-ports-gpu-c ports gpu-c 7470,29500
	has heartbeat && doc "$A" gpu-a gpu-a-heartbeat-gpu-b heartbeat \
		-d 3s gpu-b
	has path && doc "$A" gpu-a gpu-a-path-gpu-b path gpu-b
	for c in ports heartbeat path; do
		has "$c" ||
			note "skipped: netprobe $c is not implemented in this build"
	done
fi

# --- the report, in every format
ls "$out"/docs/*.json >/dev/null 2>&1 || {
	echo "demo: no document was written" >&2
	exit 2
}
for f in text:txt markdown:md html:html json:json junit:xml; do
	"$NETPROBE" report --format "${f%%:*}" -o "$out/report.${f##*:}" \
		"$out/docs"
	rc=$?
	[ "$rc" -le 1 ] || {
		echo "demo: netprobe report --format ${f%%:*} failed" >&2
		exit 2
	}
done
echo "demo: reports in $out/report.{txt,md,html,json,xml} (gate exit $rc)"
[ -s "$notes" ] && echo "demo: notes in $notes"
cat "$out/report.txt"
exit 0
