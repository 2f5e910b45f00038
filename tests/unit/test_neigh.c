/* The "no host answers" verdict: RTM_NEWNEIGH messages built in memory
 * (both families, every state, malformed ones) through nl_parse_neigh,
 * and ports_decide with no_host giving one host-unreachable and never a
 * firewall fix. */
#include "kernel/neigh.h"

#include <check.h>
#include <errno.h>
#include <string.h>

#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

#include "decide/portfind.h"

/* A neighbour message for addr (text) in state on ifindex. */
static struct nlmsghdr *neigh_msg(char *buf, int family, const char *addr,
				  unsigned state, int ifindex)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ndmsg *nd;
	unsigned char a[16];

	nlh->nlmsg_type = RTM_NEWNEIGH;
	nd = mnl_nlmsg_put_extra_header(nlh, sizeof(*nd));
	nd->ndm_family = (unsigned char)family;
	nd->ndm_ifindex = ifindex;
	nd->ndm_state = (unsigned short)state;
	if (addr != NULL) {
		ck_assert_int_eq(inet_pton(family, addr, a), 1);
		mnl_attr_put(nlh, NDA_DST, family == AF_INET ? 4 : 16, a);
	}
	return nlh;
}

START_TEST(parse_ipv4_failed)
{
	char buf[512];
	struct neigh_entry e;

	ck_assert_int_eq(nl_parse_neigh(neigh_msg(buf, AF_INET, "10.231.5.99",
						  NUD_FAILED, 3),
					&e),
			 0);
	ck_assert_str_eq(e.addr, "10.231.5.99");
	ck_assert_int_eq(e.ifindex, 3);
	ck_assert(neigh_unresolved(e.state));
	ck_assert_str_eq(neigh_state_name(e.state), "failed");
}
END_TEST

START_TEST(parse_ipv6_states)
{
	static const struct {
		unsigned state;
		const char *name;
		bool unresolved;
	} t[] = {{NUD_INCOMPLETE, "incomplete", true},
		 {NUD_FAILED, "failed", true},
		 {NUD_REACHABLE, "reachable", false},
		 {NUD_STALE, "stale", false},
		 {NUD_DELAY, "delay", false},
		 {NUD_PROBE, "probe", false},
		 {NUD_PERMANENT, "permanent", false}};
	char buf[512];
	struct neigh_entry e;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ck_assert_int_eq(nl_parse_neigh(neigh_msg(buf, AF_INET6,
							  "fd00::99",
							  t[i].state, 2),
						&e),
				 0);
		ck_assert_str_eq(e.addr, "fd00::99");
		ck_assert_str_eq(neigh_state_name(e.state), t[i].name);
		ck_assert(neigh_unresolved(e.state) == t[i].unresolved);
	}
	ck_assert_str_eq(neigh_state_name(0), "none");
}
END_TEST

START_TEST(parse_rejects_malformed)
{
	char buf[512];
	struct neigh_entry e;
	struct nlmsghdr *nlh;

	/* no address */
	errno = 0;
	ck_assert_int_eq(nl_parse_neigh(neigh_msg(buf, AF_INET, NULL,
						  NUD_FAILED, 1),
					&e),
			 -1);
	ck_assert_int_eq(errno, EINVAL);
	/* an IPv4 message whose address is 16 bytes */
	nlh = neigh_msg(buf, AF_INET6, "fd00::1", NUD_FAILED, 1);
	((struct ndmsg *)mnl_nlmsg_get_payload(nlh))->ndm_family = AF_INET;
	ck_assert_int_eq(nl_parse_neigh(nlh, &e), -1);
	/* another message type */
	nlh = neigh_msg(buf, AF_INET, "10.231.5.1", NUD_FAILED, 1);
	nlh->nlmsg_type = RTM_NEWROUTE;
	ck_assert_int_eq(nl_parse_neigh(nlh, &e), -1);
	/* truncated below the fixed header */
	nlh = neigh_msg(buf, AF_INET, "10.231.5.1", NUD_FAILED, 1);
	nlh->nlmsg_len = MNL_NLMSG_HDRLEN + 2;
	ck_assert_int_eq(nl_parse_neigh(nlh, &e), -1);
	/* an attribute that overruns the message */
	nlh = neigh_msg(buf, AF_INET, "10.231.5.1", NUD_FAILED, 1);
	nlh->nlmsg_len -= 2;
	ck_assert_int_eq(nl_parse_neigh(nlh, &e), -1);
}
END_TEST

