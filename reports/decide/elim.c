/* netprobe report: the elimination table (elim.h, issue 48). Each row is
 * one hypothesis that could explain a failed pair, the test that keeps or
 * eliminates it from the pair's evidence, and the command that decides
 * it where no evidence does. A class is added as one row here. */
#include "elim.h"

#include <stdio.h>
#include <string.h>

/* A firewall on one end: shown by a cause of its own (a rule that drops),
 * eliminated where the hop probe toward it saw the answer (or the
 * silence) come from a box before it, or where its ruleset was read and
 * nothing in it drops; kept open where a drop the reader does not judge
 * covers the port. */
static enum elim_state fw_end(bool drops, bool rules, bool unsure,
			      int hop_box, const char *hop_fact,
			      const char *node, const char *other,
			      const char *port, char *why, size_t len)
{
	if (drops) {
		snprintf(why, len, "a rule of %s's ruleset drops what %s needs",
			 node, other);
		return ELIM_KEPT;
	}
	if (hop_box == 1) {
		snprintf(why, len, "%s", hop_fact);
		return ELIM_GONE;
	}
	if (rules && unsure) {
		snprintf(why, len,
			 "%s's ruleset holds a drop that matches on more than "
			 "this reader judges and may drop %s from %s",
			 node, port[0] ? port : "these connections", other);
		return ELIM_OPEN;
	}
	if (rules) {
		snprintf(why, len,
			 "%s's ruleset was read and no rule in it drops %s "
			 "from %s",
			 node, port[0] ? port : "these connections", other);
		return ELIM_GONE;
	}
	return ELIM_OPEN;
}

/* {b}'s own firewall (what {a} connects to). */
static enum elim_state t_fw_b(const struct elim_ev *e, char *why, size_t len)
{
	return fw_end(e->drops_b, e->rules_b, e->unsure_b, e->hop_box_a,
		      e->hop_fact_a, e->b, e->a, e->port, why, len);
}

/* {a}'s own firewall (the connect-backs to it, its replies). */
static enum elim_state t_fw_a(const struct elim_ev *e, char *why, size_t len)
{
	return fw_end(e->drops_a, e->rules_a, e->unsure_a, e->hop_box_b,
		      e->hop_fact_b, e->a, e->b, e->port, why, len);
}

/* One end's routing toward the other: shown by a route cause, eliminated
 * where the two reached each other on the mesh's port (a route is looked
 * up per address, not per port). */
static enum elim_state route_end(bool route, const struct elim_ev *e,
				 const char *node, const char *other,
				 char *why, size_t len)
{
	if (route) {
		snprintf(why, len, "%s's route lookup toward %s goes wrong",
			 node, other);
		return ELIM_KEPT;
	}
	if (e->control_ok) {
		snprintf(why, len,
			 "%s and %s reach each other on the mesh's port: the "
			 "same route carries every port",
			 e->a, e->b);
		return ELIM_GONE;
	}
	return ELIM_OPEN;
}

static enum elim_state t_route_a(const struct elim_ev *e, char *why,
				 size_t len)
{
	return route_end(e->route_a, e, e->a, e->b, why, len);
}

static enum elim_state t_route_b(const struct elim_ev *e, char *why,
				 size_t len)
{
	return route_end(e->route_b, e, e->b, e->a, why, len);
}

/* NAT on either end: shown by its finding; eliminated where the
 * connect-back reached each node's own address. */
static enum elim_state t_nat(const struct elim_ev *e, char *why, size_t len)
{
	if (e->nat) {
		snprintf(why, len, "one end sits behind NAT");
		return ELIM_KEPT;
	}
	if (e->control_ok) {
		snprintf(why, len,
			 "no NAT finding on either end, and each one's "
			 "connect-back reached the other's own address");
		return ELIM_GONE;
	}
	return ELIM_OPEN;
}

