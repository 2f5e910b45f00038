/* netprobe explain's decider (decide/explain.h): the log's hits to causes,
 * then what this node measured to proved or not seen. */
#include "decide/explain.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int explain_log_add(struct explain_log *lg, const struct logmatch *m,
		    int file, long line)
{
	lg->matched++;
	if (lg->nhits >= EXPLAIN_MAX_HITS) {
		lg->dropped++;
		return 0;
	}
	if (lg->hits == NULL) {
		lg->hits = calloc(EXPLAIN_MAX_HITS, sizeof(*lg->hits));
		if (lg->hits == NULL) {
			errno = ENOMEM;
			return -1;
		}
	}
	lg->hits[lg->nhits].m = *m;
	lg->hits[lg->nhits].file = file;
	lg->hits[lg->nhits].line = line;
	lg->nhits++;
	return 0;
}

void explain_log_free(struct explain_log *lg)
{
	free(lg->hits);
	lg->hits = NULL;
	lg->nhits = 0;
}

/* Docker's default bridge (172.17/16) and podman's (10.88/16) are
 * container addresses no other host routes to. */
const char *explain_addr_class(const char *addr)
{
	struct in_addr a4;
	struct in6_addr a6;
	char buf[64];
	const char *pct;

	if (addr == NULL)
		return NULL;
	if (strcmp(addr, "localhost") == 0)
		return "loopback";
	if (inet_pton(AF_INET, addr, &a4) == 1) {
		unsigned long h = ntohl(a4.s_addr);

		if ((h >> 24) == 127)
			return "loopback";
		if ((h >> 16) == ((172UL << 8) | 17))
			return "docker-bridge";
		if ((h >> 16) == ((10UL << 8) | 88))
			return "podman-bridge";
		if ((h >> 16) == ((169UL << 8) | 254))
			return "link-local";
		return NULL;
	}
	pct = strchr(addr, '%');
	snprintf(buf, sizeof(buf), "%.*s",
		 (int)(pct ? (size_t)(pct - addr) : strlen(addr)), addr);
	if (inet_pton(AF_INET6, buf, &a6) == 1) {
		if (IN6_IS_ADDR_LOOPBACK(&a6))
			return "loopback";
		if (IN6_IS_ADDR_LINKLOCAL(&a6))
			return "link-local";
	}
	return NULL;
}

/* The prefixes NCCL's default filter passes though they are virtual. */
bool explain_iface_virtual(const char *name)
{
	static const char *const pfx[] = {"veth", "br-", "cni", "flannel",
					  "cali", "docker", "virbr", "tailscale",
					  "wg", "vxlan", "weave", "kube-"};

	for (size_t i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++)
		if (strncmp(name, pfx[i], strlen(pfx[i])) == 0)
			return true;
	return false;
}

const char *explain_setting(const struct explain_log *lg, const char *name)
{
	const char *v = NULL;

	for (size_t i = 0; i < lg->nhits; i++) {
		const struct logmatch *m = &lg->hits[i].m;
		const char *n = logmatch_field(m, "setting_name");

		if (n != NULL && strcmp(n, name) == 0)
			v = logmatch_field(m, "setting_value");
	}
	return v;
}

/* Splits a comma list into c->codes. */
static void set_codes(struct explain_cause *c, const char *list)
{
	c->ncodes = 0;
	for (const char *p = list; p && *p && c->ncodes < EXPLAIN_MAX_CODES;) {
		size_t n = strcspn(p, ",");

		snprintf(c->codes[c->ncodes++], sizeof(c->codes[0]), "%.*s",
			 (int)n, p);
		p += n;
		if (*p == ',')
			p++;
	}
}

static void add_ref(struct explain_cause *c, const struct explain_hit *h)
{
	c->count++;
	if (c->nrefs < EXPLAIN_MAX_LINES) {
		c->refs[c->nrefs].file = h->file;
		c->refs[c->nrefs].line = h->line;
		c->nrefs++;
	}
}

