/* ecmp-dead-nexthop and route-type-drop (lib/decide/decide_ecmp.c, issue
 * 48, blind48c 04) fed peer verdicts as the scan fills them, and the
 * multipath parser (nl_parse_route) fed a message built in memory. A
 * lookup that picks a next hop whose neighbour entry failed, beside a
 * reachable sibling, is a fault with the ip route replace command onto
 * the live hop, for IPv4 and IPv6; a healthy ECMP, a live pick, a peer
 * that answered and a sibling never seen are silent. A blackhole holding
 * a peer is a fault whose command deletes it where a unicast route
 * takes over, and gives no command where none would. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

#include "decide/decide_ecmp.h"

static const struct mpath_conf conf = {0, 0, 0};

/* A peer at addr whose lookup picked gw, through the multipath route
 * dst of two hops g1 (state s1) and g2 (state s2) on lan0. */
static struct peer_verdict ecmp_peer(int fam, const char *addr,
				     const char *gw, const char *dst,
				     const char *g1, unsigned s1,
				     const char *g2, unsigned s2)
{
	struct peer_verdict v;

	memset(&v, 0, sizeof(v));
	snprintf(v.peer, sizeof(v.peer), "%s:7471", addr);
	snprintf(v.peer_addr, sizeof(v.peer_addr), "%s", addr);
	snprintf(v.local_ifname, sizeof(v.local_ifname), "lan0");
	snprintf(v.local_addr, sizeof(v.local_addr),
		 fam == AF_INET ? "10.231.84.1" : "fd84::1");
	snprintf(v.gateway, sizeof(v.gateway), "%s", gw);
	v.have_match = true;
	v.match.family = fam;
	v.match.type = RTN_UNICAST;
	v.match.table = RT_TABLE_MAIN;
	v.match.metric = fam == AF_INET6 ? 1024 : 0;
	snprintf(v.match.destination, sizeof(v.match.destination), "%s", dst);
	v.match.nnh = 2;
	snprintf(v.match.nh[0].gateway, sizeof(v.match.nh[0].gateway), "%s",
		 g1);
	snprintf(v.match.nh[1].gateway, sizeof(v.match.nh[1].gateway), "%s",
		 g2);
	for (int i = 0; i < 2; i++) {
		snprintf(v.match.nh[i].ifname, sizeof(v.match.nh[i].ifname),
			 "lan0");
		v.match.nh[i].oif = 2;
		v.match.nh[i].neigh_read = (i == 0 ? s1 : s2) != 0;
		v.match.nh[i].neigh = i == 0 ? s1 : s2;
	}
	return v;
}

/* The findings over peers: their count; the first's code and command
 * ("" none) into code and cmd, its route facts' count into nroute. */
static size_t run(const struct peer_verdict *p, size_t n, char *code,
		  char *cmd, size_t *nroute)
{
	struct doc d;
	size_t k;

	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_int_eq(decide_route_drops(p, n, &conf, &d), 0);
	k = json_array_size(d.findings);
	code[0] = cmd[0] = '\0';
	*nroute = 0;
	if (k > 0) {
		const json_t *f = json_array_get(d.findings, 0), *e;
		const char *c = json_string_value(json_object_get(f, "command"));
		size_t i;

		snprintf(code, 64, "%s",
			 json_string_value(json_object_get(f, "code")));
		snprintf(cmd, 300, "%s", c != NULL ? c : "");
		json_array_foreach(json_object_get(f, "evidence"), i, e)
			*nroute += strcmp(json_string_value(json_object_get(
						  e, "source")),
					  "route") == 0;
	}
	doc_free(&d);
	return k;
}

