/* The port decisions of one checked peer (peerdecide.h), shared by `scan
 * --peer` and `netprobe mesh`. */
#include "decide/peerdecide.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "decide/decide_path.h"
#include "decide/decide_peerprobe.h"
#include "decide/portfind.h"
#include "kernel/portrange.h"
#include "probe/portscan.h"
#include "wire/portstate.h"

/* The results of one direction ("inbound": connect-back, "outbound")
 * in a peer object as fw_results; the strings stay owned by obj. Returns
 * how many were filled. */
static size_t port_results(const json_t *obj, const char *dir,
                           struct fw_result *r, size_t cap)
{
	json_t *ports = json_object_get(obj, "ports"), *p;
	size_t i, n = 0;

	json_array_foreach(ports, i, p)
	{
		json_int_t port =
		    json_integer_value(json_object_get(p, "port"));
		const char *d =
		    json_string_value(json_object_get(p, "direction"));

		if (n >= cap || port <= 0 || port > 65535 || d == NULL ||
		    strcmp(d, dir) != 0)
			continue;
		r[n].port = (unsigned)port;
		r[n].proto = json_string_value(json_object_get(p, "proto"));
		r[n].state = json_string_value(json_object_get(p, "state"));
		r[n].reason = json_string_value(json_object_get(p, "reason"));
		/* a connect-back that came in and was answered here
		 * (reply-blocked): nothing to open on this node */
		if (r[n].reason != NULL &&
		    strcmp(r[n].reason, PORT_REASON_SYNACK_LOST) == 0)
			continue;
		if (r[n].proto != NULL && r[n].state != NULL)
			n++;
	}
	return n;
}

/* The failed connect-back checks: what to open on this node, and
 * ephemeral-range-blocked when only the ephemeral range failed. */
static int inbound(const struct peercheck *pc, unsigned eph_lo, unsigned eph_hi,
                   struct fw_plan *fw, struct doc *d)
{
	const struct peer_verdict *v = &pc->v;
	struct fw_result r[32];
	size_t n = port_results(pc->obj, "inbound", r, 32);
	char what[INET6_ADDRSTRLEN + 32];
	json_t *ev = NULL;

	/* Through NAT the connect-back reaches the NAT's address, not this
	 * process: its failures (or a success on whatever listens there)
	 * say nothing about a firewall here, and opening ports cannot help;
	 * nat-detected says what can. */
	if (v->nat == 1)
		return 0;
	snprintf(what, sizeof(what), "connect-back from %s", v->peer_addr);
	if (fwcmd_plan_results(fw, r, n, eph_lo, eph_hi, what, NULL) < 0)
		doc_add_error(d, "ports",
		              "cannot plan the ports to open "
		              "for peer '%s': too many",
		              v->peer);
	if (!fwcmd_ephemeral_only(r, n, eph_lo, eph_hi))
		return 0;
	for (size_t i = 0; i < n; i++)
		evidence_add(&ev, "connect-back", "%s -> port %u/%s: %s (%s)",
		             v->peer_addr, r[i].port, r[i].proto, r[i].state,
		             r[i].reason ? r[i].reason : "?");
	evidence_add(&ev, PORT_RANGE_PATH, "%u %u", eph_lo, eph_hi);
	if (doc_add_finding(
	        d, FINDING_EPHEMERAL_RANGE_BLOCKED, -1, ev, NULL,
	        "%s connects back to this host's fixed port but not "
	        "to its ephemeral ports %u-%u",
	        v->peer_addr, eph_lo, eph_hi) < 0)
		return -1;
	return 0;
}

/* The outbound connects: ports_decide's findings, and the failed ones as
 * ports to open on the peer. */
static int outbound(const struct peercheck *pc, struct fw_plan *fw,
                    struct doc *d)
{
	const struct peer_verdict *v = &pc->v;
	const struct ports_run *r = &pc->out;
	struct ports_target t = {v->peer,        r->addr,
	                         r->responder,   r->peer_lo,
	                         r->peer_hi,     r->next_hop,
	                         r->neigh_state, r->no_host,
	                         pc->ports_held, NULL};
	struct fw_result fr[32];
	char what[300];
	size_t n = 0;

	if (ports_decide(d, &t, r->out, r->nout, NULL, 0) < 0) {
		doc_add_error(d, "ports", "out of memory");
		return -1;
	}
	for (size_t i = 0; i < r->nout && n < 32; i++)
		if (r->out[i].state != PORT_UNKNOWN)
			fr[n++] = (struct fw_result){
			    r->out[i].port,
			    r->out[i].proto == IPPROTO_UDP ? "udp" : "tcp",
			    portscan_state_name(&r->out[i]), r->out[i].reason};
	/* the entry goes on the peer, whose evidence it becomes: inbound
	 * there, from this node's address */
	snprintf(what, sizeof(what), "inbound from %s",
	         v->local_addr[0] ? v->local_addr : "a peer");
	if (fwcmd_plan_results(fw, fr, n, r->peer_lo, r->peer_hi, what,
	                       v->peer_addr) < 0)
		doc_add_error(d, "ports",
		              "cannot plan the ports to open "
		              "for peer '%s': too many",
		              v->peer);
	return 0;
}

/* The link's loss and latency tail (issue 31): a warning naming the
 * link, never a fault. Loss needs at least LINK_LOSS_MIN echoes lost and
 * LINK_LOSS_PCT of them; the tail LINK_TAIL_US and LINK_TAIL_X times the
 * median, so that a loaded host's odd slow echo is no alarm. */
