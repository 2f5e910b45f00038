/* Unit tests for the one HOST[:PORT] parser (base/hostport.h): names,
 * IPv4, IPv6 bare and in brackets, missing and bad ports, and the
 * formatter that joins them back. */
#include "base/hostport.h"

#include <check.h>
#include <string.h>

/* Splits spec with default port 7470; returns the parser's code. */
static int split(const char *spec, char *host, size_t len, unsigned *port,
                 const char **why)
{
	const char *bad;

	return hostport_parse(spec, 7470, host, len, port, why, &bad);
}

START_TEST(good_specs)
{
	static const struct {
		const char *spec, *host;
		unsigned port;
	} c[] = {
	    {"node01", "node01", 7470},
	    {"node01:29500", "node01", 29500},
	    {"10.0.0.1", "10.0.0.1", 7470},
	    {"10.0.0.1:1", "10.0.0.1", 1},
	    {"fd00::1", "fd00::1", 7470}, /* bare IPv6: no port */
	    {"fe80::1%eth0", "fe80::1%eth0", 7470},
	    {"[fd00::1]", "fd00::1", 7470},
	    {"[fd00::1]:65535", "fd00::1", 65535},
	    {"[::1]:80", "::1", 80},
	    {"[node01]:80", "node01", 80},
	};
	char host[64];
	const char *why;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		unsigned port = 0;

		ck_assert_int_eq(
		    split(c[i].spec, host, sizeof(host), &port, &why),
		    HOSTPORT_OK);
		ck_assert_str_eq(host, c[i].host);
		ck_assert_uint_eq(port, c[i].port);
	}
}
END_TEST

START_TEST(bad_specs)
{
	static const struct {
		const char *spec;
		int code;
		const char *why;
	} c[] = {
	    {"", HOSTPORT_E_HOST, "empty"},
	    {":80", HOSTPORT_E_HOST, "no host"},
	    {"[]:80", HOSTPORT_E_HOST, "no host"},
	    {"[::1", HOSTPORT_E_HOST, "missing ']'"},
	    {"[::1]80", HOSTPORT_E_HOST, "text after ']'"},
	    {"h:", HOSTPORT_E_PORT, "no port after ':'"},
	    {"[::1]:", HOSTPORT_E_PORT, "no port after ':'"},
	    {"h:0", HOSTPORT_E_PORT, "too small"},
	    {"h:65536", HOSTPORT_E_PORT, "too large"},
	    {"h:-1", HOSTPORT_E_PORT, "too small"},
	    {"h:+80", HOSTPORT_E_PORT, "not a number"},
	    {"h: 80", HOSTPORT_E_PORT, "not a number"},
	    {"h:80x", HOSTPORT_E_PORT, "not a number"},
	    {"[::1]:99999", HOSTPORT_E_PORT, "too large"},
	};
	char host[64];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const char *why = NULL;
		unsigned port = 0;

		ck_assert_msg(split(c[i].spec, host, sizeof(host), &port,
		                    &why) == c[i].code,
		              "'%s'", c[i].spec);
		ck_assert_str_eq(why, c[i].why);
	}
}
END_TEST

/* The bad port is pointed at; a host too long for the buffer refused. */
START_TEST(limits)
{
	char host[8];
	const char *why, *bad;
	unsigned port;

	ck_assert_int_eq(
	    hostport_parse("h:70000", 1, host, sizeof(host), &port, &why, &bad),
	    HOSTPORT_E_PORT);
	ck_assert_str_eq(bad, "70000");
	ck_assert_int_eq(hostport_parse("abcdefgh:1", 1, host, sizeof(host),
	                                &port, &why, NULL),
	                 HOSTPORT_E_HOST);
	ck_assert_str_eq(why, "host too long");
	ck_assert_int_eq(
	    hostport_parse(NULL, 1, host, sizeof(host), &port, &why, NULL),
	    HOSTPORT_E_HOST);
}
END_TEST

START_TEST(format)
{
	char buf[64], host[64];
	const char *why;
	unsigned port;

	ck_assert_int_eq(hostport_format("node01", 7470, buf, sizeof(buf)), 11);
	ck_assert_str_eq(buf, "node01:7470");
	ck_assert_int_gt(hostport_format("fd00::2", 80, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "[fd00::2]:80");
	/* what it writes, the parser reads back */
	ck_assert_int_eq(split(buf, host, sizeof(host), &port, &why),
	                 HOSTPORT_OK);
	ck_assert_str_eq(host, "fd00::2");
	ck_assert_uint_eq(port, 80);
	ck_assert_int_eq(hostport_format("node01", 7470, buf, 5), -1);
}
END_TEST

Suite *suite_hostport(void)
{
	Suite *s = suite_create("hostport");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, good_specs);
	tcase_add_test(tc, bad_specs);
	tcase_add_test(tc, limits);
	tcase_add_test(tc, format);
	suite_add_tcase(s, tc);
	return s;
}
