/* netprobe explain's decider (decide/explain.h): the log's hits to causes,
 * then what this node measured to proved or not seen. */
#include "decide/explain.h"
#include "decide/explain_priv.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/finding.h"

/* What an errno text a line captured decides for a connect or a bind:
 * a refusal proves nothing listened, a network unreachable proves no
 * route here, an address in use proves another process held the port;
 * a timeout only narrows, and so does a host unreachable: EHOSTUNREACH
 * is a neighbour that never answered or a firewall's REJECT with
 * host-prohibited, firewalld's default (issue 42: blind42n c11, kube-dns
 * behind CentOS's firewalld; docs/findings.md's port-prohibited). */
static const char *err_codes(const char *err, const char **maybe)
{
	*maybe = NULL;
	if (err == NULL)
		return NULL;
	if (strstr(err, "refused") || strcmp(err, "111") == 0)
		return finding_name(FINDING_PORT_CLOSED);
	if (strstr(err, "etwork is unreachable") || strcmp(err, "101") == 0)
		return finding_name(FINDING_HOST_UNREACHABLE);
	if (strstr(err, "o route to") || strstr(err, "unreachable") ||
	    strcmp(err, "113") == 0) {
		*maybe = "host-unreachable,port-prohibited";
		return NULL;
	}
	if (strstr(err, "EADDRINUSE") || strstr(err, "already in use") ||
	    strcmp(err, "98") == 0)
		return finding_name(FINDING_PORT_IN_USE);
	if (strstr(err, "timed out") || strcmp(err, "110") == 0)
		*maybe = "port-filtered,inbound-blocked,rank-unreachable";
	return NULL;
}

/* GLOO_SOCKET_IFNAME's fix from the value the log shows (issue 42: the
 * log's own interface, not a placeholder): "=eth0" or "eth0,eth1" name
 * it; an exclusion ("^docker0,lo") names none. */
static void gloo_fix(const char *v, char *buf, size_t len)
{
	size_t n;

	if (v && *v == '=')
		v++;
	n = v ? strcspn(v, ",") : 0;
	if (v && *v != '^' && n > 0 && n < 32)
		snprintf(buf, len, "GLOO_SOCKET_IFNAME=%.*s (Gloo takes one "
			 "interface name, no '^', '=' or ',')", (int)n, v);
	else
		snprintf(buf, len, "GLOO_SOCKET_IFNAME=IFACE (one interface "
			 "name, no '^', '=' or ','; netprobe ifaces lists "
			 "them)");
}

/* Adds a decided network cause for one code with its line. */
static void decide_one(struct explain_result *r, const struct explain_hit *h,
		       const char *code, const char *why)
{
	struct explain_cause *c = explain_cause_for(r, EXPLAIN_NET, false,
						    code);
	const char *addr = logmatch_field(&h->m, "addr");
	const char *port = logmatch_field(&h->m, "port");

	if (c == NULL)
		return;
	explain_add_ref(c, h);
	if (c->why[0] == '\0')
		snprintf(c->why, sizeof(c->why), "%s", why);
	if (addr && c->addr[0] == '\0')
		snprintf(c->addr, sizeof(c->addr), "%s", addr);
	if (finding_is(code, FINDING_GLOO_IFNAME_SYNTAX))
		gloo_fix(logmatch_field(&h->m, "setting_gloo_ifname"), c->fix,
			 sizeof(c->fix));
	if (finding_is(code, FINDING_NAME_UNRESOLVED))
		explain_name_fix(h, c->fix, sizeof(c->fix));
	if (finding_is(code, FINDING_PORT_IN_USE) && port)
		snprintf(c->fix, sizeof(c->fix), "on the node that printed "
			 "it, find the holder: ss -ltnp 'sport = :%s'; stop it "
			 "(often an earlier run of the job) or choose another "
			 "port (MASTER_PORT=...)", port);
	explain_framework_fix(h, code, c);
}

/* c10d's reverse lookup that the resolver never answered (EAI_AGAIN):
 * name-unresolved stays open with the commands that time the node's
 * resolver, since the log shows the timeout, not why the resolver is
 * silent (issue 42: blind42e a14, pytorch/pytorch#159007). */
static void resolver_again(const struct explain_hit *h,
			   struct explain_result *r)
{
	struct explain_cause *c = explain_cause_for(
	    r, EXPLAIN_NET, true, finding_name(FINDING_NAME_UNRESOLVED));

	if (c == NULL)
		return;
	explain_add_ref(c, h);
	if (c->why[0] != '\0')
		return;
	snprintf(c->why, sizeof(c->why), "%s", h->m.sig->meaning);
	snprintf(c->next, sizeof(c->next), "on the node that printed it: "
		 "time getent hosts PEER_IP (seconds, then nothing, is the "
		 "resolver not answering); cat /etc/resolv.conf (the "
		 "resolver it asks)");
	snprintf(c->fix, sizeof(c->fix), "make the resolver in "
		 "/etc/resolv.conf reachable, or list the nodes' addresses in "
		 "/etc/hosts; torch 2.9 stops the lookups after the first "
		 "failure (pytorch/pytorch#159596)");
}

