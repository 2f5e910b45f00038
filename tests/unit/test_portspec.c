/* Unit tests for port specifications: lists, ranges, protocols, presets,
 * errors, ephemeral samples and range formatting. */
#include <check.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "probe/portspec.h"

/* Parses spec into a fresh list; returns parse's status. */
static int parse(const char *spec, struct port_list *pl,
		 struct portspec_err *e)
{
	port_list_init(pl);
	return portspec_parse(spec, pl, e);
}

START_TEST(list_and_ranges)
{
	struct port_list pl;
	struct portspec_err e;

	ck_assert_int_eq(parse("22,80,8000-8010", &pl, &e), 0);
	ck_assert_uint_eq(pl.n, 13);
	ck_assert_uint_eq(pl.v[0].port, 22);
	ck_assert_uint_eq(pl.v[0].proto, IPPROTO_TCP);
	ck_assert_uint_eq(pl.v[2].port, 8000);
	ck_assert_uint_eq(pl.v[12].port, 8010);
	ck_assert_ptr_null(pl.v[0].why);
	ck_assert(!pl.ephemeral);
	port_list_free(&pl);

	ck_assert_int_eq(parse(" 22 , 22,65535", &pl, &e), 0);
	ck_assert_uint_eq(pl.n, 2); /* duplicates dropped */
	ck_assert_uint_eq(pl.v[1].port, 65535);
	port_list_free(&pl);
}
END_TEST

START_TEST(protocols)
{
	struct port_list pl;
	struct portspec_err e;

	ck_assert_int_eq(parse("4789/udp,7946/tcp+udp,53/udp+tcp", &pl, &e),
			 0);
	ck_assert_uint_eq(pl.n, 5);
	ck_assert_uint_eq(pl.v[0].proto, IPPROTO_UDP);
	ck_assert_uint_eq(pl.v[1].port, 7946);
	ck_assert_uint_eq(pl.v[1].proto, IPPROTO_TCP);
	ck_assert_uint_eq(pl.v[2].proto, IPPROTO_UDP);
	ck_assert_str_eq(portspec_proto_name(pl.v[0].proto), "udp");
	port_list_free(&pl);
	ck_assert_int_eq(parse("100-102/udp", &pl, &e), 0);
	ck_assert_uint_eq(pl.n, 3);
	ck_assert_uint_eq(pl.v[2].proto, IPPROTO_UDP);
	port_list_free(&pl);
}
END_TEST

START_TEST(presets)
{
	struct port_list pl;
	struct portspec_err e;
	size_t n, samples = 0;

	ck_assert_int_eq(parse("ray", &pl, &e), 0);
	ck_assert_uint_eq(pl.n, 8);
	ck_assert_uint_eq(pl.v[0].port, 6379);
	ck_assert_str_eq(pl.v[0].why, "ray");
	for (size_t i = 0; i < pl.n; i++)
		if (pl.v[i].flags & PSPEC_F_SAMPLE) {
			samples++;
			ck_assert(pl.v[i].port >= 10002 &&
				  pl.v[i].port <= 19999);
		}
	ck_assert_uint_eq(samples, 5);
	port_list_free(&pl);

	ck_assert_int_eq(parse("swarm", &pl, &e), 0);
	ck_assert_uint_eq(pl.n, 4);
	ck_assert_uint_eq(pl.v[3].port, 4789);
	ck_assert_uint_eq(pl.v[3].proto, IPPROTO_UDP);
	port_list_free(&pl);

	ck_assert_int_eq(parse("ray,22,9000-9010,torch,ssh,slurm", &pl, &e),
			 0);
	/* 8 ray + 22 + 11 + 2 torch + ssh's 22 again + 3 slurm */
	ck_assert_uint_eq(pl.n, 8 + 1 + 11 + 2 + 3);
	port_list_free(&pl);

	ck_assert_int_eq(parse("ephemeral", &pl, &e), 0);
	ck_assert_uint_eq(pl.n, 0);
	ck_assert(pl.ephemeral);
	port_list_free(&pl);

	ck_assert_int_eq(parse("mpi", &pl, &e), 0);
	ck_assert(pl.ephemeral);
	ck_assert_uint_eq(pl.n, 2);
	ck_assert(pl.v[0].flags & PSPEC_F_SAMPLE);
	port_list_free(&pl);

	ck_assert_ptr_nonnull(portspec_presets(&n));
	ck_assert_uint_eq(n, 7);
}
END_TEST

