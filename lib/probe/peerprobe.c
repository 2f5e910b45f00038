/* The scan's peer probe: hello, reflection, connect-back to listeners we
 * open ourselves, a short heartbeat. Every step has its own deadline. */
#include "probe/peerprobe.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "probe/peerloss.h"
#include "probe/synretry.h"
#include "wire/client.h"
#include "wire/client_conn.h"
#include "wire/proto.h"
#include "wire/proto_msg.h"
#include "kernel/portrange.h"
#include "base/sysroot.h"

#define PP_MAX_PORTS PEER_BACK_MAX

_Static_assert(PEER_REASON_MAX == CLIENT_REASON_MAX,
               "a peer_back's reason holds the client's");

/* Normalises a textual address so "::ffff:1.2.3.4" equals "1.2.3.4". */
static void addr_norm(const char *in, char *out, size_t len)
{
	struct in6_addr a6;

	if (inet_pton(AF_INET6, in, &a6) == 1 && IN6_IS_ADDR_V4MAPPED(&a6))
		inet_ntop(AF_INET, &a6.s6_addr[12], out, (socklen_t)len);
	else
		snprintf(out, len, "%s", in);
}

/* Which side of a Gloo pair connects, between this rank's address and a
 * peer's: the higher address (gloo/transport/tcp/device.cc,
 * Device::isInitiator compares the addresses' bytes, then the ports).
 * Returns 1 when local sorts above peer (this side connects), -1 below,
 * 0 when they cannot be compared (other families, equal, not numeric). */
int peerprobe_gloo_order(const char *local, const char *peer)
{
	unsigned char a[16], b[16];
	char x[INET6_ADDRSTRLEN], y[INET6_ADDRSTRLEN];
	int fam = AF_INET, c;

	addr_norm(local, x, sizeof(x));
	addr_norm(peer, y, sizeof(y));
	if (inet_pton(AF_INET, x, a) != 1 || inet_pton(AF_INET, y, b) != 1) {
		fam = AF_INET6;
		if (inet_pton(AF_INET6, x, a) != 1 ||
		    inet_pton(AF_INET6, y, b) != 1)
			return 0;
	}
	c = memcmp(a, b, fam == AF_INET ? 4 : 16);
	return c > 0 ? 1 : c < 0 ? -1 : 0;
}

/* Walks getifaddrs for the interface that holds addr. */
static int peerprobe_ifname(const char *addr, char *name, size_t len)
{
	struct ifaddrs *ifa, *i;
	char a[INET6_ADDRSTRLEN], want[INET6_ADDRSTRLEN];

	name[0] = '\0';
	addr_norm(addr, want, sizeof(want));
	if (getifaddrs(&ifa) < 0)
		return -1;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr)
			continue;
		if (i->ifa_addr->sa_family == AF_INET)
			inet_ntop(AF_INET,
			          &((struct sockaddr_in *)(void *)i->ifa_addr)
			               ->sin_addr,
			          a, sizeof(a));
		else if (i->ifa_addr->sa_family == AF_INET6)
			inet_ntop(AF_INET6,
			          &((struct sockaddr_in6 *)(void *)i->ifa_addr)
			               ->sin6_addr,
			          a, sizeof(a));
		else
			continue;
		if (strcmp(a, want) == 0) {
			snprintf(name, len, "%s", i->ifa_name);
			break;
		}
	}
	freeifaddrs(ifa);
	return 0;
}

/* Opens a TCP listener on port (any address) for the responder to reach.
 * Returns the fd, -2 when the port is in use (something listens there
 * already, which serves as well), or -1. */
static int local_listener(int family, unsigned port, int backlog)
{
	struct sockaddr_storage ss = {0};
	socklen_t sl;
	int fd, one = 1, zero = 0;

	if (family == AF_INET6) {
		struct sockaddr_in6 *s6 = (void *)&ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)port);
		sl = sizeof(*s6);
	} else {
		struct sockaddr_in *s4 = (void *)&ss;

		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)port);
		sl = sizeof(*s4);
	}
	fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, (struct sockaddr *)&ss, sl) < 0 ||
	    listen(fd, backlog) < 0) {
		int e = errno;

		close(fd);
		return e == EADDRINUSE ? -2 : -1;
	}
	return fd;
}

