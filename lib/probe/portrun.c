/* One port check against a host: resolve, responder listeners for sample,
 * ephemeral and UDP ports, parallel TCP connects, UDP probes and
 * connect-back. Collection only; ports.c and scan emit. */
#include "probe/portrun.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "probe/synretry.h"
#include "wire/client.h"
#include "wire/proto.h"
#include "kernel/neigh.h"
#include "kernel/sockinfo.h"
#include "kernel/portrange.h"
#include "base/sysroot.h"

/* True when addr is loopback or one of this host's addresses: then the
 * local socket table says how the services are bound. */
static bool is_local(const struct sockaddr_storage *ss)
{
	struct ifaddrs *ifa, *i;
	bool local = false;

	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *s = (const void *)ss;

		if ((ntohl(s->sin_addr.s_addr) >> 24) == 127)
			return true;
	} else if (IN6_IS_ADDR_LOOPBACK(
			   &((const struct sockaddr_in6 *)(const void *)ss)
				    ->sin6_addr)) {
		return true;
	}
	if (getifaddrs(&ifa) < 0)
		return false;
	for (i = ifa; i != NULL && !local; i = i->ifa_next) {
		const void *a = i->ifa_addr;

		if (a == NULL || i->ifa_addr->sa_family != ss->ss_family)
			continue;
		if (ss->ss_family == AF_INET) {
			const struct sockaddr_in *x = a, *y = (const void *)ss;

			local = x->sin_addr.s_addr == y->sin_addr.s_addr;
		} else {
			const struct sockaddr_in6 *x = a, *y = (const void *)ss;

			local = IN6_ARE_ADDR_EQUAL(&x->sin6_addr,
						   &y->sin6_addr);
		}
	}
	freeifaddrs(ifa);
	return local;
}

/* Resolves the host to its first address. Returns 0, or the getaddrinfo
 * error code. */
static int resolve(const char *host, struct ports_run *r)
{
	struct addrinfo hints = {0}, *res;
	int rc;

	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	rc = getaddrinfo(host, NULL, &hints, &res);
	if (rc != 0)
		return rc;
	memcpy(&r->ss, res->ai_addr, res->ai_addrlen);
	r->sslen = res->ai_addrlen;
	if (getnameinfo(res->ai_addr, res->ai_addrlen, r->addr,
			sizeof(r->addr), NULL, 0, NI_NUMERICHOST) != 0)
		snprintf(r->addr, sizeof(r->addr), "?");
	freeaddrinfo(res);
	return 0;
}

/* Without a responder: UDP and sample ports cannot be tested. */
static void mark_no_responder(struct ports_run *r, const char *reason)
{
	for (size_t i = 0; i < r->nout; i++) {
		struct port_result *p = &r->out[i];

		if (p->proto == IPPROTO_UDP || (p->flags & PSPEC_F_SAMPLE)) {
			p->pending = false;
			p->state = PORT_UNKNOWN;
			snprintf(p->reason, sizeof(p->reason), "%s", reason);
		}
	}
}

/* True when the run needs a responder: UDP, samples, or --both-ways. */
static bool needs_responder(const struct ports_run_opts *o,
			    const struct port_list *pl)
{
	if (o->both_ways || pl->ephemeral)
		return true;
	for (size_t i = 0; i < pl->n; i++)
		if (pl->v[i].proto == IPPROTO_UDP ||
		    (pl->v[i].flags & PSPEC_F_SAMPLE))
			return true;
	return false;
}

/* Sets a result's verdict without testing it. */
static void settle_as(struct port_result *p, enum port_state st,
		      const char *reason)
{
	p->pending = false;
	p->state = st;
	snprintf(p->reason, sizeof(p->reason), "%.39s", reason);
}

/* The responder's per-request port limit (fewer without a token). */
static size_t resp_max_ports(const struct np_client *c)
{
	size_t m = c->have_hello && c->hello.max_ports ? c->hello.max_ports
						       : PROTO_MAX_PORTS;

	return m > PROTO_MAX_PORTS ? PROTO_MAX_PORTS : m;
}