/* Opens a set of candidates with the line and its deciding command. */
static void open_set(struct explain_result *r, const struct explain_hit *h,
		     const char *codes, const char *why)
{
	explain_open(r, h, codes, why, NULL);
}

/* Joins two comma lists (a first) into buf without repeats. */
static const char *join_codes(const char *a, const char *b, char *buf,
			      size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (const char *l = a; l; l = (l == a ? b : NULL))
		for (const char *p = l; *p;) {
			size_t n = strcspn(p, ",");
			char one[48];

			snprintf(one, sizeof(one), "%.*s", (int)n, p);
			if (!strstr(buf, one) && o + n + 2 < len)
				o += (size_t)snprintf(buf + o, len - o, "%s%s",
						      o ? "," : "", one);
			p += n + (p[n] == ',');
		}
	return buf;
}

/* gloo-no-address: NCCL syntax in GLOO_SOCKET_IFNAME is decided; a plain
 * name that has no address is left to `netprobe ifaces`. */
static bool gloo_syntax(const char *v)
{
	return v && (v[0] == '^' || v[0] == '=' || strchr(v, ',') != NULL);
}

/* An address literal or localhost: a name lookup of it fails only for
 * the family this host lacks. */
static bool literal_or_localhost(const char *a)
{
	unsigned char buf[sizeof(struct in6_addr)];

	return a && (strcmp(a, "localhost") == 0 ||
		     inet_pton(AF_INET, a, buf) == 1 ||
		     inet_pton(AF_INET6, a, buf) == 1);
}

/* torch's IPv6 lookup of the store's host failed: printed on every host
 * without IPv6 (AI_ADDRCONFIG), for an address or localhost too, where
 * it is harmless (benign true asks for that case); for a name it only
 * opens name-unresolved, as the IPv4 lookup may still find it. */
static bool gai_v6_only(const struct explain_hit *h, bool benign_case)
{
	const char *f = logmatch_field(&h->m, "family");

	if (strcmp(h->m.sig->id, "torch-gai") != 0 || f == NULL ||
	    strncmp(f, "IPv6", 4) != 0)
		return false;
	return literal_or_localhost(logmatch_field(&h->m, "addr")) ==
	       benign_case;
}

/* torchrun (torch.distributed.elastic's agent) sets MASTER_ADDR to its
 * own fully qualified hostname and MASTER_PORT to a port the kernel
 * gave it (SimpleElasticAgent._set_master_addr_port, torch 1.9-2.9;
 * --standalone always): a c10d lookup of a name with a port in Linux's
 * ephemeral range (32768-60999) is the lookup of that node's own name
 * (nyu-systems/Grendel-GS#9, hpcaitech/ColossalAI#2841). A fixed port a
 * user chose (29500) names a peer. */
static bool own_name(const struct explain_hit *h)
{
	const char *p = logmatch_field(&h->m, "port");
	long port = p ? strtol(p, NULL, 10) : 0;

	return strcmp(h->m.sig->id, "torch-gai") == 0 && port >= 32768 &&
	       port <= 60999 &&
	       !literal_or_localhost(logmatch_field(&h->m, "addr"));
}

/* torch's store client warns on every failed try: errno 99 (no
 * address of that family, often localhost's IPv6), 97 or 22 and
 * Windows' 10049 are retried and mean nothing about the network. */
static bool benign(const struct explain_hit *h)
{
	const char *e = logmatch_field(&h->m, "errno");
	const char *wc;

	/* a dask-ssh worker on the scheduler's own host (localhost is
	 * of the loopback class too) */
	if (strcmp(h->m.sig->id, "dask-ssh-worker-loopback") == 0)
		return (wc = explain_addr_class(logmatch_field(&h->m,
							      "host"))) &&
		       strcmp(wc, "loopback") == 0;
	return (strcmp(h->m.sig->id, "torch-store-connect-failed") == 0 && e &&
		(strcmp(e, "99") == 0 || strcmp(e, "97") == 0 ||
		 strcmp(e, "22") == 0 || strcmp(e, "10049") == 0)) ||
	       gai_v6_only(h, true);
}

/* A symptom: recorded as such, with what to collect to tell; its
 * candidates wait for symptom_candidates. */
static void symptom(const struct explain_ctx *x, const struct explain_hit *h,
		    struct explain_result *r)
{
	const struct logsig *s = h->m.sig;
	struct explain_cause *c = explain_cause_for(r, EXPLAIN_SYMPTOM, false,
						    s->id);
	const char *cands = s->maybe ? s->maybe : s->codes;
	const char *a = logmatch_field(&h->m, "addr");
	const char *cls = explain_addr_class(a);

