/* The recorded firewall rulesets, read once for every suite. */
#include "fwfixture.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel/fwrules.h"

/* See fwfixture.h. */
char *fw_fixture_text(const char *rel)
{
	char path[512];
	FILE *fp;
	char *buf = malloc(1 << 20);
	size_t n;

	snprintf(path, sizeof(path), "%s/tests/fixtures/fwrules/%s", SRCDIR,
	         rel);
	fp = fopen(path, "r");
	ck_assert_ptr_nonnull(fp);
	ck_assert_ptr_nonnull(buf);
	n = fread(buf, 1, (1 << 20) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
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
