/* netprobe explain's output: the document (log, measured, causes,
 * undecided, other_causes, symptoms, job, findings) and its text form,
 * which leads with the answer (the cause and its fix, or the candidates
 * and the command that decides them), then the evidence lines, then
 * what was measured here. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/termsafe.h"
#include "explain/explain_fr.h"
#include "explain/explain_int.h"

static const char *state_name(enum explain_state s)
{
	return s == EXPLAIN_PROVED ? "proved here" :
	       s == EXPLAIN_NOT_SEEN ? "not seen here" : "from the log";
}

static json_t *refs_json(const struct explain_run *r,
			 const struct explain_cause *c)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < c->nrefs; i++)
		json_array_append_new(a, json_pack("{s:s,s:I}", "file",
			r->shown[c->refs[i].file], "line",
			(json_int_t)c->refs[i].line));
	return a;
}

/* The signatures whose repeats were not all kept: each with its count
 * and its first and last line. */
static json_t *repeated_json(const struct explain_run *r)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < r->lg.nhits; i++) {
		const struct explain_hit *h = &r->lg.hits[i];

		if (h->unkept == 0)
			continue;
		json_array_append_new(a, json_pack("{s:s,s:I,s:I,s:s,s:I,"
			"s:s,s:I}", "signature", h->m.sig->id, "count",
			(json_int_t)h->seen, "not_listed",
			(json_int_t)h->unkept, "first_file",
			r->shown[h->file], "first_line", (json_int_t)h->line,
			"last_file", r->shown[h->last_file], "last_line",
			(json_int_t)h->last_line));
	}
	return a;
}

static json_t *log_json(const struct explain_run *r)
{
	json_t *o, *m = json_array(), *files = json_array();

	for (int i = 0; files && i < r->o.nfiles; i++)
		json_array_append_new(files, json_string(r->shown[i]));
	for (size_t i = 0; m && i < r->lg.nhits; i++) {
		const struct explain_hit *h = &r->lg.hits[i];
		json_t *facts = json_object();

		for (size_t k = 0; facts && k < h->m.nfields; k++)
			json_object_set_new(facts, h->m.fields[k].name,
					    json_string(h->m.fields[k].value));
		json_array_append_new(m, json_pack("{s:s,s:I,s:s,s:s,s:s,"
			"s:s,s:o}", "file", r->shown[h->file], "line",
			(json_int_t)h->line, "signature", h->m.sig->id,
			"framework", h->m.sig->framework, "source",
			h->m.sig->source, "versions", h->m.sig->versions,
			"facts", facts ? facts : json_null()));
	}
	o = json_pack("{s:o,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:o,s:o}", "files",
		      files, "lines", (json_int_t)r->lg.lines, "matched",
		      (json_int_t)r->lg.matched, "unknown",
		      (json_int_t)r->lg.unknown, "binary",
		      (json_int_t)r->lg.binary, "truncated",
		      (json_int_t)r->lg.truncated, "matches_dropped",
		      (json_int_t)r->lg.dropped, "distinct_dropped",
		      (json_int_t)r->lg.distinct_dropped, "matches", m,
		      "repeated", repeated_json(r));
	return o;
}

/* Where the log is from: the hosts and addresses it names and whether
 * one is this host ("not-checked" without a live measurement). */
static json_t *origin_json(const struct explain_run *r)
{
	static const char *const verdict[] = {"unnamed", "here",
					      "elsewhere"};
	json_t *h = json_array(), *a = json_array();

	for (size_t i = 0; h && i < r->origin.nhosts; i++)
		json_array_append_new(h, json_string(r->origin.hosts[i]));
	for (size_t i = 0; a && i < r->origin.naddrs; i++)
		json_array_append_new(a, json_string(r->origin.addrs[i]));
	return json_pack("{s:s,s:s,s:s,s:o,s:o}", "verdict",
			 !r->where_checked ? "not-checked" :
			 r->o.here ? "here (--here)" : verdict[r->where],
			 "why", r->where_checked && r->where == ORIGIN_HERE ?
			 r->where_why : "", "this_host", r->this_host,
			 "hosts", h, "addresses", a);
}

