/* The rdma-* findings: what keeps NCCL off InfiniBand/RoCE or slows it,
 * each quoting the line NCCL 2.28 prints in that case (the sources are
 * in docs/nccl-ib-rules.md), and what --export may pin. */
#include "decide/decide_rdma.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/jobenv.h"

#define NCCL_SAYS "NCCL prints: "

/* The port's text "mlx5_0:1". */
static void port_name(const struct rdma_dev *d, const struct rdma_port *p,
                      char *buf, size_t len)
{
	snprintf(buf, len, "%s:%u", d->name, p->num);
}

/* Appends ",x" (or "x") to buf. */
static void list_add(char *buf, size_t len, const char *x)
{
	size_t off = strlen(buf);

	if (off < len)
		snprintf(buf + off, len - off, "%s%s", off ? "," : "", x);
}

/* The nearest distance from GPU g to a port of the list (or any ACTIVE
 * port of link layer ll when picks is NULL), and that device. */
static enum rdma_path gpu_nearest(const struct rdma_info *info, int g,
                                  const struct ib_choice *picks,
                                  enum rdma_link ll, int *dev)
{
	enum rdma_path best = RDMA_PATH_UNKNOWN;

	*dev = -1;
	for (int d = 0; d < info->ndevs; d++) {
		const struct rdma_dev *x = &info->devs[d];
		bool ok = false;
		enum rdma_path p;

		if (picks != NULL) {
			for (int i = 0; i < picks->n; i++)
				ok |= picks->v[i].dev == d;
		} else {
			for (int i = 0; i < x->nports; i++)
				ok |= x->ports[i].state == 4 &&
				      x->ports[i].link == ll;
		}
		if (!ok)
			continue;
		p = rdma_pci_distance(x->pci_path, x->numa,
		                      info->gpus[g].pci_path, info->gpus[g].numa);
		if (p != RDMA_PATH_UNKNOWN &&
		    (best == RDMA_PATH_UNKNOWN || p < best)) {
			best = p;
			*dev = d;
		}
	}
	return best;
}

/* The link layer most chosen ports have (InfiniBand on a tie). */
static enum rdma_link main_link(const struct rdma_info *info,
                                const struct ib_choice *c)
{
	int ib = 0, eth = 0;

	for (int i = 0; i < c->n; i++) {
		if (info->devs[c->v[i].dev].ports[c->v[i].port].link ==
		    RDMA_LINK_IB)
			ib++;
		else
			eth++;
	}
	return eth > ib ? RDMA_LINK_ETH : RDMA_LINK_IB;
}

/* Within NCCL_NET_GDR_LEVEL's default (PXB), and known. */
static bool path_near(enum rdma_path p)
{
	return p != RDMA_PATH_UNKNOWN && p <= RDMA_PATH_PXB;
}

/* The ports --export names: every ACTIVE port of the fabric's link
 * layer, and where GPUs are known only those nearest (PIX or PXB) to
 * one, in NCCL_IB_HCA's exact form with ports. */
static void export_list(const struct rdma_info *info, enum rdma_link ll,
                        char *buf, size_t len)
{
	char name[RDMA_NAME + 16];
	bool any_near = false;

	/* with no port near a GPU (a VM's flat bus), every port counts */
	for (int d = 0; d < info->ndevs; d++)
		for (int g = 0; g < info->ngpus; g++)
			any_near |= path_near(rdma_pci_distance(
			    info->devs[d].pci_path, info->devs[d].numa,
			    info->gpus[g].pci_path, info->gpus[g].numa));
	buf[0] = '\0';
	for (int d = 0; d < info->ndevs; d++) {
		const struct rdma_dev *x = &info->devs[d];

		for (int i = 0; i < x->nports; i++) {
			bool near = info->ngpus == 0 || !any_near;

			if (x->ports[i].state != 4 || x->ports[i].link != ll)
				continue;
			for (int g = 0; g < info->ngpus; g++)
				near |= path_near(rdma_pci_distance(
				    x->pci_path, x->numa, info->gpus[g].pci_path,
				    info->gpus[g].numa));
			if (!near)
				continue;
			port_name(x, &x->ports[i], name, sizeof(name));
			list_add(buf, len, name);
		}
	}
}

