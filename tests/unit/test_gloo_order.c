/* Unit tests for which side of a Gloo pair connects: the higher address,
 * as gloo/transport/tcp/device.cc (Device::isInitiator) compares the
 * address bytes. Seen with Debian's torch 1.13 across one NAT: the rank
 * behind it at 172.17.0.2 with a peer at 10.231.15.2 worked (it
 * connects out), at 10.88.0.2 it hung (the peer must connect to it). */
#include <check.h>

#include "probe/peerprobe.h"

START_TEST(gloo_order_v4)
{
	ck_assert_int_eq(peerprobe_gloo_order("172.17.0.2", "10.231.15.2"), 1);
	ck_assert_int_eq(peerprobe_gloo_order("10.88.0.2", "10.231.15.2"), -1);
	/* 127.0.1.1 (a hostname on Debian's /etc/hosts) sorts above 10/8
	 * and below 172.16/12 and 192.168/16 */
	ck_assert_int_eq(peerprobe_gloo_order("127.0.1.1", "10.231.71.2"), 1);
	ck_assert_int_eq(peerprobe_gloo_order("127.0.1.1", "172.17.71.2"), -1);
	/* bytes, not text: "10.9" is below "10.10" */
	ck_assert_int_eq(peerprobe_gloo_order("10.0.0.9", "10.0.0.10"), -1);
	ck_assert_int_eq(peerprobe_gloo_order("::ffff:10.0.0.10", "10.0.0.9"),
	                 1);
}
END_TEST

START_TEST(gloo_order_undecided)
{
	ck_assert_int_eq(peerprobe_gloo_order("10.0.0.1", "10.0.0.1"), 0);
	ck_assert_int_eq(peerprobe_gloo_order("10.0.0.1", "fd00::1"), 0);
	ck_assert_int_eq(peerprobe_gloo_order("node1", "10.0.0.1"), 0);
	ck_assert_int_eq(peerprobe_gloo_order("fd00::2", "fd00::1"), 1);
}
END_TEST

Suite *suite_gloo_order(void)
{
	Suite *s = suite_create("gloo_order");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, gloo_order_v4);
	tcase_add_test(tc, gloo_order_undecided);
	suite_add_tcase(s, tc);
	return s;
}
