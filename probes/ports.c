/* netprobe ports HOST PORTS: parallel TCP connects classified from SYN-ACK,
 * RST, ICMP and timeouts; UDP and sample ports through the responder;
 * --both-ways asks the responder to connect back. */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "commands.h"
#include "doc.h"
#include "parse.h"
#include "portscan.h"
#include "portspec.h"
#include "proto.h"
#include "sockinfo.h"
#include "sysroot.h"

#define TEXT_ALL_MAX 64 /* list every port up to this many, else by state */

struct opts {
	long long timeout_us;
	int parallel;
	int resp_port;
	bool both_ways;
	bool json;
	const char *output;
	const char *host;
	const char *spec;
	const char *token_file;
};

/* Everything one run learned: the emitters read only this. */
struct run {
	char addr[INET6_ADDRSTRLEN];
	struct sockaddr_storage ss;
	socklen_t sslen;
	struct port_result *out;
	size_t nout;
	struct port_result *in;
	size_t nin;
	bool responder;
	bool local_target;
	unsigned peer_lo, peer_hi; /* the peer's ephemeral range, 0 unknown */
	long long elapsed_us;
};

static void usage(FILE *fp)
{
	size_t n;
	const struct portspec_preset *p = portspec_presets(&n);

	fprintf(fp,
		"usage: netprobe ports [--json] [-o file] [--timeout time] "
		"[--parallel n]\n"
		"                      [--both-ways] [--responder-port port] "
		"[--token-file file]\n"
		"                      host ports\n\n"
		"ports: a comma list of PORT, LO-HI, each with /tcp (default),"
		" /udp or\n"
		"/tcp+udp, and presets (at most %d ports in all):\n",
		PORTSPEC_MAX);
	for (size_t i = 0; i < n; i++)
		fprintf(fp, "  %-10s %s\n", p[i].name, p[i].doc);
	fprintf(fp, "\nUDP ports and sample ports are tested only through a "
		    "responder (netprobe serve)\non the host; exit 0 all open,"
		    " 1 some not open, 2 could not run.\n");
}

/* Reports a failure before any probing: stderr, and the document's
 * errors in JSON mode. Returns 2. */
static int fail_early(const struct opts *o, const char *step,
		      const char *msg)
{
	struct doc d;

	fprintf(stderr, "netprobe ports: %s\n", msg);
	if (o->json && doc_init(&d, "netprobe", "ports") == 0) {
		doc_add_error(&d, step, "%s", msg);
		if (o->output)
			doc_write_file(&d, o->output);
		else
			doc_write(&d, stdout);
		doc_free(&d);
	}
	return 2;
}

/* Options and the two operands. Returns 0, 1 for --help, or 2. */
static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{"help", no_argument, NULL, 'h'},
		{"json", no_argument, NULL, 'j'},
		{"output", required_argument, NULL, 'o'},
		{"timeout", required_argument, NULL, 't'},
		{"parallel", required_argument, NULL, 'P'},
		{"both-ways", no_argument, NULL, 'b'},
		{"responder-port", required_argument, NULL, 'r'},
		{"token-file", required_argument, NULL, 'T'},
		{NULL, 0, NULL, 0},
	};
	const char *err;
	long long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->timeout_us = PORTSCAN_DEFAULT_TIMEOUT_US;
	o->parallel = PORTSCAN_DEFAULT_PARALLEL;
	o->resp_port = PROTO_DEFAULT_PORT;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+ho:t:P:", lo, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 1;
		case 'j':
			o->json = true;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 't':
			if (parse_duration_us(optarg, 1000, 600000000LL,
					      &o->timeout_us, &err) < 0) {
				fprintf(stderr,
					"netprobe ports: invalid timeout '%s': "
					"%s (1ms to 10m)\n",
					optarg, err);
				return 2;
			}
			break;
		case 'P':
			if (parse_num(optarg, 1, 65535, &v, &err) < 0) {
				fprintf(stderr,
					"netprobe ports: invalid parallel '%s':"
					" %s (1 to 65535)\n",
					optarg, err);
				return 2;
			}
			o->parallel = (int)v;
			break;
		case 'b':
			o->both_ways = true;
			break;
		case 'T':
			o->token_file = optarg;
			break;
		case 'r':
			if (parse_num(optarg, 1, 65535, &v, &err) < 0) {
				fprintf(stderr,
					"netprobe ports: invalid responder port"
					" '%s': %s\n",
					optarg, err);
				return 2;
			}
			o->resp_port = (int)v;
			break;
		default:
			fprintf(stderr, "netprobe ports: unknown option '%s'\n",
				argv[optind - 1]);
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "netprobe ports: expected host and ports\n");
		usage(stderr);
		return 2;
	}
	o->host = argv[optind];
	o->spec = argv[optind + 1];
	return 0;
}

