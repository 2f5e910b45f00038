/* The nftables rules that limit connections (limit rate, meters and
 * dynamic sets with a limit, ct count) in the chains inbound traffic
 * meets: kernel/fwrules.c leaves them out, as opening a port is not what
 * they are about; a rate limit drops some SYNs and passes others. */
#include "kernel/hostlim.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/fwrules.h"

#define HL_CHAINS 256
#define HL_JUMP_PASSES 8 /* jump depth followed; nft allows 16 */

struct hchain {
	const char *family, *table, *name;
	bool reached;
};

/* Copies src into a fixed field. */
static void set_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src != NULL ? src : "");
}

/* One port or range ("right" of a dport match) into r. */
static bool add_port(const json_t *v, struct hl_rule *r)
{
	const json_t *rg = json_object_get(v, "range");

	if (r->nranges >= HL_RANGES)
		return false;
	if (json_is_integer(v)) {
		r->lo[r->nranges] = r->hi[r->nranges] =
		    (unsigned)json_integer_value(v);
	} else if (json_is_array(rg) && json_array_size(rg) == 2 &&
	           json_is_integer(json_array_get(rg, 0)) &&
	           json_is_integer(json_array_get(rg, 1))) {
		r->lo[r->nranges] =
		    (unsigned)json_integer_value(json_array_get(rg, 0));
		r->hi[r->nranges] =
		    (unsigned)json_integer_value(json_array_get(rg, 1));
	} else {
		return false;
	}
	r->nranges++;
	return true;
}

/* The right side of a dport match: a port, a range or a set of them. */
static bool ports_of(const json_t *right, struct hl_rule *r)
{
	const json_t *set = json_object_get(right, "set");
	json_t *v;
	size_t i;

	if (!json_is_array(set))
		return add_port(right, r);
	json_array_foreach(set, i, v) if (!add_port(v, r)) return false;
	return true;
}

/* True when right is "new" or a set holding only "new" (or "syn"). */
static bool is_word(const json_t *right, const char *w)
{
	const json_t *set = json_object_get(right, "set");

	if (json_is_string(right))
		return strcmp(json_string_value(right), w) == 0;
	return json_is_array(set) && json_array_size(set) == 1 &&
	       json_is_string(json_array_get(set, 0)) &&
	       strcmp(json_string_value(json_array_get(set, 0)), w) == 0;
}

/* True for ICMP's protocol names. */
static bool is_icmp(const char *p)
{
	return strncmp(p, "icmp", 4) == 0 || strcmp(p, "ipv6-icmp") == 0;
}

/* True when set is an array of ICMP protocol names only. */
static bool all_icmp(const json_t *set)
{
	json_t *v;
	size_t i;

	if (!json_is_array(set) || json_array_size(set) == 0)
		return false;
	json_array_foreach(set, i, v) if (!json_is_string(v) ||
	                                  !is_icmp(json_string_value(v)))
		return false;
	return true;
}

/* One match into r; what it cannot read marks the rule `other` (the
 * decider then cannot tell what it limits). */
