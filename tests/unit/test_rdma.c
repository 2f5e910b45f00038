/* The RDMA side: NCCL_IB_HCA read as NCCL 2.28 reads it (a table derived
 * from net_ib.cc ncclIbInit and utils.cc parseStringList/matchIfList),
 * RDMA netlink messages built in memory, NCCL's GID choice, PCIe
 * distances, and the rdma-* findings on each RDMA sysroot fixture. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>

#include "base/sysroot.h"
#include "decide/decide_rdma.h"
#include "kernel/jobenv.h"
#include "kernel/rdma.h"

static const struct {
	const char *dev;
	unsigned port;
} ports[] = {{"mlx5_0", 1},      {"mlx5_1", 1},      {"mlx5_10", 1},
             {"mlx5_bond_0", 1}, {"mlx5_bond_0", 2}};

#define ALL "mlx5_0:1 mlx5_1:1 mlx5_10:1 mlx5_bond_0:1 mlx5_bond_0:2"

static const struct {
	const char *hca, *want;
} hca_cases[] = {
    {NULL, ALL},
    {"", ALL},
    {"mlx5", ALL},
    {"mlx5_1", "mlx5_1:1 mlx5_10:1"},
    {"=mlx5_1", "mlx5_1:1"},
    {"mlx5_0", "mlx5_0:1"},
    {"mlx5_0,mlx5_1", "mlx5_0:1 mlx5_1:1 mlx5_10:1"},
    {"=mlx5_0,mlx5_1", "mlx5_0:1 mlx5_1:1"},
    {"^mlx5_1", "mlx5_0:1 mlx5_bond_0:1 mlx5_bond_0:2"},
    {"^=mlx5_1", "mlx5_0:1 mlx5_10:1 mlx5_bond_0:1 mlx5_bond_0:2"},
    {"=^mlx5_1", ""},
    {"mlx5_bond_0:1", "mlx5_bond_0:1"},
    {"mlx5_bond_0:2", "mlx5_bond_0:2"},
    {"mlx5_bond_0:3", ""},
    {"mlx5_0:1", "mlx5_0:1"},
    {"mlx5_0:2", ""},
    {"mlx5_0:", ""},      /* atoi("") is port 0: no port has it */
    {":1", ALL},          /* no name before ':': the entry is dropped */
    {"^", ""},            /* an empty list matches all; '^' none */
    {"=", ALL},
    {"^=", ""},
    {"mlx5_0:1,mlx5_bond_0:2", "mlx5_0:1 mlx5_bond_0:2"},
    {"=mlx5_bond_0", "mlx5_bond_0:1 mlx5_bond_0:2"},
    {"mlx5_bond", "mlx5_bond_0:1 mlx5_bond_0:2"},
    {"=mlx5_bond", ""},
    {"mlx4", ""},
    {",mlx5_0,,", "mlx5_0:1"},
    {"mlx5_0 ", ""},      /* the blank is part of the prefix */
    {"MLX5_0", ""},       /* strncmp: case matters */
    {"^mlx5_0:1", "mlx5_1:1 mlx5_10:1 mlx5_bond_0:1 mlx5_bond_0:2"},
    {"^mlx5_bond_0:2", "mlx5_0:1 mlx5_1:1 mlx5_10:1 mlx5_bond_0:1"},
    {"=mlx5_10:1", "mlx5_10:1"},
    {"mlx5_1:1", "mlx5_1:1 mlx5_10:1"},
    {"mlx5_0:1:2", "mlx5_0:1"}, /* atoi stops at the second ':' */
    {"mlx5_0:x", ""},
    {"=mlx5_0,=mlx5_1", "mlx5_0:1"}, /* '=' only counts first */
};

START_TEST(test_hca_table)
{
	char got[256] = "";

	for (size_t i = 0; i < sizeof(ports) / sizeof(ports[0]); i++)
		if (ib_hca_match(hca_cases[_i].hca, ports[i].dev,
		                 ports[i].port)) {
			size_t o = strlen(got);

			snprintf(got + o, sizeof(got) - o, "%s%s:%u",
			         o ? " " : "", ports[i].dev, ports[i].port);
		}
	ck_assert_msg(strcmp(got, hca_cases[_i].want) == 0,
	              "NCCL_IB_HCA=%s: got '%s', want '%s'",
	              hca_cases[_i].hca ? hca_cases[_i].hca : "(unset)", got,
	              hca_cases[_i].want);
}
END_TEST

