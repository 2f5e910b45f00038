/* netprobe report, decide: what every decider needs. Citations, a node's
 * latest scan, its findings, and one setting's shape. */
#include <arpa/inet.h>
#include <ctype.h>
#include <string.h>

#include "report_decide.h"

json_t *rd_cite(const char *node, const char *code)
{
	return json_pack("{s:s?, s:s}", "node", node, "code", code);
}

void rd_cite_add(json_t *cites, const char *node, const char *code)
{
	size_t i;
	json_t *v;

	json_array_foreach(cites, i, v) {
		const char *n = rj_str(v, "node");

		if (strcmp(rj_strd(v, "code", ""), code) == 0 &&
		    ((n == NULL && node == NULL) ||
		     (n != NULL && node != NULL && strcmp(n, node) == 0)))
			return;
	}
	json_array_append_new(cites, rd_cite(node, code));
}

void rd_cite_findings(const struct rctx *c, json_t *cites, const char *node,
		      const char *cls, int min)
{
	size_t i;
	json_t *f;

	json_array_foreach(rx_node_findings(c, node), i, f)
		if (strcmp(rj_str(f, "node"), node) == 0 &&
		    rj_sev(rj_str(f, "severity")) >= min &&
		    (cls == NULL || strcmp(rj_str(f, "class"), cls) == 0))
			rd_cite_add(cites, node, rj_str(f, "code"));
}

const struct report_input *rd_node_scan(const struct rctx *c, const char *node)
{
	const struct report_input *best = NULL;
	size_t i;
	json_t *kv;

	/* the inputs node wrote, in input order (merge_index.c) */
	json_array_foreach(rx_host_inputs(c, node), i, kv) {
		size_t k = (size_t)json_integer_value(kv);
		const json_t *d = c->set->in[k].doc;

		if (strcmp(rj_str(d, "host"), node) != 0 ||
		    strcmp(rj_strd(d, "command", ""), "scan") != 0 ||
		    !json_is_object(json_object_get(d, "recommendation")))
			continue;
		if (best == NULL ||
		    strcmp(rj_strd(d, "started", ""),
			   rj_strd(best->doc, "started", "")) >= 0)
			best = &c->set->in[k];
	}
	return best;
}

bool rd_node_has(const struct rctx *c, const char *node,
		 const char *const *codes)
{
	size_t i;
	json_t *f;

	json_array_foreach(rx_node_findings(c, node), i, f) {
		if (strcmp(rj_str(f, "node"), node) != 0)
			continue;
		for (const char *const *p = codes; *p != NULL; p++)
			if (strcmp(rj_str(f, "code"), *p) == 0)
				return true;
	}
	return false;
}

bool rd_fix_is_setting(const json_t *f)
{
	const char *fix = rj_strd(f, "fix", "");
	size_t n = strspn(fix, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

	return n > 0 && fix[n] == '=' && fix[0] >= 'A' && fix[0] <= 'Z';
}

bool rd_node_is_nat(const struct rctx *c, const char *node)
{
	size_t i;
	json_t *f;

	json_array_foreach(rx_node_findings(c, node), i, f)
		if (strcmp(rj_str(f, "node"), node) == 0 &&
		    rf_is_nat(rj_str(f, "code")) &&
		    !json_is_true(json_object_get(f, "contradicted")))
			return true;
	return false;
}

json_t *rd_finding(enum finding_code id, const char *node, enum severity sev,
                   const char *summary, const char *fix, json_t *evidence)
{
	const struct finding_def *def = finding_get(id);

	if (evidence == NULL)
		evidence = json_array();
	if (def == NULL) {
		json_decref(evidence);
		return NULL;
	}
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:[], s:s}",
	                 "node", node, "code", def->code, "severity",
	                 severity_name(sev), "summary", summary, "title",
	                 def->title, "fix", fix, "evidence", evidence,
	                 "sources", "class", def->cls);
}

void rd_add_setting(json_t *settings, const char *name, const char *val,
		    const char *node, const char *why, json_t *cites)
{
	json_array_append_new(
		settings, json_pack("{s:s, s:s?, s:s, s:s?, s:s, s:o, s:b}",
				    "name", name, "value", val, "scope",
				    node ? "node" : "cluster", "node", node,
				    "why", why, "cites", cites, "disputed", 0));
}

/* True when a lies in net/len, IPv4 or IPv6 text of one family (the
 * family is net's; an address of the other family is never in it). */
bool rd_in_net(const char *a, const char *net, long len)
{
	unsigned char x[16], y[16];
	int fam = strchr(net, ':') != NULL ? AF_INET6 : AF_INET;
	long bits = fam == AF_INET6 ? 128 : 32;

	if (inet_pton(fam, a, x) != 1 || inet_pton(fam, net, y) != 1 ||
	    len < 1 || len > bits)
		return false;
	for (long b = 0; b < len; b++)
		if (((x[b / 8] ^ y[b / 8]) >> (7 - b % 8)) & 1)
			return false;
	return true;
}

/* True when doc d's peers entry toward an address that node to holds
 * did not answer: the one test the deciders of a pair (neighbours,
 * untracked rules, VXLAN devices) ask of each side. */
bool rd_failed_toward(const struct rctx *c, const json_t *d, const char *to)
{
	size_t i;
	json_t *p;

	json_array_foreach(rj_arr(d, "peers"), i, p) {
		const char *pa = rj_strd(p, "peer_addr", "");
		const char *who = rn_resolve(c, pa, pa);

		if (who != NULL && strcmp(who, to) == 0 &&
		    !json_is_true(json_object_get(p, "responded")))
			return true;
	}
	return false;
}

/* True when the interface object x has the flag (IFF_* by name, as the
 * scan writes "flags"). */
bool rd_has_flag(const json_t *x, const char *flag)
{
	size_t i;
	json_t *v;

	json_array_foreach(rj_arr(x, "flags"), i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), flag) == 0)
			return true;
	return false;
}

/* True when s is one word safe unquoted in a shell line and inside
 * single quotes: letters, digits, '.', '-', '_' and the characters of
 * extra (':' for addresses and MACs, '@' for interface names). The
 * deciders print a fix command only from such words. */
bool rd_shell_word(const char *s, const char *extra)
{
	if (s == NULL || *s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && strchr(".-_", *s) == NULL &&
		    strchr(extra, *s) == NULL)
			return false;
	return true;
}
