/* netprobe report, model: the decided document laid out for the renderers.
 * Findings grouped under their headings (the one place that decides which
 * findings are shown together and in what order), settings by scope, the
 * matrix's rows, JUnit suites. Nothing here decides anything about the
 * network: it only arranges what the deciders wrote. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/finding.h"
#include "report_model.h"

bool rm_fails(const char *status, enum report_fail_on fail_on)
{
	int s = rj_sev(status);

	if (fail_on == REPORT_FAIL_NEVER)
		return false;
	return fail_on == REPORT_FAIL_WARNING ? s >= 1 : s >= 2;
}

/* Which items of arr keep(item, arg) accepts (NULL: all), in order.
 * Returns 0, or -1 on no memory. */
static int filter(struct report_model *m, const json_t *arr,
		  bool (*keep)(const json_t *, const void *), const void *arg,
		  struct rm_list *out)
{
	size_t i, n = 0;
	json_t *v;

	json_array_foreach(arr, i, v)
		n += keep == NULL || keep(v, arg);
	out->n = 0;
	out->v = rj_alloc(&m->mem, n, sizeof(*out->v));
	if (out->v == NULL)
		return -1;
	json_array_foreach(arr, i, v)
		if (keep == NULL || keep(v, arg))
			out->v[out->n++] = v;
	return 0;
}

/* A link that went down during mesh --watch, no cause owning it. */
static bool of_outage(const json_t *f, const void *arg)
{
	(void)arg;
	return finding_is(rj_strd(f, "code", ""),
			  FINDING_LINK_DOWN_DURING_WATCH) &&
	       rj_str(f, "root_cause") == NULL;
}

/* A finding of the severity rank *arg that no cause owns, but for the
 * outages shown apart. */
static bool of_severity(const json_t *f, const void *arg)
{
	return rj_sev(rj_str(f, "severity")) == *(const int *)arg &&
	       rj_str(f, "root_cause") == NULL && !of_outage(f, NULL);
}

/* A finding or entry whose root_cause is the id *arg (NULL: none). */
static bool of_cause(const json_t *f, const void *arg)
{
	const char *want = arg, *id = rj_str(f, "root_cause");

	return want == NULL ? id == NULL : id != NULL && strcmp(id, want) == 0;
}

/* Each cause's findings (those whose root_cause is its id), as filter
 * with of_cause would give them, in one pass over the findings: a filter
 * per cause was causes times findings, the square of the nodes at 1,024
 * mesh members. A cause without an id, or no memory for the index, takes
 * filter's way. */
static int cause_findings(struct report_model *m, const json_t *all,
			  const json_t *causes)
{
	json_t *ids = json_object(), *k, *f, *v;
	size_t i, j, *cnt = calloc(m->ncauses + 1, sizeof(*cnt));
	int rc = 0;

	json_array_foreach(causes, i, k) {
		const char *id = rj_str(k, "id");
		json_t *arr = id != NULL && ids != NULL && cnt != NULL
				      ? json_object_get(ids, id)
				      : NULL;

		m->causes[i].cause = k;
		if (id == NULL || ids == NULL || cnt == NULL) {
			if (filter(m, all, of_cause, id,
				   &m->causes[i].findings) < 0)
				rc = -1;
			continue;
		}
		if (arr == NULL &&
		    (json_object_set_new_nocheck(ids, id, arr = json_array()) <
			     0 ||
		     arr == NULL))
			rc = -1;
		else if (json_array_append_new(arr, json_integer((json_int_t)i)) <
			 0)
			rc = -1;
	}
	for (int pass = 0; rc == 0 && ids != NULL && cnt != NULL && pass < 2;
	     pass++) {
		json_array_foreach(all, j, f) {
			const char *id = rj_str(f, "root_cause");
			size_t x;

			json_array_foreach(id != NULL ? json_object_get(ids, id)
						      : NULL,
					   x, v) {
				struct rm_list *l = &m->causes[json_integer_value(v)]
							     .findings;

				if (pass == 0)
					cnt[json_integer_value(v)]++;
				else
					l->v[l->n++] = f;
			}
		}
		if (pass == 0)
			json_array_foreach(causes, i, k) {
				if (rj_str(k, "id") == NULL)
					continue;
				m->causes[i].findings.n = 0;
				m->causes[i].findings.v = rj_alloc(
					&m->mem, cnt[i],
					sizeof(*m->causes[i].findings.v));
				if (m->causes[i].findings.v == NULL)
					rc = -1;
			}
	}
	json_decref(ids);
	free(cnt);
	return rc;
}