#define LINK_LOSS_MIN 3
#define LINK_LOSS_PCT 2.0
#define LINK_TAIL_US 250000LL
#define LINK_TAIL_X 20
static int link_decide(const struct peer_verdict *v, struct doc *d)
{
	double pct;
	json_t *ev = NULL;

	if (v->udp_sent < 20)
		return 0;
	pct = 100.0 * v->udp_lost / v->udp_sent;
	/* most echoes unanswered is UDP filtered on the way or there, not
	 * a lossy link: no figure from it */
	if (v->udp_lost >= LINK_LOSS_MIN && pct >= LINK_LOSS_PCT &&
	    2 * v->udp_lost < v->udp_sent) {
		evidence_add(&ev, "udp echo",
		             "%s -> %s: %d of %d echoes unanswered (%.1f %%)",
		             v->local_addr[0] ? v->local_addr : "this node",
		             v->peer_addr, v->udp_lost, v->udp_sent, pct);
		if (doc_add_finding(d, FINDING_LINK_LOSSY, -1, ev, NULL,
		                    "the link between this node (%s) and %s "
		                    "(%s) loses packets: %.1f %% of UDP echoes "
		                    "unanswered",
		                    v->local_addr[0] ? v->local_addr : "?",
		                    v->host[0] ? v->host : v->peer,
		                    v->peer_addr, pct) < 0)
			return -1;
	}
	ev = NULL;
	if (v->udp_sent > v->udp_lost && v->rtt_p99_us >= LINK_TAIL_US &&
	    v->rtt_p99_us >= LINK_TAIL_X * (v->rtt_p50_us > 0 ? v->rtt_p50_us
	                                                      : 1)) {
		evidence_add(&ev, "udp echo",
		             "%s -> %s: median %lld us, tail (p99) %lld us, "
		             "the hosts' own holding (at most %lld us) taken "
		             "out",
		             v->local_addr[0] ? v->local_addr : "this node",
		             v->peer_addr, v->rtt_p50_us, v->rtt_p99_us,
		             v->hosts_held_max_us);
		if (doc_add_finding(d, FINDING_LINK_SLOW, -1, ev, NULL,
		                    "the link between this node (%s) and %s "
		                    "(%s) has a long latency tail: p99 %lld ms, "
		                    "median %.1f ms",
		                    v->local_addr[0] ? v->local_addr : "?",
		                    v->host[0] ? v->host : v->peer,
		                    v->peer_addr, v->rtt_p99_us / 1000,
		                    v->rtt_p50_us / 1000.0) < 0)
			return -1;
	}
	return 0;
}

/* See peerdecide.h. */
int peercheck_decide(const struct peercheck *pc, unsigned eph_lo,
                     unsigned eph_hi, struct fw_plan *fw, struct doc *d)
{
	if (pc->obj == NULL || pc->rc != 0)
		return 0;
	if (peerprobe_decide(&pc->v, d) < 0 || link_decide(&pc->v, d) < 0 ||
	    (pc->path != NULL && path_decide(pc->path, d) < 0))
		return -1;
	if (inbound(pc, eph_lo, eph_hi, fw, d) < 0)
		return -1;
	return pc->out_ran ? outbound(pc, fw, d) : 0;
}

/* See peerdecide.h. */
int peercheck_decide_member(const struct peercheck *pc, const char *member,
                            unsigned port, struct doc *d)
{
	const struct peer_verdict *v = &pc->v;
	const char *err = json_string_value(json_object_get(pc->obj, "error"));
	enum finding_code code;
	const char *how;
	char fix[512];
	json_t *ev = NULL;
	int e = v->connect_errno;

	if (pc->rc != 1)
		return 0;
	/* its responder answered and said why it would not serve us (its
	 * table full): no path is at fault, and no fix applies */
	if (v->turned_away) {
		if (doc_add_error(d, "peer",
		                  "%s (%s:%u): its responder turned us away, "
		                  "not the network: %s",
		                  member, v->peer_addr[0] ? v->peer_addr : "?",
		                  port, err != NULL ? err : "no reason") < 0 &&
		    errno == ENOMEM)
			return -1;
		return 0;
	}
	if (e == ETIMEDOUT) {
		code = FINDING_PORT_FILTERED;
		how = "time out: a firewall or NAT on the way drops them";
	} else if (e == ECONNREFUSED) {
		code = FINDING_PORT_CLOSED;
		how = "are refused: something between answers for it with a "
		      "reset";
	} else if (e == EHOSTUNREACH || e == ENETUNREACH) {
		code = FINDING_HOST_UNREACHABLE;
		how = "find no route to it";
	} else {
		code = FINDING_RANK_UNREACHABLE;
		how = "get no answer from its responder";
	}
	evidence_add(&ev, "connect", "%s -> %s (%s:%u): %s",
	             v->local_addr[0] ? v->local_addr : "this node", member,
	             v->peer_addr[0] ? v->peer_addr : "?", port,
	             err != NULL ? err : "no answer");
	evidence_add(&ev, "mesh",
	             "%s joined node 0's rendezvous, so its responder runs "
	             "on port %u",
	             member, port);
	snprintf(fix, sizeof(fix),
	         "let TCP port %u through from this node to %s (%s): its "
	         "firewall, a NAT or the routing between drops it; if %s "
	         "runs in a container behind NAT, run it with host "
	         "networking",
	         port, member, v->peer_addr[0] ? v->peer_addr : "?", member);
	if (doc_add_finding(d, code, -1, ev, fix,
	                    "connections from this node to %s (%s:%u) %s",
	                    member, v->peer_addr[0] ? v->peer_addr : "?", port,
	                    how) < 0 &&
	    errno == ENOMEM)
		return -1;
	return 0;
}