/* rdma-netns-exclusive, rdma-uverbs-missing, rdma-ib-fallback. Returns
 * true when NCCL cannot use IB at all and NCCL_IB_HCA is not the cause
 * (the rest is then moot). */
static int judge_access(const struct rdma_info *info, const struct ib_env *e,
                         enum layer_container ct, const struct ib_choice *c,
                         struct doc *d)
{
	json_t *ev = NULL;

	if (info->ndevs == 0 && info->pci_rdma_funcs > 0 &&
	    info->netns_mode == 0) {
		evidence_add(&ev, "rdma", "the RDMA subsystem's netns mode is "
		             "exclusive (%s)", info->netns_from);
		evidence_add(&ev, "sysfs", "/sys/class/infiniband is empty "
		             "in this network namespace");
		evidence_add(&ev, "sysfs", "%d Mellanox (0x15b3) PCI "
		             "function%s on the bus", info->pci_rdma_funcs,
		             info->pci_rdma_funcs == 1 ? "" : "s");
		evidence_add(&ev, "nccl", NCCL_SAYS "NET/IB : No device found.");
		if (doc_add_finding(d, FINDING_RDMA_NETNS_EXCLUSIVE, -1, ev,
    		                "on the host, move each device this job uses "
    		                "into its netns: rdma dev set mlx5_0 netns "
    		                "NETNS_NAME; or make the mode shared for good "
    		                "with 'options ib_core netns_mode=1' in "
    		                "/etc/modprobe.d/ib_core.conf",
    		                "the RDMA devices live in another network "
    		                "namespace (netns mode exclusive): NCCL finds "
    		                "none and falls back to sockets") < 0)
			return -1;
		return 1;
	}
	if (info->ndevs > 0 && info->nuverbs == 0) {
		char fix[1024] = "";

		evidence_add(&ev, "sysfs", "%d RDMA device%s in "
		             "/sys/class/infiniband", info->ndevs,
		             info->ndevs == 1 ? "" : "s");
		evidence_add(&ev, "dev", "%s", info->dev_dir
		             ? "/dev/infiniband holds no uverbs file"
		             : "/dev/infiniband does not exist");
		evidence_add(&ev, "nccl", NCCL_SAYS "NET/IB : Unable to open "
		             "device %s; then NET/IB : No device found.; then "
		             "NET/Socket : Using ...", info->devs[0].name);
		if (ct == CONTAINER_KUBERNETES) {
			snprintf(fix, sizeof(fix),
			         "give the pod an RDMA device and IPC_LOCK: "
			         "resources.limits rdma/hca_shared_devices_a: 1 "
			         "(k8s-rdma-shared-dev-plugin) or the NVIDIA "
			         "Network Operator's RDMA resource, and "
			         "securityContext.capabilities.add: "
			         "[\"IPC_LOCK\"]");
		} else if (ct != CONTAINER_NONE) {
			snprintf(fix, sizeof(fix), "start the container with");
			for (int i = 0; i < info->ndevs && i < 16; i++) {
				size_t o = strlen(fix);

				snprintf(fix + o, sizeof(fix) - o,
				         " --device=/dev/infiniband/uverbs%d", i);
			}
			strncat(fix, " --device=/dev/infiniband/rdma_cm "
			        "--cap-add=IPC_LOCK --ulimit memlock=-1:-1 "
			        "(or --device=/dev/infiniband for all)",
			        sizeof(fix) - strlen(fix) - 1);
		} else {
			snprintf(fix, sizeof(fix), "modprobe ib_uverbs (and "
			         "add ib_uverbs to /etc/modules-load.d/rdma.conf)");
		}
		if (doc_add_finding(d, FINDING_RDMA_UVERBS_MISSING, -1, ev, fix,
    		                "RDMA devices are visible but their "
    		                "/dev/infiniband/uverbs files are not: NCCL "
    		                "cannot open them and falls back to sockets") < 0)
			return -1;
		return 1;
	}
	if (c->fallback && (info->ndevs > 0 || info->pci_rdma_funcs > 0)) {
		bool deliberate = (e->disable != NULL && c->n == 0 &&
		                   strstr(c->why, "DISABLE") != NULL) ||
		                  strstr(c->why, "NCCL_NET") != NULL;
		char list[512], fix[600];
		int rc;

		ev = NULL;
		evidence_add(&ev, "nccl-rules", "%s", c->why);
		evidence_add(&ev, "nccl", NCCL_SAYS "%s%s", c->nccl_says,
		             strstr(c->why, "NCCL_NET=IB") != NULL
		                 ? ""
		                 : "; then NET/Socket : Using "
		                   "[0]IFNAME:ADDR<0>");
		export_list(info, RDMA_LINK_IB, list, sizeof(list));
		if (list[0] == '\0')
			export_list(info, RDMA_LINK_ETH, list, sizeof(list));
		if (deliberate)
			snprintf(fix, sizeof(fix), "unset NCCL_IB_DISABLE "
			         "NCCL_NET to let NCCL use RDMA");
		else if (list[0] != '\0')
			snprintf(fix, sizeof(fix), "export NCCL_IB_HCA==%s",
			         list);
		else
			snprintf(fix, sizeof(fix), "bring an RDMA port to "
			         "ACTIVE (ibstat: check the cable, the subnet "
			         "manager or the switch port)");
		if (strstr(c->why, "NCCL_NET=IB") != NULL)
			rc = doc_add_finding(d, FINDING_RDMA_IB_FALLBACK,
			                     SEV_FAULT, ev, fix,
			                     "NCCL cannot use RDMA here (%s)",
			                     c->why);
		else
			rc = doc_add_finding(
			    d, FINDING_RDMA_IB_FALLBACK, deliberate ? SEV_INFO : -1,
			    ev, fix,
			    "NCCL would not use RDMA here (%s): it falls back "
			    "to NET/Socket, 10-50x slower, and the job still "
			    "runs",
			    c->why);
		if (rc < 0)
			return -1;
		/* NCCL_IB_HCA's own faults still name what it got wrong */
		return strstr(c->why, "NCCL_IB_HCA") == NULL;
	}
	return 0;
}

