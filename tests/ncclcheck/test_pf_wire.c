/* Unit tests for the pre-flight's wire formats (pf_wire.c): each message
 * packs to the bytes the hand-written packer of before the table codec
 * produced (captured from it, zero but for the segments listed), and
 * unpacks to what was packed. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "preflight/preflight.h"
#include "suites.h"

/* Non-zero bytes of a golden message: at off, n bytes. */
struct seg {
	size_t off, n;
	const char *b;
};

/* The golden of len bytes: zeros but for the segments. */
static void golden(unsigned char *out, size_t len, const struct seg *s,
		   size_t ns)
{
	memset(out, 0, len);
	for (size_t i = 0; i < ns; i++) {
		ck_assert_uint_le(s[i].off + s[i].n, len);
		memcpy(out + s[i].off, s[i].b, s[i].n);
	}
}

/* The known rank info the goldens were captured from. */
static void known_rankinfo(struct nc_rankinfo *ri)
{
	memset(ri, 0, sizeof(*ri));
	ri->rank = 3;
	ri->proc = -2;
	ri->cuda_runtime = 13000;
	ri->driver = 12080;
	ri->nccl_version = 22803;
	ri->port = 40123;
	ri->shm_bytes = 0x123456789abcULL;
	snprintf(ri->host, sizeof(ri->host), "gpu-node-07");
	snprintf(ri->gpu, sizeof(ri->gpu), "NVIDIA H200");
	snprintf(ri->pci, sizeof(ri->pci), "0000:19:00.0");
	snprintf(ri->driver_version, sizeof(ri->driver_version), "580.159.04");
	snprintf(ri->iface, sizeof(ri->iface), "eth1");
	snprintf(ri->address, sizeof(ri->address), "10.231.4.7");
	snprintf(ri->rule, sizeof(ri->rule), "NCCL_SOCKET_IFNAME");
	snprintf(ri->ib_env, sizeof(ri->ib_env), "NCCL_IB_HCA=mlx5_0");
}

START_TEST(rankinfo_bytes)
{
	static const struct seg segs[] = {
		{3, 16, "\x03\xff\xff\xff\xfegpu-node-07"},
		{72, 11, "NVIDIA H200"},
		{168, 12, "0000:19:00.0"},
		{202, 16, "2\xc8\x00\x00/0580.159.04"},
		{242, 6, "Y\x13""eth1"},
		{276, 10, "10.231.4.7"},
		{342, 28, "\x9c\xbb\x00\x00\x12""4Vx\x9a\xbcNCCL_SOCKET_IFNAME"},
		{384, 18, "NCCL_IB_HCA=mlx5_0"},
	};
	unsigned char want[NC_RANKINFO_WIRE], got[NC_RANKINFO_WIRE];
	struct nc_rankinfo ri, back;

	known_rankinfo(&ri);
	golden(want, sizeof(want), segs, sizeof(segs) / sizeof(segs[0]));
	memset(got, 0xaa, sizeof(got));
	nc_rankinfo_pack(&ri, got);
	ck_assert_mem_eq(got, want, sizeof(want));
	nc_rankinfo_unpack(got, &back);
	ck_assert_mem_eq(&back, &ri, sizeof(ri));
}
END_TEST

START_TEST(pair_bytes)
{
	static const struct seg segs[] = {
		{3, 16, "\x01\x00\x00\x00\x06\x00\x00\x00\x01refused"},
	};
	unsigned char want[NC_PAIR_WIRE], got[NC_PAIR_WIRE];
	struct nc_pair pr = {.from = 1, .to = 6, .ok = true}, back;

	snprintf(pr.error, sizeof(pr.error), "refused");
	golden(want, sizeof(want), segs, sizeof(segs) / sizeof(segs[0]));
	memset(got, 0xaa, sizeof(got));
	nc_pair_pack(&pr, got);
	ck_assert_mem_eq(got, want, sizeof(want));
	memset(&back, 0x55, sizeof(back));
	nc_pair_unpack(got, &back);
	ck_assert_int_eq(back.from, 1);
	ck_assert_int_eq(back.to, 6);
	ck_assert(back.ok);
	ck_assert_str_eq(back.error, "refused");
}
END_TEST

START_TEST(findings_bytes)
{
	static const struct seg segs[] = {
		{3, 17, "\x02rank-unreachable"},
		{39, 32, "\x02rank 1 on a cannot reach rank 2"},
		{552, 9, "shm-small"},
		{584, 5, "\xff\xff\xff\xffx"},
	};
	struct nc_pf_finding f[2] = {
		{"rank-unreachable", 2, "rank 1 on a cannot reach rank 2"},
		{"shm-small", -1, "x"}};
	struct nc_pf_finding back[2];
	unsigned char want[1100], got[1100];

	ck_assert_uint_eq(nc_pf_findings_size(2), sizeof(want));
	golden(want, sizeof(want), segs, sizeof(segs) / sizeof(segs[0]));
	memset(got, 0, sizeof(got)); /* the packer writes every byte it owns */
	nc_pf_findings_pack(f, 2, got);
	ck_assert_mem_eq(got, want, sizeof(want));
	ck_assert_int_eq(nc_pf_findings_unpack(got, sizeof(got), back, 2), 2);
	ck_assert_str_eq(back[0].code, "rank-unreachable");
	ck_assert_int_eq(back[1].severity, -1);
	ck_assert_str_eq(back[1].summary, "x");
	/* a count the length cannot hold is refused, a short buffer too */
	ck_assert_int_eq(nc_pf_findings_unpack(got, sizeof(got) - 1, back, 2),
			 -1);
	ck_assert_int_eq(nc_pf_findings_unpack(got, 3, back, 2), -1);
	/* more than max: max read, the rest skipped */
	ck_assert_int_eq(nc_pf_findings_unpack(got, sizeof(got), back, 1), 1);
}
END_TEST

Suite *suite_nc_pf_wire(void)
{
	Suite *s = suite_create("nc_pf_wire");
	TCase *tc = tcase_create("golden");

	tcase_add_test(tc, rankinfo_bytes);
	tcase_add_test(tc, pair_bytes);
	tcase_add_test(tc, findings_bytes);
	suite_add_tcase(s, tc);
	return s;
}
