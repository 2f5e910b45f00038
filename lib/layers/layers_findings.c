/* netprobe layers, decide: the findings the layering implies, each with
 * its evidence and exact fix, from struct layers alone (pure but for the
 * document). */
#include "layers/layers.h"

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
int layers_findings(const struct layers *ly, struct doc *d)
{
	if (ly->reach == REACH_DOUBLE_NAT) {
		if (doc_add_finding(
		        d, FINDING_WSL_CONTAINER_DOUBLE_NAT, -1,
		        json_deep_copy(ly->evidence),
		        "run the container with docker run --network "
		        "host ... inside WSL, and set [wsl2] "
		        "networkingMode=mirrored in "
		        "%UserProfile%\\.wslconfig (then wsl "
		        "--shutdown); or use native Linux",
		        "%s container inside WSL2: two NAT layers "
		        "between this process and peers",
		        layers_container_name(ly->container)) < 0)
			return -1;
	} else if (ly->netmode == NETMODE_BRIDGE_NAT) {
		const char *who = ly->container == CONTAINER_NONE
		                      ? "network namespace"
		                      : layers_container_name(ly->container);

		if (doc_add_finding(
		        d, FINDING_CONTAINER_BRIDGE_NAT, -1,
		        json_deep_copy(ly->evidence), bridge_fix(ly->container),
		        "%s on a NAT'd bridge: peers on other hosts "
		        "cannot reach this process",
		        who) < 0)
			return -1;
	}
	if (ly->wsl == WSL_2_NAT &&
	    doc_add_finding(d, FINDING_WSL2_NAT, -1,
	                    json_deep_copy(ly->evidence),
	                    "add to %UserProfile%\\.wslconfig: [wsl2] "
	                    "networkingMode=mirrored, run wsl --shutdown, "
	                    "and allow the ports in the Hyper-V firewall",
	                    "WSL2 in NAT mode: peers cannot reach its "
	                    "address") < 0)
		return -1;
	if (ly->container != CONTAINER_NONE && ly->shm_bytes >= 0 &&
	    ly->shm_bytes < LAYERS_SHM_MIN_BYTES) {
		json_t *ev = NULL;

		evidence_add(&ev, "/dev/shm", "/dev/shm holds %lld MiB",
		             ly->shm_bytes >> 20);
		evidence_add(&ev, "layers", "inside a %s container",
		             layers_container_name(ly->container));
		if (doc_add_finding(
		        d, FINDING_SHM_SMALL, -1, ev,
		        ly->container == CONTAINER_KUBERNETES
		            ? "mount an emptyDir with medium: "
		              "Memory at /dev/shm"
		            : "run the container with "
		              "--shm-size=1g or --ipc=host",
		        "/dev/shm is %lld MiB, below the 1 GiB NCCL's "
		        "shared memory transport wants",
		        ly->shm_bytes >> 20) < 0)
			return -1;
	}
	return 0;
}
