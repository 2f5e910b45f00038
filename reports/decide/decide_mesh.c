/* netprobe report, decide: the mesh section, from node 0's mesh document
 * (`netprobe mesh`): how many nodes and from which membership, who joined,
 * who did not or died and why, the plan, and how many peer probes ran and
 * were answered across the nodes' documents. */
#include <string.h>

#include "report_decide.h"

/* See report_decide.h. */
const json_t *rd_mesh_doc(const struct rctx *c)
{
	const json_t *best = NULL;

	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;

		if (strcmp(rj_strd(d, "command", ""), "mesh") != 0 ||
		    !json_is_object(json_object_get(d, "mesh")))
			continue;
		if (best == NULL || strcmp(rj_strd(d, "started", ""),
					   rj_strd(best, "started", "")) >= 0)
			best = d;
	}
	return best;
}

/* The value at key (a new reference), or null. */
static json_t *or_null(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return v != NULL ? json_incref(v) : json_null();
}

/* A member as the report shows it. */
static json_t *member(const json_t *m)
{
	return json_pack("{s:I, s:s, s:s, s:o, s:o, s:o, s:o}", "rank",
			 (json_int_t)rj_int(m, "rank", -1), "name",
			 rj_strd(m, "name", "?"), "state",
			 rj_strd(m, "state", "?"), "result",
			 or_null(m, "result"), "why", or_null(m, "why"),
			 "target", or_null(m, "target"), "observed_addr",
			 or_null(m, "observed_addr"));
}

/* True when a member took part to the end: joined, its document in. */
static bool member_ok(const json_t *m)
{
	return strcmp(rj_strd(m, "state", ""), "joined") == 0 &&
	       strcmp(rj_strd(m, "result", ""), "received") == 0;
}

/* One line on the whole mesh, for every format. */
static json_t *summary(const json_t *mesh, long long docs, long long probes,
		       long long answered)
{
	const json_t *plan = json_object_get(mesh, "plan");
	long long joined = rj_int(mesh, "joined", 0);
	long long pairs = rj_int(plan, "all_pairs", 0);
	char buf[512], how[128];

	if (joined <= pairs)
		snprintf(how, sizeof(how), "every pair probed (up to %lld "
			 "nodes)", pairs);
	else
		snprintf(how, sizeof(how), "each node probed log2(n) others "
			 "(above %lld nodes)", pairs);
	snprintf(buf, sizeof(buf),
		 "%lld nodes from %s; %lld joined, %lld documents; %s, %lld "
		 "at once; %lld probes, %lld answered; %.1f s",
		 rj_int(mesh, "size", 0), rj_strd(mesh, "source", "?"), joined,
		 docs, how, rj_int(plan, "concurrency", 0), probes, answered,
		 (double)rj_int(mesh, "elapsed_ms", 0) / 1e3);
	return json_string(buf);
}

json_t *rd_mesh(const struct rctx *c)
{
	const json_t *d = rd_mesh_doc(c), *mesh, *m;
	json_t *members, *problems, *out;
	long long probes = 0, answered = 0, docs = 0;
	size_t i, j;
	json_t *p;

	if (d == NULL)
		return json_null();
	mesh = json_object_get(d, "mesh");
	members = json_array();
	problems = json_array();
	if (members == NULL || problems == NULL) {
		json_decref(members);
		json_decref(problems);
		return NULL;
	}
	json_array_foreach(rj_arr(mesh, "members"), i, m) {
		json_array_append_new(members, member(m));
		if (!member_ok(m))
			json_array_append_new(problems, member(m));
		docs += strcmp(rj_strd(m, "result", ""), "received") == 0;
	}
	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *s = c->set->in[k].doc;

		if (!json_is_object(json_object_get(s, "mesh")) ||
		    strcmp(rj_strd(s, "command", ""), "scan") != 0)
			continue;
		json_array_foreach(rj_arr(s, "peers"), j, p) {
			probes++;
			answered +=
				json_is_true(json_object_get(p, "responded"));
		}
	}
	out = json_pack("{s:I, s:I, s:I, s:s, s:s, s:s, s:I, s:o, s:I, s:I, "
			"s:I, s:o, s:o, s:o, s:o*}",
			"size", (json_int_t)rj_int(mesh, "size", 0), "joined",
			(json_int_t)rj_int(mesh, "joined", 0), "documents",
			(json_int_t)docs, "source",
			rj_strd(mesh, "source", "?"), "variables",
			rj_strd(mesh, "variables", ""), "node0",
			rj_strd(d, "host", "?"), "port",
			(json_int_t)rj_int(mesh, "port", 0), "plan",
			or_null(mesh, "plan"),
			"elapsed_ms", (json_int_t)rj_int(mesh, "elapsed_ms", 0),
			"probes", (json_int_t)probes, "answered",
			(json_int_t)answered, "members", members, "problems",
			problems, "summary",
			summary(mesh, docs, probes, answered), "watch",
			json_is_object(json_object_get(mesh, "watch"))
				? json_incref(json_object_get(mesh, "watch"))
				: NULL);
	return out;
}