/* Raises the soft descriptor limit toward what `want` connects need, so
 * the default parallelism is not cut by a 1024 soft limit. */
static void raise_nofile(int want)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)want + 64;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= need)
		return;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need
			      ? need
			      : rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

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
		if (i->ifa_addr == NULL || i->ifa_addr->sa_family !=
						   ss->ss_family)
			continue;
		if (ss->ss_family == AF_INET)
			local = ((struct sockaddr_in *)(void *)i->ifa_addr)
					->sin_addr.s_addr ==
				((const struct sockaddr_in *)(const void *)ss)
					->sin_addr.s_addr;
		else
			local = memcmp(&((struct sockaddr_in6 *)(void *)
						 i->ifa_addr)
						->sin6_addr,
				       &((const struct sockaddr_in6 *)(const void
									*)ss)
						->sin6_addr,
				       sizeof(struct in6_addr)) == 0;
	}
	freeifaddrs(ifa);
	return local;
}

/* Resolves the host to its first address. Returns 0, or the getaddrinfo
 * error code. */
static int resolve(const char *host, struct run *r)
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
static void mark_no_responder(struct run *r)
{
	for (size_t i = 0; i < r->nout; i++) {
		struct port_result *p = &r->out[i];

		if (p->proto == IPPROTO_UDP || (p->flags & PSPEC_F_SAMPLE)) {
			p->pending = false;
			p->state = PORT_UNKNOWN;
			snprintf(p->reason, sizeof(p->reason), "no responder");
		}
	}
}

/* True when the run needs a responder: UDP, samples, or --both-ways. */
static bool needs_responder(const struct opts *o, const struct port_list *pl)
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

/* Asks for listeners on the TCP sample ports; the ones held become
 * pending for the TCP scan, the others stay unknown. */
static void resp_tcp_samples(struct np_client *c, const struct opts *o,
			     struct run *r, struct doc *d)
{
	size_t max = resp_max_ports(c);
	uint16_t ports[PROTO_MAX_PORTS];
	size_t idx[PROTO_MAX_PORTS];
	bool opened[PROTO_MAX_PORTS];

	for (size_t i = 0; i < r->nout;) {
		size_t k = 0;
		int tries = 0, rc;

		for (; i < r->nout && k < max; i++) {
			struct port_result *p = &r->out[i];

			if (p->proto != IPPROTO_TCP ||
			    !(p->flags & PSPEC_F_SAMPLE) ||
			    (p->flags & PSPEC_F_EPHEMERAL))
				continue;
			p->pending = false;
			idx[k] = i;
			ports[k++] = p->port;
		}
		if (k == 0)
			break;
		do
			rc = client_listen(c, PROTO_TCP, ports, k,
					   resp_life_us(c, o->timeout_us),
					   opened);
		while (rc < 0 && resp_retry(c, &tries));
		if (rc < 0)
			doc_add_error(d, "responder", "listen: %s", c->err);
		for (size_t j = 0; j < k; j++) {
			if (rc == 0 && opened[j])
				r->out[idx[j]].pending = true;
			else
				settle_as(&r->out[idx[j]], PORT_UNKNOWN,
					  rc < 0 ? "responder refused"
						 : "responder cannot listen");
		}
	}
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
static void resp_ephemeral(struct np_client *c, const struct opts *o,
			   struct run *r, struct doc *d)
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
		doc_add_error(d, "responder", "ephemeral listen: %s", c->err);
		return;
	}
	r->peer_lo = lo;
	r->peer_hi = hi;
	for (size_t i = 0; i < n; i++)
		if (append(&r->out, &r->nout, ports[i],
			   PSPEC_F_SAMPLE | PSPEC_F_EPHEMERAL,
			   "ephemeral") < 0) {
			doc_add_error(d, "ephemeral", "out of memory");
			return;
		}
	if (n == 0)
		doc_add_error(d, "responder",
			      "no ephemeral sample could be opened on the peer");
}

/* UDP ports: the responder listens on each, a datagram it answers proves
 * the path. Probed one after another, each within the timeout, so a
 * listener's lifetime covers its batch. */