/* A PORT_GET answer as the kernel's fill_port_info builds it. */
START_TEST(test_nl_port)
{
	char buf[8192];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct rdma_nl_rec r;
	struct rdma_info *info = calloc(1, sizeof(*info));

	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
	                                   RDMA_NLDEV_CMD_PORT_GET);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_2");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_PORT_STATE, 4);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_PORT_PHYS_STATE, 5);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_NDEV_INDEX, 7);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_NDEV_NAME, "ens3np0");
	ck_assert_int_eq(rdma_nl_parse(buf, nlh->nlmsg_len, &r), 0);
	ck_assert_int_eq(r.cmd, RDMA_NLDEV_CMD_PORT_GET);
	ck_assert_str_eq(r.dev_name, "mlx5_2");
	ck_assert_uint_eq(r.port, 1);
	ck_assert_int_eq(r.port_state, 4);
	ck_assert_str_eq(r.ndev_name, "ens3np0");
	ck_assert_ptr_nonnull(info);
	info->netns_mode = -1;
	ck_assert_int_eq(rdma_nl_merge(info, &r), 0);
	ck_assert_int_eq(info->ndevs, 1);
	ck_assert_int_eq(info->devs[0].ports[0].state, 4);
	ck_assert(info->devs[0].ports[0].netdev_here);

	/* CMD_GET: PORT_INDEX is the port count; the GUID as rdma prints */
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_2");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_NODE_GUID, 0x0c42a103001605faULL);
	ck_assert_int_eq(rdma_nl_parse(buf, nlh->nlmsg_len, &r), 0);
	ck_assert_uint_eq(r.nports, 1);
	ck_assert_uint_eq(r.port, 0);
	ck_assert_int_eq(rdma_nl_merge(info, &r), 0);
	ck_assert_str_eq(info->devs[0].node_guid, "0c42:a103:0016:05fa");

	/* SYS_GET: the netns mode */
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type =
	    RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 0);
	ck_assert_int_eq(rdma_nl_parse(buf, nlh->nlmsg_len, &r), 0);
	ck_assert_int_eq(rdma_nl_merge(info, &r), 0);
	ck_assert_int_eq(info->netns_mode, 0);

	/* a short u32 and another client are refused */
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
	                                   RDMA_NLDEV_CMD_PORT_GET);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	ck_assert_int_eq(rdma_nl_parse(buf, nlh->nlmsg_len, &r), -1);
	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_LS, 1);
	ck_assert_int_eq(rdma_nl_parse(buf, nlh->nlmsg_len, &r), -1);
	free(info);
}
END_TEST

/* NCCL's topology classes from sysfs paths. */
START_TEST(test_pci_distance)
{
	const char *gpu = "/sys/devices/pci0000:10/0000:10:01.0/0000:11:00.0/"
	                  "0000:12:00.0/0000:13:00.0";
	const char *nic = "/sys/devices/pci0000:10/0000:10:01.0/0000:11:00.0/"
	                  "0000:12:01.0/0000:14:00.0";
	const char *nested = "/sys/devices/pci0000:10/0000:10:01.0/"
	                     "0000:11:00.0/0000:12:02.0/0000:20:00.0/"
	                     "0000:21:00.0/0000:22:00.0";
	const char *other = "/sys/devices/pci0000:40/0000:40:01.0/"
	                    "0000:41:00.0/0000:42:01.0/0000:44:00.0";

	ck_assert_int_eq(rdma_pci_distance(gpu, 0, nic, 0), RDMA_PATH_PIX);
	ck_assert_int_eq(rdma_pci_distance(gpu, 0, nested, 0), RDMA_PATH_PXB);
	ck_assert_int_eq(rdma_pci_distance(gpu, 0, other, 0), RDMA_PATH_PHB);
	ck_assert_int_eq(rdma_pci_distance(gpu, 0, other, 1), RDMA_PATH_SYS);
	ck_assert_int_eq(rdma_pci_distance("/sys/devices/virtual/x", 0, gpu, 0),
	                 RDMA_PATH_UNKNOWN);
	ck_assert_int_eq(rdma_iboe_mtu(1500), 1024);
	ck_assert_int_eq(rdma_iboe_mtu(9000), 4096);
	ck_assert_int_eq(rdma_iboe_mtu(4200), 4096);
	ck_assert_int_eq(rdma_iboe_mtu(4191), 2048);
}
END_TEST

