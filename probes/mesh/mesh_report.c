/* netprobe mesh on node 0, at the end: the mesh document (members, who
 * joined, who did not and why, the joins turned away, as findings),
 * every node's document kept in --out, and the cluster report written
 * through the report's own API; its gate is every node's exit status. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "decide/decide_mesh.h"
#include "mesh/mesh_int.h"
#include "report.h"

static const char *const state_names[] = {"joined", "missing", "rejected",
                                          "duplicate"};
static const char *const fate_names[] = {NULL, "received", "died", "silent"};

/* One member of the mesh document. */
static json_t *member_json(const struct mesh_member *m, size_t rank)
{
	return json_pack(
	    "{s:i, s:s, s:s?, s:s?, s:s?, s:s?, s:s?, s:i, s:s, s:s?, s:s?, "
	    "s:o, s:o, s:b, s:s?, s:s?}",
	    "rank", (int)rank, "name", m->name, "entry",
	    m->entry[0] ? m->entry : NULL, "target",
	    m->target[0] ? m->target : NULL, "hostname",
	    m->hostname[0] ? m->hostname : NULL, "advertised_addr",
	    m->advertised[0] ? m->advertised : NULL, "observed_addr",
	    m->observed[0] ? m->observed : NULL, "port", (int)m->port, "state",
	    state_names[m->state], "result", fate_names[m->fate], "why",
	    m->why[0] ? m->why : NULL, "join_ms",
	    m->state == PROTO_MS_JOINED ? json_integer(m->join_us / 1000)
	                                : json_null(),
	    "result_ms",
	    m->fate == MESH_FATE_DONE ? json_integer(m->done_us / 1000)
	                              : json_null(),
	    "by_address", m->by_addr, "own_addrs",
	    m->own_addrs[0] ? m->own_addrs : NULL, "probed_addr",
	    m->probed[0] ? m->probed : NULL);
}

/* The facts decide_mesh judges: what became of each member, and the
 * joins turned away. Returns 0, or -1 on no memory. */
static int member_findings(const struct mesh *ms, struct doc *d)
{
	struct mesh_member_facts *f = calloc(ms->n ? ms->n : 1, sizeof(*f));
	struct mesh_reject_facts *r =
	    calloc(ms->nrejects ? ms->nrejects : 1, sizeof(*r));
	int rc = -1;

	if (f == NULL || r == NULL)
		goto out;
	for (size_t i = 0; i < ms->n; i++) {
		const struct mesh_member *m = &ms->m[i];

		f[i] = (struct mesh_member_facts){m->name,    m->entry,
		                                  m->why,     m->observed,
		                                  m->join_us, MESH_OUT_DONE};
		if (m->state == PROTO_MS_MISSING)
			f[i].outcome = MESH_OUT_MISSING;
		else if (m->state == PROTO_MS_DUPLICATE)
			f[i].outcome = MESH_OUT_DUPLICATE;
		else if (m->fate == MESH_FATE_DIED ||
		         m->fate == MESH_FATE_SILENT)
			f[i].outcome = MESH_OUT_DIED;
	}
	for (size_t i = 0; i < ms->nrejects; i++) {
		const struct mesh_reject *x = &ms->rejects[i];
		/* a rank another member holds: that member, as it joined */
		const struct mesh_member *h =
		    x->code == FINDING_MESH_NODE_DUPLICATE && x->rank > 0 &&
		            (size_t)x->rank < ms->n &&
		            ms->m[x->rank].state == PROTO_MS_JOINED
		        ? &ms->m[x->rank]
		        : NULL;

		r[i] = (struct mesh_reject_facts){
		    .code = x->code,
		    .who = x->who,
		    .why = x->why,
		    .addr = x->addr,
		    .hostname = x->hostname,
		    .held_name = h ? h->name : NULL,
		    .held_addr = h ? h->observed : NULL,
		    .held_host = h ? h->hostname : NULL};
	}
	rc = decide_mesh(ms->env.source, f, ms->n, r,
	                 ms->nrejects, d);
out:
	free(f);
	free(r);
	return rc;
}

/* Each member node 0 did not keep every change of, as an error of the
 * mesh document: the report says the change log lacks them. Returns 0,
 * or -1 on no memory. */
static int watch_errors(const struct mesh *ms, struct doc *d)
{
	for (size_t i = 0; ms->watch_json != NULL && i < ms->n; i++) {
		const struct mesh_member *m = &ms->m[i];

		if (m->watch_dropped > 0 &&
		    doc_add_error(d, "watch",
		                  "node 0 did not keep %llu changes of '%s' "
		                  "(%llu over %d bytes, the rest past its %u "
		                  "MiB share or the log's %u MiB): the change "
		                  "log lacks them",
		                  m->watch_dropped, m->name, m->watch_refused,
		                  MESH_WATCH_CHANGE_MAX,
		                  MESH_WATCH_MEMBER_BYTES >> 20,
		                  MESH_WATCH_TOTAL_BYTES >> 20) < 0)
			return -1;
	}
	return 0;
}