/* rdma-memlock: verbs pin every registered buffer against
 * RLIMIT_MEMLOCK. */
static int judge_memlock(const struct rdma_info *info, bool in_container,
                          struct doc *d)
{
	json_t *ev = NULL;

	if (info->memlock_soft < 0 || info->memlock_soft >= RDMA_MEMLOCK_MIN)
		return 0;
	evidence_add(&ev, "proc", "/proc/self/limits: Max locked memory "
	             "%lld (soft) %s (hard) bytes", info->memlock_soft,
	             info->memlock_hard == -1 ? "unlimited" : "limited");
	evidence_add(&ev, "nccl", NCCL_SAYS "Call to ibv_reg_mr failed with "
	             "error Cannot allocate memory");
	if (doc_add_finding(d, FINDING_RDMA_MEMLOCK, -1, ev,
    	                in_container
    	                    ? "start the container with --ulimit memlock=-1:-1 "
    	                      "(Kubernetes: raise the runtime's default, e.g. "
    	                      "LimitMEMLOCK=infinity in containerd.service)"
    	                    : "add '* - memlock unlimited' to "
    	                      "/etc/security/limits.conf (and "
    	                      "LimitMEMLOCK=infinity to slurmd.service or the "
    	                      "job's unit), then log in again",
    	                "RLIMIT_MEMLOCK is %lld KiB: NCCL's memory "
    	                "registrations will fail",
    	                info->memlock_soft / 1024) < 0)
		return -1;
	return 0;
}

/* rdma-hca-missing and rdma-port-down for each entry NCCL_IB_HCA names
 * (the '^' form excludes, so a missing name there is harmless). */
static int judge_hca(const struct rdma_info *info, const struct ib_env *e,
                      const struct ib_choice *c, const char *good,
                      struct doc *d)
{
	struct nccl_netif list[IB_MAX_PICKS];
	const char *s = e->hca;
	bool exact = false;
	char missing[512] = "", down[512] = "", fix[600];
	int n;