static json_t *job_json_ras(const struct explain_run *r);

/* The joined verdict: headline, action, suspects, timeline, sources. */
static json_t *verdict_json(const struct explain_run *r)
{
	const struct job_verdict *v = &r->jv;
	json_t *sus = json_array(), *tl = json_array(), *src = json_array();

	for (size_t i = 0; sus && i < v->nsuspects; i++) {
		const struct jv_suspect *s = &v->suspects[i];

		json_array_append_new(sus, json_pack("{s:s,s:i,s:s,s:s,s:I,"
			"s:i,s:s,s:s,s:b}", "source", s->source, "rank",
			s->rank, "host", s->host, "gpu", s->gpu, "pid",
			(json_int_t)s->pid, "weight", s->weight, "what",
			s->what, "host_evidence", s->host_why, "host_read",
			s->host_read));
	}
	for (size_t i = 0; tl && i < v->nevents; i++) {
		const struct jv_event *e = &v->events[i];

		json_array_append_new(tl, json_pack("{s:I,s:s,s:s,s:s,s:s}",
			"at_ms", (json_int_t)e->at_ms, "when", e->when,
			"source", e->source, "host", e->host, "text",
			e->text));
	}
	for (size_t i = 0; src && i < v->nsources; i++) {
		const struct jv_source *s = &v->sources[i];

		json_array_append_new(src, json_pack("{s:s,s:b,s:s,s:s}",
			"name", s->name, "answered", s->answered, "said",
			s->said, "cannot_tell", s->cannot));
	}
	return json_pack("{s:s,s:s,s:o,s:o,s:o}", "headline", v->headline,
			 "action", v->action, "suspects", sus, "timeline", tl,
			 "sources", src);
}

static json_t *stragglers_json(const struct explain_run *r)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < r->nstragglers; i++) {
		const struct ras_straggler *g = &r->stragglers[i];

		json_array_append_new(a, json_pack("{s:s,s:s,s:s,s:i,s:i,s:I,"
			"s:s,s:s,s:I,s:I,s:i,s:I}", "state",
			straggle_kind_name(g->kind), "communicator", g->comm,
			"op", g->op, "rank", g->rank, "ranks", g->nranks,
			"pid", (json_int_t)g->pid, "node", g->node, "gpu",
			g->gpu, "count", (json_int_t)g->count, "ahead_count",
			(json_int_t)g->ahead, "ahead_ranks", g->nahead,
			"moved", (json_int_t)g->moved));
	}
	return a;
}

static json_t *job_json(const struct explain_run *r)
{
	json_t *j = job_json_ras(r);

	if (j != NULL &&
	    (json_object_set_new(j, "verdict", verdict_json(r)) < 0 ||
	     json_object_set_new(j, "watch_s", json_integer(r->o.watch_s)) <
		     0)) {
		json_decref(j);
		return NULL;
	}
	return j;
}

