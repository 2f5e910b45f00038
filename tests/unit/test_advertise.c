/* The addresses the frameworks advertise and the findings once the peers
 * said whether they reach them; NCCL's bootstrap modelled apart from its
 * transport (src/bootstrap.cc against src/misc/socket.cc). */
#include <arpa/inet.h>
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/advertise.h"
#include "decide/decide.h"
#include "decide_fx.h"

/* The e2e suite's two-NIC node: mgmt0 first (the default route), then
 * train0 where the peers are. */
static void two_nics(struct iface_list *l)
{
	unitfix_lo(l);
	add(l, "mgmt0", IFK_VETH, UPRUN, "10.231.80.1", 24);
	add(l, "train0", IFK_VETH, UPRUN, "10.231.81.1", 24);
}

static void host(struct hostname_info *h, const char *name, const char *a)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->name, sizeof(h->name), "%s", name);
	h->addrs[0].family = AF_INET;
	ck_assert_int_eq(inet_pton(AF_INET, a, &h->addrs[0].a), 1);
	snprintf(h->addrs[0].str, sizeof(h->addrs[0].str), "%s", a);
	h->addrs[0].bindable = 1;
	h->naddrs = 1;
	h->resolved = true;
}

/* The advert of a framework, or NULL. */
static const struct advert *find(const struct advert *a, size_t n,
                                 enum adv_framework fw, const char *addr)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].fw == fw && strcmp(a[i].addr, addr) == 0)
			return &a[i];
	return NULL;
}

START_TEST(advertised_env)
{
	struct iface_list l = {0};
	struct scan_env e = {0};
	struct hostname_info h;
	struct nccl_env ne;
	struct advert a[ADV_MAX];
	size_t n;

	two_nics(&l);
	host(&h, "gpu-a", "10.231.81.1");
	/* the job pins the wrong NIC */
	e.gloo_socket_ifname = "mgmt0";
	e.ompi_if_include = "mgmt0";
	scan_env_nccl(&e, NULL, &ne);
	n = decide_advertised(&e, &ne, &h, &l, a, ADV_MAX);
	ck_assert_ptr_nonnull(find(a, n, ADV_GLOO, "10.231.80.1"));
	ck_assert_ptr_nonnull(find(a, n, ADV_MPI, "10.231.80.1"));
	ck_assert_ptr_null(find(a, n, ADV_MPI, "10.231.81.1"));
	/* NCCL_SOCKET_IFNAME unset: its own rule takes mgmt0 first */
	ck_assert_ptr_nonnull(find(a, n, ADV_NCCL, "10.231.80.1"));

	/* nothing set: the hostname for Gloo, every up NIC for Open MPI */
	memset(&e, 0, sizeof(e));
	e.nccl_socket_ifname = "=train0";
	scan_env_nccl(&e, NULL, &ne);
	n = decide_advertised(&e, &ne, &h, &l, a, ADV_MAX);
	ck_assert_ptr_nonnull(find(a, n, ADV_GLOO, "10.231.81.1"));
	ck_assert_ptr_null(find(a, n, ADV_GLOO, "10.231.80.1"));
	ck_assert_ptr_nonnull(find(a, n, ADV_MPI, "10.231.80.1"));
	ck_assert_ptr_nonnull(find(a, n, ADV_MPI, "10.231.81.1"));
	ck_assert_ptr_nonnull(find(a, n, ADV_NCCL, "10.231.81.1"));

	/* a hostname on 127.0.1.1 is the hostname finding's, not tested */
	host(&h, "gpu-a", "127.0.1.1");
	n = decide_advertised(&e, &ne, &h, &l, a, ADV_MAX);
	ck_assert_ptr_null(find(a, n, ADV_GLOO, "127.0.1.1"));

	/* the exclude list (CIDR) keeps mgmt0 out */
	e.ompi_if_exclude = "10.231.80.0/24";
	n = decide_advertised(&e, &ne, &h, &l, a, ADV_MAX);
	ck_assert_ptr_null(find(a, n, ADV_MPI, "10.231.80.1"));
	iface_list_free(&l);
}
END_TEST

START_TEST(reach_findings)
{
	struct iface_list l = {0};
	struct advert a[3] = {
	    {ADV_GLOO, "mgmt0", "10.231.80.1", "GLOO_SOCKET_IFNAME=mgmt0"},
	    {ADV_MPI, "mgmt0", "10.231.80.1",
	     "OMPI_MCA_btl_tcp_if_include=mgmt0"},
	    {ADV_NCCL, "mgmt0", "10.231.80.1", "NCCL's bootstrap"},
	};
	struct peer_verdict p[1] = {{.responded = true,
	                             .peer_addr = "10.231.81.2",
	                             .local_addr = "10.231.81.1"}};
	struct reach_result r[3] = {{0, 0, REACHBACK_NO, "no answer"},
	                            {1, 0, REACHBACK_NO, "no answer"},
	                            {2, 0, REACHBACK_NO, "no answer"}};
	struct doc d;
	unsigned seen;
	json_t *f;
	size_t i;

	two_nics(&l);
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_int_eq(decide_reach(a, 3, r, 3, p, 1, &l.v[2], &d, &seen), 0);
	ck_assert_uint_eq(seen, ADV_BIT(ADV_GLOO) | ADV_BIT(ADV_MPI) |
	                            ADV_BIT(ADV_NCCL));
	ck_assert_int_eq(json_array_size(d.findings), 3);
	json_array_foreach(d.findings, i, f)
	{
		ck_assert_str_eq(
		    json_string_value(json_object_get(f, "severity")), "fault");
		ck_assert_ptr_nonnull(
		    strstr(json_string_value(json_object_get(f, "fix")),
		           "train0"));
	}
	doc_free(&d);

	/* the peer sorts below: this rank connects to it, Gloo only warns;
	 * an address the peer reached is no finding */
	snprintf(p[0].peer_addr, sizeof(p[0].peer_addr), "10.231.9.2");
	r[1].state = REACHBACK_YES;
	r[2].state = REACHBACK_UNKNOWN;
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_int_eq(decide_reach(a, 3, r, 3, p, 1, NULL, &d, &seen), 0);
	ck_assert_uint_eq(seen, ADV_BIT(ADV_GLOO));
	ck_assert_int_eq(json_array_size(d.findings), 1);
	f = json_array_get(d.findings, 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "code")),
	                 "rank-unreachable");
	ck_assert_str_eq(json_string_value(json_object_get(f, "severity")),
	                 "warning");
	doc_free(&d);

	/* Open MPI without an include list only may pair it: a warning */
	snprintf(a[1].why, sizeof(a[1].why),
	         "btl_tcp_if_include unset: Open MPI uses every up interface");
	r[1].state = REACHBACK_NO;
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	decide_reach(a + 1, 1,
	             (struct reach_result[]){{0, 0, REACHBACK_NO, "x"}}, 1, p,
	             1, NULL, &d, &seen);
	f = json_array_get(d.findings, 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "severity")),
	                 "warning");
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