	/* a peer that advertised loopback (or link-local) is proof
	 * whatever reached it: no other host can use that address; NCCL
	 * on lo's own address is its interface choice, still open */
	if (explain_odd_store_addr(x->lg, h, r)) {
		/* opened: an address no peer can use */
	} else if (explain_nccl_lo(h)) {
		explain_nccl_lo_cause(x, h, r);
	} else if (s->flags & LOGSIG_PEER && cls &&
		   strcmp(cls, "loopback") == 0 &&
		   !explain_chosen_loopback(x->lg, a)) {
		/* a log that names no other host: one host's processes
		 * meet on loopback (blind42n b07, Horovod's elastic test
		 * killing a rank on purpose) */
		char why[256];

		snprintf(why, sizeof(why), "%s is a loopback address: a rank "
			 "advertised its hostname's loopback mapping", a);
		decide_one(r, h, finding_name(FINDING_HOSTNAME_LOOPBACK), why);
	} else if (s->flags & LOGSIG_PEER && cls &&
		   strcmp(cls, "link-local") == 0) {
		char why[256];

		snprintf(why, sizeof(why), "%s is link-local: a rank "
			 "advertised an address that only works on one link",
			 a);
		decide_one(r, h, finding_name(FINDING_IPV6_LINK_LOCAL_ONLY),
		           why);
	}
	if (c != NULL) {
		explain_add_ref(c, h);
		if (c->why[0] == '\0')
			snprintf(c->why, sizeof(c->why), "%s", s->meaning);
		if (c->next[0] == '\0')
			explain_collect_next(h, c->next, sizeof(c->next));
	}
	/* a failure row read as a symptom (a flushed IB completion) is
	 * itself the network line its candidates need */
	if (!(s->flags & LOGSIG_SYMPTOM) && !x->other && cands != NULL)
		open_set(r, h, cands, s->meaning);
}

/* True when the result holds a network cause, decided or open: a rule
 * over several lines (a virtual interface NCCL chose, an address two
 * hosts share) is network evidence as a failure line is. */
static bool has_net(const struct explain_result *r)
{
	for (size_t i = 0; i < r->ncauses; i++)
		if (r->causes[i].kind == EXPLAIN_NET)
			return true;
	return false;
}

/* True when the log shows the interface NCCL chose by itself: a Using
 * line and no NCCL_SOCKET_IFNAME echoed. */
static bool nccl_own_iface(const struct explain_ctx *x)
{
	return x->ifname == NULL && explain_nccl_using(x);
}

/* NCCL's return-code trace through bootstrap.cc with a system or
 * remote error (2, 6) and no line more precise: the bootstrap runs on
 * sockets only, so the ranks could not reach each other over the
 * interface NCCL used; where NCCL chose that interface itself, its
 * choice is a candidate too (issue 42: blind42b 010, NVIDIA/nccl#1000:
 * the IPoIB interface NCCL picked; NCCL_SOCKET_IFNAME fixed it). Any
 * other decided or open network cause is the more precise answer. */
static void bootstrap_trace(const struct explain_ctx *x,
			    const struct explain_hit *h,
			    struct explain_result *r)
{
	const char *ret = logmatch_field(&h->m, "ret");
	bool own = nccl_own_iface(x);

	if (ret == NULL || (strcmp(ret, "2") != 0 && strcmp(ret, "6") != 0))
		return;
	/* a peer that reset or closed a bootstrap socket answered: the
	 * ranks reached each other, and the trace is that close's
	 * (NVIDIA/nccl#1920: reset while sending the socket's type;
	 * NVIDIA/nccl#1612: a connection closed before its magic) */
	for (size_t i = 0; i < x->lg->nhits; i++)
		if (x->lg->hits[i].m.sig->flags & LOGSIG_REACHED &&
		    x->lg->hits[i].m.sig->flags & LOGSIG_PEER)
			return;
	/* a network cause other than this trace's own set (a repeated
	 * trace line joins it) is the more precise answer */
	for (size_t i = 0; i < r->ncauses; i++)
		if (r->causes[i].kind == EXPLAIN_NET &&
		    strcmp(r->causes[i].codes[0], "rank-unreachable") != 0)
			return;
	if (!own && explain_nccl_iface_unseen(x, h, r))
		return; /* no interface line at all: the pick is unknown */
	open_set(r, h, own ? "rank-unreachable,nccl-default-iface-unsafe" :
		 "rank-unreachable", own ? "NCCL's bootstrap failed on a "
		 "socket over the interface NCCL chose by itself (the log "
		 "echoes no NCCL_SOCKET_IFNAME): the ranks could not reach "
		 "each other over it" : h->m.sig->meaning);
}