static void resp_udp(struct np_client *c, const struct opts *o,
		     struct run *r, struct doc *d)
{
	/* the longest lifetime granted, less a second of margin */
	long long life = resp_life_us(c, 3600000000LL) - 1000000;
	size_t max = resp_max_ports(c), per;
	uint16_t ports[PROTO_MAX_PORTS];
	size_t idx[PROTO_MAX_PORTS];
	bool opened[PROTO_MAX_PORTS];

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
			doc_add_error(d, "responder", "udp listen: %s", c->err);
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
			p->rtt_us = rtt;
		}
	}
}

/* Our ephemeral range, read through the sysroot. Returns 0, or -1. */
static int local_range(unsigned *lo, unsigned *hi)
{
	struct sysroot sr;
	char buf[64];

	if (sysroot_init(&sr, NULL) < 0 ||
	    sysroot_read_line(&sr, "/proc/sys/net/ipv4/ip_local_port_range",
			      buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "%u %u", lo, hi) != 2 || *lo < 1 || *hi > 65535 ||
	    *hi < *lo)
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

/* --both-ways: the responder connects back to us on the requested TCP
 * ports (and samples of our own ephemeral range), each on a listener we
 * hold. A fixed port already served here is connected to as it is; a
 * sample port in use here is left alone. */
static void resp_inbound(struct np_client *c, const struct opts *o,
			 const struct port_list *pl, struct run *r,
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
		do
			rc = client_connect_back(c, PROTO_TCP, ports, k,
						 o->timeout_us, st, reasons,
						 rtt);
		while (rc < 0 && resp_retry(c, &tries));
		if (rc < 0)
			doc_add_error(d, "responder", "connect-back: %s",
				      c->err);
		for (size_t j = 0; j < k; j++) {
			struct port_result *p = &r->in[idx[j]];

			if (rc < 0) {
				settle_as(p, PORT_UNKNOWN, "responder refused");
				continue;
			}
			settle_as(p, st[j], reasons[j]);
			p->rtt_us = rtt[j];
		}
	}
	for (size_t i = 0; i < r->nin; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	return;
nomem:
	doc_add_error(d, "inbound", "out of memory");
}

/* Opens the responder when the run needs one. Returns true when it
 * answered; otherwise UDP and sample ports are settled unknown. */
static bool resp_open(struct np_client *c, const struct opts *o,
		      const struct port_list *pl, struct run *r,
		      struct doc *d)
{
	if (!needs_responder(o, pl))
		return false;
	if (client_open(c, r->addr, (unsigned)o->resp_port, o->timeout_us,
			o->token_file) == 0)
		return true;
	doc_add_error(d, "responder",
		      "no responder at %s port %d (%s): UDP, sample and "
		      "ephemeral ports stay unknown%s",
		      r->addr, o->resp_port, c->err,
		      o->both_ways ? "; --both-ways needs the responder" : "");
	mark_no_responder(r);
	client_close(c);
	return false;
}

/* Colour for a state on a terminal; "" otherwise. */
static const char *colour(enum port_state s, bool on)
{
	if (!on)
		return "";
	switch (s) {
	case PORT_OPEN:
		return "\033[32m";
	case PORT_UNKNOWN:
		return "\033[33m";
	default:
		return "\033[31m";
	}
}

/* One aligned row per port. */
static void print_rows(const struct port_result *p, size_t n, bool col,
		       const char *dir)
{
	for (size_t i = 0; i < n; i++) {
		char port[16], rtt[24];

		snprintf(port, sizeof(port), "%u/%s", p[i].port,
			 portspec_proto_name(p[i].proto));
		if (p[i].rtt_us >= 0)
			snprintf(rtt, sizeof(rtt), "%.2fms",
				 (double)p[i].rtt_us / 1000.0);
		else
			snprintf(rtt, sizeof(rtt), "-");
		printf("%s%-11s %s%-12s%s %-22s %9s%s%s\n", dir, port,
		       colour(p[i].state, col), port_state_name(p[i].state),
		       col ? "\033[0m" : "", p[i].reason, rtt,
		       p[i].why ? "  " : "", p[i].why ? p[i].why : "");
	}
}

/* Many ports: one line per state with the ports as ranges. */
static void print_by_state(const struct port_result *p, size_t n, bool col,
			   const char *dir)
{
	static const enum port_state order[] = {
		PORT_OPEN,	  PORT_CLOSED,	    PORT_FILTERED, PORT_PROHIBITED,
		PORT_UNREACHABLE, PORT_UNKNOWN,	    PORT_RESOLVE,
	};
	uint16_t *ports = malloc((n ? n : 1) * sizeof(*ports));

	if (ports == NULL)
		return;
	for (size_t s = 0; s < sizeof(order) / sizeof(order[0]); s++) {
		for (int pr = 0; pr < 2; pr++) {
			uint8_t proto = pr ? IPPROTO_UDP : IPPROTO_TCP;
			size_t k = 0;
			char *list, suf[8];

			for (size_t i = 0; i < n; i++)
				if (p[i].state == order[s] &&
				    p[i].proto == proto)
					ports[k++] = p[i].port;
			if (k == 0)
				continue;
			snprintf(suf, sizeof(suf), "/%s",
				 portspec_proto_name(proto));
			list = portspec_ranges(ports, k, "", ",", "-", "");
			printf("%s%s%-12s%s %6zu %s  %.200s%s\n", dir,
			       colour(order[s], col),
			       port_state_name(order[s]),
			       col ? "\033[0m" : "", k, suf + 1,
			       list ? list : "",
			       list && strlen(list) > 200 ? "..." : "");
			free(list);
		}
	}
	free(ports);
}

/* The text emitter. */
static void emit_text(const struct opts *o, const struct run *r,
		      const struct doc *d)
{
	bool col = isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL;
	size_t i;
	json_t *f;

	printf("ports on %s (%s): %zu tested in %.2fs, timeout %.2fs\n",
	       o->host, r->addr, r->nout, (double)r->elapsed_us / 1e6,
	       (double)o->timeout_us / 1e6);
	if (r->nout <= TEXT_ALL_MAX) {
		printf("%-11s %-12s %-22s %9s\n", "PORT", "STATE", "REASON",
		       "RTT");
		print_rows(r->out, r->nout, col, "");
	} else {
		print_by_state(r->out, r->nout, col, "");
	}
	if (r->nin > 0) {
		printf("inbound (the responder connecting back to us):\n");
		if (r->nin <= TEXT_ALL_MAX)
			print_rows(r->in, r->nin, col, "");
		else
			print_by_state(r->in, r->nin, col, "");
	}
	json_array_foreach(d->findings, i, f) {
		printf("%s %s: %s\n  fix: %s\n",
		       json_string_value(json_object_get(f, "severity")),
		       json_string_value(json_object_get(f, "code")),
		       json_string_value(json_object_get(f, "summary")),
		       json_string_value(json_object_get(f, "fix")));
	}
	json_array_foreach(d->errors, i, f) {
		printf("error %s: %s\n",
		       json_string_value(json_object_get(f, "step")),
		       json_string_value(json_object_get(f, "message")));
	}
}

/* The JSON emitter's result keys: target, ports, inbound. */
static int fill_doc(const struct opts *o, const struct run *r, struct doc *d)
{
	json_t *target = json_pack("{s:s, s:s, s:i}", "host", o->host,
				   "address", r->addr, "port", o->resp_port);

	if (doc_set(d, "target", target) < 0 ||
	    doc_set(d, "ports", portscan_json_ports(r->out, r->nout)) < 0 ||
	    doc_set(d, "inbound", portscan_json_ports(r->in, r->nin)) < 0)
		return -1;
	return 0;
}

/* Unresolvable host: every port resolve-failed, exit 2. */
static int resolve_failed(const struct opts *o, struct run *r, int gai,
			  struct doc *d)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "cannot resolve '%s': %s", o->host,
		 gai_strerror(gai));
	fprintf(stderr, "netprobe ports: %s\n", msg);
	if (!o->json)
		return 2;
	snprintf(r->addr, sizeof(r->addr), "%s", "");
	for (size_t i = 0; i < r->nout; i++) {
		r->out[i].pending = false;
		r->out[i].state = PORT_RESOLVE;
		snprintf(r->out[i].reason, sizeof(r->out[i].reason),
			 "resolve failed");
	}
	doc_add_error(d, "resolve", "%s", msg);
	fill_doc(o, r, d);
	if (o->output ? doc_write_file(d, o->output) : doc_write(d, stdout))
		fprintf(stderr, "netprobe ports: cannot write the document\n");
	return 2;
}

