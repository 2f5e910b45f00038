/* The scan's JSON objects: hostname, nccl_default, peers, recommendation,
 * with the keys and null conventions netprobe-json(5) documents. */
#include <arpa/inet.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/recommend.h"
#include "decide/scan_json.h"

/* The compact, sorted text of a value, for exact comparisons. */
static char *dump(json_t *j)
{
	char *s = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);

	ck_assert_ptr_nonnull(s);
	return s;
}

START_TEST(hostname_json)
{
	struct hostname_info h = {
	    .name = "node1", .resolved_by = "/etc/hosts", .resolved = true};
	json_t *j;
	char *s;

	h.addrs[0].family = AF_INET;
	inet_pton(AF_INET, "127.0.1.1", &h.addrs[0].a);
	snprintf(h.addrs[0].str, sizeof(h.addrs[0].str), "127.0.1.1");
	h.addrs[0].bindable = -1;
	h.naddrs = 1;
	j = hostname_to_json(&h);
	s = dump(j);
	ck_assert_str_eq(s, "{\"addresses\":[\"127.0.1.1\"],\"bindable\":null,"
	                    "\"error\":null,\"loopback\":true,\"name\":"
	                    "\"node1\",\"resolved_by\":\"/etc/hosts\"}");
	free(s);
	json_decref(j);
	h.addrs[0].bindable = 1;
	j = hostname_to_json(&h);
	ck_assert(json_is_true(json_object_get(j, "bindable")));
	json_decref(j);
}
END_TEST

START_TEST(nccl_default_json)
{
	struct iface_list l = {0};
	struct iface *ifc = iface_list_add(&l);
	struct nccl_env ne = {0};
	struct nccl_default nd;
	struct doc d;
	unsigned char a[4];
	json_t *j;
	char *s;

	snprintf(ifc->name, sizeof(ifc->name), "eth0");
	ifc->index = 1;
	ifc->kind = IFK_PHYSICAL;
	ifc->flags = IFF_UP | IFF_RUNNING;
	inet_pton(AF_INET, "10.231.0.1", a);
	iface_add_addr(ifc, AF_INET, a, 24, 0);
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	decide_nccl_default(&l, &ne, NULL, &nd, &d);
	j = nccl_default_to_json(&nd);
	s = dump(j);
	ck_assert_str_eq(s, "{\"bootstrap\":\"eth0\",\"interfaces\":[{"
	                    "\"address\":\"10.231.0.1\",\"name\":\"eth0\"}],"
	                    "\"rule\":\"^docker,lo,virbr\",\"safe\":false,"
	                    "\"why\":\"cannot tell: there is no recommended "
	                    "interface to compare eth0 with\"}");
	free(s);
	json_decref(j);
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

START_TEST(peer_json)
{
	struct peer_verdict p;
	json_t *j;
	char *s;

	memset(&p, 0, sizeof(p));
	snprintf(p.peer, sizeof(p.peer), "nodeb:7470");
	snprintf(p.peer_addr, sizeof(p.peer_addr), "10.231.0.2");
	snprintf(p.local_ifname, sizeof(p.local_ifname), "eth0");
	snprintf(p.local_addr, sizeof(p.local_addr), "10.231.0.1");
	p.nat = -1;
	p.inbound = 0;
	p.rtt_us = -1;
	p.path_mtu = 1500;
	j = peer_verdict_to_json(&p);
	s = dump(j);
	ck_assert_str_eq(s, "{\"inbound\":false,\"local_addr\":\"10.231.0.1\","
	                    "\"local_ifname\":\"eth0\",\"nat\":null,"
	                    "\"observed_addr\":null,\"path_mtu\":1500,"
	                    "\"peer\":\"nodeb:7470\",\"peer_addr\":"
	                    "\"10.231.0.2\",\"ports\":[],\"responded\":false,"
	                    "\"rtt_us\":null}");
	free(s);
	json_decref(j);
}
END_TEST

START_TEST(recommendation_json)
{
	struct iface_list l = {0};
	struct iface *ifc = iface_list_add(&l);
	struct recommendation r;
	struct rec_input in = {.ifaces = &l};
	unsigned char a[4];
	json_t *j, *rej;

	snprintf(ifc->name, sizeof(ifc->name), "eth0");
	ifc->index = 1;
	ifc->kind = IFK_PHYSICAL;
	ifc->flags = IFF_UP | IFF_RUNNING;
	inet_pton(AF_INET, "10.231.0.1", a);
	iface_add_addr(ifc, AF_INET, a, 24, 0);
	ifc = iface_list_add(&l);
	snprintf(ifc->name, sizeof(ifc->name), "eth1");
	ifc->index = 2;
	ck_assert_int_eq(recommend(&in, &r), 0);
	j = recommendation_to_json(&r);
	ck_assert_str_eq(json_string_value(json_object_get(j, "interface")),
	                 "eth0");
	ck_assert_str_eq(json_string_value(json_object_get(j, "address")),
	                 "10.231.0.1");
	ck_assert_str_eq(json_string_value(json_object_get(
	                     json_object_get(j, "env"), "NCCL_SOCKET_IFNAME")),
	                 "=eth0");
	ck_assert(json_array_size(json_object_get(j, "reasons")) > 0);
	rej = json_array_get(json_object_get(j, "rejected"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(rej, "interface")),
	                 "eth1");
	ck_assert_str_eq(json_string_value(json_object_get(rej, "reason")),
	                 "down");
	ck_assert_int_eq(json_object_size(j), 5);
	json_decref(j);
	recommendation_free(&r);
	iface_list_free(&l);
}
END_TEST

Suite *suite_scan_json(void)
{
	Suite *s = suite_create("scan_json");
	TCase *tc = tcase_create("objects");

	tcase_add_test(tc, hostname_json);
	tcase_add_test(tc, nccl_default_json);
	tcase_add_test(tc, peer_json);
	tcase_add_test(tc, recommendation_json);
	suite_add_tcase(s, tc);
	return s;
}
