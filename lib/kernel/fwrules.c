/* The packet filter's blockers (fwrules.h), parsed from nft's JSON and
 * from iptables-legacy-save's text. */
#include "kernel/fwrules.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#define FWR_CHAINS 1024 /* chains looked at */
#define FWR_DEPTH 16    /* jump levels followed */

struct nchain {
	const char *family, *table, *name;
	bool input, reached;
	bool pre; /* a prerouting base chain: where notrack exempts */
};

/* ct states as bits (ct_states) */
#define CT_NEW 1u
#define CT_UNTRACKED 2u
#define CT_EST_REL 4u
#define CT_OTHER 8u

/* Appends a block; false when the list is full. */
static bool add_block(struct fw_rules *r, const struct fwr_block *b)
{
	if (r->n >= FWR_MAX) {
		r->truncated = true;
		return false;
	}
	r->b[r->n++] = *b;
	return true;
}

static void set_name(char *dst, size_t len, const char *s)
{
	snprintf(dst, len, "%s", s != NULL ? s : "");
}

/* One port value of nft JSON (a number or {"range": [lo, hi]}) into b.
 * Returns false for anything else (a named service, a variable). */
static bool add_port_value(const json_t *v, struct fwr_block *b)
{
	json_t *rg = json_object_get(v, "range");

	if (b->nranges >= FWR_RANGES)
		return false;
	if (json_is_integer(v)) {
		b->lo[b->nranges] = b->hi[b->nranges] =
		    (unsigned)json_integer_value(v);
	} else if (json_is_array(rg) && json_array_size(rg) == 2 &&
	           json_is_integer(json_array_get(rg, 0)) &&
	           json_is_integer(json_array_get(rg, 1))) {
		b->lo[b->nranges] =
		    (unsigned)json_integer_value(json_array_get(rg, 0));
		b->hi[b->nranges] =
		    (unsigned)json_integer_value(json_array_get(rg, 1));
	} else {
		return false;
	}
	b->nranges++;
	return true;
}

/* The right side of a dport match into b's ranges. */
static bool ports_of(const json_t *right, struct fwr_block *b)
{
	json_t *set = json_object_get(right, "set"), *v;
	size_t i;

	if (!json_is_array(set))
		return add_port_value(right, b);
	json_array_foreach(set, i, v) if (!add_port_value(v, b)) return false;
	return true;
}

/* The ct states a string or a set of strings right names, as CT_*
 * bits; CT_OTHER for invalid or anything unknown. */
static unsigned ct_states(const json_t *right)
{
	json_t *set = json_object_get(right, "set");
	const json_t *arr = json_is_array(set) ? set : right;
	unsigned m = 0;
	size_t i;

	if (json_is_string(right))
		arr = NULL;
	for (i = 0; arr == NULL ? i < 1 : i < json_array_size(arr); i++) {
		const char *s = json_string_value(
		    arr == NULL ? right : json_array_get(arr, i));

		if (s == NULL)
			m |= CT_OTHER;
		else if (strcmp(s, "new") == 0)
			m |= CT_NEW;
		else if (strcmp(s, "untracked") == 0)
			m |= CT_UNTRACKED;
		else if (strcmp(s, "established") == 0 ||
		         strcmp(s, "related") == 0)
			m |= CT_EST_REL;
		else
			m |= CT_OTHER;
	}
	return m;
}

/* True when right (a string, an array or {"set": [...]}) holds want. */
static bool strings_hold(const json_t *right, const char *want)
{
	json_t *set = json_object_get(right, "set"), *v;
	size_t i;

	if (json_is_string(right))
		return strcmp(json_string_value(right), want) == 0;
	if (!json_is_array(set) && !json_is_array(right))
		return false;
	json_array_foreach(json_is_array(set) ? set : right, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), want) == 0)
			return true;
	return false;
}

/* One source of nft JSON (an address string, or {"prefix": {"addr",
 * "len"}}) into b. Returns false for anything else. */