START_TEST(dead_pick_beside_live_hop)
{
	struct peer_verdict p[3] = {
	    ecmp_peer(AF_INET, "10.231.85.3", "10.231.84.251",
		      "10.231.85.0/24", "10.231.84.251", NUD_REACHABLE,
		      "10.231.84.252", NUD_FAILED),
	    ecmp_peer(AF_INET, "10.231.85.4", "10.231.84.252",
		      "10.231.85.0/24", "10.231.84.251", NUD_REACHABLE,
		      "10.231.84.252", NUD_FAILED),
	    ecmp_peer(AF_INET, "10.231.85.5", "10.231.84.252",
		      "10.231.85.0/24", "10.231.84.251", NUD_STALE,
		      "10.231.84.252", NUD_INCOMPLETE)};
	char code[64], cmd[300];
	size_t nr;

	p[0].responded = true;
	ck_assert_uint_eq(run(p, 3, code, cmd, &nr), 1);
	ck_assert_str_eq(code, "ecmp-dead-nexthop");
	ck_assert_str_eq(cmd,
			 "ip route replace 10.231.85.0/24 via 10.231.84.251 "
			 "dev lan0");
	ck_assert_uint_eq(nr, 2); /* node .4 and .5, not the answering .3 */
}
END_TEST

START_TEST(one_gateway_on_two_interfaces)
{
	/* the same link-local-like gateway address behind two NICs: the
	 * lookup's interface tells the hops apart */
	struct peer_verdict p = ecmp_peer(AF_INET, "10.231.85.4", "10.231.84.254",
					  "10.231.85.0/24", "10.231.84.254",
					  NUD_REACHABLE, "10.231.84.254",
					  NUD_FAILED);
	char code[64], cmd[300];
	size_t nr;

	snprintf(p.match.nh[1].ifname, sizeof(p.match.nh[1].ifname), "lan1");
	snprintf(p.local_ifname, sizeof(p.local_ifname), "lan1");
	ck_assert_uint_eq(run(&p, 1, code, cmd, &nr), 1);
	ck_assert_str_eq(cmd, "ip route replace 10.231.85.0/24 via "
			      "10.231.84.254 dev lan0");
}
END_TEST

START_TEST(ipv6_dead_pick)
{
	struct peer_verdict p = ecmp_peer(AF_INET6, "fd85::4", "fd84::252",
					  "fd85::/64", "fd84::251", NUD_REACHABLE,
					  "fd84::252", NUD_FAILED);
	char code[64], cmd[300];
	size_t nr;

	ck_assert_uint_eq(run(&p, 1, code, cmd, &nr), 1);
	ck_assert_str_eq(code, "ecmp-dead-nexthop");
	ck_assert_str_eq(cmd, "ip -6 route replace fd85::/64 via fd84::251 "
			      "dev lan0 metric 1024");
}
END_TEST

START_TEST(healthy_or_unknown_is_silent)
{
	struct peer_verdict p[4] = {
	    /* a live pick (the pair's failure is not the route's) */
	    ecmp_peer(AF_INET, "10.231.85.3", "10.231.84.251",
		      "10.231.85.0/24", "10.231.84.251", NUD_REACHABLE,
		      "10.231.84.252", NUD_FAILED),
	    /* every hop live: blind48c 08 */
	    ecmp_peer(AF_INET, "10.231.85.4", "10.231.84.252",
		      "10.231.85.0/24", "10.231.84.251", NUD_REACHABLE,
		      "10.231.84.252", NUD_REACHABLE),
	    /* the sibling never seen: cannot tell it lives */
	    ecmp_peer(AF_INET, "10.231.85.5", "10.231.84.252",
		      "10.231.85.0/24", "10.231.84.251", 0, "10.231.84.252",
		      NUD_FAILED),
	    /* a dead pick, but the peer answered */
	    ecmp_peer(AF_INET, "10.231.85.6", "10.231.84.252",
		      "10.231.85.0/24", "10.231.84.251", NUD_REACHABLE,
		      "10.231.84.252", NUD_FAILED)};
	char code[64], cmd[300];
	size_t nr;

	p[3].responded = true;
	ck_assert_uint_eq(run(p, 4, code, cmd, &nr), 0);
}
END_TEST

/* A peer held by a drop route of type t over dst, with fallback fb
 * ("" none). */
static struct peer_verdict drop_peer(const char *addr, int t,
				     const char *dst, const char *fb)
{
	struct peer_verdict v;

	memset(&v, 0, sizeof(v));
	snprintf(v.peer, sizeof(v.peer), "%s:7471", addr);
	snprintf(v.peer_addr, sizeof(v.peer_addr), "%s", addr);
	v.have_match = true;
	v.match.family = strchr(addr, ':') ? AF_INET6 : AF_INET;
	v.match.type = t;
	v.match.table = RT_TABLE_MAIN;
	snprintf(v.match.destination, sizeof(v.match.destination), "%s", dst);
	v.have_fallback = fb[0] != '\0';
	snprintf(v.fallback, sizeof(v.fallback), "%s", fb);
	return v;
}