static json_t *job_json_ras(const struct explain_run *r)
{
	static const char *const kind[] = {"dead", "unresponsive",
					   "missing-rank"};
	json_t *procs, *comms;

	if (!r->ras_answered)
		return json_pack("{s:s,s:b,s:s}", "ras", r->ras_addr,
				 "answered", 0, "why", r->ras_why);
	procs = json_array();
	comms = json_array();
	for (size_t i = 0; procs && i < r->ras.nprocs; i++) {
		const struct ras_proc *p = &r->ras.procs[i];

		json_array_append_new(procs, json_pack("{s:s,s:i,s:I,s:s,"
			"s:s,s:s}", "state", kind[p->kind], "rank", p->rank,
			"pid", (json_int_t)p->pid, "node", p->node, "gpu",
			p->gpu, "communicator", p->comm));
	}
	for (size_t i = 0; comms && i < r->ras.ncomms; i++)
		json_array_append_new(comms, json_pack("{s:s,s:s,s:i}", "id",
			r->ras.comms[i].id, "state", r->ras.comms[i].what,
			"missing_ranks", r->ras.comms[i].nmissing));
	return json_pack("{s:s,s:b,s:s,s:i,s:i,s:i,s:o,s:o,s:s,s:s,s:o}",
			 "ras", r->ras_addr, "answered", 1, "nccl_version",
			 r->ras.nccl_version, "dead_processes", r->ras.ndead,
			 "missing_processes", r->ras.nmissing_procs,
			 "timeouts", r->ras.timeouts, "processes", procs,
			 "communicators", comms, "format", r->ras_json ?
			 "json" : "text", "watched", r->ras_monitor,
			 "stragglers", stragglers_json(r));
}

/* The stragglers (nccl-rank-stopped, nccl-rank-behind) and the suspect
 * host's link changes (job-link-changed), each with its evidence. */
static int job_findings(struct explain_run *r)
{
	json_t *ev = NULL;

	for (size_t i = 0; i < r->nstragglers; i++) {
		const struct ras_straggler *g = &r->stragglers[i];

		if (!straggle_suspect(g->kind))
			continue;
		ev = NULL;
		evidence_add(&ev, "ras", "%s: %s count %llu, %d rank(s) at "
			     "%llu%s", r->ras_addr, g->op, g->count, g->nahead,
			     g->ahead, r->o.watch_s > 0 ? "" : " (one look)");
		if (r->o.watch_s > 0)
			evidence_add(&ev, "ras", "moved by %llu in %d s",
				     g->moved, r->o.watch_s);
		/* one look: ranks a few collectives apart are what a healthy
		 * job shows at any instant, so it is said, not alarmed */
		if (doc_add_finding(&r->run.doc, g->kind == STRAGGLE_STOPPED
				    ? FINDING_NCCL_RANK_STOPPED
				    : FINDING_NCCL_RANK_BEHIND,
				    g->kind == STRAGGLE_BEHIND ? (int)SEV_INFO
							       : -1, ev,
				    g->kind == STRAGGLE_BEHIND
				    ? "ask twice: netprobe explain --job "
				      "--watch 10" : NULL,
				    "rank %d (process %ld on node %s, GPU %s) "
				    "%s at %s #%llu of %s; %d rank(s) "
				    "launched #%llu", g->rank, g->pid,
				    g->node, g->gpu,
				    straggle_kind_name(g->kind), g->op,
				    g->count, g->comm, g->nahead, g->ahead) < 0)
			return -1;
	}
	if (r->nlink_changes == 0)
		return 0;
	ev = NULL;
	for (size_t i = 0; i < r->jv.nevents; i++) {
		const struct jv_event *e = &r->jv.events[i];
		char t[40];

		if (strcmp(e->source, "host") != 0)
			continue;
		jv_time(e, t, sizeof(t));
		evidence_add(&ev, "host", "%s: %s (%s)", e->host, e->text, t);
	}
	return doc_add_finding(&r->run.doc, FINDING_JOB_LINK_CHANGED, -1, ev,
			       r->jv.action[0] ? r->jv.action : NULL, "%s",
			       r->jv.headline);
}

