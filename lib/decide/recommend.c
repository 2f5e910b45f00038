/* The recommendation: which interface and address training frameworks
 * should use. A wrong answer is the worst bug this tool can have, so every
 * branch that lacks evidence answers "none, because ..." instead. */
#include "decide/recommend.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/decide.h"

/* Appends a reason; silently drops it past REC_MAX_REASONS. */
static void reason(struct recommendation *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void reason(struct recommendation *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nreasons >= REC_MAX_REASONS)
		return;
	va_start(ap, fmt);
	vsnprintf(r->reasons[r->nreasons++], REC_TEXT, fmt, ap);
	va_end(ap);
}

/* Records why an interface lost. Returns 0, or -1 on no memory. */
static int reject(struct recommendation *r, const char *ifname, const char *fmt,
                  ...) __attribute__((format(printf, 3, 4)));
static int reject(struct recommendation *r, const char *ifname, const char *fmt,
                  ...)
{
	struct rec_reject *x;
	va_list ap;

	if (r->nrejected == r->caprejected) {
		size_t cap = r->caprejected ? r->caprejected * 2 : 16;

		x = realloc(r->rejected, cap * sizeof(*x));
		if (x == NULL)
			return -1;
		r->rejected = x;
		r->caprejected = cap;
	}
	x = &r->rejected[r->nrejected++];
	snprintf(x->interface, sizeof(x->interface), "%s", ifname);
	va_start(ap, fmt);
	vsnprintf(x->reason, sizeof(x->reason), fmt, ap);
	va_end(ap);
	return 0;
}

/* Adds one setting. */
static void env_set(struct recommendation *r, const char *name,
                    const char *prefix, const char *value)
{
	if (r->nenv >= REC_MAX_ENV)
		return;
	snprintf(r->env[r->nenv].name, sizeof(r->env[r->nenv].name), "%s",
	         name);
	snprintf(r->env[r->nenv].value, sizeof(r->env[r->nenv].value), "%s%s",
	         prefix, value);
	r->nenv++;
}

/* Why an interface cannot carry traffic to other hosts at all, or NULL
 * when it is a candidate. */
static const char *not_candidate(const struct iface_list *l,
                                 const struct iface *ifc, char *buf, size_t len)
{
	if (decide_is_loopback(ifc))
		return "loopback";
	if (!(ifc->flags & IFF_UP))
		return "down";
	if (!(ifc->flags & IFF_RUNNING) || ifc->carrier == 0)
		return "up but not running (no carrier)";
	if (decide_is_container_bridge(l, ifc))
		return DECIDE_WHY_VETH_BRIDGE;
	if (decide_bridge_port_of(l, ifc) != NULL &&
	    decide_global_addr(ifc, AF_UNSPEC) != NULL) {
		/* bridge-port-addressed: its address receives nothing */
		snprintf(buf, len,
		         "a port of bridge %s, which takes every frame it "
		         "receives: its address receives nothing",
		         ifc->master);
		return buf;
	}
	if (decide_global_addr(ifc, AF_UNSPEC) == NULL) {
		if (ifc->master[0] != '\0') {
			snprintf(buf, len,
			         "a member of %s, which carries its traffic",
			         ifc->master);
			return buf;
		}
		return "no global address";
	}
	return NULL;
}

/* 0 for kinds that reach other hosts (physical, bond, vlan, IPoIB,
 * macvlan), 1 for software-only kinds. */
static int tier(const struct iface *ifc)
{
	return decide_is_virtual(ifc) ? 1 : 0;
}

/* The layering says peers cannot reach this process. */
static bool layers_nat(const struct layers *ly)
{
	if (ly == NULL)
		return false;
	return ly->reach == REACH_NAT || ly->reach == REACH_DOUBLE_NAT ||
	       ly->netmode == NETMODE_BRIDGE_NAT || ly->wsl == WSL_2_NAT ||
	       ly->wsl_container;
}

/* WSL2 in a networking mode that could not be determined: NAT is WSL2's
 * default, so no interface is recommended. */
