/* The host's connection limits: the sysctls and counters through the
 * sysroot, what a rule covers, and the rule as a person reads it. */
#include "kernel/hostlim.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/portrange.h"
#include "kernel/sockdiag.h"

static const char *const ct_keys[HL_CT_KEYS] = {
    "nf_conntrack_tcp_timeout_established",
    "nf_conntrack_tcp_timeout_syn_sent",
    "nf_conntrack_tcp_timeout_time_wait",
    "nf_conntrack_udp_timeout",
    "nf_conntrack_udp_timeout_stream",
    "nf_conntrack_max",
    "nf_conntrack_count",
};

/* See hostlim.h. */
const char *hl_ct_key(size_t i)
{
	return i < HL_CT_KEYS ? ct_keys[i] : "";
}

/* One integer sysctl, -1 when unread. */
static long long read_ll(const struct sysroot *sr, const char *path)
{
	long long v;

	return sysroot_read_ll(sr, path, &v) == 0 ? v : -1;
}

/* See hostlim.h. The names line comes first, the values line after it,
 * both starting "TcpExt:"; a name is matched whole. */
int hostlim_netstat(const char *text, const char *name, long long *out)
{
	const char *names = strstr(text, "TcpExt:"), *vals;
	size_t want = strlen(name), idx = 0;

	if (names == NULL || (vals = strstr(names + 7, "TcpExt:")) == NULL)
		goto none;
	for (const char *p = names + 7; p < vals && *p != '\n';) {
		size_t n;

		while (*p == ' ')
			p++;
		n = strcspn(p, " \n");
		if (n == want && strncmp(p, name, n) == 0) {
			const char *v = vals + 7;
			char *end;

			for (size_t k = 0; k < idx; k++) {
				while (*v == ' ')
					v++;
				v += strcspn(v, " \n");
			}
			errno = 0;
			*out = strtoll(v, &end, 10);
			if (end == v || errno != 0)
				goto none;
			return 0;
		}
		p += n;
		idx++;
	}
none:
	errno = ENOENT;
	return -1;
}

/* ListenOverflows and ListenDrops into *o and *d, -1 where unread. */
static void listen_counters(const struct sysroot *sr, long long *o,
                            long long *d)
{
	/* a few kB on any kernel; 64 kB holds every TcpExt counter */
	char *text = malloc(65536);

	*o = *d = -1;
	if (text == NULL)
		return;
	if (sysroot_read(sr, HL_NETSTAT_PATH, text, 65536) > 0) {
		if (hostlim_netstat(text, "ListenOverflows", o) < 0)
			*o = -1;
		if (hostlim_netstat(text, "ListenDrops", d) < 0)
			*d = -1;
	}
	free(text);
}

/* See hostlim.h. */
void hostlim_recount(const struct sysroot *sr, struct host_limits *l)
{
	long long o, d;

	listen_counters(sr, &o, &d);
	l->overflows_rise = o >= 0 && l->listen_overflows >= 0
	                        ? o - l->listen_overflows
	                        : -1;
	l->drops_rise =
	    d >= 0 && l->listen_drops >= 0 ? d - l->listen_drops : -1;
}

/* See hostlim.h. */
void hostlim_collect(const struct sysroot *sr, struct host_limits *l)
{
	char path[160];
	unsigned lo, hi;

	memset(l, 0, sizeof(*l));
	l->port_lo = l->port_hi = -1;
	if (port_range_read(sr, &lo, &hi) == 0) {
		l->port_lo = lo;
		l->port_hi = hi;
	}
	l->somaxconn = read_ll(sr, HL_SOMAXCONN_PATH);
	l->syncookies = read_ll(sr, HL_SYNCOOKIES_PATH);
	l->max_syn_backlog = read_ll(sr, HL_SYN_BACKLOG_PATH);
	for (size_t i = 0; i < HL_CT_KEYS; i++) {
		snprintf(path, sizeof(path), "%s%s", HL_CT_DIR, ct_keys[i]);
		l->ct[i] = read_ll(sr, path);
	}
	listen_counters(sr, &l->listen_overflows, &l->listen_drops);
	l->overflows_rise = l->drops_rise = -1;
}

