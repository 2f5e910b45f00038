/* netprobe report, decide: the checks a CI system sees (JUnit cases) and
 * the verdict. One check per node per finding class its commands examine
 * (a check that ran and found nothing passes; one that did not run is not
 * reported), one per ncclcheck gate check, one for the cluster
 * recommendation and one per input that could not be read. */
#include <stdlib.h>
#include <string.h>

#include "report_decide.h"

/* The classes a command examines: a check that ran and found nothing
 * passes, one that did not run is not reported. */
static const char *const *command_classes(const char *tool, const char *cmd)
{
	static const char *const scan[] = {"interfaces", "nccl-env", "hostname",
					   "layers", NULL};
	static const char *const ifaces[] = {"interfaces", "nccl-env", NULL};
	static const char *const layers[] = {"layers", NULL};
	static const char *const ports[] = {"ports", NULL};
	static const char *const hb[] = {"heartbeat", NULL};
	static const char *const path[] = {"mtu", NULL};
	static const char *const nccl[] = {"nccl", NULL};
	static const char *const none[] = {NULL};

	if (tool != NULL && strcmp(tool, "ncclcheck") == 0)
		return nccl;
	if (cmd == NULL)
		return none;
	if (strcmp(cmd, "scan") == 0)
		return scan;
	if (strcmp(cmd, "ifaces") == 0)
		return ifaces;
	if (strcmp(cmd, "layers") == 0)
		return layers;
	if (strcmp(cmd, "ports") == 0 || strcmp(cmd, "capture") == 0)
		return ports;
	if (strcmp(cmd, "heartbeat") == 0)
		return hb;
	if (strcmp(cmd, "path") == 0)
		return path;
	return none;
}

/* Order of check classes within a suite. */
static int class_rank(const char *name)
{
	static const char *const order[] = {
		"interfaces", "nccl-env",  "hostname", "layers", "ports",
		"mtu",        "heartbeat", "nccl",     "other"};

	for (int i = 0; i < 9; i++)
		if (strcmp(order[i], name) == 0)
			return i;
	return 9;
}

/* Suites: nodes by name, then ncclcheck runs, the cluster, the inputs. */
static int suite_rank(const char *suite)
{
	if (strncmp(suite, "netprobe.", 9) == 0)
		return 0;
	if (strncmp(suite, "ncclcheck.", 10) == 0)
		return 1;
	if (strcmp(suite, "cluster") == 0)
		return 2;
	return 3;
}

/* Orders checks by suite, then class (node checks) or name. */
static int cmp_check(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	const char *sx = rj_str(x, "suite"), *sy = rj_str(y, "suite");
	int d = suite_rank(sx) - suite_rank(sy);

	if (d == 0)
		d = strcmp(sx, sy);
	if (d == 0 && suite_rank(sx) == 0)
		d = class_rank(rj_str(x, "name")) -
		    class_rank(rj_str(y, "name"));
	if (d == 0)
		d = strcmp(rj_str(x, "name"), rj_str(y, "name"));
	return d;
}

/* Joins the finding texts of one check into its failure message. */
static void append_text(char *buf, size_t len, const json_t *f)
{
	size_t l = strlen(buf), i;
	json_t *e;

	snprintf(buf + l, len - l, "%s%s on %s (%s): %s\nfix: %s\n",
		 l ? "\n" : "", rj_str(f, "code"), rj_str(f, "node"),
		 rj_str(f, "severity"), rj_str(f, "summary"), rj_str(f, "fix"));
	json_array_foreach(rj_arr(f, "evidence"), i, e) {
		l = strlen(buf);
		snprintf(buf + l, len - l, "evidence: %s (%s)\n",
			 rj_strd(e, "fact", ""), rj_strd(e, "source", ""));
	}
}

/* Adds (or finds) the check for node and class. */
static json_t *check_get(json_t *checks, json_t *ix, const char *suite,
			 const char *name)
{
	/* ix: "LEN:SUITE" NAME -> the check, kept beside checks (a hash,
	 * not a scan: 1,024 nodes have thousands of checks) */
	size_t len = strlen(suite) + strlen(name) + 24;
	char *key = ix != NULL ? malloc(len) : NULL;
	json_t *k;

	if (key != NULL) {
		snprintf(key, len, "%zu:%s%s", strlen(suite), suite, name);
		k = json_object_get(ix, key);
	} else /* no memory for the hash: the scan */
		k = rj_find2(checks, "suite", suite, "name", name);
	if (k == NULL) {
		k = json_pack("{s:s, s:s, s:s, s:s}", "suite", suite, "name",
			      name, "status", "pass", "text", "");
		if (k != NULL && key != NULL)
			json_object_set_nocheck(ix, key, k);
		json_array_append_new(checks, k);
	}
	free(key);
	return k;
}

/* Sets a check's status and text. */
static void check_set(json_t *k, const char *status, const char *text)
{
	json_object_set_new(k, "status", json_string(status));
	json_object_set_new(k, "text", json_string(text));
}

