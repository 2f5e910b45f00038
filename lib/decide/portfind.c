/* The findings of `netprobe ports`: which ports fail and why, and the
 * firewall commands that open them. A pure decider over port results. */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/portfind.h"

#define EVIDENCE_MAX 32 /* evidence entries per finding, then a count */

enum pick {
	PICK_CLOSED,
	PICK_FILTERED,
	PICK_PROHIBITED,
	PICK_UNREACHABLE,
	PICK_LOOPBACK,
	PICK_EPHEMERAL_FAIL,
	PICK_NOT_OPEN,
};

/* The ports of one finding, split by protocol, ascending. */
struct group {
	uint16_t *tcp, *udp;
	size_t ntcp, nudp;
	const struct port_result **rs; /* the results, for evidence */
	size_t nrs;
};

/* An ephemeral sample that did not connect. */
static bool eph_failed(const struct port_result *r)
{
	return (r->flags & PSPEC_F_EPHEMERAL) &&
	       (r->state == PORT_FILTERED || r->state == PORT_PROHIBITED ||
		r->state == PORT_CLOSED);
}

/* Whether r belongs to the group; ephemeral samples go to their own
 * finding when excl_eph is set. */
static bool picked(const struct port_result *r, enum pick p, bool excl_eph)
{
	if (excl_eph && eph_failed(r) && p != PICK_EPHEMERAL_FAIL)
		return false;
	switch (p) {
	case PICK_CLOSED:
		return r->state == PORT_CLOSED && !r->loopback_only;
	case PICK_FILTERED:
		return r->state == PORT_FILTERED;
	case PICK_PROHIBITED:
		return r->state == PORT_PROHIBITED;
	case PICK_UNREACHABLE:
		return r->state == PORT_UNREACHABLE;
	case PICK_LOOPBACK:
		return r->loopback_only;
	case PICK_EPHEMERAL_FAIL:
		return eph_failed(r);
	case PICK_NOT_OPEN:
		return r->state != PORT_OPEN && r->state != PORT_UNKNOWN;
	}
	return false;
}

/* qsort order for port numbers. */
static int cmp_u16(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* Frees a group and zeroes it. */
static void group_free(struct group *g)
{
	free(g->tcp);
	free(g->udp);
	free(g->rs);
	memset(g, 0, sizeof(*g));
}

/* Collects the picked results. Returns 0, or -1 on no memory. */
static int group_fill(struct group *g, const struct port_result *r, size_t n,
		      enum pick p, bool excl_eph)
{
	memset(g, 0, sizeof(*g));
	g->tcp = malloc((n ? n : 1) * sizeof(*g->tcp));
	g->udp = malloc((n ? n : 1) * sizeof(*g->udp));
	g->rs = malloc((n ? n : 1) * sizeof(*g->rs));
	if (g->tcp == NULL || g->udp == NULL || g->rs == NULL) {
		group_free(g);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!picked(&r[i], p, excl_eph))
			continue;
		if (r[i].proto == IPPROTO_UDP)
			g->udp[g->nudp++] = r[i].port;
		else
			g->tcp[g->ntcp++] = r[i].port;
		g->rs[g->nrs++] = &r[i];
	}
	qsort(g->tcp, g->ntcp, sizeof(*g->tcp), cmp_u16);
	qsort(g->udp, g->nudp, sizeof(*g->udp), cmp_u16);
	return 0;
}

/* "29500/tcp, 4789/udp" for a summary; a malloc'd string or NULL. */
static char *group_list(const struct group *g)
{
	char *t = NULL, *u = NULL, *out = NULL;

	if (g->ntcp)
		t = portspec_ranges(g->tcp, g->ntcp, "", ", ", "-", "/tcp");
	if (g->nudp)
		u = portspec_ranges(g->udp, g->nudp, "", ", ", "-", "/udp");
	if ((g->ntcp && t == NULL) || (g->nudp && u == NULL) ||
	    asprintf(&out, "%s%s%s", t ? t : "", t && u ? ", " : "",
		     u ? u : "") < 0)
		out = NULL;
	free(t);
	free(u);
	return out;
}

