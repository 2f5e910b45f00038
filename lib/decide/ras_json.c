/* NCCL RAS's JSON answer (SET FORMAT json, NCCL 2.28.7+) and its MONITOR
 * stream (2.29+) to struct ras_state and struct ras_event
 * (decide/ras_parse.h); the forms are jsonWriteHeader, jsonWriteRankData,
 * jsonWriteMissingRank and rasClientsNotifyEvent in NCCL's
 * src/ras/client_support.cc. Pure: fed the bytes, never a socket. */
#include "decide/ras_parse.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/doc.h"

int ras_answer_is_json(const char *text)
{
	while (*text == ' ' || *text == '\n' || *text == '\r' || *text == '\t')
		text++;
	return *text == '{';
}

static const char *str_of(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static long long int_of(const json_t *o, const char *key, long long dflt)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (long long)json_integer_value(v) : dflt;
}

/* The GPU as NCCL's text names it: the CUDA index, with the NVML one
 * where they differ (rasGpuToString). */
static void gpu_name(const json_t *r, char *gpu, size_t len)
{
	long long cuda = int_of(r, "cuda_dev", -1), nvml =
		int_of(r, "nvml_dev", cuda);

	if (cuda < 0)
		snprintf(gpu, len, "?");
	else if (nvml != cuda)
		snprintf(gpu, len, "%lld (NVML %lld)", cuda, nvml);
	else
		snprintf(gpu, len, "%lld", cuda);
}

static void add_count(struct ras_state *st, const char *comm, const char *op,
		      const json_t *r, unsigned long long count)
{
	struct ras_count *c;

	if (st->ncounts >= RAS_MAX_COUNTS)
		return;
	c = &st->counts[st->ncounts++];
	snprintf(c->comm, sizeof(c->comm), "%s", comm);
	snprintf(c->op, sizeof(c->op), "%s", op);
	c->rank = (int)int_of(r, "rank", -1);
	c->nranks = 1;
	c->pid = (long)int_of(r, "pid", -1);
	snprintf(c->node, sizeof(c->node), "%s", str_of(r, "host"));
	gpu_name(r, c->gpu, sizeof(c->gpu));
	c->count = count;
	doc_utf8_fix(c->op);
	doc_utf8_fix(c->node);
}

static void add_missing(struct ras_state *st, const char *comm,
			const json_t *r)
{
	const json_t *s = json_object_get(r, "status");
	struct ras_proc *p;

	if (st->nprocs >= RAS_MAX_PROCS)
		return;
	p = &st->procs[st->nprocs++];
	p->kind = json_is_true(json_object_get(s, "considered_dead"))
			  ? RAS_PROC_DEAD
			  : RAS_PROC_MISSING_RANK;
	p->rank = (int)int_of(r, "rank", -1);
	p->pid = (long)int_of(r, "pid", -1);
	snprintf(p->node, sizeof(p->node), "%s", str_of(r, "host"));
	gpu_name(r, p->gpu, sizeof(p->gpu));
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
	doc_utf8_fix(p->node);
	if (p->kind == RAS_PROC_DEAD)
		st->ndead++;
}

#define OPS_MAX 16 /* NCCL has 5 collectives; later ones add a few */

/* The leaders of one collective in one communicator: its highest count
 * and how many ranks hold it. */
struct lead {
	char op[16];
	unsigned long long max;
	int n;
	int behind; /* ranks below max */
};

static struct lead *lead_find(struct lead *l, size_t *nl, const char *op)
{
	for (size_t i = 0; i < *nl; i++)
		if (strcmp(l[i].op, op) == 0)
			return &l[i];
	if (*nl >= OPS_MAX)
		return NULL;
	memset(&l[*nl], 0, sizeof(l[0]));
	snprintf(l[*nl].op, sizeof(l[0].op), "%s", op);
	return &l[(*nl)++];
}

/* The communicator's counts kept small whatever the job's size: the
 * ranks behind, one by one, and per collective with any behind one group
 * entry for the leaders (rank -1, how many, their count). */
