/* The classes blind42t's misses and its wrong cause showed (issue 42):
 * a kernel "Link down" that a later "Link up" of the same interface
 * answers (a cable plugged, a flap that ended), tcpdump's ICMP
 * "need to frag", libibverbs with no provider configuration,
 * libfabric's fi_getinfo with no match, an RDMA retry that ran out on a
 * fabric that drops; and blind42u's slurmctld hearing a job from the
 * wrong node. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

START_TEST(blind42t_lines)
{
	static const struct unitfix_line t[] = {
		{"[ 4242.1] mlx5_core 0000:3b:00.0 ens1f0np0: Link down",
		 "cause interface-down", NULL},
		{"12:49:48.592058 IP 10.61.1.35 > 151.101.128.70: ICMP "
		 "10.61.1.35 unreachable - need to frag (mtu 1440), length 556",
		 "cause mtu-mismatch", NULL},
		{"libibverbs: Warning: couldn't open config directory "
		 "'/etc/libibverbs.d'.", "open rdma-ib-fallback", NULL},
		{"fi_getinfo(): common/shared.c:627, ret=-61 (No data "
		 "available)", "open no-usable-interface", NULL},
		{"[jazz21:194169:0:194169] ib_mlx5_log.c:113  FATAL: Error on "
		 "QP 0x2e5d6 wqe[7]: Transport retry count exceeded (synd 0x15 "
		 "vend 0x81) opcode RDMA_READ", "open link-lossy", NULL},
		/* blind42u's: slurmctld's address for a node is another's */
		{"error: Batch completion for JobId=42 sent from wrong node "
		 "(c2 rather than c1)", "open hosts-stale", NULL},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

/* A link that came back is no interface down; one that stays down is
 * (down, up, down again too), and another interface's "Link up" says
 * nothing of it. */
START_TEST(link_down_then_up)
{
	static const char *const back[] = {
		"[Fri Aug  7 03:13:04] mlx5_core 0000:01:00.0 enp1s0f0np0: "
		"Link down",
		"[Fri Aug  7 03:13:05] mlx5_core 0000:01:00.0 enp1s0f0np0: "
		"Link up",
		NULL,
	};
	static const char *const other[] = {
		"[Fri Aug  7 03:13:04] mlx5_core 0000:01:00.0 enp1s0f0np0: "
		"Link down",
		"[Fri Aug  7 03:13:06] mlx5_core 0002:01:00.0 enP2p1s0f0np0: "
		"Link up",
		NULL,
	};
	static const char *const again[] = {
		"[ 10.1] mlx5_core 0000:01:00.0 enp1s0f0np0: Link down",
		"[ 11.1] mlx5_core 0000:01:00.0 enp1s0f0np0: Link up",
		"[ 12.1] mlx5_core 0000:01:00.0 enp1s0f0np0: Link down",
		NULL,
	};
	struct explain_result r;

	unitfix_explain(again, -1, &r);
	ck_assert(unitfix_has(&r, "cause interface-down"));
	unitfix_explain(back, -1, &r);
	ck_assert(!unitfix_has(&r, "cause interface-down"));
	ck_assert(!unitfix_has(&r, "open interface-down"));
	unitfix_explain(other, -1, &r);
	ck_assert(unitfix_has(&r, "cause interface-down"));
}
END_TEST

Suite *suite_explain_blind42t(void)
{
	Suite *s = suite_create("explain_blind42t");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, blind42t_lines);
	tcase_add_test(tc, link_down_then_up);
	suite_add_tcase(s, tc);
	return s;
}
