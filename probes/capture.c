/* netprobe capture: libpcap on one or every interface, a filter built for a
 * peer and its ports, a bounded capture summarised per interface (which
 * interface the traffic used, and what answered each SYN), optionally
 * written to a pcap file. */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "base/cli.h"
#include "commands.h"
#include "doc/doc.h"
#include "base/parse.h"
#include "probe/pcapsum.h"
#include "base/privdrop.h"

#define CAP_MAX_HANDLES PCAPSUM_MAX_IFACES
#define CAP_MAX_PORTS 64
#define CAP_MAX_PEER_ADDRS 4
#define CAP_FILTER_MAX 4096
#define CAP_SNAPLEN_SUMMARY 512 /* enough for headers and ICMP quotes */
#define CAP_SNAPLEN_WRITE 65535
#define CAP_DISPATCH 256 /* packets per handle per turn */
#define CAP_POLL_MS 100
#define CAP_RING_TOTAL (32 << 20) /* kernel capture buffers, all handles */
#define CAP_RING_MAX (4 << 20)
#define CAP_RING_MIN (256 << 10)
#define CAP_TOP_FLOWS 50
#define CAP_MAX_SYNS 256
#define CAP_READ_SAMPLE 10000 /* frames read to find the host's MAC */
#define SLL2_HDR 20
#define ARPHRD_ETHER_ 1
#define ARPHRD_NONE_ 0xfffe

static volatile sig_atomic_t cap_stop; /* set by SIGINT/SIGTERM only */

struct cap_opts {
	const char *peer;
	char ports[CAP_MAX_PORTS][16]; /* "22" or "1000-2000" */
	int nports;
	const char *iface;
	bool all;
	long long duration_us;
	const char *filter; /* the user's */
	const char *write;
	const char *read; /* -r: a pcap or pcapng file instead of a capture */
	unsigned long long max_bytes;
	bool passive;
	bool json;
	bool duration_set;
};

struct cap_handle {
	pcap_t *p;
	int sum_index; /* interface index inside the summary */
	int linktype;
	unsigned ifindex;
	int fd;
};

struct cap_state {
	struct cap_handle h[CAP_MAX_HANDLES];
	int nh;
	struct pcapsum sum;
	pcap_t *dead; /* the writer's link type */
	pcap_dumper_t *dump;
	int dump_linktype;
	unsigned long long dump_bytes;
	bool dump_truncated;
	unsigned char *conv; /* one converted packet */
	int cur;             /* the handle being dispatched */
	unsigned long long max_bytes;
	char filter[CAP_FILTER_MAX];
	bool have_filter;
	bool dropped;
	struct privdrop_target target;
	unsigned long long kernel_drops;
	int bufsize; /* kernel ring per handle */
};

/* Only sets the flag; the loop notices within CAP_POLL_MS. */
static void on_signal(int sig)
{
	(void)sig;
	cap_stop = 1;
}

enum {
	O_IFACE = 'i',
	O_DURATION = 'd',
	O_WRITE = 'w',
	O_READ = 'r',
	O_JSON = 'j',
	O_HELP = 'h',
	O_PEER = 256,
	O_PORT,
	O_ALL,
	O_FILTER,
	O_MAXBYTES,
	O_PASSIVE,
};

static const struct cli_opt cap_optv[] = {
	{O_PEER, 0, "peer", CLI_REQUIRED, "HOST", NULL,
	 "traffic with HOST, and every ICMP error", false},
	{O_PORT, 0, "port", CLI_REQUIRED, "PORTS", NULL,
	 "only these: 22, 8000-8100, 22,80 (repeatable)", false},
	{O_IFACE, 'i', "interface", CLI_REQUIRED, "IFACE", "all",
	 "capture on IFACE only", false},
	{O_ALL, 0, "all", CLI_FLAG, NULL, NULL, "every interface that is up",
	 false},
	{O_DURATION, 'd', "duration", CLI_REQUIRED, "TIME", "5s",
	 "how long, at most 1h", false},
	{O_FILTER, 0, "filter", CLI_REQUIRED, "EXPR", NULL,
	 "a pcap-filter(7) expression instead", false},
	{O_WRITE, 'w', "write", CLI_REQUIRED, "FILE", NULL,
	 "keep the packets in a pcap file", false},
	{O_MAXBYTES, 0, "max-bytes", CLI_REQUIRED, "SIZE", "64M",
	 "bound the file written", false},
	{O_READ, 'r', "read", CLI_REQUIRED, "FILE", NULL,
	 "summarise a pcap or pcapng file instead", false},
	{O_PASSIVE, 0, "passive", CLI_FLAG, NULL, NULL,
	 "no filter: what a running job uses", false},
	CLI_OPT_JSON(O_JSON),
	CLI_OPT_HELP,
};

static const struct cli_cmd cap_cmd = {
	"netprobe capture", "[options] [EXPR...]",
	"Capture packets and summarise what crossed which interface, and what "
	"answered\neach connection attempt.",
	cap_optv, sizeof(cap_optv) / sizeof(cap_optv[0]),
	"EXPR, as tcpdump takes it, is the same as --filter. A live capture "
	"needs\nCAP_NET_RAW; -r reads a file without it. Run it alongside "
	"another probe:\n"
	"  netprobe capture --peer B --duration 5s & netprobe ports B 22\n",
};

/* Splits "22,80,1000-2000" into checked port specs. Returns 0, or -1 with
 * *why set. */