/* Local ephemeral samples: both ends of ip_local_port_range. */
static size_t local_samples(int n, uint16_t *out)
{
	struct sysroot sr;
	unsigned lo, hi;
	size_t k = 0;

	if (sysroot_init(&sr, NULL) < 0 || port_range_read(&sr, &lo, &hi) < 0)
		return 0;
	for (int i = 0; i < n && lo + (unsigned)i / 2 <= hi; i++)
		out[k++] = (uint16_t)(i % 2 == 0 ? lo + (unsigned)i / 2
		                                 : hi - (unsigned)i / 2);
	return k;
}

/* The JSON form of a tristate: true, false or null. */
static json_t *tri(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

/* A JSON string, or null for an empty one. */
static json_t *str_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

/* Listeners on samples of our ephemeral range; see peerprobe.h. */
size_t peerprobe_listen_samples(size_t n, int *fds, uint16_t *ports)
{
	uint16_t cand[2 * PP_MAX_PORTS];
	size_t k = 0, nc = local_samples(2 * PP_MAX_PORTS, cand);

	for (size_t i = 0; i < nc && k < n; i++) {
		/* every peer of a mesh may connect back at once */
		int fd = local_listener(AF_INET6, cand[i], 1024);

		if (fd == -1)
			fd = local_listener(AF_INET, cand[i], 1024);
		if (fd < 0)
			continue; /* busy: someone else's */
		fds[k] = fd;
		ports[k++] = cand[i];
	}
	return k;
}

/* Connect-back on our own listeners, or on the caller's; fills
 * v->inbound, v->back and ports (a failure to connect back is an error in
 * d). */
static void probe_inbound(struct np_client *c, const struct peerprobe_opts *o,
                          struct peer_verdict *v, json_t *ports, struct doc *d)
{
	uint16_t p[PP_MAX_PORTS];
	int fds[PP_MAX_PORTS];
	enum port_state st[PP_MAX_PORTS];
	char reasons[PP_MAX_PORTS][CLIENT_REASON_MAX];
	long long rtt[PP_MAX_PORTS];
	int att[PP_MAX_PORTS];
	size_t n = 0, k;
	uint16_t cand[PP_MAX_PORTS];
	size_t ncand = 0;
	int nsamp = o->ephemeral_samples ? o->ephemeral_samples : 4;
	bool all = true;

	if (o->inbound_ports != NULL) {
		/* the caller holds them: our responder's port first */
		p[n] = (uint16_t)c->port;
		fds[n++] = -1;
		for (k = 0; k < o->ninbound && n < PP_MAX_PORTS; k++)
			if (o->inbound_ports[k] != c->port) {
				p[n] = o->inbound_ports[k];
				fds[n++] = -1;
			}
	} else {
		cand[ncand++] = (uint16_t)c->port;
		if (nsamp > 0)
			ncand += local_samples(
			    nsamp > PP_MAX_PORTS - 1 ? PP_MAX_PORTS - 1 : nsamp,
			    cand + 1);
	}
	for (k = 0; k < ncand; k++) {
		int fd = local_listener(c->peer.ss_family, cand[k], 16);

		if (fd == -1)
			continue;
		if (fd == -2 && k > 0)
			continue; /* a busy ephemeral port may be anyone's */
		fds[n] = fd;
		p[n++] = cand[k];
	}
	if (n == 0)
		return;
	if (client_connect_back(c, PROTO_TCP, p, n, o->step_us, st, reasons,
	                        rtt) < 0) {
		if (d)
			doc_add_error(d, "peer", "connect-back from %s: %s",
			              c->addr, c->err);
		goto out;
	}
	for (k = 0; k < n; k++)
		att[k] = 1;
	/* a lost SYN is not a firewall: the silent ports once more, past
	 * the kernel's retransmission time */
	if (synretry_connect_back(c, p, n, o->step_us, st, reasons, rtt,
	                          att) < 0 &&
	    d)
		doc_add_error(d, "peer", "connect-back retry from %s: %s",
		              c->addr, c->err);
	for (k = 0; k < n; k++) {
		bool lost = st[k] == PORT_FILTERED &&
			    synretry_synack_lost((struct sockaddr *)&c->peer,
						 p[k]);

		if (lost)
			snprintf(reasons[k], sizeof(reasons[k]), "%s",
				 PORT_REASON_SYNACK_LOST);
		v->back[k].synack_lost = lost;
		json_array_append_new(
		    ports,
		    json_pack("{s:i, s:s, s:s, s:s, s:o, s:i}", "port",
		              (int)p[k], "proto", "tcp", "state",
		              port_state_name(st[k]), "reason", reasons[k],
		              "rtt_us",
		              rtt[k] < 0 ? json_null() : json_integer(rtt[k]),
		              "attempts", att[k]));
		v->back[k].port = p[k];
		v->back[k].state = st[k];
		memcpy(v->back[k].reason, reasons[k],
		       sizeof(v->back[k].reason));
		if (st[k] != PORT_OPEN)
			all = false;
	}
	v->nback = n;
	v->inbound = all ? 1 : 0;
out:
	for (k = 0; k < n; k++)
		if (fds[k] >= 0)
			close(fds[k]);
}

/* A short heartbeat over the held connection: the median RTT. */
static long long probe_rtt(struct np_client *c, long long dur_us)
{
	long long rtts[64], end = mono_now_us() + dur_us;
	int n = 0;

	for (int i = 0; i < 64 && mono_now_us() < end; i++) {
		struct proto_echo_stamp st = {(uint32_t)i,
		                              (uint64_t)mono_now_us()};
		uint8_t b[PROTO_ECHO_STAMP_LEN];
		long long rtt, t0 = mono_now_us();

		proto_echo_stamp_encode(&st, b, sizeof(b));
		if (client_echo_tcp(c, b, sizeof(b), &rtt) < 0)
			break;
		rtts[n++] = rtt;
		while (mono_now_us() < t0 + dur_us / 10 &&
		       mono_now_us() < end)
			usleep(1000);
	}
	if (n == 0)
		return -1;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && rtts[j - 1] > rtts[j]; j--) {
			long long t = rtts[j];

			rtts[j] = rtts[j - 1];
			rtts[j - 1] = t;
		}
	return rtts[(n - 1) / 2];
}

