/* The recorded firewall rulesets, read once for every suite. */
#include "fwfixture.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel/fwrules.h"
#include "unitfix.h"

/* See fwfixture.h. */
char *fw_fixture_text(const char *rel)
{
	return unitfix_text("tests/fixtures/fwrules/%s", rel);
}

/* See fwfixture.h. */
json_t *fw_fixture_ruleset(const char *rel)
{
	char *buf = fw_fixture_text(rel);
	struct fw_rules r;

	ck_assert_int_eq(fwrules_parse_nft(buf, &r), 0);
	free(buf);
	return fwrules_to_json(&r);
}
