/* Inside the layers module: the facts read from files and the pure deciders
 * over them, exposed so unit tests can feed them structs built in memory. */
#ifndef NP_LAYERS_INT_H
#define NP_LAYERS_INT_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>

#include "layers/layers.h"

/* The IPv4 default route and the connected prefix of its interface, as
 * /proc/net/route shows them. */
struct layers_route {
	bool have;              /* an IPv4 default route exists */
	char ifname[IF_NAMESIZE];
	bool has_gw;            /* false: on-link default */
	struct in_addr gw;
	bool has_subnet;        /* a connected route on ifname covers gw */
	struct in_addr net;     /* network address of that route */
	unsigned prefixlen;
};

/* What the files said, before any decision on the network. */
struct layers_facts {
	enum layer_container container;
	bool k8s;               /* any Kubernetes evidence */
	char osrelease[256];    /* /proc/sys/kernel/osrelease, "" unknown */
	bool run_wsl;           /* /run/WSL exists (inside the WSL distro) */
	bool wsl_interop;       /* WSL_INTEROP in PID 1's or our environment */
	bool binfmt_interop;    /* /proc/sys/fs/binfmt_misc/WSLInterop */
	struct layers_route def;
};

/* Parses the text of /proc/net/route into rt (first default route wins,
 * lowest metric). Returns 0, or -1 with errno EINVAL when the header is not
 * the kernel's. */
int layers_parse_route(const char *text, struct layers_route *rt);

/* Parses a mountinfo (or /proc/mounts when mounts is true) text for the
 * size= option of the tmpfs on /dev/shm. Returns bytes, -1 when absent, -2
 * when mounted without size= (then the kernel default: half of RAM). */
long long layers_parse_shm(const char *text, bool mounts);

/* The container from the container= value systemd uses ("docker", "lxc",
 * "oci"...). Returns CONTAINER_OTHER for an unknown non-empty name. */
enum layer_container layers_container_from_name(const char *name);

/* The virtualization a DMI string names, by systemd's vendor table (prefix
 * match), or NULL. */
const char *layers_dmi_vendor(const char *s);

/* Decides netmode, wsl, wsl_container and reach from the facts and the
 * interface list (NULL: files only), adding evidence to ly. Pure. */
void layers_decide(struct layers *ly, const struct layers_facts *f,
		   const struct iface_list *l);

/* Fills ly->bridges from the interface list. Returns 0, or -1 on no
 * memory. */
int layers_bridges(struct layers *ly, const struct iface_list *l);

#endif
