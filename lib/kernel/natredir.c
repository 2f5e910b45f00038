/* The nat table's redirects of TCP to this node itself (natredir.h),
 * from nft's JSON: each nat base chain of hook prerouting or output is
 * walked, rule by rule through jumps, gotos and returns, as a peer's TCP
 * connection to one port would take it; a rule that matches on what this
 * reader does not judge ends the walk unjudged. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kernel/fwrules.h"
#include "kernel/natredir.h"

#define NR_DEPTH 16 /* jumps followed */

enum tri { T_FALSE, T_TRUE, T_UNKNOWN };

enum walk_end {
	W_CONT,  /* fell off the chain's end or returned */
	W_STOP,  /* accepted: no redirect */
	W_REDIR, /* a redirect to this node */
	W_UNREAD, /* a rule this reader does not judge */
	W_RETURN  /* a rule returned: the chain ends (walk_rule only) */
};

/* One port's walk: what is asked and what was found. */
struct walk {
	const json_t *all; /* the "nftables" array */
	const char *family, *table;
	unsigned port;
	bool output;
	long base_handle; /* the base chain's rule being walked */
	struct nat_redir found;
};

/* s's text, "" for none. */
static const char *str(const json_t *s)
{
	const char *v = json_string_value(s);

	return v != NULL ? v : "";
}

/* True when address text a is a loopback address or prefix. */
static bool loopback(const json_t *right)
{
	const json_t *pf = json_object_get(right, "prefix");
	const char *a = json_string_value(pf ? json_object_get(pf, "addr")
	                                     : right);

	return a != NULL &&
	       (strncmp(a, "127.", 4) == 0 || strcmp(a, "::1") == 0);
}

/* True when value v (a number, a range, a string) holds port p. */
static bool port_value(const json_t *v, unsigned p)
{
	const json_t *rg = json_object_get(v, "range");

	if (json_is_integer(v))
		return json_integer_value(v) == (json_int_t)p;
	if (json_is_array(rg) && json_array_size(rg) == 2)
		return json_integer_value(json_array_get(rg, 0)) <=
		           (json_int_t)p &&
		       json_integer_value(json_array_get(rg, 1)) >=
		           (json_int_t)p;
	return false;
}

/* Whether right (a value or a set of them) holds port p; T_UNKNOWN for
 * what is neither (a named set, a map). */
static enum tri port_in(const json_t *right, unsigned p)
{
	const json_t *set = json_object_get(right, "set"), *v;
	size_t i;

	if (json_is_integer(right) || json_object_get(right, "range"))
		return port_value(right, p) ? T_TRUE : T_FALSE;
	if (!json_is_array(set))
		return T_UNKNOWN;
	json_array_foreach(set, i, v) {
		if (!json_is_integer(v) && !json_object_get(v, "range"))
			return T_UNKNOWN;
		if (port_value(v, p))
			return T_TRUE;
	}
	return T_FALSE;
}

/* Whether right names TCP (a name, 6, or a set holding one). */
static enum tri is_tcp(const json_t *right)
{
	const json_t *set = json_object_get(right, "set"), *v;
	size_t i;

	if (json_is_string(right))
		return strcmp(json_string_value(right), "tcp") == 0 ? T_TRUE
		                                                   : T_FALSE;
	if (json_is_integer(right))
		return json_integer_value(right) == 6 ? T_TRUE : T_FALSE;
	if (!json_is_array(set))
		return T_UNKNOWN;
	json_array_foreach(set, i, v)
		if (is_tcp(v) == T_TRUE)
			return T_TRUE;
	return T_FALSE;
}

/* What match m says of w's connection, before its operator; *skip gets
 * what a return rule excludes by it ("tcp dport 15008", "uid 1337"). */