/* An address held twice: the identity check decides it either way. */
static enum elim_state t_conflict(const struct elim_ev *e, char *why,
				  size_t len)
{
	if (e->conflict) {
		snprintf(why, len, "an address of one end is held twice");
		return ELIM_KEPT;
	}
	snprintf(why, len,
		 "no address of %s or %s is held by another node (the "
		 "identity check)",
		 e->a, e->b);
	return ELIM_GONE;
}

/* Loss on the link: shown by its measurement; eliminated where every
 * failed connect was answered (a reset is an answer). */
static enum elim_state t_loss(const struct elim_ev *e, char *why, size_t len)
{
	if (e->lossy) {
		snprintf(why, len, "the link was measured lossy");
		return ELIM_KEPT;
	}
	if (e->idle_killed && e->control_ok) {
		snprintf(why, len,
			 "fresh connections and the echo before the idle "
			 "spell pass, and after it nothing came back, "
			 "retransmissions included: a forgotten connection, "
			 "not random loss");
		return ELIM_GONE;
	}
	if (e->reset) {
		snprintf(why, len,
			 "every failed connect was answered with a reset: an "
			 "answer is no loss");
		return ELIM_GONE;
	}
	/* the hop probe: a box on the path answered for the port */
	if ((e->hop_box_a == 1 && e->hop_answered_a) ||
	    (e->hop_box_b == 1 && e->hop_answered_b)) {
		snprintf(why, len,
			 "%s: a refusal from the path is an answer, not loss",
			 e->hop_box_a == 1 && e->hop_answered_a
			     ? e->hop_fact_a
			     : e->hop_fact_b);
		return ELIM_GONE;
	}
	/* the retry probe: the failed port never accepted while the
	 * responder's port on the same path always answered, in turns
	 * (loss that stops 5 of 5 of one and none of 5 of the other is
	 * under 1 in 1,000 at any rate); a refusal among its tries is an
	 * answer, which loss never gives, and the silence beside it a
	 * refusal its sender's ICMP rate limit kept back */
	if (e->retry_fact[0] != '\0' && e->retry_tries >= 3 &&
	    e->retry_answered == e->retry_refused && e->retry_ctl_tries >= 3 &&
	    e->retry_ctl_answered == e->retry_ctl_tries) {
		snprintf(why, len,
			 "%s (the mesh's retry probe): a rule stops the one "
			 "port, loss would stop some connects of both",
			 e->retry_fact);
		return ELIM_GONE;
	}
	return ELIM_OPEN;
}

/* An MTU limit: a connect fails at its handshake, whose packets are
 * small; an MTU cause owns its own findings before this table runs. */
static enum elim_state t_mtu(const struct elim_ev *e, char *why, size_t len)
{
	/* a shaper of an end's own drops the large frames, the MTUs equal:
	 * no MTU setting is at fault (issue 48) */
	if ((e->qdisc_a || e->qdisc_b) && e->mtu_eq > 0) {
		snprintf(why, len,
			 "every MTU on the path is equal (%u on %s and %s) "
			 "and %s's own qdisc drops every full frame: no MTU "
			 "is at fault",
			 e->mtu_eq, e->a, e->b, e->qdisc_a ? e->a : e->b);
		return ELIM_GONE;
	}
	if (e->port[0] == '\0')
		return ELIM_OPEN;
	if (e->idle_killed) {
		snprintf(why, len,
			 "the echo after the idle spell is a few bytes, the "
			 "same as the one before it that passed: no MTU "
			 "stops it");
		return ELIM_GONE;
	}
	snprintf(why, len,
		 "the connect to %s failed at its handshake, whose packets "
		 "are small: no MTU stops them",
		 e->port);
	return ELIM_GONE;
}

/* A queueing discipline that drops frames by size (issue 48): kept where
 * an end's scan shows one, gone where both ends' were read and none
 * does; open (tc -s qdisc show names it) where large frames fail with
 * the MTUs equal, which no MTU explains. Else not this table's: a
 * shaper that drops everything cuts the pair as any drop does, and the
 * other rows name their commands. */