static const char *record_get(const char *name, void *ctx)
{
	return env_record_get(ctx, name);
}

static const struct {
	const char *name;
	const char *findings; /* rdma-* codes in order, exactly these */
	const char *hca;      /* export_hca, "" none */
	int gid;              /* export_gid_index */
	int npicks;
} fix_cases[] = {
    {"rdma-dgx-ib", "",
     "=mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,"
     "mlx5_7:1",
     -1, 8},
    {"rdma-roce-recipe-v2", "",
     "=mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1,mlx5_4:1,mlx5_5:1,mlx5_8:1,"
     "mlx5_9:1",
     3, 8},
    {"rdma-roce-gid3-v1", "rdma-hca-missing rdma-gid-index rdma-nic-far "
     "rdma-gdr-off", "", -1, 6},
    {"rdma-roce-mixed-gids", "", "=mlx5_0:1,mlx5_1:1", 5, 2},
    {"rdma-roce-bond", "", "=mlx5_bond_0:1", 3, 1},
    {"rdma-container-no-uverbs", "rdma-memlock rdma-uverbs-missing", "", -1,
     0},
    {"rdma-netns-exclusive", "rdma-netns-exclusive", "", -1, 0},
    {"rdma-vm-sriov-vf", "rdma-gdr-off", "=mlx5_0:1", -1, 1},
};

START_TEST(test_fixture)
{
	char dir[PATH_MAX], got[256] = "";
	struct sysroot sr;
	struct rdma_info *info = calloc(1, sizeof(*info));
	struct env_record *rec = calloc(1, sizeof(*rec));
	struct rdma_verdict *v = calloc(1, sizeof(*v));
	struct ib_env e;
	struct doc d;
	size_t i;
	json_t *f;

	ck_assert(info && rec && v);
	snprintf(dir, sizeof(dir), "%s/tests/fixtures/sysroot/%s", SRCDIR,
	         fix_cases[_i].name);
	ck_assert_int_eq(sysroot_init(&sr, dir), 0);
	rdma_collect(info, &sr);
	(void)env_record_read(&sr, rec);
	ib_env_fill(&e, record_get, rec);
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	decide_rdma(info, &e,
	            strstr(fix_cases[_i].name, "container") != NULL ||
	                    strstr(fix_cases[_i].name, "netns") != NULL
	                ? CONTAINER_DOCKER
	                : CONTAINER_NONE,
	            v, &d);
	json_array_foreach(d.findings, i, f)
	{
		const char *code =
		    json_string_value(json_object_get(f, "code"));
		size_t o = strlen(got);

		ck_assert_ptr_nonnull(json_object_get(f, "fix"));
		snprintf(got + o, sizeof(got) - o, "%s%s", o ? " " : "", code);
	}
	ck_assert_msg(strcmp(got, fix_cases[_i].findings) == 0,
	              "%s: findings '%s', want '%s'", fix_cases[_i].name, got,
	              fix_cases[_i].findings);
	ck_assert_str_eq(v->export_hca, fix_cases[_i].hca);
	ck_assert_int_eq(v->export_gid_index, fix_cases[_i].gid);
	ck_assert_int_eq(v->choice.n, fix_cases[_i].npicks);
	if (strcmp(fix_cases[_i].name, "rdma-roce-recipe-v2") == 0) {
		ck_assert_msg(strstr(v->hca_note, "is right for this node") &&
		                  strstr(v->hca_note, "mlx5_6:1 (DOWN)"),
		              "%s", v->hca_note);
		ck_assert_msg(strstr(v->gid_note, "is right"), "%s",
		              v->gid_note);
	}
	if (strcmp(fix_cases[_i].name, "rdma-roce-gid3-v1") == 0) {
		ck_assert_msg(strstr(v->hca_note, "not right"), "%s",
		              v->hca_note);
		ck_assert_msg(strstr(v->gid_note, "not right for this node: "
		                                  "RoCE v1"),
		              "%s", v->gid_note);
	}
	doc_free(&d);
	free(info);
	free(rec);
	free(v);
}
END_TEST

/* The recipe's GID index 3 on the fixture where it is RoCE v1: the fix
 * names the index NCCL would pick itself. */