START_TEST(drop_route_holds_peer)
{
	struct peer_verdict p[2] = {
	    drop_peer("10.231.93.3", RTN_BLACKHOLE, "10.231.93.0/24",
		      "10.231.0.0/16 via 10.231.91.254 dev lan0"),
	    drop_peer("10.231.93.4", RTN_BLACKHOLE, "10.231.93.0/24",
		      "10.231.0.0/16 via 10.231.91.254 dev lan0")};
	struct peer_verdict u =
	    drop_peer("fd93::3", RTN_PROHIBIT, "fd93::/64", "");
	char code[64], cmd[300];
	size_t nr;

	ck_assert_uint_eq(run(p, 2, code, cmd, &nr), 1);
	ck_assert_str_eq(code, "route-type-drop");
	ck_assert_str_eq(cmd, "ip route del blackhole 10.231.93.0/24");
	ck_assert_uint_eq(nr, 2);
	/* nothing behind it: deleting would leave no route, no command */
	ck_assert_uint_eq(run(&u, 1, code, cmd, &nr), 1);
	ck_assert_str_eq(code, "route-type-drop");
	ck_assert_str_eq(cmd, "");
}
END_TEST

START_TEST(parse_multipath_every_hop)
{
	char buf[512];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct rtmsg *rtm;
	struct nlattr *mp;
	struct route_info r;
	unsigned char dst[4] = {10, 231, 85, 0};
	unsigned char g[2][4] = {{10, 231, 84, 251}, {10, 231, 84, 252}};

	nlh->nlmsg_type = RTM_NEWROUTE;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = AF_INET;
	rtm->rtm_dst_len = 24;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_type = RTN_UNICAST;
	mnl_attr_put(nlh, RTA_DST, 4, dst);
	mp = mnl_attr_nest_start(nlh, RTA_MULTIPATH);
	for (int i = 0; i < 2; i++) {
		struct rtnexthop *nh =
		    (struct rtnexthop *)((char *)mnl_nlmsg_get_payload_tail(nlh));
		char *tail;

		memset(nh, 0, sizeof(*nh));
		nh->rtnh_ifindex = 2 + i;
		nh->rtnh_flags = i == 1 ? RTNH_F_LINKDOWN : 0;
		nlh->nlmsg_len += RTNH_ALIGN(sizeof(*nh));
		mnl_attr_put(nlh, RTA_GATEWAY, 4, g[i]);
		tail = (char *)mnl_nlmsg_get_payload_tail(nlh);
		nh->rtnh_len = (unsigned short)(tail - (char *)nh);
	}
	mnl_attr_nest_end(nlh, mp);
	ck_assert_int_eq(nl_parse_route(nlh, &r), 0);
	ck_assert_uint_eq(r.nnh, 2);
	ck_assert_int_eq(r.type, RTN_UNICAST);
	ck_assert_str_eq(r.destination, "10.231.85.0/24");
	ck_assert_str_eq(r.nh[0].gateway, "10.231.84.251");
	ck_assert_str_eq(r.nh[1].gateway, "10.231.84.252");
	ck_assert_int_eq(r.nh[1].oif, 3);
	ck_assert_uint_eq(r.nh[1].flags & RTNH_F_LINKDOWN, RTNH_F_LINKDOWN);
	/* the first hop still stands for the route */
	ck_assert_str_eq(r.gateway, "10.231.84.251");
	ck_assert_int_eq(r.oif, 2);
}
END_TEST

Suite *suite_decide_ecmp(void)
{
	Suite *s = suite_create("decide_ecmp");
	TCase *tc = tcase_create("ecmp");

	tcase_add_test(tc, dead_pick_beside_live_hop);
	tcase_add_test(tc, one_gateway_on_two_interfaces);
	tcase_add_test(tc, ipv6_dead_pick);
	tcase_add_test(tc, healthy_or_unknown_is_silent);
	tcase_add_test(tc, drop_route_holds_peer);
	tcase_add_test(tc, parse_multipath_every_hop);
	suite_add_tcase(s, tc);
	return s;
}
