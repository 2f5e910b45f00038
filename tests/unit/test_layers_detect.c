/* layers' file checks in systemd-detect-virt's order, on small sysroots
 * written into a temporary directory. */
#define _XOPEN_SOURCE 700
#include <check.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "layers/layers.h"

static char root[64];

static void setup(void)
{
	snprintf(root, sizeof(root), "/tmp/np-layers-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static void teardown(void)
{
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Writes len bytes at root/path, creating the directories. */
static void put(const char *path, const char *data, size_t len)
{
	char p[512];
	FILE *fp;

	snprintf(p, sizeof(p), "%s%s", root, path);
	for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')) != NULL;
	     s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	fp = fopen(p, "w");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(data, 1, len, fp), len);
	fclose(fp);
}

#define PUT(path, lit) put(path, lit, sizeof(lit) - 1)

/* The container layers_detect finds under root. */
static enum layer_container detect(void)
{
	struct sysroot sr;
	struct layers ly;
	enum layer_container c;

	ck_assert_int_eq(sysroot_init(&sr, root), 0);
	ck_assert_int_eq(layers_detect(&ly, &sr, NULL), 0);
	c = ly.container;
	layers_free(&ly);
	return c;
}

START_TEST(manager_file_beats_marker_files)
{
	PUT("/proc/sys/kernel/osrelease", "6.1.0\n");
	PUT("/.dockerenv", "");
	ck_assert_int_eq(detect(), CONTAINER_DOCKER);
	PUT("/run/.containerenv", "engine=\"podman-4.3.1\"\n");
	ck_assert_int_eq(detect(), CONTAINER_PODMAN);
	PUT("/run/systemd/container", "lxc\n");
	ck_assert_int_eq(detect(), CONTAINER_LXC);
	PUT("/run/host/container-manager", "docker\n");
	ck_assert_int_eq(detect(), CONTAINER_DOCKER);
}
END_TEST

START_TEST(environ_container_and_oci)
{
	PUT("/proc/sys/kernel/osrelease", "6.1.0\n");
	PUT("/proc/1/environ", "HOME=/\0container=oci\0");
	ck_assert_int_eq(detect(), CONTAINER_OTHER);
	PUT("/.dockerenv", "");
	ck_assert_int_eq(detect(), CONTAINER_DOCKER);
	PUT("/proc/1/environ", "HOME=/\0container=lxc\0");
	ck_assert_int_eq(detect(), CONTAINER_LXC);
	PUT("/proc/1/environ", "HOME=/\0container=\0");
	ck_assert_int_eq(detect(), CONTAINER_DOCKER);
}
END_TEST

START_TEST(openvz)
{
	PUT("/proc/sys/kernel/osrelease", "2.6.32-042stab\n");
	PUT("/proc/vz/version", "1\n");
	ck_assert_int_eq(detect(), CONTAINER_OTHER);
	PUT("/proc/bc/0", "");
	ck_assert_int_eq(detect(), CONTAINER_NONE);
}
END_TEST

START_TEST(cgroup_and_kubernetes_hints)
{
	PUT("/proc/sys/kernel/osrelease", "6.1.0\n");
	PUT("/proc/1/cgroup", "0::/init.scope\n");
	ck_assert_int_eq(detect(), CONTAINER_NONE);
	PUT("/proc/1/cgroup", "4:memory:/docker/3f4e5d6c7b8a\n");
	ck_assert_int_eq(detect(), CONTAINER_DOCKER);
	PUT("/proc/1/cgroup", "0::/lxc.payload.web\n");
	ck_assert_int_eq(detect(), CONTAINER_LXC);
	PUT("/proc/1/cgroup", "0::/system.slice/containerd.service/x\n");
	ck_assert_int_eq(detect(), CONTAINER_CONTAINERD);
	PUT("/proc/1/cgroup", "0::/\n");
	PUT("/proc/self/environ", "KUBERNETES_SERVICE_HOST=10.96.0.1\0");
	ck_assert_int_eq(detect(), CONTAINER_KUBERNETES);
}
END_TEST

START_TEST(shm_from_mounts_and_meminfo)
{
	struct sysroot sr;
	struct layers ly;

	PUT("/proc/mounts", "shm /dev/shm tmpfs rw,nosuid,size=65536k 0 0\n");
	ck_assert_int_eq(sysroot_init(&sr, root), 0);
	ck_assert_int_eq(layers_detect(&ly, &sr, NULL), 0);
	ck_assert_int_eq(ly.shm_bytes, 64LL << 20);
	layers_free(&ly);
	PUT("/proc/self/mountinfo",
	    "26 25 0:23 / /dev/shm rw,nosuid - tmpfs tmpfs rw,inode64\n");
	PUT("/proc/meminfo", "MemTotal:        2097152 kB\n");
	ck_assert_int_eq(layers_detect(&ly, &sr, NULL), 0);
	ck_assert_int_eq(ly.shm_bytes, 1LL << 30);
	layers_free(&ly);
}
END_TEST

/* The virtualization hint layers_detect finds under root. */
static void expect_virt(const char *want)
{
	struct sysroot sr;
	struct layers ly;

	ck_assert_int_eq(sysroot_init(&sr, root), 0);
	ck_assert_int_eq(layers_detect(&ly, &sr, NULL), 0);
	ck_assert_str_eq(ly.virt, want);
	layers_free(&ly);
}

START_TEST(virt_from_dmi)
{
	PUT("/sys/class/dmi/id/sys_vendor", "Dell Inc.\n");
	expect_virt("none");
	PUT("/sys/class/dmi/id/product_name", "KVM\n");
	PUT("/sys/class/dmi/id/sys_vendor", "QEMU\n");
	expect_virt("kvm"); /* product_name first: KVM before QEMU */
	PUT("/sys/class/dmi/id/product_name", "c5.metal\n");
	PUT("/sys/class/dmi/id/sys_vendor", "Amazon EC2\n");
	expect_virt("none");
	PUT("/sys/class/dmi/id/product_name", "c5.xlarge\n");
	expect_virt("amazon");
	PUT("/sys/class/dmi/id/product_name", "Virtual Machine\n");
	PUT("/sys/class/dmi/id/sys_vendor", "Microsoft Corporation\n");
	PUT("/sys/class/dmi/id/product_version", "Hyper-V UEFI Release v4.1\n");
	expect_virt("microsoft");
}
END_TEST

Suite *suite_layers_detect(void)
{
	Suite *s = suite_create("layers_detect");
	TCase *tc = tcase_create("files");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, manager_file_beats_marker_files);
	tcase_add_test(tc, environ_container_and_oci);
	tcase_add_test(tc, openvz);
	tcase_add_test(tc, cgroup_and_kubernetes_hints);
	tcase_add_test(tc, shm_from_mounts_and_meminfo);
	tcase_add_test(tc, virt_from_dmi);
	suite_add_tcase(s, tc);
	return s;
}
