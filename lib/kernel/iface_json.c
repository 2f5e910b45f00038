/* Interfaces and routes as JSON (man/netprobe-json.5, section ifaces):
 * unknown values are null, never a made-up default. */
#include "kernel/nl.h"
#include "kernel/neigh.h"

#include <stdio.h>

#include <linux/if.h>
#include <linux/rtnetlink.h>

/* RFC 2863 names as `ip link` prints them, lower case. */
const char *iface_operstate_name(int operstate)
{
	static const char *const names[] = {
	    "unknown", "notpresent", "down", "lowerlayerdown",
	    "testing", "dormant",    "up",
	};

	if (operstate < 0 ||
	    (size_t)operstate >= sizeof(names) / sizeof(*names))
		return "unknown";
	return names[operstate];
}

/* RT_SCOPE_UNIVERSE is what `ip` calls "global". */
static const char *iface_scope_name(unsigned scope, char *buf, size_t len)
{
	switch (scope) {
	case RT_SCOPE_UNIVERSE:
		return "global";
	case RT_SCOPE_SITE:
		return "site";
	case RT_SCOPE_LINK:
		return "link";
	case RT_SCOPE_HOST:
		return "host";
	case RT_SCOPE_NOWHERE:
		return "nowhere";
	default:
		snprintf(buf, len, "%u", scope);
		return buf;
	}
}

/* See iface.h. */
const char *iface_brport_state_name(int st)
{
	static const char *const names[] = {"disabled", "listening",
	                                    "learning", "forwarding",
	                                    "blocking"};

	return st >= 0 && st <= 4 ? names[st] : "unknown";
}

/* "" becomes null: absent, not empty. */
static json_t *str_or_null(const char *s)
{
	return s[0] != '\0' ? json_string(s) : json_null();
}

/* A tri-state (1, 0, -1 unknown) as true, false or null. */
static json_t *tri_json(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

/* IFF_* bits as an array of names, lowest bit first. */
static json_t *flags_to_json(unsigned f)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
	    {IFF_UP, "UP"},
	    {IFF_BROADCAST, "BROADCAST"},
	    {IFF_DEBUG, "DEBUG"},
	    {IFF_LOOPBACK, "LOOPBACK"},
	    {IFF_POINTOPOINT, "POINTOPOINT"},
	    {IFF_NOTRAILERS, "NOTRAILERS"},
	    {IFF_RUNNING, "RUNNING"},
	    {IFF_NOARP, "NOARP"},
	    {IFF_PROMISC, "PROMISC"},
	    {IFF_ALLMULTI, "ALLMULTI"},
	    {IFF_MASTER, "MASTER"},
	    {IFF_SLAVE, "SLAVE"},
	    {IFF_MULTICAST, "MULTICAST"},
	    {IFF_PORTSEL, "PORTSEL"},
	    {IFF_AUTOMEDIA, "AUTOMEDIA"},
	    {IFF_DYNAMIC, "DYNAMIC"},
	    {IFF_LOWER_UP, "LOWER_UP"},
	    {IFF_DORMANT, "DORMANT"},
	    {IFF_ECHO, "ECHO"},
	};
	json_t *a = json_array();

	for (size_t i = 0; a != NULL && i < sizeof(names) / sizeof(*names); i++)
		if (f & names[i].bit)
			json_array_append_new(a, json_string(names[i].name));
	return a;
}

/* {family, address, prefixlen, scope}, and label for an alias. */
static json_t *addr_to_json(const struct iface_addr *a)
{
	char sb[16];
	json_t *o = json_pack("{s:s, s:s, s:i, s:s}", "family",
	                      a->family == AF_INET ? "inet" : "inet6",
	                      "address", a->str, "prefixlen",
	                      (int)a->prefixlen, "scope",
	                      iface_scope_name(a->scope, sb, sizeof(sb)));

	if (o != NULL && a->label[0] != '\0')
		json_object_set_new(o, "label", json_string(a->label));
	return o;
}

