/* ufw's and firewalld's service state (kernel/fwservice.h) from recorded
 * sysroot trees (tests/fixtures/fwservice): the service's own files
 * decide, not the chains it may have left loaded. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "kernel/fwservice.h"

/* The state read from fixture tree name. */
static struct fw_service read_tree(const char *name)
{
	char dir[512];
	struct sysroot sr;
	struct fw_service s;

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/fwservice/%s", SRCDIR,
	         name);
	ck_assert_int_eq(sysroot_init(&sr, dir), 0);
	fwservice_read(&sr, &s);
	return s;
}

START_TEST(ufw_enabled_yes_no)
{
	struct fw_service s = read_tree("ufw-on");

	ck_assert_int_eq(s.ufw, FWSVC_ACTIVE);
	ck_assert_str_eq(s.ufw_why, "ENABLED=yes in /etc/ufw/ufw.conf");
	ck_assert_int_eq(s.firewalld, FWSVC_INACTIVE);
	ck_assert_str_eq(s.firewalld_why,
	                 "no firewalld among the 1 processes under /proc");
	s = read_tree("ufw-off");
	ck_assert_int_eq(s.ufw, FWSVC_INACTIVE);
	ck_assert_str_eq(s.ufw_why, "ENABLED=no in /etc/ufw/ufw.conf");
	ck_assert_str_eq(fwservice_state_name(s.ufw), "inactive");
}
END_TEST

START_TEST(firewalld_process)
{
	struct fw_service s = read_tree("firewalld");

	ck_assert_int_eq(s.firewalld, FWSVC_ACTIVE);
	ck_assert_str_eq(s.firewalld_why,
	                 "process 812 (/run/firewalld.pid) is firewalld");
	/* /etc readable, no ufw.conf: ufw is not there */
	ck_assert_int_eq(s.ufw, FWSVC_INACTIVE);
	ck_assert_str_eq(s.ufw_why,
	                 "ufw is not installed (no /etc/ufw/ufw.conf)");
	s = read_tree("firewalld-python");
	ck_assert_int_eq(s.firewalld, FWSVC_ACTIVE);
	ck_assert_str_eq(s.firewalld_why, "process 903 is firewalld");
	/* a pid file whose process is gone is no running firewalld */
	s = read_tree("firewalld-stale");
	ck_assert_int_eq(s.firewalld, FWSVC_INACTIVE);
	ck_assert_str_eq(fwservice_state_name(s.firewalld), "inactive");
}
END_TEST

START_TEST(cannot_tell)
{
	struct fw_service s = read_tree("unreadable");

	ck_assert_int_eq(s.ufw, FWSVC_UNKNOWN);
	ck_assert_str_eq(s.ufw_why, "/etc/ufw/ufw.conf cannot be read: No "
	                            "such file or directory");
	ck_assert_int_eq(s.firewalld, FWSVC_UNKNOWN);
	ck_assert(strstr(s.firewalld_why, "/proc cannot be read") != NULL);
	ck_assert_str_eq(fwservice_state_name(s.firewalld), "unknown");
}
END_TEST

Suite *suite_fwservice(void)
{
	Suite *s = suite_create("fwservice");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, ufw_enabled_yes_no);
	tcase_add_test(tc, firewalld_process);
	tcase_add_test(tc, cannot_tell);
	suite_add_tcase(s, tc);
	return s;
}