static bool add_saddr(const json_t *v, struct fwr_block *b)
{
	const json_t *pf = json_object_get(v, "prefix");

	if (b->nsaddr >= FWR_SADDRS)
		return false;
	if (json_is_string(v))
		snprintf(b->saddr[b->nsaddr], FWR_ADDR, "%s",
		         json_string_value(v));
	else if (json_is_string(json_object_get(pf, "addr")) &&
	         json_is_integer(json_object_get(pf, "len")))
		snprintf(b->saddr[b->nsaddr], FWR_ADDR, "%s/%d",
		         json_string_value(json_object_get(pf, "addr")),
		         (int)json_integer_value(json_object_get(pf, "len")));
	else
		return false;
	b->nsaddr++;
	return true;
}

/* The right side of a saddr match (one source or a set) into b. */
static bool saddrs_of(const json_t *right, struct fwr_block *b)
{
	json_t *set = json_object_get(right, "set"), *v;
	size_t i;

	if (!json_is_array(set))
		return add_saddr(right, b);
	json_array_foreach(set, i, v) if (!add_saddr(v, b)) return false;
	return true;
}

/* True when a match is on a new connection's SYN: iptables' --syn (tcp
 * flags & (fin|syn|rst|ack) == syn, any mask that holds syn) or nft's
 * "tcp flags syn" (op in). A drop of such packets drops every new TCP
 * connection it matches, as "ct state new" does (audit48: the SYN flood
 * guard that accepts under a limit and drops the rest). */
static bool syn_match(const json_t *left, const json_t *right)
{
	const json_t *and = json_object_get(left, "&"), *pl, *v;
	bool syn = false;
	size_t i;

	if (!json_is_string(right) ||
	    strcmp(json_string_value(right), "syn") != 0)
		return false;
	if (json_is_array(and)) {
		pl = json_object_get(json_array_get(and, 0), "payload");
		json_array_foreach(json_array_get(and, 1), i, v)
			syn |= json_is_string(v) &&
			       strcmp(json_string_value(v), "syn") == 0;
		if (!syn)
			return false;
	} else {
		pl = json_object_get(left, "payload");
	}
	return json_is_string(json_object_get(pl, "protocol")) &&
	       strcmp(json_string_value(json_object_get(pl, "protocol")),
	              "tcp") == 0 &&
	       json_is_string(json_object_get(pl, "field")) &&
	       strcmp(json_string_value(json_object_get(pl, "field")),
	              "flags") == 0;
}

/* One match expression into b. Returns false when the rule matches on
 * something opening a port cannot be about. */
static bool match_into(const json_t *m, struct fwr_block *b)
{
	const json_t *left = json_object_get(m, "left");
	const json_t *right = json_object_get(m, "right");
	const json_t *pl = json_object_get(left, "payload");
	const json_t *meta = json_object_get(left, "meta");
	const json_t *ct = json_object_get(left, "ct");
	const char *op = json_string_value(json_object_get(m, "op"));

	if (op != NULL && strcmp(op, "==") != 0 && strcmp(op, "in") != 0)
		return false;
	if (syn_match(left, right)) {
		if (b->proto[0] != '\0' && strcmp(b->proto, "tcp") != 0)
			return false;
		set_name(b->proto, sizeof(b->proto), "tcp");
		return true;
	}
	if (pl != NULL) {
		const char *proto =
		    json_string_value(json_object_get(pl, "protocol"));
		const char *field =
		    json_string_value(json_object_get(pl, "field"));

		/* a drop limited to some sources still drops those
		 * peers' connections (issue 31); `!=` never gets here */
		if (proto != NULL && field != NULL &&
		    (!strcmp(proto, "ip") || !strcmp(proto, "ip6")) &&
		    !strcmp(field, "saddr"))
			return saddrs_of(right, b);
		if (proto == NULL || field == NULL ||
		    (strcmp(proto, "tcp") && strcmp(proto, "udp")) ||
		    strcmp(field, "dport") != 0)
			return false;
		set_name(b->proto, sizeof(b->proto), proto);
		return ports_of(right, b);
	}
	if (meta != NULL) {
		const char *key =
		    json_string_value(json_object_get(meta, "key"));

		if (key != NULL && strcmp(key, "iifname") == 0) {
			if (json_is_string(right))
				set_name(b->iif, sizeof(b->iif),
				         json_string_value(right));
			return true;
		}
		if (key != NULL && strcmp(key, "l4proto") == 0 &&
		    json_is_string(right)) {
			set_name(b->proto, sizeof(b->proto),
			         json_string_value(right));
			return strcmp(b->proto, "tcp") == 0 ||
			       strcmp(b->proto, "udp") == 0;
		}
		return false;
	}
	if (ct != NULL) {
		const char *key = json_string_value(json_object_get(ct, "key"));

		unsigned st;

		if (key == NULL || strcmp(key, "state") != 0)
			return false;
		st = ct_states(right);
		/* an accept of untracked packets is kept apart (issue 48):
		 * nothing a port opening is about matches it otherwise */
		b->ct_new = st == CT_NEW;
		b->untracked = (st & CT_UNTRACKED) && !(st & CT_OTHER);
		return b->ct_new || b->untracked;
	}
	return false;
}

