/* xfrm-policy-no-state (lib/decide/decide_xfrm.c, kernel/xfrm.c, issue
 * 48) on XFRM_MSG_NEWPOLICY and XFRM_MSG_NEWSA messages built in memory
 * as the kernel's dumps answer them (this kernel may lack ESP's ciphers,
 * so no SA could be installed for a lab): blind48c 03's policies left
 * after the IPsec service stopped (transport mode toward the node's own
 * /24, no state) are two faults with their ip xfrm policy delete
 * commands; the same with their states, with level use, 07's site to
 * site tunnel toward another subnet, a block policy and a per-socket
 * policy are silent. */
#include <arpa/inet.h>
#include <check.h>
#include <net/if.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/xfrm.h>

#include "decide/decide_xfrm.h"
#include "kernel/xfrm.h"
#include "unitfix.h"

/* An IPv4 address into x. */
static void v4(xfrm_address_t *x, const char *s)
{
	memset(x, 0, sizeof(*x));
	ck_assert_int_eq(inet_pton(AF_INET, s, &x->a4), 1);
}

/* A NEWPOLICY message of dir for src/sl dst/dl with one template (tmpl
 * daddr td, "" none; mode; optional), added to db through the parser. */
static void policy(struct xfrm_db *db, unsigned dir, unsigned action,
                   const char *src, unsigned sl, const char *dst,
                   unsigned dl, const char *td, unsigned mode, bool opt)
{
	char buf[1024];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct xfrm_userpolicy_info *pi;
	struct xfrm_user_tmpl t;

	nlh->nlmsg_type = XFRM_MSG_NEWPOLICY;
	pi = mnl_nlmsg_put_extra_header(nlh, sizeof(*pi));
	pi->sel.family = AF_INET;
	v4(&pi->sel.saddr, src);
	v4(&pi->sel.daddr, dst);
	pi->sel.prefixlen_s = (unsigned char)sl;
	pi->sel.prefixlen_d = (unsigned char)dl;
	pi->dir = (unsigned char)dir;
	pi->action = (unsigned char)action;
	pi->index = 8 + dir;
	memset(&t, 0, sizeof(t));
	t.family = AF_INET;
	t.id.proto = IPPROTO_ESP;
	if (td[0])
		v4(&t.id.daddr, td);
	t.mode = (unsigned char)mode;
	t.optional = opt;
	t.aalgos = t.ealgos = t.calgos = ~0u;
	mnl_attr_put(nlh, XFRMA_TMPL, sizeof(t), &t);
	ck_assert_int_eq(xfrm_parse_msg(nlh, db), 0);
}

/* A NEWSA message: an ESP state toward daddr, in mode. */
static void state(struct xfrm_db *db, const char *saddr, const char *daddr,
                  unsigned mode)
{
	char buf[1024];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct xfrm_usersa_info *si;

	nlh->nlmsg_type = XFRM_MSG_NEWSA;
	si = mnl_nlmsg_put_extra_header(nlh, sizeof(*si));
	si->family = AF_INET;
	v4(&si->id.daddr, daddr);
	v4(&si->saddr, saddr);
	si->id.proto = IPPROTO_ESP;
	si->id.spi = htonl(0x1000);
	si->mode = (unsigned char)mode;
	ck_assert_int_eq(xfrm_parse_msg(nlh, db), 0);
}

/* The findings decide_xfrm adds on a node holding addr/24 on eth0; the
 * first one's command into cmd. */
static size_t run(const struct xfrm_db *db, const char *addr, char *cmd,
                  size_t len)
{
	struct iface_list l = {0};
	struct doc d;
	size_t n;

	unitfix_iface(&l, "eth0", IFK_PHYSICAL, IFF_UP | IFF_RUNNING, addr,
	              24);
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_int_eq(decide_xfrm(db, &l, &d), 0);
	n = json_array_size(d.findings);
	cmd[0] = '\0';
	if (n > 0) {
		const json_t *f = json_array_get(d.findings, 0);

		ck_assert_str_eq(json_string_value(json_object_get(f, "code")),
		                 "xfrm-policy-no-state");
		snprintf(cmd, len, "%s",
		         json_string_value(json_object_get(f, "command")));
	}
	doc_free(&d);
	iface_list_free(&l);
	return n;
}

/* blind48c 03's two trap policies of node04 (10.231.83.4). */
static void stale(struct xfrm_db *db)
{
	memset(db, 0, sizeof(*db));
	db->read = true;
	policy(db, XFRM_POLICY_OUT, XFRM_POLICY_ALLOW, "10.231.83.4", 32,
	       "10.231.83.0", 24, "", XFRM_MODE_TRANSPORT, false);
	policy(db, XFRM_POLICY_IN, XFRM_POLICY_ALLOW, "10.231.83.0", 24,
	       "10.231.83.4", 32, "", XFRM_MODE_TRANSPORT, false);
}