static void match_into(const json_t *m, struct hl_rule *r)
{
	const json_t *left = json_object_get(m, "left");
	const json_t *right = json_object_get(m, "right");
	const json_t *pl = json_object_get(left, "payload");
	const json_t *meta = json_object_get(left, "meta");
	const json_t *ct = json_object_get(left, "ct");
	const json_t *and = json_object_get(left, "&");
	const char *op = json_string_value(json_object_get(m, "op"));
	bool eq = op == NULL || strcmp(op, "==") == 0 || strcmp(op, "in") == 0;

	/* tcp flags & (fin|syn|rst|ack) == syn: iptables' --syn */
	if (pl == NULL && json_is_array(and)) {
		const json_t *fl = json_object_get(json_array_get(and, 0),
		                                   "payload");
		const char *fp = json_string_value(json_object_get(fl, "protocol"));
		const char *ff = json_string_value(json_object_get(fl, "field"));

		if (eq && fp != NULL && ff != NULL && strcmp(fp, "tcp") == 0 &&
		    strcmp(ff, "flags") == 0 && is_word(right, "syn")) {
			set_str(r->proto, sizeof(r->proto), "tcp");
			r->new_only = true;
			return;
		}
		r->other = true;
		return;
	}
	if (pl != NULL) {
		const char *proto =
		    json_string_value(json_object_get(pl, "protocol"));
		const char *field =
		    json_string_value(json_object_get(pl, "field"));

		if (proto == NULL || field == NULL) {
			r->other = true;
			return;
		}
		if (!strcmp(proto, "icmp") || !strcmp(proto, "icmpv6")) {
			set_str(r->proto, sizeof(r->proto), "icmp");
			return; /* only ICMP: no connection */
		}
		if ((!strcmp(proto, "ip") || !strcmp(proto, "ip6")) &&
		    !strcmp(field, "saddr"))
			return; /* some sources: still their connections */
		if (strcmp(proto, "tcp") && strcmp(proto, "udp")) {
			r->other = true;
			return;
		}
		set_str(r->proto, sizeof(r->proto), proto);
		if (eq && strcmp(field, "dport") == 0 && ports_of(right, r))
			return;
		if (eq && strcmp(field, "flags") == 0 && is_word(right, "syn")) {
			r->new_only = true;
			return;
		}
		r->other = true;
		return;
	}
	if (meta != NULL) {
		const char *key =
		    json_string_value(json_object_get(meta, "key"));

		if (key != NULL && strcmp(key, "iifname") == 0)
			return;
		if (key != NULL && eq && strcmp(key, "l4proto") == 0 &&
		    json_is_string(right)) {
			const char *p = json_string_value(right);

			set_str(r->proto, sizeof(r->proto),
			        is_icmp(p) ? "icmp" : p);
			return;
		}
		/* { icmp, ipv6-icmp }: ICMP all the same */
		if (key != NULL && eq && strcmp(key, "l4proto") == 0 &&
		    all_icmp(json_object_get(right, "set"))) {
			set_str(r->proto, sizeof(r->proto), "icmp");
			return;
		}
		r->other = true;
		return;
	}
	if (ct != NULL && eq &&
	    json_is_string(json_object_get(ct, "key")) &&
	    strcmp(json_string_value(json_object_get(ct, "key")), "state") ==
	        0 &&
	    is_word(right, "new")) {
		r->new_only = true;
		return;
	}
	r->other = true;
}

/* A limit or ct count statement into r; false when o is neither. */
static bool limit_into(const json_t *o, struct hl_rule *r)
{
	const json_t *lim = json_object_get(o, "limit");
	const json_t *cc = json_object_get(o, "ct count");

	if (json_is_object(lim)) {
		r->kind = HL_LIMIT;
		r->value = (unsigned long long)json_integer_value(
		    json_object_get(lim, "rate"));
		set_str(r->per, sizeof(r->per),
		        json_string_value(json_object_get(lim, "per")));
		r->burst = (unsigned long)json_integer_value(
		    json_object_get(lim, "burst"));
		r->bytes = json_is_string(json_object_get(lim, "rate_unit")) &&
		           strcmp(json_string_value(json_object_get(
		                      lim, "rate_unit")),
		                  "packets") != 0;
		r->over = json_is_true(json_object_get(lim, "inv"));
		return true;
	}
	if (json_is_object(cc)) {
		r->kind = HL_CT_COUNT;
		r->value = (unsigned long long)json_integer_value(
		    json_object_get(cc, "val"));
		r->over = json_is_true(json_object_get(cc, "inv"));
		return true;
	}
	return false;
}

/* The statements of a meter or a dynamic set update ("stmt", one object
 * or an array): the limit they apply per key. */