START_TEST(test_recipe_fix)
{
	char dir[PATH_MAX];
	struct sysroot sr;
	struct rdma_info *info = calloc(1, sizeof(*info));
	struct ib_env e = {0};

	ck_assert_ptr_nonnull(info);
	snprintf(dir, sizeof(dir),
	         "%s/tests/fixtures/sysroot/rdma-roce-gid3-v1", SRCDIR);
	ck_assert_int_eq(sysroot_init(&sr, dir), 0);
	rdma_collect(info, &sr);
	ck_assert_int_eq(info->ndevs, 8);
	ck_assert_int_eq(info->devs[0].ports[0].gids[3].type,
	                 RDMA_GID_ROCE_V1);
	ck_assert_int_eq(ib_gid_auto(&info->devs[0].ports[0], &e), 2);
	e.roce_version = "1";
	ck_assert_int_eq(ib_gid_auto(&info->devs[0].ports[0], &e), 3);
	e.roce_version = NULL;
	e.addr_family = "AF_INET6";
	/* only link-local IPv6 GIDs: NCCL keeps index 0 */
	ck_assert_int_eq(ib_gid_auto(&info->devs[0].ports[0], &e), 0);
	free(info);
}
END_TEST

/* Loads a fixture and judges it with env e (not its recorded one);
 * the rdma-* codes found into got. */
static void judge(const char *fixture, const struct ib_env *e,
                  void (*edit)(struct rdma_info *), char *got, size_t len,
                  struct rdma_verdict *v)
{
	char dir[PATH_MAX];
	struct sysroot sr;
	struct rdma_info *info = calloc(1, sizeof(*info));
	struct doc d;
	json_t *f;
	size_t i;

	ck_assert_ptr_nonnull(info);
	snprintf(dir, sizeof(dir), "%s/tests/fixtures/sysroot/%s", SRCDIR,
	         fixture);
	ck_assert_int_eq(sysroot_init(&sr, dir), 0);
	rdma_collect(info, &sr);
	if (edit != NULL)
		edit(info);
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	decide_rdma(info, e, CONTAINER_NONE, v, &d);
	got[0] = '\0';
	json_array_foreach(d.findings, i, f)
	{
		size_t o = strlen(got);

		snprintf(got + o, len - o, "%s%s/%s", o ? " " : "",
		         json_string_value(json_object_get(f, "code")),
		         json_string_value(json_object_get(f, "severity")));
	}
	doc_free(&d);
	free(info);
}

/* The netdevs of a RoCE node moved to another netns. */
static void netdevs_away(struct rdma_info *info)
{
	for (int i = 0; i < info->ndevs; i++)
		info->devs[i].ports[0].netdev_here = false;
}

/* A RoCE node whose netdevs lost their addresses: only link-local
 * GIDs are left. */
static void no_addresses(struct rdma_info *info)
{
	for (int i = 0; i < info->ndevs; i++)
		for (int g = 2; g < info->devs[i].ports[0].ngids; g++)
			memset(info->devs[i].ports[0].gids[g].raw, 0, 16);
}

