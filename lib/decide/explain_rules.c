/* netprobe explain's rules over several lines (decide/explain_priv.h):
 * each names the lines that prove its cause and why they are proof and
 * not a symptom; then the check that no other line of the log
 * contradicts a decided cause. */
#include "decide/explain.h"
#include "decide/explain_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/finding.h"

/* NCCL prints the interfaces it chose ("[0]veth1a2b:10.231.5.2<0> [1]
 * eth0:..."): the line is what NCCL did, not a symptom. A virtual one
 * picked with NCCL_SOCKET_IFNAME unset proves the default filter chose
 * it, once the job failed. An interface whose address is IPv4
 * link-local (169.254/16: EKS's pod-id-link0, a cloud's metadata link)
 * is as private to its host, whatever its name (issue 42: blind42j
 * a10). Returns the first such name (virt) or the first other one but
 * lo (!virt), or NULL. */
static const char *iface_in_list(const char *list, bool virt, char *buf,
				 size_t len)
{
	for (const char *p = list; p && *p;) {
		size_t n;

		if (*p == '[') {
			const char *q = strchr(p, ']');

			if (q == NULL)
				return NULL;
			p = q + 1;
		}
		n = strcspn(p, ": ");
		if (p[n] == ':' && n > 0 && n < len) {
			char a[64];
			const char *c;
			bool v;

			memcpy(buf, p, n);
			buf[n] = '\0';
			snprintf(a, sizeof(a), "%.*s",
				 (int)strcspn(p + n + 1, "< "), p + n + 1);
			c = explain_addr_class(a);
			v = explain_iface_virtual(buf) ||
			    (c && strcmp(c, "link-local4") == 0);
			if (v == virt && (virt || strcmp(buf, "lo") != 0))
				return buf;
		}
		p += n;
		p += strcspn(p, " ");
		p += strspn(p, " ");
	}
	return NULL;
}

static void rule_iface_list(const struct explain_ctx *x,
			    struct explain_result *r)
{
	const struct explain_log *lg = x->lg;
	char name[64], plain[64];

	if (!x->failed || x->ifname != NULL)
		return;
	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *h = &lg->hits[i];
		const char *list = logmatch_field(&h->m, "ifaces");
		const char *v;
		struct explain_cause *c;

		if (!(h->m.sig->flags & LOGSIG_LOCAL) || list == NULL ||
		    (v = iface_in_list(list, true, name, sizeof(name))) == NULL)
			continue;
		c = explain_cause_for(
		    r, EXPLAIN_NET, false,
		    finding_name(FINDING_NCCL_DEFAULT_IFACE_UNSAFE));
		if (c == NULL)
			return;
		explain_add_ref(c, h);
		if (c->why[0] == '\0')
			snprintf(c->why, sizeof(c->why), "NCCL printed that it "
				 "chose the %s interface %s on its own (the log "
				 "echoes no NCCL_SOCKET_IFNAME)",
				 explain_iface_virtual(v) ? "virtual" :
				 "IPv4 link-local (169.254/16, private to its "
				 "host)", v);
		/* the fix names the interface the same list shows beside
		 * it, in scan's exact form (issue 42) */
		if (iface_in_list(list, false, plain, sizeof(plain)))
			snprintf(c->fix, sizeof(c->fix), "pin the interface "
				 "peers reach: NCCL_SOCKET_IFNAME==%s (the "
				 "interface NCCL listed beside %s; netprobe scan "
				 "--export confirms it)", plain, v);
		else
			snprintf(c->fix, sizeof(c->fix), "pin the interface "
				 "peers reach: NCCL_SOCKET_IFNAME==IFACE "
				 "(netprobe scan --export prints it)");
	}
}

/* The addresses processes say they chose (NCCL's Using lines): one
 * address printed by two hosts proves both are private to their host,
 * a container bridge's (Docker or podman pool) or another NAT's. An
 * address in a container pool printed by one host only opens the
 * candidate. */
static void rule_local_addrs(const struct explain_ctx *x,
			     struct explain_result *r)
{
	const struct explain_log *lg = x->lg;

	if (!x->failed)
		return;
	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *h = &lg->hits[i];
		const char *a = logmatch_field(&h->m, "addr");
		const char *cls = explain_addr_class(a);
		char h1[64], h2[64];
		bool dup = false, pool = cls && strstr(cls, "bridge");
		struct explain_cause *c;