static int add_ports(struct cap_opts *o, const char *arg, const char **why)
{
	char buf[512], *save = NULL, *tok, *dash;
	long long lo, hi;

	if (strlen(arg) >= sizeof(buf)) {
		*why = "too long";
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		if (o->nports >= CAP_MAX_PORTS) {
			*why = "too many ports";
			return -1;
		}
		dash = strchr(tok, '-');
		if (dash != NULL)
			*dash = '\0';
		if (parse_num(tok, 1, 65535, &lo, why) < 0)
			return -1;
		hi = lo;
		if (dash != NULL && parse_num(dash + 1, 1, 65535, &hi, why) < 0)
			return -1;
		if (hi < lo) {
			*why = "range ends before it starts";
			return -1;
		}
		if (hi == lo)
			snprintf(o->ports[o->nports++], sizeof(o->ports[0]),
			         "%lld", lo);
		else
			snprintf(o->ports[o->nports++], sizeof(o->ports[0]),
			         "%lld-%lld", lo, hi);
	}
	if (o->nports == 0) {
		*why = "no port given";
		return -1;
	}
	return 0;
}

/* Appends printf output to the filter text. Returns -1 when it is full. */
static int fcat(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fcat(char *buf, size_t len, const char *fmt, ...)
{
	size_t off = strlen(buf);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + off, len - off, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len - off ? -1 : 0;
}

/* The BPF text for the peer's addresses and the ports, plus every ICMP
 * error (a router's answer names neither). Returns 0, or -1 when it does
 * not fit. */
static int build_filter(const struct cap_opts *o,
                        char addrs[][INET6_ADDRSTRLEN], int naddrs, char *buf,
                        size_t len)
{
	int rc = 0;

	buf[0] = '\0';
	rc |= fcat(buf, len, "(");
	for (int i = 0; i < naddrs; i++)
		rc |= fcat(buf, len, "%shost %s", i ? " or " : "(", addrs[i]);
	if (naddrs > 0)
		rc |= fcat(buf, len, ")");
	if (naddrs > 0 && o->nports > 0)
		rc |= fcat(buf, len, " and ");
	for (int i = 0; i < o->nports; i++)
		rc |= fcat(buf, len, "%s%s %s", i ? " or " : "(",
		           strchr(o->ports[i], '-') ? "portrange" : "port",
		           o->ports[i]);
	if (o->nports > 0)
		rc |= fcat(buf, len, ")");
	rc |= fcat(buf, len,
	           ") or (icmp and icmp[icmptype] != icmp-echo and "
	           "icmp[icmptype] != icmp-echoreply) or (icmp6 and "
	           "ip6[40] < 128)");
	return rc;
}

/* Resolves the peer into at most CAP_MAX_PEER_ADDRS distinct numeric
 * addresses. Returns the count, or -1 with *why set. */
static int resolve_peer(const char *host, char out[][INET6_ADDRSTRLEN],
                        const char **why)
{
	struct addrinfo hints = {0}, *res = NULL, *ai;
	int n = 0, rc;
	char buf[INET6_ADDRSTRLEN];

	hints.ai_socktype = SOCK_DGRAM;
	rc = getaddrinfo(host, NULL, &hints, &res);
	if (rc != 0) {
		*why = gai_strerror(rc);
		return -1;
	}
	for (ai = res; ai != NULL && n < CAP_MAX_PEER_ADDRS; ai = ai->ai_next) {
		const void *a;
		bool dup = false;

		if (ai->ai_family == AF_INET)
			a = &((struct sockaddr_in *)(void *)ai->ai_addr)
			         ->sin_addr;
		else if (ai->ai_family == AF_INET6)
			a = &((struct sockaddr_in6 *)(void *)ai->ai_addr)
			         ->sin6_addr;
		else
			continue;
		if (inet_ntop(ai->ai_family, a, buf, sizeof(buf)) == NULL)
			continue;
		for (int i = 0; i < n; i++)
			dup |= strcmp(out[i], buf) == 0;
		if (!dup)
			snprintf(out[n++], INET6_ADDRSTRLEN, "%s", buf);
	}
	freeaddrinfo(res);
	if (n == 0) {
		*why = "no IPv4 or IPv6 address";
		return -1;
	}
	return n;
}

/* Joins the operands, tcpdump's filter expression, into buf. Returns 0,
 * or -1 when it does not fit. */
static int join_expr(char **ops, int n, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		int w = snprintf(buf + off, len - off, "%s%s", i ? " " : "",
		                 ops[i]);

		if (w < 0 || (size_t)w >= len - off)
			return -1;
		off += (size_t)w;
	}
	return 0;
}

/* Parses the command line into o. Returns 0, or 2 after printing the
 * error (or -1 after printing help: exit 0). */
