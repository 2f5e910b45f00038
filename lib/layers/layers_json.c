/* netprobe layers, emit: enum names and the `layers` JSON object (the
 * findings the layering implies are layers_findings.c's). */
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
