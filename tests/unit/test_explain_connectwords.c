/* How a failed connect is worded decides what it opens (issue 42:
 * blind42l): musl's and libuv's "host is unreachable" is EHOSTUNREACH
 * as surely as glibc's "No route to host", and opens its candidates
 * with or without an address (no peer process answers with it); a
 * REJECT's ICMP prohibited is among them; a framework's failure that
 * names no errno opens every errno's candidates, the loopback-only
 * listener of a refusal too. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

/* One line explained from the log alone. */
static void one(const char *line, struct explain_result *r)
{
	const char *l[] = {line, NULL};

	unitfix_explain(l, -1, r);
}

START_TEST(host_is_unreachable_words)
{
	struct explain_result r;

	one("curl: (7) Failed to connect to 10.1.2.3 port 8080: Host is "
	    "unreachable", &r);
	ck_assert(unitfix_has(&r, "open host-unreachable"));
	ck_assert(unitfix_has(&r, "open port-prohibited"));
	/* Julia's Distributed prints libuv's words and no address */
	one("ERROR: connect: host is unreachable (EHOSTUNREACH)", &r);
	ck_assert(unitfix_has(&r, "open port-prohibited"));
	ck_assert(!unitfix_has(&r, "cause host-unreachable"));
	/* a refusal with no address still names nothing to test */
	one("IOError: connect: connection refused (ECONNREFUSED)", &r);
	ck_assert(!unitfix_has(&r, "open port-closed"));
}
END_TEST

START_TEST(unknown_errno_opens_every_errno)
{
	struct explain_result r;

	one("ERROR - Could not connect to server: imtl-3:8765 Setting flag "
	    "for stopping training. failed to connect to all addresses", &r);
	ck_assert(unitfix_has(&r, "open listener-loopback-only"));
	ck_assert(unitfix_has(&r, "open port-filtered"));
	ck_assert(unitfix_has(&r, "open port-closed"));
}
END_TEST

Suite *suite_explain_connectwords(void)
{
	Suite *s = suite_create("explain_connectwords");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, host_is_unreachable_words);
	tcase_add_test(tc, unknown_errno_opens_every_errno);
	suite_add_tcase(s, tc);
	return s;
}
