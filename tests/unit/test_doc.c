/* The JSON document: header keys, findings from the catalogue, errors. */
#include <check.h>
#include <string.h>

#include "doc/doc.h"

START_TEST(header_and_findings)
{
	struct doc d;
	json_t *ev = NULL;

	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(d.root, "schema")),
			 "netprobe/1");
	ck_assert_int_eq(evidence_add(&ev, "netlink", "eth0 is a %s", "veth"),
			 0);
	ck_assert_int_eq(doc_add_finding(&d, FINDING_CONTAINER_BRIDGE_NAT, -1,
					 ev, NULL, "behind %s", "docker0"),
			 0);
	/* only a cast makes a code outside the table */
	ck_assert_int_eq(doc_add_finding(&d, (enum finding_code)FINDING_NCODES,
					 -1, NULL, NULL, "x"),
			 -1);
	ck_assert(doc_has_finding(&d, "container-bridge-nat"));
	ck_assert_int_eq(d.nfault, 1);
	ck_assert_int_eq(doc_exit_status(&d, true), 1);
	ck_assert_int_eq(doc_exit_status(&d, false), 2);
	ck_assert_int_eq(doc_set(&d, "schema", json_string("x")), -1);
	doc_free(&d);
}
END_TEST

START_TEST(catalogue_complete)
{
	size_t n;
	const struct finding_def *all = finding_all(&n);

	ck_assert_uint_ge(n, 33);
	for (size_t i = 0; i < n; i++) {
		ck_assert_ptr_eq(finding_lookup(all[i].code), &all[i]);
		ck_assert_ptr_eq(finding_get(all[i].id), &all[i]);
		ck_assert_str_eq(finding_name(all[i].id), all[i].code);
		ck_assert_ptr_nonnull(all[i].fix);
		ck_assert_ptr_nonnull(all[i].symptom);
		ck_assert_ptr_nonnull(all[i].detail);
		ck_assert_ptr_nonnull(all[i].cls);
	}
}
END_TEST

Suite *suite_doc(void)
{
	Suite *s = suite_create("doc");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, header_and_findings);
	tcase_add_test(tc, catalogue_complete);
	suite_add_tcase(s, tc);
	return s;
}