static int parse_args(int argc, char **argv, struct cap_opts *o)
{
	static char expr[CAP_FILTER_MAX];
	const char *why;
	struct cli cl;
	char **ops;
	int c, nops;

	memset(o, 0, sizeof(*o));
	o->duration_us = 5000000;
	o->max_bytes = 64ULL << 20;
	cli_start(&cl, &cap_cmd, argc, argv);
	while ((c = cli_next(&cl)) != CLI_END) {
		switch (c) {
		case O_HELP:
			return cli_help(&cap_cmd, stdout) == 0 ? -1 : 2;
		case O_IFACE:
			o->iface = cl.arg;
			break;
		case O_PEER:
			o->peer = cl.arg;
			break;
		case O_PORT:
			if (add_ports(o, cl.arg, &why) < 0) {
				fprintf(stderr,
				        "netprobe capture: invalid port '%s': "
				        "%s\n",
				        cl.arg, why);
				return 2;
			}
			break;
		case O_ALL:
			o->all = true;
			break;
		case O_DURATION:
			if (parse_duration_us(cl.arg, 1000, 3600000000LL,
			                      &o->duration_us, &why) < 0) {
				fprintf(stderr,
				        "netprobe capture: invalid duration "
				        "'%s': %s\n",
				        cl.arg, why);
				return 2;
			}
			o->duration_set = true;
			break;
		case O_FILTER:
			o->filter = cl.arg;
			break;
		case O_WRITE:
			o->write = cl.arg;
			break;
		case O_READ:
			o->read = cl.arg;
			break;
		case O_MAXBYTES:
			if (parse_size(cl.arg, 4096, 1ULL << 40, &o->max_bytes,
			               &why) < 0) {
				fprintf(stderr,
				        "netprobe capture: invalid size '%s': "
				        "%s\n",
				        cl.arg, why);
				return 2;
			}
			break;
		case O_PASSIVE:
			o->passive = true;
			break;
		case O_JSON:
			o->json = true;
			break;
		default:
			return cli_usage_error(&cap_cmd, stderr, "%s", cl.err);
		}
	}
	nops = cli_operands(&cl, &ops);
	if (nops > 0) {
		if (o->filter != NULL)
			return cli_usage_error(&cap_cmd, stderr,
			                       "a filter expression and --filter:"
			                       " give one or the other");
		if (join_expr(ops, nops, expr, sizeof(expr)) < 0) {
			fprintf(stderr, "netprobe capture: filter too long\n");
			return 2;
		}
		o->filter = expr;
	}
	if (o->read != NULL &&
	    (o->iface != NULL || o->all || o->duration_set || o->passive ||
	     o->write != NULL)) {
		fprintf(stderr, "netprobe capture: -r reads a file: it takes "
		                "no -i, --all, --duration, --passive or -w\n");
		return 2;
	}
	if (o->iface != NULL && o->all) {
		fprintf(stderr, "netprobe capture: -i and --all exclude each "
		                "other\n");
		return 2;
	}
	if (o->filter != NULL && (o->peer != NULL || o->nports > 0)) {
		fprintf(stderr, "netprobe capture: --filter replaces --peer "
		                "and --port; give one or the other\n");
		return 2;
	}
	if (o->passive &&
	    (o->peer != NULL || o->nports > 0 || o->filter != NULL)) {
		fprintf(stderr, "netprobe capture: --passive takes no --peer, "
		                "--port or --filter\n");
		return 2;
	}
	if (o->filter != NULL && strlen(o->filter) >= CAP_FILTER_MAX) {
		fprintf(stderr, "netprobe capture: filter too long\n");
		return 2;
	}
	return 0;
}

/* Reports an error the house way: stderr in text mode, and into the
 * document too (so a JSON pipeline learns why). */
static void cap_error(struct doc *d, const char *step, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void cap_error(struct doc *d, const char *step, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "netprobe capture: %s\n", msg);
	doc_add_error(d, step, "%s", msg);
}

/* Registers every local address and each interface's MAC with the
 * summary, from the device list libpcap already read. */
static void learn_locals(struct cap_state *st, pcap_if_t *devs)
{
	for (pcap_if_t *dv = devs; dv != NULL; dv = dv->next) {
		for (pcap_addr_t *a = dv->addresses; a != NULL; a = a->next) {
			if (a->addr == NULL)
				continue;
			if (a->addr->sa_family == AF_INET)
				pcapsum_add_local(
				    &st->sum, AF_INET,
				    &((struct sockaddr_in *)(void *)a->addr)
				         ->sin_addr);
			else if (a->addr->sa_family == AF_INET6)
				pcapsum_add_local(
				    &st->sum, AF_INET6,
				    &((struct sockaddr_in6 *)(void *)a->addr)
				         ->sin6_addr);
		}
	}
}

/* The interface's MAC from the device list (AF_PACKET address), or NULL. */
static const unsigned char *dev_mac(pcap_if_t *devs, const char *name)
{
	for (pcap_if_t *dv = devs; dv != NULL; dv = dv->next) {
		if (strcmp(dv->name, name) != 0)
			continue;
		for (pcap_addr_t *a = dv->addresses; a != NULL; a = a->next) {
			const struct sockaddr_ll *ll;

			if (a->addr == NULL || a->addr->sa_family != AF_PACKET)
				continue;
			ll = (const struct sockaddr_ll *)(const void *)a->addr;
			if (ll->sll_halen == 6)
				return ll->sll_addr;
		}
	}
	return NULL;
}

/* Opens, configures and activates one handle. Returns 0, or the pcap
 * status (negative) with the message in err. */
static int open_one(struct cap_state *st, const char *name,
                    const unsigned char *mac, int snaplen, char *err)
{
	struct cap_handle *h = &st->h[st->nh];
	int rc;

	h->p = pcap_create(name, err);
	if (h->p == NULL)
		return PCAP_ERROR;
	if (pcap_set_snaplen(h->p, snaplen) != 0 ||
	    pcap_set_promisc(h->p, 0) != 0 ||
	    pcap_set_immediate_mode(h->p, 1) != 0 ||
	    pcap_set_buffer_size(h->p, st->bufsize) != 0 ||
	    pcap_set_timeout(h->p, CAP_POLL_MS) != 0) {
		snprintf(err, PCAP_ERRBUF_SIZE, "cannot configure the handle");
		pcap_close(h->p);
		h->p = NULL;
		return PCAP_ERROR;
	}
	rc = pcap_activate(h->p);
	if (rc < 0) {
		snprintf(err, PCAP_ERRBUF_SIZE, "%s", pcap_geterr(h->p));
		pcap_close(h->p);
		h->p = NULL;
		return rc;
	}
	h->linktype = pcap_datalink(h->p);
	h->ifindex = if_nametoindex(name);
	h->sum_index = pcapsum_add_iface(&st->sum, name, mac);
	if (h->sum_index < 0) {
		snprintf(err, PCAP_ERRBUF_SIZE, "too many interfaces");
		pcap_close(h->p);
		h->p = NULL;
		return PCAP_ERROR;
	}
	h->fd = -1;
	st->nh++;
	return 0;
}

/* True for a device worth capturing on with --all: a network interface
 * (not a USB, D-Bus or netfilter pseudo-device) that is up. */
static bool dev_wanted(const pcap_if_t *dv)
{
	if (strcmp(dv->name, "any") == 0 || if_nametoindex(dv->name) == 0)
		return false;
	return (dv->flags & PCAP_IF_UP) != 0;
}