		if (!(h->m.sig->flags & LOGSIG_LOCAL) ||
		    !(h->m.sig->flags & LOGSIG_FACT) || a == NULL ||
		    (cls && strcmp(cls, "loopback") == 0))
			continue;
		if (explain_hit_host(h, h1, sizeof(h1)))
			for (size_t j = i + 1; j < lg->nhits && !dup; j++) {
				const struct explain_hit *o = &lg->hits[j];
				const char *b = logmatch_field(&o->m, "addr");

				dup = o->m.sig->flags & LOGSIG_LOCAL && b &&
				      strcmp(a, b) == 0 &&
				      explain_hit_host(o, h2, sizeof(h2)) &&
				      strcmp(h1, h2) != 0;
				if (dup &&
				    (c = explain_cause_for(
				         r, EXPLAIN_NET, false,
				         pool ? finding_name(
				                   FINDING_CONTAINER_BRIDGE_NAT)
				             : finding_name(
				                   FINDING_NAT_DETECTED)))) {
					explain_add_ref(c, h);
					explain_add_ref(c, o);
					snprintf(c->addr, sizeof(c->addr), "%s",
						 a);
					snprintf(c->why, sizeof(c->why), "%s "
						 "is the address of both %s and "
						 "%s: each sits behind its own "
						 "host-private %s", a, h1, h2,
						 pool ? "container bridge" :
						 "NAT");
				}
			}
		if (cls && strcmp(cls, "link-local") == 0 &&
		    (c = explain_cause_for(
		         r, EXPLAIN_NET, false,
		         finding_name(FINDING_IPV6_LINK_LOCAL_ONLY)))) {
			explain_add_ref(c, h);
			snprintf(c->addr, sizeof(c->addr), "%s", a);
			if (c->why[0] == '\0')
				snprintf(c->why, sizeof(c->why), "this process "
					 "chose %s, a link-local address: it "
					 "only works on one link", a);
			continue;
		}
		if (!dup && pool &&
		    (c = explain_cause_for(
		         r, EXPLAIN_NET, true,
		         finding_name(FINDING_CONTAINER_BRIDGE_NAT)))) {
			explain_add_ref(c, h);
			if (c->why[0] == '\0')
				snprintf(c->why, sizeof(c->why), "this process "
					 "chose %s, in a container pool: a "
					 "container on a NAT'd bridge, or a "
					 "network that uses the same range", a);
			if (c->next[0] == '\0')
				snprintf(c->next, sizeof(c->next), "on the "
					 "node that printed it: netprobe "
					 "layers");
		}
	}
}

/* The link layer NCCL's "NET/IB : Using" lines show: true when every
 * device they name is InfiniBand (none RoCE). */
static bool ib_only(const struct explain_log *lg)
{
	bool ib = false;

	for (size_t i = 0; i < lg->nhits; i++) {
		const char *ll = logmatch_field(&lg->hits[i].m, "link_layer");

		if (ll && strcmp(ll, "RoCE") == 0)
			return false;
		if (ll && strcmp(ll, "IB") == 0)
			ib = true;
	}
	return ib;
}

/* NCCL's completion error prints the GIDs of both ends. A link-local
 * GID (fe80::) is a RoCE v1 or link-local entry: no router forwards it,
 * so the GID index chose an entry that cannot cross the fabric. Not on
 * InfiniBand, whose GIDs carry the default subnet prefix fe80:: on
 * every healthy port, nor with a local protection error (4), which the
 * node's own NIC raised whatever the GIDs (issue 42: a local error is
 * no evidence about the fabric). */
static void rule_gids(const struct explain_ctx *x, struct explain_result *r)
{
	const struct explain_log *lg = x->lg;

	if (ib_only(lg))
		return;
	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *h = &lg->hits[i];
		const char *l = logmatch_field(&h->m, "local_gid");
		const char *g = logmatch_field(&h->m, "remote_gid");
		const char *w = logmatch_field(&h->m, "wc_status");
		struct explain_cause *c;

		if (l == NULL || g == NULL || (w && strcmp(w, "4") == 0) ||
		    (strncmp(l, "fe80", 4) != 0 && strncmp(g, "fe80", 4) != 0))
			continue;
		c = explain_cause_for(r, EXPLAIN_NET, false,
		                      finding_name(FINDING_RDMA_GID_INDEX));
		if (c == NULL)
			return;
		explain_add_ref(c, h);
		snprintf(c->why, sizeof(c->why), "the GIDs NCCL printed "
			 "(%.40s, %.40s) include a link-local one: the GID "
			 "index chose a RoCE v1 or link-local entry", l, g);
		snprintf(c->fix, sizeof(c->fix), "NCCL_IB_GID_INDEX=N of the "
			 "RoCE v2 entry that holds the interface's IPv4 "
			 "address (show_gids lists them; netprobe scan on the "
			 "node names it)");
	}
}