/* One finding per decided cause; open causes are findings of none. */
static int add_findings(struct explain_run *r)
{
	for (size_t i = 0; i < r->res.ncauses; i++) {
		const struct explain_cause *c = &r->res.causes[i];
		const struct finding_def *fd;
		json_t *ev = NULL;

		if (c->open || c->kind != EXPLAIN_NET)
			continue;
		for (size_t k = 0; k < c->nrefs; k++)
			evidence_add(&ev, "log", "%s line %ld",
				     r->shown[c->refs[k].file],
				     c->refs[k].line);
		if (c->measured[0])
			evidence_add(&ev, "measured", "%s", c->measured);
		/* the signature table names codes as text (lib/doc/logsig.c) */
		fd = finding_lookup(c->codes[0]);
		if (fd == NULL) {
			json_decref(ev);
			errno = EINVAL;
			return -1;
		}
		if (doc_add_finding(&r->run.doc, fd->id, -1, ev,
				    c->fix[0] ? c->fix : NULL, "%s (%s)",
				    c->why, state_name(c->state)) < 0)
			return -1;
	}
	if (r->ras_tried && !r->ras_answered &&
	    doc_add_finding(&r->run.doc, FINDING_NCCL_RAS_UNAVAILABLE, -1, NULL,
	                    NULL, "no NCCL RAS service answered at %s: %s",
	                    r->ras_addr, r->ras_why) < 0)
		return -1;
	if (job_findings(r) < 0)
		return -1;
	for (size_t i = 0; r->ras_answered && i < r->ras.nprocs; i++) {
		const struct ras_proc *p = &r->ras.procs[i];
		json_t *ev = NULL;

		evidence_add(&ev, "ras", "%s: process %ld on node %s, GPU %s",
			     r->ras_addr, p->pid, p->node, p->gpu);
		if ((p->rank >= 0
		         ? doc_add_finding(
		               &r->run.doc, FINDING_NCCL_RANK_UNRESPONSIVE, -1,
		               ev, NULL,
		               "rank %d (process %ld on node %s) did "
		               "not answer for communicator %s",
		               p->rank, p->pid, p->node, p->comm)
		         : doc_add_finding(
		               &r->run.doc, FINDING_NCCL_RANK_UNRESPONSIVE, -1,
		               ev, NULL, "process %ld on node %s is %s", p->pid,
		               p->node,
		               p->kind == RAS_PROC_DEAD ? "considered dead"
		                                        : "not answering")) < 0)
			return -1;
	}
	return 0;
}

/* The causes that are not the network and the symptoms, each with the
 * lines behind it; a symptom says what explains it, when the log does. */
static int build_other(struct explain_run *r)
{
	json_t *oth = json_array(), *sym = json_array();
	const char *by = NULL;

	for (size_t i = 0; i < r->res.ncauses; i++)
		if (r->res.causes[i].kind == EXPLAIN_OTHER && by == NULL)
			by = r->res.causes[i].codes[0];
	for (size_t i = 0; oth && sym && i < r->res.ncauses; i++) {
		const struct explain_cause *c = &r->res.causes[i];

		if (c->kind == EXPLAIN_OTHER)
			json_array_append_new(oth, json_pack("{s:s,s:s,s:o,"
				"s:I,s:s*}", "kind", c->codes[0], "why", c->why,
				"lines", refs_json(r, c), "count",
				(json_int_t)c->count, "fix", c->fix[0] ?
				c->fix : NULL));
		else if (c->kind == EXPLAIN_SYMPTOM)
			json_array_append_new(sym, json_pack("{s:s,s:s,s:s*,"
				"s:s*,s:o,s:I}", "signature", c->codes[0],
				"why", c->why, "explained_by", by, "collect",
				by || c->next[0] == '\0' ? NULL : c->next,
				"lines", refs_json(r, c), "count",
				(json_int_t)c->count));
	}
	if (doc_set(&r->run.doc, "other_causes", oth) < 0 ||
	    doc_set(&r->run.doc, "symptoms", sym) < 0)
		return -1;
	return 0;
}

/* The broader codes a cause's codes refine (explain_refines) that the
 * cause does not list itself, or NULL when there are none (the key is
 * then left out, so documents without a refinement do not change). */