/* True when a match expression names the input interface. */
static bool names_iif(const json_t *m)
{
	const char *key = json_string_value(json_object_get(
	    json_object_get(json_object_get(m, "left"), "meta"), "key"));

	return key != NULL && strcmp(key, "iifname") == 0;
}

/* A rule's expressions: a block when it drops or rejects and matches
 * only what a port opening is about; an accept of that shape too, where
 * it names no input interface (`iifname "lo" accept` lets nothing of a
 * peer's through). */
static bool rule_block(const json_t *expr, struct fwr_block *b)
{
	bool verdict = false, iif = false;
	json_t *e;
	size_t i;

	json_array_foreach(expr, i, e)
	{
		const char *key =
		    json_object_iter_key(json_object_iter((json_t *)e));

		if (key == NULL)
			return false;
		if (strcmp(key, "match") == 0) {
			if (!match_into(json_object_get(e, key), b))
				return false;
			iif |= names_iif(json_object_get(e, key));
		} else if (strcmp(key, "drop") == 0 ||
		           strcmp(key, "reject") == 0) {
			verdict = true;
			b->reject = strcmp(key, "reject") == 0;
		} else if (strcmp(key, "accept") == 0) {
			verdict = true;
			b->accept = true;
		} else if (strcmp(key, "counter") != 0 &&
		           strcmp(key, "log") != 0) {
			return false; /* jump, limit, nat... */
		}
	}
	return verdict && !(b->accept && iif);
}

/* True when a rule's expressions end in an iptables-nft target that
 * may exempt from tracking (xt CT or NOTRACK: JSON does not say which
 * options). */
static bool xt_ct(const json_t *expr)
{
	json_t *e;
	size_t i;

	json_array_foreach(expr, i, e)
	{
		const char *name = json_string_value(
		    json_object_get(json_object_get(e, "xt"), "name"));

		if (name != NULL &&
		    (strcmp(name, "CT") == 0 || strcmp(name, "NOTRACK") == 0))
			return true;
	}
	return false;
}

/* A prerouting rule's expressions: true when it exempts packets from
 * tracking (notrack) and matches only the transport, ports and sources,
 * which go into b. */
static bool rule_notrack(const json_t *expr, struct fwr_block *b)
{
	bool nt = false;
	json_t *e;
	size_t i;

	json_array_foreach(expr, i, e)
	{
		const char *key =
		    json_object_iter_key(json_object_iter((json_t *)e));

		if (key == NULL)
			return false;
		if (strcmp(key, "match") == 0) {
			/* an exemption of one input interface's packets (lo's)
			 * goes with accepts of that interface, which the
			 * blocks leave out: not judged */
			if (!match_into(json_object_get(e, key), b) ||
			    b->ct_new || b->untracked ||
			    names_iif(json_object_get(e, key)))
				return false;
		} else if (strcmp(key, "notrack") == 0) {
			nt = true;
		} else if (strcmp(key, "counter") != 0 &&
		           strcmp(key, "log") != 0) {
			return false;
		}
	}
	return nt;
}

