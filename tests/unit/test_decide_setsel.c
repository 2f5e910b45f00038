/* decide_setting_unreached and decide_master_rank0 (issue 48): settings
 * that differ between nodes. NCCL_SOCKET_IFNAME or
 * GLOO_SOCKET_IFNAME naming an interface no peer is reached by, while the
 * scan recommends another, is a fault with its one line; an interface a
 * route toward a peer uses, one whose subnet holds a peer, or one a
 * connection was measured from is eliminated. */
#include <arpa/inet.h>
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/decide.h"
#include "decide/recommend.h"
#include "decide_fx.h"

/* lo, lan0 10.231.30.3/24 (the peers'), eth9 10.231.60.3/24. */
static void node(struct iface_list *l)
{
	unitfix_lo(l);
	add(l, "lan0", IFK_VETH, UPRUN, "10.231.30.3", 24);
	add(l, "eth9", IFK_VETH, UPRUN, "10.231.60.3", 24);
}

/* Runs the decider on env e over l with peer p: the findings' count. */
static size_t run(const struct scan_env *e, const struct iface_list *l,
                  const struct peer_verdict *p, const struct src_reach *m,
                  size_t nm, struct doc *d)
{
	struct nccl_env ne;
	struct recommendation r = {.ifc = &l->v[1]};

	scan_env_nccl(e, NULL, &ne);
	ck_assert_int_eq(doc_init(d, "netprobe", "scan"), 0);
	ck_assert_int_eq(
	    decide_setting_unreached(e, &ne, l, p, 1, m, nm, &r, d), 0);
	return json_array_size(d->findings);
}

START_TEST(unreached_setting_is_a_fault)
{
	struct iface_list l = {0};
	struct scan_env e = {0};
	struct peer_verdict p;
	struct src_reach m;
	struct doc d;
	json_t *f;

	node(&l);
	memset(&p, 0, sizeof(p));
	snprintf(p.peer, sizeof(p.peer), "node04:7471");
	snprintf(p.peer_addr, sizeof(p.peer_addr), "10.231.30.4");
	snprintf(p.local_ifname, sizeof(p.local_ifname), "lan0");
	p.responded = true;
	memset(&m, 0, sizeof(m));
	snprintf(m.ifname, sizeof(m.ifname), "eth9");
	m.answered = 1;

	e.nccl_socket_ifname = "eth9";
	ck_assert_uint_eq(run(&e, &l, &p, &m, 0, &d), 1);
	f = json_array_get(d.findings, 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "code")),
	                 "rank-unreachable");
	ck_assert_str_eq(json_string_value(json_object_get(f, "severity")),
	                 "fault");
	ck_assert_str_eq(json_string_value(json_object_get(f, "command")),
	                 "export NCCL_SOCKET_IFNAME==lan0");
	ck_assert_str_eq(
	    json_string_value(json_array_get(json_object_get(f, "selects"), 0)),
	    "eth9");
	ck_assert_ptr_nonnull(
	    strstr(json_string_value(json_object_get(f, "summary")),
	           "NCCL_SOCKET_IFNAME=eth9"));
	doc_free(&d);

	e.nccl_socket_ifname = NULL;
	e.gloo_socket_ifname = "eth9";
	ck_assert_uint_eq(run(&e, &l, &p, &m, 0, &d), 1);
	ck_assert_str_eq(json_string_value(json_object_get(
	                     json_array_get(d.findings, 0), "command")),
	                 "export GLOO_SOCKET_IFNAME=lan0");
	doc_free(&d);

	/* a connection from eth9 was measured and answered: eliminated */
	ck_assert_uint_eq(run(&e, &l, &p, &m, 1, &d), 0);
	doc_free(&d);
	/* the peer's address lies in eth9's subnet: eliminated */
	snprintf(p.peer_addr, sizeof(p.peer_addr), "10.231.60.4");
	ck_assert_uint_eq(run(&e, &l, &p, &m, 0, &d), 0);
	doc_free(&d);
	snprintf(p.peer_addr, sizeof(p.peer_addr), "10.231.30.4");
	/* the recommended interface itself: nothing to say */
	e.gloo_socket_ifname = "lan0";
	ck_assert_uint_eq(run(&e, &l, &p, &m, 0, &d), 0);
	doc_free(&d);
	/* no peer answered: no evidence either way (host-unreachable's) */
	e.gloo_socket_ifname = "eth9";
	p.responded = false;
	ck_assert_uint_eq(run(&e, &l, &p, &m, 0, &d), 0);
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

