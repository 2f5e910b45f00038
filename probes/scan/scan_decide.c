/* netprobe scan's glue to the deciders: the recommendation and every
 * finding, from what the collection and the peers gathered. */
#include <stdlib.h>
#include <string.h>

#include "decide/decide_ecmp.h"
#include "decide/decide_hostlim.h"
#include "decide/decide_natredir.h"
#include "decide/decide_notrack.h"
#include "decide/decide_qdisc.h"
#include "decide/decide_xfrm.h"
#include "scan/scan_int.h"

/* The ports peers connect to besides the ephemeral range: torchrun's
 * rendezvous and the torch store (MASTER_PORT's default). */
static const unsigned job_ports[] = {29400, 29500};

/* The default routes' out interfaces, best first, the layering and the
 * peers' verdicts go in as they are. */
int scan_recommend(struct scan *s)
{
	const char *defs[SCAN_MAX_ROUTES];
	struct rec_input in;

	for (size_t i = 0; i < s->ndefaults; i++)
		defs[i] = s->defaults[i].out_interface;
	memset(&in, 0, sizeof(in));
	in.ifaces = &s->ifaces;
	in.layers = s->have_layers ? &s->ly : NULL;
	in.default_ifnames = defs;
	in.ndefault = s->ndefaults;
	in.peers = s->peers;
	in.npeers = s->npeers;
	in.routes_known = s->routes_known;
	if (recommend(&in, &s->rec) < 0)
		return cmd_fail(&s->run, "recommend", "out of memory", NULL,
		                NULL);
	return 0;
}

/* One multipath sysctl through the sysroot, -1 where unread. */
static int mpath_sysctl(const struct sysroot *sr, const char *path)
{
	long long v;

	return sysroot_read_ll(sr, path, &v) < 0 || v < 0 || v > 255 ? -1
	                                                          : (int)v;
}

/* The routing table's deciders over the peers and the members that did
 * not join (node 0 of a mesh), as one list. Returns 0, or -1 on no
 * memory. */
static int scan_route_drops(struct scan *s, const struct mpath_conf *mc)
{
	struct peer_verdict *all;
	int rc;

	if (s->nlost == 0)
		return decide_route_drops(s->peers, s->npeers, mc,
		                          &s->run.doc);
	if ((all = calloc(s->npeers + s->nlost, sizeof(*all))) == NULL)
		return -1;
	for (size_t i = 0; i < s->npeers; i++)
		all[i] = s->peers[i];
	for (size_t i = 0; i < s->nlost; i++)
		all[s->npeers + i] = s->lost[i];
	rc = decide_route_drops(all, s->npeers + s->nlost, mc, &s->run.doc);
	free(all);
	return rc;
}

/* qdisc-drops-frames on the interfaces that carry this node's traffic:
 * the chosen one and the peers' route interfaces (issue 48). */
static int scan_qdisc(struct scan *s)
{
	const char *carry[SCAN_MAX_PEERS + 1];
	size_t n = 0;

	if (s->rec.ifc != NULL)
		carry[n++] = s->rec.ifc->name;
	for (size_t i = 0; i < s->npeers && n < SCAN_MAX_PEERS + 1; i++)
		if (s->peers[i].local_ifname[0] != '\0')
			carry[n++] = s->peers[i].local_ifname;
	return decide_qdisc(s->qdiscs, &s->ifaces, carry, n, &s->run.doc);
}

/* The recommendation first: decide_mpi and decide_nccl_default judge
 * against it. NCCL_COMM_ID goes in resolved where the scan could. */