/* Finds the cause with the same codes and openness, or starts one. */
static struct explain_cause *cause_for(struct explain_result *r, bool open,
				       const char *codes)
{
	struct explain_cause tmp;

	memset(&tmp, 0, sizeof(tmp));
	set_codes(&tmp, codes);
	for (size_t i = 0; i < r->ncauses; i++) {
		struct explain_cause *c = &r->causes[i];
		bool same = c->open == open && c->ncodes == tmp.ncodes;

		for (size_t j = 0; same && j < c->ncodes; j++)
			same = strcmp(c->codes[j], tmp.codes[j]) == 0;
		if (same)
			return c;
	}
	if (r->ncauses >= EXPLAIN_MAX_CAUSES)
		return NULL;
	tmp.open = open;
	r->causes[r->ncauses] = tmp;
	return &r->causes[r->ncauses++];
}

/* What an errno text a line captured decides for a connect. */
static const char *err_codes(const char *err, const char **maybe)
{
	*maybe = NULL;
	if (err == NULL)
		return NULL;
	if (strstr(err, "refused") || strcmp(err, "111") == 0)
		return "port-closed";
	if (strstr(err, "No route") || strstr(err, "unreachable") ||
	    strcmp(err, "113") == 0 || strcmp(err, "101") == 0)
		return "host-unreachable";
	if (strstr(err, "timed out") || strcmp(err, "110") == 0)
		*maybe = "port-filtered,inbound-blocked,rank-unreachable";
	return NULL;
}

/* The one command that decides an open cause, from what the line names. */
static void next_command(const struct explain_hit *h, char *buf,
			 size_t len)
{
	const char *id = h->m.sig->id;
	const char *addr = logmatch_field(&h->m, "addr");
	const char *port = logmatch_field(&h->m, "port");

	if (strcmp(id, "ray-ip-mismatch") == 0)
		snprintf(buf, len, "on this node: netprobe layers");
	else if (strcmp(id, "ray-node-dead") == 0 && addr)
		snprintf(buf, len, "on the node %s: netprobe scan --peer "
			 "HEAD_ADDRESS (with netprobe serve on the head)",
			 addr);
	else if (strcmp(id, "torch-store-listen") == 0)
		snprintf(buf, len, "on the rank-0 node: netprobe scan --rank0");
	else if (strcmp(id, "gloo-no-address") == 0)
		snprintf(buf, len, "on the failing node: netprobe ifaces");
	else if (strcmp(id, "nccl-ib-async-port-error") == 0)
		snprintf(buf, len, "on this node: netprobe ifaces");
	else if (strncmp(id, "nccl-ib-", 8) == 0)
		snprintf(buf, len, "on the node that wrote the log: netprobe "
			 "explain FILE (it judges the RDMA devices, uverbs "
			 "files, NCCL_IB_HCA and GIDs as netprobe scan does)");
	else if (strcmp(id, "nccl-system-error") == 0)
		snprintf(buf, len, "run the job again with NCCL_DEBUG=INFO "
			 "NCCL_DEBUG_SUBSYS=INIT,NET and netprobe explain its "
			 "output");
	else if (strncmp(id, "torch-store", 11) == 0 && addr && port)
		snprintf(buf, len, "on this node: netprobe ports %s %s", addr,
			 port);
	else if (addr)
		snprintf(buf, len, "on this node: netprobe scan --peer %s "
			 "(with netprobe serve running on %s)", addr, addr);
	else
		snprintf(buf, len, "on any node of the job: netprobe mesh "
			 "(one process per node, under the job's launcher)");
}

/* A line that names a peer's address of a special class is decided by
 * that class: what the peer advertised is the fault. */