/* The commands that open the group's ports on `where`, for nftables, ufw
 * and firewalld; a malloc'd string or NULL. */
static char *open_cmds(const struct group *g, const char *where)
{
	const char *pn[2] = {"tcp", "udp"};
	const uint16_t *ports[2] = {g->tcp, g->udp};
	size_t np[2] = {g->ntcp, g->nudp};
	char *buf = NULL, *nft[2] = {0}, *ufw[2] = {0}, *fwd[2] = {0};
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	bool ok = fp != NULL;

	for (int k = 0; k < 2 && ok; k++) {
		char suf[8];

		if (np[k] == 0)
			continue;
		snprintf(suf, sizeof(suf), "/%s", pn[k]);
		nft[k] = portspec_ranges(ports[k], np[k], "", ", ", "-", "");
		ufw[k] = portspec_ranges(ports[k], np[k], "ufw allow ", "; ",
					 ":", suf);
		fwd[k] = portspec_ranges(ports[k], np[k], "--add-port=", " ",
					 "-", suf);
		ok = nft[k] && ufw[k] && fwd[k];
	}
	if (ok) {
		/* one sentence per firewall: never alternatives joined
		 * with '|', which a shell reads as a pipeline */
		fprintf(fp, "on %s open them, with nftables: `", where);
		for (int k = 0; k < 2; k++)
			if (np[k])
				fprintf(fp, "%snft insert rule inet filter "
					    "input %s dport { %s } accept",
					k && np[0] ? "; " : "", pn[k], nft[k]);
		fprintf(fp, "`. With ufw: `");
		for (int k = 0; k < 2; k++)
			if (np[k])
				fprintf(fp, "%s%s", k && np[0] ? "; " : "",
					ufw[k]);
		fprintf(fp, "`. With firewalld: `firewall-cmd --permanent");
		for (int k = 0; k < 2; k++)
			if (np[k])
				fprintf(fp, " %s", fwd[k]);
		fprintf(fp, " && firewall-cmd --reload`.");
	}
	for (int k = 0; k < 2; k++) {
		free(nft[k]);
		free(ufw[k]);
		free(fwd[k]);
	}
	if (fp != NULL && fclose(fp) != 0)
		ok = false;
	if (!ok) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* One evidence fact per port, bounded. */
static json_t *group_evidence(const struct group *g, const char *dir)
{
	json_t *ev = json_array();

	for (size_t i = 0; ev != NULL && i < g->nrs; i++) {
		const struct port_result *r = g->rs[i];
		const char *source = dir[0] ? "connect-back"
				     : r->proto == IPPROTO_UDP
					     ? "udp to a responder listener"
				     : r->flags & PSPEC_F_SAMPLE
					     ? "tcp connect to a responder "
					       "listener"
					     : "tcp connect";

		if (i == EVIDENCE_MAX) {
			evidence_add(&ev, source, "and %zu more ports",
				     g->nrs - i);
			break;
		}
		if (r->loopback_only)
			evidence_add(&ev, "/proc/net/tcp",
				     "%u/tcp: listener bound to loopback only",
				     r->port);
		else
			evidence_add(&ev, source, "%s%u/%s %s: %s%s%s", dir,
				     r->port, portspec_proto_name(r->proto),
				     port_state_name(r->state), r->reason,
				     r->icmp_from[0] ? " from " : "",
				     r->icmp_from);
	}
	return ev;
}

/* Adds one finding for the picked results when there are any. */
static int add_group(struct doc *d, const struct port_result *r, size_t n,
		     enum pick p, bool excl_eph, enum finding_code code,
		     const char *where, const char *dir, const char *what,
		     bool fix_is_open, const char *fix_text)
{
	struct group g;
	char *list = NULL, *fix = NULL;
	int rc = -1;

	if (group_fill(&g, r, n, p, excl_eph) < 0)
		return -1;
	if (g.nrs == 0) {
		group_free(&g);
		return 0;
	}
	list = group_list(&g);
	if (list == NULL)
		goto out;
	if (fix_is_open) {
		char *cmds = open_cmds(&g, where);

		if (cmds == NULL ||
		    asprintf(&fix, "%s%s%s", cmds, fix_text ? "; " : "",
			     fix_text ? fix_text : "") < 0)
			fix = NULL;
		free(cmds);
	} else if (fix_text != NULL) {
		fix = strdup(fix_text);
	}
	if ((fix_is_open || fix_text) && fix == NULL)
		goto out;
	rc = doc_add_finding(d, code, -1,
			     group_evidence(&g, dir),
			     fix, "%zu port%s %s %s: %.600s%s", g.nrs,
			     g.nrs == 1 ? "" : "s", what, where, list,
			     strlen(list) > 600 ? "..." : "");
out:
	free(list);
	free(fix);
	group_free(&g);
	return rc;
}

/* The lowest and highest ephemeral samples: the ends of the range. */
static bool eph_range(const struct port_result *r, size_t n, unsigned *lo,
		      unsigned *hi)
{
	bool any = false;

	*lo = 65535;
	*hi = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(r[i].flags & PSPEC_F_EPHEMERAL))
			continue;
		any = true;
		if (r[i].port < *lo)
			*lo = r[i].port;
		if (r[i].port > *hi)
			*hi = r[i].port;
	}
	return any;
}