static void add_counts(struct ras_state *st, const char *id,
		       const json_t *ranks)
{
	struct lead l[OPS_MAX];
	size_t nl = 0, i;
	const json_t *r;
	const char *op;
	json_t *v;

	json_array_foreach(ranks, i, r)
		json_object_foreach(json_object_get(r, "collective_counts"),
				    op, v) {
			struct lead *p = json_is_integer(v)
					 ? lead_find(l, &nl, op) : NULL;
			unsigned long long c;

			if (p == NULL)
				continue;
			c = (unsigned long long)json_integer_value(v);
			if (p->n == 0 || c > p->max) {
				p->max = c;
				p->n = 0;
			}
			if (c == p->max)
				p->n++;
		}
	json_array_foreach(ranks, i, r)
		json_object_foreach(json_object_get(r, "collective_counts"),
				    op, v) {
			struct lead *p = json_is_integer(v)
					 ? lead_find(l, &nl, op) : NULL;

			if (p != NULL &&
			    (unsigned long long)json_integer_value(v) < p->max) {
				p->behind++;
				add_count(st, id, op, r,
					  (unsigned long long)
						  json_integer_value(v));
			}
		}
	for (size_t k = 0; k < nl && st->ncounts < RAS_MAX_COUNTS; k++) {
		struct ras_count *c;

		/* level everywhere: nothing to keep (a job has thousands of
		 * communicators) */
		if (l[k].behind == 0)
			continue;
		c = &st->counts[st->ncounts++];

		memset(c, 0, sizeof(*c));
		snprintf(c->comm, sizeof(c->comm), "%s", id);
		memcpy(c->op, l[k].op, sizeof(c->op));
		doc_utf8_fix(c->op);
		c->rank = -1;
		c->nranks = l[k].n;
		c->pid = -1;
		c->count = l[k].max;
	}
}

/* One communicator: its id, its ranks' counts, its missing ranks. */
static void add_comm(struct ras_state *st, const json_t *c)
{
	char id[48];
	const json_t *m;
	size_t i, first = st->ncounts;
	int nmiss = (int)int_of(c, "missing_ranks_count", 0);
	unsigned long long hash = strtoull(str_of(c, "hash"), NULL, 16);
	struct ras_comm *rc = NULL;

	snprintf(id, sizeof(id), "(%016llx)", hash);
	if (st->ncomms < RAS_MAX_COMMS) {
		rc = &st->comms[st->ncomms++];
		snprintf(rc->id, sizeof(rc->id), "%s", id);
		snprintf(rc->what, sizeof(rc->what), "%s",
			 nmiss > 0 ? "INCOMPLETE" : "OK");
		rc->nmissing = nmiss;
	}
	add_counts(st, id, json_object_get(c, "ranks"));
	json_array_foreach(json_object_get(c, "missing_ranks"), i, m)
		add_missing(st, id, m);
	/* a rank behind is what the text answer calls MISMATCH */
	for (size_t a = first; rc && nmiss == 0 && a < st->ncounts; a++)
		if (st->counts[a].rank >= 0)
			snprintf(rc->what, sizeof(rc->what), "MISMATCH");
	/* as the text answer does, only communicators with errors are
	 * listed: a job has thousands */
	if (rc != NULL && strcmp(rc->what, "OK") == 0)
		st->ncomms--;
}

int ras_parse_json(const char *text, struct ras_state *st)
{
	json_t *doc, *c;
	size_t i;

	memset(st, 0, sizeof(*st));
	doc = json_loads(text, 0, NULL);
	if (!json_is_object(doc) ||
	    !json_is_array(json_object_get(doc, "communicators"))) {
		json_decref(doc);
		errno = EINVAL;
		return -1;
	}
	st->json = 1;
	snprintf(st->nccl_version, sizeof(st->nccl_version), "%s",
		 str_of(doc, "nccl_version"));
	doc_utf8_fix(st->nccl_version);
	st->timeouts = (int)int_of(json_object_get(doc, "ras"),
				   "timeouts_count", 0);
	json_array_foreach(json_object_get(doc, "communicators"), i, c)
		add_comm(st, c);
	for (size_t k = 0; k < st->nprocs; k++)
		if (st->procs[k].kind != RAS_PROC_DEAD)
			st->nmissing_procs++;
	json_decref(doc);
	return 0;
}