static bool layers_undecided(const struct layers *ly)
{
	return ly != NULL && ly->reach == REACH_UNKNOWN &&
	       ly->wsl == WSL_2_UNKNOWN;
}

/* A container whose network mode was not decided: NAT is not ruled out,
 * but nothing shows it either (a routed container network, or a network
 * namespace that is not a container's). */
static bool layers_container_unknown(const struct layers *ly)
{
	return ly != NULL && ly->reach == REACH_UNKNOWN &&
	       ly->container != CONTAINER_NONE &&
	       ly->netmode == NETMODE_UNKNOWN;
}

/* What to change instead, for the layer found. */
static void nat_advice(struct recommendation *r, const struct layers *ly)
{
	if (ly != NULL &&
	    (ly->wsl_container || ly->reach == REACH_DOUBLE_NAT)) {
		reason(r, "a container inside WSL2 sits behind two NAT "
		          "layers: run the container with --network host "
		          "and set networkingMode=mirrored in "
		          "%%UserProfile%%\\.wslconfig, or run native Linux");
		return;
	}
	if (ly != NULL && ly->wsl == WSL_2_NAT) {
		reason(r, "WSL2 in NAT mode: set networkingMode=mirrored in "
		          "%%UserProfile%%\\.wslconfig and allow the ports in "
		          "the Hyper-V firewall, or run native Linux");
		return;
	}
	reason(r, "this process sits behind NAT (a container on a NAT'd "
	          "bridge): run the container with --network host, or give "
	          "it a routable address with macvlan or ipvlan");
}

/* Decides "none: behind NAT" and rejects every interface. */
static int choose_none_nat(const struct rec_input *in, struct recommendation *r)
{
	const struct iface_list *l = in->ifaces;

	r->none = REC_NONE_NAT;
	reason(r, "no interface can work: peers on other hosts cannot "
	          "connect to this process, and NCCL, Gloo and torch listen "
	          "on ephemeral ports that cannot be published or forwarded");
	nat_advice(r, in->layers);
	/* gloo/transport/tcp/device.cc, Device::isInitiator: the higher
	 * address of a pair connects; seen with torch 1.13 across one NAT:
	 * 172.17.0.2 against 10.231.72.2 worked, 10.88.0.2 hung */
	reason(r, "Gloo may still work where this address sorts above every "
	          "peer's (of each Gloo pair the higher address connects), "
	          "so the same job works on one cluster and hangs on "
	          "another; NCCL and Open MPI need connections both ways");
	for (size_t i = 0; i < l->n; i++) {
		const struct iface *ifc = &l->v[i];

		if (reject(r, ifc->name, "%s",
		           decide_is_loopback(ifc)
		               ? "loopback"
		               : "behind NAT: peers cannot connect to "
		                 "its address") < 0)
			return -1;
	}
	return 0;
}

/* Whether some peer whose route leaves by ifc can be reached through it.
 * False when every such peer went unanswered because of this node's own
 * route or link (decide_route_cause: t_deadnic's train0 set down, whose
 * peer's route falls back to mgmt0's default): settings pinning ifc would
 * pin the job to where no peer is. */
static bool reaches_any(const struct rec_input *in, const struct iface *ifc)
{
	bool cut = false;
	char buf[256];

	for (size_t i = 0; i < in->npeers; i++) {
		const struct peer_verdict *p = &in->peers[i];

		if (strcmp(p->local_ifname, ifc->name) != 0)
			continue;
		if (!p->responded &&
		    decide_route_cause(in->ifaces, p, buf, sizeof(buf)) != NULL) {
			cut = true;
			continue;
		}
		return true;
	}
	return !cut;
}

/* The peers decide: every peer's route must leave by the same candidate.
 * Returns the chosen interface, NULL with r->none set when the peers rule
 * every interface out, or NULL with r->none REC_CHOSEN when no peer gave
 * route evidence (all were this host). */