/* ephemeral-range-blocked for one direction, when fixed ports passed. */
static int add_ephemeral(struct doc *d, const struct port_result *r,
			 size_t n, const char *where, const char *dir,
			 unsigned range_lo, unsigned range_hi)
{
	unsigned lo, hi;
	char fix[768];
	struct group g;
	char *list;
	int rc;

	if (!eph_range(r, n, &lo, &hi))
		return 0;
	if (range_lo > 0 && range_lo <= lo && hi <= range_hi) {
		lo = range_lo;
		hi = range_hi;
	}
	if (group_fill(&g, r, n, PICK_EPHEMERAL_FAIL, true) < 0)
		return -1;
	if (g.nrs == 0) {
		group_free(&g);
		return 0;
	}
	list = group_list(&g);
	snprintf(fix, sizeof(fix),
		 "on %s open the ephemeral range, with nftables: `nft "
		 "insert rule inet filter input tcp dport %u-%u accept`. "
		 "With ufw: `ufw allow %u:%u/tcp`. With firewalld: "
		 "`firewall-cmd --permanent --add-port=%u-%u/tcp && "
		 "firewall-cmd --reload`. Or narrow the range first "
		 "(`sysctl -w net.ipv4.ip_local_port_range='50000 51000'`) "
		 "and open that",
		 where, lo, hi, lo, hi, lo, hi);
	rc = doc_add_finding(
		d, FINDING_EPHEMERAL_RANGE_BLOCKED, -1,
		group_evidence(&g, dir),
		fix,
		"fixed ports pass but samples of the ephemeral range %u-%u "
		"on %s fail (%s): NCCL, Gloo and torch listen there",
		lo, hi, where, list ? list : "?");
	free(list);
	group_free(&g);
	return rc;
}

/* True when a fixed (not sampled) port in r is open. */
static bool fixed_open(const struct port_result *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(r[i].flags & PSPEC_F_SAMPLE) && r[i].state == PORT_OPEN)
			return true;
	return false;
}

/* Nothing answered and the next hop's ARP/ND entry failed: one
 * host-unreachable that says so, and the inbound results as usual. */