/* The mesh document's text, or NULL; when it would be more than half of
 * what netprobe report reads (indentation may double it), the change
 * log is left out and the document says so. */
static char *doc_text(struct doc *d, json_t *watch)
{
	char *text = json_dumps(d->root, JSON_COMPACT | JSON_SORT_KEYS);
	size_t len = text != NULL ? strlen(text) : 0;

	if (text == NULL || len <= MESH_REPORT_MAX_BYTES / 2 || watch == NULL)
		return text;
	free(text);
	if (json_object_set_new(watch, "changes", json_array()) < 0 ||
	    doc_add_error(d, "watch",
	                  "the change log was left out: the mesh document "
	                  "(%zu bytes) would be over what netprobe report "
	                  "reads (%ld MiB)",
	                  len, MESH_REPORT_MAX_BYTES >> 20) < 0)
		return NULL;
	return json_dumps(d->root, JSON_COMPACT | JSON_SORT_KEYS);
}

/* Node 0's mesh document. Returns its text (malloc'd), or NULL. */
static char *mesh_doc(const struct mesh *ms)
{
	struct doc d;
	json_t *members = json_array(), *mesh;
	size_t joined = 0;
	char *text = NULL;

	if (doc_init(&d, "netprobe", "mesh") < 0) {
		json_decref(members);
		return NULL;
	}
	for (size_t i = 0; members != NULL && i < ms->n; i++) {
		joined += ms->m[i].state == PROTO_MS_JOINED;
		json_array_append_new(members, member_json(&ms->m[i], i));
	}
	if (members == NULL || member_findings(ms, &d) < 0 ||
	    watch_errors(ms, &d) < 0) {
		json_decref(members);
		doc_free(&d);
		return NULL;
	}
	mesh = json_pack(
	    "{s:i, s:i, s:s, s:s, s:s, s:i, s:f, s:I, s:o, s:{s:i, s:i, "
	    "s:i, s:i, s:b, s:s?}}",
	    "size", (int)ms->n, "joined", (int)joined, "source",
	    ms->env.source, "variables", ms->env.vars,
	    "node0", ms->node0, "port", (int)ms->port, "join_timeout_s",
	    (double)ms->o.join_us / 1e6, "elapsed_ms",
	    (json_int_t)mesh_elapsed_ms(ms), "members", members, "plan",
	    "all_pairs", (int)ms->start.pair_limit, "concurrency",
	    (int)ms->start.concurrency, "probe_ms", (int)ms->start.probe_ms,
	    "result_ms", (int)ms->start.result_ms, "quick",
	    (ms->start.flags & PROTO_START_QUICK) != 0, "ports",
	    ms->start.ports[0] ? ms->start.ports : NULL);
	if (mesh != NULL &&
	    json_object_set_new(mesh, "rendezvous", mesh_rdv_guard_json(ms)) <
	        0) {
		json_decref(mesh);
		mesh = NULL;
	}
	if (mesh != NULL && ms->watch_json != NULL)
		json_object_set(mesh, "watch", ms->watch_json);
	if (doc_set(&d, "mesh", mesh) == 0) {
		doc_set_fixed(&d, NULL, ms->m[0].name);
		text = doc_text(&d, ms->watch_json);
	}
	doc_free(&d);
	return text;
}

/* Writes a JSON document pretty into DIR/NAME.json: its text indented
 * as it came (doc_text_write_output: no tree dumped back, a fifth of node
 * 0's CPU at 1,024 members), when parsed, the one the report loaded from
 * text, or text parsed here, says it is JSON. No fsync per file: at 1,024
 * members they were a tenth of node 0's time; mesh_report syncs the
 * directory once when all are written. */
static void keep(struct mesh *ms, const char *dir, const char *name,
                 const char *text, size_t len, const json_t *parsed)
{
	static const struct outfile_opts opts = {.no_sync = true};
	char path[4096], why[512];
	json_t *doc = parsed != NULL ? json_incref((json_t *)parsed)
				     : json_loadb(text, len, 0, NULL);

	snprintf(path, sizeof(path), "%s/%s.json", dir, name);
	if (doc == NULL)
		cmd_fail(&ms->run, "mesh", "cannot write", path, "not JSON");
	else if (doc_text_write_output(text, len, doc, path, &opts, why,
	                               sizeof(why)) < 0)
		cmd_failf(&ms->run, "mesh", "%s", why);
	json_decref(doc);
}

/* The document report_load_buffer just added to set (its nin was before),
 * or NULL when it skipped it. */
static const json_t *just_loaded(const struct report_set *set, size_t before)
{
	return set->nin > before ? set->in[set->nin - 1].doc : NULL;
}

/* The directory a file path is in ("." for a bare name) into dir. */
static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* Why --out DIR cannot take the documents (created when missing), or
 * NULL when it can. */
static const char *out_dir_why(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return strerror(errno);
	if (stat(dir, &st) < 0)
		return strerror(errno);
	if (!S_ISDIR(st.st_mode))
		return "not a directory";
	if (access(dir, W_OK | X_OK) < 0)
		return strerror(errno);
	return NULL;
}