static enum elim_state t_qdisc(const struct elim_ev *e, char *why,
			       size_t len)
{
	if (e->qdisc_a || e->qdisc_b) {
		snprintf(why, len,
			 "%s's own root qdisc cannot pass a full frame: "
			 "every large frame it sends is dropped "
			 "(qdisc-drops-frames)",
			 e->qdisc_a ? e->a : e->b);
		return ELIM_KEPT;
	}
	if (e->qdisc_read) {
		snprintf(why, len,
			 "%s's and %s's root qdiscs were read: each passes "
			 "a full frame",
			 e->a, e->b);
		return ELIM_GONE;
	}
	return e->large_fail && e->mtu_eq > 0 ? ELIM_OPEN : ELIM_NA;
}

/* Nothing listening on {b}'s port: eliminated where another node reached
 * that very port. */
static enum elim_state t_listener(const struct elim_ev *e, char *why,
				  size_t len)
{
	if (e->listener_ok) {
		snprintf(why, len, "%s", e->listener_fact);
		return ELIM_GONE;
	}
	if (e->held_b) {
		snprintf(why, len,
			 "%s's own netprobe held %s, listening, through the "
			 "mesh",
			 e->b, e->port[0] ? e->port : "the port");
		return ELIM_GONE;
	}
	if (e->idle_killed && e->control_ok) {
		snprintf(why, len,
			 "the idle connection itself was accepted and "
			 "answered before its idle spell");
		return ELIM_GONE;
	}
	return ELIM_OPEN;
}

/* A box on the path between the two subnets: eliminated where both ends
 * share a subnet on-link, or where the port fails inside a subnet too;
 * kept where pairs inside a subnet reach the very port that fails across
 * it, or where the mesh's hop probe saw the port's answer (or silence)
 * start at a hop before the peer. */
static enum elim_state t_path(const struct elim_ev *e, char *why, size_t len)
{
	if (e->net_a[0] && strcmp(e->net_a, e->net_b) == 0 &&
	    e->gw_a[0] == '\0' && e->gw_b[0] == '\0') {
		snprintf(why, len,
			 "%s and %s share %s on-link: no box is between them",
			 e->a, e->b, e->net_a);
		return ELIM_GONE;
	}
	if (e->inside_fail > 0) {
		snprintf(why, len,
			 "%s fails inside one subnet too: not the path "
			 "between subnets",
			 e->port[0] ? e->port : "the port");
		return ELIM_GONE;
	}
	if (e->net_a[0] && e->net_b[0] && strcmp(e->net_a, e->net_b) != 0 &&
	    e->inside_ok > 0) {
		snprintf(why, len,
			 "%s: what fails between %s and %s passes inside a "
			 "subnet",
			 e->inside_fact, e->net_a, e->net_b);
		return ELIM_KEPT;
	}
	/* the hop probe: the answer or the silence starts before the peer */
	if (e->hop_box_a == 1 || e->hop_box_b == 1) {
		snprintf(why, len, "%s",
			 e->hop_box_a == 1 ? e->hop_fact_a : e->hop_fact_b);
		return ELIM_KEPT;
	}
	return ELIM_OPEN;
}

/* One end's own connection tracking forgetting an idle connection:
 * eliminated where an idle connection of that end lived on (its tracking
 * forgets by time, not by peer), or where its ruleset was read and drops
 * nothing (a connection it forgot passes its rules as a new one); only
 * for an idle failure. */