START_TEST(stale_policies_without_state)
{
	struct xfrm_db db;
	char cmd[300];

	stale(&db);
	ck_assert_uint_eq(db.np, 2);
	ck_assert_uint_eq(db.p[0].nt, 1);
	ck_assert_uint_eq(run(&db, "10.231.83.4", cmd, sizeof(cmd)), 2);
	ck_assert_str_eq(cmd, "ip xfrm policy delete src 10.231.83.4/32 dst "
	                      "10.231.83.0/24 dir out");
	/* unread, or more than kept: not judged */
	db.truncated = true;
	ck_assert_uint_eq(run(&db, "10.231.83.4", cmd, sizeof(cmd)), 0);
	db.truncated = false;
	db.read = false;
	ck_assert_uint_eq(run(&db, "10.231.83.4", cmd, sizeof(cmd)), 0);
}
END_TEST

START_TEST(policies_with_states_are_silent)
{
	struct xfrm_db db;
	char cmd[300];

	stale(&db);
	state(&db, "10.231.83.4", "10.231.83.1", XFRM_MODE_TRANSPORT);
	state(&db, "10.231.83.1", "10.231.83.4", XFRM_MODE_TRANSPORT);
	ck_assert_uint_eq(db.ns, 2);
	ck_assert_uint_eq(db.s[0].spi, 0x1000);
	ck_assert_uint_eq(run(&db, "10.231.83.4", cmd, sizeof(cmd)), 0);
	/* another node of the LAN is not covered by node04's policy */
	stale(&db);
	ck_assert_uint_eq(run(&db, "10.231.83.2", cmd, sizeof(cmd)), 0);
}
END_TEST

START_TEST(use_block_tunnel_socket_silent)
{
	struct xfrm_db db;
	char buf[1024];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct xfrm_userpolicy_info *pi;
	char cmd[300];

	memset(&db, 0, sizeof(db));
	db.read = true;
	/* level use: no SA, no drop */
	policy(&db, XFRM_POLICY_OUT, XFRM_POLICY_ALLOW, "10.231.83.4", 32,
	       "10.231.83.0", 24, "", XFRM_MODE_TRANSPORT, true);
	/* blind48c 07: a site-to-site tunnel toward 10.231.99.0/24 */
	policy(&db, XFRM_POLICY_OUT, XFRM_POLICY_ALLOW, "10.231.83.0", 24,
	       "10.231.99.0", 24, "10.231.83.254", XFRM_MODE_TUNNEL, false);
	policy(&db, XFRM_POLICY_IN, XFRM_POLICY_ALLOW, "10.231.99.0", 24,
	       "10.231.83.0", 24, "10.231.83.4", XFRM_MODE_TUNNEL, false);
	policy(&db, XFRM_POLICY_FWD, XFRM_POLICY_ALLOW, "10.231.99.0", 24,
	       "10.231.83.0", 24, "10.231.83.4", XFRM_MODE_TUNNEL, false);
	/* a block policy toward another subnet */
	policy(&db, XFRM_POLICY_OUT, XFRM_POLICY_BLOCK, "0.0.0.0", 0,
	       "10.231.98.0", 24, "", XFRM_MODE_TRANSPORT, false);
	ck_assert_uint_eq(run(&db, "10.231.83.4", cmd, sizeof(cmd)), 0);
	/* a per-socket policy is a program's: not kept */
	nlh->nlmsg_type = XFRM_MSG_NEWPOLICY;
	pi = mnl_nlmsg_put_extra_header(nlh, sizeof(*pi));
	pi->dir = XFRM_POLICY_MAX;
	ck_assert_int_eq(xfrm_parse_msg(nlh, &db), 0);
	ck_assert_uint_eq(db.np, 5);
	/* a message too short for its type */
	nlh->nlmsg_len = mnl_nlmsg_size(4);
	ck_assert_int_eq(xfrm_parse_msg(nlh, &db), -1);
}
END_TEST

Suite *suite_decide_xfrm(void)
{
	Suite *s = suite_create("decide_xfrm");
	TCase *tc = tcase_create("xfrm");

	tcase_add_test(tc, stale_policies_without_state);
	tcase_add_test(tc, policies_with_states_are_silent);
	tcase_add_test(tc, use_block_tunnel_socket_silent);
	suite_add_tcase(s, tc);
	return s;
}