/* Listener lifetime asked for: long enough for `span` of probing, within
 * what the responder grants. */
static long long resp_life_us(const struct np_client *c, long long span)
{
	long long want = span + 2000000, max;

	max = c->have_hello && c->hello.max_lifetime_ms
		      ? (long long)c->hello.max_lifetime_ms * 1000
		      : want;
	return want < max ? want : max;
}

/* The responder limits heavy requests per second: a refused "limit" is
 * retried a few times, 300 ms apart. */
static bool resp_retry(const struct np_client *c, int *tries)
{
	struct timespec ts = {0, 300000000};

	if (c->code != CLIENT_E_REFUSED || c->err_code != PROTO_E_LIMIT ||
	    ++*tries > 3)
		return false;
	nanosleep(&ts, NULL);
	return true;
}

/* A responder step failed: an error entry; a responder that turned us
 * away (its table full) or dropped us, saying why, is not the network:
 * the run says it could not run (r->turned_away). */
static void resp_fail(struct np_client *c, struct ports_run *r, struct doc *d,
		      const char *what)
{
	if (c->code == CLIENT_E_DROPPED ||
	    (c->code == CLIENT_E_REFUSED && c->err_code == PROTO_E_LIMIT &&
	     strstr(c->err, "too many clients") != NULL))
		r->turned_away = true;
	doc_add_error(d, "responder", "%s: %s", what, c->err);
}

/* Which TCP results a round of responder listeners is for. */
enum hold_pick {
	HOLD_SAMPLES, /* the sample ports, before the scan */
	HOLD_CLOSED,  /* --before-job: fixed ports that answered a reset */
};

/* Whether result p is one of pick's. */
static bool hold_wants(const struct port_result *p, enum hold_pick pick)
{
	if (p->proto != IPPROTO_TCP || (p->flags & PSPEC_F_EPHEMERAL))
		return false;
	if (pick == HOLD_SAMPLES)
		return p->flags & PSPEC_F_SAMPLE;
	return p->state == PORT_CLOSED && !p->loopback_only && !p->held &&
	       !(p->flags & PSPEC_F_SAMPLE);
}

/* Asks the responder for listeners on pick's ports, in rounds of what it
 * takes at once; the ones it opened become pending and held for the TCP
 * scan. Where it refused or could not listen, a sample stays unknown (it
 * cannot be tested otherwise) and a closed port stays as it was. Returns
 * how many it opened. */
static size_t resp_hold(struct np_client *c, const struct ports_run_opts *o,
			struct ports_run *r, struct doc *d,
			enum hold_pick pick)
{
	size_t max = resp_max_ports(c), total = 0;
	uint16_t ports[PROTO_MAX_PORTS];
	size_t idx[PROTO_MAX_PORTS];
	bool opened[PROTO_MAX_PORTS];

	for (size_t i = 0; i < r->nout;) {
		size_t k = 0;
		int tries = 0, rc;

		for (; i < r->nout && k < max; i++) {
			if (!hold_wants(&r->out[i], pick))
				continue;
			if (pick == HOLD_SAMPLES)
				r->out[i].pending = false;
			idx[k] = i;
			ports[k++] = r->out[i].port;
		}
		if (k == 0)
			break;
		do
			rc = client_listen(c, PROTO_TCP, ports, k,
					   resp_life_us(c, o->timeout_us),
					   opened);
		while (rc < 0 && resp_retry(c, &tries));
		if (rc < 0)
			resp_fail(c, r, d, "listen");
		for (size_t j = 0; j < k; j++) {
			if (rc == 0 && opened[j]) {
				r->out[idx[j]].pending = true;
				r->out[idx[j]].held = true;
				total++;
			} else if (pick == HOLD_SAMPLES)
				settle_as(&r->out[idx[j]], PORT_UNKNOWN,
					  rc < 0 ? "responder refused"
						 : "responder cannot listen");
		}
		if (rc < 0 && pick == HOLD_CLOSED)
			break;
	}
	return total;
}