static enum elim_state track_end(const struct elim_ev *e, bool rules,
				 bool tracked, const char *kept,
				 const char *node, char *why, size_t len)
{
	if (!e->idle_killed) {
		snprintf(why, len, "no idle connection failed");
		return ELIM_NA;
	}
	if (kept[0] != '\0') {
		snprintf(why, len,
			 "%s: its own tracking keeps idle connections", kept);
		return ELIM_GONE;
	}
	if (rules && !tracked) {
		snprintf(why, len,
			 "%s's ruleset was read and drops nothing: a "
			 "connection its tracking forgot passes as a new one",
			 node);
		return ELIM_GONE;
	}
	return ELIM_OPEN;
}

static enum elim_state t_track_a(const struct elim_ev *e, char *why,
				 size_t len)
{
	return track_end(e, e->rules_a, e->tracked_a, e->kept_a, e->a, why,
			 len);
}

static enum elim_state t_track_b(const struct elim_ev *e, char *why,
				 size_t len)
{
	return track_end(e, e->rules_b, e->tracked_b, e->kept_b, e->b, why,
			 len);
}

/* True when a and b are routed to each other (a gateway on either end, or
 * two subnets): their frames go to a gateway, not to the other end. */
static bool routed(const struct elim_ev *e)
{
	return e->gw_a[0] != '\0' || e->gw_b[0] != '\0' ||
	       (e->net_a[0] != '\0' && e->net_b[0] != '\0' &&
	        strcmp(e->net_a, e->net_b) != 0);
}

/* A static neighbour entry on one end that names the other's address
 * with an old MAC: shown where the entry and the owner's MAC disagree,
 * eliminated where both ends' tables were read and neither does; a
 * routed pair's frames go to a gateway's entry, not the other end's. */
static enum elim_state t_neigh(const struct elim_ev *e, char *why, size_t len)
{
	if (e->neigh_stale_a || e->neigh_stale_b) {
		snprintf(why, len,
			 "%s holds a static neighbour entry for %s's address "
			 "with a MAC %s does not have",
			 e->neigh_stale_a ? e->a : e->b,
			 e->neigh_stale_a ? e->b : e->a,
			 e->neigh_stale_a ? e->b : e->a);
		return ELIM_KEPT;
	}
	if (routed(e)) {
		snprintf(why, len,
			 "%s and %s are routed: their frames go to a "
			 "gateway's neighbour entry",
			 e->a, e->b);
		return ELIM_NA;
	}
	if (e->neigh_read_a && e->neigh_read_b) {
		snprintf(why, len,
			 "%s's and %s's neighbour tables were read: no static "
			 "entry names the other's address with a MAC it does "
			 "not have",
			 e->a, e->b);
		return ELIM_GONE;
	}
	return ELIM_OPEN;
}

/* Two macvlan siblings in VEPA or private mode: shown where both ends
 * hold their address on such a macvlan on one subnet, eliminated where
 * both scans were read and one end is none; a routed pair's frames go
 * to a gateway, never straight to a sibling. */
static enum elim_state t_vepa(const struct elim_ev *e, char *why, size_t len)
{
	if (e->vepa_both) {
		snprintf(why, len,
			 "%s and %s both hold their address on a macvlan in "
			 "VEPA or private mode, on one subnet",
			 e->a, e->b);
		return ELIM_KEPT;
	}
	if (routed(e)) {
		snprintf(why, len,
			 "%s and %s are routed: their frames go to a "
			 "gateway, not from one macvlan to its sibling",
			 e->a, e->b);
		return ELIM_NA;
	}
	if (e->vepa_read) {
		snprintf(why, len,
			 "%s's and %s's interfaces were read: they are not "
			 "two macvlans in VEPA or private mode",
			 e->a, e->b);
		return ELIM_GONE;
	}
	return ELIM_OPEN;
}

/* A notrack exemption that no accept matches: shown where either end's
 * scan found one covering the other, eliminated where both ends'
 * rulesets were read without one (an iptables-legacy ruleset's raw
 * table is not read: open). */