	if (s == NULL || s[0] == '^')
		return 0;
	if (s[0] == '=') {
		exact = true;
		s++;
	}
	n = nccl_iflist_parse(s, list, IB_MAX_PICKS);
	for (int i = 0; i < n; i++) {
		bool dev_seen = false, port_seen = false, active = false;
		char buf[NCCL_IF_PREFIX + 48];

		for (int k = 0; k < info->ndevs; k++) {
			const struct rdma_dev *x = &info->devs[k];
			size_t len = exact ? strlen(x->name) + 1
			                   : strlen(list[i].prefix);

			if (strncmp(x->name, list[i].prefix, len) != 0)
				continue;
			dev_seen = true;
			for (int p = 0; p < x->nports; p++)
				if (list[i].port == -1 ||
				    list[i].port == (int)x->ports[p].num) {
					port_seen = true;
					active |= x->ports[p].state == 4;
				}
		}
		if (list[i].port >= 0)
			snprintf(buf, sizeof(buf), "%s:%d", list[i].prefix,
			         list[i].port);
		else
			snprintf(buf, sizeof(buf), "%s", list[i].prefix);
		if (!dev_seen || !port_seen)
			list_add(missing, sizeof(missing), buf);
		else if (!active)
			list_add(down, sizeof(down), buf);
	}
	if (good[0] != '\0')
		snprintf(fix, sizeof(fix), "export NCCL_IB_HCA==%s", good);
	else
		snprintf(fix, sizeof(fix), "unset NCCL_IB_HCA");
	if (missing[0] != '\0') {
		json_t *ev = NULL;

		evidence_add(&ev, "env", "NCCL_IB_HCA=%s", e->hca);
		evidence_add(&ev, "sysfs", "no such device or port in "
		             "/sys/class/infiniband: %s", missing);
		evidence_add(&ev, "nccl", NCCL_SAYS "nothing for it: it is "
		             "missing from 'NET/IB : Using ...'%s",
		             c->n == 0 ? "; NET/IB : No device found." : "");
		if (doc_add_finding(d, FINDING_RDMA_HCA_MISSING, -1, ev, fix,
    		                "NCCL_IB_HCA names what this node does not "
    		                "have: %s", missing) < 0)
			return -1;
	}
	if (down[0] != '\0') {
		json_t *ev = NULL;

		evidence_add(&ev, "env", "NCCL_IB_HCA=%s", e->hca);
		evidence_add(&ev, "sysfs", "not ACTIVE (ports/N/state): %s",
		             down);
		evidence_add(&ev, "nccl", NCCL_SAYS "nothing for it: "
		             "ncclIbInit skips ports that are not "
		             "IBV_PORT_ACTIVE%s",
		             c->n == 0 ? "; NET/IB : No device found." : "");
		if (doc_add_finding(d, FINDING_RDMA_PORT_DOWN,
    		                c->n == 0 ? SEV_FAULT : SEV_WARNING, ev, fix,
    		                "NCCL_IB_HCA names port%s that %s down: %s",
    		                strchr(down, ',') ? "s" : "",
    		                strchr(down, ',') ? "are" : "is", down) < 0)
			return -1;
	}
	return 0;
}

/* What an entry of the GID table is wrong for, or NULL when NCCL can use
 * it across subnets. */
static const char *gid_fault(const struct rdma_port *p, int idx, int ver)
{
	static const unsigned char zero[16];
	const struct rdma_gid *g = idx < p->ngids ? &p->gids[idx] : NULL;

	if (idx >= p->gid_tbl_len)
		return "beyond the GID table";
	if (g == NULL || memcmp(g->raw, zero, 16) == 0)
		return "an empty entry";
	if (ib_gid_link_local(g->raw))
		return "a link-local GID (fe80::), which no router forwards";
	if (g->type == RDMA_GID_ROCE_V1 && ver == 2)
		return "RoCE v1, which is not routable and does not talk to "
		       "RoCE v2 peers";
	return NULL;
}