/* Before the job (--before-job, issue 44): each fixed TCP port that
 * answered with a reset gets a listener of the responder's and one more
 * connect, so the path and the firewalls are proven (reachable) or a
 * reset while the responder listened shows a rule that rejects it. A
 * port the responder cannot listen on stays closed, unproven. Returns
 * 0, or -1 when the connects failed (errno set). */
static int resp_retry_closed(struct np_client *c,
			     const struct ports_run_opts *o,
			     struct ports_run *r, struct doc *d,
			     const struct portscan_opts *so)
{
	if (resp_hold(c, o, r, d, HOLD_CLOSED) == 0)
		return 0;
	return portscan_tcp((struct sockaddr *)&r->ss, r->sslen, r->out,
			    r->nout, so);
}

/* Appends one result to an array grown by hand. Returns 0, or -1. */
static int append(struct port_result **v, size_t *n, uint16_t port,
		  uint8_t flags, const char *why)
{
	struct port_result *nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (nv == NULL)
		return -1;
	*v = nv;
	memset(&nv[*n], 0, sizeof(nv[*n]));
	nv[*n].port = port;
	nv[*n].proto = IPPROTO_TCP;
	nv[*n].flags = flags;
	nv[*n].why = why;
	nv[*n].pending = true;
	nv[*n].rtt_us = -1;
	(*n)++;
	return 0;
}

/* Samples of the peer's ephemeral range, held by the responder, join the
 * TCP scan. */
static void resp_ephemeral(struct np_client *c, const struct ports_run_opts *o,
			   struct ports_run *r, struct doc *d)
{
	uint16_t ports[2 * PORTSPEC_EPHEMERAL_PER_END];
	size_t n = 0;
	unsigned lo = 0, hi = 0;
	int tries = 0, rc;

	do
		rc = client_listen_ephemeral(
			c, PROTO_TCP, 2 * PORTSPEC_EPHEMERAL_PER_END,
			resp_life_us(c, o->timeout_us), ports, &n, &lo, &hi);
	while (rc < 0 && resp_retry(c, &tries));
	if (rc < 0) {
		resp_fail(c, r, d, "ephemeral listen");
		return;
	}
	r->peer_lo = lo;
	r->peer_hi = hi;
	for (size_t i = 0; i < n; i++) {
		if (append(&r->out, &r->nout, ports[i],
			   PSPEC_F_SAMPLE | PSPEC_F_EPHEMERAL,
			   "ephemeral") < 0) {
			doc_add_error(d, "ephemeral", "out of memory");
			return;
		}
		r->out[r->nout - 1].held = true;
	}
	if (n == 0)
		doc_add_error(d, "responder",
			      "no ephemeral sample opened on the peer");
}

/* UDP ports: the responder listens on each, a datagram it answers proves
 * the path. Probed one after another, each within the timeout, so a
 * listener's lifetime covers its batch. */
static void resp_udp(struct np_client *c, const struct ports_run_opts *o,
		     struct ports_run *r, struct doc *d)
{
	/* the longest lifetime granted, less a second of margin */
	long long life = resp_life_us(c, 3600000000LL) - 1000000;
	size_t max = resp_max_ports(c), per;
	uint16_t ports[PROTO_MAX_PORTS];
	size_t idx[PROTO_MAX_PORTS];
	bool opened[PROTO_MAX_PORTS];

	size_t tested = 0, over = 0;

