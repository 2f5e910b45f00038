/* The findings of `netprobe ports`: which ports fail and why, and the
 * firewall commands that open them. A pure decider over port results. */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/fwcmd.h"
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
	PICK_SYNACK_LOST,
	PICK_CLOSED_HELD, /* --before-job: reset while the responder listened */
	PICK_CLOSED_FREE, /* --before-job: reset, no responder listened */
	PICK_UNUSED,      /* --before-job: a fixed port reached through the
			   * responder's listener: nothing listens yet */
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
	return (r->flags & PSPEC_F_EPHEMERAL) && !r->synack_lost &&
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
		return r->state != PORT_OPEN && r->state != PORT_UNKNOWN &&
		       !r->synack_lost;
	case PICK_SYNACK_LOST:
		return r->synack_lost;
	case PICK_CLOSED_HELD:
		return r->state == PORT_CLOSED && !r->loopback_only && r->held;
	case PICK_CLOSED_FREE:
		return r->state == PORT_CLOSED && !r->loopback_only &&
		       !r->held;
	case PICK_UNUSED:
		return r->state == PORT_OPEN && r->held &&
		       !(r->flags & PSPEC_F_SAMPLE);
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

/* The nftables part of a fix: for this host with its ruleset read, the
 * accepts inserted before the rules that drop each run of ports
 * (fwcmd_ruleset_cmds); else, or for ports nothing there drops, the
 * sentence that says why no command can be written and how to find out.
 * Written to fp. Returns 0, or -1 on no memory. */
static int nft_part(FILE *fp, const uint16_t *const ports[2],
		    const size_t np[2], const char *where, const char *noun,
		    bool local, const json_t *rs)
{
	const char *pn[2] = {"tcp", "udp"};
	bool read = local && fwcmd_ruleset_read(rs);
	json_t *cmds = json_object(), *v;
	char *left[2] = {0}, why[192];
	uint16_t *miss[2] = {0};
	size_t nmiss[2] = {0, 0}, i;
	int rc = -1;

	if (cmds == NULL)
		return -1;
	for (int k = 0; k < 2; k++) {
		miss[k] = malloc((np[k] ? np[k] : 1) * sizeof(*miss[k]));
		if (miss[k] == NULL)
			goto out;
		for (size_t a = 0; a < np[k];) {
			struct fw_rule r = {.lo = ports[k][a]};
			size_t b = a;
			int n = 0;

			/* a run of consecutive ports, one command */
			while (b + 1 < np[k] && ports[k][b + 1] <= ports[k][b] + 1)
				b++;
			r.hi = ports[k][b];
			snprintf(r.proto, sizeof(r.proto), "%s", pn[k]);
			if (read && (n = fwcmd_ruleset_cmds(rs, &r, cmds)) < 0)
				goto out;
			for (; n == 0 && a <= b; a++)
				miss[k][nmiss[k]++] = ports[k][a];
			a = b + 1;
		}
	}
	fprintf(fp, "on %s open %s", where, noun);
	if (json_array_size(json_object_get(cmds, "nftables")) +
		    json_array_size(json_object_get(cmds, "iptables-legacy")) >
	    0) {
		bool legacy = json_object_get(cmds, "iptables-legacy") != NULL;

		fprintf(fp, ", with %s: `",
			legacy ? "iptables-legacy" : "nftables");
		json_array_foreach(json_object_get(cmds, legacy
							 ? "iptables-legacy"
							 : "nftables"),
				   i, v)
			fprintf(fp, "%s%s", i ? "; " : "", json_string_value(v));
		fprintf(fp, "`");
	}
	if (nmiss[0] + nmiss[1] > 0) {
		for (int k = 0; k < 2; k++)
			if (nmiss[k] > 0 &&
			    (left[k] = portspec_ranges(miss[k], nmiss[k], "",
						       ", ", "-", "")) == NULL)
				goto out;
		if (read)
			snprintf(why, sizeof(why),
				 "no rule or drop policy of this host's "
				 "ruleset drops them (a firewall on the way "
				 "may)");
		else
			fwcmd_why_unknown(local ? rs : NULL,
					  local ? NULL : where, why,
					  sizeof(why));
		/* never a guessed table: `inet filter input` fails where the
		 * drop lives elsewhere, and changes nothing beside one */
		fprintf(fp, ". With nftables, cannot tell which table drops ");
		for (int k = 0; k < 2; k++)
			if (nmiss[k] > 0)
				fprintf(fp, "%s%s/%s", k && nmiss[0] ? ", " : "",
					left[k], pn[k]);
		fprintf(fp, ", because %s: run `nft -a list ruleset`%s%s as "
			    "root and insert an accept before the rule that "
			    "drops them (nft insert rule FAMILY TABLE CHAIN "
			    "position HANDLE ",
			why, local ? "" : " on ", local ? "" : where);
		for (int k = 0; k < 2; k++)
			if (nmiss[k] > 0)
				fprintf(fp, "%s%s dport { %s } accept",
					k && nmiss[0] ? "; " : "", pn[k],
					left[k]);
		fprintf(fp, ")");
	}
	rc = 0;
out:
	for (int k = 0; k < 2; k++) {
		free(miss[k]);
		free(left[k]);
	}
	json_decref(cmds);
	return rc;
}