static json_t *refines_json(const struct explain_cause *c)
{
	json_t *a = NULL;

	for (size_t k = 0; k < c->ncodes; k++) {
		const char *b = explain_refines(c->codes[k]);
		bool listed = false;

		for (size_t j = 0; b && j < c->ncodes; j++)
			listed = listed || strcmp(c->codes[j], b) == 0;
		if (b == NULL || listed)
			continue;
		if (a == NULL && (a = json_array()) == NULL)
			return NULL;
		json_array_append_new(a, json_string(b));
	}
	return a;
}

static int build(struct explain_run *r)
{
	json_t *causes = json_array(), *open = json_array();
	json_t *notes = json_array();

	if (build_other(r) < 0)
		return -1;

	for (int i = 0; notes && i < r->nnotes; i++)
		json_array_append_new(notes, json_string(r->notes[i]));
	for (size_t i = 0; causes && open && i < r->res.ncauses; i++) {
		const struct explain_cause *c = &r->res.causes[i];
		json_t *codes, *refines;

		if (c->kind != EXPLAIN_NET)
			continue;
		codes = json_array();
		for (size_t k = 0; codes && k < c->ncodes; k++)
			json_array_append_new(codes, json_string(c->codes[k]));
		refines = refines_json(c);
		if (c->open)
			json_array_append_new(open, json_pack("{s:o,s:s,s:s,"
				"s:s,s:o,s:I,s:o*}", "codes", codes, "why",
				c->why, "next", c->next, "contradicted_by",
				c->contra, "lines", refs_json(r, c),
				"count", (json_int_t)c->count, "refines",
				refines));
		else {
			const struct finding_def *fd =
				finding_lookup(c->codes[0]);

			json_array_append_new(causes, json_pack("{s:s,s:s,"
				"s:s,s:s,s:s,s:o,s:I,s:o*}", "code",
				c->codes[0], "state", state_name(c->state),
				"why", c->why, "measured", c->measured, "fix",
				c->fix[0] ? c->fix : fd ? fd->fix : "",
				"lines", refs_json(r, c), "count",
				(json_int_t)c->count, "refines", refines));
			json_decref(codes);
		}
	}
	if (doc_set(&r->run.doc, "log", log_json(r)) < 0 ||
	    doc_set(&r->run.doc, "measured", json_pack("{s:b,s:o,s:o}",
		    "ran", r->ms.ran, "notes", notes, "origin",
		    origin_json(r))) < 0 ||
	    doc_set(&r->run.doc, "causes", causes) < 0 ||
	    doc_set(&r->run.doc, "undecided", open) < 0)
		return -1;
	if (r->ras_tried && doc_set(&r->run.doc, "job", job_json(r)) < 0)
		return -1;
	return add_findings(r);
}

/* The joined verdict, its timeline and what each source could not
 * tell. */
static void print_verdict(const struct explain_run *r)
{
	const struct job_verdict *v = &r->jv;
	char t[40];

	for (size_t i = 0; i < r->nstragglers; i++) {
		const struct ras_straggler *g = &r->stragglers[i];

		if (i == 0)
			printf("  stragglers (%s):\n", r->o.watch_s > 0 ?
			       "two looks" : "one look");
		printf("    rank %d (process %ld on node %s, GPU %s): %s, %s "
		       "#%llu of %s; %d rank(s) at #%llu\n", g->rank, g->pid,
		       g->node, g->gpu, straggle_kind_name(g->kind), g->op,
		       g->count, g->comm, g->nahead, g->ahead);
	}
	printf("\nVerdict\n  %s\n", v->headline);
	if (v->action[0])
		printf("  next: %s\n", v->action);
	for (size_t i = 1; i < v->nsuspects; i++)
		printf("  also (%s, weight %d): rank %d on %s %s\n",
		       v->suspects[i].source, v->suspects[i].weight,
		       v->suspects[i].rank, v->suspects[i].host,
		       v->suspects[i].what);
	if (v->nevents > 0)
		printf("\nTimeline\n");
	for (size_t i = 0; i < v->nevents; i++) {
		jv_time(&v->events[i], t, sizeof(t));
		printf("  %-20s %-4s %s: %s\n", t, v->events[i].source,
		       v->events[i].host, v->events[i].text);
	}
	printf("\nWhat each source told, and could not tell\n");
	for (size_t i = 0; i < v->nsources; i++)
		printf("  %s: %s%s%s\n", v->sources[i].name,
		       v->sources[i].said, v->sources[i].cannot[0] ?
		       "; cannot tell " : "", v->sources[i].cannot);
}

