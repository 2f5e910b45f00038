/* NCCL 2.28's IB transport choice, kept identical to
 * src/transport/net_ib.cc (ncclIbInit, ncclIbGetGidIndex and helpers)
 * and src/misc/utils.cc (parseStringList, matchIfList). */
#include "decide/ib_select.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kernel/jobenv.h"

/* NCCL's ncclGetEnv of each variable. */
void ib_env_fill(struct ib_env *e, const char *(*get)(const char *, void *),
                 void *ctx)
{
	e->hca = get("NCCL_IB_HCA", ctx);
	e->gid_index = get("NCCL_IB_GID_INDEX", ctx);
	e->addr_family = get("NCCL_IB_ADDR_FAMILY", ctx);
	e->roce_version = get("NCCL_IB_ROCE_VERSION_NUM", ctx);
	e->addr_range = get("NCCL_IB_ADDR_RANGE", ctx);
	e->disable = get("NCCL_IB_DISABLE", ctx);
	e->net = get("NCCL_NET", ctx);
	e->gdr_level = get("NCCL_NET_GDR_LEVEL", ctx);
	e->routable_flid_index = get("NCCL_IB_ROUTABLE_FLID_GID_INDEX", ctx);
}

/* NCCL_PARAM's reading: strtoll of the text, the default when unset or
 * empty (src/misc/param.cc ncclLoadParam). */
static long long param(const char *v, long long def)
{
	char *end;
	long long x;

	if (v == NULL || v[0] == '\0')
		return def;
	x = strtoll(v, &end, 0);
	return *end == '\0' ? x : def;
}

/* matchIf and matchPort (utils.cc). */
bool ib_hca_match(const char *hca, const char *dev, unsigned port)
{
	struct nccl_netif list[IB_MAX_PICKS];
	bool not = false, exact = false;
	int n;

	if (hca != NULL && hca[0] == '^') {
		not = true;
		hca++;
	}
	if (hca != NULL && hca[0] == '=') {
		exact = true;
		hca++;
	}
	n = nccl_iflist_parse(hca, list, IB_MAX_PICKS);
	if (n == 0)
		return !not; /* an empty list matches all; '^' of it none */
	for (int i = 0; i < n; i++) {
		size_t len = exact ? strlen(dev) + 1 : strlen(list[i].prefix);

		if (strncmp(dev, list[i].prefix, len) == 0 &&
		    (list[i].port == -1 || list[i].port == (int)port))
			return !not;
	}
	return not;
}

/* A 32-bit word of the GID in network order. */
static uint32_t w32(const unsigned char raw[16], int i)
{
	uint32_t v;

	memcpy(&v, raw + 4 * i, 4);
	return v;
}

/* getGidAddrFamily: IPv4-mapped (or its multicast form) is AF_INET. */
static int gid_family(const unsigned char raw[16])
{
	bool mapped = ((w32(raw, 0) | w32(raw, 1)) |
	               (w32(raw, 2) ^ htonl(0x0000ffff))) == 0;
	bool mcast = w32(raw, 0) == htonl(0xff0e0000) &&
	             ((w32(raw, 1) | (w32(raw, 2) ^ htonl(0x0000ffff))) == 0);

	return mapped || mcast ? AF_INET : AF_INET6;
}

/* configuredGid and linkLocalGid. */
bool ib_gid_link_local(const unsigned char raw[16])
{
	return w32(raw, 0) == htonl(0xfe800000) && w32(raw, 1) == 0;
}

/* validGid. */
static bool ib_gid_valid(const unsigned char raw[16])
{
	uint32_t trailer = w32(raw, 1) | w32(raw, 2) | w32(raw, 3);
	bool configured = !((w32(raw, 0) | trailer) == 0 ||
	                    (w32(raw, 0) == htonl(0xfe800000) && trailer == 0));

	return configured && !ib_gid_link_local(raw);
}

/* matchGidAddrPrefix. */
static bool gid_in_range(int af, const unsigned char *prefix, int plen,
                         const unsigned char raw[16])
{
	int i = 0;

	while (plen > 0 && i < 4) {
		uint32_t mask, base;

		if (af == AF_INET) {
			mask = htonl(0xffffffffu ^ ((1u << (32 - plen)) - 1));
			memcpy(&base, prefix, 4);
			if ((base & mask) ^ (w32(raw, 3) & mask))
				break;
			plen = 0;
			break;
		}
		memcpy(&base, prefix + 4 * i, 4);
		if (plen >= 32) {
			if (base ^ w32(raw, i))
				break;
			plen -= 32;
			i++;
		} else {
			mask = htonl(0xffffffffu ^ ((1u << (32 - plen)) - 1));
			if ((base & mask) ^ (w32(raw, i) & mask))
				break;
			plen = 0;
		}
	}
	return plen == 0;
}