static bool keyed_into(const json_t *k, struct hl_rule *r)
{
	const json_t *st = json_object_get(k, "stmt");
	json_t *v;
	size_t i;

	if (json_is_object(st))
		return limit_into(st, r);
	json_array_foreach(st, i, v) if (limit_into(v, r)) return true;
	return false;
}

/* A rule's expressions into r: true when it holds a limit. */
static bool rule_limit(const json_t *expr, struct hl_rule *r)
{
	bool lim = false;
	json_t *e;
	size_t i;

	json_array_foreach(expr, i, e) {
		const char *key =
		    json_object_iter_key(json_object_iter((json_t *)e));
		const json_t *v = json_object_get(e, key ? key : "");

		if (key == NULL)
			continue;
		if (strcmp(key, "match") == 0)
			match_into(v, r);
		else if (limit_into(e, r))
			lim = true;
		else if (strcmp(key, "meter") == 0 || strcmp(key, "set") == 0) {
			if (keyed_into(v, r)) {
				lim = true;
				r->per_source = true;
			}
		} else if (!strcmp(key, "drop") || !strcmp(key, "reject") ||
		           !strcmp(key, "accept"))
			set_str(r->verdict, sizeof(r->verdict), key);
	}
	return lim;
}

/* The chain of (family, table, name), or NULL. */
static struct hchain *chain_find(struct hchain *c, size_t n, const char *fam,
                                 const char *tab, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (fam && tab && name && !strcmp(c[i].family, fam) &&
		    !strcmp(c[i].table, tab) && !strcmp(c[i].name, name))
			return &c[i];
	return NULL;
}

/* Marks the chains a reached one jumps or goes to; true when any new. */
static bool follow(const json_t *list, struct hchain *c, size_t n)
{
	bool more = false;
	json_t *o, *e;
	size_t i, j;

	json_array_foreach(list, i, o) {
		const json_t *r = json_object_get(o, "rule");
		const char *fam = json_string_value(json_object_get(r, "family"));
		const char *tab = json_string_value(json_object_get(r, "table"));
		struct hchain *from = chain_find(
		    c, n, fam, tab, json_string_value(json_object_get(r, "chain")));

		if (from == NULL || !from->reached)
			continue;
		json_array_foreach(json_object_get(r, "expr"), j, e) {
			const json_t *t = json_object_get(e, "jump");
			struct hchain *to;

			if (t == NULL)
				t = json_object_get(e, "goto");
			to = chain_find(c, n, fam, tab,
			                json_string_value(
			                    json_object_get(t, "target")));
			if (to != NULL && !to->reached)
				more = to->reached = true;
		}
	}
	return more;
}

/* The chains of list, those on an input hook reached (not arp, bridge
 * or netdev, which see no local connection). Returns their count. */
static size_t chains_of(const json_t *list, struct hchain *c)
{
	size_t n = 0, i;
	json_t *o;

	json_array_foreach(list, i, o) {
		const json_t *ch = json_object_get(o, "chain");
		const char *hook;

		if (ch == NULL || n >= HL_CHAINS)
			continue;
		c[n].family = json_string_value(json_object_get(ch, "family"));
		c[n].table = json_string_value(json_object_get(ch, "table"));
		c[n].name = json_string_value(json_object_get(ch, "name"));
		if (!c[n].family || !c[n].table || !c[n].name)
			continue;
		hook = json_string_value(json_object_get(ch, "hook"));
		c[n].reached = hook != NULL && strcmp(hook, "input") == 0 &&
		               strcmp(c[n].family, "arp") != 0 &&
		               strcmp(c[n].family, "bridge") != 0 &&
		               strcmp(c[n].family, "netdev") != 0;
		n++;
	}
	return n;
}

/* True when o's key is the string v. */
static bool key_is(const json_t *o, const char *key, const char *v)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL && strcmp(s, v) == 0;
}