/* NCCL_IB_GID_INDEX=0 on RoCE selects the port's default GID, the
 * link-local one made from its MAC: with a completion error that is the
 * cause, unless the error printed a GID that is not link-local. */
static void rule_gid_zero(const struct explain_ctx *x,
			  struct explain_result *r)
{
	const struct explain_log *lg = x->lg;
	const char *gi = explain_setting(lg, "NCCL_IB_GID_INDEX");
	const struct explain_hit *err = NULL;
	bool roce = false;
	struct explain_cause *c;

	if (gi == NULL || strcmp(gi, "0") != 0)
		return;
	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *h = &lg->hits[i];
		const char *ll = logmatch_field(&h->m, "link_layer");
		const char *l = logmatch_field(&h->m, "local_gid");

		if (ll && strcmp(ll, "RoCE") == 0)
			roce = true;
		if (logmatch_field(&h->m, "wc_status") &&
		    strcmp(logmatch_field(&h->m, "wc_status"), "5") != 0) {
			if (l && strncmp(l, "fe80", 4) != 0)
				return; /* the printed GID says otherwise */
			err = err ? err : h;
		}
	}
	if (!roce || err == NULL ||
	    (c = explain_cause_for(r, EXPLAIN_NET, false,
	                           finding_name(FINDING_RDMA_GID_INDEX))) ==
	        NULL)
		return;
	explain_add_ref(c, err);
	snprintf(c->why, sizeof(c->why), "NCCL_IB_GID_INDEX=0 on RoCE selects "
		 "the port's default GID, the link-local one, and a work "
		 "request failed: that GID does not route between the nodes");
	snprintf(c->fix, sizeof(c->fix), "NCCL_IB_GID_INDEX=N of the RoCE v2 "
		 "entry that holds the interface's IPv4 address (show_gids "
		 "lists them; netprobe scan on the node names it)");
}

/* See explain_priv.h. */
const struct explain_hit *explain_ref_hit(const struct explain_log *lg,
					  const struct explain_ref *f)
{
	for (size_t i = 0; i < lg->nhits; i++)
		if (lg->hits[i].file == f->file && lg->hits[i].line == f->line)
			return &lg->hits[i];
	return NULL;
}

/* A Gloo connect that failed (not one that reached its peer), or any
 * peer line that names a loopback address. */
static bool gloo_connect(const struct explain_hit *h)
{
	const struct logsig *s = h->m.sig;
	const char *cls = explain_addr_class(logmatch_field(&h->m, "addr"));

	if (s->flags & (LOGSIG_FACT | LOGSIG_REACHED) || s->other)
		return false;
	return (strcmp(s->framework, "Gloo") == 0 && s->flags & LOGSIG_PEER) ||
	       (s->flags & LOGSIG_PEER && cls && strcmp(cls, "loopback") == 0);
}

/* torch's loopback fallback (the node's hostname resolved to no local
 * address, so Gloo bound 127.0.0.1 and gave that to its peers) with a
 * Gloo connect that failed in the same log: the hostname is the cause.
 * The refusal or timeout is its consequence (a rank dialled a loopback
 * address, its own host), never a closed remote port, so the causes
 * that only Gloo's connect lines gave go (issue 42:
 * aws-samples/aws-do-eks#50, #69). */
void explain_rule_gloo_fallback(const struct explain_ctx *x,
				struct explain_result *r)
{
	const struct explain_log *lg = x->lg;
	const struct explain_hit *fb = NULL, *conn = NULL;
	struct explain_cause *c;
	size_t o = 0;

	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *h = &lg->hits[i];