/* synretry_open (a silent connect once more past the kernel's SYN
 * retransmission), tried again (up to o->open_tries in all) when it timed
 * out: a peer known to run a responder may be slow to answer on a loaded
 * host, and one late answer must not read as a filtered path. A refusal
 * or an unreachable network is not tried again. */
static int open_tries(struct np_client *c, const char *host, unsigned port,
                      long long step, const struct peerprobe_opts *o)
{
	int tries = o->open_tries > 1 ? o->open_tries : 1;

	for (int i = 0;; i++) {
		bool slow;

		if (synretry_open(c, host, port, step, o->token_file) == 0)
			return 0;
		slow = c->code == CLIENT_E_TIMEOUT ||
		       c->code == CLIENT_E_PROTOCOL ||
		       (c->code == CLIENT_E_CONNECT &&
		        c->sys_errno == ETIMEDOUT);
		if (i + 1 >= tries || !slow)
			return -1;
		client_close(c);
	}
}

/* Hello, reflection, connect-back, heartbeat; see peerprobe.h. */
int peerprobe_run(const char *peer, const struct peerprobe_opts *o,
                  struct peer_verdict *v, json_t **detail, struct doc *d)
{
	struct np_client c;
	char host[256], err[CLIENT_ERR_MAX], obs[INET6_ADDRSTRLEN];
	unsigned port, obs_port = 0;
	struct peerprobe_opts def = {0};
	json_t *ports = json_array();
	long long step;
	int rc = 1;