/* Each bad spec fails naming its item and a phrase containing why. */
static void bad(const char *spec, const char *token, const char *why)
{
	struct port_list pl;
	struct portspec_err e;

	ck_assert_int_eq(parse(spec, &pl, &e), -1);
	ck_assert_str_eq(e.token, token);
	ck_assert_msg(strstr(e.why, why) != NULL, "'%s': '%s' lacks '%s'",
		      spec, e.why, why);
	port_list_free(&pl);
}

START_TEST(errors)
{
	bad("0", "0", "out of range");
	bad("65536", "65536", "out of range");
	bad("22,70000", "70000", "out of range");
	bad("10-5", "10-5", "reversed");
	bad("0-5", "0-5", "out of range");
	bad("abc1", "abc1", "unknown preset");
	bad("RAY", "RAY", "unknown preset");
	bad("22/sctp", "22/sctp", "unknown protocol");
	bad("", "", "empty port list");
	bad(" ", " ", "empty port list");
	bad("22,,80", "22,,80", "empty item");
	bad("22,", "22,", "empty item");
	bad("-5", "-5", "not a port number");
	bad("5-", "5-", "not a port number");
	bad("1-2-3", "1-2-3", "not a port number");
	bad("1-65535/tcp+udp", "1-65535/tcp+udp", "more than 65535");
}
END_TEST

START_TEST(cap)
{
	struct port_list pl;
	struct portspec_err e;

	ck_assert_int_eq(parse("1-65535", &pl, &e), 0);
	ck_assert_uint_eq(pl.n, PORTSPEC_MAX);
	ck_assert_int_eq(portspec_parse("1/udp", &pl, &e), -1);
	ck_assert_int_eq(portspec_parse("22", &pl, &e), 0); /* duplicate */
	port_list_free(&pl);
}
END_TEST

START_TEST(ephemeral_samples)
{
	uint16_t s[8];

	ck_assert_uint_eq(portspec_ephemeral_samples(32768, 60999, s, 8), 4);
	ck_assert_uint_eq(s[0], 32768);
	ck_assert_uint_eq(s[1], 32769);
	ck_assert_uint_eq(s[2], 60998);
	ck_assert_uint_eq(s[3], 60999);
	ck_assert_uint_eq(portspec_ephemeral_samples(5000, 5002, s, 8), 3);
	ck_assert_uint_eq(s[2], 5002);
	ck_assert_uint_eq(portspec_ephemeral_samples(5000, 5000, s, 8), 1);
	ck_assert_uint_eq(portspec_ephemeral_samples(6000, 5000, s, 8), 0);
	ck_assert_uint_eq(portspec_ephemeral_samples(0, 5000, s, 8), 0);
	ck_assert_uint_eq(portspec_ephemeral_samples(1000, 2000, s, 3), 3);
}
END_TEST

START_TEST(ranges_format)
{
	uint16_t p[] = {22, 80, 81, 82, 443, 8000, 8001};
	char *s;

	s = portspec_ranges(p, 7, "", ", ", "-", "");
	ck_assert_str_eq(s, "22, 80-82, 443, 8000-8001");
	free(s);
	s = portspec_ranges(p, 4, "ufw allow ", "; ", ":", "/tcp");
	ck_assert_str_eq(s, "ufw allow 22/tcp; ufw allow 80:82/tcp");
	free(s);
	s = portspec_ranges(p, 0, "", ",", "-", "");
	ck_assert_str_eq(s, "");
	free(s);
}
END_TEST

Suite *suite_portspec(void)
{
	Suite *s = suite_create("portspec");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, list_and_ranges);
	tcase_add_test(tc, protocols);
	tcase_add_test(tc, presets);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, cap);
	tcase_add_test(tc, ephemeral_samples);
	tcase_add_test(tc, ranges_format);
	suite_add_tcase(s, tc);
	return s;
}