		if (strcmp(h->m.sig->id, "torch-gloo-loopback-fallback") == 0)
			fb = fb ? fb : h;
		else if (gloo_connect(h))
			conn = conn ? conn : h;
	}
	if (fb == NULL || conn == NULL || x->other ||
	    (c = explain_cause_for(r, EXPLAIN_NET, false,
	         finding_name(FINDING_HOSTNAME_UNBINDABLE))) == NULL)
		return;
	explain_add_ref(c, fb);
	explain_add_ref(c, conn);
	snprintf(c->why, sizeof(c->why), "torch could not resolve the "
		 "hostname to an address of this node and made Gloo use "
		 "127.0.0.1 (line %ld); a rank then dialled that loopback "
		 "address and failed (line %ld)", fb->line, conn->line);
	snprintf(c->fix, sizeof(c->fix), "on every node: map the hostname to "
		 "the node's LAN address in /etc/hosts (getent hosts "
		 "$(hostname) must print an address of that node), or set "
		 "GLOO_SOCKET_IFNAME=IFACE (one interface name; netprobe ifaces "
		 "lists them)");
	for (size_t i = 0; i < r->ncauses; i++) {
		const struct explain_cause *k = &r->causes[i];
		bool only_gloo = k->kind == EXPLAIN_NET && k != c &&
				 k->nrefs > 0;

		for (size_t j = 0; only_gloo && j < k->nrefs; j++) {
			const struct explain_hit *h =
				explain_ref_hit(lg, &k->refs[j]);

			only_gloo = h && gloo_connect(h);
		}
		if (!only_gloo)
			r->causes[o++] = *k;
	}
	r->ncauses = o;
}

/* A link-local address in the list of interfaces NCCL chose ("[1]
 * veth75fa783:fe80::14ad:...%veth75fa783<0>"): no rank of another host
 * reaches it, so the list shows the fault before any line fails; it
 * opens the candidates, failure or not, as the log may be cut before
 * the errors (issue 42: blind42b 028, pytorch/pytorch#68893). Returns
 * the interface's name in buf, or NULL. */
static const char *link_local_in_list(const char *list, char *buf,
				      size_t len)
{
	for (const char *p = list; p && *p;) {
		size_t n, a;
		char addr[64];

		if (*p == '[' && strchr(p, ']'))
			p = strchr(p, ']') + 1;
		n = strcspn(p, ": ");
		if (p[n] == ':' && n > 0 && n < len) {
			a = strcspn(p + n + 1, "< ");
			snprintf(addr, sizeof(addr), "%.*s", (int)a,
				 p + n + 1);
			if (explain_addr_class(addr) &&
			    strcmp(explain_addr_class(addr), "link-local") ==
			    0 && strchr(addr, ':')) {
				snprintf(buf, len, "%.*s", (int)n, p);
				return buf;
			}
		}
		p += n;
		p += strcspn(p, " ");
		p += strspn(p, " ");
	}
	return NULL;
}

/* Opens the candidates of the first such list (see link_local_in_list);
 * a cause that is not the network explains the log instead. */
static void rule_iface_link_local(const struct explain_ctx *x,
				  struct explain_result *r)
{
	const struct explain_log *lg = x->lg;
	char name[64], why[256];

	if (x->other)
		return;
	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *h = &lg->hits[i];
		const char *list = logmatch_field(&h->m, "ifaces");
		struct explain_cause *c;

		if (!(h->m.sig->flags & LOGSIG_LOCAL) || list == NULL ||
		    link_local_in_list(list, name, sizeof(name)) == NULL)
			continue;
		snprintf(why, sizeof(why), "NCCL listed %s with only an IPv6 "
			 "link-local address among the interfaces it uses: "
			 "ranks of other hosts cannot reach it", name);
		c = explain_cause_for(r, EXPLAIN_NET, true, x->ifname ?
				      "ipv6-link-local-only" :
				      "nccl-default-iface-unsafe,"
				      "ipv6-link-local-only");
		if (c == NULL)
			return;
		explain_add_ref(c, h);
		if (c->why[0] == '\0')
			snprintf(c->why, sizeof(c->why), "%s", why);
		if (c->fix[0] == '\0')
			snprintf(c->fix, sizeof(c->fix), "pin the interface "
				 "peers reach (NCCL_SOCKET_IFNAME==IFACE, not "
				 "%s) and NCCL_SOCKET_FAMILY=AF_INET", name);
		if (c->next[0] == '\0')
			snprintf(c->next, sizeof(c->next), "on the node: "
				 "netprobe scan (the interfaces NCCL's default "
				 "would pick, and which peers reach); ip -6 -br "
				 "addr show dev %s", name);
		return;
	}
}

