/* The path toward one peer: route lookup (nl.h), the out interface's MTU,
 * the path MTU search over UDP (pmtu.h), its errors and JSON; the
 * findings are decide/decide_path.c's. */
#include "probe/pathprobe.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/neigh.h"
#include "wire/client.h"
#include "wire/proto.h"
#include "base/sysroot.h"

#define PATH_MAX_IP_SIZE 65040u /* PROTO_MAX_PAYLOAD + header + UDP + IP */

void path_opts_default(struct path_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->port = PROTO_DEFAULT_PORT;
	o->deadline_us = 5000000;
}

/* The MTU of the interface with this index, 0 when unknown. */
static unsigned iface_mtu(int index)
{
	struct iface_list l = {0};
	struct sysroot sr;
	const struct iface *ifc;
	unsigned mtu = 0;

	if (index <= 0 || sysroot_init(&sr, NULL) < 0 ||
	    iface_collect(&l, &sr) < 0)
		goto out;
	ifc = iface_by_index(&l, index);
	if (ifc != NULL)
		mtu = ifc->mtu;
out:
	iface_list_free(&l);
	return mtu;
}

/* Runs the search against the responder at ss. Leaves r->pmtu_err set
 * when nothing answered. */
static void search(struct path_result *r, const struct path_opts *o,
                   const struct sockaddr_storage *ss, socklen_t sslen)
{
	struct pmtu_config cfg;
	struct pmtu_ops ops;
	struct pmtu_udp u;
	unsigned max;

	max = r->if_mtu != 0 ? r->if_mtu : 1500;
	if (o->max_size != 0 && o->max_size < max)
		max = o->max_size;
	if (max > PATH_MAX_IP_SIZE)
		max = PATH_MAX_IP_SIZE;
	pmtu_config_default(&cfg, r->family, max);
	if (o->min_size != 0)
		cfg.min_size = o->min_size;
	if (cfg.min_size > max)
		cfg.min_size = max;
	if (o->deadline_us > 0)
		cfg.deadline_us = o->deadline_us;
	r->search_max = cfg.max_size;
	if (pmtu_udp_open(&u, (const struct sockaddr *)ss, sslen) < 0) {
		snprintf(r->pmtu_err, sizeof(r->pmtu_err),
		         "cannot open a UDP socket toward '%s': %s", r->addr,
		         strerror(errno));
		return;
	}
	pmtu_udp_ops(&u, &ops);
	if (pmtu_search(&cfg, &ops, &r->pmtu) < 0)
		snprintf(r->pmtu_err, sizeof(r->pmtu_err),
		         "path MTU probes toward '%s' failed: %s", r->addr,
		         strerror(errno));
	else if (!r->pmtu.responded)
		snprintf(r->pmtu_err, sizeof(r->pmtu_err),
		         "no answer from '%s' port %u: path MTU needs "
		         "`netprobe serve` running on the peer",
		         r->addr, r->port);
	r->pmtu_ran = r->pmtu.responded;
	r->kernel_pmtu = pmtu_udp_kernel_pmtu(&u);
	pmtu_udp_close(&u);
}

/* Nothing answered the probes: the next hop's neighbour entry, read
 * after them, says whether a host owns the address at all (as ports
 * does: a failed or incomplete ARP/ND entry is no host, whatever the
 * timeout). */
static void neighbour(struct path_result *r)
{
	unsigned char hop[16];
	struct neigh_entry ne;

	snprintf(r->next_hop, sizeof(r->next_hop), "%s",
	         r->route.gateway[0] ? r->route.gateway : r->addr);
	if (inet_pton(r->family, r->next_hop, hop) != 1 ||
	    neigh_get(r->family, hop, r->route.oif, &ne) != 1)
		return;
	snprintf(r->neigh_state, sizeof(r->neigh_state), "%s",
	         neigh_state_name(ne.state));
	r->no_host = neigh_unresolved(ne.state);
}

/* path_collect for a target already split into host and port (a
 * peer_verdict's): no second parse. Same returns. */