/* The RoCE version ncclIbRoceGetVersionNum reads, -1 when unreadable
 * (NCCL then keeps an uninitialised value: we call it unknown). */
static int gid_version(const struct rdma_gid *g)
{
	return g->type == RDMA_GID_ROCE_V2                          ? 2
	       : g->type == RDMA_GID_ROCE_V1 || g->type == RDMA_GID_IB ? 1
	                                                               : -1;
}

/* An entry of the table, zeros past what was read (an empty slot). */
static const unsigned char *gid_raw(const struct rdma_port *p, int i)
{
	static const unsigned char zero[16];

	return i < p->ngids ? p->gids[i].raw : zero;
}

/* ncclUpdateGidIndex over the whole table, from index 0. */
int ib_gid_auto(const struct rdma_port *p, const struct ib_env *e)
{
	int af = AF_INET, plen = 0, ver = (int)param(e->roce_version, 2);
	int cur = 0;
	unsigned char prefix[16] = {0};

	if (p->link == RDMA_LINK_IB) {
		long long r = param(e->routable_flid_index, 1);
		const unsigned char *g;

		if (r >= 0 && r < p->gid_tbl_len) {
			g = gid_raw(p, (int)r);
			if (((g[4] << 8) | g[5]) != 0)
				return (int)r;
		}
		return 0;
	}
	if (e->addr_family != NULL && strcmp(e->addr_family, "AF_INET6") == 0)
		af = AF_INET6;
	if (e->addr_range != NULL && e->addr_range[0] != '\0') {
		char buf[128], *slash;

		snprintf(buf, sizeof(buf), "%s", e->addr_range);
		slash = strchr(buf, '/');
		if (slash != NULL) {
			*slash = '\0';
			if (inet_pton(af, buf, prefix) == 1) {
				plen = (int)strtol(slash + 1, NULL, 10);
				if (plen > (af == AF_INET ? 32 : 128))
					plen = 0;
			}
		}
	}
	for (int next = 1; next < p->gid_tbl_len; next++) {
		const unsigned char *g = gid_raw(p, cur), *c = gid_raw(p, next);
		int gf = gid_family(g), cf = gid_family(c);
		bool in = gid_in_range(af, prefix, plen, c);

		if (cf != gf && cf == af && in) {
			cur = next;
			continue;
		}
		if (cf != af || !ib_gid_valid(c) || !in)
			continue;
		int vc = cur < p->ngids ? gid_version(&p->gids[cur]) : -1;
		int vn = next < p->ngids ? gid_version(&p->gids[next]) : -1;

		if ((vc != vn || !ib_gid_valid(g)) && vn == ver)
			cur = next;
	}
	return cur;
}

/* Sets the fallback with NCCL's own line. */
static void fall_back(struct ib_choice *out, const char *why, const char *says)
{
	out->fallback = true;
	snprintf(out->why, sizeof(out->why), "%s", why);
	snprintf(out->nccl_says, sizeof(out->nccl_says), "%s", says);
}

/* ncclIbInit: NCCL_IB_DISABLE, then every ACTIVE InfiniBand or Ethernet
 * port that NCCL_IB_HCA lets through, devices in libibverbs' order
 * (sysfs name order here), at most MAX_IB_DEVS; a device whose uverbs
 * file is missing fails ibv_open_device and is skipped. */