static enum tri match_eq(const json_t *m, const struct walk *w, char *skip,
                         size_t len)
{
	const json_t *left = json_object_get(m, "left");
	const json_t *right = json_object_get(m, "right");
	const json_t *pl = json_object_get(left, "payload");
	const json_t *meta = json_object_get(left, "meta");
	const json_t *fib = json_object_get(left, "fib");
	const char *key = json_string_value(json_object_get(meta, "key"));
	const char *proto = json_string_value(json_object_get(pl, "protocol"));
	const char *field = json_string_value(json_object_get(pl, "field"));

	if (key != NULL && strcmp(key, "l4proto") == 0)
		return is_tcp(right);
	if (key != NULL && (strcmp(key, "iifname") == 0 ||
	                    strcmp(key, "oifname") == 0 ||
	                    strcmp(key, "iif") == 0 || strcmp(key, "oif") == 0))
		return json_is_string(right) &&
		               strcmp(json_string_value(right), "lo") == 0
		           ? T_FALSE
		           : T_UNKNOWN;
	/* a user's or group's own connections: a sidecar proxy's uid, not
	 * the job's (uid 0 is root's, which a job may be) */
	if (key != NULL && w->output &&
	    (strcmp(key, "skuid") == 0 || strcmp(key, "skgid") == 0) &&
	    json_is_integer(right) && json_integer_value(right) != 0) {
		snprintf(skip, len, "%s %lld", key[2] == 'u' ? "uid" : "gid",
		         (long long)json_integer_value(right));
		return T_FALSE;
	}
	if (fib != NULL && json_is_string(right) &&
	    strcmp(json_string_value(right), "local") == 0 &&
	    strcmp(str(json_object_get(fib, "result")),
	           "type") == 0) {
		const json_t *fl = json_object_get(fib, "flags");

		if (json_array_size(fl) == 1 &&
		    strcmp(str(json_array_get(fl, 0)),
		           "daddr") == 0)
			return w->output ? T_FALSE : T_TRUE;
		return T_UNKNOWN;
	}
	if (proto == NULL || field == NULL)
		return T_UNKNOWN;
	if ((strcmp(proto, "ip") == 0 && strcmp(field, "protocol") == 0) ||
	    (strcmp(proto, "ip6") == 0 && strcmp(field, "nexthdr") == 0))
		return is_tcp(right);
	if ((strcmp(proto, "tcp") == 0 || strcmp(proto, "th") == 0) &&
	    strcmp(field, "dport") == 0) {
		enum tri t = port_in(right, w->port);

		if (json_is_integer(right))
			snprintf(skip, len, "tcp dport %lld",
			         (long long)json_integer_value(right));
		else
			snprintf(skip, len, "tcp dport (a set)");
		return t;
	}
	if ((strcmp(proto, "ip") == 0 || strcmp(proto, "ip6") == 0) &&
	    (strcmp(field, "saddr") == 0 || strcmp(field, "daddr") == 0))
		return loopback(right) ? T_FALSE : T_UNKNOWN;
	return T_UNKNOWN;
}

/* What match m says of w's connection, its operator applied. */
static enum tri match(const json_t *m, const struct walk *w, char *skip,
                      size_t len)
{
	const char *op = json_string_value(json_object_get(m, "op"));
	enum tri t = match_eq(m, w, skip, len);

	if (op == NULL || strcmp(op, "==") == 0 || strcmp(op, "in") == 0)
		return t;
	if (strcmp(op, "!=") == 0 && t != T_UNKNOWN) {
		skip[0] = '\0';
		return t == T_TRUE ? T_FALSE : T_TRUE;
	}
	return T_UNKNOWN;
}

/* The port a redirect or dnat statement s sends to (0: unread). */
static unsigned target_port(const json_t *s, unsigned asked)
{
	const json_t *p = json_object_get(s, "port");

	if (p == NULL)
		return asked;
	if (json_is_integer(p) && json_integer_value(p) > 0 &&
	    json_integer_value(p) < 65536)
		return (unsigned)json_integer_value(p);
	return 0;
}

static enum walk_end walk_chain(struct walk *w, const char *chain,
                                int depth);

/* One statement (not a match) of a rule that matches: its end, or
 * W_CONT for one that goes on (a counter). */
static enum walk_end statement(struct walk *w, const char *chain,
                               const json_t *rule, const char *key,
                               const json_t *val, int depth)
{
	if (strcmp(key, "counter") == 0 || strcmp(key, "log") == 0)
		return W_CONT;
	if (strcmp(key, "accept") == 0)
		return W_STOP;
	if (strcmp(key, "jump") == 0 || strcmp(key, "goto") == 0) {
		const char *t = json_string_value(json_object_get(val, "target"));
		enum walk_end e;

		if (t == NULL || depth >= NR_DEPTH)
			return W_UNREAD;
		e = walk_chain(w, t, depth + 1);
		/* after a goto's chain, this chain is left too */
		return e == W_CONT && key[0] == 'g' ? W_RETURN : e;
	}
	if (strcmp(key, "redirect") == 0 ||
	    (strcmp(key, "dnat") == 0 &&
	     loopback(json_object_get(val, "addr")))) {
		unsigned to = target_port(val, w->port);

		if (to == 0)
			return W_UNREAD;
		w->found.dnat = key[0] == 'd';
		w->found.to_port = to;
		w->found.handle = w->base_handle;
		w->found.via_handle =
		    (long)json_integer_value(json_object_get(rule, "handle"));
		snprintf(w->found.via, sizeof(w->found.via), "%s", chain);
		return W_REDIR;
	}
	return W_UNREAD;
}

/* One rule of chain: W_CONT when it does not match or goes on, else how
 * the walk ends there ("return" ends the chain: W_RETURN). */
