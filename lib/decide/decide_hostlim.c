/* Host limits that look like a firewall or like nothing (issue 48): a
 * narrow ephemeral port range, a listen backlog below the peers that
 * connect at once, and an nftables rule that rate-limits or counts
 * connections. Each is decided from this node's own evidence alone. */
#include "decide/decide_hostlim.h"

#include <stdio.h>
#include <string.h>

/* The node count the limits are judged against. */
static long long nodes_of(const struct hl_need *n)
{
	return n->nodes >= 2 ? n->nodes : 2;
}

/* port-range-narrow: below HL_MIN_PORTS. Returns 0, or -1 on no memory. */
static int port_range(const struct host_limits *l, struct doc *d)
{
	long long n = l->port_hi - l->port_lo + 1;
	json_t *ev = NULL;

	if (l->port_lo < 0 || n >= HL_MIN_PORTS)
		return 0;
	if (evidence_add(&ev, "/proc/sys/net/ipv4/ip_local_port_range",
	                 "%lld %lld (%lld ports)", l->port_lo, l->port_hi,
	                 n) < 0)
		goto nomem;
	if (doc_add_finding(
	        d, FINDING_PORT_RANGE_NARROW, -1, ev,
	        "sysctl -w net.ipv4.ip_local_port_range=\"32768 60999\" "
	        "(Debian's range), and keep it: echo "
	        "'net.ipv4.ip_local_port_range = 32768 60999' > "
	        "/etc/sysctl.d/90-port-range.conf",
	        "the ephemeral port range %lld-%lld holds %lld ports (fewer "
	        "than %d): connects from this node fail with \"Cannot assign "
	        "requested address\" once they are used, and listeners on "
	        "port 0 with \"Address already in use\"; no firewall is "
	        "involved",
	        l->port_lo, l->port_hi, n, HL_MIN_PORTS) < 0)
		return -1;
	return doc_finding_command(
	    d, "sysctl -w net.ipv4.ip_local_port_range=\"32768 60999\"");
nomem:
	json_decref(ev);
	return -1;
}

/* somaxconn-low: below the node count, or below HL_CONN_PER_NODE per
 * node with listen overflows counted. Returns 0, or -1 on no memory. */
static int backlog(const struct host_limits *l, const struct hl_need *need,
                   struct doc *d)
{
	long long nodes = nodes_of(need);
	/* a rise while the cluster connected says more than a count since
	 * boot, which another service may have made long ago */
	bool overflow = l->overflows_rise >= 0
	                    ? l->overflows_rise > 0 || l->drops_rise > 0
	                    : l->listen_overflows > 0 || l->listen_drops > 0;
	json_t *ev = NULL;

	if (l->somaxconn < 0 ||
	    !(l->somaxconn < nodes ||
	      (overflow && l->somaxconn < nodes * HL_CONN_PER_NODE)))
		return 0;
	if (evidence_add(&ev, "/proc/sys/net/core/somaxconn", "%lld",
	                 l->somaxconn) < 0 ||
	    evidence_add(&ev, "cluster", "%lld nodes connect to one listener",
	                 nodes) < 0 ||
	    (l->listen_overflows >= 0 &&
	     evidence_add(&ev, "/proc/net/netstat",
	                  "TcpExt ListenOverflows %lld, ListenDrops %lld",
	                  l->listen_overflows, l->listen_drops) < 0) ||
	    (l->overflows_rise >= 0 &&
	     evidence_add(&ev, "/proc/net/netstat",
	                  "ListenOverflows rose by %lld and ListenDrops by "
	                  "%lld while the peers connected",
	                  l->overflows_rise, l->drops_rise) < 0) ||
	    (l->syncookies >= 0 &&
	     evidence_add(&ev, "/proc/sys/net/ipv4/tcp_syncookies", "%lld",
	                  l->syncookies) < 0))
		goto nomem;
	/* the listeners the cap holds down now, where sock_diag read them */
	for (size_t i = 0; i < l->nlisteners; i++)
		if (l->listeners[i].backlog < (unsigned long long)nodes &&
		    evidence_add(&ev, "sock_diag",
		                 "listener %s port %u: backlog %u, %u queued",
		                 l->listeners[i].addr, l->listeners[i].port,
		                 l->listeners[i].backlog,
		                 l->listeners[i].queued) < 0)
			goto nomem;
	if (doc_add_finding(
	        d, FINDING_SOMAXCONN_LOW, -1, ev,
	        "sysctl -w net.core.somaxconn=4096 (Debian's default), keep "
	        "it: echo 'net.core.somaxconn = 4096' > "
	        "/etc/sysctl.d/90-somaxconn.conf, and restart the job's "
	        "listeners (the backlog is taken at listen())",
	        "net.core.somaxconn is %lld, %s %lld nodes that connect to "
	        "one listener at once: the SYNs beyond the accept queue are "
	        "dropped%s, so some peers time out as if a firewall dropped "
	        "them",
	        l->somaxconn, l->somaxconn < nodes ? "below the" : "and the",
	        nodes,
	        overflow ? " (ListenOverflows and ListenDrops count them)"
	                 : "") < 0)
		return -1;
	return doc_finding_command(d, "sysctl -w net.core.somaxconn=4096");
nomem:
	json_decref(ev);
	return -1;
}