/* True when match m cannot be about a peer's new connection: a ct state
 * without new (invalid, established), ICMP alone, the loopback's
 * interface. */
static bool match_harmless(const json_t *m)
{
	const json_t *left = json_object_get(m, "left");
	const json_t *right = json_object_get(m, "right");
	const json_t *meta = json_object_get(left, "meta");
	const json_t *pl = json_object_get(left, "payload");
	const char *op = json_string_value(json_object_get(m, "op"));
	const char *key = json_string_value(json_object_get(meta, "key"));
	const char *r = json_string_value(right);
	const char *proto = json_string_value(json_object_get(pl, "protocol"));

	if (op != NULL && strcmp(op, "==") != 0 && strcmp(op, "in") != 0)
		return false;
	if (json_object_get(left, "ct") != NULL) {
		const char *ck = json_string_value(
		    json_object_get(json_object_get(left, "ct"), "key"));

		return ck != NULL && strcmp(ck, "state") == 0 &&
		       !strings_hold(right, "new");
	}
	if (key != NULL && strcmp(key, "l4proto") == 0 && r != NULL)
		return !strcmp(r, "icmp") || !strcmp(r, "ipv6-icmp") ||
		       !strcmp(r, "icmpv6");
	if (key != NULL && strcmp(key, "iifname") == 0 && r != NULL)
		return strcmp(r, "lo") == 0;
	return proto != NULL &&
	       (!strcmp(proto, "icmp") || !strcmp(proto, "icmpv6"));
}

/* A drop or reject rule this reader does not judge and that could be
 * about a peer's connection (fwrules.h's unread): its proto and ports
 * into b as far as read. False for a rule that drops nothing, a rate
 * limit (hostlim's) or one match_harmless says cannot be. */
static bool rule_unread(const json_t *expr, struct fwr_block *b)
{
	bool verdict = false;
	json_t *e;
	size_t i;

	json_array_foreach(expr, i, e)
	{
		const char *key =
		    json_object_iter_key(json_object_iter((json_t *)e));

		if (key == NULL)
			return false;
		if (!strcmp(key, "drop") || !strcmp(key, "reject")) {
			verdict = true;
			b->reject = strcmp(key, "reject") == 0;
		} else if (!strcmp(key, "limit") || !strcmp(key, "meter") ||
		           !strcmp(key, "set") || !strcmp(key, "ct count")) {
			return false;
		} else if (strcmp(key, "match") == 0) {
			struct fwr_block t = *b;

			if (match_harmless(json_object_get(e, key)))
				return false;
			/* ports and proto where readable; the rest is
			 * what this reader cannot judge */
			if (match_into(json_object_get(e, key), &t))
				*b = t;
		}
	}
	return verdict;
}

/* The chain of (family, table, name), or NULL. */
static struct nchain *chain_find(struct nchain *c, size_t n, const char *family,
                                 const char *table, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (family && table && name && !strcmp(c[i].family, family) &&
		    !strcmp(c[i].table, table) && !strcmp(c[i].name, name))
			return &c[i];
	return NULL;
}

/* Marks the chains the reached ones jump or go to; true when any new. */
static bool follow_jumps(const json_t *rules, struct nchain *c, size_t n)
{
	bool more = false;
	json_t *r, *e;
	size_t i, j;

	json_array_foreach(rules, i, r)
	{
		const char *fam =
		    json_string_value(json_object_get(r, "family"));
		const char *tab =
		    json_string_value(json_object_get(r, "table"));
		struct nchain *from =
		    chain_find(c, n, fam, tab,
		               json_string_value(json_object_get(r, "chain")));

		if (from == NULL || !from->reached)
			continue;
		json_array_foreach(json_object_get(r, "expr"), j, e)
		{
			json_t *t = json_object_get(e, "jump");
			struct nchain *to;

			if (t == NULL)
				t = json_object_get(e, "goto");
			to = chain_find(
			    c, n, fam, tab,
			    json_string_value(json_object_get(t, "target")));
			if (to != NULL && !to->reached) {
				to->reached = true;
				more = true;
			}
		}
	}
	return more;
}