int cmd_ports(int argc, char **argv)
{
	struct opts o;
	struct port_list pl;
	struct portspec_err pe;
	struct run r;
	struct doc d;
	struct portscan_opts so;
	struct ports_target t;
	struct np_client c;
	char msg[256];
	int rc, gai;
	long long t0;

	rc = parse_opts(argc, argv, &o);
	if (rc != 0)
		return rc == 1 ? 0 : 2;
	memset(&c, 0, sizeof(c));
	c.fd = -1;
	memset(&r, 0, sizeof(r));
	port_list_init(&pl);
	if (portspec_parse(o.spec, &pl, &pe) < 0) {
		snprintf(msg, sizeof(msg), "invalid port list '%s': %s",
			 pe.token, pe.why);
		port_list_free(&pl);
		return fail_early(&o, "ports", msg);
	}
	if (doc_init(&d, "netprobe", "ports") < 0) {
		port_list_free(&pl);
		fprintf(stderr, "netprobe ports: out of memory\n");
		return 2;
	}
	rc = 2;
	r.out = portscan_results(&pl, &r.nout);
	if (r.out == NULL) {
		fprintf(stderr, "netprobe ports: out of memory\n");
		goto out;
	}
	gai = resolve(o.host, &r);
	if (gai != 0) {
		rc = resolve_failed(&o, &r, gai, &d);
		goto out;
	}
	t0 = now_us();
	r.responder = resp_open(&c, &o, &pl, &r, &d);
	if (r.responder) {
		resp_tcp_samples(&c, &o, &r, &d);
		if (pl.ephemeral)
			resp_ephemeral(&c, &o, &r, &d);
	}
	r.local_target = is_local(&r.ss);
	if (r.local_target) {
		struct sysroot sr;
		struct sock_table st = {0};

		if (sysroot_init(&sr, NULL) == 0 &&
		    sockinfo_listeners(&sr, &st) == 0)
			portscan_mark_loopback(r.out, r.nout, &st);
		else
			doc_add_error(&d, "socket table",
				      "cannot read /proc/net/tcp: %s",
				      strerror(errno));
		sockinfo_free(&st);
	}
	so.timeout_us = o.timeout_us;
	raise_nofile(o.parallel);
	so.parallel = o.parallel < portscan_fd_budget() ? o.parallel
							: portscan_fd_budget();
	if (isatty(STDERR_FILENO) && !o.json)
		fprintf(stderr, "probing %zu ports on %s...\r", r.nout,
			r.addr);
	if (portscan_tcp((struct sockaddr *)&r.ss, r.sslen, r.out, r.nout,
			 &so) < 0) {
		fprintf(stderr, "netprobe ports: tcp connects failed: %s\n",
			strerror(errno));
		goto out;
	}
	if (r.responder) {
		resp_udp(&c, &o, &r, &d);
		if (o.both_ways)
			resp_inbound(&c, &o, &pl, &r, &d);
	} else if (o.both_ways) {
		/* inbound was asked for and stays untested: unknown */
		for (size_t i = 0; i < pl.n; i++)
			if (pl.v[i].proto == IPPROTO_TCP &&
			    append(&r.in, &r.nin, pl.v[i].port, pl.v[i].flags,
				   pl.v[i].why) == 0)
				settle_as(&r.in[r.nin - 1], PORT_UNKNOWN,
					  "no responder");
	}
	client_close(&c);
	if (isatty(STDERR_FILENO) && !o.json)
		fprintf(stderr, "\033[K");
	r.elapsed_us = now_us() - t0;
	t = (struct ports_target){o.host, r.addr, r.responder};
	if (ports_decide(&d, &t, r.out, r.nout, r.in, r.nin) < 0 ||
	    fill_doc(&o, &r, &d) < 0) {
		fprintf(stderr, "netprobe ports: out of memory\n");
		goto out;
	}
	if (o.json || o.output) {
		if (o.output ? doc_write_file(&d, o.output)
			     : doc_write(&d, stdout)) {
			fprintf(stderr,
				"netprobe ports: cannot write the document\n");
			goto out;
		}
	}
	if (!o.json)
		emit_text(&o, &r, &d);
	rc = doc_exit_status(&d, true);
	if (rc == 0 && (!ports_all_open(r.out, r.nout) ||
			!ports_all_open(r.in, r.nin)))
		rc = 1;
out:
	client_close(&c);
	free(r.out);
	free(r.in);
	port_list_free(&pl);
	doc_free(&d);
	return rc;
}