/* A peer verdict toward name (with its port) resolved to addr. */
static struct peer_verdict member(const char *name, const char *addr)
{
	struct peer_verdict p;

	memset(&p, 0, sizeof(p));
	snprintf(p.peer, sizeof(p.peer), "%s:7471", name);
	snprintf(p.peer_addr, sizeof(p.peer_addr), "%s", addr);
	p.responded = true;
	return p;
}

/* MASTER_ADDR resolved to text a. */
static void master(struct master_info *m, const char *a)
{
	memset(m, 0, sizeof(*m));
	m->family = AF_INET;
	ck_assert_int_eq(inet_pton(AF_INET, a, m->addr), 1);
	snprintf(m->str, sizeof(m->str), "%s", a);
	m->resolved = true;
}

/* Issue 48: MASTER_ADDR at a member that is not rank 0 (or at itself,
 * not being rank 0) is a fault with its one line; rank 0's address, or
 * one no member was resolved to, is not. */
START_TEST(master_not_rank0)
{
	struct iface_list l = {0};
	struct scan_env e = {.master_addr = "node04"};
	struct peer_verdict p[3];
	struct master_info m;
	struct doc d;
	json_t *f;

	node(&l); /* this node: 10.231.30.3, rank 2 */
	p[0] = member("node01", "10.231.30.1");
	p[1] = member("node02", "10.231.30.2");
	p[2] = member("node04", "10.231.30.4");
	master(&m, "10.231.30.4");
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_int_eq(decide_master_rank0(&e, &m, &l, 2, "node01",
	                                     "10.231.30.1", p, 3, &d),
	                 0);
	ck_assert_int_eq(json_array_size(d.findings), 1);
	f = json_array_get(d.findings, 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "command")),
	                 "export MASTER_ADDR=node01");
	ck_assert_ptr_nonnull(
	    strstr(json_string_value(json_object_get(f, "summary")),
	           "points at node04 (10.231.30.4)"));
	doc_free(&d);

	/* its own address, not being rank 0 */
	master(&m, "10.231.30.3");
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	decide_master_rank0(&e, &m, &l, 2, "node01", "10.231.30.1", p, 3, &d);
	ck_assert_int_eq(json_array_size(d.findings), 1);
	doc_free(&d);

	/* rank 0's address; rank 0 itself at its own; an address no
	 * member was resolved to (rank 0's second NIC): nothing */
	master(&m, "10.231.30.1");
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	decide_master_rank0(&e, &m, &l, 2, "node01", "10.231.30.1", p, 3, &d);
	master(&m, "10.231.30.3");
	decide_master_rank0(&e, &m, &l, 0, "node03", NULL, p, 3, &d);
	master(&m, "10.231.61.1");
	decide_master_rank0(&e, &m, &l, 2, "node01", "10.231.30.1", p, 3, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);

	/* rank 0 whose MASTER_ADDR names a member */
	master(&m, "10.231.30.2");
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	decide_master_rank0(&e, &m, &l, 0, "node03", NULL, p, 3, &d);
	ck_assert_int_eq(json_array_size(d.findings), 1);
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

Suite *suite_decide_setsel(void)
{
	Suite *s = suite_create("decide_setsel");
	TCase *tc = tcase_create("setsel");

	tcase_add_test(tc, unreached_setting_is_a_fault);
	tcase_add_test(tc, master_not_rank0);
	suite_add_tcase(s, tc);
	return s;
}