/* "Process 77 on node h5 managing GPU 5" (rasPeerInfoToString) or an
 * address "10.0.0.5<28028>" (ncclSocketToString) after the event name. */
static void event_peer(const char *s, struct ras_event *e)
{
	char node[128];
	long pid;

	if (sscanf(s, "Process %ld on node %127s", &pid, node) == 2) {
		e->pid = pid;
		snprintf(e->node, sizeof(e->node), "%s", node);
	} else {
		snprintf(e->node, sizeof(e->node), "%.*s",
			 (int)strcspn(s, "< "), s);
	}
}

/* One text line "[%F %T] EVENT: peer details". */
static int event_text(const char *l, size_t n, struct ras_event *e)
{
	char line[512];
	const char *p;

	snprintf(line, sizeof(line), "%.*s", (int)(n < 511 ? n : 511), l);
	memset(e, 0, sizeof(*e));
	e->pid = -1;
	if (line[0] != '[' || (p = strchr(line, ']')) == NULL ||
	    p - line - 1 >= (long)sizeof(e->when))
		return -1;
	snprintf(e->when, sizeof(e->when), "%.*s", (int)(p - line - 1),
		 line + 1);
	p++;
	while (*p == ' ')
		p++;
	snprintf(e->event, sizeof(e->event), "%.*s", (int)strcspn(p, ":"), p);
	p += strcspn(p, ":");
	if (*p == ':')
		p++;
	while (*p == ' ')
		p++;
	event_peer(p, e);
	doc_utf8_fix(e->when);
	doc_utf8_fix(e->event);
	doc_utf8_fix(e->node);
	return 0;
}

static void event_json(const json_t *o, struct ras_event *e)
{
	const json_t *peer = json_object_get(o, "peer");

	memset(e, 0, sizeof(*e));
	snprintf(e->when, sizeof(e->when), "%s", str_of(o, "timestamp"));
	snprintf(e->event, sizeof(e->event), "%s", str_of(o, "event"));
	snprintf(e->details, sizeof(e->details), "%s", str_of(o, "details"));
	e->pid = (long)int_of(peer, "pid", -1);
	if (*str_of(peer, "host"))
		snprintf(e->node, sizeof(e->node), "%s", str_of(peer, "host"));
	else
		event_peer(str_of(peer, "addr"), e);
	doc_utf8_fix(e->when);
	doc_utf8_fix(e->event);
	doc_utf8_fix(e->node);
	doc_utf8_fix(e->details);
}

size_t ras_parse_events(const char *text, struct ras_event *ev, size_t max,
			size_t *used)
{
	size_t n = 0, len = strlen(text), off = 0;

	while (off < len && n < max) {
		const char *p = text + off;
		size_t ll;

		if (*p == '\n' || *p == '\r' || *p == ' ') {
			off++;
			continue;
		}
		if (*p == '{') {
			json_error_t err;
			json_t *o = json_loadb(p, len - off,
					       JSON_DISABLE_EOF_CHECK, &err);

			if (o == NULL)
				break; /* partial: the rest comes later */
			if (json_is_object(o))
				event_json(o, &ev[n++]);
			json_decref(o);
			off += err.position > 0 ? (size_t)err.position : 1;
			continue;
		}
		ll = strcspn(p, "\n");
		if (p[ll] != '\n')
			break; /* a partial line */
		if (event_text(p, ll, &ev[n]) == 0)
			n++;
		off += ll + 1;
	}
	*used = off;
	return n;
}
