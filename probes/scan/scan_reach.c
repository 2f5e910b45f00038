/* netprobe scan's check of the settings against the peers: from each
 * interface NCCL_SOCKET_IFNAME or GLOO_SOCKET_IFNAME selects, other than
 * the route's, one connection to each peer's responder, all in parallel
 * within SYNRETRY_US. decide_setting_reach judges the answers. */
#include <stdio.h>
#include <string.h>

#include "probe/fromaddr.h"
#include "probe/synretry.h"
#include "scan/scan_int.h"
#include "wire/client.h"

/* The measurement's record under its peer's JSON object (`reach_from`). */
static void reach_json(struct scan *s, const struct src_reach *m)
{
	json_t *obj = s->peer_json[m->peer], *a;

	if (obj == NULL)
		return;
	a = json_object_get(obj, "reach_from");
	if (!json_is_array(a)) {
		a = json_array();
		if (a == NULL || json_object_set_new(obj, "reach_from", a) < 0)
			return;
	}
	json_array_append_new(a, json_pack("{s:s, s:s, s:b, s:s}", "interface",
	                                   m->ifname, "address", m->addr,
	                                   "answered", m->answered == 1,
	                                   "reason", m->reason));
}

/* Fills s->sreach: one request per (selected interface, answering peer)
 * whose route leaves by another interface. */
void scan_setting_reach(struct scan *s)
{
	const struct iface *set[16];
	struct fromaddr_req req[SRC_REACH_MAX];
	struct nccl_env ne;
	size_t k, n = 0;

	s->nsreach = 0;
	if (s->npeers == 0 || !sysroot_is_live(&s->sr))
		return;
	scan_env_nccl(&s->env,
	              s->comm_id_numeric[0] ? s->comm_id_numeric : NULL, &ne);
	k = decide_setting_ifaces(&s->env, &ne, &s->ifaces, set, 16);
	for (size_t i = 0; i < k; i++) {
		for (size_t p = 0; p < s->npeers && n < SRC_REACH_MAX; p++) {
			const struct peer_verdict *v = &s->peers[p];
			struct src_reach *m = &s->sreach[n];
			const struct iface_addr *a;
			unsigned char b[16];

			if (!v->responded ||
			    strcmp(v->local_ifname, set[i]->name) == 0)
				continue;
			a = decide_global_addr(set[i], decide_peer_bytes(v, b));
			if (a == NULL || v->host[0] == '\0')
				continue;
			memset(m, 0, sizeof(*m));
			snprintf(m->ifname, sizeof(m->ifname), "%s",
			         set[i]->name);
			snprintf(m->addr, sizeof(m->addr), "%s", a->str);
			m->peer = p;
			m->port = v->port;
			m->timeout_us = SYNRETRY_US;
			memset(&req[n], 0, sizeof(req[n]));
			snprintf(req[n].src, sizeof(req[n].src), "%s", a->str);
			snprintf(req[n].dst, sizeof(req[n].dst), "%s",
			         v->peer_addr);
			req[n].port = v->port;
			n++;
		}
	}
	if (n == 0)
		return;
	if (fromaddr_probe(req, n) < 0) {
		doc_add_error(&s->run.doc, "settings", "out of memory");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		s->sreach[i].answered = req[i].answered;
		snprintf(s->sreach[i].reason, sizeof(s->sreach[i].reason), "%s",
		         req[i].reason);
		reach_json(s, &s->sreach[i]);
	}
	s->nsreach = n;
}
