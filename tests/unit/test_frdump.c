/* torch Flight Recorder dumps (issue 43): the pickle reader refuses what
 * FR dumps never hold, by name and within its bounds; and the dumps
 * recorded from real Gloo jobs (tests/fixtures/frdump, both forms, two
 * runs of each) get the verdict of what happened in them. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "decide/frdump.h"

/* The pickle in p (n bytes) refused, with why holding want. */
static void refused(const char *p, size_t n, const char *want)
{
	char why[256];
	json_t *j = frp_load((const unsigned char *)p, n, why, sizeof(why));

	ck_assert_ptr_null(j);
	ck_assert_msg(strstr(why, want) != NULL, "why '%s', wanted '%s'", why,
		      want);
}

START_TEST(pickle_refuses_code)
{
	static const char global[] = "\x80\x02" "cos\nsystem\n" "X\x02\0\0\0id"
				     "\x85R.";
	static const char stack_global[] = "\x80\x04\x8c\x02os\x8c\x06system"
					   "\x93.";
	static const char reduce[] = "\x80\x02N)R.";
	static const char build[] = "\x80\x02}}b.";

	refused(global, sizeof(global) - 1,
		"pickle opcode GLOBAL (0x63) not allowed at byte 2");
	refused(stack_global, sizeof(stack_global) - 1,
		"pickle opcode STACK_GLOBAL (0x93) not allowed");
	refused(reduce, sizeof(reduce) - 1, "opcode REDUCE (0x52)");
	refused(build, sizeof(build) - 1, "opcode BUILD (0x62)");
	refused("\x80\x02\xff.", 4, "pickle opcode 0xff unknown");
	refused("\x80\x02N", 3, "ends with no STOP");
	refused("\x80\x02X\x10\0\0\0ab.", 9, "ends inside");
	refused("\x80\x02NN.", 5, "stops with 2 values");
	refused("\x80\x02(e.", 5, "no container");
	refused("\x80\x02\x8a\x09\1\2\3\4\5\6\7\x08\x09.", 14,
		"integer of 9 bytes");
	refused("\x80\x02X\x02\0\0\0\xc3\x28.", 10, "not UTF-8");
	refused("\x80\x02h\x05.", 5, "memo 5 it never put");
}
END_TEST

START_TEST(pickle_bounds)
{
	char p[4096];
	size_t n = 0;

	/* 40 lists, each appended into the one below it */
	p[n++] = (char)0x80;
	p[n++] = 2;
	for (int i = 0; i < 40; i++)
		p[n++] = ']';
	for (int i = 0; i < 39; i++)
		p[n++] = 'a';
	p[n++] = '.';
	refused(p, n, "nested deeper than 32");

	/* a list that doubles by memo copies: 2^40 values if followed */
	n = 0;
	p[n++] = (char)0x80;
	p[n++] = 2;
	p[n++] = ']';
	p[n++] = 'q';
	p[n++] = 0;
	for (int i = 0; i < 40; i++) {
		const char step[] = {'(', 'h', 0, 'h', 0, 'e', 'q', 0};

		memcpy(p + n, step, sizeof(step));
		n += sizeof(step);
	}
	p[n++] = '.';
	refused(p, n, "more than");
}
END_TEST

START_TEST(pickle_reads_data)
{
	/* {"a": [1, -2, 300, 70000, True, None, "x", -256, ("p", "q")]} */
	static const char p[] = "\x80\x02}q\0X\x01\0\0\0a](K\x01J\xfe\xff\xff"
		"\xffM\x2c\x01J\x70\x11\x01\0\x88NX\x01\0\0\0x\x8a\x02\0\xff"
		"X\x01\0\0\0pX\x01\0\0\0q\x86" "es.";
	char why[256], *s;
	json_t *j = frp_load((const unsigned char *)p, sizeof(p) - 1, why,
			     sizeof(why));

	ck_assert_msg(j != NULL, "%s", why);
	s = json_dumps(j, JSON_COMPACT);
	ck_assert_str_eq(s, "{\"a\":[1,-2,300,70000,true,null,\"x\",-256,"
			 "[\"p\",\"q\"]]}");
	free(s);
	json_decref(j);
}
END_TEST

/* Every dump in the fixture folder's form (pickle, json), read. */
static size_t load(const char *scen, const char *form, struct fr_dump *d)
{
	char dir[512], path[800];
	DIR *dp;
	struct dirent *de;
	size_t n = 0;

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/frdump/%s/%s", SRCDIR,
		 scen, form);
	dp = opendir(dir);
	ck_assert_msg(dp != NULL, "no fixture %s", dir);
	while ((de = readdir(dp)) != NULL && n < 8) {
		FILE *fp;
		unsigned char *buf;
		size_t len;
		char why[256];
		const char *u;

		if (de->d_name[0] == '.' || (u = strchr(de->d_name, '_')) ==
		    NULL)
			continue;
		buf = malloc(1 << 20); /* after the skip: '.' leaked it */
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		fp = fopen(path, "rb");
		ck_assert_ptr_nonnull(fp);
		ck_assert_ptr_nonnull(buf);
		len = fread(buf, 1, 1 << 20, fp);
		fclose(fp);
		memset(&d[n], 0, sizeof(d[n]));
		d[n].rank = atoi(u + 1);
		snprintf(d[n].file, sizeof(d[n].file), "%s", de->d_name);
		ck_assert_msg(frdump_read_buf(buf, len, &d[n], why,
					      sizeof(why)) == 0,
			      "%s: %s", path, why);
		ck_assert_int_eq(d[n].pickle, strcmp(form, "pickle") == 0);
		free(buf);
		n++;
	}
	closedir(dp);
	return n;
}