static enum walk_end walk_rule(struct walk *w, const char *chain,
                               const json_t *rule, int depth)
{
	const json_t *expr = json_object_get(rule, "expr"), *e;
	enum tri all = T_TRUE;
	char skips[NR_SKIPS][40];
	size_t nskips = 0, i;

	json_array_foreach(expr, i, e) {
		const char *key =
		    json_object_iter_key(json_object_iter((json_t *)e));
		const json_t *val = json_object_iter_value(
		    json_object_iter((json_t *)e));
		enum walk_end end;

		if (key == NULL)
			return W_UNREAD;
		if (strcmp(key, "match") == 0) {
			char skip[40] = "";
			enum tri t = match(val, w, skip, sizeof(skip));

			if (t == T_FALSE && skip[0] && nskips < NR_SKIPS)
				snprintf(skips[nskips++], 40, "%s", skip);
			if (t == T_FALSE)
				all = T_FALSE;
			else if (t == T_UNKNOWN && all == T_TRUE)
				all = T_UNKNOWN;
			continue;
		}
		if (all == T_FALSE) {
			/* a return that does not match w's connection is an
			 * exclusion for the others: kept for the text */
			if (strcmp(key, "return") == 0)
				for (size_t k = 0; k < nskips &&
				                   w->found.nskips < NR_SKIPS;
				     k++)
					memcpy(w->found.skips[w->found.nskips++],
					       skips[k], 40);
			return W_CONT;
		}
		if (all == T_UNKNOWN)
			return W_UNREAD;
		if (strcmp(key, "return") == 0)
			return W_RETURN;
		end = statement(w, chain, rule, key, val, depth);
		if (end != W_CONT)
			return end;
	}
	return W_CONT;
}

/* Walks chain of w's table in order; W_CONT when it ends or returns. */
static enum walk_end walk_chain(struct walk *w, const char *chain,
                                int depth)
{
	const json_t *o;
	size_t i;

	json_array_foreach(w->all, i, o) {
		const json_t *r = json_object_get(o, "rule");
		enum walk_end e;

		if (r == NULL ||
		    strcmp(str(json_object_get(r, "family")),
		           w->family) != 0 ||
		    strcmp(str(json_object_get(r, "table")),
		           w->table) != 0 ||
		    strcmp(str(json_object_get(r, "chain")),
		           chain) != 0)
			continue;
		if (depth == 0)
			w->base_handle =
			    (long)json_integer_value(json_object_get(r, "handle"));
		e = walk_rule(w, chain, r, depth);
		if (e == W_RETURN)
			return W_CONT;
		if (e != W_CONT)
			return e;
	}
	return W_CONT;
}

/* Keeps w's redirect in out, merged with one of the same rule. */
static void keep(const struct walk *w, const char *chain,
                 struct nat_redirs *out)
{
	struct nat_redir *k = NULL;

	for (size_t i = 0; i < out->n && k == NULL; i++)
		if (strcmp(out->r[i].family, w->family) == 0 &&
		    strcmp(out->r[i].table, w->table) == 0 &&
		    strcmp(out->r[i].chain, chain) == 0 &&
		    out->r[i].handle == w->found.handle &&
		    out->r[i].to_port == w->found.to_port)
			k = &out->r[i];
	if (k == NULL) {
		if (out->n == NR_MAX) {
			out->truncated = true;
			return;
		}
		k = &out->r[out->n++];
		*k = w->found;
		k->nports = 0;
		snprintf(k->family, sizeof(k->family), "%s", w->family);
		snprintf(k->table, sizeof(k->table), "%s", w->table);
		snprintf(k->chain, sizeof(k->chain), "%s", chain);
		k->output = w->output;
	}
	if (k->nports < NR_PORTS)
		k->ports[k->nports++] = w->port;
}

/* See natredir.h. */
int natredir_parse_nft(const char *json_text, const unsigned *ports,
                       size_t nports, struct nat_redirs *out)
{
	json_t *root = json_loads(json_text, 0, NULL);
	const json_t *all = json_object_get(root, "nftables"), *o;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!json_is_array(all)) {
		json_decref(root);
		return -1;
	}
	out->read = true;
	json_array_foreach(all, i, o) {
		const json_t *ch = json_object_get(o, "chain");
		const char *type = json_string_value(json_object_get(ch, "type"));
		const char *hook = json_string_value(json_object_get(ch, "hook"));
		const char *name = json_string_value(json_object_get(ch, "name"));
		struct walk w;

		if (type == NULL || hook == NULL || name == NULL ||
		    strcmp(type, "nat") != 0 ||
		    (strcmp(hook, "prerouting") != 0 &&
		     strcmp(hook, "output") != 0))
			continue;
		for (size_t p = 0; p < nports; p++) {
			memset(&w, 0, sizeof(w));
			w.all = all;
			w.family = json_string_value(json_object_get(ch, "family"));
			w.table = json_string_value(json_object_get(ch, "table"));
			w.port = ports[p];
			w.output = hook[0] == 'o';
			if (w.family == NULL || w.table == NULL)
				break;
			if (walk_chain(&w, name, 0) == W_REDIR)
				keep(&w, name, out);
		}
	}
	json_decref(root);
	return 0;
}

/* See natredir.h. */
void natredir_collect(const char *nft_json, const unsigned *ports,
                      size_t nports, struct nat_redirs *out)
{
	memset(out, 0, sizeof(*out));
	if (nft_json != NULL &&
	    natredir_parse_nft(nft_json, ports, nports, out) < 0)
		memset(out, 0, sizeof(*out));
}
