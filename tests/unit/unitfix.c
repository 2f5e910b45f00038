/* The fixtures every suite reads the same way, written once. */
#include "unitfix.h"

#include <arpa/inet.h>
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "decide/explain.h"
#include "decide/explain_near.h"
#include "decide/explain_origin.h"
#include "doc/doc.h"
#include "doc/logmatch.h"
#include "report_model.h"

#define UNITFIX_MAX (1 << 20)

/* See unitfix.h. */
char *unitfix_text(const char *fmt, ...)
{
	char rel[448], path[512], *buf = malloc(UNITFIX_MAX);
	va_list ap;
	FILE *fp;
	size_t n;

	ck_assert_ptr_nonnull(buf);
	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", SRCDIR, rel);
	fp = fopen(path, "r");
	ck_assert_msg(fp != NULL, "cannot read %s", path);
	n = fread(buf, 1, UNITFIX_MAX - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* See unitfix.h. */
void unitfix_load_doc(struct report_set *set, const char *name, json_t *doc)
{
	char *txt = json_dumps(doc, 0);

	ck_assert_ptr_nonnull(txt);
	ck_assert_int_eq(report_load_buffer(set, name, txt, strlen(txt)), 0);
	free(txt);
	json_decref(doc);
}

/* See unitfix.h: report_load_path names each input by its path, so the
 * documents are read from their folder as `netprobe report` would. */
struct report_model *unitfix_report_dir(struct report_set *set, const char *dir)
{
	ck_assert_int_eq(chdir(SRCDIR "/tests/fixtures/report"), 0);
	ck_assert_int_eq(report_load_path(set, dir), 0);
	return report_build(set);
}

/* See unitfix.h: where the report puts the commands a cause's reader
 * pastes, read the one way every report suite asserts them. */
json_t *unitfix_fix_shell(const json_t *k)
{
	return rj_arr(json_object_get(json_object_get(k, "fix"), "commands"),
		      "shell");
}

/* See unitfix.h. */
const char *unitfix_fix_cmd(const json_t *k, size_t i)
{
	return json_string_value(json_array_get(unitfix_fix_shell(k), i));
}

/* See unitfix.h: the healthy twin each recorded fault's suite checks
 * stays silent. */
void unitfix_healthy_dir(const char *dir)
{
	struct report_set set = {0};
	struct report_model *m = unitfix_report_dir(&set, dir);
	size_t i, bad = 0;
	json_t *f;

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 0);
	json_array_foreach(rj_arr(report_doc(m), "findings"), i, f)
		bad += strcmp(rj_strd(f, "severity", ""), "info") != 0;
	ck_assert_uint_eq(bad, 0);
	report_model_free(m);
	report_set_free(&set);
}

/* See unitfix.h: the deciders' suites read a finding's one-line fix
 * this way. */
const char *unitfix_finding_cmd(const struct doc *d, const char *code)
{
	size_t i;
	json_t *f;

	json_array_foreach(d->findings, i, f)
		if (strcmp(json_string_value(json_object_get(f, "code")),
		           code) == 0)
			return json_string_value(json_object_get(f, "command"));
	return NULL;
}

/* See unitfix.h: a decider that raises one fault and nothing beside
 * it, its command the test's subject. */
const char *unitfix_only_fault_cmd(const struct doc *d, const char *code)
{
	const json_t *f = json_array_get(d->findings, 0);

	ck_assert_int_eq(json_array_size(d->findings), 1);
	ck_assert_str_eq(json_string_value(json_object_get(f, "code")), code);
	ck_assert_int_eq(d->nfault, 1);
	return json_string_value(json_object_get(f, "command"));
}

/* See unitfix.h: the one way the decide suites build an interface, so
 * their lists differ only in their rows. */
struct iface *unitfix_iface(struct iface_list *l, const char *name,
                            enum iface_kind kind, unsigned flags,
                            const char *addr, unsigned plen)
{
	struct iface *ifc = iface_list_add(l);
	unsigned char buf[16];

	ck_assert_ptr_nonnull(ifc);
	snprintf(ifc->name, sizeof(ifc->name), "%s", name);
	ifc->index = (int)l->n;
	ifc->kind = kind;
	ifc->flags = flags;
	ifc->carrier = (flags & IFF_RUNNING) ? 1 : 0;
	if (addr != NULL) {
		int fam = strchr(addr, ':') ? AF_INET6 : AF_INET;
		unsigned scope = 0;

		ck_assert_int_eq(inet_pton(fam, addr, buf), 1);
		if (fam == AF_INET6 && strncmp(addr, "fe80", 4) == 0)
			scope = 253;
		if (kind == IFK_LOOPBACK)
			scope = 254;
		ck_assert_int_eq(iface_add_addr(ifc, fam, buf, plen, scope), 0);
	}
	return ifc;
}

/* See unitfix.h. */
void unitfix_lo(struct iface_list *l)
{
	unitfix_iface(l, "lo", IFK_LOOPBACK, UPRUN | IFF_LOOPBACK, "127.0.0.1",
	              8);
}

/* See unitfix.h: the loopback listener the suites of the client, the
 * probes and explain each stood up by hand. */
int unitfix_listen(int backlog, struct sockaddr_in *sa)
{
	socklen_t l = sizeof(*sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)sa, sizeof(*sa)), 0);
	ck_assert_int_eq(listen(fd, backlog), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)sa, &l), 0);
	return fd;
}