/* Every key always present, so readers need no existence checks. */
json_t *iface_to_json(const struct iface *ifc)
{
	json_t *o = json_object(), *addrs = json_array(),
	       *slaves = json_array(), *peer, *vx;

	if (o == NULL || addrs == NULL || slaves == NULL)
		goto fail;
	for (int i = 0; i < ifc->naddrs; i++)
		json_array_append_new(addrs, addr_to_json(&ifc->addrs[i]));
	for (int i = 0; i < ifc->nslaves && i < 8; i++)
		json_array_append_new(slaves, json_string(ifc->slaves[i]));
	if (ifc->kind == IFK_VETH && ifc->link_index > 0)
		peer = json_pack(
		    "{s:i, s:o, s:o}", "ifindex", ifc->link_index, "netnsid",
		    ifc->link_netnsid >= 0 ? json_integer(ifc->link_netnsid)
		                           : json_null(),
		    "name", str_or_null(ifc->parent));
	else
		peer = json_null();
	if (ifc->kind == IFK_VXLAN)
		vx = json_pack(
		    "{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "id",
		    (json_int_t)ifc->vxlan_id, "underlay",
		    ifc->vxlan_link > 0 ? str_or_null(ifc->parent)
		                        : json_null(),
		    "underlay_index",
		    ifc->vxlan_link > 0 ? json_integer(ifc->vxlan_link)
		                        : json_null(),
		    "port",
		    ifc->vxlan_port ? json_integer(ifc->vxlan_port)
		                    : json_null(),
		    "local", str_or_null(ifc->vxlan_local), "group",
		    str_or_null(ifc->vxlan_group), "learning",
		    ifc->vxlan_learning < 0 ? json_null()
		                            : json_boolean(ifc->vxlan_learning),
		    "proxy", tri_json(ifc->vxlan_proxy), "l2miss",
		    tri_json(ifc->vxlan_l2miss), "l3miss",
		    tri_json(ifc->vxlan_l3miss));
	else
		vx = json_null();
	json_object_set_new(o, "index", json_integer(ifc->index));
	json_object_set_new(o, "name", json_string(ifc->name));
	json_object_set_new(o, "kind", json_string(iface_kind_name(ifc->kind)));
	json_object_set_new(o, "kind_raw", str_or_null(ifc->kind_str));
	json_object_set_new(o, "flags", flags_to_json(ifc->flags));
	json_object_set_new(o, "oper_state",
	                    json_string(iface_operstate_name(ifc->operstate)));
	json_object_set_new(o, "carrier",
	                    ifc->carrier < 0 ? json_null()
	                                     : json_boolean(ifc->carrier));
	json_object_set_new(o, "mtu", json_integer(ifc->mtu));
	json_object_set_new(o, "mac", str_or_null(ifc->mac));
	json_object_set_new(o, "master", str_or_null(ifc->master));
	json_object_set_new(o, "peer", peer);
	json_object_set_new(o, "parent",
	                    ifc->kind == IFK_VETH || ifc->kind == IFK_VXLAN
	                        ? json_null()
	                        : str_or_null(ifc->parent));
	json_object_set_new(o, "vxlan", vx);
	json_object_set_new(o, "mode", str_or_null(ifc->macvlan_mode));
	json_object_set_new(o, "vlan_id",
	                    ifc->kind == IFK_VLAN ? json_integer(ifc->vlan_id)
	                                          : json_null());
	json_object_set_new(o, "slaves", slaves);
	json_object_set_new(o, "addresses", addrs);
	json_object_set_new(
	    o, "speed_mbps",
	    ifc->speed_mbps < 0 ? json_null() : json_integer(ifc->speed_mbps));
	json_object_set_new(o, "driver", str_or_null(ifc->driver));
	json_object_set_new(o, "real_device", json_boolean(ifc->real_device));
	json_object_set_new(o, "numa_node",
	                    ifc->numa_node < 0 ? json_null()
	                                       : json_integer(ifc->numa_node));
	json_object_set_new(o, "pci", str_or_null(ifc->pci));
	json_object_set_new(o, "bridge_port_state",
	                    ifc->brport_state < 0
	                        ? json_null()
	                        : json_string(iface_brport_state_name(
	                              ifc->brport_state)));
	json_object_set_new(o, "stp_state",
	                    ifc->br_stp < 0 ? json_null()
	                                    : json_integer(ifc->br_stp));
	json_object_set_new(o, "rdma", str_or_null(ifc->rdma));
	return o;
fail:
	json_decref(o);
	json_decref(addrs);
	json_decref(slaves);
	return NULL;
}

/* NULL when any element could not be built (no memory). */
json_t *iface_list_to_json(const struct iface_list *l)
{
	json_t *a = json_array();

	for (size_t i = 0; a != NULL && i < l->n; i++) {
		json_t *o = iface_to_json(&l->v[i]);

		if (o == NULL || json_array_append_new(a, o) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* The route object of the contract; "" fields become null. NULL on no
 * memory. */
json_t *route_to_json(const struct route_info *r)
{
	json_t *o = json_pack(
	    "{s:s, s:s, s:o, s:o, s:o, s:o, s:i, s:i}", "family",
	    r->family == AF_INET6 ? "inet6" : "inet", "destination",
	    r->destination, "out_interface", str_or_null(r->out_interface),
	    "source", str_or_null(r->source), "gateway",
	    str_or_null(r->gateway), "mtu",
	    r->mtu ? json_integer(r->mtu) : json_null(), "metric", r->metric,
	    "table", r->table);
	json_t *nhs;

	/* a route that drops, and the next hops of a multipath one (issue
	 * 48); a plain unicast route's form is unchanged */
	if (o != NULL && r->type != RTN_UNICAST && r->type != 0 &&
	    route_type_name(r->type) != NULL &&
	    json_object_set_new(o, "type",
	                        json_string(route_type_name(r->type))) < 0)
		goto bad;
	if (o == NULL || r->nnh == 0)
		return o;
	if ((nhs = json_array()) == NULL ||
	    json_object_set_new(o, "nexthops", nhs) < 0)
		goto bad;
	for (size_t i = 0; i < r->nnh; i++) {
		const struct route_nexthop *h = &r->nh[i];
		json_t *fl = json_array();

		if (fl == NULL ||
		    ((h->flags & RTNH_F_DEAD) &&
		     json_array_append_new(fl, json_string("dead")) < 0) ||
		    ((h->flags & RTNH_F_LINKDOWN) &&
		     json_array_append_new(fl, json_string("linkdown")) < 0) ||
		    json_array_append_new(
		        nhs, json_pack("{s:o, s:o, s:o, s:o}", "gateway",
		                       str_or_null(h->gateway), "interface",
		                       str_or_null(h->ifname), "flags", fl,
		                       "neighbour",
		                       h->neigh_read
		                           ? json_string(
		                                 neigh_state_name(h->neigh))
		                           : json_null())) < 0)
			goto bad;
	}
	return o;
bad:
	json_decref(o);
	return NULL;
}