/* See fwrules.h. */
int fwrules_parse_nft(const char *json_text, struct fw_rules *r)
{
	json_t *root = json_loads(json_text, 0, NULL), *list, *o, *rules;
	struct nchain *c = calloc(FWR_CHAINS, sizeof(*c));
	size_t n = 0, i;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	list = json_object_get(root, "nftables");
	rules = json_array();
	if (c == NULL || rules == NULL || !json_is_array(list)) {
		errno = c == NULL || rules == NULL ? ENOMEM : EINVAL;
		goto out;
	}
	r->backend = FWR_NFT;
	json_array_foreach(list, i, o)
	{
		json_t *ch = json_object_get(o, "chain");
		json_t *tb = json_object_get(o, "table");
		const char *name;

		if (json_object_get(o, "rule") != NULL)
			json_array_append(rules, json_object_get(o, "rule"));
		if (tb != NULL &&
		    (name = json_string_value(json_object_get(tb, "name"))) &&
		    strcmp(name, "firewalld") == 0)
			r->firewalld = true;
		if (ch == NULL || n >= FWR_CHAINS)
			continue;
		c[n].family = json_string_value(json_object_get(ch, "family"));
		c[n].table = json_string_value(json_object_get(ch, "table"));
		c[n].name = json_string_value(json_object_get(ch, "name"));
		if (c[n].family == NULL || c[n].table == NULL ||
		    c[n].name == NULL)
			continue;
		if (strncmp(c[n].name, "ufw-", 4) == 0)
			r->ufw = true;
		name = json_string_value(json_object_get(ch, "hook"));
		c[n].input = name != NULL && strcmp(name, "input") == 0 &&
		             strcmp(c[n].family, "arp") != 0 &&
		             strcmp(c[n].family, "bridge") != 0 &&
		             strcmp(c[n].family, "netdev") != 0;
		c[n].reached = c[n].input;
		c[n].pre = name != NULL && strcmp(name, "prerouting") == 0 &&
		           (strcmp(c[n].family, "ip") == 0 ||
		            strcmp(c[n].family, "ip6") == 0 ||
		            strcmp(c[n].family, "inet") == 0);
		name = json_string_value(json_object_get(ch, "policy"));
		if (c[n].input && name != NULL && strcmp(name, "drop") == 0) {
			struct fwr_block b = {.kind = FWR_POLICY, .handle = -1};

			set_name(b.family, sizeof(b.family), c[n].family);
			set_name(b.table, sizeof(b.table), c[n].table);
			set_name(b.chain, sizeof(b.chain), c[n].name);
			add_block(r, &b);
		}
		n++;
	}
	for (int d = 0; d < FWR_DEPTH && follow_jumps(rules, c, n); d++)
		;
	json_array_foreach(rules, i, o)
	{
		struct fwr_block b = {.kind = FWR_RULE};
		const char *fam =
		    json_string_value(json_object_get(o, "family"));
		const char *tab =
		    json_string_value(json_object_get(o, "table"));
		const char *chn =
		    json_string_value(json_object_get(o, "chain"));
		struct nchain *ch = chain_find(c, n, fam, tab, chn);

		if (ch == NULL || !json_is_integer(json_object_get(o, "handle")))
			continue;
		b.handle =
		    (long)json_integer_value(json_object_get(o, "handle"));
		set_name(b.family, sizeof(b.family), fam);
		set_name(b.table, sizeof(b.table), tab);
		set_name(b.chain, sizeof(b.chain), chn);
		if (ch->pre) {
			if (rule_notrack(json_object_get(o, "expr"), &b) &&
			    r->nnotrack < FWR_NOTRACK)
				r->notrack[r->nnotrack++] = b;
			r->notrack_xt |= xt_ct(json_object_get(o, "expr"));
			continue;
		}
		if (!ch->reached)
			continue;
		if (!rule_block(json_object_get(o, "expr"), &b)) {
			struct fwr_block u = {.kind = FWR_RULE};

			/* a drop this reader does not judge (audit48) */
			if (!rule_unread(json_object_get(o, "expr"), &u))
				continue;
			u.handle = b.handle;
			set_name(u.family, sizeof(u.family), fam);
			set_name(u.table, sizeof(u.table), tab);
			set_name(u.chain, sizeof(u.chain), chn);
			if (r->nunread < FWR_UNREAD)
				r->unread[r->nunread++] = u;
			else
				r->unread_truncated = true;
			continue;
		}
		if (!b.untracked)
			add_block(r, &b);
		else if (b.accept && r->nuntracked < FWR_NOTRACK)
			r->untracked[r->nuntracked++] = b;
	}
	rc = 0;
out:
	json_decref(rules);
	json_decref(root);
	free(c);
	return rc;
}