/* See hostlim.h. */
bool hostlim_rule_covers(const struct hl_rule *r, unsigned port)
{
	if (r->proto[0] != '\0' && strcmp(r->proto, "tcp") != 0)
		return false;
	if (r->nranges == 0)
		return true;
	for (size_t i = 0; i < r->nranges; i++)
		if (port >= r->lo[i] && port <= r->hi[i])
			return true;
	return false;
}

/* See hostlim.h. */
unsigned long long hostlim_rate_milli(const struct hl_rule *r)
{
	static const struct {
		const char *per;
		unsigned long long s;
	} units[] = {{"second", 1}, {"minute", 60}, {"hour", 3600},
	             {"day", 86400}, {"week", 604800}};

	if (r->kind != HL_LIMIT || r->bytes)
		return 0;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(r->per, units[i].per) == 0)
			return r->value * 1000 / units[i].s;
	return 0;
}

/* See hostlim.h. */
void hostlim_rule_text(const struct hl_rule *r, char *buf, size_t len)
{
	size_t l = 0;

#define PUT(...)                                                        \
	do {                                                            \
		if (l < len)                                            \
			l += (size_t)snprintf(buf + l, len - l, __VA_ARGS__); \
	} while (0)
	buf[0] = '\0';
	if (r->proto[0] != '\0')
		PUT("%s ", r->proto);
	if (r->nranges > 0) {
		PUT("dport %s", r->nranges > 1 ? "{ " : "");
		for (size_t i = 0; i < r->nranges; i++) {
			PUT("%s%u", i ? ", " : "", r->lo[i]);
			if (r->hi[i] != r->lo[i])
				PUT("-%u", r->hi[i]);
		}
		PUT("%s ", r->nranges > 1 ? " }" : "");
	}
	if (r->new_only)
		PUT("new connections ");
	if (r->per_source)
		PUT("per source address ");
	if (r->kind == HL_CT_COUNT)
		PUT("ct count%s %llu", r->over ? " over" : "", r->value);
	else
		PUT("limit rate%s %llu%s/%s burst %lu", r->over ? " over" : "",
		    r->value, r->bytes ? " bytes" : "", r->per, r->burst);
	if (r->verdict[0] != '\0')
		PUT(" %s", r->verdict);
#undef PUT
}

/* One rule's object. */
static json_t *rule_json(const struct hl_rule *r)
{
	char text[256], where[3 * HL_NAME + 16];
	json_t *ports = json_array(), *o;

	if (ports == NULL)
		return NULL;
	for (size_t i = 0; i < r->nranges; i++) {
		char p[16];

		if (r->lo[i] == r->hi[i])
			json_array_append_new(ports, json_integer(r->lo[i]));
		else {
			snprintf(p, sizeof(p), "%u-%u", r->lo[i], r->hi[i]);
			json_array_append_new(ports, json_string(p));
		}
	}
	hostlim_rule_text(r, text, sizeof(text));
	snprintf(where, sizeof(where), "%s %s %s", r->family, r->table,
	         r->chain);
	o = json_pack("{s:s, s:s, s:I, s:s, s:o, s:b, s:b, s:b, s:b, s:s, "
	              "s:s}",
	              "kind", r->kind == HL_CT_COUNT ? "ct-count" : "limit",
	              "chain", where, "handle", (json_int_t)r->handle,
	              "proto", r->proto[0] ? r->proto : "any", "ports", ports,
	              "new_connections", r->new_only, "per_source",
	              r->per_source, "over", r->over, "other_matches",
	              r->other, "verdict", r->verdict[0] ? r->verdict : "none",
	              "rule", text);
	if (o == NULL)
		return NULL;
	if (r->tool[0] != '\0') {
		/* "handle" is the rule's position in INPUT */
		json_object_set_new(o, "tool", json_string(r->tool));
		json_object_set_new(o, "iptables", json_string(r->spec));
	}
	if (r->kind == HL_CT_COUNT)
		json_object_set_new(o, "connections", json_integer(
		                                          (json_int_t)r->value));
	else {
		json_object_set_new(o, "rate", json_integer((json_int_t)r->value));
		json_object_set_new(o, "per", json_string(r->per));
		json_object_set_new(o, "burst", json_integer((json_int_t)r->burst));
		json_object_set_new(o, "unit",
		                    json_string(r->bytes ? "bytes" : "packets"));
	}
	return o;
}