/* See unitfix.h. */
void unitfix_explain(const char *const *lines, long n,
		     struct explain_result *r)
{
	/* compiled once per process: the table's 400 regexes made
	 * each call slow enough to pass Check's timeout under ASan */
	static struct logmatcher m;
	static bool ready;
	struct explain_log lg;
	static struct explain_near near; /* 3 KB: not on the stack */
	static struct explain_origin origin;
	const char *bad = NULL;

	memset(&lg, 0, sizeof(lg));
	memset(&origin, 0, sizeof(origin));
	explain_near_reset(&near);
	if (!ready)
		ck_assert_int_eq(logmatch_init(&m, &bad), 0);
	ready = true;
	for (long i = 0; n < 0 ? lines[i] != NULL : i < n; i++) {
		struct logmatch mt;
		size_t start = 0, first = lg.nhits;

		while (logmatch_line(&m, lines[i], &start, &mt)) {
			ck_assert_int_eq(explain_log_add_text(&lg, &mt, 0,
							      i + 1, lines[i]),
					 0);
			start++;
		}
		/* as the reader does: the endpoint near a line, the
		 * hosts the log names */
		explain_near_line(&near, &lg, first, i + 1, lines[i]);
		explain_origin_line(&origin, lines[i]);
	}
	lg.other_hosts = explain_origin_other_hosts(&origin);
	explain_decide(&lg, r);
	explain_drop_normal(r);
	explain_log_free(&lg);
}

/* See unitfix.h. */
void unitfix_explain_line(const char *line, struct explain_result *r)
{
	const char *l[] = {line, NULL};

	unitfix_explain(l, -1, r);
}

/* See unitfix.h. */
void unitfix_expect_lines(const struct unitfix_line *rows, size_t n)
{
	struct explain_result r;

	for (size_t i = 0; i < n; i++) {
		unitfix_explain_line(rows[i].line, &r);
		ck_assert_msg(rows[i].want == NULL ||
			      unitfix_has(&r, rows[i].want),
			      "%s: no %s", rows[i].line, rows[i].want);
		ck_assert_msg(rows[i].not == NULL ||
			      !unitfix_has(&r, rows[i].not),
			      "%s: %s", rows[i].line, rows[i].not);
	}
}

/* See unitfix.h. */
const struct explain_cause *unitfix_cause(const struct explain_result *r,
					  const char *what)
{
	for (size_t i = 0; i < r->ncauses; i++) {
		const struct explain_cause *c = &r->causes[i];
		char buf[64];

		for (size_t k = 0; k < c->ncodes; k++) {
			snprintf(buf, sizeof(buf), "%s %s",
				 c->kind == EXPLAIN_OTHER ? "other" :
				 c->kind == EXPLAIN_SYMPTOM ? "symptom" :
				 c->open ? "open" : "cause", c->codes[k]);
			if (strcmp(buf, what) == 0)
				return c;
		}
	}
	return NULL;
}

/* See unitfix.h. */
bool unitfix_has(const struct explain_result *r, const char *what)
{
	return unitfix_cause(r, what) != NULL;
}

/* See unitfix.h. */
void unitfix_expect_said(const char *const *lines, const char *what,
			 enum unitfix_text which, const char *text)
{
	struct explain_result r;
	const struct explain_cause *c;

	unitfix_explain(lines, -1, &r);
	c = unitfix_cause(&r, what);
	ck_assert_msg(c != NULL, "%s: no %s", lines[0], what);
	ck_assert_msg(strstr(which == UNITFIX_NEXT ? c->next : c->why, text),
		      "%s: %s", what, which == UNITFIX_NEXT ? c->next : c->why);
}