/* Opens the handles. Returns 0, or 2 after reporting why (no privilege,
 * unknown interface, nothing to capture on). */
static int open_handles(struct cap_state *st, const struct cap_opts *o,
                        pcap_if_t *devs, struct doc *d)
{
	char err[PCAP_ERRBUF_SIZE];
	int snaplen = o->write ? CAP_SNAPLEN_WRITE : CAP_SNAPLEN_SUMMARY;
	int rc, want = 0;

	/* the kernel rings share CAP_RING_TOTAL, within bounds per handle,
	 * so a host with dozens of interfaces does not pin gigabytes */
	for (pcap_if_t *dv = devs; dv != NULL; dv = dv->next)
		want += o->iface != NULL ? strcmp(dv->name, o->iface) == 0
		                         : dev_wanted(dv);
	st->bufsize = CAP_RING_TOTAL / (want > 0 ? want : 1);
	if (st->bufsize > CAP_RING_MAX)
		st->bufsize = CAP_RING_MAX;
	if (st->bufsize < CAP_RING_MIN)
		st->bufsize = CAP_RING_MIN;
	for (pcap_if_t *dv = devs; dv != NULL && st->nh < CAP_MAX_HANDLES;
	     dv = dv->next) {
		if (o->iface != NULL ? strcmp(dv->name, o->iface) != 0
		                     : !dev_wanted(dv))
			continue;
		err[0] = '\0';
		rc = open_one(st, dv->name, dev_mac(devs, dv->name), snaplen,
		              err);
		if (rc == PCAP_ERROR_PERM_DENIED) {
			cap_error(d, "privilege",
			          "no permission to capture on '%s': needs "
			          "CAP_NET_RAW (run as root, or grant the "
			          "binary cap_net_raw,cap_net_admin)",
			          dv->name);
			return 2;
		}
		if (rc == PCAP_ERROR_NO_SUCH_DEVICE) {
			cap_error(d, "interface", "unknown interface '%s'",
			          dv->name);
			return 2;
		}
		if (rc < 0 && o->iface != NULL) {
			cap_error(d, "pcap", "cannot capture on '%s': %s",
			          dv->name, err);
			return 2;
		}
		if (rc < 0)
			doc_add_error(d, "pcap", "skipped '%s': %s", dv->name,
			              err);
	}
	if (o->iface != NULL && st->nh == 0) {
		cap_error(d, "interface", "unknown interface '%s'", o->iface);
		return 2;
	}
	if (st->nh == 0) {
		cap_error(d, "interface", "no interface is up to capture on");
		return 2;
	}
	return 0;
}

/* Compiles and installs the filter on every handle. Returns 0, or 2 after
 * reporting the expression and libpcap's reason. */
static int set_filters(struct cap_state *st, struct doc *d)
{
	struct bpf_program prog;

	if (!st->have_filter)
		return 0;
	for (int i = 0; i < st->nh; i++) {
		if (pcap_compile(st->h[i].p, &prog, st->filter, 1,
		                 PCAP_NETMASK_UNKNOWN) < 0) {
			cap_error(d, "filter",
			          "filter does not compile on '%s' '%s': %s",
			          st->sum.ifaces[st->h[i].sum_index].name,
			          st->filter, pcap_geterr(st->h[i].p));
			return 2;
		}
		if (pcap_setfilter(st->h[i].p, &prog) < 0) {
			cap_error(d, "filter", "cannot install filter: %s",
			          pcap_geterr(st->h[i].p));
			pcap_freecode(&prog);
			return 2;
		}
		pcap_freecode(&prog);
	}
	return 0;
}

/* Checks that the filter compiles at all before any privilege is needed,
 * on an Ethernet-typed dead handle: a typo is bad input, exit 2. */
static int check_filter(const char *filter, struct doc *d)
{
	struct bpf_program prog;
	pcap_t *dead = pcap_open_dead(DLT_EN10MB, CAP_SNAPLEN_WRITE);
	int rc = 0;

	if (dead == NULL) {
		cap_error(d, "filter", "cannot check the filter: no memory");
		return 2;
	}
	if (pcap_compile(dead, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) < 0) {
		cap_error(d, "filter", "filter does not compile '%s': %s",
		          filter, pcap_geterr(dead));
		rc = 2;
	} else {
		pcap_freecode(&prog);
	}
	pcap_close(dead);
	return rc;
}

/* Opens the pcap file: the handle's own link type for one interface,
 * Linux cooked v2 (which records the interface index of every packet)
 * for several. The file belongs to the sudo user when there is one.
 * Returns 0, or 2 after reporting. */
static int open_dump(struct cap_state *st, const char *path, struct doc *d)
{
	FILE *fp;

	st->dump_linktype = st->nh == 1 ? st->h[0].linktype : DLT_LINUX_SLL2;
	st->dead = pcap_open_dead(st->dump_linktype, CAP_SNAPLEN_WRITE);
	st->conv = malloc(CAP_SNAPLEN_WRITE + SLL2_HDR);
	if (st->dead == NULL || st->conv == NULL) {
		cap_error(d, "write", "cannot write '%s': no memory", path);
		return 2;
	}
	st->dump = pcap_dump_open(st->dead, path);
	if (st->dump == NULL) {
		cap_error(d, "write", "cannot write '%s': %s", path,
		          pcap_geterr(st->dead));
		return 2;
	}
	st->dump_bytes = 24; /* the file header */
	fp = pcap_dump_file(st->dump);
	if (fp != NULL && strcmp(st->target.who, "SUDO_UID") == 0 &&
	    geteuid() == 0 &&
	    fchown(fileno(fp), st->target.uid, st->target.gid) < 0)
		doc_add_error(d, "write", "cannot give '%s' to uid %u: %s",
		              path, (unsigned)st->target.uid, strerror(errno));
	return 0;
}