/* A value, or null when unread. */
static json_t *ll_or_null(long long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

/* The listeners' array, or null when they were not read. */
static json_t *listeners_json(const struct host_limits *l)
{
	json_t *a;

	if (!l->listeners_read)
		return json_null();
	if ((a = json_array()) == NULL)
		return NULL;
	for (size_t i = 0; i < l->nlisteners; i++)
		if (json_array_append_new(
		        a, json_pack("{s:s, s:i, s:i, s:i}", "address",
		                     l->listeners[i].addr, "port",
		                     (int)l->listeners[i].port, "backlog",
		                     (int)l->listeners[i].backlog, "queued",
		                     (int)l->listeners[i].queued)) < 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* See hostlim.h. */
json_t *hostlim_to_json(const struct host_limits *l)
{
	json_t *o = json_object(), *ct = json_object(), *rules = NULL;

	if (o == NULL || ct == NULL)
		goto nomem;
	for (size_t i = 0; i < HL_CT_KEYS; i++)
		if (l->ct[i] >= 0 &&
		    json_object_set_new(ct, ct_keys[i] + 13 /* nf_conntrack_ */,
		                        json_integer(l->ct[i])) < 0)
			goto nomem;
	if (l->rules_read) {
		if ((rules = json_array()) == NULL)
			goto nomem;
		for (size_t i = 0; i < l->nrules; i++)
			if (json_array_append_new(rules, rule_json(&l->rules[i])) <
			    0)
				goto nomem;
	}
	if (json_object_set_new(o, "ip_local_port_range",
	                        l->port_lo < 0 ? json_null()
	                                       : json_pack("[I, I]",
	                                                   (json_int_t)l->port_lo,
	                                                   (json_int_t)l->port_hi)) < 0 ||
	    json_object_set_new(o, "somaxconn", ll_or_null(l->somaxconn)) < 0 ||
	    json_object_set_new(o, "tcp_syncookies", ll_or_null(l->syncookies)) <
	        0 ||
	    json_object_set_new(o, "tcp_max_syn_backlog",
	                        ll_or_null(l->max_syn_backlog)) < 0 ||
	    json_object_set_new(o, "listen_overflows",
	                        ll_or_null(l->listen_overflows)) < 0 ||
	    json_object_set_new(o, "listen_drops", ll_or_null(l->listen_drops)) <
	        0 ||
	    json_object_set_new(o, "listen_overflows_rise",
	                        ll_or_null(l->overflows_rise)) < 0 ||
	    json_object_set_new(o, "listen_drops_rise",
	                        ll_or_null(l->drops_rise)) < 0 ||
	    json_object_set_new(o, "conntrack", ct) < 0 ||
	    json_object_set_new(o, "rules", rules != NULL ? rules : json_null()) <
	        0) {
		ct = rules = NULL;
		goto nomem;
	}
	if (l->truncated)
		json_object_set_new(o, "rules_truncated", json_true());
	if (json_object_set_new(o, "listeners", listeners_json(l)) < 0)
		goto nomem_o;
	return o;
nomem:
	json_decref(ct);
	json_decref(rules);
nomem_o:
	json_decref(o);
	return NULL;
}

/* One listener into l (the first HL_LISTENERS; the rest counted as
 * truncated). */
static int add_listener(void *arg, const struct sock_listener *s)
{
	struct host_limits *l = arg;
	struct hl_listener *h;

	if (l->nlisteners >= HL_LISTENERS) {
		l->listeners_truncated = true;
		return 0;
	}
	h = &l->listeners[l->nlisteners++];
	if (inet_ntop(s->family, s->addr, h->addr, sizeof(h->addr)) == NULL)
		snprintf(h->addr, sizeof(h->addr), "?");
	h->port = s->port;
	h->queued = s->queued;
	h->backlog = s->backlog;
	return 0;
}

/* See hostlim.h. */
int hostlim_collect_listeners(struct host_limits *l)
{
	l->nlisteners = 0;
	l->listeners_truncated = false;
	if (sockdiag_listeners(add_listener, l) < 0)
		return -1;
	l->listeners_read = true;
	return 0;
}