/* rdma-gid-index (NCCL_IB_GID_INDEX) and rdma-gid-auto (NCCL's own
 * choice), on RoCE ports. */
static int judge_gid(const struct rdma_info *info, const struct ib_env *e,
                      const struct ib_choice *c, int good_idx,
                      struct doc *d)
{
	char bad[512] = "", why[160] = "", autobad[512] = "";
	int ver = 2, aidx = 0;

	if (e->roce_version != NULL && strcmp(e->roce_version, "1") == 0)
		ver = 1;
	for (int i = 0; i < c->n; i++) {
		const struct rdma_dev *x = &info->devs[c->v[i].dev];
		const struct rdma_port *p = &x->ports[c->v[i].port];
		const char *f;
		char name[RDMA_NAME + 16];

		if (p->link != RDMA_LINK_ETH)
			continue;
		port_name(x, p, name, sizeof(name));
		f = gid_fault(p, c->v[i].gid_index, ver);
		if (f != NULL && c->v[i].gid_forced) {
			list_add(bad, sizeof(bad), name);
			snprintf(why, sizeof(why), "%s", f);
		} else if (f != NULL) {
			list_add(autobad, sizeof(autobad), name);
			aidx = c->v[i].gid_index;
			snprintf(why, sizeof(why), "%s", f);
		}
	}
	if (bad[0] != '\0') {
		json_t *ev = NULL;
		char fix[128];

		evidence_add(&ev, "env", "NCCL_IB_GID_INDEX=%s", e->gid_index);
		evidence_add(&ev, "sysfs", "entry %s on %s is %s (gids/N, "
		             "gid_attrs/types/N)", e->gid_index, bad, why);
		evidence_add(&ev, "nccl", NCCL_SAYS "%s",
		             strstr(why, "beyond") != NULL
		                 ? "Call to ibv_query_gid failed with error "
		                   "Invalid argument errno 22"
		                 : "NET/IB: Got completion from peer ... with "
		                   "status=12 ... (connections time out: "
		                   "transport retry counter exceeded)");
		if (good_idx >= 0)
			snprintf(fix, sizeof(fix), "export NCCL_IB_GID_INDEX=%d",
			         good_idx);
		else
			snprintf(fix, sizeof(fix), "unset NCCL_IB_GID_INDEX "
			         "(NCCL then picks the RoCE v2 IPv4 GID)");
		if (doc_add_finding(d, FINDING_RDMA_GID_INDEX, -1, ev, fix,
    		                "NCCL_IB_GID_INDEX=%s points at %s on %s",
    		                e->gid_index, why, bad) < 0)
			return -1;
	}
	if (autobad[0] != '\0') {
		json_t *ev = NULL;

		evidence_add(&ev, "nccl-rules", "ncclIbGetGidIndex would take "
		             "%s on %s", why, autobad);
		evidence_add(&ev, "nccl", NCCL_SAYS "NET/IB: ... IbDev N Port "
		             "N qpn N mtu N GID %d (...) with that entry "
		             "(NCCL_DEBUG_SUBSYS=NET); across subnets the "
		             "connections time out",
		             aidx);
		if (doc_add_finding(d, FINDING_RDMA_GID_AUTO, -1, ev,
    		                "give the RoCE netdev its fabric IPv4 address "
    		                "(ip addr add ADDR/PREFIX dev NETDEV) so the "
    		                "port gets a RoCE v2 IPv4 GID",
    		                "NCCL's own GID choice on %s is %s: the "
    		                "port's netdev has no usable address",
    		                autobad, why) < 0)
			return -1;
	}
	return 0;
}