/* With NCCL_COMM_ID set, the bootstrap takes the subnet match alone,
 * NCCL_SOCKET_IFNAME and "ib" ignored (bootstrapNetInit); the transport
 * still follows NCCL_SOCKET_IFNAME (ncclFindInterfaces). */
START_TEST(bootstrap_apart_from_transport)
{
	struct iface_list l = {0};
	struct nccl_env env = {0};
	struct nccl_choice c;

	unitfix_lo(&l);
	add(&l, "ib0", IFK_INFINIBAND, UPRUN, "10.231.90.1", 24);
	add(&l, "eth0", IFK_PHYSICAL, UPRUN, "10.231.0.1", 24);
	env.socket_ifname = "=ib0";
	env.comm_id = "10.231.0.9:29500";
	ck_assert_int_eq(nccl_select_bootstrap(&l, &env, &c), 1);
	ck_assert_str_eq(c.v[0].ifc->name, "eth0");
	ck_assert_str_eq(c.rule, "NCCL_COMM_ID subnet");
	ck_assert_int_eq(nccl_select(&l, &env, &c), 1);
	ck_assert_str_eq(c.v[0].ifc->name, "ib0");

	/* outside every subnet: "NET/Socket : No usable listening interface
	 * found", even though NCCL_SOCKET_IFNAME names a good interface */
	env.comm_id = "10.99.0.1:29500";
	ck_assert_int_eq(nccl_select_bootstrap(&l, &env, &c), 0);
	ck_assert_str_eq(c.rule, "none");

	/* the scan's view of NCCL's own choice names the same bootstrap */
	{
		struct nccl_default nd;
		struct doc d;

		env.comm_id = "10.231.0.9:29500";
		ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
		decide_nccl_default(&l, &env, NULL, &nd, &d);
		ck_assert_str_eq(nd.choice.v[0].name, "ib0");
		ck_assert_int_eq(nd.boot.n, 1);
		ck_assert_str_eq(nd.boot.v[0].name, "eth0");
		doc_free(&d);
	}

	/* unset: the transport's first interface */
	env.comm_id = NULL;
	env.socket_ifname = NULL;
	ck_assert_int_eq(nccl_select_bootstrap(&l, &env, &c), 1);
	ck_assert_str_eq(c.v[0].ifc->name, "ib0");
	iface_list_free(&l);
}
END_TEST

/* matchSubnet compares the IPv6 scope id: 0 for "[addr]:port", the
 * interface's index for "[fe80::..%eth0]:port"; a link-local local
 * address carries its interface's index (src/os/linux.cc). */
START_TEST(bootstrap_ipv6_scope)
{
	struct iface_list l = {0};
	struct nccl_env env = {0};
	struct nccl_choice c;

	unitfix_lo(&l);
	add(&l, "eth0", IFK_PHYSICAL, UPRUN, "fe80::1", 64);
	add(&l, "eth1", IFK_PHYSICAL, UPRUN, "fe80::2", 64);
	add(&l, "eth2", IFK_PHYSICAL, UPRUN, "fd00::1", 64);

	env.comm_id = "[fe80::9]:29500"; /* no scope: matches none */
	ck_assert_int_eq(nccl_select_bootstrap(&l, &env, &c), 0);
	env.comm_id = "[fe80::9%eth1]:29500";
	ck_assert_int_eq(nccl_select_bootstrap(&l, &env, &c), 1);
	ck_assert_str_eq(c.v[0].ifc->name, "eth1");
	env.comm_id = "[fd00::9]:29500"; /* global: scope 0 on both sides */
	ck_assert_int_eq(nccl_select_bootstrap(&l, &env, &c), 1);
	ck_assert_str_eq(c.v[0].ifc->name, "eth2");
	iface_list_free(&l);
}
END_TEST

Suite *suite_advertise(void)
{
	Suite *s = suite_create("advertise");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, advertised_env);
	tcase_add_test(tc, reach_findings);
	tcase_add_test(tc, bootstrap_apart_from_transport);
	tcase_add_test(tc, bootstrap_ipv6_scope);
	suite_add_tcase(s, tc);
	return s;
}