static const struct iface *choose_by_peers(const struct rec_input *in,
                                           const struct iface **cand,
                                           size_t ncand,
                                           struct recommendation *r)
{
	const struct iface *chosen = NULL;
	const struct peer_verdict *first = NULL;
	char buf[128];

	for (size_t i = 0; i < in->npeers; i++) {
		const struct peer_verdict *p = &in->peers[i];
		const struct iface *ifc;
		const char *why;
		bool is_cand = false;

		if (p->local_ifname[0] == '\0') {
			r->none = REC_NONE_PEERS;
			reason(r,
			       "no route toward peer %s: fix the routing "
			       "before choosing an interface",
			       p->peer);
			return NULL;
		}
		ifc = iface_by_name(in->ifaces, p->local_ifname);
		if (ifc != NULL && decide_is_loopback(ifc)) {
			reason(r,
			       "peer %s is this host (its route uses %s); "
			       "it does not decide",
			       p->peer, ifc->name);
			continue;
		}
		for (size_t k = 0; k < ncand; k++)
			if (cand[k] == ifc)
				is_cand = true;
		if (ifc == NULL || !is_cand) {
			why = ifc == NULL ? "it is not in the interface list"
			                  : not_candidate(in->ifaces, ifc, buf,
			                                  sizeof(buf));
			r->none = REC_NONE_PEERS;
			reason(r,
			       "the route toward peer %s leaves by %s, "
			       "which cannot be used: %s",
			       p->peer, p->local_ifname,
			       why != NULL ? why : "not a candidate");
			return NULL;
		}
		if (chosen != NULL && chosen != ifc) {
			r->none = REC_NONE_PEERS;
			reason(r,
			       "cannot tell: peers are reached through "
			       "different interfaces, %s (toward %s) and %s "
			       "(toward %s); fix the routes so that one "
			       "interface reaches every peer",
			       chosen->name, first->peer, ifc->name, p->peer);
			return NULL;
		}
		chosen = ifc;
		if (first == NULL)
			first = p;
	}
	if (chosen != NULL && !reaches_any(in, chosen)) {
		r->none = REC_NONE_PEERS;
		reason(r,
		       "the route toward the peers leaves by %s, which does "
		       "not reach them (host-unreachable): fix the route or "
		       "the interface that should carry them before choosing "
		       "one",
		       chosen->name);
		return NULL;
	}
	for (size_t i = 0; chosen != NULL && i < in->npeers; i++) {
		const struct peer_verdict *p = &in->peers[i];

		if (strcmp(p->local_ifname, chosen->name) != 0)
			continue;
		reason(r, "the route toward peer %s%s%s%s leaves by %s%s%s",
		       p->peer, p->peer_addr[0] ? " (" : "", p->peer_addr,
		       p->peer_addr[0] ? ")" : "", chosen->name,
		       p->local_addr[0] ? " from " : "", p->local_addr);
		if (p->nat == 0)
			reason(r,
			       "peer %s sees this node's address directly "
			       "(no NAT)",
			       p->peer);
		if (p->inbound == 1)
			reason(r, "peer %s connected back to this node",
			       p->peer);
		else if (peer_replies_lost(p))
			reason(r,
			       "peer %s's connections back to this node come "
			       "in, but this node's answers do not get back "
			       "(reply-blocked): fix the peer's side",
			       p->peer);
		else if (p->inbound == 0)
			reason(r,
			       "peer %s could not connect back to this "
			       "node: open the firewall (inbound-blocked) "
			       "before training",
			       p->peer);
	}
	return chosen;
}

/* The kind of a candidate in words, for reasons. */
static const char *kind_words(const struct iface *ifc)
{
	if (ifc->kind == IFK_UNKNOWN)
		return tier(ifc) ? "virtual" : "interface";
	return iface_kind_name(ifc->kind);
}

/* Without peers: the best kind, then the default route, else a tie. */
static const struct iface *choose_by_kind(const struct rec_input *in,
                                          const struct iface **cand,
                                          size_t ncand,
                                          struct recommendation *r)
{
	const struct iface *def = NULL, *best = NULL;
	size_t nbest = 0;
	int besttier = 2;