static void print_refs(const struct explain_run *r,
		       const struct explain_cause *c)
{
	printf("    lines:");
	for (size_t k = 0; k < c->nrefs; k++)
		printf(" %s%s:%ld", k ? "" : "", r->shown[c->refs[k].file],
		       c->refs[k].line);
	if (c->count > (long)c->nrefs)
		printf(" (+%ld more)", c->count - (long)c->nrefs);
	printf("\n");
}

/* The decided network causes of one severity, each with its fix and
 * what was measured. Returns how many it printed. */
static size_t print_decided(const struct explain_run *r, int sev)
{
	size_t n = 0;

	for (size_t i = 0; i < r->res.ncauses; i++) {
		const struct explain_cause *c = &r->res.causes[i];
		const struct finding_def *fd = finding_lookup(c->codes[0]);

		if (c->kind != EXPLAIN_NET || c->open ||
		    (int)(fd ? fd->sev : SEV_FAULT) != sev)
			continue;
		n++;
		printf("  %s %s: %s\n", fd ? severity_name(fd->sev) : "fault",
		       c->codes[0], c->why);
		printf("    fix: %s\n", c->fix[0] ? c->fix : fd ? fd->fix : "");
		printf("    %s%s%s\n", state_name(c->state),
		       c->measured[0] ? ": " : "", c->measured);
		print_refs(r, c);
	}
	return n;
}

/* NCCL 2.30's HINT lines: its own guess, said as such under the
 * answer and never taken for proof (issue 42). */
static void print_hints(const struct explain_run *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->lg.nhits && n < 4; i++) {
		const char *t = logmatch_field(&r->lg.hits[i].m, "hint");

		if (t == NULL || strcmp(r->lg.hits[i].m.sig->id, "nccl-hint"))
			continue;
		n++;
		printf("  NCCL's hint (its guess, not proof): %s\n", t);
	}
}

/* The answer first: the decided causes with their fix, the candidates
 * with the command that decides them, the causes that are not the
 * network, the symptoms. Returns how many answers it printed. */
