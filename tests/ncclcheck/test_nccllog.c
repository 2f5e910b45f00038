/* Unit tests for the NCCL debug-output parser, on lines as NCCL 2.28
 * prints them (tests/fixtures/ncclcheck/ holds a whole recorded file). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "results/nccllog.h"
#include "suites.h"

START_TEST(p2p_nvlink)
{
	struct nc_nccllog lg;

	memset(&lg, 0, sizeof(lg));
	nc_nccllog_line(&lg, "vm:811:826 [0] NCCL INFO Pattern 4, crossNic 0, "
			"nChannels 24, bw 40.000000/40.000000, type NVL/PIX, "
			"sameChannels 1");
	nc_nccllog_line(&lg, "vm:811:826 [0] NCCL INFO Channel 00/0 : 0[0] -> "
			"1[1] via P2P/CUMEM/read");
	nc_nccllog_line(&lg, "vm:811:826 [0] NCCL INFO Connected all rings, "
			"use ring PXN 0 GDR 1");
	nc_nccllog_line(&lg, "not a nccl line via SHM");
	nc_nccllog_finish(&lg);
	ck_assert_int_eq(lg.nt, 1);
	ck_assert_str_eq(lg.t[0].kind, "P2P/NVLink");
	ck_assert_str_eq(lg.t[0].iface, "");
	ck_assert(!lg.nvls && !lg.collnet);
}
END_TEST

START_TEST(socket_ib_shm)
{
	struct nc_nccllog lg;

	memset(&lg, 0, sizeof(lg));
	nc_nccllog_line(&lg, "vm:9:9 [0] NCCL INFO Bootstrap: Using "
			"eth0:10.0.0.1<0>");
	nc_nccllog_line(&lg, "vm:9:9 [0] NCCL INFO NET/Socket : Using "
			"[0]lo:127.0.0.1<0> [1]eth1:10.1.0.1<0>");
	nc_nccllog_line(&lg, "vm:9:9 [0] NCCL INFO NET/IB : Using "
			"[0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB "
			"eth0:10.0.0.1<0>");
	nc_nccllog_line(&lg, "vm:9:20 [0] NCCL INFO Channel 00/0 : 1[1] -> "
			"0[0] [receive] via NET/Socket/0");
	nc_nccllog_line(&lg, "vm:9:20 [0] NCCL INFO Channel 01/0 : 0[0] -> "
			"1[1] [send] via NET/IB/1/GDRDMA");
	nc_nccllog_line(&lg, "vm:9:20 [0] NCCL INFO Channel 00 : 0[0] -> 2[2] "
			"via SHM/direct/direct");
	nc_nccllog_line(&lg, "vm:9:20 [0] NCCL INFO Connected NVLS");
	nc_nccllog_line(&lg, "vm:9:20 [0] NCCL INFO Connected all trees");
	nc_nccllog_finish(&lg);
	ck_assert_str_eq(lg.bootstrap_iface, "eth0");
	ck_assert_int_eq(lg.nsocket, 2);
	ck_assert_str_eq(lg.socket_ifaces[1], "eth1");
	ck_assert_int_eq(lg.nib, 2);
	ck_assert_str_eq(lg.ib_devs[0], "mlx5_0:1/IB");
	ck_assert_str_eq(lg.ib_devs[1], "mlx5_1:1/RoCE");
	ck_assert(lg.gdr_enabled); /* the NET/IB/1/GDRDMA channel */
	ck_assert(lg.nvls && lg.tree);
	/* SHM, 2 sockets, 2 IB devices, NVLS */
	ck_assert_int_eq(lg.nt, 6);
	ck_assert_str_eq(lg.t[0].kind, "SHM");
	ck_assert_str_eq(lg.t[1].kind, "NET/Socket");
	ck_assert_str_eq(lg.t[1].iface, "lo");
	ck_assert_str_eq(lg.t[3].kind, "NET/IB");
	ck_assert_str_eq(lg.t[5].kind, "NVLS");
}
END_TEST

START_TEST(recorded_file)
{
	struct nc_nccllog lg;

	memset(&lg, 0, sizeof(lg));
	ck_assert_int_eq(nc_nccllog_file(&lg, SRCDIR
					 "/tests/fixtures/ncclcheck/"
					 "nccl-debug-socket.txt"), 0);
	ck_assert_int_gt(lg.lines, 0);
	ck_assert_int_ge(lg.nt, 1);
	ck_assert_str_eq(lg.t[0].kind, "NET/Socket");
	ck_assert_str_eq(lg.t[0].iface, "lo");
	ck_assert_int_eq(nc_nccllog_file(&lg, "/nonexistent/x"), -1);
}
END_TEST