/* Rewrites one packet's link header as Linux cooked v2 into st->conv.
 * Returns the new captured length, or 0 for a link type it cannot carry
 * (the packet is then left out of the file, still summarised). */
static size_t to_sll2(struct cap_state *st, const struct cap_handle *h,
                      const unsigned char *data, size_t caplen, int dir,
                      size_t *hdrlen)
{
	unsigned char *o = st->conv;
	unsigned proto, hatype = ARPHRD_NONE_, alen = 0;
	const unsigned char *addr = NULL;
	size_t skip;

	memset(o, 0, SLL2_HDR);
	switch (h->linktype) {
	case DLT_EN10MB:
		if (caplen < 14)
			return 0;
		proto = (unsigned)data[12] << 8 | data[13];
		hatype = ARPHRD_ETHER_;
		alen = 6;
		addr = data + 6;
		skip = 14;
		break;
	case DLT_LINUX_SLL:
		if (caplen < 16)
			return 0;
		proto = (unsigned)data[14] << 8 | data[15];
		hatype = (unsigned)data[2] << 8 | data[3];
		alen = data[5] > 8 ? 8 : data[5];
		addr = data + 6;
		skip = 16;
		break;
	case DLT_LINUX_SLL2:
		if (caplen < SLL2_HDR)
			return 0;
		memcpy(o, data, SLL2_HDR);
		skip = SLL2_HDR;
		proto = (unsigned)data[0] << 8 | data[1];
		hatype = (unsigned)data[8] << 8 | data[9];
		break;
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
		if (caplen < 1)
			return 0;
		proto = (data[0] >> 4) == 6 ? 0x86dd : 0x0800;
		skip = 0;
		break;
	default:
		return 0;
	}
	o[0] = (unsigned char)(proto >> 8);
	o[1] = (unsigned char)proto;
	o[4] = (unsigned char)(h->ifindex >> 24);
	o[5] = (unsigned char)(h->ifindex >> 16);
	o[6] = (unsigned char)(h->ifindex >> 8);
	o[7] = (unsigned char)h->ifindex;
	o[8] = (unsigned char)(hatype >> 8);
	o[9] = (unsigned char)hatype;
	if (h->linktype != DLT_LINUX_SLL2) {
		o[10] = dir == PCAPSUM_DIR_OUT ? 4 : 0;
		o[11] = (unsigned char)alen;
		if (addr != NULL)
			memcpy(o + 12, addr, alen);
	}
	memcpy(o + SLL2_HDR, data + skip, caplen - skip);
	*hdrlen = skip;
	return caplen - skip + SLL2_HDR;
}

/* Writes one packet unless the file has reached --max-bytes. */
static void dump_packet(struct cap_state *st, const struct cap_handle *h,
                        const struct pcap_pkthdr *hdr,
                        const unsigned char *data, int dir)
{
	struct pcap_pkthdr h2 = *hdr;
	const unsigned char *out = data;
	size_t skip = 0, n;

	if (st->dump == NULL || st->dump_truncated)
		return;
	if (st->dump_linktype == DLT_LINUX_SLL2 && st->nh > 1) {
		n = to_sll2(st, h, data, hdr->caplen, dir, &skip);
		if (n == 0)
			return;
		h2.caplen = (bpf_u_int32)n;
		h2.len = (bpf_u_int32)(hdr->len - skip + SLL2_HDR);
		out = st->conv;
	}
	if (st->dump_bytes + 16 + h2.caplen > st->max_bytes) {
		st->dump_truncated = true;
		return;
	}
	pcap_dump((unsigned char *)st->dump, &h2, out);
	st->dump_bytes += 16 + h2.caplen;
}

/* pcap_dispatch callback: summarise, then keep. */
static void on_packet(unsigned char *user, const struct pcap_pkthdr *hdr,
                      const unsigned char *data)
{
	struct cap_state *st = (struct cap_state *)(void *)user;
	const struct cap_handle *h = &st->h[st->cur];
	int dir;

	dir = pcapsum_packet(&st->sum, h->sum_index, h->linktype, data,
	                     hdr->caplen, hdr->len);
	dump_packet(st, h, hdr, data, dir);
}

/* Monotonic microseconds: the capture's deadline clock. */
static long long mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* The capture loop: polls every handle for at most duration_us (or until
 * a signal), dispatching a bounded batch per handle per turn. Returns the
 * time it ran, in microseconds. */
static long long run_loop(struct cap_state *st, long long duration_us,
                          struct doc *d)
{
	struct pollfd pfd[CAP_MAX_HANDLES];
	long long start = mono_us(), left;
	struct pcap_stat ps;
	char err[PCAP_ERRBUF_SIZE];

	for (int i = 0; i < st->nh; i++) {
		if (pcap_setnonblock(st->h[i].p, 1, err) < 0)
			doc_add_error(d, "pcap", "non-blocking mode: %s", err);
		st->h[i].fd = pcap_get_selectable_fd(st->h[i].p);
		pfd[i].fd = st->h[i].fd;
		pfd[i].events = POLLIN;
	}
	/* bounded by time; the count bound only guards a broken clock */
	for (long long turn = 0; turn < 100000000LL && !cap_stop; turn++) {
		left = duration_us - (mono_us() - start);
		if (left <= 0)
			break;
		if (poll(pfd, (nfds_t)st->nh,
		         (int)(left / 1000 < CAP_POLL_MS ? left / 1000 + 1
		                                         : CAP_POLL_MS)) < 0 &&
		    errno != EINTR)
			break;
		for (int i = 0; i < st->nh; i++) {
			st->cur = i;
			if (pcap_dispatch(st->h[i].p, CAP_DISPATCH, on_packet,
			                  (unsigned char *)st) == PCAP_ERROR)
				pfd[i].fd = -1; /* the interface went away */
		}
	}
	for (int i = 0; i < st->nh; i++) {
		st->cur = i;
		pcap_dispatch(st->h[i].p, CAP_DISPATCH, on_packet,
		              (unsigned char *)st);
		if (pcap_stats(st->h[i].p, &ps) == 0)
			st->kernel_drops += ps.ps_drop;
	}
	return mono_us() - start;
}

