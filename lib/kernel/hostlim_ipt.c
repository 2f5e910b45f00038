/* The iptables rules that limit connections (-m limit, hashlimit,
 * connlimit): nft lists iptables-nft's hashlimit and connlimit only as
 * an opaque match, and iptables-legacy's not at all, so their rate comes
 * from iptables-save's text. */
#include "kernel/hostlim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IPT_TOKENS 64

/* Copies src into a fixed field. */
static void set_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src != NULL ? src : "");
}

/* "2/sec", "3/minute", "1kb/s" into r: the count, its unit, bytes. */
static void rate_into(const char *v, struct hl_rule *r)
{
	static const struct {
		const char *a;
		const char *per;
	} units[] = {{"s", "second"},  {"sec", "second"}, {"second", "second"},
	             {"m", "minute"},  {"min", "minute"}, {"minute", "minute"},
	             {"h", "hour"},    {"hour", "hour"},  {"d", "day"},
	             {"day", "day"}};
	const char *slash = strchr(v, '/');
	char *end;

	r->value = strtoull(v, &end, 10);
	r->bytes = end != slash; /* "1kb/s": a byte rate */
	r->kind = HL_LIMIT;
	if (slash == NULL) {
		r->other = true;
		return;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(slash + 1, units[i].a) == 0)
			set_str(r->per, sizeof(r->per), units[i].per);
	if (r->per[0] == '\0')
		r->other = true;
}

/* "29500", "29400:29500" or "a,b:c" (multiport) into r's ranges. */
static void ports_into(const char *v, struct hl_rule *r)
{
	while (*v != '\0' && r->nranges < HL_RANGES) {
		char *end;
		unsigned long lo = strtoul(v, &end, 10), hi = lo;

		if (end == v) {
			r->other = true;
			return;
		}
		if (*end == ':')
			hi = strtoul(end + 1, &end, 10);
		r->lo[r->nranges] = (unsigned)lo;
		r->hi[r->nranges++] = (unsigned)hi;
		if (*end != ',')
			break;
		v = end + 1;
	}
}

/* Removes every whole occurrence of words (" --opt value") from s. */
static void drop_words(char *s, const char *words)
{
	size_t n = strlen(words);
	char *p;

	while ((p = strstr(s, words)) != NULL &&
	       (p[n] == ' ' || p[n] == '\0'))
		memmove(p, p + n, strlen(p + n) + 1);
}

/* True when module m is one this reader follows. */
static bool known_module(const char *m)
{
	static const char *const ok[] = {"tcp",      "udp",       "multiport",
	                                 "conntrack", "state",    "comment",
	                                 "limit",    "hashlimit", "connlimit",
	                                 NULL};

	for (size_t i = 0; ok[i] != NULL; i++)
		if (strcmp(m, ok[i]) == 0)
			return true;
	return false;
}