/* The symptoms' candidates open only where the same log holds network
 * evidence and no cause that is not the network explains them: a
 * watchdog, Gloo or store timeout alone was as often a slow compile, a
 * crashed or OOM-killed rank or a driver bug in the public threads, and
 * the symptom then says what would tell (issue 42). */
static void symptom_candidates(const struct explain_ctx *x,
			       struct explain_result *r)
{
	bool evidence = x->net_line || has_net(r);

	if (x->other)
		return;
	for (size_t i = 0; i < x->lg->nhits; i++) {
		const struct explain_hit *h = &x->lg->hits[i];
		const struct logsig *s = h->m.sig;
		const char *cands = s->maybe ? s->maybe : s->codes;
		struct explain_cause *c;

		if (s->other != NULL || !(s->flags & LOGSIG_SYMPTOM) ||
		    s->flags & LOGSIG_FACT || benign(h) || cands == NULL)
			continue;
		if (strcmp(s->id, "nccl-bootstrap-trace") == 0) {
			bootstrap_trace(x, h, r);
			continue;
		}
		if (strcmp(s->id, "nccl-socket-family-unset") == 0) {
			explain_nccl_addr_unset(x, h, r);
			continue;
		}
		if (explain_odd_store_addr(x->lg, h, NULL))
			continue; /* its address is the answer */
		if (evidence) {
			char both[256];
			const char *x2 = explain_addr_extra(h);

			/* a pool or VM-NAT peer adds its own candidates */
			open_set(r, h, x2 ? join_codes(cands, x2, both,
						       sizeof(both)) : cands,
				 s->meaning);
			continue;
		}
		/* no network line: they stand only where this node's own
		 * measurement proves one (explain_drop_normal) */
		c = explain_cause_for(r, EXPLAIN_NET, true, cands);
		if (c == NULL)
			continue;
		explain_add_ref(c, h);
		if (c->why[0] == '\0')
			snprintf(c->why, sizeof(c->why), "%s", s->meaning);
		if (c->next[0] == '\0')
			explain_next_command(h, c->next, sizeof(c->next));
		c->normal_unless_measured = true;
	}
}

/* Ray found this node's address in a container pool while it reached
 * the GCS at an address outside that pool: its traffic left through a
 * translation the head does not know, which proves the NAT (the pool
 * alone would not). */
static bool ray_nat(const struct explain_hit *h, struct explain_result *r)
{
	const char *a = logmatch_field(&h->m, "addr");
	const char *g = logmatch_field(&h->m, "gcs_addr");
	const char *ca = explain_addr_class(a), *cg = explain_addr_class(g);
	char why[256];

	if (ca == NULL || g == NULL || strcmp(ca, "loopback") == 0 ||
	    strncmp(ca, "link-local", 10) == 0 || (cg && strcmp(ca, cg) == 0))
		return false;
	snprintf(why, sizeof(why), "this node's own address %s is in a "
		 "container pool, yet it reached the GCS at %s, which does "
		 "not know that address: a NAT'd container bridge", a, g);
	decide_one(r, h, finding_name(FINDING_CONTAINER_BRIDGE_NAT), why);
	return true;
}

/* Open MPI's or UCX's TCP transport connected to a container bridge's
 * address (docker0's 172.17.0.1 is on every Docker host): they offer
 * every interface, so the transport chose a bridge one, which is the
 * fault whatever the errno. */
static bool mpi_bridge(const struct explain_hit *h, struct explain_result *r)
{
	const char *a = logmatch_field(&h->m, "addr");
	const char *c = explain_addr_class(a);
	char why[256];

	if (c == NULL || strcmp(c, "loopback") == 0)
		return false;
	bool ucx = strncmp(h->m.sig->id, "ucx", 3) == 0;
	struct explain_cause *k;

	snprintf(why, sizeof(why), "%s's TCP transport tried %s, %s: it "
		 "chose an interface the peer cannot reach",
		 ucx ? "UCX" : "Open MPI", a, strncmp(c, "link-local", 10) == 0 ?
		 "a link-local address" : "a container bridge's address that "
		 "every Docker host may carry");
	decide_one(r, h, finding_name(FINDING_MPI_BTL_IFACE), why);
	k = explain_cause_for(r, EXPLAIN_NET, false,
	                      finding_name(FINDING_MPI_BTL_IFACE));
	if (k != NULL && ucx)
		snprintf(k->fix, sizeof(k->fix), "UCX_NET_DEVICES=IFACE (the "
			 "interface the nodes reach each other on; mpirun -x "
			 "UCX_NET_DEVICES=IFACE)");
	return true;
}

/* ZMQ bound a name that is no interface: a host name (never looked up
 * by a bind) decides hostname-unbindable; an address literal is one no
 * interface of this host holds, which leaves it open (issue 42:
 * blind42b 014, NVIDIA-NeMo/Export-Deploy#743). */
