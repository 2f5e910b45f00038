/* netprobe report, merge: the lookups the deciders make over and over,
 * indexed once per report. A decider that asked "the findings of node N"
 * or "the scan of node N" scanned every finding or every document, once
 * per pair it looked at: at 1,024 mesh members that grew faster than the
 * square of the members (bench/mesh/RESULTS.md). Each list keeps the order
 * of the array it indexes, so a decider that takes the first match takes
 * the same one as its scan did. */
#include <string.h>

#include "doc/finding.h"
#include "report_merge.h"

/* Appends v (a reference taken) to the array under key in obj, made on
 * first use. Returns 0 or -1 on no memory. */
static int add_to(json_t *obj, const char *key, json_t *v)
{
	json_t *arr = json_object_get(obj, key);

	if (arr == NULL) {
		arr = json_array();
		if (arr == NULL || json_object_set_new(obj, key, arr) < 0)
			return -1;
	}
	return json_array_append(arr, v);
}

void rx_free(struct rctx *c)
{
	json_decref(c->by_node);
	json_decref(c->by_code);
	json_decref(c->by_host);
	json_decref(c->by_path);
	json_decref(c->lossy);
	c->by_node = c->by_code = c->by_host = c->by_path = c->lossy = NULL;
}

int rx_inputs(struct rctx *c)
{
	json_decref(c->by_host);
	json_decref(c->by_path);
	c->by_host = json_object();
	c->by_path = json_object();
	if (c->by_host == NULL || c->by_path == NULL)
		return -1;
	for (size_t k = 0; k < c->set->nin; k++) {
		const char *h = rj_str(c->set->in[k].doc, "host");
		const char *p = c->set->in[k].path;
		json_t *kv = json_integer((json_int_t)k);
		int rc = kv == NULL ? -1 : 0;

		if (rc == 0 && h != NULL)
			rc = add_to(c->by_host, h, kv);
		if (rc == 0 && p != NULL)
			rc = add_to(c->by_path, p, kv);
		json_decref(kv);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int rx_findings(struct rctx *c)
{
	size_t i;
	json_t *f;

	json_decref(c->by_node);
	json_decref(c->by_code);
	c->by_node = json_object();
	c->by_code = json_object();
	if (c->by_node == NULL || c->by_code == NULL)
		return -1;
	json_array_foreach(c->findings, i, f) {
		const char *n = rj_str(f, "node"), *code = rj_str(f, "code");

		if ((n != NULL && add_to(c->by_node, n, f) < 0) ||
		    (code != NULL && add_to(c->by_code, code, f) < 0))
			return -1;
	}
	return 0;
}

const json_t *rx_node_findings(const struct rctx *c, const char *node)
{
	if (c->by_node == NULL)
		return c->findings;
	return node != NULL ? json_object_get(c->by_node, node) : NULL;
}

const json_t *rx_code_findings(const struct rctx *c, enum finding_code code)
{
	if (c->by_code == NULL)
		return c->findings;
	return json_object_get(c->by_code, finding_name(code));
}

const json_t *rx_host_inputs(const struct rctx *c, const char *host)
{
	return c->by_host != NULL && host != NULL
		       ? json_object_get(c->by_host, host)
		       : NULL;
}

const json_t *rx_path_inputs(const struct rctx *c, const char *path)
{
	return c->by_path != NULL && path != NULL
		       ? json_object_get(c->by_path, path)
		       : NULL;
}