	for (size_t i = 0; i < ncand; i++)
		if (tier(cand[i]) < besttier)
			besttier = tier(cand[i]);
	for (size_t i = 0; i < ncand; i++) {
		if (tier(cand[i]) != besttier)
			continue;
		nbest++;
		if (best == NULL)
			best = cand[i];
	}
	for (size_t d = 0; d < in->ndefault && def == NULL; d++) {
		for (size_t i = 0; i < ncand; i++)
			if (strcmp(cand[i]->name, in->default_ifnames[d]) == 0)
				def = cand[i];
	}
	if (nbest == 1) {
		if (def == best)
			reason(r, "the default route leaves by %s", best->name);
		if (ncand == 1)
			reason(r,
			       "%s is the only interface that is up and "
			       "running with a global address",
			       best->name);
		else
			reason(r,
			       "%s is the only %s interface that is up and "
			       "running with a global address",
			       best->name,
			       besttier == 0 ? "non-virtual" : "usable");
		if (def != NULL && def != best)
			reason(r,
			       "the default route leaves by %s, a %s "
			       "interface; run with --peer HOST to let the "
			       "route toward the peers decide",
			       def->name, kind_words(def));
		return best;
	}
	if (def != NULL && tier(def) == besttier) {
		reason(r, "the default route leaves by %s", def->name);
		reason(r, "if the peers are on another interface's subnet, "
		          "run with --peer HOST: the route toward them "
		          "decides");
		return def;
	}
	{
		char names[REC_TEXT] = "";
		size_t used = 0, k = 0;

		for (size_t i = 0; i < ncand; i++) {
			int n;

			if (tier(cand[i]) != besttier)
				continue;
			n = snprintf(names + used, sizeof(names) - used, "%s%s",
			             k == 0           ? ""
			             : k + 1 == nbest ? " and "
			                              : ", ",
			             cand[i]->name);
			if (n < 0 || (size_t)n >= sizeof(names) - used)
				break;
			used += (size_t)n;
			k++;
		}
		r->none = REC_NONE_TIE;
		reason(r,
		       "cannot tell between %s: run with --peer HOST so "
		       "that the route toward the peers decides",
		       names);
		if (!in->routes_known)
			reason(r,
			       "the routes could not be read, so the default "
			       "route could not break the tie");
		else if (def == NULL)
			reason(r, "no default route leaves by one of them");
	}
	return NULL;
}

/* The address to advertise: the peers' route source when it is one of
 * the interface's global addresses, else its first global address. */
static const struct iface_addr *choose_addr(const struct rec_input *in,
                                            const struct iface *ifc)
{
	for (size_t i = 0; i < in->npeers; i++) {
		const struct peer_verdict *p = &in->peers[i];

		if (strcmp(p->local_ifname, ifc->name) != 0 ||
		    p->local_addr[0] == '\0')
			continue;
		for (int k = 0; k < ifc->naddrs; k++)
			if (strcmp(ifc->addrs[k].str, p->local_addr) == 0 &&
			    decide_addr_global(&ifc->addrs[k]))
				return &ifc->addrs[k];
	}
	return decide_global_addr(ifc, AF_UNSPEC);
}

/* The settings for the chosen interface, each with why. Only what is
 * right on this node is a setting: every variable named here is read by
 * its framework (NCCL: src/misc/socket.cc, ncclFindInterfaces; torch:
 * torch/csrc/distributed/c10d/init.cpp reads GLOO_SOCKET_IFNAME; Open MPI:
 * opal/mca/btl/tcp/btl_tcp_component.c registers btl_tcp_if_include, which
 * opal/mca/base/mca_base_var.c reads as OMPI_MCA_btl_tcp_if_include).
 * MASTER_ADDR is rank 0's address on every node, so it is no setting of
 * this node; Ray reads no variable for the node address (its only form is
 * `ray start --node-ip-address`, python/ray/scripts/scripts.py), and NCCL
 * takes an interface's IPv4 address before its IPv6 ones (getifaddrs
 * lists them first, src/os/linux.cc), so NCCL_SOCKET_FAMILY is not needed
 * for an interface that has one. */