/* See mesh_int.h. */
int mesh_check_outputs(struct mesh *ms)
{
	const char *o = ms->o.output, *why;
	char dir[4096];
	struct stat st;

	if (ms->o.out_dir != NULL &&
	    (why = out_dir_why(ms->o.out_dir)) != NULL) {
		cmd_fail(&ms->run, "mesh", "cannot keep the documents in",
		         ms->o.out_dir, "%s", why);
		return 2;
	}
	if (o == NULL || strcmp(o, "-") == 0)
		return 0;
	if (stat(o, &st) == 0 && S_ISDIR(st.st_mode)) {
		cmd_fail(&ms->run, "mesh", "cannot write the report to", o,
		         "a directory");
		return 2;
	}
	dir_of(o, dir, sizeof(dir));
	if (access(dir, W_OK | X_OK) < 0) {
		cmd_fail(&ms->run, "mesh", "cannot write the report to", o,
		         "'%s': %s", dir, strerror(errno));
		return 2;
	}
	return 0;
}

/* See mesh_int.h. */
int mesh_report(struct mesh *ms)
{
	struct report_set set = {0};
	struct report_model *rm = NULL;
	enum report_fail_on fail_on = REPORT_FAIL_FAULT;
	enum report_format fmt = REPORT_FMT_TEXT;
	struct outfile_opts oo = {.no_clobber = ms->run.no_clobber};
	char *mtext, name[PROTO_MESH_NAME_MAX + 8];
	size_t nin;
	int rc = 2;

	if (ms->own_doc != NULL) {
		ms->m[0].fate = MESH_FATE_DONE;
		ms->m[0].done_us = mono_now_us() - ms->t0_us;
	}
	mtext = mesh_doc(ms);
	/* mesh_parse checked both names */
	report_fail_on_parse(ms->o.fail_on, &fail_on);
	report_format_parse(ms->o.format, &fmt);
	if (mtext == NULL)
		goto out;
	/* a watch writes the report a second time: the document is there */
	if (ms->own_doc != NULL) {
		ms->m[0].doc = ms->own_doc;
		ms->m[0].doclen = ms->own_doclen;
		ms->own_doc = NULL;
	}
	if (ms->o.out_dir != NULL && mkdir(ms->o.out_dir, 0755) < 0 &&
	    errno != EEXIST)
		cmd_fail(&ms->run, "mesh", "cannot create", ms->o.out_dir, "%s",
		         strerror(errno));
	for (size_t i = 0; i < ms->n; i++) {
		if (ms->m[i].doc == NULL)
			continue;
		size_t before = set.nin;

		snprintf(name, sizeof(name), "%s.json", ms->m[i].name);
		if (report_load_buffer(&set, name, ms->m[i].doc,
		                       ms->m[i].doclen) < 0)
			goto out;
		if (ms->o.out_dir != NULL)
			keep(ms, ms->o.out_dir, ms->m[i].name, ms->m[i].doc,
			     ms->m[i].doclen, just_loaded(&set, before));
	}
	nin = set.nin;
	if (report_load_buffer(&set, "mesh.json", mtext, strlen(mtext)) < 0)
		goto out;
	if (ms->o.out_dir != NULL) {
		keep(ms, ms->o.out_dir, "mesh", mtext, strlen(mtext),
		     just_loaded(&set, nin));
		if (outfile_sync_dir(ms->o.out_dir) < 0)
			cmd_failf(&ms->run, "mesh",
			          "cannot flush '%s' to disk: %s",
			          ms->o.out_dir, strerror(errno));
	}
	for (size_t i = 0; i < set.nskip; i++)
		cmd_note(&ms->run, "%s left out of the report: %s",
		         set.skip[i].path, set.skip[i].why);
	rm = report_build(&set);
	if (rm == NULL) {
		cmd_fail(&ms->run, "mesh", "out of memory", NULL, NULL);
		goto out;
	}
	report_set_verbose(rm, ms->o.verbose > 0);
	/* --watch: the verdict now, the report once, with the change log */
	if (ms->o.watch_us > 0 && ms->watch_json == NULL) {
		rc = report_gate(rm, fail_on);
		cmd_note(&ms->run,
		         "first mesh: exit status %d; watching, "
		         "the report comes at the end",
		         rc);
	} else if (ms->run.quiet && fmt == REPORT_FMT_TEXT &&
	           ms->o.output == NULL) {
		rc = report_gate(rm, fail_on); /* -q: the verdict alone */
	} else if (report_emit(rm, ms->o.output, fmt, fail_on, &ms->run,
	                       &oo) == 0)
		rc = report_gate(rm, fail_on);
	else if (ms->o.output != NULL && strcmp(ms->o.output, "-") != 0) {
		/* the mesh was measured: the report is not lost with its
		 * file, and the status says the file failed */
		cmd_note(&ms->run, "the report goes to standard "
		                   "output instead");
		report_emit(rm, NULL, fmt, fail_on, &ms->run, &oo);
	}
out:
	report_model_free(rm);
	report_set_free(&set);
	free(mtext);
	return rc;
}
