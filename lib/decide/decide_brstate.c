/* bridge-port-stuck: a port of a bridge with STP off that sits in the
 * listening, learning or blocking state. With STP off nothing ever moves
 * it to forwarding, so the bridge passes no frame between that port and
 * the node's address on the bridge, while every link is up (issue 48:
 * blind48d 04, ipspace/netlab#2259, OpenNebula/one-deploy#290). */
#include "decide/decide.h"

#include <stdio.h>
#include <string.h>

/* BR_STATE_FORWARDING, as linux/if_bridge.h numbers it */
#define PORT_FORWARDING 3

/* True for an up port, in a state other than forwarding or disabled
 * (disabled is a port whose link is down: interface-down's), of an up
 * bridge whose STP is off and that holds a global address. With STP on
 * the kernel moves a port through listening and learning to forwarding
 * in twice the forward delay, and blocks a redundant one: not stuck. */
static const struct iface *stuck_on(const struct iface_list *l,
                                    const struct iface *port)
{
	const struct iface *br = decide_bridge_port_of(l, port);

	if (br == NULL || port->brport_state <= 0 ||
	    port->brport_state == PORT_FORWARDING || br->br_stp != 0 ||
	    !(br->flags & IFF_UP) || decide_global_addr(br, AF_UNSPEC) == NULL)
		return NULL;
	return br;
}

/* See decide.h. */
bool decide_port_stuck(const struct iface_list *l, const struct iface *port)
{
	return stuck_on(l, port) != NULL;
}

/* One fault per stuck port, with the command that sets it forwarding. */
int decide_bridge_stuck(const struct iface_list *l, struct doc *d)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct iface *port = &l->v[i];
		const struct iface *br = stuck_on(l, port);
		const struct iface_addr *a;
		const char *st;
		json_t *ev = NULL;
		char cmd[96];

		if (br == NULL || (a = decide_global_addr(br, AF_UNSPEC)) ==
		                      NULL)
			continue;
		st = iface_brport_state_name(port->brport_state);
		evidence_add(&ev, "sysfs", "%s is a port of bridge %s in the "
		             "%s state (brport/state %d)", port->name,
		             br->name, st, port->brport_state);
		evidence_add(&ev, "sysfs", "%s has STP off (bridge/stp_state "
		             "0): nothing moves the port to forwarding",
		             br->name);
		evidence_add(&ev, "netlink", "%s has %s/%u", br->name, a->str,
		             a->prefixlen);
		snprintf(cmd, sizeof(cmd),
		         "ip link set dev %s type bridge_slave state 3",
		         port->name);
		if (doc_add_finding(
		        d, FINDING_BRIDGE_PORT_STUCK, -1, ev, cmd,
		        "%s, a port of bridge %s (which holds %s), is stuck in "
		        "the %s state with STP off: the bridge forwards no "
		        "frame between %s and the node, so this node reaches "
		        "no neighbour behind it",
		        port->name, br->name, a->str, st, port->name) < 0 ||
		    doc_finding_command(d, cmd) < 0)
			return -1;
	}
	return 0;
}