static void zmq_bind(const struct explain_hit *h, struct explain_result *r)
{
	const char *n = logmatch_field(&h->m, "host");
	struct explain_cause *c;
	char why[256];

	if (n == NULL)
		return;
	if (literal_or_localhost(n)) {
		snprintf(why, sizeof(why), "ZMQ could not bind %s: no "
			 "interface of this host holds that address", n);
		open_set(r, h, finding_name(FINDING_HOSTNAME_UNBINDABLE), why);
		return;
	}
	snprintf(why, sizeof(why), "ZMQ was asked to bind the name %s (in "
		 "a container, its id is the hostname): a ZMQ bind takes an "
		 "address or an interface and looks no name up", n);
	decide_one(r, h, finding_name(FINDING_HOSTNAME_UNBINDABLE), why);
	c = explain_cause_for(r, EXPLAIN_NET, false,
			      finding_name(FINDING_HOSTNAME_UNBINDABLE));
	if (c != NULL)
		snprintf(c->fix, sizeof(c->fix), "give the bind an address of "
			 "this node, not its name: set MASTER_ADDR (or the "
			 "tool's address option) to the IP that getent hosts "
			 "%s should print, or bind tcp://*:PORT", n);
}

/* A failure line: the codes its row proves, or those its captured
 * facts (address class, errno) prove, or the candidates it opens. */