/* The commands that open the group's ports on `where` (local: this host,
 * whose ruleset rs is, NULL unread), for nftables against the ruleset,
 * ufw and firewalld where their service runs or nobody knows; a malloc'd
 * string or NULL. */
static char *open_cmds(const uint16_t *const ports[2], const size_t np[2],
		       const char *where, const char *noun, bool local,
		       const json_t *rs)
{
	const char *pn[2] = {"tcp", "udp"};
	char *buf = NULL, *ufw[2] = {0}, *fwd[2] = {0};
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	bool ok = fp != NULL, read = local && fwcmd_ruleset_read(rs);
	bool has_ufw = !read || json_is_true(json_object_get(rs, "ufw"));
	bool has_fwd =
		!read || json_is_true(json_object_get(rs, "firewalld"));

	for (int k = 0; k < 2 && ok; k++) {
		char suf[8];

		if (np[k] == 0)
			continue;
		snprintf(suf, sizeof(suf), "/%s", pn[k]);
		ufw[k] = portspec_ranges(ports[k], np[k], "ufw allow ", "; ",
					 ":", suf);
		fwd[k] = portspec_ranges(ports[k], np[k], "--add-port=", " ",
					 "-", suf);
		ok = ufw[k] && fwd[k];
	}
	/* one sentence per firewall: never alternatives joined with '|',
	 * which a shell reads as a pipeline */
	if (ok)
		ok = nft_part(fp, ports, np, where, noun, local, rs) == 0;
	if (ok && has_ufw) {
		fprintf(fp, ". With ufw: `");
		for (int k = 0; k < 2; k++)
			if (np[k])
				fprintf(fp, "%s%s", k && np[0] ? "; " : "",
					ufw[k]);
		fprintf(fp, "`");
	}
	if (ok && has_fwd) {
		fprintf(fp, ". With firewalld: `firewall-cmd --permanent");
		for (int k = 0; k < 2; k++)
			if (np[k])
				fprintf(fp, " %s", fwd[k]);
		fprintf(fp, " && firewall-cmd --reload`");
	}
	if (ok)
		fprintf(fp, ".");
	for (int k = 0; k < 2; k++) {
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

/* Adds one finding of severity sev (-1: the code's) for the picked
 * results when there are any. */
static int add_group_sev(struct doc *d, const json_t *rs,
			 const struct port_result *r, size_t n, enum pick p,
			 bool excl_eph, enum finding_code code, int sev,
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
		const uint16_t *const ports[2] = {g.tcp, g.udp};
		const size_t np[2] = {g.ntcp, g.nudp};
		char *cmds = open_cmds(ports, np, where, "them", dir[0] != '\0',
				       rs);

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
	rc = doc_add_finding(d, code, sev,
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

/* Adds one finding of the code's own severity for the picked results. */
static int add_group(struct doc *d, const json_t *rs,
		     const struct port_result *r, size_t n,
		     enum pick p, bool excl_eph, enum finding_code code,
		     const char *where, const char *dir, const char *what,
		     bool fix_is_open, const char *fix_text)
{
	return add_group_sev(d, rs, r, n, p, excl_eph, code, -1, where, dir,
			     what, fix_is_open, fix_text);
}

/* Closed ports before the job (--before-job, issue 44): a reset while
 * the peer's responder listened there is a firewall's reject (a fault,
 * with the commands that open them); a reset with no responder listening
 * proves that the host answered and that nothing on the way drops the
 * port, but not that no rule rejects it with a reset, so it is a warning
 * that says how to tell (also where the responder could not listen: a
 * port below 1024 once it dropped root); a port reached through the responder's listener
 * is open to the job (info). Returns 0, or -1 on no memory. */
static int before_job(struct doc *d, const struct ports_target *t,
		      const struct port_result *out, size_t nout,
		      const char *where, bool eph_out)
{
	char fix[512];

	snprintf(fix, sizeof(fix),
		 "start the job and run this again; to tell a missing "
		 "listener from a rule that rejects with a reset now, run "
		 "netprobe serve on %s and this command again (its listener "
		 "settles it)",
		 where);
	if (add_group_sev(d, t->ruleset, out, nout, PICK_CLOSED_HELD, eph_out,
			  FINDING_PORT_CLOSED, -1, where, "",
			  "rejected with a reset while the responder listened "
			  "on them (a firewall rejects them) on",
			  true, NULL) < 0 ||
	    add_group_sev(d, t->ruleset, out, nout, PICK_CLOSED_FREE, eph_out,
			  FINDING_PORT_UNUSED, SEV_WARNING, where, "",
			  t->responder
				  ? "refused (nothing listens yet; the "
				    "responder could not listen there, so a "
				    "rule that rejects with a reset is not "
				    "ruled out) on"
				  : "refused (nothing listens yet, or a rule "
				    "rejects them with a reset; nothing drops "
				    "them on the way) on",
			  false, fix) < 0)
		return -1;
	return add_group_sev(d, t->ruleset, out, nout, PICK_UNUSED, false,
			     FINDING_PORT_UNUSED, SEV_INFO, where, "",
			     "free, nothing listens yet: start the job, the "
			     "path is open (the responder's listener was "
			     "reached) on",
			     false, "start the job");
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
static int add_ephemeral(struct doc *d, const json_t *rs,
			 const struct port_result *r,
			 size_t n, const char *where, const char *dir,
			 unsigned range_lo, unsigned range_hi)
{
	unsigned lo, hi;
	char *fix = NULL, *cmds = NULL;
	uint16_t *all;
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
	all = malloc((hi - lo + 1) * sizeof(*all));
	if (all != NULL) {
		const uint16_t *const ports[2] = {all, NULL};
		const size_t np[2] = {hi - lo + 1, 0};

		for (unsigned p = lo; p <= hi; p++)
			all[p - lo] = (uint16_t)p;
		cmds = open_cmds(ports, np, where, "the ephemeral range",
				 dir[0] != '\0', rs);
	}
	if (cmds == NULL ||
	    asprintf(&fix,
		     "%s Or narrow the range first (`sysctl -w "
		     "net.ipv4.ip_local_port_range='50000 51000'`) and open "
		     "that",
		     cmds) < 0)
		fix = NULL;
	free(all);
	free(cmds);
	if (fix == NULL) {
		free(list);
		group_free(&g);
		return -1;
	}
	rc = doc_add_finding(
		d, FINDING_EPHEMERAL_RANGE_BLOCKED, -1,
		group_evidence(&g, dir),
		fix,
		"fixed ports pass but samples of the ephemeral range %u-%u "
		"on %s fail (%s): NCCL, Gloo and torch listen there",
		lo, hi, where, list ? list : "?");
	free(fix);
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
	return add_group(d, t->ruleset, in, nin, PICK_NOT_OPEN, fixed_open(in, nin),
			 FINDING_INBOUND_BLOCKED, "this host", "inbound ",
			 "cannot be reached inbound from the peer on", true,
			 "or use host networking, or advertise a reachable "
			 "address (ray start --node-ip-address)");
}

/* reply-blocked: the peer's connect-backs reached this host and were
 * answered, but the answers never got back (probe/portrun.c saw our
 * kernel hold their SYNs half open). Opening this host's firewall would
 * change nothing, so the fix names the peer's side and the path. */
static int add_reply_blocked(struct doc *d, const struct ports_target *t,
			     const char *where, const struct port_result *in,
			     size_t nin)
{
	char *fix, range[32];
	int rc;

	if (t->eph_lo && t->eph_hi)
		snprintf(range, sizeof(range), "%u-%u", t->eph_lo, t->eph_hi);
	else
		snprintf(range, sizeof(range), "32768-60999 by default");
	if (asprintf(&fix,
		     "on %s, accept the replies to its own connections ahead "
		     "of the rule that drops its ephemeral range: a rule 'ct "
		     "state established,related accept' first in its input "
		     "chain ('nft -a list ruleset' on %s shows the chain); "
		     "with a stateless network ACL between the hosts, allow "
		     "TCP from this host to %s's ephemeral range (%s). This "
		     "host's firewall lets these ports in: opening it changes "
		     "nothing",
		     where, where, where, range) < 0)
		return -1;
	rc = add_group(d, t->ruleset, in, nin, PICK_SYNACK_LOST, false,
		       FINDING_REPLY_BLOCKED, where, "inbound ",
		       "reached from the peer and answered here, the answers "
		       "lost on the way back to",
		       false, fix);
	free(fix);
	return rc;
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
	if (add_group(d, t->ruleset, out, nout, PICK_LOOPBACK, false,
		      FINDING_LISTENER_LOOPBACK_ONLY, where, "",
		      "bound to loopback only on", false,
		      "bind the service to 0.0.0.0 or the address peers use "
		      "(e.g. --host 0.0.0.0, --bind, listen-address)") < 0 ||
	    (t->before_job
		     ? before_job(d, t, out, nout, where, eph_out)
	     : t->held
		     ? add_group(d, t->ruleset, out, nout, PICK_CLOSED, eph_out,
				 FINDING_PORT_CLOSED, where, "",
				 "rejected with a reset (its responder holds "
				 "them, so a firewall rejects them) on",
				 true, NULL)
		     : add_group(d, t->ruleset, out, nout, PICK_CLOSED, eph_out,
				 FINDING_PORT_CLOSED, where, "",
				 "refused (nothing listens) on", false,
				 "start the service or check its port; a "
				 "firewall rule 'reject with tcp reset' looks "
				 "the same (nft list ruleset | grep "
				 "reset)")) < 0 ||
	    add_group(d, t->ruleset, out, nout, PICK_FILTERED, eph_out, FINDING_PORT_FILTERED,
		      where, "", "unanswered (dropped) on", true, NULL) < 0 ||
	    add_group(d, t->ruleset, out, nout, PICK_PROHIBITED, eph_out,
		      FINDING_PORT_PROHIBITED, where, "",
		      "rejected with ICMP administratively prohibited by",
		      true, NULL) < 0 ||
	    add_group(d, t->ruleset, out, nout, PICK_UNREACHABLE, false,
		      FINDING_HOST_UNREACHABLE, where, "",
		      "unreachable (no route, or no answer to ARP) on",
		      false, ufix) < 0)
		return -1;
	if (eph_out &&
	    add_ephemeral(d, t->ruleset, out, nout, where, "", t->eph_lo, t->eph_hi) < 0)
		return -1;
	if (nin == 0)
		return 0;
	if (eph_in &&
	    add_ephemeral(d, t->ruleset, in, nin, "this host", "inbound ", 0, 0) < 0)
		return -1;
	if (add_reply_blocked(d, t, where, in, nin) < 0)
		return -1;
	return add_group(d, t->ruleset, in, nin, PICK_NOT_OPEN, eph_in, FINDING_INBOUND_BLOCKED,
			 "this host", "inbound ",
			 "cannot be reached inbound from the peer on", true,
			 "or use host networking, or advertise a reachable "
			 "address (ray start --node-ip-address)");
}
