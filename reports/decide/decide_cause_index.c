/* netprobe report, decide: the causes' store (decide_causes.c). Owns
 * making a cause (cause_new) and finding one: by kind and node, by pair,
 * the first MTU cause on a node, scanned or through the index that lets a
 * decider ask many times without a scan per finding (causes_index). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "decide_causes.h"
#include "report_decide.h"

/* The cause of kind on node in causes, or NULL. */
json_t *cause_of(const json_t *causes, const char *kind,
		 const char *node)
{
	size_t i;
	json_t *k;

	json_array_foreach(causes, i, k)
		if (strcmp(rj_str(k, "kind"), kind) == 0 &&
		    strcmp(rj_str(k, "node"), node) == 0)
			return k;
	return NULL;
}

/* The pair label of a and b in name order, as decide_blame.c writes an
 * undecided cause's node: "a<->b". */
static void label_of(const char *a, const char *b, char *buf, size_t len)
{
	if (strcmp(a, b) > 0)
		snprintf(buf, len, "%s<->%s", b, a);
	else
		snprintf(buf, len, "%s<->%s", a, b);
}

/* key = "k" KIND "\n" NODE, the index's key of a cause of kind on node.
 * False when it does not fit in len. */
static bool kind_key(char *key, size_t len, const char *kind, const char *node)
{
	size_t lk = strlen(kind), ln = strlen(node);

	if (lk + ln + 3 > len)
		return false;
	key[0] = 'k';
	memcpy(key + 1, kind, lk);
	key[1 + lk] = '\n';
	memcpy(key + 2 + lk, node, ln + 1);
	return true;
}

/* Appends cause k to ix's array under key, made when missing; -1 when
 * out of memory. */
static int add_to(json_t *ix, const char *key, json_t *k)
{
	json_t *arr = json_object_get(ix, key);

	if (arr == NULL &&
	    (json_object_set_new_nocheck(ix, key, arr = json_array()) < 0 ||
	     arr == NULL))
		return -1;
	return json_array_append(arr, k);
}

/* ix[TAG NAME] = pos, the position in causes of the first MTU cause
 * whose node (tag "n") or peer (tag "q") is name; -1 when out of
 * memory. */
static int first_at(json_t *ix, const char *tag, const char *name, size_t pos)
{
	char key[600];

	if (snprintf(key, sizeof(key), "%s%s", tag, name) >= (int)sizeof(key))
		return -1;
	if (json_object_get(ix, key) != NULL)
		return 0;
	return json_object_set_new_nocheck(ix, key, json_integer((json_int_t)pos));
}

/* The position first_at filed under TAG NAME, or SIZE_MAX. */
static size_t pos_at(const json_t *ix, const char *tag, const char *name)
{
	char key[600];
	const json_t *p;

	if (name == NULL ||
	    snprintf(key, sizeof(key), "%s%s", tag, name) >= (int)sizeof(key))
		return SIZE_MAX;
	p = json_object_get(ix, key);
	return p != NULL ? (size_t)json_integer_value(p) : SIZE_MAX;
}

/* The first MTU cause on node or sub, or whose peer is node: what
 * cause_owner_ix's scan finds, from the positions the index keeps. */
json_t *cause_mtu_in(const json_t *ix, const json_t *causes,
		     const char *node, const char *sub)
{
	size_t a = pos_at(ix, "n", node), b = pos_at(ix, "n", sub);
	size_t p = pos_at(ix, "q", node), m = a < b ? a : b;

	m = p < m ? p : m;
	return m != SIZE_MAX ? json_array_get(causes, m) : NULL;
}

/* An index of causes for a decider that asks many times while no cause
 * is added, removed or moved, and none changes its kind, node or peer
 * (assign, rd_own_errors): "k" KIND "\n" NODE -> the first such cause (as
 * cause_of finds it); "p" LABEL -> the route and undecided causes of that
 * pair, in order (what rd_pair_cause looks among); "h" -> the hop causes;
 * "n" NODE and "q" PEER -> the position of the first MTU cause on that
 * node or toward that peer. 1,024 mesh members
 * have thousands of causes and findings: a scan per finding was their
 * product. NULL on no memory (the callers then scan). */
json_t *causes_index(const json_t *causes)
{
	json_t *ix = json_object(), *k;
	char key[700];
	size_t i;

	json_array_foreach(causes, i, k) {
		const char *kind = rj_str(k, "kind"), *node = rj_str(k, "node");

		if (ix == NULL)
			break;
		if (kind == NULL || node == NULL ||
		    !kind_key(key, sizeof(key), kind, node)) {
			json_decref(ix); /* a key it cannot hold: scan */
			return NULL;
		}
		if (json_object_get(ix, key) == NULL &&
		    json_object_set_nocheck(ix, key, k) < 0)
			goto fail;
		if (strcmp(kind, "hop") == 0 &&
		    add_to(ix, "h", k) < 0)
			goto fail;
		if (strcmp(kind, "mtu") == 0 &&
		    (first_at(ix, "n", node, i) < 0 ||
		     first_at(ix, "q", rj_strd(k, "peer", ""), i) < 0))
			goto fail;
		if (strcmp(kind, "route") == 0)
			label_of(node, rj_strd(k, "peer", ""), key + 1,
				 sizeof(key) - 1);
		else if (strcmp(kind, "undecided") == 0)
			snprintf(key + 1, sizeof(key) - 1, "%s", node);
		else
			continue;
		key[0] = 'p';
		if (add_to(ix, key, k) < 0)
			goto fail;
	}
	return ix;
fail:
	json_decref(ix);
	return NULL;
}

/* cause_of, through ix when there is one. */
json_t *cause_in(const json_t *ix, const json_t *causes,
		 const char *kind, const char *node)
{
	char key[700];

	if (ix == NULL || !kind_key(key, sizeof(key), kind, node))
		return cause_of(causes, kind, node);
	return json_object_get(ix, key);
}

/* rd_pair_cause, among the causes ix files under the pair when there is
 * an ix: the same first one. */
json_t *cause_pair_in(const json_t *ix, const json_t *causes,
		      const char *a, const char *b)
{
	char key[700];

	if (ix == NULL || a == NULL || b == NULL)
		return rd_pair_cause(causes, a, b);
	/* rd_pair_cause's own label holds 299 characters: a longer one
	 * is its way */
	if (strlen(a) + strlen(b) + 4 >= 300)
		return rd_pair_cause(causes, a, b);
	key[0] = 'p';
	label_of(a, b, key + 1, sizeof(key) - 1);
	return rd_pair_cause(json_object_get(ix, key), a, b);
}

/* A new cause; its fix's commands by dialect ("shell", or one key per
 * firewall), taken. */
json_t *cause_new(json_t *causes, const char *kind, const char *node,
		  const char *summary, const char *fix, json_t *cmds)
{
	char id[300];
	json_t *k;

	snprintf(id, sizeof(id), "%s:%s", kind, node);
	k = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:s, s:s, s:o}, s:[], "
		      "s:[]}",
		      "id", id, "kind", kind, "node", node, "severity",
		      "warning", "summary", summary, "fix", "node", node,
		      "text", fix, "commands",
		      cmds != NULL ? cmds : json_object(), "evidence",
		      "findings");
	json_array_append_new(causes, k);
	return k;
}