/* Ray's `ray start` printed this node's address in a container pool
 * (Docker's 172.17/16, podman's 10.88/16): Ray advertises it to every
 * node, and inside a bridge-networked container it is the container's
 * address that other hosts cannot reach. A site may route the pool,
 * so it opens the candidates, never decides (issue 42: blind42b 035,
 * ray-project/ray#11211). */
static void rule_ray_pool(const struct explain_ctx *x,
			  struct explain_result *r)
{
	const struct explain_log *lg = x->lg;

	if (x->other)
		return;
	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *h = &lg->hits[i];
		const char *a = logmatch_field(&h->m, "addr");
		const char *cls = explain_addr_class(a);
		struct explain_cause *c;

		if (strcmp(h->m.sig->id, "ray-local-node-ip") != 0 ||
		    cls == NULL || strstr(cls, "bridge") == NULL)
			continue;
		c = explain_cause_for(r, EXPLAIN_NET, true,
				      "container-bridge-nat,nat-detected");
		if (c == NULL)
			return;
		explain_add_ref(c, h);
		if (c->why[0] == '\0')
			snprintf(c->why, sizeof(c->why), "Ray advertises %s "
				 "for this node, an address of %s's default "
				 "bridge pool: inside a bridge-networked "
				 "container other hosts cannot reach it", a,
				 cls[0] == 'd' ? "Docker" : "podman");
		if (c->fix[0] == '\0')
			snprintf(c->fix, sizeof(c->fix), "run the container with "
				 "--network=host, or give ray start "
				 "--node-ip-address=HOST_IP and publish its "
				 "ports");
		if (c->next[0] == '\0')
			snprintf(c->next, sizeof(c->next), "on the node: ip -br "
				 "addr (is %s an address of the host, or of a "
				 "container?)", a);
		return;
	}
}

/* Open MPI's --tag-output prefix "[JOB,RANK]<stderr>:" on a line: the
 * rank, or -1 where the line has none. */
static long ompi_tag_rank(const char *text)
{
	const char *p = strstr(text, "]<std");
	const char *b = p, *comma;
	char *end;
	long rank;

	if (p == NULL)
		return -1;
	while (b > text && b[-1] != '[' && p - b < 24)
		b--;
	if (b == text || b[-1] != '[' ||
	    (comma = memchr(b, ',', (size_t)(p - b))) == NULL)
		return -1;
	rank = strtol(comma + 1, &end, 10);
	return end == p ? rank : -1;
}

/* UCX says a peer is unreachable (or a connect failed) on a line of a
 * rank whose number shows a job of more than 128 ranks: when ranks
 * connect to one listener at once, a backlog of 128 (net.core.somaxconn
 * before Linux 5.4) drops the SYNs past it and UCX's TCP transport gives
 * up after its retries (issue 42: blind42e b09, openucx/ucx#4480 at
 * np=252 where np=156 worked, fixed by more retries in PR 4717). A
 * candidate beside the others, with the counter that decides; a cause
 * that is not the network explains the line instead. */
static void rule_ucx_scale(const struct explain_ctx *x,
			   struct explain_result *r)
{
	const struct explain_log *lg = x->lg;

	if (!x->failed || x->other)
		return;
	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *h = &lg->hits[i];
		long rank = ompi_tag_rank(h->text);
		struct explain_cause *c;

		if ((strcmp(h->m.sig->id, "ucx-ep-unreachable") != 0 &&
		     strcmp(h->m.sig->id, "ucx-connect") != 0) || rank < 128)
			continue;
		c = explain_cause_for(r, EXPLAIN_NET, true,
				      finding_name(FINDING_SOMAXCONN_LOW));
		if (c == NULL)
			return;
		explain_add_ref(c, h);
		if (c->why[0] == '\0')
			snprintf(c->why, sizeof(c->why), "rank %ld of a "
				 "job of more than %ld ranks could not "
				 "connect over UCX: at that scale a listener's "
				 "backlog of 128 (net.core.somaxconn before "
				 "Linux 5.4) drops the connects past it", rank,
				 rank);
		if (c->next[0] == '\0')
			explain_backlog_next(c->next, sizeof(c->next));
		return;
	}
}