int scan_decide(struct scan *s)
{
	struct nccl_env ne;
	struct hl_need need = {s->env.nodes, job_ports, 2};
	unsigned seen;
	int refused;

	struct mpath_conf mc = {
	    mpath_sysctl(&s->sr, "/proc/sys/net/ipv4/fib_multipath_use_neigh"),
	    mpath_sysctl(&s->sr, "/proc/sys/net/ipv4/fib_multipath_hash_policy"),
	    mpath_sysctl(&s->sr,
	                 "/proc/sys/net/ipv6/fib_multipath_hash_policy")};

	if (scan_recommend(s) != 0)
		return 2;
	/* after a mesh's probing: what the listen counters did meanwhile */
	if (sysroot_is_live(&s->sr))
		hostlim_recount(&s->sr, &s->lim);
	scan_env_nccl(&s->env,
	              s->comm_id_numeric[0] ? s->comm_id_numeric : NULL, &ne);
	if ((s->have_layers && decide_layers(&s->ly, &s->ifaces, s->peers,
	                                     s->npeers, &s->run.doc) < 0) ||
	    decide_iface_state(&s->ifaces, &s->run.doc) < 0 ||
	    decide_rp_filter(&s->ifaces, &s->rpf, &s->run.doc) < 0 ||
	    decide_bridge_ports(&s->ifaces, s->defaults, s->ndefaults,
	                        &s->run.doc) < 0 ||
	    decide_noarp(&s->ifaces, s->statics, &s->run.doc) < 0 ||
	    decide_bridge_stuck(&s->ifaces, &s->run.doc) < 0 ||
	    decide_subnets(&s->ifaces, s->peers, s->npeers, &s->rec,
	                   &s->run.doc) < 0 ||
	    decide_peer_routes(&s->ifaces, s->peers, s->npeers, &s->run.doc) <
	        0 ||
	    decide_hostname(&s->host, &s->ifaces, &s->rec, &s->env,
	                    &s->run.doc) < 0 ||
	    decide_nccl_ifname(&s->env, &ne, &s->ifaces, &s->rec, &s->run.doc) <
	        0 ||
	    decide_gloo_ifname(&s->env, &s->ifaces, &s->run.doc) < 0 ||
	    decide_setting_reach(&s->env, &ne, &s->ifaces, s->peers, s->npeers,
	                         s->sreach, s->nsreach, &s->rec,
	                         &s->run.doc) < 0 ||
	    decide_setting_unreached(&s->env, &ne, &s->ifaces, s->peers,
	                             s->npeers, s->sreach, s->nsreach, &s->rec,
	                             &s->run.doc) < 0 ||
	    decide_comm_id(&s->env, &ne, &s->ifaces, &s->run.doc) < 0 ||
	    decide_master_addr(&s->env, &s->master, &s->ifaces, &s->run.doc) <
	        0 ||
	    decide_reach(s->adv, s->nadv, s->reach, s->nreach, s->peers,
	                 s->npeers, s->rec.ifc, &s->run.doc, &seen) < 0 ||
	    (refused = decide_mpi_lists(&s->env, &s->ifaces, &s->rec,
	                                &s->run.doc)) < 0)
		return cmd_fail(&s->run, "decide", "out of memory", NULL, NULL);
	/* a refused pair of lists or a proven unreachable address says
	 * more than the static check */
	if ((!refused && !(seen & ADV_BIT(ADV_MPI)) &&
	     decide_mpi(&s->env, &s->ifaces, &s->rec, &s->run.doc) < 0) ||
	    decide_nccl_default(&s->ifaces, &ne, &s->rec, &s->nccl,
	                        &s->run.doc) < 0 ||
	    decide_ipv6_link_local(&s->ifaces, &ne, &s->run.doc) < 0 ||
	    decide_host_limits(&s->lim, &need, &s->run.doc) < 0 ||
	    decide_notrack(s->fwrules, &s->run.doc) < 0 ||
	    decide_natredir(s->natredir, &s->lim, &s->run.doc) < 0 ||
	    decide_xfrm(s->xfrm, &s->ifaces, &s->run.doc) < 0 ||
	    scan_qdisc(s) < 0 ||
	    scan_route_drops(s, &mc) < 0 ||
	    scan_rdma_decide(s) < 0)
		return cmd_fail(&s->run, "decide", "out of memory", NULL, NULL);
	return 0;
}