static int no_host(struct doc *d, const struct ports_target *t,
		   const char *where, const struct port_result *in,
		   size_t nin)
{
	const char *hop = t->next_hop && t->next_hop[0] ? t->next_hop : where;
	bool direct = strcmp(hop, where) == 0;
	json_t *ev = json_array();
	char fix[512];

	json_array_append_new(
		ev, json_pack("{s:s, s:s}", "fact",
			      "no port answered: no SYN-ACK, RST or ICMP from "
			      "the host",
			      "source", "tcp connect"));
	json_array_append_new(
		ev, json_pack("{s:s+++, s:s}", "fact", "neighbour entry of ",
			      hop, ": ", t->neigh_state ? t->neigh_state : "?",
			      "source", "netlink RTM_GETNEIGH"));
	snprintf(fix, sizeof(fix),
		 "check that %s is the right address and that the host is up "
		 "on this link (ip neigh show %s; ping %s): no firewall rule "
		 "explains a host that does not answer ARP/ND",
		 where, hop, hop);
	if (doc_add_finding(d, FINDING_HOST_UNREACHABLE, -1, ev, fix,
			    "no host answers %s%s (%s failed for %s): nothing "
			    "owns the address, or the host is down",
			    direct ? "at " : "toward ", where,
			    strchr(hop, ':') ? "ND" : "ARP", hop) < 0)
		return -1;
	if (nin == 0)
		return 0;
	return add_group(d, in, nin, PICK_NOT_OPEN, fixed_open(in, nin),
			 FINDING_INBOUND_BLOCKED, "this host", "inbound ",
			 "cannot be reached inbound from the peer on", true,
			 "or use host networking, or advertise a reachable "
			 "address (ray start --node-ip-address)");
}

/* One finding per failure kind, ephemeral and inbound last; returns 0, or
 * -1 on no memory. */
int ports_decide(struct doc *d, const struct ports_target *t,
		 const struct port_result *out, size_t nout,
		 const struct port_result *in, size_t nin)
{
	const char *where = t->addr && t->addr[0] ? t->addr : t->host;
	char ufix[512];
	bool eph_out, eph_in;

	if (t->no_host)
		return no_host(d, t, where, in, nin);
	/* the responder's own port counts as a fixed port that passed */
	eph_out = t->responder || fixed_open(out, nout);
	eph_in = fixed_open(in, nin);
	snprintf(ufix, sizeof(ufix),
		 "check the address and the route toward it: ip route get %s; "
		 "ip neigh show %s",
		 where, where);
	if (add_group(d, out, nout, PICK_LOOPBACK, false,
		      FINDING_LISTENER_LOOPBACK_ONLY, where, "",
		      "bound to loopback only on", false,
		      "bind the service to 0.0.0.0 or the address peers use "
		      "(e.g. --host 0.0.0.0, --bind, listen-address)") < 0 ||
	    (t->held ? add_group(d, out, nout, PICK_CLOSED, eph_out,
				 FINDING_PORT_CLOSED, where, "",
				 "rejected with a reset (its responder holds "
				 "them, so a firewall rejects them) on",
				 true, NULL)
		     : add_group(d, out, nout, PICK_CLOSED, eph_out,
				 FINDING_PORT_CLOSED, where, "",
				 "refused (nothing listens) on", false,
				 "start the service or check its port; a "
				 "firewall rule 'reject with tcp reset' looks "
				 "the same (nft list ruleset | grep "
				 "reset)")) < 0 ||
	    add_group(d, out, nout, PICK_FILTERED, eph_out, FINDING_PORT_FILTERED,
		      where, "", "unanswered (dropped) on", true, NULL) < 0 ||
	    add_group(d, out, nout, PICK_PROHIBITED, eph_out,
		      FINDING_PORT_PROHIBITED, where, "",
		      "rejected with ICMP administratively prohibited by",
		      true, NULL) < 0 ||
	    add_group(d, out, nout, PICK_UNREACHABLE, false,
		      FINDING_HOST_UNREACHABLE, where, "",
		      "unreachable (no route, or no answer to ARP) on",
		      false, ufix) < 0)
		return -1;
	if (eph_out &&
	    add_ephemeral(d, out, nout, where, "", t->eph_lo, t->eph_hi) < 0)
		return -1;
	if (nin == 0)
		return 0;
	if (eph_in &&
	    add_ephemeral(d, in, nin, "this host", "inbound ", 0, 0) < 0)
		return -1;
	return add_group(d, in, nin, PICK_NOT_OPEN, eph_in, FINDING_INBOUND_BLOCKED,
			 "this host", "inbound ",
			 "cannot be reached inbound from the peer on", true,
			 "or use host networking, or advertise a reachable "
			 "address (ray start --node-ip-address)");
}