static enum elim_state t_untracked(const struct elim_ev *e, char *why,
				   size_t len)
{
	if (e->untracked_a || e->untracked_b) {
		snprintf(why, len,
			 "%s exempts %s's packets from connection tracking "
			 "and no accept of its input matches them untracked",
			 e->untracked_b ? e->b : e->a,
			 e->untracked_b ? e->a : e->b);
		return ELIM_KEPT;
	}
	if (e->rules_a && e->rules_b && !e->legacy_a && !e->legacy_b) {
		snprintf(why, len,
			 "%s's and %s's nftables rulesets were read: no "
			 "exemption from tracking is left unaccepted",
			 e->a, e->b);
		return ELIM_GONE;
	}
	return ELIM_OPEN;
}

/* A multipath route on one end whose picked next hop never answers:
 * shown where that end's scan found it toward the other, eliminated
 * where the two reached each other's responder both ways (under the
 * default hash, of addresses only, every flow of the pair takes the
 * same next hop) and where the pair is not routed (no next hop to
 * pick). */
static enum elim_state t_ecmp(const struct elim_ev *e, char *why, size_t len)
{
	if (e->ecmp_a || e->ecmp_b) {
		snprintf(why, len,
			 "%s's multipath route toward %s picks a next hop "
			 "that never answered, while another one answers",
			 e->ecmp_a ? e->a : e->b, e->ecmp_a ? e->b : e->a);
		return ELIM_KEPT;
	}
	if (!routed(e)) {
		snprintf(why, len,
			 "%s and %s share a subnet: no next hop to pick",
			 e->a, e->b);
		return ELIM_NA;
	}
	if (e->control_ok) {
		snprintf(why, len,
			 "%s and %s reached each other's responder both "
			 "ways: their packets' next hops answer",
			 e->a, e->b);
		return ELIM_GONE;
	}
	return ELIM_OPEN;
}

/* A blackhole, unreachable or prohibit route on one end that holds the
 * other: shown where that end's scan met it, eliminated where both ends'
 * lookups toward each other were answered with a route. */
static enum elim_state t_rtdrop(const struct elim_ev *e, char *why,
				size_t len)
{
	if (e->rtdrop_a || e->rtdrop_b) {
		snprintf(why, len,
			 "%s's blackhole, unreachable or prohibit route "
			 "holds %s's address",
			 e->rtdrop_a ? e->a : e->b, e->rtdrop_a ? e->b : e->a);
		return ELIM_KEPT;
	}
	if ((e->lookup_a && e->lookup_b) || e->control_ok) {
		snprintf(why, len,
			 "%s's and %s's route lookups toward each other "
			 "were answered with a route, not a drop",
			 e->a, e->b);
		return ELIM_GONE;
	}
	return ELIM_OPEN;
}

