/* netprobe scan's document (man/netprobe-json.5, section scan): its
 * results. */
#include <stdio.h>
#include <string.h>

#include "decide/scan_json.h"
#include "scan/scan_int.h"

/* The `routes` object: defaults and the lookup toward the first peer. */
static json_t *routes_json(const struct scan *s)
{
	json_t *defs = json_array();

	for (size_t i = 0; defs != NULL && i < s->ndefaults; i++)
		json_array_append_new(defs, route_to_json(&s->defaults[i]));
	return json_pack("{s:o, s:o}", "defaults", defs, "lookup",
	                 s->have_lookup ? route_to_json(&s->lookup)
	                                : json_null());
}

/* The `neighbours` array: the static entries toward this node's
 * networks (loopback's none), or null when the table was not read. A
 * table past NEIGH_MAX_STATIC entries is left out whole, as unread: a
 * part of it would read as the absence of the rest. */
static json_t *statics_json(const struct scan *s)
{
	json_t *arr;

	if (s->statics == NULL || s->statics->truncated)
		return json_null();
	if ((arr = json_array()) == NULL)
		return NULL;
	for (size_t i = 0; i < s->statics->n; i++) {
		const struct neigh_entry *e = &s->statics->v[i];
		const struct iface *ifc = iface_by_index(&s->ifaces, e->ifindex);

		if (ifc == NULL || ifc->kind == IFK_LOOPBACK)
			continue;
		if (json_array_append_new(
		        arr, json_pack("{s:s, s:s, s:s, s:s, s:s}", "address",
		                       e->addr, "family",
		                       e->family == AF_INET ? "inet" : "inet6",
		                       "interface", ifc->name, "lladdr",
		                       e->lladdr, "state",
		                       neigh_state_name(e->state))) < 0) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/* Sets recommended_iface and on_recommended_iface of a path object
 * (ifname NULL: none recommended), as path_to_json would have. */
static void path_json_recommend(json_t *path, const char *ifname)
{
	const char *out = json_string_value(
	    json_object_get(json_object_get(path, "route"), "out_interface"));

	json_object_set_new(path, "recommended_iface",
	                    ifname != NULL ? json_string(ifname) : json_null());
	json_object_set_new(path, "on_recommended_iface",
	                    ifname != NULL && out != NULL
	                        ? json_boolean(strcmp(ifname, out) == 0)
	                        : json_null());
}

/* What NCCL's configuration files set and the environment did not: each
 * variable with its value and the file (empty object when none). */
static json_t *nccl_conf_json(const struct nccl_conf *c)
{
	json_t *o = json_object();
	const struct {
		const char *name, *value, *from;
	} v[] = {{"NCCL_SOCKET_IFNAME", c->ifname, c->ifname_from},
	         {"NCCL_SOCKET_FAMILY", c->family, c->family_from},
	         {"NCCL_COMM_ID", c->comm_id, c->comm_id_from}};

	for (size_t i = 0; o != NULL && i < sizeof(v) / sizeof(v[0]); i++)
		if (v[i].from[0] != '\0' &&
		    json_object_set_new(o, v[i].name,
		                        json_pack("{s:s, s:s}", "value",
		                                  v[i].value, "file",
		                                  v[i].from)) < 0) {
			json_decref(o);
			return NULL;
		}
	return o;
}

/* What the frameworks will advertise from this node, each with why. */
static json_t *advertised_json(const struct scan *s)
{
	json_t *a = json_array();

	for (size_t i = 0; a != NULL && i < s->nadv; i++)
		if (json_array_append_new(
		        a, json_pack("{s:s, s:s, s:s, s:s}", "framework",
		                     advert_fw_name(s->adv[i].fw), "address",
		                     s->adv[i].addr, "interface",
		                     s->adv[i].ifname, "why", s->adv[i].why)) <
		    0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* Who this node is beyond its hostname (issue 31): /etc/machine-id
 * (cloned images may share it) and the kernel's boot id, null where
 * unreadable. The report tells two nodes of one hostname apart by them
 * and by their addresses. */
static json_t *identity_json(const struct scan *s)
{
	char mid[64], bid[64];
	bool m = sysroot_read_line(&s->sr, "/etc/machine-id", mid,
	                           sizeof(mid)) > 0;
	bool b = sysroot_read_line(&s->sr, "/proc/sys/kernel/random/boot_id",
	                           bid, sizeof(bid)) > 0;

	return json_pack("{s:o, s:o}", "machine_id",
	                 m ? json_string(mid) : json_null(), "boot_id",
	                 b ? json_string(bid) : json_null());
}

/* The interfaces the cluster's traffic arrives on: the recommended one
 * and each peer's route's (peers, the document's array); a drop limited
 * to another one drops none of it (audit48). */
static void keep_cluster_iifs(struct scan *s, const json_t *peers)
{
	const char *names[RPF_MAX_IFACES];
	size_t n = 0, i;
	json_t *p;

	if (s->fwrules == NULL)
		return;
	if (s->rec.ifc != NULL)
		names[n++] = s->rec.ifc->name;
	json_array_foreach(peers, i, p) {
		const char *v =
		    json_string_value(json_object_get(p, "local_ifname"));

		if (v != NULL && v[0] != '\0' && n < RPF_MAX_IFACES)
			names[n++] = v;
	}
	fwrules_keep_iifs(s->fwrules, names, n);
}

/* The peers' objects move into the document; the path objects learn
 * the recommendation, which did not exist when the paths were probed. */
int scan_build_doc(struct scan *s)
{
	json_t *peers = json_array();

	for (size_t i = 0; peers != NULL && i < s->npeers; i++) {
		json_t *p = s->peer_json[i], *path = json_object_get(p, "path");

		s->peer_json[i] = NULL;
		/* the path probe ran before the recommendation existed */
		if (json_is_object(path))
			path_json_recommend(
			    path, s->rec.ifc != NULL ? s->rec.ifc->name : NULL);
		json_array_append_new(
		    peers, p != NULL ? p : peer_verdict_to_json(&s->peers[i]));
	}
	keep_cluster_iifs(s, peers);
	if (doc_set(&s->run.doc, "interfaces",
	            iface_list_to_json(&s->ifaces)) ||
	    doc_set(&s->run.doc, "layers",
	            s->have_layers ? layers_to_json(&s->ly) : json_null()) ||
	    doc_set(&s->run.doc, "routes", routes_json(s)) ||
	    doc_set(&s->run.doc, "hostname", hostname_to_json(&s->host)) ||
	    doc_set(&s->run.doc, "identity", identity_json(s)) ||
	    doc_set(&s->run.doc, "nccl_default",
	            nccl_default_to_json(&s->nccl)) ||
	    doc_set(&s->run.doc, "nccl_conf", nccl_conf_json(&s->nccl_conf)) ||
	    doc_set(&s->run.doc, "advertised", advertised_json(s)) ||
	    doc_set(&s->run.doc, "recommendation",
	            recommendation_to_json(&s->rec)) ||
	    doc_set(&s->run.doc, "peers", peers) ||
	    doc_set(&s->run.doc, "ports_to_open", fwcmd_ports_json(&s->fw)) ||
	    doc_set(&s->run.doc, "limits", hostlim_to_json(&s->lim)) ||
	    doc_set(&s->run.doc, "ipv4_conf", rpfilter_to_json(&s->rpf)) ||
	    doc_set(&s->run.doc, "neighbours", statics_json(s)) ||
	    doc_set(&s->run.doc, "qdiscs",
	            s->qdiscs != NULL ? qdisc_list_to_json(s->qdiscs)
	                              : json_null()) ||
	    scan_rdma_doc(s) ||
	    (s->fwrules != NULL &&
	     doc_set(&s->run.doc, "firewall", fwrules_to_json(s->fwrules))))
		return -1;
	/* written against the ruleset this process read (issue 23) */
	if (doc_set(&s->run.doc, "commands",
	            fwcmd_commands_json(
	                &s->fw, json_object_get(s->run.doc.root, "firewall"))))
		return -1;
	return 0;
}