START_TEST(pack_merge)
{
	struct nc_nccllog a, b, m;
	char ba[NC_NCCLLOG_BLOB] = "", bb[NC_NCCLLOG_BLOB] = "";
	char none[NC_NCCLLOG_BLOB] = "";

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&m, 0, sizeof(m));
	snprintf(a.t[0].kind, sizeof(a.t[0].kind), "NET/Socket");
	snprintf(a.t[0].iface, sizeof(a.t[0].iface), "eth0");
	snprintf(a.t[1].kind, sizeof(a.t[1].kind), "P2P/NVLink");
	a.nt = 2;
	a.nvls = true;
	b.t[0] = a.t[0];
	snprintf(b.t[1].kind, sizeof(b.t[1].kind), "SHM");
	b.nt = 2;
	b.tree = true;
	nc_nccllog_pack(&a, ba, sizeof(ba));
	ck_assert_str_eq(ba, "NET/Socket eth0\nP2P/NVLink \n#alg 1 0 0\n"
			     "#gdr 0 0 0\n");
	nc_nccllog_pack(&b, bb, sizeof(bb));
	nc_nccllog_merge(&m, ba, sizeof(ba));
	nc_nccllog_merge(&m, bb, sizeof(bb));
	/* a process without its own debug file sends nothing */
	nc_nccllog_merge(&m, none, sizeof(none));
	/* the socket on eth0 both saw is listed once */
	ck_assert_int_eq(m.nt, 3);
	ck_assert_str_eq(m.t[0].iface, "eth0");
	ck_assert_str_eq(m.t[1].kind, "P2P/NVLink");
	ck_assert_str_eq(m.t[1].iface, "");
	ck_assert_str_eq(m.t[2].kind, "SHM");
	ck_assert(m.nvls && m.tree && !m.collnet);
}
END_TEST

/* A DGX-style node on 8 InfiniBand rails with GPUDirect RDMA, as NCCL
 * 2.28 prints it (transport/net_ib.cc ncclIbInit, graph/topo.cc,
 * graph/paths.cc ncclTopoCheckGdr). */
START_TEST(ib_rails_gdr)
{
	struct nc_nccllog lg;
	char blob[NC_NCCLLOG_BLOB] = "";
	struct nc_nccllog m;

	memset(&lg, 0, sizeof(lg));
	nc_nccllog_line(&lg, "dgx01:2345:2401 [0] NCCL INFO NET/IB : Using "
			"[0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB "
			"[3]mlx5_3:1/IB [4]mlx5_4:1/IB [5]mlx5_5:1/IB "
			"[6]mlx5_6:1/IB [7]mlx5_7:1/IB [RO]; OOB "
			"eno1:10.0.0.15<0>");
	nc_nccllog_line(&lg, "dgx01:2345:2401 [0] NCCL INFO NET/IB : GPU "
			"Direct RDMA Enabled for HCA 0 'mlx5_0'");
	nc_nccllog_line(&lg, "dgx01:2345:2401 [0] NCCL INFO GPU Direct RDMA "
			"Enabled for GPU 0 / HCA 0 (distance 4 <= 5), read 1 "
			"mode Default");
	nc_nccllog_line(&lg, "dgx01:2345:2410 [0] NCCL INFO Channel 00/0 : "
			"0[0] -> 8[0] [send] via NET/IB/0/GDRDMA");
	nc_nccllog_finish(&lg);
	ck_assert_int_eq(lg.nib, 8);
	ck_assert_str_eq(lg.ib_devs[7], "mlx5_7:1/IB");
	ck_assert(lg.gdr_enabled && !lg.gdr_disabled && !lg.ib_none);
	ck_assert_int_eq(lg.nt, 8);
	ck_assert_str_eq(lg.t[0].kind, "NET/IB");
	ck_assert_str_eq(lg.t[0].iface, "mlx5_0:1/IB");
	nc_nccllog_pack(&lg, blob, sizeof(blob));
	memset(&m, 0, sizeof(m));
	nc_nccllog_merge(&m, blob, sizeof(blob));
	ck_assert(m.gdr_enabled && m.nt == 8);
}
END_TEST

/* No RDMA device: NCCL says so and the channels go over sockets; a far
 * NIC disables GPUDirect RDMA for its GPU. */
START_TEST(ib_fallback)
{
	struct nc_nccllog lg;

	memset(&lg, 0, sizeof(lg));
	nc_nccllog_line(&lg, "node1:99:99 [0] NCCL INFO NET/IB : No device "
			"found.");
	nc_nccllog_line(&lg, "node1:99:99 [0] NCCL INFO NET/Socket : Using "
			"[0]eth0:10.0.0.1<0>");
	nc_nccllog_line(&lg, "node1:99:99 [0] NCCL INFO GPU Direct RDMA "
			"Disabled for GPU 0 / HCA 1 (distance 9 > 5)");
	nc_nccllog_line(&lg, "node1:99:120 [0] NCCL INFO Channel 00/0 : 0[0] "
			"-> 1[0] [send] via NET/Socket/0");
	nc_nccllog_finish(&lg);
	ck_assert(lg.ib_none && lg.gdr_disabled && !lg.gdr_enabled);
	ck_assert_int_eq(lg.nt, 1);
	ck_assert_str_eq(lg.t[0].kind, "NET/Socket");
	ck_assert_str_eq(lg.t[0].iface, "eth0");
}
END_TEST

Suite *suite_nc_nccllog(void)
{
	Suite *s = suite_create("nc_nccllog");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, p2p_nvlink);
	tcase_add_test(tc, socket_ib_shm);
	tcase_add_test(tc, recorded_file);
	tcase_add_test(tc, pack_merge);
	tcase_add_test(tc, ib_rails_gdr);
	tcase_add_test(tc, ib_fallback);
	suite_add_tcase(s, tc);
	return s;
}