/* See hostlim.h. */
int hostlim_parse_nft(const char *json_text, struct host_limits *l)
{
	json_t *root = json_loads(json_text, 0, NULL), *list, *o;
	struct hchain *c = calloc(HL_CHAINS, sizeof(*c));
	size_t n, i;
	int rc = -1;

	l->nrules = 0;
	l->truncated = false;
	l->nipt_handles = 0;
	list = json_object_get(root, "nftables");
	if (c == NULL || !json_is_array(list)) {
		errno = c == NULL ? ENOMEM : EINVAL;
		goto out;
	}
	n = chains_of(list, c);
	for (int p = 0; p < HL_JUMP_PASSES && follow(list, c, n); p++)
		;
	json_array_foreach(list, i, o) {
		const json_t *r = json_object_get(o, "rule");
		struct hl_rule h;
		struct hchain *at;

		if (r == NULL)
			continue;
		if (key_is(r, "family", "ip") && key_is(r, "table", "filter") &&
		    key_is(r, "chain", "INPUT") &&
		    l->nipt_handles < sizeof(l->ipt_handles) /
		                          sizeof(l->ipt_handles[0]))
			l->ipt_handles[l->nipt_handles++] = (long)json_integer_value(
			    json_object_get(r, "handle"));
		at = chain_find(c, n,
		                json_string_value(json_object_get(r, "family")),
		                json_string_value(json_object_get(r, "table")),
		                json_string_value(json_object_get(r, "chain")));
		memset(&h, 0, sizeof(h));
		if (at == NULL || !at->reached ||
		    !rule_limit(json_object_get(r, "expr"), &h))
			continue;
		if (l->nrules >= HL_MAX_RULES) {
			l->truncated = true;
			break;
		}
		set_str(h.family, sizeof(h.family), at->family);
		set_str(h.table, sizeof(h.table), at->table);
		set_str(h.chain, sizeof(h.chain), at->name);
		h.handle = (long)json_integer_value(json_object_get(r, "handle"));
		l->rules[l->nrules++] = h;
	}
	l->rules_read = true;
	rc = 0;
out:
	free(c);
	json_decref(root);
	return rc;
}

/* See hostlim.h. */
void hostlim_nft_handles(struct host_limits *l, size_t first)
{
	for (size_t i = first; i < l->nrules; i++) {
		struct hl_rule *r = &l->rules[i];

		if (strcmp(r->tool, "iptables-nft") != 0 || r->handle < 1 ||
		    (size_t)r->handle > l->nipt_handles)
			continue;
		r->handle = l->ipt_handles[r->handle - 1];
		r->tool[0] = '\0'; /* deleted as nft's rule, by handle */
	}
}

/* See hostlim.h. */
int hostlim_collect_rules(struct host_limits *l, const char *nft_json,
                          int timeout_ms)
{
	static const char *const ipt[][4] = {
	    {"iptables-nft-save", "-t", "filter", NULL},
	    {"iptables-legacy-save", "-t", "filter", NULL}};
	char *out;
	size_t first;

	errno = 0;
	out = NULL;
	if (nft_json == NULL &&
	    (out = fwrules_nft_json(timeout_ms)) == NULL && errno == ENOMEM)
		return -1;
	if (nft_json == NULL)
		nft_json = out;
	if (nft_json != NULL && hostlim_parse_nft(nft_json, l) < 0) {
		l->rules_read = false;
		l->nrules = 0;
		if (errno == ENOMEM) {
			free(out);
			return -1;
		}
	}
	free(out);
	/* iptables-nft's hashlimit and connlimit are opaque to nft's JSON,
	 * iptables-legacy's invisible to it: their text says the rate */
	for (size_t i = 0; i < 2; i++) {
		errno = 0;
		if ((out = fwrules_run(ipt[i], timeout_ms)) == NULL) {
			if (errno == ENOMEM)
				return -1;
			continue;
		}
		first = l->nrules;
		hostlim_parse_iptables(out, i == 0 ? "iptables-nft"
		                                   : "iptables-legacy",
		                       i == 0, l);
		if (i == 0)
			hostlim_nft_handles(l, first);
		l->rules_read = true;
		free(out);
	}
	return 0;
}