/*
 * The root causes, each with the findings it owns, then the findings no
 * cause owns under their headings: faults, then warnings, each in the
 * merge's order (by node, code, summary); informational findings are in
 * the document only. A change to how findings are grouped belongs here
 * and in enum rsec, nowhere else.
 */
static int group_findings(struct report_model *m)
{
	static const struct {
		enum rsec sec;
		int sev;
	} groups[] = {{RSEC_FAULTS, 2}, {RSEC_WARNINGS, 1}};
	const json_t *all = rj_arr(m->doc, "findings");
	const json_t *causes = rj_arr(m->doc, "causes");

	m->ncauses = json_array_size(causes);
	if ((m->causes = rj_alloc(&m->mem, m->ncauses,
				  sizeof(*m->causes))) == NULL)
		return -1;
	if (cause_findings(m, all, causes) < 0 ||
	    filter(m, all, of_outage, NULL, &m->outages) < 0)
		return -1;
	for (size_t g = 0; g < 2; g++) {
		m->groups[g].sec = groups[g].sec;
		if (filter(m, all, of_severity, &groups[g].sev,
			   &m->groups[g].findings) < 0)
			return -1;
	}
	m->ngroups = 2;
	return 0;
}

/* A setting whose node is *arg (NULL: every node). */
static bool of_node(const json_t *s, const void *arg)
{
	const char *want = arg, *n = rj_str(s, "node");

	return want == NULL ? n == NULL : n != NULL && strcmp(n, want) == 0;
}

/* Settings for every node first, then each node's in the order the nodes
 * first appear. */
static int scope_settings(struct report_model *m, const json_t *all)
{
	struct rm_settings *st = &m->settings;
	size_t i, j;
	json_t *s;

	if (filter(m, all, NULL, NULL, &st->all) < 0 ||
	    (st->scopes = rj_alloc(&m->mem, json_array_size(all) + 1,
				   sizeof(*st->scopes))) == NULL)
		return -1;
	st->nscopes = 1;
	json_array_foreach(all, i, s) {
		const char *n = rj_str(s, "node");
		bool seen = false;

		for (j = 1; j < st->nscopes && n != NULL; j++)
			seen |= strcmp(st->scopes[j].node, n) == 0;
		if (n != NULL && !seen)
			st->scopes[st->nscopes++].node = n;
	}
	for (j = 0; j < st->nscopes; j++) {
		struct rm_scope *sc = &st->scopes[j];

		if (filter(m, all, of_node, sc->node, &sc->settings) < 0)
			return -1;
		for (i = 0; i < sc->settings.n; i++)
			sc->nvalues +=
				rj_str(sc->settings.v[i], "value") != NULL;
	}
	return 0;
}

/* The matrix's nodes and its cells (already sorted by from, then to). */
static int matrix(struct report_model *m, const json_t *mx)
{
	const json_t *nodes = rj_arr(mx, "nodes");
	size_t i;
	json_t *v;

	m->has_matrix = json_is_object(mx);
	if (!m->has_matrix)
		return 0;
	m->matrix.nodes = rj_alloc(&m->mem, json_array_size(nodes),
				   sizeof(*m->matrix.nodes));
	if (m->matrix.nodes == NULL)
		return -1;
	json_array_foreach(nodes, i, v)
		m->matrix.nodes[m->matrix.n++] = json_string_value(v);
	return filter(m, rj_arr(mx, "cells"), NULL, NULL, &m->matrix.cells);
}

/* Orders a key {from, to} against a cell. */
static int cmp_cell(const void *key, const void *elem)
{
	const char *const *k = key;
	const json_t *c = *(const json_t *const *)elem;
	int d = strcmp(k[0], rj_str(c, "from"));

	return d != 0 ? d : strcmp(k[1], rj_str(c, "to"));
}

const json_t *rm_cell(const struct rm_matrix *mx, const char *from,
		      const char *to)
{
	const char *key[2] = {from, to};
	const json_t *const *c;

	if (mx->cells.n == 0)
		return NULL;
	c = bsearch(key, mx->cells.v, mx->cells.n, sizeof(*mx->cells.v),
		    cmp_cell);
	return c != NULL ? *c : NULL;
}

/* The files that could not be used, each with its position written once
 * for every format. */