/* rdma-netdev-netns: a RoCE port whose netdev lives in another netns. */
static int judge_netdev(const struct rdma_info *info,
                         const struct ib_choice *c, struct doc *d)
{
	char list[512] = "";

	for (int i = 0; i < c->n; i++) {
		const struct rdma_dev *x = &info->devs[c->v[i].dev];
		const struct rdma_port *p = &x->ports[c->v[i].port];
		char buf[RDMA_NAME + IF_NAMESIZE + 24];

		if (p->link != RDMA_LINK_ETH || p->netdev[0] == '\0' ||
		    p->netdev_here)
			continue;
		snprintf(buf, sizeof(buf), "%s:%u (%s)", x->name, p->num,
		         p->netdev);
		list_add(list, sizeof(list), buf);
	}
	if (list[0] != '\0') {
		json_t *ev = NULL;

		evidence_add(&ev, "sysfs", "gid_attrs/ndevs names a netdev "
		             "absent from this netns's /sys/class/net: %s",
		             list);
		evidence_add(&ev, "rdma", "netns mode %s",
		             info->netns_mode == 1   ? "shared"
		             : info->netns_mode == 0 ? "exclusive"
		                                     : "unknown");
		evidence_add(&ev, "nccl", NCCL_SAYS "NET/IB : Using [0]%s... "
		             "with no sign that the netdev is elsewhere",
		             info->devs[c->v[0].dev].name);
		if (doc_add_finding(d, FINDING_RDMA_NETDEV_NETNS, -1, ev,
    		                "give the container the RoCE netdev (host "
    		                "networking, or an SR-IOV VF moved in with 'ip "
    		                "link set VF netns NETNS' and 'rdma dev set "
    		                "DEV netns NETNS' in exclusive mode)",
    		                "RoCE traffic would leave by netdevs of another "
    		                "network namespace, with its addresses, routes "
    		                "and firewall: %s",
    		                list) < 0)
			return -1;
	}
	return 0;
}

/* rdma-nic-far: a GPU whose nearest chosen NIC is farther than an
 * ACTIVE one NCCL_IB_HCA leaves out; rdma-gdr-off. */
static int judge_place(const struct rdma_info *info, const struct ib_env *e,
                        const struct ib_choice *c, const char *good,
                        struct doc *d)
{
	enum rdma_link ll = main_link(info, c);
	char far[1024] = "", nogdr[512] = "";

	for (int g = 0; g < info->ngpus; g++) {
		int used, best;
		enum rdma_path pu = gpu_nearest(info, g, c, ll, &used);
		enum rdma_path pb = gpu_nearest(info, g, NULL, ll, &best);
		char buf[200];

		if (pu != RDMA_PATH_UNKNOWN && pb != RDMA_PATH_UNKNOWN &&
		    pb < pu) {
			snprintf(buf, sizeof(buf), "GPU %s: %s at %s, not %s at "
			         "%s", info->gpus[g].pci,
			         info->devs[used].name, rdma_path_name(pu),
			         info->devs[best].name, rdma_path_name(pb));
			list_add(far, sizeof(far), buf);
		}
		if (pu > RDMA_PATH_PXB && e->gdr_level == NULL) {
			snprintf(buf, sizeof(buf), "GPU %s (%s)",
			         info->gpus[g].pci, rdma_path_name(pu));
			list_add(nogdr, sizeof(nogdr), buf);
		}
	}
	if (far[0] != '\0' && e->hca != NULL) {
		json_t *ev = NULL;
		char fix[600];

		evidence_add(&ev, "env", "NCCL_IB_HCA=%s", e->hca);
		evidence_add(&ev, "sysfs", "PCIe paths: %s", far);
		evidence_add(&ev, "nccl", NCCL_SAYS "GPU Direct RDMA Disabled "
		             "for GPU N / HCA N (distance 9 > 5) where the "
		             "path crosses the CPU");
		snprintf(fix, sizeof(fix), "export NCCL_IB_HCA==%s", good);
		if (doc_add_finding(d, FINDING_RDMA_NIC_FAR, -1, ev, fix,
    		                "NCCL_IB_HCA leaves out a NIC nearer to a GPU "
    		                "than the one it will use: %s",
    		                far) < 0)
			return -1;
	}
	if (c->n > 0 && info->ngpus > 0 && !info->peermem) {
		json_t *ev = NULL;

		evidence_add(&ev, "sysfs", "no /sys/module/nvidia_peermem "
		             "(nor nv_peer_mem); kernel %s", info->kernel);
		evidence_add(&ev, "nccl", NCCL_SAYS "NET/IB : GPU Direct RDMA "
		             "Disabled for HCA 0 '%s' (unless dma-buf works)",
		             info->devs[c->v[0].dev].name);
		if (doc_add_finding(d, FINDING_RDMA_GDR_OFF, SEV_WARNING, ev,
    		                "modprobe nvidia-peermem (and add it to "
    		                "/etc/modules-load.d/nvidia-peermem.conf), or "
    		                "use a driver and kernel (5.12+) with dma-buf",
    		                "GPUDirect RDMA needs nvidia-peermem or dma-buf; "
    		                "the module is not loaded, so unless dma-buf "
    		                "works every transfer is staged through host "
    		                "memory") < 0)
			return -1;
	} else if (nogdr[0] != '\0') {
		json_t *ev = NULL;

		evidence_add(&ev, "sysfs", "nearest chosen NIC: %s", nogdr);
		evidence_add(&ev, "nccl", NCCL_SAYS "GPU Direct RDMA Disabled "
		             "for GPU N / HCA N (distance D > 5)");
		if (doc_add_finding(d, FINDING_RDMA_GDR_OFF, SEV_INFO, ev,
    		                "none needed where no NIC is nearer; "
    		                "NCCL_NET_GDR_LEVEL=SYS forces GPUDirect RDMA "
    		                "across the CPU, often slower",
    		                "NCCL will not use GPUDirect RDMA for GPUs whose "
    		                "NIC is beyond a PCIe switch (NCCL_NET_GDR_LEVEL "
    		                "PXB): %s",
    		                nogdr) < 0)
			return -1;
	}
	return 0;
}