static const char *addr_cause(const struct explain_hit *h, char *why,
			      size_t len)
{
	const char *addr = logmatch_field(&h->m, "addr");
	const char *cls = explain_addr_class(addr);

	if (!(h->m.sig->flags & (LOGSIG_PEER | LOGSIG_LOCAL)) || cls == NULL)
		return NULL;
	if (strcmp(cls, "loopback") == 0) {
		snprintf(why, len, "%s is a loopback address: a rank "
			 "advertised its hostname's loopback mapping", addr);
		return "hostname-loopback";
	}
	if (strcmp(cls, "docker-bridge") == 0 ||
	    strcmp(cls, "podman-bridge") == 0) {
		snprintf(why, len, "%s is on %s's default bridge: a container "
			 "address no other host can reach", addr,
			 cls[0] == 'd' ? "Docker" : "podman");
		return "container-bridge-nat";
	}
	if (strcmp(cls, "link-local") == 0) {
		snprintf(why, len, "%s is link-local: it only works on one "
			 "link and needs its scope", addr);
		return "ipv6-link-local-only";
	}
	return NULL;
}

/* Causes a fact line adds, once the log holds a failure. */
static void fact_causes(const struct explain_log *lg,
			const struct explain_hit *h, struct explain_result *r)
{
	const char *iface = logmatch_field(&h->m, "iface");
	const char *ifname = explain_setting(lg, "NCCL_SOCKET_IFNAME");
	struct explain_cause *c;
	char why[256];
	const char *code;

	if ((code = addr_cause(h, why, sizeof(why))) != NULL &&
	    strcmp(code, "hostname-loopback") != 0) {
		if ((c = cause_for(r, false, code)) != NULL) {
			add_ref(c, h);
			if (c->why[0] == '\0')
				snprintf(c->why, sizeof(c->why),
					 "NCCL chose %.40s: %.200s", iface ? iface
					 : "?", why);
		}
		return;
	}
	if (iface && ifname == NULL && explain_iface_virtual(iface) &&
	    (c = cause_for(r, false, "nccl-default-iface-unsafe")) != NULL) {
		add_ref(c, h);
		if (c->why[0] == '\0')
			snprintf(c->why, sizeof(c->why), "NCCL chose the "
				 "virtual interface %s on its own "
				 "(NCCL_SOCKET_IFNAME unset)", iface);
		snprintf(c->fix, sizeof(c->fix), "pin the interface peers "
			 "reach: NCCL_SOCKET_IFNAME==IFACE (netprobe scan "
			 "--export prints it)");
	}
}

/* gloo-no-address: NCCL syntax in GLOO_SOCKET_IFNAME is decided; a plain
 * name that has no address is left to `netprobe ifaces`. */
static bool gloo_syntax(const char *v)
{
	return v && (v[0] == '^' || v[0] == '=' || strchr(v, ',') != NULL);
}

static void hit_causes(const struct explain_hit *h, struct explain_result *r)
{
	const struct logsig *s = h->m.sig;
	const char *codes = s->codes, *maybe = s->maybe, *ec, *em;
	struct explain_cause *c;
	char why[256];
	const char *code;

	snprintf(why, sizeof(why), "%s", s->meaning);
	if ((code = addr_cause(h, why, sizeof(why))) != NULL) {
		codes = code;
		maybe = NULL;
	} else if (strcmp(s->id, "gloo-no-address") == 0) {
		const char *v = logmatch_field(&h->m, "setting_gloo_ifname");

		if (gloo_syntax(v)) {
			codes = "gloo-ifname-syntax";
			snprintf(why, sizeof(why), "GLOO_SOCKET_IFNAME='%s' "
				 "uses NCCL's syntax; Gloo takes one name",
				 v);
		} else {
			maybe = "interface-down,no-usable-interface";
		}
	} else if ((ec = err_codes(logmatch_field(&h->m, "err") ?
				   logmatch_field(&h->m, "err") :
				   logmatch_field(&h->m, "errno"), &em)) !=
		   NULL || em != NULL) {
		if (s->codes == NULL) {
			codes = ec;
			maybe = em;
		}
	}
	if (codes != NULL) {
		for (const char *p = codes; *p;) {
			size_t n = strcspn(p, ",");
			char one[48];

			snprintf(one, sizeof(one), "%.*s", (int)n, p);
			if ((c = cause_for(r, false, one)) != NULL) {
				add_ref(c, h);
				if (c->why[0] == '\0')
					snprintf(c->why, sizeof(c->why), "%s",
						 why);
				if (strcmp(one, "gloo-ifname-syntax") == 0)
					snprintf(c->fix, sizeof(c->fix),
						 "GLOO_SOCKET_IFNAME=IFACE "
						 "(one interface name, no "
						 "'^', '=' or ',')");
				if (strcmp(s->id, "ibverbs-no-device") == 0)
					snprintf(c->fix, sizeof(c->fix),
						 "install the RDMA userspace "
						 "drivers in the image: "
						 "apt-get install "
						 "ibverbs-providers (dnf "
						 "install libibverbs), or "
						 "MLNX_OFED/DOCA's "
						 "libmlx5");
			}
			p += n;
			if (*p == ',')
				p++;
		}
		return;
	}
	if (maybe != NULL && (c = cause_for(r, true, maybe)) != NULL) {
		add_ref(c, h);
		if (c->why[0] == '\0')
			snprintf(c->why, sizeof(c->why), "%s", why);
		if (c->next[0] == '\0')
			next_command(h, c->next, sizeof(c->next));
	}
}