static void settings(struct recommendation *r)
{
	const char *name = r->ifc->name, *addr = r->addr->str;

	env_set(r, "NCCL_SOCKET_IFNAME", "=", name);
	env_set(r, "GLOO_SOCKET_IFNAME", "", name);
	env_set(r, "OMPI_MCA_btl_tcp_if_include", "", name);
	reason(r,
	       "NCCL_SOCKET_IFNAME uses the exact '=' form so that no "
	       "other interface sharing the prefix %s is used",
	       name);
	reason(r,
	       "MASTER_ADDR is rank 0's address on every node: %s if "
	       "rank 0 runs here (netprobe scan --export --rank0 exports "
	       "it), else rank 0's",
	       addr);
	reason(r,
	       "Ray reads no variable for the node address: ray start "
	       "--node-ip-address=%s",
	       addr);
}

/* NAT first (no interface), then candidates, then the peers' routes, the
 * kind and the default route; every other interface gets its reason. */
int recommend(const struct rec_input *in, struct recommendation *r)
{
	const struct iface_list *l = in->ifaces;
	const struct iface **cand = NULL;
	const struct iface *chosen = NULL;
	bool peers_direct = decide_peers_direct(l, in->peers, in->npeers);
	bool any_nat = false;
	size_t ncand = 0;
	char buf[128];
	int rc = -1;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < in->npeers; i++) {
		const struct peer_verdict *p = &in->peers[i];

		if (p->nat == 1 && !any_nat) {
			any_nat = true;
			reason(r,
			       "peer %s sees this node as %s, not %s: NAT "
			       "lies between them",
			       p->peer,
			       p->observed_addr[0] ? p->observed_addr
			                           : "another address",
			       p->local_addr[0] ? p->local_addr
			                        : "its own address");
		}
	}
	if (any_nat || (layers_nat(in->layers) && !peers_direct))
		return choose_none_nat(in, r);
	if (layers_nat(in->layers))
		reason(r, "the layering suggested NAT, but every peer saw this "
		          "node's address directly and connected back");
	if (layers_undecided(in->layers) && !peers_direct) {
		r->none = REC_NONE_LAYERS;
		reason(r, "cannot tell whether peers on other hosts can reach "
		          "this process: WSL2 in a networking mode that "
		          "could not be determined, and NAT is its default");
		reason(r, "set networkingMode=mirrored in "
		          "%%UserProfile%%\\.wslconfig; a peer that sees "
		          "this address directly and connects back also "
		          "settles it");
	}

	cand = calloc(l->n ? l->n : 1, sizeof(*cand));
	if (cand == NULL)
		goto out;
	for (size_t i = 0; i < l->n; i++)
		if (not_candidate(l, &l->v[i], buf, sizeof(buf)) == NULL)
			cand[ncand++] = &l->v[i];
	if (r->none != REC_CHOSEN) {
		/* decided above: no interface */
	} else if (ncand == 0) {
		r->none = REC_NONE_NOCAND;
		reason(r, "no interface is up and running with a global "
		          "address: give this node an address on the cluster "
		          "network");
	} else if (in->npeers > 0) {
		chosen = choose_by_peers(in, cand, ncand, r);
	}
	if (chosen == NULL && ncand > 0 && r->none == REC_CHOSEN)
		chosen = choose_by_kind(in, cand, ncand, r);

	if (chosen != NULL) {
		r->ifc = chosen;
		r->addr = choose_addr(in, chosen);
		if (layers_container_unknown(in->layers) && !peers_direct)
			reason(r,
			       "caution: this looks like a container whose "
			       "network mode could not be determined; if "
			       "peers cannot connect back to %s, it is "
			       "behind NAT and needs --network host or "
			       "macvlan",
			       r->addr->str);
		settings(r);
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct iface *ifc = &l->v[i];
		const char *why = not_candidate(l, ifc, buf, sizeof(buf));
		int e;

		if (ifc == chosen)
			continue;
		if (why != NULL)
			e = reject(r, ifc->name, "%s", why);
		else if (r->none == REC_NONE_LAYERS)
			e = reject(r, ifc->name, "%s",
			           "a candidate, but WSL2 NAT is not ruled "
			           "out");
		else if (r->none == REC_NONE_TIE || r->none == REC_NONE_PEERS)
			e = reject(r, ifc->name, "%s",
			           "a candidate, but nothing decides between "
			           "it and the others");
		else if (in->npeers > 0 && chosen != NULL)
			e = reject(r, ifc->name,
			           "the routes toward the peers "
			           "leave by %s",
			           chosen->name);
		else if (tier(ifc) > tier(chosen))
			e = reject(r, ifc->name,
			           "a virtual interface (%s); "
			           "%s is not",
			           kind_words(ifc), chosen->name);
		else
			e = reject(r, ifc->name,
			           "the default route leaves by "
			           "%s",
			           chosen->name);
		if (e < 0)
			goto out;
	}
	rc = 0;