static int path_collect_at(const char *target, const char *host, unsigned port,
                           const struct path_opts *o, struct path_result *r,
                           char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sslen;
	const void *a;

	memset(r, 0, sizeof(*r));
	snprintf(r->target, sizeof(r->target), "%s", target);
	snprintf(r->host, sizeof(r->host), "%s", host);
	r->port = port;
	if (client_resolve(r->host, r->port, SOCK_DGRAM, &ss, &sslen, err,
	                   errlen) < 0)
		return -1;
	r->family = ss.ss_family;
	a = r->family == AF_INET
	        ? (const void *)&((struct sockaddr_in *)&ss)->sin_addr
	        : (const void *)&((struct sockaddr_in6 *)&ss)->sin6_addr;
	inet_ntop(r->family, a, r->addr, sizeof(r->addr));

	if (route_get(r->family, a, &r->route) == 0) {
		r->have_route = true;
		r->if_mtu = iface_mtu(r->route.oif);
	} else {
		snprintf(r->route_err, sizeof(r->route_err), "%s",
		         strerror(errno));
	}
	search(r, o, &ss, sslen);
	if (r->have_route && !r->pmtu_ran)
		neighbour(r);
	if (!r->have_route && !r->pmtu_ran) {
		snprintf(err, errlen, "no route to '%s': %s", r->addr,
		         r->route_err);
		return -1;
	}
	return 0;
}

int path_collect(const char *target, const struct path_opts *o,
                 struct path_result *r, char *err, size_t errlen)
{
	char host[sizeof(r->host)];
	unsigned port;

	if (client_parse_peer(target, o->port ? o->port : PROTO_DEFAULT_PORT,
	                      host, sizeof(host), &port, err, errlen) < 0) {
		memset(r, 0, sizeof(*r));
		snprintf(r->target, sizeof(r->target), "%s", target);
		return -1;
	}
	return path_collect_at(target, host, port, o, r, err, errlen);
}

void path_set_recommended_iface(struct path_result *r, const char *ifname)
{
	snprintf(r->recommended_iface, sizeof(r->recommended_iface), "%s",
	         ifname != NULL ? ifname : "");
}

/* See pathprobe.h. */
int path_errors(const struct path_result *r, struct doc *d)
{
	if (r->route_err[0] != '\0' &&
	    doc_add_error(d, "route", "no route to '%s': %s", r->addr,
	                  r->route_err) < 0)
		return -1;
	if (r->pmtu_err[0] != '\0' &&
	    doc_add_error(d, "pmtu", "%s", r->pmtu_err) < 0)
		return -1;
	return 0;
}

/* The `target` object, as ports writes it. */
static json_t *target_json(const struct path_result *r)
{
	return json_pack("{s:s, s:s, s:i}", "host", r->host, "address", r->addr,
	                 "port", (int)r->port);
}

/* `recommended_iface` and whether the route leaves by it (null when scan
 * has not said). */
static json_t *recommended_json(const struct path_result *r)
{
	return r->recommended_iface[0] ? json_string(r->recommended_iface)
	                               : json_null();
}

json_t *path_to_json(const struct path_result *r)
{
	return json_pack(
	    "{s:o, s:o, s:o, s:o, s:o}", "target", target_json(r), "route",
	    r->have_route ? route_to_json(&r->route) : json_null(), "pmtu",
	    r->pmtu_ran ? pmtu_to_json(&r->pmtu, r->if_mtu, r->kernel_pmtu,
	                               r->have_route ? r->route.mtu : 0)
	                : json_null(),
	    "recommended_iface", recommended_json(r), "on_recommended_iface",
	    r->recommended_iface[0] && r->have_route
	        ? json_boolean(
	              strcmp(r->recommended_iface, r->route.out_interface) == 0)
	        : json_null());
}

int path_to_doc(const struct path_result *r, struct doc *d)
{
	json_t *o = path_to_json(r), *v;
	const char *k;

	if (o == NULL)
		return -1;
	json_object_foreach(o, k, v)
	{
		if (doc_set(d, k, json_incref(v)) < 0) {
			json_decref(o);
			return -1;
		}
	}
	json_decref(o);
	return 0;
}

int path_for_peer(const struct path_opts *o, struct peer_verdict *pv,
                  json_t **out, struct path_result **facts, struct doc *d)
{
	struct path_result *r;
	char err[256];
	int rc = 0;

	*out = NULL;
	*facts = NULL;
	pv->path_mtu = -1;
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return -1;
	if (path_collect_at(pv->peer, pv->host, pv->port, o, r, err,
	                    sizeof(err)) < 0) {
		doc_add_error(d, "path", "%s", err);
		rc = -1;
	}
	if (r->pmtu_ran)
		pv->path_mtu = (int)r->pmtu.largest_ok;
	if (r->have_route && pv->local_ifname[0] == '\0')
		snprintf(pv->local_ifname, sizeof(pv->local_ifname), "%s",
		         r->route.out_interface);
	if (r->have_route && pv->local_addr[0] == '\0')
		snprintf(pv->local_addr, sizeof(pv->local_addr), "%s",
		         r->route.source);
	if (rc == 0) {
		path_errors(r, d);
		*out = path_to_json(r);
		*facts = r;
	} else {
		free(r);
	}
	return rc;
}
