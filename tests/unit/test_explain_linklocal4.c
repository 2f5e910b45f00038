/* IPv4 link-local addresses (169.254/16) in a log (issue 42: blind42j
 * a10, NCCL's socket fallback on EKS over pod-id-link0): private to
 * their host like IPv6's fe80::, but ipv6-link-local-only and its
 * NCCL_SOCKET_FAMILY=AF_INET fix are IPv6's. NCCL listing such an
 * interface is its interface choice; the fix pins the other one. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

START_TEST(nccl_lists_link_local4_interface)
{
	static const char *const l[] = {
		"n1:1:1 [0] NCCL INFO NET/Socket : Using [0]enp73s0:"
		"10.1.216.156<0> [1]pod-id-link0:169.254.170.23<0>",
		"n1:1:2 [0] NCCL INFO socketPollConnect: connect to "
		"169.254.170.23<...> returned Connection refused, retrying "
		"(13/34)",
		"RuntimeError: NCCL error: remote process exited or there was "
		"a network error", NULL};
	struct explain_result r;
	bool fixed = false;

	unitfix_explain(l, -1, &r);
	ck_assert(unitfix_has(&r, "cause nccl-default-iface-unsafe"));
	ck_assert(!unitfix_has(&r, "cause ipv6-link-local-only"));
	ck_assert(!unitfix_has(&r, "open ipv6-link-local-only"));
	for (size_t i = 0; i < r.ncauses; i++)
		fixed |= strstr(r.causes[i].fix, "NCCL_SOCKET_IFNAME==enp73s0")
			 != NULL;
	ck_assert(fixed);
}
END_TEST

START_TEST(peer_link_local4_alone)
{
	static const char *const nccl[] = {
		"n1:1:2 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: "
		"Connect to 169.254.3.4<40211> failed : Connection refused",
		NULL};
	static const char *const any[] = {
		"worker: could not reach 169.254.3.4:8000 (Connection refused)",
		NULL};
	struct explain_result r;

	unitfix_explain(nccl, -1, &r);
	ck_assert(unitfix_has(&r, "open nccl-default-iface-unsafe"));
	ck_assert(unitfix_has(&r, "open nccl-ifname-overmatch"));
	ck_assert(!unitfix_has(&r, "cause ipv6-link-local-only"));
	/* no pool's bridge either */
	ck_assert(!unitfix_has(&r, "open container-bridge-nat"));
	unitfix_explain(any, -1, &r);
	ck_assert(unitfix_has(&r, "open port-closed"));
	ck_assert(!unitfix_has(&r, "open ipv6-link-local-only"));
}
END_TEST

Suite *suite_explain_linklocal4(void)
{
	Suite *s = suite_create("explain_linklocal4");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, nccl_lists_link_local4_interface);
	tcase_add_test(tc, peer_link_local4_alone);
	suite_add_tcase(s, tc);
	return s;
}