static int skips(struct report_model *m)
{
	const json_t *arr = rj_arr(m->doc, "skipped");
	size_t i;
	json_t *v;

	m->skips = rj_alloc(&m->mem, json_array_size(arr), sizeof(*m->skips));
	if (m->skips == NULL)
		return -1;
	json_array_foreach(arr, i, v) {
		const char *file = rj_strd(v, "file", "");
		size_t len = strlen(file) + 48;
		char *where = rj_alloc(&m->mem, len, 1);

		if (where == NULL)
			return -1;
		if (rj_int(v, "line", 0) > 0)
			snprintf(where, len, "%s:%lld:%lld", file,
				 rj_int(v, "line", 0), rj_int(v, "column", 0));
		else
			snprintf(where, len, "%s", file);
		m->skips[m->nskips++] =
			(struct rm_skip){where, rj_str(v, "why")};
	}
	return 0;
}

/* JUnit suites: each run of checks of one suite (the deciders sorted them
 * by suite), with its errors and failures under each --fail-on. */
static int suites(struct report_model *m)
{
	struct rm_list all;
	struct rm_suite *s = NULL;

	if (filter(m, rj_arr(m->doc, "checks"), NULL, NULL, &all) < 0 ||
	    (m->suites = rj_alloc(&m->mem, all.n, sizeof(*m->suites))) == NULL)
		return -1;
	for (size_t i = 0; i < all.n; i++) {
		const char *st = rj_str(all.v[i], "status");
		const char *name = rj_str(all.v[i], "suite");
		bool err = strcmp(st, "error") == 0;

		if (s == NULL || strcmp(s->name, name) != 0) {
			s = &m->suites[m->nsuites++];
			s->name = name;
			s->checks.v = &all.v[i];
		}
		s->checks.n++;
		m->ntests++;
		s->errors += err;
		m->nerrors += err;
		for (int f = 0; f < 3; f++) {
			bool fails =
				!err && rm_fails(st, (enum report_fail_on)f);

			s->failures[f] += fails;
			m->nfailures[f] += fails;
		}
	}
	return 0;
}

int rm_view(struct report_model *m)
{
	const json_t *d = m->doc, *n = json_object_get(d, "counts");
	const json_t *r = json_object_get(d, "recommendation");

	m->verdict = rj_str(d, "verdict");
	m->verdict_word = strcmp(m->verdict, "fault") == 0     ? "FAULT"
			  : strcmp(m->verdict, "warning") == 0 ? "WARNING"
							       : "PASS";
	m->nfaults = rj_int(n, "faults", 0);
	m->nwarnings = rj_int(n, "warnings", 0);
	m->nnodes = rj_int(n, "nodes", 0);
	m->ninputs = (long long)json_array_size(rj_arr(d, "inputs"));
	m->nskipped = (long long)json_array_size(rj_arr(d, "skipped"));
	m->started = rj_str(json_object_get(d, "run"), "started");
	m->duration_s = rj_int(json_object_get(d, "run"), "duration_s", 0);
	m->conflicts = rj_arr(r, "conflicts");
	m->notes = rj_arr(r, "notes");
	m->per_node = rj_arr(json_object_get(r, "interface"), "per_node");
	m->common = rj_str(json_object_get(r, "interface"), "common");
	m->blocked = rj_arr(r, "blocked");
	m->nccl_conf = rj_arr(r, "nccl_conf");
	m->nodes = rj_arr(d, "nodes");
	/* an error a root cause explains is its symptom, not a part
	 * that could not run */
	for (size_t i = 0; i < json_array_size(m->nodes); i++) {
		size_t j;
		json_t *e;

		json_array_foreach(
			rj_arr(json_array_get(m->nodes, i), "errors"), j, e)
			m->nnotrun += rj_str(e, "root_cause") == NULL &&
				      rj_str(e, "explained_by") == NULL;
	}
	/* a report that misses part of what it was given fails the gate
	 * (report_gate): its verdict word never says PASS beside exit 1
	 * (issue 31) */
	if (strcmp(m->verdict, "fault") != 0 &&
	    (m->nskipped > 0 || m->nnotrun > 0))
		m->verdict_word = "INCOMPLETE";
	m->mesh = json_is_object(json_object_get(d, "mesh"))
			  ? json_object_get(d, "mesh")
			  : NULL;
	if (group_findings(m) < 0 ||
	    filter(m, rj_arr(r, "firewall"), of_cause, NULL, &m->firewall) <
		    0 ||
	    filter(m, rj_arr(r, "changes"), of_cause, NULL, &m->changes) < 0 ||
	    filter(m, rj_arr(r, "mtu"), of_cause, NULL, &m->mtu) < 0 ||
	    scope_settings(m, rj_arr(r, "settings")) < 0 ||
	    matrix(m, json_object_get(d, "matrix")) < 0 || skips(m) < 0 ||
	    suites(m) < 0)
		return -1;
	return 0;
}
