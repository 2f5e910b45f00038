/* netprobe report, decide: the NCCL section. One entry per ncclcheck run:
 * its ranks and transports, one bandwidth series per collective (by
 * message size, out-of-place results where there are both) with its peak,
 * and the run's gate. */
#include <string.h>

#include "report_decide.h"

/* Orders points by message size. */
static int cmp_point(const void *a, const void *b)
{
	double x = rj_num(*(json_t *const *)a, "bytes", 0);
	double y = rj_num(*(json_t *const *)b, "bytes", 0);

	return (x > y) - (x < y);
}

/* The value at key, or JSON null: a point keeps every field, present or
 * not, so readers see one shape. */
static json_t *field(const json_t *r, const char *key)
{
	json_t *v = json_object_get(r, key);

	return v != NULL ? v : json_null();
}

/* The points of the series named name in out, created when missing. */
static json_t *series_points(json_t *out, const char *name)
{
	json_t *s, *pts;
	size_t j;

	json_array_foreach(out, j, s)
		if (strcmp(rj_str(s, "name"), name) == 0)
			return json_object_get(s, "points");
	pts = json_array();
	json_array_append_new(
		out, json_pack("{s:s, s:o}", "name", name, "points", pts));
	return pts;
}

/* Adds result r to its series: an out-of-place result replaces an
 * in-place one of the same size, never the other way round. */
static void add_result(json_t *out, const json_t *r)
{
	json_t *pts = series_points(out, rj_strd(r, "collective", "?")), *p;
	bool inpl = json_is_true(json_object_get(r, "in_place"));
	size_t j;

	json_array_foreach(pts, j, p) {
		if (rj_num(p, "bytes", -1) != rj_num(r, "bytes", -2))
			continue;
		if (inpl || !json_is_true(json_object_get(p, "in_place")))
			return; /* keep what is there */
		json_array_remove(pts, j);
		break;
	}
	json_array_append_new(
		pts, json_pack("{s:O, s:O, s:O, s:O, s:b, s:O}", "bytes",
			       field(r, "bytes"), "busbw_gbps",
			       field(r, "busbw_gbps"), "algbw_gbps",
			       field(r, "algbw_gbps"), "time_us",
			       field(r, "time_us"), "in_place", inpl, "wrong",
			       field(r, "wrong")));
}

/* One series per collective: out-of-place results by size (in-place when
 * that is all there is), with the peak. NULL on no memory. */
static json_t *collectives(const json_t *d)
{
	json_t *out = json_array(), *r, *s;
	size_t i, j;

	json_array_foreach(rj_arr(d, "results"), i, r)
		add_result(out, r);
	json_array_foreach(out, i, s) {
		json_t *pts = json_object_get(s, "points");
		json_t *peak = json_object_get(json_object_get(d, "peak"),
					       rj_str(s, "name"));

		if (rj_sort(pts, cmp_point) < 0) {
			json_decref(out);
			return NULL;
		}
		json_object_set(s, "peak", peak ? peak : json_null());
		json_array_foreach(pts, j, r)
			json_object_del(r, "in_place");
	}
	return out;
}

/* A new reference to the array at key, or a new empty array. */
static json_t *array_copy(const json_t *d, const char *key)
{
	json_t *a = rj_arr(d, key);

	return a != NULL ? json_incref(a) : json_array();
}

/* The object at key, or NULL so that the key is left out (borrowed). */
static json_t *or_null(const json_t *d, const char *key)
{
	json_t *v = json_object_get(d, key);

	return json_is_object(v) ? v : NULL;
}

json_t *rd_nccl(const struct rctx *c)
{
	json_t *out = json_array();

	if (out == NULL)
		return NULL;
	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;
		json_t *g = json_object_get(d, "gate");

		if (strcmp(rj_str(d, "tool"), "ncclcheck") != 0)
			continue;
		if (json_array_append_new(
			    out,
			    json_pack("{s:s, s:s?, s:s, s:o, s:o, s:o, s:O, "
				      "s:O*, s:O*}",
				      "host", rj_str(d, "host"), "started",
				      rj_str(d, "started"), "file",
				      c->set->in[k].path, "ranks",
				      array_copy(d, "ranks"), "transports",
				      array_copy(d, "transports"),
				      "collectives", collectives(d), "gate",
				      json_is_object(g) ? g : json_null(),
				      "hardware", or_null(d, "hardware"),
				      "pairs", or_null(d, "pairs"))) <
		    0) {
			json_decref(out);
			return NULL;
		}
	}
	return out;
}