/* True when rule r limits TCP connections toward a port of need or of
 * the ephemeral range; the first such port into *port. */
static bool job_port(const struct hl_rule *r, const struct host_limits *l,
                     const struct hl_need *need, unsigned *port)
{
	for (size_t i = 0; i < need->nports; i++)
		if (hostlim_rule_covers(r, need->ports[i])) {
			*port = need->ports[i];
			return true;
		}
	if (l->port_lo < 0 || (r->proto[0] && strcmp(r->proto, "tcp") != 0))
		return false;
	if (r->nranges == 0) {
		*port = (unsigned)l->port_lo;
		return true;
	}
	for (size_t i = 0; i < r->nranges; i++)
		if (r->hi[i] >= (unsigned)l->port_lo &&
		    r->lo[i] <= (unsigned)l->port_hi) {
			*port = r->lo[i] > (unsigned)l->port_lo
			            ? r->lo[i]
			            : (unsigned)l->port_lo;
			return true;
		}
	return false;
}

/* True when rule r drops or rejects what exceeds a limit below need. A
 * rule that accepts under its limit drops nothing itself; one that also
 * matches on what this parser does not read cannot be judged. */
static bool limits_below(const struct hl_rule *r, const struct hl_need *need)
{
	unsigned long long want =
	    (unsigned long long)HL_RATE_PER_NODE *
	    (unsigned long long)(r->per_source ? 1 : nodes_of(need));

	if (r->other || !r->over ||
	    (strcmp(r->verdict, "drop") != 0 &&
	     strcmp(r->verdict, "reject") != 0))
		return false;
	if (r->kind == HL_CT_COUNT)
		return r->value < want;
	if (r->bytes)
		return false;
	/* a limit on every packet, not only new connections, also
	 * throttles the data: below the same rate it is worse */
	return hostlim_rate_milli(r) + r->burst * 1000ULL < want * 1000ULL;
}

/* conn-rate-limit for rule r. Returns 0, or -1 on no memory. */
static int rate_rule(const struct hl_rule *r, unsigned port,
                     const struct hl_need *need, struct doc *d)
{
	char text[256], cmd[sizeof(r->spec) + 64], fix[sizeof(cmd) + 96];
	json_t *ev = NULL;

	hostlim_rule_text(r, text, sizeof(text));
	if (r->tool[0] != '\0')
		snprintf(cmd, sizeof(cmd), "%s -D %s", r->tool, r->spec);
	else
		snprintf(cmd, sizeof(cmd), "nft delete rule %s %s %s handle %ld",
		         r->family, r->table, r->chain, r->handle);
	snprintf(fix, sizeof(fix),
	         "%s (or raise its %s to at least %lld%s)", cmd,
	         r->kind == HL_CT_COUNT ? "count" : "rate",
	         (long long)HL_RATE_PER_NODE *
	             (r->per_source ? 1 : nodes_of(need)),
	         r->kind == HL_CT_COUNT ? "" : "/second");
	if (evidence_add(&ev, "nft -j list ruleset",
	                 "%s %s %s handle %ld: %s", r->family, r->table,
	                 r->chain, r->handle, text) < 0 ||
	    evidence_add(&ev, "cluster",
	                 "%lld nodes open connections to port %u at once",
	                 nodes_of(need), port) < 0)
		goto nomem;
	if (doc_add_finding(
	        d, FINDING_CONN_RATE_LIMIT, -1, ev, fix,
	        "table %s %s, chain %s, handle %ld %s connections to port %u "
	        "(%s): some SYNs pass and others are dropped, which looks "
	        "like a flaky firewall",
	        r->family, r->table, r->chain, r->handle,
	        r->kind == HL_CT_COUNT ? "caps the open" : "rate-limits new",
	        port, text) < 0)
		return -1;
	return doc_finding_command(d, cmd);
nomem:
	json_decref(ev);
	return -1;
}

/* See decide_hostlim.h. */
int decide_host_limits(const struct host_limits *l, const struct hl_need *n,
                       struct doc *d)
{
	unsigned port;

	if (port_range(l, d) < 0 || backlog(l, n, d) < 0)
		return -1;
	for (size_t i = 0; i < l->nrules; i++)
		if (limits_below(&l->rules[i], n) &&
		    job_port(&l->rules[i], l, n, &port) &&
		    rate_rule(&l->rules[i], port, n, d) < 0)
			return -1;
	return 0;
}
