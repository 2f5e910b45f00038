/* layers on the recorded sysroots in tests/fixtures/sysroot: each tree's
 * container, network mode, WSL mode, reach and findings. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "layers/layers_int.h"
#include "kernel/nl.h"

struct fixture_case {
	const char *name;
	enum layer_container container;
	enum layer_netmode netmode;
	enum layer_wsl wsl;
	bool wsl_container;
	enum layer_reach reach;
	const char *virt;
	const char *findings; /* space-separated codes, exactly these */
	int exit_status;
};

static const struct fixture_case cases[] = {
	{"bare-metal", CONTAINER_NONE, NETMODE_HOST, WSL_NONE, false,
	 REACH_DIRECT, "none", "", 0},
	{"docker-bridge", CONTAINER_DOCKER, NETMODE_BRIDGE_NAT, WSL_NONE, false,
	 REACH_NAT, "qemu", "container-bridge-nat shm-small", 1},
	{"docker-host", CONTAINER_DOCKER, NETMODE_HOST, WSL_NONE, false,
	 REACH_DIRECT, "none", "", 0},
	{"podman", CONTAINER_PODMAN, NETMODE_BRIDGE_NAT, WSL_NONE, false,
	 REACH_NAT, "qemu", "container-bridge-nat shm-small", 1},
	{"k8s-pod", CONTAINER_KUBERNETES, NETMODE_OVERLAY, WSL_NONE, false,
	 REACH_UNKNOWN, "amazon", "shm-small", 0},
	{"wsl1", CONTAINER_NONE, NETMODE_HOST, WSL_1, false, REACH_DIRECT,
	 "unknown", "", 0},
	{"wsl2-nat", CONTAINER_NONE, NETMODE_HOST, WSL_2_NAT, false, REACH_NAT,
	 "microsoft", "wsl2-nat", 1},
	{"wsl2-mirrored", CONTAINER_NONE, NETMODE_HOST, WSL_2_MIRRORED, false,
	 REACH_DIRECT, "microsoft", "", 0},
	{"wsl2-docker", CONTAINER_DOCKER, NETMODE_BRIDGE_NAT, WSL_2_UNKNOWN,
	 true, REACH_DOUBLE_NAT, "microsoft",
	 "wsl-container-double-nat shm-small", 1},
};

/* The finding codes of d, space-separated in order. */
static void codes(const struct doc *d, char *buf, size_t len)
{
	size_t i;
	json_t *f;

	buf[0] = '\0';
	json_array_foreach(d->findings, i, f) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, "%s%s", n ? " " : "",
			 json_string_value(json_object_get(f, "code")));
	}
}

START_TEST(fixture)
{
	const struct fixture_case *c = &cases[_i];
	char dir[4096], got[512];
	struct sysroot sr;
	struct layers ly;
	struct doc d;
	json_t *j, *ev;
	size_t k;
	json_t *o;

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/sysroot/%s", SRCDIR,
		 c->name);
	ck_assert_int_eq(sysroot_init(&sr, dir), 0);
	ck_assert_int_eq(layers_detect(&ly, &sr, NULL), 0);
	ck_assert_msg(ly.container == c->container, "%s: container %s",
		      c->name, layers_container_name(ly.container));
	ck_assert_msg(ly.netmode == c->netmode, "%s: netmode %s", c->name,
		      layers_netmode_name(ly.netmode));
	ck_assert_msg(ly.wsl == c->wsl, "%s: wsl %s", c->name,
		      layers_wsl_name(ly.wsl));
	ck_assert_msg(ly.wsl_container == c->wsl_container, "%s: wsl_container",
		      c->name);
	ck_assert_msg(ly.reach == c->reach, "%s: reach %s", c->name,
		      layers_reach_name(ly.reach));
	ck_assert_str_eq(ly.virt, c->virt);
	ck_assert_int_eq(doc_init(&d, "netprobe", "layers"), 0);
	layers_findings(&ly, &d);
	codes(&d, got, sizeof(got));
	ck_assert_msg(strcmp(got, c->findings) == 0, "%s: findings '%s'",
		      c->name, got);
	ck_assert_int_eq(doc_exit_status(&d, true), c->exit_status);
	/* every finding carries evidence, every evidence item both keys */
	json_array_foreach(d.findings, k, o) {
		ev = json_object_get(o, "evidence");
		ck_assert_uint_gt(json_array_size(ev), 0);
	}
	j = layers_to_json(&ly);
	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(json_string_value(json_object_get(j, "netmode")),
			 layers_netmode_name(c->netmode));
	ev = json_object_get(j, "evidence");
	ck_assert_uint_gt(json_array_size(ev), 0);
	json_array_foreach(ev, k, o) {
		ck_assert(json_is_string(json_object_get(o, "fact")));
		ck_assert(json_is_string(json_object_get(o, "source")));
	}
	json_decref(j);
	doc_free(&d);
	layers_free(&ly);
}
END_TEST