static const struct elim_row rows[] = {
	{"firewall-b", "{b}'s own firewall", "firewall", t_fw_b,
	 "nft -a list ruleset on {b} (as root)"},
	{"firewall-a", "{a}'s own firewall", "firewall", t_fw_a,
	 "nft -a list ruleset on {a} (as root)"},
	{"route-a", "{a}'s routing toward {b}", "route", t_route_a,
	 "ip route get {b} on {a}"},
	{"route-b", "{b}'s routing toward {a}", "route", t_route_b,
	 "ip route get {a} on {b}"},
	{"nat", "NAT on either end", "nat", t_nat,
	 "netprobe scan --peer {b} on {a}"},
	{"conflict", "an address held twice", "setting", t_conflict,
	 "ip -br addr on every node"},
	{"neigh", "a static neighbour entry with an old MAC", "setting",
	 t_neigh,
	 "ip neigh show nud permanent on {a} and on {b}, against ip -br link "
	 "on the other"},
	{"untracked", "a notrack exemption no accept matches", "setting",
	 t_untracked,
	 "nft list ruleset on {a} and on {b} (a notrack rule, and no accept "
	 "of ct state untracked)"},
	{"vepa", "two macvlan siblings in VEPA or private mode", "setting",
	 t_vepa,
	 "ip -d link show on {a} and on {b} (macvlan mode vepa or private)"},
	{"ecmp", "a multipath route that picks a dead next hop", "setting",
	 t_ecmp,
	 "ip route get {b} from {a}'s address on {a}, and ip neigh show for "
	 "each next hop of that route"},
	{"rtdrop", "a blackhole, unreachable or prohibit route", "setting",
	 t_rtdrop,
	 "ip route show type blackhole; ip route show type unreachable; ip "
	 "route show type prohibit on {a} and on {b}"},
	{"loss", "loss on the link", "loss", t_loss,
	 "ping -c 200 -i 0.05 {b} on {a}"},
	{"qdisc", "a queueing discipline that drops frames by size",
	 "setting", t_qdisc,
	 "tc -s qdisc show dev {ifa} on {a}, and on {b} and each hop between "
	 "(a tbf burst below a full frame, an htb direct_qlen 0)"},
	{"mtu", "an MTU limit", "mtu", t_mtu, "netprobe path {b} on {a}"},
	{"listener", "nothing listens on {b}'s port", "listener", t_listener,
	 "ss -ltn on {b}"},
	{"conntrack-a", "{a}'s own connection tracking", "firewall", t_track_a,
	 "sysctl net.netfilter.nf_conntrack_tcp_timeout_established on {a}"},
	{"conntrack-b", "{b}'s own connection tracking", "firewall", t_track_b,
	 "sysctl net.netfilter.nf_conntrack_tcp_timeout_established on {b}"},
	{"path", "a box on the path between the subnets", "path", t_path,
	 "traceroute -T -p {port} {b} on {a} (the last hop that answers)"},
};

/* See elim.h. */
const struct elim_row *elim_rows(size_t *n)
{
	*n = sizeof(rows) / sizeof(rows[0]);
	return rows;
}

/* See elim.h. */
int elim_row_of(const char *id)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (strcmp(rows[i].id, id) == 0)
			return (int)i;
	return -1;
}

/* See elim.h. */
size_t elim_run(const struct elim_ev *e, struct elim_out *o)
{
	size_t n;
	const struct elim_row *r = elim_rows(&n);

	memset(o, 0, sizeof(*o));
	o->n = n < ELIM_MAXROWS ? n : ELIM_MAXROWS;
	for (size_t i = 0; i < o->n; i++) {
		o->state[i] = r[i].test(e, o->why[i], sizeof(o->why[i]));
		if (o->state[i] != ELIM_GONE && o->state[i] != ELIM_NA)
			o->remain++;
		if (o->state[i] == ELIM_KEPT)
			o->kept++;
	}
	return o->remain;
}

/* See elim.h. */
void elim_fill(const char *text, const struct elim_ev *e, char *buf,
	       size_t len)
{
	size_t l = 0;
	char num[32];

	if (len == 0)
		return;
	/* the port's number alone, as a command takes it */
	snprintf(num, sizeof(num), "%.*s", (int)strcspn(e->port, "/"),
		 e->port);
	buf[0] = '\0';
	while (*text != '\0' && l + 1 < len) {
		const char *v = NULL;
		size_t skip = 0;

		if (strncmp(text, "{a}", 3) == 0)
			v = e->a, skip = 3;
		else if (strncmp(text, "{b}", 3) == 0)
			v = e->b, skip = 3;
		else if (strncmp(text, "{port}", 6) == 0)
			v = num, skip = 6;
		else if (strncmp(text, "{ifa}", 5) == 0)
			v = e->if_a[0] != '\0' ? e->if_a : "IF", skip = 5;
		if (v != NULL) {
			l += (size_t)snprintf(buf + l, len - l, "%s", v);
			if (l >= len)
				l = len - 1;
			text += skip;
		} else
			buf[l++] = *text++;
	}
	buf[l] = '\0';
}