/* The GID index every exported RoCE port takes by NCCL's own rules, when
 * it is one valid RoCE v2 entry on all of them; else -1. */
static int export_gid(const struct rdma_info *info, const struct ib_env *e,
                      const char *hca)
{
	struct ib_env auto_env = *e;
	int idx = -1;

	auto_env.gid_index = NULL;
	auto_env.hca = hca;
	for (int d = 0; d < info->ndevs; d++)
		for (int i = 0; i < info->devs[d].nports; i++) {
			const struct rdma_port *p = &info->devs[d].ports[i];
			int k;

			if (!ib_hca_match(hca, info->devs[d].name, p->num) ||
			    p->state != 4)
				continue;
			if (p->link != RDMA_LINK_ETH)
				return -1;
			k = ib_gid_auto(p, &auto_env);
			if (gid_fault(p, k, 2) != NULL || k >= p->ngids ||
			    p->gids[k].type != RDMA_GID_ROCE_V2 ||
			    (idx >= 0 && idx != k))
				return -1;
			idx = k;
		}
	return idx;
}

/* Why a port is not in the exported list, or NULL when it is. */
static const char *left_out_why(const struct rdma_info *info,
                                const struct rdma_dev *x,
                                const struct rdma_port *p, enum rdma_link ll)
{
	bool near = info->ngpus == 0;

	if (p->state != 4)
		return p->state_str[0] ? p->state_str : "not ACTIVE";
	if (p->link != ll)
		return p->link == RDMA_LINK_IB ? "InfiniBand, not the fabric's "
		                                 "link layer"
		                               : "Ethernet, not the fabric's "
		                                 "link layer";
	for (int g = 0; g < info->ngpus; g++)
		near |= path_near(rdma_pci_distance(x->pci_path, x->numa,
		                                    info->gpus[g].pci_path,
		                                    info->gpus[g].numa));
	return near ? NULL : "near no GPU";
}

/* The user's settings in words: right when NCCL takes exactly the ports
 * netprobe would export (each left-out one with its reason), and a GID
 * index that is NCCL's own RoCE v2 choice everywhere. */