	per = (size_t)(life / (o->timeout_us + 1));
	if (per < 1)
		per = 1;
	if (per < max)
		max = per;
	for (size_t i = 0; i < r->nout;) {
		size_t k = 0;
		int tries = 0, rc;

		for (; i < r->nout && k < max; i++) {
			if (r->out[i].proto != IPPROTO_UDP)
				continue;
			/* one timeout each: bound the whole run */
			if (tested >= PORTS_UDP_MAX) {
				settle_as(&r->out[i], PORT_UNKNOWN,
					  "over the udp limit");
				over++;
				continue;
			}
			tested++;
			idx[k] = i;
			ports[k++] = r->out[i].port;
		}
		if (k == 0)
			break;
		do
			rc = client_listen(c, PROTO_UDP, ports, k,
					   resp_life_us(c, (long long)k *
								o->timeout_us),
					   opened);
		while (rc < 0 && resp_retry(c, &tries));
		if (rc < 0)
			resp_fail(c, r, d, "udp listen");
		for (size_t j = 0; j < k; j++) {
			struct port_result *p = &r->out[idx[j]];
			enum port_state st;
			char reason[CLIENT_REASON_MAX];
			long long rtt;

			if (rc < 0 || !opened[j]) {
				settle_as(p, PORT_UNKNOWN,
					  rc < 0 ? "responder refused"
						 : "responder cannot listen");
				continue;
			}
			if (client_udp_probe(r->addr, p->port, o->timeout_us,
					     &st, reason, &rtt) < 0) {
				settle_as(p, PORT_UNKNOWN, strerror(errno));
				continue;
			}
			settle_as(p, st, reason);
			p->held = true;
			p->rtt_us = rtt;
		}
	}
	if (over > 0)
		doc_add_error(d, "udp", "%zu UDP ports over the limit of %d "
			      "were not tested", over, PORTS_UDP_MAX);
}

/* Our ephemeral range, read through the sysroot. Returns 0, or -1. */
static int local_range(unsigned *lo, unsigned *hi)
{
	struct sysroot sr;

	if (sysroot_init(&sr, NULL) < 0 || port_range_read(&sr, lo, hi) < 0)
		return -1;
	return 0;
}

/* A listener of our own on port (wildcard address of the family), for the
 * responder to connect back to; the handshake completes in the kernel's
 * backlog and nothing is accepted. Returns the fd, or -1 with errno. */
