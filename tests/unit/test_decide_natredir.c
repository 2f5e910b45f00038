/* nat-redirect-unheld (lib/decide/decide_natredir.c, kernel/natredir.c,
 * issue 48) from rulesets recorded with nft -j list ruleset
 * (tests/fixtures/fwrules, each beside its .nft source): blind48c 05's
 * istio-init rules with no proxy listening are two faults (inbound to
 * 15006, outbound to 15001) whose commands delete the base chains' jumps;
 * the same rules with the proxy's ports held, 07's transparent proxy of
 * TCP 80 and 443, and listeners that could not be read are silent; a
 * dnat to 127.0.0.1 is read as a redirect, and a rule matching a mark is
 * not judged. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "decide/decide_natredir.h"
#include "fwfixture.h"
#include "kernel/natredir.h"

/* the mesh's port, torchrun's and the store's, one ephemeral port */
static const unsigned ports[] = {7470, 29400, 29500, 45000};

/* The redirects natredir_parse_nft reads from recorded ruleset rel. */
static void parse(const char *rel, struct nat_redirs *nr)
{
	char *t = fw_fixture_text(rel);

	ck_assert_int_eq(natredir_parse_nft(t, ports, 4, nr), 0);
	free(t);
}

/* Listeners on the n ports held (sock_diag's view), read. */
static void listeners(struct host_limits *l, const unsigned *held, size_t n)
{
	memset(l, 0, sizeof(*l));
	l->listeners_read = true;
	for (size_t i = 0; i < n; i++)
		l->listeners[l->nlisteners++].port = held[i];
}

/* The findings decide_natredir adds; the i-th one's command into cmd
 * and its summary into sum ("" when none). */
static size_t run(const struct nat_redirs *nr, const struct host_limits *l,
                  size_t i, char *cmd, char *sum, size_t len)
{
	struct doc d;
	size_t n;

	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_int_eq(decide_natredir(nr, l, &d), 0);
	n = json_array_size(d.findings);
	cmd[0] = sum[0] = '\0';
	if (n > i) {
		const json_t *f = json_array_get(d.findings, i);

		ck_assert_str_eq(json_string_value(json_object_get(f, "code")),
				 "nat-redirect-unheld");
		ck_assert_str_eq(
		    json_string_value(json_object_get(f, "severity")), "fault");
		snprintf(cmd, len, "%s",
			 json_string_value(json_object_get(f, "command")));
		snprintf(sum, len, "%s",
			 json_string_value(json_object_get(f, "summary")));
	}
	doc_free(&d);
	return n;
}

START_TEST(istio_without_proxy)
{
	static const unsigned mesh[] = {7470};
	struct nat_redirs nr;
	struct host_limits l;
	char cmd[512], sum[1024];

	parse("natredir-istio.json", &nr);
	ck_assert_uint_eq(nr.n, 2);
	listeners(&l, mesh, 1);
	ck_assert_uint_eq(run(&nr, &l, 0, cmd, sum, sizeof(cmd)), 2);
	ck_assert_str_eq(cmd, "nft delete rule ip nat PREROUTING handle 23");
	ck_assert_ptr_nonnull(strstr(sum, "into this node"));
	ck_assert_ptr_nonnull(strstr(sum, "7470, 29400, 29500, 45000"));
	ck_assert_ptr_nonnull(strstr(sum, "local port 15006"));
	ck_assert_ptr_nonnull(strstr(sum, "tcp dport 15008"));
	ck_assert_ptr_nonnull(strstr(sum, "istio-proxy"));
	run(&nr, &l, 1, cmd, sum, sizeof(cmd));
	ck_assert_str_eq(cmd, "nft delete rule ip nat OUTPUT handle 24");
	ck_assert_ptr_nonnull(strstr(sum, "out of this node"));
	ck_assert_ptr_nonnull(strstr(sum, "local port 15001"));
	ck_assert_ptr_nonnull(strstr(sum, "uid 1337"));
}
END_TEST

START_TEST(istio_with_proxy_is_silent)
{
	static const unsigned proxy[] = {7470, 15001, 15006};
	struct nat_redirs nr;
	struct host_limits l;
	char cmd[512], sum[1024];

	parse("natredir-istio.json", &nr);
	listeners(&l, proxy, 3);
	ck_assert_uint_eq(run(&nr, &l, 0, cmd, sum, sizeof(cmd)), 0);
	/* listeners unread, or more than kept: not judged */
	listeners(&l, NULL, 0);
	l.listeners_read = false;
	ck_assert_uint_eq(run(&nr, &l, 0, cmd, sum, sizeof(cmd)), 0);
	l.listeners_read = true;
	l.listeners_truncated = true;
	ck_assert_uint_eq(run(&nr, &l, 0, cmd, sum, sizeof(cmd)), 0);
}
END_TEST

START_TEST(proxy_of_other_ports_is_silent)
{
	struct nat_redirs nr;
	struct host_limits l;
	char cmd[512], sum[1024];

	/* blind48c 07: outbound TCP 80 and 443 to :3128, uid 13 skipped */
	parse("natredir-proxy80.json", &nr);
	ck_assert(nr.read);
	ck_assert_uint_eq(nr.n, 0);
	listeners(&l, NULL, 0);
	ck_assert_uint_eq(run(&nr, &l, 0, cmd, sum, sizeof(cmd)), 0);
}
END_TEST

START_TEST(dnat_to_loopback_and_unread_mark)
{
	static const unsigned ssh[] = {22};
	struct nat_redirs nr;
	struct host_limits l;
	char cmd[512], sum[1024];

	parse("natredir-dnat.json", &nr);
	/* prerouting's dnat to 127.0.0.1:15006; output's redirect matches
	 * a mark and an address: not judged */
	ck_assert_uint_eq(nr.n, 1);
	ck_assert(nr.r[0].dnat);
	ck_assert(!nr.r[0].output);
	ck_assert_uint_eq(nr.r[0].nports, 4);
	listeners(&l, NULL, 0);
	ck_assert_uint_eq(run(&nr, &l, 0, cmd, sum, sizeof(cmd)), 1);
	ck_assert_str_eq(cmd, "nft delete rule inet nat prerouting handle 5");
	/* port 22 returns before the dnat */
	{
		char *t = fw_fixture_text("natredir-dnat.json");

		ck_assert_int_eq(natredir_parse_nft(t, ssh, 1, &nr), 0);
		free(t);
	}
	ck_assert_uint_eq(nr.n, 0);
	ck_assert_int_eq(natredir_parse_nft("not json", ports, 4, &nr), -1);
	ck_assert(!nr.read);
}
END_TEST

Suite *suite_decide_natredir(void)
{
	Suite *s = suite_create("decide_natredir");
	TCase *tc = tcase_create("natredir");

	tcase_add_test(tc, istio_without_proxy);
	tcase_add_test(tc, istio_with_proxy_is_silent);
	tcase_add_test(tc, proxy_of_other_ports_is_silent);
	tcase_add_test(tc, dnat_to_loopback_and_unread_mark);
	suite_add_tcase(s, tc);
	return s;
}