/* The checks of each node: every class its commands examine, and the
 * findings (the worst severity of a class is its status). */
static void node_checks(const struct rctx *c, json_t *checks, json_t *ix)
{
	char suite[300], text[4096];
	size_t i;
	json_t *f, *k;

	for (size_t n = 0; n < c->set->nin; n++) {
		json_t *d = c->set->in[n].doc;
		const char *const *cl = command_classes(rj_str(d, "tool"),
							rj_str(d, "command"));

		snprintf(suite, sizeof(suite), "netprobe.%s",
			 rj_str(d, "host"));
		for (; *cl != NULL; cl++)
			check_get(checks, ix, suite, *cl);
	}
	json_array_foreach(c->findings, i, f) {
		const char *sev = rj_str(f, "severity");

		snprintf(suite, sizeof(suite), "netprobe.%s",
			 rj_str(f, "node"));
		k = check_get(checks, ix, suite, rj_str(f, "class"));
		snprintf(text, sizeof(text), "%s", rj_str(k, "text"));
		append_text(text, sizeof(text), f);
		check_set(k,
			  rj_sev(sev) > rj_sev(rj_str(k, "status"))
				  ? sev
				  : rj_str(k, "status"),
			  text);
	}
}

/* One check per gate check of each ncclcheck run. */
static void gate_checks(const json_t *nccl, json_t *checks, json_t *ix)
{
	char suite[300];
	size_t i, j;
	json_t *run, *gc;

	json_array_foreach(nccl, i, run) {
		json_t *g = json_object_get(run, "gate");

		snprintf(suite, sizeof(suite), "ncclcheck.%s",
			 rj_str(run, "host"));
		json_array_foreach(rj_arr(g, "checks"), j, gc)
			check_set(check_get(checks, ix, suite,
					    rj_strd(gc, "name", "check")),
				  json_is_true(json_object_get(gc, "passed"))
					  ? "pass"
					  : "fault",
				  rj_strd(gc, "detail", ""));
	}
}

/* The cluster recommendation: a fault when a node blocks it, a warning
 * when evidence conflicts. */
static void cluster_check(const json_t *rec, json_t *checks,
			  json_t *ix)
{
	size_t nb = json_array_size(rj_arr(rec, "blocked"));
	size_t nc = json_array_size(rj_arr(rec, "conflicts"));
	char text[2048] = "";
	size_t i, l;
	json_t *f;

	json_array_foreach(rj_arr(rec, "blocked"), i, f) {
		l = strlen(text);
		snprintf(text + l, sizeof(text) - l,
			 "%s blocks the cluster choice: %s\n",
			 rj_str(f, "node"), rj_str(f, "why"));
	}
	json_array_foreach(rj_arr(rec, "conflicts"), i, f) {
		l = strlen(text);
		snprintf(text + l, sizeof(text) - l,
			 "conflicting evidence: %s\n", rj_str(f, "subject"));
	}
	check_set(check_get(checks, ix, "cluster", "recommendation"),
		  nb   ? "fault"
		  : nc ? "warning"
		       : "pass",
		  text);
}

json_t *rd_checks(const struct rctx *c, const json_t *rec, const json_t *nccl)
{
	json_t *checks = json_array(), *ix = json_object();

	if (checks == NULL) {
		json_decref(ix);
		return NULL;
	}
	node_checks(c, checks, ix);
	gate_checks(nccl, checks, ix);
	cluster_check(rec, checks, ix);
	for (size_t i = 0; i < c->set->nskip; i++) {
		const struct report_skip *sk = &c->set->skip[i];
		char text[512];

		if (sk->line > 0)
			snprintf(text, sizeof(text), "%s:%d:%d: %s", sk->path,
				 sk->line, sk->column, sk->why);
		else
			snprintf(text, sizeof(text), "%s: %s", sk->path,
				 sk->why);
		check_set(check_get(checks, ix, "inputs", sk->path), "error",
			  text);
	}
	json_decref(ix);
	if (rj_sort(checks, cmp_check) < 0) {
		json_decref(checks);
		return NULL;
	}
	return checks;
}

const char *rd_verdict(const struct rctx *c, const json_t *rec,
		       const json_t *nccl, int *nf, int *nw)
{
	int worst = 0;
	size_t i;
	json_t *f;

	*nf = *nw = 0;
	json_array_foreach(c->findings, i, f) {
		int s = rj_sev(rj_str(f, "severity"));

		*nf += s == 2;
		*nw += s == 1;
		if (s > worst)
			worst = s;
	}
	json_array_foreach(nccl, i, f)
		if (json_is_false(json_object_get(json_object_get(f, "gate"),
						  "passed")))
			worst = 2;
	if (json_array_size(rj_arr(rec, "blocked")) > 0)
		worst = 2;
	if ((json_array_size(rj_arr(rec, "conflicts")) > 0 ||
	     c->set->nskip > 0) &&
	    worst < 1)
		worst = 1;
	return worst == 2 ? "fault" : worst == 1 ? "warning" : "pass";
}