static size_t print_answer(const struct explain_run *r)
{
	size_t n = 0;
	const char *by = NULL;

	printf("Answer\n");
	/* a fault first, then a cause that is not the network, then the
	 * warnings and the infos (issue 42) */
	n += print_decided(r, SEV_FAULT);
	for (size_t i = 0; i < r->res.ncauses; i++) {
		const struct explain_cause *c = &r->res.causes[i];

		if (c->kind != EXPLAIN_OTHER)
			continue;
		n++;
		by = by ? by : c->codes[0];
		printf("  not the network: %s: %s\n", c->codes[0], c->why);
		if (c->fix[0])
			printf("    check: %s\n", c->fix);
		print_refs(r, c);
	}
	n += print_decided(r, SEV_WARNING);
	n += print_decided(r, SEV_INFO);
	if (r->ras_answered && r->ras.nprocs > 0) {
		n++;
		printf("  fault nccl-rank-unresponsive: see NCCL's RAS service "
		       "below\n    fix: %s\n",
		       finding_get(FINDING_NCCL_RANK_UNRESPONSIVE)->fix);
	}
	if (r->ras_answered && r->jv.nsuspects > 0) {
		n++;
		printf("  the job waits for: %s\n    next: %s\n",
		       r->jv.headline, r->jv.action);
	}
	for (size_t i = 0; i < r->res.ncauses; i++) {
		const struct explain_cause *c = &r->res.causes[i];

		if (c->kind != EXPLAIN_NET || !c->open)
			continue;
		n++;
		printf("  cannot tell from the log: ");
		for (size_t k = 0; k < c->ncodes; k++)
			printf("%s%s", k ? " or " : "", c->codes[k]);
		printf("\n    decide it: %s\n    why: %s\n", c->next, c->why);
		if (c->contra[0])
			printf("    not decided: %s\n", c->contra);
		print_refs(r, c);
	}
	print_hints(r);
	for (size_t i = 0; i < r->res.ncauses; i++) {
		const struct explain_cause *c = &r->res.causes[i];

		if (c->kind != EXPLAIN_SYMPTOM)
			continue;
		/* a symptom with nothing else: say so first (issue 42) */
		if (n++ == 0)
			printf("  cannot tell from this log: it holds a "
			       "symptom and no line of the network or other "
			       "cause\n");
		printf("  symptom %s: %s%s%s\n", c->codes[0], c->why,
		       by ? "; explained by " : "", by ? by : "");
		if (by == NULL && c->next[0])
			printf("    to tell, collect: %s\n", c->next);
		print_refs(r, c);
	}
	if (n == 0 && r->ras_answered && r->o.nfiles == 0)
		printf("  NCCL's RAS service names no rank the job waits "
		       "for%s\n", r->o.watch_s > 0 ? "" : " (one look: "
		       "--watch 10 asks twice)");
	else if (n == 0)
		printf("  no cause the log proves and no candidate%s: run "
		       "`netprobe scan` on the failing node\n",
		       r->lg.matched == 0 ? " (no known failure signature "
		       "in the log)" : "");
	return n;
}

/* Past the matches kept whole only new signatures are listed: the
 * repeats not listed are said, with each signature's first and last
 * line. */
static void print_repeats(const struct explain_run *r)
{
	size_t n = 0;

	if (r->lg.distinct_dropped > 0)
		printf("  %ld matches of further signatures not kept (past "
		       "%d distinct)\n", r->lg.distinct_dropped,
		       EXPLAIN_MAX_DISTINCT);
	for (size_t i = 0; i < r->lg.nhits && n < 40; i++) {
		const struct explain_hit *h = &r->lg.hits[i];

		if (h->unkept == 0)
			continue;
		n++;
		printf("  %s: %ld times, %ld of them repeats not listed, "
		       "first %s:%ld, last %s:%ld\n", h->m.sig->id, h->seen,
		       h->unkept, r->shown[h->file], h->line,
		       r->shown[h->last_file], h->last_line);
	}
}