START_TEST(test_settings)
{
	char got[512];
	struct rdma_verdict *v = calloc(1, sizeof(*v));
	struct ib_env e;

	ck_assert_ptr_nonnull(v);
	/* a down port among up ones: NCCL skips it silently */
	memset(&e, 0, sizeof(e));
	e.hca = "=mlx5_0,mlx5_6";
	judge("rdma-roce-recipe-v2", &e, NULL, got, sizeof(got), v);
	/* and the other GPUs now reach mlx5_0 only across the CPU */
	ck_assert_str_eq(got, "rdma-port-down/warning rdma-nic-far/warning "
	                      "rdma-gdr-off/info");
	ck_assert_int_eq(v->choice.n, 1);
	/* only down ports: sockets, and the list says why */
	e.hca = "mlx5_6,mlx5_7";
	judge("rdma-roce-recipe-v2", &e, NULL, got, sizeof(got), v);
	ck_assert_str_eq(got, "rdma-ib-fallback/fault rdma-port-down/fault");
	ck_assert(v->choice.fallback);
	ck_assert_str_eq(v->export_hca, "");
	/* a name no device has */
	e.hca = "mlx4_0";
	judge("rdma-dgx-ib", &e, NULL, got, sizeof(got), v);
	ck_assert_str_eq(got, "rdma-ib-fallback/fault rdma-hca-missing/fault");
	/* the '^' form: a missing name excludes nothing, no finding */
	e.hca = "^mlx5_9";
	judge("rdma-dgx-ib", &e, NULL, got, sizeof(got), v);
	ck_assert_str_eq(got, "");
	ck_assert_int_eq(v->choice.n, 8);
	/* NCCL_NET=IB: no fallback, the init fails */
	e.net = "IB";
	e.hca = "mlx5_6,mlx5_7";
	judge("rdma-roce-recipe-v2", &e, NULL, got, sizeof(got), v);
	ck_assert_str_eq(got, "rdma-ib-fallback/fault rdma-port-down/fault");
	ck_assert(strstr(v->choice.nccl_says,
	                 "Failed to initialize any NET plugin") != NULL);
	e.net = NULL;
	/* NCCL_IB_DISABLE on purpose: info */
	memset(&e, 0, sizeof(e));
	e.disable = "1";
	judge("rdma-dgx-ib", &e, NULL, got, sizeof(got), v);
	ck_assert_str_eq(got, "rdma-ib-fallback/info");
	/* GID index past the table, and a link-local one */
	memset(&e, 0, sizeof(e));
	e.gid_index = "40";
	judge("rdma-roce-mixed-gids", &e, NULL, got, sizeof(got), v);
	ck_assert_str_eq(got, "rdma-gid-index/fault");
	e.gid_index = "1";
	judge("rdma-roce-mixed-gids", &e, NULL, got, sizeof(got), v);
	ck_assert_str_eq(got, "rdma-gid-index/fault");
	/* on InfiniBand NCCL_IB_GID_INDEX is not read */
	judge("rdma-dgx-ib", &e, NULL, got, sizeof(got), v);
	ck_assert_str_eq(got, "");
	/* netdevs elsewhere; no address on them */
	memset(&e, 0, sizeof(e));
	judge("rdma-roce-mixed-gids", &e, netdevs_away, got, sizeof(got), v);
	ck_assert_str_eq(got, "rdma-netdev-netns/warning");
	judge("rdma-roce-mixed-gids", &e, no_addresses, got, sizeof(got), v);
	ck_assert_str_eq(got, "rdma-gid-auto/warning");
	ck_assert_int_eq(v->export_gid_index, -1);
	free(v);
}
END_TEST

/* In a Kubernetes pod the uverbs fix is the pod spec's, not docker's. */
START_TEST(test_k8s_fix)
{
	char dir[PATH_MAX];
	struct sysroot sr;
	struct rdma_info *info = calloc(1, sizeof(*info));
	struct rdma_verdict *v = calloc(1, sizeof(*v));
	struct ib_env e = {0};
	struct doc d;
	json_t *f;
	size_t i;
	int seen = 0;

	ck_assert(info && v);
	snprintf(dir, sizeof(dir),
	         "%s/tests/fixtures/sysroot/rdma-container-no-uverbs", SRCDIR);
	ck_assert_int_eq(sysroot_init(&sr, dir), 0);
	rdma_collect(info, &sr);
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	decide_rdma(info, &e, CONTAINER_KUBERNETES, v, &d);
	json_array_foreach(d.findings, i, f)
	{
		const char *fix = json_string_value(json_object_get(f, "fix"));

		if (strcmp(json_string_value(json_object_get(f, "code")),
		           "rdma-uverbs-missing") != 0)
			continue;
		seen++;
		ck_assert_msg(strstr(fix, "rdma/hca_shared_devices_a") &&
		                  strstr(fix, "IPC_LOCK") &&
		                  !strstr(fix, "--device"),
		              "%s", fix);
	}
	ck_assert_int_eq(seen, 1);
	doc_free(&d);
	free(info);
	free(v);
}
END_TEST

Suite *suite_rdma(void)
{
	Suite *s = suite_create("rdma");
	TCase *tc = tcase_create("rdma");

	tcase_add_loop_test(tc, test_hca_table, 0,
	                    sizeof(hca_cases) / sizeof(hca_cases[0]));
	tcase_add_test(tc, test_nl_port);
	tcase_add_test(tc, test_pci_distance);
	tcase_add_loop_test(tc, test_fixture, 0,
	                    sizeof(fix_cases) / sizeof(fix_cases[0]));
	tcase_add_test(tc, test_recipe_fix);
	tcase_add_test(tc, test_settings);
	tcase_add_test(tc, test_k8s_fix);
	suite_add_tcase(s, tc);
	return s;
}