out:
	free(cand);
	if (rc < 0)
		errno = ENOMEM;
	return rc;
}

/* Only the rejected list is on the heap. */
void recommendation_free(struct recommendation *r)
{
	free(r->rejected);
	memset(r, 0, sizeof(*r));
}

/* Lookup for tests and emitters. */
const char *recommendation_env(const struct recommendation *r, const char *name)
{
	for (int i = 0; i < r->nenv; i++)
		if (strcmp(r->env[i].name, name) == 0)
			return r->env[i].value;
	return NULL;
}

/* Lookup for tests and emitters. */
const char *recommendation_rejected(const struct recommendation *r,
                                    const char *ifname)
{
	for (size_t i = 0; i < r->nrejected; i++)
		if (strcmp(r->rejected[i].interface, ifname) == 0)
			return r->rejected[i].reason;
	return NULL;
}

/* Keys as netprobe-json(5) documents them; null interface and address
 * when none is recommended. */
json_t *recommendation_to_json(const struct recommendation *r)
{
	json_t *o = json_object(), *env = json_object(),
	       *reasons = json_array(), *rej = json_array();

	if (o == NULL || env == NULL || reasons == NULL || rej == NULL)
		goto fail;
	for (int i = 0; i < r->nenv; i++)
		if (json_object_set_new(env, r->env[i].name,
		                        json_string(r->env[i].value)) < 0)
			goto fail;
	for (int i = 0; i < r->nreasons; i++)
		if (json_array_append_new(reasons, json_string(r->reasons[i])) <
		    0)
			goto fail;
	for (size_t i = 0; i < r->nrejected; i++)
		if (json_array_append_new(
		        rej, json_pack("{s:s, s:s}", "interface",
		                       r->rejected[i].interface, "reason",
		                       r->rejected[i].reason)) < 0)
			goto fail;
	if (json_object_set_new(o, "interface",
	                        r->ifc ? json_string(r->ifc->name)
	                               : json_null()) < 0 ||
	    json_object_set_new(o, "address",
	                        r->addr ? json_string(r->addr->str)
	                                : json_null()) < 0)
		goto fail;
	/* set_new steals the value even when it fails */
	if (json_object_set_new(o, "env", env) < 0) {
		env = NULL;
		goto fail;
	}
	env = NULL;
	if (json_object_set_new(o, "reasons", reasons) < 0) {
		reasons = NULL;
		goto fail;
	}
	reasons = NULL;
	if (json_object_set_new(o, "rejected", rej) < 0) {
		rej = NULL;
		goto fail;
	}
	return o;
fail:
	json_decref(o);
	json_decref(env);
	json_decref(reasons);
	json_decref(rej);
	return NULL;
}