/* An open cause one of whose codes a decided cause already names says
 * nothing more. */
static void drop_settled(struct explain_result *r)
{
	size_t o = 0;

	for (size_t i = 0; i < r->ncauses; i++) {
		struct explain_cause *c = &r->causes[i];
		bool settled = false;

		for (size_t j = 0; c->open && j < r->ncauses && !settled; j++)
			if (!r->causes[j].open)
				for (size_t k = 0; k < c->ncodes; k++)
					if (strcmp(c->codes[k],
						   r->causes[j].codes[0]) == 0)
						settled = true;
		if (!settled)
			r->causes[o++] = *c;
	}
	r->ncauses = o;
}

void explain_decide(const struct explain_log *lg, struct explain_result *r)
{
	bool failed = false;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *h = &lg->hits[i];

		if (h->m.sig->flags & LOGSIG_FACT)
			continue;
		failed = true;
		hit_causes(h, r);
	}
	for (size_t i = 0; failed && i < lg->nhits; i++)
		if (lg->hits[i].m.sig->flags & LOGSIG_LOCAL &&
		    lg->hits[i].m.sig->flags & LOGSIG_FACT)
			fact_causes(lg, &lg->hits[i], r);
	drop_settled(r);
}

static int measured_index(const char *const *list, size_t n,
			  const char *code)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], code) == 0)
			return (int)i;
	return -1;
}

void explain_apply_measured(struct explain_result *r,
			    const struct explain_measured *ms)
{
	if (!ms->ran)
		return;
	for (size_t i = 0; i < r->ncauses; i++) {
		struct explain_cause *c = &r->causes[i];
		int f = -1;
		size_t k;

		for (k = 0; k < c->ncodes && f < 0; k++)
			f = measured_index(ms->found, ms->nfound, c->codes[k]);
		if (f >= 0) {
			if (c->open) {
				if (k > 1)
					memmove(c->codes[0], c->codes[k - 1],
						sizeof(c->codes[0]));
				c->ncodes = 1;
				c->open = false;
			}
			c->state = EXPLAIN_PROVED;
			snprintf(c->measured, sizeof(c->measured), "%s",
				 ms->note[f] ? ms->note[f] :
				 "found by this node's own checks");
			/* the node's own fix, whole or not at all */
			if (ms->fix[f] && strlen(ms->fix[f]) < sizeof(c->fix))
				memcpy(c->fix, ms->fix[f],
				       strlen(ms->fix[f]) + 1);
			continue;
		}
		if (!c->open && measured_index(ms->checked, ms->nchecked,
					       c->codes[0]) >= 0) {
			c->state = EXPLAIN_NOT_SEEN;
			snprintf(c->measured, sizeof(c->measured),
				 "checked here and not present: the fault is "
				 "on the node that wrote the log");
		}
	}
}