	if (!o)
		o = &def;
	memset(v, 0, sizeof(*v));
	v->nat = v->inbound = -1;
	v->rtt_us = v->path_mtu = -1;
	snprintf(v->peer, sizeof(v->peer), "%s", peer ? peer : "");
	if (detail)
		*detail = NULL;
	if (!ports)
		return -1;
	step = o->step_us > 0 ? o->step_us : 1000000;
	snprintf(err, sizeof(err), "no peer");
	if (peer != NULL && o->host != NULL) {
		snprintf(host, sizeof(host), "%s", o->host);
		port = o->port;
	} else if (!peer ||
	           client_parse_peer(peer,
	                             o->default_port ? o->default_port
	                                             : PROTO_DEFAULT_PORT,
	                             host, sizeof(host), &port, err,
	                             sizeof(err)) < 0) {
		if (d)
			doc_add_error(d, "peer", "%s", err);
		json_decref(ports);
		return -1;
	}
	snprintf(v->host, sizeof(v->host), "%s", host);
	v->port = port;
	err[0] = '\0';
	if (open_tries(&c, host, port, step, o) < 0) {
		snprintf(err, sizeof(err), "%s", c.err);
		v->turned_away = c.code == CLIENT_E_DROPPED ||
		                 (c.code == CLIENT_E_REFUSED &&
		                  c.err_code == PROTO_E_LIMIT);
		v->connect_errno = c.code == CLIENT_E_CONNECT ? c.sys_errno
		                   : c.code == CLIENT_E_RESOLVE ? 0
		                                                : EPROTO;
		if (c.code != CLIENT_E_RESOLVE)
			snprintf(v->peer_addr, sizeof(v->peer_addr), "%s",
			         c.addr);
		/* connected, then turned away: the route is known good */
		if (v->turned_away) {
			addr_norm(c.local_addr, v->local_addr,
			          sizeof(v->local_addr));
			peerprobe_ifname(v->local_addr, v->local_ifname,
			                 sizeof(v->local_ifname));
		}
		if (d)
			doc_add_error(d, "peer", "%s", err);
		goto out;
	}
	rc = 0;
	v->responded = true;
	snprintf(v->peer_addr, sizeof(v->peer_addr), "%s", c.addr);
	addr_norm(c.local_addr, v->local_addr, sizeof(v->local_addr));
	peerprobe_ifname(v->local_addr, v->local_ifname,
	                 sizeof(v->local_ifname));
	if (client_reflect(&c, obs, sizeof(obs), &obs_port) == 0) {
		addr_norm(obs, v->observed_addr, sizeof(v->observed_addr));
		v->nat = strcmp(v->observed_addr, v->local_addr) != 0;
		v->local_port = c.local_port;
		v->observed_port = obs_port;
	} else if (d) {
		doc_add_error(d, "peer", "reflection from %s: %s", c.addr,
		              c.err);
	}
	probe_inbound(&c, o, v, ports, d);
	if (o->heartbeat_us >= 0) {
		v->rtt_us =
		    probe_rtt(&c, o->heartbeat_us ? o->heartbeat_us : 1000000);
		peerloss_probe(&c, v);
	}
out:
	if (detail)
		*detail = json_pack(
		    "{s:s, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
		    "s:o, s:o, s:o, s:o}",
		    "peer", v->peer, "peer_addr", str_or_null(v->peer_addr),
		    "responded", v->responded, "local_addr",
		    str_or_null(v->local_addr), "local_ifname",
		    str_or_null(v->local_ifname), "observed_addr",
		    str_or_null(v->observed_addr), "nat", tri(v->nat),
		    "inbound", tri(v->inbound), "rtt_us",
		    v->rtt_us < 0 ? json_null() : json_integer(v->rtt_us),
		    "path_mtu", json_null(), "ports", ports, "node",
		    rc == 0 ? str_or_null(c.hello.node) : json_null(),
		    "software",
		    rc == 0 ? str_or_null(c.hello.software) : json_null(),
		    "error", str_or_null(err));
	if (detail && *detail && v->udp_sent > 0)
		json_object_set_new(
		    *detail, "link",
		    json_pack("{s:i, s:i, s:o, s:o, s:I}", "udp_sent",
		              v->udp_sent,
		              "udp_lost", v->udp_lost, "rtt_p50_us",
		              v->udp_sent > v->udp_lost
		                  ? json_integer(v->rtt_p50_us)
		                  : json_null(),
		              "rtt_p99_us",
		              v->udp_sent > v->udp_lost
		                  ? json_integer(v->rtt_p99_us)
		                  : json_null(),
		              "hosts_held_max_us",
		              (json_int_t)v->hosts_held_max_us));
	else if (!detail)
		json_decref(ports);
	client_close(&c);
	return rc;
}