static void print_text(const struct explain_run *r)
{
	size_t shown = 0;

	print_answer(r);
	printf("\nEvidence (%ld lines: %ld matched, %ld unknown, "
	       "%ld binary, %ld cut at %d bytes)\n", r->lg.lines,
	       r->lg.matched, r->lg.unknown, r->lg.binary, r->lg.truncated,
	       EXPLAIN_LINE_MAX);
	for (size_t i = 0; i < r->lg.nhits && shown < 40; i++) {
		const struct explain_hit *h = &r->lg.hits[i];

		if (h->m.sig->flags & LOGSIG_FACT && h->m.nfields == 0)
			continue;
		shown++;
		printf("  %s:%ld  %.*s\n    %s (%s, %s, %s)", r->shown[h->file],
		       h->line, EXPLAIN_TEXT_SHOW, h->text, h->m.sig->id,
		       h->m.sig->framework,
		       h->m.sig->source, h->m.sig->versions);
		for (size_t k = 0; k < h->m.nfields; k++)
			printf(" %s=%s", h->m.fields[k].name,
			       h->m.fields[k].value);
		printf("\n");
	}
	if (r->lg.nhits > shown)
		printf("  ... %zu more matches (--json lists them all)\n",
		       r->lg.nhits - shown);
	print_repeats(r);
	for (size_t i = 0; !r->ras_tried && i < r->lg.nhits; i++) {
		const char *a = logmatch_field(&r->lg.hits[i].m, "ras_addr");
		const char *p = logmatch_field(&r->lg.hits[i].m, "ras_port");

		if (a && p) {
			printf("  the job's NCCL RAS service listened at %s:%s: "
			       "if the job still hangs, run on its node: "
			       "netprobe explain --job --ras %s:%s\n", a, p,
			       a, p);
			break;
		}
	}
	if (r->ras_tried) {
		printf("\nWhat NCCL's RAS service says (%s)\n", r->ras_addr);
		if (!r->ras_answered)
			printf("  no RAS answered: %s\n  (NCCL before 2.24, "
			       "NCCL_RAS_ENABLE=0, or no job on this node; "
			       "NCCL_RAS_ADDR moves it: --ras HOST:PORT)\n",
			       r->ras_why);
		else {
			size_t bad = 0;

			for (size_t i = 0; i < r->ras.ncomms; i++)
				bad += strcmp(r->ras.comms[i].what, "OK") != 0;
			printf("  NCCL %s: %d dead, %d not answering, %zu "
			       "communicator(s) with errors\n",
			       r->ras.nccl_version, r->ras.ndead,
			       r->ras.nmissing_procs, bad);
			for (size_t i = 0; i < r->ras.nprocs; i++) {
				const struct ras_proc *p = &r->ras.procs[i];

				if (p->rank >= 0)
					printf("  rank %d (process %ld on node "
					       "%s, GPU %s) missing from %s\n",
					       p->rank, p->pid, p->node, p->gpu,
					       p->comm);
				else
					printf("  process %ld on node %s (GPU "
					       "%s): %s\n", p->pid, p->node,
					       p->gpu, p->kind == RAS_PROC_DEAD
					       ? "dead" : "not answering");
			}
		}
	}
	if (r->fr != NULL)
		explain_fr_print(r->fr, r->o.fr_dir, stdout);
	if (r->ras_tried)
		print_verdict(r);
	printf("\nWhat was measured here\n");
	for (int i = 0; i < r->nnotes; i++)
		printf("  %s\n", r->notes[i]);
}

/* The causes' texts made UTF-8: the decider builds them from a log's
 * captures (already UTF-8) and may cut one inside a character. */
static void causes_utf8(struct explain_run *r)
{
	for (size_t i = 0; i < r->res.ncauses; i++) {
		struct explain_cause *c = &r->res.causes[i];

		for (size_t k = 0; k < c->ncodes && k < EXPLAIN_MAX_CODES; k++)
			explain_utf8(c->codes[k], sizeof(c->codes[k]));
		explain_utf8(c->why, sizeof(c->why));
		explain_utf8(c->fix, sizeof(c->fix));
		explain_utf8(c->next, sizeof(c->next));
		explain_utf8(c->measured, sizeof(c->measured));
		explain_utf8(c->addr, sizeof(c->addr));
		explain_utf8(c->contra, sizeof(c->contra));
	}
}

int explain_emit(struct explain_run *r)
{
	FILE *real = stdout, *safe;
	int rc;

	causes_utf8(r);
	if (build(r) < 0)
		return -1;
	if (r->run.json || r->run.quiet)
		return 0; /* cmd_finish writes the document */
	/* the log's lines and a RAS answer are printed: a BEL, an OSC title
	 * or a C1 control in one must not reach the terminal (the printers
	 * write to stdout, swapped for the escaping stream while they run) */
	safe = termsafe_open(real, false);
	if (safe == NULL)
		return -1;
	stdout = safe;
	print_text(r);
	stdout = real;
	rc = ferror(safe) ? -1 : 0;
	if (fclose(safe) == EOF)
		rc = -1;
	return rc == 0 && !ferror(real) ? 0 : -1;
}