static int own_listener(int family, uint16_t port)
{
	struct sockaddr_storage ss = {0};
	socklen_t len;
	int fd, one = 1;

	fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	ss.ss_family = (sa_family_t)family;
	if (family == AF_INET6) {
		int zero = 0;

		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		((struct sockaddr_in6 *)&ss)->sin6_port = htons(port);
		len = sizeof(struct sockaddr_in6);
	} else {
		((struct sockaddr_in *)&ss)->sin_port = htons(port);
		len = sizeof(struct sockaddr_in);
	}
	if (bind(fd, (struct sockaddr *)&ss, len) < 0 || listen(fd, 64) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* Marks the connect-backs the responder saw time out while our kernel
 * holds their SYNs half open (synretry_synack_lost): this host's firewall
 * is not what failed. Runs while our listeners are open. */
static void synack_check(struct ports_run *r, const size_t *idx, size_t k)
{
	for (size_t j = 0; j < k; j++) {
		struct port_result *p = &r->in[idx[j]];

		if (p->state != PORT_FILTERED ||
		    !synretry_synack_lost((struct sockaddr *)&r->ss, p->port))
			continue;
		p->synack_lost = true;
		snprintf(p->reason, sizeof(p->reason), "%s",
			 PORT_REASON_SYNACK_LOST);
	}
}

/* --both-ways: the responder connects back to us on the requested TCP
 * ports (and samples of our own ephemeral range), each on a listener we
 * hold. A fixed port already served here is connected to as it is; a
 * sample port in use here is left alone. */
static void resp_inbound(struct np_client *c, const struct ports_run_opts *o,
			 const struct port_list *pl, struct ports_run *r,
			 struct doc *d)
{
	size_t max = resp_max_ports(c);
	unsigned lo, hi;
	int *fds;

	for (size_t i = 0; i < pl->n; i++)
		if (pl->v[i].proto == IPPROTO_TCP &&
		    append(&r->in, &r->nin, pl->v[i].port, pl->v[i].flags,
			   pl->v[i].why) < 0)
			goto nomem;
	if (pl->ephemeral && local_range(&lo, &hi) == 0) {
		uint16_t s[2 * PORTSPEC_EPHEMERAL_PER_END];
		size_t n = portspec_ephemeral_samples((uint16_t)lo,
						      (uint16_t)hi, s, 4);

		for (size_t i = 0; i < n; i++)
			if (append(&r->in, &r->nin, s[i],
				   PSPEC_F_SAMPLE | PSPEC_F_EPHEMERAL,
				   "ephemeral") < 0)
				goto nomem;
	}
	fds = malloc((r->nin ? r->nin : 1) * sizeof(*fds));
	if (fds == NULL)
		goto nomem;
	for (size_t i = 0; i < r->nin; i++) {
		struct port_result *p = &r->in[i];

		/* one connect-back batch per few ports: bound the run */
		if (i >= PORTS_INBOUND_MAX) {
			fds[i] = -1;
			settle_as(p, PORT_UNKNOWN, "over the inbound limit");
			continue;
		}
		fds[i] = own_listener(r->ss.ss_family, p->port);
		if (fds[i] < 0 && (errno != EADDRINUSE ||
				   (p->flags & PSPEC_F_SAMPLE)))
			settle_as(p, PORT_UNKNOWN,
				  errno == EADDRINUSE ? "in use here"
						      : "cannot listen here");
	}
	for (size_t i = 0; i < r->nin;) {
		uint16_t ports[PROTO_MAX_PORTS];
		enum port_state st[PROTO_MAX_PORTS];
		char reasons[PROTO_MAX_PORTS][CLIENT_REASON_MAX];
		long long rtt[PROTO_MAX_PORTS];
		size_t idx[PROTO_MAX_PORTS], k = 0;
		int tries = 0, rc;

		for (; i < r->nin && k < max; i++) {
			if (!r->in[i].pending)
				continue;
			idx[k] = i;
			ports[k++] = r->in[i].port;
		}
		if (k == 0)
			break;
		int att[PROTO_MAX_PORTS];

		do
			rc = client_connect_back(c, PROTO_TCP, ports, k,
						 o->timeout_us, st, reasons,
						 rtt);
		while (rc < 0 && resp_retry(c, &tries));
		for (size_t j = 0; j < k; j++)
			att[j] = 1;
		/* a lost SYN is not a firewall: once more, past the
		 * kernel's retransmission time */
		if (rc == 0 &&
		    synretry_connect_back(c, ports, k, o->timeout_us, st,
					  reasons, rtt, att) < 0)
			resp_fail(c, r, d, "connect-back retry");
		if (rc < 0)
			resp_fail(c, r, d, "connect-back");
		for (size_t j = 0; j < k; j++) {
			struct port_result *p = &r->in[idx[j]];

			if (rc < 0) {
				settle_as(p, PORT_UNKNOWN, "responder refused");
				continue;
			}
			settle_as(p, st[j], reasons[j]);
			p->rtt_us = rtt[j];
			p->attempts = (uint8_t)att[j];
		}
		if (rc == 0)
			synack_check(r, idx, k);
	}
	for (size_t i = 0; i < r->nin; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	if (r->nin > PORTS_INBOUND_MAX)
		doc_add_error(d, "inbound", "%zu ports over the limit of %d "
			      "were not connected back to",
			      r->nin - PORTS_INBOUND_MAX, PORTS_INBOUND_MAX);
	return;
nomem:
	doc_add_error(d, "inbound", "out of memory");
}

/* Opens the responder when the run needs one. Returns true when it
 * answered; otherwise UDP and sample ports are settled unknown. Before
 * the job (--before-job) alone, a responder is asked for but optional:
 * none there is no error, and the closed ports stay unproven. */
static bool resp_open(struct np_client *c, const struct ports_run_opts *o,
		      const struct port_list *pl, struct ports_run *r,
		      struct doc *d)
{
	if (!needs_responder(o, pl)) {
		if (o->before_job &&
		    synretry_open(c, r->addr, (unsigned)o->resp_port,
				  o->timeout_us, o->token_file) == 0)
			return true;
		client_close(c);
		return false;
	}
	if (synretry_open(c, r->addr, (unsigned)o->resp_port, o->timeout_us,
			  o->token_file) == 0)
		return true;
	if (c->err_code == PROTO_E_AUTH_FAILED || c->code == CLIENT_E_USAGE)
		r->auth_failed = true;
	if (c->code == CLIENT_E_DROPPED ||
	    (c->code == CLIENT_E_REFUSED && c->err_code == PROTO_E_LIMIT &&
	     strstr(c->err, "too many clients") != NULL)) {
		/* the responder is there and said why: not the network */
		r->turned_away = true;
		doc_add_error(d, "responder",
			      "the responder at %s port %u turned us away "
			      "(%s): UDP, sample and ephemeral ports stay "
			      "unknown%s",
			      r->addr, o->resp_port, c->err,
			      o->both_ways ? "; --both-ways needs the "
					     "responder" : "");
	} else
		doc_add_error(d, "responder",
			      "no responder at %s port %u (%s): UDP, sample "
			      "and ephemeral ports stay unknown%s",
			      r->addr, o->resp_port, c->err,
			      o->both_ways ? "; --both-ways needs the "
					     "responder" : "");
	mark_no_responder(r, r->turned_away ? "responder turned us away"
					    : "no responder");
	client_close(c);
	return false;
}

/* Resolution failed: every port says so. */
static void mark_resolve_failed(struct ports_run *r)
{
	for (size_t i = 0; i < r->nout; i++)
		settle_as(&r->out[i], PORT_RESOLVE, "resolve failed");
}

/* Inbound was asked for and cannot be tested: each TCP port unknown. */
static void inbound_untested(const struct port_list *pl, struct ports_run *r)
{
	for (size_t i = 0; i < pl->n; i++)
		if (pl->v[i].proto == IPPROTO_TCP &&
		    append(&r->in, &r->nin, pl->v[i].port, pl->v[i].flags,
			   pl->v[i].why) == 0)
			settle_as(&r->in[r->nin - 1], PORT_UNKNOWN,
				  "no responder");
}

/* Marks loopback-only listeners when the target is this host. */
static void local_table(struct ports_run *r, struct doc *d)
{
	struct sysroot sr;
	struct sock_table st = {0};

	r->local_target = is_local(&r->ss);
	if (!r->local_target)
		return;
	if (sysroot_init(&sr, NULL) == 0 && sockinfo_listeners(&sr, &st) == 0)
		portscan_mark_loopback(r->out, r->nout, &st);
	else
		doc_add_error(d, "socket table",
			      "cannot read /proc/net/tcp: %s", strerror(errno));
	sockinfo_free(&st);
}

/* True when some TCP result heard from the host itself: a SYN-ACK, an
 * RST, or an ICMP error the host sent. */
static bool host_answered(const struct ports_run *r)
{
	for (size_t i = 0; i < r->nout; i++) {
		const struct port_result *p = &r->out[i];

		if (p->proto != IPPROTO_TCP || p->attempts == 0)
			continue;
		if (p->state == PORT_OPEN || p->state == PORT_CLOSED ||
		    strcmp(p->icmp_from, r->addr) == 0)
			return true;
	}
	return false;
}

/*
 * No port answered: a firewall that drops, or no host at all. The kernel
 * knows which: the next hop's neighbour entry (ARP, ND) fails or stays
 * incomplete when nothing owns the address. Read after the connects, so
 * the verdict is the same whether they timed out (entry incomplete) or
 * the kernel already gave up (host unreachable, entry failed).
 */
static void no_host(struct ports_run *r)
{
	int fam = r->ss.ss_family;
	unsigned char hop[16];
	struct route_info ri;
	struct neigh_entry ne;
	const void *dst = fam == AF_INET
				  ? (const void *)&((struct sockaddr_in *)&r->ss)
					    ->sin_addr
				  : (const void *)&((struct sockaddr_in6 *)&r->ss)
					    ->sin6_addr;

	if ((fam != AF_INET && fam != AF_INET6) || r->local_target ||
	    r->responder || host_answered(r))
		return;
	memset(&ri, 0, sizeof(ri));
	if (route_get(fam, dst, &ri) < 0)
		return;
	snprintf(r->next_hop, sizeof(r->next_hop), "%s",
		 ri.gateway[0] ? ri.gateway : r->addr);
	if (inet_pton(fam, r->next_hop, hop) != 1 ||
	    neigh_get(fam, hop, ri.oif, &ne) != 1)
		return;
	snprintf(r->neigh_state, sizeof(r->neigh_state), "%s",
		 neigh_state_name(ne.state));
	if (!neigh_unresolved(ne.state))
		return;
	r->no_host = true;
	for (size_t i = 0; i < r->nout; i++)
		if (r->out[i].proto == IPPROTO_TCP && r->out[i].attempts > 0 &&
		    (r->out[i].state == PORT_FILTERED ||
		     r->out[i].state == PORT_UNREACHABLE))
			settle_as(&r->out[i], PORT_UNREACHABLE,
				  fam == AF_INET ? "no host answers (ARP failed)"
						 : "no host answers (ND failed)");
}

/* A SYN-ACK from the responder's own listener says only that the path
 * let it through: the reason names who answered. */
static void held_reasons(struct ports_run *r)
{
	for (size_t i = 0; i < r->nout; i++)
		if (r->out[i].held && r->out[i].state == PORT_OPEN)
			snprintf(r->out[i].reason, sizeof(r->out[i].reason),
				 "responder");
}

/* Collect in order: resolve, responder listeners, socket table, TCP
 * scan, UDP, connect-back. Returns 0, PORTS_RUN_RESOLVE or -1. */
int ports_run(const char *host, const struct port_list *pl,
	      const struct ports_run_opts *oin, struct ports_run *r,
	      struct doc *d)
{
	struct ports_run_opts ob = *oin;
	const struct ports_run_opts *o = &ob;
	struct portscan_opts so;
	struct np_client c;
	long long t0 = mono_now_us();
	int gai, budget = portscan_fd_budget();

	memset(r, 0, sizeof(*r));
	memset(&c, 0, sizeof(c));
	c.fd = -1;
	if (ob.timeout_us <= 0)
		ob.timeout_us = PORTSCAN_DEFAULT_TIMEOUT_US;
	if (ob.parallel <= 0)
		ob.parallel = PORTSCAN_DEFAULT_PARALLEL;
	if (ob.resp_port == 0 || ob.resp_port > 65535)
		ob.resp_port = PROTO_DEFAULT_PORT;
	r->out = portscan_results(pl, &r->nout);
	if (r->out == NULL) {
		snprintf(r->err, sizeof(r->err), "out of memory");
		errno = ENOMEM;
		return -1;
	}
	gai = resolve(host, r);
	if (gai != 0) {
		snprintf(r->err, sizeof(r->err), "cannot resolve '%.200s': %s",
			 host, gai_strerror(gai));
		mark_resolve_failed(r);
		doc_add_error(d, "resolve", "%s", r->err);
		return PORTS_RUN_RESOLVE;
	}
	r->responder = resp_open(&c, o, pl, r, d);
	if (r->responder) {
		(void)resp_hold(&c, o, r, d, HOLD_SAMPLES);
		if (pl->ephemeral)
			resp_ephemeral(&c, o, r, d);
	}
	local_table(r, d);
	so.timeout_us = o->timeout_us;
	so.parallel = o->parallel < budget ? o->parallel : budget;
	if (portscan_tcp((struct sockaddr *)&r->ss, r->sslen, r->out, r->nout,
			 &so) < 0 ||
	    synretry_tcp((struct sockaddr *)&r->ss, r->sslen, r->out, r->nout,
			 &so) < 0 ||
	    (r->responder && o->before_job &&
	     resp_retry_closed(&c, o, r, d, &so) < 0)) {
		int e = errno;

		snprintf(r->err, sizeof(r->err), "tcp connects failed: %s",
			 strerror(e));
		client_close(&c);
		errno = e;
		return -1;
	}
	no_host(r);
	held_reasons(r);
	if (r->responder) {
		resp_udp(&c, o, r, d);
		if (o->both_ways)
			resp_inbound(&c, o, pl, r, d);
	} else if (o->both_ways) {
		inbound_untested(pl, r);
	}
	client_close(&c);
	r->elapsed_us = mono_now_us() - t0;
	return 0;
}

/* Frees both verdict arrays. */
void ports_run_free(struct ports_run *r)
{
	free(r->out);
	free(r->in);
	r->out = r->in = NULL;
	r->nout = r->nin = 0;
}