void ib_select(const struct rdma_info *info, const struct ib_env *e,
               struct ib_choice *out)
{
	memset(out, 0, sizeof(*out));
	out->gdr_peermem = info->peermem;
	if (e->net != NULL && strcasecmp(e->net, "Socket") == 0) {
		fall_back(out, "NCCL_NET=Socket chooses the socket transport",
		          "Assigned NET plugin Socket to comm");
		return;
	}
	if (param(e->disable, 0) != 0) {
		fall_back(out, "NCCL_IB_DISABLE is set",
		          "Failed to initialize NET plugin IB");
		return;
	}
	if (info->ndevs == 0) {
		fall_back(out, "no RDMA device is visible",
		          "NET/IB : No device found.");
		return;
	}
	if (info->nuverbs == 0) {
		fall_back(out,
		          "no /dev/infiniband/uverbs* file: libibverbs cannot "
		          "open any device",
		          "NET/IB : Unable to open device ..., then NET/IB : No "
		          "device found.");
		return;
	}
	for (int d = 0; d < info->ndevs && out->n < IB_MAX_PICKS; d++) {
		const struct rdma_dev *dev = &info->devs[d];

		for (int i = 0; i < dev->nports && out->n < IB_MAX_PICKS; i++) {
			const struct rdma_port *p = &dev->ports[i];
			struct ib_pick *k;

			if (p->state != 4 || p->link == RDMA_LINK_UNKNOWN ||
			    !ib_hca_match(e->hca, dev->name, p->num))
				continue;
			k = &out->v[out->n++];
			k->dev = d;
			k->port = i;
			if (p->link == RDMA_LINK_ETH && e->gid_index != NULL &&
			    param(e->gid_index, -1) >= 0) {
				k->gid_index = (int)param(e->gid_index, -1);
				k->gid_forced = true;
			} else {
				k->gid_index = ib_gid_auto(p, e);
			}
		}
	}
	if (out->n == 0)
		fall_back(out,
		          e->hca != NULL ? "no ACTIVE port matches NCCL_IB_HCA"
		                         : "no RDMA port is ACTIVE",
		          "NET/IB : No device found.");
	/* NCCL_NET=IB names the plugin: no fallback, the init fails
	 * (plugin/net.cc ncclNetPluginAssignToComm, ncclNetInit) */
	if (out->fallback && e->net != NULL && strcasecmp(e->net, "IB") == 0) {
		size_t l = strlen(out->why);

		snprintf(out->why + l, sizeof(out->why) - l,
		         "; NCCL_NET=IB forbids the socket fallback: the "
		         "communicator fails");
		l = strlen(out->nccl_says);
		snprintf(out->nccl_says + l, sizeof(out->nccl_says) - l,
		         "; then Failed to initialize any NET plugin");
	}
}

/* What NCCL prints and uses, and each GPU's nearest chosen NIC. */
json_t *ib_choice_to_json(const struct rdma_info *info,
                          const struct ib_choice *c)
{
	json_t *ports = json_array(), *gpus = json_array();
	char line[1024] = "NET/IB : Using";
	size_t off = strlen(line);

	for (int i = 0; ports != NULL && i < c->n; i++) {
		const struct rdma_dev *d = &info->devs[c->v[i].dev];
		const struct rdma_port *p = &d->ports[c->v[i].port];

		json_array_append_new(
		    ports, json_pack("{s:s, s:i, s:s, s:i, s:b}", "device",
		                     d->name, "port", (int)p->num, "link_layer",
		                     p->link == RDMA_LINK_IB ? "IB" : "RoCE",
		                     "gid_index", c->v[i].gid_index,
		                     "gid_index_forced", c->v[i].gid_forced));
		if (off < sizeof(line))
			off += (size_t)snprintf(line + off, sizeof(line) - off,
			                        " [%d]%s:%u/%s", i, d->name,
			                        p->num,
			                        p->link == RDMA_LINK_IB ? "IB"
			                                                : "RoCE");
	}
	for (int g = 0; gpus != NULL && g < info->ngpus; g++) {
		enum rdma_path best = RDMA_PATH_UNKNOWN;
		const char *nic = NULL;

		for (int i = 0; i < c->n; i++) {
			const struct rdma_dev *d = &info->devs[c->v[i].dev];
			enum rdma_path p = rdma_pci_distance(
			    d->pci_path, d->numa, info->gpus[g].pci_path,
			    info->gpus[g].numa);

			if (p != RDMA_PATH_UNKNOWN &&
			    (best == RDMA_PATH_UNKNOWN || p < best)) {
				best = p;
				nic = d->name;
			}
		}
		json_array_append_new(
		    gpus,
		    json_pack("{s:s, s:s?, s:s, s:b}", "gpu", info->gpus[g].pci,
		              "nearest_nic", nic, "distance",
		              rdma_path_name(best), "gdr",
		              c->gdr_peermem && best != RDMA_PATH_UNKNOWN &&
		                  best <= RDMA_PATH_PXB));
	}
	return json_pack("{s:b, s:s?, s:s?, s:o, s:s?, s:b, s:o}", "fallback",
	                 c->fallback, "fallback_why",
	                 c->fallback ? c->why : NULL, "nccl_says",
	                 c->fallback ? c->nccl_says : NULL, "ports", ports,
	                 "using_line", c->n > 0 ? line : NULL,
	                 "gdr_peermem", c->gdr_peermem, "gpus", gpus);
}
