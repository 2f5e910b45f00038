/* MASTER_ADDR that names a member other than rank 0 (issue 48): torch's
 * store and every launcher's rendezvous live on rank 0, so a node whose
 * MASTER_ADDR resolves to another member (or to itself, when it is not
 * rank 0) waits on a store nobody serves. Judged on the node from its own
 * lookups: the address its MASTER_ADDR resolved to against the addresses
 * it resolved the members' names to. An address no member was resolved
 * to (rank 0's second NIC, a virtual IP) is not judged. */
#include "decide/decide.h"

#include <stdio.h>
#include <string.h>

/* The fault: MASTER_ADDR on this node at `who` (a member's name, or "this
 * node"), not at rank 0 (name r0). */
static int wrong(const struct scan_env *e, const struct master_info *m,
                 const char *who, const char *r0, const char *r0addr,
                 struct doc *d)
{
	json_t *ev = NULL;
	char cmd[320], fix[640];

	evidence_add(&ev, "environment", "MASTER_ADDR=%s (%s)", e->master_addr,
	             m->str);
	evidence_add(&ev, "resolver", "%s resolves to %s here",
	             strcmp(who, "this node") == 0 ? "this node's own address"
	                                           : who,
	             m->str);
	evidence_add(&ev, "mesh", "rank 0 is %s%s%s%s", r0,
	             r0addr != NULL ? " (" : "", r0addr != NULL ? r0addr : "",
	             r0addr != NULL ? ")" : "");
	snprintf(cmd, sizeof(cmd), "export MASTER_ADDR=%s", r0);
	/* the fix starts NAME=VALUE: a setting of the node's own, which
	 * leaves no pair undecided */
	snprintf(fix, sizeof(fix),
	         "MASTER_ADDR=%s (rank 0) in the job's environment on this "
	         "node, as on the others: %s",
	         r0, cmd);
	if (doc_add_finding(d, FINDING_RANK_UNREACHABLE, SEV_FAULT, ev, fix,
	                    "MASTER_ADDR=%s on this node points at %s (%s), "
	                    "not at rank 0 (%s): its ranks wait for a store "
	                    "that is not there",
	                    e->master_addr, who, m->str, r0) < 0 ||
	    doc_finding_command(d, cmd) < 0)
		return -1;
	return 0;
}

/* See decide.h. */
int decide_master_rank0(const struct scan_env *e, const struct master_info *m,
                        const struct iface_list *l, int rank, const char *r0,
                        const char *r0addr, const struct peer_verdict *peers,
                        size_t n, struct doc *d)
{
	char who[256];

	if (e->master_addr == NULL || *e->master_addr == '\0' || !m->resolved ||
	    r0 == NULL || *r0 == '\0' || rank < 0)
		return 0;
	if (rank != 0) {
		if (r0addr == NULL || strcmp(m->str, r0addr) == 0)
			return 0; /* rank 0's, or cannot tell */
		if (decide_addr_is_local(l, m->family, m->addr))
			return wrong(e, m, "this node", r0, r0addr, d);
	} else if (decide_addr_is_local(l, m->family, m->addr)) {
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if (strcmp(peers[i].peer_addr, m->str) == 0 &&
		    (r0addr == NULL ||
		     strcmp(peers[i].peer_addr, r0addr) != 0)) {
			/* the member's name, without the port */
			snprintf(who, sizeof(who), "%s", peers[i].peer);
			if (strrchr(who, ':') != NULL &&
			    strchr(who, ']') == NULL &&
			    strchr(who, ':') == strrchr(who, ':'))
				*strrchr(who, ':') = '\0';
			return wrong(e, m, who, r0, r0addr, d);
		}
	return 0;
}
