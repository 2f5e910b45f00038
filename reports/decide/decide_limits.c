/* netprobe report, decide: host limits as root causes (issue 48). A rate
 * limit or a short accept queue on a node drops some of the SYNs peers
 * send it, and a narrow port range fails a node's own connects: each is
 * shown by that node's own scan, so the pairs that fail through it are
 * its symptoms, not a firewall's and not undecided. */
#include <string.h>

#include "decide_limits.h"
#include "doc/finding.h"

/* The limits that fall on connections a node receives. */
static const char *const listener_codes[] = {"conn-rate-limit",
                                             "somaxconn-low", NULL};
/* Every limit finding. */
static const char *const limit_codes[] = {"conn-rate-limit", "somaxconn-low",
                                          "port-range-narrow", NULL};

/* True when code is one of codes. */
static bool is_one_of(const char *code, const char *const *codes)
{
	for (size_t i = 0; codes[i] != NULL; i++)
		if (strcmp(code, codes[i]) == 0)
			return true;
	return false;
}

/* The setting cause on node, or NULL. */
static json_t *setting_of(const json_t *causes, const char *node)
{
	size_t i;
	json_t *k;

	json_array_foreach(causes, i, k)
		if (strcmp(rj_strd(k, "kind", ""), "setting") == 0 &&
		    strcmp(rj_strd(k, "node", ""), node) == 0)
			return k;
	return NULL;
}

void rd_limit_causes(const struct rctx *c, json_t *causes)
{
	size_t i;
	json_t *f, *k, *sh;

	json_array_foreach(c->findings, i, f) {
		const char *node = rj_str(f, "node"), *cmd = rj_str(f, "command");
		char id[300];

		if (cmd == NULL || node == NULL ||
		    !is_one_of(rj_strd(f, "code", ""), limit_codes) ||
		    rj_sev(rj_str(f, "severity")) == 0)
			continue;
		if ((k = setting_of(causes, node)) != NULL) {
			/* a second limit on the node: its command joins */
			sh = json_object_get(
			    json_object_get(json_object_get(k, "fix"),
			                    "commands"),
			    "shell");
			rj_add_unique(sh, cmd);
			continue;
		}
		/* the shape of cause_new's causes (decide_cause_index.c) */
		snprintf(id, sizeof(id), "setting:%s", node);
		k = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:s, s:s, s:{s:[s]}}, "
		              "s:[], s:[]}",
		              "id", id, "kind", "setting", "node", node,
		              "severity", "warning", "summary",
		              rj_strd(f, "summary", ""), "fix", "node", node,
		              "text", rj_strd(f, "fix", ""), "commands", "shell",
		              cmd, "evidence", "findings");
		if (k != NULL)
			json_array_append_new(causes, k);
	}
}

/* True when node's scan shows a limit rule that rejects what exceeds
 * it (decide_hostlim.c's summary ends with the rule, its verdict last):
 * a reset from that node can be the limit's. */
static bool rejects(const struct rctx *c, const char *node)
{
	size_t i;
	json_t *f;

	json_array_foreach(c->findings, i, f)
		if (finding_is(rj_strd(f, "code", ""), FINDING_CONN_RATE_LIMIT) &&
		    strcmp(rj_strd(f, "node", ""), node) == 0 &&
		    strstr(rj_strd(f, "summary", ""), " reject)") != NULL)
			return true;
	return false;
}

/* A connection between two nodes that failed: what a limit can do. A
 * reset counts only toward a node whose limit rule rejects, never where
 * nothing listens. */
static bool pair_symptom(const struct rctx *c, const json_t *f,
                         const char *peer)
{
	const char *code = rj_strd(f, "code", "");

	return finding_in_cause(code, CAUSE_FIREWALL) ||
	       finding_is(code, FINDING_HOST_UNREACHABLE) ||
	       finding_is(code, FINDING_RANK_UNREACHABLE) ||
	       finding_is(code, FINDING_PORT_FILTERED) ||
	       (finding_is(code, FINDING_PORT_CLOSED) && peer != NULL &&
	        rejects(c, peer));
}

json_t *rd_limit_owner(const struct rctx *c, const json_t *causes,
                       const json_t *f)
{
	const char *node = rj_str(f, "node"), *peer;

	if (node == NULL)
		return NULL;
	peer = rd_pair_of(c, f);
	if (!pair_symptom(c, f, peer))
		return NULL;
	/* the end that receives the connections first: a prober's
	 * finding names the peer it connected to */
	if (peer != NULL && rd_node_has(c, peer, listener_codes))
		return setting_of(causes, peer);
	if (rd_node_has(c, node, limit_codes))
		return setting_of(causes, node);
	if (peer != NULL && rd_node_has(c, peer, limit_codes))
		return setting_of(causes, peer);
	return NULL;
}