/* "1000:2000,3000" (iptables' ports) into b's ranges. */
static bool ipt_ports(char *s, struct fwr_block *b)
{
	char *save = NULL;

	for (char *t = strtok_r(s, ",", &save); t != NULL;
	     t = strtok_r(NULL, ",", &save)) {
		unsigned lo, hi;
		char tail;

		if (b->nranges >= FWR_RANGES)
			return false;
		if (sscanf(t, "%u:%u%c", &lo, &hi, &tail) == 2) {
		} else if (sscanf(t, "%u%c", &lo, &tail) == 1) {
			hi = lo;
		} else {
			return false;
		}
		if (lo == 0 || hi > 65535 || lo > hi)
			return false;
		b->lo[b->nranges] = lo;
		b->hi[b->nranges++] = hi;
	}
	return true;
}

/* One "-A CHAIN ..." line: its block (when it is one) and its jump
 * target (when it jumps to a user chain). */
static bool ipt_rule(char *line, struct fwr_block *b, char *jump, size_t jlen)
{
	char *save = NULL, *tok[64];
	size_t nt = 0;
	bool verdict = false, ok = true;

	jump[0] = '\0';
	for (char *t = strtok_r(line, " \t\n", &save); t && nt < 64;
	     t = strtok_r(NULL, " \t\n", &save))
		tok[nt++] = t;
	for (size_t i = 2; i < nt; i++) {
		const char *t = tok[i], *v = i + 1 < nt ? tok[i + 1] : "";

		if (!strcmp(t, "-p")) {
			set_name(b->proto, sizeof(b->proto), v);
			i++;
		} else if (!strcmp(t, "-i")) {
			set_name(b->iif, sizeof(b->iif), v);
			i++;
		} else if (!strcmp(t, "-m") ||
		           !strcmp(t, "--reject-with") ||
		           !strcmp(t, "--comment")) {
			i++;
		} else if (!strcmp(t, "--dport") || !strcmp(t, "--dports")) {
			ok = ok && ipt_ports(tok[++i], b);
		} else if (!strcmp(t, "-s") && i + 1 < nt &&
		           b->nsaddr < FWR_SADDRS) {
			/* iptables-save writes one source per rule */
			set_name(b->saddr[b->nsaddr++], FWR_ADDR, v);
			i++;
		} else if (!strcmp(t, "--syn")) {
			/* a new connection's SYN, as --ctstate NEW */
		} else if (!strcmp(t, "--tcp-flags") && i + 2 < nt) {
			/* --syn as iptables-save writes it: MASK SYN */
			ok = ok && strstr(v, "SYN") != NULL &&
			     !strcmp(tok[i + 2], "SYN");
			i += 2;
		} else if (!strcmp(t, "--ctstate") || !strcmp(t, "--state")) {
			ok = ok && !strcmp(v, "NEW");
			i++;
		} else if (!strcmp(t, "-j")) {
			if (!strcmp(v, "DROP") || !strcmp(v, "REJECT")) {
				verdict = true;
				b->reject = !strcmp(v, "REJECT");
			} else if (strcmp(v, "ACCEPT") && strcmp(v, "RETURN") &&
			           strcmp(v, "LOG")) {
				set_name(jump, jlen, v);
			}
			i++;
		} else {
			ok = false; /* -d, a mark, "! -s": not about a port */
		}
	}
	return ok && verdict &&
	       (b->proto[0] == '\0' || !strcmp(b->proto, "tcp") ||
	        !strcmp(b->proto, "udp"));
}

