/* bridge-port-addressed: a port of a Linux bridge that holds a global
 * address, or the default route. The bridge takes every frame its port
 * receives, ARP and neighbour replies included, so the port's address and
 * routes cannot reach a neighbour (issue 48: blind48b 04,
 * devplayer0/docker-net-dhcp#19). */
#include "decide/decide.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "kernel/nl.h"

/* Appends " && " and the formatted step to buf; false when it would not
 * fit (the command is then dropped, never cut). */
__attribute__((format(printf, 3, 4))) static bool
step(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;
	int w;

	if (n > 0) {
		if (n + 4 >= len)
			return false;
		memcpy(buf + n, " && ", 5);
		n += 4;
	}
	va_start(ap, fmt);
	w = vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
	return w >= 0 && (size_t)w < len - n;
}

/* True when the interface holds an address of the same family and text. */
static bool holds(const struct iface *ifc, const struct iface_addr *a)
{
	for (int i = 0; i < ifc->naddrs; i++)
		if (ifc->addrs[i].family == a->family &&
		    strcmp(ifc->addrs[i].str, a->str) == 0)
			return true;
	return false;
}

/* True when the interface holds an IPv6 address of any scope. */
static bool has_v6(const struct iface *ifc)
{
	for (int i = 0; i < ifc->naddrs; i++)
		if (ifc->addrs[i].family == AF_INET6)
			return true;
	return false;
}

/* The default route's words after "default": "via GW " or "" and, when
 * set, "metric N". */
static void route_tail(const struct route_info *r, char *via, size_t vlen,
                       char *met, size_t mlen)
{
	snprintf(via, vlen, "%s%s", r->gateway[0] ? " via " : "", r->gateway);
	if (r->metric > 0)
		snprintf(met, mlen, " metric %d", r->metric);
	else
		met[0] = '\0';
}

/* The pasteable fix: the default routes by the port deleted, its global
 * addresses moved to the bridge (those the bridge does not hold yet),
 * the routes added again by the bridge. For a bridge that is down the
 * port is released instead: a bridge set down carries nothing, and the
 * port's configuration works again once it is no port. Returns false
 * when the command would not fit. */
static bool move_cmd(const struct iface *port, const struct iface *br,
                     const struct route_info *defs, size_t ndefs, char *buf,
                     size_t len)
{
	char via[INET6_ADDRSTRLEN + 8], met[24], pfx[INET6_ADDRSTRLEN + 5];

	buf[0] = '\0';
	if (!(br->flags & IFF_UP))
		return step(buf, len, "ip link set %s nomaster", port->name);
	for (size_t i = 0; i < ndefs; i++) {
		const struct route_info *r = &defs[i];

		if (strcmp(r->out_interface, port->name) != 0)
			continue;
		route_tail(r, via, sizeof(via), met, sizeof(met));
		if (!step(buf, len, "ip %sroute del default%s dev %s%s",
		          r->family == AF_INET6 ? "-6 " : "", via, port->name,
		          met))
			return false;
	}
	for (int i = 0; i < port->naddrs; i++) {
		const struct iface_addr *a = &port->addrs[i];

		if (!decide_addr_global(a))
			continue;
		snprintf(pfx, sizeof(pfx), "%s/%u", a->str, a->prefixlen);
		if (!step(buf, len, "ip addr del %s dev %s", pfx,
		          port->name))
			return false;
		if (!holds(br, a) && !step(buf, len, "ip addr add %s dev %s",
		                           pfx, br->name))
			return false;
	}
	for (size_t i = 0; i < ndefs; i++) {
		const struct route_info *r = &defs[i];

		if (strcmp(r->out_interface, port->name) != 0)
			continue;
		route_tail(r, via, sizeof(via), met, sizeof(met));
		if (!step(buf, len, "ip %sroute add default%s dev %s%s",
		          r->family == AF_INET6 ? "-6 " : "", via, br->name,
		          met))
			return false;
	}
	/* no IP on the port at all, as systemd-networkd leaves a bridge's
	 * port: its fe80:: receives nothing either, and NCCL, which skips
	 * no link-local address, would use it */
	return !has_v6(port) ||
	       step(buf, len, "sysctl -w net.ipv6.conf.%s.disable_ipv6=1",
	            port->name);
}

/* One finding for the port: its addresses and routes as evidence, the
 * command that moves them. Returns 0, or -1 on no memory. */
static int report(const struct iface *port, const struct iface *br,
                  const struct route_info *defs, size_t ndefs,
                  struct doc *d)
{
	json_t *ev = NULL;
	char st[96], cmd[1024], what[160] = "";
	const struct iface_addr *first = decide_global_addr(port, AF_UNSPEC);
	bool has_route = false;

	decide_state_words(br, st, sizeof(st));
	evidence_add(&ev, "netlink", "%s is a port of bridge %s, which is %s",
	             port->name, br->name, st);
	for (int i = 0; i < port->naddrs; i++)
		if (decide_addr_global(&port->addrs[i]))
			evidence_add(&ev, "netlink", "%s has %s/%u", port->name,
			             port->addrs[i].str,
			             port->addrs[i].prefixlen);
	for (size_t i = 0; i < ndefs; i++)
		if (strcmp(defs[i].out_interface, port->name) == 0) {
			has_route = true;
			evidence_add(&ev, "route", "the %s default route%s%s "
			             "leaves by %s",
			             defs[i].family == AF_INET6 ? "IPv6" : "IPv4",
			             defs[i].gateway[0] ? " via " : "",
			             defs[i].gateway, port->name);
		}
	if (first != NULL)
		snprintf(what, sizeof(what), "address %s%s", first->str,
		         has_route ? " and the default route" : "");
	else
		snprintf(what, sizeof(what), "the default route");
	if (!move_cmd(port, br, defs, ndefs, cmd, sizeof(cmd)))
		cmd[0] = '\0';
	if (doc_add_finding(
	        d, FINDING_BRIDGE_PORT_ADDRESSED, -1, ev,
	        cmd[0] ? cmd : NULL,
	        "%s is a port of bridge %s yet holds the %s: the bridge takes "
	        "every frame %s receives, so this node reaches no neighbour "
	        "by it",
	        port->name, br->name, what, port->name) < 0)
		return -1;
	return cmd[0] ? doc_finding_command(d, cmd) : 0;
}

/* See decide.h. */
const struct iface *decide_bridge_port_of(const struct iface_list *l,
                                          const struct iface *ifc)
{
	const struct iface *br;

	if (ifc->master_index == 0 || !(ifc->flags & IFF_UP) ||
	    decide_is_loopback(ifc))
		return NULL;
	br = iface_by_index(l, ifc->master_index);
	return br != NULL && br->kind == IFK_BRIDGE ? br : NULL;
}

/* Silent for a port that is down (interface-down's), for one with only
 * link-local addresses and no default route (every port has fe80::), for
 * a member of anything but a bridge (a bond takes its slaves' frames for
 * its own address), and for a master the list does not hold. */
int decide_bridge_ports(const struct iface_list *l,
                        const struct route_info *defs, size_t ndefs,
                        struct doc *d)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct iface *port = &l->v[i];
		const struct iface *br;
		bool routed = false;

		if ((br = decide_bridge_port_of(l, port)) == NULL)
			continue;
		for (size_t j = 0; j < ndefs; j++)
			if (defs[j].family == AF_INET &&
			    strcmp(defs[j].out_interface, port->name) == 0)
				routed = true;
		if (decide_global_addr(port, AF_UNSPEC) == NULL && !routed)
			continue;
		if (report(port, br, defs, ndefs, d) < 0)
			return -1;
	}
	return 0;
}
