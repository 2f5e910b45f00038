/* How this process is attached to the network: container, WSL, VM, NAT and
 * bridge layering, each conclusion with its evidence. Collected from a
 * sysroot and the interface list; decided by pure functions. */
#ifndef NP_LAYERS_H
#define NP_LAYERS_H

#include <stdbool.h>

#include <jansson.h>

#include "doc/doc.h"
#include "kernel/iface.h"
#include "base/sysroot.h"

enum layer_container {
	CONTAINER_NONE = 0,
	CONTAINER_DOCKER,
	CONTAINER_PODMAN,
	CONTAINER_KUBERNETES,
	CONTAINER_CONTAINERD,
	CONTAINER_LXC,
	CONTAINER_OTHER,
};

enum layer_netmode {
	NETMODE_UNKNOWN = 0,
	NETMODE_HOST,        /* host network namespace, or the host itself */
	NETMODE_BRIDGE_NAT,  /* eth0 a veth to another netns, gw the bridge */
	NETMODE_MACVLAN,     /* macvlan/ipvlan with a routable address */
	NETMODE_OVERLAY,     /* an overlay (vxlan, geneve, flannel, calico) */
	NETMODE_NONE,        /* only loopback */
};

enum layer_wsl {
	WSL_NONE = 0,
	WSL_1,
	WSL_2_NAT,
	WSL_2_MIRRORED,
	WSL_2_UNKNOWN, /* WSL2, networking mode not determined */
};

/* Whether peers on other hosts can reach this process directly. */
enum layer_reach {
	REACH_UNKNOWN = 0, /* cannot tell from inside */
	REACH_DIRECT,      /* no NAT layer found */
	REACH_NAT,         /* behind one NAT layer */
	REACH_DOUBLE_NAT,  /* container inside WSL2 NAT, or similar */
};

struct layers {
	enum layer_container container;
	enum layer_netmode netmode;
	enum layer_wsl wsl;
	bool wsl_container;   /* a container inside WSL2 */
	char virt[32];        /* "kvm", "vmware", "none"... as a hint */
	enum layer_reach reach;
	long long shm_bytes;  /* /dev/shm size, -1 unknown */
	json_t *evidence;     /* owned: array of {fact, source} */
	json_t *bridges;      /* owned: array of {name, members[]} */
};

/* Collects and decides. ifaces may be NULL when unavailable (then only the
 * files decide). Returns 0, or -1 when nothing at all could be read. */
int layers_detect(struct layers *ly, const struct sysroot *sr,
		  const struct iface_list *ifaces);

/* Releases the owned JSON. */
void layers_free(struct layers *ly);

/* Below this /dev/shm inside a container is shm-small: NCCL's shared
 * memory transport wants 1 GiB, a container's default is 64 MB. */
#define LAYERS_SHM_MIN_BYTES (1LL << 30)

/* Adds the findings the layering implies (container-bridge-nat, wsl2-nat,
 * wsl-container-double-nat, shm-small) to d. Returns 0, or -1 on no
 * memory. */
int layers_findings(const struct layers *ly, struct doc *d);

/* The `layers` object of the JSON document (new reference). */
json_t *layers_to_json(const struct layers *ly);

/* Stable names for the enums, as used in JSON. */
const char *layers_container_name(enum layer_container c);
const char *layers_netmode_name(enum layer_netmode m);
const char *layers_wsl_name(enum layer_wsl w);
const char *layers_reach_name(enum layer_reach r);

#endif