START_TEST(docker_host_bridges_listed)
{
	char dir[4096];
	struct sysroot sr;
	struct layers ly;
	json_t *b;

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/sysroot/docker-host",
		 SRCDIR);
	ck_assert_int_eq(sysroot_init(&sr, dir), 0);
	ck_assert_int_eq(layers_detect(&ly, &sr, NULL), 0);
	ck_assert_uint_eq(json_array_size(ly.bridges), 1);
	b = json_array_get(ly.bridges, 0);
	ck_assert_str_eq(json_string_value(json_object_get(b, "name")),
			 "docker0");
	ck_assert_str_eq(json_string_value(json_array_get(
				 json_object_get(b, "members"), 0)),
			 "veth3a1f2c9");
	layers_free(&ly);
}
END_TEST

/* The ifaces replay reads these trees as layers needs them. */
START_TEST(replay_reads_fixture)
{
	struct iface_list l = {0};
	const struct iface *e, *lo;
	struct sysroot sr;
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/sysroot/docker-bridge",
		 SRCDIR);
	ck_assert_int_eq(sysroot_init(&sr, dir), 0);
	ck_assert_int_eq(iface_replay(&l, &sr), 0);
	ck_assert_uint_eq(l.n, 2);
	e = iface_by_name(&l, "eth0");
	lo = iface_by_name(&l, "lo");
	ck_assert_ptr_nonnull(e);
	ck_assert_ptr_nonnull(lo);
	ck_assert_int_eq(lo->kind, IFK_LOOPBACK);
	ck_assert_int_eq(e->kind, IFK_VETH);
	ck_assert_int_eq(e->index, 6);
	ck_assert_int_eq(e->link_index, 7);
	ck_assert_int_ge(e->link_netnsid, 0);
	ck_assert_ptr_nonnull(iface_first_v4(e));
	ck_assert_str_eq(iface_first_v4(e)->str, "172.17.0.2");
	ck_assert_uint_eq(iface_first_v4(e)->prefixlen, 16);
	ck_assert_ptr_nonnull(iface_first_v4(lo));
	ck_assert_str_eq(iface_first_v4(lo)->str, "127.0.0.1");
	iface_list_free(&l);
}
END_TEST

/* The whole document for a fixture equals its golden file (version
 * aside, so a release does not churn the goldens). */
static void golden(const char *name)
{
	char dir[4096], gpath[4096];
	struct sysroot sr;
	struct layers ly;
	struct doc d;
	json_error_t err;
	json_t *want;

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/sysroot/%s", SRCDIR,
		 name);
	snprintf(gpath, sizeof(gpath), "%s/tests/fixtures/layers/%s.json",
		 SRCDIR, name);
	want = json_load_file(gpath, 0, &err);
	ck_assert_msg(want != NULL, "%s: %s", gpath, err.text);
	ck_assert_int_eq(sysroot_init(&sr, dir), 0);
	ck_assert_int_eq(layers_detect(&ly, &sr, NULL), 0);
	ck_assert_int_eq(doc_init(&d, "netprobe", "layers"), 0);
	doc_set_fixed(&d, "2026-11-21T10:00:00Z", "node1");
	layers_findings(&ly, &d);
	ck_assert_int_eq(doc_set(&d, "layers", layers_to_json(&ly)), 0);
	json_object_del(want, "version");
	json_object_del(d.root, "version");
	if (!json_equal(want, d.root)) {
		char *got = json_dumps(d.root, JSON_SORT_KEYS | JSON_INDENT(2));

		ck_abort_msg("%s differs from its golden file:\n%s", name,
			     got ? got : "(no memory)");
	}
	json_decref(want);
	doc_free(&d);
	layers_free(&ly);
}

START_TEST(golden_documents)
{
	golden("docker-bridge");
	golden("wsl2-nat");
}
END_TEST

START_TEST(empty_sysroot_fails)
{
	struct sysroot sr;
	struct layers ly;
	char dir[4096];

	/* a directory holding none of the files: nothing to decide from */
	snprintf(dir, sizeof(dir), "%s/tests/fixtures", SRCDIR);
	ck_assert_int_eq(sysroot_init(&sr, dir), 0);
	ck_assert_int_eq(layers_detect(&ly, &sr, NULL), -1);
	layers_free(&ly);
}
END_TEST

Suite *suite_layers_fixtures(void)
{
	Suite *s = suite_create("layers_fixtures");
	TCase *tc = tcase_create("sysroot");

	tcase_add_loop_test(tc, fixture, 0,
			    (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(tc, docker_host_bridges_listed);
	tcase_add_test(tc, replay_reads_fixture);
	tcase_add_test(tc, golden_documents);
	tcase_add_test(tc, empty_sysroot_fails);
	suite_add_tcase(s, tc);
	return s;
}