static void hit_causes(const struct explain_ctx *x,
		       const struct explain_hit *h, struct explain_result *r)
{
	const struct logsig *s = h->m.sig;
	const char *codes = s->codes, *maybe = s->maybe, *ec, *em, *pool;
	const char *err = logmatch_field(&h->m, "err");
	char why[256], both[256];
	const char *code;

	if (strcmp(s->id, "kernel-link-down") == 0 &&
	    explain_link_came_back(x->lg, h))
		return;
	if (err == NULL)
		err = logmatch_field(&h->m, "errno");
	snprintf(why, sizeof(why), "%s", s->meaning);
	if (s->flags & LOGSIG_IB_FALLBACK && !x->expect_ib) {
		struct explain_cause *c = explain_cause_for(r, EXPLAIN_NET,
							    true, s->maybe);

		/* sockets on a cluster without RDMA: normal, unless this
		 * node's measurement shows RDMA that NCCL could not use */
		if (c != NULL) {
			explain_add_ref(c, h);
			snprintf(c->why, sizeof(c->why), "%s", s->meaning);
			explain_next_command(h, c->next, sizeof(c->next));
			c->normal_unless_measured = true;
		}
		return;
	}
	/* a row that only lists candidates and captures nothing (no
	 * errno, no address, no completion status), beside a crash, a
	 * kill or another cause that is not the network, is that cause's
	 * echo, as the errno words' are (issue 42: blind42o b11, mpirun's
	 * daemons "unable to reliably start" after one segfaulted) */
	if (x->other && codes == NULL && h->m.nfields == 0)
		return;
	if (strcmp(s->id, "ray-ip-mismatch") == 0 && ray_nat(h, r))
		return;
	if (strcmp(s->id, "zmq-bind-nodev") == 0) {
		zmq_bind(h, r);
		return;
	}
	if (strcmp(s->id, "torch-client-hostname-again") == 0) {
		resolver_again(h, r);
		return;
	}
	/* Gloo's device was handed the wildcard address (vLLM passes its
	 * --host 0.0.0.0 on): no interface holds it, but no host name was
	 * looked up either, so the name is only a candidate. */
	if (strcmp(s->id, "gloo-hostname-no-iface") == 0) {
		const char *a = logmatch_field(&h->m, "bind_addr");

		if (a != NULL && (strcmp(a, "0.0.0.0") == 0 ||
				  strcmp(a, "::") == 0)) {
			open_set(r, h, codes, "Gloo was given the wildcard "
				 "address to bind, which no interface holds: "
				 "set GLOO_SOCKET_IFNAME");
			return;
		}
	}
	/* asyncio and Ruby print the address bound, not the name it came
	 * from: a loopback address this host lacks (::1 with no IPv6 on
	 * lo) came from localhost, which decides; any other address may
	 * have been configured as is, so the name is only a candidate. */
	if (strcmp(s->id, "asyncio-bind-unassignable") == 0 ||
	    strcmp(s->id, "ruby-bind-unassignable") == 0) {
		const char *cls = explain_addr_class(logmatch_field(&h->m,
								   "bind_addr"));

		if (cls == NULL || strcmp(cls, "loopback") != 0) {
			open_set(r, h, codes, why);
			return;
		}
	}
	if (strcmp(s->id, "ucx-cm-device-disabled") == 0) {
		explain_ucx_device_off(h, r);
		return;
	}
	if (explain_nccl_no_iface(x, h, r))
		return;
	if (explain_nccl_noroute(h, r) || explain_nccl_bind_in_use(x->lg, h, r))
		return;
	if (own_name(h)) {
		/* torchrun's own pick: the name of the node that runs the
		 * store; on it, the hostname does not resolve */
		snprintf(why, sizeof(why), "%s with port %s is what torchrun "
			 "picks for itself (the node's own hostname and a free "
			 "port): that node's hostname does not resolve%s",
			 logmatch_field(&h->m, "addr"),
			 logmatch_field(&h->m, "port"),
			 gai_v6_only(h, false) ? " over IPv6 at least" : "");
		if (gai_v6_only(h, false)) {
			open_set(r, h, "hostname-unbindable,name-unresolved",
				 why);
			return;
		}
		open_set(r, h, finding_name(FINDING_HOSTNAME_UNBINDABLE), why);
	} else if (gai_v6_only(h, false) &&
		   !explain_name_unexpanded(logmatch_field(&h->m, "addr"))) {
		open_set(r, h, s->codes, "torch's IPv6 lookup of the store's "
			 "host failed; its IPv4 lookup may still find it");
		return;
	}
	if ((strncmp(s->id, "ompi-btl-connect", 16) == 0 ||
	     strcmp(s->id, "ompi-btl-start-connect") == 0 ||
	     strcmp(s->id, "ucx-connect") == 0) && mpi_bridge(h, r))
		return;
	if (logmatch_field(&h->m, "wc_status") &&
	    strcmp(logmatch_field(&h->m, "wc_status"), "5") == 0) {
		symptom(x, h, r); /* flushed: an earlier error broke the QP */
		return;
	}
	if (explain_odd_store_addr(x->lg, h, r))
		return; /* 0.0.0.0/8: no host holds it */
	if (explain_nccl_lo(h)) {
		explain_nccl_lo_cause(x, h, r);
		return;
	}
	if ((code = explain_addr_cause(x->lg, h, why, sizeof(why),
				       &pool)) != NULL) {
		codes = code;
		maybe = NULL;
	} else if (strcmp(s->id, "gloo-no-address") == 0) {
		const char *v = logmatch_field(&h->m, "setting_gloo_ifname");

		if (gloo_syntax(v)) {
			codes = finding_name(FINDING_GLOO_IFNAME_SYNTAX);
			snprintf(why, sizeof(why), "GLOO_SOCKET_IFNAME='%s' "
				 "uses NCCL's syntax; Gloo takes one name",
				 v);
		} else {
			/* a plain name this host lacks or has no address
			 * on: the setting names no usable interface (issue
			 * 42: blind42b 015, Horovod's Gloo given eth0 on a
			 * host with em1/em2) */
			const char *e = logmatch_field(&h->m, "enforce");
			bool bare = e == NULL || (strncmp(e, "ifa", 3) != 0 &&
						  strncmp(e, "false", 5) != 0);

			/* without its enforce prefix the line may be the
			 * hostname lookup's (same text): the name stays a
			 * candidate beside the interface */
			maybe = bare ? "nccl-ifname-nomatch,interface-down,"
				"no-usable-interface,hostname-unbindable" :
				"nccl-ifname-nomatch,interface-down,"
				"no-usable-interface";
			snprintf(why, sizeof(why), "Gloo was told to use "
				 "interface %s (GLOO_SOCKET_IFNAME, Horovod's "
				 "HOROVOD_GLOO_IFACE or its default) and this "
				 "host has no address on it%s%s%s",
				 v ? v : "?", bare ? ", unless " : "",
				 bare && v ? v : "", bare ? " is the host "
				 "name Gloo looked up (the enforce prefix, "
				 "cut here, would tell)" : "");
		}
	} else if (s->codes == NULL && logmatch_field(&h->m, "verb") == NULL &&
		   ((ec = err_codes(err, &em)) != NULL || em != NULL)) {
		/* the errno decides; a connect's timeout narrows, but an
		 * established socket's timeout keeps the row's candidates;
		 * an RDMA verb's errno is not a socket's (a RoCE path to
		 * the peer's GID that did not resolve times out too) */
		codes = ec;
		if (maybe == NULL || ec != NULL ||
		    !(s->flags & LOGSIG_REACHED))
			maybe = em;
	} else if ((em = logsig_errno_open(err = logmatch_field(&h->m,
							      "open_err")))
		   != NULL && !strstr(err, "refused")) {
		/* an errno that picks the candidates and decides none (a
		 * connect retried, not given up; a peer named, not its
		 * address): a refusal's set is the row's own */
		maybe = em;
		snprintf(why, sizeof(why), "%s; it returned %s", s->meaning,
			 err);
	}
	if (pool != NULL && strcmp(pool, EXPLAIN_LOOPBACK_ONE_HOST) == 0) {
		const char *port = logmatch_field(&h->m, "port");
		char next[160];

		/* no filter on one host's loopback: who holds the port */
		snprintf(next, sizeof(next), "on this node: ss -ltnp 'sport "
			 "= :%s' (the server the client wants, another "
			 "program, or nothing)", port ? port : "PORT");
		explain_open(r, h, pool, why, next);
		return;
	}
	if (pool != NULL) {
		/* the pool opens NAT beside what the errno would decide */
		open_set(r, h, join_codes(pool, codes ? codes : maybe ? maybe
					  : "", both, sizeof(both)), why);
		return;
	}
	for (const char *p = codes; p && *p;) {
		size_t n = strcspn(p, ",");
		char one[48];

		snprintf(one, sizeof(one), "%.*s", (int)n, p);
		decide_one(r, h, one, why);
		p += n + (p[n] == ',');
	}
	if (codes == NULL && maybe != NULL)
		open_set(r, h, maybe, why);
}