static const struct fr_finding *find(const struct fr_verdict *v,
				     enum fr_kind k)
{
	for (int i = 0; i < v->nf; i++)
		if (v->f[i].kind == k)
			return &v->f[i];
	return NULL;
}

static bool fault(enum fr_kind k)
{
	return k == FR_NOT_ARRIVED || k == FR_DESYNC ||
	       k == FR_NOT_FINISHED || k == FR_NO_DUMP;
}

/* One recorded job, one form: its verdict, checked. */
static void judge(const char *scen, const char *form, struct fr_verdict *v)
{
	struct fr_dump d[8];
	size_t n = load(scen, form, d);
	const struct fr_finding *f;
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	ck_assert_int_eq(frdump_decide(d, n, v), 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ck_assert(b.tv_sec - a.tv_sec < 10);
	if (strncmp(scen, "stall", 5) == 0) {
		ck_assert_ptr_nonnull(f = find(v, FR_NOT_ARRIVED));
		ck_assert_int_eq(f->rank, 1);
		ck_assert_int_eq(f->seq, 6);
		ck_assert_ptr_nonnull(strstr(f->summary, "gloo:all_reduce #6"));
		ck_assert_ptr_nonnull(strstr(f->summary, "gloo:barrier #5"));
		if (strcmp(form, "pickle") == 0)
			ck_assert_ptr_nonnull(strstr(f->evidence[0],
						     "train_step"));
	} else if (strncmp(scen, "desync", 6) == 0) {
		ck_assert_ptr_nonnull(f = find(v, FR_DESYNC));
		ck_assert_int_eq(f->rank, 1);
		ck_assert_int_eq(f->seq, 6);
		ck_assert_ptr_nonnull(strstr(f->summary, "gloo:all_gather"));
	} else if (strncmp(scen, "kill", 4) == 0) {
		ck_assert_ptr_nonnull(f = find(v, FR_NO_DUMP));
		ck_assert_int_eq(f->rank, 1);
		ck_assert_ptr_null(find(v, FR_NOT_ARRIVED));
	} else if (strncmp(scen, "slow", 4) == 0) {
		ck_assert_ptr_nonnull(f = find(v, FR_LATE));
		ck_assert_int_eq(f->rank, 1);
		ck_assert_int_eq(f->seq, 6);
	} else {
		ck_assert_int_eq(v->nf, 0); /* nccl-1-1: all completed */
		ck_assert(v->groups[0].completion_known);
	}
	/* no fault names a rank other than the victim */
	for (int i = 0; i < v->nf; i++)
		if (fault(v->f[i].kind))
			ck_assert_int_eq(v->f[i].rank, 1);
	for (size_t i = 0; i < n; i++)
		frdump_free(&d[i]);
}

START_TEST(recorded_jobs)
{
	static const char *const scen[] = {"stall", "desync", "kill", "slow"};
	char name[64];
	struct fr_verdict pv, jv;

	for (size_t s = 0; s < 4; s++)
		for (int w = 2; w <= 4; w += 2)
			for (int rep = 1; rep <= 2; rep++) {
				snprintf(name, sizeof(name), "%s-%d-%d",
					 scen[s], w, rep);
				judge(name, "pickle", &pv);
				judge(name, "json", &jv);
				/* both forms, one verdict */
				ck_assert_int_eq(pv.nf, jv.nf);
				for (int i = 0; i < pv.nf; i++)
					ck_assert_str_eq(pv.f[i].summary,
							 jv.f[i].summary);
				frdump_verdict_free(&pv);
				frdump_verdict_free(&jv);
			}
	judge("nccl-1-1", "pickle", &pv);
	frdump_verdict_free(&pv);
	judge("nccl-1-1", "json", &jv);
	frdump_verdict_free(&jv);
}
END_TEST

/* A dump of group "0" (nccl) whose collectives 1..n are all_reduces,
 * the last one in state last (the earlier ones completed). */
static void nccl_dump(struct fr_dump *d, int rank, int n, const char *last)
{
	memset(d, 0, sizeof(*d));
	d->rank = rank;
	snprintf(d->file, sizeof(d->file), "fr_%d", rank);
	d->npgs = 1;
	snprintf(d->pgs[0].name, sizeof(d->pgs[0].name), "0");
	snprintf(d->pgs[0].desc, sizeof(d->pgs[0].desc), "default_pg");
	snprintf(d->pgs[0].backend, sizeof(d->pgs[0].backend), "nccl");
	d->entries = calloc((size_t)n, sizeof(*d->entries));
	ck_assert_ptr_nonnull(d->entries);
	d->nentries = (size_t)n;
	for (int i = 0; i < n; i++) {
		struct fr_entry *e = &d->entries[i];

		e->seq = i + 1;
		snprintf(e->op, sizeof(e->op), "nccl:all_reduce");
		snprintf(e->in_sizes, sizeof(e->in_sizes), "[[1024]]");
		snprintf(e->state, sizeof(e->state), "%s",
			 i + 1 < n ? "completed" : last);
		e->completed = strcmp(e->state, "completed") == 0;
		e->created_ns = 1000000000LL * (i + 1);
	}
}

START_TEST(nccl_all_arrived_one_not_finished)
{
	struct fr_dump d[3];
	struct fr_verdict v;
	const struct fr_finding *f;

	nccl_dump(&d[0], 0, 5, "completed");
	nccl_dump(&d[1], 1, 5, "started");
	nccl_dump(&d[2], 2, 5, "completed");
	ck_assert_int_eq(frdump_decide(d, 3, &v), 0);
	ck_assert_int_eq(v.nf, 1);
	ck_assert_ptr_nonnull(f = find(&v, FR_NOT_FINISHED));
	ck_assert_int_eq(f->rank, 1);
	ck_assert_int_eq(f->seq, 5);
	ck_assert(v.groups[0].completion_known);
	frdump_verdict_free(&v);
	/* none finished: the collective itself is stuck, the group named */
	snprintf(d[0].entries[4].state, sizeof(d[0].entries[4].state),
		 "started");
	d[0].entries[4].completed = d[2].entries[4].completed = false;
	ck_assert_int_eq(frdump_decide(d, 3, &v), 0);
	ck_assert_ptr_nonnull(f = find(&v, FR_NOT_FINISHED));
	ck_assert_int_eq(f->rank, -1);
	ck_assert_ptr_nonnull(strstr(f->summary, "none finished"));
	frdump_verdict_free(&v);
	/* a healthy job: every rank completed its last collective */
	for (int i = 0; i < 3; i++) {
		d[i].entries[4].completed = true;
		snprintf(d[i].entries[4].state, sizeof(d[i].entries[4].state),
			 "completed");
	}
	ck_assert_int_eq(frdump_decide(d, 3, &v), 0);
	ck_assert_int_eq(v.nf, 0);
	frdump_verdict_free(&v);
	for (int i = 0; i < 3; i++)
		frdump_free(&d[i]);
}
END_TEST

/* Found by fuzz_frdump: a rank whose record holds no entry of the group
 * while its pg_status counter says it reached the others' collective
 * (its ring lost them) is neither a laggard nor one that did not finish:
 * the verdict cannot tell, and must not read its missing last entry. */
START_TEST(counter_without_entries)
{
	struct fr_dump d[2];
	struct fr_verdict v;

	nccl_dump(&d[0], 0, 5, "completed");
	nccl_dump(&d[1], 1, 5, "started");
	d[1].nentries = 0;
	d[1].pgs[0].enqueued = 5;
	ck_assert_int_eq(frdump_decide(d, 2, &v), 0);
	ck_assert_ptr_null(find(&v, FR_NOT_ARRIVED));
	for (int i = 0; i < v.nf; i++)
		ck_assert_int_ne(v.f[i].rank, 1);
	frdump_verdict_free(&v);
	frdump_free(&d[0]);
	frdump_free(&d[1]);
}
END_TEST

/* Found by fuzz_frdump: a real out of long long's range where a number
 * is read (time_created_ns 1.8e25) is no number, where the cast was
 * undefined (and gave LLONG_MIN on x86). */
START_TEST(real_out_of_range)
{
	static const char j[] = "{\"version\": \"2.10\", \"entries\": [{"
		"\"process_group\": [\"0\", \"default_pg\"], "
		"\"collective_seq_id\": 1, \"profiling_name\": \"gloo:barrier\", "
		"\"time_created_ns\": 1.8e25, \"timeout_ms\": -1e300}]}";
	struct fr_dump d;
	char why[256];

	memset(&d, 0, sizeof(d));
	ck_assert_int_eq(frdump_read_buf((const unsigned char *)j,
					 sizeof(j) - 1, &d, why, sizeof(why)),
			 0);
	ck_assert_uint_eq(d.nentries, 1);
	ck_assert_int_eq(d.entries[0].created_ns, 0);
	ck_assert_int_eq(d.entries[0].timeout_ms, 0);
	ck_assert_int_eq(d.entries[0].seq, 1);
	frdump_free(&d);
}
END_TEST

Suite *suite_frdump(void)
{
	Suite *s = suite_create("frdump");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, pickle_refuses_code);
	tcase_add_test(tc, pickle_bounds);
	tcase_add_test(tc, pickle_reads_data);
	tcase_add_test(tc, recorded_jobs);
	tcase_add_test(tc, nccl_all_arrived_one_not_finished);
	tcase_add_test(tc, counter_without_entries);
	tcase_add_test(tc, real_out_of_range);
	suite_add_tcase(s, tc);
	return s;
}