/* Gives up root now that the handles and the file are open. A drop that
 * fails with EPERM means a root already stripped of CAP_SETUID/SETGID (a
 * confined container): capture goes on with a warning. Any other failure
 * stops the run. Returns 0, or 2 after reporting. */
static int drop_privileges(struct cap_state *st, struct doc *d)
{
	int rc = privdrop_to(&st->target);

	if (rc == 1)
		return 0;
	if (rc == 0) {
		st->dropped = true;
		return 0;
	}
	if (errno == EPERM) {
		fprintf(stderr,
		        "netprobe capture: warning: cannot drop root to uid "
		        "%u: %s; going on as root\n",
		        (unsigned)st->target.uid, strerror(errno));
		doc_add_error(d, "privilege", "cannot drop root to uid %u: %s",
		              (unsigned)st->target.uid, strerror(errno));
		return 0;
	}
	cap_error(d, "privilege", "cannot drop root to uid %u: %s",
	          (unsigned)st->target.uid, strerror(errno));
	return 2;
}

/* Adds the results to the document. */
static void emit_json(const struct cap_state *st, const struct cap_opts *o,
                      long long ran_us, struct doc *d)
{
	json_t *ifs = pcapsum_ifaces_json(&st->sum);

	/* the interface index, which is all a multi-interface pcap file
	 * (Linux cooked v2) records of each packet's interface */
	for (int i = 0; i < st->nh && ifs != NULL; i++)
		json_object_set_new(
		    json_array_get(ifs, (size_t)st->h[i].sum_index), "ifindex",
		    json_integer(st->h[i].ifindex));
	doc_set(d, "interfaces", ifs);
	doc_set(d, "flows", pcapsum_flows_json(&st->sum, CAP_TOP_FLOWS));
	doc_set(d, "syns", pcapsum_syns_json(&st->sum, CAP_MAX_SYNS));
	doc_set(d, "filter",
	        st->have_filter ? json_string(st->filter) : json_null());
	doc_set(d, "duration_us", json_integer(ran_us));
	doc_set(d, "pcap_file", o->write ? json_string(o->write) : json_null());
	doc_set(d, "pcap_read", o->read ? json_string(o->read) : json_null());
	doc_set(d, "packets", json_integer((json_int_t)st->sum.npackets));
	doc_set(d, "pcap_bytes",
	        o->write ? json_integer((json_int_t)st->dump_bytes)
	                 : json_null());
	doc_set(d, "pcap_truncated", json_boolean(st->dump_truncated));
	doc_set(d, "peer", o->peer ? json_string(o->peer) : json_null());
	doc_set(d, "passive", json_boolean(o->passive));
	doc_set(d, "kernel_drops", json_integer((json_int_t)st->kernel_drops));
	doc_set(d, "dropped_to",
	        st->dropped
	            ? json_pack("{s:I, s:I}", "uid", (json_int_t)st->target.uid,
	                        "gid", (json_int_t)st->target.gid)
	            : json_null());
}

/* The compact text summary: one line per interface, then the connection
 * attempts, ICMP errors and the top flows of each interface. */
static void emit_text(const struct cap_state *st, const struct cap_opts *o,
                      long long ran_us)
{
	const struct pcapsum_flow *flows[CAP_TOP_FLOWS];
	const struct pcapsum_syn *syns[CAP_MAX_SYNS];
	struct pcapsum_syncount c;
	char dur[32], a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN], ans[48], pb[8];
	size_t nf, ns;

	if (o->read != NULL)
		printf("read %s: %llu packets over %s on %d interface%s%s%s\n",
		       o->read, (unsigned long long)st->sum.npackets,
		       fmt_duration(ran_us / 1000 * 1000, dur, sizeof(dur)),
		       st->sum.nifaces, st->sum.nifaces == 1 ? "" : "s",
		       st->have_filter ? ", filter: " : "",
		       st->have_filter ? st->filter : "");
	else
		printf("captured %s on %d interface%s%s%s\n",
		       fmt_duration(ran_us / 1000 * 1000, dur, sizeof(dur)),
		       st->nh, st->nh == 1 ? "" : "s",
		       st->have_filter ? ", filter: " : "",
		       st->have_filter ? st->filter : "");
	printf("%-16s %8s %8s %10s %10s %6s %6s %6s %6s %7s\n", "interface",
	       "pkts_in", "pkts_out", "bytes_in", "bytes_out", "synack", "rst",
	       "icmp", "no_ans", "retrans");
	for (int i = 0; i < st->sum.nifaces; i++) {
		const struct pcapsum_iface *ifc = &st->sum.ifaces[i];

		pcapsum_syn_counts(&st->sum, i, &c);
		printf("%-16s %8llu %8llu %10llu %10llu %6llu %6llu %6llu "
		       "%6llu %7llu\n",
		       ifc->name, (unsigned long long)ifc->packets_in,
		       (unsigned long long)ifc->packets_out,
		       (unsigned long long)ifc->bytes_in,
		       (unsigned long long)ifc->bytes_out,
		       (unsigned long long)c.synack, (unsigned long long)c.rst,
		       (unsigned long long)c.icmp,
		       (unsigned long long)c.unanswered,
		       (unsigned long long)ifc->retransmissions);
		for (int j = 0; j < ifc->nicmp; j++)
			printf("  %s error type %u code %u: %llu\n",
			       ifc->icmp[j].v6 ? "icmp6" : "icmp",
			       ifc->icmp[j].type, ifc->icmp[j].code,
			       (unsigned long long)ifc->icmp[j].count);
	}
	ns = pcapsum_syns_ordered(&st->sum, syns, CAP_MAX_SYNS);
	if (ns > 0)
		printf("connection attempts:\n");
	for (size_t i = 0; i < ns; i++) {
		inet_ntop(syns[i]->t.family, syns[i]->t.src, a, sizeof(a));
		inet_ntop(syns[i]->t.family, syns[i]->t.dst, b, sizeof(b));
		printf("  %-12s %s:%u -> %s:%u  %s%s\n",
		       st->sum.ifaces[syns[i]->iface].name, a, syns[i]->t.sport,
		       b, syns[i]->t.dport,
		       pcapsum_answer_text(syns[i], ans, sizeof(ans)),
		       syns[i]->sends > 1 ? " (SYN sent again)" : "");
	}
	nf = pcapsum_top_flows(&st->sum, flows, CAP_TOP_FLOWS);
	for (int i = 0; i < st->sum.nifaces; i++) {
		int shown = 0;

		for (size_t j = 0; j < nf && shown < 5; j++) {
			if (flows[j]->iface != i)
				continue;
			if (shown++ == 0)
				printf("top flows on %s:\n",
				       st->sum.ifaces[i].name);
			inet_ntop(flows[j]->t.family, flows[j]->t.src, a,
			          sizeof(a));
			inet_ntop(flows[j]->t.family, flows[j]->t.dst, b,
			          sizeof(b));
			printf("  %-5s %s:%u -> %s:%u  %llu packets, %llu "
			       "bytes\n",
			       pcapsum_proto_name(flows[j]->t.proto, pb,
			                          sizeof(pb)),
			       a, flows[j]->t.sport, b, flows[j]->t.dport,
			       (unsigned long long)flows[j]->packets,
			       (unsigned long long)flows[j]->bytes);
		}
	}
	if (o->write != NULL)
		printf("wrote %s (%llu bytes%s)\n", o->write,
		       (unsigned long long)st->dump_bytes,
		       st->dump_truncated ? ", stopped at --max-bytes" : "");
	if (st->kernel_drops > 0)
		printf("the kernel dropped %llu packets (buffer full)\n",
		       (unsigned long long)st->kernel_drops);
	if (st->dropped)
		printf("capturing as uid %u after dropping root\n",
		       (unsigned)st->target.uid);
}