static void other_cause(const struct explain_hit *h, struct explain_result *r)
{
	struct explain_cause *c = explain_cause_for(r, EXPLAIN_OTHER, false,
						    h->m.sig->other);

	if (c == NULL)
		return;
	explain_add_ref(c, h);
	if (c->why[0] == '\0')
		snprintf(c->why, sizeof(c->why), "%s", h->m.sig->meaning);
}

/* An open cause one of whose codes a decided cause already names says
 * nothing more. */
static void drop_settled(struct explain_result *r)
{
	size_t o = 0;

	for (size_t i = 0; i < r->ncauses; i++) {
		struct explain_cause *c = &r->causes[i];
		bool settled = false;

		for (size_t j = 0; c->kind == EXPLAIN_NET && c->open &&
		     j < r->ncauses && !settled; j++)
			if (r->causes[j].kind == EXPLAIN_NET &&
			    !r->causes[j].open)
				for (size_t k = 0; k < c->ncodes; k++)
					if (strcmp(c->codes[k],
						   r->causes[j].codes[0]) == 0)
						settled = true;
		if (!settled)
			r->causes[o++] = *c;
	}
	r->ncauses = o;
}


/* Python's timed-out connect in a log that shows an HTTP client's
 * frames or pool: a download's connect (a model hub, a package index),
 * not one toward a peer of the job, so it opens nothing (issue 42: the
 * py-connect-timeout row reads the innermost exception of any
 * traceback). */
static bool http_timeout(const struct explain_log *lg,
			 const struct explain_hit *h)
{
	/* unless a line near it names a peer's address (the command
	 * that dialled it: blind42m c06's microk8s join) */
	return strcmp(h->m.sig->id, "py-connect-timeout") == 0 &&
	       !explain_near_peer(h) && explain_http_client(lg);
}

/* gRPC's "failed to connect to all addresses" only wraps the last
 * error, which the rest of its line names (issue 42: blind42y e07, an
 * HTTP/1 answer after a connect that worked). */
static bool wraps_last_error(const struct explain_hit *o)
{
	return strcmp(o->m.sig->id, "grpc-all-addresses") == 0;
}

/* A line a network row reads too: a Python exception type (ValueError:
 * host not found) is the wrapper of that failure, not a code bug. */
static bool net_on_line(const struct explain_log *lg,
			const struct explain_hit *h)
{
	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *o = &lg->hits[i];

		/* a Python exception's type (py-*) is only the wrapper
		 * of what a framework's row on the same line reads (a
		 * symptom there too: Dask's "cannot get address of
		 * non-running Server" is its scheduler's start failing,
		 * blind42j b12) */
		if (o != h && o->file == h->file && o->line == h->line &&
		    o->m.sig->other == NULL && !wraps_last_error(o) &&
		    (!(o->m.sig->flags & (LOGSIG_FACT | LOGSIG_SYMPTOM)) ||
		     (strncmp(h->m.sig->id, "py-", 3) == 0 &&
		      o->m.sig->flags & LOGSIG_SYMPTOM)))
			return true;
	}
	return false;
}

/* torch's c10d client prints a failed IPv6 lookup of the store's
 * name as a warning on every retry, while the store's pods are not
 * ready yet; alone (no other failure, no timeout that ended the job)
 * it is no failure (issue 42: blind42b 013, kubernetes-sigs/jobset#93;
 * 012's harmless client warning): a peer's DNS entry may appear later,
 * and a lookup that stays failed ends in the IPv4 line or a timeout.
 * Returns true when every line that is not a fact is such a warning
 * about a peer's name. */
static bool retry_warnings_alone(const struct explain_log *lg)
{
	size_t n = 0;

	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *h = &lg->hits[i];

		if (h->m.sig->flags & LOGSIG_FACT || benign(h))
			continue;
		/* torchrun's own name (own_name) is this node's hostname,
		 * which no retry makes resolve: not a warning to wait out */
		if (!gai_v6_only(h, false) || own_name(h) ||
		    explain_name_unexpanded(logmatch_field(&h->m, "addr")))
			return false;
		n++;
	}
	return n > 0;
}