static void notes(const struct rdma_info *info, const struct ib_env *e,
                  const struct ib_choice *c, const char *good, int good_gid,
                  bool faults, struct rdma_verdict *v)
{
	enum rdma_link ll = main_link(info, c);
	char picked[512] = "", out[512] = "";

	for (int i = 0; i < c->n; i++) {
		char name[RDMA_NAME + 16];

		port_name(&info->devs[c->v[i].dev],
		          &info->devs[c->v[i].dev].ports[c->v[i].port], name,
		          sizeof(name));
		list_add(picked, sizeof(picked), name);
	}
	for (int d = 0; d < info->ndevs; d++)
		for (int i = 0; i < info->devs[d].nports; i++) {
			const struct rdma_dev *x = &info->devs[d];
			const char *why =
			    left_out_why(info, x, &x->ports[i], ll);
			char buf[RDMA_NAME + 64];

			if (why == NULL)
				continue;
			snprintf(buf, sizeof(buf), "%s:%u (%s)", x->name,
			         x->ports[i].num, why);
			list_add(out, sizeof(out), buf);
		}
	if (e->hca != NULL)
		snprintf(v->hca_note, sizeof(v->hca_note),
		         "NCCL_IB_HCA=%s is %s: NCCL takes %s%s%s", e->hca,
		         !faults && strcmp(picked, good) == 0
		             ? "right for this node"
		             : "not right for this node",
		         picked[0] ? picked : "nothing",
		         out[0] ? "; left out: " : "", out);
	if (e->gid_index != NULL && c->n > 0 && ll == RDMA_LINK_ETH) {
		const char *f = NULL;

		for (int i = 0; i < c->n && f == NULL; i++)
			if (c->v[i].gid_forced)
				f = gid_fault(&info->devs[c->v[i].dev]
				                   .ports[c->v[i].port],
				              c->v[i].gid_index, 2);
		if (good_gid >= 0 && atoi(e->gid_index) == good_gid)
			snprintf(v->gid_note, sizeof(v->gid_note),
			         "NCCL_IB_GID_INDEX=%s is right for this node: "
			         "the RoCE v2 IPv4 entry on every port, as NCCL "
			         "would pick itself",
			         e->gid_index);
		else
			snprintf(v->gid_note, sizeof(v->gid_note),
			         "NCCL_IB_GID_INDEX=%s is not right for this "
			         "node: %s",
			         e->gid_index,
			         f != NULL ? f
			                   : "NCCL's own choice differs on some "
			                     "port");
	}
}

/* Runs every judgement; --export gets the lists only when no rdma fault
 * was found. */
int decide_rdma(const struct rdma_info *info, const struct ib_env *e,
                 enum layer_container ct, struct rdma_verdict *v,
                 struct doc *d)
{
	char good[512], hca[520];
	int before = d->nfault, moot;

	memset(v, 0, sizeof(*v));
	v->export_gid_index = -1;
	ib_select(info, e, &v->choice);
	if (info->ndevs == 0 && info->pci_rdma_funcs == 0)
		return 0;
	if (info->ndevs > 0 && judge_memlock(info, ct != CONTAINER_NONE, d) < 0)
		return -1;
	moot = judge_access(info, e, ct, &v->choice, d);
	if (moot < 0)
		return -1;
	if (moot)
		goto out;
	export_list(info, main_link(info, &v->choice), good, sizeof(good));
	snprintf(hca, sizeof(hca), "=%s", good);
	if (judge_hca(info, e, &v->choice, good, d) < 0 ||
	    judge_gid(info, e, &v->choice,
	              good[0] ? export_gid(info, e, hca) : -1, d) < 0 ||
	    judge_netdev(info, &v->choice, d) < 0 ||
	    judge_place(info, e, &v->choice, good, d) < 0)
		return -1;
out:
	export_list(info, main_link(info, &v->choice), good, sizeof(good));
	snprintf(hca, sizeof(hca), "=%s", good);
	notes(info, e, &v->choice, good,
	      good[0] ? export_gid(info, e, hca) : -1,
	      d->nfault > before || v->choice.fallback, v);
	if (d->nfault > before || v->choice.fallback)
		return 0;
	export_list(info, main_link(info, &v->choice), good, sizeof(good));
	if (good[0] == '\0' || strlen(good) + 2 > sizeof(v->export_hca))
		return 0;
	v->export_hca[0] = '=';
	memcpy(v->export_hca + 1, good, strlen(good) + 1);
	v->export_gid_index = export_gid(info, e, v->export_hca);
	return 0;
}
