/* netprobe report: the model's layout (findings grouped by severity,
 * the matrix's cells), the walk's order of sections seen by a recording
 * emitter, and the escaping printf of the emitters. Loading, the goldens
 * and the formats are test_report.c's. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "doc/finding.h"
#include "report_emit.h"
#include "report_fx.h"

/* What a recording emitter saw: the open sections and a count of
 * callbacks made outside any section. */
struct rec {
	enum rsec open[8];
	int depth;
	enum rsec last; /* the last section begun at depth 1 */
	bool began_any;
	int stray, items, bad_order, unbalanced;
};

static void rec_begin(void *o, enum rsec sec)
{
	struct rec *r = o;

	if (r->depth == 1) {
		/* top-level sections come in the enum's order */
		if (r->began_any && sec < r->last)
			r->bad_order++;
		r->last = sec;
		r->began_any = true;
	}
	if (r->depth < 8)
		r->open[r->depth] = sec;
	r->depth++;
}

static void rec_end(void *o, enum rsec sec)
{
	struct rec *r = o;

	r->depth--;
	if (r->depth < 0 || r->open[r->depth] != sec)
		r->unbalanced++;
}

/* An item must arrive inside the report and inside some section. */
static void rec_item(struct rec *r)
{
	r->items++;
	if (r->depth < 2)
		r->stray++;
}

static void rec_json(void *o, const json_t *v)
{
	(void)v;
	rec_item(o);
}

static void rec_note(void *o, const char *s)
{
	(void)s;
	rec_item(o);
}

static void rec_skip(void *o, const struct rm_skip *s)
{
	(void)s;
	rec_item(o);
}

START_TEST(walk_visits_sections_in_order)
{
	static const struct report_emitter e = {
		.begin = rec_begin,
		.end = rec_end,
		.finding = rec_json,
		.conflict = rec_json,
		.note = rec_note,
		.conf_line = rec_json,
		.firewall = rec_json,
		.change = rec_json,
		.mtu = rec_json,
		.node = rec_json,
		.skipped = rec_skip,
	};
	const char *const sets[] = {"nat", "recorded", "malformed"};

	for (size_t k = 0; k < 3; k++) {
		struct report_set set = {0};
		struct report_model *m = unitfix_report_dir(&set, sets[k]);
		struct rec r = {0};
		FILE *fp = fopen("/dev/null", "w");

		ck_assert_ptr_nonnull(m);
		ck_assert_int_eq(report_walk(m, &e, &r, fp), 0);
		fclose(fp);
		ck_assert_msg(r.items > 0 && r.stray == 0 && r.bad_order == 0 &&
				      r.unbalanced == 0 && r.depth == 0,
			      "%s: items %d, stray %d, out of order %d, "
			      "unbalanced %d, depth %d",
			      sets[k], r.items, r.stray, r.bad_order,
			      r.unbalanced, r.depth);
		report_model_free(m);
		report_set_free(&set);
	}
}
END_TEST

START_TEST(model_groups_findings_by_severity)
{
	struct report_set set = {0};
	struct report_model *m = unitfix_report_dir(&set, "nat");

	long long nf = 0, nw = 0;

	/* every fault and warning shows once: under its cause, else in its
	 * severity's group */
	for (size_t k = 0; k < m->ncauses; k++)
		for (size_t i = 0; i < m->causes[k].findings.n; i++) {
			int sev = rj_sev(rj_str(m->causes[k].findings.v[i],
						"severity"));

			nf += sev == 2;
			nw += sev == 1;
		}
	ck_assert_int_ge((long long)m->ncauses, 1);
	ck_assert_int_eq(m->ngroups, 2);
	ck_assert_int_eq(m->groups[0].sec, RSEC_FAULTS);
	ck_assert_int_eq((long long)m->groups[0].findings.n + nf, m->nfaults);
	ck_assert_int_eq((long long)m->groups[1].findings.n + nw,
			 m->nwarnings);
	for (size_t i = 0; i < m->groups[0].findings.n; i++)
		ck_assert_str_eq(rj_str(m->groups[0].findings.v[i], "severity"),
				 "fault");
	/* the cluster scope comes first, then nodes as they appear */
	ck_assert_ptr_null(m->settings.scopes[0].node);
	ck_assert_int_ge(m->settings.nscopes, 2);
	ck_assert_str_eq(m->settings.scopes[1].node, "gpu-a");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

START_TEST(model_matrix_cells)
{
	struct report_set set = {0};
	struct report_model *m = unitfix_report_dir(&set, "recorded");
	const json_t *c;

	ck_assert(m->has_matrix);
	c = rm_cell(&m->matrix, "gpu-a", "gpu-b");
	ck_assert_ptr_nonnull(c);
	ck_assert_str_eq(rj_str(c, "from"), "gpu-a");
	ck_assert_str_eq(rj_str(c, "to"), "gpu-b");
	ck_assert_ptr_null(rm_cell(&m->matrix, "gpu-a", "nowhere"));
	ck_assert_ptr_null(rm_cell(&m->matrix, "gpu-a", "gpu-a"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Test escapers: [x] for %s, {x} for %-s. */
static void esc_square(FILE *fp, const char *s)
{
	if (s != NULL)
		fprintf(fp, "[%s]", s);
}

static void esc_curly(FILE *fp, const char *s)
{
	if (s != NULL)
		fprintf(fp, "{%s}", s);
}

START_TEST(out_f_escapes_every_string)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct out o = {fp, esc_square, esc_curly};
	const char *none = json_string_value(json_null());

	out_f(&o, "a %s b %-s c %d %ld %lld %u %zu %lu %.2f %.*f %%%s|", "x",
	      "y", -1, 2L, 3LL, 4U, (size_t)5, 6UL, 1.5, 1, 2.7, none);
	fclose(fp);
	ck_assert_str_eq(buf, "a [x] b {y} c -1 2 3 4 5 6 1.50 2.7 %|");
	free(buf);
}
END_TEST

Suite *suite_report_walk(void)
{
	Suite *s = suite_create("report_walk");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, walk_visits_sections_in_order);
	tcase_add_test(tc, model_groups_findings_by_severity);
	tcase_add_test(tc, model_matrix_cells);
	tcase_add_test(tc, out_f_escapes_every_string);
	suite_add_tcase(s, tc);
	return s;
}