/* A static entry: PERMANENT or NOARP with a unicast MAC is kept, its
 * lladdr parsed; a reachable one, a broadcast NOARP one (the kernel's
 * own) and one with no lladdr are not. */
START_TEST(static_entries_kept)
{
	static const unsigned char mac[6] = {0x02, 0x62, 0x03, 0x00, 0xaa, 0x04};
	static const unsigned char bc[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	char buf[512];
	struct neigh_entry e;
	struct nlmsghdr *nlh;

	nlh = neigh_msg(buf, AF_INET, "10.231.62.4", NUD_PERMANENT, 2);
	mnl_attr_put(nlh, NDA_LLADDR, sizeof(mac), mac);
	ck_assert_int_eq(nl_parse_neigh(nlh, &e), 0);
	ck_assert_str_eq(e.lladdr, "02:62:03:00:aa:04");
	ck_assert(neigh_is_static(&e));
	nlh = neigh_msg(buf, AF_INET6, "fd00::4", NUD_NOARP, 2);
	mnl_attr_put(nlh, NDA_LLADDR, sizeof(mac), mac);
	ck_assert_int_eq(nl_parse_neigh(nlh, &e), 0);
	ck_assert(neigh_is_static(&e));
	nlh = neigh_msg(buf, AF_INET, "10.231.62.4", NUD_REACHABLE, 2);
	mnl_attr_put(nlh, NDA_LLADDR, sizeof(mac), mac);
	ck_assert_int_eq(nl_parse_neigh(nlh, &e), 0);
	ck_assert(!neigh_is_static(&e));
	nlh = neigh_msg(buf, AF_INET, "10.231.62.255", NUD_NOARP, 2);
	mnl_attr_put(nlh, NDA_LLADDR, sizeof(bc), bc);
	ck_assert_int_eq(nl_parse_neigh(nlh, &e), 0);
	ck_assert(!neigh_is_static(&e));
	nlh = neigh_msg(buf, AF_INET, "10.231.62.4", NUD_PERMANENT, 2);
	ck_assert_int_eq(nl_parse_neigh(nlh, &e), 0);
	ck_assert_str_eq(e.lladdr, "");
	ck_assert(!neigh_is_static(&e));
}
END_TEST

/* No host answers: one host-unreachable naming ARP, no port-filtered and
 * nothing that opens a firewall. */
START_TEST(decide_no_host)
{
	struct port_result r[2];
	struct ports_target t = {"10.231.5.99", "10.231.5.99", false, 0, 0,
				 "10.231.5.99", "incomplete", true, false, NULL};
	struct doc d;
	char *all;

	memset(r, 0, sizeof(r));
	r[0].port = 29500;
	r[1].port = 29400;
	for (int i = 0; i < 2; i++) {
		r[i].proto = IPPROTO_TCP;
		r[i].state = PORT_UNREACHABLE;
		r[i].attempts = 1;
		snprintf(r[i].reason, sizeof(r[i].reason),
			 "no host answers (ARP failed)");
	}
	ck_assert_int_eq(doc_init(&d, "netprobe", "ports"), 0);
	ck_assert_int_eq(ports_decide(&d, &t, r, 2, NULL, 0), 0);
	ck_assert(doc_has_finding(&d, "host-unreachable"));
	ck_assert(!doc_has_finding(&d, "port-filtered"));
	ck_assert(!doc_has_finding(&d, "ephemeral-range-blocked"));
	all = json_dumps(d.findings, 0);
	ck_assert_ptr_nonnull(strstr(all, "no host answers at 10.231.5.99"));
	ck_assert_ptr_nonnull(strstr(all, "ARP failed"));
	ck_assert_ptr_null(strstr(all, "nft "));
	ck_assert_ptr_null(strstr(all, "ufw "));
	ck_assert_ptr_null(strstr(all, "firewall-cmd"));
	free(all);
	doc_free(&d);
}
END_TEST

Suite *suite_neigh(void)
{
	Suite *s = suite_create("neigh");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, parse_ipv4_failed);
	tcase_add_test(tc, parse_ipv6_states);
	tcase_add_test(tc, parse_rejects_malformed);
	tcase_add_test(tc, static_entries_kept);
	tcase_add_test(tc, decide_no_host);
	suite_add_tcase(s, tc);
	return s;
}
