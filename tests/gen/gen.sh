# Generated clusters (issue 23): one seed builds one namespace cluster,
# injects its faults, runs netprobe mesh on every node, and judges the
# report against the ground truth (the oracle), then closes the loop: the
# printed fixes run verbatim on the nodes they name and the mesh must
# pass. The seed alone decides the cluster, so a failing seed reruns as
# it failed.
#
#   sh tests/gen/gen.sh SEED     one line: "SEED<TAB>nodes<TAB>topology<TAB>
#                                noise<TAB>faults<TAB>verdict<TAB>why"
#
# Topologies: one L2 segment (l2), two subnets behind a router (routed),
# or a VXLAN overlay (overlay: vxlan0 on every node, 10.231.30.0/24,
# over an underlay of veths on a bridge, 10.231.40.0/24, whose fabric
# forwards no IPv4 fragment; the jobs pin NCCL and Open MPI to vxlan0).
# Healthy noise, per node at random: an unused docker0-like bridge, a
# second NIC down, IPv6 addresses, Debian's default nftables ruleset, a
# service already listening on 29500 (a --ports port). Faults (0-3, on
# distinct nodes), each with its ground truth (cause kind and node):
# fw-drop (29500 dropped in its own table), fw-reject (29400 rejected
# with a reset), ufw (a ufw-style policy-drop ruleset), eph (the
# ephemeral range dropped), mtu-odd (l2, routed: lan0 at MTU 1400), hop
# (routed: the router's leg at MTU 1000, ICMP frag-needed dropped),
# ovl-mtu (overlay: one node's vxlan0 made without its underlay, so at
# 1500 over a 1500 underlay), ovl-all (overlay: every node's so), nat
# (l2, routed: the node runs in a Docker-style NAT'd container on its
# host, --hosts naming the host; its fix, host networking, is applied
# as a lab can: the node runs in its host's namespace). Every report is
# also rendered in every format, whose counts must agree. Namespaces are
# named np23-g<SEED>-..., removed on exit.
#
# For a look by hand: GEN_DRY=1 prints the seed's draw (seed, nodes,
# topology, faults) and builds nothing; GEN_TOPO and GEN_FAULTS (e.g.
# GEN_TOPO=overlay GEN_FAULTS="ovl-mtu@2") override the draw; KEEP=1
# keeps the run's folder.
SEED=${1:?usage: gen.sh SEED}
# The seed alone decides the draw: a plain decimal number, so that no
# spelling of it draws another cluster (dash reads 013 as octal 11 and
# fails on 08, which then printed no line at all).
case "$SEED" in
'' | *[!0-9]* | 0?*)
	echo "gen.sh: seed '$SEED' is not a decimal number without leading zeros" >&2
	exit 2 ;;
esac
LAB_ID="23-g$SEED-$$"
. "$(dirname "$0")/../lab/lib.sh"
. "$(dirname "$0")/../lab/mesh_lib.sh"
. "$(dirname "$0")/../lab/closedloop.sh"
lab_require nft jq unshare python3 >/dev/null

OUT=$(mktemp -d /tmp/np23-gen.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT"' EXIT
# a runner gone (its pipe closed) must not leave the namespaces behind
trap 'exit 129' HUP
trap 'exit 141' PIPE
exec 3>&1 >"$OUT/log" 2>&1

# The draw, the build, the faults and the oracle, one file each, run in
# this shell in that order: their variables and functions are shared.
. "$(dirname "$0")/gen_draw.sh"
. "$(dirname "$0")/gen_build.sh"
. "$(dirname "$0")/gen_faults.sh"
. "$(dirname "$0")/gen_oracle.sh"