/* The MAC seen in most unicast Ethernet frames of the file, source or
 * destination: the capturing interface's own, which gives each packet its
 * direction. Reads at most CAP_READ_SAMPLE frames. Returns true when one
 * was found. */
static bool file_own_mac(const char *path, unsigned char mac[6])
{
	struct {
		unsigned char a[6];
		unsigned long long n;
	} seen[64];
	char err[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *hdr;
	const unsigned char *data;
	size_t nseen = 0, best = 0;
	pcap_t *p = pcap_open_offline(path, err);

	if (p == NULL || pcap_datalink(p) != DLT_EN10MB) {
		if (p != NULL)
			pcap_close(p);
		return false;
	}
	for (int k = 0; k < CAP_READ_SAMPLE &&
	                pcap_next_ex(p, &hdr, &data) == 1;
	     k++) {
		if (hdr->caplen < 14)
			continue;
		for (int end = 0; end < 2; end++) {
			const unsigned char *a = data + 6 * end;
			size_t i;

			if (a[0] & 1) /* broadcast, multicast */
				continue;
			for (i = 0; i < nseen && memcmp(seen[i].a, a, 6); i++)
				;
			if (i == nseen && nseen < sizeof(seen) / sizeof(seen[0])) {
				memcpy(seen[nseen].a, a, 6);
				seen[nseen++].n = 0;
			}
			if (i < nseen)
				seen[i].n++;
		}
	}
	pcap_close(p);
	for (size_t i = 1; i < nseen; i++)
		if (seen[i].n > seen[best].n)
			best = i;
	if (nseen == 0)
		return false;
	memcpy(mac, seen[best].a, 6);
	return true;
}

/* The summary's interface for one packet of the file: per interface index
 * in Linux cooked v2 (as --write makes for several interfaces), else one
 * for the whole file. Returns its index, or -1 past PCAPSUM_MAX_IFACES. */
static int file_iface(struct cap_state *st, const struct cap_opts *o,
                      int linktype, const unsigned char *data,
                      size_t caplen, const unsigned char *mac)
{
	char name[IF_NAMESIZE];
	const char *base;
	unsigned idx;

	if (linktype == DLT_LINUX_SLL2 && caplen >= 8) {
		idx = (unsigned)data[4] << 24 | (unsigned)data[5] << 16 |
		      (unsigned)data[6] << 8 | data[7];
		snprintf(name, sizeof(name), "ifindex%u", idx);
	} else {
		base = strrchr(o->read, '/');
		snprintf(name, sizeof(name), "%s", base ? base + 1 : o->read);
	}
	for (int i = 0; i < st->sum.nifaces; i++)
		if (strcmp(st->sum.ifaces[i].name, name) == 0)
			return i;
	return pcapsum_add_iface(&st->sum, name, mac);
}

/* -r: summarises a pcap or pcapng file as a live capture is summarised,
 * after the same filter. What was read before a damaged record is kept,
 * with an error. Returns 0, or 2 after reporting; *span_us is the time
 * from the first packet to the last. */
static int read_file(struct cap_state *st, const struct cap_opts *o,
                     struct doc *d, long long *span_us)
{
	char err[PCAP_ERRBUF_SIZE];
	struct bpf_program prog;
	struct pcap_pkthdr *hdr;
	const unsigned char *data;
	unsigned char mac[6];
	bool have_mac = file_own_mac(o->read, mac), full = false;
	long long first = -1, last = 0, ts;
	pcap_t *p;
	int lt, rc, si;

	p = pcap_open_offline(o->read, err);
	if (p == NULL) {
		cap_error(d, "read", "cannot read '%s': %s", o->read, err);
		return 2;
	}
	lt = pcap_datalink(p);
	if (st->have_filter) {
		if (pcap_compile(p, &prog, st->filter, 1,
		                 PCAP_NETMASK_UNKNOWN) < 0) {
			cap_error(d, "filter", "filter does not compile '%s': %s",
			          st->filter, pcap_geterr(p));
			pcap_close(p);
			return 2;
		}
		rc = pcap_setfilter(p, &prog);
		pcap_freecode(&prog);
		if (rc < 0) {
			cap_error(d, "filter", "cannot install filter: %s",
			          pcap_geterr(p));
			pcap_close(p);
			return 2;
		}
	}
	/* bounded by the file; a signal ends it early, as a capture */
	while (!cap_stop && (rc = pcap_next_ex(p, &hdr, &data)) == 1) {
		si = file_iface(st, o, lt, data, hdr->caplen,
		                have_mac ? mac : NULL);
		if (si < 0) {
			full = true;
			continue;
		}
		pcapsum_packet(&st->sum, si, lt, data, hdr->caplen, hdr->len);
		ts = (long long)hdr->ts.tv_sec * 1000000LL + hdr->ts.tv_usec;
		if (first < 0)
			first = ts;
		last = ts;
	}
	if (rc == PCAP_ERROR)
		cap_error(d, "read", "'%s' is damaged after %llu packets: %s",
		          o->read, (unsigned long long)st->sum.npackets,
		          pcap_geterr(p));
	if (full)
		doc_add_error(d, "read", "more than %d interfaces in '%s': "
		                         "the others are left out",
		              PCAPSUM_MAX_IFACES, o->read);
	pcap_close(p);
	*span_us = first < 0 || last < first ? 0 : last - first;
	return 0;
}

/* Releases handles, the writer and the summary. */
static void cap_close(struct cap_state *st)
{
	for (int i = 0; i < st->nh; i++)
		if (st->h[i].p != NULL)
			pcap_close(st->h[i].p);
	if (st->dump != NULL)
		pcap_dump_close(st->dump);
	if (st->dead != NULL)
		pcap_close(st->dead);
	free(st->conv);
	pcapsum_free(&st->sum);
}

/* Everything before the loop that can fail as bad input or missing
 * privilege, in that order. Returns 0, or 2 after reporting. */
static int prepare(struct cap_state *st, const struct cap_opts *o,
                   pcap_if_t **devs, struct doc *d)
{
	char addrs[CAP_MAX_PEER_ADDRS][INET6_ADDRSTRLEN];
	char err[PCAP_ERRBUF_SIZE];
	const char *why;
	int n = 0;

	if (o->iface != NULL && if_nametoindex(o->iface) == 0) {
		cap_error(d, "interface", "unknown interface '%s'", o->iface);
		return 2;
	}
	if (o->peer != NULL) {
		n = resolve_peer(o->peer, addrs, &why);
		if (n < 0) {
			cap_error(d, "resolve", "cannot resolve '%s': %s",
			          o->peer, why);
			return 2;
		}
	}
	if (o->filter != NULL) {
		snprintf(st->filter, sizeof(st->filter), "%s", o->filter);
		st->have_filter = true;
	} else if (n > 0 || o->nports > 0) {
		if (build_filter(o, addrs, n, st->filter, sizeof(st->filter)) <
		    0) {
			cap_error(d, "filter", "too many ports for one filter");
			return 2;
		}
		st->have_filter = true;
	}
	if (st->have_filter && check_filter(st->filter, d) != 0)
		return 2;
	if (o->read != NULL)
		return 0;
	if (pcap_findalldevs(devs, err) < 0) {
		cap_error(d, "pcap", "cannot list interfaces: %s", err);
		return 2;
	}
	learn_locals(st, *devs);
	if (open_handles(st, o, *devs, d) != 0 || set_filters(st, d) != 0)
		return 2;
	privdrop_choose_live(&st->target);
	if (o->write != NULL && open_dump(st, o->write, d) != 0)
		return 2;
	return drop_privileges(st, d);
}

int cmd_capture(int argc, char **argv)
{
	struct cap_opts o;
	struct cap_state *st;
	struct sigaction sa;
	pcap_if_t *devs = NULL;
	struct doc d;
	long long ran = 0;
	int rc;

	rc = parse_args(argc, argv, &o);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	if (doc_init(&d, "netprobe", "capture") < 0) {
		fprintf(stderr, "netprobe capture: out of memory\n");
		return 2;
	}
	st = calloc(1, sizeof(*st));
	if (st == NULL || pcapsum_init(&st->sum) < 0) {
		fprintf(stderr, "netprobe capture: out of memory\n");
		free(st);
		doc_free(&d);
		return 2;
	}
	st->max_bytes = o.max_bytes;
	rc = prepare(st, &o, &devs, &d);
	if (devs != NULL)
		pcap_freealldevs(devs);
	if (rc == 0 && o.read != NULL) {
		cap_stop = 0;
		rc = read_file(st, &o, &d, &ran);
	} else if (rc == 0) {
		cap_stop = 0;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		if (isatty(STDERR_FILENO))
			fprintf(stderr,
			        "capturing on %d interface%s for %.1fs"
			        "...\n",
			        st->nh, st->nh == 1 ? "" : "s",
			        (double)o.duration_us / 1e6);
		ran = run_loop(st, o.duration_us, &d);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
	}
	if (st->dump != NULL && pcap_dump_flush(st->dump) < 0)
		doc_add_error(&d, "write", "cannot write '%s'", o.write);
	if (rc == 0)
		emit_json(st, &o, ran, &d);
	if (o.json) {
		if (doc_write(&d, stdout) < 0)
			rc = 2;
	} else if (rc == 0) {
		emit_text(st, &o, ran);
	}
	cap_close(st);
	free(st);
	if (rc == 0)
		rc = doc_exit_status(&d, true);
	doc_free(&d);
	return rc;
}
