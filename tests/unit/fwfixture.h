/* The recorded firewall rulesets of tests/fixtures/fwrules, shared by the
 * suites that read them (fwrules, fwcmd, portscan). */
#ifndef NP_TEST_FWFIXTURE_H
#define NP_TEST_FWFIXTURE_H

#include <jansson.h>

/* The fixture's text, malloc'd; the test fails where it cannot be read. */
char *fw_fixture_text(const char *rel);

/* The scan's `firewall` object of an nft JSON fixture (new reference). */
json_t *fw_fixture_ruleset(const char *rel);

#endif
