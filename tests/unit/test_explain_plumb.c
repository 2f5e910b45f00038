/* netprobe explain on the classes blind42h found (issue 42): NCCL on
 * sockets over an IPoIB interface is a fallback from verbs; a VM's NAT
 * address (10.0.2.15 on every VirtualBox or QEMU guest) is NAT, never a
 * container pool; an address shared by two hosts there proves the NAT;
 * oneCCL with no interface but lo decides no-usable-interface; and
 * blind42k's: Open MPI's TCP BTL reaching or reached by a process it
 * cannot place (an address two nodes share, a NAT); BIRD without its
 * listening socket; torchrun's store creation, a listen on its host. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

START_TEST(sockets_over_ipoib_are_a_fallback)
{
	static const char *const ipoib[] = {
		"n1:1:2 [0] NCCL INFO Failed to open libibverbs.so[.1]",
		"n1:1:2 [0] NCCL INFO NET/Socket : Using [0]ib0:10.1.0.1<0>",
		NULL};
	static const char *const eth[] = {
		"n1:1:2 [0] NCCL INFO Failed to open libibverbs.so[.1]",
		"n1:1:2 [0] NCCL INFO NET/Socket : Using [0]eth0:10.1.0.1<0>",
		NULL};
	/* a pasted log with the address taken out still names ib0 */
	static const char *const redacted[] = {
		"NCCL INFO Failed to open libibverbs.so[.1]",
		"NCCL INFO NET/Socket : Using [0]ib0.<ip>", NULL};
	struct explain_result r;

	unitfix_explain(ipoib, -1, &r);
	ck_assert(unitfix_has(&r, "cause rdma-ib-fallback"));
	unitfix_explain(eth, -1, &r);
	ck_assert(!unitfix_has(&r, "cause rdma-ib-fallback"));
	unitfix_explain(redacted, -1, &r);
	ck_assert(unitfix_has(&r, "cause rdma-ib-fallback"));
}
END_TEST

START_TEST(vm_nat_address_is_nat)
{
	static const char *const dask[] = {
		"distributed.client - WARNING - Couldn't gather 1 keys, "
		"rescheduling {'main-a2': ('tcp://10.0.2.15:50137',)}", NULL};
	static const char *const flannel[] = {
		"I0605 01:30:01.494324 1 main.go:488] Using interface with name "
		"enp0s3 and address 10.0.2.15", NULL};
	static const char *const other[] = {
		"I0605 01:30:01.494324 1 main.go:488] Using interface with name "
		"enp0s8 and address 10.0.2.16", NULL};
	static const char *const two[] = {
		"node1:1:2 [0] NCCL INFO Bootstrap : Using eth0:10.0.2.15<0>",
		"node2:3:4 [0] NCCL INFO Bootstrap : Using eth0:10.0.2.15<0>",
		"node1:1:2 [0] NCCL WARN Net : Connect to 10.0.2.15<43215> "
		"failed : Connection refused", NULL};
	struct explain_result r;

	unitfix_explain(dask, -1, &r);
	ck_assert(unitfix_has(&r, "open nat-detected"));
	ck_assert(!unitfix_has(&r, "open container-bridge-nat"));
	unitfix_explain(flannel, -1, &r);
	ck_assert(unitfix_has(&r, "open nat-detected"));
	unitfix_explain(other, -1, &r);
	ck_assert(!unitfix_has(&r, "open nat-detected"));
	unitfix_explain(two, -1, &r);
	ck_assert(unitfix_has(&r, "cause nat-detected"));
	ck_assert(!unitfix_has(&r, "cause container-bridge-nat"));
}
END_TEST

START_TEST(oneccl_without_interface)
{
	static const char *const l[] = {
		"2025:02:17-17:20:51:( 2399) |CCL_ERROR| internal_kvs.cpp:289 "
		"fill_local_host_ip: can't find interface  to get host IP",
		NULL};
	struct explain_result r;

	unitfix_explain(l, -1, &r);
	ck_assert(unitfix_has(&r, "cause no-usable-interface"));
}
END_TEST

START_TEST(peer_identity_and_listen)
{
	static const char *const ack[] = {
		"[node2][[22157,1],4][btl_tcp_endpoint.c:626:mca_btl_tcp_"
		"endpoint_recv_connect_ack] received unexpected process "
		"identifier [[22157,1],7]", NULL};
	static const char *const accept[] = {
		"WARNING: Open MPI accepted a TCP connection from what appears "
		"to be a", NULL};
	static const char *const bird[] = {
		"| 10.5.4.136 | node-to-node mesh | down  | 06:44:51 | Error: "
		"No listening socket |", NULL};
	static const char *const rdzv[] = {
		"Error message in training: The connection to the C10d store "
		"has failed.", NULL};
	struct explain_result r;

	unitfix_explain(ack, -1, &r);
	ck_assert(unitfix_has(&r, "open mpi-btl-iface"));
	ck_assert(unitfix_has(&r, "open address-conflict"));
	ck_assert_ptr_nonnull(strstr(unitfix_cause(&r,
		"open mpi-btl-iface")->next, "btl_tcp_if_include"));
	unitfix_explain(accept, -1, &r);
	ck_assert(unitfix_has(&r, "open nat-detected"));
	unitfix_explain(bird, -1, &r);
	ck_assert(unitfix_has(&r, "open port-in-use"));
	ck_assert_ptr_nonnull(strstr(unitfix_cause(&r,
		"open port-in-use")->next, "'sport = :179'"));
	unitfix_explain(rdzv, -1, &r);
	ck_assert(unitfix_has(&r, "open port-in-use"));
	ck_assert(unitfix_has(&r, "open port-filtered"));
}
END_TEST

Suite *suite_explain_plumb(void)
{
	Suite *s = suite_create("explain_plumb");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, sockets_over_ipoib_are_a_fallback);
	tcase_add_test(tc, vm_nat_address_is_nat);
	tcase_add_test(tc, oneccl_without_interface);
	tcase_add_test(tc, peer_identity_and_listen);
	suite_add_tcase(s, tc);
	return s;
}