void explain_rules(const struct explain_ctx *x, struct explain_result *r)
{
	rule_ucx_scale(x, r);
	rule_iface_link_local(x, r);
	rule_ray_pool(x, r);
	rule_gid_zero(x, r);
	rule_iface_list(x, r);
	rule_local_addrs(x, r);
	rule_gids(x, r);
	explain_mpi_hang(x, r);
}

static bool is(const char *code, const char *list)
{
	size_t n = strlen(code);

	for (const char *p = list; (p = strstr(p, code)) != NULL; p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/* True when code is one of the n ids. */
static bool one_of(const char *code, const enum finding_code *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (finding_is(code, ids[i]))
			return true;
	return false;
}

/* The line of the log that contradicts decided cause c, or NULL:
 * - an address said unreachable (or NAT'd) that a line
 *   shows connected (a peer that closed or reset it, data that moved);
 *   for no route, a refusal from it too (the host answered);
 * - no interface found, where the same host printed one it uses;
 * - a port in use that the same program later listened on;
 * - a path MTU below a size that a later reply carried. */
static const struct explain_hit *contradiction(const struct explain_ctx *x,
					       const struct explain_cause *c,
					       const struct explain_hit *src)
{
	const struct explain_log *lg = x->lg;
	const char *code = c->codes[0];
	/* the causes a line that connected refutes */
	static const enum finding_code reached[] = {
	    FINDING_PORT_CLOSED,          FINDING_HOST_UNREACHABLE,
	    FINDING_CONTAINER_BRIDGE_NAT, FINDING_NAT_DETECTED,
	    FINDING_IPV6_LINK_LOCAL_ONLY, FINDING_PORT_FILTERED};
	char h1[64], h2[64];

	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *h = &lg->hits[i];
		const struct logsig *s = h->m.sig;
		const char *a = logmatch_field(&h->m, "addr");
		const char *p = logmatch_field(&h->m, "port");

		if (h == src)
			continue;
		if (c->addr[0] && a && strcmp(a, c->addr) == 0 &&
		    one_of(code, reached,
		           sizeof(reached) / sizeof(reached[0])) &&
		    (s->flags & LOGSIG_REACHED ||
		     (finding_is(code, FINDING_HOST_UNREACHABLE) && s->codes &&
		      is(finding_name(FINDING_PORT_CLOSED), s->codes))))
			return h;
		if (finding_is(code, FINDING_NCCL_IFNAME_NOMATCH) &&
		    s->flags & LOGSIG_LOCAL && logmatch_field(&h->m, "iface") &&
		    src && explain_hit_host(src, h1, sizeof(h1)) &&
		    explain_hit_host(h, h2, sizeof(h2)) && strcmp(h1, h2) == 0)
			return h;
		if (finding_is(code, FINDING_PORT_IN_USE) && src && p &&
		    strcmp(s->id, "torch-store-listening") == 0 &&
		    h->line > src->line && logmatch_field(&src->m, "port") &&
		    strcmp(p, logmatch_field(&src->m, "port")) == 0)
			return h;
		if (finding_is(code, FINDING_MTU_MISMATCH) && src &&
		    strcmp(s->id, "ping-reply") == 0 &&
		    logmatch_field(&src->m, "mtu") &&
		    logmatch_field(&h->m, "bytes") &&
		    atol(logmatch_field(&h->m, "bytes")) + 20 >
		        atol(logmatch_field(&src->m, "mtu")))
			return h;
	}
	return NULL;
}

void explain_contradict(const struct explain_ctx *x, struct explain_result *r)
{
	for (size_t i = 0; i < r->ncauses; i++) {
		struct explain_cause *c = &r->causes[i];
		const struct explain_hit *src, *h;

		if (c->kind != EXPLAIN_NET || c->open)
			continue;
		src = c->nrefs > 0 ? explain_ref_hit(x->lg, &c->refs[0]) : NULL;
		if ((h = contradiction(x, c, src)) == NULL)
			continue;
		c->open = true;
		snprintf(c->contra, sizeof(c->contra), "line %ld (%s) "
			 "contradicts it", h->line, h->m.sig->id);
		if (src)
			explain_next_command(src, c->next, sizeof(c->next));
		else
			snprintf(c->next, sizeof(c->next), "on the node that "
				 "printed it: netprobe scan");
		c->refs[c->nrefs < EXPLAIN_MAX_LINES ? c->nrefs++ :
			EXPLAIN_MAX_LINES - 1] =
			(struct explain_ref){h->file, h->line};
	}
}
