/* netprobe layers, emit: enum names, the `layers` JSON object and the
 * findings the layering implies, each with its evidence and exact fix. */
#include "layers/layers.h"

#include <stdio.h>

/* JSON names; an out-of-range value reads as the catch-all. */
const char *layers_container_name(enum layer_container c)
{
	static const char *const n[] = {
		[CONTAINER_NONE] = "none",
		[CONTAINER_DOCKER] = "docker",
		[CONTAINER_PODMAN] = "podman",
		[CONTAINER_KUBERNETES] = "kubernetes",
		[CONTAINER_CONTAINERD] = "containerd",
		[CONTAINER_LXC] = "lxc",
		[CONTAINER_OTHER] = "other",
	};

	return (size_t)c < sizeof(n) / sizeof(n[0]) ? n[c] : "other";
}

/* Netmode names as in netprobe-json(5). */
const char *layers_netmode_name(enum layer_netmode m)
{
	static const char *const n[] = {
		[NETMODE_UNKNOWN] = "unknown",
		[NETMODE_HOST] = "host",
		[NETMODE_BRIDGE_NAT] = "bridge-nat",
		[NETMODE_MACVLAN] = "macvlan",
		[NETMODE_OVERLAY] = "overlay",
		[NETMODE_NONE] = "none",
	};

	return (size_t)m < sizeof(n) / sizeof(n[0]) ? n[m] : "unknown";
}

/* WSL names; "wsl2" is WSL2 with its mode unknown. */
const char *layers_wsl_name(enum layer_wsl w)
{
	static const char *const n[] = {
		[WSL_NONE] = "none",
		[WSL_1] = "wsl1",
		[WSL_2_NAT] = "wsl2-nat",
		[WSL_2_MIRRORED] = "wsl2-mirrored",
		[WSL_2_UNKNOWN] = "wsl2",
	};

	return (size_t)w < sizeof(n) / sizeof(n[0]) ? n[w] : "none";
}

/* Reach names as in netprobe-json(5). */
const char *layers_reach_name(enum layer_reach r)
{
	static const char *const n[] = {
		[REACH_UNKNOWN] = "unknown",
		[REACH_DIRECT] = "direct",
		[REACH_NAT] = "nat",
		[REACH_DOUBLE_NAT] = "double-nat",
	};

	return (size_t)r < sizeof(n) / sizeof(n[0]) ? n[r] : "unknown";
}

/* Copies evidence and bridges, so ly stays the owner of its own. */
json_t *layers_to_json(const struct layers *ly)
{
	json_t *ev = ly->evidence ? json_deep_copy(ly->evidence) : json_array();
	json_t *br = ly->bridges ? json_deep_copy(ly->bridges) : json_array();

	return json_pack("{s:s, s:s, s:s, s:b, s:s, s:s, s:o, s:o, s:o}",
			 "container", layers_container_name(ly->container),
			 "netmode", layers_netmode_name(ly->netmode), "wsl",
			 layers_wsl_name(ly->wsl), "wsl_container",
			 ly->wsl_container, "virt", ly->virt, "reach",
			 layers_reach_name(ly->reach), "shm_bytes",
			 ly->shm_bytes >= 0 ? json_integer(ly->shm_bytes)
					    : json_null(),
			 "bridges", br, "evidence", ev);
}

/* The fix for a NAT'd container, in the command of its runtime. */
static const char *bridge_fix(enum layer_container c)
{
	switch (c) {
	case CONTAINER_PODMAN:
		return "run the container with host networking: podman run "
		       "--network host ...; or give it a routable address "
		       "(podman network create -d macvlan)";
	case CONTAINER_KUBERNETES:
		return "set hostNetwork: true in the pod spec, or attach a "
		       "routable secondary network (Multus macvlan/SR-IOV)";
	case CONTAINER_LXC:
		return "give the container a routable address: lxc.net.0.type "
		       "= macvlan (or a bridge with a physical NIC as member)";
	default:
		return "run the container with host networking: docker run "
		       "--network host ...; or give it a routable address "
		       "(docker network create -d macvlan); publishing ports "
		       "with -p is not enough, NCCL opens ephemeral ports";
	}
}

/* Double NAT replaces the single bridge finding: one cause, one fix. */
void layers_findings(const struct layers *ly, struct doc *d)
{
	if (ly->reach == REACH_DOUBLE_NAT) {
		doc_add_finding(d, FINDING_WSL_CONTAINER_DOUBLE_NAT, -1,
				json_deep_copy(ly->evidence),
				"run the container with docker run --network "
				"host ... inside WSL, and set [wsl2] "
				"networkingMode=mirrored in "
				"%UserProfile%\\.wslconfig (then wsl "
				"--shutdown); or use native Linux",
				"%s container inside WSL2: two NAT layers "
				"between this process and peers",
				layers_container_name(ly->container));
	} else if (ly->netmode == NETMODE_BRIDGE_NAT) {
		doc_add_finding(d, FINDING_CONTAINER_BRIDGE_NAT, -1,
				json_deep_copy(ly->evidence),
				bridge_fix(ly->container),
				"%s on a NAT'd bridge: peers on other hosts "
				"cannot reach this process",
				ly->container == CONTAINER_NONE
					? "network namespace"
					: layers_container_name(ly->container));
	}
	if (ly->wsl == WSL_2_NAT)
		doc_add_finding(d, FINDING_WSL2_NAT, -1,
				json_deep_copy(ly->evidence),
				"add to %UserProfile%\\.wslconfig: [wsl2] "
				"networkingMode=mirrored, run wsl --shutdown, "
				"and allow the ports in the Hyper-V firewall",
				"WSL2 in NAT mode: peers cannot reach its "
				"address");
	if (ly->container != CONTAINER_NONE && ly->shm_bytes >= 0 &&
	    ly->shm_bytes < (1LL << 30)) {
		json_t *ev = NULL;

		evidence_add(&ev, "/dev/shm", "/dev/shm holds %lld MiB",
			     ly->shm_bytes >> 20);
		evidence_add(&ev, "layers", "inside a %s container",
			     layers_container_name(ly->container));
		doc_add_finding(d, FINDING_SHM_SMALL, -1, ev,
				ly->container == CONTAINER_KUBERNETES
					? "mount an emptyDir with medium: "
					  "Memory at /dev/shm"
					: "run the container with "
					  "--shm-size=1g or --ipc=host",
				"/dev/shm is %lld MiB, below the 1 GiB NCCL's "
				"shared memory transport wants",
				ly->shm_bytes >> 20);
	}
}