/* See fwrules.h. Chains reached from INPUT are found by passes over the
 * text, as a jump may come before its chain's rules. */
int fwrules_parse_iptables(const char *text, struct fw_rules *r)
{
	char reached[FWR_DEPTH + 1][FWR_NAME];
	size_t nreached = 1;

	memset(r, 0, sizeof(*r));
	if (text == NULL) {
		errno = EINVAL;
		return -1;
	}
	r->backend = FWR_IPTABLES_LEGACY;
	set_name(reached[0], FWR_NAME, "INPUT");
	for (int pass = 0; pass <= FWR_DEPTH; pass++) {
		const char *p = text;
		bool filter = false;
		size_t before = nreached;
		long num[FWR_DEPTH + 1] = {0};

		r->n = 0;
		r->truncated = false;
		while (*p) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);
			char line[1024], chain[FWR_NAME], jump[FWR_NAME];
			struct fwr_block b = {.kind = FWR_RULE};
			bool in = false;

			snprintf(line, sizeof(line), "%.*s", (int)len, p);
			p += len + (nl != NULL);
			if (line[0] == '*') {
				filter = strcmp(line, "*filter") == 0;
				memset(num, 0, sizeof(num));
				continue;
			}
			if (!filter)
				continue;
			if (strncmp(line, ":INPUT DROP", 11) == 0) {
				struct fwr_block pb = {.kind = FWR_POLICY,
				                       .handle = -1};

				set_name(pb.family, sizeof(pb.family), "ip");
				set_name(pb.table, sizeof(pb.table), "filter");
				set_name(pb.chain, sizeof(pb.chain), "INPUT");
				add_block(r, &pb);
			}
			if (strncmp(line, ":ufw-", 5) == 0)
				r->ufw = true;
			if (strncmp(line, "-A ", 3) != 0 ||
			    sscanf(line + 3, "%63s", chain) != 1)
				continue;
			for (size_t k = 0; k < nreached; k++)
				if (strcmp(reached[k], chain) == 0) {
					in = true;
					b.handle = ++num[k];
				}
			if (!in)
				continue;
			if (ipt_rule(line, &b, jump, sizeof(jump))) {
				set_name(b.family, sizeof(b.family), "ip");
				set_name(b.table, sizeof(b.table), "filter");
				set_name(b.chain, sizeof(b.chain), chain);
				add_block(r, &b);
			} else if (jump[0] && nreached <= FWR_DEPTH) {
				bool seen = false;

				for (size_t k = 0; k < nreached; k++)
					seen |= strcmp(reached[k], jump) == 0;
				if (!seen)
					set_name(reached[nreached++], FWR_NAME,
					         jump);
			}
		}
		if (nreached == before)
			break;
	}
	return 0;
}

/* See fwrules.h. */
bool fwrules_blocks(const struct fwr_block *b, const char *proto, unsigned port)
{
	if (b->accept)
		return false;
	if (b->proto[0] != '\0' && strcmp(b->proto, proto) != 0)
		return false;
	if (b->nranges == 0)
		return true;
	for (size_t i = 0; i < b->nranges; i++)
		if (port >= b->lo[i] && port <= b->hi[i])
			return true;
	return false;
}

/* True when name is one of names. */
static bool name_in(const char *name, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (names[i] != NULL && strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* Keeps the entries of v (n of them) not limited to another interface. */
static size_t keep_iifs(struct fwr_block *v, size_t n,
                        const char *const *names, size_t nn)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i].iif[0] == '\0' || name_in(v[i].iif, names, nn))
			v[k++] = v[i];
	return k;
}

/* See fwrules.h. */
void fwrules_keep_iifs(struct fw_rules *r, const char *const *names,
                       size_t n)
{
	if (n == 0)
		return;
	r->n = keep_iifs(r->b, r->n, names, n);
	r->nunread = keep_iifs(r->unread, r->nunread, names, n);
}