/* What the whole log says before any rule: a failure, a non-network
 * cause, whether the job meant to use RDMA, NCCL_SOCKET_IFNAME. */
static void gather(const struct explain_log *lg, struct explain_ctx *x)
{
	bool sym = false, dot = false;
	char given[128];

	memset(x, 0, sizeof(*x));
	x->lg = lg;
	x->ifname = explain_setting(lg, "NCCL_SOCKET_IFNAME");
	x->retry_alone = retry_warnings_alone(lg);
	x->http_client = explain_http_client(lg);
	for (size_t i = 0; i < lg->nhits; i++) {
		const char *n = logmatch_field(&lg->hits[i].m,
					       "setting_name");

		if (n && (strncmp(n, "NCCL_IB_", 8) == 0 ||
			  strcmp(n, "NCCL_NET") == 0))
			x->expect_ib = true;
		/* NCCL's sockets over an IPoIB interface: the node has an
		 * InfiniBand HCA that NCCL did not use (blind42h a04) */
		if (explain_socket_ipoib(&lg->hits[i]))
			x->expect_ib = true;
	}
	for (size_t i = 0; i < lg->nhits; i++) {
		const struct logsig *s = lg->hits[i].m.sig;

		if (s->other != NULL || explain_launcher_syntax(&lg->hits[i]) ||
		    explain_name_cut(lg, &lg->hits[i], given, sizeof(given), &dot)) {
			if (!net_on_line(lg, &lg->hits[i]))
				x->other = true;
		} else if (explain_rdma_local(&lg->hits[i]) ||
			   explain_transport_loopback(&lg->hits[i]) ||
			   explain_mpi_one_host(lg, &lg->hits[i])) {
			x->other = true;
		} else if (x->retry_alone && gai_v6_only(&lg->hits[i],
							  false)) {
			continue; /* a retried warning */
		} else if (benign(&lg->hits[i]) ||
			 http_timeout(lg, &lg->hits[i]) ||
			 explain_generic_quiet(x, &lg->hits[i]) ||
			 (s->flags & LOGSIG_IB_FALLBACK && !x->expect_ib))
			continue; /* normal operation, or not the job's peers */
		else if (s->flags & LOGSIG_SYMPTOM) {
			sym = true;
			/* a peer in a container pool or at a VM's NAT
			 * address (the classic NAT'd-bridge failure, issue
			 * 32), or UCX saying no transport reaches the peer,
			 * is a network statement itself, though no proof */
			if ((s->flags & LOGSIG_PEER &&
			     explain_addr_extra(&lg->hits[i])) ||
			    strcmp(s->id, "ucx-ep-unreachable") == 0)
				x->net_line = true;
		} else if (strcmp(s->id, "torch-client-hostname-again") == 0)
			/* a slow resolver explains no other line's failure */
			x->failed = true;
		else if (!(s->flags & LOGSIG_FACT))
			x->failed = x->net_line = true;
	}
	/* a symptom is a failure unless a non-network cause explains it */
	if (sym && !x->other)
		x->failed = true;
}

void explain_decide(const struct explain_log *lg, struct explain_result *r)
{
	struct explain_ctx x;
	char given[128];
	bool dot = false;

	memset(r, 0, sizeof(*r));
	gather(lg, &x);
	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *h = &lg->hits[i];

		if (explain_launcher_syntax(h))
			explain_launcher_cause(h, r);
		else if (explain_name_cut(lg, h, given, sizeof(given), &dot))
			explain_cut_cause(h, given, dot, r);
		else if (explain_rdma_local(h) || explain_transport_loopback(h))
			explain_transport_other(h, r);
		else if (explain_mpi_one_host(lg, h))
			explain_mpi_other(lg, h, r);
		else if (x.retry_alone && gai_v6_only(h, false))
			continue;
		else if (h->m.sig->other != NULL) {
			if (!net_on_line(lg, h))
				other_cause(h, r);
		}
		else if (h->m.sig->flags & LOGSIG_FACT || benign(h) ||
			 http_timeout(lg, h))
			continue;
		else if (h->m.sig->flags & LOGSIG_SYMPTOM)
			symptom(&x, h, r);
		else if (!(h->m.sig->flags & LOGSIG_GENERIC))
			hit_causes(&x, h, r);
	}
	explain_rules(&x, r);
	symptom_candidates(&x, r);
	explain_rule_gloo_fallback(&x, r);
	explain_ssh_orte(lg, r);
	explain_name_retried(lg, r);
	explain_generic(&x, r);
	explain_stale_name(lg, r);
	explain_vm_nat(&x, r);
	explain_docker_published(&x, r);
	explain_handshake_unanswered(&x, r);
	explain_mtu_listing(&x, r);
	explain_hosts_loopback(&x, r);
	explain_contradict(&x, r);
	drop_settled(r);
}