/* One "-A INPUT ..." line's tokens into r. Returns true when it limits. */
static bool line_into(char **t, size_t n, struct hl_rule *r)
{
	bool lim = false;

	for (size_t i = 2; i < n; i++) {
		const char *o = t[i], *v = i + 1 < n ? t[i + 1] : "";

		if (strcmp(o, "!") == 0 || strchr(o, '"') != NULL) {
			r->other = true;
			continue;
		}
		if (!strcmp(o, "-p")) {
			set_str(r->proto, sizeof(r->proto),
			        strncmp(v, "icmp", 4) == 0 ? "icmp" : v);
		} else if (!strcmp(o, "-m")) {
			if (!known_module(v))
				r->other = true;
		} else if (!strcmp(o, "--dport") || !strcmp(o, "--dports") ||
		           !strcmp(o, "--destination-ports")) {
			ports_into(v, r);
		} else if (!strcmp(o, "--syn")) {
			r->new_only = true;
			continue;
		} else if (!strcmp(o, "--tcp-flags")) {
			/* --tcp-flags MASK COMP: COMP SYN is --syn */
			if (i + 2 < n && strcmp(t[i + 2], "SYN") == 0)
				r->new_only = true;
			else
				r->other = true;
			i++;
		} else if (!strcmp(o, "--ctstate") || !strcmp(o, "--state")) {
			if (strcmp(v, "NEW") == 0)
				r->new_only = true;
			else
				r->other = true;
		} else if (!strcmp(o, "--limit") || !strcmp(o, "--hashlimit-upto") ||
		           !strcmp(o, "--hashlimit")) {
			rate_into(v, r);
			lim = true;
		} else if (!strcmp(o, "--hashlimit-above")) {
			rate_into(v, r);
			r->over = lim = true;
		} else if (!strcmp(o, "--limit-burst") ||
		           !strcmp(o, "--hashlimit-burst")) {
			r->burst = strtoul(v, NULL, 10);
		} else if (!strcmp(o, "--hashlimit-mode")) {
			r->per_source = strstr(v, "srcip") != NULL;
		} else if (!strcmp(o, "--connlimit-above") ||
		           !strcmp(o, "--connlimit-upto")) {
			r->kind = HL_CT_COUNT;
			r->value = strtoull(v, NULL, 10);
			r->over = strcmp(o, "--connlimit-above") == 0;
			r->per_source = true; /* by source unless --connlimit-daddr */
			lim = true;
		} else if (!strcmp(o, "--connlimit-daddr")) {
			r->per_source = false;
			continue;
		} else if (!strcmp(o, "-j")) {
			if (!strcmp(v, "DROP"))
				set_str(r->verdict, sizeof(r->verdict), "drop");
			else if (!strcmp(v, "REJECT"))
				set_str(r->verdict, sizeof(r->verdict), "reject");
			else if (!strcmp(v, "ACCEPT"))
				set_str(r->verdict, sizeof(r->verdict), "accept");
			else
				r->other = true;
		} else if (!strcmp(o, "-s") || !strcmp(o, "-i") ||
		           !strcmp(o, "--comment") || !strcmp(o, "--name") ||
		           !strcmp(o, "--hashlimit-name") ||
		           !strcmp(o, "--connlimit-mask") ||
		           !strcmp(o, "--hashlimit-htable-expire") ||
		           !strcmp(o, "--reject-with")) {
			; /* an argument that changes nothing here */
		} else if (!strcmp(o, "--connlimit-saddr")) {
			continue;
		} else if (o[0] == '-') {
			r->other = true;
			continue; /* its arity is unknown: the next token is read */
		} else {
			continue;
		}
		i++; /* the option's argument */
	}
	return lim;
}

/* See hostlim.h. */
size_t hostlim_parse_iptables(const char *text, const char *tool,
                              bool only_xt, struct host_limits *l)
{
	size_t added = 0;
	long pos = 0;
	bool filter = false;

	for (const char *p = text; p != NULL && *p != '\0';) {
		const char *start = p, *nl = strchr(p, '\n');
		size_t len = nl != NULL ? (size_t)(nl - p) : strlen(p);
		char line[1024], *t[IPT_TOKENS], *save = NULL;
		size_t n = 0;
		struct hl_rule r;

		p = nl != NULL ? nl + 1 : NULL;
		if (len == 0 || len >= sizeof(line))
			continue;
		memcpy(line, start, len);
		line[len] = '\0';
		if (line[0] == '*')
			filter = strcmp(line, "*filter") == 0;
		if (!filter || strncmp(line, "-A INPUT ", 9) != 0)
			continue;
		pos++;
		/* a spec the command could not hold whole is no command */
		if (len - 3 >= sizeof(r.spec))
			continue;
		memset(&r, 0, sizeof(r));
		memcpy(r.spec, line + 3, len - 3 + 1);
		/* iptables-save writes connlimit's default mask, which -D
		 * then refuses ("Bad rule"): the default goes */
		drop_words(r.spec, " --connlimit-mask 32");
		for (char *w = strtok_r(line, " ", &save);
		     w != NULL && n < IPT_TOKENS; w = strtok_r(NULL, " ", &save))
			t[n++] = w;
		if (!line_into(t, n, &r) ||
		    (only_xt && r.kind == HL_LIMIT &&
		     strstr(r.spec, "-m hashlimit") == NULL))
			continue;
		if (l->nrules >= HL_MAX_RULES) {
			l->truncated = true;
			break;
		}
		set_str(r.family, sizeof(r.family), "ip");
		set_str(r.table, sizeof(r.table), "filter");
		set_str(r.chain, sizeof(r.chain), "INPUT");
		set_str(r.tool, sizeof(r.tool), tool);
		r.handle = pos;
		l->rules[l->nrules++] = r;
		added++;
	}
	return added;
}
